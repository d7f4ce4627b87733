// Replaying a game move by move from /api/games/{id}/replay: both quilts, the time board
// and the circle at each position, stepped with buttons, a slider or the arrow keys; and the
// game's review (review.js), which steps through the same positions.

import { api } from "./api.js";
import { _, currentDir, fmt, num, sep } from "./i18n.js";
import { QuiltView, piecesBySeat } from "./quilt.js";
import { renderTimeBoard } from "./timeboard.js";
import { icon } from "./icons.js";
import { installPatchZoom, legend, renderCircle } from "./circle.js";
import { ReviewPanel } from "./review.js";
import { h, fatal, errorText, fmtNodes, notation, touchScreen } from "./ui.js";
import { seatName } from "./names.js";
import { automaPanel } from "./automa.js";

export class ReplayScreen {
  constructor(root, { meta, gameId }) {
    this.root = root;
    this.meta = meta;
    this.id = gameId;
    this.ply = 0;
    this.quilts = [new QuiltView(""), new QuiltView("")];
    this.onKey = (e) => {
      if (e.target && ["INPUT", "TEXTAREA", "SELECT"].includes(e.target.tagName) && e.target.type !== "range") return;
      if (e.target && e.target.closest && e.target.closest(".ring")) return; // the circle's own keys
      // The arrows go the way the slider runs: right to left on a right-to-left page.
      const [forward, back] = currentDir() === "rtl" ? ["ArrowLeft", "ArrowRight"] : ["ArrowRight", "ArrowLeft"];
      if (e.key === forward || e.key === "PageDown") this.go(this.ply + 1);
      else if (e.key === back || e.key === "PageUp") this.go(this.ply - 1);
      else if (e.key === "Home") this.go(0);
      else if (e.key === "End") this.go(this.frames.length - 1);
      else return;
      e.preventDefault();
    };
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    if (this.review) this.review.destroy();
  }

  async start() {
    this.root.replaceChildren(h("p", { class: "loading", text: _("Loading the replay…") }));
    try {
      this.data = await api.replay(this.id);
      // Each seat named as the game screen names it (names.js), in the page's language.
      this.data.players = this.data.seats.map((info, seat) => seatName(info, seat));
    } catch (err) {
      fatal(this.root, _("The replay could not be loaded"), errorText(err));
      return;
    }
    this.frames = this.data.frames;
    this.ply = this.frames.length - 1;
    this.layout();
    document.addEventListener("keydown", this.onKey);
    this.go(0);
    await this.review.load(new URLSearchParams(location.search).get("review") === "1");
  }

