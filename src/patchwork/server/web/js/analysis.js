// The analysis board (/analysis): any position, from a finished game, a replay, a review or a
// position text pasted in, played forward by hand for both sides; step back and play another
// move to branch (the line left behind is kept among the lines); the searcher's candidates
// stream in over /ws/analysis, deeper at each step, its best move marked on the board.
//
// It is the game screen at one screen, fed by the server's boards (POST /api/analysis/board:
// every move checked by the engine, no rule here) instead of a game's socket.

import { api } from "./api.js";
import { _, currentLanguage, digits, fmt, num, percent, sep, signed } from "./i18n.js";
import { BoardScreen } from "./board.js";
import { backoff, openSocket } from "./socket.js";
import { h, toast, errorText, fatal, fmtNodes, notation } from "./ui.js";
import { icon } from "./icons.js";

const ENGINE_KEY = "patchwork.analysis.engine";
const SHOWN = 5; // candidates listed
const LINE_SHOWN = 8; // moves of a line shown

export function analysisPath(source, ply = null) {
  const q = new URLSearchParams(source);
  if (ply !== null) q.set("ply", String(ply));
  return `/analysis?${q}`;
}

export class AnalysisScreen extends BoardScreen {
  constructor(root, { meta, navigate }) {
    super(root, { meta, navigate });
    this.start_ = null; // the start position's text
    this.line = []; // the moves of the line on the board, the ones after the cursor too
    this.cursor = 0; // how many of them are played on the board
    this.lines = []; // lines left behind: { from, moves }
    this.mainline = [];
    this.boards = new Map(); // the server's boards already fetched, by their moves
    this.engineOn = localStorage.getItem(ENGINE_KEY) !== "off";
    this.result = null;
    this.requests = 0;
    this.drops = 0; // the engine's socket dropped since it last opened
    this.onNavKey = (e) => {
      if (e.defaultPrevented || e.altKey || e.ctrlKey || e.metaKey || this.placement.piece) return;
      const t = e.target;
      if (t && (t.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(t.tagName))) return;
      if (t && t.closest && t.closest(".board-focus, .ring")) return;
      const rtl = document.documentElement.dir === "rtl";
      const [forward, back] = rtl ? ["ArrowLeft", "ArrowRight"] : ["ArrowRight", "ArrowLeft"];
      if (e.key === back) this.go(this.cursor - 1);
      else if (e.key === forward) this.go(this.cursor + 1);
      else if (e.key === "Home") this.go(0);
      else if (e.key === "End") this.go(this.line.length);
      else return;
      e.preventDefault();
    };
  }

  destroy() {
    super.destroy();
    document.removeEventListener("keydown", this.onNavKey);
    this.closeEngine();
  }

  // -- start-up ---------------------------------------------------------------------------

  async start() {
    const q = new URLSearchParams(location.search);
    const position = q.get("position");
    const game = q.get("game");
    if (!position && !game) {
      this.askPosition();
      return;
    }
    this.root.replaceChildren(h("p", { class: "loading", text: _("Loading the board…") }));
    const moves = (q.get("moves") || "").split(" ").filter(Boolean);
    let first;
    try {
      const ply = q.get("ply");
      first = await api.board(game ? { game_id: game, ply: ply === null ? null : Number(ply), moves }
        : { position, moves });
    } catch (err) {
      if (!game) {
        this.askPosition(errorText(err), position);
        return;
      }
      fatal(this.root, _("The board could not be set up"), errorText(err));
      return;
    }
    this.start_ = first.start;
    this.mainline = first.mainline;
    this.cursor = first.moves.length;
    // A board from a game follows the game's line, unless moves of its own left it.
    const onMainline = first.moves.every((m, i) => m === first.mainline[i]);
    this.line = [...(onMainline && first.mainline.length ? first.mainline : first.moves)];
    this.boards.set(first.moves.join(" "), first);
    this.layout();
    document.addEventListener("keydown", this.onNavKey);
    this.openEngine();
    this.show(first);
  }

