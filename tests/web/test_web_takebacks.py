"""Takebacks in the browser (issue 39; docs/web.md, docs/server.md "Takebacks"): two people in
two browsers play an online game; one asks to take back their last move, the other sees the
request with Accept and Decline; accepted, the move goes back and the asker plays again;
declined, both see it and the asker cannot ask again until a move is made. The asker may
cancel. Looked at on a laptop, on a phone and in Persian (right to left)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import (
    SERVER_ARGS,
    TIMEOUT_MS,
    advance,
    assert_fits_a_phone,
    keep_seat,
    shot,
    view,
    wait_version_above,
    watch_errors,
)
from server_fixtures import ServerProcess


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    folder = tmp_path_factory.mktemp("takebacks-web")
    proc = ServerProcess(f"sqlite:///{folder / 'games.db'}", folder, *SERVER_ARGS)
    try:
        proc.start()
        yield proc
    finally:
        proc.stop()


def online_game(server: ServerProcess) -> tuple[str, str, str]:
    """An online game, Ann in seat 0 (moving first) and Bob in seat 1: (id, tokens)."""
    created = server.create(mode="online", name="Ann", seat=0, seed=3)
    r = server.post(
        f"/api/games/{created['game_id']}/join", {"invite": created["invite_code"], "name": "Bob"}
    )
    assert r.status_code == 200, r.text
    return created["game_id"], created["token"], r.json()["token"]


@contextmanager
def player(
    browser: Browser, server: ServerProcess, gid: str, token: str, seat: int, **kw: Any
) -> Iterator[Page]:
    """A browser of its own playing ``seat`` (its token kept as the start page keeps it)."""
    options: dict[str, Any] = {"viewport": {"width": 1280, "height": 800}, "locale": "en-GB"}
    ctx = browser.new_context(**{**options, **kw})
    ctx.set_default_timeout(TIMEOUT_MS)
    try:
        page = ctx.new_page()
        errors = watch_errors(page)
        keep_seat(page, gid, token, seat)
        page.goto(f"{server.url}/play/{gid}")
        expect(page.locator("#connection")).to_have_attribute("data-status", "online")
        yield page
        assert not errors, f"the page reported errors: {errors}"
    finally:
        ctx.close()


def test_one_asks_the_other_accepts_then_declines(browser: Browser, server: ServerProcess) -> None:
    gid, a, b = online_game(server)
    with player(browser, server, gid, a, 0) as ann, player(browser, server, gid, b, 1) as bob:
        expect(ann.locator("#headline")).to_have_text("Your turn")
        expect(ann.locator("#takeback-ask")).to_have_count(0)  # no move of hers yet
        v = view(server, gid)["version"]
        advance(ann)
        wait_version_above(bob, v)
        expect(bob.locator("#headline")).to_have_text("Your turn")
        expect(bob.locator("#takeback-ask")).to_have_count(0)  # Bob has made no move
        # Ann asks; Bob sees who asks, with Accept and Decline; Ann waits and may cancel.
        ann.click("#takeback-ask")
        expect(bob.locator("#takeback-request")).to_contain_text(
            "Ann asks to take back their last move"
        )
        expect(bob.locator("#takeback-accept")).to_be_visible()
        expect(bob.locator("#takeback-decline")).to_be_visible()
        expect(ann.locator("#takeback-request")).to_contain_text("Waiting for Bob")
        expect(ann.locator("#takeback-cancel")).to_be_visible()
        expect(ann.locator("#takeback-ask")).to_have_count(0)
        shot(bob, "takeback-asked-desktop", full_page=False)
        shot(ann, "takeback-waiting-desktop", full_page=False)
        # Accepted: the move goes back, both hear it, and Ann plays again.
        bob.click("#takeback-accept")
        expect(ann.locator(".toast").last).to_contain_text("Your opponent accepted")
        expect(bob.locator(".toast").last).to_contain_text("Takeback accepted")
        for p in (ann, bob):
            expect(p.locator("#takeback-request")).to_have_count(0)
            expect(p.locator("#move-list li[data-seat]")).to_have_count(0)
        expect(ann.locator("#headline")).to_have_text("Your turn")
        assert view(server, gid)["history"] == []
        # Again, and now Bob declines: both see it, and Ann cannot ask until the next move.
        v = view(server, gid)["version"]
        advance(ann)
        wait_version_above(bob, v)
        ann.click("#takeback-ask")
        expect(bob.locator("#takeback-decline")).to_be_visible()
        bob.click("#takeback-decline")
        expect(ann.locator(".toast").last).to_contain_text("Your opponent declined")
        expect(bob.locator(".toast").last).to_contain_text("You declined the takeback")
        for p in (ann, bob):
            expect(p.locator("#takeback-request")).to_have_count(0)
            expect(p.locator("#move-list li[data-seat]")).to_have_count(1)
        expect(ann.locator("#takeback-ask")).to_have_count(0)
        g = view(server, gid)
        assert g["takeback"]["declined"] == 0 and g["takeback"]["can_ask"] == [False, False]
        # Bob moves: Ann may ask again, and this time she cancels her request herself.
        advance(bob)
        expect(ann.locator("#takeback-ask")).to_be_visible()
        expect(ann.locator("#headline")).to_have_text("Your turn")
        shot(ann, "takeback-button-desktop", full_page=False)
        ann.click("#takeback-ask")
        expect(bob.locator("#takeback-accept")).to_be_visible()
        ann.click("#takeback-cancel")
        expect(bob.locator(".toast").last).to_contain_text("Ann cancelled their takeback request")
        expect(bob.locator("#takeback-request")).to_have_count(0)
        assert len(view(server, gid)["history"]) == 2


def test_a_request_on_a_phone_and_in_persian(browser: Browser, server: ServerProcess) -> None:
    gid, a, b = online_game(server)
    phone = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True}
    with (
        player(browser, server, gid, a, 0, **phone) as ann,
        player(browser, server, gid, b, 1, locale="fa-IR") as bob,
    ):
        v = view(server, gid)["version"]
        advance(ann)
        wait_version_above(bob, v)
        assert_fits_a_phone(ann)
        shot(ann, "takeback-button-phone", full_page=False)
        ann.click("#takeback-ask")
        expect(bob.locator("#takeback-accept")).to_be_visible()
        expect(ann.locator("#takeback-cancel")).to_be_visible()
        assert bob.evaluate("document.documentElement.dir") == "rtl"
        assert_fits_a_phone(ann)
        shot(ann, "takeback-waiting-phone", full_page=False)
        shot(bob, "takeback-asked-fa", full_page=False)
        with player(browser, server, gid, b, 1, **phone) as bob_phone:
            expect(bob_phone.locator("#takeback-accept")).to_be_visible()
            assert_fits_a_phone(bob_phone)
            shot(bob_phone, "takeback-asked-phone", full_page=False)
            bob_phone.click("#takeback-decline")
            expect(ann.locator(".toast").last).to_contain_text("declined")
            expect(bob.locator("#takeback-request")).to_have_count(0)
