// The page: loads the language, the fixed game facts and who is signed in, then shows the
// screen the path asks for: `/` the start screen, `/play/{id}` a game (`?replay=1`: its
// replay), the account pages (`/signin`, `/signup`, `/account`), `/lobby`, `/players/{name}`,
// `/leaderboard`, `/me/games`, `/analysis` (the analysis board), `/puzzles`, `/learn` (the
// guided first game), `/tournaments` and `/tournaments/{id}`. Links marked data-link change
// screens without reloading.

import { api } from "./api.js";
import { currentAccount, onAccount, ratingText, refreshAccount, signOut } from "./account.js";
import { renderAccount, renderSignIn, renderSignUp } from "./accountpages.js";
import { LobbyScreen } from "./lobby.js";
import { renderLeaderboard, renderMyGames, renderProfile } from "./players.js";
import { renderFollowing } from "./people.js";
import { _, fmt, availableLanguages, loadLanguage, preferredLanguage, saveLanguage } from "./i18n.js";
import { GameScreen } from "./game.js";
import { ReplayScreen } from "./replay.js";
import { AnalysisScreen } from "./analysis.js";
import { PuzzleScreen } from "./puzzles.js";
import { TutorialScreen } from "./tutorial.js";
import { TournamentListScreen } from "./tournaments.js";
import { TournamentScreen } from "./tournament.js";
import { renderStart } from "./start.js";
import { installDefs } from "./svg.js";
import { startMe } from "./me.js";
import { notificationBell, startNotifications } from "./notifications.js";
import { startChallenges } from "./challenges.js";
import { hidePatchZoom } from "./circle.js";
import { setBoardSize } from "./shapes.js";
import { closeOnChoice, h, setupLiveRegions, fatal, errorText, toast } from "./ui.js";

// The text of index.html's <noscript>, listed here so that it is extracted for translation.
export const NOSCRIPT = () => _("Patchwork needs JavaScript to be switched on.");

let meta = null;
let screen = null;
let languages = [];

function header() {
  const select = h("select", { id: "language", "aria-label": _("Language") },
    languages.map((l) => h("option", { value: l.code, selected: l.code === document.documentElement.lang },
      [l.name])));
  select.addEventListener("change", async () => {
    saveLanguage(select.value);
    await loadLanguage(select.value);
    show();
  });
  return h("header", { class: "site-head" }, [
    h("a", { href: "/", class: "brand", "data-link": "1" }, [
      h("span", { class: "brand-mark", "aria-hidden": "true" }),
      h("span", { class: "brand-name", text: _("Patchwork") }),
    ]),
    h("nav", { class: "head-links", "aria-label": _("Site") }, [
      // The rules in the page's language, in a new tab so a game in progress stays open.
      h("a", { class: "howto-link", href: `/howto/${document.documentElement.lang || "en"}`,
        target: "_blank", rel: "noopener", text: _("How to play") }),
      h("a", { class: "head-link", id: "head-learn", href: "/learn", "data-link": "1",
        text: _("Learn") }),
      h("a", { class: "head-link", id: "head-puzzles", href: "/puzzles", "data-link": "1",
        text: _("Puzzles") }),
      h("a", { class: "head-link", id: "head-tournaments", href: "/tournaments", "data-link": "1",
        text: _("Tournaments") }),
      h("a", { class: "head-link", id: "head-analysis", href: "/analysis", "data-link": "1",
        text: _("Analysis board") }),
      notificationBell(),
      accountLinks(),
      h("label", { class: "lang" }, [h("span", { class: "visually-hidden", text: _("Language") }), select]),
    ]),
  ]);
}

// A guest: "Sign in" and "Sign up" (coming back here afterwards). Signed in: their name and
// rating, opening a menu of the account's pages.
function accountLinks() {
  const me = currentAccount();
  const here = location.pathname + location.search;
  const back = /^\/(signin|signup|account)\b/.test(location.pathname) ? "" : `?next=${encodeURIComponent(here)}`;
  if (!me) {
    return h("div", { class: "head-account guest" }, [
      h("a", { class: "head-link", id: "head-signin", href: `/signin${back}`, "data-link": "1", text: _("Sign in") }),
      h("a", { class: "head-link signup", id: "head-signup", href: `/signup${back}`, "data-link": "1", text: _("Sign up") }),
    ]);
  }
  const item = (href, text, id) => h("li", {}, [h("a", { href, id, "data-link": "1", text })]);
  const menu = h("details", { class: "head-account menu", id: "account-menu" }, [
    h("summary", { id: "head-me", "aria-label": fmt(_("{name}, rating {rating}: your account"),
      { name: me.name, rating: ratingText(me.rating, me.provisional) }) }, [
      h("span", { class: "me-name", dir: "ltr", text: me.name }),
      h("span", { class: "me-rating", id: "head-rating", text: ratingText(me.rating, me.provisional) }),
    ]),
    h("ul", { class: "menu-list" }, [
      item("/lobby", _("Lobby"), "menu-lobby"),
      item("/me/games", _("My games"), "menu-games"),
      item("/following", _("Following"), "menu-following"),
      item(`/players/${encodeURIComponent(me.name)}`, _("Profile"), "menu-profile"),
      item("/leaderboard", _("Leaderboard"), "menu-leaderboard"),
      item("/account", _("Account"), "menu-account"),
      h("li", {}, [h("button", { type: "button", class: "link-button", id: "sign-out",
        onclick: async () => {
          try {
            await signOut();
            toast(_("You are signed out."), "info", 3000);
          } catch (err) {
            toast(errorText(err), "error");
          }
          navigate("/");
        } }, [_("Sign out")])]),
    ]),
  ]);
  return closeOnChoice(menu, "a, button");
}

