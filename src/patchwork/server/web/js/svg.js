// SVG building blocks: elements, the fabrics patches are cut from (a colour AND a weave
// pattern each, so patches differ by more than colour), and drawing one patch.

export const NS = "http://www.w3.org/2000/svg";

export function el(name, attrs = {}, children = []) {
  const node = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) {
    if (v !== null && v !== undefined && v !== false) node.setAttribute(k, String(v));
  }
  for (const child of children) node.append(child);
  return node;
}

export function svgRoot(viewBox, attrs = {}) {
  // Boards, shapes and square names never mirror in a right-to-left page.
  return el("svg", { xmlns: NS, viewBox, dir: "ltr", ...attrs });
}

const PALETTE = [
  "#b5523b", // brick
  "#d08c2e", // mustard
  "#5f7d4e", // moss
  "#3f6f8f", // denim
  "#8a4f7d", // plum
  "#c06a6a", // rose
  "#6b8f8a", // sage teal
  "#9c6b3c", // caramel
  "#4d5a8c", // indigo
  "#a3a04a", // olive
  "#7b3f3f", // wine
];
const WEAVES = 6;

export function fabricId(patch) {
  return `fab-${patch}`;
}

function weave(kind, ink) {
  switch (kind) {
    case 0: // twill: fine diagonal
      return [el("path", { d: "M0 5 L5 0 M-1 1 L1 -1 M4 6 L6 4", stroke: ink, "stroke-width": 0.7 })];
    case 1: // wide stripes
      return [el("rect", { x: 0, y: 0, width: 2.5, height: 5, fill: ink })];
    case 2: // polka dots
      return [el("circle", { cx: 1.25, cy: 1.25, r: 0.8, fill: ink }),
        el("circle", { cx: 3.75, cy: 3.75, r: 0.8, fill: ink })];
    case 3: // gingham
      return [el("rect", { x: 0, y: 0, width: 2.5, height: 5, fill: ink }),
        el("rect", { x: 0, y: 0, width: 5, height: 2.5, fill: ink })];
    case 4: // crosses
      return [el("path", { d: "M2.5 1 V4 M1 2.5 H4", stroke: ink, "stroke-width": 0.6 })];
    default: // zigzag
      return [el("path", { d: "M0 3.5 L1.25 1.5 L2.5 3.5 L3.75 1.5 L5 3.5", stroke: ink,
        fill: "none", "stroke-width": 0.6 })];
  }
}

// One <svg> of <defs> in the page; every board and card refers to its patterns by id.
export function installDefs(patchCount) {
  if (document.getElementById("pw-defs")) return;
  const defs = el("defs");
  for (let id = 0; id < patchCount; id++) {
    const colour = PALETTE[(id * 7) % PALETTE.length];
    const kind = id % WEAVES;
    const ink = kind === 3 ? "rgba(255,255,255,0.28)" : "rgba(255,250,235,0.35)";
    defs.append(el("pattern", { id: fabricId(id), width: 5, height: 5,
      patternUnits: "userSpaceOnUse" }, [el("rect", { width: 5, height: 5, fill: colour }),
      ...weave(kind, ink)]));
  }
  defs.append(el("pattern", { id: "fab-leather", width: 4, height: 4,
    patternUnits: "userSpaceOnUse" }, [el("rect", { width: 4, height: 4, fill: "#6b4226" }),
    el("circle", { cx: 1, cy: 1, r: 0.4, fill: "rgba(0,0,0,0.25)" }),
    el("circle", { cx: 3, cy: 2.6, r: 0.35, fill: "rgba(255,255,255,0.12)" })]));
  defs.append(el("pattern", { id: "pat-fits", width: 3, height: 3,
    patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" }, [
    el("rect", { width: 3, height: 3, fill: "rgba(46,125,50,0.55)" }),
    el("rect", { width: 1, height: 3, fill: "rgba(255,255,255,0.55)" })]));
  defs.append(el("pattern", { id: "pat-blocked", width: 3, height: 3,
    patternUnits: "userSpaceOnUse" }, [
    el("rect", { width: 3, height: 3, fill: "rgba(183,28,28,0.55)" }),
    el("path", { d: "M0 0 L3 3 M3 0 L0 3", stroke: "rgba(255,255,255,0.7)",
      "stroke-width": 0.5 })]));
  defs.append(el("pattern", { id: "pat-hint", width: 2, height: 2,
    patternUnits: "userSpaceOnUse" }, [
    el("rect", { width: 2, height: 2, fill: "rgba(255,193,7,0.45)" }),
    el("circle", { cx: 1, cy: 1, r: 0.4, fill: "rgba(120,70,0,0.8)" })]));
  defs.append(el("pattern", { id: "pat-played", width: 3, height: 3,
    patternUnits: "userSpaceOnUse", patternTransform: "rotate(-45)" }, [
    el("rect", { width: 3, height: 3, fill: "rgba(106,27,154,0.5)" }),
    el("rect", { width: 1.2, height: 3, fill: "rgba(255,255,255,0.6)" })]));
  const svg = el("svg", { id: "pw-defs", width: 0, height: 0, "aria-hidden": "true",
    style: "position:absolute" }, [defs]);
  document.body.prepend(svg);
}

