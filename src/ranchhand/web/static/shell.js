// The table page: connects to the table's WebSocket (one per seat held on this
// device), draws what every game has in common (whose turn, the log, the legal
// actions, the end screen, help) and hands the board to the game's module,
// /static/games/<game-id>.js (see docs/web.md). Hot seat: #tokens=T0,T1.

import {
  copyButton, el, getJSON, outcomeWords, patternDefs, postJSON, seatBadge, seatOf, svg,
} from "/static/common.js";
import { startAlerts, updateAlerts } from "/static/alerts.js";
import { drawClocks } from "/static/clocks.js";
import { resultTable } from "/static/end-result.js";
import { seatSeen } from "/static/keep.js";
import { showEnd } from "/static/phone.js";
import { clearUndo, drawUndo } from "/static/undo.js";
import { onChat, startChat } from "/static/chat.js";
import { markSeats, onPresence, sayPresence, startPresence } from "/static/presence.js";
import { logItem, logSwitch } from "/static/log.js";
import { forgetChanges, markChanges } from "/static/changes.js";

const $ = (id) => document.getElementById(id);
const tableId = decodeURIComponent(location.pathname.split("/").filter(Boolean).pop());
const fragment = new URLSearchParams(location.hash.slice(1));
const tokens = (fragment.get("tokens") || fragment.get("token") || "")
  .split(",").map((t) => t.trim()).filter(Boolean);
const hotSeat = tokens.length > 1;

let module = null;          // the game's drawing module, once loaded (or {} if none)
let catalog = null;         // GET /api/tables/{id}/catalog
let gameInfo = null;        // this game's entry of GET /api/games
let shown = -1;             // which connection's view is on screen
let handoffTo = -1;         // a pass-the-device screen is up for this connection
let ui = null;              // what the game module draws with (new after each hand-off)
let pending = false;        // a move was sent and its answer has not come
let logLength = 0;
let againTimer = null;

// ---------------------------------------------------------------- connections

class Connection {
  constructor(index, token) {
    this.index = index;
    this.token = token;
    this.view = null;
    this.state = "connecting";
    this.delay = 500;
    this.closed = false;
    this.open();
  }

  open() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    let url = `${scheme}//${location.host}/ws/tables/${encodeURIComponent(tableId)}`;
    if (this.token) url += `?token=${encodeURIComponent(this.token)}`;
    // chat.js and presence.js on the first connection; every view sends only new log lines
    const extras = this.index === 0 ? "chat,presence,log-tail" : "log-tail";
    url += `${this.token ? "&" : "?"}extras=${extras}`;
    this.lines = {};
    const socket = new WebSocket(url);
    this.socket = socket;
    socket.onopen = () => {
      this.delay = 500;
      this.setState("connected");
      sayPresence(this); // presence.js: a hidden page says so again
    };
    socket.onmessage = (event) => {
      let data;
      try {
        data = JSON.parse(event.data);
      } catch {
        return;
      }
      if (data.chat || data.presence) return data.chat ? onChat(data) : onPresence(data); // chat.js, presence.js
      if (data.error !== undefined && data.step === undefined) return onError(this, data.error);
      this.wholeLog(data);
      onView(this, data);
    };
    socket.onclose = (event) => {
      if (this.socket !== socket) return;
      if (event.code === 4404 || event.code === 4403) {
        this.closed = true;
        this.setState(event.code === 4404 ? "no such table" : "this link opens no seat here");
        return;
      }
      const wait = this.delay;
      this.delay = Math.min(this.delay * 2, 5000);
      this.setState("reconnecting");
      setTimeout(() => this.open(), wait);
    };
  }

  // A view over this socket holds its log and words from log_from / words_from on (the
  // server's log-tail); the lines before are those this socket had: put them back.
  wholeLog(view) {
    for (const key of ["log", "words"]) {
      const from = view[`${key}_from`];
      if (!Array.isArray(view[key])) continue;
      if (Number.isInteger(from)) view[key] = (this.lines[key] || []).slice(0, from).concat(view[key]);
      delete view[`${key}_from`];
      this.lines[key] = view[key];
    }
  }

  send(message) {
    if (!this.socket || this.socket.readyState !== WebSocket.OPEN) return false;
    this.socket.send(JSON.stringify(message));
    return true;
  }

  setState(state) {
    this.state = state;
    drawConnection();
  }
}

