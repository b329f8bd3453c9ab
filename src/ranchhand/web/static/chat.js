// The table's chat panel (aside #chat): lines from the WebSocket's {"chat": [...]}
// frames, written with POST /api/tables/{id}/chat. Every name and line is set as text
// (textContent through el()), never as HTML. A spectator's panel is read-only unless the
// table lets spectators write (chat_options.spectators). See docs/web.md, "Chat".

import { el, postJSON } from "/static/common.js";

const KEPT = 300; // lines kept in the page (the server sends the last 100 on connect)

let panel = null;
let list = null;
let form = null;
let input = null;
let note = null;
let problem = null;
let options = null;
let seated = false;
let tableId = "";
let current = () => null; // the connection shown: its token writes
const shown = new Set(); // seq of the lines on screen

/** Build the panel in ``box``; ``connection()`` is the connection whose seat writes. */
export function startChat(box, id, connection, hasSeat) {
  panel = box;
  tableId = id;
  current = connection;
  seated = hasSeat;
  list = el("ol", { class: "chat-lines", "data-chat-lines": "", tabindex: "0", "aria-live": "polite" });
  input = el("input", {
    type: "text", name: "text", autocomplete: "off", maxlength: 500,
    "aria-label": "Say something at the table", placeholder: "Say something…",
  });
  form = el(
    "form",
    { class: "chat-form", "data-chat": "" },
    input,
    el("button", { type: "submit" }, "Send"),
  );
  note = el("p", { class: "chat-note", "data-chat-readonly": "", hidden: true },
    "Spectators read this table's chat; only the players write here.");
  problem = el("p", { class: "error chat-error", "data-chat-error": "", role: "alert" });
  form.addEventListener("submit", send);
  panel.replaceChildren(el("h2", {}, "Chat"), list, form, note, problem);
  setWritable();
}

/** A {"chat": [...], "chat_options"?: {...}} frame from the WebSocket. */
export function onChat(frame) {
  if (frame.chat_options) {
    options = frame.chat_options;
    if (input && options.max_chars) input.maxLength = options.max_chars;
    setWritable();
  }
  for (const line of frame.chat || []) add(line);
}

function setWritable() {
  if (!form) return;
  const writable = seated || !!(options && options.spectators);
  form.hidden = !writable;
  note.hidden = writable;
  panel.dataset.readonly = String(!writable);
}

function add(line) {
  if (!list || shown.has(line.seq)) return;
  shown.add(line.seq);
  const atBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
  const when = new Date(line.time * 1000);
  const item = el(
    "li",
    {
      class: line.system ? "chat-line system" : "chat-line",
      "data-chat-message": "",
      "data-seq": line.seq,
      "data-seat": line.seat === null ? null : line.seat,
      title: when.toLocaleTimeString(),
    },
    line.system ? null : el("span", { class: "chat-name" }, line.name),
    line.system ? null : ": ",
    el("span", { class: "chat-text" }, line.text),
  );
  // Lines come in order; one that arrives late (the reply beat the frame) goes in its place.
  const after = [...list.children].find((li) => Number(li.dataset.seq) > line.seq);
  list.insertBefore(item, after || null);
  while (list.children.length > KEPT) {
    shown.delete(Number(list.firstElementChild.dataset.seq));
    list.firstElementChild.remove();
  }
  if (atBottom || line.seat === null) list.scrollTop = list.scrollHeight;
}

async function send(event) {
  event.preventDefault();
  const text = input.value.trim();
  if (!text) {
    problem.textContent = "Write something first.";
    return;
  }
  const connection = current();
  const token = connection ? connection.token : null;
  const headers = token ? { Authorization: `Bearer ${token}` } : {};
  problem.textContent = "";
  form.dataset.sending = "true";
  try {
    const said = await postJSON(`/api/tables/${encodeURIComponent(tableId)}/chat`, { text }, headers);
    input.value = "";
    add(said);
    list.scrollTop = list.scrollHeight;
  } catch (error) {
    problem.textContent = error.message;
  } finally {
    delete form.dataset.sending;
  }
}
