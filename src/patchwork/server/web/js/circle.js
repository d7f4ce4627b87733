// The circle as the real table has it: the patches still in play laid out in an oval
// around the time board, clockwise from the neutral token, the ones on offer marked, each
// with its cost, time and income as icons and figures (the legend says which is which).

import { _, fmt, num } from "./i18n.js";
import { icon } from "./icons.js";
import { patchLabel, patchSvg } from "./pieces.js";
import { h } from "./ui.js";

// An item's width and height in % of the ring's width (as app.css sizes .ring-item).
const ITEM_W = 10.4;
const ITEM_H = 7.2;

// How far apart two items are, in item sizes: the larger of across and down (they overlap
// below 1). `aspect`: the box's height / width, so down is measured in the same units.
function apart(p, q, aspect) {
  return Math.max(Math.abs(p[0] - q[0]) / ITEM_W, (Math.abs(p[1] - q[1]) * aspect) / ITEM_H);
}

// n points along an oval (a superellipse: between an ellipse and a rectangle with round
// corners, so the patches use the table's corners), centre 50% 50%, radii rx, ry in % of
// the box, from the top, clockwise on screen, each as far from the one before as the oval
// allows for all n (found by halving): round the corners as much as along the sides.
function ovalPoints(n, rx, ry, aspect) {
  const e = 2 / 4;
  const curve = (t) => Math.sign(t) * Math.abs(t) ** e;
  const steps = 1440;
  const pts = [];
  for (let i = 0; i < steps; i++) {
    const a = -Math.PI / 2 + (2 * Math.PI * i) / steps;
    pts.push([50 + rx * curve(Math.cos(a)), 50 + ry * curve(Math.sin(a))]);
  }
  const walk = (d) => {
    const out = [pts[0]];
    for (const p of pts) {
      if (apart(p, out[out.length - 1], aspect) >= d && apart(p, pts[0], aspect) >= d) out.push(p);
    }
    return out;
  };
  let lo = 0.2;
  let hi = 4;
  for (let k = 0; k < 24; k++) {
    const mid = (lo + hi) / 2;
    if (walk(mid).length >= n) lo = mid;
    else hi = mid;
  }
  return walk(lo).slice(0, n);
}

export function figures(patch) {
  return h("span", { class: "ring-facts", "aria-hidden": "true" }, [
    h("span", { class: "rf cost" }, [icon("cost"), num(patch.buttons)]),
    h("span", { class: "rf time" }, [icon("time"), num(patch.time)]),
    h("span", { class: "rf income" }, [icon("income"), num(patch.income)]),
  ]);
}

export function legend() {
  return h("p", { class: "ring-legend small" }, [
    h("span", {}, [icon("cost"), _("cost in buttons")]),
    h("span", {}, [icon("time"), _("time (spaces)")]),
    h("span", {}, [icon("income"), _("income")]),
  ]);
}

// One patch of the circle: its shape, cost, time and income; `offerNo` (1-3) when on offer.
// The "How to play" page draws its patches with this too.
export function patchItem(patch, offerNo = null, attrs = {}) {
  return h("li", { class: "ring-item" + (offerNo ? " offered" : ""), "data-patch": String(patch.patch),
    ...attrs,
    "aria-label": (offerNo ? fmt(_("On offer, {n}: "), { n: offerNo }) : "") + patchLabel(patch) }, [
    offerNo ? h("span", { class: "offer-no", "aria-hidden": "true", text: num(offerNo) }) : null,
    h("span", { class: "ring-shape" }, [patchSvg(patch, 0, 6)]),
    figures(patch),
  ]);
}

// The ring's items in `ring` (absolutely placed) around `centre` (the time board's box).
export function renderCircle(ring, { circle, patches, offered, aspect = 1.12 }) {
  const n = circle.length + 1;
  const pts = ovalPoints(n, 44.5, 45.5, aspect);
  const items = [h("li", { class: "ring-item neutral", style: `left:${pts[0][0]}%;top:${pts[0][1]}%`,
    "aria-label": _("Neutral token: the patches on offer are the next three clockwise") }, [
    h("span", { class: "neutral-token", "aria-hidden": "true" }), icon("clockwise", { cls: "cw" }),
  ])];
  circle.forEach((id, i) => {
    const [x, y] = pts[i + 1];
    items.push(patchItem(patches[id], i < offered ? i + 1 : null, { style: `left:${x}%;top:${y}%` }));
  });
  ring.replaceChildren(...items);
}
