// Glory Ranch at the browser table: the hand, every ranch, the scores, and every
// choice a card asks for, drawn from one view at a time.
//
// render(view, ui) and renderEnd(view, ui) rebuild everything from the view they are
// given and keep nothing of earlier views (a rock-paper-scissors sign, a hand) in the
// page: only which score breakdowns the player opened or closed is remembered.
// Every element that performs a legal action carries data-action="THE ACTION'S TEXT".
// Families are named and lettered (D Dragon), never told by colour alone.

const SIGNS = [
  ["rock", "Rock"],
  ["paper", "Paper"],
  ["scissors", "Scissors"],
];
const FAMILY_COLOURS = {
  dragon: "#b4483c",
  fae: "#9a4f96",
  beast: "#9a6f1c",
  spirit: "#23807f",
  sea: "#2f5fa3",
  sky: "#4a812c",
};
const SPARE_COLOURS = ["#6b5b95", "#8a5a44", "#3f7f6f", "#7a6a2a", "#5a6b8a", "#8a4a6a"];
const MINUS = "\u2212";
const HOURGLASS = "\u29d7";
const breakdownOpen = new Map(); // round number -> opened by the player (true/false)

// ------------------------------------------------------------------ entry points
export function render(view, ui) {
  const t = table(view, ui);
  clear(ui.board);
  clear(ui.controls);
  if (!t.obs) {
    ui.board.append(h("p", { class: "gr-note" }, "The table is being dealt."));
    return;
  }
  ui.board.append(drawBoard(t));
  const notes = drawControls(t);
  if (notes) ui.controls.append(notes);
}

export function renderEnd(view, ui) {
  ensureStyle();
  const t = table(view, ui);
  clear(ui.board);
  const obs = t.obs;
  if (!obs) return;
  const winners = obs.winners.length ? obs.winners : (view.outcome && view.outcome.winners) || [];
  const wrap = h("section", { class: "gr gr-end", "aria-label": "Glory Ranch: the final scores" });
  let line = "The game ended without a winner.";
  if (winners.length) {
    const names = joinNames(winners.map((s) => (s === t.me ? "You" : t.name(s))));
    const verb = winners.length > 1 ? "share the win" : winners[0] === t.me ? "win" : "wins";
    line = `${names} ${verb} with ${obs.totals[winners[0]]} Glory (target ${obs.target}) after round ${obs.round}.`;
  }
  wrap.append(h("p", { class: "gr-winner" }, h("span", { "aria-hidden": "true" }, "★ "), line));
  if (obs.last_round) wrap.append(breakdown(t, obs.last_round, true, true));
  ui.board.append(wrap);
}

/** The sentence above the table: what you may do now, or whom the table waits for. */
export function status(view, ui) {
  const t = table(view, ui);
  return t.obs && view.status !== "finished" ? promptText(t) : ""; // at the end: the shell's words
}

// ------------------------------------------------------------------ the view, read once
function table(view, ui) {
  const obs = view.observation || null;
  const cat = ui.catalog || {};
  const legal = view.legal_actions || [];
  const me = typeof view.you === "number" ? view.you : null;
  const t = {
    view,
    ui,
    obs,
    cat,
    me,
    legal,
    hand: new Map(), // verb -> Map(card id -> action)
    targets: new Map(), // seat -> action
    picks: new Map(), // "seat:slot" -> action
    places: new Map(), // slot -> action
    signs: new Map(), // sign -> action
    kind: null,
  };
  for (const action of legal) {
    const [verb, ...rest] = action.split(" ");
    const arg = rest.join(" ");
    if (["play", "discard", "give", "pass"].includes(verb)) {
      if (!t.hand.has(verb)) t.hand.set(verb, new Map());
      t.hand.get(verb).set(arg, action);
    } else if (verb === "target") t.targets.set(Number(arg), action);
    else if (verb === "pick") t.picks.set(rest[0], action);
    else if (verb === "place") t.places.set(Number(arg), action);
    else if (verb === "choose") t.signs.set(arg, action);
    if (!t.kind) t.kind = verb;
  }
  t.seat = (i) => seatStyle(ui, view, i);
  t.name = (i) => t.seat(i).label;
  t.card = (id) => cardData(cat, id);
  return t;
}

function seatStyle(ui, view, i) {
  let s = null;
  try {
    s = ui.seat ? ui.seat(i) : null;
  } catch (_) {
    s = null;
  }
  const seat = (view.seats || [])[i];
  const fallback = seat && seat.name ? `P${i} ${seat.name}` : `P${i}`;
  return {
    label: (s && s.label) || fallback,
    colour: (s && s.colour) || "#777",
    pattern: (s && s.pattern) || "",
    fill: (s && s.fill) || "",
  };
}

function cardData(cat, id) {
  const known = cat.cards && cat.cards[id];
  if (known) return known;
  return {
    id,
    name: id,
    family: "",
    glory: "?",
    penalty: "?",
    text: "",
    hourglass: null,
    hourglass_short: null,
  };
}

