// The review of a game on the replay screen (POST /api/games/{id}/review): its progress while
// the server's AI pool values the positions, then a chart of the first player's winning
// chances (one point a position: a click or the arrow keys go there on the boards), each
// move's class in a move list, and at a slip the move played beside the searcher's better one.

import { api } from "./api.js";
import { _, digits, fmt, ngettext, num, percent, rounded, sep } from "./i18n.js";
import { QuiltView, piecesBySeat } from "./quilt.js";
import { GameSocket } from "./socket.js";
import { loadSeat } from "./store.js";
import { el, svgRoot } from "./svg.js";
import { h, toast, errorText, fmtNodes, notation, touchScreen } from "./ui.js";
import { icon } from "./icons.js";

// What each class is called, its mark (shape as well as colour) and whether the board shows
// the better move beside it.
const CLASSES = {
  best: { label: () => _("Best move"), mark: "★", slip: false },
  good: { label: () => _("Good move"), mark: "✓", slip: false },
  inaccuracy: { label: () => _("Inaccuracy"), mark: "?!", slip: true },
  mistake: { label: () => _("Mistake"), mark: "?", slip: true },
  blunder: { label: () => _("Blunder"), mark: "??", slip: true },
};
const PAD = { left: 34, right: 10, top: 14, bottom: 14 };

function pct(p) {
  return percent(p);
}

// The first player's chance of winning at each position 0..n, as the server valued them.
export function winCurve(review) {
  return review.curve.map((point) => point.win_probability);
}

export class ReviewPanel {
  // screen: the replay (id, data.players, frames, meta, ply, go(ply)).
  constructor(screen) {
    this.screen = screen;
    this.review = null;
    this.socket = null;
    this.started = false;
    this.button = h("button", { type: "button", class: "primary", id: "review-start",
      onclick: () => this.start() }, [_("Review this game")]);
    this.progress = h("progress", { id: "review-progress", max: 1, value: 0, hidden: true });
    this.status = h("p", { class: "review-status", id: "review-status", "aria-live": "polite" });
    this.body = h("div", { class: "review-body" });
    this.element = h("section", { class: "card review", id: "review",
      "aria-labelledby": "review-title" }, [
      h("div", { class: "review-head" }, [
        h("h2", { id: "review-title", text: _("Game review") }),
        this.button,
      ]),
      this.progress, this.status, this.body,
    ]);
  }

  destroy() {
    if (this.socket) this.socket.close();
    this.socket = null;
  }

  // A review made before is shown at once; one under way is followed.
  async load(autostart) {
    let status;
    try {
      status = await api.reviewStatus(this.screen.id);
    } catch {
      status = { state: "none" };
    }
    if (status.state === "done") this.render(status.review);
    else if (status.state === "running" || autostart) await this.start();
  }

  async start() {
    if (this.review || this.started) return;
    this.started = true;
    this.button.disabled = true;
    this.showProgress(0, 0);
    // Listen first, so that no progress message falls between the request and the socket.
    await this.listen();
    const seat = loadSeat(this.screen.id);
    try {
      const status = await api.review(this.screen.id, seat ? seat.token : null);
      if (status.state === "done") this.render(status.review);
      else if (!this.review) this.showProgress(status.done, status.total);
    } catch (err) {
      this.fail(errorText(err));
    }
  }

  listen() {
    return new Promise((resolve) => {
      const seat = loadSeat(this.screen.id);
      this.socket = new GameSocket(this.screen.id, seat ? seat.token : null, {
        onStatus: () => {},
        onMessage: (msg) => {
          if (msg.type === "welcome") resolve();
          else if (msg.type === "review_progress") this.showProgress(msg.done, msg.total);
          else if (msg.type === "review") this.render(msg.review);
          else if (msg.type === "error" && msg.ref === null && this.started && !this.review) {
            this.fail(msg.message);
          }
        },
      });
      setTimeout(resolve, 3000); // no socket: the answer to the request still comes
    });
  }

  fail(text) {
    this.destroy();
    this.started = false;
    this.button.disabled = false;
    this.progress.hidden = true;
    this.status.textContent = fmt(_("The review failed: {reason}"), { reason: text });
    toast(this.status.textContent, "error");
  }

  showProgress(done, total) {
    if (this.review) return;
    this.progress.hidden = false;
    this.progress.max = Math.max(1, total);
    this.progress.value = done;
    this.status.textContent = total
      ? fmt(_("Reviewing the game: {done} of {total} positions"), { done, total })
      : _("Reviewing the game…");
  }

