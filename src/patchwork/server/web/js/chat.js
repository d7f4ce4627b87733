// The chat panel (docs/server.md, "Chat"): a game's players' room or spectators' room, or the
// lobby's, over the page's own websocket. Every word people wrote is put in with textContent,
// never as HTML. Each line has an id: a reconnection's history is merged by id, so nothing
// shows twice. What each player chooses stays in this browser (localStorage `patchwork.chat`):
// chat switched off, and the names they muted (their lines are hidden here only).

import { currentAccount } from "./account.js";
import { _, fmt } from "./i18n.js";
import { h, keepSame } from "./ui.js";

const STORAGE_KEY = "patchwork.chat";
const MAX_CHARS = 140;
const KEEP = 200; // lines kept on the page

// The preset phrases, by the key the server stores: each reader sees them in their language.
export function presetText(key) {
  switch (key) {
    case "hi": return _("Hello");
    case "gl": return _("Good luck");
    case "gg": return _("Good game");
    case "wp": return _("Well played");
    case "thanks": return _("Thanks");
    default: return null;
  }
}
const PRESETS = ["hi", "gl", "gg", "wp", "thanks"];

export function loadChatPrefs() {
  try {
    const v = JSON.parse(localStorage.getItem(STORAGE_KEY) || "{}");
    return {
      off: v.off === true,
      muted: Array.isArray(v.muted) ? v.muted.filter((n) => typeof n === "string").slice(0, 500) : [],
    };
  } catch {
    return { off: false, muted: [] };
  }
}

function saveChatPrefs(prefs) {
  try {
    localStorage.setItem(STORAGE_KEY, JSON.stringify(prefs));
  } catch {
    // private mode: the choice lasts this page only
  }
}

function roomTitle(room) {
  if (room === "players") return _("Chat with your opponent");
  if (room === "spectators") return _("Spectators' chat");
  return _("Lobby chat");
}

export class ChatPanel {
  // send(message): puts a message on the page's socket; false when it is not connected.
  constructor({ send }) {
    this.send = send;
    this.lines = new Map();
    this.room = null;
    this.canSend = false;
    this.refusal = null;
    this.prefs = loadChatPrefs();
    this.nextId = 1;
    this.reporting = null; // the id of the line whose report form is open
    this.build();
  }

  build() {
    this.els = {
      title: h("h2", { id: "chat-title", text: _("Chat") }),
      toggle: h("button", { type: "button", class: "chat-toggle small", id: "chat-toggle",
        onclick: () => this.setOff(!this.prefs.off) }),
      list: h("ol", { class: "chat-lines", id: "chat-lines", "aria-live": "polite", "aria-labelledby": "chat-title" }),
      off: h("p", { class: "chat-off muted", id: "chat-off", text: _("Chat is off. Nobody's messages are shown.") }),
      presets: h("div", { class: "chat-presets", role: "group", "aria-label": _("Quick phrases") }),
      input: h("input", { type: "text", id: "chat-input", name: "chat", maxlength: MAX_CHARS,
        autocomplete: "off", dir: "auto", "aria-label": _("Your message"), placeholder: _("Say something…") }),
      status: h("p", { class: "chat-status", id: "chat-status", role: "status" }),
      mutedList: h("p", { class: "chat-muted-list muted small", id: "chat-muted-list" }),
      refusal: h("p", { class: "chat-refusal muted small", id: "chat-refusal" }),
    };
    for (const key of PRESETS) {
      this.els.presets.append(h("button", { type: "button", class: "chat-preset", "data-preset": key,
        text: presetText(key), onclick: () => this.post({ type: "chat", preset: key }) }));
    }
    this.els.form = h("form", { class: "chat-form", id: "chat-form" }, [
      this.els.input,
      h("button", { type: "submit", class: "primary", id: "chat-send", text: _("Send") }),
    ]);
    this.els.form.addEventListener("submit", (e) => {
      e.preventDefault();
      const text = this.els.input.value.trim();
      if (text) this.post({ type: "chat", text });
    });
    this.els.body = h("div", { class: "chat-body" }, [
      this.els.list, this.els.mutedList, this.els.presets, this.els.form, this.els.refusal, this.els.status,
    ]);
    this.element = h("section", { class: "card chat-panel", id: "chat", "aria-labelledby": "chat-title", hidden: true }, [
      h("div", { class: "chat-head" }, [this.els.title, this.els.toggle]),
      this.els.off,
      this.els.body,
    ]);
    this.renderSwitch();
  }

  // Handles a message of the page's socket; true if it was chat's.
  onMessage(msg) {
    if (msg.type === "chat") {
      this.receive(msg);
      return true;
    }
    const ours = typeof msg.ref === "string" && msg.ref.startsWith("chat-");
    if (!ours) return false;
    if (msg.type === "chat_ack") {
      if (msg.of === "chat") {
        this.els.input.value = "";
        this.say("");
      } else {
        this.reporting = null;
        this.say(_("Thank you: the report was sent to whoever runs this server."));
        this.render();
      }
    } else if (msg.type === "error") {
      this.say(msg.message || _("Something went wrong."), "error");
    }
    return true;
  }

