// The table page's memory in this browser (saved.js): a seat opened with its token is
// kept for the "My tables" page (/my), and the creator of a table finds the other people's
// seat links, kept by the lobby, in an "Invite" box beside the seats (open the first time,
// folded on later visits). Called by shell.js with each connection's first view; nothing
// here is sent anywhere.

import { copyButton, el, seatSwatch } from "/static/common.js";
import { invitesFor, invitesShown, keepSeat } from "/static/saved.js";

let invited = false;

/** A connection's first view: keep its seat (with a token only), and draw the creator's
 * invitations once. ``tokens`` is every token this page holds (more than one: hot seat). */
export function seatSeen(tableId, token, tokens, view) {
  if (token && view.you !== null && view.you !== undefined) {
    const seat = (view.seats || [])[view.you];
    keepSeat(tableId, view.game, view.you, token, seat ? seat.name : "", tokens.length > 1);
  }
  if (!invited && view.status === "playing") {
    invited = true;
    drawInvites(tableId, view);
  }
}

function drawInvites(tableId, view) {
  const kept = invitesFor(tableId);
  const anchor = document.getElementById("seats");
  if (!kept || !anchor) return;
  const free = kept.open.filter((seat) => ((view.seats || [])[seat] || {}).open);
  if (!kept.seats.length && !free.length) return;
  const page = `${location.origin}/tables/${encodeURIComponent(tableId)}`;
  const box = el(
    "details",
    { id: "invite", class: "invite", "data-invite": "", open: !kept.shown },
    el("summary", {}, `Invite (${[
      kept.seats.length ? `${kept.seats.length} ${kept.seats.length === 1 ? "link" : "links"} to send` : "",
      free.length ? `${free.length} open ${free.length === 1 ? "seat" : "seats"}` : "",
    ].filter(Boolean).join(" · ")})`),
    kept.seats.length
      ? [
        el("p", {}, "Send each person the link of their seat: it is their key to it, so send it to them alone."),
        el(
          "ul",
          { class: "links" },
          ...kept.seats.map((s) =>
            el(
              "li",
              { "data-invite-seat": s.seat },
              el("span", { class: "seat-badge" }, seatSwatch(s.seat), `P${s.seat} ${s.name}`),
              " ",
              el("a", { href: s.url, "data-seat-link": s.seat }, "their seat"),
              " ",
              copyButton(s.url, "Copy link"),
            )),
        ),
      ]
      : null,
    free.length
      ? el(
        "p",
        { "data-invite-open": free.join(",") },
        `${free.map((s) => `P${s}`).join(", ")} ${free.length === 1 ? "is" : "are"} open for anyone: whoever opens the lobby first may sit down there. `,
        copyButton(`${location.origin}/`, "Copy the lobby's link"),
      )
      : null,
    el("p", {}, "Anyone may watch from this table's page. ", copyButton(page, "Copy the table's link")),
  );
  anchor.after(box);
  invitesShown(tableId); // open the first time; folded away on later visits, still there
}
