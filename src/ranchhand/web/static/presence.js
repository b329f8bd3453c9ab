// Who is at the table: each seat chip (#seats li[data-seat]) gets
// data-presence="online|away|offline" from the WebSocket's {"presence": [...]} frames,
// and this page tells the server whether it is looked at: {"presence": "hidden"} once
// the tab has been hidden a few seconds, "idle" after minutes without input, "visible"
// again. A person's seat offline long enough gets a "hand to a bot" button on the other
// seats' pages (PUT /api/tables/{id}/seats/{seat}). See docs/web.md, "Presence".

import { el, getJSON } from "/static/common.js";

const HIDDEN_AFTER_MS = 5000; // a glance at another tab is not being away
const IDLE_AFTER_MS = 5 * 60 * 1000; // no key, click or touch for this long: away
const WORDS = { online: "online", away: "away", offline: "offline" };

let tableId = "";
let sockets = () => [];
let report = () => {};
let frame = null; // the last {"presence": [...], "hand_over_bot": ...} frame
let seen = { view: null, token: null };
let said = "visible";
let hiddenTimer = null;
let lastInput = Date.now();

/** Start telling the server how this page is looked at; ``connections()`` are the
 * page's sockets (each holds a seat or watches), ``onError(text)`` shows a refusal. */
export function startPresence(id, connections, onError) {
  tableId = id;
  sockets = connections;
  report = onError;
  document.addEventListener("visibilitychange", () => {
    clearTimeout(hiddenTimer);
    if (document.visibilityState === "hidden") {
      hiddenTimer = setTimeout(() => say("hidden"), HIDDEN_AFTER_MS);
    } else {
      lastInput = Date.now();
      say("visible");
    }
  });
  for (const type of ["pointerdown", "keydown", "wheel", "touchstart"]) {
    window.addEventListener(type, () => {
      lastInput = Date.now();
      if (said === "idle") say("visible");
    }, { passive: true });
  }
  setInterval(() => {
    if (said === "visible" && Date.now() - lastInput > IDLE_AFTER_MS) say("idle");
  }, 15000);
}

function say(state) {
  if (state === said) return;
  said = state;
  for (const connection of sockets()) connection.send({ presence: state });
}

/** A socket (re)opened: the server counts it visible until told otherwise. */
export function sayPresence(connection) {
  if (said !== "visible") connection.send({ presence: said });
}

/** A {"presence": [...]} frame from the WebSocket. */
export function onPresence(data) {
  frame = data;
  mark();
}

/** The seat chips were drawn anew for ``view`` (the seat ``token`` holds). */
export function markSeats(view, token) {
  seen = { view, token };
  mark();
}

function mark() {
  const view = seen.view;
  offerTakeBack(view);
  if (!frame) return;
  for (const chip of document.querySelectorAll("#seats li[data-seat]")) {
    const seat = Number(chip.dataset.seat);
    const entry = frame.presence.find((p) => p.seat === seat);
    chip.querySelectorAll(".presence, [data-hand-over]").forEach((node) => node.remove());
    if (!entry) {
      delete chip.dataset.presence;
      continue;
    }
    chip.dataset.presence = entry.state;
    const since = new Date(entry.since * 1000).toLocaleTimeString();
    chip.prepend(el("span", {
      class: `presence ${entry.state}`, role: "img",
      "aria-label": WORDS[entry.state], title: `${WORDS[entry.state]} since ${since}`,
    }));
    const mine = view && view.you !== null && view.you !== undefined;
    if (entry.hand_over && mine && seat !== view.you && seen.token && frame.hand_over_bot
        && view.status === "playing") {
      chip.append(" ", el("button", {
        type: "button", class: "small hand-over", "data-hand-over": seat,
        onclick: () => handOver(seat, frame.hand_over_bot),
      }, `Hand to the ${frame.hand_over_bot} bot`));
    }
  }
}

/** The page's own seat is played by a bot (handed over while its person was away, or by
 * themselves): a button on its chip takes it back. */
function offerTakeBack(view) {
  if (!view || view.you === null || view.you === undefined || !seen.token) return;
  const own = view.seats[view.you];
  const chipOf = document.querySelector(`#seats li[data-seat="${view.you}"]`);
  if (!own || !chipOf || own.kind === "human" || view.status !== "playing") return;
  if (chipOf.querySelector("[data-take-back]")) return;
  chipOf.append(" ", el("button", {
    type: "button", class: "small hand-over", "data-take-back": view.you,
    onclick: () => setSeat(view.you, "human"),
  }, "Take my seat back"));
}

function handOver(seat, bot) {
  return setSeat(seat, bot);
}

async function setSeat(seat, kind) {
  const token = seen.token;
  if (!token) return;
  try {
    await getJSON(`/api/tables/${encodeURIComponent(tableId)}/seats/${seat}`, {
      method: "PUT",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify({ kind }),
    });
  } catch (error) {
    report(error.message);
  }
}
