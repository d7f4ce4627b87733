// Tournaments (docs/web.md "Tournaments"): the list at `/tournaments` (Upcoming, Running,
// Finished as tabs; `?status=` keeps the tab), the dialog that creates a Swiss event or an
// arena (its rules and clock as the challenge dialog's, terms.js), and the words both this
// page and the event's page (tournament.js) use for an event's terms, start and status.
// Names (of people and of events) are text, never HTML.

import { api } from "./api.js";
import { currentAccount } from "./account.js";
import { pageTitle } from "./accountpages.js";
import { _, currentLanguage, digits, fmt, ngettext, sentence } from "./i18n.js";
import { ratedTag } from "./lobbybots.js";
import { loadPrefs, savePrefs } from "./store.js";
import { clockFields, clockText, choice, numberField, readTerms, rulesFields, rulesText } from "./terms.js";
import { errorText, h, closedBy } from "./ui.js";

// -- words shared with the event's page ----------------------------------------------------------

// "Swiss, 5 rounds" or "Arena, 60 minutes".
export function kindText(t) {
  if (t.kind === "arena") return fmt(ngettext("Arena, {n} minute", "Arena, {n} minutes", t.minutes || 0), {});
  return fmt(ngettext("Swiss, {n} round", "Swiss, {n} rounds", t.rounds), {});
}

// A moment (epoch seconds) in the reader's own time and language.
export function whenText(seconds) {
  const d = new Date(seconds * 1000);
  try {
    return new Intl.DateTimeFormat(currentLanguage(), { dateStyle: "medium", timeStyle: "short" }).format(d);
  } catch {
    return d.toLocaleString();
  }
}

// A length of time as a clock reads it ("4:05", "1:02:09"), in the page's digits.
export function durationText(seconds) {
  const s = Math.max(0, Math.ceil(seconds));
  const hours = Math.floor(s / 3600);
  const minutes = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, "0");
  const text = hours ? `${hours}:${String(minutes).padStart(2, "0")}:${rest}` : `${minutes}:${rest}`;
  return digits(text);
}

export function statusText(t) {
  switch (t.status) {
    case "open": return _("Upcoming");
    case "running": return _("Running");
    case "finished": return _("Finished");
    case "cancelled": return _("Cancelled");
    default: return t.status;
  }
}

export function statusTag(t) {
  return h("span", { class: `tag tournament-status status-${t.status}`, text: statusText(t) });
}

export function entryText(t) {
  return t.entry === "rated" ? _("Established ratings only") : _("Open to everyone");
}

// The terms of an event as small items: kind, rated or casual, clock, rules, who may join.
export function termsItems(t, { full = false } = {}) {
  return [
    h("span", { class: "tournament-kind", text: kindText(t) }),
    ratedTag(t.rated),
    h("span", { class: "tournament-clock", text: clockText(t.clock) }),
    full ? h("span", { class: "muted", text: rulesText(t.rules) }) : null,
    full ? h("span", { class: "muted", text: entryText(t) }) : null,
    full ? h("span", { class: "muted", text: t.bots_allowed ? _("Bots may join") : _("No bots") }) : null,
  ];
}

export function entrantsText(n) {
  return fmt(ngettext("{n} player", "{n} players", n), {});
}

// -- the list --------------------------------------------------------------------------------------

const TABS = [
  { status: "open", title: () => _("Upcoming"), empty: () => _("No tournament is coming up. Create one!") },
  { status: "running", title: () => _("Running"), empty: () => _("No tournament is being played now.") },
  { status: "finished", title: () => _("Finished"), empty: () => _("No tournament has finished yet.") },
];

export function listItem(t) {
  const when = t.status === "finished" && t.finished_at
    ? fmt(_("Finished {when}"), { when: whenText(t.finished_at) })
    : t.status === "open" ? fmt(_("Starts {when}"), { when: whenText(t.starts_at) })
      : fmt(_("Started {when}"), { when: whenText(t.starts_at) });
  return h("li", { class: "tournament-item", "data-tournament": t.id }, [
    h("div", { class: "tournament-item-head" }, [
      h("a", { class: "tournament-name", href: `/tournaments/${encodeURIComponent(t.id)}`, "data-link": "1" },
        [h("bdi", { text: t.name })]),
      statusTag(t),
    ]),
    h("div", { class: "tournament-terms" }, termsItems(t)),
    h("div", { class: "tournament-facts muted small" }, [
      h("span", { class: "tournament-when", text: when }),
      h("span", { class: "tournament-entrants", text: entrantsText(t.entrants) }),
    ]),
  ]);
}

