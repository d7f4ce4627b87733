// Challenges to a named player (docs/web.md "Challenges"): the dialog that makes one (from a
// profile or the lobby's list of who is online), and on every page a card for each
// challenge to you (who, rules, clock, rated; Accept, Decline with a reason) and for each of
// yours ("Waiting…" with Cancel, then the answer). Changes come live over the account's own
// socket (me.js); after each (re)connection, and now and then, the open challenges are read
// again over HTTP, so nothing said while the socket was down is missed. Accepted, both
// players go to the game. A rematch between two accounts is such a challenge too.
// Names are text, never HTML.

import { api } from "./api.js";
import { currentAccount, onAccount, ratingText } from "./account.js";
import { _, fmt, sentence } from "./i18n.js";
import { ratedTag } from "./lobbybots.js";
import { onMe } from "./me.js";
import { loadPrefs, savePrefs } from "./store.js";
import { choice, clockFields, clockText, readTerms, rulesFields, rulesText } from "./terms.js";
import { botTag, errorText, fmtNodes, h, toast, closedBy } from "./ui.js";

const POLL_MS = 30000; // how often the open challenges are read again (a message lost)

// Why a challenge is declined: the server's closed set, in the same words (docs/server.md).
const REASONS = {
  generic: () => _("I am not accepting challenges at the moment."),
  later: () => _("This is not the right time for me, please ask again later."),
  too_fast: () => _("This time control is too fast for me, please challenge again with a slower game."),
  too_slow: () => _("This time control is too slow for me, please challenge again with a faster game."),
  time_control: () => _("I am not accepting challenges with this time control."),
  rated: () => _("Please send me a rated challenge instead."),
  casual: () => _("Please send me a casual challenge instead."),
  rules: () => _("I am not accepting challenges with these rules."),
};
// Short words for the list of reasons to choose from.
const REASON_CHOICES = {
  generic: () => _("Not now"),
  later: () => _("Later, please"),
  too_fast: () => _("Too fast"),
  too_slow: () => _("Too slow"),
  time_control: () => _("Not this clock"),
  rated: () => _("Rated only"),
  casual: () => _("Casual only"),
  rules: () => _("Not these rules"),
};

let navigate = (path) => location.assign(path);
let box = null; // the cards, on every page
const cards = new Map(); // challenge id -> its card
const over = new Set(); // the ids of challenges answered (a late message changes nothing)
let timer = null;

function sameName(a, b) {
  return typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
}

function mine(view) {
  const me = currentAccount();
  return Boolean(me && sameName(me.name, view.challenger));
}

export function reasonText(reason) {
  return (REASONS[reason] || REASONS.generic)();
}

// -- the cards ----------------------------------------------------------------------------------

// The terms of a challenge in one line: rated or casual, the clock, the rules, the seats.
function termsLine(view, forChallenger) {
  const seat = view.seat === "random" ? null : forChallenger ? view.seat : 1 - view.seat;
  const seats = seat === null ? _("Seats drawn at random") : seat === 0 ? _("You move first") : _("You move second");
  return h("div", { class: "seek-terms challenge-terms" }, [
    ratedTag(view.rated),
    h("span", { class: "seek-clock", text: clockText(view.clock) }),
    h("span", { class: "seek-rules muted", text: rulesText(view.rules) }),
    view.rated && view.takebacks ? h("span", { class: "muted", text: _("takebacks allowed") }) : null,
    h("span", { class: "muted", text: seats }),
  ]);
}

function place(id, card) {
  if (!box) return;
  const old = cards.get(id);
  if (old) old.replaceWith(card);
  else box.append(card);
  cards.set(id, card);
}

function drop(id) {
  const card = cards.get(id);
  if (card) card.remove();
  cards.delete(id);
}

function nameNode(name, rating, provisional, bot = false) {
  return h("span", { class: "challenge-who" }, [
    h("bdi", { class: "challenge-name", text: name }),
    bot ? botTag() : null,
    rating === undefined ? null : h("span", { class: "seek-rating", text: ratingText(rating, provisional) }),
  ]);
}

