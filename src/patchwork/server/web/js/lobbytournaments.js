// The lobby's "Tournaments" card: the events being played now, then the next to start (at
// most SHOWN), each linking to its page, and the way to all of them (docs/web.md, "Lobby").
// Read once when the lobby opens: the list page and each event's page follow them live.

import { api } from "./api.js";
import { _ } from "./i18n.js";
import { listItem } from "./tournaments.js";
import { h } from "./ui.js";

const SHOWN = 4;

export function tournamentsCard() {
  const list = h("ul", { class: "tournament-list compact", id: "lobby-tournaments" });
  const card = h("section", { class: "card lobby-tournaments", "aria-labelledby": "lobby-tournaments-title" }, [
    h("h2", { id: "lobby-tournaments-title", text: _("Tournaments") }),
    list,
    h("p", {}, [h("a", { href: "/tournaments", "data-link": "1", id: "lobby-all-tournaments",
      text: _("All tournaments") })]),
  ]);
  fill(list);
  return card;
}

async function fill(list) {
  try {
    const [running, open] = await Promise.all([api.tournaments("running"), api.tournaments("open")]);
    // Upcoming ones soonest first (the list is newest first).
    const next = [...open.tournaments].sort((a, b) => a.starts_at - b.starts_at);
    const shown = [...running.tournaments, ...next].slice(0, SHOWN);
    list.replaceChildren(...(shown.length
      ? shown.map(listItem)
      : [h("li", { class: "muted empty", text: _("No tournament is coming up. Create one!") })]));
  } catch {
    list.replaceChildren(h("li", { class: "muted", text: _("The tournaments could not be read.") }));
  }
}
