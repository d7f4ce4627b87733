// The game screen: both quilts, the time board, the circle and the offer, the players'
// figures, the move list, and everything a player does (place, advance, undo, hint,
// resign, rematch). All it shows is the server's game view; it keeps it current over the
// websocket and says aloud what changed.

import { api } from "./api.js";
import { _, digits, fmt, ngettext, num, sentence } from "./i18n.js";
import { Placement } from "./placement.js";
import { patchFacts, patchLabel, patchSvg, specialSvg } from "./pieces.js";
import { QuiltView, piecesBySeat } from "./quilt.js";
import { GameSocket } from "./socket.js";
import { askBeforeAdvancing, loadPrefs, loadSeat, savePrefs, saveSeat, Store } from "./store.js";
import { renderTimeBoard, spaceCentre, tokenShape } from "./timeboard.js";
import { h, announce, botTag, toast, confirmDialog, fatal, errorText, fmtNodes, touchScreen, nextFrame } from "./ui.js";
import { seatName } from "./names.js";
import { svgRoot } from "./svg.js";
import { onMe } from "./me.js";
import { movePatch } from "./shapes.js";
import { renderEnd } from "./endscreen.js";
import { legend, renderCircle } from "./circle.js";
import { AUTOMA, automaPanel, turnLines, turnShort, turnsCompact } from "./automa.js";
import { ratingText, refreshAccount } from "./account.js";
import { icon } from "./icons.js";
import { installPatchZoom } from "./circle.js";
import { Notifier } from "./notify.js";
import { ChatPanel } from "./chat.js";
import { renderTakeback, takebackButton, tellTakeback } from "./takeback.js";
import { offerRematch, rematchByChallenge } from "./challenges.js";

export { touchScreen };

function seatToken(seat) {
  const svg = svgRoot("0 0 10 10", { class: "seat-token", width: 18, height: 18,
    "aria-hidden": "true" });
  svg.append(tokenShape(seat, 5, 5, 4));
  return svg;
}

export class GameScreen {
  constructor(root, { meta, gameId, navigate }) {
    this.root = root;
    this.meta = meta;
    this.id = gameId;
    this.navigate = navigate;
    this.store = new Store();
    this.seats = [];
    this.token = null;
    this.socket = null;
    this.presence = null;
    this.clockOffset = 0;
    this.busy = false;
    // The tournament this game belongs to (GET /api/tournaments/of-game, asked once): undefined
    // until known, null for an ordinary game, else {tournament_id, name, kind, status, round}.
    this.tournament = undefined;
    this.tournamentAsked = false;
    // A player's next game of the same tournament (an arena's next pairing, a Swiss event's
    // next round), once it is ready: offered first on the end screen ({gameId, opponent}).
    this.nextGame = null;
    this.offNext = onMe("notification", (msg) => this.nextTournamentGame(msg.notification));
    this.quilts = [new QuiltView(""), new QuiltView("")];
    this.notifier = this.makeNotifier();
    this.placement = new Placement({
      game: () => this.store.game,
      activeSeat: () => this.activeSeat(),
      quilt: (s) => this.quilts[s],
      submit: (move) => this.sendMove(move),
      refuse: (notation, text) => this.refuse(notation, text),
      status: (text, kind) => this.setStatus(text, kind),
      changed: () => {
        this.renderTray();
        this.keepQuiltInView();
      },
    });
    this.store.subscribe((game, previous) => this.changed(game, previous));
    this.onOnline = () => this.socket && this.socket.reconnectNow();
    window.addEventListener("online", this.onOnline);
    this.tick = setInterval(() => this.renderClocks(), 500);
  }

  destroy() {
    this.offNext();
    clearInterval(this.tick);
    clearTimeout(this.ratingsTimer);
    if (this.cancelIncoming) this.cancelIncoming();
    window.removeEventListener("online", this.onOnline);
    if (this.onDocumentClick) document.removeEventListener("click", this.onDocumentClick);
    this.placement.destroy();
    if (this.notifier) this.notifier.destroy();
    if (this.socket) this.socket.close();
  }

  // -- start-up ---------------------------------------------------------------------------

  async start() {
    this.root.replaceChildren(h("p", { class: "loading", text: _("Loading the game…") }));
    const invite = new URLSearchParams(location.hash.slice(1)).get("invite");
    let saved = loadSeat(this.id);
    let game;
    try {
      game = await api.game(this.id);
    } catch (err) {
      if (err.code === "game_not_found") {
        fatal(this.root, _("No such game"), _("This link does not lead to a game. It may have been mistyped."));
      } else {
        fatal(this.root, _("The game could not be loaded"), errorText(err),
          [h("button", { type: "button", text: _("Try again"), onclick: () => this.start() })]);
      }
      return;
    }
    if (!saved && invite && game.status === "waiting") {
      saved = await this.askToJoin(game, invite);
      if (!saved) return;
    } else if (invite) {
      history.replaceState(null, "", location.pathname + location.search);
    }
    this.token = saved ? saved.token : null;
    if (saved && saved.seat !== null && saved.seat !== undefined) this.seats = [saved.seat];
    if (saved && game.mode === "local") this.seats = [0, 1];
    this.layout();
    this.store.set(game);
    this.socket = new GameSocket(this.id, this.token, {
      onMessage: (msg) => this.onMessage(msg),
      onStatus: (status) => this.onConnection(status),
    });
  }

  askToJoin(game, invite) {
    return new Promise((resolve) => {
      const host = game.seats.find((s) => s.joined);
      const name = h("input", { name: "name", id: "join-name", maxlength: 40,
        value: loadPrefs().name || "", placeholder: fmt(_("Player {n}"), { n: 2 }) });
      const button = h("button", { type: "submit", class: "primary big", id: "join-game",
        text: _("Join the game") });
      const form = h("form", { class: "card join" }, [
        h("h1", { text: _("You are invited") }),
        h("p", { text: fmt(_("{name} invites you to a game of Patchwork."),
          { name: host ? host.name : "?" }) }),
        h("label", { class: "field" }, [h("span", { text: _("Your name") }), name]),
        button,
      ]);
      form.addEventListener("submit", async (e) => {
        e.preventDefault();
        button.disabled = true;
        try {
          // No name: the server names the seat (Player 1 or 2, by seat).
          const joined = await api.join(this.id, invite, name.value.trim() || undefined);
          saveSeat(this.id, joined.token, joined.seat);
          savePrefs({ name: name.value.trim() });
          history.replaceState(null, "", location.pathname);
          resolve({ token: joined.token, seat: joined.seat });
        } catch (err) {
          button.disabled = false;
          if (err.code === "seat_taken" || err.code === "invite_invalid") {
            toast(errorText(err), "error");
            history.replaceState(null, "", location.pathname);
            resolve(null);
            this.start();
          } else {
            toast(fmt(_("Could not join: {reason}"), { reason: errorText(err) }), "error");
          }
        }
      });
      this.root.replaceChildren(form);
      name.focus();
    });
  }

