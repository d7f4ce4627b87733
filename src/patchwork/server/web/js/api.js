import { currentLanguage } from "./i18n.js";

// The HTTP API (docs/server.md): JSON in, JSON out; every failure becomes an ApiError
// carrying the server's code and message, or a "network" code when nothing came back.

export class ApiError extends Error {
  constructor(code, message, status = 0, extra = {}) {
    super(message);
    this.code = code;
    this.status = status;
    this.extra = extra;
    this.plain = extra.plain;
  }
}

// The signed-in session's CSRF token (from the Account JSON: sign-in, sign-up, GET
// /api/account/me at boot). It is kept in memory only, never in storage; a request that changes
// something carries it as X-CSRF-Token, since the session cookie goes along by itself.
let csrfToken = null;

export function setCsrfToken(token) {
  csrfToken = token || null;
}

const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);

async function request(method, path, body, token) {
  // The server's messages (errors above all) come in the page's language.
  const headers = { accept: "application/json", "accept-language": currentLanguage() };
  if (body !== undefined) headers["content-type"] = "application/json";
  if (token) headers.authorization = `Bearer ${token}`;
  if (csrfToken && !SAFE.has(method)) headers["x-csrf-token"] = csrfToken;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      credentials: "same-origin",
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch (e) {
    throw new ApiError("network", String(e && e.message ? e.message : e));
  }
  if (response.status === 204) return null;
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) {
    const err = data && data.error ? data.error : {};
    const { code, message, ...extra } = err;
    throw new ApiError(code || "http_" + response.status, message || response.statusText,
      response.status, extra);
  }
  if (data === null) throw new ApiError("bad_answer", "the server's answer was not JSON");
  return data;
}

export const api = {
  meta: () => request("GET", "/api/meta"),
  game: (id) => request("GET", `/api/games/${encodeURIComponent(id)}`),
  create: (body) => request("POST", "/api/games", body),
  join: (id, invite, name) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/join`, { invite, name }),
  move: (id, token, move, version) =>
    request("POST", `/api/games/${encodeURIComponent(id)}/moves`, { move, version }, token),
  replay: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/replay`),
  review: (id, token) => request("POST", `/api/games/${encodeURIComponent(id)}/review`, undefined, token),
  reviewStatus: (id) => request("GET", `/api/games/${encodeURIComponent(id)}/review`),
  // The analysis board (docs/web.md): a position or a finished game, moves played on it.
  board: (body) => request("POST", "/api/analysis/board", body),
  // Puzzles (docs/web.md): today's, one by number, the next, and the verdict on a move.
  dailyPuzzle: () => request("GET", "/api/puzzles/daily"),
  puzzle: (id) => request("GET", `/api/puzzles/${encodeURIComponent(id)}`),
  // level "mine": signed in, the next at the player's puzzle rating.
  nextPuzzle: (after, difficulty, level) => request("GET", `/api/puzzles/next?${new URLSearchParams(
    Object.entries({ after, difficulty, level }).filter(([, v]) => v))}`),
  answerPuzzle: (id, move) => request("POST", `/api/puzzles/${encodeURIComponent(id)}/answer`, { move }),
  // Giving up (signed in, it counts as a wrong answer when it comes first).
  puzzleSolution: (id) => request("POST", `/api/puzzles/${encodeURIComponent(id)}/solution`),
  puzzleRating: () => request("GET", "/api/puzzles/rating"),
  // The guided first game (docs/web.md): the client keeps the progress and sends it each time.
  lesson: (progress) => request("POST", "/api/tutorial/view", { progress }),
  tryLesson: (progress, move) => request("POST", "/api/tutorial/move", { progress, move }),
  firstReview: (progress) => request("POST", "/api/tutorial/review", { progress }),
  recent: (limit = 10) => request("GET", `/api/games?limit=${limit}`),
  // Accounts (docs/accounts.md): the session is the HttpOnly cookie the server sets.
  me: () => request("GET", "/api/account/me"),
  signUp: (name, password) => request("POST", "/api/account/signup", { name, password }),
  signIn: (name, password) => request("POST", "/api/account/signin", { name, password }),
  signOut: () => request("POST", "/api/account/signout"),
  changePassword: (old, password) => request("POST", "/api/account/password", { old, new: password }),
  deleteAccount: (password) => request("DELETE", "/api/account", { password }),
  myGames: (status) => request("GET", `/api/account/games?status=${encodeURIComponent(status)}`),
  // The account's mail address (docs/accounts.md, "Mail"): each call answers the settings.
  mail: () => request("GET", "/api/account/mail"),
  setMail: (address) => request("PUT", "/api/account/mail", { address }),
  removeMail: () => request("DELETE", "/api/account/mail"),
  resendMail: () => request("POST", "/api/account/mail/confirmation"),
  player: (name) => request("GET", `/api/players/${encodeURIComponent(name)}`),
  // People (docs/server.md "People"): who is online, a player's standing with you, follows, blocks.
  online: (limit = 50) => request("GET", `/api/people/online?limit=${limit}`),
  standing: (name) => request("GET", `/api/players/${encodeURIComponent(name)}/standing`),
  following: () => request("GET", "/api/me/following"),
  relate: (name, what, on) =>
    request(on ? "PUT" : "DELETE", `/api/players/${encodeURIComponent(name)}/${what}`),
  // Challenges (docs/server.md "Challenges"): to a named player, or a rematch (rematch_of).
  challenges: () => request("GET", "/api/challenges"),
  challengeOf: (id) => request("GET", `/api/challenges/${encodeURIComponent(id)}`),
  challenge: (body) => request("POST", "/api/challenges", body),
  answerChallenge: (id, action, body) =>
    request("POST", `/api/challenges/${encodeURIComponent(id)}/${action}`, body),
  // Notifications (docs/server.md "Notifications"): the list, newest first; marking it read.
  notifications: (before) =>
    request("GET", `/api/notifications?limit=20${before ? `&before=${before}` : ""}`),
  readNotifications: (ids) => request("POST", "/api/notifications/read", ids ? { ids } : { all: true }),
  leaderboard: (limit = 50) => request("GET", `/api/leaderboard?limit=${limit}`),
  // Tournaments (docs/server.md "Tournaments"): the lists, one event, and what a player does.
  tournaments: (status, page = 0) =>
    request("GET", `/api/tournaments?status=${encodeURIComponent(status)}&page=${page}`),
  tournament: (id) => request("GET", `/api/tournaments/${encodeURIComponent(id)}`),
  // The event a game was played in (`tournament_not_found` for an ordinary game).
  tournamentOfGame: (gameId) => request("GET", `/api/tournaments/of-game/${encodeURIComponent(gameId)}`),
  createTournament: (body) => request("POST", "/api/tournaments", body),
  // action: join, withdraw, and in an arena pause, resume.
  tournamentAction: (id, action) =>
    request("POST", `/api/tournaments/${encodeURIComponent(id)}/${action}`),
};
