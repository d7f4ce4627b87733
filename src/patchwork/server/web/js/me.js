// The account's own socket (/ws/me, docs/server.md "People"): open on every page while signed
// in. It makes the account online and carries what the server delivers to it (a challenge, a
// notification). It reconnects with growing pauses; each welcome (the first and every one
// after a drop) is told to the listeners of "welcome", who read their state again over HTTP:
// what was delivered while the socket was down is there.

import { currentAccount, onAccount } from "./account.js";
import { currentLanguage } from "./i18n.js";
import { backoff, openSocket, SESSION_ENDED } from "./socket.js";

const listeners = new Map(); // message type -> Set of functions
let ws = null;
let name = null; // the account the socket is (or is being) opened for
let attempt = 0;
let timer = null;

// Call `f(message)` for every message of `type` ("welcome" after each (re)connection);
// returns the function that stops it.
export function onMe(type, f) {
  if (!listeners.has(type)) listeners.set(type, new Set());
  listeners.get(type).add(f);
  return () => listeners.get(type).delete(f);
}

// Whether the socket is open and welcomed (a listener may read state now).
export function meConnected() {
  return ws !== null && ws.readyState === WebSocket.OPEN && attempt === 0;
}

function emit(msg) {
  for (const f of listeners.get(msg.type) || []) {
    try {
      f(msg);
    } catch (err) {
      console.error(err);
    }
  }
}

function connect() {
  clearTimeout(timer);
  timer = null;
  if (!name) return;
  const socket = openSocket("/ws/me", () => ({ type: "hello", lang: currentLanguage() }), (msg) => {
    if (msg.type === "welcome") attempt = 0;
    emit(msg);
  });
  socket.onclose = (event) => {
    if (ws !== socket) return;
    ws = null;
    if (event.code === SESSION_ENDED || !name) return; // signed out: account.js says so
    timer = setTimeout(connect, backoff(attempt++));
  };
  ws = socket;
}

function follow(account) {
  const wanted = account ? account.name : null;
  if (wanted === name) return;
  name = wanted;
  if (ws) {
    const old = ws;
    ws = null;
    old.close();
  }
  attempt = 0;
  connect();
}

// At boot: the socket follows the account (opened on sign-in, closed on sign-out).
export function startMe() {
  onAccount(follow);
  follow(currentAccount());
}
