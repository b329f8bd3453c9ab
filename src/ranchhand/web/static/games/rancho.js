// Rancho drawn and played in the browser.
//
// render(view, ui) draws the table from the seat's JSON view (docs/server.md) and the
// static catalog (web/catalog/rancho.py): the hex board as SVG (forest, pasture rings
// with their prices, pens, pastures in their owner's colour and letter, animals on
// their spaces), the herd and every ranch, the dice and the strike. The controls are
// built from view.legal_actions only: buttons for roll, end turn, dog choices, fox or
// wolf first and returns; a deal builder (pick what you want, see the legal ways to pay
// with their price and tolls, confirm); an arrangement editor (pick an animal, click
// spaces) that composes an `arrange ...` text checked here against the same rules as
// the engine (own spaces, one piece a space, stacks of 1..6 rabbits, a cow on two
// adjacent spaces, a horse on three connected ones, every animal placed).
//
// Testability contract: every element that performs an action carries
// data-action="THE ACTION'S TEXT"; the builders' confirm buttons carry the composed text.

const SVGNS = "http://www.w3.org/2000/svg";
const R = 30; // hex radius in SVG units
const SQ3 = Math.sqrt(3);
const FARM = ["rabbit", "sheep", "cow", "horse"];
const KEYS = ["rabbit", "sheep", "cow", "horse", "small_dog", "large_dog"];
const NAMES = {
  rabbit: ["rabbit", "rabbits"], sheep: ["sheep", "sheep"], cow: ["cow", "cows"],
  horse: ["horse", "horses"], small_dog: ["small dog", "small dogs"],
  large_dog: ["large dog", "large dogs"], fox: ["fox", "foxes"], wolf: ["wolf", "wolves"],
};
const LETTER = { rabbit: "r", sheep: "S", cow: "C", horse: "H", small_dog: "d", large_dog: "D", fox: "F", wolf: "W" };
const ANIMAL_FILL = {
  rabbit: "#f4efe6", sheep: "#ffffff", cow: "#8a5a3b", horse: "#5b3a24",
  small_dog: "#c9a46b", large_dog: "#9c7443", fox: "#d9662b", wolf: "#6b7280",
};
const RING_FILL = { 1: "#eef4d8", 2: "#d5e7ab", 4: "#b5d68a" };
const PATTERNS = ["diag", "dots", "cross", "horiz", "vert", "checks"];
const PALETTE = ["#d1495b", "#2e86ab", "#e9a03b", "#6a4c93", "#2a9d8f", "#8d6e63"];

// Local choices survive re-renders of the same table step (a new step resets them).
const local = { key: null, want: null, pay: null, arranging: false, draft: null, sel: null,
  pending: null, one: false, panel: "deal", message: "" };
let current = null; // {view, ui} of the last render, for redraws after local clicks

// ----------------------------------------------------------------- helpers
function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) if (child != null && child !== false) node.append(child);
  return node;
}
function sv(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVGNS, tag);
  setAttrs(node, attrs);
  for (const child of children.flat()) if (child != null && child !== false) node.append(child);
  return node;
}
function setAttrs(node, attrs) {
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "text") node.textContent = value;
    else if (key === "style") node.style.cssText = String(value); // the CSP refuses style attributes
    else node.setAttribute(key, value === true ? "" : String(value));
  }
}
function title(text) { return sv("title", { text }); }
function plural(kind, n) { return NAMES[kind] ? NAMES[kind][n === 1 ? 0 : 1] : kind; }
function counted(kind, n) { return n === 1 ? `a ${plural(kind, 1)}` : `${n} ${plural(kind, n)}`; }
function idKey(id) { return id.split(".").map((p) => Number(p)); }
function byId(a, b) {
  const x = idKey(a), y = idKey(b);
  for (let i = 0; i < Math.max(x.length, y.length); i++) {
    const d = (x[i] ?? -1) - (y[i] ?? -1);
    if (d) return d;
  }
  return 0;
}
function seatOf(ui, i) {
  const fallback = { label: `P${i}`, short: `P${i}`, colour: PALETTE[i % PALETTE.length], pattern: PATTERNS[i % PATTERNS.length], fill: null };
  if (!ui || typeof ui.seat !== "function") return fallback;
  const seat = ui.seat(i) || {};
  return { label: seat.label || fallback.label, short: seat.short || seat.label || fallback.short,
    colour: seat.colour || fallback.colour, pattern: seat.pattern || fallback.pattern, fill: seat.fill || null };
}
function seatName(view, ui, i) {
  const seat = seatOf(ui, i);
  const name = view.seats && view.seats[i] ? view.seats[i].name : "";
  const you = view.you === i ? " (you)" : "";
  const label = seat.label.includes(name) ? seat.label : `${seat.label} ${name}`;
  return `${label}${you}`;
}
// The owner's fill: the shell's colour-and-pattern paint when it has one, else ours.
function ownerFill(ui, i) {
  const seat = seatOf(ui, i);
  return seat.fill ? { fill: seat.fill, overlay: null } : { fill: seat.colour, overlay: `url(#${patternId(ui, i)})` };
}
function patternId(ui, i) {
  const p = String(seatOf(ui, i).pattern);
  return `rancho-pat-${PATTERNS.includes(p) ? p : PATTERNS[i % PATTERNS.length]}`;
}

// ----------------------------------------------------------------- notation
// "6 rabbit + sheep" -> {rabbit: 6, sheep: 1}
function parseAnimals(text) {
  const out = {};
  for (const part of text.split("+").map((p) => p.trim()).filter(Boolean)) {
    const m = part.match(/^(\d+)\s+(.+)$/);
    const n = m ? Number(m[1]) : 1;
    const kind = (m ? m[2] : part).trim().replace(" ", "_");
    out[kind] = (out[kind] || 0) + n;
  }
  return out;
}
function animalsText(counts) {
  return KEYS.filter((k) => counts[k]).map((k) => counted(k, counts[k])).join(" + ") || "nothing";
}
function valueOf(counts, values) {
  return Object.entries(counts).reduce((sum, [k, n]) => sum + (values[k] || 0) * n, 0);
}
// A legal deal text -> {text, give, take, pastures, via}
function parseDeal(text) {
  let m = text.match(/^trade (.+) > (.+)$/);
  if (m) return { text, give: parseAnimals(m[1]), take: parseAnimals(m[2]), pastures: [], via: [] };
  m = text.match(/^buy (.+?)(?: via (\S+))? with (.+)$/);
  if (!m) return null;
  const parts = m[1].split("+").map((p) => p.trim());
  const pastures = parts.filter((p) => /^\d+(\.\d+)+$/.test(p));
  const take = parseAnimals(parts.filter((p) => !pastures.includes(p)).join(" + "));
  return { text, give: parseAnimals(m[3]), take, pastures, via: m[2] ? m[2].split(",") : [] };
}
// "6 rabbit @2.1; sheep @5.1; cow @5.2-4.1" -> pieces [{kind, count, spaces}]
function parseArrangement(text) {
  if (!text) return [];
  return text.split(";").map((p) => p.trim()).filter(Boolean).map((part) => {
    const [head, where] = part.split("@").map((s) => s.trim());
    const words = head.split(/\s+/);
    const count = words.length > 1 ? Number(words[0]) : 1;
    return { kind: words[words.length - 1], count, spaces: where.split("-") };
  });
}
function arrangementText(pieces) {
  const sorted = pieces.map((p) => ({ ...p, spaces: [...p.spaces].sort(byId) }));
  sorted.sort((a, b) => byId(a.spaces[0], b.spaces[0]) || FARM.indexOf(a.kind) - FARM.indexOf(b.kind) || a.count - b.count);
  if (!sorted.length) return "arrange nothing";
  return "arrange " + sorted.map((p) => `${p.count === 1 ? p.kind : `${p.count} ${p.kind}`} @${p.spaces.join("-")}`).join("; ");
}

