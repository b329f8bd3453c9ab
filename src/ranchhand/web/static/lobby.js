// The lobby: create a table from the registry's games and options, list tables, join a
// free seat (a seat created "open for anyone" is claimed once: POST .../seats/N/claim).

import { copyButton, el, getJSON, patternDefs, postJSON, seatSwatch } from "/static/common.js";

const $ = (id) => document.getElementById(id);
let games = [];
let filter = "";

function firstSentence(text) {
  const match = /^(.+?[.!?])(\s|$)/.exec(text || "");
  return match ? match[1] : text || "";
}

function current() {
  return games.find((g) => g.id === $("game").value);
}

function drawGame() {
  const game = current();
  $("game-doc").replaceChildren(
    `${game.min_players} to ${game.max_players} players. `,
    el("a", { href: game.rules, target: "_blank", rel: "noopener" }, "Rules"),
  );
  const players = $("players");
  const wanted = Number(players.value) || Math.min(Math.max(3, game.min_players), game.max_players);
  players.replaceChildren();
  for (let n = game.min_players; n <= game.max_players; n++) {
    players.append(el("option", { value: n, selected: n === wanted }, String(n)));
  }
  drawSeats();
  drawOptions(game);
}

function drawSeats() {
  const game = current();
  const count = Number($("players").value);
  const rows = $("seat-rows");
  const old = [...rows.querySelectorAll(".seat-row")].map((row) => ({
    kind: row.querySelector("select").value,
    name: row.querySelector("input").value,
  }));
  rows.replaceChildren();
  for (let i = 0; i < count; i++) {
    const kind = old[i] ? old[i].kind : i === 0 ? "human" : "greedy";
    const kinds = ["human", "open", ...game.bots];
    const words = { human: "a person", open: "open for anyone" };
    const select = el(
      "select",
      { id: `seat-kind-${i}`, "aria-label": `P${i}: who plays` },
      ...kinds.map((k) => el("option", { value: k, selected: k === kind }, words[k] || `bot: ${k}`)),
    );
    const name = el("input", {
      type: "text", id: `seat-name-${i}`, maxlength: 32, "aria-label": `P${i}: name`,
      placeholder: "name", value: old[i] ? old[i].name : "",
    });
    rows.append(el("div", { class: "seat-row" }, el("span", { class: "seat-badge" }, seatSwatch(i), `P${i}`), select, name));
  }
}

function drawOptions(game) {
  const box = $("options");
  box.replaceChildren(
    ...game.options.map((option) => {
      const id = `option-${option.name}`;
      let input;
      if (option.choices.length) {
        input = el(
          "select",
          { id, name: option.name },
          ...option.choices.map((c) => el("option", { value: String(c), selected: c === option.default }, String(c))),
        );
      } else if (option.kind === "int") {
        input = el("input", { type: "number", id, name: option.name, value: option.default, min: option.minimum ?? null, max: option.maximum ?? null });
      } else {
        input = el("input", { type: "text", id, name: option.name, value: option.default });
      }
      input.dataset.kind = option.kind;
      input.dataset.default = String(option.default);
      return el(
        "div",
        { class: "form-row" },
        el("label", { for: id }, option.name.replaceAll("_", " ")),
        input,
        el("p", { class: "doc", title: option.doc }, `${firstSentence(option.doc)} Default: ${option.default}.`),
      );
    }),
  );
}

function chosenOptions() {
  const options = {};
  for (const input of $("options").querySelectorAll("select, input")) {
    if (input.value === input.dataset.default) continue;
    const kind = input.dataset.kind;
    options[input.name] = kind === "int" ? Number(input.value) : kind === "bool" ? input.value === "true" : input.value;
  }
  return options;
}

async function create(event) {
  event.preventDefault();
  $("create-error").textContent = "";
  const rows = [...$("seat-rows").querySelectorAll(".seat-row")];
  const chosen = rows.map((row) => row.querySelector("select").value);
  const open = chosen.flatMap((kind, i) => (kind === "open" ? [i] : []));
  const seats = chosen.map((kind) => (kind === "open" ? "human" : kind));
  const names = rows.map((row, i) => row.querySelector("input").value.trim() || (seats[i] === "human" ? `Player ${i}` : seats[i]));
  const body = { game: $("game").value, players: seats.length, seats, names, options: chosenOptions() };
  if (open.length) body.open = open;
  if (seats.some((s) => s !== "human")) body.bot_delay = 0.6;
  let made;
  try {
    made = await postJSON("/api/tables", body);
  } catch (error) {
    $("create-error").textContent = error.message;
    return;
  }
  const humans = made.seats.filter((s) => s.url);
  if ($("hotseat").checked && humans.length) {
    location.assign(`/tables/${made.id}#tokens=${humans.map((s) => s.token).join(",")}`);
    return;
  }
  drawCreated(made);
  loadTables();
}

