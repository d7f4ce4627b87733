// Placing a patch: pick it up (drag with mouse, pen or finger, or select it and use the
// keyboard), turn it (R, right click) or flip it (F), see where it would go, and drop it.
// Whether it fits is looked up in the view's `legal` moves (for each patch and orientation
// the engine lists, the anchor squares it may take; their squares are the patch's shape
// there); a drop that matches none is sent as the move it would be, so the engine itself
// says why it is refused. Nothing here knows a rule.

import { _, fmt } from "./i18n.js";
import { BOARD, orient, cells, footprint, orientationName, orientationIndex, parseSquare,
  squareName, squareSet } from "./shapes.js";
import { svgRoot, fabricId, patchGroup } from "./svg.js";

const DRAG_THRESHOLD = 6; // pixels before a press becomes a drag rather than a click

function key(squares) {
  return squares.slice().sort().join(" ");
}

export class Placement {
  // host: {game(), meta, activeSeat(), quilt(seat), submit(move), refuse(notation, text),
  //        status(text, kind), changed()}
  constructor(host) {
    this.host = host;
    this.piece = null;
    this.orientation = 0;
    this.anchor = { row: 3, col: 3 };
    this.legal = new Map();
    this.drag = null;
    this.onKey = this.onKey.bind(this);
    this.onContextMenu = this.onContextMenu.bind(this);
    document.addEventListener("keydown", this.onKey);
    document.addEventListener("contextmenu", this.onContextMenu);
  }

  destroy() {
    document.removeEventListener("keydown", this.onKey);
    document.removeEventListener("contextmenu", this.onContextMenu);
    this.endDrag();
  }

  get rows() {
    return this.piece ? orient(this.piece.shape, this.orientation) : null;
  }

  // piece: {kind: "patch", patch, shape} or {kind: "special", shape: ["#"]}.
  select(piece, { keepOrientation = false } = {}) {
    const same = this.piece && piece && this.piece.kind === piece.kind &&
      this.piece.patch === piece.patch;
    this.piece = piece;
    if (!same || !keepOrientation) this.orientation = 0;
    this.indexLegal();
    if (!same) this.centre();
    this.update();
    this.host.changed();
  }

  // The legal placements of the chosen piece, by the squares they cover.
  indexLegal() {
    this.legal = new Map();
    const game = this.host.game();
    if (!this.piece || !game) return;
    if (this.piece.kind === "special") {
      for (const square of squareSet(game.legal.special)) this.legal.set(key([square]), `S@${square}`);
      return;
    }
    for (const p of game.legal.buy) {
      if (p.patch !== this.piece.patch) continue;
      const rows = orient(this.piece.shape, orientationIndex(p.orientation));
      for (const anchor of squareSet(p.anchors)) {
        const { row, col } = parseSquare(anchor);
        const squares = footprint(rows, row, col);
        if (squares) this.legal.set(key(squares), `${p.patch}${p.orientation}@${anchor}`);
      }
    }
  }

  // After a new game view: keep the piece if it is still on offer, else drop it.
  refresh() {
    if (!this.piece) return;
    const game = this.host.game();
    const seat = this.host.activeSeat();
    const offered = this.piece.kind === "special"
      ? game && game.pending_specials > 0
      : game && game.offer.some((o) => o.patch === this.piece.patch && o.buyable);
    if (seat === null || !offered || (this.piece.kind !== "special" && game.pending_specials > 0)) {
      this.cancel(false);
      return;
    }
    this.indexLegal();
    this.update();
  }

  centre() {
    const rows = this.rows;
    if (!rows) return;
    this.anchor = {
      row: Math.floor((BOARD - rows.length) / 2),
      col: Math.floor((BOARD - rows[0].length) / 2),
    };
  }

  clamp() {
    const rows = this.rows;
    if (!rows) return;
    this.anchor = {
      row: Math.max(0, Math.min(BOARD - rows.length, this.anchor.row)),
      col: Math.max(0, Math.min(BOARD - rows[0].length, this.anchor.col)),
    };
  }

  // What the piece at the anchor would be: its squares, the legal move they match, and
  // the cells that fall off the board.
  current() {
    const rows = this.rows;
    const squares = footprint(rows, this.anchor.row, this.anchor.col);
    if (squares) return { squares, outside: [], move: this.legal.get(key(squares)) || null };
    const inside = [];
    const outside = [];
    for (const [r, c] of cells(rows)) {
      const rr = this.anchor.row + r;
      const cc = this.anchor.col + c;
      if (rr >= 0 && cc >= 0 && rr < BOARD && cc < BOARD) inside.push(squareName(rr, cc));
      else outside.push([rr, cc]);
    }
    return { squares: inside, outside, move: null };
  }

