"""Game review (patchwork.ai.review and ``patchwork review``): the classes mean what they say
on known cases, the figures are reproducible, and every output (table, JSON, PNG, HTML) is
there and well formed. Searches are kept small so that the module runs in well under a minute."""

from __future__ import annotations

import io
import json
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from rich.console import Console

import patchwork as pw
from patchwork import i18n
from patchwork.ai import Agent, GreedyAgent, Limit, MCTSAgent, RandomAgent, endgame
from patchwork.ai.review import (
    BLUNDER,
    INACCURACY,
    MISTAKE,
    POINTS_PER_UNIT,
    Review,
    Value,
    classify,
    judge,
    move_accuracy,
    review,
)
from patchwork.report import html, terminal
from patchwork.report.cli import main, names_of

SMALL = Limit(iterations=1500)
PLY_KEYS = {
    "ply", "seat", "move", "best_move", "win_probability_before", "win_probability_after",
    "margin_before", "margin_after", "loss", "margin_loss", "class", "exact",
}  # fmt: skip
PLAYER_KEYS = {"seat", "name", "accuracy", "inaccuracies", "mistakes", "blunders"}


@pytest.fixture(autouse=True)
def english() -> Iterator[None]:
    i18n.set_language("en")
    yield
    i18n.set_language("en")


def played(agents: tuple[Agent, Agent], seed: int) -> pw.Game:
    game = pw.Game(pw.new_game(seed=seed))
    while not game.state.is_terminal():
        game.push(agents[game.state.current_player].choose(game.state))
    return game


@pytest.fixture(scope="module")
def searcher_vs_random() -> tuple[pw.Game, Review]:
    game = played((MCTSAgent(limit=Limit(iterations=2000), seed=1), RandomAgent(seed=2)), 3)
    return game, review(game, SMALL, seed=0, names=("Searcher", "Random"))


@pytest.fixture(scope="module")
def record_file(tmp_path_factory: pytest.TempPathFactory) -> Path:
    game = played((GreedyAgent(seed=1), RandomAgent(seed=2)), 4)
    path = tmp_path_factory.mktemp("review") / "game.json"
    pw.Record.from_game(game, players=("Greedy", "Random")).save(path)
    return path


# -- the judging --------------------------------------------------------------------------


def test_the_classes_follow_the_documented_thresholds() -> None:
    assert classify(0.9, 40.0, best=True) == "best"
    assert classify(0.0, 0.0) == "good"
    assert classify(INACCURACY - 0.001, 0.0) == "good"
    assert classify(INACCURACY, 0.0) == "inaccuracy"
    assert classify(MISTAKE, 0.0) == "mistake"
    assert classify(BLUNDER, 0.0) == "blunder"
    # Points weigh in once the win probability no longer moves.
    assert classify(0.0, MISTAKE * POINTS_PER_UNIT) == "mistake"
    assert classify(0.0, BLUNDER * POINTS_PER_UNIT + 1) == "blunder"


def test_accuracy_falls_with_what_a_move_gives_away() -> None:
    assert move_accuracy(0.0) == 100.0
    assert 60 < move_accuracy(0.10) < 68
    assert move_accuracy(1.0) == 0.0
    assert move_accuracy(0.05) > move_accuracy(0.10) > move_accuracy(0.20)


def test_random_play_makes_more_mistakes_than_the_searcher(
    searcher_vs_random: tuple[pw.Game, Review],
) -> None:
    game, result = searcher_vs_random
    assert len(result.plies) == len(game) and result.finished
    searcher, rand = result.players
    # A 1,500-iteration review also flags a few of the searcher's placements (points it could
    # not tell apart at that size): the counts differ, the accuracies differ by far.
    flaws = {p.seat: p.counts["mistake"] + p.counts["blunder"] for p in result.players}
    assert flaws[1] >= 3 and flaws[1] > flaws[0]
    assert searcher.accuracy is not None and rand.accuracy is not None
    assert searcher.accuracy > rand.accuracy + 10
    assert rand.worst and all(result.ply(n).seat == 1 for n in rand.worst)
    worst = [result.ply(n) for n in rand.worst]
    assert all(p.klass in ("inaccuracy", "mistake", "blunder") for p in worst)
    assert all(p.move != p.best_move for p in worst)


