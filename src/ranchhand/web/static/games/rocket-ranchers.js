// Rocket Ranchers in the browser: the 4x4 display as cards, beams with a live
// preview, corrals with their scores, the dogship swap, and the end breakdown.
//
// render(view, ui) draws a seat's (or a spectator's) view; renderEnd(view, ui)
// the final breakdown. Every element that performs a legal action when clicked
// carries data-action="THE ACTION'S TEXT" (only texts of view.legal_actions);
// elements that only choose (a beam, a turn, a place, the first card of a swap)
// carry data-choose instead. Nothing here reads more than the view and the
// catalog: a founding card the observation hides is never in the page.

const SVG = "http://www.w3.org/2000/svg";
const CELL = 100;
const GAP = 8;
const EDGE = 20; // room for the column letters and row numbers
const SIDE = EDGE + 4 * CELL + 3 * GAP + 4;

// What the player has chosen but not yet sent; reset when the table moves on.
const pick = { key: null, beam: null, rot: null, place: null, swap: false, first: null };
let last = null; // {view, ui}: redrawn in place when a choice changes
const folds = new Set(); // on a phone: the seats whose corrals are unfolded

// ------------------------------------------------------------------ helpers
function h(tag, attrs, ...kids) {
  const node = document.createElement(tag);
  setAll(node, attrs);
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false)
    node.append(kid instanceof Node ? kid : String(kid));
  return node;
}
function s(tag, attrs, ...kids) {
  const node = document.createElementNS(SVG, tag);
  setAll(node, attrs);
  for (const kid of kids.flat()) if (kid !== null && kid !== undefined && kid !== false)
    node.append(kid instanceof Node ? kid : String(kid));
  return node;
}
function setAll(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on")) node.addEventListener(key.slice(2), value);
    else if (key === "style") node.style.cssText = String(value); // the CSP refuses style attributes
    else node.setAttribute(key, value === true ? "" : String(value));
  }
}
const plural = (n, one, many) => `${n} ${n === 1 ? one : many || one + "s"}`;

function cellName(cat, index) {
  return cat.columns[index % cat.size] + String(Math.floor(index / cat.size) + 1);
}
function cellIndex(cat, name) {
  return (Number(name.slice(1)) - 1) * cat.size + cat.columns.indexOf(name[0]);
}
function cellXY(cat, index) {
  const col = index % cat.size, row = Math.floor(index / cat.size);
  return [EDGE + col * (CELL + GAP), EDGE + row * (CELL + GAP)];
}

function card(cat, text) {
  const c = cat.cards[text];
  if (!c) return null;
  const biome = cat.biomes[c.biome];
  return { text, species: cat.species[c.species], short: cat.species_short[c.species],
           biome, dots: c.dots, mark: c.mark };
}
function cardWords(cat, text) {
  if (text === "cat") return "Space Cat";
  if (text === "empty") return "empty";
  if (text === "hidden") return "a face-down card";
  const c = card(cat, text);
  if (!c) return text;
  return `${c.species}, ${c.biome.name}, ${plural(c.dots, "dot")}${c.mark ? ", " + c.mark : ""}`;
}

// The legal actions, sorted by what they do.
function sortActions(legal) {
  const out = { beams: new Map(), swaps: [], forms: new Map(), occupy: new Map(),
                reboot: null, end: null, all: new Set(legal) };
  for (const text of legal) {
    let m;
    if ((m = /^beam (\S+) r(\d+) @([a-z]\d)$/.exec(text))) {
      if (!out.beams.has(m[1])) out.beams.set(m[1], new Map());
      const rots = out.beams.get(m[1]);
      if (!rots.has(m[2])) rots.set(m[2], []);
      rots.get(m[2]).push({ text, anchor: m[3] });
    } else if ((m = /^dogship ([a-z]\d) ([a-z]\d)$/.exec(text))) {
      out.swaps.push({ text, a: m[1], b: m[2] });
    } else if ((m = /^form (\S+)$/.exec(text))) {
      out.forms.set(m[1], text);
    } else if ((m = /^occupy (\S+) in (\d+)$/.exec(text))) {
      if (!out.occupy.has(m[1])) out.occupy.set(m[1], []);
      out.occupy.get(m[1]).push({ text, corral: Number(m[2]) });
    } else if (text === "reboot") out.reboot = text;
    else if (text === "end") out.end = text;
  }
  return out;
}

function beamOf(cat, name) { return cat.beams.find((b) => b.name === name); }

// The cells a placement takes: the turned pattern moved to its anchor.
function placementCells(cat, beam, rot, anchor) {
  const a = cellIndex(cat, anchor);
  const row = Math.floor(a / cat.size), col = a % cat.size;
  return beamOf(cat, beam).rotations[rot].map(([r, c]) => (row + r) * cat.size + col + c);
}

// The Space Cats that come along with cells: those under the beam, then every
// cat next to a collected card (once, or until none is left with cat_chain).
function catsTaken(cat, display, cells, chain) {
  const taken = new Set(cells.filter((i) => display[i] !== "empty"));
  const cats = new Set(cells.filter((i) => display[i] === "cat"));
  for (;;) {
    let grew = false;
    for (const i of [...taken]) {
      const r = Math.floor(i / cat.size), c = i % cat.size;
      for (const [dr, dc] of [[1, 0], [-1, 0], [0, 1], [0, -1]]) {
        const rr = r + dr, cc = c + dc;
        if (rr < 0 || cc < 0 || rr >= cat.size || cc >= cat.size) continue;
        const j = rr * cat.size + cc;
        if (display[j] === "cat" && !taken.has(j)) { taken.add(j); cats.add(j); grew = true; }
      }
    }
    if (!chain || !grew) break;
  }
  return [...cats].filter((i) => !cells.includes(i));
}

