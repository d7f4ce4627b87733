// Telling the player: the game's sounds (made here with the Web Audio API: no audio files),
// and, while the page is hidden, "your turn" and "game over" in the tab's title and icon and,
// where the player allowed it, as a browser notification. The game screen hands it every new
// view (changed) and its title (title), and puts its two switches, sounds and notifications,
// in the game's settings menu; the browser remembers them (`patchwork.sound`, `patchwork.notify`).

import { _, fmt } from "./i18n.js";
import { icon } from "./icons.js";
import { h } from "./ui.js";

const SOUND_KEY = "patchwork.sound";
const NOTIFY_KEY = "patchwork.notify";
const ICON = "/static/icon.svg";
const ALERT_ICON = "/static/icon-alert.svg";

function remembered(key) {
  try {
    return localStorage.getItem(key);
  } catch {
    return null;
  }
}

function remember(key, value) {
  try {
    localStorage.setItem(key, value);
  } catch {
    // storage disabled: the choice lasts as long as the page
  }
}

// On unless the player switched them off: quiet enough not to need asking first.
const soundOn = () => remembered(SOUND_KEY) !== "off";

// -- sounds ---------------------------------------------------------------------------------

// Each sound a few notes: [start (s), frequency (Hz), length (s), wave, loudness, glide to (Hz)].
const SOUNDS = {
  // A soft wooden tap, falling an octave: any move shown.
  move: [[0, 440, 0.09, "triangle", 0.6, 220]],
  // Two bell-like notes, a fourth apart: your turn.
  turn: [[0, 659.3, 0.45, "sine", 0.7], [0.13, 880, 0.7, "sine", 0.6]],
  // Up the major chord to the octave, the last note held: the end.
  over: [[0, 523.3, 0.3, "triangle", 0.5], [0.15, 659.3, 0.3, "triangle", 0.5],
    [0.3, 784, 0.3, "triangle", 0.5], [0.45, 1046.5, 1, "triangle", 0.6]],
};
const VOLUME = 0.25; // a hint, not an alarm

let audio = null;
let out = null;

// The audio context, made (or woken) by the player's click or key on the game screen: browsers
// keep a page silent until one, and Safari wakes it only from within one.
function wake() {
  if (!soundOn()) return;
  try {
    if (!audio) {
      const Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      audio = new Context();
      out = audio.createGain();
      out.gain.value = VOLUME;
      out.connect(audio.destination);
    }
    if (audio.state === "suspended") audio.resume().catch(() => {});
  } catch {
    // no Web Audio: no sounds
  }
}

function play(name) {
  // A click on the page before this screen's (the start page's "Play") lets it sound too.
  if (!audio && navigator.userActivation && navigator.userActivation.hasBeenActive) wake();
  // Never on a sleeping context: what was queued on it would all come at once when it wakes.
  if (!audio || audio.state !== "running") return;
  try {
    for (const [at, hz, len, wave, loud, to] of SOUNDS[name]) {
      const t = audio.currentTime + at;
      const osc = audio.createOscillator();
      const env = audio.createGain();
      osc.type = wave;
      osc.frequency.setValueAtTime(hz, t);
      if (to) osc.frequency.exponentialRampToValueAtTime(to, t + len);
      // A quick rise and an exponential fall: no crack at either end.
      env.gain.setValueAtTime(0.0001, t);
      env.gain.exponentialRampToValueAtTime(loud, t + 0.012);
      env.gain.exponentialRampToValueAtTime(0.0001, t + len);
      osc.connect(env);
      env.connect(out);
      osc.start(t);
      osc.stop(t + len + 0.05);
    }
  } catch {
    // no sound rather than a broken game
  }
}

// Notification.requestPermission(): a promise today, a callback in older Safari.
function askPermission() {
  return new Promise((resolve) => {
    const answer = Notification.requestPermission(resolve);
    if (answer && answer.then) answer.then(resolve, () => resolve("default"));
  });
}

// -- the game screen's notifier ---------------------------------------------------------------