  update() {
    const seat = this.host.activeSeat();
    for (const s of [0, 1]) {
      const q = this.host.quilt(s);
      if (q && s !== seat) q.clearOverlay();
    }
    if (!this.piece || seat === null) return;
    const quilt = this.host.quilt(seat);
    if (this.drag && this.drag.moved && !this.drag.overBoard) {
      // Held away from the quilt: nothing to preview yet.
      quilt.clearOverlay();
      this.host.status(_("Drop the patch on your quilt board."), "");
      return;
    }
    const { squares, outside, move } = this.current();
    quilt.showOverlay(squares, move ? "fits" : "blocked", outside);
    const where = squareName(Math.max(0, Math.min(8, this.anchor.row)),
      Math.max(0, Math.min(8, this.anchor.col)));
    if (move) {
      this.host.status(window.matchMedia("(pointer: fine)").matches
        ? fmt(_("Fits here ({move}). Drop it, or press Enter."), { move })
        : _("Fits here: lift your finger to sew it on."), "fits");
    } else if (outside.length) this.host.status(_("Part of the patch is off the quilt board."), "blocked");
    else this.host.status(this.blockedText(squares, where), "blocked");
  }

  // Why the piece does not fit, in the engine's own plain words (the same catalog entries
  // as the server's refusals): the squares under it that the view's quilt shows covered.
  blockedText(squares, where) {
    const game = this.host.game();
    const seat = this.host.activeSeat();
    const rows = game && seat !== null ? game.players[seat].quilt : null;
    const covered = rows ? squares.filter((sq) => {
      const { row, col } = parseSquare(sq);
      return rows[row] && rows[row][col] === "#";
    }).sort() : [];
    if (!covered.length) return fmt(_("Does not fit at {square}."), { square: where });
    if (this.piece.kind === "special") {
      return fmt(_("That square is already covered ({square})."), { square: covered[0] });
    }
    return fmt(_("That patch would overlap what is already sewn on at {squares}."),
      { squares: covered.join(" ") });
  }

  rotate() {
    if (!this.piece) return;
    const rules = this.host.game().rules;
    if (!rules.rotation) {
      this.host.status(_("Turning patches is off in this game (house rule)."), "blocked");
      return;
    }
    this.orientation = (this.orientation & 4) | ((this.orientation + 1) % 4);
    this.afterTurn();
  }

  flip() {
    if (!this.piece) return;
    const rules = this.host.game().rules;
    if (!rules.flip) {
      this.host.status(_("Flipping patches is off in this game (house rule)."), "blocked");
      return;
    }
    this.orientation ^= 4;
    this.afterTurn();
  }

  afterTurn() {
    if (!this.drag) this.clamp();
    if (this.drag) this.drawGhost();
    this.update();
    this.host.changed();
  }

  move(dr, dc) {
    if (!this.piece) return;
    this.anchor = { row: this.anchor.row + dr, col: this.anchor.col + dc };
    this.clamp();
    this.update();
  }

  cancel(say = true) {
    this.endDrag();
    this.piece = null;
    this.legal = new Map();
    for (const s of [0, 1]) {
      const q = this.host.quilt(s);
      if (q) q.clearOverlay();
    }
    if (say) this.host.status(_("Patch put back."), "");
    this.host.changed();
  }

  async place() {
    if (!this.piece) return;
    const { outside, move } = this.current();
    if (move) {
      this.host.submit(move);
      return;
    }
    if (outside.length) {
      this.host.refuse(null, _("Part of the patch is off the quilt board."));
      return;
    }
    const anchor = squareName(this.anchor.row, this.anchor.col);
    const notation = this.piece.kind === "special" ? `S@${anchor}`
      : `${this.piece.patch}${orientationName(this.orientation)}@${anchor}`;
    this.host.refuse(notation, null);
  }

  // -- keyboard ------------------------------------------------------------------------

  onKey(event) {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return;
    const target = event.target;
    if (target && (target.isContentEditable || ["INPUT", "TEXTAREA", "SELECT"].includes(target.tagName))) return;
    if (document.querySelector("dialog[open]")) return;
    if (!this.piece) return;
    const k = event.key;
    const onBoard = target && target.closest && target.closest(".board-focus");
    const handled = () => event.preventDefault();
    if (k === "r" || k === "R") { this.rotate(); handled(); }
    else if (k === "f" || k === "F") { this.flip(); handled(); }
    else if (k === "Escape") { this.cancel(); handled(); }
    else if (onBoard && k === "ArrowUp") { this.move(-1, 0); handled(); }
    else if (onBoard && k === "ArrowDown") { this.move(1, 0); handled(); }
    else if (onBoard && k === "ArrowLeft") { this.move(0, -1); handled(); }
    else if (onBoard && k === "ArrowRight") { this.move(0, 1); handled(); }
    else if (onBoard && (k === "Enter" || k === " ")) { this.place(); handled(); }
  }

  onContextMenu(event) {
    if (!this.piece) return;
    const inside = event.target.closest && event.target.closest(".board-focus, .offer-card, .drag-ghost");
    if (!inside && !this.drag) return;
    event.preventDefault();
    this.rotate();
  }

