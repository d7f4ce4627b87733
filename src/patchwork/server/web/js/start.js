// The start screen: who to play (the AI at a level, two people at one screen, a friend
// online, the official Automa in solo), the rules edition and house rules, and recently finished games to replay.

import { api } from "./api.js";
import { _, fmt, num } from "./i18n.js";
import { saveSeat, loadPrefs, savePrefs } from "./store.js";
import { h, toast, errorText } from "./ui.js";
import { levelLine, levelName } from "./automa.js";
import { currentAccount, ratingText } from "./account.js";
import { aiName, storedName } from "./names.js";
import { lessonsUnderWay } from "./tutorial.js";

function radioGroup(name, legend, options, checked) {
  return h("fieldset", { class: `choice ${name}` }, [
    h("legend", { text: legend }),
    h("div", { class: "options" }, options.map((o) =>
      h("label", { class: "option" }, [
        h("input", { type: "radio", name, value: o.value, checked: o.value === checked }),
        h("span", { class: "option-body" }, [
          h("span", { class: "option-title", text: o.title }),
          o.detail ? h("span", { class: "option-detail", text: o.detail }) : null,
        ]),
      ]))),
  ]);
}

function value(form, name) {
  const input = form.querySelector(`[name="${name}"]:checked`) || form.querySelector(`[name="${name}"]`);
  return input ? input.value : null;
}

