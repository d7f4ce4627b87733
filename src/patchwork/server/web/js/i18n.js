// Translations: every string people read goes through _(), ngettext() and fmt(), written
// literally so Babel's JavaScript extractor can collect them into the gettext catalogs.
// The catalog comes from the server (/api/i18n/{lang}); without one, English source text.

const STORAGE_KEY = "patchwork.lang";

let lang = "en";
let dir = "ltr";
let messages = {};
let plurals = {};
let pluralIndex = (n) => (n === 1 ? 0 : 1);
let numberFormat = new Intl.NumberFormat("en");

export function _(text) {
  const t = messages[text];
  return typeof t === "string" && t !== "" ? t : text;
}

export function ngettext(singular, plural, n) {
  const forms = plurals[singular];
  if (Array.isArray(forms) && forms.length) {
    const form = forms[Math.min(Math.max(0, pluralIndex(n)), forms.length - 1)];
    if (form) return form.split("{n}").join(num(n));
  }
  return (n === 1 ? singular : plural).split("{n}").join(num(n));
}

// Fills Python-style {name} placeholders; numbers are shown in the page's language.
export function fmt(text, values) {
  return text.replace(/\{(\w+)\}/g, (whole, name) => {
    if (!(name in values)) return whole;
    const v = values[name];
    return typeof v === "number" ? num(v) : String(v);
  });
}

// A text's digits in the page's own (Persian: ۰-۹), for notation shown to people.
export function digits(text) {
  return String(text).replace(/[0-9]/g, (d) => numberFormat.format(Number(d)));
}

export function num(n) {
  return numberFormat.format(Object.is(n, -0) ? 0 : n);
}

// A share (0-1) as a whole percentage in the page's language ("75%", "۷۵٪"); a share that
// rounds to nothing is 0%, never "-0%".
export function percent(p) {
  const whole = Math.round(p * 100) || 0;
  try {
    return new Intl.NumberFormat(lang, { style: "percent", maximumFractionDigits: 0 }).format(whole / 100);
  } catch {
    return `${whole}%`;
  }
}

// A gain or a loss, one decimal, its sign always written as the language writes it ("+1.5",
// "−2", Persian's "‎+۱٫۵" that stays whole in right-to-left text); nothing is 0, unsigned.
export function signed(n) {
  const v = rounded(n);
  try {
    return new Intl.NumberFormat(lang, { signDisplay: "exceptZero", maximumFractionDigits: 1 }).format(v);
  } catch {
    return v > 0 ? `+${v}` : String(v);
  }
}

// A number rounded to `places` decimals, never "-0" ("−0.0" reads as a loss of nothing).
export function rounded(n, places = 1) {
  const f = 10 ** places;
  return Math.round(n * f) / f || 0;
}

// What separates the items of a short list in a line ("6 mistakes · 2 blunders"). The
// middle dot reads as a zero in Persian ("۶ · اشتباه" as "۶۰"): there it is a comma.
export function sep() {
  return lang === "fa" ? "، " : " · ";
}

// A sentence that starts with a name starts with a capital ("AI level 3 wins.", "Ann...").
export function sentence(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

export function currentLanguage() {
  return lang;
}

export function currentDir() {
  return dir;
}

// A C plural expression such as "(n != 1)" or "n%10==1 && n%100!=11 ? 0 : ..." turned into
// a function; it is checked to hold nothing but n, digits, operators and parentheses.
function compilePlural(expr) {
  if (typeof expr !== "string" || !/^[n0-9\s?:%<>=!&|()+\-*/]+$/.test(expr)) return null;
  try {
    const f = new Function("n", `return Number(${expr});`);
    f(1);
    return f;
  } catch {
    return null;
  }
}

export async function loadLanguage(code) {
  messages = {};
  plurals = {};
  pluralIndex = (n) => (n === 1 ? 0 : 1);
  lang = "en";
  dir = "ltr";
  if (code && code !== "en") {
    try {
      const r = await fetch(`/api/i18n/${encodeURIComponent(code)}`);
      if (r.ok) {
        const data = await r.json();
        messages = data.messages || {};
        plurals = data.plurals || {};
        pluralIndex = compilePlural(data.plural) || pluralIndex;
        lang = data.language || code;
        dir = data.dir === "rtl" ? "rtl" : "ltr";
      }
    } catch {
      // No catalog (or no network): English it is, silently.
    }
  }
  try {
    numberFormat = new Intl.NumberFormat(lang);
  } catch {
    numberFormat = new Intl.NumberFormat("en");
  }
  document.documentElement.lang = lang;
  document.documentElement.dir = dir;
  return lang;
}

export async function availableLanguages() {
  try {
    const r = await fetch("/api/i18n");
    if (r.ok) {
      const data = await r.json();
      if (Array.isArray(data.languages) && data.languages.length) return data.languages;
    }
  } catch {
    // fall through
  }
  return [{ code: "en", name: "English", dir: "ltr" }];
}

// Explicit choice (saved) > ?lang= > the browser's languages > English.
export function preferredLanguage(available) {
  const codes = available.map((l) => l.code);
  const pick = (c) => {
    if (!c) return null;
    const lower = c.toLowerCase();
    if (codes.includes(lower)) return lower;
    const base = lower.split("-")[0];
    return codes.includes(base) ? base : null;
  };
  let saved = null;
  try {
    saved = localStorage.getItem(STORAGE_KEY);
  } catch {
    saved = null;
  }
  const fromQuery = new URLSearchParams(location.search).get("lang");
  for (const c of [saved, fromQuery, ...(navigator.languages || [])]) {
    const p = pick(c);
    if (p) return p;
  }
  return "en";
}

export function saveLanguage(code) {
  try {
    localStorage.setItem(STORAGE_KEY, code);
  } catch {
    // private mode: the choice lasts this page only
  }
}
