"""The lobby's list of challenges as it changes under a person's pointer: a row that stays
the same is kept while others come and go, so that a press on its Accept is not lost to a
challenge someone else opened meanwhile."""

from __future__ import annotations

from playwright.sync_api import Page, expect

from server_fixtures import ServerProcess
from test_server_lobby import Lobby


def test_a_challenge_accepted_while_another_arrives_starts_the_game(
    page: Page, web_server: ServerProcess
) -> None:
    page.goto(f"{web_server.url}/lobby")
    expect(page.locator("#lobby-connection")).to_have_attribute("data-status", "online")
    with Lobby(web_server) as host, Lobby(web_server) as later:
        first = host.seek()
        row = page.locator(f'li.seek[data-seek="{first}"]')
        accept = row.locator(".accept-seek")
        box = accept.bounding_box()
        assert box is not None
        row.evaluate("el => { window.pressedRow = el; }")
        page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
        page.mouse.down()
        # Another challenge comes while the button is pressed: the list is drawn again.
        second = later.seek()
        expect(page.locator(f'li.seek[data-seek="{second}"]')).to_be_attached()
        assert page.evaluate("window.pressedRow.isConnected")
        page.mouse.up()
        paired = host.expect("paired")
        page.wait_for_url(f"**/play/{paired['game_id']}")