  // -- the websocket ------------------------------------------------------------------------

  onMessage(msg) {
    if (this.chat && this.chat.onMessage(msg)) return; // chat.js: the game's chat room
    if (msg.server_time) this.clockOffset = msg.server_time - Date.now() / 1000;
    switch (msg.type) {
      case "welcome": {
        const before = this.seats.join();
        if (Array.isArray(msg.seats) && msg.seats.length) this.seats = msg.seats;
        else if (msg.role === "spectator") this.seats = [];
        // Seats the page did not know (an account's, kept by the server): the same game, now
        // drawn from them, since the state that follows may be the one already drawn.
        if (this.seats.join() !== before && this.store.game && !this.incoming) {
          this.placement.refresh();
          this.render();
        }
        break;
      }
      case "state":
        this.apply(msg.game, msg.event ? [msg.event] : []);
        break;
      case "update":
        this.applyUpdate(msg);
        break;
      case "sync":
        if (msg.events && msg.events.length) {
          announce(fmt(ngettext("Reconnected: {n} change caught up.", "Reconnected: {n} changes caught up.",
            msg.events.length), {}));
        }
        this.apply(msg.game, msg.events || []);
        break;
      case "presence":
        this.presence = msg;
        this.renderPlayers();
        break;
      case "rated": {
        // A rated game's rating changes, a moment after its end (docs/accounts.md).
        const g = this.latest();
        if (msg.ratings && g) this.receive({ ...g, ratings: msg.ratings }, []);
        break;
      }
      case "error":
        if (msg.ref === undefined) toast(errorText(msg), "error");
        break;
      default:
        break;
    }
  }

  onConnection(status) {
    const badge = this.root.querySelector("#connection");
    if (!badge) return;
    const words = {
      connecting: _("Connecting…"),
      reconnecting: _("Reconnecting…"),
      online: _("Connected"),
      offline: _("Connection lost: reconnecting…"),
      refused: _("The server refused this seat."),
      closed: "",
    };
    badge.textContent = words[status] || "";
    badge.title = words[status] || "";
    badge.dataset.status = status;
    if (status === "offline") announce(words.offline);
  }

  apply(game, events) {
    if (!game) return;
    const current = this.latest();
    if (current && current.id === game.id && game.version < current.version) return;
    // The same game again (the socket's first state after the page's own request, a
    // reconnection with nothing missed): nothing to draw.
    if (!events.length && current && JSON.stringify(game) === JSON.stringify(current)) return;
    this.receive(game, events);
    for (const e of events) {
      if (e.kind === "rematch" && e.game_id) this.goToRematch(e.game_id);
    }
  }

  // The newest game from the server: the one waiting for the next frame, else the one shown.
  latest() {
    return this.incoming ? this.incoming.game : this.store.game;
  }

  // A game from the server is shown at the next frame, with the events of every message
  // since: a page that fell behind (a busy or throttled tab, a burst of moves made elsewhere)
  // draws once, not once a message, and keeps up. A hidden page, which draws no frames, takes
  // it at once, so that its notices still go out.
  receive(game, events) {
    if (this.incoming) {
      this.incoming.game = game;
      this.incoming.events.push(...events);
      return;
    }
    this.incoming = { game, events: [...events] };
    if (document.hidden) this.takeIncoming();
    else this.cancelIncoming = nextFrame(() => this.takeIncoming());
  }

  takeIncoming() {
    const incoming = this.incoming;
    this.incoming = null;
    if (!incoming) return;
    this.events = incoming.events;
    this.store.set(incoming.game);
  }

  // A move's update: what it changed, over the view this screen holds at its `since`.
  applyUpdate(msg) {
    const g = this.latest();
    if (g && msg.version <= g.version) return;
    if (!g || g.version !== msg.since) {
      // A version went missing (a move made over HTTP meanwhile): ask for the whole game.
      if (this.socket) this.socket.send({ type: "sync" });
      return;
    }
    this.apply({ ...g, ...msg.changes, version: msg.version, history: [...g.history, msg.entry] },
      [msg.event]);
  }

  // -- what changed ---------------------------------------------------------------------------

  changed(game, previous) {
    this.watchRatings(game, previous);
    if (previous && previous.id === game.id) this.tellChanges(game, previous);
    else if (game.history.length) this.showLastMove(game.history[game.history.length - 1]);
    else this.els.lastMove.replaceChildren();
    this.placement.refresh();
    this.render();
  }

  // A rated game is rated a moment after it ends: the ratings come as a `rated` message or
  // a newer view; should neither come, the page asks for the game again now and then. The
  // header's rating follows once they are in.
  watchRatings(game, previous) {
    clearTimeout(this.ratingsTimer);
    const waiting = game.rated && game.status === "finished" && !game.ratings;
    if (waiting) {
      this.ratingsTries = (this.ratingsTries || 0) + 1;
      if (this.ratingsTries <= 10) {
        this.ratingsTimer = setTimeout(async () => {
          try {
            const fresh = await api.game(this.id);
            const g = this.latest();
            if (g && fresh.ratings && !g.ratings) this.receive({ ...g, ratings: fresh.ratings }, []);
            else if (g && !g.ratings) this.watchRatings(g, g);
          } catch {
            const g = this.latest(); // the server is away a moment: asked again, later
            if (g && !g.ratings) this.watchRatings(g, g);
          }
        }, 1500 * this.ratingsTries);
      }
    }
    const mineRated = this.seats.some((s) => game.seats[s] && game.seats[s].account);
    if (game.ratings && !(previous && previous.ratings) && mineRated && previous) refreshAccount();
  }

  name(seat) {
    const g = this.store.game;
    const mine = this.seats.includes(seat) && this.store.game.mode !== "local";
    const n = g ? this.plainName(seat) : String(seat + 1);
    return mine ? fmt(_("{name} (you)"), { name: n }) : n;
  }

  // A seat bound to an account: its name links to the player's profile.
  nameTag(seat) {
    const info = this.store.game.seats[seat];
    if (!info.account) return this.name(seat);
    const mine = this.seats.includes(seat) && this.store.game.mode !== "local";
    const link = h("a", { class: "player-link", href: `/players/${encodeURIComponent(info.name)}`,
      "data-link": "1", dir: "ltr", text: info.name });
    if (!mine) return link;
    // "{name} (you)" in the page's language, the name a link.
    const [before, after = ""] = _("{name} (you)").split("{name}");
    return h("span", {}, [before, link, after]);
  }

  // The seat's rating where the view gives it (a seat bound to an account).
  ratingTag(seat) {
    const info = this.store.game.seats[seat];
    if (!info.account || info.rating === null || info.rating === undefined) return null;
    return h("span", { class: "tag seat-rating", text: ratingText(info.rating, info.provisional) });
  }

  // Names as every front end gives them: a person by the name they gave, else "Player N" by
  // seat; the computer by its level ("AI level 3", everywhere in the page); "(you)" is added
  // where it matters (name()), and sentences about you have their own words ("Your turn").
  plainName(seat) {
    const info = this.store.game.seats[seat];
    return seatName(info, seat);
  }

