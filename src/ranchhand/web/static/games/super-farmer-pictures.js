// Super Farmer's pictures, drawn as SVG in the page (no font glyphs, nothing fetched):
// the seven animals, the fox and the wolf, a face of either twelve-faced die, the dice
// on the roll button and the arrow of an exchange. Each animal is a few shapes in a
// 32x32 box, facing right, told apart by outline and colour both (the pig pink and
// round, the cow patched with horns, the horse with a raised neck and mane...).
// Functions take the page's svg() helper so this module needs no import of its own.

const INK = "#2b2620";

// Every drawing is a list of [tag, attributes] in the 32x32 box.
const DRAWINGS = {
  rabbit: [
    ["ellipse", { cx: 20.5, cy: 6.5, rx: 1.9, ry: 5.2, fill: "#b7a58c", stroke: INK, "stroke-width": 0.8, transform: "rotate(-12 20.5 6.5)" }],
    ["ellipse", { cx: 24.5, cy: 7, rx: 1.9, ry: 5.2, fill: "#b7a58c", stroke: INK, "stroke-width": 0.8, transform: "rotate(14 24.5 7)" }],
    ["ellipse", { cx: 14, cy: 21.5, rx: 9, ry: 7, fill: "#c9b79e", stroke: INK, "stroke-width": 0.9 }],
    ["circle", { cx: 23, cy: 15, r: 5.2, fill: "#c9b79e", stroke: INK, "stroke-width": 0.9 }],
    ["circle", { cx: 5.5, cy: 19.5, r: 2.6, fill: "#fff", stroke: INK, "stroke-width": 0.7 }],
    ["ellipse", { cx: 18, cy: 28.2, rx: 4.5, ry: 1.6, fill: "#b7a58c", stroke: INK, "stroke-width": 0.7 }],
    ["circle", { cx: 25, cy: 14, r: 0.95, fill: INK }],
    ["circle", { cx: 28, cy: 16.4, r: 0.8, fill: "#d77a8a" }],
  ],
  sheep: [
    ["rect", { x: 9, y: 22, width: 2.2, height: 7, fill: INK }],
    ["rect", { x: 18.5, y: 22, width: 2.2, height: 7, fill: INK }],
    ["circle", { cx: 8, cy: 17, r: 5, fill: "#fbfaf5", stroke: INK, "stroke-width": 0.8 }],
    ["circle", { cx: 13, cy: 12.5, r: 5.2, fill: "#fbfaf5", stroke: INK, "stroke-width": 0.8 }],
    ["circle", { cx: 19, cy: 13, r: 5, fill: "#fbfaf5", stroke: INK, "stroke-width": 0.8 }],
    ["circle", { cx: 11, cy: 20, r: 5, fill: "#fbfaf5", stroke: INK, "stroke-width": 0.8 }],
    ["circle", { cx: 18, cy: 19.5, r: 5, fill: "#fbfaf5", stroke: INK, "stroke-width": 0.8 }],
    ["circle", { cx: 14.5, cy: 16.5, r: 5, fill: "#fbfaf5" }],
    ["ellipse", { cx: 25.5, cy: 14.5, rx: 3.8, ry: 4.8, fill: "#3b3430" }],
    ["ellipse", { cx: 22.5, cy: 11.5, rx: 2.6, ry: 1.2, fill: "#3b3430", transform: "rotate(-25 22.5 11.5)" }],
    ["circle", { cx: 26.6, cy: 13.4, r: 0.9, fill: "#fff" }],
  ],
  pig: [
    ["rect", { x: 8, y: 22, width: 3, height: 6, rx: 1, fill: "#e98fa6", stroke: INK, "stroke-width": 0.7 }],
    ["rect", { x: 17, y: 22, width: 3, height: 6, rx: 1, fill: "#e98fa6", stroke: INK, "stroke-width": 0.7 }],
    ["path", { d: "M3.5 15 q-3 -1 -1 -3.5 q2 -1.5 2.5 1", fill: "none", stroke: INK, "stroke-width": 1 }],
    ["ellipse", { cx: 14, cy: 17.5, rx: 10.5, ry: 7.5, fill: "#f6b3c4", stroke: INK, "stroke-width": 0.9 }],
    ["path", { d: "M21 9.5 l3.5 -3 l0.8 4.5 z", fill: "#e98fa6", stroke: INK, "stroke-width": 0.7 }],
    ["circle", { cx: 24, cy: 15.5, r: 5.5, fill: "#f6b3c4", stroke: INK, "stroke-width": 0.9 }],
    ["ellipse", { cx: 29, cy: 16.5, rx: 2.2, ry: 2.8, fill: "#e98fa6", stroke: INK, "stroke-width": 0.8 }],
    ["circle", { cx: 28.6, cy: 15.7, r: 0.5, fill: INK }],
    ["circle", { cx: 28.6, cy: 17.4, r: 0.5, fill: INK }],
    ["circle", { cx: 24.5, cy: 13.5, r: 0.9, fill: INK }],
  ],
  cow: [
    ["rect", { x: 7, y: 21, width: 2.6, height: 8, fill: INK }],
    ["rect", { x: 18, y: 21, width: 2.6, height: 8, fill: INK }],
    ["path", { d: "M4 13 q-2.5 5 -1.5 10", fill: "none", stroke: INK, "stroke-width": 1.1 }],
    ["rect", { x: 3.5, y: 10.5, width: 19.5, height: 12.5, rx: 4.5, fill: "#fbfaf5", stroke: INK, "stroke-width": 0.9 }],
    ["ellipse", { cx: 9, cy: 15, rx: 3.2, ry: 2.6, fill: "#2f2a26" }],
    ["ellipse", { cx: 17, cy: 19, rx: 2.8, ry: 2.2, fill: "#2f2a26" }],
    ["path", { d: "M23 7.5 q-1.5 -3 -3.5 -3 M28.5 7.5 q1.5 -3 3 -3", fill: "none", stroke: "#8a7b60", "stroke-width": 1.4, "stroke-linecap": "round" }],
    ["rect", { x: 21.5, y: 6.5, width: 8.5, height: 11, rx: 3.5, fill: "#fbfaf5", stroke: INK, "stroke-width": 0.9 }],
    ["rect", { x: 21.8, y: 13.5, width: 8, height: 4.6, rx: 2.2, fill: "#f0b6b6", stroke: INK, "stroke-width": 0.7 }],
    ["circle", { cx: 24, cy: 10.5, r: 0.9, fill: INK }],
    ["circle", { cx: 28, cy: 10.5, r: 0.9, fill: INK }],
  ],
  horse: [
    ["rect", { x: 7, y: 20, width: 2.4, height: 9, fill: "#6e4421" }],
    ["rect", { x: 17.5, y: 20, width: 2.4, height: 9, fill: "#6e4421" }],
    ["path", { d: "M4.5 15 q-3.5 4 -2 11", fill: "none", stroke: "#3b2414", "stroke-width": 2.4, "stroke-linecap": "round" }],
    ["ellipse", { cx: 13, cy: 17, rx: 9.5, ry: 5.5, fill: "#9a6334", stroke: INK, "stroke-width": 0.9 }],
    ["path", { d: "M18 14 L22.5 4.5 L27 6 L23.5 17 z", fill: "#9a6334", stroke: INK, "stroke-width": 0.9, "stroke-linejoin": "round" }],
    ["ellipse", { cx: 27, cy: 8, rx: 4.8, ry: 2.8, fill: "#9a6334", stroke: INK, "stroke-width": 0.9, transform: "rotate(28 27 8)" }],
    ["path", { d: "M21.5 4 l1.2 -2.5 l1.2 2.3", fill: "#9a6334", stroke: INK, "stroke-width": 0.8 }],
    ["path", { d: "M21.8 5 L17.5 14", fill: "none", stroke: "#3b2414", "stroke-width": 2.2, "stroke-linecap": "round" }],
    ["circle", { cx: 25.5, cy: 6.6, r: 0.8, fill: INK }],
  ],
  small_dog: [
    ["rect", { x: 9, y: 22, width: 2.2, height: 6, fill: "#c08a45" }],
    ["rect", { x: 16.5, y: 22, width: 2.2, height: 6, fill: "#c08a45" }],
    ["path", { d: "M6 19 q-4 -4 -2 -8", fill: "none", stroke: "#c08a45", "stroke-width": 2, "stroke-linecap": "round" }],
    ["ellipse", { cx: 13, cy: 20.5, rx: 7.5, ry: 4.5, fill: "#dcaa62", stroke: INK, "stroke-width": 0.9 }],
    ["circle", { cx: 21.5, cy: 15, r: 4.6, fill: "#dcaa62", stroke: INK, "stroke-width": 0.9 }],
    ["ellipse", { cx: 25.5, cy: 16.8, rx: 2.6, ry: 1.8, fill: "#e9c48a", stroke: INK, "stroke-width": 0.7 }],
    ["circle", { cx: 27.6, cy: 16.3, r: 0.8, fill: INK }],
    ["ellipse", { cx: 19, cy: 14.5, rx: 1.6, ry: 3.4, fill: "#8a5a28", transform: "rotate(20 19 14.5)" }],
    ["circle", { cx: 22.8, cy: 13.8, r: 0.8, fill: INK }],
  ],
  big_dog: [
    ["rect", { x: 7, y: 20, width: 2.8, height: 9, fill: "#4a3220" }],
    ["rect", { x: 17, y: 20, width: 2.8, height: 9, fill: "#4a3220" }],
    ["path", { d: "M4 15 q-3 2 -2.5 7", fill: "none", stroke: "#4a3220", "stroke-width": 2.4, "stroke-linecap": "round" }],
    ["ellipse", { cx: 13, cy: 17, rx: 10, ry: 6, fill: "#6b4a2f", stroke: INK, "stroke-width": 0.9 }],
    ["circle", { cx: 23, cy: 10.5, r: 5.6, fill: "#6b4a2f", stroke: INK, "stroke-width": 0.9 }],
    ["rect", { x: 24.5, y: 10, width: 6.5, height: 4.4, rx: 2, fill: "#8a6444", stroke: INK, "stroke-width": 0.8 }],
    ["circle", { cx: 30.4, cy: 11.2, r: 1, fill: INK }],
    ["ellipse", { cx: 20, cy: 10, rx: 2, ry: 4, fill: "#3a2616", transform: "rotate(15 20 10)" }],
    ["path", { d: "M19 15.5 q4 2.5 8 0", fill: "none", stroke: "#c0392b", "stroke-width": 2 }],
    ["circle", { cx: 24.3, cy: 8.6, r: 0.9, fill: "#fff" }],
  ],
  fox: [
    ["path", { d: "M7 19 q-7 -2 -6 6 q3 4 9 -1 z", fill: "#e0702a", stroke: INK, "stroke-width": 0.8 }],
    ["path", { d: "M1.2 24 q0.6 2.3 3 2.2 q-2 -0.7 -1.4 -3.4 z", fill: "#fff" }],
    ["rect", { x: 10, y: 21, width: 2, height: 7, fill: "#3a2a20" }],
    ["rect", { x: 18, y: 21, width: 2, height: 7, fill: "#3a2a20" }],
    ["ellipse", { cx: 14.5, cy: 18.5, rx: 8, ry: 4.6, fill: "#e0702a", stroke: INK, "stroke-width": 0.9 }],
    ["path", { d: "M20 9 l1.5 -6 l3.5 5 l3 -5 l0.5 6.5 q3 3 3.5 5.5 l-6 1.5 q-4.5 -1 -6 -7.5 z", fill: "#e0702a", stroke: INK, "stroke-width": 0.9, "stroke-linejoin": "round" }],
    ["path", { d: "M24.5 14.5 q3 2.5 7 0.5 l-1 1.5 q-3 1.5 -6 -2 z", fill: "#fff" }],
    ["circle", { cx: 31.2, cy: 14, r: 0.9, fill: INK }],
    ["circle", { cx: 25.5, cy: 10.5, r: 0.9, fill: INK }],
  ],
  wolf: [
    ["path", { d: "M6 17 q-5 3 -4.5 9 q2 -2 6 -5 z", fill: "#6d737c", stroke: INK, "stroke-width": 0.8 }],
    ["rect", { x: 8.5, y: 20, width: 2.4, height: 9, fill: "#4b5058" }],
    ["rect", { x: 17.5, y: 20, width: 2.4, height: 9, fill: "#4b5058" }],
    ["ellipse", { cx: 13.5, cy: 17, rx: 9, ry: 5.6, fill: "#8a9099", stroke: INK, "stroke-width": 0.9 }],
    ["path", { d: "M19 8 l1.5 -6.5 l3.5 4.5 l2.5 -4.5 l1 6.5 l4.5 4.5 l-1 2.5 l-5 1 q-6 0 -7 -8 z", fill: "#8a9099", stroke: INK, "stroke-width": 0.9, "stroke-linejoin": "round" }],
    ["path", { d: "M25 14.5 l5.5 -0.5 l-1 1.6 l-1 -0.8 l-0.8 1.2 l-0.8 -1 z", fill: "#fff", stroke: INK, "stroke-width": 0.4 }],
    ["path", { d: "M23.2 9.2 l3 0.6", stroke: INK, "stroke-width": 1 }],
    ["circle", { cx: 25, cy: 9.8, r: 0.9, fill: "#f2c14e" }],
    ["circle", { cx: 31, cy: 12.3, r: 0.9, fill: INK }],
  ],
};

