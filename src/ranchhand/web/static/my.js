// "My tables" (/my): the tables whose seat tokens this browser keeps (saved.js), each read
// with its own token from GET /api/tables/{id} (the token goes to this server only, in a
// header): the game, who sits where, whose turn it is. Your turn first, then tables still
// playing, then the ones over or gone (finished, closed or unknown here), which may be
// forgotten.

import { el, getJSON, outcomeWords, patternDefs, seatSwatch } from "/static/common.js";
import { MAX_TABLES, forgetTable, myTables, seatLink } from "/static/saved.js";

const $ = (id) => document.getElementById(id);
const ORDER = { yours: 0, playing: 1, finished: 2, expired: 3, gone: 4, unknown: 5 };
const AT_ONCE = 8; // tables read at a time: well inside the server's request rate
let gameNames = {};

/** One kept table as the server sees it now, read with the first seat's token. */
async function look(entry) {
  const first = Object.values(entry.seats)[0];
  let reply;
  try {
    reply = await fetch(`/api/tables/${encodeURIComponent(entry.id)}`, {
      headers: { Authorization: `Bearer ${first.token}` },
    });
  } catch (error) {
    return { entry, view: null, state: "unknown", error: error.message };
  }
  // 404: no such table here; 403: the token opens no seat (the database was reset).
  if (reply.status === 404 || reply.status === 403) return { entry, view: null, state: "gone" };
  if (!reply.ok) return { entry, view: null, state: "unknown", error: `HTTP ${reply.status}` };
  const view = await reply.json();
  const held = Object.keys(entry.seats).map(Number);
  const yours = view.status === "playing" && view.to_act.some((s) => held.includes(s));
  return { entry, view, state: yours ? "yours" : view.status };
}

function words(found) {
  const { view, state } = found;
  if (state === "yours") return "your turn";
  if (state === "playing") {
    const names = view.to_act.map((s) => `P${s} ${view.seats[s].name}`);
    return names.length ? `waiting for ${names.join(" and ")}` : "playing";
  }
  if (state === "finished") return `finished: ${outcomeWords(view)}`;
  if (state === "expired") return "closed: nothing happened there for too long";
  if (state === "gone") return "this server no longer knows this table or seat";
  return `could not be read now (${found.error})`;
}

function item(found) {
  const { entry, view, state } = found;
  const held = Object.keys(entry.seats).map(Number);
  const seats = view
    ? view.seats.map((s) => el("span", { class: held.includes(s.seat) ? "seat-badge mine" : "seat-badge" }, seatSwatch(s.seat), `P${s.seat} ${s.name}${held.includes(s.seat) ? " (you)" : ""}`))
    : held.map((s) => el("span", { class: "seat-badge mine" }, seatSwatch(s), `P${s} ${entry.seats[s].name} (you)`));
  const over = !["yours", "playing", "unknown"].includes(state);
  const li = el(
    "li",
    { "data-my-table": entry.id, "data-state": state },
    el("strong", {}, gameNames[entry.game] || entry.game),
    el("span", { class: state === "yours" ? "turn-mark" : "meta", "data-turn": state }, words(found)),
    el("span", { class: "meta seats-line" }, ...seats),
    state === "gone" ? null : el("a", { href: seatLink(entry) }, state === "yours" ? "Play" : over ? "See the table" : "Open"),
    state === "finished" ? el("a", { href: `/replay#table=${encodeURIComponent(entry.id)}` }, "Replay") : null,
    over
      ? el("button", { type: "button", class: "small", "data-forget": entry.id, onclick: () => { forgetTable(entry.id); li.remove(); } }, "Forget")
      : null,
  );
  return li;
}

async function main() {
  document.body.prepend(patternDefs());
  $("my-limit").textContent = `The newest ${MAX_TABLES} are kept.`;
  const kept = myTables().slice(0, MAX_TABLES);
  if (!kept.length) {
    $("my-status").replaceChildren("No seat kept in this browser yet: ", el("a", { href: "/" }, "create or join a table"), ".");
    return;
  }
  try {
    gameNames = Object.fromEntries((await getJSON("/api/games")).games.map((g) => [g.id, g.name]));
  } catch {
    gameNames = {};
  }
  const found = [];
  for (let i = 0; i < kept.length; i += AT_ONCE) found.push(...(await Promise.all(kept.slice(i, i + AT_ONCE).map(look))));
  found.sort((a, b) => ORDER[a.state] - ORDER[b.state]); // stable: newest first within each
  const yours = found.filter((f) => f.state === "yours").length;
  $("my-status").textContent = yours ? `Your turn at ${yours === 1 ? "1 table" : `${yours} tables`}.` : "It is nobody's turn of yours now.";
  $("my-list").replaceChildren(...found.map(item));
}

main();