def test_each_ply_is_judged_for_the_player_who_moved(
    searcher_vs_random: tuple[pw.Game, Review],
) -> None:
    game, result = searcher_vs_random
    for p, move, seat in zip(result.plies, game.moves, game.movers(), strict=True):
        assert (p.move, p.seat) == (str(move), seat)
        assert 0 <= p.win_probability_after <= 1 and 0 <= p.loss <= 1 and p.margin_loss >= 0
        if p.klass == "best":
            assert p.loss == 0 and p.margin_loss == 0
    last = result.plies[-1]
    assert last.exact  # the game's own result values the last position
    winner = game.state.winner()
    assert result.curve()[-1][1] == (1.0 if winner == 0 else 0.0)
    assert len(result.curve()) == len(game) + 1


def assert_consistent(result: Review) -> None:
    """The chart has one value a position, and every fall of it lies on a move: the value
    after a move is the value before the next, a move never gains for its player, and what
    it gave away is exactly the fall (a fall of 0.15 or more is a mistake or a blunder)."""
    curve = result.curve()
    for p, (_, before0, mbefore0), (_, after0, mafter0) in zip(
        result.plies, curve[:-1], curve[1:], strict=True
    ):
        sign = 1 if p.seat == 0 else -1
        assert p.win_probability_before == pytest.approx(before0 if sign > 0 else 1 - before0)
        assert p.win_probability_after == pytest.approx(after0 if sign > 0 else 1 - after0)
        assert p.margin_before == pytest.approx(sign * mbefore0)
        assert p.margin_after == pytest.approx(sign * mafter0)
        fall = p.win_probability_before - p.win_probability_after
        assert fall >= 0 and p.margin_before >= p.margin_after, p
        assert p.loss == pytest.approx(fall, abs=1e-4)
        assert p.margin_loss == pytest.approx(p.margin_before - p.margin_after, abs=0.01)
        if fall >= 0.15:
            assert p.klass in ("mistake", "blunder"), p


def test_every_fall_of_the_chart_lies_on_a_move(
    searcher_vs_random: tuple[pw.Game, Review], record_file: Path
) -> None:
    assert_consistent(searcher_vs_random[1])
    assert_consistent(review(pw.Record.load(record_file), SMALL, seed=3))


def test_two_searches_that_disagree_blame_the_move_between_them() -> None:
    """The case a player met: the search before a move liked its own move (0.6), the search
    after it found the position lost (0.1). The fall is the move's, not a jump between moves."""
    game = pw.Game(pw.new_game(seed=8))
    start = game.state
    other = next(m for m in start.legal_moves() if str(m) != str(start.legal_moves()[0]))
    game.push(start.legal_moves()[0])
    mover = start.current_player
    vals = [
        Value(0.6 if mover == 0 else 0.4, 3.0 if mover == 0 else -3.0, str(other), False),
        Value(0.1 if mover == 0 else 0.9, -8.0 if mover == 0 else 8.0, None, False),
    ]
    ply = judge(game, vals).plies[0]
    assert (ply.win_probability_before, ply.win_probability_after) == (0.6, 0.1)
    assert (ply.loss, ply.margin_loss, ply.klass) == (0.5, 11.0, "blunder")
    assert ply.best_move == str(other)
    # Had the searcher's own move been played, it gave nothing away: the chart stays level.
    own = judge(game, [replace(vals[0], best_move=str(game.moves[0])), vals[1]]).plies[0]
    assert (own.klass, own.loss, own.win_probability_before) == ("best", 0.0, 0.1)


def losing_choice() -> tuple[pw.State, pw.Move]:
    """A position near the end where the player to move wins with one move and loses with
    another, both proved by the exact solver."""
    for seed in range(40):
        game = played((GreedyAgent(seed=seed), GreedyAgent(seed=seed + 1)), seed)
        for state in game.states[:-1]:
            if not endgame.near_end(state, 8):
                continue
            mover = state.current_player
            outcomes = {}
            for move in state.legal_moves():
                after = state.apply(move)
                solved = endgame.solve_state(after, 200_000, 64)
                if after.is_terminal():
                    outcomes[move] = after.winner()
                elif solved is not None:
                    outcomes[move] = solved.winner
            if mover in outcomes.values() and any(w != mover for w in outcomes.values()):
                return state, next(m for m, w in outcomes.items() if w != mover)
    raise AssertionError("no position with a winning and a losing move found")


