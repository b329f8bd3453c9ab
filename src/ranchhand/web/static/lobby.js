// The lobby: create a table from the registry's games, options, bot levels and pace (turn
// clock, bots' delay), then go straight to your seat in this tab; list the tables open and
// playing (free seats first), the finished ones on demand under "Finished games"; join a
// free seat (a seat created "open for anyone" is claimed once: POST .../seats/N/claim).
// The name you choose is remembered in this browser (saved.js).

import { el, getJSON, patternDefs, postJSON, seatSwatch } from "/static/common.js";
import { keepInvites, myTables, saveName, savedName, seatLink } from "/static/saved.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 10000;
let games = [];
let filter = "";
let loads = 0; // loadTables calls so far: an answer to an older one is dropped
let historyBefore = null; // the last finished table's `updated`, to page on from

/** "1 person", "2 people": a count and its noun, singular or plural. */
function count(n, one, many) {
  return `${n} ${n === 1 ? one : many}`;
}

function firstSentence(text) {
  const match = /^(.+?[.!?])(\s|$)/.exec(text || "");
  return match ? match[1] : text || "";
}

function current() {
  return games.find((g) => g.id === $("game").value);
}

/** The bots a person may seat at ``game``: its levels in words (older servers: its names). */
function levels(game) {
  if (game.bot_levels) return game.bot_levels;
  return game.bots.map((kind) => ({ kind, label: `bot: ${kind}`, search: false, doc: "" }));
}

function drawGame() {
  const game = current();
  $("game-doc").replaceChildren(
    `${game.min_players} to ${game.max_players} players. `,
    el("a", { href: game.rules, target: "_blank", rel: "noopener" }, "Rules"),
  );
  const players = $("players");
  const wanted = Number(players.value) || Math.min(Math.max(3, game.min_players), game.max_players);
  players.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n++) {
    players.append(el("option", { value: n, selected: n === wanted }, String(n)));
  }
  drawSeats();
  drawOptions(game);
  drawClockBot(game);
}

/** Who moves for a person out of time: a bot that answers at once (no search). */
function drawClockBot(game) {
  const quick = levels(game).filter((b) => !b.search);
  $("clock-bot").replaceChildren(...quick.map((b, i) => el("option", { value: b.kind, selected: i === 0 }, b.label)));
  $("clock-bot-row").hidden = !$("clock").value;
}

function drawSeats() {
  const game = current();
  const bots = levels(game);
  const count = Number($("players").value);
  const rows = $("seat-rows");
  const old = [...rows.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector("select").value,
    name: row.querySelector("input").value,
  }));
  rows.replaceChildren();
  for (let i = 0; i < count; i++) {
    const fallback = i === 0 ? "human" : bots[0].kind;
    const wanted = old[i] ? old[i].kind : fallback;
    const kinds = ["human", "open", ...bots.map((b) => b.kind)];
    const kind = kinds.includes(wanted) ? wanted : fallback;
    const words = { human: "a person", open: "open for anyone" };
    const select = el(
      "select",
      { id: `seat-kind-${i}`, "aria-label": `P${i}: who plays`, onchange: () => { fillName(); drawBotDoc(); } },
      el("option", { value: "human", selected: kind === "human" }, words.human),
      el("option", { value: "open", selected: kind === "open" }, words.open),
      el(
        "optgroup",
        { label: "Bots" },
        ...bots.map((b) => el("option", { value: b.kind, selected: b.kind === kind, title: b.doc }, b.label)),
      ),
    );
    const name = el("input", {
      type: "text", id: `seat-name-${i}`, maxlength: 32, "aria-label": `P${i}: name`,
      placeholder: "name", value: old[i] ? old[i].name : "", autocomplete: "off",
    });
    rows.append(el("div", { class: "seat-row" }, el("span", { class: "seat-badge" }, seatSwatch(i), `P${i}`), select, name));
  }
  fillName();
  drawBotDoc();
}

/** Your remembered name in your seat (the first a person plays), if it has none yet. */
function fillName() {
  const name = savedName();
  const rows = [...$("seat-rows").querySelectorAll(".seat-row")];
  const mine = rows.find((row) => row.querySelector("select").value === "human");
  const input = mine && mine.querySelector("input");
  if (name && input && !input.value) input.value = name;
}

/** What the bots chosen for this table do, in a sentence each. */
function drawBotDoc() {
  const bots = levels(current());
  const chosen = new Set([...$("seat-rows").querySelectorAll("select")].map((s) => s.value));
  const used = bots.filter((b) => chosen.has(b.kind) && b.doc);
  $("bot-doc").replaceChildren(...used.map((b) => el("span", { class: "bot-level", "data-bot-level": b.kind }, `${b.label}: ${b.doc} `)));
}