// A challenge to you: who, the terms, Accept and Decline (with a reason).
function incomingCard(view) {
  const title = view.rematch_of ? _("{name} offers a rematch") : _("{name} challenges you");
  const accept = h("button", { type: "button", class: "primary challenge-accept", onclick: () => answer(view, "accept", card) },
    [_("Accept")]);
  const reasons = h("select", { class: "challenge-reason", "aria-label": _("Why you decline") },
    Object.entries(REASON_CHOICES).map(([code, words]) => h("option", { value: code, text: words() })));
  const decline = h("button", { type: "button", class: "challenge-decline", onclick: () => {
    if (reasons.hidden) {
      reasons.hidden = false;
      send.hidden = false;
      decline.hidden = true;
      reasons.focus();
    }
  } }, [_("Decline")]);
  const send = h("button", { type: "button", class: "challenge-decline-send", hidden: true,
    onclick: () => answer(view, "decline", card, { reason: reasons.value }) }, [_("Decline")]);
  reasons.hidden = true;
  const card = h("section", { class: "card challenge-card incoming", role: "group", "data-challenge": view.id,
    "aria-label": _("A challenge") }, [
    h("p", { class: "challenge-title" }, fmtNodes(title, { name: nameNode(view.challenger, view.challenger_rating,
      view.challenger_provisional, view.challenger_bot) })),
    termsLine(view, false),
    h("div", { class: "actions" }, [accept, decline, reasons, send]),
  ]);
  return card;
}

// A challenge of yours, waiting for the answer, with Cancel.
function waitingCard(view) {
  const text = view.rematch_of ? _("Waiting for {name} to answer your rematch offer…")
    : _("Waiting for {name} to answer your challenge…");
  const card = h("section", { class: "card challenge-card waiting", role: "group", "data-challenge": view.id,
    "aria-label": _("Your challenge") }, [
    h("p", { class: "challenge-title" }, fmtNodes(text, { name: nameNode(view.challenged, undefined, false, view.challenged_bot) })),
    termsLine(view, true),
    h("div", { class: "actions" }, [
      h("button", { type: "button", class: "challenge-cancel", onclick: () => answer(view, "cancel", card) },
        [_("Cancel")]),
    ]),
  ]);
  return card;
}

// The answer to a challenge of yours that did not become a game: declined (why) or lapsed.
function answeredCard(view) {
  const words = view.status === "declined"
    ? fmt(_("{name} declined your challenge."), { name: view.challenged })
    : fmt(_("{name} did not answer your challenge in time."), { name: view.challenged });
  const card = h("section", { class: "card challenge-card answered", role: "status", "data-challenge": view.id,
    "data-status": view.status }, [
    h("p", { class: "challenge-title", text: words }),
    view.status === "declined" ? h("blockquote", { class: "challenge-reason-text", text: reasonText(view.reason) }) : null,
    h("div", { class: "actions" }, [
      h("button", { type: "button", class: "challenge-dismiss", onclick: () => drop(view.id) }, [_("Dismiss")]),
    ]),
  ]);
  return card;
}

async function answer(view, action, card, body) {
  for (const b of card.querySelectorAll("button, select")) b.disabled = true;
  try {
    const result = await api.answerChallenge(view.id, action, body);
    if (action === "accept") {
      show({ ...result.challenge, status: "accepted", game_id: result.game_id });
    } else {
      show(result);
    }
  } catch (err) {
    toast(errorText(err), "error");
    if (err.code === "challenge_closed" || err.code === "challenge_not_found") {
      refresh();
    } else {
      for (const b of card.querySelectorAll("button, select")) b.disabled = false;
    }
  }
}

function goToGame(gameId) {
  const path = `/play/${encodeURIComponent(gameId)}`;
  if (location.pathname !== path) navigate(path);
  toast(_("The challenge is accepted: the game begins."), "good", 4000);
}

// Draw what is known of a challenge (from a message or a read), once per change.
function show(view) {
  if (!view || !currentAccount() || over.has(view.id)) return;
  const challenger = mine(view);
  switch (view.status) {
    case "open": // drawn once: heard again, it stays as it is (a reason being chosen)
      if (!cards.has(view.id)) place(view.id, challenger ? waitingCard(view) : incomingCard(view));
      break;
    case "accepted":
      over.add(view.id);
      drop(view.id);
      if (view.game_id) goToGame(view.game_id);
      break;
    case "declined":
    case "expired":
      over.add(view.id);
      if (challenger) place(view.id, answeredCard(view));
      else drop(view.id);
      break;
    case "cancelled":
      over.add(view.id);
      if (!challenger && cards.has(view.id)) {
        toast(fmt(_("{name} withdrew the challenge."), { name: view.challenger }), "info", 4000);
      }
      drop(view.id);
      break;
    default:
      break;
  }
}

// Read the open challenges again; a card left open that is no longer among them learns how
// it was answered.
async function refresh() {
  if (!currentAccount()) return;
  let list;
  try {
    list = await api.challenges();
  } catch {
    return; // the next refresh tries again
  }
  const open = new Set();
  for (const view of [...list.incoming, ...list.outgoing]) {
    open.add(view.id);
    if (!cards.has(view.id)) show(view);
  }
  for (const [id, card] of [...cards]) {
    if (open.has(id) || card.classList.contains("answered")) continue;
    try {
      show(await api.challengeOf(id));
    } catch {
      drop(id);
    }
  }
}

function clear() {
  for (const id of [...cards.keys()]) drop(id);
}