function family(t, id) {
  const list = t.cat.families || [];
  const i = list.findIndex((f) => f.id === id);
  const f = i >= 0 ? list[i] : { id, name: id || "?", code: (id || "?").slice(0, 2) };
  const colour = FAMILY_COLOURS[id] || SPARE_COLOURS[Math.max(i, 0) % SPARE_COLOURS.length];
  return { ...f, colour };
}

// ------------------------------------------------------------------ the board
function drawBoard(t) {
  ensureStyle();
  const obs = t.obs;
  const root = h("section", { class: "gr", "aria-label": "Glory Ranch table" });
  root.append(statusLine(t));
  const rps = contestBox(t);
  if (rps) root.append(rps);
  if (obs.last_round && !obs.winners.length) {
    const fresh = obs.ranches.every((r) => r.length === 0);
    root.append(breakdown(t, obs.last_round, fresh, false));
  }
  const seats = h("div", { class: "gr-seats" });
  for (const seat of seatOrder(t)) seats.append(seatPanel(t, seat));
  root.append(seats);
  if (t.me !== null) root.append(handPanel(t));
  return root;
}

// a replay seen with every seat's eyes (view.seat_views) shows every hand; a live table never does
function seatViews(t) {
  const views = t.view.seat_views;
  if (t.me !== null || !Array.isArray(views)) return null;
  return views.map((v) => (v && v.observation && v.observation.hand) || []);
}

function seatOrder(t) {
  const n = t.obs.players;
  if (t.me === null) return [...Array(n).keys()];
  // the others in seat order from your left, then you, next to your hand
  const order = [];
  for (let k = 1; k < n; k++) order.push((t.me + k) % n);
  order.push(t.me);
  return order;
}

function statusLine(t) {
  const obs = t.obs;
  const clockwise = obs.direction === "clockwise";
  const turn = [];
  const n = obs.players;
  for (let k = 0; k < n; k++) {
    const s = (((obs.current + (clockwise ? k : -k)) % n) + n) % n;
    turn.push(t.name(s));
  }
  return h(
    "div",
    { class: "gr-status" },
    h("span", { class: "gr-pill", "data-key": "round" }, `Round ${obs.round}`),
    h("span", { class: "gr-pill" }, `Target ${obs.target} Glory`),
    h(
      "span",
      { class: "gr-pill gr-dir", title: `Play goes ${obs.direction}`, "data-key": "direction" },
      h("span", { "aria-hidden": "true", class: "gr-arrow" }, clockwise ? "↻" : "↺"),
      ` ${clockwise ? "Clockwise" : "Counter-clockwise"}: ${turn.join(" → ")}`,
    ),
    h("span", { class: "gr-pill gr-dim", "data-key": "deck" }, `Deck ${obs.deck}`),
    h("span", { class: "gr-pill gr-dim", "data-key": "discard" }, `Discard ${obs.discard}`),
  );
}

function seatChip(t, seat) {
  const s = t.seat(seat);
  const s_ = svgEl;
  const you = seat === t.me ? " (you)" : "";
  return h(
    "span",
    { class: "gr-chip" },
    s_("svg", { class: "gr-swatch", viewBox: "0 0 16 16", "aria-hidden": "true", "data-pattern": s.pattern },
      s_("rect", { x: ".5", y: ".5", width: "15", height: "15", rx: "3", fill: s.colour }),
      s_("rect", { x: ".5", y: ".5", width: "15", height: "15", rx: "3", fill: s.fill || "none", stroke: s.colour }),
    ),
    h("span", { class: "gr-chip-label" }, s.label + you),
  );
}

function seatPanel(t, seat) {
  const obs = t.obs;
  const mine = seat === t.me;
  const acting = obs.acting.includes(seat);
  const over = obs.winners.length > 0;
  const s = t.seat(seat);
  const panel = h("section", {
    class: `gr-seat${mine ? " gr-mine" : ""}${acting ? " gr-acting" : ""}${
      t.targets.has(seat) ? " gr-choosable" : ""
    }`,
    style: `--seat:${s.colour}`,
    "aria-label": `${s.label}${mine ? " (you)" : ""}: ranch`,
    "data-key": `seat ${seat}`,
  });
  const head = h("header", { class: "gr-seat-head" }, seatChip(t, seat));
  if (!over && seat === obs.current)
    head.append(h("span", { class: "gr-tag gr-turn" }, "▶ turn"));
  if (!over && acting && seat !== obs.current)
    head.append(h("span", { class: "gr-tag gr-turn" }, "▶ choosing"));
  if (obs.winners.includes(seat)) head.append(h("span", { class: "gr-tag" }, "★ winner"));
  head.append(
    h(
      "span",
      { class: "gr-handsize", title: "cards in hand", "data-key": "hand size" },
      h(
        "span",
        { class: "gr-backs", "aria-hidden": "true" },
        ...Array.from({ length: Math.min(obs.hand_sizes[seat], 8) }, () => h("span", { class: "gr-back" })),
      ),
      ` ${obs.hand_sizes[seat]} in hand`,
    ),
  );
  const total = obs.totals[seat];
  const pct = Math.max(0, Math.min(100, (100 * total) / Math.max(1, obs.target)));
  head.append(
    h(
      "span",
      { class: "gr-score", "data-key": "score" },
      h(
        "span",
        {
          class: "gr-bar",
          role: "progressbar",
          "aria-valuemin": "0",
          "aria-valuemax": String(obs.target),
          "aria-valuenow": String(total),
          "aria-label": "total Glory against the target",
        },
        h("span", { class: "gr-fill", style: `width:${pct}%` }),
      ),
      h("span", { class: "gr-total" }, `${total} / ${obs.target}`),
    ),
  );
  if (t.targets.has(seat)) {
    head.append(
      actionButton(t, t.targets.get(seat), `Choose ${s.label}`, "gr-btn gr-primary gr-target"),
    );
  }
  panel.append(head);
  panel.append(ranchRow(t, seat));
  const seen = seatViews(t);
  if (seen && seen[seat]) {
    const hand = h("div", { class: "gr-cards gr-small" });
    for (const id of seen[seat]) hand.append(handCard(t, id, null));
    panel.append(h("p", { class: "gr-note" }, seen[seat].length ? "In hand:" : "In hand: nothing"), hand);
  }
  return panel;
}