  // No position yet: a box to paste one into (with the reason when one was refused).
  askPosition(problem = "", given = "") {
    document.title = fmt(_("{page} – Patchwork"), { page: _("Analysis board") });
    const text = h("textarea", { id: "position-text", rows: 3, maxlength: 2000, spellcheck: "false",
      dir: "ltr", "aria-describedby": "position-help" });
    text.value = given || "";
    const form = h("form", { class: "card paste-position" }, [
      h("h1", { text: _("Analysis board") }),
      h("p", { id: "position-help", text: _("Paste a position text (the engine's notation, as patchwork analyse --json writes it), or open the board from a finished game's replay or end screen.") }),
      h("label", { class: "field" }, [h("span", { text: _("Position text") }), text]),
      problem ? h("p", { class: "form-error", role: "alert", id: "position-error", text: problem }) : null,
      h("div", { class: "actions" }, [
        h("button", { type: "submit", class: "primary", id: "position-open", text: _("Open the board") }),
      ]),
    ]);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const value = text.value.trim();
      if (!value) {
        text.focus();
        return;
      }
      this.navigate(analysisPath({ position: value }));
    });
    this.root.replaceChildren(form);
    text.focus();
  }

  layout() {
    super.layout();
    // The engine above the line's moves, in the moves' column.
    this.els.engine = h("section", { class: "engine", id: "engine", "aria-labelledby": "engine-title" });
    this.els.engine.addEventListener("pointerdown", () => this.holdEngine());
    this.els.lines = h("div", { class: "lines", id: "lines" });
    this.els.moves.prepend(this.els.engine);
    this.els.moves.append(this.els.lines);
  }

  // -- the board ----------------------------------------------------------------------------

  show(board) {
    this.board = board;
    this.result = null;
    const q = new URLSearchParams({ position: this.start_ });
    if (this.cursor) q.set("moves", this.line.slice(0, this.cursor).join(" "));
    history.replaceState(null, "", `/analysis?${q}`);
    this.store.set(board);
    this.analyse();
  }

  async fetchBoard(moves) {
    const key = moves.join(" ");
    if (!this.boards.has(key)) {
      this.boards.set(key, await api.board({ position: this.start_, moves }));
    }
    return this.boards.get(key);
  }

  // To the position after the line's first `n` moves.
  // `again`: even at the same number of moves (another line's position).
  async go(n, again = false) {
    n = Math.max(0, Math.min(this.line.length, n));
    if (n === this.cursor && this.board && !again) return;
    const asked = ++this.requests;
    let board;
    try {
      board = await this.fetchBoard(this.line.slice(0, n));
    } catch (err) {
      toast(errorText(err), "error");
      return;
    }
    if (asked !== this.requests) return; // a later step came first
    this.cursor = n;
    this.placement.cancel(false);
    this.show(board);
  }

  // A move made on the board: the next of the line, or a new line from here.
  async sendMove(move) {
    if (this.busy) return;
    this.busy = true;
    let board;
    try {
      board = await this.fetchBoard([...this.line.slice(0, this.cursor), move]);
    } catch (err) {
      this.busy = false;
      toast(fmt(_("The move was not made: {reason}"), { reason: errorText(err) }), "error");
      return;
    }
    this.busy = false;
    const played = board.moves[board.moves.length - 1];
    if (this.line[this.cursor] !== played) {
      const left = this.line.slice(this.cursor);
      if (left.length) this.keepLine(this.line);
      this.line = [...this.line.slice(0, this.cursor), played];
    }
    this.cursor += 1;
    this.placement.cancel(false);
    this.show(board);
  }

  keepLine(moves) {
    const key = moves.join(" ");
    if (!this.lines.some((l) => l.moves.join(" ") === key)) {
      this.lines.push({ from: this.cursor, moves: [...moves] });
    }
  }

  // Back to a line left behind, at the move where it left the board's line.
  toLine(index) {
    const chosen = this.lines[index];
    this.lines.splice(index, 1);
    this.keepLine(this.line);
    this.line = chosen.moves;
    this.go(Math.min(chosen.from + 1, this.line.length), true);
  }

  // -- what the page shows ------------------------------------------------------------------

  renderBar() {
    const g = this.store.game;
    const mover = g.status === "active" ? g.to_move : null;
    const step = (name, label, id, n, disabled) => h("button", { type: "button", id, title: label,
      "aria-label": label, disabled, onclick: () => this.go(n) }, [icon(name)]);
    const buttons = [
      step("first", _("To the start"), "board-first", 0, this.cursor === 0),
      step("prev", _("Previous"), "board-prev", this.cursor - 1, this.cursor === 0),
      step("next", _("Next"), "board-next", this.cursor + 1, this.cursor >= this.line.length),
      step("last", _("To the end"), "board-last", this.line.length, this.cursor >= this.line.length),
    ];
    if (mover !== null) buttons.push(this.advanceButton(() => this.sendMove("A"), false));
    this.renderBarWith(_("Analysis board"), buttons);
  }

  renderMoves() {
    const list = this.els.moveList;
    const items = this.line.map((move, i) => {
      const here = i + 1 === this.cursor;
      return h("li", { class: (here ? "current" : "") + (i >= this.cursor ? " ahead" : ""),
        "data-ply": String(i + 1) }, [
        h("button", { type: "button", class: "board-move", "aria-current": here ? "step" : null,
          onclick: () => this.go(i + 1) }, [
          h("code", { dir: "ltr", text: digits(move) }),
        ]),
      ]);
    });
    list.replaceChildren(...items);
    if (!items.length) list.replaceChildren(h("li", { class: "muted empty", text: _("No moves yet.") }));
    const current = list.querySelector("li.current");
    if (current) {
      const box = list.getBoundingClientRect();
      const row = current.getBoundingClientRect();
      if (row.top < box.top || row.bottom > box.bottom) list.scrollTop += row.top - box.top - box.height / 2;
    }
    this.els.lines.replaceChildren(...(this.lines.length ? [
      h("h3", { text: _("Other lines") }),
      h("ol", { class: "other-lines" }, this.lines.map((l, i) => h("li", {}, [
        h("button", { type: "button", class: "link-button", onclick: () => this.toLine(i) },
          fmtNodes(_("From move {n}: {moves}"), { n: num(l.from + 1), moves: h("code", { dir: "ltr",
            text: digits(l.moves.slice(l.from, l.from + 4).join(" ") + (l.moves.length > l.from + 4 ? " …" : "")) }) })),
      ]))),
    ] : []));
  }

  // -- the engine ------------------------------------------------------------------------------

  openEngine() {
    if (this.engine || !this.engineOn) return;
    this.engine = openSocket("/ws/analysis", () => ({ type: "hello", lang: currentLanguage() }), (msg) => {
      if (msg.type === "ack" && msg.of === "hello") {
        this.engineReady = true;
        this.drops = 0;
        this.analyse();
      } else if (msg.type === "analysis") {
        if (!this.board || msg.position !== this.board.position) return; // an old position's
        this.result = msg;
        this.renderEngine();
        this.markBest();
      } else if (msg.type === "error" && msg.ref === this.asked) {
        this.result = { error: msg.message };
        this.renderEngine();
      }
    });
    const socket = this.engine;
    socket.onclose = () => {
      if (this.engine !== socket) return; // closed on purpose
      this.engine = null;
      this.engineReady = false;
      // Dropped (a server restarting, a network hiccup): back with growing pauses.
      this.retry = setTimeout(() => this.analyse(), backoff(this.drops++));
    };
  }

  closeEngine() {
    clearTimeout(this.retry);
    const socket = this.engine;
    this.engine = null;
    this.engineReady = false;
    if (socket) socket.close();
  }

  analyse() {
    this.renderEngine();
    const g = this.board;
    if (!g || !this.engineOn) return;
    if (!this.engine) this.openEngine();
    if (!this.engineReady || g.status === "finished") return;
    this.asked = `a${++this.requests}`;
    this.engine.send(JSON.stringify({ type: "analyse", position: g.position, id: this.asked }));
  }

  toggleEngine() {
    this.engineOn = !this.engineOn;
    localStorage.setItem(ENGINE_KEY, this.engineOn ? "on" : "off");
    this.result = null;
    if (this.engineOn) this.openEngine();
    else this.closeEngine();
    this.render();
    this.analyse();
  }

  // The engine's box holds still while a pointer is pressed on it: each step of the search
  // redraws its table, and a step that came between a press and its release (reordering the
  // candidates, or only replacing their buttons) would lose the click. Drawn as it is now
  // after the release's click.
  holdEngine() {
    if (this.engineHeld) return;
    this.engineHeld = true;
    const release = () => {
      window.removeEventListener("pointerup", release, true);
      window.removeEventListener("pointercancel", release, true);
      setTimeout(() => {
        this.engineHeld = false;
        this.renderEngine();
        this.markBest();
      }, 0);
    };
    window.addEventListener("pointerup", release, true);
    window.addEventListener("pointercancel", release, true);
  }

  renderEngine() {
    const box = this.els && this.els.engine;
    if (!box || !this.board) return;
    const g = this.board;
    const r = this.result;
    // For tools and tests: the step the engine has reached, and (below) the one drawn.
    box.dataset.searched = r && !r.error ? String(r.step) : "0";
    if (this.engineHeld) return;
    const toggle = h("label", { class: "switch" }, [
      h("input", { type: "checkbox", id: "engine-on", checked: this.engineOn,
        onchange: () => this.toggleEngine() }),
      // TRANSLATORS: the engine's switch on the analysis board: checked, the engine searches.
      h("span", { text: _("on") }),
    ]);
    const head = h("div", { class: "engine-head" }, [h("h2", { id: "engine-title", text: _("The engine") }), toggle]);
    let body;
    if (!this.engineOn) body = [h("p", { class: "muted", text: _("The engine is off.") })];
    else if (g.status === "finished") body = [h("p", { class: "muted", text: _("The game is over: nothing to analyse.") })];
    else if (!r) body = [h("p", { class: "muted", id: "engine-status", text: _("Searching…") })];
    else if (r.error) body = [h("p", { class: "form-error", text: r.error })];
    else body = this.engineBody(r);
    box.replaceChildren(head, ...body);
    box.dataset.step = r && !r.error ? String(r.step) : "0";
  }

  engineBody(r) {
    const name = this.plainName(r.player);
    const status = r.final
      ? fmt(_("Searched {n} iterations in {s} s."), { n: num(r.iterations), s: num(Math.round(r.seconds * 10) / 10) })
      : fmt(_("Searching… step {k} of {n}"), { k: num(r.step), n: num(r.steps) });
    const line = r.principal_line.slice(0, LINE_SHOWN).join(" ") + (r.principal_line.length > LINE_SHOWN ? " …" : "");
    const board = this.board;
    const rows = r.candidates.slice(0, SHOWN).map((c) => h("tr", { "data-move": c.move }, [
      h("td", {}, [h("button", { type: "button", class: "link-button play-candidate", title: _("Play this move"),
        onclick: () => this.playCandidate(board, c.move) }, [notation(c.move)])]),
      h("td", { class: "num", text: percent(c.win_probability) }),
      h("td", { class: "num", text: signed(c.margin) }),
      h("td", { class: "line" }, [h("code", { dir: "ltr", text: digits(c.line.slice(1, 3).join(" ")) })]),
    ]));
    return [
      h("p", { class: "engine-best", id: "engine-best" }, [
        ...fmtNodes(_("{name} to move. Best: {move}"), { name, move: notation(r.best_move) }), sep(),
        fmt(_("chance of winning {pct}, margin {margin}"), { pct: percent(r.win_probability), margin: signed(r.margin) }),
        // TRANSLATORS: the exact endgame search proved the engine's figures (a tag).
        r.exact ? h("span", { class: "tag", text: _("proved") }) : null,
      ]),
      h("p", { class: "engine-line small" }, [_("Expected line:"), " ", h("code", { dir: "ltr", id: "engine-line", text: digits(line) })]),
      h("table", { class: "candidates", id: "engine-candidates" }, [
        h("thead", {}, [h("tr", {}, [h("th", { text: _("Move") }), h("th", { text: _("Win") }),
          h("th", { text: _("Margin") }), h("th", { text: _("Then") })])]),
        h("tbody", {}, rows),
      ]),
      h("p", { class: "muted small", id: "engine-status", "aria-live": "polite", text: status }),
    ];
  }

  // A candidate clicked: played if the board is still the one it was searched on (the box
  // holds still under a pressed pointer, even should the keys step the board meanwhile).
  playCandidate(board, move) {
    if (board === this.board) this.sendMove(move);
  }

  // The engine's best move drawn on the mover's quilt, as a hint is (none for an advance).
  markBest() {
    const r = this.result;
    if (!r || r.error || this.placement.piece || this.engineHeld) return;
    this.quilts[r.player].showOverlay(r.squares, "hint");
  }

  render() {
    super.render();
    this.renderEngine();
    this.markBest();
    document.title = fmt(_("{page} – Patchwork"), { page: _("Analysis board") });
  }
}