// What a corral scores: Abundance and Variety, and the way it counts.
function corralScore(cat, corral) {
  const sc = cat.scoring;
  const up = corral.face_up.map((t) => card(cat, t)).filter(Boolean);
  const amount = sc.abundance_counts === "dots" ? up.reduce((n, c) => n + c.dots, 0) : up.length;
  const biomes = new Set(up.map((c) => c.biome.name));
  const founder = card(cat, corral.founder);
  if (sc.variety_counts === "all" && founder) biomes.add(founder.biome.name);
  const row = (rows, n) => rows.reduce((p, [least, pts]) => (n >= least ? pts : p), 0);
  const abundance = row(sc.abundance, amount), variety = row(sc.variety, biomes.size);
  let way = sc.corral_scoring;
  if (way === "best") way = abundance >= variety ? "abundance" : "variety";
  return { abundance, variety, way, amount, biomes: biomes.size,
           points: way === "abundance" ? abundance : variety };
}

function catPoints(cat, floof) {
  const most = Math.max(...floof);
  return floof.map((n) => (n === most ? cat.scoring.cats_most : cat.scoring.cats_each * n));
}

function seatOf(ui, i) {
  const seat = (ui.seat && ui.seat(i)) || {};
  return { label: seat.label || `P${i}`, colour: seat.colour || "#666", pattern: seat.pattern || "" };
}

// ------------------------------------------------------------------ drawing cards
function drawCard(cat, text, index, x, y) {
  const g = s("g", { class: "rr-card", transform: `translate(${x} ${y})` });
  if (text === "empty") {
    g.append(s("rect", { x: 2, y: 2, width: CELL - 4, height: CELL - 4, rx: 9,
                         class: "rr-empty" }),
             s("text", { x: CELL / 2, y: CELL / 2 + 5, class: "rr-empty-t" }, "empty"));
    return g;
  }
  if (text === "cat") {
    g.append(s("rect", { x: 1, y: 1, width: CELL - 2, height: CELL - 2, rx: 9, class: "rr-cat" }));
    for (const [sx, sy, r] of [[14, 16, 1.6], [84, 22, 1.3], [20, 80, 1.2], [78, 74, 1.7], [50, 12, 1]])
      g.append(s("circle", { cx: sx, cy: sy, r, class: "rr-star" }));
    g.append(
      s("path", { class: "rr-cat-face",
                  d: "M30 58 L33 30 L44 42 Q50 40 56 42 L67 30 L70 58 Q70 74 50 74 Q30 74 30 58 Z" }),
      s("circle", { cx: 42, cy: 55, r: 3.2, class: "rr-cat-eye" }),
      s("circle", { cx: 58, cy: 55, r: 3.2, class: "rr-cat-eye" }),
      s("path", { d: "M47 62 L53 62 L50 65 Z", class: "rr-cat-eye" }),
      s("text", { x: CELL / 2, y: 91, class: "rr-cat-t" }, "SPACE CAT"));
    return g;
  }
  const c = card(cat, text);
  if (!c) return g;
  g.append(
    s("rect", { x: 1, y: 1, width: CELL - 2, height: CELL - 2, rx: 9, fill: c.biome.tint,
                stroke: c.biome.colour, "stroke-width": 2.5 }),
    s("rect", { x: 1, y: 1, width: CELL - 2, height: 26, rx: 9, fill: c.biome.colour }),
    s("rect", { x: 1, y: 16, width: CELL - 2, height: 11, fill: c.biome.colour }),
    s("text", { x: 8, y: 21, class: "rr-letter", fill: c.biome.ink }, c.biome.letter),
    s("text", { x: CELL - 8, y: 19, class: "rr-biome", fill: c.biome.ink }, c.biome.name));
  if (c.mark)
    g.append(s("rect", { x: CELL - 30, y: 78, width: 25, height: 16, rx: 8, class: "rr-mark-bg" }),
             s("text", { x: CELL - 17.5, y: 90, class: "rr-mark" }, c.mark));
  const name = c.species.length > 8 ? c.short : c.species;
  g.append(s("text", { x: CELL / 2, y: 53, class: "rr-species" }, name));
  const spread = 15, left = CELL / 2 - ((c.dots - 1) * spread) / 2;
  for (let d = 0; d < c.dots; d++)
    g.append(s("circle", { cx: left + d * spread, cy: 72, r: 5.5, fill: c.biome.colour }));
  return g;
}

function beamIcon(cat, name, rot, { down = false, size = 28 } = {}) {
  const cells = beamOf(cat, name).rotations[rot];
  const rows = Math.max(...cells.map(([r]) => r)) + 1, cols = Math.max(...cells.map(([, c]) => c)) + 1;
  const unit = 10, box = Math.max(rows, cols, 2) * unit;
  const svg = s("svg", { viewBox: `-1 -1 ${box + 2} ${box + 2}`, width: size, height: size,
                         class: "rr-beam-icon" + (down ? " rr-down" : ""), "aria-hidden": "true" });
  const ox = (box - cols * unit) / 2, oy = (box - rows * unit) / 2;
  for (const [r, c] of cells)
    svg.append(s("rect", { x: ox + c * unit + 0.5, y: oy + r * unit + 0.5, width: unit - 1,
                           height: unit - 1, rx: 2 }));
  return svg;
}

function catIcon() {
  return s("svg", { viewBox: "0 0 20 20", width: 16, height: 16, class: "rr-icon", "aria-hidden": "true" },
    s("path", { d: "M3 12 L4 3 L8 7 Q10 6.5 12 7 L16 3 L17 12 Q17 18 10 18 Q3 18 3 12 Z", fill: "#7e63c9" }),
    s("circle", { cx: 7.5, cy: 11.5, r: 1.2, fill: "#fff" }), s("circle", { cx: 12.5, cy: 11.5, r: 1.2, fill: "#fff" }));
}
function dogIcon() {
  // the dogship: a little saucer with a dog's ear on its dome
  return s("svg", { viewBox: "0 0 20 20", width: 16, height: 16, class: "rr-icon", "aria-hidden": "true" },
    s("ellipse", { cx: 10, cy: 13, rx: 9, ry: 3.5, fill: "currentColor" }),
    s("path", { d: "M5 12 Q5 5 10 5 Q15 5 15 12 Z", fill: "currentColor", opacity: 0.55 }),
    s("path", { d: "M12 5.5 L15.5 3 L14.5 8 Z", fill: "currentColor" }));
}

