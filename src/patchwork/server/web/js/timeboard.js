// The time board as SVG, drawn as the real one: a track of spaces 0-53 wound as a spiral
// (9 x 6 squares, from the top-left corner inwards, clockwise, to the centre), each space
// joined to the next and walled off from the other turns of the spiral; the income marks
// and the special patches still lying there (as the server's meta and view say) on their
// spaces, and both time tokens, side by side on a shared space, the one on top drawn on top.
// In a solo game the level's 7x7 marker frames its space while it lies there.

import { _, digits, fmt, num } from "./i18n.js";
import { el, svgRoot, buttonIcon } from "./svg.js";

const W = 9;
const H = 6;
const S = 10;

// Grid cells [row, col] of the spiral, in order.
function spiral() {
  const out = [];
  let top = 0, left = 0, bottom = H - 1, right = W - 1;
  while (top <= bottom && left <= right) {
    for (let c = left; c <= right; c++) out.push([top, c]);
    for (let r = top + 1; r <= bottom; r++) out.push([r, right]);
    if (top < bottom) for (let c = right - 1; c >= left; c--) out.push([bottom, c]);
    if (left < right) for (let r = bottom - 1; r > top; r--) out.push([r, left]);
    top++; left++; bottom--; right--;
  }
  return out;
}

const CELLS = spiral();

export function tokenShape(seat, x, y, r, extra = {}) {
  // Seat 0 a round token, seat 1 a square one: told apart by shape, colour and number.
  const g = el("g", { class: `token seat${seat}`, ...extra });
  if (seat === 0) g.append(el("circle", { cx: x, cy: y, r }));
  else g.append(el("rect", { x: x - r * 0.9, y: y - r * 0.9, width: r * 1.8, height: r * 1.8,
    rx: r * 0.25 }));
  g.append(el("text", { x, y: y + r * 0.45, "text-anchor": "middle" }, [num(seat + 1)]));
  return g;
}

// The walls of the track: every edge between two grid cells that are not consecutive spaces.
function walls(track) {
  const index = new Map(track.map(([r, c], i) => [`${r},${c}`, i]));
  let d = "";
  track.forEach(([r, c], i) => {
    for (const [dr, dc] of [[0, 1], [1, 0]]) {
      const j = index.get(`${r + dr},${c + dc}`);
      if (j === undefined || Math.abs(j - i) === 1) continue;
      d += dc ? `M${(c + 1) * S} ${r * S}V${(r + 1) * S}` : `M${c * S} ${(r + 1) * S}H${(c + 1) * S}`;
    }
  });
  return d;
}

export function renderTimeBoard(container, { meta, players, specialsLeft, onTop,
  names, marker = null }) {
  const final = meta.final_space;
  const incomes = new Set(meta.income_spaces);
  const specials = new Set(specialsLeft);
  const svg = svgRoot(`-1 -1 ${W * S + 2} ${H * S + 2}`, { class: "timeboard", role: "img" });
  const track = CELLS.slice(0, final + 1);
  const centre = ([r, c]) => [c * S + S / 2, r * S + S / 2];
  svg.append(el("rect", { x: -0.6, y: -0.6, width: W * S + 1.2, height: H * S + 1.2, rx: 1.5,
    class: "board-edge" }));
  track.forEach(([r, c], space) => {
    const cls = "space" + (space === final ? " final" : "") + (incomes.has(space) ? " income" : "") +
      (specials.has(space) ? " special" : "") + (space % 2 ? " odd" : "");
    const g = el("g", { class: cls, "data-space": String(space) });
    g.append(el("rect", { x: c * S, y: r * S, width: S, height: S, class: "cell" }));
    g.append(el("text", { x: c * S + 1.2, y: r * S + 3.2, class: "space-no" }, [num(space)]));
    if (incomes.has(space)) g.append(buttonIcon(c * S + S - 2.6, r * S + 2.6, 1.9));
    if (specials.has(space)) {
      g.append(el("rect", { x: c * S + 5.6, y: r * S + 0.9, width: 3.5, height: 3.5, rx: 0.4,
        fill: "url(#fab-leather)", class: "special-on-board" }));
    }
    if (space === marker) {
      g.classList.add("marker");
      g.append(el("rect", { x: c * S + 0.7, y: r * S + 0.7, width: S - 1.4, height: S - 1.4,
        rx: 0.8, class: "marker-frame", "data-marker": "" }));
      g.append(el("text", { x: c * S + S / 2, y: r * S + 9.1, "text-anchor": "middle",
        class: "marker-label" }, [digits("7×7")]));
    }
    svg.append(g);
  });
  // The path the tokens follow: from space 0 at the corner to the centre.
  svg.append(el("polyline", { points: track.map((p) => centre(p).join(",")).join(" "),
    class: "thread", fill: "none" }));
  svg.append(el("path", { d: walls(track), class: "walls" }));
  // Tokens sit in the lower half of a space, under its icons; on a shared space side by
  // side, the one on top drawn last, overlapping its neighbour a little and raised.
  const shared = players[0].position === players[1].position;
  const order = onTop === 0 ? [1, 0] : [0, 1];
  for (const seat of order) {
    const pos = Math.min(players[seat].position, final);
    const [r, c] = track[pos];
    const x = c * S + (shared ? (seat === 0 ? 3.3 : 6.7) : 5);
    const y = r * S + 6.9 - (shared && seat === onTop ? 0.5 : 0);
    const tok = tokenShape(seat, x, y, 2.3, { "data-token": String(seat) });
    if (shared && seat === onTop) tok.classList.add("on-top");
    svg.append(tok);
  }
  const parts = [0, 1].map((s) => fmt(_("{name} on space {space}"),
    { name: names[s], space: players[s].position }));
  if (shared) parts.push(fmt(_("{name} is on top"), { name: names[onTop] }));
  const left = specialsLeft.length
    ? fmt(_("special patches still on spaces {spaces}"), { spaces: specialsLeft.map(num).join(", ") })
    : _("no special patches left");
  if (marker !== null) parts.push(fmt(_("7x7 marker on space {space}"), { space: marker }));
  const title = _("Time board");
  svg.setAttribute("aria-label", `${title}: ${parts.join("; ")}; ${left}`);
  container.replaceChildren(svg);
}

// Where a space is drawn, in the board's units: for an animation of a token moving.
export function spaceCentre(space) {
  const [r, c] = CELLS[space];
  return [c * S + S / 2, r * S + S / 2];
}
