// Drawing patches for cards and the circle: the patch in a given orientation, with its
// numbers (cost, time, income) in words as well as icons.

import { _, fmt, num } from "./i18n.js";
import { orient, cells } from "./shapes.js";
import { el, svgRoot, fabricId, patchGroup } from "./svg.js";
import { h } from "./ui.js";
import { icon } from "./icons.js";

export function patchSvg(patch, orientation = 0, cellSize = 10, title = null) {
  const rows = orient(patch.shape, orientation);
  const w = rows[0].length;
  const hgt = rows.length;
  const svg = svgRoot(`-0.5 -0.5 ${w * 10 + 1} ${hgt * 10 + 1}`, {
    class: "patch-svg", width: w * cellSize, height: hgt * cellSize,
    role: title ? "img" : null, "aria-label": title, "aria-hidden": title ? null : "true",
  });
  svg.append(patchGroup(cells(rows), 10, `url(#${fabricId(patch.patch)})`, patch.income));
  return svg;
}

export function specialSvg(cellSize = 10) {
  const svg = svgRoot("-0.5 -0.5 11 11", { class: "patch-svg", width: cellSize,
    height: cellSize, "aria-hidden": "true" });
  const g = patchGroup([[0, 0]], 10, "url(#fab-leather)", 0, "special");
  g.append(el("text", { x: 5, y: 7, "text-anchor": "middle", class: "special-mark" }, ["S"]));
  svg.append(g);
  return svg;
}

// "Cost 5, time 3, income 1" as three figures with their icons (the words for screen
// readers; the circle's legend says which icon is which).
export function patchFacts(patch) {
  const fact = (kind, word, n) => h("div", { class: `fact ${kind}` }, [
    h("dt", { class: "visually-hidden", text: word }),
    h("dd", {}, [icon(kind), num(n)])]);
  return h("dl", { class: "facts" }, [
    fact("cost", _("Cost"), patch.buttons),
    fact("time", _("Time"), patch.time),
    fact("income", _("Income"), patch.income),
  ]);
}

export function patchLabel(patch) {
  return fmt(_("Patch {id}: cost {cost}, time {time}, income {income}"),
    { id: patch.patch, cost: patch.buttons, time: patch.time, income: patch.income });
}
