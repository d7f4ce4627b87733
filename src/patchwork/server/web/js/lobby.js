// The lobby (`/lobby`): the live list of open challenges from the `/ws/lobby` websocket
// (docs/accounts.md), a form to create one, "Play someone now" (quick pairing, with the
// offer of a bot after a wait), Accept buttons, your own challenge with Cancel, and the bots
// (lobbybots.js), always there. A challenge lives while its creator's lobby connection does:
// leaving this page takes yours away. When a game starts for you (`paired`, or `bot_game`)
// its seat token is saved as the start screen saves it and the page goes to the game.

import { currentAccount, ratingNum, ratingText, refreshAccount } from "./account.js";
import { pageTitle } from "./accountpages.js";
import { _, currentLanguage, fmt } from "./i18n.js";
import { SESSION_ENDED, backoff, openSocket } from "./socket.js";
import { saveSeat, loadPrefs, savePrefs } from "./store.js";
import { botTag, errorText, h, keepSame, toast } from "./ui.js";
import { BotOffer, botRow, ratedTag } from "./lobbybots.js";
import { OnlineCard } from "./people.js";
import { clockFields, clockText, numberField, readTerms, rulesFields, rulesText } from "./terms.js";
import { ChatPanel } from "./chat.js";
import { tournamentsCard } from "./lobbytournaments.js";

export { clockText, rulesText };

function seekRules(seek) {
  return seek.rules || { edition: seek.edition, rotation: seek.rotation, flip: seek.flip };
}

export class LobbyScreen {
  constructor(root, { navigate }) {
    this.root = root;
    this.navigate = navigate;
    this.seeks = [];
    this.mine = new Set(); // the ids of the challenges this page made
    this.you = null;
    this.ws = null;
    this.closed = false;
    this.attempt = 0;
    this.timer = null;
    this.nextId = 1;
    this.pending = new Map();
    this.bots = [];
    this.quick = null;
    this.quickRated = false; // what the waiting quick pairing asked for
    this.online = new OnlineCard();
    this.offer = new BotOffer({ play: (bot, button) => this.playBot(bot, this.quickRated, button) });
  }

  destroy() {
    this.closed = true;
    this.offer.stop();
    this.online.stop();
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
  }

  async start() {
    pageTitle(_("Lobby"));
    this.layout();
    this.online.start();
    this.connect();
    // Proxies drop quiet connections: a ping now and then keeps this one (and your seek) alive.
    this.pinger = setInterval(() => this.send({ type: "ping" }), 25000);
  }

  // -- the websocket ---------------------------------------------------------------------------