function ranchRow(t, seat) {
  const obs = t.obs;
  const ranch = obs.ranches[seat];
  const shields = obs.shields[seat] || [];
  const placing = seat === t.me && t.places.size > 0;
  const row = h("ol", { class: "gr-ranch", "aria-label": "ranch, left to right" });
  if (!ranch.length) {
    const lr = obs.last_round;
    let text = "Empty ranch";
    if (lr && lr.points && !obs.winners.length) {
      const parts = [];
      if (lr.glory && lr.glory[seat] !== null) parts.push(`ranch ${lr.glory[seat]}`);
      if (lr.bonus && lr.bonus[seat] !== null) parts.push(`Hour Glass +${lr.bonus[seat]}`);
      if (lr.penalty && lr.penalty[seat] !== null) parts.push(`hand ${MINUS}${lr.penalty[seat]}`);
      text += ` · round ${lr.round}: ${parts.join(" ")} = ${signed(lr.points[seat])}`;
    }
    row.append(h("li", { class: "gr-empty" }, text));
    return row;
  }
  const cards = placing ? ranch.slice(0, -1) : ranch;
  cards.forEach((id, i) => {
    if (placing) row.append(placeGap(t, i + 1));
    row.append(ranchCard(t, seat, i + 1, id, !!shields[i]));
  });
  if (!placing) return row;
  row.append(placeGap(t, ranch.length));
  const id = ranch[ranch.length - 1];
  const card = ranchCard(t, seat, null, id, !!shields[ranch.length - 1]);
  card.classList.add("gr-placing");
  const placingRow = h("ol", { class: "gr-ranch" }, card);
  return h(
    "div",
    { class: "gr-place-box" },
    h("p", { class: "gr-note" }, `Placing ${t.card(id).name}: choose its place among your other cards.`),
    placingRow,
    row,
  );
}

function placeGap(t, slot) {
  const action = t.places.get(slot);
  const li = h("li", { class: "gr-gap" });
  if (action) li.append(actionButton(t, action, `Place at ${slot}`, "gr-btn gr-place"));
  return li;
}

function ranchCard(t, seat, pos, id, shielded) {
  const c = t.card(id);
  const f = family(t, c.family);
  const action = pos !== null ? t.picks.get(`${seat}:${pos}`) : null;
  const body = [
    h(
      "span",
      { class: "gr-rc-top" },
      pos !== null ? h("span", { class: "gr-pos", title: "position" }, String(pos)) : h("span", { class: "gr-pos" }, "new"),
      h("span", { class: "gr-glory", title: "Glory" }, String(c.glory)),
    ),
    h("span", { class: "gr-name" }, c.name),
    familyBadge(f),
  ];
  if (c.hourglass_short) {
    body.push(
      h(
        "span",
        { class: "gr-hg", title: c.hourglass || "" },
        hourglassIcon(),
        h("span", { class: "gr-sr" }, "Hour Glass "),
        c.hourglass_short.replace(HOURGLASS, ""),
      ),
    );
  }
  if (shielded) body.push(h("span", { class: "gr-shield" }, shieldIcon(), " protected"));
  const li = h("li", {
    class: `gr-rc${shielded ? " gr-shielded" : ""}${action ? " gr-pickable" : ""}`,
    style: `--fam:${f.colour}`,
    "data-key": `card ${pos === null ? "new" : pos}`,
  });
  const where = pos !== null ? `position ${pos}` : "being placed";
  const label = `${c.name}, ${f.name}, ${c.glory} Glory, ${where}${shielded ? ", protected" : ""}`;
  if (action) {
    const verb = pickVerb(t);
    li.append(
      actionButton(t, action, body, "gr-rc-btn", `${verb} ${label}`, h("span", { class: "gr-verb" }, verb)),
    );
  } else {
    li.append(h("span", { class: "gr-rc-body", title: c.text, "aria-label": label }, ...body));
  }
  return li;
}

function familyBadge(f) {
  return h(
    "span",
    { class: "gr-fam", style: `--fam:${f.colour}` },
    h("b", { class: "gr-code" }, f.code),
    ` ${f.name}`,
  );
}

