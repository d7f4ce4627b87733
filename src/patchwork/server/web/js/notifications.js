// The notification list (docs/web.md "Notifications"): a bell in the site's header for a
// signed-in account, its badge the number unread, opening a list (a dropdown; on a phone a
// panel the header's width) of what happened: a challenge, your turn in a correspondence
// game, a game over, a game started by a player you follow, a tournament's round (your game
// is ready, or a bye), each in the reader's language and linking to its game (a challenge: to
// the challenger, whose card every page shows; a bye: to the tournament).
// Opening the list marks everything read (the new ones stay marked as new while it is
// open). New ones come live over the account's socket (me.js); the list is read again over
// HTTP after every (re)connection ("welcome"), so nothing sent while it was down is missed.
// Names are text, never HTML.

import { api } from "./api.js";
import { currentAccount, onAccount } from "./account.js";
import { _, currentLanguage, fmt, ngettext, num } from "./i18n.js";
import { onMe } from "./me.js";
import { el, svgRoot } from "./svg.js";
import { closeOnChoice, errorText, fmtNodes, h } from "./ui.js";

const state = {
  owner: null, // the account the list is of
  items: new Map(), // id -> notification, as the server sends it
  unread: 0,
  more: false, // older ones exist
  loaded: false,
  error: null, // why the list could not be read (text)
  fresh: new Set(), // ids that were unread when the list was opened: shown as new
};

const MENU_ID = "notes-menu";

// -- what each kind says ----------------------------------------------------------------------

const name = (text) => h("bdi", { class: "note-name", text });

function gameOverDetail(a) {
  const won = a.result === "won";
  switch (a.termination) {
    case "resigned": return won ? _("Your opponent resigned.") : _("You resigned.");
    case "time": return won ? _("Your opponent ran out of time.") : _("You ran out of time.");
    case "abandoned": return won ? _("Your opponent left the game.") : _("You left the game.");
    default:
      return a.scores ? fmt(_("Final score: {mine} to {theirs}."), { mine: a.scores[0], theirs: a.scores[1] }) : "";
  }
}

// [the sentence (nodes), a detail (text) or "", where it leads]
function describe(a) {
  const game = (id) => `/play/${encodeURIComponent(id)}`;
  switch (a.kind) {
    case "your_turn":
      return [fmtNodes(_("Your turn against {name}"), { name: name(a.opponent) }), "", game(a.game_id)];
    case "game_over": {
      const text = { won: _("You won against {name}"), lost: _("You lost against {name}"),
        draw: _("Your game against {name} ended in a draw") }[a.result] || _("Your game against {name} is over");
      return [fmtNodes(text, { name: name(a.opponent) }), gameOverDetail(a), game(a.game_id)];
    }
    case "follow_started":
      return [fmtNodes(_("{player} started a game against {opponent}"),
        { player: name(a.player), opponent: name(a.opponent) }), _("Watch the game"), game(a.game_id)];
    case "challenge":
      return [fmtNodes(_("{name} challenged you"), { name: name(a.by) }), "",
        `/players/${encodeURIComponent(a.by)}`];
    case "tournament": {
      // An arena's "round" counts its pairings: it is not said.
      const arena = a.arena === true;
      const values = { round: num(a.round), tournament: name(a.tournament), opponent: a.opponent ? name(a.opponent) : "" };
      if (!a.game_id) {
        return [fmtNodes(_("Round {round} of {tournament}: you have a bye"), values), "",
          `/tournaments/${encodeURIComponent(a.tournament_id)}`];
      }
      const text = arena ? _("{tournament}: your game against {opponent} is ready")
        : _("Round {round} of {tournament}: your game against {opponent} is ready");
      return [fmtNodes(text, values), "", game(a.game_id)];
    }
    default:
      return null; // a kind this page does not know yet
  }
}

// "5 minutes ago", in the page's language.
function ago(at) {
  const seconds = Math.round(at - Date.now() / 1000);
  const steps = [[60, "second"], [3600, "minute"], [86400, "hour"], [604800, "day"], [Infinity, "week"]];
  let unit = 1;
  for (const [limit, name] of steps) {
    if (Math.abs(seconds) < limit) {
      try {
        return new Intl.RelativeTimeFormat(currentLanguage(), { numeric: "auto" })
          .format(Math.round(seconds / unit), name);
      } catch {
        return "";
      }
    }
    unit = limit;
  }
  return "";
}

// -- drawing -----------------------------------------------------------------------------------

function bellIcon() {
  const svg = svgRoot("0 0 16 16", { class: "svg-icon notes-bell", "aria-hidden": "true", focusable: "false" });
  svg.append(
    el("path", { d: "M8 1.8C5.7 1.8 4.2 3.5 4.2 5.8V8.8L2.7 11.3H13.3L11.8 8.8V5.8C11.8 3.5 10.3 1.8 8 1.8Z",
      fill: "none", stroke: "currentColor", "stroke-width": 1.5, "stroke-linejoin": "round" }),
    el("path", { d: "M6.3 12.9A1.7 1.7 0 0 0 9.7 12.9", fill: "none", stroke: "currentColor", "stroke-width": 1.5,
      "stroke-linecap": "round" }),
  );
  return svg;
}

function bellLabel() {
  return state.unread
    ? ngettext("Notifications: {n} unread", "Notifications: {n} unread", state.unread)
    : _("Notifications");
}

function badgeText() {
  return state.unread > 99 ? `${num(99)}+` : num(state.unread);
}

function sorted() {
  return [...state.items.values()].sort((x, y) => y.id - x.id);
}

