"""Accounts, the lobby and ratings in the browser (docs/accounts.md, docs/web.md), as people
use them: signing up, out and in (a wrong password said next to the field); two people
meeting in the lobby, one's rated challenge appearing live for the other, who accepts; both
landing on the same game and playing it to the end, each end screen showing the rating
changes Glicko-2 gives; a challenge leaving the lobby with its creator; the profile with its
chart; the leaderboard; a rated game against the computer in Persian on a phone; an
account's game played in a browser that kept no seat for it.

The module has a server of its own: sign-up is limited to 5 an hour per address, and every
browser here comes from 127.0.0.1."""

from __future__ import annotations

import sqlite3
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, BrowserContext, Page, expect

from conftest import (
    TIMEOUT_MS,
    advance,
    game_id,
    running_server,
    shot,
    view,
    wait_my_turn,
    wait_version_above,
    watch_errors,
)
from patchwork.server.ratings import glicko2
from patchwork.server.ratings.rating import PROVISIONAL_RD, ai_rating
from server_fixtures import ServerProcess, fetch, legal_moves

PASSWORD = "quilted-squares-9"


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    with running_server(tmp_path_factory.mktemp("accounts-web")) as proc:
        yield proc


def db_path(server: ServerProcess) -> Path:
    return server.workdir / "games.db"


def unique(prefix: str) -> str:
    """A user name no other test run has taken (letters and digits: no look-alikes)."""
    return prefix + uuid.uuid4().hex[:8].replace("0", "a").replace("1", "b")


def new_context(browser: Browser, **kw: Any) -> BrowserContext:
    ctx = browser.new_context(
        **{"viewport": {"width": 1280, "height": 900}, "locale": "en-GB", **kw}
    )
    ctx.set_default_timeout(TIMEOUT_MS)
    return ctx


def sign_up(page: Page, server: ServerProcess, name: str) -> None:
    """From the start page's header: Sign up, the form, and back to the start page."""
    page.goto(f"{server.url}/")
    page.click("#head-signup")
    page.wait_for_url("**/signup?next=%2F")
    page.fill("#field-name", name)
    page.fill("#field-password", PASSWORD)
    page.click("#signup-form-submit")
    page.wait_for_url(f"{server.url}/")
    expect(page.locator("#head-me")).to_contain_text(name)


def api_token(server: ServerProcess, name: str) -> str:
    r = fetch("POST", f"{server.url}/api/account/tokens", json={"name": name, "password": PASSWORD})
    assert r.status_code == 201, r.text
    token: str = r.json()["token"]
    assert token.startswith("pwa_")
    return token


def play_over_http(server: ServerProcess, gid: str, tokens: dict[int, str]) -> dict[str, Any]:
    """Play the game to its end through the HTTP API, each seat with its account's token:
    advancing where it may, else the first legal move (a special patch to place)."""
    for _ in range(400):
        g = view(server, gid)
        if g["status"] == "finished":
            return g
        legal = legal_moves(g)
        move = "A" if "A" in legal else legal[0]
        r = fetch(
            "POST",
            f"{server.url}/api/games/{gid}/moves",
            json={"move": move, "version": g["version"]},
            headers={"authorization": f"Bearer {tokens[g['to_move']]}"},
            timeout=10,
        )
        assert r.status_code == 200, r.text
    raise AssertionError("the game did not end")


def expected_after(before: glicko2.Rating, opponent: glicko2.Rating, score: float) -> int:
    return round(glicko2.rate(before, [glicko2.Game(opponent, score)]).rating)


