// Helpers every page and every game module shares: elements, SVG, seats' colours.
// Plain ES module, no build step.

const SVG_NS = "http://www.w3.org/2000/svg";

// Okabe-Ito colours (told apart with colour-blindness too), each with a pattern
// and the seat's letter, so colour is never the only signal.
export const SEAT_STYLES = [
  { colour: "#d55e00", pattern: "stripes" },
  { colour: "#0072b2", pattern: "dots" },
  { colour: "#009e73", pattern: "checks" },
  { colour: "#cc79a7", pattern: "waves" },
  { colour: "#e69f00", pattern: "grid" },
  { colour: "#56b4e9", pattern: "cross" },
];

function put(node, attrs) {
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === null || value === undefined || value === false) continue;
    if (key.startsWith("on") && typeof value === "function") {
      node.addEventListener(key.slice(2), value);
    } else if (key === "text") {
      node.textContent = value;
    } else if (key === "style" && typeof value === "object") {
      Object.assign(node.style, value);
    } else if (key === "style") {
      node.style.cssText = String(value); // through the CSSOM: the CSP refuses style attributes
    } else {
      node.setAttribute(key, value === true ? "" : String(value));
    }
  }
}

function append(node, children) {
  for (const child of children.flat(Infinity)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

/** el("button", {"data-action": "roll", onclick: f}, "Roll") */
export function el(tag, attrs, ...children) {
  const node = document.createElement(tag);
  put(node, attrs);
  return append(node, children);
}

/** svg("rect", {x: 0, y: 0, width: 10, height: 10, fill: "#ccc"}) */
export function svg(tag, attrs, ...children) {
  const node = document.createElementNS(SVG_NS, tag);
  put(node, attrs);
  return append(node, children);
}

/** The seat's label ("P0 Ann", as the log writes it), colour, pattern and letter. */
export function seatOf(view, i) {
  const style = SEAT_STYLES[i % SEAT_STYLES.length];
  const seat = (view.seats || [])[i];
  const name = seat ? seat.name : "";
  return {
    seat: i,
    label: `P${i}${name ? " " + name : ""}`,
    short: `P${i}`,
    name,
    kind: seat ? seat.kind : "human",
    colour: style.colour,
    pattern: style.pattern,
    fill: `url(#rh-seat-${i})`,
  };
}

/** A small swatch (colour and pattern) for a seat, with its label as text. */
export function seatBadge(view, i, extra) {
  const s = seatOf(view, i);
  return el(
    "span",
    { class: "seat-badge", "data-seat": i },
    seatSwatch(i),
    el("span", { class: "seat-label" }, s.label),
    extra || null,
  );
}

export function seatSwatch(i, size = 16) {
  const s = SEAT_STYLES[i % SEAT_STYLES.length];
  return svg(
    "svg",
    { class: "swatch", width: size, height: size, viewBox: "0 0 16 16", "aria-hidden": "true" },
    svg("rect", { x: 0.5, y: 0.5, width: 15, height: 15, rx: 3, fill: `url(#rh-seat-${i})`, stroke: s.colour }),
  );
}

/** One hidden <svg> of <pattern>s, #rh-seat-0 ... #rh-seat-5: a seat's colour with its
 * pattern, usable as fill="url(#rh-seat-N)" from any SVG in the page. */
export function patternDefs() {
  const defs = svg("defs");
  SEAT_STYLES.forEach((s, i) => {
    const p = svg("pattern", { id: `rh-seat-${i}`, width: 8, height: 8, patternUnits: "userSpaceOnUse" });
    p.append(svg("rect", { width: 8, height: 8, fill: s.colour }));
    const ink = { stroke: "rgba(255,255,255,0.75)", "stroke-width": 1.6, fill: "none" };
    const dot = { fill: "rgba(255,255,255,0.8)" };
    if (s.pattern === "stripes") p.append(svg("path", { d: "M-2,10 L10,-2 M-2,2 L2,-2 M6,10 L10,6", ...ink }));
    if (s.pattern === "dots") p.append(svg("circle", { cx: 4, cy: 4, r: 1.6, ...dot }));
    if (s.pattern === "checks") p.append(svg("rect", { width: 4, height: 4, ...dot }), svg("rect", { x: 4, y: 4, width: 4, height: 4, ...dot }));
    if (s.pattern === "waves") p.append(svg("path", { d: "M0,4 Q2,1 4,4 T8,4", ...ink }));
    if (s.pattern === "grid") p.append(svg("path", { d: "M4,0 V8 M0,4 H8", ...ink }));
    if (s.pattern === "cross") p.append(svg("path", { d: "M1,1 L7,7 M7,1 L1,7", ...ink }));
    defs.append(p);
  });
  return svg("svg", { width: 0, height: 0, "aria-hidden": "true", style: "position:absolute", id: "rh-patterns" }, defs);
}

export async function getJSON(url, options) {
  const reply = await fetch(url, options);
  let body = null;
  try {
    body = await reply.json();
  } catch {
    body = { error: `${reply.status} ${reply.statusText}` };
  }
  if (!reply.ok) throw new Error(body && body.error ? body.error : `HTTP ${reply.status}`);
  return body;
}

export function postJSON(url, data, headers) {
  return getJSON(url, {
    method: "POST",
    headers: { "Content-Type": "application/json", ...(headers || {}) },
    body: JSON.stringify(data),
  });
}

/** A button that copies ``text`` to the clipboard (falls back to selecting it). */
export function copyButton(text, label = "Copy") {
  const button = el("button", { type: "button", class: "small" }, label);
  button.addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(text);
      button.textContent = "Copied";
    } catch {
      window.prompt("Copy this link:", text);
    }
    setTimeout(() => (button.textContent = label), 1500);
  });
  return button;
}

/** The outcome in words: "P1 Bo wins" / "P0 Ann and P2 Cy share the win" / "no winner". */
export function outcomeWords(view) {
  const outcome = view.outcome;
  if (!outcome) return "";
  const winners = outcome.winners || [];
  const names = winners.map((w) => seatOf(view, w).label);
  if (names.length === 0) return outcome.reason ? `No winner (${outcome.reason})` : "No winner";
  if (names.length === 1) return `${names[0]} wins`;
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]} share the win`;
}
