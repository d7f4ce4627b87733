// What each seat is called, the same scheme as the terminal app: a person by the name they
// gave, else "Player 1" / "Player 2" by seat (the server stores that default in English: it is
// said here in the page's language); the computer by its level, "AI level 3", the one name the
// page gives it everywhere (the server stores it so, in English). Sentences about
// the player at this screen have their own words ("Your turn"); name tags add "(you)".
// The solo mode's opponent is "Automa" everywhere.

import { _, fmt } from "./i18n.js";

// The computer at a level, in the page's language: "AI level 3".
export function aiName(level) {
  return fmt(_("AI level {n}"), { n: level });
}

// info: a seat of the game view ({kind, name, level}); seat: 0 or 1.
export function seatName(info, seat) {
  if (info.kind === "ai") return aiName(info.level);
  if (info.kind === "automa") return "Automa"; // a name, the same in every language
  if (info.name === `Player ${seat + 1}`) return fmt(_("Player {n}"), { n: seat + 1 });
  // A deleted account's seat: stored in English, said in the page's language.
  if (info.name === "Deleted player" && !info.account) return _("Deleted player");
  return info.name;
}

// A name as the server stores it in lists (game summaries, rating histories), said in the
// page's language where it is one of the server's English defaults; an account's name never
// is one (account names have no spaces).
export function storedName(name) {
  let m = /^AI level (\d+)$/.exec(name);
  if (m) return aiName(Number(m[1]));
  m = /^Player (\d+)$/.exec(name);
  if (m) return fmt(_("Player {n}"), { n: Number(m[1]) });
  if (name === "Deleted player") return _("Deleted player");
  return name;
}