def test_sign_up_sign_out_and_sign_in(browser: Browser, server: ServerProcess) -> None:
    ctx = new_context(browser)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        name = unique("Ann")
        # A guest sees Sign in and Sign up; a name that breaks the rules is said at the field.
        page.goto(f"{server.url}/?seed=3")
        expect(page.locator("#head-signin")).to_be_visible()
        page.click("#head-signup")
        page.wait_for_url("**/signup?next=*")
        page.fill("#field-name", "9lives")
        page.fill("#field-password", PASSWORD)
        page.click("#signup-form-submit")
        name_error = page.locator('[data-error-for="name"]')
        expect(name_error).not_to_be_empty()
        expect(page.locator("#field-name")).to_have_attribute("aria-invalid", "true")
        shot(page, "accounts-signup-error")
        # A proper name: back where they came from, their name and provisional rating on top.
        page.fill("#field-name", name)
        page.click("#signup-form-submit")
        page.wait_for_url(f"{server.url}/?seed=3")
        expect(page.locator("#head-me")).to_contain_text(name)
        expect(page.locator("#head-rating")).to_have_text("1500?")
        # Signed in, the start page offers a rated game against the computer and the lobby.
        expect(page.locator("#rated")).to_be_visible()
        expect(page.locator("#lobby-link")).to_be_visible()
        # A name taken, in another case, is refused by name.
        ctx2 = new_context(browser)
        try:
            other = ctx2.new_page()
            other.goto(f"{server.url}/signup")
            other.fill("#field-name", name.upper())
            other.fill("#field-password", PASSWORD)
            other.click("#signup-form-submit")
            expect(other.locator('[data-error-for="name"]')).not_to_be_empty()
            assert other.locator("#head-signin").is_visible()
        finally:
            ctx2.close()
        # The menu: Sign out.
        page.click("#head-me")
        expect(page.locator("#menu-profile")).to_be_visible()
        shot(page, "accounts-menu", full_page=False)
        page.click("#sign-out")
        expect(page.locator("#head-signin")).to_be_visible()
        assert fetch("GET", f"{server.url}/api/account/me").status_code == 401
        assert not ctx.cookies() or all(c["name"] != "pw_session" for c in ctx.cookies())
        # A wrong password: said next to the password field, nobody signed in.
        page.click("#head-signin")
        page.fill("#field-name", name)
        page.fill("#field-password", "not-the-password")
        page.click("#signin-form-submit")
        error = page.locator('[data-error-for="password"]')
        expect(error).to_have_text("That name and password do not match an account.")
        expect(page.locator("#field-password")).to_have_attribute("aria-invalid", "true")
        expect(page.locator("#head-signin")).to_be_visible()
        shot(page, "accounts-signin-error")
        # The right one: signed in again, and back on the start page.
        page.fill("#field-password", PASSWORD)
        page.click("#signin-form-submit")
        page.wait_for_url(f"{server.url}/")
        expect(page.locator("#head-me")).to_contain_text(name)
        # The account page explains itself; a reload keeps the session (the cookie).
        page.goto(f"{server.url}/account")
        expect(page.locator("#delete-form")).to_contain_text("cannot be undone")
        expect(page.locator("#head-me")).to_contain_text(name)
        shot(page, "accounts-account-page")
        assert not errors, errors
    finally:
        ctx.close()


