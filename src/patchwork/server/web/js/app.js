// The page: loads the language and the fixed game facts, then shows the screen the path
// asks for: `/` the start screen, `/play/{id}` a game (`?replay=1`: its replay). Links
// marked data-link change screens without reloading the page.

import { api } from "./api.js";
import { _, availableLanguages, loadLanguage, preferredLanguage, saveLanguage } from "./i18n.js";
import { GameScreen } from "./game.js";
import { ReplayScreen } from "./replay.js";
import { renderStart } from "./start.js";
import { installDefs } from "./svg.js";
import { setBoardSize } from "./shapes.js";
import { h, setupLiveRegions, fatal, errorText } from "./ui.js";

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
      h("span", { text: _("Patchwork") }),
    ]),
    h("nav", { class: "head-links" }, [
      // The rules in the page's language, in a new tab so a game in progress stays open.
      h("a", { class: "howto-link", href: `/howto/${document.documentElement.lang || "en"}`,
        target: "_blank", rel: "noopener", text: _("How to play") }),
      h("label", { class: "lang" }, [h("span", { class: "visually-hidden", text: _("Language") }), select]),
    ]),
  ]);
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
  const app = document.getElementById("app");
  const main = h("main", { id: "main", tabindex: "-1" });
  app.replaceChildren(
    h("a", { class: "skip", href: "#main", text: _("Skip to the game") }),
    header(),
    main,
  );
  const match = /^\/play\/([A-Za-z0-9_-]+)\/?$/.exec(location.pathname);
  if (!match) {
    document.title = _("Patchwork");
    renderStart(main, { meta, navigate });
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
  await show();
}

boot().catch((err) => {
  // Never a blank page: whatever failed is said in words.
  const app = document.getElementById("app");
  fatal(app, _("Something went wrong"), String(err && err.message ? err.message : err));
  console.error(err);
});