  // -- pointer: drag from an offer card, or move the preview on the board ----------------

  pointerDownOnCard(event, piece, card) {
    if (event.button !== 0 && event.pointerType === "mouse") return;
    event.preventDefault();
    card.setPointerCapture(event.pointerId);
    this.drag = { id: event.pointerId, card, piece, x0: event.clientX, y0: event.clientY,
      moved: false, overBoard: false, ghost: null };
    const move = (e) => this.dragMove(e);
    const up = (e) => this.dragEnd(e, false);
    const cancel = (e) => this.dragEnd(e, true);
    card.addEventListener("pointermove", move);
    card.addEventListener("pointerup", up);
    card.addEventListener("pointercancel", cancel);
    this.drag.detach = () => {
      card.removeEventListener("pointermove", move);
      card.removeEventListener("pointerup", up);
      card.removeEventListener("pointercancel", cancel);
    };
  }

  dragMove(event) {
    const d = this.drag;
    if (!d || event.pointerId !== d.id) return;
    if (!d.moved) {
      if (Math.hypot(event.clientX - d.x0, event.clientY - d.y0) < DRAG_THRESHOLD) return;
      d.moved = true;
      this.select(d.piece, { keepOrientation: true });
      d.ghost = document.createElement("div");
      d.ghost.className = "drag-ghost";
      d.ghost.setAttribute("aria-hidden", "true");
      document.body.append(d.ghost);
      this.drawGhost();
    }
    this.follow(event.clientX, event.clientY);
  }

  follow(x, y) {
    const d = this.drag;
    const seat = this.host.activeSeat();
    if (!d || seat === null) return;
    d.x = x;
    d.y = y;
    const quilt = this.host.quilt(seat);
    const cell = quilt.cellAt(x, y);
    const rows = this.rows;
    // Over the board (or within a square of it) the piece snaps to the squares, centred on
    // the pointer; elsewhere it floats under the pointer.
    const near = cell && cell.row >= -1 && cell.col >= -1 && cell.row <= BOARD && cell.col <= BOARD;
    d.overBoard = Boolean(near);
    if (near) {
      this.anchor = { row: cell.row - Math.floor((rows.length - 1) / 2),
        col: cell.col - Math.floor((rows[0].length - 1) / 2) };
      this.update();
      d.ghost.style.opacity = "0";
    } else {
      this.update();
      d.ghost.style.opacity = "0.9";
    }
    const px = quilt.cellPixels();
    d.ghost.style.left = `${x - (rows[0].length * px) / 2}px`;
    d.ghost.style.top = `${y - (rows.length * px) / 2}px`;
  }

  drawGhost() {
    const d = this.drag;
    if (!d || !d.ghost) return;
    const seat = this.host.activeSeat();
    const px = this.host.quilt(seat).cellPixels();
    const rows = this.rows;
    const svg = svgRoot(`0 0 ${rows[0].length * 10} ${rows.length * 10}`,
      { width: rows[0].length * px, height: rows.length * px });
    const fill = this.piece.kind === "special" ? "url(#fab-leather)" : `url(#${fabricId(this.piece.patch)})`;
    svg.append(patchGroup(cells(rows), 10, fill, this.piece.income || 0));
    d.ghost.replaceChildren(svg);
    if (d.x !== undefined) this.follow(d.x, d.y);
  }

  dragEnd(event, cancelled) {
    const d = this.drag;
    if (!d || event.pointerId !== d.id) return;
    const wasDrag = d.moved;
    const overBoard = d.overBoard;
    this.endDrag();
    if (!wasDrag) {
      // A click or a tap: choose the patch, then place it with the keys or the buttons.
      this.select(d.piece, { keepOrientation: true });
      const board = document.querySelector(".board-focus.active");
      if (board) board.focus({ preventScroll: true });
      return;
    }
    if (cancelled || !overBoard) {
      this.update();
      return;
    }
    this.place();
  }

  endDrag() {
    const d = this.drag;
    if (!d) return;
    if (d.detach) d.detach();
    if (d.ghost) d.ghost.remove();
    try {
      d.card.releasePointerCapture(d.id);
    } catch {
      // already released
    }
    this.drag = null;
  }

  // Taps and drags on the board itself move the chosen patch there (placed with Enter or
  // the Place button, so a stray touch never sews a patch on).
  pointerOnBoard(event, quilt) {
    if (!this.piece || this.drag) return;
    if (event.button !== 0 && event.pointerType === "mouse") return;
    const cell = quilt.cellAt(event.clientX, event.clientY);
    if (!cell || !cell.inside) return;
    const rows = this.rows;
    this.anchor = { row: cell.row - Math.floor((rows.length - 1) / 2),
      col: cell.col - Math.floor((rows[0].length - 1) / 2) };
    this.clamp();
    this.update();
  }
}