  connect() {
    if (this.closed) return;
    const ws = openSocket("/ws/lobby", () => ({ type: "hello", lang: currentLanguage() }),
      (msg) => this.onMessage(msg));
    this.ws = ws;
    this.setConnection(this.attempt ? "reconnecting" : "connecting");
    ws.onclose = (event) => {
      if (this.ws !== ws || this.closed) return;
      if (event.code === SESSION_ENDED) refreshAccount(); // signed out: the page shows it
      // The server forgot our challenges with the connection.
      this.mine.clear();
      this.setQuick(null);
      this.setConnection("offline");
      const delay = backoff(this.attempt);
      this.attempt += 1;
      this.timer = setTimeout(() => this.connect(), delay);
    };
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  onMessage(msg) {
    if (this.chat && this.chat.onMessage(msg)) return; // chat.js: the lobby's room
    switch (msg.type) {
      case "welcome":
        this.attempt = 0;
        this.you = msg.you || null;
        this.setConnection("online");
        this.bots = msg.bots || [];
        this.offerAfter = msg.bot_offer_after;
        this.renderBots();
        this.setQuick(msg.quick || null);
        this.setSeeks(msg.seeks || []);
        break;
      case "seeks_changed": {
        // Only what changed since the welcome or the last change: merged into the list.
        const byId = new Map(this.seeks.map((s) => [s.id, s]));
        for (const id of msg.removed || []) byId.delete(id);
        for (const s of msg.seeks || []) byId.set(s.id, s);
        this.setQuick(msg.quick || null);
        this.setSeeks([...byId.values()].sort((a, b) => a.created_at - b.created_at));
        break;
      }
      case "ack":
        if (msg.of === "seek" && msg.seek_id) this.mine.add(msg.seek_id);
        if (msg.of === "quick" && msg.seek_id) this.setQuick(msg.seek_id);
        this.renderSeeks();
        break;
      case "paired":
        this.paired(msg);
        break;
      case "bot_game":
        if (this.closed) break;
        saveSeat(msg.game_id, msg.token, msg.seat);
        this.navigate(`/play/${msg.game_id}`);
        break;
      case "error":
        this.say(errorText(msg), "error");
        this.renderSeeks();
        this.renderBots();
        this.offer.ready();
        break;
      default:
        break;
    }
  }

  paired(msg) {
    if (this.closed) return;
    saveSeat(msg.game_id, msg.token, msg.seat);
    toast(_("An opponent is found: the game begins."), "good", 4000);
    this.navigate(`/play/${msg.game_id}`);
  }

  // Quick pairing waits (an id) or not (null): while it waits, the offer of a bot counts down.
  setQuick(id) {
    if (id && !this.quick) {
      const you = this.you || {};
      const bot = this.bots.find((b) => b.level === you.nearest_bot);
      this.offer.start(this.offerAfter, bot, Boolean(bot && bot.rated && this.quickRated));
    } else if (!id) {
      this.offer.stop();
    }
    this.quick = id;
  }

  // A game against a bot, at once (the server withdraws our challenges and quick pairing).
  playBot(bot, rated, button) {
    if (button) button.disabled = true;
    if (this.send({ type: "play_bot", level: bot.level, rated })) this.say(_("Starting the game…"), "waiting");
    else {
      if (button) button.disabled = false;
      this.say(_("Not connected to the lobby. Try again in a moment."), "error");
    }
  }

  // The server marks the seeks made on this connection.
  isMine(seek) {
    return seek.mine === true || this.mine.has(seek.id);
  }

  setSeeks(seeks) {
    this.seeks = seeks;
    // A challenge of ours that is gone (accepted, expired) is not ours to cancel any more.
    const ids = new Set(seeks.map((s) => s.id));
    for (const id of [...this.mine]) if (!ids.has(id)) this.mine.delete(id);
    this.renderSeeks();
  }

  // -- the page --------------------------------------------------------------------------------

  setConnection(status) {
    if (!this.els) return;
    const words = {
      connecting: _("Connecting…"),
      reconnecting: _("Reconnecting…"),
      online: _("Connected"),
      offline: _("Connection lost: reconnecting…"),
    };
    this.els.connection.textContent = words[status] || "";
    this.els.connection.dataset.status = status;
  }

  say(text, kind = "info") {
    this.els.status.textContent = text;
    this.els.status.dataset.kind = kind;
  }

  layout() {
    const me = currentAccount();
    const prefs = loadPrefs();
    this.chat = new ChatPanel({ send: (m) => this.send(m) }); // chat.js: the lobby's room
    this.els = {
      connection: h("span", { class: "connection", id: "lobby-connection", "aria-live": "polite" }),
      list: h("ul", { class: "seek-list", id: "seek-list", "aria-live": "polite" }),
      bots: h("ul", { class: "seek-list bot-list", id: "bot-list", "aria-labelledby": "bots-title" }),
      quick: h("div", { class: "quick-wait", id: "quick-wait" }),
      status: h("p", { class: "lobby-status", id: "lobby-status", role: "status" }),
    };
    const number = numberField;
    const form = h("form", { class: "card seek-form", id: "seek-form", novalidate: true });
    const clock = clockFields(prefs);
    const rated = h("label", { class: "check" }, [
      h("input", { type: "checkbox", name: "rated", id: "seek-rated", checked: me ? prefs.seekRated !== false : false, disabled: !me }),
      h("span", { text: _("Rated") }),
    ]);
    const range = h("fieldset", { class: "choice rating-range" }, [
      h("legend", { text: _("Opponent's rating (optional)") }),
      h("div", { class: "clock-fields" }, [
        number("rating_min", _("From"), { min: 0, max: 4000, step: 50, placeholder: "1200" }),
        number("rating_max", _("To"), { min: 0, max: 4000, step: 50, placeholder: "1800" }),
      ]),
    ]);
    form.append(
      h("h2", { text: _("Create a challenge") }),
      ...rulesFields(prefs),
      clock.element,
      h("fieldset", { class: "choice" }, [h("legend", { text: _("Rating") }), rated,
        me ? h("p", { class: "muted small", text: _("A rated game changes both players' ratings. No undo or hints.") })
          : h("p", { class: "muted small" }, [_("Rated games need an account."), " ",
            h("a", { href: "/signin?next=/lobby", "data-link": "1", text: _("Sign in") })])]),
      range,
      h("div", { class: "actions" }, [
        h("button", { type: "submit", class: "primary", id: "create-seek", text: _("Create the challenge") }),
      ]),
    );
    const sync = () => {
      clock.sync(form);
      range.hidden = !form.elements.rated.checked;
    };
    form.addEventListener("change", sync);
    sync();
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      this.createSeek(form);
    });
    this.form = form;

