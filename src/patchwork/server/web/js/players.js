// The players' pages: a profile (`/players/{name}`: rating ± deviation, the rating history
// chart the server draws, played/won/lost, recent games with their replay and review), the
// leaderboard (`/leaderboard`) and the signed-in player's own games (`/me/games`).

import { api } from "./api.js";
import { currentAccount, ratingNum, ratingText, ratingWithDeviation } from "./account.js";
import { needSignIn, pageTitle } from "./accountpages.js";
import { _, fmt, ngettext, num } from "./i18n.js";
import { storedName } from "./names.js";
import { standingLine } from "./people.js";
import { botTag, errorText, fatal, h } from "./ui.js";

export function profileLink(name, attrs = {}) {
  return h("a", { href: `/players/${encodeURIComponent(name)}`, "data-link": "1", dir: "ltr",
    class: "player-link", ...attrs, text: name });
}

function sameName(a, b) {
  return typeof a === "string" && typeof b === "string" && a.toLowerCase() === b.toLowerCase();
}

function when(iso) {
  if (!iso) return "";
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return "";
  try {
    return d.toLocaleDateString(document.documentElement.lang || undefined,
      { year: "numeric", month: "short", day: "numeric" });
  } catch {
    return d.toLocaleDateString();
  }
}

// One game of a list: both players, the score, how it went for `me`, and where to go.
function gameItem(g, me) {
  const players = g.players || [];
  const seat = g.seat !== null && g.seat !== undefined ? g.seat : players.findIndex((p) => sameName(p, me));
  const r = g.result;
  let outcome = null;
  if (g.status === "finished" && r && seat >= 0) {
    if (r.winner === null || r.winner === undefined) outcome = ["draw", _("draw")];
    else if (r.winner === seat) outcome = ["won", _("won")];
    else outcome = ["lost", _("lost")];
  }
  const scores = r && r.scores ? r.scores.map(num).join(" : ") : "";
  const links = g.status === "finished"
    ? [h("a", { href: `/play/${g.id}?replay=1`, "data-link": "1", class: "button small-button", text: _("Replay") }),
      h("a", { href: `/play/${g.id}?replay=1&review=1`, "data-link": "1", class: "button small-button", text: _("Review") })]
    : [h("a", { href: `/play/${g.id}`, "data-link": "1", class: "button primary small-button", text: _("Continue") })];
  const facts = [];
  if (g.rated) facts.push(_("rated"));
  if (g.clock === "correspondence") facts.push(_("correspondence"));
  if (g.moves !== null && g.moves !== undefined) facts.push(fmt(ngettext("{n} move", "{n} moves", g.moves), {}));
  const date = when(g.updated_at || g.created_at);
  if (date) facts.push(date);
  return h("li", { class: "game-item", "data-game": g.id }, [
    h("div", { class: "game-players" }, [
      players.length === 2 ? h("span", { class: "vs" }, [
        h("bdi", { text: storedName(players[0]) }), h("span", { class: "muted", text: " – " }),
        h("bdi", { text: storedName(players[1]) }),
      ]) : null,
      scores ? h("span", { class: "game-score", text: scores }) : null,
      outcome ? h("span", { class: `tag outcome ${outcome[0]}`, text: outcome[1] }) : null,
      g.status === "active" && g.to_move === seat && seat >= 0 ? h("span", { class: "tag turn-tag", text: _("your turn") }) : null,
    ]),
    h("div", { class: "game-facts muted small", text: facts.join(" · ") }),
    h("div", { class: "game-links" }, links),
  ]);
}

function gameList(games, me, empty) {
  if (!games.length) return h("p", { class: "muted", text: empty });
  return h("ul", { class: "game-list" }, games.map((g) => gameItem(g, me)));
}

export async function renderProfile(root, { name }) {
  pageTitle(name);
  root.replaceChildren(h("p", { class: "loading", text: _("Loading…") }));
  let p;
  try {
    p = await api.player(name);
  } catch (err) {
    if (err.status === 404) {
      fatal(root, _("No such player"), fmt(_("There is no player called {name}."), { name }));
    } else {
      fatal(root, _("The profile could not be loaded"), errorText(err));
    }
    return;
  }
  pageTitle(p.name);
  const me = currentAccount();
  const stat = (label, value, cls) => h("div", { class: cls }, [h("dt", { text: label }), h("dd", { text: num(value) })]);
  const since = when(p.created_at);
  const history = (p.history || []).slice(-10).reverse();
  root.replaceChildren(h("div", { class: "page profile", "data-player": p.name }, [
    h("section", { class: "card profile-head" }, [
      h("h1", { dir: "ltr" }, [p.name, p.bot ? botTag() : null]),
      h("p", { class: "profile-rating" }, [
        h("span", { class: "rating-big", id: "profile-rating", text: ratingText(p.rating, p.provisional) }),
        h("span", { class: "muted", id: "profile-rd", text: ratingWithDeviation(p.rating, p.rd) }),
        p.provisional ? h("span", { class: "tag provisional", title: _("A rating is provisional until it has settled after a few more games."),
          text: _("provisional") }) : null,
      ]),
      since ? h("p", { class: "muted small", text: fmt(_("Playing since {date}"), { date: since }) }) : null,
      standingLine(p.name),
      h("dl", { class: "figures stats" }, [
        stat(_("Games"), p.played, "played"),
        stat(_("Won"), p.won, "won"),
        stat(_("Lost"), p.lost, "lost"),
        stat(_("Drawn"), p.drawn || 0, "drawn"),
      ]),
      me && sameName(me.name, p.name)
        ? h("p", {}, [h("a", { href: "/me/games", "data-link": "1", text: _("My games") }), " · ",
          h("a", { href: "/account", "data-link": "1", text: _("Account") })]) : null,
    ]),
    h("section", { class: "card rating-chart-box", "aria-labelledby": "chart-title" }, [
      h("h2", { id: "chart-title", text: _("Rating history") }),
      h("img", { class: "rating-chart", id: "rating-chart", src: `/api/players/${encodeURIComponent(p.name)}/rating.svg?lang=${document.documentElement.lang || "en"}`,
        alt: history.length
          ? fmt(_("A chart of {name}'s rating over their rated games, now {rating}."), { name: p.name, rating: ratingNum(p.rating) })
          : fmt(_("{name} has no rated games yet."), { name: p.name }),
        loading: "lazy", width: "640", height: "240" }),
      history.length ? h("p", { class: "muted small chart-caption",
        text: _("The rating after each rated game; the band shows how sure it is (twice its deviation either side).") }) : null,
      history.length ? h("table", { class: "history-table" }, [
        h("caption", { class: "visually-hidden", text: _("The last rating changes") }),
        h("thead", {}, [h("tr", {}, [
          h("th", { scope: "col", text: _("Date") }),
          h("th", { scope: "col", text: _("Opponent") }),
          h("th", { scope: "col", text: _("Result") }),
          h("th", { scope: "col", text: _("Rating") }),
        ])]),
        h("tbody", {}, history.map((e) => h("tr", {}, [
          h("td", { text: when(e.at) }),
          h("td", {}, [h("bdi", { text: e.opponent ? storedName(e.opponent) : _("Deleted player") })]),
          h("td", { text: e.score === 1 ? _("won") : e.score === 0 ? _("lost") : _("draw") }),
          h("td", {}, [ratingNum(e.rating), " ", changeSpan(e.change)]),
        ]))),
      ]) : null,
    ]),
    h("section", { class: "card", "aria-labelledby": "recent-games-title" }, [
      h("h2", { id: "recent-games-title", text: _("Recent games") }),
      gameList(p.recent || [], p.name, _("No games yet.")),
    ]),
  ]));
}

