import { refreshAccount } from "./account.js";
import { currentLanguage } from "./i18n.js";

// A game's websocket: says hello with the seat token and the last version seen, answers
// requests by id, and reconnects with growing pauses after a drop, catching up via `sync`.

const MAX_BACKOFF_MS = 5000;
// The server closes the sockets of an account session that ended (signed out, password changed).
export const SESSION_ENDED = 4401;

// The pause before reconnection attempt `attempt` (0, 1, ...): doubling up to 5 s, jittered
// so that clients dropped together do not come back together.
export function backoff(attempt) {
  return Math.min(MAX_BACKOFF_MS, 500 * 2 ** attempt) * (0.75 + Math.random() / 2);
}

// A websocket to the server's `path` that says `hello()` (a message) once open and hands
// each message, parsed, to `onMessage` (a frame that is not JSON is dropped).
export function openSocket(path, hello, onMessage) {
  const scheme = location.protocol === "https:" ? "wss:" : "ws:";
  const ws = new WebSocket(`${scheme}//${location.host}${path}`);
  ws.onopen = () => ws.send(JSON.stringify(hello()));
  ws.onmessage = (event) => {
    let msg;
    try {
      msg = JSON.parse(event.data);
    } catch {
      return;
    }
    onMessage(msg);
  };
  return ws;
}

export class GameSocket {
  constructor(gameId, token, handlers) {
    this.gameId = gameId;
    this.token = token;
    this.handlers = handlers; // {onMessage(msg), onStatus(status)}
    this.lastVersion = null;
    this.pending = new Map();
    this.nextId = 1;
    this.attempt = 0;
    this.closed = false;
    this.ws = null;
    this.timer = null;
    this.connect();
  }

  connect() {
    if (this.closed) return;
    const hello = () => ({ type: "hello", token: this.token, last_version: this.lastVersion,
      lang: currentLanguage() });
    const ws = openSocket(`/ws/games/${this.gameId}`, hello, (msg) => {
      if (msg.type === "welcome") {
        this.attempt = 0;
        this.handlers.onStatus("online");
      }
      if ((msg.type === "state" || msg.type === "sync") && msg.game) {
        this.lastVersion = msg.game.version;
      } else if (msg.type === "update" && msg.since === this.lastVersion) {
        this.lastVersion = msg.version;
      }
      if (msg.ref !== undefined && this.pending.has(msg.ref)) {
        const { resolve } = this.pending.get(msg.ref);
        this.pending.delete(msg.ref);
        resolve(msg);
      }
      this.handlers.onMessage(msg);
    });
    this.ws = ws;
    this.handlers.onStatus(this.attempt ? "reconnecting" : "connecting");
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      for (const { resolve } of this.pending.values()) {
        resolve({ type: "error", code: "network", message: "connection lost" });
      }
      this.pending.clear();
      // Signed out (here or on another device): the page shows it; the socket comes back as
      // whoever the browser is now.
      if (event.code === SESSION_ENDED) refreshAccount();
      // 4403/4404: the token or the game is wrong; trying again cannot help.
      if (this.closed || event.code === 4403 || event.code === 4404) {
        this.handlers.onStatus(this.closed ? "closed" : "refused");
        return;
      }
      this.handlers.onStatus("offline");
      const delay = backoff(this.attempt);
      this.attempt += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  get open() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  // Sends a message with an id; resolves with the reply that carries it back (ack, error,
  // hint...), or an error of code "network" if the connection drops first.
  request(message) {
    if (!this.open) {
      return Promise.resolve({ type: "error", code: "network", message: "not connected" });
    }
    const id = this.nextId++;
    return new Promise((resolve) => {
      this.pending.set(id, { resolve });
      this.ws.send(JSON.stringify({ ...message, id }));
    });
  }

  // Sends a message that gets no reply of its own (sync: the whole game comes as a state).
  send(message) {
    if (this.open) this.ws.send(JSON.stringify(message));
  }

  // Drops the connection as a network failure would (used to reconnect at once, e.g. when
  // the browser says it is back online).
  reconnectNow() {
    clearTimeout(this.timer);
    this.attempt = 0;
    if (this.ws && this.ws.readyState <= WebSocket.OPEN) this.ws.close();
    else this.connect();
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    if (this.ws) this.ws.close();
  }
}
