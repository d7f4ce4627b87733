// The guided first game (/learn): a first game against the gentle AI level 1, lesson by
// lesson, on the game's own table. The lessons, their words and which moves meet them are the
// server's (POST /api/tutorial/view and /move: the course checks every move, no rule here);
// a move that does not meet the lesson is answered with its hint and nothing is played. The
// browser keeps only the progress (localStorage `patchwork.tutorial`) and sends it each time,
// so the lessons go on where they were left. At the end: the final count, and the game's
// first review (POST /api/tutorial/review stores it; then its replay starts the review).

import { api } from "./api.js";
import { _, fmt } from "./i18n.js";
import { BoardScreen } from "./board.js";
import { scoreTable } from "./endscreen.js";
import { icon } from "./icons.js";
import { h, announce, toast, errorText, fatal, confirmDialog } from "./ui.js";

const KEY = "patchwork.tutorial";
const LEARNER = 0;

// What this browser keeps: {progress, finished, review} (review: the first review's address,
// once made).
function kept() {
  try {
    const value = JSON.parse(localStorage.getItem(KEY));
    return value && typeof value === "object" ? value : null;
  } catch {
    return null;
  }
}

function keep(value) {
  try {
    localStorage.setItem(KEY, JSON.stringify(value));
  } catch {
    // storage full or disabled: the lessons last as long as the page
  }
}

function forget() {
  try {
    localStorage.removeItem(KEY);
  } catch {
    // nothing kept
  }
}

// Lessons begun here and not finished (the start screen says "go on").
export function lessonsUnderWay() {
  const k = kept();
  return Boolean(k && k.progress && !k.finished);
}

export class TutorialScreen extends BoardScreen {
  constructor(root, ctx) {
    super(root, ctx);
    this.seats = [LEARNER]; // the gentle opponent's answers come with the server's board
    this.lesson = null; // the server's lesson view
    this.said = null; // what the last move earned: {kind: "done" | "hint", text}
    this.replies = []; // the opponent's answers to it (entries of the board's history)
  }

  async start() {
    this.root.replaceChildren(h("p", { class: "loading", text: _("Loading the lesson…") }));
    const saved = kept();
    let view;
    try {
      view = await api.lesson(saved && saved.progress ? saved.progress : null);
    } catch (err) {
      if (saved && ["invalid_progress", "invalid_request"].includes(err.code)) {
        // A kept progress the course refuses (damaged, or from another version): afresh.
        forget();
        toast(_("Your place in the lessons could not be read: they start over."), "warn", 8000);
        await this.start();
        return;
      }
      fatal(this.root, _("The lesson could not be loaded"), errorText(err),
        [h("button", { type: "button", text: _("Try again"), onclick: () => this.start() })]);
      return;
    }
    this.layout();
    this.show(view);
  }

  layout() {
    super.layout();
    // The lesson takes the moves' place (the last move is said in the bar); on a phone it
    // comes first (app.css).
    this.els.panel = h("section", { class: "lesson-panel", id: "lesson" });
    this.els.moves.replaceChildren(this.els.panel);
    this.els.moves.setAttribute("aria-labelledby", "lesson-title");
    // The final count, over the whole width as a game's end screen is (the table stays).
    this.els.final = h("div", { class: "lesson-final-slot" });
    this.root.querySelector(".game-top").append(this.els.final);
    this.root.querySelector(".game-grid").classList.add("tutorial");
  }

  // A lesson view from the server: kept, and its board on the table. A board that does not
  // go on from the one shown (a lesson shown on the prepared game, or back to the learner's
  // own) is shown afresh, with no moves to tell.
  show(view) {
    const before = this.store.game;
    const moves = view.board.moves;
    const goesOn = Boolean(before) && before.moves.every((m, i) => moves[i] === m);
    this.replies = goesOn ? view.board.history.slice(before.history.length)
      .filter((e) => e.seat !== LEARNER) : [];
    this.lesson = view;
    const saved = kept();
    keep({ progress: view.progress, finished: view.finished,
      review: view.finished && saved ? saved.review : undefined });
    if (!goesOn) this.store.game = null;
    this.store.set(view.board);
  }

  // A move tried: the course plays it if it meets the lesson (the opponent answers), else
  // says the lesson's hint and nothing is played.
  async sendMove(move) {
    if (this.busy || !this.lesson) return;
    this.busy = true;
    let result;
    try {
      result = await api.tryLesson(this.lesson.progress, move);
    } catch (err) {
      this.busy = false;
      if (err.code === "invalid_progress") {
        await this.start(); // the kept progress no longer holds: said, and started over
        return;
      }
      // A move the rules do not allow: in plain words, the notation as details.
      const reason = errorText(err);
      const details = err.plain && err.message !== err.plain ? err.message : "";
      this.setStatus(reason, "blocked", details);
      toast(reason, "warn", 6000, details);
      return;
    }
    this.busy = false;
    this.said = result.said ? { kind: result.met ? "done" : "hint", text: result.said } : null;
    this.placement.cancel(false);
    if (result.met) this.show(result.view);
    else this.render();
    // Said in a notice too, as the table says a refused move: on a phone the panel may be out
    // of view.
    if (this.said) toast(this.said.text, this.said.kind === "hint" ? "warn" : "good", 6000);
    this.keepSaidInView();
  }

