"""Telling the player (notify.js): "your turn" and "game over" in the title and icon of a
hidden tab and as a browser notification (asked for on a click in the game's settings menu,
never as the page loads), and the game's sounds with their switch there, remembered. The page
is made hidden, Web Audio and notifications are stubbed, by an init script: each sound is
recorded as the frequencies of the notes started together, each notification with its title
and body."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from playwright.sync_api import BrowserContext, Page, expect

from conftest import (
    advance,
    keep_seat,
    start_game,
    view,
    wait_my_turn,
    wait_version_above,
    watch_errors,
)
from server_fixtures import ServerProcess

STUBS = """(() => {
  // Hidden or not as the test says (switching tabs), told with a visibilitychange event.
  let hidden = false;
  Object.defineProperty(document, "hidden", { get: () => hidden, configurable: true });
  Object.defineProperty(document, "visibilityState",
    { get: () => (hidden ? "hidden" : "visible"), configurable: true });
  window.__setHidden = (value) => {
    hidden = value;
    document.dispatchEvent(new Event("visibilitychange"));
  };
  // Web Audio that plays nothing: a sound is the notes started in one task, by frequency.
  window.__sounds = [];
  let sound = null;
  const param = () => ({ value: 0, setValueAtTime(v) { this.first = this.first || v; },
    exponentialRampToValueAtTime() {}, linearRampToValueAtTime() {} });
  const node = (more) => ({ connect: (next) => next, disconnect() {}, ...more });
  window.AudioContext = class {
    constructor() { this.currentTime = 0; this.state = "running"; this.destination = node({}); }
    resume() { return Promise.resolve(); }
    createGain() { return node({ gain: param() }); }
    createOscillator() {
      return node({ type: "sine", frequency: param(), stop() {}, start() {
        if (!sound) {
          sound = [];
          window.__sounds.push(sound);
          setTimeout(() => { sound = null; });
        }
        sound.push(Math.round(this.frequency.first));
      } });
    }
  };
  // Notifications: asking is answered "granted", kept over the tab's reloads.
  window.__asked = 0;
  window.__notes = [];
  window.Notification = class {
    static get permission() { return sessionStorage.getItem("stub.permission") || "default"; }
    static requestPermission() {
      window.__asked += 1;
      sessionStorage.setItem("stub.permission", "granted");
      return Promise.resolve("granted");
    }
    constructor(title, options) {
      Object.assign(this, { title, body: options.body, closed: false });
      window.__notes.push(this);
    }
    close() { this.closed = true; }
  };
  window.focus = () => { window.__focused = true; };
})();"""

NOTES_JS = "__notes.map(n => [n.title, n.body, n.closed])"
ICON = 'link[rel="icon"]'
YOUR_TURN = re.compile(r"^\(●\) Your turn – Patchwork – Ann : ")


@pytest.fixture
def stubbed(page: Page) -> Page:
    page.add_init_script(STUBS)
    return page


def settings(page: Page) -> None:
    """Open the game's settings menu (the cog of the turn bar)."""
    if not page.locator("#game-settings[open]").count():
        page.click("#settings-button")


def test_your_turn_in_a_hidden_tab_and_the_sound_switch(
    stubbed: Page, web_server: ServerProcess
) -> None:
    page = stubbed
    gid = start_game(page, web_server, "ai", level=1)
    g = wait_my_turn(page, web_server, gid)
    plain = "Patchwork – Ann : AI level 1"
    sound = page.locator("#sound-switch")
    settings(page)
    expect(sound).to_be_checked()  # on unless switched off
    expect(page).to_have_title(plain)
    expect(page.locator(ICON)).to_have_attribute("href", "/static/icon.svg")
    assert page.evaluate("__sounds") == []  # a page that opens says nothing
    # Away from the tab: the AI's answer makes it Ann's turn, said in the title and icon.
    page.evaluate("__setHidden(true)")
    advance(page)
    g = wait_my_turn(page, web_server, gid, since=g["version"])
    expect(page).to_have_title(YOUR_TURN)
    expect(page.locator(ICON)).to_have_attribute("href", "/static/icon-alert.svg")
    # Ann's move and any of the AI's: a tap each; then the chime, another sound.
    sounds = page.evaluate("__sounds")
    assert len(sounds) >= 2 and all(s == sounds[0] for s in sounds[:-1]), sounds
    assert sounds[-1] != sounds[0], sounds
    # Back on the tab, both as they were.
    page.evaluate("__setHidden(false)")
    expect(page).to_have_title(plain)
    expect(page.locator(ICON)).to_have_attribute("href", "/static/icon.svg")
    # Sounds off, remembered over a reload: moves come and go in silence; on a visible tab
    # the AI's answer changes neither title nor icon.
    settings(page)
    heard = len(page.evaluate("__sounds"))
    sound.uncheck()
    page.wait_for_timeout(100)
    assert len(page.evaluate("__sounds")) == heard  # switching off is silent
    page.reload()
    settings(page)
    expect(sound).not_to_be_checked()
    assert page.evaluate("localStorage.getItem('patchwork.sound')") == "off"
    advance(page)
    wait_my_turn(page, web_server, gid, since=g["version"])
    assert page.evaluate("__sounds") == []
    expect(page).to_have_title(plain)
    expect(page.locator(ICON)).to_have_attribute("href", "/static/icon.svg")
    # On again: a tap at once says how loud.
    settings(page)
    sound.check()
    assert len(page.evaluate("__sounds")) == 1


