"""``patchwork puzzle``: a puzzle asked in the terminal, answered line by line: a text that is
no move is refused in words, ``moves`` lists them, a wrong move is answered with the best
play after it, the right one ends it; bad options and ids get their reason."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from patchwork import i18n
from patchwork.puzzles import starter
from patchwork.tui.puzzle import main


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def run(argv: list[str], lines: list[str]) -> int:
    given = iter(lines)

    def ask(prompt: str) -> str:
        try:
            return next(given)
        except StopIteration:
            raise EOFError from None

    return main(argv, ask)


def test_a_puzzle_solved_after_a_wrong_move(capsys: pytest.CaptureFixture[str]) -> None:
    p = starter()[0]
    wrong = next(str(m) for m in p.state().legal_moves() if str(m) not in p.answers)
    assert run([p.id], ["nonsense", "moves", wrong, p.answers[0]]) == 0
    out = capsys.readouterr().out
    assert f"Puzzle {p.id} · difficulty {p.difficulty} of 5" in out
    assert "That is not a move here:" in out
    assert "Not " in out and "Try another move" in out
    assert f"Right: {p.answers[0]} wins by {p.margin}" in out
    assert "Find the best move." in out


def test_giving_up_shows_the_solution(capsys: pytest.CaptureFixture[str]) -> None:
    p = starter()[1]
    assert run([p.id], ["solution"]) == 1
    out = capsys.readouterr().out
    assert "The solution: " + ", ".join(p.answers) in out


def test_todays_puzzle_and_a_theme_are_asked(capsys: pytest.CaptureFixture[str]) -> None:
    assert run([], ["quit"]) == 1
    assert "Puzzle " in capsys.readouterr().out
    assert run(["--theme", "bonus"], []) == 1
    assert "the 7×7 bonus" in capsys.readouterr().out


def test_bad_ids_and_options_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert run(["99999"], []) == 2
    assert "there is no puzzle 99999" in capsys.readouterr().err
    assert run(["--difficulty", "9"], []) == 2
    assert "invalid choice" in capsys.readouterr().err


def test_the_puzzle_speaks_the_readers_language(capsys: pytest.CaptureFixture[str]) -> None:
    assert run([starter()[0].id, "--lang", "de"], ["quit"]) == 1
    task = "Find the best move. 'moves' lists them, 'solution' shows it, 'quit' leaves."
    german = i18n.translator("de").gettext(task)
    assert german != task and german in capsys.readouterr().out


def test_a_search_puzzle_is_answered_with_the_searchers_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    p = next(p for p in starter() if p.proof == "search" and p.answers[0] == p.line[0])
    assert p.search is not None
    rated = next(m for m in p.search.moves if m not in p.answers)
    assert run([p.id], [rated, p.answers[0]]) == 0
    out = capsys.readouterr().out
    e, best, rival = p.search.moves[rated], p.search.best(p.answers), p.search.rival(p.answers)
    right = p.search.moves[p.answers[0]]
    assert (
        f"Not this one: the searcher gives {rated} {e.win:.0%} and {e.margin:+.1f}, "
        f"where the best move has {best.win:.0%} and {best.margin:+.1f}." in out
    )
    assert (
        f"Right: the searcher gives {p.answers[0]} {right.win:.0%} and {right.margin:+.1f}, "
        f"every other move at most {rival.win:.0%} and {rival.margin:+.1f}." in out
    )
    assert f"a search of {p.search.iterations:,} iterations after each move" in out
    assert "The line: " + " ".join(p.line[1:4]) in out
