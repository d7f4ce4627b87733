// The lobby's bots (docs/accounts.md "The lobby"): the AI levels listed as players, always
// there, each with its fixed rating and a Play button; and, while "Play someone now" waits
// for a person, a countdown to the offer of the bot nearest the player's rating, which the
// player takes or declines ("Keep waiting": the wait goes on and the offer comes again after
// another wait). The server sends the bots, the nearest one and the wait in its `welcome`.

import { ratingNum } from "./account.js";
import { _, fmt } from "./i18n.js";
import { icon } from "./icons.js";
import { aiName } from "./names.js";
import { announce, botTag, h } from "./ui.js";

export function ratedTag(rated) {
  return h("span", { class: "tag " + (rated ? "rated" : "casual"), text: rated ? _("Rated") : _("Casual") });
}

// One bot as a row of the lobby: who (the robot, "AI level 3", "bot", its rating, rated or
// casual for you), how it plays, and Play.
export function botRow(bot, play) {
  const name = aiName(bot.level);
  return h("li", { class: "seek bot", "data-bot": bot.level }, [
    h("div", { class: "seek-who" }, [
      icon("bot", { cls: "bot-icon" }),
      h("span", { class: "seek-name", text: name }),
      botTag(),
      h("span", { class: "seek-rating", text: ratingNum(bot.rating) }),
      ratedTag(bot.rated),
    ]),
    h("div", { class: "seek-terms" }, [
      // The server sends the English text; its translation is in the same catalog.
      h("span", { class: "bot-about muted", text: _(bot.description) }),
    ]),
    h("div", { class: "seek-action" }, [
      h("button", { type: "button", class: "primary play-bot", "aria-label": fmt(_("Play {bot}"), { bot: name }),
        onclick: (e) => play(bot, e.currentTarget) }, [_("Play now")]),
    ]),
  ]);
}

// While quick pairing waits: the seconds left until a bot is offered, then the offer.
// `node` is placed by the lobby; start() when the wait begins, stop() when it ends.
export class BotOffer {
  constructor({ play }) {
    this.play = play; // (bot, button) => void
    this.node = h("div", { class: "bot-offer-wait", id: "bot-offer" });
    this.timer = null;
    this.bot = null;
  }

  // after: seconds to wait; bot: the one to offer; rated: whether its game would be.
  start(after, bot, rated) {
    this.stop();
    if (!bot) return;
    this.after = after;
    this.bot = bot;
    this.rated = rated;
    this.wait();
  }

  wait() {
    this.deadline = Date.now() + this.after * 1000;
    this.offered = false;
    this.tick();
    this.timer = setInterval(() => this.tick(), 250);
  }

  // The offer's buttons work again (the server refused the game: its error is said).
  ready() {
    for (const button of this.node.querySelectorAll("button")) button.disabled = false;
  }

  stop() {
    clearInterval(this.timer);
    this.timer = null;
    this.node.replaceChildren();
  }

  tick() {
    const left = Math.ceil((this.deadline - Date.now()) / 1000);
    if (left > 0) {
      this.node.replaceChildren(h("p", { class: "muted countdown" }, [
        fmt(_("If no one comes, a bot of your strength is offered in {seconds} s."), { seconds: left }),
      ]));
      return;
    }
    clearInterval(this.timer);
    this.timer = null;
    if (!this.offered) this.offer();
  }

  offer() {
    this.offered = true;
    const bot = this.bot;
    const text = fmt(_("No one yet. Play {bot} ({rating}) instead?"),
      { bot: aiName(bot.level), rating: ratingNum(bot.rating) });
    this.node.replaceChildren(h("div", { class: "bot-offer", "data-bot": bot.level }, [
      h("p", { class: "bot-offer-text" }, [icon("bot", { cls: "bot-icon" }),
        h("span", {}, [h("span", { text }), " ", ratedTag(this.rated)])]),
      h("div", { class: "actions" }, [
        h("button", { type: "button", class: "primary", id: "offer-play", onclick: (e) => this.play(bot, e.currentTarget) },
          [_("Play the bot")]),
        h("button", { type: "button", id: "offer-wait", onclick: () => this.wait() }, [_("Keep waiting")]),
      ]),
    ]));
    announce(text);
  }
}