function miniCard(cat, text, extra = {}) {
  const c = card(cat, text);
  if (!c) return h("span", { class: "rr-mini rr-back", title: "a face-down card", ...extra },
                   h("span", { "aria-hidden": "true" }, "▒▒"), h("span", { class: "rr-sr" }, "a face-down card"));
  return h("span", { class: "rr-mini", style: `--bc:${c.biome.colour};--bt:${c.biome.tint}`,
                     title: cardWords(cat, text), ...extra },
           h("b", { class: "rr-mini-l", style: `color:${c.biome.ink}` }, c.biome.letter),
           h("span", {}, c.short),
           h("span", { class: "rr-mini-d", role: "img", "aria-label": plural(c.dots, "dot") }, "•".repeat(c.dots)));
}

// ------------------------------------------------------------------ the display
function drawDisplay(cat, view, acts, mine) {
  const obs = view.observation;
  const svg = s("svg", { viewBox: `0 0 ${SIDE} ${SIDE}`, class: "rr-display", role: "group",
                         "aria-label": "the display, 4 by 4 cards" });
  for (let i = 0; i < cat.size; i++) {
    svg.append(s("text", { x: EDGE + i * (CELL + GAP) + CELL / 2, y: 14, class: "rr-axis" }, cat.columns[i]),
               s("text", { x: 9, y: EDGE + i * (CELL + GAP) + CELL / 2 + 4, class: "rr-axis" }, i + 1));
  }
  const swapFirsts = new Set(acts.swaps.flatMap((w) => [w.a, w.b]));
  const swapping = mine && acts.swaps.length && (pick.swap || pick.first);
  obs.display.forEach((text, i) => {
    const name = cellName(cat, i);
    const [x, y] = cellXY(cat, i);
    const g = drawCard(cat, text, i, x, y);
    const label = `${name}: ${cardWords(cat, text)}`;
    const wrap = s("g", { class: "rr-cell", "data-cell": name, role: "img", "aria-label": label });
    wrap.append(s("title", {}, label), g);
    if (swapping) {
      if (pick.first === name) {
        wrap.classList.add("rr-first");
        setAll(wrap, { role: "button", tabindex: 0, "data-choose": "swap-cancel", "data-k": "c" + name,
                       "aria-label": `${label}, chosen for the swap; choose again to cancel` });
        wrap.addEventListener("click", () => choose({ first: null }));
      } else if (pick.first) {
        const swap = acts.swaps.find((w) => (w.a === pick.first && w.b === name) || (w.b === pick.first && w.a === name));
        if (swap) {
          wrap.classList.add("rr-target");
          setAll(wrap, { role: "button", tabindex: 0, "data-action": swap.text, "data-k": "c" + name,
                         "aria-label": `${label}: swap with ${pick.first}` });
          wrap.addEventListener("click", () => send(swap.text));
        }
      } else if (swapFirsts.has(name)) {
        wrap.classList.add("rr-target");
        setAll(wrap, { role: "button", tabindex: 0, "data-choose": "swap-first", "data-k": "c" + name,
                       "aria-label": `${label}: swap this card` });
        wrap.addEventListener("click", () => choose({ first: name }));
      }
    } else if (mine && pick.beam && pick.rot !== null) {
      const places = (acts.beams.get(pick.beam) || new Map()).get(pick.rot) || [];
      const best = nearestPlacement(cat, places, i);
      if (best) {
        wrap.classList.add("rr-aim");
        const cells = placementCells(cat, pick.beam, pick.rot, best.anchor).map((j) => cellName(cat, j)).join(" ");
        setAll(wrap, { role: "button", tabindex: 0, "data-choose": "place", "data-k": "c" + name,
                       "aria-pressed": String(pick.place === best.text),
                       "aria-label": `${label}: aim the beam here, taking ${cells}` });
        wrap.addEventListener("mouseenter", () => preview(best));
        wrap.addEventListener("mouseleave", () => preview(null));
        wrap.addEventListener("focus", () => preview(best));
        wrap.addEventListener("blur", () => preview(null));
        wrap.addEventListener("click", () => choose({ place: best.text }));
      }
    }
    svg.append(wrap);
  });
  const overlay = s("g", { class: "rr-overlay", "pointer-events": "none" });
  // the keyboard's focus ring, drawn above the preview so the overlay never hides it
  svg.append(overlay, s("g", { class: "rr-ring", "pointer-events": "none", "aria-hidden": "true" }));
  return { svg, overlay };
}

// Of the placements covering cell i, the one whose anchor lies nearest to it.
function nearestPlacement(cat, places, i) {
  let best = null, bestD = Infinity;
  for (const p of places) {
    const cells = placementCells(cat, pick.beam, pick.rot, p.anchor);
    if (!cells.includes(i)) continue;
    const a = cellIndex(cat, p.anchor);
    const d = Math.abs((a % cat.size) - (i % cat.size)) + Math.abs(Math.floor(a / cat.size) - Math.floor(i / cat.size));
    if (d < bestD) { best = p; bestD = d; }
  }
  return best;
}

let overlayRef = null;
let summaryRef = null;
function drawOverlay(cat, display, place, kind) {
  if (!overlayRef) return;
  overlayRef.replaceChildren();
  if (!place) return;
  const cells = placementCells(cat, pick.beam, pick.rot, place.anchor);
  const cats = catsTaken(cat, display, cells, cat.scoring.cat_chain);
  for (let i = 0; i < display.length; i++) {
    if (cells.includes(i) || cats.includes(i)) continue;
    const [x, y] = cellXY(cat, i);
    overlayRef.append(s("rect", { x, y, width: CELL, height: CELL, rx: 9, class: "rr-dim" }));
  }
  for (const i of cells) {
    const [x, y] = cellXY(cat, i);
    overlayRef.append(s("rect", { x: x - 2, y: y - 2, width: CELL + 4, height: CELL + 4, rx: 11,
                                  class: kind === "hover" ? "rr-take rr-hover" : "rr-take" }));
  }
  for (const i of cats) {
    const [x, y] = cellXY(cat, i);
    overlayRef.append(s("rect", { x: x - 2, y: y - 2, width: CELL + 4, height: CELL + 4, rx: 11,
                                  class: "rr-take-cat" }));
  }
}