const connections = (tokens.length ? tokens : [null]).map((t, i) => new Connection(i, t));

function drawConnection() {
  const states = connections.map((c) => c.state);
  const worst = states.find((s) => s !== "connected") || "connected";
  const box = $("connection");
  box.dataset.state = worst === "connected" ? "connected" : worst === "reconnecting" ? "reconnecting" : "closed";
  box.textContent = worst === "connected" ? "● live" : worst === "reconnecting" ? "○ reconnecting…" : `○ ${worst}`;
  document.body.dataset.connection = box.dataset.state;
}

// ---------------------------------------------------------------- views

function onView(connection, view) {
  if (connection.view && view.step < connection.view.step) return;
  if (!connection.view) seatSeen(tableId, connection.token, tokens, view); // keep.js: my tables, invites
  connection.view = view;
  updateAlerts(connections.map((c) => c.view), gameInfo && gameInfo.name); // alerts.js
  if (!module) {
    start(view);
    return;
  }
  if (connection.index === shown) pending = false;
  decide(connection);
}

function onError(connection, message) {
  if (connection.index !== shown) return;
  pending = false;
  $("error").textContent = message;
  markActing();
}

async function start(view) {
  if (start.started) return;
  start.started = true;
  document.body.prepend(patternDefs());
  const [loaded, cat, games] = await Promise.all([
    import(`/static/games/${view.game}.js`).catch((error) => {
      console.warn(`no drawing module for ${view.game}:`, error);
      return {};
    }),
    getJSON(`/api/tables/${encodeURIComponent(tableId)}/catalog`).catch(() => ({})),
    getJSON("/api/games").catch(() => ({ games: [] })),
  ]);
  module = loaded;
  catalog = cat;
  gameInfo = games.games.find((g) => g.id === view.game) || null;
  $("notation").textContent = gameInfo ? gameInfo.notation : "";
  $("rules-link").href = `/rules/${view.game}`;
  decide(null);
}

/** Which seat's view to show; in hot seat, a hand-off screen when another seat is due. */
function decide(changed) {
  const views = connections.map((c) => c.view);
  if (views.some((v) => v === null) && shown === -1) {
    if (!hotSeat || !views.some((v) => v && v.legal_actions.length)) return;
  }
  const latest = Math.max(...views.filter(Boolean).map((v) => v.step));
  const due = connections.findIndex(
    (c) => c.view && c.view.step === latest && c.view.legal_actions.length > 0,
  );
  if (shown === -1) {
    show(due >= 0 ? due : 0);
    return;
  }
  if (handoffTo >= 0) {
    if (due >= 0 && due !== handoffTo) handoff(due);
    return;
  }
  const current = connections[shown].view;
  const stillMine = current.legal_actions.length > 0 && current.step === latest;
  if (hotSeat && due >= 0 && due !== shown && !stillMine) {
    handoff(due);
    return;
  }
  if (changed === null || changed.index === shown) render(connections[shown].view);
}

function show(index) {
  shown = index;
  handoffTo = -1;
  pending = false;
  $("handoff").hidden = true;
  $("handoff").replaceChildren();
  $("seat-area").hidden = false;
  freshSurface();
  render(connections[index].view);
}

