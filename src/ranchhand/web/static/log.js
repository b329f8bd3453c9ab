// The log in words: each entry shows the view's `words` line ("Ann traded 6 rabbits for
// a sheep with the herd.") with the notation ("P0 Ann: trade 6 rabbit > sheep") as its
// title (hover, long press), and a "Show notation" switch above the log turns the whole
// log back to notation, for those who type it; the choice is remembered in this browser
// (localStorage). `view.log` is the published contract and stays as it was; `view.words`
// is parallel to it (one line for each line of the log). A view without `words` (an
// older server) shows the notation. See docs/web.md, "The log in words".

const KEY = "ranchhand.log.notation";

/** Does this browser want the notation rather than the words? */
export function notationShown() {
  try {
    return localStorage.getItem(KEY) === "1";
  } catch {
    return false; // storage refused (private mode, a sandbox): the words
  }
}

function remember(on) {
  try {
    if (on) localStorage.setItem(KEY, "1");
    else localStorage.removeItem(KEY);
  } catch {
    /* not remembered: it still switches for this page */
  }
}

/**
 * The log entry `i` of `view` as an `<li>` made by `el` with `attrs` (the log's own
 * attributes, kept): its words, the notation in `title`, or the notation alone when
 * the reader chose it (or the view has no words for it).
 */
export function logItem(el, view, i, attrs = {}) {
  const notation = view.log[i];
  const words = Array.isArray(view.words) && view.words.length === view.log.length ? view.words[i] : null;
  if (words === null || words === "" || notationShown()) {
    return el("li", { ...attrs, "data-notation": "" }, notation);
  }
  return el("li", { ...attrs, title: notation }, words);
}

/**
 * The "Show notation" switch, put once before the log list `box` (`#log`); `redraw` is
 * called when it changes, so the log is drawn again the chosen way.
 */
export function logSwitch(el, box, redraw) {
  if (!box || !box.parentNode || box.parentNode.querySelector("[data-log-notation]")) return;
  const input = el("input", { type: "checkbox", "data-log-notation": "" });
  input.checked = notationShown();
  input.addEventListener("change", () => {
    remember(input.checked);
    redraw();
  });
  const label = el("label", { class: "log-notation" }, input, " Show notation");
  label.title = "Show each move in the notation you can type, instead of in words";
  box.parentNode.insertBefore(label, box);
}
