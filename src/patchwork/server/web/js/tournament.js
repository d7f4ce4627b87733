// One tournament's page (`/tournaments/{id}`, docs/web.md "Tournaments"): its name, terms and
// status with a countdown (to the start, or to an arena's end), Join / Withdraw (an arena:
// Pause / Resume too) for the signed-in reader, the table (Swiss: score, Buchholz,
// Sonneborn-Berger; an arena: points, the flame of two wins in a row, each game's result),
// the rounds' pairings (an arena: the latest games) each a link to its game, and the players.
// It reads the event again every 2 s while it is open or running (one request at a time).
// When a round pairs the reader (the `tournament` notification on /ws/me, or a new game of
// theirs seen in a reading), the page goes to the game at once. Names are text, never HTML.

import { api } from "./api.js";
import { icon } from "./icons.js";
import { currentAccount, ratingText } from "./account.js";
import { pageTitle } from "./accountpages.js";
import { _, fmt, ngettext, num } from "./i18n.js";
import { onMe } from "./me.js";
import { profileLink } from "./players.js";
import { durationText, entrantsText, statusTag, termsItems, whenText } from "./tournaments.js";
import { botTag, errorText, fatal, fmtNodes, h, toast } from "./ui.js";

const POLL_MS = 2000;
const LATEST = 30; // an arena's latest games shown

function sameName(a, b) {
  return typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
}

const person = (name) => h("bdi", { class: "t-name", text: name });

// A game's result as the first player's score: 1–0, ½–½, 0–1 (in the page's digits).
function resultText(result) {
  if (result === 1) return `${num(1)}–${num(0)}`;
  if (result === 0) return `${num(0)}–${num(1)}`;
  return "½–½";
}

// The reader's result letter in an arena's row: W, D, L.
function resultMark(r) {
  const [cls, letter, word] = r === 1 ? ["won", _("W"), _("won")] : r === 0 ? ["lost", _("L"), _("lost")]
    : ["draw", _("D"), _("draw")];
  return h("span", { class: `result-mark ${cls}`, title: word, "aria-label": word, text: letter });
}

// The flame is SVG (no emoji font needed), its words the title and the screen reader's.
function flame() {
  const words = _("On fire: the next game counts double");
  return h("span", { class: "on-fire", title: words }, [icon("flame", { label: words })]);
}

export class TournamentScreen {
  constructor(root, ctx) {
    this.root = root;
    this.ctx = ctx;
    this.id = ctx.tournamentId;
    this.data = null;
    this.drawn = ""; // the JSON last drawn (a reading that changed nothing draws nothing)
    this.poll = null;
    this.ticker = null;
    this.gone = false;
    this.busy = false;
    this.mine = null; // the reader's games seen so far (null before the first reading)
    this.off = [];
  }

  destroy() {
    this.gone = true;
    clearTimeout(this.poll);
    clearInterval(this.ticker);
    for (const f of this.off) f();
  }

  async start() {
    pageTitle(_("Tournament"));
    this.root.replaceChildren(h("p", { class: "loading", text: _("Loading…") }));
    let data;
    try {
      data = await api.tournament(this.id);
    } catch (err) {
      fatal(this.root, err.code === "tournament_not_found" ? _("No such tournament") : _("The tournament could not be loaded"),
        errorText(err), [h("a", { class: "button", href: "/tournaments", "data-link": "1", text: _("All tournaments") })]);
      return;
    }
    if (this.gone) return;
    this.off.push(onMe("notification", (msg) => this.notified(msg.notification)));
    this.ticker = setInterval(() => this.tick(), 1000);
    this.update(data);
  }

  // -- reading ----------------------------------------------------------------------------------

  live() {
    return this.data && (this.data.status === "open" || this.data.status === "running");
  }

  schedule() {
    clearTimeout(this.poll);
    if (!this.gone && this.live()) this.poll = setTimeout(() => this.read(), POLL_MS);
  }

  async read() {
    if (this.gone || this.busy) return;
    this.busy = true;
    try {
      const data = await api.tournament(this.id);
      if (!this.gone) this.update(data);
    } catch {
      this.schedule(); // read again at the next turn
    } finally {
      this.busy = false;
    }
  }

  update(data) {
    this.data = data;
    pageTitle(data.name);
    const me = currentAccount();
    const pending = this.myGames(data, me);
    if (this.mine === null) {
      this.mine = new Set(pending);
    } else {
      const fresh = pending.find((id) => !this.mine.has(id));
      for (const id of pending) this.mine.add(id);
      if (fresh) {
        this.play(fresh);
        return;
      }
    }
    const json = JSON.stringify(data);
    if (json !== this.drawn) {
      this.drawn = json;
      this.draw();
    }
    this.schedule();
  }

