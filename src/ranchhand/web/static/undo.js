// Undo on the table page (docs/web.md, "Undo"): a button `[data-undo]` in `#undo`, below
// the moves, shown while the view's `undo` (how many of its own last actions the seat on
// screen may take back now) is above 0. A click posts `{"step": N}` (the step of the
// view on screen) to POST /api/tables/{id}/undo with that seat's own token, so in hot
// seat each seat undoes only its own moves. The new view comes back over the WebSocket
// like any move's (every seat's log then says what was taken back); the reply is only
// read for an error, shown in `#error`.

import { el, postJSON } from "/static/common.js";

let sending = false;        // an undo was posted and its answer has not come

/**
 * Draw the undo button for `view`, the view on screen, held with `token`.
 * `showError(text)` puts a refusal where the page shows errors.
 */
export function drawUndo(view, token, tableId, showError) {
  const box = document.getElementById("undo");
  if (!box) return;
  const count = view && token && view.status === "playing" ? view.undo || 0 : 0;
  if (count <= 0) {
    box.hidden = true;
    box.replaceChildren();
    sending = false;
    return;
  }
  const step = view.step;
  const title = count === 1
    ? "Take back your last move (1 can be taken back)"
    : `Take back your last move (${count} can be taken back, one at a time)`;
  const button = el(
    "button",
    { type: "button", class: "undo-button", "data-undo": count, "data-step": step, title, "aria-label": title },
    "Undo",
    el("span", { class: "undo-count", "aria-hidden": "true" }, count > 1 ? ` (${count})` : ""),
  );
  button.disabled = sending;
  button.addEventListener("click", () => send(button, tableId, token, step, showError));
  box.replaceChildren(button);
  box.hidden = false;
}

/** Forget the button (the device is passed to another seat: nothing of this one stays). */
export function clearUndo() {
  const box = document.getElementById("undo");
  if (!box) return;
  box.hidden = true;
  box.replaceChildren();
  sending = false;
}

async function send(button, tableId, token, step, showError) {
  if (sending) return;
  sending = true;
  button.disabled = true;
  try {
    await postJSON(
      `/api/tables/${encodeURIComponent(tableId)}/undo`,
      { step },
      { Authorization: `Bearer ${token}` },
    );
  } catch (error) {
    showError(error.message);
    button.disabled = false;
  } finally {
    sending = false;
  }
}
