// The replay viewer: a record's table at any step, as any seat saw it or all of them.
// Views are computed by the server (POST /api/replays) with the engine; this page only
// draws them, with the game's own module (read-only: no actions).

import { el, getJSON, outcomeWords, patternDefs, seatBadge, seatOf, svg } from "/static/common.js";

const $ = (id) => document.getElementById(id);
let record = null;
let module = {};
let catalog = {};
let asked = 0;

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
  $("step").max = steps;
  $("step").value = steps;
  const seat = $("seat");
  seat.replaceChildren(
    el("option", { value: "all" }, "everything (every seat, every action)"),
    el("option", { value: "none" }, "a spectator"),
    ...first.seats.map((s) => el("option", { value: s.seat }, seatOf(first, s.seat).label)),
  );
  $("title").textContent = `Replay: ${game}${tableId ? " · table " + tableId : ""}`;
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
  const view = await fetchView(step, seat, false, () => ticket === asked);
  if (!view || ticket !== asked) return;
  draw(view, step);
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
  const next = r.next === null ? "the end" : `next: ${r.next_player < 0 ? "chance" : seatOf(view, r.next_player).label}: ${r.next}`;
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
  $("log").replaceChildren(...view.log.map((line) => el("li", {}, line)));
  $("log").scrollTop = $("log").scrollHeight;
  $("back").disabled = step === 0;
  $("first").disabled = step === 0;
  $("forward").disabled = step === r.steps;
  $("last").disabled = step === r.steps;
}

function move(delta) {
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
$("step").addEventListener("input", show);
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
  openRecord(data, null);
});
const fromHash = new URLSearchParams(location.hash.slice(1)).get("table");
if (fromHash) {
  $("table-id").value = fromHash;
  openTable(fromHash);
}
