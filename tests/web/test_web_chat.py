"""Chat in the browser (issue 39; docs/server.md "Chat", web/js/chat.js), as people use it:
two players of an online game chat; what a spectator says stays in the spectators' room;
markup is shown as the text it is; a preset phrase is shown in each reader's language; a
player turns chat off, or mutes the other, and the browser remembers it; the lobby's chat;
the panel on a phone in Persian (right to left) under a board that stays usable.

The module has a server of its own that believes X-Forwarded-For, so that each browser is a
client address of its own (a guest's chat allowance is per address)."""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from conftest import (
    SERVER_ARGS,
    TIMEOUT_MS,
    assert_fits_a_phone,
    keep_seat,
    shot,
    watch_errors,
)
from server_fixtures import WAIT, ServerProcess, fetch


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("chat-web")
    args = (*SERVER_ARGS, "--forwarded-allow-ips", "127.0.0.1")
    proc = ServerProcess(f"sqlite:///{folder / 'games.db'}", folder, *args)
    try:
        proc.start()
        yield proc
    finally:
        proc.stop()


def address() -> str:
    return f"10.{secrets.randbelow(250)}.{secrets.randbelow(250)}.{secrets.randbelow(250) + 1}"


def person(browser: Browser, phone: bool = False, locale: str = "en-GB") -> BrowserContext:
    """A browser of its own, from an address of its own."""
    ctx = browser.new_context(
        viewport={"width": 390, "height": 844} if phone else {"width": 1280, "height": 800},
        has_touch=phone,
        is_mobile=phone,
        locale=locale,
        extra_http_headers={"x-forwarded-for": address()},
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx


def opened(ctx: BrowserContext, url: str) -> tuple[Page, list[str]]:
    page = ctx.new_page()
    errors = watch_errors(page)
    page.goto(url)
    return page, errors


def look(page: Page, name: str, full_page: bool = True) -> None:
    shot(page, f"chat-{name}", full_page)


def online_game(server: ServerProcess) -> tuple[str, dict[str, Any], dict[str, Any]]:
    created = server.create(mode="online", name="Ann")
    gid = created["game_id"]
    r = server.post(f"/api/games/{gid}/join", {"invite": created["invite_code"], "name": "Bob"})
    assert r.status_code == 200, r.text
    return gid, created, r.json()


def player(ctx: BrowserContext, server: ServerProcess, gid: str, seat: dict[str, Any]) -> Page:
    page = ctx.new_page()
    keep_seat(page, gid, seat["token"], seat["seat"])
    page.goto(f"{server.url}/play/{gid}")
    expect(page.locator("#chat")).to_be_visible()
    return page


def sign_up(ctx: BrowserContext, server: ServerProcess) -> str:
    """An account for the browser (its session cookie kept by the context)."""
    name = "Chat" + secrets.token_hex(4)
    r = ctx.request.post(
        f"{server.url}/api/account/signup",
        data={"name": name, "password": "quilted-squares-9"},
    )
    assert r.status == 201, r.text()
    return name


def say(page: Page, text: str) -> None:
    page.fill("#chat-input", text)
    page.click("#chat-send")
    expect(page.locator("#chat-input")).to_have_value("")


def lines(page: Page) -> Any:
    return page.locator("#chat-lines .chat-line")


def catalog(server: ServerProcess, lang: str) -> dict[str, str]:
    r = fetch("GET", f"{server.url}/api/i18n/{lang}", timeout=WAIT)
    assert r.status_code == 200
    messages: dict[str, str] = r.json()["messages"]
    return messages


def test_two_players_chat_and_a_spectator_has_a_room_of_their_own(
    browser: Browser, server: ServerProcess
) -> None:
    gid, ann_seat, bob_seat = online_game(server)
    ann_ctx, bob_ctx, fan_ctx = person(browser), person(browser), person(browser)
    try:
        ann = player(ann_ctx, server, gid, ann_seat)
        bob = player(bob_ctx, server, gid, bob_seat)
        errors = [watch_errors(ann), watch_errors(bob)]
        expect(ann.locator("#chat-title")).to_have_text("Chat with your opponent")
        markup = "<b>x</b><img src=x onerror=alert(1)>"
        say(ann, markup)
        expect(lines(bob).last.locator(".chat-text")).to_have_text(markup)
        expect(lines(bob).last.locator(".chat-name")).to_have_text("Ann")
        assert bob.locator("#chat-lines b, #chat-lines img").count() == 0
        say(bob, "Nice opening! " + "Patchworkquiltingsupercalifragilistic" * 3)
        expect(lines(ann)).to_have_count(2)
        expect(lines(ann).last).to_have_class("chat-line")  # not "mine": Bob's
        expect(lines(bob).last).to_have_class("chat-line mine")

        fan_name = sign_up(fan_ctx, server)
        fan, fan_errors = opened(fan_ctx, f"{server.url}/play/{gid}")
        expect(fan.locator("#chat-title")).to_have_text("Spectators' chat")
        expect(fan.locator("#chat-lines .chat-empty")).to_be_visible()  # the players' is not here
        say(fan, "Go Bob!")
        expect(lines(fan)).to_have_count(1)
        expect(lines(fan).first.locator(".chat-name")).to_have_text(fan_name)

        guest, guest_errors = opened(person(browser), f"{server.url}/play/{gid}")
        expect(guest.locator("#chat-refusal")).to_contain_text("sign in")
        expect(guest.locator("#chat-form")).to_be_hidden()
        expect(lines(guest).locator(".chat-text")).to_have_text(["Go Bob!"])

        say(ann, "still just us")
        expect(lines(bob)).to_have_count(3)
        assert "Go Bob!" not in ann.locator("#chat-lines").inner_text()
        assert "Go Bob!" not in bob.locator("#chat-lines").inner_text()
        look(ann, "game-desktop")
        look(fan, "spectator-desktop")
        assert not [e for errs in (*errors, fan_errors, guest_errors) for e in errs]
        guest.context.close()
    finally:
        for ctx in (ann_ctx, bob_ctx, fan_ctx):
            ctx.close()


def test_presets_turning_chat_off_and_muting_are_each_players_own(
    browser: Browser, server: ServerProcess
) -> None:
    gid, ann_seat, bob_seat = online_game(server)
    ann_ctx, bob_ctx = person(browser), person(browser, phone=True, locale="fa")
    try:
        ann = player(ann_ctx, server, gid, ann_seat)
        bob = bob_ctx.new_page()
        bob_errors = watch_errors(bob)
        keep_seat(bob, gid, bob_seat["token"], bob_seat["seat"])
        bob.goto(f"{server.url}/play/{gid}?lang=fa")
        expect(bob.locator("html")).to_have_attribute("dir", "rtl")
        expect(bob.locator("#chat")).to_be_visible()

        # A preset goes by its key; each reader sees it in their own language.
        ann.click('.chat-preset[data-preset="gg"]')
        expect(lines(ann).last.locator(".chat-text")).to_have_text("Good game")
        persian = catalog(server, "fa").get("Good game") or "Good game"
        expect(lines(bob).last.locator(".chat-text")).to_have_text(persian)
        say(ann, "Dankeschön" + "x" * 60 + " and a very long word: " + "ب" * 80)
        expect(lines(bob)).to_have_count(2)

        # On a phone the board comes first and the page stays as wide as the screen.
        assert_fits_a_phone(bob)
        board = bob.locator(".game-grid").bounding_box()
        panel = bob.locator("#chat").bounding_box()
        assert board is not None and panel is not None and panel["y"] > board["y"]
        look(bob, "game-phone-fa")
        bob.locator("#chat").scroll_into_view_if_needed()
        look(bob, "game-phone-fa-chat", full_page=False)

        # Chat off: nothing shown, and the browser remembers it.
        bob.click("#chat-toggle")
        expect(bob.locator("#chat-off")).to_be_visible()
        expect(bob.locator("#chat-lines")).to_be_hidden()
        bob.reload()
        expect(bob.locator("#chat-off")).to_be_visible()
        say(ann, "are you there?")
        expect(bob.locator("#chat-lines")).to_be_hidden()
        bob.click("#chat-toggle")
        expect(lines(bob)).to_have_count(3)

        # Muting Ann hides her lines here only, remembered too; unmuting shows them again.
        lines(bob).last.locator(".chat-mute").click()
        expect(lines(bob)).to_have_count(0)
        expect(bob.locator("#chat-muted-list")).to_contain_text("Ann")
        bob.reload()
        expect(bob.locator("#chat-muted-list")).to_contain_text("Ann")
        say(ann, "hello?")
        say(bob, "muted you")
        expect(lines(bob)).to_have_count(1)
        expect(lines(ann)).to_have_count(5)
        bob.locator(".chat-unmute").click()
        expect(lines(bob)).to_have_count(5)
        assert not bob_errors
    finally:
        ann_ctx.close()
        bob_ctx.close()


def test_the_lobby_chat_for_accounts_read_by_guests(
    browser: Browser, server: ServerProcess
) -> None:
    ann_ctx, guest_ctx = person(browser), person(browser, phone=True)
    try:
        name = sign_up(ann_ctx, server)
        ann, ann_errors = opened(ann_ctx, f"{server.url}/lobby")
        guest, guest_errors = opened(guest_ctx, f"{server.url}/lobby")
        expect(ann.locator("#chat-title")).to_have_text("Lobby chat")
        say(ann, "Anyone for a correspondence game?")
        expect(lines(guest).last.locator(".chat-text")).to_have_text(
            "Anyone for a correspondence game?"
        )
        expect(lines(guest).last.locator("a.chat-name")).to_have_text(name)
        expect(guest.locator("#chat-refusal")).to_have_text("sign in to chat in the lobby")
        expect(guest.locator(".chat-report")).to_have_count(0)  # reports: accounts only
        assert_fits_a_phone(guest)
        look(ann, "lobby-desktop")
        guest.locator("#chat").scroll_into_view_if_needed()
        look(guest, "lobby-phone", full_page=False)
        assert not ann_errors and not guest_errors
    finally:
        ann_ctx.close()
        guest_ctx.close()


def test_a_signed_in_player_reports_a_message(browser: Browser, server: ServerProcess) -> None:
    ann_ctx, bob_ctx = person(browser), person(browser)
    try:
        sign_up(ann_ctx, server)
        sign_up(bob_ctx, server)
        ann, _e1 = opened(ann_ctx, f"{server.url}/lobby")
        bob, _e2 = opened(bob_ctx, f"{server.url}/lobby")
        say(ann, "buy cheap buttons at example.com")
        line = lines(bob).filter(has_text="cheap buttons")
        line.locator(".chat-report").click()
        line.locator("select").select_option("spam")
        # A message that comes while the form is open leaves it as it was.
        line.locator("select").evaluate("el => { window.reason = el; }")
        say(ann, "and free patches too")
        expect(lines(bob).filter(has_text="free patches")).to_have_count(1)
        assert bob.evaluate("window.reason.isConnected && window.reason.value") == "spam"
        line.locator('button[type="submit"]').click()
        expect(bob.locator("#chat-status")).to_contain_text("Thank you")
        line = lines(bob).filter(has_text="cheap buttons")
        line.locator(".chat-report").click()
        line.locator('button[type="submit"]').click()
        expect(bob.locator("#chat-status")).to_contain_text("reported this message already")
    finally:
        ann_ctx.close()
        bob_ctx.close()