function handPanel(t) {
  const obs = t.obs;
  const hand = obs.hand;
  const penalty = hand.reduce((sum, id) => sum + (Number(t.card(id).penalty) || 0), 0);
  const verb = [...t.hand.keys()][0] || null;
  const section = h("section", { class: "gr-hand", "aria-label": "your hand" });
  section.append(
    h(
      "h3",
      { class: "gr-h" },
      `Your hand · ${hand.length} card${hand.length === 1 ? "" : "s"}`,
      h("span", { class: "gr-dim" }, ` · ${MINUS}${penalty} if held at round end`),
    ),
  );
  const cards = h("div", { class: "gr-cards" });
  for (const id of hand) cards.append(handCard(t, id, verb));
  if (!hand.length) cards.append(h("p", { class: "gr-note" }, "Your hand is empty."));
  section.append(cards);
  if (obs.passing && obs.passing.length) {
    const p = h("div", { class: "gr-passing" }, h("h3", { class: "gr-h" }, "Cards you are passing"));
    const row = h("div", { class: "gr-cards" });
    for (const id of obs.passing) row.append(handCard(t, id, null));
    p.append(row);
    section.append(p);
  }
  return section;
}

function handCard(t, id, verb) {
  const c = t.card(id);
  const f = family(t, c.family);
  const action = verb ? t.hand.get(verb).get(id) : null;
  const body = [
    h(
      "span",
      { class: "gr-card-top" },
      h("span", { class: "gr-glory gr-big", title: "Glory in your ranch" }, String(c.glory)),
      familyBadge(f),
    ),
    h("span", { class: "gr-name" }, c.name),
    h(
      "span",
      { class: "gr-text" },
      ...(c.actions && c.actions.length ? c.actions : [c.hourglass ? "" : "No action."])
        .filter(Boolean)
        .map((line) => h("span", { class: "gr-line" }, line)),
    ),
  ];
  if (c.hourglass) body.push(h("span", { class: "gr-hg" }, hourglassIcon(), " ", c.hourglass));
  const word = action ? { play: "Play", discard: "Discard", give: "Give", pass: "Pass" }[verb] : null;
  body.push(
    h(
      "span",
      { class: "gr-card-foot" },
      word ? h("span", { class: "gr-verb" }, word) : "",
      h("span", { class: "gr-pen", title: "penalty if held at round end" }, `${MINUS}${c.penalty} if held`),
    ),
  );
  const label = `${c.name}: ${f.name}, ${c.glory} Glory, penalty ${c.penalty}. ${c.text}`;
  if (action) {
    return actionButton(t, action, body, "gr-card gr-card-btn", `${word} ${label}`, null, {
      style: `--fam:${f.colour}`,
      "data-key": `hand ${id}`,
    });
  }
  return h("article", { class: "gr-card", style: `--fam:${f.colour}`, "aria-label": label, "data-key": `hand ${id}` }, ...body);
}

// ------------------------------------------------------------------ what to do now
// below the board: what the clickable things are, in a line
function drawControls(t) {
  if (!t.legal.length) return null;
  const hints = {
    play: "Click a card of your hand to play it.",
    discard: "Click a card of your hand to discard it.",
    give: "Click a card of your hand to give it.",
    pass: "Click a card of your hand to pass it.",
    target: "Click “Choose” beside the player you want.",
    pick: "Click one of the highlighted ranch cards.",
    place: "Click a “Place” gap in your ranch.",
    choose: "Click Rock, Paper or Scissors at the top of the table.",
  };
  const box = h("div", { class: "gr gr-controls" }, h("p", { class: "gr-note" }, hints[t.kind] || ""));
  if (t.kind === "pick" && t.obs.shields.some((s) => s.some(Boolean))) {
    box.append(h("p", { class: "gr-note" }, shieldIcon(), " Protected cards cannot be picked."));
  }
  return box;
}

function promptText(t) {
  const obs = t.obs;
  const asking = obs.asking || "";
  if (obs.winners.length) return "The game is over.";
  if (!t.legal.length) {
    if (t.me !== null && obs.my_sign) {
      const others = obs.acting.filter((s) => s !== t.me).map((s) => t.name(s));
      return `You chose ${obs.my_sign}. Waiting for ${joinNames(others)} to choose.`;
    }
    return `Waiting: ${inWords(t, asking)}.`;
  }
  const other = (asking.match(/to player (\d+)/) || [])[1];
  switch (t.kind) {
    case "play":
      return /another card/.test(asking)
        ? "Play another card from your hand: click it."
        : "Your turn: click a card of your hand to play it into your ranch.";
    case "discard":
      return "Choose a card of your hand to discard.";
    case "give":
      return `Choose a card of your hand to give to ${other !== undefined ? t.name(Number(other)) : "them"}.`;
    case "pass":
      return `Choose a card of your hand to pass to ${other !== undefined ? t.name(Number(other)) : "your neighbour"}.`;
    case "target":
      return `${effectText(t, obs.effect) || asking.split("for: ")[1] || ""} Choose the player.`;
    case "pick":
      return `Click a card in a ranch to ${asking.split("ranch card to ")[1] || "pick it"}.`;
    case "place": {
      const ranch = obs.ranches[t.me] || [];
      const c = t.card(ranch[ranch.length - 1]);
      return `Choose where ${c.name} goes in your ranch: click a “Place” gap.`;
    }
    case "choose":
      return "Rock, paper or scissors? Your choice stays secret until both of you chose.";
    default:
      return inWords(t, asking);
  }
}

