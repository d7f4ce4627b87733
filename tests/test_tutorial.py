"""The guided first game's course: its prepared game, its lessons' checks, and a learner's
way through all of them, moves refused and kept progress included."""

from __future__ import annotations

import random

import pytest

from patchwork.engine import PatchworkError
from patchwork.tutorial import LESSONS, Progress, attempt, begin, record, replay
from patchwork.tutorial.course import LEARNER, can_meet, meets, prepared, setup
from patchwork.tutorial.lessons import turned


def test_the_prepared_game_gives_every_lesson_a_start_in_order() -> None:
    p = prepared()
    game = replay(p.line)
    assert game.state.is_terminal()
    assert list(p.starts) == sorted(set(p.starts)) and p.starts[0] == 0
    for lesson, ply in zip(LESSONS, p.starts, strict=True):
        state = game.states[ply]
        assert state.current_player == LEARNER, lesson.id
        assert can_meet(lesson.steps[0], state), lesson.id


def test_each_lesson_asks_for_something_some_moves_do_not_do() -> None:
    """At its prepared start every lesson but the last refuses some legal move."""
    p = prepared()
    states = replay(p.line).states
    for lesson, ply in zip(LESSONS[:-1], p.starts, strict=False):
        state = states[ply]
        verdicts = {meets(lesson.steps[0], state, m) for m in state.legal_moves()}
        assert verdicts == {True, False}, lesson.id


def test_turned_reads_the_shape_on_the_quilt_not_the_orientation_named() -> None:
    state = setup()
    buys = [m for m in state.legal_moves() if str(m) != "A"]
    assert any(turned(m) for m in buys) and any(not turned(m) for m in buys)
    for m in buys:
        if m.orientation == 0:  # type: ignore[attr-defined]
            assert not turned(m)


def walk(seed: int) -> tuple[Progress, list[str]]:
    """A learner who meets each step with a random move that does, after sometimes trying
    one that does not; the lessons seen, in order."""
    rng = random.Random(seed)
    progress, seen = begin(), []
    set_aside: tuple[str, ...] | None = None
    while not progress.finished:
        seen.append(progress.current.id)
        state = replay(progress.moves).state
        legal = state.legal_moves()
        good = legal if progress.free else [m for m in legal if meets(progress.task, state, m)]
        bad = [] if progress.free else [m for m in legal if m not in good]
        if bad and rng.random() < 0.5:
            refused = attempt(progress, str(rng.choice(bad)))
            assert not refused.met and refused.progress == progress
        tried = attempt(progress, str(rng.choice(good)))
        assert tried.met
        nxt = tried.progress
        # A step is done when the lesson moves on from it, never by a move while it waits.
        moved_on = (nxt.lesson, nxt.step) != (progress.lesson, progress.step)
        assert tried.done == (not progress.free and moved_on)
        if nxt.jumped and not progress.jumped:  # the learner's game is set aside...
            set_aside = nxt.own
            assert set_aside is not None and nxt.moves != set_aside
        if nxt.back:  # ...and taken up again where it was
            assert nxt.moves == set_aside and not nxt.jumped
        # What an interface keeps comes back the same, checked again.
        assert Progress.from_dict(tried.progress.to_dict()) == tried.progress
        progress = tried.progress
    return progress, seen


@pytest.mark.parametrize("seed", [1, 2])
def test_a_learner_goes_through_every_lesson_in_order_to_the_final_count(seed: int) -> None:
    progress, seen = walk(seed)
    order = [lesson.id for lesson in LESSONS]
    assert [x for i, x in enumerate(seen) if i == 0 or seen[i - 1] != x] == order
    game = replay(progress.moves)
    assert game.state.is_terminal()
    # The game reviewed at the end is the learner's own, from its first move: the bonus
    # lesson's excursion to the prepared game is not in it.
    rec = record(progress, ("You", "AI level 1"))
    assert len(rec.moves) == len(progress.moves) and rec.players == ("You", "AI level 1")
    assert list(map(str, rec.moves[: len(prepared().line)])) != list(prepared().line)


def test_the_gentle_opponent_answers_the_same_moves_the_same_way() -> None:
    first = attempt(begin(), "2r180@d5")
    again = attempt(begin(), "2r180@d5")
    assert first.met and first.replies == again.replies and first.replies


def test_a_move_that_is_no_move_is_refused_saying_why() -> None:
    with pytest.raises(PatchworkError, match="patch"):
        attempt(begin(), "99@a1")
    with pytest.raises(PatchworkError):
        attempt(begin(), "hello")
    advance = attempt(begin(), "A")  # legal, but the first lesson asks to buy
    assert not advance.met and advance.progress == begin()


@pytest.mark.parametrize(
    ("kept", "says"),
    [
        ([], "JSON object"),
        ({"lesson": 42, "moves": []}, "lesson number"),
        ({"lesson": 0, "moves": "A A"}, "list of moves"),
        ({"lesson": 0, "step": 3, "moves": []}, "step"),
        ({"lesson": 0, "moves": ["A", "A", "A", "Z9"]}, "cannot read move .Z9."),
        ({"lesson": 0, "moves": ["2r180@d5"]}, "learner's move"),
        ({"lesson": len(LESSONS), "moves": []}, "game is not"),
    ],
)
def test_damaged_progress_is_refused_in_words(kept: object, says: str) -> None:
    with pytest.raises(PatchworkError, match=says):
        Progress.from_dict(kept)