/** Remove everything the previous seat saw from the document, then ask for the device. */
function handoff(index) {
  handoffTo = index;
  wipe();
  $("seat-area").hidden = true;
  const view = connections[index].view;
  const who = seatOf(view, view.you);
  const button = el(
    "button",
    { type: "button", class: "primary", "data-handoff-to": index, onclick: () => show(index) },
    `I am ${who.label}: show my table`,
  );
  $("handoff").replaceChildren(
    el("h2", {}, "Pass the device to ", seatBadge(view, view.you)),
    el("p", {}, `It is ${who.label}'s turn. The previous player's cards are hidden until then.`),
    button,
  );
  $("handoff").hidden = false;
  // The header names who the device goes to, nothing of the seat that had it.
  const game = gameInfo ? gameInfo.name : view.game;
  document.title = `${game} · pass the device to ${who.label}`;
  $("title").replaceChildren(
    el("span", { class: "game-name" }, game),
    el("span", { class: "you", "data-passing-to": view.you }, " · passing the device to ", seatBadge(view, view.you)),
  );
  document.body.dataset.acting = "false";
  document.body.dataset.handoff = String(view.you);
  button.focus();
}

/** Empty every seat-specific part of the page (the DOM, not just hidden). */
function wipe() {
  for (const id of ["turn", "error", "seats", "end", "log", "action-list", "action-count"]) {
    $(id).replaceChildren();
  }
  $("end").hidden = true;
  clearUndo(); // undo.js: the previous seat's button goes too
  forgetChanges(); // changes.js: the next seat's first view marks nothing
  freshSurface();
  logLength = 0;
  delete document.body.dataset.you;
  document.body.dataset.acting = "false";
}

/** New board and controls elements (and a new ui) so nothing a module kept survives. */
function freshSurface() {
  const board = el("div", { id: "board", class: "board", "aria-label": "The table" });
  const controls = el("div", { id: "controls", class: "controls", "aria-label": "Your moves" });
  $("board").replaceWith(board);
  $("controls").replaceWith(controls);
  const connection = () => connections[shown];
  ui = {
    board,
    controls,
    catalog,
    you: null,
    el,
    svg,
    seat: (i) => seatOf(connection().view, i),
    act,
    status: (text) => ($("turn").textContent = text),
  };
}

function act(text) {
  const connection = connections[shown];
  if (!connection || pending || handoffTo >= 0) return;
  $("error").textContent = "";
  if (!connection.send({ action: text, step: connection.view.step })) {
    $("error").textContent = "Not connected: your move was not sent. Try again once the page says live.";
    return;
  }
  pending = true;
  markActing();
}

function markActing() {
  const view = shown >= 0 ? connections[shown].view : null;
  const acting = !!view && view.legal_actions.length > 0 && !pending && handoffTo < 0;
  document.body.dataset.acting = String(acting);
}

// ---------------------------------------------------------------- drawing

function render(view) {
  if (!view || handoffTo >= 0) return;
  ui.you = view.you;
  ui.catalog = catalog;
  document.body.dataset.step = view.step;
  document.body.dataset.status = view.status;
  document.body.dataset.game = view.game;
  if (view.you === null) delete document.body.dataset.you;
  else document.body.dataset.you = view.you;
  document.body.dataset.handoff = "";
  const name = gameInfo ? gameInfo.name : view.game;
  document.title = `${name} · ${view.you === null ? "watching" : seatOf(view, view.you).label}`;
  $("title").replaceChildren(
    el("span", { class: "game-name" }, name),
    view.you === null
      ? el("span", { class: "you" }, " · watching")
      : el("span", { class: "you" }, " · you are ", seatBadge(view, view.you)),
  );
  drawTurn(view);
  drawSeats(view);
  markSeats(view, connections[shown].token); // presence.js: data-presence on each chip
  drawClocks(view, $("clocks")); // clocks.js: the turn clock, in step with the server
  drawBoard(view);
  markChanges(ui.board, view); // changes.js: highlight what the last move changed
  drawActions(view);
  drawUndo(view, connections[shown].token, tableId, (text) => ($("error").textContent = text)); // undo.js
  drawLog(view);
  drawEnd(view);
  markActing();
}