function pickVerb(t) {
  const what = (t.obs.asking || "").split("ranch card to ")[1] || "";
  if (what.startsWith("discard")) return "Discard";
  if (what.startsWith("return")) return "Return";
  if (what.startsWith("protect")) return "Protect";
  return "Pick";
}

function contestBox(t) {
  const obs = t.obs;
  if (!obs.effect || obs.effect.do !== "rps" || obs.winners.length) return null;
  const m = (obs.asking || "").match(/players (\d+) and (\d+)/);
  const pair = m ? [Number(m[1]), Number(m[2])] : obs.acting;
  const box = h("div", { class: "gr-rps", role: "group", "aria-label": "rock, paper or scissors" });
  const rival = pair.find((s) => s !== t.me);
  const rule = effectText(t, obs.effect);
  if (pair.includes(t.me)) {
    box.append(h("p", { class: "gr-h" }, `Rock-paper-scissors against ${t.name(rival)}`));
  } else {
    box.append(h("p", { class: "gr-h" }, `${joinNames(pair.map((s) => t.name(s)))} play rock-paper-scissors`));
  }
  if (rule) box.append(h("p", { class: "gr-note" }, rule));
  if (t.signs.size) {
    const row = h("div", { class: "gr-signs" });
    for (const [sign, word] of SIGNS) {
      const action = t.signs.get(sign);
      if (!action) continue;
      row.append(
        actionButton(
          t,
          action,
          [signIcon(sign), h("span", {}, word)],
          "gr-btn gr-sign",
          word,
        ),
      );
    }
    box.append(row);
  } else if (obs.my_sign) {
    box.append(h("p", { class: "gr-note" }, `You chose ${obs.my_sign}; it stays secret until both chose.`));
  }
  return box;
}

// the rules text of the action being resolved, read from the card that carries it: one
// in the ranch of the player whose turn it is (named), else any card of the deck (unnamed)
function effectText(t, effect) {
  if (!effect || !t.cat.cards) return "";
  const key = JSON.stringify(effect);
  const find = (ids) => {
    for (const id of ids) {
      const c = t.cat.cards[id];
      const i = c ? (c.effects || []).findIndex((e) => JSON.stringify(e) === key) : -1;
      if (i >= 0) return [c, i];
    }
    return null;
  };
  const ranch = (t.obs.ranches[t.obs.current] || []).slice().reverse();
  const played = find(ranch);
  if (played) return `${played[0].name}: ${lowerFirst(played[0].actions[played[1]])}`;
  const any = find(Object.keys(t.cat.cards));
  return any ? any[0].actions[any[1]] : "";
}

// ------------------------------------------------------------------ score breakdown
function breakdown(t, lr, fresh, final) {
  const key = lr.round;
  const open = final || (breakdownOpen.has(key) ? breakdownOpen.get(key) : fresh);
  const box = h("details", { class: "gr-breakdown" });
  if (open) box.open = true;
  const summary = (t.obs ? [...Array(t.obs.players).keys()] : [])
    .map((s) => `${t.name(s)} ${signed(lr.points[s])}`)
    .join(", ");
  const head = h(
    "summary",
    {},
    h("b", {}, final ? `Last round (${lr.round}) scored` : `Round ${lr.round} scored`),
    h("span", { class: "gr-dim" }, ` · ${summary}`),
  );
  // only the player's own clicks are remembered (click comes before the toggle)
  head.addEventListener("click", () => breakdownOpen.set(key, !box.open));
  box.append(head);
  const cell = (v) => (v === null || v === undefined ? "—" : String(v));
  const rows = [...Array(lr.points.length).keys()].map((s) =>
    h(
      "tr",
      { class: (lr.winners || []).includes(s) ? "gr-won" : "" },
      h("th", { scope: "row" }, seatChip(t, s)),
      h("td", {}, cell(lr.glory && lr.glory[s])),
      h("td", {}, lr.bonus && lr.bonus[s] !== null ? `+${lr.bonus[s]}` : "—"),
      h("td", {}, lr.penalty && lr.penalty[s] !== null ? (lr.penalty[s] ? `${MINUS}${lr.penalty[s]}` : "0") : "—"),
      h("td", { class: "gr-strong" }, signed(lr.points[s])),
      h("td", { class: "gr-strong" }, cell(lr.totals[s])),
    ),
  );
  box.append(
    h(
      "div",
      { class: "gr-scroll" },
      h(
        "table",
        { class: "gr-table" },
        h(
          "thead",
          {},
          h(
            "tr",
            {},
            h("th", { scope: "col" }, "Player"),
            h("th", { scope: "col", title: "the Glory printed on the ranch's cards" }, "Ranch"),
            h("th", { scope: "col", title: "Hour Glass bonuses" }, hourglassIcon(), " Hour Glass"),
            h("th", { scope: "col", title: "penalties of the cards left in hand" }, "Hand"),
            h("th", { scope: "col" }, "Round"),
            h("th", { scope: "col" }, "Total"),
          ),
        ),
        h("tbody", {}, ...rows),
      ),
    ),
  );
  const won = (lr.winners || []).map((s) => t.name(s));
  if (won.length) box.append(h("p", { class: "gr-note" }, `Best round: ${joinNames(won)} ★. Totals never go below 0.`));
  return box;
}

