// Super Farmer at the browser table: the two twelve-faced dice (every face drawn, the last
// roll as the faces that came up), the herd and every farm as drawn animals with their
// counts, the fox and the wolf with what they take, and the turn's choice: the printed
// exchange table as buttons with pictures (both ways), the other exchanges on offer, and
// the roll.
//
// render(view, ui) rebuilds everything from the view it is given and keeps nothing of
// earlier views. Every element that performs a legal action carries
// data-action="THE ACTION'S TEXT"; every drawn thing carries a stable data-key. Pictures
// are SVG made here (no font glyphs), each with an accessible name. Farmers are named by
// seat label, never by colour alone. The catalog (catalog/super_farmer.py) gives the
// species' values, the dice faces and the printed table.

import { animalPicture, arrowPicture, diceIcon, dieFace } from "/static/games/super-farmer-pictures.js";

const KEYS = ["rabbit", "sheep", "pig", "cow", "horse", "small_dog", "big_dog"];
const NAMES = { rabbit: "rabbit", sheep: "sheep", pig: "pig", cow: "cow", horse: "horse", small_dog: "small dog", big_dog: "big dog", fox: "fox", wolf: "wolf" };
const PLURALS = { rabbit: "rabbits", sheep: "sheep", pig: "pigs", cow: "cows", horse: "horses", small_dog: "small dogs", big_dog: "big dogs" };
const GUARDS = { small_dog: "guards the rabbits from the fox", big_dog: "guards the herd from the wolf" };

// ------------------------------------------------------------------ entry points
export function render(view, ui) {
  ensureStyle();
  const obs = view.observation;
  ui.board.replaceChildren();
  ui.controls.replaceChildren();
  if (!obs) return;
  ui.board.append(el(ui, "div", { class: "sf", "data-key": "table" },
    dicePanel(view, ui, obs), farms(view, ui, obs)));
  if ((view.legal_actions || []).length) ui.controls.append(choices(view, ui));
}

export function renderEnd(view, ui) {
  ensureStyle();
  const obs = view.observation;
  if (!obs) return;
  const line = obs.winner === null
    ? "The game was cut short without a winner."
    : `${obs.winner === view.you ? "You win" : ui.seat(obs.winner).label + " wins"} with a full herd after ${obs.turn} turns.`;
  ui.board.replaceChildren(el(ui, "p", { class: "sf-winner", "data-key": "winner" }, line),
    el(ui, "div", { class: "sf" }, farms(view, ui, obs)));
}

export function status(view) {
  const obs = view.observation;
  if (!obs || view.status === "finished") return "";
  if (!(view.legal_actions || []).length) return obs.phase === "roll" ? "The dice are rolling…" : "";
  const trading = view.legal_actions.some((a) => a.startsWith("trade "));
  return trading ? "Your turn: make one exchange with the herd, or roll." : "Your turn: roll the dice.";
}

// ----------------------------------------------------------------- helpers
function el(ui, tag, attrs, ...children) {
  return ui.el(tag, attrs, ...children);
}

function counted(n, key) {
  return `${n} ${n === 1 ? NAMES[key] : PLURALS[key]}`;
}

/** "6 rabbit + sheep" (an action's side) as {rabbit: 6, sheep: 1}. */
function side(text) {
  const counts = {};
  for (const part of text.split(" + ")) {
    const match = /^(\d+) (.+)$/.exec(part.trim());
    const name = (match ? match[2] : part.trim()).replace(" ", "_");
    counts[name] = match ? Number(match[1]) : 1;
  }
  return counts;
}

function sideText(counts) {
  return KEYS.filter((k) => counts[k]).map((k) => (counts[k] === 1 ? NAMES[k] : `${counts[k]} ${NAMES[k]}`)).join(" + ");
}