// ----------------------------------------------------------------- geometry
function geometry(catalog) {
  if (catalog._geo) return catalog._geo;
  const spaces = new Map();
  for (const s of catalog.board.spaces) spaces.set(s.id, s);
  const centre = (q, r) => [R * SQ3 * (q + r / 2), R * 1.5 * r];
  const all = [...catalog.board.forest, ...catalog.board.spaces].map((h) => centre(h.q, h.r));
  const xs = all.map((p) => p[0]), ys = all.map((p) => p[1]);
  const pad = R * 1.15;
  const box = [Math.min(...xs) - pad, Math.min(...ys) - pad, Math.max(...xs) - Math.min(...xs) + 2 * pad,
    Math.max(...ys) - Math.min(...ys) + 2 * pad];
  const adjacent = (a, b) => spaces.get(a).neighbours.includes(b);
  catalog._geo = { spaces, centre, box, adjacent };
  return catalog._geo;
}
function hexPoints(cx, cy, r) {
  const pts = [];
  for (let k = 0; k < 6; k++) {
    const a = Math.PI / 180 * (60 * k - 90);
    pts.push(`${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`);
  }
  return pts.join(" ");
}
function connected(ids, adjacent) {
  if (ids.length <= 1) return true;
  const seen = new Set([ids[0]]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const id of ids) if (!seen.has(id) && [...seen].some((s) => adjacent(s, id))) { seen.add(id); grew = true; }
  }
  return seen.size === ids.length;
}

// ----------------------------------------------------------------- the table model
function model(view, catalog) {
  const obs = view.observation;
  const owner = new Map(); // space id -> seat
  const pieces = new Map(); // space id -> {seat, piece}
  const players = obs.players.map((p, seat) => {
    const pen = catalog.board.pens[String(p.pen)];
    const region = [...(pen ? pen.spaces : []), ...p.pastures];
    for (const id of region) owner.set(id, seat);
    const arranged = parseArrangement(p.arrangement);
    for (const piece of arranged) for (const id of piece.spaces) pieces.set(id, { seat, piece });
    return { ...p, seat, region, arranged };
  });
  const usedPens = new Set(obs.players.map((p) => String(p.pen)));
  return { obs, owner, pieces, players, usedPens };
}

// Why an arrangement of `player` is not valid (the engine's Grazing.check), or null.
function arrangementProblem(pieces, player, geo, perSpace) {
  const region = new Set(player.region);
  const used = new Set();
  const totals = { rabbit: 0, sheep: 0, cow: 0, horse: 0 };
  for (const p of pieces) {
    for (const id of p.spaces) {
      if (!region.has(id)) return `${id} is not your pen or pasture`;
      if (used.has(id)) return `${id} holds two pieces`;
      used.add(id);
    }
    const need = { rabbit: 1, sheep: 1, cow: 2, horse: 3 }[p.kind];
    if (p.spaces.length !== need) return `a ${p.kind} needs ${need} space${need > 1 ? "s" : ""}`;
    if (p.kind === "rabbit" && !(p.count >= 1 && p.count <= perSpace)) return `a stack holds 1 to ${perSpace} rabbits`;
    if (p.kind !== "rabbit" && p.count !== 1) return "only rabbits stack";
    if (!connected(p.spaces, geo.adjacent)) return `a ${p.kind} needs connected spaces`;
    totals[p.kind] += p.count;
  }
  for (const k of FARM) {
    const have = player.animals[k] || 0;
    if (totals[k] !== have) return `you have ${counted(k, have)}, the arrangement places ${totals[k]}`;
  }
  return null;
}

// ----------------------------------------------------------------- entry points
export function render(view, ui) {
  current = { view, ui };
  if (view.status === "finished") local.arranging = false;
  const key = `${view.id}/${view.you}/${view.step}`;
  if (local.key !== key) {
    const keepPanel = local.panel;
    Object.assign(local, { key, want: null, pay: null, arranging: false, draft: null, sel: null,
      pending: null, one: false, message: "", panel: keepPanel });
  }
  draw(view, ui, view.status === "finished");
}

// The end screen's breakdown: every ranch as the game ended, and who completed a herd.
export function renderEnd(view, ui) {
  const catalog = ui.catalog;
  if (!view.observation || !catalog || !catalog.board) return;
  ensureStyle();
  const m = model(view, catalog);
  ui.board.replaceChildren(el("div", { class: "rancho-end" }, drawEndNote(view, ui, m), drawRanches(view, ui, catalog, m, true)));
}

// The line above the board: what this step asks of whom.
export function status(view, ui) {
  const obs = view.observation;
  if (!obs || view.status === "finished") return "";
  const mine = (view.legal_actions || []).length > 0;
  const who = mine ? "Your turn" : `${(view.to_act || []).map((p) => seatName(view, ui, p)).join(", ") || "The dice"}`;
  const words = {
    expand: "trade, buy pastures, arrange your animals, then roll",
    settle: "arrange your animals, then end the turn",
    order: "a fox and a wolf: choose which attacks first",
    dog: "give up a dog to save your animals, or keep it",
    return: "newborns that do not fit go back to the herd: choose which",
  }[obs.phase];
  if (!words) return "";
  return mine ? `${who}: ${words}.` : `Waiting for ${who} (${words}).`;
}

function redraw() {
  if (current) draw(current.view, current.ui, current.view.status === "finished");
}

function draw(view, ui, ended) {
  const catalog = ui.catalog;
  if (!view.observation || !catalog || !catalog.board) {
    ui.board.replaceChildren(el("p", { class: "rancho-note", text: "The table is not visible yet." }));
    if (ui.controls) ui.controls.replaceChildren();
    return;
  }
  const m = model(view, catalog);
  const legal = ended ? [] : (view.legal_actions || []);
  const deals = legal.map(parseDeal).filter(Boolean);
  ensureStyle();
  const focused = focusMark(ui);
  ui.board.replaceChildren(
    el("div", { class: "rancho" },
      drawBoard(view, ui, catalog, m, deals, ended),
      el("div", { class: "rancho-side" }, drawDice(view, ui, m), drawRanches(view, ui, catalog, m, ended))));
  if (ui.controls) ui.controls.replaceChildren(...(ended ? [] : [drawControls(view, ui, catalog, m, legal, deals)]));
  refocus(ui, focused);
  fitLabels(ui.board.querySelector("svg.rancho-board"));
}

