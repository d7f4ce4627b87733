// A quilt board as SVG: the patches sewn on (each cut from its own fabric, as the history
// says where it went), any covered square the history does not explain, the 7x7 bonus
// mark, and an overlay for the piece being placed or a hint.

import { _, fmt, ngettext, num } from "./i18n.js";
import { BOARD, parseSquare, movePatch } from "./shapes.js";
import { el, svgRoot, fabricId, patchGroup } from "./svg.js";

export const CELL = 10;
const MARGIN = 7;

// The pieces on each seat's quilt, from the moves made: [{move, patch, cells}].
export function piecesBySeat(history) {
  const out = [[], []];
  for (const h of history) {
    if (!h.squares || !h.squares.length) continue;
    out[h.seat].push({
      move: h.move,
      patch: movePatch(h.move),
      cells: h.squares.map((s) => {
        const { row, col } = parseSquare(s);
        return [row, col];
      }),
    });
  }
  return out;
}

export class QuiltView {
  constructor(label) {
    this.svg = svgRoot(`${-MARGIN} ${-MARGIN} ${BOARD * CELL + MARGIN + 1} ${BOARD * CELL + MARGIN + 1}`,
      { class: "quilt", role: "img", "aria-label": label });
    this.base = el("g");
    this.overlay = el("g", { class: "overlay", "pointer-events": "none" });
    this.svg.append(this.base, this.overlay);
  }

  // rows: nine strings of "#"/"."; pieces: from piecesBySeat; patches: meta patches.
  render(rows, pieces, patches, bonus) {
    this.base.replaceChildren();
    const cloth = el("g", { class: "cloth" });
    cloth.append(el("rect", { x: -0.5, y: -0.5, width: BOARD * CELL + 1,
      height: BOARD * CELL + 1, class: "quilt-bg" }));
    for (let r = 0; r < BOARD; r++) {
      for (let c = 0; c < BOARD; c++) {
        cloth.append(el("rect", { x: c * CELL + 0.4, y: r * CELL + 0.4, width: CELL - 0.8,
          height: CELL - 0.8, class: "square", rx: 0.8 }));
      }
    }
    const labels = el("g", { class: "coords", "aria-hidden": "true" });
    for (let i = 0; i < BOARD; i++) {
      labels.append(el("text", { x: i * CELL + CELL / 2, y: -2.2, "text-anchor": "middle" },
        ["abcdefghi"[i]]));
      labels.append(el("text", { x: -3.5, y: i * CELL + CELL / 2 + 1.6,
        "text-anchor": "middle" }, [String(i + 1)]));
    }
    this.base.append(cloth, labels);
    const explained = new Set();
    for (const piece of pieces) {
      const special = piece.patch === null;
      const fill = special ? "url(#fab-leather)" : `url(#${fabricId(piece.patch)})`;
      const income = special ? 0 : (patches[piece.patch] || {}).income || 0;
      const g = patchGroup(piece.cells, CELL, fill, income, special ? "special" : "");
      if (special) {
        const [r, c] = piece.cells[0];
        g.append(el("text", { x: c * CELL + CELL / 2, y: r * CELL + CELL / 2 + 2,
          "text-anchor": "middle", class: "special-mark" }, ["S"]));
      }
      this.base.append(g);
      for (const [r, c] of piece.cells) explained.add(r * BOARD + c);
    }
    // Covered squares no move explains (a game set up from a position): plain fabric.
    const loose = [];
    rows.forEach((line, r) => [...line].forEach((ch, c) => {
      if (ch !== "." && !explained.has(r * BOARD + c)) loose.push([r, c]);
    }));
    if (loose.length) this.base.append(patchGroup(loose, CELL, "#8d7b68"));
    if (bonus) {
      // The bonus tile in the corner the coordinates leave free (never over a column's
      // letter or a row's number); its name in words where the quilt is shown (a tag).
      const g = el("g", { class: "bonus-badge", "data-bonus": "" });
      g.append(el("title", {}, [_("7×7 bonus")]));
      g.append(el("rect", { x: -MARGIN + 0.3, y: -MARGIN + 0.3, width: MARGIN - 0.9,
        height: MARGIN - 0.9, rx: 1.2 }));
      g.append(el("text", { x: -MARGIN / 2 - 0.15, y: -MARGIN / 2 + 0.9, "text-anchor": "middle" },
        [`${num(7)}×${num(7)}`]));
      this.base.append(g);
    }
  }

  // Shows squares (names) in the overlay: kind "fits", "blocked", "hint" or "played"
  // (a review's move beside the better one, "hint"); cells that lie
  // off the board are given as [row, col] pairs in `outside`.
  showOverlay(squares, kind, outside = []) {
    this.overlay.replaceChildren();
    const cellList = squares.map((s) => {
      const { row, col } = parseSquare(s);
      return [row, col];
    }).concat(outside);
    if (!cellList.length) return;
    const g = patchGroup(cellList, CELL, `url(#pat-${kind})`, 0, `preview ${kind}`);
    if (kind === "fits" || kind === "blocked") {
      // A symbol as well as a colour: a tick where it fits, a cross where it does not.
      const [r, c] = cellList[0];
      const x = c * CELL, y = r * CELL;
      g.append(el("path", { class: "preview-mark", fill: "none", "stroke-linecap": "round",
        d: kind === "fits" ? `M${x + 2.5} ${y + 5.3}L${x + 4.3} ${y + 7.2}L${x + 7.6} ${y + 2.8}`
          : `M${x + 3} ${y + 3}L${x + 7} ${y + 7}M${x + 7} ${y + 3}L${x + 3} ${y + 7}` }));
    }
    this.overlay.append(g);
  }

  clearOverlay() {
    this.overlay.replaceChildren();
  }

  // The board cell under a point on screen, or null (may be outside 0-8 when near).
  cellAt(clientX, clientY) {
    const box = this.svg.getBoundingClientRect();
    if (!box.width) return null;
    const vb = this.svg.viewBox.baseVal;
    const x = ((clientX - box.left) / box.width) * vb.width + vb.x;
    const y = ((clientY - box.top) / box.height) * vb.height + vb.y;
    return { row: Math.floor(y / CELL), col: Math.floor(x / CELL),
      inside: x >= 0 && y >= 0 && x < BOARD * CELL && y < BOARD * CELL };
  }

  cellPixels() {
    const box = this.svg.getBoundingClientRect();
    return (box.width / this.svg.viewBox.baseVal.width) * CELL;
  }

  describe(name, emptySquares) {
    const text = ngettext("{name}'s quilt board: {n} empty square",
      "{name}'s quilt board: {n} empty squares", emptySquares);
    this.svg.setAttribute("aria-label", fmt(text, { name }));
  }
}