def test_a_losing_move_where_a_winning_one_was_proved_is_a_blunder() -> None:
    state, move = losing_choice()
    game = pw.Game(state)
    game.push(move)
    result = review(game, SMALL, seed=0)
    ply = result.plies[0]
    assert ply.exact
    assert (ply.win_probability_before, ply.win_probability_after) == (1.0, 0.0)
    assert ply.loss == 1.0 and ply.klass == "blunder"
    assert not result.finished or game.state.is_terminal()


def test_the_searcher_against_itself_makes_few_mistakes() -> None:
    agents = (
        MCTSAgent(limit=Limit(iterations=5000), seed=5),
        MCTSAgent(limit=Limit(iterations=5000), seed=6),
    )
    result = review(played(agents, 6), Limit(iterations=10_000), seed=0)
    for player in result.players:
        assert player.counts["blunder"] <= 1
        assert player.accuracy is not None and player.accuracy >= 80


def test_the_same_seed_and_limit_give_the_same_review_on_any_number_of_workers(
    record_file: Path,
) -> None:
    record = pw.Record.load(record_file)
    one = review(record, Limit(iterations=400), seed=7)
    again = review(record, Limit(iterations=400), seed=7, workers=2)
    assert one.to_dict() == again.to_dict()
    assert one.players[0].name == "Greedy"


def test_an_unfinished_game_is_reviewed_up_to_its_last_move() -> None:
    game = pw.Game(pw.new_game(seed=2))
    for _ in range(5):
        game.push(GreedyAgent(seed=0).choose(game.state))
    result = review(game, Limit(iterations=300))
    assert len(result.plies) == 5 and not result.finished
    assert not result.plies[-1].exact


# -- the command line ---------------------------------------------------------------------