// ------------------------------------------------------------------ icons (SVG, no font needed)
function icon(cls, box, ...parts) {
  return s("svg", { class: `gr-icon ${cls}`, viewBox: box, "aria-hidden": "true", focusable: "false" }, ...parts);
}

function hourglassIcon() {
  return icon(
    "gr-i-hg",
    "0 0 12 16",
    s("path", { d: "M2 1.5h8M2 14.5h8", stroke: "currentColor", "stroke-width": "1.6", fill: "none" }),
    s("path", {
      d: "M3 1.5c0 4 5 4.5 5 6.5s-5 2.5-5 6.5h6c0-4-5-4.5-5-6.5s5-2.5 5-6.5z",
      stroke: "currentColor",
      "stroke-width": "1.1",
      fill: "none",
    }),
    s("path", { d: "M4.2 13.6c.6-2 3-2 3.6 0z", fill: "currentColor" }),
  );
}

function shieldIcon() {
  return icon(
    "gr-i-shield",
    "0 0 16 16",
    s("path", {
      d: "M8 1.2 14 3.5V8c0 3.3-2.6 5.7-6 6.8C4.6 13.7 2 11.3 2 8V3.5z",
      fill: "currentColor",
    }),
    s("path", { d: "M5.2 8.2 7.2 10.2 10.8 6", stroke: "#fff", "stroke-width": "1.6", fill: "none" }),
  );
}

function signIcon(sign) {
  const ink = { stroke: "currentColor", "stroke-width": "2", fill: "none", "stroke-linecap": "round" };
  if (sign === "rock") {
    return icon(
      "gr-i-sign",
      "0 0 32 32",
      s("path", { d: "M5 20 9 10l8-4 9 5 2 9-6 6H10z", ...ink, "stroke-linejoin": "round", fill: "currentColor", "fill-opacity": ".15" }),
      s("path", { d: "M9 10l5 6 3-10M14 16l-4 10M14 16l8 10M14 16l14 4", ...ink, "stroke-width": "1.1" }),
    );
  }
  if (sign === "paper") {
    return icon(
      "gr-i-sign",
      "0 0 32 32",
      s("path", { d: "M8 4h12l5 5v19H8z", ...ink, fill: "currentColor", "fill-opacity": ".15" }),
      s("path", { d: "M20 4v5h5M11 14h10M11 18h10M11 22h7", ...ink, "stroke-width": "1.4" }),
    );
  }
  return icon(
    "gr-i-sign",
    "0 0 32 32",
    s("circle", { cx: "9", cy: "23", r: "4", ...ink }),
    s("circle", { cx: "23", cy: "23", r: "4", ...ink }),
    s("path", { d: "M11.5 20 25 4M20.5 20 7 4", ...ink }),
  );
}

// ------------------------------------------------------------------ small helpers
function actionButton(t, action, content, cls, label, extra, attrs) {
  const b = h(
    "button",
    { type: "button", class: cls, "data-action": action, ...(label ? { "aria-label": label } : {}), ...(attrs || {}) },
    ...(Array.isArray(content) ? content : [content]),
  );
  if (extra) b.append(extra);
  b.addEventListener("click", () => t.ui.act(action));
  return b;
}

// One pass over the text: a name put in ("P0 Ann") is never read again as a seat to
// name (replacing "player 0" and then "P0" in turn wrote "P0 Ann Ann").
function inWords(t, text) {
  return text.replace(/\bplayers (\d+) and (\d+)|\bplayer (\d+)|\bP(\d+)\b/g, (_, a, b, one, short) =>
    a !== undefined ? `${who(t, Number(a))} and ${who(t, Number(b))}` : who(t, Number(one ?? short)));
}

function who(t, seat) {
  return seat === t.me ? "you" : t.name(seat);
}

function joinNames(names) {
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

function signed(n) {
  if (n === null || n === undefined) return "—";
  return n > 0 ? `+${n}` : n < 0 ? `${MINUS}${-n}` : "0";
}

function lowerFirst(s) {
  return s ? s[0].toLowerCase() + s.slice(1) : s;
}

function clear(el) {
  if (el) el.replaceChildren();
}

function h(tag, attrs, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "style") el.style.cssText = String(v); // the CSP refuses style attributes
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  for (const c of children) {
    if (c === null || c === undefined || c === "") continue;
    el.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return el;
}

function svgEl(tag, attrs, ...children) {
  return s(tag, attrs, ...children);
}

function s(tag, attrs, ...children) {
  const el = document.createElementNS("http://www.w3.org/2000/svg", tag);
  for (const [k, v] of Object.entries(attrs || {})) {
    if (k === "style") el.style.cssText = String(v);
    else el.setAttribute(k, String(v));
  }
  for (const c of children) el.append(c);
  return el;
}

// A constructed style sheet: the page's Content-Security-Policy refuses <style> elements.
let sheet = null;
function ensureStyle() {
  if (sheet) return;
  sheet = new CSSStyleSheet();
  sheet.replaceSync(CSS);
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet];
}

