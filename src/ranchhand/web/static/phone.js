// What the table page does for small screens beyond CSS (style.css, "phone layout"):
// the end screen, drawn above the board, is scrolled into view when the game ends, so a
// player who was looking at the board (or at the controls stuck to the bottom of a phone's
// screen) sees who won without hunting for it. A page already showing the end screen's
// top is left where it is; smooth only where motion is welcome.

/** Bring the end screen into view once, as it appears. */
export function showEnd(box) {
  const calm = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
  requestAnimationFrame(() => {
    const top = box.getBoundingClientRect().top;
    if (top >= 0 && top < window.innerHeight / 2) return;
    box.scrollIntoView({ block: "start", behavior: calm ? "auto" : "smooth" });
  });
}