def test_json_has_the_documented_shape(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(record_file), "--json", "--iterations", "300"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert len(data["plies"]) == len(pw.Record.load(record_file).moves)
    for ply in data["plies"]:
        assert set(ply) >= PLY_KEYS
        assert ply["class"] in ("best", "good", "inaccuracy", "mistake", "blunder")
    assert [p["name"] for p in data["players"]] == ["Greedy", "Random"]
    for player in data["players"]:
        assert set(player) >= PLAYER_KEYS
    assert data["limit"] == "300 iterations" and data["finished"] is True


def test_table_chart_png_and_html(
    record_file: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    png, page = tmp_path / "chart.png", tmp_path / "report.html"
    code = main([str(record_file), "--iterations", "300", "--png", str(png), "--html", str(page)])
    assert code == 0
    out = capsys.readouterr().out
    assert "Win probability of Greedy" in out and "accuracy" in out and "best move" in out
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    text = page.read_text("utf-8")
    assert text.startswith("<!doctype html>") and "<svg" in text
    assert "Game review: Greedy against Random" in text
    assert text.count("<tr>") >= len(pw.Record.load(record_file).moves) + 3
    # Self-contained: nothing to fetch.
    assert "src=" not in text and "<link" not in text


def test_the_report_speaks_the_readers_language(
    record_file: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(record_file), "--iterations", "200", "--lang", "pt"]) == 0
    out = capsys.readouterr().out
    assert "Win probability" not in out
    assert "Greedy" in out


def test_a_record_that_does_not_replay_gets_its_error_and_no_report(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    good = played((GreedyAgent(seed=1), GreedyAgent(seed=2)), 1)
    data = pw.Record.from_game(good).to_dict()
    data["moves"][3] = "A" if data["moves"][3] != "A" else "31r0@a1"
    data["moves"][4] = "99r0@a1"
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    png = tmp_path / "chart.png"
    assert main([str(bad), "--png", str(png)]) == 2
    err = capsys.readouterr().err
    assert "patchwork review:" in err and "does not replay" in err
    assert not png.exists()


def test_a_missing_file_and_bad_options_are_refused(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([str(tmp_path / "nope.json")]) == 2
    assert "cannot read" in capsys.readouterr().err
    assert main(["x.json", "--iterations", "0"]) == 2
    assert main(["x.json", "--time", "1", "--iterations", "5"]) == 2


# -- what the tables say (issue 35) -------------------------------------------------------


def test_the_win_column_is_the_first_player_s_on_every_row(
    searcher_vs_random: tuple[pw.Game, Review],
) -> None:
    """One player's view throughout, named in the heading, as in the chart: the mover's,
    row by row, jumped between the two players' chances."""
    _game, result = searcher_vs_random
    names = ("Searcher", "Random")
    console = Console(width=160, file=io.StringIO(), record=True)
    console.print(terminal.table(result, names))
    lines = console.export_text().splitlines()
    assert "Searcher wins" in lines[0] and "win after" not in lines[0]
    rows = [line for line in lines[1:] if line.strip()]
    assert len(rows) == len(result.plies)
    for row, ply in zip(rows, result.plies, strict=True):
        first = ply.win_probability_after if ply.seat == 0 else 1 - ply.win_probability_after
        shown = row.split()[-2] if row.endswith(" =") else row.split()[-1]
        assert shown == terminal.percent(first), (row, ply)
    page = html.render(result, _game, names)
    assert "<th>Searcher wins</th>" in page and "win after" not in page


def test_a_player_without_accuracy_gets_a_sentence(
    searcher_vs_random: tuple[pw.Game, Review],
) -> None:
    _game, result = searcher_vs_random
    players = [result.players[0], replace(result.players[1], accuracy=None)]
    result = replace(result, players=players)
    console = Console(width=160, file=io.StringIO(), record=True)
    console.print(terminal.summary(result, ("Searcher", "Random")))
    shown = console.export_text()
    assert "Random: no accuracy (no move had a choice)." in shown
    assert "Searcher: no accuracy" not in shown and "no choices" not in shown
    page = html.render(result, _game, ("Searcher", "Random"))
    assert "Random: no accuracy (no move had a choice)." in page


def test_the_ai_levels_of_a_record_are_named_as_in_the_app() -> None:
    record = pw.Record.from_game(pw.Game(pw.new_game(seed=1)), players=("level3", "Ann"))
    assert names_of(record) == ("AI level 3", "Ann")
    record = pw.Record.from_game(pw.Game(pw.new_game(seed=1)), players=("level1 1", "level1 2"))
    assert names_of(record) == ("AI level 1 (1)", "AI level 1 (2)")
    record = pw.Record.from_game(pw.Game(pw.new_game(seed=1)), players=("", "levels"))
    assert names_of(record) == ("Player 1", "levels")


@pytest.mark.parametrize("lang", ["zh", "ja", "en"])
def test_the_chart_has_every_character_of_chinese_and_japanese(
    lang: str, record_file: Path, tmp_path: Path
) -> None:
    """No empty boxes: matplotlib warns of each glyph its fonts lack; the chart falls back to
    Noto CJK (Japanese forms first in Japanese) for the words and for players named in CJK."""
    import warnings

    from patchwork.report import charts

    i18n.set_language(lang)
    assert charts.font_families()[1] == ("Noto Sans CJK JP" if lang == "ja" else "Noto Sans CJK SC")
    game = pw.Record.load(record_file).replay()
    result = review(game, SMALL, seed=0, names=("小明", "さくら"))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        charts.save_png(result, ("小明", "さくら"), tmp_path / "chart.png")
        page = charts.svg(result, ("小明", "さくら"))
    assert (tmp_path / "chart.png").stat().st_size > 10_000 and "<svg" in page


@pytest.mark.parametrize(("lang", "percent", "ply"), [("de", "40\xa0%", "10"), ("fa", "۴۰٪", "۱۰")])
def test_the_chart_writes_its_numbers_as_the_language_does(
    lang: str, percent: str, ply: str, record_file: Path
) -> None:
    from patchwork.report import charts

    i18n.set_language(lang)
    result = review(pw.Record.load(record_file).replay(), SMALL, seed=0, names=("A", "B"))
    fig = charts.figure(result, ("A", "B"))
    fig.savefig(io.BytesIO(), format="png")  # lays the ticks out
    top, bottom = fig.axes
    assert percent in [t.get_text() for t in top.get_yticklabels()]
    assert ply in [t.get_text() for t in bottom.get_xticklabels()]