  tellChanges(game, previous) {
    // Moves made since the last view, in words: the last of them in the last-move line.
    const fresh = game.history.slice(previous.history.length);
    for (const entry of fresh) {
      const text = this.moveWords(entry);
      if (!this.seats.includes(entry.seat) || game.mode === "local") announce(text);
      // Solo: what Automa did after the move, said like any opponent's move.
      // The screen reader hears the terminal app's sentences; the notice (like the last-move
      // line) says the turns in short, one line however many there were.
      const turns = entry.outcome.automa_turns || [];
      if (turns.length) {
        announce(turns.map((t) => turnLines(t).join(" ")).join(" "));
        toast(turnsCompact(turns), "info", 6000);
      }
    }
    if (fresh.length) this.showLastMove(fresh[fresh.length - 1]);
    this.animateMoves(fresh, previous);
    if (game.pending_specials > previous.pending_specials && game.to_move !== null) {
      toast(sentence(fmt(_("{name} takes a special patch: place it on any empty square."),
        { name: this.plainName(game.to_move) })), "good", 7000);
    }
    if (previous.bonus_owner === null && game.bonus_owner !== null) {
      toast(sentence(fmt(_("{name} has filled a 7×7 square and takes the bonus tile: +{points} points!"),
        { name: this.plainName(game.bonus_owner), points: this.meta.bonus_points })), "good", 8000);
    }
    if (game.history.length < previous.history.length) {
      announce(_("Moves taken back."));
      if (game.history.length) this.showLastMove(game.history[game.history.length - 1]);
      else this.els.lastMove.replaceChildren();
    }
    if (previous.status === "waiting" && game.status === "active") {
      toast(sentence(fmt(_("{name} has joined. The game begins!"),
        { name: this.plainName(game.seats.findIndex((s, i) => !this.seats.includes(i))) })), "good");
    }
    if (previous.status !== "finished" && game.status === "finished") {
      announce(this.resultHeadline(game));
    }
    tellTakeback(this, game, previous, this.events);
    if (game.rematch.offered_by !== null && previous.rematch.offered_by === null &&
        !this.seats.includes(game.rematch.offered_by)) {
      toast(_("Your opponent offers a rematch."), "info", 8000);
    }
    if (game.to_move !== null && game.to_move !== previous.to_move && this.activeSeat() !== null &&
        game.mode !== "local") {
      announce(_("Your turn."));
    }
    // Its sound, and your turn or the end told to a player away from the page.
    if (this.notifier) {
      const theirs = fresh.filter((e) => !this.seats.includes(e.seat)).pop();
      this.notifier.changed(game, previous, this.seats, theirs ? this.moveWords(theirs) : "",
        this.resultHeadline(game));
    }
  }

  // A move in plain words, from the facts the server gives with it (`outcome`).
  moveWords(entry) {
    const who = this.plainName(entry.seat);
    const o = entry.outcome;
    const parts = [];
    if (entry.move === "A") {
      parts.push(fmt(ngettext("{name} advanced to space {space} and collected {n} button.",
        "{name} advanced to space {space} and collected {n} buttons.", o.buttons_collected),
      { name: who, space: o.space_to }));
    } else if (entry.move.startsWith("S@")) {
      parts.push(fmt(_("{name} sewed a special patch on {square}."), { name: who, square: entry.squares[0] }));
    } else {
      const patch = this.meta.patches[movePatch(entry.move)];
      parts.push(patch.income
        ? fmt(ngettext("{name} bought patch {patch} for {n} button: +{income} income.",
          "{name} bought patch {patch} for {n} buttons: +{income} income.", o.buttons_paid),
        { name: who, patch: patch.patch, income: patch.income })
        : fmt(ngettext("{name} bought patch {patch} for {n} button.",
          "{name} bought patch {patch} for {n} buttons.", o.buttons_paid),
        { name: who, patch: patch.patch }));
    }
    if (o.income_collected > 0) {
      parts.push(fmt(ngettext("{name} collected {n} button of income.",
        "{name} collected {n} buttons of income.", o.income_collected), { name: who }));
    }
    if (o.specials_won > 0) {
      parts.push(fmt(ngettext("{name} won a special patch.", "{name} won {n} special patches.",
        o.specials_won), { name: who }));
    }
    if (o.bonus_won) parts.push(fmt(_("{name} won the 7×7 bonus."), { name: who }));
    return sentence(parts.join(" "));
  }

  showLastMove(entry) {
    const turns = entry.outcome.automa_turns || [];
    this.els.lastMove.replaceChildren(
      seatToken(entry.seat),
      h("span", { class: "words", text: " " + this.moveWords(entry) }),
      h("span", { class: "details", dir: "ltr", text: digits(entry.move) }),
      ...(turns.length ? [this.automaTurns(turns)] : []),
    );
    this.els.lastMove.dataset.seat = String(entry.seat);
    this.els.lastMove.dataset.ply = String(entry.ply);
  }

  // Automa's turns after a move, in one short sentence ("Automa bought patches 29 and 2 and
  // moved to space 3."); the terminal app's full sentences of each turn as its title.
  automaTurns(turns) {
    return h("span", { class: "automa-turns", "data-automa-turns": String(turns.length),
      title: turns.map((t) => turnLines(t).join(" ")).join("\n") },
    [seatToken(AUTOMA), h("span", { class: "words", text: " " + turnsCompact(turns) })]);
  }