function takesText(cat, display, place) {
  const cells = placementCells(cat, pick.beam, pick.rot, place.anchor);
  const cards = cells.map((i) => display[i]).filter((t) => t !== "empty" && t !== "cat");
  const cats = cells.filter((i) => display[i] === "cat").length +
    catsTaken(cat, display, cells, cat.scoring.cat_chain).length;
  const names = cards.map((t) => { const c = card(cat, t); return c ? `${c.species} (${c.biome.letter}${"•".repeat(c.dots)})` : t; });
  let out = `${cells.map((i) => cellName(cat, i)).join(" ")}: ${names.join(", ") || "no card"}`;
  if (cats) out += ` + ${plural(cats, "Space Cat")}`;
  return out;
}

function preview(place) {
  if (!last) return;
  const obs = last.view.observation;
  const chosen = pick.place && placesNow().find((p) => p.text === pick.place);
  const show = place || chosen || null;
  drawOverlay(last.ui.catalog, obs.display, show, place && place !== chosen ? "hover" : "chosen");
  if (summaryRef) summaryRef.textContent = show ? "Takes " + takesText(last.ui.catalog, obs.display, show)
    : "Point at a card or a place to see what the beam takes.";
}

function placesNow() {
  if (!last || !pick.beam || pick.rot === null) return [];
  const acts = sortActions(last.view.legal_actions || []);
  return (acts.beams.get(pick.beam) || new Map()).get(pick.rot) || [];
}

// ------------------------------------------------------------------ players
function playerPanel(cat, view, ui, p) {
  const obs = view.observation;
  const seat = seatOf(ui, p);
  const you = view.you === p;
  const turn = obs.current === p && !obs.over;
  const up = new Set(obs.beams_up[p]);
  const box = h("section", { class: "rr-player" + (turn ? " rr-turn" : "") + (you ? " rr-you" : ""),
                             style: `--pc:${seat.colour}`, "aria-label": `${seat.label}${you ? " (you)" : ""}` });
  const head = h("div", { class: "rr-phead" },
    h("span", { class: "rr-swatch", "data-pattern": seat.pattern, "aria-hidden": "true" }),
    h("b", {}, seat.label + (you ? " (you)" : "")),
    turn ? h("span", { class: "rr-badge" }, "to play") : null,
    h("span", { class: "rr-score", title: "score if the game ended now" }, `${obs.scores[p]} pts`));
  const tokens = h("div", { class: "rr-tokens" });
  for (const b of cat.beams) {
    const isUp = up.has(b.name);
    tokens.append(h("span", { class: "rr-token" + (isUp ? "" : " rr-down"),
                              title: `${b.name} (${b.description}) ${isUp ? "face up" : "face down"}` },
                    beamIcon(cat, b.name, "0", { down: !isUp, size: 20 }),
                    h("span", {}, b.name), h("span", { class: "rr-sr" }, isUp ? " face up" : " face down")));
  }
  tokens.append(
    h("span", { class: "rr-token" + (obs.dogship_up[p] ? "" : " rr-down"),
                title: `dogship ${obs.dogship_up[p] ? "face up: may swap" : "face down until a reboot"}` },
      dogIcon(), h("span", {}, obs.dogship_up[p] ? "dogship up" : "dogship down")),
    h("span", { class: "rr-token rr-cats", title: "Space Cats in the floof pile" },
      catIcon(), h("span", {}, plural(obs.floof[p], "Space Cat"))));
  const corrals = h("div", { class: "rr-corrals" });
  obs.corrals[p].forEach((corral, n) => corrals.append(corralBox(cat, corral, n + 1, you || obs.over, obs.over)));
  if (!obs.corrals[p].length) corrals.append(h("span", { class: "rr-none" }, "no corral yet"));
  box.append(head, tokens, corrals);
  return box;
}

function corralBox(cat, corral, number, own, final = false) {
  const sc = corralScore(cat, corral);
  const founder = corral.founder;
  const known = founder !== "hidden" && card(cat, founder);
  const box = h("div", { class: "rr-corral", "data-corral": number });
  const head = h("div", { class: "rr-chead" }, h("b", {}, `Corral ${number}`),
    corral.face_up.length ? ` · ${card(cat, corral.face_up[0])?.species || ""}` : " · empty");
  const founderEl = known
    ? miniCard(cat, founder, { class: "rr-mini rr-founder",
                               title: `${final ? "founding card, turned up" : "your face-down founding card"}: ${cardWords(cat, founder)}` })
    : miniCard(cat, "hidden");
  const cards = h("div", { class: "rr-ccards" }, founderEl, corral.face_up.map((t) => miniCard(cat, t)));
  const way = sc.points ? `${sc.way === "abundance" ? "Abundance" : "Variety"} ${sc.points}` : "0 so far";
  const tip = `${plural(sc.amount, cat.scoring.abundance_counts === "dots" ? "dot" : "card")} face up: Abundance ${sc.abundance}; ` +
    `${plural(sc.biomes, "biome")}: Variety ${sc.variety}`;
  const score = h("div", { class: "rr-cscore" + (sc.points ? "" : " rr-zero"), title: tip },
    final ? `${way === "0 so far" ? "scores 0" : way}` : way);
  box.append(head, cards, score);
  if (final) box.append(h("div", { class: "rr-why" }, `A ${sc.abundance} · V ${sc.variety}`));
  return box;
}

// ------------------------------------------------------------------ controls
function send(text) {
  if (!last) return;
  Object.assign(pick, { beam: null, rot: null, place: null, swap: false, first: null });
  last.ui.act(text);
}

function choose(change) {
  Object.assign(pick, change);
  if (last) render(last.view, last.ui);
}

function button(label, attrs = {}, onclick) {
  return h("button", { type: "button", class: "rr-btn", ...attrs, onclick }, label);
}

