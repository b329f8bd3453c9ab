// The end screen's table of players: each seat with the game's own result. A game that
// keeps scores (Glory Ranch, Rocket Ranchers) shows them; a race to a full herd (Rancho,
// Super Farmer) has none, so a column of dashes told nothing: there each row says what
// decided the game, read from the final view (outcome, observation, turn), and a game
// with neither gets no result column at all.

import { el, seatBadge } from "/static/common.js";

// The animals a full herd needs, per game (the rules: one of each).
const FULL_HERD = {
  rancho: ["rabbit", "sheep", "cow", "horse"],
  "super-farmer": ["rabbit", "sheep", "pig", "cow", "horse"],
};

const PLURAL = { sheep: "sheep" };

/** "3 rabbits", "1 cow", "2 small dogs". */
function count(n, kind) {
  const word = kind.replaceAll("_", " ");
  return `${n} ${n === 1 ? word : PLURAL[kind] || word + "s"}`;
}

/** The animals a seat held at the end, per the final observation (null if it shows none). */
function herdOf(view, seat) {
  const obs = view.observation || {};
  if (Array.isArray(obs.farmers)) return obs.farmers[seat] || null; // Super Farmer
  if (Array.isArray(obs.players) && obs.players[seat] && obs.players[seat].animals) {
    return obs.players[seat].animals; // Rancho
  }
  return null;
}

/** What a seat still lacked for a full herd: the game's own list, else counted here. */
function missing(view, seat, herd) {
  const obs = view.observation || {};
  if (Array.isArray(obs.needs) && Array.isArray(obs.needs[seat])) return obs.needs[seat];
  return (FULL_HERD[view.game] || []).filter((kind) => !(herd[kind] > 0));
}

function turnsTaken(view) {
  const obs = view.observation || {};
  const turns = Number.isInteger(obs.turn) ? obs.turn : view.turn;
  return Number.isInteger(turns) && turns > 0 ? turns : null;
}

/** One seat's result in words, for games without scores ("" if the view says nothing). */
function herdResult(view, seat) {
  const herd = herdOf(view, seat);
  if (!herd) return "";
  const held = Object.entries(herd).filter(([, n]) => n > 0).map(([kind, n]) => count(n, kind));
  const animals = held.length ? held.join(", ") : "no animals";
  const winners = (view.outcome || {}).winners || [];
  if (winners.includes(seat)) {
    const turns = turnsTaken(view);
    return `herd complete${turns ? ` after ${turns} turns` : ""}: ${animals}`;
  }
  const lacking = missing(view, seat, herd);
  return lacking.length ? `${animals}; still needs ${lacking.map((k) => k.replaceAll("_", " ")).join(", ")}` : animals;
}

/**
 * The column beside each player: {heading, cells} (cells by seat), or null where the
 * game has nothing to show (then the table lists players only).
 */
export function resultColumn(view) {
  const outcome = view.outcome || {};
  const seats = view.seats.map((_, i) => i);
  if (Array.isArray(outcome.scores)) {
    return { heading: "Score", cells: seats.map((i) => String(outcome.scores[i] ?? "")) };
  }
  const cells = seats.map((i) => herdResult(view, i));
  if (cells.some((text) => text)) return { heading: "Result", cells };
  return null;
}

/** The end screen's table: players by score (or winners first), each with its result. */
export function resultTable(view) {
  const outcome = view.outcome || {};
  const winners = outcome.winners || [];
  const scores = outcome.scores || [];
  const column = resultColumn(view);
  const rank = (i) => (scores.length ? scores[i] ?? 0 : winners.includes(i) ? 1 : 0);
  const order = view.seats.map((_, i) => i).sort((a, b) => rank(b) - rank(a));
  const heads = [el("th", { scope: "col" }, "Player")];
  if (column) heads.push(el("th", { scope: "col" }, column.heading));
  return el(
    "table",
    { class: "scores", "data-result": column ? column.heading.toLowerCase() : "none" },
    el("thead", {}, el("tr", {}, ...heads)),
    el("tbody", {}, ...order.map((i) => el(
      "tr",
      { class: winners.includes(i) ? "winner" : "" },
      el("th", { scope: "row" }, seatBadge(view, i), winners.includes(i) ? el("span", { class: "win-mark" }, " ★ winner") : ""),
      column ? el("td", {}, column.cells[i]) : null,
    ))),
  );
}
