// The replay viewer: a record's table at any step, as any seat saw it or all of them.
// Views are computed by the server (POST /api/replays) with the engine; this page only
// draws them, with the game's own module (read-only: no actions). It opens at step 0
// (or the URL's #step=N, kept in the URL as one moves) and plays the steps by itself
// at a chosen speed (remembered in this browser); see docs/web.md.

import { el, getJSON, outcomeWords, patternDefs, seatBadge, seatOf, svg } from "/static/common.js";
import { logItem, logSwitch } from "/static/log.js";

const $ = (id) => document.getElementById(id);
let record = null;
let module = {};
let catalog = {};
let asked = 0;
let tableShown = null;      // the open table's id (null: a record from a file)
let playing = false;        // autoplay is on
let playTimer = null;       // the next autoplay step, once the current one is drawn

const SPEEDS = ["0.5", "1", "2", "4"];
const SPEED_KEY = "ranchhand.replay.speed";
const STEP_MS = 1000;       // one step a second at 1x

async function openRecord(data, tableId) {
  $("error").textContent = "";
  record = data;
  const game = data.game;
  module = await import(`/static/games/${game}.js`).catch(() => ({}));
  catalog = tableId ? await getJSON(`/api/tables/${encodeURIComponent(tableId)}/catalog`).catch(() => ({})) : {};
  const first = await fetchView(0, "all", !tableId);
  if (!first) return;
  if (!tableId && !Object.keys(catalog).length) catalog = first.catalog || {};
  const steps = first.replay.steps;
  tableShown = tableId;
  stop();
  $("step").max = steps;
  $("step").value = String(Math.min(steps, stepFromHash()));
  const seat = $("seat");
  seat.replaceChildren(
    el("option", { value: "all" }, "everything (every seat, every action)"),
    el("option", { value: "none" }, "a spectator"),
    ...first.seats.map((s) => el("option", { value: s.seat }, seatOf(first, s.seat).label)),
  );
  const games = await getJSON("/api/games").catch(() => ({ games: [] }));
  const known = games.games.find((g) => g.id === game);
  $("title").textContent = `Replay: ${known ? known.name : game}${tableId ? " · table " + tableId : ""}`;
  $("viewer").hidden = false;
  show();
}

// A long record is checked a slice per request (the server bounds each one's CPU): a
// 503 or 429 with Retry-After means "ask again then", which this does while the view
// is still wanted (``wanted()``), saying how far the check has come.
async function fetchView(step, seat, withCatalog = false, wanted = () => true) {
  for (let tries = 0; ; tries++) {
    let reply;
    let body;
    try {
      reply = await fetch("/api/replays", {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ record, step, seat, catalog: withCatalog }),
      });
      body = await reply.json().catch(() => ({ error: `${reply.status} ${reply.statusText}` }));
    } catch (error) {
      $("error").textContent = error.message;
      return null;
    }
    if (reply.ok) {
      $("error").textContent = "";
      return body;
    }
    const wait = Number(reply.headers.get("Retry-After"));
    const again = (reply.status === 503 || reply.status === 429) && wait > 0 && tries < 60;
    $("error").textContent = again ? `${body.error} (asking again in ${wait} s)` : body.error || `HTTP ${reply.status}`;
    if (!again || !wanted()) return null;
    await new Promise((done) => setTimeout(done, wait * 1000));
    if (!wanted()) return null;
  }
}

async function show() {
  const step = Number($("step").value);
  const choice = $("seat").value;
  const seat = choice === "all" ? "all" : choice === "none" ? null : Number(choice);
  const ticket = ++asked;
  keepInURL(step);
  const view = await fetchView(step, seat, false, () => ticket === asked);
  if (ticket !== asked) return;
  if (!view) {
    stop(); // the error line says why; autoplay does not go on past it
    return;
  }
  draw(view, step);
  if (playing) schedule();
}

// ---------------------------------------------------------------- the URL

/** The step the URL asks for (#step=N), else 0: a replay opens at its start. */
function stepFromHash() {
  const wanted = Number(new URLSearchParams(location.hash.slice(1)).get("step"));
  return Number.isInteger(wanted) && wanted > 0 ? wanted : 0;
}

/** #table=ID&step=N (or #step=N for a file), replaced in place: moving adds no history. */
function keepInURL(step) {
  const hash = new URLSearchParams();
  if (tableShown) hash.set("table", tableShown);
  hash.set("step", String(step));
  history.replaceState(null, "", `#${hash}`);
}

// ---------------------------------------------------------------- autoplay

function speed() {
  return Number($("speed").value) || 1;
}

function play() {
  if (!record) return;
  const slider = $("step");
  if (Number(slider.value) >= Number(slider.max)) slider.value = "0"; // from the start again
  playing = true;
  drawPlaying();
  show();
}

/** Pause (also at the end, and when the reader moves by hand). */
function stop() {
  playing = false;
  clearTimeout(playTimer);
  playTimer = null;
  drawPlaying();
}

/** The next step, a step's time after the current one was drawn (a slow answer never
 * makes steps pile up); stops at the last step. */
function schedule() {
  clearTimeout(playTimer);
  const slider = $("step");
  if (Number(slider.value) >= Number(slider.max)) {
    stop();
    return;
  }
  playTimer = setTimeout(() => {
    if (!playing) return;
    slider.value = String(Number(slider.value) + 1);
    show();
  }, STEP_MS / speed());
}

function drawPlaying() {
  const button = $("play");
  button.dataset.playing = String(playing);
  button.setAttribute("aria-label", playing ? "Pause" : "Play");
  button.setAttribute("aria-pressed", String(playing));
}