  // On a laptop the lesson scrolls within its card: what the last move earned stays in view.
  keepSaidInView() {
    const said = this.els.panel.querySelector("#lesson-said");
    const panel = this.els.panel;
    if (!said || panel.scrollHeight <= panel.clientHeight) return;
    const below = said.getBoundingClientRect().bottom - panel.getBoundingClientRect().bottom;
    const above = panel.getBoundingClientRect().top - said.getBoundingClientRect().top;
    if (below > 0) panel.scrollTop += below + 8;
    else if (above > 0) panel.scrollTop -= above + 8;
  }

  // The opponent's answers travel to its quilt; the learner's own move is where it was put.
  animateMoves(fresh, previous) {
    super.animateMoves(fresh.filter((e) => e.seat !== LEARNER), previous);
  }

  name(seat) {
    return seat === LEARNER ? fmt(_("{name} (you)"), { name: this.plainName(seat) }) : this.plainName(seat);
  }

  headline() {
    const g = this.store.game;
    if (g.status !== "active" || g.to_move !== LEARNER) return super.headline();
    return g.pending_specials > 0 ? _("Your turn: place your special patch") : _("Your turn");
  }

  renderBar() {
    const mine = this.activeSeat() !== null;
    this.renderBarWith(_("Learn"), [mine ? this.advanceButton(() => this.sendMove("A")) : null]);
  }

  // The lesson panel: where the lessons stand, what this one teaches and asks, what the last
  // move earned and how the opponent answered; at the end the final count and the review.
  renderMoves() {
    const v = this.lesson;
    if (!v || !this.els.panel) return;
    const said = this.said;
    const saying = said && h("p", { class: `lesson-said ${said.kind}`, id: "lesson-said" },
      [icon(said.kind === "done" ? "check" : "warn"), h("span", { text: said.text })]);
    const body = [
      said && said.kind === "done" ? saying : null,
      h("div", { class: "lesson-head" }, [
        h("p", { class: "lesson-count", id: "lesson-count",
          text: fmt(_("Lesson {n} of {count}"), { n: v.number, count: v.count }) }),
        h("button", { type: "button", class: "quiet", id: "lesson-restart",
          onclick: () => this.startOver() }, [_("Start over")]),
      ]),
      h("h2", { id: "lesson-title", text: v.title }),
      // What to do now first (in view however long the rest), then what the lesson teaches.
      ...v.notes.map((note) => h("p", { class: "lesson-note", text: note })),
      v.task ? h("p", { class: "lesson-task", id: "lesson-task" }, [h("strong", { text: v.task })]) : null,
      said && said.kind === "hint" ? saying : null,
      v.finished ? null : h("p", { class: "lesson-text", id: "lesson-text", text: v.text }),
    ];
    if (this.replies.length > 1) { // (the bar says the last: here all, when it moved again)
      body.push(h("ul", { class: "lesson-replies", id: "lesson-replies" },
        this.replies.map((e) => h("li", { text: this.moveWords(e) }))));
    }
    this.renderFinal();
    this.els.panel.replaceChildren(...body.filter(Boolean));
    if (this.els.panel.dataset.lesson !== v.id) {
      this.els.panel.scrollTop = 0; // a new lesson: its top, and what it asks said aloud
      announce([v.title, v.task].filter(Boolean).join(". "));
    }
    this.els.panel.dataset.lesson = v.id;
    this.els.panel.dataset.state = v.finished ? "finished" : said ? said.kind : v.free ? "waiting" : "open";
  }

  // Once the game is over: each score taken apart, and the way to the game's first review.
  renderFinal() {
    if (!this.lesson.finished) {
      this.els.final.replaceChildren();
      return;
    }
    this.els.final.replaceChildren(h("section", { class: "card lesson-final", id: "lesson-final" }, [
      scoreTable(this.store.game, this),
      h("div", { class: "actions" }, [
        h("button", { type: "button", class: "primary", id: "first-review",
          onclick: () => this.firstReview() }, [_("See your first review")]),
        h("a", { class: "button", href: "/", "data-link": "1" }, [_("New game")]),
      ]),
    ]));
  }

  render() {
    super.render();
    document.title = fmt(_("{page} – Patchwork"), { page: _("Learn") });
  }

  async startOver() {
    const ok = await confirmDialog(_("Start over?"),
      _("The lessons begin again from the first one, in a new game."), _("Start over"));
    if (!ok) return;
    let view;
    try {
      view = await api.lesson(null);
    } catch (err) {
      toast(errorText(err), "error");
      return;
    }
    forget();
    this.said = null;
    this.placement.cancel(false);
    this.store.game = null;
    this.show(view);
  }

  // The finished game stored once (the same course sent again gets the same game), then its
  // replay, starting its review.
  async firstReview() {
    const saved = kept();
    let address = saved && saved.review;
    if (!address) {
      try {
        address = (await api.firstReview(this.lesson.progress)).review_url;
      } catch (err) {
        toast(fmt(_("The review could not be started: {reason}"), { reason: errorText(err) }), "error");
        return;
      }
      keep({ progress: this.lesson.progress, finished: true, review: address });
    }
    this.navigate(address);
  }
}
