"""People in the browser (issue 39; docs/web.md "People"), as two people meet them: both in
the lobby see each other under "Online now"; Ann opens Bob's profile (online now), follows
him and finds him on her "Following" page, online; Bob blocks Ann from her profile, and her
follow of him ends; a phone in Persian shows the profile's line right to left. Each page is
signed in through the site's own sign-up form, and has a server of its own."""

from __future__ import annotations

import pytest
from playwright.sync_api import Browser, expect

from conftest import assert_fits_a_phone, person, shot, watch_errors
from server_fixtures import ServerProcess


@pytest.fixture(scope="module")
def server(own_server: ServerProcess) -> ServerProcess:
    return own_server


def test_two_people_meet_follow_and_block(browser: Browser, server: ServerProcess) -> None:
    ann, ann_name = person(browser, server, "Ann")
    bob, bob_name = person(browser, server, "Bob")
    errors = watch_errors(ann) + watch_errors(bob)
    try:
        bob.goto(f"{server.url}/lobby")
        ann.goto(f"{server.url}/lobby")
        online = ann.locator("#online-list")
        expect(online.locator(f'[data-name="{bob_name}"] .presence-dot.on')).to_be_visible()
        expect(online).to_contain_text(ann_name)
        expect(ann.locator("#online-title")).to_contain_text("Online now (2)")
        shot(ann, "people-lobby")

        online.get_by_role("link", name=bob_name).click()
        expect(ann.locator("h1")).to_have_text(bob_name)
        standing = ann.locator("#profile-standing")
        expect(standing).to_contain_text("Online now")
        ann.click("#follow-button")
        expect(ann.locator("#follow-button")).to_have_text("Unfollow")
        ann.click("#account-menu summary")
        ann.click("#menu-following")
        row = ann.locator(f'#following-list [data-name="{bob_name}"]')
        expect(row.locator(".presence-dot.on")).to_be_visible()
        shot(ann, "people-following")

        # Bob leaves the lobby for Ann's profile and blocks her: her follow of him ends.
        bob.goto(f"{server.url}/players/{ann_name}")
        bob.click("#block-button")
        expect(bob.locator("#block-button")).to_have_text("Unblock")
        expect(bob.locator("#follow-button")).to_have_count(0)
        expect(bob.locator("#toasts")).to_contain_text(f"You blocked {ann_name}")
        ann.reload()
        expect(ann.locator("#following-list")).to_have_count(0)
        expect(ann.locator("main")).to_contain_text("You follow nobody yet")
        ann.goto(f"{server.url}/players/{bob_name}")
        ann.click("#follow-button")
        expect(ann.locator("#toasts")).to_contain_text("you cannot follow this player")
        assert errors == []
    finally:
        ann.context.close()
        bob.context.close()


def test_a_profile_on_a_phone_in_persian(browser: Browser, server: ServerProcess) -> None:
    ann, ann_name = person(browser, server, "Ann")
    cat, _ = person(
        browser,
        server,
        "Cat",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        locale="fa-IR",
    )
    try:
        cat.goto(f"{server.url}/players/{ann_name}?lang=fa")
        expect(cat.locator("html")).to_have_attribute("dir", "rtl")
        expect(cat.locator("#follow-button")).to_be_visible()
        expect(cat.locator("#profile-standing .presence-dot.on")).to_be_visible()
        assert_fits_a_phone(cat)
        shot(cat, "people-profile-phone-fa")
    finally:
        ann.context.close()
        cat.context.close()