  // What the other player just did, shown: the patch travels from the circle to their quilt
  // and their time token along the track (not for someone who asked for less motion).
  animateMoves(fresh, previous) {
    const last = fresh[fresh.length - 1];
    if (!last || (this.seats.includes(last.seat) && previous.mode !== "local")) return;
    if (window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
    const patchId = last.move === "A" || last.move.startsWith("S@") ? null : movePatch(last.move);
    const from = patchId === null ? null : this.els.ring.querySelector(`[data-patch="${patchId}"]`);
    const shape = from && from.querySelector("svg");
    const start = shape ? shape.getBoundingClientRect() : null;
    requestAnimationFrame(() => {
      if (start) this.flyPatch(patchId, start, last);
      const token = this.els.timeboard.querySelector(`[data-token="${last.seat}"]`);
      if (token) {
        const [x0, y0] = spaceCentre(last.outcome.space_from);
        const [x1, y1] = spaceCentre(Math.min(last.outcome.space_to, this.meta.final_space));
        token.animate([{ transform: `translate(${x0 - x1}px, ${y0 - y1}px)` }, { transform: "none" }],
          { duration: 700, easing: "ease-in-out" });
      }
    });
  }

  flyPatch(patchId, start, entry) {
    const quilt = this.quilts[entry.seat].svg;
    const box = quilt.getBoundingClientRect();
    const vb = quilt.viewBox.baseVal;
    const cells = entry.squares.map((sq) => [Number(sq.slice(1)) - 1, "abcdefghi".indexOf(sq[0])]);
    const r0 = Math.min(...cells.map((c) => c[0])), r1 = Math.max(...cells.map((c) => c[0]));
    const c0 = Math.min(...cells.map((c) => c[1])), c1 = Math.max(...cells.map((c) => c[1]));
    const unit = box.width / vb.width;
    const end = { left: box.left + (c0 * 10 - vb.x) * unit, top: box.top + (r0 * 10 - vb.y) * unit,
      width: (c1 - c0 + 1) * 10 * unit, height: (r1 - r0 + 1) * 10 * unit };
    const ghost = h("div", { class: "flying-patch", "aria-hidden": "true" },
      [patchSvg(this.meta.patches[patchId], 0, 10)]);
    Object.assign(ghost.style, { left: `${start.left}px`, top: `${start.top}px`,
      width: `${start.width}px`, height: `${start.height}px` });
    document.body.append(ghost);
    const dx = end.left - start.left, dy = end.top - start.top;
    ghost.animate([{ transform: "none", opacity: 1 },
      { transform: `translate(${dx}px, ${dy}px) scale(${end.width / start.width}, ${end.height / start.height})`, opacity: 0.2 }],
    { duration: 800, easing: "ease-in-out", fill: "forwards" }).finished.then(() => ghost.remove(), () => ghost.remove());
  }

  // The seat this browser may place for now (null: not ours to move).
  activeSeat() {
    const g = this.store.game;
    if (!g || g.status !== "active" || g.to_move === null) return null;
    return this.seats.includes(g.to_move) ? g.to_move : null;
  }

  boardOrder() {
    const g = this.store.game;
    if (g.mode !== "local" && this.seats.length === 1) return [this.seats[0], 1 - this.seats[0]];
    return [0, 1];
  }

  // -- layout ---------------------------------------------------------------------------------

  layout() {
    this.root.replaceChildren();
    this.els = {
      bar: h("section", { class: "turn-bar", "aria-label": _("Game status") }),
      players: [h("section", { class: "player" }), h("section", { class: "player" })],
      moves: h("section", { class: "moves card", "aria-labelledby": "moves-title" }),
      end: h("div", { class: "end-slot" }),
      invite: h("div", { class: "invite-slot" }),
      takeback: h("div", { class: "takeback-slot" }),
      tournament: h("p", { class: "game-tournament small", id: "game-tournament", hidden: true }),
    };
    this.els.timeboard = h("div", { class: "timeboard-box", dir: "ltr" });
    this.els.tray = h("div", { class: "tray", role: "group", "aria-labelledby": "offer-title" });
    this.els.status = h("p", { class: "place-status", role: "status", id: "place-status" });
    this.els.tools = h("div", { class: "piece-tools" });
    this.els.offerBox = h("section", { class: "card offer-box", "aria-labelledby": "offer-title" }, [
      h("h2", { id: "offer-title", text: _("On offer") }),
      this.els.tray, this.els.tools, this.els.status,
    ]);
    // The table: the circle of patches laid out around the time board, as on a real table.
    this.els.ring = h("ol", { class: "ring", "aria-labelledby": "circle-title" });
    installPatchZoom(this.els.ring, this.meta.patches);
    this.els.tableBox = h("section", { class: "card table-box", "aria-labelledby": "circle-title" }, [
      h("div", { class: "table-head" }, [
        h("h2", { id: "circle-title", text: _("The circle and the time board") }), legend()]),
      h("div", { class: "table-ring", dir: "ltr" }, [this.els.ring,
        h("div", { class: "ring-centre" }, [this.els.timeboard])]),
    ]);
    this.els.lastMove = h("p", { class: "last-move", "data-last-move": "", "aria-live": "polite" });
    this.els.moveList = h("ol", { class: "move-list", id: "move-list" });
    this.els.moves.append(h("h2", { id: "moves-title", text: _("Moves") }), this.els.moveList);
    const grid = h("div", { class: "game-grid" }, [
      this.els.offerBox, this.els.players[0], this.els.tableBox,
      this.els.players[1], this.els.moves,
    ]);
    // The chat (chat.js) after the grid, so that it stays on the end screen; it shows once
    // the server sends its room (a game against the AI has none).
    this.chat = new ChatPanel({ send: (m) => Boolean(this.socket && this.socket.open && (this.socket.send(m), true)) });
    this.root.append(h("div", { class: "game-top" },
      [this.els.bar, this.els.tournament, this.els.takeback, this.els.invite, this.els.end]),
      grid, this.chat.element);
    for (const [i, q] of this.quilts.entries()) {
      q.svg.addEventListener("pointerdown", (e) => {
        if (this.activeSeat() === i) this.placement.pointerOnBoard(e, q);
      });
    }
  }

  render() {
    const g = this.store.game;
    if (!g || !this.els) return;
    // For people nothing; for tests and tools, which version this screen shows.
    this.root.dataset.version = String(g.version);
    this.root.dataset.status = g.status;
    const title = _("Patchwork");
    const pageTitle = `${title} – ${this.plainName(0)} : ${this.plainName(1)}`;
    if (this.notifier) this.notifier.title(pageTitle);
    else document.title = pageTitle;
    this.askTournament();
    this.renderBar();
    this.renderTournament();
    if (this.els.takeback) renderTakeback(this, this.els.takeback);
    this.renderInvite();
    this.renderPlayers();
    this.renderTray();
    renderCircle(this.els.ring, { circle: g.circle, patches: this.meta.patches,
      offered: this.meta.offered_patches });
    renderTimeBoard(this.els.timeboard, {
      meta: this.meta, players: g.players, specialsLeft: g.special_spaces_left,
      onTop: g.on_top, names: [0, 1].map((s) => this.plainName(s)),
      marker: g.automa ? g.automa.marker : null,
    });
    this.renderMoves();
    const ended = this.els.end.childElementCount === 0 && g.status === "finished";
    renderEnd(this, this.els.end);
    const endTitle = ended ? this.els.end.querySelector("#end-title") : null; // (a board has none)
    this.placement.update();
    // Keyboard users should not be sent back to the top after every move: when focus was
    // lost with the elements that held it, it goes to the end title or the first patch.
    const lost = !document.activeElement || document.activeElement === document.body;
    if (endTitle) endTitle.focus();
    else if (lost && this.activeSeat() !== null && !document.querySelector("dialog[open]")) {
      const first = this.els.tray.querySelector(".offer-card:not(.inert)") ||
        this.root.querySelector("#advance");
      if (first) first.focus({ preventScroll: true });
    }
  }

  // A game between two accounts may be a tournament's: asked once per game, the answer kept
  // (the end screen offers the way back to the event instead of a rematch). No request for a
  // game against the AI, at one screen, solo, or with a guest.
  askTournament() {
    const g = this.store.game;
    if (this.tournamentAsked || !rematchByChallenge(g)) return;
    this.tournamentAsked = true;
    api.tournamentOfGame(this.id).then((t) => t, () => null).then((t) => {
      this.tournament = t && t.tournament_id ? t : null;
      if (!this.els || this.leaving) return;
      this.renderTournament();
      renderEnd(this, this.els.end);
    });
  }

  nextTournamentGame(n) {
    const a = n && n.about;
    const t = this.tournament;
    if (!a || a.kind !== "tournament" || !a.game_id || a.game_id === this.id) return;
    if (!t || a.tournament_id !== t.tournament_id || !this.seats.length || !this.els) return;
    this.nextGame = { gameId: a.game_id, opponent: a.opponent || "?" };
    // Shown at once on the end screen, or when the game's end reaches this page.
    renderEnd(this, this.els.end);
    toast(fmt(_("Your next game of {tournament} is ready."), { tournament: a.tournament }), "info", 5000);
  }

  // During the game, a small line under the bar: "Tournament: {name}", a link to the event.
  renderTournament() {
    const line = this.els.tournament;
    const t = this.tournament;
    const g = this.store.game;
    const show = Boolean(t) && g && g.status !== "finished";
    line.hidden = !show;
    if (!show) {
      line.replaceChildren();
      return;
    }
    if (line.dataset.tournament === t.tournament_id) return;
    line.dataset.tournament = t.tournament_id;
    line.replaceChildren(...fmtNodes(_("Tournament: {name}"), {
      name: h("a", { href: `/tournaments/${encodeURIComponent(t.tournament_id)}`, "data-link": "1" },
        [h("bdi", { text: t.name })]),
    }));
  }

  renderBar() {
    const g = this.store.game;
    const bar = this.els.bar;
    const active = this.activeSeat();
    let headline;
    if (g.status === "waiting") headline = _("Waiting for your friend to join…");
    else if (g.status === "finished") headline = _("Game over");
    else if (active !== null && g.pending_specials > 0) headline = g.mode === "local"
      ? fmt(_("{name}: place your special patch"), { name: this.plainName(active) })
      : _("Your turn: place your special patch");
    else if (active !== null) headline = g.mode === "local"
      ? sentence(fmt(_("{name}'s turn"), { name: this.plainName(active) })) : _("Your turn");
    else if (g.seats[g.to_move].kind === "ai") headline = _("The computer is thinking…");
    else headline = sentence(fmt(_("{name}'s turn"), { name: this.plainName(g.to_move) }));
    const turnSeat = g.status === "active" ? g.to_move : null;
    const buttons = [];
    const mine = this.seats.length > 0;
    if (active !== null) buttons.push(this.advanceButton(() => this.confirmAdvance()));
    if (g.rated) {
      // A rated game counts for the rating: no undo, hints or analysis while it runs.
      buttons.push(h("span", { class: "tag rated", id: "rated-tag",
        title: g.status === "active" ? _("No undo or hints in a rated game.") : null },
      [g.status === "active" && mine ? _("Rated: no undo or hints") : _("Rated game")]));
    } else {
      if (mine && (g.mode === "ai" || g.mode === "solo") && active !== null) {
        buttons.push(h("button", { type: "button", id: "hint", onclick: () => this.hint() }, [_("Hint")]));
      }
      if (mine && g.undo_available) {
        buttons.push(h("button", { type: "button", id: "undo", onclick: () => this.undo() }, [_("Undo")]));
      }
    }
    buttons.push(takebackButton(this));
    if (mine && g.status === "active") {
      buttons.push(h("button", { type: "button", id: "resign", class: "quiet",
        onclick: () => this.resign() }, [_("Resign")]));
    }
    if (mine && g.status !== "finished") buttons.push(this.settingsMenu());
    const claimable = this.presence && g.mode === "online" && g.status === "active" && mine &&
      this.presence.seats.some((s) => !this.seats.includes(s.seat) && s.claimable);
    if (claimable) {
      buttons.push(h("button", { type: "button", id: "claim", onclick: () => this.claim() },
        [_("Claim the win")]));
    }
    bar.replaceChildren(...[
      h("div", { class: "turn", "data-seat": turnSeat === null ? "" : String(turnSeat) }, [
        turnSeat === null ? null : seatToken(turnSeat),
        h("strong", { id: "headline", text: headline }),
      ]),
      this.els.lastMove,
      this.seats.length ? null : h("span", { class: "tag", text: _("You are watching") }),
      h("div", { class: "actions" }, buttons),
      h("span", { id: "connection", class: "connection", "aria-live": "polite" }),
    ].filter(Boolean));
    if (this.socket) this.onConnection(this.socket.open ? "online" : "offline");
  }

  // What tells the player of a game their turn and the end (notify.js); none on a board
  // (board.js: the analysis board, puzzles, lessons), where no opponent plays elsewhere.
  makeNotifier() {
    return new Notifier();
  }

  // The bar's Advance, with the buttons it brings (``counted`` false: "Advance" alone); null
  // where the position offers none (a special patch to place first, or the game over).
  advanceButton(onclick, counted = true) {
    const g = this.store.game;
    if (!g.advance || g.pending_specials !== 0) return null;
    const text = counted
      ? fmt(ngettext("Advance: +{n} button", "Advance: +{n} buttons", g.advance.buttons), {})
      : _("Advance");
    return h("button", { type: "button", class: "primary", id: "advance", onclick }, [text]);
  }

  // The game's settings: a menu behind a button of the turn bar, kept across updates (so it
  // stays open while the game goes on): whether advancing asks first, sounds, notifications.
  settingsMenu() {
    if (!this.els.settings) {
      const ask = h("input", { type: "checkbox", id: "ask-advance" });
      ask.addEventListener("change", () => savePrefs({ confirmAdvance: ask.checked }));
      const menu = h("details", { class: "game-settings", id: "game-settings" }, [
        h("summary", { id: "settings-button", title: _("Settings"), "aria-label": _("Settings") },
          [icon("gear")]),
        h("div", { class: "settings-panel" }, [
          h("label", { class: "check" }, [ask, h("span", { text: _("Ask before advancing") })]),
          ...this.notifier.switches(this.store.game, this.seats),
        ]),
      ]);
      menu.addEventListener("toggle", () => {
        if (menu.open) ask.checked = askBeforeAdvancing();
      });
      menu.addEventListener("keydown", (e) => {
        if (e.key === "Escape" && menu.open) {
          e.stopPropagation();
          menu.open = false;
          menu.querySelector("summary").focus();
        }
      });
      // A click elsewhere closes it, as the header's account menu.
      this.onDocumentClick = (e) => {
        if (menu.open && !menu.contains(e.target)) menu.open = false;
      };
      document.addEventListener("click", this.onDocumentClick);
      this.els.settings = menu;
      this.els.askAdvance = ask;
    }
    this.els.askAdvance.checked = askBeforeAdvancing();
    return this.els.settings;
  }

  resultHeadline(g) {
    const r = g.result;
    if (!r) return _("Game over");
    if (r.winner === null || r.winner === undefined) return _("Game over");
    const you = this.seats.includes(r.winner) && g.mode !== "local";
    const lost = !you && this.seats.length === 1 && g.mode !== "local";
    if (you) return _("You win!");
    if (lost) return sentence(fmt(_("{name} wins."), { name: this.plainName(r.winner) }));
    return sentence(fmt(_("{name} wins!"), { name: this.plainName(r.winner) }));
  }

  renderInvite() {
    const g = this.store.game;
    const saved = loadSeat(this.id);
    if (g.status !== "waiting" || !saved || !saved.invite) {
      this.els.invite.replaceChildren();
      return;
    }
    const link = `${location.origin}/play/${this.id}#invite=${saved.invite}`;
    const input = h("input", { readonly: true, value: link, id: "invite-link",
      "aria-label": _("Invitation link"), onfocus: (e) => e.target.select() });
    const copy = h("button", { type: "button", id: "copy-link", onclick: async () => {
      try {
        await navigator.clipboard.writeText(link);
        toast(_("Link copied."), "good", 2500);
      } catch {
        input.select();
        toast(_("Select the link and copy it."), "info", 3000);
      }
    } }, [_("Copy")]);
    const share = navigator.share ? h("button", { type: "button", onclick: () =>
      navigator.share({ title: _("Patchwork"), text: _("Play Patchwork with me"), url: link }).catch(() => {}) },
    [_("Share")]) : null;
    this.els.invite.replaceChildren(h("section", { class: "card invite" }, [
      h("h2", { text: _("Invite a friend") }),
      h("p", { text: _("Send this link to the person you want to play. The game starts when they open it.") }),
      h("div", { class: "invite-row" }, [input, copy, share]),
    ]));
  }

  renderPlayers() {
    const g = this.store.game;
    if (!g || !this.els) return;
    const order = this.boardOrder();
    const pieces = piecesBySeat(g.history);
    const active = this.activeSeat();
    order.forEach((seat, slot) => {
      const box = this.els.players[slot];
      const p = g.players[seat];
      const quilt = this.quilts[seat];
      quilt.render(p.quilt, pieces[seat], this.meta.patches, g.bonus_owner === seat);
      quilt.describe(this.plainName(seat), p.empty_squares);
      const here = this.presence && this.presence.seats.find((s) => s.seat === seat);
      const away = here && g.seats[seat].kind === "human" && !here.connected && g.mode === "online";
      const moving = g.status === "active" && g.to_move === seat;
      // One lasting element per board, so keyboard focus on it survives every update.
      this.boardBoxes = this.boardBoxes || [h("div"), h("div")];
      const boardBox = this.boardBoxes[seat];
      if (boardBox.firstChild !== quilt.svg) boardBox.replaceChildren(quilt.svg);
      boardBox.className = "board-focus" + (active === seat ? " active" : "");
      for (const [name, value] of Object.entries({
        tabindex: active === seat ? "0" : null,
        "aria-describedby": active === seat ? "place-status" : null,
        "aria-label": active === seat ? _("Your quilt board: arrow keys move the patch, R turns, F flips, Enter sews it on") : null,
      })) {
        if (value === null) boardBox.removeAttribute(name);
        else boardBox.setAttribute(name, value);
      }
      const seatInfo = g.seats[seat];
      if (seatInfo.kind === "automa" && g.automa) {
        box.className = `player card automa seat${seat}` + (slot === 0 ? " first" : " second");
        box.setAttribute("aria-label", this.plainName(seat));
        box.replaceChildren(
          h("header", { class: "player-head" }, [
            seatToken(seat),
            h("h2", { class: "player-name", text: this.plainName(seat) }),
            h("span", { class: "tag", text: _("solo opponent") }),
          ]),
          automaPanel(g, this.meta),
        );
        return;
      }
      const hadFocus = boardBox.contains(document.activeElement);
      box.className = `player card seat${seat}` + (moving ? " moving" : "") + (slot === 0 ? " first" : " second");
      box.setAttribute("aria-label", this.plainName(seat));
      box.replaceChildren(
        h("header", { class: "player-head" }, [
          seatToken(seat),
          h("h2", { class: "player-name" }, [this.nameTag(seat)]),
          this.ratingTag(seat),
          seatInfo.bot ? botTag() : null,
          seatInfo.kind === "ai" ? h("span", { class: "tag", text: _("the computer") }) : null,
          g.bonus_owner === seat ? h("span", { class: "tag bonus-tag", text: _("has the 7×7 bonus tile") }) : null,
          moving ? h("span", { class: "tag turn-tag", text: _("to move") }) : null,
          away ? h("span", { class: "tag away", text: _("away") }) : null,
          seatInfo.kind === "human" ? h("span", { class: "clock", "data-seat": String(seat) }) : null,
        ]),
        h("dl", { class: "figures" }, [
          h("div", {}, [h("dt", { text: _("Buttons") }), h("dd", { class: "buttons-count", text: num(p.buttons) })]),
          h("div", {}, [h("dt", { text: _("Income") }), h("dd", { text: num(p.income) })]),
          h("div", {}, [h("dt", { text: _("Space") }), h("dd", { text: num(p.position) })]),
          h("div", {}, [h("dt", { text: g.status === "finished" ? _("Final score") : _("Score now") }),
            // Before a first patch the score is only the empty quilt's penalty (-157): a
            // figure that says nothing yet, so none is shown (as in the terminal app).
            h("dd", { class: "score", text: g.status !== "finished" && !p.quilt.some((row) =>
              row.includes("#")) ? "–" : num(g.scores[seat]) })]),
        ]),
        boardBox,
      );
      if (hadFocus && active === seat) boardBox.focus({ preventScroll: true });
    });
    this.renderClocks();
  }

  renderClocks() {
    const g = this.store.game;
    if (!g || !g.clock || !this.els) return;
    const c = g.clock;
    for (const span of this.root.querySelectorAll(".clock")) {
      const seat = Number(span.dataset.seat);
      if (c.kind === "correspondence") {
        span.textContent = c.running === seat && c.flag_at
          ? fmt(_("move by {date}"), { date: new Date(c.flag_at * 1000).toLocaleString() }) : "";
        continue;
      }
      let ms = c.remaining_ms[seat];
      if (c.running === seat && c.turn_started) {
        ms -= (Date.now() / 1000 + this.clockOffset - c.turn_started) * 1000;
      }
      ms = Math.max(0, ms);
      const s = Math.ceil(ms / 1000);
      span.textContent = `${num(Math.floor(s / 60))}:${String(s % 60).padStart(2, "0")}`;
      span.classList.toggle("running", c.running === seat);
      span.classList.toggle("low", ms < 30000);
    }
  }

  // While a patch is held, the whole quilt it goes on stays in view (on a phone the offer
  // sits above the quilt, so the page moves up under the held patch once, as it is picked up).
  keepQuiltInView() {
    const held = Boolean(this.placement.piece);
    if (held && !this.wasHeld) {
      requestAnimationFrame(() => {
        const board = this.root.querySelector(".board-focus.active");
        if (!board) return;
        const r = board.getBoundingClientRect();
        const below = r.bottom - window.innerHeight + 8;
        if (below > 0 || r.top < 0) {
          window.scrollBy({ top: r.top < 0 ? r.top - 8 : Math.min(below, r.top - 8), behavior: "instant" });
        }
      });
    }
    this.wasHeld = held;
  }

  renderTray() {
    const g = this.store.game;
    if (!g || !this.els) return;
    const active = this.activeSeat();
    const piece = this.placement.piece;
    // Rebuilding the cards under a dragging pointer would end the drag, so cards are only
    // rebuilt when the offer changes; otherwise they are updated in place.
    const signature = JSON.stringify([active, g.pending_specials, g.version,
      g.offer.map((o) => [o.patch, o.buyable])]);
    if (signature !== this.traySignature) {
      this.traySignature = signature;
      this.buildCards(g, active);
    }
    for (const card of this.els.tray.querySelectorAll(".offer-card")) {
      const selected = Boolean(piece) && (card.dataset.special
        ? piece.kind === "special" : piece.kind === "patch" && String(piece.patch) === card.dataset.patch);
      card.classList.toggle("selected", selected);
      card.setAttribute("aria-pressed", selected ? "true" : "false");
      if (card.dataset.patch) {
        const o = g.offer.find((x) => String(x.patch) === card.dataset.patch);
        const orientation = selected ? this.placement.orientation : 0;
        if (Number(card.dataset.orientation || 0) !== orientation) {
          card.dataset.orientation = String(orientation);
          card.querySelector(".card-shape").replaceChildren(patchSvg(o, orientation, 20));
        }
      }
    }
    // The tools stay in place (disabled with nothing picked up) for the whole turn, so the
    // quilt below never jumps under a finger that is dragging a patch to it.
    const tools = [];
    if (active !== null) {
      const none = !piece;
      tools.push(
        h("button", { type: "button", id: "rotate", disabled: none || !g.rules.rotation,
          onclick: () => this.placement.rotate() }, [_("Turn"), h("kbd", { text: "R" })]),
        h("button", { type: "button", id: "flip", disabled: none || !g.rules.flip,
          onclick: () => this.placement.flip() }, [_("Flip"), h("kbd", { text: "F" })]),
        h("button", { type: "button", id: "place", class: "primary", disabled: none,
          onclick: () => this.placement.place() }, [_("Sew it on"), h("kbd", { text: "Enter" })]),
        h("button", { type: "button", id: "cancel", class: "quiet", disabled: none,
          onclick: () => this.placement.cancel() }, [_("Put back"), h("kbd", { text: "Esc" })]),
      );
    }
    const focusedTool = this.els.tools.contains(document.activeElement) ? document.activeElement.id : null;
    this.els.tools.replaceChildren(...tools);
    if (focusedTool) {
      const again = this.els.tools.querySelector(`#${focusedTool}`);
      if (again && !again.disabled) again.focus();
    }
    if (!piece) {
      if (active !== null) {
        this.setStatus(g.pending_specials > 0
          ? _("Drag the special patch onto any empty square of your quilt.")
          : touchScreen() ? _("Drag a patch onto your quilt with a finger; while you hold it, Turn and Flip turn it.")
            : _("Drag a patch onto your quilt, or pick one with Enter and place it with the arrow keys."), "");
      } else {
        this.setStatus("", "");
      }
    }
  }

  buildCards(g, active) {
    const cards = [];
    if (active !== null && g.pending_specials > 0) {
      const card = h("button", { type: "button", class: "offer-card special", "data-special": "1",
        "aria-pressed": "false", "aria-label": _("Special patch: place it on any empty square") }, [
        h("div", { class: "card-shape" }, [specialSvg(34)]),
        h("span", { class: "card-title", text: _("Special patch") }),
      ]);
      const special = { kind: "special", shape: ["#"], income: 0 };
      card.addEventListener("pointerdown", (e) => this.placement.pointerDownOnCard(e, special, card));
      card.addEventListener("keydown", (e) => this.cardKey(e, special));
      cards.push(card);
    } else {
      g.offer.forEach((o, i) => {
        const can = active !== null && o.buyable;
        // The offer's `buyable` is the player to move's: it is shown on that player's own
        // turn only, never under the quilt of the one who waits for the other to move.
        const unbuyable = active !== null && !o.buyable;
        let why = "";
        if (unbuyable) {
          why = g.players[active].buttons < o.buttons
            ? fmt(_("Too dear: {have} buttons to spend"), { have: g.players[active].buttons })
            : _("Fits nowhere on the quilt");
        }
        const card = h("button", {
          type: "button",
          // Striped and labelled when this player, to move, cannot buy it; merely inert
          // when it is not this browser's turn.
          class: "offer-card" + (unbuyable ? " dimmed" : "") + (can ? "" : " inert"),
          "data-patch": String(o.patch),
          "aria-pressed": "false",
          "aria-disabled": can ? null : "true",
          "aria-label": patchLabel(o) + (why ? `. ${why}` : "") + (can ? ". " + _("Press Enter to pick it up.") : ""),
        }, [
          h("span", { class: "slot-no", "aria-hidden": "true", text: num(i + 1) }),
          h("div", { class: "card-shape" }, [patchSvg(o, 0, 20)]),
          patchFacts(o),
          why ? h("span", { class: "why", text: why }) : null,
        ]);
        const p = { kind: "patch", patch: o.patch, shape: o.shape, income: o.income };
        if (can) {
          card.addEventListener("pointerdown", (e) => this.placement.pointerDownOnCard(e, p, card));
          card.addEventListener("keydown", (e) => this.cardKey(e, p));
        } else {
          card.addEventListener("click", () => {
            if (why) this.setStatus(why, "blocked");
          });
        }
        cards.push(card);
      });
    }
    const focusInTray = this.els.tray.contains(document.activeElement);
    const focused = focusInTray ? document.activeElement.dataset.patch : null;
    this.els.tray.replaceChildren(...cards);
    if (focused) {
      const again = this.els.tray.querySelector(`[data-patch="${focused}"]`);
      if (again) again.focus();
    }
  }

  cardKey(event, piece) {
    if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      this.placement.select(piece, { keepOrientation: true });
      const board = this.root.querySelector(".board-focus.active");
      if (board) board.focus();
    }
  }