  render(review) {
    if (this.review) return;
    this.review = review;
    this.destroy();
    this.progress.hidden = true;
    this.button.hidden = true;
    this.status.textContent = fmt(_("Each position searched {n} times."), { n: review.iterations });
    this.status.className = "review-status muted small";
    this.chart = this.buildChart(review);
    this.moves = this.buildMoves(review);
    this.detail = h("div", { class: "review-detail", id: "review-detail", "aria-live": "polite" });
    this.body.replaceChildren(
      h("div", { class: "review-players" }, review.players.map((p) => this.playerSummary(p))),
      this.chart.box,
      h("div", { class: "review-split" }, [this.moves.box, this.detail]),
    );
    this.element.dataset.ready = "1";
    this.show(this.screen.ply);
  }

  playerSummary(p) {
    const counts = [
      ngettext("{n} inaccuracy", "{n} inaccuracies", p.inaccuracies),
      ngettext("{n} mistake", "{n} mistakes", p.mistakes),
      ngettext("{n} blunder", "{n} blunders", p.blunders),
    ].join(sep());
    // Named as the replay names the seat, in the page's language (the server's `name` is
    // the stored English one: "AI level 3").
    const name = this.screen.data.players[p.seat] || p.name;
    return h("div", { class: `review-player seat${p.seat}`, "data-seat": String(p.seat) }, [
      h("span", { class: "name", text: name }),
      h("span", { class: "accuracy", text: p.accuracy === null ? _("no accuracy (no move had a choice)")
        : fmt(_("accuracy {accuracy}%"), { accuracy: p.accuracy }) }),
      h("span", { class: "muted small", text: counts }),
    ]);
  }