// ----------------------------------------------------------------- the dice
function dicePanel(view, ui, obs) {
  const catalog = ui.catalog || {};
  const dice = catalog.dice || [];
  const rolled = obs.dice || null;
  const panel = el(ui, "section", { class: "sf-dice", "data-key": "dice", "aria-label": "The dice" });
  dice.forEach((die, d) => {
    const shown = rolled ? rolled[d] : null;
    const label = shown ? `the ${die.name} die shows a ${NAMES[shown]}` : `the ${die.name} die, not rolled yet`;
    const big = el(ui, "div", { class: "sf-die-now", "data-key": `die-${die.name}` },
      dieFace(ui.svg, die.name, shown, 56, label),
      el(ui, "span", { class: "sf-die-name" }, `${die.name} die`));
    const faces = el(ui, "div", { class: "sf-faces", "data-key": `die-${die.name}-faces`, role: "group", "aria-label": `the ${die.name} die's 12 faces` },
      ...die.faces.map((face, i) => el(ui, "span", { class: `sf-face${face === shown ? " sf-up" : ""}`, "data-key": `die-${die.name}-face-${i}` },
        dieFace(ui.svg, die.name, face, 26, `face ${i + 1}: ${NAMES[face]}`))));
    panel.append(el(ui, "div", { class: `sf-die sf-die-${die.name}` }, big, faces));
  });
  panel.append(predators(view, ui));
  panel.append(el(ui, "p", { class: "sf-roll", "data-key": "roll" }, rolled
    ? `Last roll: the wolf die shows a ${NAMES[rolled[0]]}, the fox die a ${NAMES[rolled[1]]}.`
    : "No roll yet."));
  return panel;
}

/** The fox and the wolf, with what they take under this table's options and the dog
 * that guards against each (it goes back to the herd instead). */
function predators(view, ui) {
  const options = view.options || {};
  const fox = options.fox === "leave-one" ? "takes all rabbits but one" : "takes all rabbits";
  const wolf = options.wolf === "takes-small-dog"
    ? "takes rabbits, sheep, pigs, cows and small dogs"
    : "takes rabbits, sheep, pigs and cows";
  const line = (key, what, dog) => el(ui, "li", { class: "sf-predator", "data-key": `predator-${key}` },
    animalPicture(ui.svg, key, 26, NAMES[key]), ` The ${key} ${what}, unless a `,
    animalPicture(ui.svg, dog, 22, NAMES[dog]), ` ${NAMES[dog]} guards (the dog goes back to the herd instead).`);
  return el(ui, "ul", { class: "sf-predators", "aria-label": "The predators" },
    line("fox", fox, "small_dog"), line("wolf", wolf, "big_dog"));
}

// ----------------------------------------------------------------- the farms
function farms(view, ui, obs) {
  const box = el(ui, "div", { class: "sf-farms" });
  box.append(farm(ui, "herd", "The herd", obs.herd, null, "herd"));
  obs.farmers.forEach((animals, i) => {
    const acting = i === obs.player && obs.winner === null && view.status !== "finished";
    const needs = (obs.needs[i] || []).map((k) => NAMES[k]);
    const head = [];
    if (acting) head.push(el(ui, "span", { class: "sf-acting" }, "to play"));
    if (i === view.you) head.push(el(ui, "span", { class: "sf-you" }, "you"));
    if (obs.winner === i) head.push(el(ui, "span", { class: "sf-won" }, "full herd"));
    const note = needs.length ? `still needs: ${needs.join(", ")}` : "a full herd";
    const cls = `sf-farm${acting ? " acting" : ""}${i === view.you ? " mine" : ""}`;
    box.append(farm(ui, `farm-${i}`, ui.seat(i).label, animals, { cls, head, note, seat: i }, "farm"));
  });
  return box;
}

function farm(ui, key, title, animals, extra, kind) {
  const seat = extra ? extra.seat : null;
  const heading = el(ui, "h3", { class: "sf-farm-name" },
    seat !== null ? el(ui, "span", { class: "sf-swatch", "data-seat": seat }, swatch(ui, seat)) : null,
    title, ...(extra ? extra.head : []));
  const row = el(ui, "ul", { class: "sf-animals", "aria-label": `${title}: animals` },
    ...KEYS.map((k) => {
      const n = animals[k] || 0;
      const guard = GUARDS[k] && n && kind === "farm" ? `, ${GUARDS[k]}` : "";
      return el(ui, "li", { class: `sf-animal${n ? "" : " sf-none"}${GUARDS[k] ? " sf-dog" : ""}`, "data-key": `${key}-${k}` },
        animalPicture(ui.svg, k, 34, `${counted(n, k)}${guard}`),
        el(ui, "span", { class: "sf-count", "aria-hidden": "true" }, String(n)));
    }));
  return el(ui, "section", { class: extra ? extra.cls : "sf-farm sf-herd", "data-key": key, "aria-label": title },
    heading, row, extra ? el(ui, "p", { class: "sf-needs" }, extra.note) : null);
}

