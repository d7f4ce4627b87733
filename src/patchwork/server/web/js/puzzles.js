// Puzzles (/puzzles): find the best move in a position where one is clearly best. Today's
// puzzle by default, `?id=0042` one by number, "Next puzzle" the next of the same difficulty
// (signed in: the next at the player's level).
// The player makes the move on the table as in a game; the server judges it, proving it again
// with the exact endgame search (POST /api/puzzles/{id}/answer): a wrong move is answered
// with the best play after it, a right one with the proved line, played out on the board.
// Signed in, the first answer to a puzzle (or giving it up) moves the player's puzzle rating,
// shown in the panel, and "Next puzzle" asks for the next at their level.

import { currentAccount, ratingNum } from "./account.js";
import { api } from "./api.js";
import { _, digits, fmt, ngettext, num, percent, signed } from "./i18n.js";
import { BoardScreen } from "./board.js";
import { h, toast, errorText, fatal, fmtNodes, notation } from "./ui.js";

const SOLVED_KEY = "patchwork.puzzles.solved";
const LINE_SHOWN = 8;

// Theme names as a person reads them (the server sends the ids).
const THEMES = {
  endgame: () => _("endgame"),
  middlegame: () => _("middle game"),
  bonus: () => _("the 7×7 bonus"),
  timing: () => _("timing"),
  packing: () => _("packing"),
  income: () => _("income"),
};