// Every label on the board renders at 11 CSS px or more, whatever the board's size. The
// SVG scales with the page, so the labels' size in the viewBox's units is set from the
// scale as drawn: "grow" where 11 px still fits a hex (the owner's and pen's labels shrink
// to the seat's letter), "compact" on a phone, where it does not: the hex names (in each
// space's title, and on the buy buttons), the free pens' word, the owner's letter under an
// animal (its ring has the owner's colour) and the legend are left out,
// the prices and the animals' counts stay, at 11 px. Redone when the window is resized.
const MIN_LABEL_PX = 11;
const GROW_MOST_UNITS = 15; // the largest label (in viewBox units) a hex name fits in
function fitLabels(board) {
  if (!board || !board.viewBox || !board.viewBox.baseVal) return;
  const width = board.getBoundingClientRect().width;
  const units = board.viewBox.baseVal.width;
  if (!width || !units) return; // not laid out (a hidden page): the next draw fits it
  const needed = MIN_LABEL_PX / (width / units) + 0.3;
  const grow = needed > 10;
  board.classList.toggle("rancho-grow", grow);
  board.classList.toggle("rancho-compact", grow && needed > GROW_MOST_UNITS);
  if (grow) board.style.setProperty("--rancho-label", `${needed.toFixed(1)}px`);
}
if (typeof window !== "undefined") {
  window.addEventListener("resize", () => fitLabels(document.querySelector("svg.rancho-board")));
}

// Keyboard: every redraw replaces the elements, so the focus goes back to the same
// thing drawn anew (the same space, button or option), else to the first control of
// the same section (a builder that changed its step), instead of falling to the page.
function focusKey(node) {
  const text = node.tagName === "BUTTON" ? node.textContent.trim() : "";
  return [node.tagName, node.getAttribute("data-space"), node.getAttribute("aria-label"), node.id, text].join("|");
}
function focusMark(ui) {
  const node = document.activeElement;
  if (!node || !node.getAttribute) return null;
  if (!(ui.board.contains(node) || (ui.controls && ui.controls.contains(node)))) return null;
  const section = node.closest("section[aria-label]");
  return { key: focusKey(node), section: section ? section.getAttribute("aria-label") : null };
}
function refocus(ui, mark) {
  if (!mark || (document.activeElement && document.activeElement !== document.body)) return;
  const roots = [ui.board, ui.controls].filter(Boolean);
  const focusable = roots.flatMap((r) => [...r.querySelectorAll("button:not(:disabled), input:not(:disabled), [tabindex='0']")]);
  let again = focusable.find((n) => focusKey(n) === mark.key);
  if (!again && mark.section) again = focusable.find((n) => { const s = n.closest("section[aria-label]"); return s && s.getAttribute("aria-label") === mark.section; });
  if (again) again.focus({ preventScroll: true });
}

// ----------------------------------------------------------------- the board
function patternDefs() {
  const defs = sv("defs");
  const make = (name, ...shapes) => defs.append(sv("pattern", { id: `rancho-pat-${name}`, width: 8, height: 8, patternUnits: "userSpaceOnUse" }, ...shapes));
  const ink = { stroke: "#000", "stroke-opacity": 0.28, "stroke-width": 1.4, fill: "none" };
  make("diag", sv("path", { d: "M-2,2 l4,-4 M0,8 l8,-8 M6,10 l4,-4", ...ink }));
  make("dots", sv("circle", { cx: 4, cy: 4, r: 1.5, fill: "#000", "fill-opacity": 0.3 }));
  make("cross", sv("path", { d: "M0,0 L8,8 M8,0 L0,8", ...ink }));
  make("horiz", sv("path", { d: "M0,4 H8", ...ink }));
  make("vert", sv("path", { d: "M4,0 V8", ...ink }));
  make("checks", sv("rect", { x: 0, y: 0, width: 4, height: 4, fill: "#000", "fill-opacity": 0.18 }),
    sv("rect", { x: 4, y: 4, width: 4, height: 4, fill: "#000", "fill-opacity": 0.18 }));
  return defs;
}