function beamControls(cat, view, acts) {
  const box = h("div", { class: "rr-step" });
  const legalBeams = [...acts.beams.keys()];
  const row = h("div", { class: "rr-row", role: "group", "aria-label": "choose a beam" },
                h("span", { class: "rr-label" }, "1. Beam"));
  for (const b of cat.beams) {
    const ok = legalBeams.includes(b.name);
    row.append(button([beamIcon(cat, b.name, "0", { down: !ok }), ` ${b.name}`],
      { "data-choose": "beam", "data-k": "b" + b.name, "aria-pressed": String(pick.beam === b.name),
        disabled: !ok, title: `${b.description}${ok ? "" : " (face down)"}` },
      () => choose({ beam: b.name, rot: onlyRot(acts, b.name), place: null, swap: false, first: null })));
  }
  box.append(row);
  if (!pick.beam) {
    box.append(h("p", { class: "rr-hint" }, "Choose a beam, then how it is turned and where it goes."));
    return box;
  }
  const rots = acts.beams.get(pick.beam);
  const rrow = h("div", { class: "rr-row", role: "group", "aria-label": "choose a turn" },
                 h("span", { class: "rr-label" }, "2. Turn"));
  for (const rot of Object.keys(beamOf(cat, pick.beam).rotations)) {
    const ok = rots.has(rot);
    rrow.append(button([beamIcon(cat, pick.beam, rot), ` ${rot}°`],
      { "data-choose": "rotation", "data-k": "r" + rot, "aria-pressed": String(pick.rot === rot), disabled: !ok,
        "aria-label": `turned ${rot} degrees` }, () => choose({ rot, place: null })));
  }
  box.append(rrow);
  if (pick.rot === null) return box;
  const places = rots.get(pick.rot) || [];
  const prow = h("div", { class: "rr-row rr-places", role: "group", "aria-label": "choose where" },
                 h("span", { class: "rr-label" }, "3. Where"));
  for (const p of places) {
    const cells = placementCells(cat, pick.beam, pick.rot, p.anchor).map((i) => cellName(cat, i)).join(" ");
    prow.append(button(cells, { "data-choose": "place", "data-k": "p" + p.text, "data-place": p.text,
                                "aria-pressed": String(pick.place === p.text),
                                "aria-label": `take ${cells}`,
                                onmouseenter: () => preview(p), onmouseleave: () => preview(null),
                                onfocus: () => preview(p), onblur: () => preview(null) },
                       () => choose({ place: p.text })));
  }
  box.append(prow);
  summaryRef = h("p", { class: "rr-takes", "aria-live": "polite" });
  box.append(summaryRef);
  const chosen = places.find((p) => p.text === pick.place);
  if (chosen) {
    box.append(h("div", { class: "rr-row" },
      button(["Take ", placementCells(cat, pick.beam, pick.rot, chosen.anchor).map((i) => cellName(cat, i)).join(" "),
              h("small", { class: "rr-code" }, chosen.text)], { class: "rr-btn rr-go", "data-action": chosen.text, "data-k": "go" },
             () => send(chosen.text)),
      button("Cancel", { "data-choose": "cancel", "data-k": "cancel" }, () => choose({ place: null }))));
  } else {
    box.append(h("p", { class: "rr-hint" }, "Point at the cards or the places above, then choose one to confirm."));
  }
  return box;
}

function onlyRot(acts, beam) {
  const rots = [...(acts.beams.get(beam) || new Map()).keys()];
  return rots.length === 1 ? rots[0] : null;
}

function swapControls(cat, view, acts) {
  const obs = view.observation;
  const box = h("div", { class: "rr-step rr-swap" });
  if (!pick.first) {
    box.append(h("p", { class: "rr-hint" }, "Dogship: choose two Wildlife cards of the same biome to swap."));
    const row = h("div", { class: "rr-row", role: "group", "aria-label": "first card of the swap" },
                  h("span", { class: "rr-label" }, "Swap"));
    const firsts = [...new Set(acts.swaps.flatMap((w) => [w.a, w.b]))]
      .sort((a, b) => cellIndex(cat, a) - cellIndex(cat, b));
    for (const name of firsts)
      row.append(button([miniCard(cat, obs.display[cellIndex(cat, name)]), ` ${name}`],
        { "data-choose": "swap-first", "data-k": "f" + name, "aria-label": `swap ${name}: ${cardWords(cat, obs.display[cellIndex(cat, name)])}` },
        () => choose({ first: name })));
    box.append(row);
  } else {
    const row = h("div", { class: "rr-row", role: "group", "aria-label": "second card of the swap" },
                  h("span", { class: "rr-label" }, `Swap ${pick.first} with`));
    for (const w of acts.swaps) {
      const other = w.a === pick.first ? w.b : w.b === pick.first ? w.a : null;
      if (!other) continue;
      row.append(button([miniCard(cat, obs.display[cellIndex(cat, other)]), ` ${other}`],
        { "data-action": w.text, "data-k": "s" + w.text, "aria-label": `${w.text}: ${cardWords(cat, obs.display[cellIndex(cat, other)])}` },
        () => send(w.text)));
    }
    row.append(button("Cancel", { "data-choose": "cancel", "data-k": "cancel" }, () => choose({ first: null })));
    box.append(row);
  }
  return box;
}

function placeControls(cat, view, acts) {
  const obs = view.observation;
  const box = h("div", { class: "rr-step" },
    h("p", { class: "rr-hint" }, "Put each card you collected in a corral: a new one (the card lies face down and founds it) or face up in one of yours that is empty or holds its species."));
  const seen = new Set();
  for (const text of obs.pending) {
    if (seen.has(text)) continue;
    seen.add(text);
    const row = h("div", { class: "rr-row rr-pending" }, miniCard(cat, text));
    const form = acts.forms.get(text);
    if (form) row.append(button("New corral (face down)", { "data-action": form, "data-k": "a" + form, title: form }, () => send(form)));
    for (const o of acts.occupy.get(text) || []) {
      const corral = obs.corrals[view.you][o.corral - 1];
      const what = corral && corral.face_up.length ? card(cat, corral.face_up[0])?.species : "empty";
      row.append(button(`Corral ${o.corral} (${what})`, { "data-action": o.text, "data-k": "a" + o.text, title: o.text }, () => send(o.text)));
    }
    box.append(row);
  }
  return box;
}