  // The ids of the reader's games being played.
  myGames(data, me) {
    if (!me) return [];
    const out = [];
    for (const round of data.rounds_played) {
      for (const p of round.pairings) {
        if (p.game_id && p.result === null && (sameName(p.first, me.name) || sameName(p.second, me.name))) out.push(p.game_id);
      }
    }
    return out;
  }

  play(gameId) {
    if (this.gone) return;
    this.destroy();
    toast(_("Your tournament game is ready."), "good", 4000);
    this.ctx.navigate(`/play/${encodeURIComponent(gameId)}`);
  }

  notified(n) {
    const a = n && n.about;
    if (!a || a.kind !== "tournament" || a.tournament_id !== this.id || this.gone) return;
    if (a.game_id) {
      if (this.mine) this.mine.add(a.game_id);
      this.play(a.game_id);
    } else {
      toast(fmt(_("Round {round}: you have a bye."), { round: a.round }), "info", 5000);
      this.read();
    }
  }

  async act(action, button) {
    button.disabled = true;
    try {
      const data = await api.tournamentAction(this.id, action);
      if (this.gone) return;
      const said = { join: _("You joined the tournament."), withdraw: _("You withdrew from the tournament."),
        pause: _("You are paused: you will not be paired until you resume."), resume: _("Welcome back: you will be paired again.") };
      toast(said[action], "good", 3000);
      this.update(data);
      const again = document.querySelector(".tournament-actions button");
      if (again) again.focus();
    } catch (err) {
      toast(errorText(err), "error");
      button.disabled = false;
    }
  }

  // -- drawing ----------------------------------------------------------------------------------

  tick() {
    const node = this.root.querySelector("#tournament-countdown");
    if (node) node.textContent = this.countdown();
  }

  countdown() {
    const t = this.data;
    const now = Date.now() / 1000;
    if (t.status === "open") {
      return t.starts_at > now ? fmt(_("Starts in {time}"), { time: durationText(t.starts_at - now) }) : _("Starting…");
    }
    if (t.status === "running" && t.kind === "arena" && t.ends_at) {
      return t.ends_at > now ? fmt(_("Ends in {time}"), { time: durationText(t.ends_at - now) }) : _("Finishing the last games…");
    }
    return "";
  }

  progress() {
    const t = this.data;
    if (t.kind === "arena") {
      if (t.status === "finished") return fmt(_("Finished {when}"), { when: whenText(t.finished_at || t.ends_at) });
      return t.status === "open" ? fmt(_("Starts {when}"), { when: whenText(t.starts_at) }) : "";
    }
    if (t.status === "open") return fmt(_("Starts {when}"), { when: whenText(t.starts_at) });
    if (t.status === "running") return fmt(_("Round {round} of {rounds}"), { round: t.round, rounds: t.rounds });
    if (t.status === "finished") {
      return t.ended_early ? fmt(ngettext("Ended early, after {n} round: no more pairings without a rematch.",
        "Ended early, after {n} rounds: no more pairings without a rematch.", t.round), {})
        : fmt(ngettext("Finished after {n} round", "Finished after {n} rounds", t.round), {});
    }
    return t.status === "cancelled" ? _("Cancelled: fewer than 2 players came.") : "";
  }

  draw() {
    const t = this.data;
    const me = currentAccount();
    const focused = document.activeElement && document.activeElement.id;
    const arena = t.kind === "arena";
    const page = h("div", { class: `page tournament ${arena ? "arena" : "swiss"}`, "data-status": t.status }, [
      this.head(me),
      h("section", { class: "card tournament-standings", "aria-labelledby": "standings-title" }, [
        h("h2", { id: "standings-title", text: _("Standings") }),
        arena ? this.arenaTable(me) : this.swissTable(me),
      ]),
      arena ? this.latestGames(me) : this.rounds(me),
      this.players(me),
    ]);
    this.root.replaceChildren(page);
    if (focused) {
      const again = document.getElementById(focused);
      if (again) again.focus();
    }
  }

  head(me) {
    const t = this.data;
    const mine = me ? t.players.find((p) => sameName(p.name, me.name)) : null;
    const inIt = Boolean(mine && !mine.withdrawn);
    const game = this.currentGame(me);
    return h("section", { class: "card tournament-head", "aria-labelledby": "tournament-title" }, [
      h("p", { class: "tournament-back" }, [h("a", { href: "/tournaments", "data-link": "1", text: _("All tournaments") })]),
      h("h1", { id: "tournament-title" }, [h("bdi", { text: t.name })]),
      h("div", { class: "tournament-terms" }, termsItems(t, { full: true })),
      h("p", { class: "tournament-progress" }, [
        statusTag(t),
        h("span", { id: "tournament-round", text: this.progress() }),
        h("strong", { id: "tournament-countdown", class: "countdown", role: "timer", text: this.countdown() }),
      ]),
      t.created_by ? h("p", { class: "muted small" }, fmtNodes(_("Created by {name}"), { name: profileLink(t.created_by) })) : null,
      game ? h("p", { class: "my-game" }, [
        h("a", { class: "button primary big", id: "my-game", href: `/play/${encodeURIComponent(game.game_id)}`, "data-link": "1" },
          fmtNodes(_("Your game against {name}: play now"), { name: person(game.opponent) })),
      ]) : null,
      this.actions(me, mine, inIt),
    ]);
  }