function entry(n) {
  const found = describe(n.about);
  if (!found) return null;
  const [text, detail, href] = found;
  const isNew = !n.read || state.fresh.has(n.id);
  return h("li", { class: `note note-${n.about.kind}${isNew ? " note-new" : ""}` }, [
    h("a", { class: "note-link", href, "data-link": "1" }, [
      h("span", { class: "note-mark", "aria-hidden": "true" }),
      h("span", { class: "note-body" }, [
        // dir auto: a sentence not yet translated reads left to right in a right-to-left
        // page (the names, isolated in <bdi>, never decide it).
        h("span", { class: "note-text", dir: "auto" }, text),
        detail ? h("span", { class: "note-detail", dir: "auto", text: detail }) : null,
        h("time", { class: "note-time", datetime: new Date(n.at * 1000).toISOString(), text: ago(n.at) }),
      ]),
      isNew ? h("span", { class: "visually-hidden", text: _("(new)") }) : null,
    ]),
  ]);
}

function panelChildren() {
  const list = sorted();
  const out = [h("h2", { class: "notes-title", text: _("Notifications") })];
  if (state.error) out.push(h("p", { class: "notes-empty", role: "alert", text: state.error }));
  else if (!state.loaded) out.push(h("p", { class: "notes-empty", text: _("Loading…") }));
  else if (!list.length) {
    out.push(h("p", { class: "notes-empty", text: _("Nothing yet. Your turns in correspondence games, finished games, challenges and the games of the players you follow are listed here.") }));
  }
  if (list.length) out.push(h("ul", { class: "notes-list" }, list.map(entry)));
  if (state.more) {
    out.push(h("button", { type: "button", class: "link-button notes-older", text: _("Older notifications"),
      onclick: () => loadOlder() }));
  }
  return out;
}

// Bring the bell on the page (if any) up to date with the state.
function render() {
  const menu = document.getElementById(MENU_ID);
  if (!menu) return;
  const summary = menu.querySelector("summary");
  summary.setAttribute("aria-label", bellLabel());
  const badge = summary.querySelector(".notes-badge");
  badge.textContent = badgeText();
  badge.hidden = state.unread === 0;
  menu.querySelector(".notes-panel").replaceChildren(...panelChildren());
}

// The bell for the header (null for a guest).
export function notificationBell() {
  const me = currentAccount();
  if (!me) return null;
  const badge = h("span", { class: "notes-badge", id: "notes-count", "aria-hidden": "true", text: badgeText() });
  badge.hidden = state.unread === 0;
  const menu = h("details", { class: "head-notes", id: MENU_ID }, [
    h("summary", { id: "head-notes", "aria-label": bellLabel() }, [bellIcon(), badge]),
    h("div", { class: "notes-panel", role: "region", "aria-label": _("Notifications") }, panelChildren()),
  ]);
  menu.addEventListener("toggle", () => {
    if (menu.open) opened();
    else {
      state.fresh.clear();
      render();
    }
  });
  return closeOnChoice(menu, "a");
}

function isOpen() {
  const menu = document.getElementById(MENU_ID);
  return Boolean(menu && menu.open);
}

// -- reading and marking --------------------------------------------------------------------

async function reload() {
  const owner = state.owner;
  try {
    const page = await api.notifications();
    if (state.owner !== owner) return;
    // What arrived live while the list was being read is newer than all of it: it stays.
    const newest = page.notifications.length ? page.notifications[0].id : 0;
    const since = [...state.items.values()].filter((n) => n.id > newest);
    state.items = new Map([...page.notifications, ...since].map((n) => [n.id, n]));
    state.unread = page.unread + since.filter((n) => !n.read).length;
    state.more = page.more;
    state.loaded = true;
    state.error = null;
  } catch (err) {
    if (state.owner !== owner) return;
    state.error = errorText(err);
  }
  render();
  if (isOpen()) markRead();
}

async function loadOlder() {
  const list = sorted();
  if (!list.length) return;
  try {
    const page = await api.notifications(list[list.length - 1].id);
    for (const n of page.notifications) state.items.set(n.id, n);
    state.more = page.more;
    state.unread = page.unread;
  } catch (err) {
    state.error = errorText(err);
  }
  render();
}

function opened() {
  if (!state.loaded) reload();
  markRead();
  render();
}

// Everything is read once the list is open: the unread ones are remembered as new for as
// long as it stays open, and the server is told (which tells the account's other pages).
async function markRead(ids = null) {
  const unread = sorted().filter((n) => !n.read);
  if (!state.unread && !unread.length) return;
  for (const n of unread) {
    state.fresh.add(n.id);
    n.read = true;
  }
  state.unread = 0;
  render();
  try {
    const result = await api.readNotifications(ids);
    state.unread = result.unread;
  } catch (err) {
    state.error = errorText(err);
  }
  render();
}

function arrived(msg) {
  const n = msg.notification;
  if (!n || state.items.has(n.id)) return; // heard twice (live and in a reading): once
  state.items.set(n.id, n);
  if (!n.read) state.unread += 1;
  render();
  if (isOpen()) markRead([n.id]);
}

function markedRead(msg) {
  const all = msg.ids === null;
  const ids = new Set(msg.ids || []);
  for (const n of state.items.values()) if (all || ids.has(n.id)) n.read = true;
  state.unread = msg.unread;
  render();
}

function follow(account) {
  const owner = account ? account.name : null;
  if (owner === state.owner) return;
  Object.assign(state, { owner, unread: 0, more: false, loaded: false, error: null });
  state.items = new Map();
  state.fresh = new Set();
}

// At boot (before the account's socket opens): the list follows the account and its socket.
export function startNotifications() {
  follow(currentAccount());
  onAccount(follow);
  onMe("welcome", () => reload());
  onMe("notification", arrived);
  onMe("notifications_read", markedRead);
}
