// The end of a game: who won and why, each score taken apart as the engine counted it
// (buttons, the bonus tile, the empty squares' penalty), the tie-break, and what next.

import { _, currentLanguage, fmt, ngettext, num, sentence } from "./i18n.js";
import { botTag, clearNotices, fmtNodes, h } from "./ui.js";
import { rematchByChallenge } from "./challenges.js";
import { icon } from "./icons.js";
import { QuiltView, piecesBySeat } from "./quilt.js";
import { automaPanel, automaScoreTable } from "./automa.js";
import { ratingNum, ratingText } from "./account.js";

// A seat bound to an account: its name links to the player's profile.
function nameOrLink(g, seat, screen) {
  const info = g.seats[seat];
  if (!info.account) return screen.plainName(seat);
  return h("a", { class: "player-link", href: `/players/${encodeURIComponent(info.name)}`,
    "data-link": "1", dir: "ltr", text: info.name });
}

// A rated game: each account's rating before and after, and the change; "rating…" until
// the server has rated the game (a moment after its end).
function ratingChanges(g, screen) {
  if (!g.rated) return null;
  const seats = [0, 1].filter((s) => g.seats[s].account || (g.ratings && g.ratings[s]));
  if (!seats.length) return null;
  const items = seats.map((seat) => {
    const r = g.ratings ? g.ratings[seat] : null;
    let body;
    if (!r) {
      body = [h("span", { class: "muted rating-pending", text: _("rating…") })];
    } else if (r.counted === false) {
      // Against the AI once the player has met people: the game does not move the rating.
      body = [h("strong", { class: "rating-after", text: ratingText(r.after, r.provisional) }), " ",
        h("span", { class: "muted", text: _("(not counted)") })];
    } else {
      const change = Math.round(r.after) - Math.round(r.before);
      const sign = change > 0 ? `+${num(change)}` : change < 0 ? `−${num(-change)}` : num(0);
      // Before → after reads left to right in every language (the arrow says which way).
      body = [h("span", { class: "rating-move", dir: "ltr" }, [
        h("span", { class: "rating-before", text: ratingNum(r.before) }),
        h("span", { class: "arrow", text: " → " }),
        h("strong", { class: "rating-after", text: ratingText(r.after, r.provisional) }),
        " ",
        h("span", { class: "rating-change" + (change > 0 ? " up" : change < 0 ? " down" : ""),
          text: `(${sign})` }),
      ])];
    }
    return h("li", { "data-seat": String(seat), "data-rating-after": r ? String(Math.round(r.after)) : null,
      "data-rating-change": r ? String(Math.round(r.after) - Math.round(r.before)) : null }, [
      h("span", { class: "who", text: screen.plainName(seat) }), " ", ...body,
    ]);
  });
  return h("section", { class: "rating-changes", id: "rating-changes", "aria-live": "polite",
    "aria-labelledby": "rating-changes-title" }, [
    h("h3", { id: "rating-changes-title", text: _("Ratings") }),
    h("ul", {}, items),
  ]);
}

function termination(g, screen) {
  return sentence(terminationWords(g, screen));
}

function terminationWords(g, screen) {
  const r = g.result;
  const loser = r.winner === null ? null : 1 - r.winner;
  switch (r.termination) {
    case "resigned":
      return fmt(_("{name} resigned."), { name: screen.plainName(loser) });
    case "time":
      return fmt(_("{name} ran out of time."), { name: screen.plainName(loser) });
    case "abandoned":
      return fmt(_("{name} left the game and {winner} claimed it."),
        { name: screen.plainName(loser), winner: screen.plainName(r.winner) });
    default:
      return _("Both time tokens reached the centre of the time board.");
  }
}

// A finished quilt's caption: the crown for the winner, the name and the points (each kept
// whole: on a phone one under the other, never "level / 3 · 25 / points"), and the 7×7 bonus
// in words where the quilt holds it.
function caption(g, seat, won, name, bonus) {
  return h("figcaption", {}, [won ? icon("star", { cls: "crown" }) : null,
    h("strong", { class: "end-name" }, [h("bdi", {}, [name])]),
    g.seats[seat] && g.seats[seat].bot ? botTag() : null,
    h("span", { class: "end-score", text: fmt(ngettext("{n} point", "{n} points", g.scores[seat]), {}) }),
    bonus ? h("span", { class: "tag bonus-tag", text: _("7×7 bonus") }) : null]);
}

// Each score of `seats` taken apart as the engine counted it (the view's `score_parts`):
// buttons, the 7×7 bonus, minus 2 for each empty square; the end screen's and the guided
// first game's final count.
export function scoreTable(g, screen, seats = [0, 1]) {
  const parts = g.score_parts;
  const rows = seats.map((seat) => {
    const p = parts[seat];
    return h("tr", { "data-seat": String(seat) }, [
      h("th", { scope: "row", text: screen.plainName(seat) }),
      h("td", { text: num(p.buttons) }),
      h("td", { text: p.bonus ? `+${num(p.bonus)}` : num(0) }),
      h("td", {}, [
        p.penalty ? `−${num(p.penalty)}` : num(0),
        h("span", { class: "muted small" }, [" ", fmt(ngettext("({n} empty square)",
          "({n} empty squares)", p.empty_squares), {})]),
      ]),
      h("td", { class: "total", text: num(g.scores[seat]) }),
    ]);
  });
  return h("table", { class: "score-table", id: "score-table" }, [
    h("caption", { text: _("How the scores add up") }),
    h("thead", {}, [h("tr", {}, [
      h("th", { scope: "col", text: _("Player") }),
      h("th", { scope: "col", text: _("Buttons") }),
      h("th", { scope: "col", text: _("7×7 bonus") }),
      h("th", { scope: "col", text: _("Empty squares (−2 each)") }),
      h("th", { scope: "col", text: _("Score") }),
    ])]),
    h("tbody", {}, rows),
  ]);
}