function swatch(ui, seat) {
  const s = ui.seat(seat);
  return ui.svg("svg", { viewBox: "0 0 14 14", width: 14, height: 14, "aria-hidden": "true" },
    ui.svg("rect", { x: 0.5, y: 0.5, width: 13, height: 13, rx: 3, fill: s.colour }),
    ui.svg("rect", { x: 0.5, y: 0.5, width: 13, height: 13, rx: 3, fill: s.fill, stroke: "#333" }));
}

// ----------------------------------------------------------------- the choices
function choices(view, ui) {
  const legal = new Set(view.legal_actions);
  const box = el(ui, "div", { class: "sf-choices", "data-key": "choices" });
  if (legal.has("roll")) {
    box.append(el(ui, "button", { type: "button", class: "action primary sf-roll-button", "data-action": "roll", "data-key": "roll-button",
      "aria-label": "Roll the dice", onclick: () => ui.act("roll") }, diceIcon(ui.svg), el(ui, "span", {}, "Roll the dice")));
  }
  const trades = view.legal_actions.filter((a) => a.startsWith("trade "));
  if (!trades.length) return box;
  const catalog = ui.catalog || {};
  const printed = new Set();
  const rows = (catalog.table || []).map((row, r) => {
    const there = `trade ${sideText(row.give)} > ${sideText(row.take)}`;
    const back = `trade ${sideText(row.take)} > ${sideText(row.give)}`;
    printed.add(there);
    printed.add(back);
    return el(ui, "div", { class: "sf-xrow", role: "group", "data-key": `table-${r}`, "aria-label": `${sideText(row.give)} for ${sideText(row.take)}` },
      tradeButton(ui, there, legal, `table-${r}-there`), tradeButton(ui, back, legal, `table-${r}-back`));
  });
  if (rows.length) {
    box.append(el(ui, "h3", { class: "sf-xhead" }, "The exchange table"),
      el(ui, "div", { class: "sf-xtable", "data-key": "exchange-table" }, ...rows));
  }
  const others = trades.filter((t) => !printed.has(t));
  const lacking = new Set((view.observation.needs || [])[view.you] || []);
  const brings = (text) => Object.keys(side(text.slice(6).split(" > ")[1])).some((k) => lacking.has(k));
  const useful = others.filter(brings);
  const rest = others.filter((t) => !brings(t));
  if (useful.length) {
    box.append(el(ui, "p", { class: "sf-xhead" }, "Other exchanges that bring a species you lack:"),
      el(ui, "div", { class: "sf-list", "data-key": "useful" }, ...useful.map((t) => tradeButton(ui, t, legal, `x-${t}`))));
  }
  if (rest.length) {
    box.append(el(ui, "details", { class: "sf-more", "data-key": "more" }, el(ui, "summary", {}, `Other exchanges (${rest.length})`),
      el(ui, "div", { class: "sf-list" }, ...rest.map((t) => tradeButton(ui, t, legal, `x-${t}`)))));
  }
  return box;
}

/** One exchange as a button: the animals given, an arrow, the animals taken. Only a legal
 * one acts (and carries data-action); the printed table's others are shown disabled. */
function tradeButton(ui, text, legal, key) {
  const [give, take] = text.slice("trade ".length).split(" > ").map(side);
  const words = `give ${sideText(give)}, take ${sideText(take)}`;
  const ok = legal.has(text);
  const pictures = (counts) => el(ui, "span", { class: "sf-side" }, ...KEYS.filter((k) => counts[k]).map((k) =>
    el(ui, "span", { class: "sf-item" }, counts[k] > 1 ? el(ui, "span", { class: "sf-n" }, String(counts[k])) : null,
      animalPicture(ui.svg, k, 26, counted(counts[k], k)))));
  return el(ui, "button", {
    type: "button",
    class: `action sf-trade${ok ? "" : " sf-off"}`,
    "data-action": ok ? text : null,
    "data-key": key,
    disabled: !ok,
    "aria-label": ok ? `Exchange: ${words}` : `Exchange not possible now: ${words}`,
    title: text,
    onclick: ok ? () => ui.act(text) : null,
  }, pictures(give), arrowPicture(ui.svg), pictures(take));
}

