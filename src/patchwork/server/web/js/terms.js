// The terms of a game between two people, shared by the lobby's seek form and the challenge
// dialog (challenges.js): the rules (edition, turning, flipping) and the clock (Fischer,
// correspondence or none) as form controls, what a form holds of them, and their words.
// Remembered between visits in the same preferences (store.js).

import { _, fmt, ngettext } from "./i18n.js";
import { h } from "./ui.js";

// The words for a game's clock: "10 min + 5 s", "3 days a move", "no clock".
export function clockText(clock) {
  if (!clock) return _("No clock");
  if (clock.kind === "correspondence") {
    return fmt(ngettext("{n} day a move", "{n} days a move", clock.days), {});
  }
  const initial = clock.initial ?? (clock.initial_ms ?? 0) / 1000;
  const increment = clock.increment ?? (clock.increment_ms ?? 0) / 1000;
  const minutes = initial / 60;
  return fmt(_("{minutes} min + {seconds} s"), { minutes: Number.isInteger(minutes) ? minutes : Number(minutes.toFixed(1)), seconds: increment });
}

export function rulesText(rules) {
  const r = rules || {};
  const parts = [r.edition === "original" ? _("Original (2014)") : _("Revised")];
  if (r.rotation === false) parts.push(_("no turning"));
  if (r.flip === false) parts.push(_("no flipping"));
  return parts.join(", ");
}

// A row of radio buttons drawn as one segmented control.
export function choice(name, options, checked) {
  return h("div", { class: "segmented", role: "radiogroup" },
    options.map((o) => h("label", { class: "seg" }, [
      h("input", { type: "radio", name, value: o.value, checked: o.value === checked }),
      h("span", { text: o.title }),
    ])));
}

export function numberField(name, label, attrs) {
  return h("label", { class: "field small-field" }, [
    h("span", { text: label }), h("input", { type: "number", name, inputmode: "numeric", ...attrs }),
  ]);
}

// The rules' fieldsets: the edition, and the house rules.
export function rulesFields(prefs) {
  return [
    h("fieldset", { class: "choice" }, [h("legend", { text: _("Rules edition") }),
      choice("edition", [
        { value: "revised", title: _("Revised") },
        { value: "original", title: _("Original (2014)") },
      ], prefs.edition || "revised")]),
    h("fieldset", { class: "choice house" }, [h("legend", { text: _("House rules") }),
      h("label", { class: "check" }, [h("input", { type: "checkbox", name: "rotation", checked: prefs.rotation !== false }),
        h("span", { text: _("Patches may be turned") })]),
      h("label", { class: "check" }, [h("input", { type: "checkbox", name: "flip", checked: prefs.flip !== false }),
        h("span", { text: _("Patches may be flipped over") })])]),
  ];
}

// The clock's fieldset; `sync(form)` shows the fields of the kind chosen. `required`: no
// "No clock" choice (a tournament's games have a clock).
export function clockFields(prefs, { required = false } = {}) {
  const kinds = [
    { value: "fischer", title: _("Fischer") },
    { value: "correspondence", title: _("Correspondence") },
    { value: "none", title: _("No clock") },
  ].filter((k) => !required || k.value !== "none");
  const chosen = kinds.some((k) => k.value === prefs.seekClock) ? prefs.seekClock : "fischer";
  const kind = choice("clock_kind", kinds, chosen);
  const fischer = h("div", { class: "clock-fields fischer-fields" }, [
    numberField("minutes", _("Minutes each"), { min: 1, max: 180, value: prefs.seekMinutes || 10 }),
    numberField("increment", _("Seconds added a move"), { min: 0, max: 60, value: prefs.seekIncrement ?? 5 }),
  ]);
  const days = h("div", { class: "clock-fields correspondence-fields" }, [
    numberField("days", _("Days a move"), { min: 1, max: 30, value: prefs.seekDays || 3 }),
  ]);
  const element = h("fieldset", { class: "choice" }, [h("legend", { text: _("Clock") }), kind, fischer, days]);
  const sync = (form) => {
    const k = form.querySelector('[name="clock_kind"]:checked').value;
    fischer.hidden = k !== "fischer";
    days.hidden = k !== "correspondence";
  };
  return { element, sync };
}

// What a form built of these fieldsets asks for: { rules, clock, prefs } (prefs: to remember).
export function readTerms(form) {
  const v = (name) => form.elements[name].value.trim();
  const kind = form.querySelector('[name="clock_kind"]:checked').value;
  let clock = null;
  if (kind === "fischer") {
    const minutes = Number(v("minutes")) || 10;
    clock = { kind: "fischer", initial: Math.round(minutes * 60), increment: Number(v("increment")) || 0 };
  } else if (kind === "correspondence") {
    clock = { kind: "correspondence", days: Number(v("days")) || 3 };
  }
  const rules = {
    edition: form.querySelector('[name="edition"]:checked').value,
    rotation: form.elements.rotation.checked,
    flip: form.elements.flip.checked,
  };
  const prefs = { seekClock: kind, seekMinutes: Number(v("minutes")) || 10, seekIncrement: Number(v("increment")) || 0,
    seekDays: Number(v("days")) || 3, edition: rules.edition, rotation: rules.rotation, flip: rules.flip };
  return { rules, clock, prefs };
}