// At boot: the cards follow the account (none signed out), live and read again.
export function startChallenges(options = {}) {
  if (options.navigate) navigate = options.navigate;
  box = h("div", { class: "challenge-box", id: "challenge-box", "aria-live": "polite" });
  document.body.append(box);
  onMe("welcome", () => refresh());
  for (const type of ["challenge_new", "challenge_accepted", "challenge_declined", "challenge_cancelled", "challenge_expired"]) {
    onMe(type, (msg) => show(msg.challenge));
  }
  onAccount((account) => {
    if (!account) clear();
  });
  clearInterval(timer);
  timer = setInterval(() => {
    if (document.visibilityState === "visible") refresh();
  }, POLL_MS);
}

// -- making one ----------------------------------------------------------------------------------

// The dialog that challenges the player `name`: rules, clock, rated (and takebacks), seat.
export function openChallenge(name) {
  if (!currentAccount()) {
    toast(_("Sign in to challenge a player."), "info");
    return;
  }
  const prefs = loadPrefs();
  const clock = clockFields(prefs);
  const rated = h("input", { type: "checkbox", name: "rated", id: "challenge-rated", checked: prefs.seekRated !== false });
  const takebacks = h("input", { type: "checkbox", name: "takebacks", id: "challenge-takebacks",
    checked: Boolean(prefs.challengeTakebacks) });
  const takebacksLine = h("label", { class: "check" }, [takebacks, h("span", { text: _("Takebacks allowed") })]);
  const problem = h("p", { class: "form-error", role: "alert", hidden: true });
  const send = h("button", { type: "submit", class: "primary", id: "challenge-send", text: _("Send the challenge") });
  const cancel = h("button", { type: "button", id: "challenge-close", text: _("Cancel") });
  const form = h("form", { class: "challenge-form", method: "dialog", novalidate: true }, [
    h("h2", { id: "challenge-title" }, fmtNodes(_("Challenge {name}"), { name: h("bdi", { text: name }) })),
    ...rulesFields(prefs),
    clock.element,
    h("fieldset", { class: "choice" }, [h("legend", { text: _("Rating") }),
      h("label", { class: "check" }, [rated, h("span", { text: _("Rated") })]),
      takebacksLine,
      h("p", { class: "muted small", text: _("A casual game allows takebacks anyway; a rated one only if you both agree here.") })]),
    h("fieldset", { class: "choice" }, [h("legend", { text: _("Your seat") }),
      choice("seat", [
        { value: "random", title: _("Random") },
        { value: "0", title: _("Move first") },
        { value: "1", title: _("Move second") },
      ], "random")]),
    problem,
    h("div", { class: "dialog-buttons" }, [cancel, send]),
  ]);
  const dialog = h("dialog", { class: "confirm challenge-dialog", "aria-labelledby": "challenge-title" }, [form]);
  const sync = () => {
    clock.sync(form);
    takebacks.disabled = !rated.checked;
    takebacksLine.classList.toggle("muted", !rated.checked);
  };
  form.addEventListener("change", sync);
  sync();
  const close = closedBy(dialog, cancel);
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const terms = readTerms(form);
    const seat = form.querySelector('[name="seat"]:checked').value;
    const body = { to: name, rules: terms.rules, clock: terms.clock, rated: rated.checked,
      takebacks: rated.checked && takebacks.checked, seat: seat === "random" ? "random" : Number(seat) };
    savePrefs({ ...terms.prefs, seekRated: rated.checked, challengeTakebacks: takebacks.checked });
    send.disabled = true;
    try {
      const view = await api.challenge(body);
      close();
      show(view);
    } catch (err) {
      problem.textContent = sentence(errorText(err));
      problem.hidden = false;
      send.disabled = false;
    }
  });
  document.body.append(dialog);
  dialog.showModal();
  send.focus();
}

// A "Challenge" button for the player `name` (not for yourself, nor signed out).
export function challengeButton(name, attrs = {}) {
  const me = currentAccount();
  if (!me || sameName(me.name, name)) return null;
  return h("button", { type: "button", class: "challenge-button", ...attrs, onclick: () => openChallenge(name) },
    [_("Challenge")]);
}

// The rematch of a finished online game between two accounts: a challenge with its terms, the
// seats swapped (the opponent's own offer of it, if open, is accepted instead).
export async function offerRematch(gameId) {
  try {
    const view = await api.challenge({ rematch_of: gameId });
    show(view);
    if (view.status === "open") toast(_("Rematch offered: waiting for your opponent."), "info");
  } catch (err) {
    toast(errorText(err), "error");
  }
}

// Whether a game's rematch is a challenge: online, both seats bound to accounts.
export function rematchByChallenge(game) {
  return Boolean(game && game.mode === "online" && game.seats && game.seats.length === 2 &&
    game.seats.every((s) => s.account));
}