function drawOptions(game) {
  const box = $("options");
  box.replaceChildren(
    ...game.options.map((option) => {
      const id = `option-${option.name}`;
      let input;
      if (option.choices.length) {
        input = el(
          "select",
          { id, name: option.name },
          ...option.choices.map((c) => el("option", { value: String(c), selected: c === option.default }, String(c))),
        );
      } else if (option.kind === "int") {
        input = el("input", { type: "number", id, name: option.name, value: option.default, min: option.minimum ?? null, max: option.maximum ?? null });
      } else {
        input = el("input", { type: "text", id, name: option.name, value: option.default });
      }
      input.dataset.kind = option.kind;
      input.dataset.default = String(option.default);
      return el(
        "div",
        { class: "form-row" },
        el("label", { for: id }, option.name.replaceAll("_", " ")),
        input,
        el("p", { class: "doc", title: option.doc }, `${firstSentence(option.doc)} Default: ${option.default}.`),
      );
    }),
  );
}

function chosenOptions() {
  const options = {};
  for (const input of $("options").querySelectorAll("select, input")) {
    if (input.value === input.dataset.default) continue;
    const kind = input.dataset.kind;
    options[input.name] = kind === "int" ? Number(input.value) : kind === "bool" ? input.value === "true" : input.value;
  }
  return options;
}

/** POST /api/tables's body from the form. */
function newTable() {
  const rows = [...$("seat-rows").querySelectorAll(".seat-row")];
  const chosen = rows.map((row) => row.querySelector("select").value);
  const open = chosen.flatMap((kind, i) => (kind === "open" ? [i] : []));
  const seats = chosen.map((kind) => (kind === "open" ? "human" : kind));
  const names = rows.map((row, i) => row.querySelector("input").value.trim() || (seats[i] === "human" ? `Player ${i}` : seats[i]));
  const body = { game: $("game").value, players: seats.length, seats, names, options: chosenOptions() };
  if (open.length) body.open = open;
  body.bot_delay = Number($("bot-delay").value);
  if ($("clock").value) {
    body.clock = Number($("clock").value);
    if ($("clock-bot").value) body.clock_bot = $("clock-bot").value;
  }
  const typed = rows.find((row, i) => chosen[i] === "human" && row.querySelector("input").value.trim());
  return { body, typedName: typed ? typed.querySelector("input").value.trim() : "" };
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const { body, typedName } = newTable();
  let made;
  try {
    made = await postJSON("/api/tables", body);
  } catch (error) {
    $("create-error").textContent = error.message;
    return;
  }
  saveName(typedName);
  const page = `/tables/${encodeURIComponent(made.id)}`;
  const held = made.seats.filter((s) => s.token);
  if ($("hotseat").checked && held.length) {
    location.assign(`${page}#tokens=${held.map((s) => s.token).join(",")}`);
    return;
  }
  // You sit at the first person's seat; the others' links wait at your table ("Invite").
  const [mine, ...others] = held;
  keepInvites(
    made.id,
    others.map((s) => ({ seat: s.seat, name: s.name, url: `${location.origin}${page}#token=${s.token}` })),
    made.seats.filter((s) => s.open).map((s) => s.seat),
  );
  location.assign(mine ? `${page}#token=${mine.token}` : page);
}

// ---------------------------------------------------------------- the lists

function gameName(id) {
  const game = games.find((g) => g.id === id);
  return game ? game.name : id;
}

function ago(seconds) {
  const passed = Math.max(0, Date.now() / 1000 - seconds);
  if (passed < 90) return "just now";
  if (passed < 5400) return `${count(Math.round(passed / 60), "minute", "minutes")} ago`;
  if (passed < 129600) return `${count(Math.round(passed / 3600), "hour", "hours")} ago`;
  return `${count(Math.round(passed / 86400), "day", "days")} ago`;
}

function duration(seconds) {
  if (seconds % 86400 === 0) return count(seconds / 86400, "day", "days");
  if (seconds % 3600 === 0) return count(seconds / 3600, "hour", "hours");
  if (seconds % 60 === 0) return count(seconds / 60, "minute", "minutes");
  return count(seconds, "second", "seconds");
}

/** Who sits at a table, in words: "3 players: 1 person, 2 bots". */
function who(t) {
  const people = t.seats.filter((s) => s.kind === "human").length;
  const bots = t.seats.length - people;
  const parts = [count(people, "person", "people")];
  if (bots) parts.push(count(bots, "bot", "bots"));
  return `${count(t.players, "player", "players")}: ${parts.join(", ")}`;
}