function controls(cat, view, acts) {
  const obs = view.observation;
  const box = h("div", { class: "rr-controls" });
  const mine = view.legal_actions && view.legal_actions.length > 0;
  if (!mine) {
    if (view.you !== null && view.you !== undefined && !obs.over)
      box.append(h("p", { class: "rr-hint" }, "Waiting for the others to play."));
    return box;
  }
  if (obs.phase === "place" || acts.forms.size || acts.occupy.size) {
    box.append(placeControls(cat, view, acts));
    return box;
  }
  const modes = h("div", { class: "rr-row" });
  if (acts.beams.size)
    modes.append(button("Use a beam", { "data-choose": "mode-beam", "data-k": "mbeam", "aria-pressed": String(!pick.swap) },
                        () => choose({ swap: false, first: null })));
  if (acts.swaps.length)
    modes.append(button("Dogship swap", { "data-choose": "mode-swap", "data-k": "mswap", "aria-pressed": String(pick.swap || !acts.beams.size) },
                        () => choose({ swap: true, first: null, place: null })));
  if (acts.reboot)
    modes.append(button("Reboot beams (ends turn)", { "data-action": acts.reboot, "data-k": "reboot", title: "every beam and the dogship face up; the turn ends" },
                        () => send(acts.reboot)));
  if (acts.end)
    modes.append(button("End turn", { class: "rr-btn rr-go", "data-action": acts.end, "data-k": "end", title: "keep the dogship face up" },
                        () => send(acts.end)));
  box.append(modes);
  if ((pick.swap || !acts.beams.size) && acts.swaps.length) box.append(swapControls(cat, view, acts));
  else if (acts.beams.size) box.append(beamControls(cat, view, acts));
  return box;
}

// ------------------------------------------------------------------ render
const PHASE = {
  start: "take cards with a beam, reboot, or swap with the dogship",
  place: "place the collected cards",
  fill: "the display refills",
  after: "swap with the dogship or end the turn",
};

// The shell's turn line: who plays and what they may do now.
export function status(view, ui) {
  const obs = view.observation;
  if (!obs || view.status === "finished") return "";
  const what = PHASE[obs.phase] || obs.phase;
  if ((view.legal_actions || []).length) return `Your turn: ${what}.`;
  if (obs.current < 0) return "The display refills.";
  return `${seatOf(ui, obs.current).label} to play: ${what}.`;
}

function statusLine(cat, view, ui) {
  const obs = view.observation;
  const deck = obs.deck_size ? `Deck: ${plural(obs.deck_size, "card")}, ${plural(obs.deck_cats, "Space Cat")} among them`
    : "Deck empty: last round";
  return h("div", { class: "rr-status" },
    h("span", { class: "rr-deck" }, h("span", { class: "rr-deckpile", "aria-hidden": "true" }), deck));
}

function legend(cat) {
  return h("div", { class: "rr-legend", "aria-label": "biomes" },
    cat.biomes.map((b) => h("span", { class: "rr-leg" },
      h("b", { style: `background:${b.colour};color:${b.ink}` }, b.letter), b.name)));
}

export function render(view, ui) {
  const cat = ui.catalog;
  const obs = view.observation;
  injectStyle();
  if (!obs) { ui.board.replaceChildren(h("p", {}, "Nothing to show yet.")); ui.controls.replaceChildren(); return; }
  const key = `${view.id}|${view.you}|${view.step}`;
  if (last && last.ui !== ui) pick.key = null; // a new surface (a hand-off): start afresh
  if (pick.key !== key) {
    const keepBeam = pick.key && pick.key.split("|")[1] === String(view.you) ? pick.beam : null;
    Object.assign(pick, { key, beam: null, rot: null, place: null, swap: false, first: null });
    const acts0 = sortActions(view.legal_actions || []);
    if (keepBeam && acts0.beams.has(keepBeam)) { pick.beam = keepBeam; pick.rot = onlyRot(acts0, keepBeam); }
    if (!acts0.beams.size && acts0.swaps.length) pick.swap = true;
  }
  const focused = document.activeElement && document.activeElement.getAttribute &&
    document.activeElement.getAttribute("data-k");
  last = { view, ui };
  const acts = sortActions(view.legal_actions || []);
  // drop choices the table no longer allows
  if (pick.beam && !acts.beams.has(pick.beam)) Object.assign(pick, { beam: null, rot: null, place: null });
  if (pick.rot !== null && pick.beam && !acts.beams.get(pick.beam).has(pick.rot)) Object.assign(pick, { rot: null, place: null });
  if (pick.place && !acts.all.has(pick.place)) pick.place = null;
  if (pick.first && !acts.swaps.some((w) => w.a === pick.first || w.b === pick.first)) pick.first = null;
  const mine = (view.legal_actions || []).length > 0;

  const { svg, overlay } = drawDisplay(cat, view, acts, mine);
  overlayRef = overlay;
  const players = h("div", { class: "rr-players" });
  const order = [...obs.corrals.keys()];
  if (view.you !== null && view.you !== undefined) order.sort((a, b) => (b === view.you) - (a === view.you));
  const narrow = window.matchMedia && window.matchMedia("(max-width: 700px)").matches;
  for (const p of order) {
    const panel = playerPanel(cat, view, ui, p);
    if (narrow && p !== view.you && obs.corrals[p].length) {
      // On a phone the others' corrals fold away under their name line.
      const corrals = panel.querySelector(".rr-corrals");
      const more = h("details", { class: "rr-fold", open: folds.has(p) ? "" : null,
                                  ontoggle: (e) => (e.target.open ? folds.add(p) : folds.delete(p)) },
        h("summary", {}, plural(obs.corrals[p].length, "corral")));
      corrals.replaceWith(more);
      more.append(corrals);
    }
    players.append(panel);
  }
  const pending = obs.pending.length && !mine
    ? h("p", { class: "rr-hint" }, "Waiting for a corral: ", obs.pending.map((t) => miniCard(cat, t))) : null;
  ui.board.replaceChildren(h("div", { class: "rr-root" },
    statusLine(cat, view, ui),
    h("div", { class: "rr-main" },
      h("div", { class: "rr-left" }, h("div", { class: "rr-board" }, svg), legend(cat)),
      h("div", { class: "rr-right" }, players)),
    pending));
  summaryRef = null;
  ui.controls.replaceChildren(controls(cat, view, acts));
  preview(null);
  if (focused) {
    const again = ui.controls.querySelector(`[data-k="${CSS.escape(focused)}"]`) ||
      ui.board.querySelector(`[data-k="${CSS.escape(focused)}"]`);
    if (again) again.focus();
  }
}

