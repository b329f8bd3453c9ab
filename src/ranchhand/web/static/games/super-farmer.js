// Super Farmer at the browser table: the herd and every farm as a table of counts, the
// last roll, and the turn's choice (one exchange, or roll) as buttons.
//
// render(view, ui) rebuilds everything from the view it is given and keeps nothing of
// earlier views. Every element that performs a legal action carries
// data-action="THE ACTION'S TEXT". Farmers are named by seat label, never by colour alone.

const KEYS = ["rabbit", "sheep", "pig", "cow", "horse", "small_dog", "big_dog"];
const NAMES = ["rabbit", "sheep", "pig", "cow", "horse", "small dog", "big dog"];
const VALUES = "Values in rabbits: sheep 6, pig 12, cow 36, horse 72, small dog 6, big dog 36.";

// ------------------------------------------------------------------ entry points
export function render(view, ui) {
  ensureStyle();
  const obs = view.observation;
  ui.board.replaceChildren();
  ui.controls.replaceChildren();
  if (!obs) return;
  ui.board.append(farms(view, ui, obs), rollLine(ui, obs));
  if ((view.legal_actions || []).length) ui.controls.append(choices(view, ui));
}

export function renderEnd(view, ui) {
  ensureStyle();
  const obs = view.observation;
  if (!obs) return;
  const line = obs.winner === null
    ? "The game was cut short without a winner."
    : `${obs.winner === view.you ? "You win" : ui.seat(obs.winner).label + " wins"} with a full herd after ${obs.turn} turns.`;
  ui.board.replaceChildren(ui.el("p", { class: "sf-winner" }, line), farms(view, ui, obs));
}

export function status(view) {
  const obs = view.observation;
  if (!obs || view.status === "finished") return "";
  if (!(view.legal_actions || []).length) return obs.phase === "roll" ? "The dice are rolling…" : "";
  const trading = view.legal_actions.some((a) => a.startsWith("trade "));
  return trading ? "Your turn: make one exchange with the herd, or roll." : "Your turn: roll the dice.";
}

// ----------------------------------------------------------------- drawing
function farms(view, ui, obs) {
  const el = ui.el;
  const head = el("tr", {}, el("th", { scope: "col" }, ""), ...NAMES.map((n) => el("th", { scope: "col" }, n)),
    el("th", { scope: "col", class: "sf-needs" }, "still needs"));
  const rows = [el("tr", { class: "sf-herd" }, el("th", { scope: "row" }, "herd"),
    ...KEYS.map((k) => el("td", {}, String(obs.herd[k]))), el("td", {}, ""))];
  obs.farmers.forEach((animals, i) => {
    const acting = i === obs.player && obs.winner === null;
    const needs = obs.needs[i].map((k) => NAMES[KEYS.indexOf(k)]).join(", ") || "full herd";
    rows.push(el("tr", { class: `sf-farm${acting ? " acting" : ""}${i === view.you ? " mine" : ""}` },
      el("th", { scope: "row" }, `${acting ? "▶ " : ""}${ui.seat(i).label}`),
      ...KEYS.map((k) => el("td", {}, String(animals[k]))), el("td", { class: "sf-needs" }, needs)));
  });
  const table = el("table", { class: "sf-table", "aria-label": "The herd and every farm" },
    el("thead", {}, head), el("tbody", {}, ...rows));
  return el("div", { class: "sf-scroll" }, table);
}

function rollLine(ui, obs) {
  const text = obs.dice
    ? `Last roll: the wolf die shows ${obs.dice[0]}, the fox die ${obs.dice[1]}.`
    : "No roll yet.";
  return ui.el("p", { class: "sf-roll" }, text);
}

function choices(view, ui) {
  const el = ui.el;
  const button = (text) => el("button", { type: "button", class: "action", "data-action": text, onclick: () => ui.act(text) }, text);
  const trades = view.legal_actions.filter((a) => a.startsWith("trade "));
  const box = el("div", { class: "sf-choices" });
  if (view.legal_actions.includes("roll")) box.append(button("roll"));
  if (trades.length) {
    const lacking = new Set(view.observation.needs[view.you] || []);
    const brings = (text) => text.split(" > ")[1].split(" + ").some((part) => lacking.has(part.replace(/^\d+ /, "").replace(" ", "_")));
    const useful = trades.filter(brings);
    if (useful.length) box.append(el("p", {}, "Exchanges that bring a species you lack:"), el("div", { class: "sf-list" }, ...useful.map(button)));
    const rest = trades.filter((t) => !brings(t));
    if (rest.length) box.append(el("details", {}, el("summary", {}, `Other exchanges (${rest.length})`), el("div", { class: "sf-list" }, ...rest.map(button))));
    box.append(el("p", { class: "sf-note" }, VALUES));
  }
  return box;
}

// A constructed style sheet: the page's Content-Security-Policy refuses <style> elements.
let sheet = null;
function ensureStyle() {
  if (sheet) return;
  sheet = new CSSStyleSheet();
  sheet.replaceSync(`
    .sf-table { border-collapse: collapse; max-width: 100%; font-variant-numeric: tabular-nums; }
    .sf-table th, .sf-table td { padding: 0.2em 0.35em; text-align: right; border-bottom: 1px solid #ccc;
      white-space: nowrap; word-break: normal; overflow-wrap: normal; }
    .sf-table th[scope=row], .sf-table .sf-needs { text-align: left; }
    .sf-table thead th, .sf-table td.sf-needs { white-space: normal; }
    .sf-table .sf-needs { min-width: 8em; }
    .sf-scroll { overflow-x: auto; max-width: 100%; }
    .sf-farm.acting { font-weight: bold; }
    .sf-farm.mine th { text-decoration: underline; }
    .sf-list { display: flex; flex-wrap: wrap; gap: 0.3em; max-height: 16em; overflow-y: auto; }
    .sf-note, .sf-roll { font-size: 0.9em; }
  `);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