async function loadCounts() {
  let facts;
  try {
    facts = await getJSON("/api/lobby");
  } catch {
    return;
  }
  const c = facts.counts;
  $("lobby-counts").textContent =
    `${count(c.free, "table waits", "tables wait")} for players · ${count(c.playing, "table", "tables")} playing · ${count(c.finished, "game", "games")} finished.`;
  $("history-count").textContent = `(${c.finished})`;
  if (facts.expire_after) {
    const bots = facts.expire_bots_only_after;
    $("expiry").textContent =
      `A table where nothing happens for ${duration(facts.expire_after)}` +
      (bots ? ` (${duration(bots)} where only bots sit)` : "") +
      " is closed and no longer listed.";
  }
}

async function fetchTables() {
  if (filter === "free") return (await getJSON("/api/tables?free=true")).tables;
  if (filter === "playing") return (await getJSON("/api/tables?status=playing")).tables;
  // Open and playing: the tables with a free seat first (asked for apart, so an old table
  // still waiting for someone is not pushed out by busy ones), then the others.
  const [free, playing] = await Promise.all([getJSON("/api/tables?free=true"), getJSON("/api/tables?status=playing")]);
  const seen = new Set(free.tables.map((t) => t.id));
  return [...free.tables, ...playing.tables.filter((t) => !seen.has(t.id))];
}

async function loadTables({ force = true } = {}) {
  const typing = () => document.querySelector("#tables .join-form"); // someone is typing a name
  if (!force && typing()) return;
  const ticket = ++loads;
  loadCounts();
  let tables;
  try {
    tables = await fetchTables();
  } catch (error) {
    if (ticket === loads) $("tables").replaceChildren(el("li", { class: "error" }, error.message));
    return;
  }
  // Only the newest load draws (a slower, older one would undo a filter chosen since), and
  // a refresh never takes a join form away from under someone typing in it.
  if (ticket !== loads || (!force && typing())) return;
  const form = typing();
  const focused = form && form.contains(document.activeElement);
  const keep = focusKey(document.activeElement);
  $("tables").dataset.shown = filter || "all"; // which list is drawn (tests wait on it)
  if (!tables.length) {
    const none = filter === "free" ? "No table has a free seat now: create one with a seat open for anyone." : "No table is being played now: create one.";
    $("tables").replaceChildren(el("li", { class: "muted" }, none));
    return;
  }
  $("tables").replaceChildren(...tables.map(tableItem));
  // Someone on the keyboard keeps their place: the redraw would otherwise drop the focus on
  // the body every refresh, and an Enter pressed a moment later would do nothing.
  if (keep) focusBack(keep);
  // A join form open during a forced reload moves to its table's new row, if the seat is
  // still free there (and keeps the focus).
  const row = form && rowOf(form.dataset.table);
  if (row && row.querySelector(`[data-join="${form.dataset.joinForm}"]`)) {
    row.append(form);
    if (focused) form.querySelector("input").focus();
  }
}

/** What to focus again after the list is redrawn: a row's button or link, by what it does. */
function focusKey(active) {
  const row = active?.closest?.("#tables li[data-table]");
  if (!row || active.closest(".join-form")) return null; // the form moves itself
  if (active.dataset.join !== undefined) return { table: row.dataset.table, selector: `[data-join="${active.dataset.join}"]` };
  if (active.tagName === "A") return { table: row.dataset.table, selector: `a[href="${CSS.escape(active.getAttribute("href"))}"]` };
  return null;
}

function focusBack({ table, selector }) {
  rowOf(table)?.querySelector(selector)?.focus();
}

/** The drawn row of table ``id`` (undefined if the list does not show it). */
function rowOf(id) {
  return [...$("tables").children].find((li) => li.dataset.table === id);
}

function tableItem(t) {
  const free = t.free || [];
  const seatNames = t.seats.map((s) => (free.includes(s.seat) ? `P${s.seat} free` : `P${s.seat} ${s.name}`)).join(", ");
  const state = free.length ? `waiting for ${count(free.length, "player", "players")}` : `playing, turn ${t.turn}`;
  const item = el(
    "li",
    { "data-table": t.id, "data-free": free.join(","), "data-status": t.status },
    el("strong", {}, gameName(t.game)),
    el("span", { class: "meta" }, `${who(t)} · ${state} · ${seatNames}`),
    t.clock ? el("span", { class: "meta" }, `clock ${duration(t.clock)} a move`) : null,
    free.length ? el("span", { class: "free" }, count(free.length, "free seat", "free seats")) : null,
    ...free.map((seat) =>
      el("button", { type: "button", class: "small", "data-join": seat, onclick: () => askName(item, t, seat) }, `Join as P${seat}`)),
    el("a", { href: `/tables/${encodeURIComponent(t.id)}` }, "Watch"),
  );
  const kept = myTables().find((entry) => entry.id === t.id);
  if (kept) item.append(el("a", { href: seatLink(kept), "data-your-seat": t.id }, "Your seat"));
  return item;
}