def test_two_accounts_meet_in_the_lobby_and_play_a_rated_game(
    browser: Browser, server: ServerProcess
) -> None:
    ann_ctx = new_context(browser)
    bob_ctx = new_context(browser, viewport={"width": 1100, "height": 900})
    try:
        ann = ann_ctx.new_page()
        bob = bob_ctx.new_page()
        errors = watch_errors(ann) + watch_errors(bob)
        ann_name, bob_name = unique("Ann"), unique("Bob")
        sign_up(ann, server, ann_name)
        sign_up(bob, server, bob_name)
        # Both in the lobby: Bob first, so that Ann's challenge has to reach him live.
        bob.click("#lobby-link")
        bob.wait_for_url("**/lobby")
        expect(bob.locator("#lobby-connection")).to_have_attribute("data-status", "online")
        ann.click("#head-me")
        ann.click("#menu-lobby")
        expect(ann.locator("#lobby-connection")).to_have_attribute("data-status", "online")
        # Ann's first challenge: casual, no clock; she leaves the lobby and it goes.
        ann.check('input[name="clock_kind"][value="none"]')
        ann.uncheck("#seek-rated")
        ann.click("#create-seek")
        mine = ann.locator(f'.seek[data-name="{ann_name}"]')
        expect(mine.locator(".cancel-seek")).to_be_visible()
        theirs = bob.locator(f'.seek[data-name="{ann_name}"]')
        expect(theirs).to_contain_text("Casual")
        ann.click("a.brand")
        ann.wait_for_url(f"{server.url}/")
        expect(theirs).to_have_count(0)
        # Back in the lobby: a challenge she withdraws herself, then a rated one, 3 days a move.
        ann.go_back()
        ann.wait_for_url("**/lobby")
        expect(ann.locator("#lobby-connection")).to_have_attribute("data-status", "online")
        ann.click("#create-seek")
        expect(theirs).to_have_count(1)
        mine.locator(".cancel-seek").click()
        expect(theirs).to_have_count(0)
        expect(mine).to_have_count(0)
        ann.check('input[name="clock_kind"][value="correspondence"]')
        ann.fill('input[name="days"]', "3")
        ann.check("#seek-rated")
        ann.click("#create-seek")
        expect(theirs).to_contain_text("Rated")
        expect(theirs).to_contain_text("3 days a move")
        expect(theirs.locator(".seek-rating")).to_contain_text("1500")
        expect(mine).to_contain_text("your challenge")
        shot(bob, "lobby-bob-sees-ann")
        shot(ann, "lobby-ann-own-seek")
        theirs.locator(".accept-seek").click()
        # Both land on the same game, bound to their accounts.
        ann.wait_for_url("**/play/*")
        bob.wait_for_url("**/play/*")
        gid = game_id(ann)
        assert game_id(bob) == gid
        g = view(server, gid)
        assert g["rated"] is True
        assert [s["account"] for s in g["seats"]] == [True, True]
        assert {s["name"] for s in g["seats"]} == {ann_name, bob_name}
        pages = {s: (ann if g["seats"][s]["name"] == ann_name else bob) for s in (0, 1)}
        for p in (ann, bob):
            expect(p.locator("#rated-tag")).to_be_visible()
            expect(p.locator("#undo")).to_have_count(0)
            expect(p.locator("#hint")).to_have_count(0)
            # Each name links to its profile.
            expect(p.locator(f'.player-name a[href="/players/{ann_name}"]')).to_be_visible()
            expect(p.locator(f'.player-name a[href="/players/{bob_name}"]')).to_be_visible()
        # A few moves through the pages: each advances in turn.
        for _ in range(3):
            g = view(server, gid)
            mover = pages[g["to_move"]]
            expect(mover.locator("#headline")).to_have_text("Your turn")
            advance(mover)
            for p in (ann, bob):
                wait_version_above(p, g["version"])
        shot(ann, "lobby-rated-game")
        # The rest over HTTP, each with their account's API token.
        tokens = {s: api_token(server, g["seats"][s]["name"]) for s in (0, 1)}
        g = play_over_http(server, gid, tokens)
        assert g["status"] == "finished"
        winner = g["result"]["winner"]
        start = glicko2.Rating()
        expected = {
            s: expected_after(start, start, 0.5 if winner is None else float(winner == s))
            for s in (0, 1)
        }
        for p in (ann, bob):
            end = p.locator("#rating-changes")
            for s in (0, 1):
                row = end.locator(f'li[data-seat="{s}"]')
                expect(row).to_have_attribute("data-rating-after", str(expected[s]))
                expect(row).to_contain_text(f"1500 → {expected[s]}?")
                change = expected[s] - 1500
                expect(row).to_contain_text(f"(+{change})" if change > 0 else f"(−{-change})")
        rated = view(server, gid)["ratings"]
        assert [round(r["after"]) for r in rated] == [expected[0], expected[1]]
        shot(ann, "lobby-end-ann")
        shot(bob, "lobby-end-bob")
        # The header follows the new rating.
        ann_seat = next(s for s in (0, 1) if pages[s] is ann)
        expect(ann.locator("#head-rating")).to_have_text(f"{expected[ann_seat]}?")
        # Ann's profile: the new rating, one rated game, the chart, the game with its replay.
        ann.click(f'#end-screen a[href="/players/{ann_name}"]')
        ann.wait_for_url(f"**/players/{ann_name}")
        expect(ann.locator("#profile-rating")).to_have_text(f"{expected[ann_seat]}?")
        expect(ann.locator(".stats .played dd")).to_have_text("1")
        chart = ann.locator("#rating-chart")
        # (in the page's language: the chart's numbers are written in its digits)
        assert chart.get_attribute("src") == f"/api/players/{ann_name}/rating.svg?lang=en"
        ann.wait_for_function(
            "() => { const i = document.querySelector('#rating-chart');"
            " return i.complete && i.naturalWidth > 0; }"
        )
        assert ann_name in (chart.get_attribute("alt") or "")
        expect(
            ann.locator(f'.game-item[data-game="{gid}"] a[href="/play/{gid}?replay=1"]')
        ).to_be_visible()
        shot(ann, "profile")
        # My games: the finished game is there.
        ann.goto(f"{server.url}/me/games")
        mine = ann.locator(f'#games-finished .game-item[data-game="{gid}"]')
        expect(mine).to_be_visible()
        expect(mine.locator(".outcome")).to_have_text("won" if winner == ann_seat else "lost")
        shot(ann, "my-games")
        # The leaderboard lists settled ratings only: Ann as a player of many games (her
        # deviation set low in the database), Bob still provisional and not there.
        with sqlite3.connect(db_path(server)) as db:
            db.execute("UPDATE users SET rd = ? WHERE name = ?", (PROVISIONAL_RD - 30, ann_name))
        ann.goto(f"{server.url}/leaderboard")
        row = ann.locator(f'#leaderboard tr[data-player="{ann_name}"]')
        expect(row).to_contain_text(str(expected[ann_seat]))
        expect(row.locator(".rating")).to_have_text(str(expected[ann_seat]))
        expect(ann.locator(f'#leaderboard tr[data-player="{bob_name}"]')).to_have_count(0)
        assert "me" in (row.get_attribute("class") or "")
        shot(ann, "leaderboard")
        assert not errors, errors
    finally:
        ann_ctx.close()
        bob_ctx.close()