export class TournamentListScreen {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.gone = false;
    const asked = new URLSearchParams(location.search).get("status");
    this.status = TABS.some((t) => t.status === asked) ? asked : "open";
  }

  destroy() {
    this.gone = true;
  }

  async start() {
    pageTitle(_("Tournaments"));
    const me = currentAccount();
    this.list = h("div", { class: "tournament-list-box", id: "tournament-list", role: "tabpanel", "aria-live": "polite" });
    this.tabs = h("div", { class: "tabs", role: "tablist", "aria-label": _("Tournaments") },
      TABS.map((tab) => h("button", { type: "button", role: "tab", class: "tab", id: `tab-${tab.status}`,
        "data-status": tab.status, onclick: () => this.show(tab.status) }, [tab.title()])));
    const create = me
      ? h("div", { class: "actions" }, [h("button", { type: "button", class: "primary", id: "create-tournament",
        onclick: () => openCreate(this.ctx) }, [_("Create a tournament")])])
      : h("p", { class: "muted" }, [_("Sign in to create or join a tournament."), " ",
        h("a", { href: "/signin?next=/tournaments", "data-link": "1", text: _("Sign in") }), " ",
        h("a", { href: "/signup?next=/tournaments", "data-link": "1", text: _("Sign up") })]);
    this.root.replaceChildren(h("div", { class: "page tournaments" }, [
      h("section", { class: "card tournaments-intro" }, [
        h("h1", { text: _("Tournaments") }),
        h("p", { class: "muted", text: _("Swiss events are played in rounds: each round pairs players of equal scores who have not met. In an arena you are paired again as soon as your game ends, until the time is up.") }),
        create,
      ]),
      h("section", { class: "card tournaments-lists", "aria-label": _("Tournaments") }, [this.tabs, this.list]),
    ]));
    await this.show(this.status);
  }

  async show(status) {
    this.status = status;
    const url = status === "open" ? "/tournaments" : `/tournaments?status=${status}`;
    if (location.pathname + location.search !== url) history.replaceState(null, "", url);
    for (const b of this.tabs.querySelectorAll("[role=tab]")) {
      b.setAttribute("aria-selected", String(b.dataset.status === status));
    }
    this.list.setAttribute("aria-labelledby", `tab-${status}`);
    this.list.replaceChildren(h("p", { class: "loading", text: _("Loading…") }));
    this.items = h("ul", { class: "tournament-list" });
    await this.load(status, 0);
  }

  async load(status, page) {
    let found;
    try {
      found = await api.tournaments(status, page);
    } catch (err) {
      if (!this.gone && this.status === status) {
        this.list.replaceChildren(h("p", { class: "form-error", role: "alert", text: sentence(errorText(err)) }));
      }
      return;
    }
    if (this.gone || this.status !== status) return;
    const tab = TABS.find((t) => t.status === status);
    this.items.append(...found.tournaments.map(listItem));
    const out = [this.items];
    if (!this.items.childElementCount) out[0] = h("p", { class: "muted empty", text: tab.empty() });
    if (found.more) {
      out.push(h("button", { type: "button", class: "tournaments-more", text: _("More"), onclick: (e) => {
        e.currentTarget.disabled = true;
        this.load(status, page + 1);
      } }));
    }
    this.list.replaceChildren(...out);
  }
}

// -- creating one ---------------------------------------------------------------------------------

const START_CHOICES = [1, 5, 10, 30, 60]; // minutes from now

function startIn() {
  const select = h("select", { name: "start_in", id: "tournament-start-in" }, [
    ...START_CHOICES.map((m) => h("option", { value: String(m), text: fmt(ngettext("In {n} minute", "In {n} minutes", m), {}) })),
    h("option", { value: "at", text: _("At a time I choose") }),
  ]);
  select.value = "5";
  const at = h("input", { type: "datetime-local", name: "start_at", id: "tournament-start-at" });
  const atLine = h("label", { class: "field small-field", hidden: true }, [h("span", { text: _("Start at") }), at]);
  const element = h("fieldset", { class: "choice" }, [h("legend", { text: _("Start") }),
    h("label", { class: "field small-field" }, [h("span", { class: "visually-hidden", text: _("Start") }), select]), atLine]);
  const sync = () => {
    atLine.hidden = select.value !== "at";
    if (!atLine.hidden && !at.value) {
      const later = new Date(Date.now() + 3600 * 1000);
      later.setSeconds(0, 0);
      at.value = new Date(later.getTime() - later.getTimezoneOffset() * 60000).toISOString().slice(0, 16);
    }
  };
  // The start, epoch seconds (null: no time chosen).
  const read = () => {
    if (select.value !== "at") return Date.now() / 1000 + Number(select.value) * 60;
    const t = new Date(at.value).getTime();
    return Number.isNaN(t) ? null : t / 1000;
  };
  return { element, sync, read };
}