const CSS = `
.gr{--ink:#2a2622;--muted:#6d655c;--paper:#fbf8f2;--line:#d9d1c4;--accent:#2f6f5e;
  color:var(--ink);font-size:15px;line-height:1.35;min-width:0;max-width:100%}
.gr *{box-sizing:border-box}
.gr-status{display:flex;flex-wrap:wrap;gap:.35rem;margin:0 0 .6rem}
.gr-pill{border:1px solid var(--line);border-radius:999px;padding:.15rem .6rem;background:#fff;
  font-size:.9em;max-width:100%;overflow-wrap:anywhere}
.gr-dir{font-weight:600}.gr-arrow{font-size:1.1em}
.gr-dim{color:var(--muted);font-weight:normal}
.gr-note{color:var(--muted);margin:.3rem 0}
.gr-h{font-size:1rem;margin:.8rem 0 .4rem;font-weight:600}
.gr-seats{display:flex;flex-direction:column;gap:.55rem}
.gr-seat{border:1px solid var(--line);border-left:.45rem solid var(--seat,#999);border-radius:.5rem;
  background:var(--paper);padding:.45rem .55rem;min-width:0}
.gr-seat.gr-acting{box-shadow:0 0 0 2px var(--accent) inset}
.gr-seat.gr-choosable{background:#eef6f2}
.gr-seat-head{display:flex;flex-wrap:wrap;align-items:center;gap:.35rem .7rem;margin-bottom:.35rem}
.gr-chip{display:inline-flex;align-items:center;gap:.35rem;font-weight:600;min-width:0;overflow-wrap:anywhere}
.gr-swatch{width:1rem;height:1rem;flex:none}
.board .gr-icon,.gr-icon{display:inline-block;width:1em;height:1em;vertical-align:-.15em;flex:none}
.board .gr-swatch{display:inline-block}
.board .gr-i-sign{width:2rem;height:2rem}
.gr-sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.gr-tag{font-size:.8em;border-radius:.3rem;padding:.05rem .4rem;background:#efe7d6;color:#5a4a2a;font-weight:600}
.gr-turn{background:var(--accent);color:#fff}
.gr-handsize{font-size:.85em;color:var(--muted);white-space:nowrap}
.gr-backs{display:inline-flex;vertical-align:-.1em;margin-right:.1rem}
.gr-back{width:.5rem;height:.75rem;border-radius:.12rem;background:#7a6a58;border:1px solid #fff;margin-right:-.18rem}
.gr-score{display:inline-flex;align-items:center;gap:.35rem;font-size:.85em;white-space:nowrap}
.gr-bar{display:inline-block;width:4.5rem;height:.5rem;border-radius:.25rem;background:#e5ddcf;overflow:hidden}
.gr-fill{display:block;height:100%;background:var(--accent)}
.gr-total{font-variant-numeric:tabular-nums;font-weight:600}
.gr-ranch{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.35rem;align-items:stretch}
.gr-empty{color:var(--muted);font-style:italic;font-size:.9em;padding:.3rem 0}
.gr-rc{display:flex;min-width:0}
.gr-rc-body,.gr-rc-btn{display:flex;flex-direction:column;gap:.1rem;width:6.6rem;min-height:5.4rem;padding:.3rem .4rem;
  border:1px solid var(--line);border-top:.3rem solid var(--fam);border-radius:.4rem;background:#fff;font:inherit;
  font-size:.82em;text-align:left;color:inherit}
.gr-rc-btn{cursor:pointer;border-color:var(--accent);border-top-color:var(--fam);box-shadow:0 0 0 2px #2f6f5e55}
.gr-rc-btn:hover{background:#eef6f2}
.gr-shielded .gr-rc-body{background:#eef2f7}
.gr-placing .gr-rc-body{outline:2px dashed var(--accent);outline-offset:1px}
.gr-place-box{display:flex;flex-direction:column;gap:.35rem}
.gr-place-box .gr-note{margin:0}
.gr-rc-top,.gr-card-top{display:flex;justify-content:space-between;align-items:center;gap:.3rem}
.gr-pos{font-size:.8em;color:var(--muted);font-variant-numeric:tabular-nums}
.gr-pos::before{content:"#"}
.gr-placing .gr-pos::before{content:""}
.gr-glory{display:inline-grid;place-items:center;min-width:1.5rem;height:1.5rem;border-radius:50%;
  background:#f2d67a;color:#4a3a00;font-weight:700;font-variant-numeric:tabular-nums;border:1px solid #c9a93a}
.gr-big{min-width:2rem;height:2rem;font-size:1.1rem}
.gr-name{font-weight:700;overflow-wrap:anywhere}
.gr-fam{font-size:.85em;color:var(--fam);font-weight:600;white-space:nowrap}
.gr-code{display:inline-block;min-width:1.3rem;text-align:center;border-radius:.25rem;background:var(--fam);color:#fff;
  padding:0 .2rem;margin-right:.1rem}
.gr-hg{font-size:.85em;color:#5b4a86}
.gr-rc .gr-hg{display:flex;gap:.15rem;align-items:baseline}
.gr-shield{font-size:.85em;color:#3a5a7a;font-weight:600}
.gr-gap{display:flex;align-items:stretch}
.gr-btn{font:inherit;border-radius:.4rem;border:1px solid var(--accent);background:#fff;color:var(--accent);
  padding:.3rem .6rem;cursor:pointer;font-weight:600}
.gr-btn:hover{background:#eef6f2}
.gr-primary{background:var(--accent);color:#fff}
.gr-primary:hover{background:#255a4c}
.gr-place{font-size:.8em;padding:.2rem .3rem;border-style:dashed;width:3.6rem;white-space:normal;line-height:1.15}
.gr-verb{font-size:.85em;font-weight:700;color:#fff;background:var(--accent);border-radius:.25rem;padding:.05rem .45rem}
.gr-rc-btn .gr-verb{margin-top:auto;align-self:flex-start}
.gr-hand{margin-top:.6rem;border-top:1px solid var(--line)}
.gr-cards{display:grid;grid-template-columns:repeat(auto-fill,minmax(10rem,1fr));gap:.5rem}
.gr-card{display:flex;flex-direction:column;gap:.25rem;padding:.5rem .55rem;border:1px solid var(--line);
  border-top:.4rem solid var(--fam);border-radius:.55rem;background:#fff;font:inherit;font-size:.9em;
  text-align:left;color:inherit;min-width:0;min-height:9.5rem}
.gr-card-btn{cursor:pointer;border-color:var(--accent);border-top-color:var(--fam);box-shadow:0 1px 0 #0001,0 0 0 2px #2f6f5e33}
.gr-card-btn:hover{background:#f4faf7;transform:translateY(-1px)}
.gr-card .gr-name{font-size:1.05rem}
.gr-text{display:flex;flex-direction:column;gap:.15rem}
.gr-card-foot{margin-top:auto;padding-top:.2rem;display:flex;justify-content:space-between;align-items:center;gap:.4rem}
.gr-card-foot .gr-pen{margin-left:auto}
.gr-pen{font-size:.85em;font-weight:700;color:#9b2f2f;border:1px solid #e3b9b9;background:#fbeeee;border-radius:.3rem;padding:0 .35rem}
.gr button:focus-visible{outline:3px solid #1d4ed8;outline-offset:2px}
.gr-controls{display:flex;flex-direction:column;gap:.4rem}
.gr-prompt{margin:0;font-weight:600}
.gr-rps{border:1px solid var(--line);border-radius:.5rem;padding:.5rem .6rem;background:var(--paper)}
.gr-rps .gr-h{margin:0 0 .2rem}
.gr-signs{display:flex;flex-wrap:wrap;gap:.5rem;margin-top:.4rem}
.gr-sign{display:inline-flex;flex-direction:column;align-items:center;gap:.15rem;min-width:5.5rem;padding:.45rem .8rem;font-size:1rem}
.gr-i-sign{width:2rem;height:2rem}
.gr-rps{margin:0 0 .6rem;border-color:var(--accent)}
.gr-breakdown{border:1px solid var(--line);border-radius:.5rem;background:#fffdf7;padding:.4rem .6rem;margin:0 0 .6rem}
.gr-breakdown summary{cursor:pointer;overflow-wrap:anywhere}
.gr-scroll{max-width:100%;overflow-x:auto}
.gr-table{border-collapse:collapse;margin-top:.4rem;font-variant-numeric:tabular-nums;font-size:.9em;width:100%}
.gr-table th,.gr-table td{padding:.2rem .4rem;border-bottom:1px solid var(--line);text-align:right}
.gr-table th:first-child{text-align:left}
.gr-table thead th{font-size:.85em;color:var(--muted)}
.gr-strong{font-weight:700}
.gr-won{background:#f6efd6}
.gr-passing{margin-top:.4rem}
.gr-small{grid-template-columns:repeat(auto-fill,minmax(8.5rem,1fr));font-size:.85em;margin-top:.3rem}
.gr-small .gr-card{min-height:0}
.gr-winner{font-size:1.1rem;font-weight:700;margin:.3rem 0}
@media (max-width:480px){
  .gr{font-size:14px}
  .gr-cards{grid-template-columns:repeat(2,minmax(0,1fr));gap:.4rem}
  .gr-card{min-height:0;padding:.4rem}
  .gr-ranch{gap:.3rem}
  .gr-rc{flex:0 0 calc((100% - .6rem) / 3)}
  .gr-rc-body,.gr-rc-btn{width:100%;min-height:4.6rem;padding:.25rem .3rem}
  .gr-gap{flex:0 0 auto}
  .gr-place-box .gr-rc{flex-basis:calc((100% - .6rem) / 3)}
  .gr-table{font-size:.82em}
  .gr-table th,.gr-table td{padding:.15rem .25rem}
}
`;
