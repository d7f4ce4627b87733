// A position on the game's table, both seats played from this screen, fed by the server's
// boards (POST /api/analysis/board: every move checked by the engine, no rule here) instead
// of a game's socket: what the analysis board (analysis.js) and the puzzles (puzzles.js)
// share. It is the game screen without what belongs to a game (end screen, invitation,
// clocks, undo, resign).

import { _, fmt, num, sentence } from "./i18n.js";
import { GameScreen } from "./game.js";
import { h } from "./ui.js";

export class BoardScreen extends GameScreen {
  constructor(root, { meta, navigate }) {
    super(root, { meta, gameId: "board", navigate });
    this.seats = [0, 1];
  }

  layout() {
    super.layout();
    // A board has no end screen or invitation: their slots are left out of the page.
    this.els.end = h("div");
    this.els.invite = h("div");
    this.els.moves.classList.add("analysis-side");
    this.root.querySelector(".game-top").replaceChildren(this.els.bar);
  }

  renderInvite() {}

  makeNotifier() {
    return null; // a board has no opponent moving elsewhere, and no sounds
  }

  // What the bar says of the position: whose turn, or the final score.
  headline() {
    const g = this.store.game;
    const mover = g.status === "active" ? g.to_move : null;
    if (g.status === "finished") {
      return fmt(_("Game over: {a} {sa} – {sb} {b}"), { a: this.plainName(0), sa: num(g.scores[0]),
        sb: num(g.scores[1]), b: this.plainName(1) });
    }
    if (g.pending_specials > 0) return fmt(_("{name}: place your special patch"), { name: this.plainName(mover) });
    return sentence(fmt(_("{name}'s turn"), { name: this.plainName(mover) }));
  }

  // The bar: the page's tag, the headline, the last move and `buttons`.
  renderBarWith(tag, buttons) {
    this.els.bar.replaceChildren(
      h("div", { class: "turn" }, [h("span", { class: "tag board-tag", text: tag }),
        h("strong", { id: "headline", text: this.headline() })]),
      this.els.lastMove,
      h("div", { class: "actions board-steps" }, buttons),
    );
  }
}