export class Notifier {
  constructor() {
    this.base = document.title;
    this.raised = ""; // "turn" or "over" while the page is hidden, else ""
    this.note = null;
    this.sound = h("input", { type: "checkbox", id: "sound-switch" });
    this.sound.addEventListener("change", () => {
      remember(SOUND_KEY, this.sound.checked ? "on" : "off");
      if (!this.sound.checked) return;
      wake();
      play("move"); // how loud it is, at once
    });
    this.bell = "Notification" in window ? h("input", { type: "checkbox", id: "notify-switch",
      "aria-describedby": "notify-blocked" }) : null;
    if (this.bell) this.bell.addEventListener("change", () => this.notifyChanged());
    this.blocked = h("small", { class: "switch-note", id: "notify-blocked", hidden: true,
      text: _("Notifications are blocked for this site in the browser's settings.") });
    this.onVisibility = () => {
      if (document.hidden) return;
      if (this.raised) this.raise("");
      this.draw(); // permission may have been changed in the browser's settings meanwhile
    };
    document.addEventListener("visibilitychange", this.onVisibility);
    // Only a player's table sounds (the switch is in the players' settings menu: a
    // spectator has none).
    this.onGesture = () => {
      if (this.sound.isConnected) wake();
    };
    for (const kind of ["pointerdown", "keydown"]) document.addEventListener(kind, this.onGesture, true);
  }

  destroy() {
    document.removeEventListener("visibilitychange", this.onVisibility);
    for (const kind of ["pointerdown", "keydown"]) document.removeEventListener(kind, this.onGesture, true);
    this.raise("");
  }

  // The page's title as the screen would have it; an alert goes before it.
  title(text) {
    this.base = text;
    const prefix = { turn: _("(●) Your turn – {title}"), over: _("Game over – {title}") }[this.raised];
    document.title = prefix ? fmt(prefix, { title: text }) : text;
  }

  // The rows of the game's settings menu: sounds, and for a player whose opponent moves
  // elsewhere (not two at one screen) notifications, where the browser has them.
  switches(game, seats) {
    this.draw();
    const row = (input, name, text) => h("label", { class: "check switch" },
      [input, icon(name), h("span", { text })]);
    const rows = [row(this.sound, "sound", _("Sounds"))];
    if (this.bell && this.canAlert(game, seats)) {
      rows.push(row(this.bell, "bell", _("Notify me when it is my turn")), this.blocked);
    }
    return rows;
  }

  draw() {
    this.sound.checked = soundOn();
    if (!this.bell) return;
    const blocked = Notification.permission === "denied";
    this.bell.checked = this.notifying();
    this.bell.disabled = blocked;
    this.blocked.hidden = !blocked;
  }

  // Whether "your turn" means anything here: this browser plays a seat, the other is away.
  canAlert(game, seats) {
    return seats.length > 0 && (game.mode === "online" || game.mode === "ai");
  }

  notifying() {
    return Boolean(this.bell) && remembered(NOTIFY_KEY) === "on" && Notification.permission === "granted";
  }

  async notifyChanged() {
    let on = this.bell.checked;
    // The browser asks on this click only, never as the page loads.
    if (on && Notification.permission !== "granted") on = (await askPermission()) === "granted";
    remember(NOTIFY_KEY, on ? "on" : "off");
    this.draw();
  }

  // A new view of the game: its sound (for a player, whose settings menu has the switch: not
  // for a spectator), and the alert for a player away from the page.
  // `theirMove` and `result` are in words, for the notification.
  changed(game, previous, seats, theirMove, result) {
    const mine = (g) => g.status === "active" && seats.includes(g.to_move);
    const over = game.status === "finished" && previous.status !== "finished";
    const turn = this.canAlert(game, seats) && mine(game) && !mine(previous);
    if (this.sound.isConnected && soundOn()) {
      if (over) play("over");
      else if (turn) play("turn");
      else if (game.history.length > previous.history.length) play("move");
    }
    if (document.hidden && this.canAlert(game, seats) && (over || turn)) {
      this.raise(over ? "over" : "turn", over ? result : theirMove);
    }
  }

  // The title's prefix, the icon's badge and the notification ("" takes them away).
  raise(kind, body = "") {
    this.raised = kind;
    this.title(this.base);
    const link = document.querySelector('link[rel="icon"]');
    if (link) link.setAttribute("href", kind ? ALERT_ICON : ICON);
    if (this.note) this.note.close();
    this.note = null;
    if (!kind || !this.notifying()) return;
    try {
      const note = new Notification(kind === "over" ? _("Game over") : _("Your turn"),
        { body, icon: ICON, tag: location.pathname });
      note.onclick = () => {
        window.focus();
        note.close();
      };
      this.note = note;
    } catch {
      // Chrome on Android lets only a service worker notify: the title and icon still say it
    }
  }
}
