// The table's turn clock on the page (docs/web.md, "Visible clocks"): one element per
// person's seat, `[data-clock=SEAT]`, whose `data-seconds` is the whole seconds that seat
// has left. The clock is per move: the seats whose time runs (the view's
// `clock.running`) count down to `clock.deadline`; every other person's seat shows the
// full time a move gets (`clock.seconds`), which is what it will have on its turn. Bot
// seats have no clock. The countdown follows the server's clock, not this computer's:
// each view carries the server's time (`clock.now`), the page keeps the difference and
// takes it afresh with every view, so a computer whose clock is minutes off still shows
// the time the server will act on.

import { el, seatOf } from "/static/common.js";

const TICK_MS = 250;         // often enough for a whole-second display that never lags
const LOW = 10;              // seconds left at which a running clock is marked low

let box = null;
let timer = null;
let offset = 0;              // the server's time minus this computer's, in seconds
let deadline = 0;            // server time (Unix seconds) at which the running seats run out
let running = new Set();

/** m:ss (h:mm:ss from an hour on). */
export function clockText(seconds) {
  const s = Math.max(0, Math.floor(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const pad = (n) => String(n).padStart(2, "0");
  return h ? `${h}:${pad(m)}:${pad(s % 60)}` : `${m}:${pad(s % 60)}`;
}

function serverNow() {
  return Date.now() / 1000 + offset;
}

/** Bring each running clock's seconds to the server's time now. */
function tick() {
  if (!box) return;
  const left = Math.max(0, Math.ceil(deadline - serverNow()));
  for (const item of box.querySelectorAll("[data-clock]")) {
    if (!running.has(Number(item.dataset.clock))) continue;
    if (item.dataset.seconds === String(left)) continue;
    item.dataset.seconds = String(left);
    item.querySelector(".clock-time").textContent = clockText(left);
    item.classList.toggle("low", left <= LOW);
    item.classList.toggle("out", left === 0);
  }
}

function stop() {
  if (timer !== null) clearInterval(timer);
  timer = null;
}

/**
 * Draw the clocks of ``view`` in ``container`` (hidden when the table has no clock or is
 * not being played), re-synchronised with the server's time the view carries.
 */
export function drawClocks(view, container) {
  box = container;
  if (!container) return;
  const clock = view && view.clock;
  if (!clock || view.status !== "playing") {
    stop();
    running = new Set();
    container.replaceChildren();
    container.hidden = true;
    return;
  }
  offset = typeof clock.now === "number" ? clock.now - Date.now() / 1000 : 0;
  deadline = clock.deadline;
  running = new Set(clock.running || []);
  const full = Math.round(clock.seconds);
  const items = view.seats
    .map((seat, i) => [seat, i])
    .filter(([seat]) => seat.kind === "human")
    .map(([, i]) => {
      const on = running.has(i);
      return el(
        "li",
        {
          class: `clock${on ? " running" : ""}`,
          "data-clock": i,
          "data-seconds": full,
          role: "timer",
          title: on ? "time left for this move" : "the time each move gets",
        },
        el("span", { class: "clock-name" }, seatOf(view, i).label),
        " ",
        el("span", { class: "clock-time" }, clockText(full)),
      );
    });
  container.replaceChildren(...items);
  container.hidden = items.length === 0;
  tick();
  if (running.size && timer === null) timer = setInterval(tick, TICK_MS);
  if (!running.size) stop();
}