  receive(msg) {
    this.room = msg.room;
    this.canSend = Boolean(msg.can_send);
    this.refusal = msg.refusal || null;
    for (const line of msg.lines || []) this.lines.set(line.id, line);
    if (this.lines.size > KEEP) {
      for (const id of [...this.lines.keys()].sort((a, b) => a - b).slice(0, this.lines.size - KEEP)) {
        this.lines.delete(id);
      }
    }
    this.element.hidden = false;
    this.element.dataset.room = this.room;
    this.els.title.textContent = roomTitle(this.room);
    this.render();
  }

  post(message) {
    if (!this.canSend) return;
    const id = `chat-${this.nextId++}`;
    if (!this.send({ ...message, id })) this.say(_("Not connected. Try again in a moment."), "error");
  }

  say(text, kind = "info") {
    this.els.status.textContent = text;
    this.els.status.dataset.kind = kind;
  }

  setOff(off) {
    this.prefs = { ...loadChatPrefs(), off };
    saveChatPrefs(this.prefs);
    this.renderSwitch();
    this.render();
  }

  setMuted(name, muted) {
    const names = new Set(loadChatPrefs().muted);
    if (muted) names.add(name);
    else names.delete(name);
    this.prefs = { ...loadChatPrefs(), muted: [...names] };
    saveChatPrefs(this.prefs);
    this.render();
  }

  renderSwitch() {
    const off = this.prefs.off;
    this.els.toggle.textContent = off ? _("Turn chat on") : _("Turn chat off");
    this.els.toggle.setAttribute("aria-pressed", String(off));
    this.els.off.hidden = !off;
    this.els.body.hidden = off;
    this.element.classList.toggle("is-off", off);
  }

  render() {
    if (this.prefs.off) return;
    const muted = new Set(this.prefs.muted);
    const list = this.els.list;
    const nearBottom = list.scrollHeight - list.scrollTop - list.clientHeight < 40;
    const shown = [...this.lines.values()].sort((a, b) => a.id - b.id).filter((x) => !muted.has(x.name));
    // Lines that stayed the same are kept: a reason picked in a report's form, a press on a
    // line's button, survive a message that comes meanwhile.
    keepSame(list, (shown.length ? shown.map((x) => this.lineItem(x))
      : [h("li", { class: "chat-empty muted", text: _("No messages yet.") })]));
    if (nearBottom || this.reporting === null) list.scrollTop = list.scrollHeight;
    this.els.mutedList.replaceChildren();
    if (muted.size) {
      this.els.mutedList.append(_("Muted here:"), " ");
      for (const name of muted) {
        this.els.mutedList.append(h("button", { type: "button", class: "chat-unmute link", "data-name": name,
          "aria-label": fmt(_("Show {name}'s messages again"), { name }), onclick: () => this.setMuted(name, false) },
        [h("bdi", { text: name }), " ×"]));
      }
    }
    const writing = this.canSend;
    this.els.form.hidden = !writing;
    this.els.presets.hidden = !writing;
    this.els.refusal.hidden = writing || !this.refusal;
    this.els.refusal.textContent = this.refusal || "";
  }

  lineItem(line) {
    const words = line.preset ? presetText(line.preset) || line.text : line.text;
    const name = line.account
      ? h("a", { class: "chat-name", href: `/players/${encodeURIComponent(line.name)}`, "data-link": "1" },
        [h("bdi", { text: line.name })])
      : h("span", { class: "chat-name" }, [h("bdi", { text: line.name })]);
    const item = h("li", { class: `chat-line${line.mine ? " mine" : ""}${line.preset ? " preset" : ""}`,
      "data-id": String(line.id) }, [
      name,
      h("span", { class: "chat-text", dir: "auto", text: words }),
    ]);
    if (line.seat === 0 || line.seat === 1) item.dataset.seat = String(line.seat);
    if (!line.mine) {
      const actions = h("span", { class: "chat-actions" }, [
        h("button", { type: "button", class: "chat-mute link small", "aria-label": fmt(_("Mute {name}"), { name: line.name }),
          text: _("Mute"), onclick: () => this.setMuted(line.name, true) }),
      ]);
      if (currentAccount()) {
        actions.append(h("button", { type: "button", class: "chat-report link small",
          "aria-label": fmt(_("Report this message from {name}"), { name: line.name }), text: _("Report"),
          onclick: () => {
            this.reporting = this.reporting === line.id ? null : line.id;
            this.render();
          } }));
      }
      item.append(actions);
      if (this.reporting === line.id) item.append(this.reportForm(line));
    }
    return item;
  }

  reportForm(line) {
    const reason = h("select", { name: "reason", class: "chat-reason", "aria-label": _("Why?") }, [
      h("option", { value: "abuse", text: _("Abusive or hateful") }),
      h("option", { value: "spam", text: _("Spam") }),
      h("option", { value: "other", text: _("Something else") }),
    ]);
    const form = h("form", { class: "chat-report-form" }, [
      reason,
      h("button", { type: "submit", class: "small", text: _("Send the report") }),
      h("button", { type: "button", class: "small link", text: _("Cancel"), onclick: () => {
        this.reporting = null;
        this.render();
      } }),
    ]);
    form.addEventListener("submit", (e) => {
      e.preventDefault();
      const id = `chat-${this.nextId++}`;
      if (!this.send({ type: "chat_report", message_id: line.id, reason: reason.value, id })) {
        this.say(_("Not connected. Try again in a moment."), "error");
      }
    });
    return form;
  }
}
