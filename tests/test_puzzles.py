"""Puzzles (patchwork.puzzles): the generator keeps only positions where the best moves are
proved clearly best; the shipped set loads and its proofs hold when redone (a sample: exact
ones proved again, search ones searched again quickly); an answer is judged by proving it
again, or by the proving search's figures, and a text that is no legal move is refused;
puzzles are found in a server's finished games, read from its database."""

from __future__ import annotations

import hashlib
import itertools
import random
from datetime import date, timedelta
from pathlib import Path

import pytest

import patchwork as pw
from patchwork.ai.levels import former, level
from patchwork.engine import IllegalMoveError, InvalidMoveError
from patchwork.puzzles import THEMES, Puzzle, choice, daily, outcomes, search_proof, starter
from patchwork.puzzles.find import GAP, MOST_ANSWERS, NEAR_END
from patchwork.puzzles.generate import generate, main
from patchwork.puzzles.puzzle import DAILY_SEED, FIRST_SET
from patchwork.puzzles.search_proof import Estimate, answers_of

SAMPLE = 12  # shipped puzzles whose every move is proved again
SEARCHED = 3  # shipped search-proved puzzles searched again


def assert_proved(p: Puzzle) -> None:
    """Every move of the position proved again: the answers end best and win, by the margin
    the puzzle says, and every other move ends at least ``gap`` points behind."""
    proved = outcomes(p.state())
    assert proved is not None, p.id
    assert len(proved) == p.moves
    best = max(o.margin for o in proved.values())
    assert best == p.margin and all(proved[a].wins and proved[a].margin == best for a in p.answers)
    others = [o.margin for m, o in proved.items() if m not in p.answers]
    assert others and best - max(others) == p.gap >= GAP
    assert len(p.answers) <= MOST_ANSWERS * p.moves
    assert p.line[0] in p.answers and proved[p.line[0]].line == p.line


@pytest.fixture(scope="module")
def generated() -> list[Puzzle]:
    return generate(4, seed=1)


def test_the_generator_keeps_only_proved_puzzles(generated: list[Puzzle]) -> None:
    assert generated, "four games give at least one puzzle"
    assert [p.id for p in generated] == [f"{i:04d}" for i in range(1, len(generated) + 1)]
    assert [p.difficulty for p in generated] == sorted(p.difficulty for p in generated)
    for p in generated:
        assert_proved(p)
        assert "endgame" in p.themes and set(p.themes) <= set(THEMES)
        assert 1 <= p.difficulty <= 5 and p.proof == "exact"


def test_the_shipped_puzzles_load_and_a_sample_is_proved_again() -> None:
    puzzles = starter()
    assert len(puzzles) >= 500
    assert [p.id for p in puzzles] == [f"{i:04d}" for i in range(1, len(puzzles) + 1)]
    assert len({p.position for p in puzzles}) == len(puzzles)
    for p in puzzles:
        state = p.state()
        assert state.current_player is not None
        legal = {str(m) for m in state.legal_moves()}
        assert set(p.answers) <= legal and len(legal) == p.moves
        assert p.line[0] in p.answers and (p.search is None) == (p.proof == "exact")
        if p.search is not None:
            assert set(p.search.moves) <= legal and "middlegame" in p.themes
    for p in random.Random(7).sample([p for p in puzzles if p.proof == "exact"], SAMPLE):
        assert_proved(p)
    # Every theme and difficulty is there to choose.
    assert {t for p in puzzles for t in p.themes} == set(THEMES)
    assert {p.difficulty for p in puzzles} >= {1, 2, 3, 4}


def test_an_answer_is_judged_by_proving_it_again() -> None:
    p = starter()[0]
    right = p.judge(p.answers[0])
    assert right.right and right.outcome.wins and right.outcome.margin == p.margin
    wrong_move = next(str(m) for m in p.state().legal_moves() if str(m) not in p.answers)
    wrong = p.judge(wrong_move)
    assert not wrong.right and wrong.outcome.margin <= p.margin - p.gap
    assert wrong.outcome.line[0] == wrong_move


def test_an_answer_that_is_no_legal_move_is_refused() -> None:
    p = starter()[0]
    with pytest.raises(InvalidMoveError):
        p.judge("hello")
    absent = next(i for i in range(len(pw.PATCHES)) if i not in p.state().offered)
    with pytest.raises(IllegalMoveError):
        p.judge(f"{absent}r0@a1")  # a patch that is not on offer


def test_the_daily_puzzle_is_fixed_for_a_day_and_changes_the_next() -> None:
    day = date(2026, 12, 4)
    assert daily(day) == daily(day)
    days = [daily(day + timedelta(days=i)).id for i in range(30)]
    assert all(a != b for a, b in itertools.pairwise(days))