function drawCreated(made) {
  const box = $("created");
  const humans = made.seats.filter((s) => s.url);
  box.replaceChildren(
    el("h3", {}, `Table ${made.id} is ready`),
    el("p", {}, "Send each person the link of their seat (it is their key: keep it private). Open yours:"),
    el(
      "ul",
      { class: "links" },
      ...made.seats.map((s) =>
        el(
          "li",
          { "data-seat-link": s.seat },
          el("span", { class: "seat-badge" }, seatSwatch(s.seat), `P${s.seat} ${s.name}`),
          " ",
          s.url
            ? [el("a", { href: s.url, target: "_blank", rel: "noopener" }, "open"), " ", copyButton(s.url, "Copy link")]
            : el("span", { class: "muted" }, s.open ? "(open: anyone may join from the lobby's list)" : `(bot: ${s.kind})`),
        )),
    ),
    humans.length > 1
      ? el("p", {}, el("a", { href: `/tables/${made.id}#tokens=${humans.map((s) => s.token).join(",")}` }, "Play all human seats on this device"), " (hot seat).")
      : null,
    el("p", {}, el("a", { href: made.spectate }, "Watch as a spectator"), " ", copyButton(made.spectate, "Copy")),
  );
  box.hidden = false;
  box.scrollIntoView({ block: "nearest" });
}

async function loadTables({ force = true } = {}) {
  if (!force && document.querySelector("#tables .join-form")) return; // someone is typing a name
  const query = filter === "free" ? "?free=true" : filter ? `?status=${filter}` : "";
  let data;
  try {
    data = await getJSON(`/api/tables${query}`);
  } catch (error) {
    $("tables").replaceChildren(el("li", { class: "error" }, error.message));
    return;
  }
  const names = Object.fromEntries(games.map((g) => [g.id, g.name]));
  if (!data.tables.length) {
    const none = filter === "free" ? "No table has a free seat now: create one with a seat open for anyone." : "No tables yet: create one.";
    $("tables").replaceChildren(el("li", { class: "muted" }, none));
    return;
  }
  $("tables").replaceChildren(
    ...data.tables.map((t) => {
      const humans = t.seats.filter((s) => s.kind === "human").length;
      const state = t.status === "finished" ? "finished" : `playing, step ${t.step}`;
      const free = t.free || [];
      const seatNames = t.seats.map((s) => (free.includes(s.seat) ? `P${s.seat} free` : s.name)).join(", ");
      const item = el(
        "li",
        { "data-table": t.id, "data-free": free.join(",") },
        el("strong", {}, names[t.game] || t.game),
        el("span", { class: "meta" }, `${t.players} players (${humans} people) · ${state} · ${seatNames}`),
        free.length ? el("span", { class: "free" }, free.length === 1 ? "1 free seat" : `${free.length} free seats`) : null,
        ...free.map((seat) =>
          el("button", { type: "button", class: "small", "data-join": seat, onclick: () => askName(item, t, seat) }, `Join as P${seat}`)),
        el("a", { href: `/tables/${t.id}` }, t.status === "finished" ? "See the end" : "Watch"),
        t.status === "finished" ? el("a", { href: `/replay#table=${t.id}` }, "Replay") : null,
      );
      return item;
    }),
  );
}

/** The name to sit down as, asked beside the table; then claim the seat and open its page. */
function askName(item, table, seat) {
  for (const old of document.querySelectorAll("#tables .join-form")) old.remove();
  const id = `join-name-${table.id}-${seat}`;
  const input = el("input", { type: "text", id, maxlength: 32, required: true, autocomplete: "nickname", placeholder: "your name" });
  const error = el("p", { class: "error", role: "alert" });
  const form = el(
    "form",
    { class: "join-form", "data-join-form": seat },
    el("label", { for: id }, `Your name at P${seat}`),
    input,
    el("button", { type: "submit", class: "primary small" }, "Sit down"),
    el("button", { type: "button", class: "small", onclick: () => { form.remove(); item.querySelector(`[data-join="${seat}"]`)?.focus(); } }, "Cancel"),
    error,
  );
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = input.value.trim();
    if (!name) {
      error.textContent = "Type the name the others will see.";
      input.focus();
      return;
    }
    error.textContent = "";
    let claimed;
    try {
      claimed = await postJSON(`/api/tables/${encodeURIComponent(table.id)}/seats/${seat}/claim`, { name });
    } catch (failure) {
      error.textContent = `${failure.message}. The list will refresh: choose another seat.`;
      setTimeout(() => loadTables(), 2500);
      return;
    }
    location.assign(claimed.url);
  });
  item.append(form);
  input.focus();
}

async function main() {
  document.body.prepend(patternDefs());
  games = (await getJSON("/api/games")).games;
  $("game").replaceChildren(...games.map((g) => el("option", { value: g.id }, g.name)));
  $("game").addEventListener("change", () => {
    $("players").value = "";
    drawGame();
  });
  $("players").addEventListener("change", drawSeats);
  $("new-table").addEventListener("submit", create);
  for (const button of document.querySelectorAll("[data-filter]")) {
    button.addEventListener("click", () => {
      filter = button.dataset.filter;
      document.querySelectorAll("[data-filter]").forEach((b) => b.setAttribute("aria-pressed", String(b === button)));
      loadTables();
    });
  }
  drawGame();
  loadTables();
  setInterval(() => loadTables({ force: false }), 10000);
}

main();
