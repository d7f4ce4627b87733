// Geometry only: a patch's printed shape (rows of "#" and ".") in one of the eight
// orientations named in docs/notation.md (mirror left-right first, then quarter turns
// clockwise), square names and the views' square sets. Legality is never decided here:
// that is the server's.

// The quilt board's size, as the server's /api/meta says (set once at start-up).
export let BOARD = 0;
const COLUMNS = "abcdefghi";

export function setBoardSize(size) {
  BOARD = size;
}

export function squareName(row, col) {
  return COLUMNS[col] + String(row + 1);
}

export function parseSquare(name) {
  return { row: Number(name.slice(1)) - 1, col: COLUMNS.indexOf(name[0]) };
}

function turnClockwise(rows) {
  const h = rows.length;
  const w = rows[0].length;
  const out = [];
  for (let c = 0; c < w; c++) {
    let line = "";
    for (let r = h - 1; r >= 0; r--) line += rows[r][c];
    out.push(line);
  }
  return out;
}

// orientation 0-7 = 4 x flipped + quarter turns.
export function orient(shape, orientation) {
  let rows = shape.slice();
  if (orientation >= 4) rows = rows.map((line) => [...line].reverse().join(""));
  for (let i = 0; i < orientation % 4; i++) rows = turnClockwise(rows);
  return rows;
}

export function orientationName(orientation) {
  return (orientation >= 4 ? "f" : "r") + String((orientation % 4) * 90);
}

export function orientationIndex(name) {
  return (name[0] === "f" ? 4 : 0) + Number(name.slice(1)) / 90;
}

// The square names of a square set (hexadecimal, bit BOARD * row + col), in bit order.
export function squareSet(hex) {
  const names = [];
  if (!hex) return names;
  let bits = BigInt(`0x${hex}`);
  for (let i = 0; bits > 0n; i++, bits >>= 1n) {
    if (bits & 1n) names.push(squareName(Math.floor(i / BOARD), i % BOARD));
  }
  return names;
}

// The cells of an oriented shape, relative to its bounding box's top-left corner.
export function cells(rows) {
  const out = [];
  rows.forEach((line, r) => {
    [...line].forEach((ch, c) => {
      if (ch === "#") out.push([r, c]);
    });
  });
  return out;
}

// The squares covered with the bounding box's top-left at (row, col); null when any of
// them would lie off the 9x9 quilt board.
export function footprint(rows, row, col) {
  const names = [];
  for (const [r, c] of cells(rows)) {
    const rr = row + r;
    const cc = col + c;
    if (rr < 0 || cc < 0 || rr >= BOARD || cc >= BOARD) return null;
    names.push(squareName(rr, cc));
  }
  return names;
}

export function sameSquares(a, b) {
  if (a.length !== b.length) return false;
  const set = new Set(a);
  return b.every((s) => set.has(s));
}

// The patch id a move's notation starts with ("17r90@c4" -> 17), null for A and S@.
export function movePatch(move) {
  const m = /^(\d+)/.exec(move);
  return m ? Number(m[1]) : null;
}
