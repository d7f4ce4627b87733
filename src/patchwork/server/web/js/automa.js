// The solo game's words and Automa's side of the table. The server sends what the engine
// decided (the view's `automa`, each move's `outcome.automa_turns`); this only says it, with
// the terminal app's sentences (patchwork/tui/solo.py: the same msgids, so the same
// translations), and shows only what the person may know (never the deck's order).

import { _, currentLanguage, fmt, ngettext, num, sep } from "./i18n.js";
import { patchSvg, specialSvg } from "./pieces.js";
import { h } from "./ui.js";

export const AUTOMA = 1; // Automa's seat; the person is seat 0
const SPECIAL = -1; // a special patch in its pile without buttons

// The level names players know; the server sends them in English (meta.automa_levels).
export function levelName(level) {
  return {
    1: _("Intern"),
    2: _("Apprentice"),
    3: _("Fellow"),
    4: _("Master"),
    5: _("Legend"),
  }[level] || String(level);
}

export function levelText(level) {
  return fmt(_("level {n}, {name}"), { n: level, name: levelName(level) });
}

export function deckName(deck) {
  return deck === "tactical" ? _("tactical deck") : _("normal deck");
}

// The columns of Automa's score (rule 17) with their points, as the terminal app says them.
function columnText(column, n) {
  switch (column) {
    case "bonus": return fmt(_("bonus tile {n}"), { n });
    case "buttons": return fmt(_("buttons {n}"), { n });
    case "patches_with_buttons": return fmt(_("patches with buttons {n}"), { n });
    default: return fmt(_("buttons printed on its patches {n}"), { n });
  }
}

// A column's name alone: a heading of the end screen's table, and in the start page's line.
function columnTitle(column) {
  switch (column) {
    case "bonus": return _("7×7 bonus");
    case "buttons": return _("Buttons");
    case "patches_with_buttons": return _("Patches with buttons");
    default: return _("Buttons printed on its patches");
  }
}

function columnWord(column) {
  switch (column) {
    case "bonus": return _("7×7 tile");
    case "buttons": return _("its buttons");
    case "patches_with_buttons": return _("its patches with buttons");
    default: return _("printed buttons");
  }
}

// The start page's short line about a level: what Automa counts and where its marker lies.
export function levelLine(info) {
  return fmt(_("Counts {columns}"), { columns: info.scores.map(columnWord).join(" + ") }) +
    sep() + fmt(_("7x7 marker on space {space}"), { space: info.marker });
}

// A turn in a few words, for the list of moves.
export function turnShort(turn) {
  return turn.patch === null
    ? fmt(_("drew {budget}: passed"), { budget: turn.card.budget })
    : fmt(_("drew {budget}: patch {id}"), { budget: turn.card.budget, id: turn.patch });
}

// Automa's turns after a move in one short sentence, however many there were (the last-move
// line and the notice): the patches it bought and where it is now ("Automa bought patches 29,
// 2 and 6 and moved to space 7."). Each turn in full is the terminal app's (turnLines).
export function turnsCompact(turns) {
  const bought = turns.filter((t) => t.patch !== null).map((t) => t.patch);
  const passes = turns.length - bought.length;
  const space = turns[turns.length - 1].end;
  if (!bought.length) return fmt(_("Automa passed and moved to space {space}."), { space });
  const text = fmt(ngettext("Automa bought patch {patches} and moved to space {space}.",
    "Automa bought patches {patches} and moved to space {space}.", bought.length),
  { patches: list(bought.map(num)), space });
  if (!passes) return text;
  const passed = ngettext("It passed once too.", "It passed {n} times too.", passes);
  return `${text} ${passed}`;
}

// "29, 2 and 6" in the page's language.
function list(items) {
  try {
    return new Intl.ListFormat(currentLanguage(), { type: "conjunction" }).format(items);
  } catch {
    return items.join(", ");
  }
}

// A filter of a card, in a few words (the card's faces show them as icons).
export function filterName(filter) {
  switch (filter) {
    case "no_overtake": return _("does not pass you");
    case "most_buttons": return _("most buttons");
    case "largest": return _("largest");
    default: return _("furthest from the neutral token");
  }
}

// Why Automa took the patch it took, when the card's first filter left one (rule 9).
function reason(turn) {
  const values = { budget: turn.card.budget, id: turn.patch };
  switch (turn.decided_by) {
    case "no_overtake":
      return fmt(_("Automa had {budget} to spend: bought patch {id}, one that does not pass you."), values);
    case "most_buttons":
      return fmt(_("Automa had {budget} to spend: bought patch {id}, the one with the most buttons it could afford."), values);
    case "largest":
      return fmt(_("Automa had {budget} to spend: bought patch {id}, the largest it could afford."), values);
    default:
      return fmt(_("Automa had {budget} to spend: bought patch {id}, the furthest from the neutral token it could afford."), values);
  }
}