  // The reader's game being played (the latest), with the opponent's name.
  currentGame(me) {
    if (!me) return null;
    for (const round of [...this.data.rounds_played].reverse()) {
      for (const p of round.pairings) {
        if (!p.game_id || p.result !== null) continue;
        if (sameName(p.first, me.name)) return { game_id: p.game_id, opponent: p.second };
        if (sameName(p.second, me.name)) return { game_id: p.game_id, opponent: p.first };
      }
    }
    return null;
  }

  actions(me, mine, inIt) {
    const t = this.data;
    const open = t.status === "open";
    const running = t.status === "running";
    if (!open && !running) return null;
    if (!me) {
      const back = encodeURIComponent(location.pathname);
      return h("p", { class: "muted tournament-actions" }, [_("Sign in to join this tournament."), " ",
        h("a", { href: `/signin?next=${back}`, "data-link": "1", text: _("Sign in") }), " ",
        h("a", { href: `/signup?next=${back}`, "data-link": "1", text: _("Sign up") })]);
    }
    const button = (action, text, primary = false) => h("button", { type: "button", id: `tournament-${action}`,
      class: primary ? "primary" : null, onclick: (e) => this.act(action, e.currentTarget) }, [text]);
    const out = [];
    const arena = t.kind === "arena";
    if (!inIt && (open || arena)) out.push(button("join", _("Join"), true));
    if (inIt) {
      if (arena) out.push(mine.paused ? button("resume", _("Resume"), true) : button("pause", _("Pause")));
      out.push(button("withdraw", _("Withdraw")));
    }
    const note = inIt ? (mine.paused ? _("You are paused.") : _("You are in."))
      : mine && mine.withdrawn ? _("You withdrew.") : null;
    return h("div", { class: "actions tournament-actions" }, [
      note ? h("span", { class: "tournament-you", id: "tournament-you", text: note }) : null, ...out]);
  }

  swissTable(me) {
    const t = this.data;
    if (!t.standings.length || t.status === "open") return h("p", { class: "muted", text: _("The table starts with the first round.") });
    const withdrawn = new Set(t.players.filter((p) => p.withdrawn).map((p) => p.name));
    const score = (n) => num(n);
    return h("table", { class: "standings", id: "standings" }, [
      h("thead", {}, [h("tr", {}, [
        h("th", { scope: "col", class: "place", text: _("Rank") }),
        h("th", { scope: "col", text: _("Player") }),
        h("th", { scope: "col", class: "num", text: _("Score") }),
        // The tie-breaks by name, on a phone in short (the whole name its title).
        h("th", { scope: "col", class: "num", title: _("Buchholz: the sum of the opponents' scores") }, [
          h("span", { class: "long", text: _("Buchholz") }),
          h("abbr", { class: "short", "aria-hidden": "true", text: _("BH") })]),
        h("th", { scope: "col", class: "num", title: _("Sonneborn-Berger: the scores of the opponents beaten, and half of those drawn") }, [
          h("span", { class: "long", text: _("Sonneborn-Berger") }),
          h("abbr", { class: "short", "aria-hidden": "true", text: _("SB") })]),
      ])]),
      h("tbody", {}, t.standings.map((s) => h("tr", { class: me && sameName(me.name, s.name) ? "me" : null, "data-player": s.name }, [
        h("td", { class: "place", text: num(s.place) }),
        h("th", { scope: "row" }, [this.nameCell(s.name, s.rating,
          withdrawn.has(s.name) ? h("span", { class: "tag withdrawn-tag", text: _("withdrew") }) : null)]),
        h("td", { class: "num score", text: score(s.score) }),
        h("td", { class: "num", text: score(s.buchholz) }),
        h("td", { class: "num", text: score(s.sonneborn_berger) }),
      ]))),
    ]);
  }