  renderMoves() {
    const g = this.store.game;
    const list = this.els.moveList;
    // (A move follows at once; only when none came is the scroll position read, which costs
    // the page a layout of all that this drawing changed so far.)
    const follow = !this.movesShown || g.history.length !== this.movesShown ||
      list.scrollTop + list.clientHeight >= list.scrollHeight - 4;
    this.movesShown = g.history.length;
    list.replaceChildren(...g.history.flatMap((m) => [h("li", { "data-seat": String(m.seat) }, [
      seatToken(m.seat),
      h("span", { class: "who", text: this.plainName(m.seat) }),
      h("code", { dir: "ltr", text: digits(m.move) }),
      m.move === "A" ? h("span", { class: "muted", text: _("advanced") }) : null,
    ]), ...(m.outcome.automa_turns || []).map((t) => h("li", { "data-seat": String(AUTOMA), class: "automa-move" }, [
      seatToken(AUTOMA),
      h("span", { class: "who", text: this.plainName(AUTOMA) }),
      h("span", { class: "muted", text: turnShort(t) }),
    ]))]));
    if (!g.history.length) list.replaceChildren(h("li", { class: "muted empty", text: _("No moves yet.") }));
    if (follow) this.scrollMovesToEnd();
  }

  // The last move in view at the bottom of the list, and never half a line at its top: the
  // list scrolls to the first whole line that leaves the last one in view (app.css gives it
  // a line's room below the last).
  scrollMovesToEnd() {
    const list = this.els.moveList;
    const items = list.children;
    if (!items.length) return;
    const top = list.getBoundingClientRect().top + list.clientTop - list.scrollTop;
    const last = items[items.length - 1].getBoundingClientRect();
    const end = last.bottom - top - list.clientHeight;
    if (end <= 0) {
      list.scrollTop = 0;
      return;
    }
    for (const li of items) {
      const at = li.getBoundingClientRect().top - top;
      if (at >= end - 0.5) {
        list.scrollTop = Math.floor(at);
        return;
      }
    }
    list.scrollTop = list.scrollHeight;
  }