// Keyboard: SVG cells that act or choose take Enter and Space like buttons.
document.addEventListener("keydown", (event) => {
  const target = event.target;
  if (!(target instanceof SVGElement) || !target.classList.contains("rr-cell")) return;
  if (event.key === "Enter" || event.key === " ") {
    event.preventDefault();
    target.dispatchEvent(new MouseEvent("click", { bubbles: true }));
  }
});

// A focused cell gets a ring above the preview (an SVG outline would lie under it).
function focusRing(cell, on) {
  const ring = cell.ownerSVGElement && cell.ownerSVGElement.querySelector(".rr-ring");
  if (!ring) return;
  ring.replaceChildren();
  if (!on || !cell.matches(":focus-visible")) return;
  const [x, y] = cellXY(last.ui.catalog, cellIndex(last.ui.catalog, cell.getAttribute("data-cell")));
  ring.append(s("rect", { x: x - 5, y: y - 5, width: CELL + 10, height: CELL + 10, rx: 13, class: "rr-focus" }),
              s("rect", { x: x - 1.5, y: y - 1.5, width: CELL + 3, height: CELL + 3, rx: 10, class: "rr-focus-in" }));
}
const isCell = (node) => node instanceof SVGElement && node.classList.contains("rr-cell") && last;
document.addEventListener("focusin", (event) => { if (isCell(event.target)) focusRing(event.target, true); });
document.addEventListener("focusout", (event) => { if (isCell(event.target)) focusRing(event.target, false); });

// ------------------------------------------------------------------ the end
export function renderEnd(view, ui) {
  const cat = ui.catalog;
  const obs = view.observation;
  injectStyle();
  last = null;
  ui.controls.replaceChildren();
  if (!obs) { ui.board.replaceChildren(); return; }
  const winners = (view.outcome && view.outcome.winners) || [];
  const cats = catPoints(cat, obs.floof);
  const most = Math.max(...obs.floof);
  const root = h("div", { class: "rr-root rr-end" });
  root.append(
    h("p", { class: "rr-hint" }, (cat.scoring.corral_scoring === "best"
      ? "Each corral scores the better of Abundance (cards face up) and Variety (biomes face up); "
      : `Each corral scores ${cat.scoring.corral_scoring === "abundance" ? "Abundance (cards face up)" : "Variety (biomes face up)"}; `) +
      "the dashed card founded it, face down, turned up now. The most Space Cats lose " +
      `${-cat.scoring.cats_most}, everyone else gains ${cat.scoring.cats_each} a cat.`));
  const order = [...obs.corrals.keys()].sort((a, b) => obs.scores[b] - obs.scores[a] || (winners.includes(b) - winners.includes(a)));
  for (const p of order) {
    const seat = seatOf(ui, p);
    let ab = 0, va = 0;
    const corrals = h("div", { class: "rr-corrals" });
    obs.corrals[p].forEach((corral, n) => {
      const sc = corralScore(cat, corral);
      if (sc.way === "abundance") ab += sc.abundance; else va += sc.variety;
      corrals.append(corralBox(cat, corral, n + 1, true, true));
    });
    if (!obs.corrals[p].length) corrals.append(h("span", { class: "rr-none" }, "no corral"));
    const n = obs.floof[p];
    const catLine = `${plural(n, "Space Cat")}: ${n === most ? "the most, " + cats[p] : `${cat.scoring.cats_each} each, +${cats[p]}`}`;
    root.append(h("section", { class: "rr-player rr-final" + (winners.includes(p) ? " rr-won" : ""),
                               style: `--pc:${seat.colour}`, "data-seat": p },
      h("div", { class: "rr-phead" },
        h("span", { class: "rr-swatch", "data-pattern": seat.pattern, "aria-hidden": "true" }),
        h("b", {}, (winners.includes(p) ? "★ " : "") + seat.label + (p === view.you ? " (you)" : "")),
        winners.includes(p) ? h("span", { class: "rr-badge" }, "winner") : null,
        h("span", { class: "rr-score" }, `${obs.scores[p]} points`)),
      h("p", { class: "rr-sum" }, `Abundance ${ab} + Variety ${va} + Space Cats ${cats[p]} = ${obs.scores[p]}`,
        h("br"), h("span", { class: "rr-hint" }, catLine)),
      corrals));
  }
  ui.board.replaceChildren(root);
}