function drawTurn(view) {
  let text;
  const asking = view.observation && typeof view.observation.asking === "string" ? view.observation.asking : "";
  if (view.status === "finished") text = `Game over: ${outcomeWords(view)}.`;
  else if (view.status === "expired") {
    text = "This table was closed: nobody moved for too long. Nothing more can be played here.";
  } else if (view.legal_actions.length) {
    text = `Your turn${asking ? ": " + asking : ""}.`;
    if (!asking) text += ` Choose one of ${view.legal_actions.length} moves.`;
  } else if (!view.to_act.length) text = "The dice and cards are being dealt…";
  else text = `Waiting for ${view.to_act.map((s) => seatOf(view, s).label).join(" and ")}${asking ? " (" + asking + ")" : ""}.`;
  if (typeof module.status === "function") {
    try {
      text = module.status(view, ui) || text;
    } catch (error) {
      console.error(error);
    }
  }
  $("turn").textContent = text;
  $("turn").classList.toggle("yours", view.legal_actions.length > 0);
}

function drawSeats(view) {
  const outcome = view.outcome || {};
  $("seats").replaceChildren(
    ...view.seats.map((seat, i) => {
      const acting = view.to_act.includes(i);
      const notes = [];
      if (seat.kind !== "human") notes.push(`bot: ${seat.kind}`);
      if (i === view.you) notes.push("you");
      if (outcome.scores) notes.push(`${outcome.scores[i]} points`);
      if ((outcome.winners || []).includes(i)) notes.push("winner");
      return el(
        "li",
        { class: `seat${acting ? " acting" : ""}${i === view.you ? " mine" : ""}`, "data-seat": i },
        acting ? el("span", { class: "marker", role: "img", "aria-label": "to act" }, "▶") : null,
        seatBadge(view, i),
        notes.length ? el("small", {}, ` (${notes.join(", ")})`) : null,
      );
    }),
  );
}

function drawBoard(view) {
  if (typeof module.render === "function") {
    try {
      module.render(view, ui);
      return;
    } catch (error) {
      console.error("the game module failed to draw this view:", error);
      ui.board.replaceChildren(el("p", { class: "error" }, `The board could not be drawn (${error.message}); the actions below still work.`));
      ui.controls.replaceChildren();
      $("all-actions").open = true;
      return;
    }
  }
  // No module for this game (yet): the observation as text, every action in the list.
  ui.board.replaceChildren(el("pre", { class: "raw" }, JSON.stringify(view.observation, null, 1)));
  ui.controls.replaceChildren();
  $("all-actions").open = true;
}

function drawActions(view) {
  const legal = view.legal_actions;
  $("action-count").textContent = legal.length ? `(${legal.length})` : "";
  $("action-list").replaceChildren(
    ...legal.map((text) =>
      el("button", { type: "button", class: "action", "data-action": text, onclick: () => act(text) }, text)),
  );
  $("all-actions").hidden = legal.length === 0;
}

function drawLog(view) {
  const box = $("log");
  logSwitch(el, box, () => shown >= 0 && connections[shown].view && drawLog(connections[shown].view)); // log.js
  const atBottom = box.scrollHeight - box.scrollTop - box.clientHeight < 40;
  const fresh = Math.max(0, view.log.length - logLength);
  box.replaceChildren(
    ...view.log.map((line, i) => logItem(el, view, i, { class: i >= view.log.length - fresh && logLength ? "new" : "" })), // log.js: words, notation as title
  );
  logLength = view.log.length;
  if (atBottom || fresh) box.scrollTop = box.scrollHeight;
}

function drawEnd(view) {
  const box = $("end");
  if (view.status !== "finished") {
    box.hidden = true;
    box.replaceChildren();
    return;
  }
  const outcome = view.outcome || {};
  const breakdown = el("div", { class: "breakdown" });
  const again = el("div", { class: "again" });
  box.replaceChildren(
    el("h2", { "data-outcome": JSON.stringify(outcome), id: "outcome" }, outcomeWords(view)),
    outcome.reason ? el("p", {}, `How it ended: ${outcome.reason}.`) : null,
    resultTable(view), // scores, or what decided a game without them (end-result.js)
    breakdown,
    again,
  );
  if (typeof module.renderEnd === "function") {
    try {
      module.renderEnd(view, { ...ui, board: breakdown, controls: el("div") });
    } catch (error) {
      console.error(error);
    }
  }
  drawAgain(view, again);
  const appearing = box.hidden;
  box.hidden = false;
  if (appearing) showEnd(box); // phone.js: the end screen scrolled into view
}