const DIE_COLOURS = { wolf: { fill: "#dfe3ea", stroke: "#4b5058" }, fox: { fill: "#fbe3cf", stroke: "#b5541a" } };

function shapes(svg, key) {
  return (DRAWINGS[key] || []).map(([tag, attrs]) => svg(tag, attrs));
}

/** An animal (or the fox, or the wolf) as an <svg role="img"> with its name. */
export function animalPicture(svg, key, size, label) {
  return svg("svg", { viewBox: "0 0 32 32", width: size, height: size, class: `sf-pic sf-pic-${key}`, role: "img", "aria-label": label },
    svg("title", { text: label }), ...shapes(svg, key));
}

function pentagon(cx, cy, r) {
  return Array.from({ length: 5 }, (_, i) => {
    const a = -Math.PI / 2 + (i * 2 * Math.PI) / 5;
    return `${(cx + r * Math.cos(a)).toFixed(2)},${(cy + r * Math.sin(a)).toFixed(2)}`;
  }).join(" ");
}

/** A face of a twelve-faced die (a pentagon, in the die's colours) showing ``face``, or a
 * blank face when the die has not been rolled (``face`` null). */
export function dieFace(svg, die, face, size, label) {
  const colour = DIE_COLOURS[die] || DIE_COLOURS.wolf;
  const node = svg("svg", { viewBox: "0 0 40 40", width: size, height: size, class: `sf-dieface sf-die-${die}`, role: "img", "aria-label": label },
    svg("title", { text: label }),
    svg("polygon", { points: pentagon(20, 21.5, 19), fill: colour.fill, stroke: colour.stroke, "stroke-width": 2, "stroke-linejoin": "round" }));
  if (face) node.append(svg("g", { transform: "translate(7 9) scale(0.8125)" }, ...shapes(svg, face)));
  else node.append(svg("polygon", { points: pentagon(20, 21.5, 9), fill: "none", stroke: colour.stroke, "stroke-width": 1, "stroke-dasharray": "2 2" }));
  return node;
}

/** The two dice on the roll button (decorative: the button says "Roll the dice"). */
export function diceIcon(svg) {
  return svg("svg", { viewBox: "0 0 44 24", width: 33, height: 18, class: "sf-dice-icon", "aria-hidden": "true" },
    svg("polygon", { points: pentagon(11, 12.5, 10.5), fill: DIE_COLOURS.wolf.fill, stroke: DIE_COLOURS.wolf.stroke, "stroke-width": 1.6 }),
    svg("polygon", { points: pentagon(33, 12.5, 10.5), fill: DIE_COLOURS.fox.fill, stroke: DIE_COLOURS.fox.stroke, "stroke-width": 1.6 }));
}

/** The arrow of an exchange: what is given on its left, what is taken on its right. */
export function arrowPicture(svg) {
  return svg("svg", { viewBox: "0 0 20 12", width: 18, height: 11, class: "sf-arrow", "aria-hidden": "true" },
    svg("path", { d: "M1 6 H15 M11 1.5 L16.5 6 L11 10.5", fill: "none", stroke: INK, "stroke-width": 1.8, "stroke-linecap": "round", "stroke-linejoin": "round" }));
}