  buildChart(review) {
    const values = winCurve(review);
    const n = values.length - 1;
    // Drawn at the width it is shown at, so that its text keeps its size on any screen.
    const W = Math.max(300, Math.min(1400, Math.round(this.element.clientWidth) - 24 || 600));
    const H = W < 560 ? 140 : 180;
    const iw = W - PAD.left - PAD.right;
    const ih = H - PAD.top - PAD.bottom;
    const x = (i) => PAD.left + (n ? (i * iw) / n : iw / 2);
    const y = (v) => PAD.top + (1 - v) * ih;
    const name = this.screen.data.players[0];
    const svg = svgRoot(`0 0 ${W} ${H}`, { class: "review-chart", id: "review-chart",
      role: "img", "aria-label": fmt(_("{name}'s chance of winning after each move"), { name }) });
    for (const v of [0, 0.5, 1]) {
      svg.append(el("line", { x1: PAD.left, x2: W - PAD.right, y1: y(v), y2: y(v),
        class: v === 0.5 ? "mid" : "grid" }));
      svg.append(el("text", { x: PAD.left - 4, y: y(v) + 3.5, "text-anchor": "end",
        class: "axis" }, [pct(v)]));
    }
    const line = values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" ");
    svg.append(el("polygon", { class: "area", points:
      `${x(0)},${y(0.5)} ${line} ${x(n)},${y(0.5)}` }));
    svg.append(el("polyline", { class: "curve", points: line }));
    this.cursor = el("line", { class: "cursor", y1: PAD.top, y2: H - PAD.bottom });
    svg.append(this.cursor);
    const points = el("g", { class: "points" });
    values.forEach((v, i) => {
      const klass = i ? review.plies[i - 1].class : "start";
      const slip = i > 0 && CLASSES[klass].slip;
      const dot = el("circle", { cx: x(i), cy: y(v), r: slip ? 4.5 : 2.6,
        class: `point ${klass}`, "data-ply": String(i) });
      points.append(dot);
      if (slip) {
        points.append(el("text", { x: x(i), y: y(v) + (v > 0.5 ? 19 : -10), "text-anchor": "middle",
          class: `slip-mark ${klass}`, "aria-hidden": "true" }, [CLASSES[klass].mark]));
      }
    });
    svg.append(points);
    // One column a position to click on: easier to hit than a dot.
    const hits = el("g", { class: "hits" });
    const step = n ? iw / n : iw;
    for (let i = 0; i <= n; i++) {
      const rect = el("rect", { x: x(i) - step / 2, y: 0, width: step, height: H,
        class: "hit", "data-ply": String(i) });
      rect.append(el("title", {}, [i ? fmt(_("Move {ply}"), { ply: i }) : _("The starting position")]));
      rect.addEventListener("click", () => this.screen.go(i));
      hits.append(rect);
    }
    svg.append(hits);
    this.x = x;
    const box = h("figure", { class: "review-chart-box" }, [
      h("figcaption", { class: "small" }, [
        h("span", { class: "legend-swatch", "aria-hidden": "true" }),
        fmt(_("{name}'s chance of winning after each move"), { name }),
        h("span", { class: "muted", text: sep() + (touchScreen() ? _("tap a point to go there")
          : _("click a point or use the arrow keys")) }),
      ]),
      svg,
    ]);
    return { box, svg };
  }

  buildMoves(review) {
    const names = this.screen.data.players;
    const items = review.plies.map((p) => {
      const c = CLASSES[p.class];
      return h("li", { "data-ply": String(p.ply), "data-class": p.class }, [
        h("button", { type: "button", class: "review-move", onclick: () => this.screen.go(p.ply) }, [
          h("span", { class: "ply", text: `${num(p.ply)}.` }),
          h("span", { class: "who", text: names[p.seat] }),
          h("code", { dir: "ltr", text: digits(p.move) }),
          h("span", { class: `class-badge ${p.class}` }, [
            c.slip ? h("span", { class: "class-mark", "aria-hidden": "true", text: c.mark })
              : icon(p.class === "best" ? "star" : "check", { cls: "class-mark" }),
            h("span", { class: "class-name", text: c.label() }),
          ]),
        ]),
      ]);
    });
    const list = h("ol", { class: "review-moves", id: "review-moves" }, items);
    return { box: h("div", { class: "review-moves-box" }, [list]), list };
  }

  // Follows the replay to position `ply`: the chart's cursor, the move list, the detail.
  show(ply) {
    if (!this.review) return;
    const x = this.x(ply);
    this.cursor.setAttribute("x1", x);
    this.cursor.setAttribute("x2", x);
    for (const dot of this.chart.svg.querySelectorAll(".point")) {
      dot.classList.toggle("current", Number(dot.dataset.ply) === ply);
    }
    for (const li of this.moves.list.children) {
      const here = Number(li.dataset.ply) === ply;
      li.classList.toggle("current", here);
      if (here) {
        li.firstChild.setAttribute("aria-current", "step");
        // Scroll the list alone (never the page) to bring the move to its middle.
        const box = this.moves.box.getBoundingClientRect();
        const row = li.getBoundingClientRect();
        if (row.top < box.top || row.bottom > box.bottom) {
          this.moves.box.scrollTop += row.top - box.top - (box.height - row.height) / 2;
        }
      } else li.firstChild.removeAttribute("aria-current");
    }
    this.detail.replaceChildren(...this.describe(ply));
  }

  describe(ply) {
    if (ply === 0) return [h("p", { class: "muted", text: _("The starting position") })];
    const p = this.review.plies[ply - 1];
    const c = CLASSES[p.class];
    const name = this.screen.data.players[p.seat];
    const out = [
      h("p", { class: "review-line" }, [
        h("span", { class: `class-badge ${p.class}` }, [
          c.slip ? h("span", { class: "class-mark", "aria-hidden": "true", text: c.mark })
            : icon(p.class === "best" ? "star" : "check", { cls: "class-mark" }),
          h("span", { class: "class-name", text: c.label() }),
        ]),
        " ",
        ...fmtNodes(_("Move {ply}: {name} plays {move}"), { ply: num(ply), name, move: notation(p.move) }),
      ]),
      h("p", { class: "small", text: fmt(_("{name}'s chance of winning: {before} before, {after} after"),
        { name, before: pct(p.win_probability_before), after: pct(p.win_probability_after) }) }),
    ];
    if (p.forced) out.push(h("p", { class: "muted small", text: _("The only legal move.") }));
    if (!c.slip) return out;
    out.push(h("p", { class: "small", text: fmt(_("Gave away {loss} of winning chance and {points} points."),
      { loss: pct(Math.max(0, p.loss)), points: rounded(Math.max(0, p.margin_loss)) }) }));
    out.push(h("div", { class: "compare", id: "review-compare" }, [
      // TRANSLATORS: the caption of the move that was played, beside the better one.
      this.quiltWith(p, p.move, p.squares, "played", _("Played")),
      this.quiltWith(p, p.best_move, p.best_squares, "hint", _("Better")),
    ]));
    return out;
  }

  // The mover's quilt before the move, with the squares a move would cover.
  quiltWith(p, move, squares, kind, title) {
    const frames = this.screen.frames;
    const before = frames[p.ply - 1];
    const history = frames.slice(1, p.ply).map((f) => ({ seat: f.seat, move: f.move,
      squares: f.squares }));
    const view = new QuiltView("");
    view.render(before.players[p.seat].quilt, piecesBySeat(history)[p.seat], this.screen.meta.patches,
      before.bonus_owner === p.seat);
    if (squares.length) view.showOverlay(squares, kind);
    view.svg.setAttribute("aria-label", fmt(_("{title}: {move}"), { title, move }));
    return h("figure", { class: `compare-one ${kind}`, "data-move": move }, [
      h("figcaption", {}, [h("strong", { text: title }), " ", notation(move),
        squares.length ? null : h("span", { class: "muted small", text: " " + _("(advance: no patch)") })]),
      view.svg,
    ]);
  }
}