function drawBoard(view, ui, catalog, m, deals, ended) {
  const geo = geometry(catalog);
  const obs = m.obs;
  const me = view.you;
  const buyable = new Map(); // pasture -> deals
  for (const d of deals) for (const p of d.pastures) buyable.set(p, [...(buyable.get(p) || []), d]);
  const struck = new Map(); // price -> who struck it
  for (const [who, price] of obs.strikes || []) struck.set(price, who);
  if (obs.strike) struck.set(obs.strike[1], obs.strike[0]);
  const arranging = local.arranging && me != null && !ended;
  const mine = me != null ? m.players[me] : null;
  const draftAt = new Map();
  if (arranging && local.draft) local.draft.forEach((p, i) => p.spaces.forEach((id) => draftAt.set(id, i)));

  const svg = sv("svg", {
    viewBox: geo.box.map((n) => n.toFixed(1)).join(" "), class: "rancho-board", role: "group",
    "aria-label": "The ranch board: forest in the middle, pasture rings costing 1, 2 and 4, pens at the corners",
  }, title("Rancho board"), patternDefs());
  const hexes = sv("g");
  for (const f of catalog.board.forest) {
    const [x, y] = geo.centre(f.q, f.r);
    hexes.append(sv("g", { class: "rancho-forest" }, title(`forest ${f.id}`),
      sv("polygon", { points: hexPoints(x, y, R - 0.8), fill: "#3f6b45", stroke: "#2f5134", "stroke-width": 1 }),
      sv("path", { d: `M${x},${y - 11} l8,14 h-16 z M${x - 9},${y - 3} l6,11 h-12 z M${x + 9},${y - 3} l6,11 h-12 z`, fill: "#25432b", "fill-opacity": 0.8 })));
  }
  for (const s of catalog.board.spaces) {
    const [x, y] = geo.centre(s.q, s.r);
    const seat = m.owner.get(s.id);
    const isPen = s.pen > 0;
    const penUsed = isPen && m.usedPens.has(String(s.pen));
    let fill = isPen ? (penUsed ? "#f3efe4" : "#ece9e2") : RING_FILL[s.price] || "#dfe9c6";
    const words = [];
    if (isPen) words.push(penUsed && seat != null ? `pen of ${seatName(view, ui, seat)}` : "unused pen");
    else words.push(`pasture ${s.id}, price ${s.price}`);
    if (!isPen && seat != null) words.push(`owned by ${seatName(view, ui, seat)}`);
    if (!isPen && seat == null) words.push("free");
    if (!isPen && struck.has(s.price)) words.push(`struck by the ${struck.get(s.price)}`);
    const piece = m.pieces.get(s.id);
    if (piece) words.push(`${piece.piece.count > 1 ? piece.piece.count + " " : ""}${plural(piece.piece.kind, piece.piece.count)} of ${seatOf(ui, piece.seat).short}`);
    const g = sv("g", { class: "rancho-space", "data-space": s.id }, title(words.join("; ")));
    g.append(sv("polygon", { points: hexPoints(x, y, R - 0.8), fill, stroke: "#9aa67f", "stroke-width": 1 }));
    if (seat != null) {
      const paint = ownerFill(ui, seat);
      g.append(sv("polygon", { points: hexPoints(x, y, R - 0.8), fill: paint.fill, opacity: isPen ? 0.6 : 0.42 }));
      if (paint.overlay) g.append(sv("polygon", { points: hexPoints(x, y, R - 0.8), fill: paint.overlay }));
      g.append(sv("polygon", { points: hexPoints(x, y, R - 2.6), fill: "none", stroke: seatOf(ui, seat).colour, "stroke-width": 3 }));
    }
    if (isPen) {
      g.append(sv("polygon", { points: hexPoints(x, y, R - 3), fill: "none", stroke: penUsed ? "#4a3b2a" : "#b9b3a6", "stroke-width": 2.5, "stroke-dasharray": penUsed ? null : "4 3" }));
    }
    if (!isPen && struck.has(s.price)) {
      g.append(sv("polygon", { points: hexPoints(x, y, R - 5.5), fill: "#c0392b", "fill-opacity": 0.08, stroke: "#c0392b", "stroke-width": 1.6, "stroke-dasharray": "3 2", class: "rancho-struck" }));
    }
    // corner marks: the id at the top, the price (or pen / owner) at the bottom
    g.append(sv("text", { x, y: y - R * 0.5, class: "rancho-id", text: s.id }));
    // (the part after the seat's letter is left out where labels must grow: see fitLabels)
    if (isPen && seat == null) g.append(sv("text", { x, y: y + R * 0.72, class: "rancho-price rancho-pen-label", text: "pen" }));
    else if (seat != null) g.append(sv("text", { x, y: y + R * 0.72, class: `rancho-price${piece ? " rancho-under" : ""}` }, seatOf(ui, seat).short, sv("tspan", { class: "rancho-more", text: isPen ? " pen" : ` · ${s.price}` })));
    else g.append(sv("text", { x, y: y + R * 0.72, class: "rancho-price", text: `${s.price}` }));
    // clicks: buy a free pasture; arrange on your own spaces
    if (buyable.has(s.id) && !arranging) {
      g.classList.add("rancho-click");
      g.append(sv("polygon", { points: hexPoints(x, y, R - 2), fill: "none", stroke: "#a87400", "stroke-width": 3, "stroke-dasharray": "6 3", class: "rancho-buyable" }));
      if (local.want === `pasture:${s.id}`) g.append(sv("polygon", { points: hexPoints(x, y, R - 2), fill: "#ffd54f", "fill-opacity": 0.45, stroke: "#8a6d00", "stroke-width": 3 }));
      clickable(g, hexPoints(x, y, R - 3.5), `buy pasture ${s.id}`, () => { local.panel = "deal"; local.want = `pasture:${s.id}`; local.pay = null; redraw(); });
    }
    if (arranging && mine && mine.region.includes(s.id)) {
      g.classList.add("rancho-click");
      const selected = local.sel != null && draftAt.get(s.id) === local.sel;
      const pending = local.pending && local.pending.includes(s.id);
      g.append(sv("polygon", { points: hexPoints(x, y, R - 2), fill: pending ? "#ffd54f" : "none", "fill-opacity": 0.5, stroke: selected || pending ? "#1b5e20" : "#333", "stroke-width": selected || pending ? 3.5 : 1.5, "stroke-dasharray": selected || pending ? null : "3 3" }));
      clickable(g, hexPoints(x, y, R - 3.5), `arrange: space ${s.id}`, () => arrangeClick(s.id, m, geo, catalog));
    }
    hexes.append(g);
  }
  svg.append(hexes);
  // animals
  const animals = sv("g", { class: "rancho-animals", "pointer-events": "none" });
  const drawn = arranging && local.draft ? m.players.map((p, i) => (i === me ? local.draft : p.arranged)) : m.players.map((p) => p.arranged);
  drawn.forEach((pieces, seat) => {
    pieces.forEach((piece, index) => {
      const selected = arranging && seat === me && index === local.sel;
      animals.append(drawPiece(piece, seat, ui, geo, selected));
    });
  });
  svg.append(animals);
  // legend in the corner: prices
  const [bx, by] = geo.box;
  const legend = sv("g", { class: "rancho-legend", "aria-hidden": "true" });
  catalog.board.prices.forEach((price, i) => {
    legend.append(sv("polygon", { points: hexPoints(bx + 14, by + 14 + i * 22, 9), fill: RING_FILL[price] || "#dfe9c6", stroke: "#9aa67f" }));
    legend.append(sv("text", { x: bx + 28, y: by + 18 + i * 22, class: "rancho-legend-text", "text-anchor": "start", text: `costs ${price}${struck.has(price) ? " · struck" : ""}` }));
  });
  svg.append(legend);
  return el("figure", { class: "rancho-figure" }, svg);
}

// A space that acts: focusable, a button with a name, Enter and Space, and a focus ring
// (dark with a white core, drawn inside the hex, shown only while it has the focus).
function clickable(g, ring, label, action) {
  g.append(sv("polygon", { points: ring, class: "rancho-focus" }), sv("polygon", { points: ring, class: "rancho-focus-in" }));
  g.setAttribute("tabindex", "0");
  g.setAttribute("role", "button");
  g.setAttribute("aria-label", label);
  g.addEventListener("click", action);
  g.addEventListener("keydown", (e) => { if (e.key === "Enter" || e.key === " ") { e.preventDefault(); action(); } });
}

function drawPiece(piece, seat, ui, geo, selected) {
  const pts = piece.spaces.filter((id) => geo.spaces.has(id)).map((id) => { const s = geo.spaces.get(id); return geo.centre(s.q, s.r); });
  if (!pts.length) return sv("g");
  const colour = seatOf(ui, seat).colour;
  const label = `${piece.count > 1 ? piece.count + " " : ""}${plural(piece.kind, piece.count)} of ${seatOf(ui, seat).short} on ${piece.spaces.join(", ")}`;
  const g = sv("g", { class: `rancho-piece rancho-${piece.kind}`, "data-key": `piece ${seat} ${piece.kind} ${piece.spaces.join(" ")}` }, title(label));
  const cx = pts.reduce((a, p) => a + p[0], 0) / pts.length;
  const cy = pts.reduce((a, p) => a + p[1], 0) / pts.length;
  const ring = selected ? "#1b5e20" : colour;
  if (piece.kind === "cow" || piece.kind === "horse") {
    // a band through the centres of its spaces, in order along the piece
    let order = pts;
    if (pts.length === 3) {
      const ids = piece.spaces;
      const mid = ids.findIndex((id) => ids.filter((o) => o !== id).every((o) => geo.adjacent(id, o)));
      if (mid >= 0) order = [pts[(mid + 1) % 3], pts[mid], pts[(mid + 2) % 3]];
    }
    const d = "M" + order.map((p) => p.map((n) => n.toFixed(1)).join(",")).join(" L");
    g.append(sv("path", { d, fill: "none", stroke: ring, "stroke-width": R * 0.62, "stroke-linecap": "round", "stroke-linejoin": "round", "stroke-opacity": 0.9 }));
    g.append(sv("path", { d, fill: "none", stroke: ANIMAL_FILL[piece.kind], "stroke-width": R * 0.44, "stroke-linecap": "round", "stroke-linejoin": "round" }));
    for (const [x, y] of pts) g.append(sv("circle", { cx: x, cy: y, r: 2.2, fill: "#f3e3c3" }));
    g.append(sv("circle", { cx, cy, r: 9, fill: "#fff", stroke: ring, "stroke-width": 2 }));
    g.append(sv("text", { x: cx, y: cy + 4, class: "rancho-piece-text", text: LETTER[piece.kind] }));
    return g;
  }
  const [x, y] = pts[0];
  if (piece.kind === "sheep") {
    for (const [dx, dy] of [[-6, -2], [0, -6], [6, -2], [-5, 4], [5, 4], [0, 3]]) {
      g.append(sv("circle", { cx: x + dx, cy: y + dy, r: 5.8, fill: "#fff", stroke: ring, "stroke-width": 2 }));
    }
    g.append(sv("circle", { cx: x, cy: y, r: 6.5, fill: "#fff" }));
    g.append(sv("text", { x, y: y + 4, class: "rancho-piece-text", text: "S" }));
    return g;
  }
  // a rabbit stack: ears, a round body, the count
  g.append(sv("ellipse", { cx: x - 3.5, cy: y - 9, rx: 2.4, ry: 6, fill: ANIMAL_FILL.rabbit, stroke: ring, "stroke-width": 1.8 }));
  g.append(sv("ellipse", { cx: x + 3.5, cy: y - 9, rx: 2.4, ry: 6, fill: ANIMAL_FILL.rabbit, stroke: ring, "stroke-width": 1.8 }));
  g.append(sv("circle", { cx: x, cy: y + 1, r: 8.5, fill: ANIMAL_FILL.rabbit, stroke: ring, "stroke-width": 2 }));
  g.append(sv("text", { x, y: y + 5, class: "rancho-piece-text", text: piece.count > 1 ? `${piece.count}` : "r" }));
  return g;
}