def test_an_accounts_game_plays_in_a_browser_that_kept_no_seat(
    browser: Browser, tmp_path: Path
) -> None:
    """A signed-in player's game opened where the browser kept no seat for it (another
    device, cleared storage): the server's welcome names the seat, and the page plays it.
    (A server of its own: the module's has its 5 sign-ups an hour taken.)"""
    with running_server(tmp_path) as server:
        ctx = new_context(browser)
        try:
            page = ctx.new_page()
            errors = watch_errors(page)
            sign_up(page, server, unique("Dora"))
            page.check('input[name="mode"][value="ai"]')
            page.check('input[name="level"][value="1"]')
            page.click("#start-game")
            page.wait_for_selector("main[data-version]")
            gid = game_id(page)
            g = wait_my_turn(page, server, gid)
            page.evaluate(f"localStorage.removeItem('patchwork.seat.{gid}')")
            page.reload()
            expect(page.locator("#connection")).to_have_attribute("data-status", "online")
            expect(page.locator("#advance")).to_be_enabled()
            expect(page.get_by_text("You are watching")).to_have_count(0)
            advance(page)
            wait_version_above(page, g["version"])
            assert view(server, gid)["history"][-1]["move"] == "A"
            assert not errors, errors
        finally:
            ctx.close()


def test_a_rated_game_against_the_computer_in_persian_on_a_phone(
    browser: Browser, server: ServerProcess
) -> None:
    ctx = new_context(
        browser,
        viewport={"width": 375, "height": 740},
        locale="fa-IR",
        has_touch=True,
        is_mobile=True,
        device_scale_factor=2,
    )
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        name = unique("Sara")
        page.goto(f"{server.url}/?seed=7")
        page.wait_for_function("document.documentElement.lang === 'fa'")
        assert page.evaluate("document.documentElement.dir") == "rtl"
        # The guest's header fits the phone.
        expect(page.locator("#head-signin")).to_be_visible()
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        shot(page, "accounts-fa-phone-guest-header", full_page=False)
        page.click("#head-signup")
        page.fill("#field-name", name)
        page.fill("#field-password", PASSWORD)
        page.click("#signup-form-submit")
        page.wait_for_url(f"{server.url}/?seed=7")
        # Signed in: name and rating in the header, in Persian digits, still within the screen.
        expect(page.locator("#head-me")).to_contain_text(name)
        expect(page.locator("#head-rating")).to_have_text("۱۵۰۰؟")  # Persian's own question mark
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        box = page.locator("#head-me").bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 375
        page.click("#head-me")
        menu = page.locator(".menu-list")
        expect(menu).to_be_visible()
        mbox = menu.bounding_box()
        assert mbox is not None and mbox["x"] >= 0 and mbox["x"] + mbox["width"] <= 375
        shot(page, "accounts-fa-phone-menu", full_page=False)
        page.keyboard.press("Escape")
        expect(menu).to_be_hidden()
        # A rated game against level 1: no undo or hints, said in the turn bar.
        page.check('input[name="mode"][value="ai"]')
        page.check('input[name="level"][value="1"]')
        page.check("#rated")
        page.click("#start-game")
        page.wait_for_selector("main[data-version]")
        gid = game_id(page)
        g = view(server, gid)
        assert g["rated"] is True and g["seats"][0]["account"] is True
        assert g["seats"][0]["name"] == name
        expect(page.locator("#rated-tag")).to_be_visible()
        expect(page.locator("#hint")).to_have_count(0)
        expect(page.locator("#undo")).to_have_count(0)
        g = wait_my_turn(page, server, gid)
        advance(page)
        g = wait_my_turn(page, server, gid, since=g["version"])
        assert page.evaluate("document.documentElement.scrollWidth") <= 375
        shot(page, "accounts-fa-phone-rated-game", full_page=False)
        # Resigning ends it; the end screen shows the rating the loss to level 1 gives.
        page.click("#resign")
        page.click("#confirm-ok")
        after = expected_after(glicko2.Rating(), ai_rating(1), 0.0)
        row = page.locator('#rating-changes li[data-seat="0"]')
        expect(row).to_have_attribute("data-rating-after", str(after))
        persian = str(after).translate(str.maketrans("0123456789", "۰۱۲۳۴۵۶۷۸۹"))
        expect(row).to_contain_text(persian)
        expect(page.locator('#rating-changes li[data-seat="1"]')).to_have_count(0)
        expect(page.locator("#head-rating")).to_have_text(f"{persian}؟")
        page.locator("#rating-changes").scroll_into_view_if_needed()
        shot(page, "accounts-fa-phone-end", full_page=False)
        assert not errors, errors
    finally:
        ctx.close()


