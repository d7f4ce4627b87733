// Who is signed in (docs/accounts.md): the Account JSON ({id, name, rating, rd, provisional,
// csrf_token}) or null for a guest. Asked of the server at boot (GET /api/account/me: the
// session is an HttpOnly cookie the page cannot read), replaced on sign-in, sign-up and
// sign-out; the CSRF token goes to api.js and stays in memory.

import { api, setCsrfToken } from "./api.js";
import { _, currentLanguage, fmt } from "./i18n.js";

let me = null;
const listeners = new Set();

export function currentAccount() {
  return me;
}

export function setAccount(account) {
  me = account && account.name ? account : null;
  setCsrfToken(me ? me.csrf_token : null);
  for (const f of listeners) f(me);
}

export function onAccount(f) {
  listeners.add(f);
  return () => listeners.delete(f);
}

// At boot and whenever the server may have changed its mind (an expired session).
export async function refreshAccount() {
  try {
    setAccount(await api.me());
  } catch (err) {
    // 401 not_signed_in: a guest. Anything else (network): a guest for now as well.
    setAccount(null);
  }
  return me;
}

export async function signOut() {
  try {
    await api.signOut();
  } finally {
    setAccount(null);
  }
}

// A rating's figure: whole, in the page's digits, without a thousands separator (1500, ۱۵۰۰).
export function ratingNum(rating) {
  try {
    return new Intl.NumberFormat(currentLanguage(), { useGrouping: false, maximumFractionDigits: 0 })
      .format(Math.round(rating));
  } catch {
    return String(Math.round(rating));
  }
}

// A rating as people read it: rounded, with "?" while it is provisional.
export function ratingText(rating, provisional) {
  if (rating === null || rating === undefined) return "";
  const r = ratingNum(rating);
  return provisional ? fmt(_("{rating}?"), { rating: r }) : r;
}

// "1500 ± 350": the rating and its deviation.
export function ratingWithDeviation(rating, rd) {
  return fmt(_("{rating} ± {rd}"), { rating: ratingNum(rating), rd: ratingNum(rd) });
}

// Where to go after signing in or up: the page the person came from (?next=), never another site.
// The path is resolved as the browser would resolve it ("/\\host" and "/<tab>/host" name another
// host to a URL parser) and kept only if it stays on this site; backslashes and whitespace are
// refused outright.
export function nextPath(fallback = "/") {
  const next = new URLSearchParams(location.search).get("next");
  if (!next || !next.startsWith("/") || /[\\\s]/.test(next)) return fallback;
  let url;
  try {
    url = new URL(next, location.origin);
  } catch {
    return fallback;
  }
  if (url.origin !== location.origin || /^\/(signin|signup)\b/.test(url.pathname)) return fallback;
  return url.pathname + url.search + url.hash;
}