// ----------------------------------------------------------------- dice and ranches
function dieFace(kind, label) {
  const g = sv("svg", { viewBox: "0 0 40 40", class: "rancho-die", role: "img", "aria-label": label }, title(label));
  g.append(sv("rect", { x: 2, y: 2, width: 36, height: 36, rx: 8, fill: "#fffdf7", stroke: "#5c5346", "stroke-width": 2 }));
  g.append(sv("circle", { cx: 20, cy: 17, r: 9, fill: ANIMAL_FILL[kind] || "#ccc", stroke: "#5c5346", "stroke-width": 1.2 }));
  g.append(sv("text", { x: 20, y: 21, class: "rancho-die-letter", fill: ["cow", "horse", "wolf"].includes(kind) ? "#fff" : "#222", text: LETTER[kind] || "?" }));
  g.append(sv("text", { x: 20, y: 35.5, class: "rancho-die-word", text: kind }));
  return g;
}

function d6Face(price, label) {
  const g = sv("svg", { viewBox: "0 0 40 40", class: "rancho-die", role: "img", "aria-label": label }, title(label));
  g.append(sv("rect", { x: 2, y: 2, width: 36, height: 36, rx: 6, fill: "#fdecea", stroke: "#c0392b", "stroke-width": 2 }));
  g.append(sv("text", { x: 20, y: 24, class: "rancho-d6", text: String(price) }));
  g.append(sv("text", { x: 20, y: 35.5, class: "rancho-die-word", text: "strike" }));
  return g;
}

function lastRoller(view, obs) {
  // The dice belong to the player whose turn it is, unless a new turn just began
  // (expand with no step yet taken): then they were the previous player's.
  if (obs.phase === "expand") return (obs.player - 1 + obs.players.length) % obs.players.length;
  return obs.player;
}

function drawDice(view, ui, m) {
  const obs = m.obs;
  const box = el("section", { class: "rancho-dice", "aria-label": "Dice", "data-key": "dice" });
  if (!obs.dice) {
    box.append(el("p", { class: "rancho-muted", text: "No dice rolled yet." }));
    return box;
  }
  const roller = lastRoller(view, obs);
  const faces = obs.dice.map((f) => dieFace(f, `die: ${f}`));
  const strikes = [...(obs.strikes || [])];
  if (obs.strike) strikes.push(obs.strike);
  const strikeFaces = strikes.map(([who, price]) => d6Face(price, `${who} strikes pastures costing ${price}`));
  const words = [];
  const predators = obs.dice.filter((f) => f === "fox" || f === "wolf");
  for (const [who, price] of obs.strikes || []) words.push(`the ${who} struck pastures costing ${price}`);
  if (obs.strike) words.push(`the ${obs.strike[0]} strikes pastures costing ${obs.strike[1]}`);
  if (predators.length && !strikes.length) words.push(`${predators.map((p) => "a " + p).join(" and ")}: the six-sided die decides where`);
  const who = obs.phase === "expand" ? `Last roll, by ${seatName(view, ui, roller)}` : `${seatName(view, ui, roller)} rolled`;
  box.append(el("h3", { text: who }), el("div", { class: "rancho-dice-row" }, ...faces, ...strikeFaces));
  if (words.length) box.append(el("p", { class: "rancho-strike", text: words.join("; ") + "." }));
  if ((obs.dog_queue || []).length && obs.strike) {
    const dog = obs.strike[0] === "fox" ? "small dog" : "large dog";
    box.append(el("p", { class: "rancho-strike", text: `${obs.dog_queue.map((p) => seatName(view, ui, p)).join(", ")} may give up a ${dog}.` }));
  }
  return box;
}

function animalIcon(kind) {
  const label = NAMES[kind][1];
  const g = sv("svg", { viewBox: "0 0 20 20", class: "rancho-icon", role: "img", "aria-label": label }, title(label));
  g.append(sv("circle", { cx: 10, cy: 10, r: 8.5, fill: ANIMAL_FILL[kind], stroke: "#5c5346", "stroke-width": 1.2 }));
  g.append(sv("text", { x: 10, y: 14, class: "rancho-icon-letter", fill: ["cow", "horse", "large_dog"].includes(kind) ? "#fff" : "#222", text: LETTER[kind] }));
  return g;
}

function drawRanches(view, ui, catalog, m, ended) {
  const obs = m.obs;
  const head = el("tr", {}, el("th", { scope: "col", text: "" }),
    ...KEYS.map((k) => el("th", { scope: "col" }, animalIcon(k))),
    el("th", { scope: "col", title: "pastures owned (at most 12)", "aria-label": "pastures owned", text: "land" }));
  const rows = [];
  rows.push(el("tr", { class: "rancho-herd", "data-key": "herd" }, el("th", { scope: "row", text: "Herd" }),
    ...KEYS.map((k) => el("td", { "data-key": k, text: obs.herd[k] ? String(obs.herd[k]) : "·" })), el("td", { text: "" })));
  m.players.forEach((p, seat) => {
    const s = seatOf(ui, seat);
    const playing = !ended && obs.player === seat;
    const full = FARM.every((k) => p.animals[k] > 0);
    const swatch = sv("svg", { viewBox: "0 0 14 14", class: "rancho-swatch", "aria-hidden": "true" },
      sv("rect", { x: 0.5, y: 0.5, width: 13, height: 13, rx: 3, fill: ownerFill(ui, seat).fill, stroke: "#333" }),
      ownerFill(ui, seat).overlay ? sv("rect", { x: 0.5, y: 0.5, width: 13, height: 13, rx: 3, fill: ownerFill(ui, seat).overlay }) : null);
    const name = el("th", { scope: "row", "data-key": "name" }, swatch, " ", seatName(view, ui, seat), playing ? el("span", { class: "rancho-turn", title: "playing now" }, el("span", { "aria-hidden": "true", text: " ◀" }), el("span", { class: "rancho-sr", text: " (playing now)" })) : null);
    rows.push(el("tr", { class: [playing ? "rancho-playing" : "", view.you === seat ? "rancho-you" : "", full ? "rancho-full" : ""].join(" ").trim(), "data-seat": seat },
      name,
      ...KEYS.map((k) => el("td", { class: FARM.includes(k) && !p.animals[k] ? "rancho-missing" : "", "data-key": k, text: p.animals[k] ? String(p.animals[k]) : "·" })),
      el("td", { "data-key": "land", text: `${p.pastures.length}/${catalog.max_pastures || 12}` })));
  });
  // the pattern defs must exist in this document for the swatches: reuse a hidden SVG
  const defs = sv("svg", { width: 0, height: 0, "aria-hidden": "true", style: "position:absolute" }, patternDefs());
  return el("section", { class: "rancho-ranches", "aria-label": "The herd and every ranch" }, defs,
    el("table", {}, el("caption", { text: "Herd and ranches (· none)" }), el("thead", {}, head), el("tbody", {}, ...rows)));
}

