"""A bot in the browser (issue 40; docs/bots.md): a bot account bridged with `patchwork bot`
(the random agent) waits on the server; a person finds it labelled as a bot on its profile,
challenges it there, the bridge accepts, and they play the game to its end in the page (the
person advancing, the bot answering). Its own server, the bridge its own process."""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Browser, expect

from bot_fixtures import LONG, bot_account, bridge
from conftest import game_id, person, play_in_page, shot, watch_errors
from server_fixtures import ServerProcess

# Quick moves; no claim (the test server's 2 s grace could end while a busy machine loads
# the person's page: away, to the server, until it does).
FAST = (
    "[time]\nmovetime = 0.05\nmin = 0.05\nmax = 0.1\n[connection]\nmax_backoff = 1.0\n"
    "[game]\nclaim = false\n"
)


@pytest.fixture(scope="module")
def server(own_server: ServerProcess) -> ServerProcess:
    return own_server


def test_a_person_challenges_a_bridged_bot_and_plays_it_to_the_end(
    browser: Browser, server: ServerProcess, tmp_path: Path
) -> None:
    robo, token = bot_account(server)
    robo.close()  # (its token plays it from here on)
    settings = tmp_path / "robo.toml"
    settings.write_text(FAST)
    with bridge(tmp_path, server, token, "--agent", "random", "--config", str(settings)) as b:
        b.wait_for("online as")
        ann, ann_name = person(browser, server, "Ann")
        errors = watch_errors(ann)
        ann.goto(f"{server.url}/players/{robo.name}")
        expect(ann.locator(".profile-head .bot-tag")).to_have_text("bot")
        expect(ann.locator(".profile-head")).to_contain_text("Online now")
        shot(ann, "bot-profile", full_page=False)
        ann.click("#challenge-button")
        dialog = ann.locator("dialog.challenge-dialog")
        dialog.locator('input[name="rated"]').uncheck()
        dialog.locator('label.seg:has(input[name="seat"][value="0"])').click()
        dialog.locator("#challenge-send").click()
        # The bridge accepts: the page goes to the game, the bot's seat labelled.
        ann.wait_for_url("**/play/*", timeout=LONG * 1000)
        gid = game_id(ann)
        b.wait_for(f"game {gid}: playing seat 1")
        expect(ann.locator(".player.seat1 .bot-tag")).to_be_visible()
        expect(ann.locator(".player.seat0 .bot-tag")).to_have_count(0)
        shot(ann, "bot-game", full_page=False)
        play_in_page(ann, server, gid, 0, LONG * 2)  # she advances; the bot answers
        shot(ann, "bot-game-end")
        b.wait_for(f"game {gid} against {ann_name} is over")
        assert "Traceback" not in b.log()
        assert not errors, errors
