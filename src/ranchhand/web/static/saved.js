// What this browser remembers for its player, in localStorage (nothing of it is sent
// anywhere but to this server's API, each token for its own table):
//   ranchhand.name     the name last chosen (pre-filled when creating or joining a table)
//   ranchhand.tables   the seats this browser holds: [{id, game, seats: {N: {token, name}},
//                      hot, saved}], newest first, at most MAX_TABLES
//   ranchhand.invites  links to the other people's seats of tables created here, for the
//                      creator's "Invite" box: {id: {saved, seats: [{seat, name, url}],
//                      open: [seat, ...], shown}}, at most MAX_TABLES tables
// Storage may be off (private windows, a full quota): every reader then gets nothing and
// every writer does nothing, and the pages still work without it.

export const NAME_KEY = "ranchhand.name";
export const TABLES_KEY = "ranchhand.tables";
export const INVITES_KEY = "ranchhand.invites";
export const MAX_TABLES = 50;
export const MAX_NAME = 32;

function read(key, fallback) {
  try {
    const raw = localStorage.getItem(key);
    const value = raw === null ? fallback : JSON.parse(raw);
    return value ?? fallback;
  } catch {
    return fallback;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage off or full: the player simply is not remembered
  }
}

/** The name this browser's player chose last ("" if none). */
export function savedName() {
  const name = read(NAME_KEY, "");
  return typeof name === "string" ? name.slice(0, MAX_NAME) : "";
}

export function saveName(name) {
  const clean = String(name || "").trim().slice(0, MAX_NAME);
  if (clean) write(NAME_KEY, clean);
}

/** The tables whose seats this browser holds, newest first. */
export function myTables() {
  const list = read(TABLES_KEY, []);
  return Array.isArray(list) ? list.filter((t) => t && typeof t.id === "string" && t.seats) : [];
}

/** Keep seat ``seat`` of table ``id`` with its token (merged with the seats already kept
 * there: a hot-seat device holds several); the table moves to the front of the list. */
export function keepSeat(id, game, seat, token, name, hot = false) {
  if (!token || seat === null || seat === undefined) return;
  const list = myTables();
  const old = list.find((t) => t.id === id);
  const entry = old || { id, game, seats: {}, hot: false };
  const known = entry.seats[seat];
  if (old && known && known.token === token && known.name === name && list[0] === old) return;
  entry.seats[seat] = { token, name };
  entry.game = game;
  entry.hot = entry.hot || hot;
  entry.saved = Date.now();
  write(TABLES_KEY, [entry, ...list.filter((t) => t.id !== id)].slice(0, MAX_TABLES));
}

export function forgetTable(id) {
  write(TABLES_KEY, myTables().filter((t) => t.id !== id));
  const invites = read(INVITES_KEY, {});
  if (invites && invites[id]) {
    delete invites[id];
    write(INVITES_KEY, invites);
  }
}

/** The link that opens every seat kept for ``entry`` on this device. */
export function seatLink(entry) {
  const tokens = Object.values(entry.seats).map((s) => s.token);
  const key = tokens.length > 1 ? "tokens" : "token";
  return `/tables/${encodeURIComponent(entry.id)}#${key}=${tokens.join(",")}`;
}

/** The invitations kept for a table created in this browser: the other people's seat
 * links and the seats open for anyone (null if none were kept). */
export function invitesFor(id) {
  const invites = read(INVITES_KEY, {});
  const kept = invites && invites[id];
  if (!kept || !Array.isArray(kept.seats)) return null;
  return { seats: kept.seats, open: Array.isArray(kept.open) ? kept.open : [], shown: Boolean(kept.shown) };
}

/** Remember that the creator has seen a table's invitations (later visits fold them away). */
export function invitesShown(id) {
  const invites = read(INVITES_KEY, {});
  if (!invites || !invites[id] || invites[id].shown) return;
  invites[id].shown = true;
  write(INVITES_KEY, invites);
}

export function keepInvites(id, seats, open = []) {
  if (!seats.length && !open.length) return;
  const invites = read(INVITES_KEY, {});
  const all = invites && typeof invites === "object" && !Array.isArray(invites) ? invites : {};
  all[id] = { saved: Date.now(), seats, open };
  // As many as the tables list, the newest kept: an old table's invitations go first.
  const newest = Object.entries(all).sort((a, b) => (b[1].saved || 0) - (a[1].saved || 0)).slice(0, MAX_TABLES);
  write(INVITES_KEY, Object.fromEntries(newest));
}
