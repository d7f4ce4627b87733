"""Figures that say something (issue 35): no "Score -157 now" before a patch is sewn on; the
score shows once it means something."""

from __future__ import annotations

import re

from playwright.sync_api import Page, expect

from conftest import keyboard_place, placements, start_game, wait_my_turn
from server_fixtures import ServerProcess


def test_no_score_is_shown_before_a_first_patch(page: Page, web_server: ServerProcess) -> None:
    gid = start_game(page, web_server, "ai", level=1)
    g = wait_my_turn(page, web_server, gid)
    scores = page.locator("dd.score")
    expect(scores).to_have_count(2)
    expect(scores.nth(0)).to_have_text("–")
    move = next(m for m in placements(g) if m[0].isdigit())
    patch = move.split("r")[0].split("f")[0]
    keyboard_place(page, f'.offer-card[data-patch="{patch}"]', placements(g)[move], move)
    g2 = wait_my_turn(page, web_server, gid, since=g["version"])
    shown = re.compile(f"^[-−]?{abs(g2['scores'][0])}$")
    expect(scores.nth(0)).to_have_text(shown)