// "+12" in green, "−8" in red (and the sign, so colour is not the only mark).
export function changeSpan(change) {
  const c = Math.round(change || 0);
  const text = c > 0 ? `+${num(c)}` : c < 0 ? `−${num(-c)}` : num(0);
  return h("span", { class: "rating-change" + (c > 0 ? " up" : c < 0 ? " down" : ""), dir: "ltr", text });
}

export async function renderLeaderboard(root) {
  pageTitle(_("Leaderboard"));
  root.replaceChildren(h("p", { class: "loading", text: _("Loading…") }));
  let rows;
  try {
    rows = await api.leaderboard(50);
  } catch (err) {
    fatal(root, _("The leaderboard could not be loaded"), errorText(err));
    return;
  }
  const me = currentAccount();
  const body = rows.length ? h("table", { class: "leaderboard", id: "leaderboard" }, [
    h("thead", {}, [h("tr", {}, [
      h("th", { scope: "col", text: _("Rank") }),
      h("th", { scope: "col", text: _("Player") }),
      h("th", { scope: "col", text: _("Rating") }),
      h("th", { scope: "col", class: "optional", text: _("Rated games") }),
    ])]),
    h("tbody", {}, rows.map((r) => h("tr", { class: me && sameName(me.name, r.name) ? "me" : null, "data-player": r.name }, [
      h("td", { class: "rank", text: num(r.rank) }),
      h("th", { scope: "row" }, [profileLink(r.name), r.bot ? botTag() : null]),
      // The leaderboard lists settled ratings only: none is provisional.
      h("td", { class: "rating", text: ratingText(r.rating, false) }),
      h("td", { class: "optional", text: num(r.games) }),
    ]))),
  ]) : h("p", { class: "muted", text: _("No settled ratings yet. Play rated games in the lobby to be the first.") });
  // A wide screen: what the ratings are beside the table, as the lobby's columns.
  root.replaceChildren(h("div", { class: "page leaders" }, [
    h("section", { class: "card leaders-intro" }, [
      h("h1", { text: _("Leaderboard") }),
      h("p", { class: "muted", text: _("Glicko-2 ratings. A new player's rating is provisional (shown with “?”) and is listed here once it has settled, after some rated games against people.") }),
    ]),
    h("section", { class: "card leaders-table", "aria-label": _("Leaderboard") }, [body]),
  ]));
}

export async function renderMyGames(root) {
  pageTitle(_("My games"));
  const me = currentAccount();
  if (!me) return needSignIn(root, _("My games"));
  root.replaceChildren(h("p", { class: "loading", text: _("Loading…") }));
  let active;
  let finished;
  try {
    [active, finished] = await Promise.all([api.myGames("active"), api.myGames("finished")]);
  } catch (err) {
    fatal(root, _("Your games could not be loaded"), errorText(err));
    return;
  }
  // Correspondence games first: they are the ones waiting for days.
  const corr = (g) => (g.clock === "correspondence" ? 0 : 1);
  active = [...active].sort((a, b) => corr(a) - corr(b));
  root.replaceChildren(h("div", { class: "page my-games" }, [
    h("h1", { class: "page-title", text: _("My games") }),
    h("section", { class: "card", id: "games-active", "aria-labelledby": "active-title" }, [
      h("h2", { id: "active-title", text: _("In progress") }),
      gameList(active, me.name, _("No game in progress.")),
      h("p", {}, [h("a", { class: "button", href: "/lobby", "data-link": "1", text: _("Find an opponent in the lobby") })]),
    ]),
    h("section", { class: "card", id: "games-finished", "aria-labelledby": "finished-title" }, [
      h("h2", { id: "finished-title", text: _("Finished") }),
      gameList(finished, me.name, _("No finished games yet.")),
    ]),
  ]));
}
