// The time board as SVG: spaces 0-53 wound as a spiral (9 x 6 squares, from the top-left
// corner inwards, clockwise), income marks and the special patches still lying there (as
// the server's meta and view say), and both time tokens.

import { _, fmt, num } from "./i18n.js";
import { el, svgRoot, buttonIcon } from "./svg.js";

const W = 9;
const H = 6;
const S = 10;

// Grid cells of the spiral, in order.
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
  g.append(el("text", { x, y: y + r * 0.45, "text-anchor": "middle" }, [String(seat + 1)]));
  return g;
}

export function renderTimeBoard(container, { meta, players, specialsLeft, onTop,
  names }) {
  const final = meta.final_space;
  const incomes = new Set(meta.income_spaces);
  const specials = new Set(specialsLeft);
  const svg = svgRoot(`-1 -1 ${W * S + 2} ${H * S + 2}`, { class: "timeboard", role: "img" });
  const track = CELLS.slice(0, final + 1);
  const centre = ([r, c]) => [c * S + S / 2, r * S + S / 2];
  svg.append(el("polyline", { points: track.map((p) => centre(p).join(",")).join(" "),
    class: "thread", fill: "none" }));
  track.forEach(([r, c], space) => {
    const g = el("g", { class: "space" + (space === final ? " final" : "") });
    g.append(el("rect", { x: c * S + 0.6, y: r * S + 0.6, width: S - 1.2, height: S - 1.2,
      rx: 1.2, class: "cell" }));
    g.append(el("text", { x: c * S + 1.6, y: r * S + 3.4, class: "space-no" }, [num(space)]));
    if (incomes.has(space)) g.append(buttonIcon(c * S + S - 2.8, r * S + 2.8, 1.7));
    if (specials.has(space)) {
      g.append(el("rect", { x: c * S + 5.3, y: r * S + 5.3, width: 3.6, height: 3.6,
        fill: "url(#fab-leather)", class: "special-on-board" }));
    }
    svg.append(g);
  });
  // Tokens: the one on top is drawn last and a little raised.
  const order = onTop === 0 ? [1, 0] : [0, 1];
  for (const seat of order) {
    const pos = Math.min(players[seat].position, final);
    const [x, y] = centre(track[pos]);
    const shared = players[0].position === players[1].position;
    const dx = shared ? (seat === onTop ? 1.2 : -1.2) : seat === 0 ? -1.3 : 1.3;
    const dy = shared ? (seat === onTop ? -0.8 : 0.8) : 0.6;
    svg.append(tokenShape(seat, x + dx, y + dy, 2.3));
  }
  const parts = [0, 1].map((s) => fmt(_("{name} on space {space}"),
    { name: names[s], space: players[s].position }));
  const left = specialsLeft.length
    ? fmt(_("special patches still on spaces {spaces}"), { spaces: specialsLeft.map(num).join(", ") })
    : _("no special patches left");
  svg.setAttribute("aria-label", `${_("Time board")}: ${parts.join("; ")}; ${left}`);
  container.replaceChildren(svg);
}
