"""Challenges in the browser (issue 39; docs/web.md "Challenges"), as two people use them: Ann
challenges Bob from his profile; Bob, on another page, sees the card and accepts, and both
land in the game; a second challenge Bob declines with a reason, which Ann sees at once; at
the end of their game (Ann resigns) Bob offers a rematch, Ann accepts it from the card on
her game page, and both are taken to the new game. The lobby's list of who is online has a
Challenge button; a phone in Persian shows an incoming challenge right to left. Each browser
signs up through the site's own form."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from conftest import assert_fits_a_phone, person, shot, watch_errors
from server_fixtures import ServerProcess

PLAY = re.compile(r"/play/([A-Za-z0-9_-]+)$")


@pytest.fixture(scope="module")
def server(own_server: ServerProcess) -> ServerProcess:
    return own_server


def game_of(page: Page) -> str:
    expect(page).to_have_url(PLAY)
    found = PLAY.search(page.url)
    assert found is not None
    return found.group(1)


def test_challenge_accept_decline_and_rematch(browser: Browser, server: ServerProcess) -> None:
    ann, ann_name = person(browser, server, "Ann")
    bob, bob_name = person(browser, server, "Bob")
    errors = watch_errors(ann) + watch_errors(bob)
    try:
        bob.goto(f"{server.url}/me/games")  # any page: the card comes to him there
        ann.goto(f"{server.url}/lobby")
        row = ann.locator(f'#online-list [data-name="{bob_name}"]')
        expect(row.locator(".challenge-button")).to_be_visible()
        expect(
            ann.locator(f'#online-list [data-name="{ann_name}"] .challenge-button')
        ).to_have_count(0)

        # From Bob's profile: rules and clock, sent; Ann waits.
        ann.goto(f"{server.url}/players/{bob_name}")
        ann.click("#challenge-button")
        dialog = ann.locator("dialog.challenge-dialog")
        expect(dialog).to_contain_text(f"Challenge {bob_name}")
        expect(dialog.locator("#challenge-takebacks")).to_be_enabled()  # rated by default
        dialog.locator('input[name="rated"]').uncheck()
        expect(dialog.locator("#challenge-takebacks")).to_be_disabled()
        dialog.locator('label.seg:has(input[value="original"])').click()
        dialog.locator('input[name="minutes"]').fill("7")
        dialog.locator('input[name="increment"]').fill("2")
        dialog.locator('label.seg:has(input[name="seat"][value="0"])').click()
        shot(ann, "challenge-dialog", full_page=False)
        dialog.locator("#challenge-send").click()
        expect(dialog).to_have_count(0)
        waiting = ann.locator(".challenge-card.waiting")
        expect(waiting).to_contain_text(f"Waiting for {bob_name}")

        card = bob.locator(".challenge-card.incoming")
        expect(card).to_contain_text(re.compile(f"{ann_name}.*challenges you"))
        expect(card).to_contain_text("7 min + 2 s")
        expect(card).to_contain_text("Original (2014)")
        expect(card).to_contain_text("Casual")
        expect(card).to_contain_text("You move second")
        shot(bob, "challenge-incoming", full_page=False)
        card.locator(".challenge-accept").click()
        first = game_of(bob)
        assert game_of(ann) == first
        expect(ann.locator(".challenge-card")).to_have_count(0)
        expect(bob.locator(".challenge-card")).to_have_count(0)
        expect(ann.locator("#connection")).to_have_attribute("data-status", "online")
        expect(bob.locator("#connection")).to_have_attribute("data-status", "online")
        expect(ann.locator("#headline")).to_have_text("Your turn")  # she asked to move first

        # A second challenge, declined with a reason: Ann sees why, in her game.
        bob.goto(f"{server.url}/players/{ann_name}")
        bob.click("#challenge-button")
        bob.locator("dialog.challenge-dialog #challenge-send").click()
        expect(bob.locator(".challenge-card.waiting")).to_be_visible()
        incoming = ann.locator(".challenge-card.incoming")
        expect(incoming).to_contain_text(re.compile(f"{bob_name}.*challenges you"))
        incoming.locator(".challenge-decline").click()
        incoming.locator(".challenge-reason").select_option("too_fast")
        incoming.locator(".challenge-decline-send").click()
        expect(ann.locator(".challenge-card")).to_have_count(0)
        answered = bob.locator(".challenge-card.answered")
        expect(answered).to_contain_text(f"{ann_name} declined your challenge.")
        expect(answered).to_contain_text("too fast for me")
        shot(bob, "challenge-declined", full_page=False)
        answered.locator(".challenge-dismiss").click()
        expect(bob.locator(".challenge-card")).to_have_count(0)

        # The end of their game: Bob offers a rematch, Ann accepts it where she is.
        bob.goto(f"{server.url}/play/{first}")
        expect(bob.locator("#connection")).to_have_attribute("data-status", "online")
        ann.click("#resign")
        ann.click("#confirm-ok")
        expect(bob.locator("#end-screen")).to_be_visible()
        expect(ann.locator("#end-screen")).to_be_visible()
        bob.click("#rematch")
        expect(bob.locator(".challenge-card.waiting")).to_contain_text("rematch")
        offer = ann.locator(".challenge-card.incoming")
        expect(offer).to_contain_text(re.compile(f"{bob_name}.*offers a rematch"))
        expect(offer).to_contain_text("You move second")  # seats swapped: Bob moves first now
        shot(ann, "challenge-rematch", full_page=False)
        offer.locator(".challenge-accept").click()
        expect(ann).not_to_have_url(re.compile(f"/play/{first}$"))
        second = game_of(ann)
        assert second != first
        expect(bob).to_have_url(re.compile(f"/play/{second}$"))
        expect(bob.locator("#headline")).to_have_text("Your turn")
        assert errors == []
    finally:
        ann.context.close()
        bob.context.close()


def test_an_incoming_challenge_on_a_phone_in_persian(
    browser: Browser, server: ServerProcess
) -> None:
    ann, ann_name = person(browser, server, "Ann")
    cat, cat_name = person(
        browser,
        server,
        "Cat",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        locale="fa-IR",
    )
    errors = watch_errors(ann) + watch_errors(cat)
    try:
        cat.goto(f"{server.url}/lobby?lang=fa")
        expect(cat.locator("html")).to_have_attribute("dir", "rtl")
        ann.goto(f"{server.url}/players/{cat_name}")
        ann.click("#challenge-button")
        ann.locator("dialog.challenge-dialog #challenge-send").click()
        card = cat.locator(".challenge-card.incoming")
        expect(card).to_contain_text(ann_name)
        expect(card.locator(".challenge-accept")).to_be_visible()
        assert_fits_a_phone(cat)
        box = card.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390
        shot(cat, "challenge-phone-fa", full_page=False)
        # Ann cancels: the card goes.
        ann.locator(".challenge-card.waiting .challenge-cancel").click()
        expect(card).to_have_count(0)
        assert errors == []
    finally:
        ann.context.close()
        cat.context.close()