// The header again (after signing in or out, or a rating change), leaving the screen be.
function refreshHeader() {
  const old = document.querySelector(".site-head");
  if (old) old.replaceWith(header());
}

function navigate(path) {
  history.pushState(null, "", path);
  show();
}

async function show() {
  if (screen && screen.destroy) screen.destroy();
  screen = null;
  // Messages about the screen being left would only confuse the next one.
  const toasts = document.getElementById("toasts");
  if (toasts) toasts.replaceChildren();
  hidePatchZoom();
  const app = document.getElementById("app");
  const main = h("main", { id: "main", tabindex: "-1" });
  app.replaceChildren(
    h("a", { class: "skip", href: "#main", text: _("Skip to the game") }),
    header(),
    main,
  );
  const path = location.pathname.replace(/\/+$/, "") || "/";
  const ctx = { meta, navigate };
  const player = /^\/players\/([^/]+)$/.exec(path);
  const pages = {
    "/signin": () => renderSignIn(main, ctx),
    "/signup": () => renderSignUp(main, ctx),
    "/account": () => renderAccount(main, ctx),
    "/leaderboard": () => renderLeaderboard(main, ctx),
    "/me/games": () => renderMyGames(main, ctx),
    "/following": () => renderFollowing(main, ctx),
  };
  if (pages[path]) {
    document.title = _("Patchwork");
    await pages[path]();
    return;
  }
  if (path === "/lobby") {
    document.title = fmt(_("{page} – Patchwork"), { page: _("Lobby") });
    screen = new LobbyScreen(main, ctx);
    await screen.start();
    return;
  }
  if (path === "/puzzles") {
    document.title = fmt(_("{page} – Patchwork"), { page: _("Puzzle") });
    screen = new PuzzleScreen(main, ctx);
    await screen.start();
    return;
  }
  if (path === "/learn") {
    document.title = fmt(_("{page} – Patchwork"), { page: _("Learn") });
    screen = new TutorialScreen(main, ctx);
    await screen.start();
    return;
  }
  if (path === "/tournaments") {
    screen = new TournamentListScreen(main, ctx);
    await screen.start();
    return;
  }
  const tournament = /^\/tournaments\/([A-Za-z0-9_-]+)$/.exec(path);
  if (tournament) {
    screen = new TournamentScreen(main, { ...ctx, tournamentId: tournament[1] });
    await screen.start();
    return;
  }
  if (path === "/analysis") {
    document.title = fmt(_("{page} – Patchwork"), { page: _("Analysis board") });
    screen = new AnalysisScreen(main, ctx);
    await screen.start();
    return;
  }
  if (player) {
    document.title = _("Patchwork");
    await renderProfile(main, { ...ctx, name: decodeURIComponent(player[1]) });
    return;
  }
  const match = /^\/play\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
  if (!match) {
    document.title = _("Patchwork");
    renderStart(main, ctx);
    return;
  }
  const id = match[1];
  if (new URLSearchParams(location.search).get("replay")) {
    screen = new ReplayScreen(main, { meta, gameId: id });
  } else {
    screen = new GameScreen(main, { meta, gameId: id, navigate });
  }
  await screen.start();
}

document.addEventListener("click", (event) => {
  const link = event.target.closest && event.target.closest("a[data-link]");
  if (!link || event.ctrlKey || event.metaKey || event.shiftKey || event.button !== 0) return;
  event.preventDefault();
  navigate(link.getAttribute("href"));
});
window.addEventListener("popstate", () => show());

async function boot() {
  setupLiveRegions();
  languages = await availableLanguages();
  await loadLanguage(preferredLanguage(languages));
  const app = document.getElementById("app");
  try {
    meta = await api.meta();
  } catch (err) {
    fatal(app, _("The game server cannot be reached"), errorText(err),
      [h("button", { type: "button", text: _("Try again"), onclick: () => location.reload() })]);
    return;
  }
  setBoardSize(meta.board_size);
  installDefs(meta.patches.length);
  await refreshAccount();
  startNotifications();
  onAccount(() => refreshHeader());
  startChallenges({ navigate });
  startMe();
  await show();
}

boot().catch((err) => {
  // Never a blank page: whatever failed is said in words.
  const app = document.getElementById("app");
  fatal(app, _("Something went wrong"), String(err && err.message ? err.message : err));
  console.error(err);
});