function drawEndNote(view, ui, m) {
  const w = m.obs.winner;
  return el("p", { class: "rancho-muted", text: w != null ? `${seatName(view, ui, w)} completed a herd: a rabbit, a sheep, a cow and a horse.` : "The game ended without a full herd." });
}

// ----------------------------------------------------------------- controls
function actionButton(text, label, cls = "") {
  return el("button", { type: "button", class: `rancho-btn ${cls}`.trim(), "data-action": text, onclick: () => current.ui.act(text), text: label });
}

function drawControls(view, ui, catalog, m, legal, deals) {
  const box = el("div", { class: "rancho-controls" });
  const obs = m.obs;
  if (!legal.length) {
    return box; // the shell's line says whom we wait for
  }
  const used = new Set();
  const take = (text) => { used.add(text); return text; };
  const main = el("div", { class: "rancho-main-actions" });
  const labels = {
    roll: "Roll the dice", "roll and end turn": "Roll and end turn", "end turn": "End turn",
    "arrange safest": "Arrange safest", "fox first": "Fox attacks first", "wolf first": "Wolf attacks first",
  };
  const me = m.players[view.you];
  for (const text of legal) {
    if (labels[text]) main.append(actionButton(take(text), labels[text], text === "roll" || text === "end turn" ? "rancho-primary" : ""));
  }
  // dog choices: say what the dog would save
  for (const text of legal) {
    const dm = text.match(/^(give|keep) (small|large) dog$/);
    if (!dm) continue;
    const strike = obs.strike;
    let saves = "";
    if (strike && me) {
      const hit = me.arranged.filter((p) => (strike[0] === "fox" ? p.kind === "rabbit" : p.kind !== "rabbit") &&
        p.spaces.some((id) => { const s = catalog.board.spaces.find((x) => x.id === id); return s && s.pen === 0 && s.price === strike[1]; }));
      const lost = {};
      for (const p of hit) lost[p.kind] = (lost[p.kind] || 0) + p.count;
      saves = animalsText(lost);
    }
    const label = dm[1] === "give" ? `Give up your ${dm[2]} dog${saves ? ` (saves ${saves})` : ""}` : `Keep your ${dm[2]} dog${saves ? ` (the ${strike[0]} takes ${saves})` : ""}`;
    main.append(actionButton(take(text), label, dm[1] === "give" ? "rancho-primary" : ""));
  }
  // returns
  const returns = legal.filter((t) => t.startsWith("return "));
  if (returns.length) {
    box.append(el("p", { class: "rancho-hint", text: "Your newborns do not all fit: choose what goes back to the herd." }));
    for (const text of returns) main.append(actionButton(take(text), `Return ${animalsText(parseAnimals(text.slice(7)))}`));
  }
  box.append(main);
  if (deals.length) { deals.forEach((d) => used.add(d.text)); box.append(drawDealBuilder(view, ui, catalog, m, deals)); }
  const canArrange = obs.phase === "expand" || obs.phase === "settle";
  if (canArrange && me && FARM.some((k) => me.animals[k] > 0)) box.append(drawArranger(view, ui, catalog, m, legal));
  // anything not covered above (new action kinds) stays one click away
  const rest = legal.filter((t) => !used.has(t));
  if (rest.length) box.append(el("div", { class: "rancho-rest" }, ...rest.map((t) => actionButton(t, t))));
  return box;
}

// The deal builder: what you want -> the legal ways to pay -> confirm.
function dealWant(d) {
  if (d.pastures.length) return `pasture:${d.pastures.join("+")}`;
  return `animals:${animalsText(d.take)}`;
}
function wantLabel(want) {
  const [kind, rest] = want.split(/:(.*)/s);
  return kind === "pasture" ? `pasture ${rest.replace(/\+/g, " + ")}` : rest;
}
function dealPrice(d, catalog, m, view, ui) {
  const values = catalog.values;
  const parts = [];
  const price = d.pastures.reduce((sum, id) => sum + (catalog.board.spaces.find((s) => s.id === id) || { price: 0 }).price, 0);
  const giveValue = valueOf(d.give, values);
  parts.push(`you give ${animalsText(d.give)} (worth ${giveValue})`);
  if (d.pastures.length) parts.push(`pasture${d.pastures.length > 1 ? "s" : ""} ${d.pastures.join(", ")} cost${d.pastures.length > 1 ? "" : "s"} ${price}`);
  const back = valueOf(d.take, values);
  if (back) parts.push(`the herd gives ${animalsText(d.take)} (worth ${back})${d.pastures.length ? " as change" : ""}`);
  let toll = 0;
  const owners = {};
  for (const id of d.via) {
    const s = catalog.board.spaces.find((x) => x.id === id);
    const owner = m.owner.get(id);
    if (!s) continue;
    toll += s.price;
    owners[owner] = (owners[owner] || 0) + s.price;
  }
  if (d.via.length) {
    parts.push(`tolls through ${d.via.join(", ")}: ${Object.entries(owners).map(([o, n]) => `${counted("rabbit", n)} to ${seatName(view, ui, Number(o))}`).join(", ")}`);
  }
  const total = d.via.length ? `; in all ${giveValue + toll} rabbits' worth leave your ranch` : "";
  return { text: parts.join("; ") + total, toll };
}

