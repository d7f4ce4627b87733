"""The notification list in the browser (issue 39; docs/web.md "Notifications"), as two
people meet it: Ann has the lobby open when Bob moves in their correspondence game; the bell
in her header counts one unread at once, without a reload; opening it (by the keyboard)
shows "Your turn against Bob", clears the count for good, and the entry leads to the game.
A follower on a phone in Persian finds the list the screen's width, right to left. Each
page is signed up through the site's own form, on a server of this module's own."""

from __future__ import annotations

from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import assert_fits_a_phone, person, shot, watch_errors
from server_fixtures import ServerProcess


@pytest.fixture(scope="module")
def server(own_server: ServerProcess) -> ServerProcess:
    return own_server


def call(page: Page, method: str, path: str, body: Any = None, token: str | None = None) -> Any:
    """The API as the page's account (its cookie and CSRF token), or as a seat's token."""
    origin = "/".join(page.url.split("/")[:3])
    csrf = page.request.get(f"{origin}/api/account/me").json()["csrf_token"]
    headers = {"x-csrf-token": csrf}
    if token:
        headers["authorization"] = f"Bearer {token}"
    r = page.request.fetch(origin + path, method=method, data=body, headers=headers)
    assert r.ok, r.text()
    return r.json() if r.status != 204 else None


def correspondence_game(ann: Page, bob: Page) -> tuple[str, str]:
    """Ann's correspondence game that Bob joined (he moves first): its id and Bob's token."""
    created = call(
        ann,
        "POST",
        "/api/games",
        {"mode": "online", "seat": 1, "clock": {"kind": "correspondence", "days": 3}},
    )
    joined = call(
        bob, "POST", f"/api/games/{created['game_id']}/join", {"invite": created["invite_code"]}
    )
    return created["game_id"], joined["token"]


def save(page: Page, name: str) -> None:
    shot(page, f"notifications-{name}", full_page=False)


def test_a_move_rings_the_other_players_bell(browser: Browser, server: ServerProcess) -> None:
    ann, _ = person(browser, server, "Ann")
    bob, bob_name = person(browser, server, "Bob")
    errors = watch_errors(ann) + watch_errors(bob)
    try:
        ann.goto(f"{server.url}/lobby")
        count = ann.locator("#notes-count")
        expect(ann.locator("#head-notes")).to_be_visible()
        expect(count).to_be_hidden()
        game_id, token = correspondence_game(ann, bob)
        version = call(bob, "GET", f"/api/games/{game_id}")["version"]
        call(bob, "POST", f"/api/games/{game_id}/moves", {"move": "A", "version": version}, token)
        # Live: the count rises on Ann's open page, no reload.
        expect(count).to_have_text("1")
        expect(ann.locator("#head-notes")).to_have_attribute(
            "aria-label", "Notifications: 1 unread"
        )
        save(ann, "badge-desktop")

        # By the keyboard: the bell opens the list, which clears the count.
        ann.focus("#head-notes")
        ann.keyboard.press("Enter")
        entry = ann.locator("#notes-menu .note").first
        expect(entry).to_contain_text(f"Your turn against {bob_name}")
        expect(entry).to_have_class("note note-your_turn note-new")
        expect(count).to_be_hidden()
        save(ann, "list-desktop")
        ann.keyboard.press("Escape")
        expect(ann.locator("#notes-menu")).not_to_have_attribute("open", "")
        ann.reload()
        expect(ann.locator("#head-notes")).to_be_visible()
        expect(ann.locator("#head-notes")).to_have_attribute("aria-label", "Notifications")
        expect(count).to_be_hidden()

        # The entry leads to the game.
        ann.click("#head-notes")
        ann.locator("#notes-menu .note-link").first.click()
        expect(ann).to_have_url(f"{server.url}/play/{game_id}")
        assert errors == []
    finally:
        ann.context.close()
        bob.context.close()


def test_a_follower_on_a_phone_in_persian(browser: Browser, server: ServerProcess) -> None:
    ann, ann_name = person(browser, server, "Ann")
    bob, _ = person(browser, server, "Bob")
    cat, _ = person(
        browser,
        server,
        "Cat",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        locale="fa-IR",
    )
    errors = watch_errors(cat)
    try:
        call(cat, "PUT", f"/api/players/{ann_name}/follow")
        cat.goto(f"{server.url}/?lang=fa")
        expect(cat.locator("html")).to_have_attribute("dir", "rtl")
        game_id, _ = correspondence_game(ann, bob)
        expect(cat.locator("#notes-count")).to_be_visible()
        save(cat, "badge-phone-fa")
        cat.click("#head-notes")
        panel = cat.locator("#notes-menu .notes-panel")
        expect(panel.locator(".note")).to_have_count(1)
        expect(panel.locator(".note-link")).to_have_attribute("href", f"/play/{game_id}")
        expect(panel).to_contain_text(ann_name)
        box = panel.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        assert box["width"] >= 360, box  # the screen's width, less a small margin
        assert_fits_a_phone(cat)
        save(cat, "list-phone-fa")
        assert errors == []
    finally:
        for page in (ann, bob, cat):
            page.context.close()