function solvedIds() {
  try {
    return new Set(JSON.parse(localStorage.getItem(SOLVED_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function line(moves) {
  return digits(moves.slice(0, LINE_SHOWN).join(" ") + (moves.length > LINE_SHOWN ? " …" : ""));
}

export class PuzzleScreen extends BoardScreen {
  constructor(root, ctx) {
    super(root, ctx);
    this.verdict = null;
    this.tries = 0;
    this.rated = null; // the player's puzzle rating after their answers here: {rating, change}
  }

  async start() {
    this.root.replaceChildren(h("p", { class: "loading", text: _("Loading the puzzle…") }));
    const q = new URLSearchParams(location.search);
    try {
      const id = q.get("id");
      this.puzzle = id ? await api.puzzle(id) : q.get("after")
        ? await api.nextPuzzle(q.get("after"), q.get("difficulty"), q.get("level"))
        : await api.dailyPuzzle();
      // From the game's start, so that the patches show as they were sewn on.
      this.first = await api.board({ position: this.puzzle.start, moves: this.puzzle.before });
    } catch (err) {
      fatal(this.root, _("The puzzle could not be loaded"), errorText(err));
      return;
    }
    if (currentAccount()) {
      // Signed in, the panel shows the player's puzzle rating from the start.
      try {
        this.rated = { rating: (await api.puzzleRating()).rating, change: undefined };
      } catch {
        this.rated = null; // the puzzle can still be solved: the answer brings the rating
      }
    }
    history.replaceState(null, "", `/puzzles?id=${this.puzzle.id}`);
    this.layout();
    this.els.panel = h("section", { class: "puzzle-panel", id: "puzzle", "aria-live": "polite" });
    this.els.moves.replaceChildren(this.els.panel);
    this.store.set(this.first);
  }

  // The player's move is the answer: judged by the server, never played on the board unless right.
  async sendMove(move) {
    if (this.busy || this.solved()) return;
    this.busy = true;
    let verdict;
    try {
      verdict = await api.answerPuzzle(this.puzzle.id, move);
    } catch (err) {
      this.busy = false;
      toast(fmt(_("That is not a move here: {error}"), { error: errorText(err) }), "error");
      return;
    }
    this.busy = false;
    this.tries += 1;
    this.verdict = verdict;
    this.noteRating(verdict);
    this.placement.cancel(false);
    if (verdict.right) {
      const done = solvedIds();
      done.add(this.puzzle.id);
      localStorage.setItem(SOLVED_KEY, JSON.stringify([...done]));
      try {
        this.store.set(await api.board({ position: this.puzzle.start,
          moves: [...this.puzzle.before, verdict.move] }));
      } catch (err) {
        toast(errorText(err), "error");
      }
    } else {
      this.render();
    }
  }

  solved() {
    return Boolean(this.verdict && this.verdict.right);
  }

  solvedOrGivenUp() {
    return this.solved() || Boolean(this.verdict && this.verdict.gaveUp);
  }

  // Once solved (or given up) the table is for looking at: no more moves to make.
  activeSeat() {
    return this.solvedOrGivenUp() ? null : super.activeSeat();
  }

  async showSolution() {
    try {
      const s = await api.puzzleSolution(this.puzzle.id);
      this.verdict = { right: false, gaveUp: true, solution: s };
      this.noteRating(s);
      this.render();
    } catch (err) {
      toast(errorText(err), "error");
    }
  }

  // The rating an answer left (null for a guest); the change of the one that counted stays shown.
  noteRating(answer) {
    if (answer.rating === null || answer.rating === undefined) return;
    if (answer.rating_change !== null || !this.rated || this.rated.change === undefined) {
      this.rated = { rating: answer.rating, change: answer.rating_change };
    }
  }

  ratingNode() {
    const r = this.rated;
    if (!r) return null;
    const attrs = { class: "small puzzle-rating", id: "puzzle-rating",
      "data-rating": String(Math.round(r.rating)) };
    if (r.change === undefined) {
      return h("p", { ...attrs, text: fmt(_("Your puzzle rating: {rating}"), { rating: ratingNum(r.rating) }) });
    }
    if (r.change === null) {
      return h("p", { ...attrs, text: fmt(_("Your puzzle rating: {rating} (only a puzzle's first answer counts)"),
        { rating: ratingNum(r.rating) }) });
    }
    // The change as the figures shown differ (1500 → 1512 reads +12, whatever the decimals).
    const change = Math.round(r.rating) - Math.round(r.rating - r.change);
    attrs["data-rating-change"] = String(change);
    return h("p", attrs, fmtNodes(_("Your puzzle rating: {rating} ({change})"), {
      rating: h("strong", { text: ratingNum(r.rating) }),
      change: h("span", { class: "rating-change" + (change > 0 ? " up" : change < 0 ? " down" : ""),
        dir: "ltr", text: signed(change) }),
    }));
  }

  // Solved, the bar names the puzzle (the position after the answer is not a task).
  headline() {
    return this.solved() ? fmt(_("Puzzle {id}"), { id: digits(this.puzzle.id) }) : super.headline();
  }

  renderBar() {
    const open = !this.solvedOrGivenUp() && this.store.game.status === "active";
    this.renderBarWith(_("Puzzle"), [open ? this.advanceButton(() => this.sendMove("A"), false) : null]);
  }

  renderMoves() {
    const p = this.puzzle;
    if (!p || !this.els.panel) return;
    const themes = p.themes.map((t) => (THEMES[t] ? THEMES[t]() : t)).join(", ");
    const name = this.plainName(p.to_move);
    const body = [
      h("h2", { id: "puzzle-title", text: fmt(_("Puzzle {id}"), { id: digits(p.id) }) }),
      h("p", { class: "small muted", id: "puzzle-facts", text: fmt(_("Difficulty {d} of 5 · {themes}"),
        { d: num(p.difficulty), themes }) }),
      p.daily ? h("span", { class: "tag", id: "puzzle-daily", text: _("Today's puzzle") }) : null,
      solvedIds().has(p.id) && !this.solved() ? h("span", { class: "tag", text: _("solved before") }) : null,
      h("p", { class: "puzzle-task", text: fmt(_("Find the best move for {name}."), { name }) }),
    ];
    body.push(...this.verdictNodes(), this.ratingNode());
    const actions = [];
    if (!this.solvedOrGivenUp()) {
      actions.push(h("button", { type: "button", id: "puzzle-solution", onclick: () => this.showSolution() },
        [_("Show the solution")]));
    }
    const next = currentAccount() ? { level: "mine" } : { difficulty: p.difficulty };
    actions.push(h("a", { class: "button primary", id: "puzzle-next", "data-link": "1",
      href: `/puzzles?${new URLSearchParams({ after: p.id, ...next })}` }, [_("Next puzzle")]));
    if (this.solvedOrGivenUp()) {
      actions.push(h("a", { class: "button", id: "puzzle-analyse", "data-link": "1",
        href: `/analysis?${new URLSearchParams({ position: p.position })}` }, [_("Analyse this position")]));
    }
    body.push(h("div", { class: "actions" }, actions));
    this.els.panel.replaceChildren(...body.filter(Boolean));
    this.els.panel.dataset.state = this.solved() ? "solved" : this.verdict ? "tried" : "open";
  }

  verdictNodes() {
    const v = this.verdict;
    if (!v) return [];
    if (v.gaveUp) {
      const s = v.solution;
      return [h("p", { class: "verdict", id: "puzzle-verdict" }, [
        ...fmtNodes(_("The solution: {moves}"), { moves: h("span", {}, s.answers.flatMap((m, i) =>
          [i ? ", " : "", notation(m)])) })]),
      h("p", { class: "small" }, fmtNodes(_("The line: {line}"), { line: h("code", { dir: "ltr", text: line(s.line) }) }))];
    }
    if (v.search) return this.searchedNodes(v);
    const proof = v.proof;
    let head;
    if (v.right) {
      head = fmtNodes(_("Right: {move} wins by {margin} with best play from both sides."),
        { move: notation(v.move), margin: num(proof.margin) });
    } else if (proof.wins) {
      head = fmtNodes(_("Not the best: {move} wins by only {margin}, where the best move wins by {best}."),
        { move: notation(v.move), margin: num(proof.margin), best: num(v.best_margin) });
    } else if (proof.margin === 0) {
      head = fmtNodes(_("Not this one: after {move} best play ends level on points, and the tie goes to the opponent."),
        { move: notation(v.move) });
    } else {
      head = fmtNodes(_("Not this one: after {move} best play ends in a loss by {margin}."),
        { move: notation(v.move), margin: num(-proof.margin) });
    }
    const out = [h("p", { class: `verdict ${v.right ? "right" : "wrong"}`, id: "puzzle-verdict" }, head)];
    if (v.right) {
      out.push(h("p", { class: "small", text: fmt(ngettext("Every other move ends at least {gap} point worse.",
        "Every other move ends at least {gap} points worse.", v.gap), { gap: num(v.gap) }) }));
    }
    // The line after the move (none when the move ends the game).
    if (proof.line.length > 1) {
      const rest = h("code", { dir: "ltr", id: "puzzle-line", text: line(proof.line.slice(1)) });
      out.push(h("p", { class: "small" }, fmtNodes(v.right ? _("The line: {line}") : _("How it goes on: {line}"),
        { line: rest })));
    }
    if (!v.right) out.push(h("p", { class: "small muted", text: _("Try another move, or show the solution.") }));
    return out;
  }

  // A puzzle proved by search: the figures its search gave the move (nothing is searched again).
  searchedNodes(v) {
    const s = v.search;
    const chance = (e) => percent(e.win_probability);
    let head;
    if (!s.estimate) {
      head = [_("The right patch, but not there: the searcher sews it on elsewhere.")];
    } else if (v.right) {
      head = fmtNodes(_("Right: the searcher gives {move} {win} and {margin}, every other move at most {rival_win} and {rival_margin}."),
        { move: notation(v.move), win: chance(s.estimate), margin: signed(s.estimate.margin),
          rival_win: chance(s.rival), rival_margin: signed(s.rival.margin) });
    } else {
      const text = s.tried
        ? _("Not this one: the searcher gives {move} {win} and {margin}, where the best move has {best_win} and {best_margin}.")
        : _("Not this one: the searcher gives patch {patch} at most {win} and {margin}, where the best move has {best_win} and {best_margin}.");
      head = fmtNodes(text, { move: notation(v.move), patch: num(Number.parseInt(v.move, 10)),
        win: chance(s.estimate), margin: signed(s.estimate.margin),
        best_win: chance(s.best), best_margin: signed(s.best.margin) });
    }
    const out = [h("p", { class: `verdict ${v.right ? "right" : "wrong"}`, id: "puzzle-verdict" }, head),
      h("p", { class: "small muted", id: "puzzle-search", text: fmt(_("Win chance and expected final margin: a search of {iterations} iterations after each move."),
        { iterations: num(s.iterations) }) })];
    if (s.line.length > 1) {
      const rest = h("code", { dir: "ltr", id: "puzzle-line", text: line(s.line.slice(1)) });
      out.push(h("p", { class: "small" }, fmtNodes(_("The line: {line}"), { line: rest })));
    }
    if (!v.right) out.push(h("p", { class: "small muted", text: _("Try another move, or show the solution.") }));
    return out;
  }

  render() {
    super.render();
    // A wrong answer's squares on the mover's quilt, as a review shows a move played.
    const v = this.verdict;
    const squares = v && !v.gaveUp ? (v.search || v.proof).squares : [];
    if (v && !v.right && squares.length) {
      this.quilts[this.puzzle.to_move].showOverlay(squares, "played");
    }
    document.title = fmt(_("{page} – Patchwork"), { page: _("Puzzle") });
  }
}