function board(view) {
  const box = el("div", { class: "board", "aria-label": "The table" });
  const controls = el("div", { class: "controls" });
  const ui = {
    board: box, controls, catalog, you: view.you, el, svg,
    seat: (i) => seatOf(view, i), act: () => {}, status: () => {},
  };
  if (typeof module.render === "function") {
    try {
      module.render(view, ui);
    } catch (error) {
      box.replaceChildren(el("pre", { class: "raw" }, JSON.stringify(view.observation, null, 1)));
    }
  } else {
    box.replaceChildren(el("pre", { class: "raw" }, JSON.stringify(view.observation, null, 1)));
  }
  for (const button of controls.querySelectorAll("button")) button.disabled = true;
  return [box, controls];
}

function draw(view, step) {
  const r = view.replay;
  const next = r.next === null ? "the end"
    : r.next_player === -2 ? "next: an undo (the last move is taken back)" // docs/server.md, "Undo"
    : `next: ${r.next_player < 0 ? "chance" : seatOf(view, r.next_player).label}: ${r.next}`;
  $("where").textContent = `Step ${step} of ${r.steps} · ${next}` + (view.outcome ? ` · ${outcomeWords(view)}` : "");
  if (view.outcome) $("where").dataset.outcome = JSON.stringify(view.outcome);
  else delete $("where").dataset.outcome;
  document.body.dataset.step = String(step);
  $("seats").replaceChildren(...view.seats.map((s, i) => el("li", { class: `seat${view.to_act.includes(i) ? " acting" : ""}` },
    view.to_act.includes(i) ? el("span", { class: "marker", "aria-label": "to act" }, "▶") : null, seatBadge(view, i))));
  const boards = $("boards");
  if (r.seat === "all") {
    boards.replaceChildren(el("div", { class: "seat-views" }, ...view.seat_views.map((v) =>
      el("section", {}, el("h3", {}, "As ", seatBadge(v, v.you), " saw it"), ...board(v)))));
  } else {
    boards.replaceChildren(...board(view));
  }
  logSwitch(el, $("log"), () => drawLogOf(logView)); // log.js: words, or the notation
  drawLogOf(view);
  $("log").scrollTop = $("log").scrollHeight;
  $("back").disabled = step === 0;
  $("first").disabled = step === 0;
  $("forward").disabled = step === r.steps;
  $("last").disabled = step === r.steps;
}

function move(delta) {
  stop();
  const slider = $("step");
  slider.value = String(Math.min(Number(slider.max), Math.max(0, Number(slider.value) + delta)));
  show();
}

async function openTable(id) {
  try {
    const data = await getJSON(`/api/tables/${encodeURIComponent(id)}/record`);
    await openRecord(data, id);
  } catch (error) {
    $("error").textContent = `Table ${id}: ${error.message}`;
  }
}

document.body.prepend(patternDefs());
$("step").addEventListener("input", () => {
  stop();
  show();
});
$("play").addEventListener("click", () => (playing ? stop() : play()));
const remembered = localStorage.getItem(SPEED_KEY);
if (SPEEDS.includes(remembered)) $("speed").value = remembered;
$("speed").addEventListener("change", () => {
  localStorage.setItem(SPEED_KEY, $("speed").value);
  if (playing) schedule();
});
// Keys: space plays or pauses, the arrows step, Home and End jump. Typing in a field
// and keys a control handles itself (the slider's arrows, a button's space) are left alone.
document.addEventListener("keydown", (event) => {
  if (!record || $("viewer").hidden || event.ctrlKey || event.metaKey || event.altKey) return;
  const target = event.target instanceof HTMLElement ? event.target : null;
  if (target && target.closest("input, select, textarea, [contenteditable]")) return;
  if (target && target.closest("button, a") && (event.key === " " || event.key === "Enter")) return;
  const keys = {
    " ": () => (playing ? stop() : play()),
    ArrowLeft: () => move(-1),
    ArrowRight: () => move(1),
    Home: () => move(-1e9),
    End: () => move(1e9),
  };
  if (!keys[event.key]) return;
  event.preventDefault();
  keys[event.key]();
});
$("seat").addEventListener("change", show);
$("first").addEventListener("click", () => move(-1e9));
$("back").addEventListener("click", () => move(-1));
$("forward").addEventListener("click", () => move(1));
$("last").addEventListener("click", () => move(1e9));
$("by-table").addEventListener("submit", (event) => {
  event.preventDefault();
  const id = $("table-id").value.trim();
  if (id) {
    history.replaceState(null, "", `#table=${encodeURIComponent(id)}`);
    openTable(id);
  }
});
$("record-file").addEventListener("change", async () => {
  const file = $("record-file").files[0];
  if (!file) return;
  if (file.size > 2_000_000) {
    $("error").textContent = "That file is over 2 MB: not a record this viewer opens.";
    return;
  }
  let data;
  try {
    data = JSON.parse(await file.text());
  } catch {
    $("error").textContent = "That file is not JSON.";
    return;
  }
  history.replaceState(null, "", location.pathname);
  openRecord(data, null);
});
// A step typed into the URL (#step=N) is gone to; the page's own moves replace the
// URL without this event.
window.addEventListener("hashchange", () => {
  if (!record) return;
  const table = new URLSearchParams(location.hash.slice(1)).get("table");
  if (table && table !== tableShown) {
    openTable(table);
    return;
  }
  stop();
  $("step").value = String(Math.min(Number($("step").max), stepFromHash()));
  show();
});
const fromHash = new URLSearchParams(location.hash.slice(1)).get("table");
if (fromHash) {
  $("table-id").value = fromHash;
  openTable(fromHash);
}

let logView = null; // the view whose log is on screen (the notation switch redraws it)

/** The log of `view` in words (the notation as each entry's title), or in notation. */
function drawLogOf(view) {
  logView = view;
  $("log").replaceChildren(...view.log.map((_, i) => logItem(el, view, i)));
}