  arenaTable(me) {
    const t = this.data;
    if (!t.arena_standings.length || t.status === "open") return h("p", { class: "muted", text: _("The table starts with the first games.") });
    return h("table", { class: "standings", id: "standings" }, [
      h("thead", {}, [h("tr", {}, [
        h("th", { scope: "col", class: "place", text: _("Rank") }),
        h("th", { scope: "col", text: _("Player") }),
        h("th", { scope: "col", class: "optional", text: _("Results") }),
        h("th", { scope: "col", class: "num", text: _("Games") }),
        h("th", { scope: "col", class: "num", text: _("Points") }),
      ])]),
      h("tbody", {}, t.arena_standings.map((s) => h("tr", { class: me && sameName(me.name, s.name) ? "me" : null, "data-player": s.name }, [
        h("td", { class: "place", text: num(s.place) }),
        h("th", { scope: "row" }, [this.nameCell(s.name, s.rating), s.on_fire ? flame() : null]),
        h("td", { class: "optional results" }, [h("span", { class: "result-marks" }, s.results.map(resultMark))]),
        h("td", { class: "num", text: num(s.games) }),
        h("td", { class: "num score", text: num(s.points) }),
      ]))),
    ]);
  }

  nameCell(name, rating, extra = null) {
    const p = this.data.players.find((x) => x.name === name);
    return h("span", { class: "t-player" }, [
      profileLink(name),
      p && p.bot ? botTag() : null,
      h("span", { class: "seek-rating small", text: ratingText(rating, p ? p.provisional : false) }),
      extra,
    ]);
  }

  pairingItem(p, me) {
    const mine = me && (sameName(p.first, me.name) || sameName(p.second, me.name));
    if (p.second === null || !p.game_id) {
      return h("li", { class: `pairing bye${mine ? " me" : ""}` }, [
        h("span", { class: "pairing-players bye-text" }, fmtNodes(_("{name}: a bye (1 point)"), { name: person(p.first) })),
      ]);
    }
    const result = p.result === null
      ? h("span", { class: "tag playing", text: mine ? _("your game: play now") : _("playing") })
      // In the page's direction: the first player's score on the first player's side.
      : h("span", { class: "pairing-result", text: resultText(p.result) });
    return h("li", { class: `pairing${mine ? " me" : ""}${p.result === null ? " live" : ""}` }, [
      h("a", { class: "pairing-link", href: `/play/${encodeURIComponent(p.game_id)}`, "data-link": "1", "data-game": p.game_id }, [
        h("span", { class: "pairing-players" }, [person(p.first), h("span", { class: "muted", text: " – " }), person(p.second)]),
        result,
      ]),
    ]);
  }

  rounds(me) {
    const t = this.data;
    const list = [...t.rounds_played].reverse();
    return h("section", { class: "card tournament-rounds", "aria-labelledby": "rounds-title" }, [
      h("h2", { id: "rounds-title", text: _("Rounds") }),
      list.length ? h("ol", { class: "round-list", reversed: true }, list.map((r) => h("li", { class: "round", "data-round": r.round }, [
        h("h3", { text: fmt(_("Round {round}"), { round: r.round }) }),
        h("ul", { class: "pairings" }, r.pairings.map((p) => this.pairingItem(p, me))),
      ]))) : h("p", { class: "muted", text: _("The first round is paired at the start.") }),
    ]);
  }

  latestGames(me) {
    const games = [];
    for (const r of [...this.data.rounds_played].reverse()) {
      for (const p of r.pairings) if (p.game_id) games.push(p);
      if (games.length >= LATEST) break;
    }
    return h("section", { class: "card tournament-rounds", "aria-labelledby": "games-title" }, [
      h("h2", { id: "games-title", text: _("Latest games") }),
      games.length ? h("ul", { class: "pairings" }, games.slice(0, LATEST).map((p) => this.pairingItem(p, me)))
        : h("p", { class: "muted", text: _("Players are paired as soon as the arena starts.") }),
    ]);
  }

  players(me) {
    const t = this.data;
    const people = t.players;
    const active = people.filter((p) => !p.withdrawn).length;
    return h("section", { class: "card tournament-players", "aria-labelledby": "players-title" }, [
      h("h2", { id: "players-title", text: entrantsText(active) }),
      people.length ? h("ul", { class: "player-list", id: "tournament-players" }, people.map((p) => h("li", {
        class: `t-entrant${me && sameName(me.name, p.name) ? " me" : ""}${p.withdrawn ? " withdrawn" : ""}`, "data-player": p.name }, [
        profileLink(p.name),
        p.bot ? botTag() : null,
        h("span", { class: "seek-rating small", text: ratingText(p.rating, p.provisional) }),
        p.withdrawn ? h("span", { class: "tag withdrawn-tag", text: _("withdrew") }) : null,
        p.paused ? h("span", { class: "tag paused-tag", text: _("paused") }) : null,
      ]))) : h("p", { class: "muted", text: _("No one has joined yet.") }),
    ]);
  }
}