  // The line under the offer; ``details`` (a refusal's reason in move notation) goes in a
  // small line of its own, for those who want it.
  setStatus(text, kind, details = "") {
    if (!this.els) return;
    const parts = [h("span", { class: "status-text", text })];
    if (details) parts.push(h("small", { class: "status-details", text: details }));
    this.els.status.replaceChildren(...parts);
    this.els.status.dataset.kind = kind || "";
  }

  // -- actions ---------------------------------------------------------------------------------

  async send(message) {
    if (this.socket && this.socket.open) return this.socket.request(message);
    return { type: "error", code: "network", message: _("Not connected: trying again…") };
  }

  async sendMove(move) {
    if (this.busy) return;
    const g = this.store.game;
    this.busy = true;
    let reply = await this.send({ type: "move", move, version: g.version });
    if (reply.type === "error" && reply.code === "network" && this.token) {
      // The websocket is down: the same move over HTTP.
      try {
        const r = await api.move(this.id, this.token, move, g.version);
        this.apply(r.game, []);
        reply = { type: "ack" };
      } catch (err) {
        reply = { type: "error", code: err.code, message: err.message };
      }
    }
    this.busy = false;
    if (reply.type === "error") {
      toast(fmt(_("The move was not made: {reason}"), { reason: errorText(reply) }), "error");
      if (reply.code === "stale_version" && this.socket) this.socket.send({ type: "sync" });
      return;
    }
    this.placement.cancel(false);
  }