function drawDealBuilder(view, ui, catalog, m, deals) {
  const wants = new Map();
  for (const d of deals) wants.set(dealWant(d), [...(wants.get(dealWant(d)) || []), d]);
  if (local.want && !wants.has(local.want)) local.want = null;
  const section = el("section", { class: "rancho-builder", "aria-label": "Trade or buy" });
  section.append(el("h3", { text: "Trade or buy" }));
  const animalWants = [...wants.keys()].filter((w) => w.startsWith("animals:"));
  const pastureWants = [...wants.keys()].filter((w) => w.startsWith("pasture:")).sort((a, b) => byId(a.slice(8), b.slice(8)));
  const pick = (w) => el("button", { type: "button", class: "rancho-chip", "aria-pressed": local.want === w ? "true" : "false",
    onclick: () => { local.want = local.want === w ? null : w; local.pay = null; redraw(); }, text: wantLabel(w).replace(/^pasture /, "") });
  if (animalWants.length) section.append(el("div", { class: "rancho-row" }, el("span", { class: "rancho-label", text: "Get from the herd:" }), ...animalWants.map(pick)));
  if (pastureWants.length) section.append(el("div", { class: "rancho-row" }, el("span", { class: "rancho-label", text: "Buy a pasture (or click a gold-edged hex):" }), ...pastureWants.map(pick)));
  if (!local.want) {
    section.append(el("p", { class: "rancho-muted", text: "Pick what you want to see the legal ways to pay." }));
    return section;
  }
  const options = wants.get(local.want);
  if (!local.pay || !options.some((d) => d.text === local.pay)) local.pay = options[0].text;
  const list = el("fieldset", { class: "rancho-pay" }, el("legend", { text: `Pay for ${wantLabel(local.want)}:` }));
  options.forEach((d, i) => {
    const id = `rancho-pay-${i}`;
    const { text } = dealPrice(d, catalog, m, view, ui);
    list.append(el("div", { class: "rancho-pay-option" },
      el("input", { type: "radio", name: "rancho-pay", id, checked: d.text === local.pay, onchange: () => { local.pay = d.text; redraw(); } }),
      el("label", { for: id, text: ` ${text}` })));
  });
  section.append(list);
  const chosen = options.find((d) => d.text === local.pay);
  section.append(el("div", { class: "rancho-row" },
    actionButton(chosen.text, `Confirm: ${chosen.text}`, "rancho-primary"),
    el("button", { type: "button", class: "rancho-btn", onclick: () => { local.want = null; local.pay = null; redraw(); }, text: "Cancel" })));
  return section;
}

// The arrangement editor: pick an animal, click spaces; confirm sends the composed text.
function drawArranger(view, ui, catalog, m, legal) {
  const me = m.players[view.you];
  const geo = geometry(catalog);
  const section = el("section", { class: "rancho-arranger", "aria-label": "Arrange your animals" });
  section.append(el("h3", { text: "Arrange your animals" }));
  if (!local.arranging) {
    section.append(el("div", { class: "rancho-row" },
      el("button", { type: "button", class: "rancho-btn", onclick: () => { local.arranging = true; local.draft = me.arranged.map((p) => ({ ...p, spaces: [...p.spaces] })); local.sel = null; local.pending = null; redraw(); }, text: "Move animals by hand" }),
      legal.includes("arrange safest") ? null : el("span", { class: "rancho-muted", text: " (already in the safest arrangement)" })));
    return section;
  }
  const draft = local.draft;
  // pick an animal
  const pieces = el("div", { class: "rancho-row", role: "group", "aria-label": "Your animals" }, el("span", { class: "rancho-label", text: "Animal:" }));
  draft.forEach((p, i) => {
    pieces.append(el("button", { type: "button", class: "rancho-chip", "aria-pressed": local.sel === i ? "true" : "false",
      onclick: () => { local.sel = local.sel === i ? null : i; local.pending = null; local.message = ""; redraw(); },
      text: `${p.count > 1 ? p.count + " " : ""}${plural(p.kind, p.count)} @${p.spaces.join("-")}` }));
  });
  section.append(pieces);
  const sel = local.sel != null ? draft[local.sel] : null;
  if (sel && sel.kind === "rabbit" && sel.count > 1) {
    section.append(el("div", { class: "rancho-row" }, el("span", { class: "rancho-label", text: "Move:" }),
      el("button", { type: "button", class: "rancho-chip", "aria-pressed": local.one ? "false" : "true", onclick: () => { local.one = false; redraw(); }, text: "the whole stack" }),
      el("button", { type: "button", class: "rancho-chip", "aria-pressed": local.one ? "true" : "false", onclick: () => { local.one = true; redraw(); }, text: "one rabbit" })));
  }
  const need = sel ? { rabbit: 1, sheep: 1, cow: 2, horse: 3 }[sel.kind] : 0;
  let hint = "Choose an animal, then click a space of your pen or pastures on the board (or use the space buttons below).";
  if (sel) hint = need > 1 ? `Click ${need} connected spaces for the ${sel.kind}${local.pending ? ` (${local.pending.length} of ${need} chosen)` : ""}.` : `Click the space for the ${sel.kind === "rabbit" ? (local.one ? "rabbit" : "stack") : sel.kind}.`;
  section.append(el("p", { class: "rancho-hint", role: "status", text: local.message || hint }));
  if (sel) {
    // the same targets as buttons, for the keyboard
    const targets = me.region.filter((id) => targetOk(id, m, geo)).sort(byId);
    section.append(el("div", { class: "rancho-row rancho-targets" }, el("span", { class: "rancho-label", text: "To:" }),
      ...targets.map((id) => el("button", { type: "button", class: "rancho-chip", onclick: () => arrangeClick(id, m, geo, catalog), text: id }))));
  }
  const problem = local.pending ? `finish placing the ${sel ? sel.kind : "animal"}` : arrangementProblem(draft, me, geo, catalog.rabbits_per_space || 6);
  const text = arrangementText(draft);
  const same = text === arrangementText(me.arranged);
  const row = el("div", { class: "rancho-row" });
  if (!problem && !same) row.append(actionButton(text, "Confirm arrangement", "rancho-primary"));
  else row.append(el("button", { type: "button", class: "rancho-btn", disabled: true, text: problem ? `Confirm (${problem})` : "Confirm (nothing moved)" }));
  row.append(el("button", { type: "button", class: "rancho-btn", onclick: () => { local.draft = me.arranged.map((p) => ({ ...p, spaces: [...p.spaces] })); local.sel = null; local.pending = null; local.message = ""; redraw(); }, text: "Reset" }));
  row.append(el("button", { type: "button", class: "rancho-btn", onclick: () => { local.arranging = false; local.draft = null; local.sel = null; local.pending = null; local.message = ""; redraw(); }, text: "Close" }));
  section.append(row);
  if (!same && !problem) section.append(el("p", { class: "rancho-muted rancho-composed", text }));
  return section;
}

function occupant(id) {
  const i = local.draft.findIndex((p) => p.spaces.includes(id));
  return i < 0 ? null : i;
}
function targetOk(id, m, geo) {
  const sel = local.draft[local.sel];
  const at = occupant(id);
  if (sel.kind === "cow" || sel.kind === "horse") {
    if (at != null && at !== local.sel) return false;
    if (local.pending && local.pending.includes(id)) return false;
    if (local.pending && local.pending.length && !local.pending.some((p) => geo.adjacent(p, id))) return false;
    return true;
  }
  if (at === local.sel) return false;
  if (at == null) return true;
  const there = local.draft[at];
  if (sel.kind === "rabbit" && there.kind === "rabbit") return there.count < 6;
  return there.spaces.length === 1 && !(local.one && sel.count > 1); // swap two one-space pieces
}

