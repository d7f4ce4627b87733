// Every icon of the page drawn as SVG, so none depends on a glyph a font may lack: the
// patch figures (cost, time, income), the replay's steps, the notices' marks and the game's
// settings (the cog, sounds, notifications).

import { el, svgRoot } from "./svg.js";

const DRAW = {
  // A four-holed button: what patches cost.
  cost: () => [el("circle", { cx: 8, cy: 8, r: 7, fill: "#3d6fb6", stroke: "#1d3b66", "stroke-width": 1.2 }),
    ...[[5.6, 5.6], [10.4, 5.6], [5.6, 10.4], [10.4, 10.4]].map(([cx, cy]) =>
      el("circle", { cx, cy, r: 1.2, fill: "#dfe9f7" }))],
  // An hourglass: the time a patch takes.
  time: () => [el("path", { d: "M3 1.5H13M3 14.5H13", stroke: "#6b4a22", "stroke-width": 1.6, "stroke-linecap": "round" }),
    el("path", { d: "M4 2.2C4 6 7 6.8 7 8C7 9.2 4 10 4 13.8H12C12 10 9 9.2 9 8C9 6.8 12 6 12 2.2Z",
      fill: "#f1dfb8", stroke: "#6b4a22", "stroke-width": 1 }),
    el("path", { d: "M5.6 12.8H10.4L8 10.4Z", fill: "#c99a5a" })],
  // A button with a plus: the income a patch brings at every income mark.
  income: () => [el("circle", { cx: 7, cy: 9, r: 6, fill: "#3d6fb6", stroke: "#1d3b66", "stroke-width": 1.1 }),
    ...[[5, 7], [9, 7], [5, 11], [9, 11]].map(([cx, cy]) => el("circle", { cx, cy, r: 1, fill: "#dfe9f7" })),
    el("circle", { cx: 12.4, cy: 3.6, r: 3.4, fill: "#2e7d32" }),
    el("path", { d: "M12.4 1.8V5.4M10.6 3.6H14.2", stroke: "#fff", "stroke-width": 1.3 })],
  first: () => [el("path", { d: "M3 2V14", stroke: "currentColor", "stroke-width": 2 }),
    el("path", { d: "M14 2L5 8L14 14Z", fill: "currentColor" })],
  prev: () => [el("path", { d: "M12 2L3 8L12 14Z", fill: "currentColor" })],
  next: () => [el("path", { d: "M4 2L13 8L4 14Z", fill: "currentColor" })],
  last: () => [el("path", { d: "M13 2V14", stroke: "currentColor", "stroke-width": 2 }),
    el("path", { d: "M2 2L11 8L2 14Z", fill: "currentColor" })],
  check: () => [el("path", { d: "M2.5 8.5L6.5 12.5L13.5 3.5", fill: "none", stroke: "currentColor",
    "stroke-width": 2.2, "stroke-linecap": "round", "stroke-linejoin": "round" })],
  cross: () => [el("path", { d: "M3.5 3.5L12.5 12.5M12.5 3.5L3.5 12.5", stroke: "currentColor",
    "stroke-width": 2.2, "stroke-linecap": "round" })],
  star: () => [el("path", { d: "M8 1L10.1 5.6L15 6.1L11.3 9.4L12.4 14.3L8 11.8L3.6 14.3L4.7 9.4L1 6.1L5.9 5.6Z",
    fill: "currentColor" })],
  warn: () => [el("path", { d: "M8 1.5L15 14H1Z", fill: "none", stroke: "currentColor", "stroke-width": 1.6,
    "stroke-linejoin": "round" }), el("path", { d: "M8 6V9.6", stroke: "currentColor", "stroke-width": 1.8 }),
  el("circle", { cx: 8, cy: 11.8, r: 1, fill: "currentColor" })],
  info: () => [el("circle", { cx: 8, cy: 4, r: 1.3, fill: "currentColor" }),
    el("path", { d: "M8 7V14", stroke: "currentColor", "stroke-width": 2.2, "stroke-linecap": "round" })],
  // A flame: an arena player on fire (two wins in a row; the next game counts double).
  flame: () => [el("path", { d: "M8 15C4.7 15 2.6 12.8 2.6 10C2.6 7.4 4.4 5.8 5.2 3.6C5.5 4.9 6.1 5.8 6.9 6.3C7 3.9 8.2 2.1 10 1C9.8 3.4 11 4.9 12.1 6.4C13 7.6 13.4 8.7 13.4 10C13.4 12.8 11.3 15 8 15Z",
    fill: "#e0602a", stroke: "#9c3412", "stroke-width": 0.9, "stroke-linejoin": "round" }),
  el("path", { d: "M8 14.2C6.5 14.2 5.6 13.2 5.6 11.9C5.6 10.6 6.6 9.8 7.1 8.6C7.5 9.6 8.3 9.9 8.7 9.2C9.7 10.1 10.4 11 10.4 12C10.4 13.3 9.4 14.2 8 14.2Z",
    fill: "#ffd166" })],
  // A robot's head: the AI levels as the lobby's players (bots).
  bot: () => [el("path", { d: "M8 1.4V4", stroke: "currentColor", "stroke-width": 1.3 }),
    el("circle", { cx: 8, cy: 1.6, r: 1.1, fill: "currentColor" }),
    el("rect", { x: 1, y: 7, width: 1.6, height: 3.4, rx: 0.6, fill: "currentColor" }),
    el("rect", { x: 13.4, y: 7, width: 1.6, height: 3.4, rx: 0.6, fill: "currentColor" }),
    el("rect", { x: 2.6, y: 4, width: 10.8, height: 9.6, rx: 2.2, fill: "currentColor" }),
    el("circle", { cx: 5.8, cy: 7.8, r: 1.35, fill: "#fff" }),
    el("circle", { cx: 10.2, cy: 7.8, r: 1.35, fill: "#fff" }),
    el("rect", { x: 5.4, y: 10.6, width: 5.2, height: 1.2, rx: 0.6, fill: "#fff" })],
  // A cog: the game's settings.
  gear: () => [
    ...[0, 45, 90, 135].map((a) => el("rect", { x: 6.6, y: 0.8, width: 2.8, height: 14.4, rx: 0.6,
      fill: "currentColor", transform: `rotate(${a} 8 8)` })),
    el("circle", { cx: 8, cy: 8, r: 5.1, fill: "currentColor" }),
    el("circle", { cx: 8, cy: 8, r: 2.1, fill: "#fff" })],
  // A speaker sounding: the game's sounds.
  sound: () => [el("path", { d: "M1.5 6H4.5L8.5 2.5V13.5L4.5 10H1.5Z", fill: "currentColor" }),
    el("path", { d: "M10.6 5.6A3.4 3.4 0 0 1 10.6 10.4M12.4 3.6A6 6 0 0 1 12.4 12.4", fill: "none",
      stroke: "currentColor", "stroke-width": 1.5, "stroke-linecap": "round" })],
  // A bell: notifications.
  bell: () => [el("path", { d: "M8 2C5.6 2 4.2 3.9 4.2 6.2V9.2L2.8 11.6H13.2L11.8 9.2V6.2C11.8 3.9 10.4 2 8 2Z",
    fill: "currentColor" }), el("circle", { cx: 8, cy: 13.4, r: 1.5, fill: "currentColor" })],
  clockwise: () => [el("path", { d: "M3 9A5.5 5.5 0 1 1 8 14", fill: "none", stroke: "currentColor", "stroke-width": 1.6 }),
    el("path", { d: "M1 7L3 10L5.6 7.6Z", fill: "currentColor" })],
};

export function icon(name, { cls = "", label = null } = {}) {
  const svg = svgRoot("0 0 16 16", { class: `svg-icon icon-${name} ${cls}`.trim(),
    role: label ? "img" : null, "aria-label": label, "aria-hidden": label ? null : "true",
    focusable: "false" });
  svg.append(...DRAW[name]());
  return svg;
}