  // A refused placement, said in plain words (the server's ``plain``), with the engine's
  // notation version as details; ``text`` is the preview's own words for a drop off the board.
  async refuse(notation, text) {
    let reason = text;
    let details = "";
    if (notation) {
      // Ask the engine why: the move is refused and nothing changes.
      const g = this.store.game;
      const reply = await this.send({ type: "move", move: notation, version: g.version });
      if (reply.type === "ack") {
        this.placement.cancel(false);
        return;
      }
      reason = reply.code === "network" ? _("It does not fit there.") : errorText(reply);
      if (reply.plain && reply.message !== reply.plain) details = reply.message;
    }
    this.setStatus(reason, "blocked", details);
    toast(reason, "warn", 6000, details);
  }

  // Advancing asks first while the player is new to the page (its first 3 games), then not
  // (Undo takes a move back); the game's settings say which (store.js keeps the choice).
  async confirmAdvance() {
    const g = this.store.game;
    const a = g.advance;
    if (!a) return;
    if (!askBeforeAdvancing()) {
      this.sendMove("A");
      return;
    }
    let body = fmt(ngettext("You move to space {space} and receive {n} button.",
      "You move to space {space} and receive {n} buttons.", a.buttons), { space: a.position });
    if (a.specials) {
      body += " " + fmt(ngettext("You also take {n} special patch.", "You also take {n} special patches.", a.specials), {});
    }
    const ok = await confirmDialog(_("Advance?"), body, _("Advance"));
    if (ok) this.sendMove("A");
  }

