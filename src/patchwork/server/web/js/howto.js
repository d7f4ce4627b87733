// The pictures of the "How to play" page (/howto/{lang}), drawn from the engine's data in
// /api/meta with the table's own drawing: patches as the circle shows them, the time board's
// spiral, and a quilt with a patch sewn on and the next one held where it fits (or not).
// The page marks each place with <figure data-picture="offer|timeboard|placement">.

import { _, fmt, loadLanguage } from "./i18n.js";
import { api } from "./api.js";
import { patchItem, legend } from "./circle.js";
import { renderTimeBoard } from "./timeboard.js";
import { QuiltView, piecesBySeat } from "./quilt.js";
import { BOARD, footprint, orient, orientationName, parseSquare, setBoardSize } from "./shapes.js";
import { installDefs } from "./svg.js";
import { icon } from "./icons.js";
import { h } from "./ui.js";

// Three patches after the neutral token, one of each kind of income (0 to 3 figures fit).
const OFFER = [24, 16, 7];

function offer(meta) {
  const items = [h("li", { class: "ring-item neutral", "aria-label": _("Neutral token: the patches on offer are the next three clockwise") }, [
    h("span", { class: "neutral-token", "aria-hidden": "true" }), icon("clockwise", { cls: "cw" }),
  ])];
  OFFER.forEach((id, i) => items.push(patchItem(meta.patches[id], i + 1)));
  return [h("ol", { class: "howto-offer", dir: "ltr" }, items), legend()];
}

function timeboard(meta) {
  const box = h("div", { class: "timeboard-box", dir: "ltr" });
  const names = [fmt(_("Player {n}"), { n: 1 }), fmt(_("Player {n}"), { n: 2 })];
  renderTimeBoard(box, { meta, players: [{ position: 4 }, { position: 9 }],
    specialsLeft: meta.special_spaces.revised, onTop: 0, names });
  return [box];
}

// A quilt with `sewn` on it ([patch, square]) and `held` over it at a square.
function quilt(meta, sewn, held, label) {
  const at = (id, square) => {
    const { row, col } = parseSquare(square);
    return footprint(orient(meta.patches[id].shape, 0), row, col);
  };
  const history = sewn.map(([id, square]) => ({ seat: 0, move: `${id}${orientationName(0)}@${square}`,
    squares: at(id, square) }));
  const covered = new Set(history.flatMap((m) => m.squares));
  const rows = Array.from({ length: BOARD }, (_r, r) => Array.from({ length: BOARD },
    (_c, c) => (covered.has("abcdefghi"[c] + String(r + 1)) ? "#" : ".")).join(""));
  const view = new QuiltView(label);
  view.render(rows, piecesBySeat(history)[0], meta.patches, false);
  const squares = at(held[0], held[1]);
  view.showOverlay(squares, squares.some((s) => covered.has(s)) ? "blocked" : "fits");
  return h("div", { class: "howto-quilt", dir: "ltr" }, [view.svg]);
}

function placement(meta) {
  const sewn = [[8, "a1"]];
  return [h("div", { class: "howto-quilts" }, [
    h("div", {}, [quilt(meta, sewn, [19, "d1"], _("It fits: every square under it is empty.")),
      h("p", { class: "small", text: _("It fits: every square under it is empty.") })]),
    h("div", {}, [quilt(meta, sewn, [19, "b1"], _("It does not fit: it would overlap a patch.")),
      h("p", { class: "small", text: _("It does not fit: it would overlap a patch.") })]),
  ])];
}

const PICTURES = { offer, timeboard, placement };

// On a right-to-left page every Latin fragment of the text (a square "a1", a move "S@e5",
// "A") is isolated in a <bdi>, so that it never pulls the brackets and punctuation around
// it to its own direction; code and notation keep to one line (app.css).
const LATIN = /[A-Za-z0-9@][A-Za-z0-9@×]*/g;

export function isolateLatin(root) {
  if (document.documentElement.dir !== "rtl") return;
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT, {
    acceptNode: (n) => (n.parentElement.closest("code, pre, bdi, svg, figure, script, style")
      ? NodeFilter.FILTER_REJECT : NodeFilter.FILTER_ACCEPT),
  });
  const texts = [];
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    if (/[A-Za-z]/.test(n.data)) texts.push(n);
  }
  for (const node of texts) {
    const parts = [];
    let last = 0;
    for (const m of node.data.matchAll(LATIN)) {
      if (!/[A-Za-z]/.test(m[0])) continue; // digits alone are numbers, not notation
      if (m.index > last) parts.push(node.data.slice(last, m.index));
      parts.push(h("bdi", { dir: "ltr", text: m[0] }));
      last = m.index + m[0].length;
    }
    if (!parts.length) continue;
    if (last < node.data.length) parts.push(node.data.slice(last));
    node.replaceWith(...parts);
  }
}

async function draw() {
  const article = document.querySelector(".howto");
  if (article) isolateLatin(article);
  await loadLanguage(document.documentElement.lang || "en");
  const meta = await api.meta();
  setBoardSize(meta.board_size);
  installDefs(meta.patches.length);
  for (const figure of document.querySelectorAll("figure[data-picture]")) {
    const make = PICTURES[figure.dataset.picture];
    if (make) figure.replaceChildren(...make(meta));
  }
}

draw().catch((err) => console.error(err));