// A constructed style sheet: the page's Content-Security-Policy refuses <style> elements.
let sheet = null;
function ensureStyle() {
  if (sheet) return;
  sheet = new CSSStyleSheet();
  sheet.replaceSync(`
    .sf { display: flex; flex-direction: column; gap: 0.6rem; }
    .sf-dice { display: flex; flex-wrap: wrap; gap: 0.5rem 1.2rem; align-items: flex-start; }
    .sf-die { display: flex; gap: 0.5rem; align-items: center; min-width: 0; }
    .sf-die-now { display: flex; flex-direction: column; align-items: center; font-size: 0.8rem; color: #444; }
    .sf-faces { display: grid; grid-template-columns: repeat(6, 26px); gap: 2px; }
    .sf-face { display: block; line-height: 0; opacity: 0.8; }
    .sf-face.sf-up { opacity: 1; outline: 2px solid #1f5f8b; outline-offset: 1px; border-radius: 4px; }
    .sf-predators { list-style: none; margin: 0; padding: 0; flex: 1 1 100%; display: grid; gap: 0.2rem; font-size: 0.85rem; }
    .sf-predator svg { display: inline-block; vertical-align: middle; }
    .sf-roll { margin: 0; flex: 1 1 100%; font-size: 0.9rem; }
    .sf-farms { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 20rem), 1fr)); gap: 0.5rem; }
    .sf-farm { border: 1px solid #dcd8ce; border-radius: 8px; padding: 0.35rem 0.5rem; min-width: 0; }
    .sf-farm.sf-herd { background: #f4f1e8; }
    .sf-farm.acting { border-color: #222; box-shadow: inset 0 0 0 1px #222; }
    .sf-farm.mine { background: #fffaf0; }
    .sf-farm-name { display: flex; flex-wrap: wrap; align-items: center; gap: 0.35rem; font-size: 0.95rem; margin: 0 0 0.2rem; }
    .sf-acting, .sf-you, .sf-won { font-size: 0.75rem; font-weight: 600; border-radius: 999px; padding: 0 0.45rem; }
    .sf-acting { background: #ffe7a3; } .sf-you { background: #dbe9f5; } .sf-won { background: #d7ecd2; }
    .sf-swatch { line-height: 0; }
    .sf-animals { list-style: none; margin: 0; padding: 0; display: flex; flex-wrap: wrap; gap: 0.25rem; }
    .sf-animal { position: relative; width: 40px; height: 40px; display: flex; align-items: center; justify-content: center;
      border-radius: 6px; background: #fff; border: 1px solid #e4e0d6; }
    .sf-animal.sf-dog { background: #f3f6fb; }
    .sf-animal.sf-none svg { opacity: 0.28; }
    .sf-count { position: absolute; right: -3px; bottom: -4px; min-width: 1.25rem; padding: 0 0.2rem; border-radius: 999px;
      background: #222; color: #fff; font-size: 0.75rem; font-weight: 700; text-align: center; line-height: 1.3; }
    .sf-none .sf-count { background: #bbb6aa; color: #222; }
    .sf-needs { margin: 0.25rem 0 0; font-size: 0.8rem; color: #5f5d57; }
    .sf-choices { display: flex; flex-direction: column; gap: 0.4rem; width: 100%; }
    .sf-roll-button { align-self: flex-start; display: inline-flex; align-items: center; gap: 0.4rem; }
    .sf-xhead { font-size: 0.9rem; margin: 0.2rem 0 0; font-weight: 600; }
    .sf-xtable { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 15rem), 1fr)); gap: 0.3rem; }
    .sf-xrow { display: flex; gap: 0.3rem; }
    .sf-xrow .sf-trade { flex: 1 1 50%; }
    .sf-list { display: flex; flex-wrap: wrap; gap: 0.3rem; max-height: 16em; overflow-y: auto; padding: 4px; }
    .sf-trade { display: inline-flex; align-items: center; justify-content: center; gap: 0.2rem; padding: 0.2em 0.4em; }
    .sf-trade.sf-off { opacity: 0.45; }
    .sf-side { display: inline-flex; align-items: center; gap: 0.15rem; flex-wrap: wrap; }
    .sf-item { display: inline-flex; align-items: center; }
    .sf-n { font-weight: 700; font-size: 0.85rem; margin-right: 1px; }
    .sf-winner { font-weight: 600; }
  `);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
