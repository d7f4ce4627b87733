// The circle as the real table has it: the patches still in play laid out in an oval
// around the time board, clockwise from the neutral token, the ones on offer marked, each
// with its cost, time and income as icons and figures (the legend says which is which).
// The patches are small there: each is shown large on hover, on focus (the circle is one
// stop of the Tab key; the arrow keys go from patch to patch) and on a long press.

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

// What each ring shows. A ring is drawn again only when that changed: a message that leaves
// the circle as it was (the same position sent again, an Advance) keeps its items, so that
// a patch under a finger's long press or a pointer stays the element it was.
const drawn = new WeakMap();

// The ring's items in `ring` (absolutely placed) around `centre` (the time board's box).
// One patch takes the Tab key's stop (the one that had it, else the first on offer).
export function renderCircle(ring, { circle, patches, offered, aspect = 1.12 }) {
  const key = JSON.stringify([circle, offered, aspect]);
  const last = drawn.get(ring);
  if (last && last.key === key && last.patches === patches) return;
  drawn.set(ring, { key, patches });
  const focused = ring.contains(document.activeElement) ? document.activeElement.dataset.patch : null;
  const current = focused || (ring.querySelector('[tabindex="0"]') || {}).dataset?.patch;
  const n = circle.length + 1;
  const pts = ovalPoints(n, 44.5, 45.5, aspect);
  const items = [h("li", { class: "ring-item neutral", style: `left:${pts[0][0]}%;top:${pts[0][1]}%`,
    "aria-label": _("Neutral token: the patches on offer are the next three clockwise") }, [
    h("span", { class: "neutral-token", "aria-hidden": "true" }), icon("clockwise", { cls: "cw" }),
  ])];
  circle.forEach((id, i) => {
    const [x, y] = pts[i + 1];
    items.push(patchItem(patches[id], i < offered ? i + 1 : null, { style: `left:${x}%;top:${y}%`,
      tabindex: "-1" }));
  });
  ring.replaceChildren(...items);
  const stop = (current && ring.querySelector(`[data-patch="${current}"]`)) ||
    ring.querySelector(".offered") || ring.querySelector("[data-patch]");
  if (stop) stop.setAttribute("tabindex", "0");
  if (focused && stop) stop.focus({ preventScroll: true });
}

// -- a patch shown large ------------------------------------------------------------------

const LONG_PRESS_MS = 450;
let zoom = null;
let zoomedItem = null; // the item whose patch the zoom shows

function zoomBox() {
  if (!zoom || !zoom.isConnected) {
    zoom = h("div", { class: "patch-zoom", id: "patch-zoom", "aria-hidden": "true", hidden: true });
    document.body.append(zoom);
  }
  return zoom;
}

// The picture of `patch` beside `item`: its shape large, its cost, time and income in
// figures and words. It takes no pointer events, so it never stands in the way.
export function showPatchZoom(item, patch) {
  const box = zoomBox();
  const fact = (kind, word, n) => h("div", { class: `zoom-fact ${kind}` }, [
    icon(kind), h("strong", { text: num(n) }), h("span", { text: word })]);
  box.replaceChildren(
    h("div", { class: "zoom-shape" }, [patchSvg(patch, 0, 24)]),
    h("div", { class: "zoom-facts" }, [
      fact("cost", _("Cost"), patch.buttons),
      fact("time", _("Time"), patch.time),
      fact("income", _("Income"), patch.income),
    ]),
  );
  box.dataset.patch = String(patch.patch);
  box.hidden = false;
  zoomedItem = item;
  placeZoom(box, item);
}

// Above the item where there is room, else below; always inside the window.
function placeZoom(box, item) {
  const r = item.getBoundingClientRect();
  const b = box.getBoundingClientRect();
  const gap = 8;
  let top = r.top - b.height - gap;
  if (top < gap) top = Math.min(r.bottom + gap, innerHeight - b.height - gap);
  const left = Math.max(gap, Math.min(innerWidth - b.width - gap, r.left + r.width / 2 - b.width / 2));
  box.style.top = `${Math.max(gap, top)}px`;
  box.style.left = `${left}px`;
}

export function hidePatchZoom() {
  if (zoom) zoom.hidden = true;
  zoomedItem = null;
}

// The page scrolled: the patch shown large follows its item, or goes with it (a finger's
// scroll ends a long press itself; this is the page moving under a held or focused patch,
// as when a move's line above it changes the page's height).
function followScroll() {
  if (zoom && !zoom.hidden && zoomedItem && zoomedItem.isConnected) placeZoom(zoom, zoomedItem);
  else hidePatchZoom();
}

// Shows the patches of `container` (items with data-patch) large on hover (a mouse or a
// pen), on keyboard focus and on a long press of a finger; the arrow keys, Home and End
// move the focus from patch to patch. `patches`: /api/meta's.
export function installPatchZoom(container, patches) {
  const itemOf = (e) => {
    const item = e.target.closest && e.target.closest("[data-patch]");
    return item && container.contains(item) ? item : null;
  };
  const show = (item) => {
    const patch = patches[Number(item.dataset.patch)];
    if (patch) showPatchZoom(item, patch);
  };
  let press = null;
  const endPress = () => {
    if (press) clearTimeout(press.timer);
    if (press && press.shown) hidePatchZoom();
    press = null;
  };
  container.addEventListener("pointerover", (e) => {
    const item = itemOf(e);
    if (item && e.pointerType !== "touch") show(item);
  });
  container.addEventListener("pointerout", (e) => {
    const item = itemOf(e);
    if (item && e.pointerType !== "touch" && !item.contains(e.relatedTarget)) hidePatchZoom();
  });
  container.addEventListener("pointerdown", (e) => {
    const item = itemOf(e);
    if (!item || e.pointerType !== "touch") return;
    endPress();
    press = { x: e.clientX, y: e.clientY, shown: false,
      timer: setTimeout(() => {
        if (!press) return;
        press.shown = true;
        show(item);
      }, LONG_PRESS_MS) };
  });
  container.addEventListener("pointermove", (e) => {
    if (press && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 10) endPress();
  });
  for (const type of ["pointerup", "pointercancel"]) container.addEventListener(type, endPress);
  // A long press must not open the browser's menu over the patch.
  container.addEventListener("contextmenu", (e) => {
    if (itemOf(e)) e.preventDefault();
  });
  container.addEventListener("focusin", (e) => {
    const item = itemOf(e);
    if (item && item.matches(":focus-visible")) show(item); // the keyboard's focus, not a tap's
  });
  container.addEventListener("focusout", (e) => {
    if (!container.contains(e.relatedTarget)) hidePatchZoom();
  });
  container.addEventListener("keydown", (e) => {
    const item = itemOf(e);
    if (!item) return;
    if (e.key === "Escape") {
      hidePatchZoom();
      return;
    }
    const all = [...container.querySelectorAll("[data-patch]")];
    const i = all.indexOf(item);
    const to = { ArrowRight: i + 1, ArrowDown: i + 1, ArrowLeft: i - 1, ArrowUp: i - 1,
      Home: 0, End: all.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    const next = all[Math.max(0, Math.min(all.length - 1, to))];
    item.setAttribute("tabindex", "-1");
    next.setAttribute("tabindex", "0");
    next.focus();
  });
  window.addEventListener("scroll", followScroll, { passive: true });
}
