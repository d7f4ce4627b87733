// People (docs/web.md "People"): who is online (a card in the lobby), a player's standing on
// their profile (online, playing, last seen; Follow and Block), and the players you follow
// (/following). Names are text, never HTML.

import { api } from "./api.js";
import { currentAccount, ratingText } from "./account.js";
import { needSignIn, pageTitle } from "./accountpages.js";
import { _, fmt, ngettext, num } from "./i18n.js";
import { onMe } from "./me.js";
import { challengeButton } from "./challenges.js";
import { botTag, errorText, fatal, h, toast } from "./ui.js";

const REFRESH_MS = 20000; // how often the lobby's list of who is online is read again

function sameName(a, b) {
  return typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
}

function profileHref(name) {
  return `/players/${encodeURIComponent(name)}`;
}

function lastSeen(iso) {
  const d = new Date(iso);
  if (!iso || Number.isNaN(d.getTime())) return "";
  const minutes = Math.round((Date.now() - d.getTime()) / 60000);
  if (minutes < 1) return _("Last seen just now");
  if (minutes < 60) return fmt(ngettext("Last seen {n} minute ago", "Last seen {n} minutes ago", minutes), { n: num(minutes) });
  const hours = Math.round(minutes / 60);
  if (hours < 48) return fmt(ngettext("Last seen {n} hour ago", "Last seen {n} hours ago", hours), { n: num(hours) });
  const days = Math.round(hours / 24);
  return fmt(ngettext("Last seen {n} day ago", "Last seen {n} days ago", days), { n: num(days) });
}

// One player of a list: a dot when online, the name (to the profile), the rating, and a
// link to the game they are playing.
export function personRow(p) {
  return h("li", { class: "person", "data-name": p.name }, [
    h("span", { class: p.online ? "presence-dot on" : "presence-dot", role: "img",
      "aria-label": p.online ? _("online") : _("offline") }),
    h("a", { class: "player-link", href: profileHref(p.name), "data-link": "1", dir: "ltr", text: p.name }),
    p.bot ? botTag() : null,
    h("span", { class: "person-rating muted", text: ratingText(p.rating, p.provisional) }),
    p.playing ? h("a", { class: "watch-link", href: `/play/${encodeURIComponent(p.playing)}`, "data-link": "1",
      text: _("Playing now: watch") }) : null,
    p.online ? challengeButton(p.name, { class: "challenge-button small" }) : null,
  ]);
}

// The lobby's "Online now" card: read at once and every REFRESH_MS until stop().
export class OnlineCard {
  constructor() {
    this.title = h("h2", { id: "online-title", text: _("Online now") });
    this.list = h("ul", { class: "people-list", id: "online-list" });
    this.element = h("section", { class: "card lobby-online", "aria-labelledby": "online-title" }, [
      this.title, this.list]);
    this.timer = null;
  }

  start() {
    this.refresh();
    this.timer = setInterval(() => this.refresh(), REFRESH_MS);
    this.unwelcome = onMe("welcome", () => this.refresh()); // now you are online too
  }

  stop() {
    clearInterval(this.timer);
    if (this.unwelcome) this.unwelcome();
  }

  async refresh() {
    let online;
    try {
      online = await api.online(30);
    } catch {
      return; // the list stays as it was; the next refresh tries again
    }
    this.title.textContent = fmt(_("Online now ({count})"), { count: num(online.count) });
    this.list.replaceChildren(...(online.players.length ? online.players.map(personRow)
      : [h("li", { class: "muted", text: _("Nobody else is here right now.") })]));
  }
}

// The profile's line about the player: online, playing or last seen; with Follow and Block
// for a signed-in visitor who is not the player.
export function standingLine(name) {
  const box = h("div", { class: "standing", id: "profile-standing" });
  fillStanding(box, name);
  return box;
}

async function fillStanding(box, name) {
  let s;
  try {
    s = await api.standing(name);
  } catch {
    return;
  }
  const me = currentAccount();
  const presence = s.online
    ? h("span", { class: "presence" }, [h("span", { class: "presence-dot on", "aria-hidden": "true" }), _("Online now")])
    : h("span", { class: "presence muted", text: s.last_seen ? lastSeen(s.last_seen) : "" });
  const parts = [presence];
  if (s.playing) {
    parts.push(h("a", { class: "watch-link", id: "profile-watch", href: `/play/${encodeURIComponent(s.playing)}`,
      "data-link": "1", text: _("Playing now: watch") }));
  }
  if (me && !sameName(me.name, s.name)) {
    const toggle = (id, on, yes, no, what, done) => h("button", { type: "button", id, class: on ? "pressed" : "",
      "aria-pressed": on ? "true" : "false", onclick: async (e) => {
        e.target.disabled = true;
        try {
          await api.relate(s.name, what, !on);
          if (done) toast(done(!on), "info", 4000);
        } catch (err) {
          toast(errorText(err), "error");
        }
        fillStanding(box, name);
      } }, [on ? no : yes]);
    parts.push(h("span", { class: "standing-actions" }, [
      s.blocked ? null : challengeButton(s.name, { id: "challenge-button", class: "challenge-button primary" }),
      s.blocked ? null : toggle("follow-button", s.following, _("Follow"), _("Unfollow"), "follow"),
      toggle("block-button", s.blocked, _("Block"), _("Unblock"), "block", (now) => now
        ? fmt(_("You blocked {name}: no challenges and no chat from them."), { name: s.name })
        : fmt(_("You unblocked {name}."), { name: s.name })),
    ]));
  }
  box.replaceChildren(...parts);
}

// /following: the players you follow, who of them is online and what they play.
export async function renderFollowing(root) {
  pageTitle(_("Following"));
  if (!currentAccount()) {
    needSignIn(root, _("Following"));
    return;
  }
  root.replaceChildren(h("p", { class: "loading", text: _("Loading…") }));
  let people;
  try {
    people = await api.following();
  } catch (err) {
    fatal(root, _("The list could not be loaded"), errorText(err));
    return;
  }
  people.sort((a, b) => Number(b.online) - Number(a.online));
  root.replaceChildren(h("section", { class: "card page following" }, [
    h("h1", { text: _("Following") }),
    people.length
      ? h("ul", { class: "people-list", id: "following-list" }, people.map(personRow))
      : h("p", { class: "muted", text: _("You follow nobody yet: follow players from their profile page.") }),
  ]));
}