def test_notifications_asked_on_a_click_tell_a_hidden_tab(
    stubbed: Page, web_server: ServerProcess
) -> None:
    page = stubbed
    created = web_server.create(mode="online", name="Ann", seed=7)
    gid, token = created["game_id"], created["token"]
    joined = web_server.post(
        f"/api/games/{gid}/join", {"invite": created["invite_code"], "name": "Bob"}
    )
    assert joined.status_code == 200, joined.text
    bob = joined.json()["token"]
    keep_seat(page, gid, token, 0)
    page.goto(f"{web_server.url}/play/{gid}")
    expect(page.locator("#headline")).to_have_text("Your turn")
    assert page.evaluate("__asked") == 0  # never asked as the page loads
    settings(page)
    bell = page.get_by_label("Notify me when it is my turn")
    expect(bell).not_to_be_checked()
    bell.check()
    expect(bell).to_be_checked()
    assert page.evaluate("__asked") == 1
    page.reload()
    settings(page)
    expect(bell).to_be_checked()  # remembered, not asked again
    assert page.evaluate("__asked") == 0
    # Ann advances; Bob moves while she is on another tab.
    g = view(web_server, gid)
    advance(page)
    wait_version_above(page, g["version"])
    g = view(web_server, gid)
    page.evaluate("__setHidden(true)")
    r = web_server.post(f"/api/games/{gid}/moves", {"move": "A", "version": g["version"]}, bob)
    assert r.status_code == 200, r.text
    expect(page).to_have_title(YOUR_TURN)
    notes = page.evaluate(NOTES_JS)
    assert len(notes) == 1 and notes[0][0] == "Your turn", notes
    assert notes[0][1].startswith("Bob advanced to space "), notes
    # A click on it brings the tab forward and puts it away.
    page.evaluate("__notes[0].onclick()")
    assert page.evaluate("__focused") and page.evaluate(NOTES_JS)[0][2]
    page.evaluate("__setHidden(false)")
    expect(page).to_have_title(re.compile(r"^Patchwork – Ann : Bob"))
    # Away again, Bob resigns: the end is said as the turn was, in its own sound.
    page.evaluate("__setHidden(true)")
    assert web_server.post(f"/api/games/{gid}/resign", None, bob).status_code == 200
    expect(page).to_have_title(re.compile(r"^Game over – Patchwork – Ann : Bob"))
    expect(page.locator(ICON)).to_have_attribute("href", "/static/icon-alert.svg")
    assert page.evaluate(NOTES_JS)[-1] == ["Game over", "You win!", False]
    tap, chime, end = page.evaluate("__sounds")[-3:]
    assert len({tuple(tap), tuple(chime), tuple(end)}) == 3, (tap, chime, end)
    page.evaluate("__setHidden(false)")
    expect(page).to_have_title(re.compile(r"^Patchwork – Ann : Bob"))
    expect(page.locator(ICON)).to_have_attribute("href", "/static/icon.svg")
    assert page.evaluate(NOTES_JS)[-1][2]  # the notification goes with it


@pytest.fixture
def pages(context: BrowserContext) -> Iterator[list[Page]]:
    opened: list[Page] = []
    yield opened
    for p in opened:
        p.close()


def test_no_notification_switch_where_it_cannot_be(
    context: BrowserContext, pages: list[Page], web_server: ServerProcess
) -> None:
    watched: list[list[str]] = []

    def game_page(mode: str, *scripts: str) -> Page:
        """A game's page, its settings menu open."""
        created = web_server.create(mode=mode, name="Ann", seed=7)
        p = context.new_page()
        pages.append(p)
        watched.append(watch_errors(p))
        for script in (STUBS, *scripts):
            p.add_init_script(script)
        keep_seat(p, created["game_id"], created["token"], 0 if mode == "online" else None)
        p.goto(f"{web_server.url}/play/{created['game_id']}")
        settings(p)
        expect(p.get_by_label("Sounds")).to_be_visible()
        return p

    # Refused in the browser's settings: the switch stays, unusable, and says why.
    denied = game_page("online", "sessionStorage.setItem('stub.permission', 'denied')")
    expect(denied.locator("#notify-switch")).to_be_disabled()
    expect(denied.locator("#notify-blocked")).to_have_text(
        "Notifications are blocked for this site in the browser's settings."
    )
    # A browser without notifications; a game at one screen (no one is away): sounds only.
    absent = game_page("online", "delete window.Notification")
    local = game_page("local")
    for p in (absent, local):
        expect(p.locator("#notify-switch")).to_have_count(0)
    assert denied.evaluate("__asked") == 0
    assert not any(watched), watched