// What Automa did on one turn, in sentences (tui/solo.py turn_lines, the same words).
export function turnLines(turn) {
  const lines = [];
  if (turn.patch === null) {
    lines.push(fmt(_("Automa had {budget} to spend: it could afford no patch, so it passed to space {space}."),
      { budget: turn.card.budget, space: turn.end }));
  } else if (turn.decided_by === null) {
    lines.push(fmt(_("Automa had {budget} to spend: bought patch {id}, the only one it could afford."),
      { budget: turn.card.budget, id: turn.patch }));
  } else {
    // (The engine says which filters the choice went through: naming the last alone could
    // claim too much.)
    lines.push(turn.filters_used.length === 1 ? reason(turn)
      : fmt(_("Automa had {budget} to spend: bought patch {id}, the one its card's filters left ({filters})."),
        { budget: turn.card.budget, id: turn.patch, filters: turn.filters_used.map(filterName).join(", ") }));
  }
  if (turn.patch !== null) lines.push(fmt(_("Automa moves to space {space}."), { space: turn.end }));
  if (turn.income) {
    lines.push(fmt(ngettext("Automa collects {n} button of income.",
      "Automa collects {n} buttons of income.", turn.income), {}));
  }
  if (turn.specials) {
    lines.push(fmt(ngettext("Automa takes the special patch lying on its way.",
      "Automa takes the {n} special patches lying on its way.", turn.specials), {}));
  }
  if (turn.bonus) lines.push(_("Automa reached the marker: it takes the 7x7 bonus tile."));
  if (turn.reshuffled) lines.push(_("Automa's deck ran out: all 12 cards are shuffled into a new deck."));
  return lines;
}

function pile(ids, patches, title, cls) {
  const items = ids.map((id) => h("li", { class: "pile-patch", title: id === SPECIAL ? _("special") : String(id) },
    [id === SPECIAL ? specialSvg(6) : patchSvg(patches[id], 0, 6)]));
  return h("div", { class: `pile ${cls}` }, [
    h("h3", { class: "pile-title", text: title }),
    ids.length ? h("ul", { class: "pile-list" }, items) : h("p", { class: "muted small", text: _("none") }),
  ]);
}

// The card just played: its number, budget, filters top to bottom and income.
function cardBox(card) {
  if (!card) return h("p", { class: "automa-card none muted", text: _("no card played yet") });
  return h("div", { class: "automa-card", "data-card": String(card.number) }, [
    h("span", { class: "card-budget", "aria-hidden": "true", text: num(card.budget) }),
    h("div", { class: "card-text" }, [
      h("strong", { text: fmt(_("card {card}: budget {budget}, income {income}"),
        { card: card.number, budget: card.budget, income: card.income }) }),
      h("ol", { class: "card-filters" }, card.filters.map((f) => h("li", { text: filterName(f) }))),
    ]),
  ]);
}

// Automa's side of the table, where a second quilt would be: its level and deck, the card it
// just played, its two piles, its buttons, the next budget (tactical deck) and the marker.
export function automaPanel(g, meta, { ended = false } = {}) {
  const a = g.automa;
  const figures = h("dl", { class: "figures" }, [
    h("div", {}, [h("dt", { text: _("Buttons") }), h("dd", { class: "buttons-count", text: num(a.buttons) })]),
    h("div", {}, [h("dt", { text: _("Space") }), h("dd", { text: num(a.position) })]),
    h("div", {}, [h("dt", { text: ended ? _("Final score") : _("Score now") }),
      h("dd", { class: "score", text: num(g.scores[AUTOMA]) })]),
  ]);
  const facts = [h("span", { class: "tag", text: deckName(a.deck) })];
  if (g.bonus_owner === AUTOMA) {
    facts.push(h("span", { class: "tag bonus-tag", text: _("has the 7×7 bonus tile") }));
  }
  if (a.next_budget !== null && !ended) {
    facts.push(h("span", { class: "tag next-budget", id: "next-budget",
      text: fmt(_("next budget: {budget}"), { budget: a.next_budget }) }));
  }
  if (a.marker !== null && !ended) {
    facts.push(h("span", { class: "tag marker-tag",
      text: fmt(_("7x7 marker on space {space}"), { space: a.marker }) }));
  }
  return h("div", { class: "automa-side" }, [
    h("p", { class: "automa-level", text: levelText(a.level) }),
    h("div", { class: "automa-facts" }, facts),
    figures,
    cardBox(a.card),
    h("div", { class: "piles" }, [
      pile(a.with_buttons, meta.patches, _("Patches with buttons"), "with"),
      pile(a.without_buttons, meta.patches, _("Patches without buttons"), "without"),
    ]),
  ]);
}

// The end of a solo game: Automa's score taken apart by its level's columns.
export function automaScore(g, name) {
  const a = g.automa;
  const parts = a.score_parts.map((p) => columnText(p.column, p.points)).join(" + ");
  return fmt(_("Automa ({level}) scores {parts} = {score}"),
    { level: levelText(a.level), parts, score: g.scores[AUTOMA], name });
}

export function automaScoreTable(g) {
  const a = g.automa;
  return h("table", { class: "score-table automa-score", id: "automa-score" }, [
    h("caption", { text: automaScore(g) }),
    h("thead", {}, [h("tr", {}, [
      h("th", { scope: "col", text: _("Player") }),
      ...a.score_parts.map((p) => h("th", { scope: "col", text: columnTitle(p.column) })),
      h("th", { scope: "col", text: _("Score") }),
    ])]),
    h("tbody", {}, [h("tr", { "data-seat": String(AUTOMA) }, [
      h("th", { scope: "row", text: "Automa" }),
      ...a.score_parts.map((p) => h("td", { text: num(p.points) })),
      h("td", { class: "total", text: num(g.scores[AUTOMA]) }),
    ])]),
  ]);
}