export function renderStart(root, { meta, navigate }) {
  const prefs = loadPrefs();
  const levels = Object.keys(meta.levels).map(Number).sort((a, b) => a - b).map((n) => ({
    value: String(n),
    title: aiName(n), // "AI level 3": the name the game gives it too
    // The server sends the English text; its translation is in the same catalog.
    detail: _(meta.levels[String(n)]),
  }));
  const specials = (edition) => fmt(_("Special patches on {spaces}"),
    { spaces: meta.special_spaces[edition].map(num).join(", ") });
  const form = h("form", { class: "card start-form", id: "start-form", novalidate: true });
  const mode = radioGroup("mode", _("Play"), [
    { value: "ai", title: _("Against the computer"), detail: _("Undo and hints available") },
    { value: "local", title: _("Two players, one screen"), detail: _("Pass the device") },
    { value: "online", title: _("Invite a friend"), detail: _("Share a link to play online") },
    { value: "solo", title: _("Solo against the Automa"), detail: _("The official solo mode: a deck of cards plays against you") },
  ], prefs.mode || "ai");
  // Solo: Automa's level by the names players know, each with what it counts; its deck.
  const automaLevels = meta.automa_levels.map((lv) => ({
    value: String(lv.level),
    title: fmt(_("{n}. {name}"), { n: lv.level, name: levelName(lv.level) }),
    detail: levelLine(lv),
  }));
  const soloLevel = radioGroup("solo_level", _("Automa's level"), automaLevels,
    String(prefs.soloLevel || 1));
  const deck = radioGroup("deck", _("Automa's deck"), [
    { value: "normal", title: _("Normal deck"), detail: _("Automa's next card is a surprise") },
    { value: "tactical", title: _("Tactical deck"), detail: _("Shows Automa's next budget") },
  ], prefs.deck || "normal");
  // "aiLevel", not the "level" kept before the ladder of issue 37: that number meant another.
  const level = radioGroup("level", _("Computer strength"), levels,
    String(prefs.aiLevel || meta.default_level));
  // Signed in: a game against the computer may count for the rating (no undo or hints then).
  const me = currentAccount();
  const rated = me ? h("label", { class: "check rated-choice" }, [
    h("input", { type: "checkbox", name: "rated", id: "rated", checked: Boolean(prefs.rated) }),
    h("span", { class: "option-body" }, [
      h("span", { class: "option-title", text: _("Rated") }),
      h("span", { class: "option-detail", text: _("Counts for your rating: no undo or hints while it runs.") }),
    ]),
  ]) : null;
  // Signed in, your seat carries your account's name.
  const name = h("label", { class: "field", hidden: Boolean(me) }, [
    h("span", { text: _("Your name") }),
    h("input", { name: "name", maxlength: 40, autocomplete: "nickname",
      value: prefs.name || "", placeholder: fmt(_("Player {n}"), { n: 1 }) }),
  ]);
  const other = h("label", { class: "field other-name" }, [
    h("span", { text: _("Second player's name") }),
    h("input", { name: "opponent_name", maxlength: 40, value: prefs.opponentName || "",
      placeholder: fmt(_("Player {n}"), { n: 2 }) }),
  ]);
  const first = radioGroup("first", _("Who starts"), [
    { value: "0", title: _("I start") },
    { value: "1", title: _("The other player starts") },
    { value: "random", title: _("Draw lots") },
  ], prefs.first || "0");
  const edition = radioGroup("edition", _("Rules edition"), [
    { value: "revised", title: _("Revised"), detail: specials("revised") },
    { value: "original", title: _("Original (2014)"), detail: specials("original") },
  ], prefs.edition || "revised");
  const house = h("fieldset", { class: "choice house" }, [
    h("legend", { text: _("House rules") }),
    h("label", { class: "check" }, [
      h("input", { type: "checkbox", name: "rotation", checked: prefs.rotation !== false }),
      h("span", { text: _("Patches may be turned") }),
    ]),
    h("label", { class: "check" }, [
      h("input", { type: "checkbox", name: "flip", checked: prefs.flip !== false }),
      h("span", { text: _("Patches may be flipped over") }),
    ]),
  ]);
  const clock = radioGroup("clock", _("Clock"), [
    { value: "none", title: _("No clock") },
    { value: "600+5", title: _("10 minutes + 5 s a move") },
    { value: "180+2", title: _("3 minutes + 2 s a move") },
  ], prefs.clock || "none");
  const submit = h("button", { type: "submit", class: "primary big", id: "start-game",
    text: _("Start the game") });
  form.append(...[
    h("h2", { text: _("New game") }),
    mode, level, rated, soloLevel, deck, h("div", { class: "names" }, [name, other]), first,
    h("details", { class: "more" }, [h("summary", { text: _("Rules and clock") }), edition, house,
      clock]),
    submit,
  ].filter(Boolean));

  const sync = () => {
    const m = value(form, "mode");
    level.hidden = m !== "ai";
    if (rated) rated.hidden = m !== "ai";
    other.hidden = m !== "local";
    soloLevel.hidden = m !== "solo";
    deck.hidden = m !== "solo";
    first.hidden = m === "solo"; // rule 4: the person moves first
  };
  form.addEventListener("change", sync);
  sync();

  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const m = value(form, "mode");
    const firstChoice = value(form, "first");
    const clockChoice = value(form, "clock");
    const body = {
      mode: m,
      // No name: the server names the seat ("Player 1", "Player 2"), as the terminal app does.
      name: me ? undefined : form.elements.name.value.trim() || undefined,
      rules: {
        edition: value(form, "edition"),
        rotation: form.elements.rotation.checked,
        flip: form.elements.flip.checked,
      },
    };
    if (m === "ai") body.level = Number(value(form, "level"));
    if (m === "ai" && rated && form.elements.rated.checked) body.rated = true;
    if (m === "solo") {
      body.rules.solo = { level: Number(value(form, "solo_level")), deck: value(form, "deck") };
    }
    // `/?seed=42` deals a reproducible circle (for teaching, bug reports and tests).
    const seed = new URLSearchParams(location.search).get("seed");
    if (seed !== null && /^\d{1,15}$/.test(seed)) body.seed = Number(seed);
    if (m === "local") body.opponent_name = form.elements.opponent_name.value.trim() || undefined;
    // "I start": my seat moves first; I take seat 0 and the first player follows the choice.
    body.seat = 0;
    body.first_player = m === "solo" ? 0
      : firstChoice === "random" ? "random" : Number(firstChoice);
    if (clockChoice !== "none") {
      const [initial, increment] = clockChoice.split("+").map(Number);
      body.clock = { kind: "fischer", initial, increment };
    }
    savePrefs({ mode: m, aiLevel: body.level, name: body.name, opponentName: body.opponent_name,
      first: firstChoice, edition: body.rules.edition, rotation: body.rules.rotation,
      flip: body.rules.flip, clock: clockChoice, rated: body.rated === true,
      soloLevel: body.rules.solo ? body.rules.solo.level : undefined,
      deck: body.rules.solo ? body.rules.solo.deck : undefined });
    submit.disabled = true;
    try {
      const created = await api.create(body);
      saveSeat(created.game_id, created.token, created.seat,
        created.invite_code ? { invite: created.invite_code } : {});
      navigate(`/play/${created.game_id}`);
    } catch (err) {
      toast(fmt(_("The game could not be created: {reason}"), { reason: errorText(err) }), "error");
      submit.disabled = false;
    }
  });

  const recent = h("section", { class: "card recent", "aria-labelledby": "recent-title" }, [
    h("h2", { id: "recent-title", text: _("Recently finished games") }),
  ]);
  const list = h("ul", { class: "recent-list" });
  recent.append(list);
  api.recent(8).then((games) => {
    if (!games.length) {
      list.append(h("li", { class: "muted", text: _("No finished games yet.") }));
      return;
    }
    for (const g of games) {
      const scores = g.result && g.result.scores ? g.result.scores.map(num).join(" : ") : "";
      list.append(h("li", {}, [
        h("a", { href: `/play/${g.id}?replay=1`, "data-link": true },
          [`${storedName(g.players[0])} – ${storedName(g.players[1])}`]),
        h("span", { class: "muted", text: ` ${scores}` }),
      ]));
    }
  }).catch(() => {
    list.append(h("li", { class: "muted", text: _("The list could not be loaded.") }));
  });

  const intro = h("section", { class: "intro" }, [
    h("h1", { text: _("Patchwork") }),
    h("p", { class: "lede", text: _("Sew the finest quilt: buy patches with buttons and time, fill your board, and end with more buttons than your opponent.") }),
  ]);
  // The lobby: people to play, for guests (casual games) and accounts (rated ones too).
  const lobby = h("section", { class: "card lobby-card", "aria-labelledby": "lobby-card-title" }, [
    h("div", {}, [
      h("h2", { id: "lobby-card-title", text: _("Play someone new") }),
      h("p", { class: "muted", text: me
        ? fmt(_("Meet other players in the lobby. You play as {name} ({rating})."),
          { name: me.name, rating: ratingText(me.rating, me.provisional) })
        : _("Meet other players in the lobby. Sign in to play rated games.") }),
    ]),
    h("a", { class: "button primary", id: "lobby-link", href: "/lobby", "data-link": "1", text: _("Go to the lobby") }),
  ]);
  // Newcomers: the guided first game (/learn), or back to the lessons begun.
  const going = lessonsUnderWay();
  const learn = h("section", { class: "card learn-card", "aria-labelledby": "learn-card-title" }, [
    h("div", {}, [
      h("h2", { id: "learn-card-title", text: _("New to Patchwork?") }),
      h("p", { class: "muted", text: _("Learn in a guided first game against a gentle opponent: each rule shown on the table, one step at a time.") }),
    ]),
    h("a", { class: "button primary", id: "learn-link", href: "/learn", "data-link": "1",
      text: going ? _("Go on with the lessons") : _("Start the lessons") }),
  ]);
  root.replaceChildren(h("div", { class: "start" }, [intro, learn, form, lobby, recent]));
  form.querySelector('[name="mode"]:checked').focus({ preventScroll: true });
}