function drawAgain(view, box) {
  const token = connections[shown].token;
  const replay = el("a", { href: `/replay#table=${encodeURIComponent(tableId)}` }, "Watch the replay");
  if (!token) {
    box.replaceChildren(replay);
    pollAgain(view, box, null, replay);
    return;
  }
  const button = el("button", { type: "button", class: "primary" }, "Play again with the same seats");
  button.addEventListener("click", async () => {
    button.disabled = true;
    try {
      const made = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/again`, {}, { Authorization: `Bearer ${token}` });
      goAgain(made, box, replay);
    } catch (error) {
      $("error").textContent = error.message;
      button.disabled = false;
    }
  });
  box.replaceChildren(button, " ", replay);
  pollAgain(view, box, token, replay);
}

/** Everyone at the table hears of a new game someone started: poll for our own link. */
function pollAgain(view, box, token, replay) {
  if (againTimer) return;
  const check = async () => {
    try {
      const headers = token ? { Authorization: `Bearer ${token}` } : {};
      const next = await getJSON(`/api/tables/${encodeURIComponent(tableId)}/again`, { headers });
      clearInterval(againTimer);
      const url = next.url || next.spectate;
      if (hotSeat) {
        box.replaceChildren(el("p", {}, "Another game has started: ", el("a", { href: "#", onclick: (e) => { e.preventDefault(); postAgainHotSeat(); } }, "join it with all your seats")), replay);
      } else {
        box.replaceChildren(el("p", { class: "notice" }, "Another game with the same seats has started: ", el("a", { href: url, class: "primary-link" }, next.url ? "take your seat" : "watch it")), replay);
      }
    } catch {
      /* not yet */
    }
  };
  againTimer = setInterval(check, 3000);
}

/** Hot seat: every seat this device holds asks for its own new seat with its own token. */
async function postAgainHotSeat() {
  const mine = [];
  for (const connection of connections) {
    if (!connection.token) continue;
    mine.push(await postJSON(`/api/tables/${encodeURIComponent(tableId)}/again`, {}, { Authorization: `Bearer ${connection.token}` }));
  }
  const tokens = mine.filter((m) => m.token).map((m) => m.token);
  location.assign(`/tables/${mine[0].id}#tokens=${tokens.join(",")}`);
  location.reload();
}

/** The new table's reply holds a link for this seat only: the others get theirs on their own screens. */
function goAgain(made, box, replay) {
  if (hotSeat) {
    postAgainHotSeat();
    return;
  }
  const others = made.seats.filter((s) => s.kind === "human" && !s.yours);
  box.replaceChildren(
    made.url
      ? el("p", {}, "A new table is ready. ", el("a", { href: made.url, class: "primary-link" }, "Take your seat"))
      : el("p", {}, "A new table is ready. ", el("a", { href: made.spectate, class: "primary-link" }, "Watch it")),
    others.length ? el("p", {}, "Each other person finds a link to their own seat on their screen.") : null,
    replay,
  );
}

// ---------------------------------------------------------------- typed actions

$("typed").addEventListener("submit", (event) => {
  event.preventDefault();
  const text = $("typed-text").value.trim();
  if (text) {
    act(text);
    $("typed-text").value = "";
  }
});
window.addEventListener("hashchange", () => location.reload());
drawConnection();
startChat($("chat"), tableId, () => connections[Math.max(shown, 0)], tokens.length > 0); // chat.js
startPresence(tableId, () => connections, (text) => ($("error").textContent = text)); // presence.js
startAlerts($("alerts")); // alerts.js: the title mark, tone and notification on your turn