def assert_searched(p: Puzzle) -> None:
    """A search-proved puzzle's figures prove its answers by the thresholds it was kept by,
    and a quick search (fixed seed) still plays the answers' patch."""
    assert p.search is not None
    state = p.state()
    assert not pw.ai.endgame.near_end(state, NEAR_END)
    assert answers_of(p.search.moves) == p.answers
    best, rival = p.search.best(p.answers), p.search.rival(p.answers)
    assert best.win >= search_proof.LEAST_WIN
    assert best.win - rival.win >= search_proof.WIN_GAP
    assert p.gap >= search_proof.MARGIN_GAP and p.margin == round(p.search.moves[p.line[0]].margin)
    quick = level(former(4), seed=1, limit=pw.ai.Limit(iterations=20_000)).choose(state)
    assert choice(quick) == choice(p.answers[0]), p.id


def test_a_sample_of_the_shipped_search_puzzles_holds() -> None:
    searched = [p for p in starter() if p.proof == "search"]
    assert len(searched) >= 60
    for p in random.Random(7).sample(searched, SEARCHED):
        assert_searched(p)


def test_a_search_puzzle_is_judged_by_its_figures_without_searching(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def no_search(*args: object, **kwargs: object) -> None:
        raise AssertionError("a search-proved puzzle's answer needs no search")

    monkeypatch.setattr(pw.ai.search.MCTSAgent, "search", no_search)
    p = next(p for p in starter() if p.proof == "search" and choice(p.answers[0]) != "A")
    assert p.search is not None
    right = p.judge(p.answers[0])
    assert right.right and right.outcome is None and right.estimate == p.search.moves[p.answers[0]]
    rated = next(m for m in p.search.moves if m not in p.answers)
    wrong = p.judge(rated)
    assert not wrong.right and wrong.tried and wrong.estimate == p.search.moves[rated]
    legal = [str(m) for m in p.state().legal_moves()]
    other = next(m for m in legal if m not in p.search.moves and choice(m) != choice(p.answers[0]))
    unrated = p.judge(other)
    assert not unrated.right and not unrated.tried
    assert unrated.estimate == p.search.of_choice(other)
    assert unrated.estimate.win <= p.search.rival(p.answers).win
    elsewhere = next(
        (m for m in legal if m not in p.search.moves and choice(m) == choice(p.answers[0])), None
    )
    if elsewhere is not None:  # the right patch, sewn on where the search did not look
        assert p.judge(elsewhere) == pw.puzzles.Verdict(False, elsewhere, tried=False)


def test_a_move_is_clearly_best_only_by_both_gaps() -> None:
    figures = {
        "A": Estimate(0.80, 9.0),
        "17r0@a1": Estimate(0.60, 4.0),
        "17r90@a1": Estimate(0.5, 1.0),
    }
    assert answers_of(figures) == ("A",)
    assert answers_of({**figures, "17r0@a1": Estimate(0.70, 4.0)}) is None  # too close a chance
    assert answers_of({**figures, "17r0@a1": Estimate(0.60, 6.0)}) is None  # too close in points
    assert answers_of({k: Estimate(e.win - 0.35, e.margin) for k, e in figures.items()}) is None
    # Placements of one patch rated as good are answers together; one between is no puzzle.
    placed = {
        "17r0@a1": Estimate(0.80, 9.0),
        "17r90@a1": Estimate(0.79, 8.5),
        "A": Estimate(0.5, 0),
    }
    assert answers_of(placed) == ("17r0@a1", "17r90@a1")
    assert answers_of({**placed, "17f0@a1": Estimate(0.72, 7.0)}) is None


def test_the_daily_order_keeps_the_first_sets_days() -> None:
    """Puzzles added later change none of the first set's days: the day's puzzle is the one
    the first set alone gave (a fixed shuffle, one a day), until its cycle ends."""
    puzzles = starter()
    assert len(puzzles) > FIRST_SET
    first = random.Random(DAILY_SEED).sample(range(FIRST_SET), FIRST_SET)
    start = date(2026, 12, 4)
    end = date.fromordinal((start.toordinal() // FIRST_SET + 1) * FIRST_SET)  # the cycle's end
    for day in (start + timedelta(days=i) for i in range(0, (end - start).days, 5)):
        assert daily(day) == puzzles[first[day.toordinal() % FIRST_SET]]
    later = {daily(end + timedelta(days=i)).id for i in range(len(puzzles) - FIRST_SET)}
    assert later == {p.id for p in puzzles[FIRST_SET:]}  # then every puzzle added, once


# -- a server's finished games ---------------------------------------------------------------


def store_game(store: object, seed: int, flawed: tuple[int, ...] | None = None) -> str:
    """A game between the former AI levels 1 and 2 played to its end and stored as the server
    stores a finished game, with a review classing the moves ``flawed`` blunders (None: no
    review)."""
    from patchwork.server.games.changes import finish
    from patchwork.server.games.creation import new_game_data
    from patchwork.server.games.live import start_state
    from patchwork.server.games.requests import CreateGame
    from patchwork.server.storage.models import MoveData, ReviewData
    from patchwork.server.storage.store import AddMoves, AddReview, InsertGame, Store

    assert isinstance(store, Store)
    data = new_game_data(CreateGame(mode="ai", level=former(1), seed=seed)).data
    game = start_state(data)
    agents = (level(former(1), seed=seed), level(former(2), seed=seed))
    while (mover := game.state.current_player) is not None:
        game.push(agents[mover].choose(game.state))
    data.update(finish(game.state, "finished", game.state.winner()))
    plies = enumerate(zip(game.moves, game.movers(), strict=True), start=1)
    writes: list[object] = [
        InsertGame(data),
        AddMoves([MoveData(data.id, ply, seat, str(m)) for ply, (m, seat) in plies]),
    ]
    if flawed is not None:
        review = {"plies": [{"ply": ply, "class": "blunder"} for ply in flawed]}
        writes.append(AddReview(ReviewData(data.id, data.version, 200, 0, review)))
    store.write(writes)  # type: ignore[arg-type]
    return data.id


def test_puzzles_are_found_in_a_servers_finished_games(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from patchwork.server.puzzles.finished import finished_games
    from patchwork.server.storage.store import Store

    db = tmp_path / "games.db"
    store = Store(f"sqlite:///{db}")
    try:
        store.migrate()
        plain = store_game(store, 1)  # no review: every position near the end
        flawed = (10, 33, 35)  # a review's blunders: the positions before them (9, 32, 34)
        reviewed = store_game(store, 3, flawed)
    finally:
        store.close()
    stored = hashlib.sha256(db.read_bytes()).hexdigest()
    out = tmp_path / "found.jsonl"
    url = f"sqlite:///{db}"
    assert main(["generate", "--from-db", url, "--out", str(out)], finished_games) == 0
    found = pw.puzzles.load(out)
    sources = {p.source.rsplit(", ply ", 1)[0] for p in found}
    assert sources == {f"game {plain}", f"game {reviewed}"}
    for p in found:
        ply = int(p.source.rsplit(" ", 1)[1])
        game = pw.Game(pw.State.from_text(p.start))
        for move in p.before:
            game.push(pw.parse_move(move))
        assert len(p.before) == ply and game.state.to_text() == p.position
        assert p.source.startswith(f"game {plain}") or ply + 1 in flawed
    assert "puzzles from 2 games" in capsys.readouterr().out
    assert hashlib.sha256(db.read_bytes()).hexdigest() == stored  # read, never written


def test_a_database_that_cannot_be_read_is_one_clear_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from patchwork.server.puzzles.finished import main as command

    missing = tmp_path / "nowhere" / "games.db"
    assert command(["generate", "--from-db", f"sqlite:///{missing}"]) == 2
    err = capsys.readouterr().err
    assert (
        err.startswith("patchwork puzzles generate: cannot read the database")
        and err.count("\n") == 1
    )
    assert not missing.parent.exists()  # no empty database made in its place
    assert command(["generate", "--from-db", "postgresql+psycopg://u:secret@127.0.0.1:1/db"]) == 2
    err = capsys.readouterr().err
    assert "secret" not in err and err.count("\n") == 1
    assert command(["generate", "--from-db", "not a url"]) == 2


@pytest.mark.parametrize("backend", ["sqlite", "postgresql"])
def test_a_servers_finished_games_are_read_and_never_written(backend: str, tmp_path: Path) -> None:
    from sqlalchemy import text
    from sqlalchemy.exc import DBAPIError

    from patchwork.server.puzzles.finished import finished_games
    from patchwork.server.storage.store import Store
    from server_fixtures import database_url

    url, drop = database_url(backend, tmp_path)
    try:
        store = Store(url)
        try:
            store.migrate()
            plain, reviewed = store_game(store, 1), store_game(store, 3, (10, 33))
        finally:
            store.close()
        found = finished_games(url)
        assert [(f.name, f.flawed) for f in found] == [
            (f"game {plain}", None),
            (f"game {reviewed}", frozenset({10, 33})),
        ]
        game = pw.Game(pw.State.from_text(found[0].start))
        for move in found[0].moves:
            game.push(pw.parse_move(move))
        assert game.state.is_terminal()
        reader = Store(url, read_only=True)
        try:
            with pytest.raises(DBAPIError), reader.engine.begin() as conn:
                conn.execute(text("DELETE FROM games"))
        finally:
            reader.close()
        assert len(finished_games(url)) == 2
    finally:
        drop()