// ------------------------------------------------------------------ style
// A constructed style sheet: the page's Content-Security-Policy refuses <style> elements.
let sheet = null;
function injectStyle() {
  if (sheet) return;
  sheet = new CSSStyleSheet();
  sheet.replaceSync(`
.rr-root{display:flex;flex-direction:column;gap:.6rem;min-width:0;color:#222}
.rr-root *{box-sizing:border-box}
.rr-status{display:flex;flex-wrap:wrap;gap:.3rem 1rem;align-items:center;font-size:.95rem}
.rr-doing{font-weight:600}
.rr-deck{display:inline-flex;align-items:center;gap:.35rem;color:#444}
.rr-deckpile{display:inline-block;width:.9rem;height:1.1rem;border-radius:3px;background:#3a3152;box-shadow:2px 2px 0 #8a80a8}
.rr-main{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start}
.rr-left{flex:3 1 20rem;max-width:36rem;min-width:0}
.rr-right{flex:2 1 16rem;min-width:0}
.rr-board svg{display:block;width:100%;height:auto;touch-action:manipulation}
.rr-axis{font:600 13px system-ui,sans-serif;fill:#777;text-anchor:middle}
.rr-species{font:700 17px system-ui,sans-serif;fill:#222;text-anchor:middle}
.rr-letter{font:800 17px system-ui,sans-serif}
.rr-biome{font:600 10.5px system-ui,sans-serif;text-anchor:end}
.rr-mark{font:700 11px system-ui,sans-serif;fill:#fff;text-anchor:middle}
.rr-mark-bg{fill:#444}
.rr-empty{fill:none;stroke:#bbb;stroke-width:2;stroke-dasharray:6 5}
.rr-empty-t{font:12px system-ui,sans-serif;fill:#999;text-anchor:middle}
.rr-cat{fill:#2f2748;stroke:#a58ee0;stroke-width:2.5}
.rr-star{fill:#f5e9a8}
.rr-cat-face{fill:#e7b6f0}
.rr-cat-eye{fill:#2f2748}
.rr-cat-t{font:800 11px system-ui,sans-serif;fill:#f3e8ff;text-anchor:middle;letter-spacing:.06em}
.rr-cell{outline:none}
.rr-cell[tabindex],.rr-aim{cursor:pointer}
.rr-focus{fill:none;stroke:#111;stroke-width:5}
.rr-focus-in{fill:none;stroke:#fff;stroke-width:2.5}
.rr-target>.rr-card>rect:first-child{stroke:#1f5fbf;stroke-width:5}
.rr-first>.rr-card>rect:first-child{stroke:#111;stroke-width:7}
.rr-aim:hover>.rr-card{opacity:.92}
.rr-dim{fill:rgba(255,255,255,.55)}
.rr-take{fill:rgba(242,183,5,.22);stroke:#e0a100;stroke-width:6}
.rr-take.rr-hover{fill:rgba(242,183,5,.1);stroke:#f0c24a}
.rr-take-cat{fill:rgba(165,142,224,.18);stroke:#a58ee0;stroke-width:5;stroke-dasharray:4 5}
.rr-legend{display:flex;flex-wrap:wrap;gap:.3rem .8rem;font-size:.85rem;margin-top:.4rem;color:#444}
.rr-leg b{display:inline-block;min-width:1.3em;text-align:center;border-radius:4px;margin-right:.25rem}
.rr-players{display:flex;flex-direction:column;gap:.5rem}
.rr-player{border:1px solid #ddd;border-left:6px solid var(--pc);border-radius:8px;padding:.45rem .6rem;background:#fff}
.rr-player.rr-turn{box-shadow:0 0 0 2px #f2b705}
.rr-phead{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem}
.rr-swatch{display:inline-block;width:.9rem;height:.9rem;border-radius:50%;background:var(--pc)}
.rr-badge{font-size:.75rem;background:#f2b705;color:#222;border-radius:999px;padding:0 .45rem}
.rr-score{margin-left:auto;font-weight:700}
.rr-tokens{display:flex;flex-wrap:wrap;gap:.25rem .6rem;margin:.3rem 0;font-size:.85rem}
.rr-token{display:inline-flex;align-items:center;gap:.2rem}
.rr-token.rr-down{color:#999;text-decoration:line-through}
.rr-beam-icon rect{fill:#2b6cb0}
.rr-beam-icon.rr-down rect{fill:none;stroke:#aaa;stroke-width:1}
.rr-corrals{display:flex;flex-wrap:wrap;gap:.4rem}
.rr-corral{border:1px solid #e2e2e2;border-radius:6px;padding:.25rem .35rem;background:#fafafa;font-size:.82rem;max-width:100%}
.rr-chead{color:#555}
.rr-ccards{display:flex;flex-wrap:wrap;gap:.2rem;margin:.15rem 0}
.rr-cscore{font-weight:700;color:#2e6b2e}
.rr-cscore.rr-zero{color:#999;font-weight:400}
.rr-why{color:#666;font-size:.75rem}
.rr-none{color:#999;font-size:.85rem}
.rr-mini{display:inline-flex;align-items:center;gap:.2rem;border:1.5px solid var(--bc);background:var(--bt);border-radius:4px;padding:0 .3rem 0 0;font-size:.8rem;line-height:1.35;white-space:nowrap}
.rr-mini-l{background:var(--bc);padding:0 .25rem;border-radius:2px 0 0 2px}
.rr-mini-d{color:var(--bc);letter-spacing:-.05em}
.rr-mini.rr-back{background:repeating-linear-gradient(45deg,#4a4262 0 4px,#5d5478 4px 8px);color:#fff;border-color:#4a4262;padding:0 .35rem}
.rr-mini.rr-founder{border-style:dashed;box-shadow:inset 0 0 0 1px #fff}
.rr-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.rr-controls{display:flex;flex-direction:column;gap:.4rem;flex:1 1 100%;min-width:0}
.rr-step{display:flex;flex-direction:column;gap:.35rem}
.rr-row{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center}
.rr-label{font-weight:600;min-width:4.2rem}
.rr-btn{font:inherit;display:inline-flex;align-items:center;gap:.25rem;padding:.35rem .6rem;border:1px solid #bbb;border-radius:6px;background:#fff;cursor:pointer;min-height:2.2rem}
.rr-btn:hover{background:#f3f3f3}
.rr-btn:focus-visible{outline:3px solid #1f5fbf;outline-offset:1px}
.rr-btn[aria-pressed="true"]{background:#fff4cc;border-color:#e0a100;box-shadow:inset 0 0 0 1px #e0a100}
.rr-btn:disabled{opacity:.45;cursor:default}
.rr-btn.rr-go{background:#2b6cb0;border-color:#2b6cb0;color:#fff;font-weight:600}
.rr-btn.rr-go:hover{background:#245a94}
.rr-code{font:.75rem ui-monospace,monospace;opacity:.8;margin-left:.4rem}
.rr-hint{color:#555;font-size:.9rem;margin:.1rem 0}
.rr-takes{font-size:.9rem;margin:.1rem 0;min-height:2.7em}
.rr-end .rr-winner{margin:.2rem 0;font-size:1.1rem}
.rr-fold>summary{cursor:pointer;font-size:.85rem;color:#444;padding:.15rem 0}
.rr-final.rr-won{box-shadow:0 0 0 2px #e0a100}
.rr-sum{margin:.25rem 0}
@media (max-width:600px){.rr-label{min-width:0;width:100%}.rr-btn{padding:.3rem .45rem}.rr-takes{min-height:4.1em}}
`);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}