// The outline of a set of cells (each [row, col]) as segments along its outer edges.
// `inset` > 0 moves every edge that far into the patch (for the stitched line).
function edges(cellList, size, inset = 0) {
  const key = (r, c) => `${r},${c}`;
  const set = new Set(cellList.map(([r, c]) => key(r, c)));
  const k = inset;
  let d = "";
  for (const [r, c] of cellList) {
    const x = c * size;
    const y = r * size;
    const up = !set.has(key(r - 1, c));
    const down = !set.has(key(r + 1, c));
    const left = !set.has(key(r, c - 1));
    const right = !set.has(key(r, c + 1));
    // Each inset edge starts and ends where the neighbouring inset edge meets it.
    const x0 = x + (left ? k : 0);
    const x1 = x + size - (right ? k : 0);
    const y0 = y + (up ? k : 0);
    const y1 = y + size - (down ? k : 0);
    if (up) d += `M${x0} ${y + k}H${x1}`;
    if (down) d += `M${x0} ${y + size - k}H${x1}`;
    if (left) d += `M${x + k} ${y0}V${y1}`;
    if (right) d += `M${x + size - k} ${y0}V${y1}`;
  }
  return d;
}

function button(cx, cy, r) {
  return el("g", { class: "income-button" }, [
    el("circle", { cx, cy, r, fill: "#3d6fb6", stroke: "#1d3b66", "stroke-width": r * 0.2 }),
    el("circle", { cx: cx - r * 0.3, cy: cy - r * 0.3, r: r * 0.15, fill: "#dfe9f7" }),
    el("circle", { cx: cx + r * 0.3, cy: cy - r * 0.3, r: r * 0.15, fill: "#dfe9f7" }),
    el("circle", { cx: cx - r * 0.3, cy: cy + r * 0.3, r: r * 0.15, fill: "#dfe9f7" }),
    el("circle", { cx: cx + r * 0.3, cy: cy + r * 0.3, r: r * 0.15, fill: "#dfe9f7" }),
  ]);
}

export function buttonIcon(cx, cy, r) {
  return button(cx, cy, r);
}

// A patch cut from its fabric: cells (each [row, col]) of `size` units, an outer seam, a
// stitched line just inside it, and its income as buttons sewn on the first cells.
export function patchGroup(cellList, size, fill, income = 0, extraClass = "") {
  const g = el("g", { class: `patch ${extraClass}`.trim() });
  for (const [r, c] of cellList) {
    g.append(el("rect", { x: c * size, y: r * size, width: size, height: size, fill }));
  }
  g.append(el("path", { d: edges(cellList, size), class: "seam", fill: "none" }));
  g.append(el("path", { d: edges(cellList, size, size * 0.12), class: "stitch", fill: "none" }));
  const sorted = cellList.slice().sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (let i = 0; i < Math.min(income, sorted.length); i++) {
    const [r, c] = sorted[i];
    g.append(button(c * size + size / 2, r * size + size / 2, size * 0.28));
  }
  return g;
}