function historyItem(t) {
  const id = encodeURIComponent(t.id);
  return el(
    "li",
    { "data-table": t.id, "data-status": t.status },
    el("strong", {}, gameName(t.game)),
    el("span", { class: "meta" }, `${t.seats.map((s) => `P${s.seat} ${s.name}`).join(", ")} · ${count(t.turn, "turn", "turns")} · ${ago(t.updated)}`),
    el("a", { href: `/tables/${id}` }, "See the end"),
    el("a", { href: `/replay#table=${id}`, "data-replay": t.id }, "Replay"),
    el("a", { href: `/api/tables/${id}/record`, download: `${t.id}.json` }, "Record"),
  );
}

/** The finished games, newest first, a page at a time (loaded when "Finished games" opens). */
async function loadHistory({ more = false } = {}) {
  const list = $("history-list");
  const query = more && historyBefore !== null ? `&before=${historyBefore}` : "";
  let data;
  try {
    data = await getJSON(`/api/tables?status=finished${query}`);
  } catch (error) {
    list.append(el("li", { class: "error" }, error.message));
    return;
  }
  const items = data.tables.map(historyItem);
  if (more) list.append(...items);
  else list.replaceChildren(...(items.length ? items : [el("li", { class: "muted" }, "No game has finished yet.")]));
  if (data.tables.length) historyBefore = data.tables[data.tables.length - 1].updated;
  $("history-more").hidden = data.tables.length < 100;
}

/** The name to sit down as, asked beside the table; then claim the seat and open its page. */
function askName(item, table, seat) {
  for (const old of document.querySelectorAll("#tables .join-form")) old.remove();
  const id = `join-name-${table.id}-${seat}`;
  const input = el("input", { type: "text", id, maxlength: 32, required: true, autocomplete: "nickname", placeholder: "your name", value: savedName() });
  const error = el("p", { class: "error", role: "alert" });
  const form = el(
    "form",
    { class: "join-form", "data-join-form": seat, "data-table": table.id },
    el("label", { for: id }, `Your name at P${seat}`),
    input,
    el("button", { type: "submit", class: "primary small" }, "Sit down"),
    el("button", { type: "button", class: "small", onclick: () => cancel() }, "Cancel"),
    error,
  );
  const cancel = () => {
    const owner = form.parentElement; // the table's row now (a reload may have moved the form)
    form.remove();
    owner?.querySelector(`[data-join="${seat}"]`)?.focus();
  };
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) {
      error.textContent = "Type the name the others will see.";
      input.focus();
      return;
    }
    error.textContent = "";
    let claimed;
    try {
      claimed = await postJSON(`/api/tables/${encodeURIComponent(table.id)}/seats/${seat}/claim`, { name });
    } catch (failure) {
      error.textContent = `${failure.message}. The list will refresh: choose another seat.`;
      setTimeout(() => loadTables(), 2500);
      return;
    }
    saveName(name);
    location.assign(`/tables/${encodeURIComponent(table.id)}#token=${claimed.token}`);
  });
  item.append(form);
  input.focus();
  input.select();
}

async function main() {
  document.body.prepend(patternDefs());
  games = (await getJSON("/api/games")).games;
  $("game").replaceChildren(...games.map((g) => el("option", { value: g.id }, g.name)));
  $("game").addEventListener("change", () => {
    $("players").value = "";
    drawGame();
  });
  $("players").addEventListener("change", drawSeats);
  $("clock").addEventListener("change", () => ($("clock-bot-row").hidden = !$("clock").value));
  $("new-table").addEventListener("submit", create);
  for (const button of document.querySelectorAll("[data-filter]")) {
    button.addEventListener("click", () => {
      filter = button.dataset.filter;
      document.querySelectorAll("[data-filter]").forEach((b) => b.setAttribute("aria-pressed", String(b === button)));
      loadTables();
    });
  }
  $("history").addEventListener("toggle", () => {
    if ($("history").open) loadHistory();
  });
  $("history-more").addEventListener("click", () => loadHistory({ more: true }));
  drawGame();
  loadTables();
  setInterval(() => loadTables({ force: false }), REFRESH_MS);
}

main();