export function renderEnd(screen, slot) {
  const g = screen.store.game;
  if (!g || g.status !== "finished" || !g.result) {
    slot.replaceChildren();
    return;
  }
  if (!slot.childElementCount) clearNotices();
  // Solo: the person's score as usual; Automa's by its level's columns, in a table of its own.
  const solo = Boolean(g.automa);
  const seats = solo ? [0] : [0, 1];
  const table = scoreTable(g, screen, seats);
  const notes = [h("p", { text: termination(g, screen) })];
  if (g.result.termination === "finished" && g.scores[0] === g.scores[1] &&
      g.first_to_finish !== null) {
    notes.push(h("p", { class: "tiebreak", text: fmt(_("A tie on points: {name} reached the centre first and wins."),
      { name: screen.plainName(g.first_to_finish) }) }));
  }
  const actions = [];
  const player = screen.seats.length > 0;
  // A tournament's game (the screen asks GET /api/tournaments/of-game once): the way back to the
  // event, and no rematch, since the next game comes by pairing. Between two accounts the
  // rematch waits for that answer (a moment), so that it never shows and then goes.
  const tournament = screen.tournament;
  const waiting = tournament === undefined && rematchByChallenge(g);
  if (tournament) {
    notes.push(h("p", { class: "end-tournament", id: "end-tournament" }, fmtNodes(_("A game of the tournament {name}."),
      { name: h("bdi", { class: "end-tournament-name", text: tournament.name }) })));
    // The player's next game of the event, once paired (game.js hears of it): at the top.
    const next = screen.nextGame;
    if (next) {
      notes.push(h("p", { class: "next-tournament-game" }, [h("a", { class: "button primary big",
        id: "next-tournament-game", "data-link": "1", href: `/play/${encodeURIComponent(next.gameId)}` },
      // (one span: a button lays out its children with gaps between them)
      [h("span", {}, fmtNodes(_("Your next game, against {opponent}: play now"),
        { opponent: h("bdi", { text: next.opponent }) }))])]));
    }
    actions.push(h("a", { class: next ? "button" : "button primary", id: "tournament-link", "data-link": "1",
      href: `/tournaments/${encodeURIComponent(tournament.tournament_id)}` }, [_("Back to the tournament")]));
  } else if (player && !waiting) {
    const offered = g.rematch.offered_by;
    if (offered !== null && !screen.seats.includes(offered)) {
      actions.push(h("button", { type: "button", class: "primary", id: "accept-rematch",
        onclick: () => screen.rematch("accept") }, [_("Accept the rematch")]));
      actions.push(h("button", { type: "button", onclick: () => screen.rematch("decline") },
        [_("Decline")]));
    } else {
      actions.push(h("button", { type: "button", class: "primary", id: "rematch",
        disabled: offered !== null, onclick: () => screen.rematch("offer") },
      [offered !== null ? _("Rematch offered") : _("Rematch")]));
    }
  }
  actions.push(h("a", { class: "button", id: "review-link", href: `/play/${g.id}?replay=1&review=1`,
    "data-link": "1" }, [_("Review this game")]));
  actions.push(h("a", { class: "button", id: "replay-link", href: `/play/${g.id}?replay=1`,
    "data-link": "1" }, [_("Replay the game")]));
  actions.push(h("a", { class: "button", id: "analysis-link", href: `/analysis?game=${g.id}`,
    "data-link": "1" }, [_("Analysis board")]));
  actions.push(h("a", { class: "button", href: `/api/games/${g.id}/record.txt?lang=${currentLanguage()}`, download: `patchwork-${g.id}.txt` },
    [_("Download the record")]));
  actions.push(h("a", { class: "button quiet", href: "/", "data-link": "1" }, [_("New game")]));
  // Both finished quilts side by side, the winner's crowned.
  const pieces = piecesBySeat(g.history);
  const quilts = seats.map((seat) => {
    const q = new QuiltView("");
    q.render(g.players[seat].quilt, pieces[seat], screen.meta.patches, g.bonus_owner === seat);
    q.describe(screen.plainName(seat), g.players[seat].empty_squares);
    const won = g.result.winner === seat;
    return h("figure", { class: "end-quilt" + (won ? " winner" : ""), "data-seat": String(seat) }, [
      caption(g, seat, won, nameOrLink(g, seat, screen), g.bonus_owner === seat), q.svg,
    ]);
  });
  if (solo) {
    const won = g.result.winner === 1;
    quilts.push(h("figure", { class: "end-quilt end-automa" + (won ? " winner" : ""), "data-seat": "1" }, [
      caption(g, 1, won, screen.plainName(1), false),
      automaPanel(g, screen.meta, { ended: true }),
    ]));
  }
  slot.replaceChildren(h("section", { class: "card end", id: "end-screen", "aria-labelledby": "end-title" }, [
    h("div", { class: "end-banner" }, [icon("star", { cls: "burst" }),
      h("h2", { id: "end-title", tabindex: "-1", text: screen.resultHeadline(g) }),
      icon("star", { cls: "burst" })]),
    ...notes,
    h("div", { class: "end-quilts" + (solo ? " solo" : "") }, quilts),
    ratingChanges(g, screen),
    table,
    solo ? automaScoreTable(g) : null,
    h("div", { class: "actions" }, actions),
  ]));
}