// The dialog that creates an event; created, the page goes to it.
export function openCreate(ctx) {
  const me = currentAccount();
  if (!me) return;
  const prefs = loadPrefs();
  const clock = clockFields(prefs, { required: true });
  const start = startIn();
  const name = h("input", { type: "text", name: "name", id: "tournament-name", maxlength: 60, required: true,
    dir: "auto", autocomplete: "off", value: fmt(_("{name}'s tournament"), { name: me.name }) });
  const rounds = numberField("rounds", _("Rounds"), { min: 1, max: 15, value: 5, id: "tournament-rounds" });
  const minutes = numberField("minutes_long", _("Minutes"), { min: 1, max: 720, value: 60, id: "tournament-minutes" });
  const rated = h("input", { type: "checkbox", name: "rated", id: "tournament-rated", checked: prefs.seekRated !== false });
  const bots = h("input", { type: "checkbox", name: "bots_allowed", id: "tournament-bots" });
  const problem = h("p", { class: "form-error", role: "alert", hidden: true });
  const send = h("button", { type: "submit", class: "primary", id: "tournament-create", text: _("Create the tournament") });
  const cancel = h("button", { type: "button", id: "tournament-cancel", text: _("Cancel") });
  const form = h("form", { class: "tournament-form", method: "dialog", novalidate: true }, [
    h("h2", { id: "tournament-form-title", text: _("Create a tournament") }),
    h("label", { class: "field" }, [h("span", { text: _("Name") }), name]),
    h("fieldset", { class: "choice" }, [h("legend", { text: _("Kind") }),
      choice("kind", [{ value: "swiss", title: _("Swiss") }, { value: "arena", title: _("Arena") }], "swiss"),
      h("div", { class: "clock-fields" }, [rounds, minutes]),
      h("p", { class: "muted small kind-help", id: "tournament-kind-help" })]),
    start.element,
    ...rulesFields(prefs),
    clock.element,
    h("fieldset", { class: "choice" }, [h("legend", { text: _("Rating") }),
      h("label", { class: "check" }, [rated, h("span", { text: _("Rated") })])]),
    h("fieldset", { class: "choice" }, [h("legend", { text: _("Who may join") }),
      choice("entry", [{ value: "everyone", title: _("Everyone") }, { value: "rated", title: _("Established ratings") }], "everyone"),
      h("label", { class: "check" }, [bots, h("span", { text: _("Bots may join") })])]),
    problem,
    h("div", { class: "dialog-buttons" }, [cancel, send]),
  ]);
  const dialog = h("dialog", { class: "confirm challenge-dialog tournament-dialog", "aria-labelledby": "tournament-form-title" }, [form]);
  const kind = () => form.querySelector('[name="kind"]:checked').value;
  const sync = () => {
    clock.sync(form);
    start.sync();
    rounds.hidden = kind() !== "swiss";
    minutes.hidden = kind() !== "arena";
    form.querySelector(".kind-help").textContent = kind() === "swiss"
      ? _("Each round pairs players of equal scores who have not met; one may sit out with a bye.")
      : _("Paired again as soon as your game ends, until the time is up; two wins in a row and your games count double.");
  };
  form.addEventListener("change", sync);
  sync();
  const close = closedBy(dialog, cancel);
  const fail = (text) => {
    problem.textContent = sentence(text);
    problem.hidden = false;
    send.disabled = false;
  };
  form.addEventListener("submit", async (e) => {
    e.preventDefault();
    const terms = readTerms(form);
    const startsAt = start.read();
    if (!name.value.trim()) return fail(_("Give the tournament a name."));
    if (startsAt === null) return fail(_("Choose when the tournament starts."));
    const body = { name: name.value.trim(), kind: kind(), starts_at: Math.round(startsAt), rules: terms.rules,
      clock: terms.clock, rated: rated.checked, bots_allowed: bots.checked };
    if (body.kind === "swiss") body.rounds = Number(form.elements.rounds.value) || 5;
    else body.minutes = Number(form.elements.minutes_long.value) || 60;
    // "everyone" is the server's default: sent only when it is not.
    const entry = form.querySelector('[name="entry"]:checked').value;
    if (entry !== "everyone") body.entry = entry;
    savePrefs({ ...terms.prefs, seekRated: rated.checked });
    send.disabled = true;
    problem.hidden = true;
    try {
      const made = await api.createTournament(body);
      close();
      ctx.navigate(`/tournaments/${encodeURIComponent(made.id)}`);
    } catch (err) {
      fail(errorText(err));
    }
  });
  document.body.append(dialog);
  dialog.showModal();
  name.focus();
}