  layout() {
    const names = this.data.players;
    this.solo = this.data.seats[1].kind === "automa";
    this.automaBox = h("div", { class: "automa-box" });
    this.slider = h("input", { type: "range", min: 0, max: this.frames.length - 1, value: 0,
      id: "replay-slider", "aria-label": _("Move"), oninput: (e) => this.go(Number(e.target.value)) });
    this.caption = h("p", { class: "replay-caption", id: "replay-caption", "aria-live": "polite" });
    const step = (name, label, id, f, words = false) => h("button", { type: "button", id, onclick: f,
      "aria-label": words ? null : label, title: label }, [icon(name), words ? h("span", { text: label }) : null]);
    this.timeboard = h("div", { class: "timeboard-box", dir: "ltr" });
    this.circle = h("ol", { class: "ring", "aria-label": _("The circle") });
    installPatchZoom(this.circle, this.meta.patches);
    this.figures = [h("p", { class: "figures-line" }), h("p", { class: "figures-line" })];
    this.review = new ReviewPanel(this);
    this.analysisLink = h("a", { class: "button", id: "replay-analyse", "data-link": "1",
      href: `/analysis?game=${this.id}` }, [_("Analyse this position")]);
    // Solo: Automa's side where its quilt would be (it has none).
    const player = (seat) => h("section", { class: `player card seat${seat}` }, [
      h("h2", { class: "player-name", text: names[seat] }), this.figures[seat],
      this.solo && seat === 1 ? this.automaBox
        : h("div", { class: "board-focus" }, [this.quilts[seat].svg])]);
    this.root.replaceChildren(h("div", { class: "replay" }, [
      h("section", { class: "card replay-bar" }, [
        h("h1", { text: fmt(_("Replay: {a} – {b}"), { a: names[0], b: names[1] }) }),
        h("div", { class: "replay-controls" }, [
          step("first", _("To the start"), "replay-first", () => this.go(0)),
          step("prev", _("Previous"), "replay-prev", () => this.go(this.ply - 1), true),
          this.slider,
          step("next", _("Next"), "replay-next", () => this.go(this.ply + 1), true),
          step("last", _("To the end"), "replay-last", () => this.go(this.frames.length - 1)),
        ]),
        this.caption,
        // Keys are for keyboards: a phone has none.
        touchScreen() ? null : h("p", { class: "muted small", text: _("Arrow keys step through the moves.") }),
        h("div", { class: "actions" }, [
          h("a", { class: "button", href: `/play/${this.id}`, "data-link": "1", id: "replay-back" },
            [_("Back to the game")]),
          // A finished game's position opens on the analysis board (never one in play).
          this.data.result ? this.analysisLink : null,
          h("a", { class: "button quiet", href: "/", "data-link": "1" }, [_("New game")]),
        ]),
      ]),
      this.review.element,
      h("div", { class: "replay-grid" }, [player(0),
        h("div", { class: "middle" }, [
          h("section", { class: "card table-box" }, [
            h("div", { class: "table-head" }, [h("h2", { text: _("The circle and the time board") }), legend()]),
            h("div", { class: "table-ring", dir: "ltr" }, [this.circle,
              h("div", { class: "ring-centre" }, [this.timeboard])])]),
        ]), player(1)]),
    ]));
  }

  // "Buttons 5 · Income 2 · Space 12 · Score −40", each figure by its own label and the
  // items apart by the page's separator (not the middle dot in Persian, where it reads 0).
  figuresLine(p, score) {
    const items = [[_("Buttons"), p.buttons], [_("Income"), p.income], [_("Space"), p.position],
      [_("Score"), score]];
    const out = [];
    items.forEach(([label, value], i) => {
      if (i) out.push(sep());
      out.push(h("span", { class: "figure" }, [label, " ", h("strong", { text: num(value) })]));
    });
    return out;
  }

  go(ply) {
    const n = this.frames.length;
    this.ply = Math.max(0, Math.min(n - 1, ply));
    const f = this.frames[this.ply];
    this.slider.value = String(this.ply);
    const history = this.frames.slice(1, this.ply + 1).map((fr) => ({ seat: fr.seat, move: fr.move,
      squares: fr.squares }));
    const pieces = piecesBySeat(history);
    for (const seat of [0, 1]) {
      const p = f.players[seat];
      this.quilts[seat].render(p.quilt, pieces[seat], this.meta.patches, f.bonus_owner === seat);
      this.quilts[seat].describe(this.data.players[seat], p.empty_squares);
      // Solo: Automa's figures are on its side (automaPanel), not in a line.
      this.figures[seat].replaceChildren(...(this.solo && seat === 1 ? [] : this.figuresLine(p, f.scores[seat])));
    }
    if (f.automa) this.automaBox.replaceChildren(automaPanel({ automa: f.automa, scores: f.scores }, this.meta));
    renderTimeBoard(this.timeboard, { meta: this.meta, players: f.players,
      specialsLeft: f.special_spaces_left, onTop: f.on_top, names: this.data.players,
      marker: f.automa ? f.automa.marker : null });
    renderCircle(this.circle, { circle: f.circle, patches: this.meta.patches,
      offered: this.meta.offered_patches });
    // The move as the move list shows it: left to right, in the page's digits.
    this.caption.replaceChildren(...(f.move === null ? [_("The starting position")]
      : fmtNodes(_("Move {ply} of {total}: {name} plays {move}"), { ply: num(this.ply), total: num(n - 1),
        name: this.data.players[f.seat], move: notation(f.move) })));
    if (f.move && f.squares.length) this.quilts[f.seat].showOverlay(f.squares, "hint");
    this.analysisLink.setAttribute("href", `/analysis?game=${this.id}&ply=${this.ply}`);
    if (this.review) this.review.show(this.ply);
  }
}
