"""Puzzles in the browser: the page asks a puzzle on the table; a wrong move (advancing, the
bar's button) is answered with the best play after it and marked, the right one (a patch
placed with the keyboard) solves it and is played out on the board; the solution on
request; the next puzzle; on a phone."""

from __future__ import annotations

from playwright.sync_api import Browser, Page, expect

import patchwork as pw
from conftest import assert_fits_a_phone, keyboard_place, phone, shot
from patchwork.puzzles import Puzzle, starter
from server_fixtures import ServerProcess


def advance_is_wrong_and_a_patch_is_right(p: Puzzle) -> bool:
    first = p.answers[0]
    return (
        "A" not in p.answers
        and any(str(m) == "A" for m in p.state().legal_moves())
        and first != "A"
        and not first.startswith("S@")
        and p.state().pending_specials == 0
    )


def squares_of(move: str) -> list[str]:
    return [pw.square_name(r, c) for r, c in sorted(pw.parse_move(move).squares)]


def test_a_puzzle_tried_wrong_then_solved(page: Page, web_server: ServerProcess) -> None:
    p = next(q for q in starter() if advance_is_wrong_and_a_patch_is_right(q))
    page.set_viewport_size({"width": 1366, "height": 900})
    page.goto(f"{web_server.url}/puzzles?id={p.id}")
    expect(page.locator("#puzzle[data-state='open']")).to_be_visible()
    expect(page.locator("#puzzle-title")).to_have_text(f"Puzzle {p.id}")
    expect(page.locator(".analysis-side #engine")).to_have_count(0)  # no engine to ask
    page.click("#advance")  # a wrong move: its refutation, and the puzzle still open
    expect(page.locator("#puzzle[data-state='tried']")).to_be_visible()
    expect(page.locator("#puzzle-verdict")).to_contain_text("Not ")
    here = len(p.before)  # the board shows the game that led to the puzzle
    expect(page.locator(f"main[data-version='{here}']")).to_be_attached()  # nothing played
    shot(page, "puzzle-wrong", full_page=False)
    move = p.answers[0]
    patch = move.split("r")[0].split("f")[0]
    keyboard_place(page, f'.offer-card[data-patch="{patch}"]', squares_of(move), move)
    expect(page.locator("#puzzle[data-state='solved']")).to_be_visible()
    expect(page.locator("#puzzle-verdict")).to_contain_text(f"Right: {move} wins by {p.margin}")
    expect(page.locator(f"main[data-version='{here + 1}']")).to_be_attached()  # played
    shot(page, "puzzle-solved", full_page=False)
    page.click("#puzzle-next")
    expect(page.locator("#puzzle[data-state='open']")).to_be_visible()
    expect(page.locator("#puzzle-title")).not_to_have_text(f"Puzzle {p.id}")


def test_todays_puzzle_and_its_solution_on_a_phone(
    browser: Browser, web_server: ServerProcess
) -> None:
    with phone(browser) as page:
        page.goto(f"{web_server.url}/puzzles")
        expect(page.locator("#puzzle-daily")).to_be_visible()
        page.click("#puzzle-solution")
        expect(page.locator("#puzzle-verdict")).to_contain_text("The solution:")
        assert_fits_a_phone(page)
        page.locator("#puzzle").scroll_into_view_if_needed()
        shot(page, "puzzle-phone", full_page=False)
