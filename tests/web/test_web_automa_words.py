"""The browser says of Automa's choice only what is true (issue 35): a sentence names one filter
only when the card's first filter decided; else it names the filters the choice went through,
as the engine reports them and the terminal says them (tests/test_automa_words.py checks the
claims on the engine's own turns)."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import Page

from server_fixtures import ServerProcess


def said(page: Page, turn: dict[str, Any]) -> str:
    lines: list[str] = page.evaluate(
        'turn => import("/static/js/automa.js").then((m) => m.turnLines(turn))', turn
    )
    return " ".join(lines)


def test_a_choice_is_told_by_the_filters_it_went_through(
    page: Page, web_server: ServerProcess
) -> None:
    page.goto(web_server.url)
    card = {"number": 3, "deck": "normal", "budget": 3, "income": 3,
            "filters": ["no_overtake", "largest", "furthest"]}  # fmt: skip
    turn = {"card": card, "affordable": [1, 2], "patch": 2, "start": 0, "end": 3,
            "income": 0, "bonus": False, "reshuffled": False, "specials": 0}  # fmt: skip
    first = said(page, {**turn, "decided_by": "no_overtake", "filters_used": ["no_overtake"]})
    assert "bought patch 2, one that does not pass you." in first
    used = ["no_overtake", "largest"]  # as the engine says (Turn.filters_used)
    later = said(page, {**turn, "decided_by": "largest", "filters_used": used})
    assert "the largest it could afford" not in later
    assert "the one its card's filters left (does not pass you, largest)" in later