function arrangeClick(id, m, geo, catalog) {
  const draft = local.draft;
  if (!draft) return;
  const perSpace = catalog.rabbits_per_space || 6;
  local.message = "";
  const at = occupant(id);
  if (local.sel == null || (at != null && at !== local.sel && !targetOk(id, m, geo))) {
    // select what stands there
    local.sel = at; local.pending = null;
    if (at == null) local.message = `Nothing stands on ${id}: choose an animal first.`;
    redraw();
    return;
  }
  const sel = draft[local.sel];
  if (sel.kind === "cow" || sel.kind === "horse") {
    const need = sel.kind === "cow" ? 2 : 3;
    if (!targetOk(id, m, geo)) { local.message = `${id} is not free next to the spaces chosen.`; redraw(); return; }
    local.pending = [...(local.pending || []), id];
    if (local.pending.length === need) { sel.spaces = local.pending; local.pending = null; local.sel = null; }
    redraw();
    return;
  }
  if (at === local.sel) { local.sel = null; redraw(); return; }
  if (at == null) {
    if (sel.kind === "rabbit" && local.one && sel.count > 1) {
      sel.count -= 1;
      draft.push({ kind: "rabbit", count: 1, spaces: [id] });
    } else sel.spaces = [id];
    local.sel = null;
    redraw();
    return;
  }
  const there = draft[at];
  if (sel.kind === "rabbit" && there.kind === "rabbit") {
    const move = Math.min(local.one ? 1 : sel.count, perSpace - there.count);
    there.count += move;
    sel.count -= move;
    if (sel.count === 0) draft.splice(local.sel, 1);
    local.sel = null;
    if (move < (local.one ? 1 : sel.count + move)) local.message = `Only ${move} fit on ${id} (${perSpace} a space).`;
  } else if (there.spaces.length === 1 && sel.spaces.length === 1 && !(local.one && sel.count > 1)) {
    [there.spaces, sel.spaces] = [sel.spaces, there.spaces];
    local.sel = null;
  }
  redraw();
}

// ----------------------------------------------------------------- style
// A constructed style sheet: the page's Content-Security-Policy refuses <style> elements.
let sheet = null;
function ensureStyle() {
  if (sheet) return;
  sheet = new CSSStyleSheet();
  sheet.replaceSync(`
.rancho{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}
.rancho-figure{margin:0;flex:1 1 26rem;min-width:0;max-width:44rem}
.rancho-board{width:100%;height:auto;display:block;max-height:80vh}
.rancho-side{flex:1 1 17rem;min-width:0;display:flex;flex-direction:column;gap:.6rem}
.rancho-end .rancho-ranches{max-width:36rem}
.rancho-board text{font-family:system-ui,sans-serif;pointer-events:none;paint-order:stroke;stroke:#fffdf5;stroke-width:2.4px;stroke-linejoin:round}
.rancho-id,.rancho-price,.rancho-piece-text{text-anchor:middle}
.rancho-id{font-size:10.5px;fill:#2f3a1f}
.rancho-price{font-size:10px;fill:#2f3a1f;font-weight:700}
.rancho-legend-text{font-size:11px;fill:#2f3a1f;text-anchor:start}
.rancho-board .rancho-piece-text{font-size:11px;font-weight:700;fill:#222;stroke:none}
.rancho-grow .rancho-id,.rancho-grow .rancho-price,.rancho-grow .rancho-legend-text,.rancho-board.rancho-grow .rancho-piece-text{font-size:var(--rancho-label)}
.rancho-grow .rancho-more,.rancho-compact .rancho-id,.rancho-compact .rancho-pen-label,.rancho-compact .rancho-under,.rancho-compact .rancho-legend{display:none}
.rancho-click{cursor:pointer}
.rancho-click:focus{outline:none}
.rancho-click:hover polygon:nth-last-of-type(3){stroke:#0d47a1;stroke-width:3.5}
.rancho-focus,.rancho-focus-in{fill:none;display:none;pointer-events:none}
.rancho-focus{stroke:#111;stroke-width:5}
.rancho-focus-in{stroke:#fff;stroke-width:1.8}
.rancho-click:focus-visible .rancho-focus,.rancho-click:focus-visible .rancho-focus-in{display:inline}
.rancho-dice h3,.rancho-builder h3,.rancho-arranger h3{font-size:1rem;margin:.2rem 0}
.rancho-dice-row{display:flex;gap:.4rem;flex-wrap:wrap}
.rancho-die{width:3.2rem;height:3.2rem}
.rancho-die-letter{font:700 11px system-ui,sans-serif;text-anchor:middle}
.rancho-die-word{font:9px system-ui,sans-serif;text-anchor:middle;fill:#333}
.rancho-d6{font:700 20px system-ui,sans-serif;text-anchor:middle;fill:#8e2a1f}
.rancho-strike{color:#8e2a1f;margin:.3rem 0}
.rancho-muted{color:#666;margin:.3rem 0}
.rancho-hint{margin:.3rem 0}
.rancho-ranches table{border-collapse:collapse;width:100%;font-size:.9rem}
.rancho-ranches caption{text-align:left;font-weight:600;padding-bottom:.2rem}
.rancho-ranches th,.rancho-ranches td{padding:.15rem .25rem;text-align:center;border-bottom:1px solid #e4e0d6}
.rancho-ranches th[scope=row]{text-align:left;font-weight:500}
.rancho-ranches td,.rancho-ranches thead th{white-space:nowrap}
.rancho-ranches table{table-layout:auto}
.rancho-icon{width:1.2rem;height:1.2rem;vertical-align:middle}
.rancho-icon-letter{font:700 12px system-ui,sans-serif;text-anchor:middle}
.rancho-ranches svg.rancho-swatch{display:inline-block;width:.9rem;height:.9rem;vertical-align:-.1rem}
.rancho-ranches svg.rancho-icon{display:inline-block}
.rancho-ranches th[scope=row]{white-space:nowrap}
.rancho-playing{background:#fff6d9}
.rancho-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.rancho-you th[scope=row]{font-weight:700}
.rancho-missing{color:#b0a99a}
.rancho-full td{color:#1b5e20;font-weight:700}
.rancho-controls{display:flex;flex-direction:column;gap:.6rem}
.rancho-main-actions,.rancho-row,.rancho-rest{display:flex;flex-wrap:wrap;gap:.35rem;align-items:center}
.rancho-label{font-size:.9rem;color:#444;margin-right:.2rem}
.rancho-btn,.rancho-chip{font:inherit;padding:.4rem .7rem;border-radius:.4rem;border:1px solid #8d8571;background:#fbf9f3;cursor:pointer;max-width:100%;overflow-wrap:anywhere;text-align:left}
.rancho-chip{padding:.25rem .55rem;border-radius:1rem}
.rancho-chip[aria-pressed=true]{background:#ffe082;border-color:#8a6d00;font-weight:600}
.rancho-primary{background:#2e7d32;border-color:#1b5e20;color:#fff;font-weight:600}
.rancho-btn:disabled{opacity:.6;cursor:not-allowed}
.rancho-btn:focus-visible,.rancho-chip:focus-visible{outline:3px solid #0d47a1;outline-offset:2px}
.rancho-builder,.rancho-arranger{border:1px solid #e0dacb;border-radius:.5rem;padding:.5rem .7rem;background:#fffdf8;min-width:0}
.rancho-pay{border:none;margin:.3rem 0;padding:0;min-width:0}
.rancho-pay legend{font-weight:600;padding:0}
.rancho-pay-option{margin:.2rem 0;overflow-wrap:anywhere}
.rancho-composed{font-family:ui-monospace,monospace;font-size:.8rem;overflow-wrap:anywhere}
@media (max-width:40rem){.rancho-figure{flex-basis:100%}.rancho-board{max-height:none}
.rancho-ranches table{font-size:.8rem}.rancho-ranches th,.rancho-ranches td{padding:.12rem .12rem}}
`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