def test_two_guests_play_someone_now(browser: Browser, server: ServerProcess) -> None:
    """Quick pairing needs no account: two guests who both ask to play someone now are paired
    into one casual game; one who stops looking is not."""
    one_ctx, two_ctx = new_context(browser), new_context(browser)
    try:
        one, two = one_ctx.new_page(), two_ctx.new_page()
        errors = watch_errors(one) + watch_errors(two)
        for p in (one, two):
            p.goto(f"{server.url}/")
            p.click("#lobby-link")
            p.wait_for_url("**/lobby")
            expect(p.locator("#lobby-connection")).to_have_attribute("data-status", "online")
            # A guest: rated games need an account.
            expect(p.locator("#quick-rated")).to_be_disabled()
            expect(p.locator("#seek-rated")).to_be_disabled()
        one.click("#quick-play")
        expect(one.locator("#quick-wait")).to_contain_text("Looking for an opponent")
        expect(one.locator("#quick-play")).to_be_disabled()
        one.click("#cancel-quick")
        expect(one.locator("#quick-wait")).to_be_empty()
        expect(one.locator("#quick-play")).to_be_enabled()
        shot(one, "lobby-guest")
        one.click("#quick-play")
        two.click("#quick-play")
        one.wait_for_url("**/play/*")
        two.wait_for_url("**/play/*")
        gid = game_id(one)
        assert game_id(two) == gid
        g = view(server, gid)
        assert g["rated"] is False and g["mode"] == "online"
        assert g["clock"] is not None and g["clock"]["kind"] == "fischer"
        # Each page keeps its seat as the start page does (store.js), one seat each.
        seat_js = "id => JSON.parse(localStorage.getItem('patchwork.seat.' + id)).seat"
        seats = {p.evaluate(seat_js, gid): p for p in (one, two)}
        assert set(seats) == {0, 1}
        mover = seats[g["to_move"]]
        expect(mover.locator("#headline")).to_have_text("Your turn")
        advance(mover)
        for p in (one, two):
            wait_version_above(p, g["version"])
        assert not errors, errors
    finally:
        one_ctx.close()
        two_ctx.close()