  async hint() {
    this.setStatus(_("Thinking of a hint…"), "");
    const reply = await this.send({ type: "hint" });
    if (reply.type !== "hint") {
      toast(fmt(_("No hint: {reason}"), { reason: errorText(reply) }), "error");
      return;
    }
    // In words, as the move list and the terminal say moves; the notation as the details.
    const pct = Math.round(reply.win_probability * 100);
    let text;
    if (reply.move === "A") {
      text = fmt(_("Hint: advance. Your chance of winning: {pct}%"), { pct });
    } else if (reply.move.startsWith("S@")) {
      text = fmt(_("Hint: sew the special patch on {square}. Your chance of winning: {pct}%"),
        { square: reply.move.slice(2), pct });
    } else {
      text = fmt(_("Hint: buy patch {patch} and sew it on where the dots show. Your chance of winning: {pct}%"),
        { patch: movePatch(reply.move), pct });
    }
    const seat = this.activeSeat();
    if (seat !== null && reply.squares && reply.squares.length) {
      this.quilts[seat].showOverlay(reply.squares, "hint");
    }
    const card = this.els.tray.querySelector(`[data-patch="${movePatch(reply.move)}"]`);
    if (card) card.classList.add("hinted");
    this.setStatus(text, "hint", reply.move === "A" ? "" : digits(reply.move));
    announce(text);
  }

  async undo() {
    const reply = await this.send({ type: "undo", version: this.store.game.version });
    if (reply.type === "error") toast(fmt(_("Nothing undone: {reason}"), { reason: errorText(reply) }), "error");
  }

  async resign() {
    const ok = await confirmDialog(_("Resign?"), _("The game ends and your opponent wins."), _("Resign"));
    if (!ok) return;
    const reply = await this.send({ type: "resign" });
    if (reply.type === "error") toast(errorText(reply), "error");
  }

  async claim() {
    const reply = await this.send({ type: "claim" });
    if (reply.type === "error") toast(errorText(reply), "error");
  }

  async rematch(action = "offer") {
    // Between two accounts a rematch is a challenge, answered on any page (challenges.js).
    if (rematchByChallenge(this.store.game)) {
      await offerRematch(this.id);
      return;
    }
    const reply = await this.send({ type: "rematch", action });
    if (reply.type === "error") {
      toast(errorText(reply), "error");
      return;
    }
    if (reply.game_id) this.goToRematch(reply.game_id);
    else if (action === "offer") toast(_("Rematch offered: waiting for your opponent."), "info");
  }

  goToRematch(newId) {
    if (this.leaving) return;
    this.leaving = true;
    if (this.token) {
      // The rematch keeps both players' tokens; which seat is ours the welcome will say.
      saveSeat(newId, this.token, this.seats.length === 1 ? this.seats[0] : null);
    }
    toast(_("A new game begins."), "good", 3000);
    this.navigate(`/play/${newId}`);
  }
}
