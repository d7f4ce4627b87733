"""Puzzles in the browser: the page asks a puzzle on the table; a wrong move (advancing, the
bar's button) is answered with the best play after it and marked, the right one (a patch
placed with the keyboard) solves it and is played out on the board; the solution on
request; the next puzzle; on a phone; signed in, the puzzle rating after an answer and the
next puzzle at the player's level."""

from __future__ import annotations

import uuid

from playwright.sync_api import Browser, Page, expect

import patchwork as pw
from conftest import assert_fits_a_phone, keyboard_place, phone, shot
from patchwork.puzzles import Puzzle, starter
from patchwork.server.puzzles.rating import after_attempt
from patchwork.server.ratings.glicko2 import Rating
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


def sew_on(page: Page, move: str) -> None:
    """Make the purchase ``move`` on the table with the keys, as a person does."""
    buy = pw.parse_move(move)
    assert isinstance(buy, pw.Buy)
    squares = [pw.square_name(r, c) for r, c in sorted(buy.squares)]
    keyboard_place(page, f'.offer-card[data-patch="{buy.patch_id}"]', squares, move)


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
    sew_on(page, move)
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


def test_signed_in_an_answer_shows_the_puzzle_rating(page: Page, web_server: ServerProcess) -> None:
    p = next(q for q in starter() if advance_is_wrong_and_a_patch_is_right(q))
    name = "Solver" + uuid.uuid4().hex[:8].replace("0", "a").replace("1", "b")
    page.goto(f"{web_server.url}/signup?next=%2Fpuzzles%3Fid%3D{p.id}")
    page.fill("#field-name", name)
    page.fill("#field-password", "quilted-squares-9")
    page.click("#signup-form-submit")
    expect(page.locator("#puzzle[data-state='open']")).to_be_visible()
    expect(page.locator("#puzzle-title")).to_have_text(f"Puzzle {p.id}")
    # The rating a new player starts with, shown before any answer.
    expect(page.locator("#puzzle-rating")).to_have_text("Your puzzle rating: 1500")
    page.click("#advance")  # a wrong first answer: the rating goes down
    after = after_attempt(Rating(), p, won=False)
    change = round(after.rating) - 1500
    shown = page.locator("#puzzle-rating")
    expect(shown).to_have_text(f"Your puzzle rating: {round(after.rating)} ({change})")
    expect(shown).to_have_attribute("data-rating-change", str(change))
    shot(page, "puzzle-rating", full_page=False)
    move = p.answers[0]  # right now, but a second answer does not count
    sew_on(page, move)
    expect(page.locator("#puzzle[data-state='solved']")).to_be_visible()
    expect(shown).to_have_attribute("data-rating-change", str(change))
    page.click("#puzzle-next")  # the next at the player's level
    page.wait_for_url("**/puzzles?id=*")
    expect(page.locator("#puzzle[data-state='open']")).to_be_visible()
    expect(page.locator("#puzzle-title")).not_to_have_text(f"Puzzle {p.id}")


def test_a_search_puzzle_is_answered_with_the_searchers_figures(
    page: Page, web_server: ServerProcess
) -> None:
    """A middle-game puzzle proved by a large search: advancing, rated by that search, is
    answered with its figures; the answer with its own and the searcher's line."""
    p = next(
        q
        for q in starter()
        if q.proof == "search" and q.search and "A" in q.search.moves
        and advance_is_wrong_and_a_patch_is_right(q) and q.answers[0] == q.line[0]
    )  # fmt: skip
    page.goto(f"{web_server.url}/puzzles?id={p.id}")
    expect(page.locator("#puzzle[data-state='open']")).to_be_visible()
    page.click("#advance")
    verdict = page.locator("#puzzle-verdict")
    expect(verdict).to_contain_text("Not this one: the searcher gives A ")
    shot(page, "puzzle-search-wrong", full_page=False)
    expect(page.locator("#puzzle-search")).to_contain_text(
        f"a search of {p.search.iterations:,} iterations after each move"
    )
    move = p.answers[0]
    sew_on(page, move)
    expect(page.locator("#puzzle[data-state='solved']")).to_be_visible()
    expect(verdict).to_contain_text(f"Right: the searcher gives {move} ")
    expect(verdict).to_contain_text("every other move at most")
    expect(page.locator("#puzzle-line")).to_contain_text(" ".join(p.line[1:3]))
    shot(page, "puzzle-search-solved", full_page=False)