    const quickRated = h("input", { type: "checkbox", id: "quick-rated", checked: Boolean(me), disabled: !me });
    const quick = h("section", { class: "card quick", "aria-labelledby": "quick-title" }, [
      h("h2", { id: "quick-title", text: _("Play someone now") }),
      h("p", { class: "muted", text: _("We pair you with the next player waiting whose rating is close to yours: 10 minutes + 5 s a move.") }),
      h("label", { class: "check" }, [quickRated, h("span", { text: _("Rated") })]),
      this.els.quick,
      h("div", { class: "actions" }, [
        h("button", { type: "button", class: "primary big", id: "quick-play", onclick: () => {
          this.quickRated = quickRated.checked;
          if (!this.send({ type: "quick", rated: quickRated.checked })) {
            this.say(_("Not connected to the lobby. Try again in a moment."), "error");
          }
        } }, [_("Play someone now")]),
      ]),
    ]);
    const you = me
      ? h("p", { class: "muted" }, [fmt(_("You play as {name} (rating {rating})."),
        { name: me.name, rating: ratingText(me.rating, me.provisional) })])
      : h("p", { class: "muted" }, [_("You are a guest: you can play casual games."), " ",
        h("a", { href: "/signin?next=/lobby", "data-link": "1", text: _("Sign in") }), " ",
        h("a", { href: "/signup?next=/lobby", "data-link": "1", text: _("Sign up") })]);
    this.root.replaceChildren(h("div", { class: "lobby" }, [
      h("section", { class: "card lobby-list", "aria-labelledby": "lobby-title" }, [
        h("div", { class: "lobby-head" }, [h("h1", { id: "lobby-title", text: _("Lobby") }), this.els.connection]),
        you,
        this.els.status,
        h("h2", { text: _("Open challenges") }),
        this.els.list,
      ]),
      h("div", { class: "lobby-side" }, [quick, tournamentsCard(), this.online.element, this.chat.element, form]),
      // Its own card, so that on a phone it can come after "Play someone now" (app.css).
      h("section", { class: "card lobby-bots", "aria-labelledby": "bots-title" }, [
        h("h2", { id: "bots-title", text: _("Bots") }),
        h("p", { class: "muted", text: _("The computer at each level, always here: the game starts at once.") }),
        this.els.bots,
      ]),
    ]));
    this.renderSeeks();
    this.renderBots();
  }

  renderBots() {
    if (!this.els) return;
    keepSame(this.els.bots, this.bots.map((bot) => botRow(bot, (b, button) => this.playBot(b, true, button))));
  }

  createSeek(form) {
    const me = currentAccount();
    const v = (name) => form.elements[name].value.trim();
    const terms = readTerms(form);
    const rated = Boolean(me) && form.elements.rated.checked;
    const msg = { type: "seek", rules: terms.rules, clock: terms.clock, rated };
    if (rated && v("rating_min")) msg.rating_min = Number(v("rating_min"));
    if (rated && v("rating_max")) msg.rating_max = Number(v("rating_max"));
    savePrefs({ ...terms.prefs, seekRated: rated });
    if (this.send(msg)) this.say(_("Your challenge is open: it stays while this page is open."), "waiting");
    else this.say(_("Not connected to the lobby. Try again in a moment."), "error");
  }

  renderSeeks() {
    if (!this.els) return;
    const me = currentAccount();
    const list = this.els.list;
    // Play someone now: while the server looks, say so, with a way to stop.
    const quickButton = this.root.querySelector("#quick-play");
    if (quickButton) quickButton.disabled = Boolean(this.quick);
    this.els.quick.replaceChildren(...(this.quick ? [
      h("p", { class: "lobby-status", "data-kind": "waiting", text: _("Looking for an opponent…") }),
      this.offer.node,
      h("button", { type: "button", id: "cancel-quick", onclick: () => this.cancel(this.quick) }, [_("Stop looking")]),
    ] : []));
    const seeks = this.seeks;
    if (!seeks.length) {
      list.replaceChildren(h("li", { class: "muted empty", text: _("No open challenges. Create one, or play someone now.") }));
    } else {
      keepSame(list, seeks.map((s) => {
        const mine = this.isMine(s);
        const range = s.rating_min || s.rating_max
          ? fmt(_("for ratings {low}–{high}"), { low: s.rating_min ? ratingNum(s.rating_min) : "…",
            high: s.rating_max ? ratingNum(s.rating_max) : "…" }) : null;
        const action = mine
          ? h("button", { type: "button", class: "cancel-seek", onclick: () => this.cancel(s.id) }, [_("Cancel")])
          : s.rated && !me
            ? h("a", { class: "button", href: "/signin?next=/lobby", "data-link": "1", text: _("Sign in to accept") })
            : h("button", { type: "button", class: "primary accept-seek", onclick: (e) => {
              e.currentTarget.disabled = true;
              if (!this.send({ type: "accept", seek_id: s.id })) e.currentTarget.disabled = false;
              else this.say(_("Starting the game…"), "waiting");
            } }, [_("Accept")]);
        return h("li", { class: "seek" + (mine ? " mine" : ""), "data-seek": s.id, "data-name": s.name }, [
          h("div", { class: "seek-who" }, [
            h("bdi", { class: "seek-name", text: s.name }),
            s.bot ? botTag() : null,
            s.rating !== null && s.rating !== undefined
              ? h("span", { class: "seek-rating", text: ratingText(s.rating, s.provisional) }) : null,
            mine ? h("span", { class: "tag", text: _("your challenge") }) : null,
          ]),
          h("div", { class: "seek-terms" }, [
            ratedTag(s.rated),
            h("span", { class: "seek-clock", text: clockText(s.clock) }),
            h("span", { class: "seek-rules muted", text: rulesText(seekRules(s)) }),
            range ? h("span", { class: "seek-range muted", text: range }) : null,
          ]),
          h("div", { class: "seek-action" }, [action]),
        ]);
      }));
    }
  }

  cancel(id) {
    this.send({ type: "cancel", seek_id: id });
    this.mine.delete(id);
    if (id === this.quick) {
      this.setQuick(null);
      this.renderSeeks();
      return;
    }
    this.say(_("Your challenge is withdrawn."), "info");
  }
}
