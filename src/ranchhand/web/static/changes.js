// What the last move changed on the board: after each view is drawn, the board's keyed
// elements are compared with the previous view's, and those that changed (or appeared)
// get the class `changed` (and `entered` if new), whose CSS highlight fades out
// (style.css, "What changed on the board"); with prefers-reduced-motion the highlight
// stays still, without animation. The class stays until the next view is drawn.
//
// A keyed element is one a game module marks as a thing on the table: `data-key` (any
// module), or the attributes the modules already set (`data-space`, `data-cell`,
// `data-corral`, `data-seat`). Its identity is the chain of keys from the board down to
// it; what it shows is its text (SVG <title>s included) and its optional `data-state`.
// Only the innermost changed elements are marked (a seat's panel whose count changed
// marks the count, not the panel). The first view of a seat marks nothing.

const KEYED = "[data-key],[data-space],[data-cell],[data-corral],[data-seat]";
const OWN = [["key", "k"], ["space", "s"], ["cell", "c"], ["corral", "r"], ["seat", "p"]];

let where = null; // the table and seat the remembered drawing is of
let step = -1;
let before = null; // key -> what it showed
let marked = new Map(); // key -> "changed" | "entered", for the step on screen

function ownKey(node) {
  const data = node.dataset;
  if (!data) return "";
  for (const [name, letter] of OWN) if (data[name] !== undefined) return `${letter}:${data[name]}`;
  return "";
}

function pathOf(node, board) {
  const parts = [];
  for (let n = node; n && n !== board; n = n.parentElement) {
    const key = ownKey(n);
    if (key) parts.push(key);
  }
  return parts.reverse().join("/");
}

function shown(node) {
  return `${node.textContent || ""}|${node.getAttribute("data-state") || ""}`;
}

/** The board's keyed elements: key -> {node, seen}; a repeated key keeps its first. */
function drawing(board) {
  const now = new Map();
  for (const node of board.querySelectorAll(KEYED)) {
    const key = pathOf(node, board);
    if (key && !now.has(key)) now.set(key, { node, seen: shown(node) });
  }
  return now;
}

/** Of the changed keys, those with no changed key inside them. */
function innermost(changed) {
  const keys = [...changed.keys()];
  return new Map([...changed].filter(([key]) => !keys.some((k) => k !== key && k.startsWith(`${key}/`))));
}

/**
 * Mark what changed on `board` since the last view drawn for the same table and seat
 * (call after each view is drawn). Drawing the same step again keeps its marks.
 */
export function markChanges(board, view) {
  if (!board || !view) return;
  const now = drawing(board);
  const here = `${view.id}/${view.you}`;
  if (here !== where || before === null) {
    marked = new Map();
  } else if (view.step !== step) {
    const changed = new Map();
    for (const [key, { seen }] of now) {
      const old = before.get(key);
      if (old === undefined) changed.set(key, "entered");
      else if (old !== seen) changed.set(key, "changed");
    }
    marked = innermost(changed);
  }
  where = here;
  step = view.step;
  before = new Map([...now].map(([key, { seen }]) => [key, seen]));
  for (const [key, how] of marked) {
    const found = now.get(key);
    if (!found) continue;
    found.node.classList.add("changed");
    if (how === "entered") found.node.classList.add("entered");
  }
}

/** Forget the remembered drawing (the board was wiped, e.g. for a hand-off). */
export function forgetChanges() {
  where = null;
  before = null;
  marked = new Map();
  step = -1;
}
