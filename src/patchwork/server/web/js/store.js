// What the browser remembers: each game's seat token (keyed by game id, so a reload or a
// reconnect keeps the seat), the player's name, the last start-screen choices and the game's
// settings (whether advancing asks first).

const SEAT_PREFIX = "patchwork.seat.";

function read(key) {
  try {
    const raw = localStorage.getItem(key);
    return raw === null ? null : JSON.parse(raw);
  } catch {
    return null;
  }
}

function write(key, value) {
  try {
    localStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or disabled: the seat lasts as long as the page
  }
}

// extra: e.g. {invite} for the creator of an online game, to show the link again later.
export function saveSeat(gameId, token, seat, extra = {}) {
  write(SEAT_PREFIX + gameId, { token, seat, ...extra, saved: Date.now() });
}

export function loadSeat(gameId) {
  const v = read(SEAT_PREFIX + gameId);
  return v && typeof v.token === "string" ? v : null;
}

export function loadPrefs() {
  return read("patchwork.prefs") || {};
}

export function savePrefs(prefs) {
  write("patchwork.prefs", { ...loadPrefs(), ...prefs });
}

// How many games this browser has taken a seat in (each keeps its seat token).
export function gamesPlayed() {
  let n = 0;
  try {
    for (let i = 0; i < localStorage.length; i++) {
      if ((localStorage.key(i) || "").startsWith(SEAT_PREFIX)) n += 1;
    }
  } catch {
    return 0;
  }
  return n;
}

// Whether advancing asks "Advance?" first: as the player set it in the game's settings; until
// then, yes for the first 3 games this browser plays, and no afterwards (Undo takes it back).
export const ASK_ADVANCE_GAMES = 3;

export function askBeforeAdvancing() {
  const choice = loadPrefs().confirmAdvance;
  if (typeof choice === "boolean") return choice;
  return gamesPlayed() <= ASK_ADVANCE_GAMES;
}

// A tiny observable holder for the current game view.
export class Store {
  constructor() {
    this.game = null;
    this.listeners = new Set();
  }

  set(game) {
    const previous = this.game;
    this.game = game;
    for (const f of this.listeners) f(game, previous);
  }

  subscribe(f) {
    this.listeners.add(f);
    return () => this.listeners.delete(f);
  }
}
