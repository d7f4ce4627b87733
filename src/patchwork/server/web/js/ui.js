// Small DOM helpers shared by the screens: building elements, the spoken and visible
// announcements (aria-live + toasts), confirmation dialogs and the error banner.

import { _, digits } from "./i18n.js";
import { icon } from "./icons.js";

export function h(tag, attrs = {}, children = []) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === null || v === undefined || v === false) continue;
    if (k === "class") node.className = v;
    else if (k === "text") node.textContent = v;
    else if (k.startsWith("on") && typeof v === "function") node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? "" : String(v));
  }
  for (const child of [].concat(children)) {
    if (child === null || child === undefined || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

// Calls `fn` once, at the next frame the page draws, or after `ms` should no frame come (a
// hidden page draws none). Returns what cancels it.
export function nextFrame(fn, ms = 250) {
  let timer = null;
  const frame = requestAnimationFrame(() => {
    clearTimeout(timer);
    fn();
  });
  timer = setTimeout(() => {
    cancelAnimationFrame(frame);
    fn();
  }, ms);
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}

// `parent`'s children made `nodes`, keeping each old child that is the same as its
// replacement (the same markup: Node.isEqualNode; its handlers do what the new one's would),
// so that a list redrawn at every message keeps the row under a pressed pointer and the focus.
export function keepSame(parent, nodes) {
  const old = [...parent.children];
  const wanted = nodes.map((node) => {
    const i = old.findIndex((o) => o.isEqualNode(node));
    return i < 0 ? node : old.splice(i, 1)[0];
  });
  for (const gone of old) gone.remove();
  wanted.forEach((node, i) => {
    if (parent.children[i] !== node) parent.insertBefore(node, parent.children[i] || null);
  });
}

// A touch screen without a mouse: instructions speak of fingers, not of keys.
export function touchScreen() {
  return window.matchMedia("(pointer: coarse)").matches && !window.matchMedia("(pointer: fine)").matches;
}

// A phone: a narrow screen, or a touch screen without a mouse.
export function phoneScreen() {
  return window.matchMedia("(max-width: 40rem)").matches || touchScreen();
}

// A translated sentence with some of its {placeholders} filled by elements (a move's
// notation as <code dir="ltr">, a link): the text around them stays the translator's.
export function fmtNodes(text, values) {
  const out = [];
  let rest = text;
  const re = /\{(\w+)\}/;
  for (let m = re.exec(rest); m; m = re.exec(rest)) {
    if (m.index) out.push(rest.slice(0, m.index));
    const v = values[m[1]];
    out.push(v === undefined ? m[0] : v);
    rest = rest.slice(m.index + m[0].length);
  }
  if (rest) out.push(rest);
  return out;
}

// A move's notation as shown to people: left to right, its digits the page's own.
export function notation(move) {
  return h("code", { class: "notation", dir: "ltr", text: digits(move) });
}

let politeRegion = null;
let toastBox = null;

// The label of a bot: an AI level of the lobby, or an account a program plays (docs/bots.md).
export function botTag() {
  return h("span", { class: "tag bot-tag", text: _("bot") });
}

// A menu in a <details>: a choice in it (what ``choices`` selects) closes it, and so do
// Escape (focus back on its summary) and a click anywhere outside it.
export function closeOnChoice(menu, choices) {
  menu.addEventListener("click", (e) => {
    if (e.target.closest(choices)) menu.open = false;
  });
  menu.addEventListener("keydown", (e) => {
    if (e.key === "Escape" && menu.open) {
      menu.open = false;
      menu.querySelector("summary").focus();
    }
  });
  menu.dataset.closeOnChoice = "";
  return menu;
}

document.addEventListener("click", (e) => {
  for (const menu of document.querySelectorAll("details[data-close-on-choice][open]")) {
    if (!menu.contains(e.target)) menu.open = false;
  }
});

export function setupLiveRegions() {
  politeRegion = h("div", { class: "visually-hidden", "aria-live": "polite", role: "status",
    id: "announcer" });
  toastBox = h("div", { class: "toasts", "aria-live": "assertive", id: "toasts" });
  document.body.append(politeRegion, toastBox);
  // A notice never stands in the way of play: taps go through it (app.css), and on a phone
  // the first touch anywhere puts it away, so it covers nothing while a patch is placed.
  document.addEventListener("pointerdown", (e) => {
    if (!toastBox.childElementCount || !phoneScreen()) return;
    if (e.target.closest && e.target.closest(".toast-close")) return;
    clearNotices();
  }, true);
}

// Read out by screen readers (polite), without anything visible.
export function announce(text) {
  if (!politeRegion) return;
  politeRegion.textContent = "";
  // A fresh text node after a tick is what makes screen readers repeat equal messages.
  setTimeout(() => {
    politeRegion.textContent = text;
  }, 30);
}

// Visible and read out at once; kind: info, good, warn, error. One notice at a time: a new
// one takes the place of the last, and each goes after `ms` (on a phone after 4 s at most).
// ``details`` (a refusal in move notation) is a small second line under the words.
export function toast(text, kind = "info", ms = 5000, details = "") {
  if (!toastBox) return;
  clearNotices();
  const words = h("span", { class: "toast-text" }, [h("span", { text })]);
  if (details) words.append(h("small", { class: "toast-details", text: details }));
  const item = h("div", { class: `toast ${kind}`, role: kind === "error" ? "alert" : "status" }, [
    h("span", { class: "toast-icon" }, [icon({ good: "star", warn: "warn", error: "cross", info: "info" }[kind] || "info")]),
    words,
    h("button", { class: "toast-close", type: "button", "aria-label": _("Dismiss"),
      onclick: () => item.remove() }, [icon("cross")]),
  ]);
  toastBox.append(item);
  setTimeout(() => item.remove(), phoneScreen() ? Math.min(ms, 4000) : ms);
  return item;
}

// No notice outlives what it was about (the end screen starts with none).
export function clearNotices() {
  if (toastBox) toastBox.replaceChildren();
}

// A modal question; resolves true when confirmed. Built on <dialog> for focus handling.
// A modal dialog's closing, by its Cancel button or the Escape key: it is closed and removed.
// The function that closes it (for the dialog's own use once done).
export function closedBy(dialog, cancel) {
  const close = () => {
    dialog.close();
    dialog.remove();
  };
  cancel.addEventListener("click", close);
  dialog.addEventListener("cancel", (e) => {
    e.preventDefault();
    close();
  });
  return close;
}

export function confirmDialog(title, body, okText, cancelText = _("Cancel")) {
  return new Promise((resolve) => {
    const dialog = h("dialog", { class: "confirm", "aria-labelledby": "confirm-title" });
    const ok = h("button", { type: "button", class: "primary", text: okText, id: "confirm-ok" });
    const cancel = h("button", { type: "button", text: cancelText, id: "confirm-cancel" });
    dialog.append(h("h2", { id: "confirm-title", text: title }), h("p", { text: body }),
      h("div", { class: "dialog-buttons" }, [cancel, ok]));
    const finish = (value) => {
      dialog.close();
      dialog.remove();
      resolve(value);
    };
    ok.addEventListener("click", () => finish(true));
    cancel.addEventListener("click", () => finish(false));
    dialog.addEventListener("cancel", (e) => {
      e.preventDefault();
      finish(false);
    });
    document.body.append(dialog);
    dialog.showModal();
    ok.focus();
  });
}

// A whole-page message for what went wrong, so the page is never left blank.
export function fatal(root, title, detail, actions = []) {
  root.replaceChildren(h("section", { class: "card fatal", role: "alert" }, [
    h("h1", { text: title }),
    h("p", { text: detail }),
    h("div", { class: "actions" }, [
      ...actions,
      h("a", { href: "/", class: "button", text: _("Back to the start") }),
    ]),
  ]));
}

// The server's own words where it gave them, else a plain explanation.
export function errorText(err) {
  if (!err) return _("Something went wrong.");
  if (err.code === "network") return _("The server cannot be reached. Check your connection.");
  // A refused move in plain words where the server gave them (the notation is details).
  return err.plain || err.message || _("Something went wrong.");
}
