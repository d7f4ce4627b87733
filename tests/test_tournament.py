"""Tournaments: the statistics against known values, paired seats, reproducibility across
worker processes, result files, clean interrupts and clear errors."""

from __future__ import annotations

import csv
import json
import math
import sys
from pathlib import Path
from typing import Any, ClassVar

import pytest

import patchwork as pw
from patchwork import tournament
from patchwork.ai import Limit, get_agent, stats
from patchwork.tournament import (
    GameResult,
    TournamentError,
    TournamentResult,
    main,
    run_tournament,
    schedule,
)
from patchwork.tournament import play as tournament_play

# -- statistics ---------------------------------------------------------------------------------


def test_wilson_interval_known_values() -> None:
    lo, hi = stats.wilson_interval(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-4)
    assert hi == pytest.approx(0.5962, abs=1e-4)
    lo, hi = stats.wilson_interval(0, 10)
    assert lo == 0.0 and hi == pytest.approx(0.2775, abs=1e-4)
    lo, hi = stats.wilson_interval(10, 10)
    assert hi == 1.0 and lo == pytest.approx(0.7225, abs=1e-4)
    assert stats.wilson_interval(0, 0) == (0.0, 1.0)


def test_elo_from_score_known_values() -> None:
    assert stats.elo_from_score(0.75) == pytest.approx(190.85, abs=0.01)
    assert stats.elo_from_score(0.5) == 0.0
    assert stats.elo_from_score(0.25) == pytest.approx(-190.85, abs=0.01)
    assert stats.elo_from_score(1.0) == math.inf
    assert stats.elo_from_score(0.0) == -math.inf
    for p in (0.1, 0.5, 0.64, 0.9):
        assert stats.score_from_elo(stats.elo_from_score(p)) == pytest.approx(p)


def test_elo_interval_maps_the_wilson_interval() -> None:
    lo, hi = stats.elo_interval(50, 100)
    assert lo == pytest.approx(-hi)
    assert lo == pytest.approx(stats.elo_from_score(stats.wilson_interval(50, 100)[0]))
    assert hi == pytest.approx(67.7, abs=0.1)
    lo, hi = stats.elo_interval(75, 100)
    assert lo < 190.85 < hi
    assert stats.elo_interval(4, 4)[1] == math.inf


def test_mean_interval() -> None:
    mean, half = stats.mean_interval([1.0, 2.0, 3.0])
    assert mean == 2.0
    assert half == pytest.approx(stats.Z95 / math.sqrt(3))
    assert stats.mean_interval([5.0]) == (5.0, 0.0)
    assert all(math.isnan(x) for x in stats.mean_interval([]))


def test_bradley_terry_recovers_known_strengths() -> None:
    # Expected win counts for strengths 1, 2 and 4 satisfy the likelihood equations exactly.
    gamma = (1.0, 2.0, 4.0)
    wins = [[100 * gi / (gi + gj) if i != j else 0.0 for j, gj in enumerate(gamma)]
            for i, gi in enumerate(gamma)]  # fmt: skip
    step = 400 * math.log10(2)
    assert stats.bradley_terry(wins) == pytest.approx([0.0, step, 2 * step], abs=1e-6)
    assert stats.bradley_terry(wins, anchor=None) == pytest.approx([-step, 0.0, step], abs=1e-6)


def test_bradley_terry_with_two_players_is_the_score_formula() -> None:
    assert stats.bradley_terry([[0, 3], [9, 0]]) == pytest.approx(
        [0.0, stats.elo_from_score(0.75)], abs=1e-6
    )


def test_clean_sweeps_have_no_mle_but_fit_elo_still_rates_them() -> None:
    sweep = stats.win_matrix([(0, 1), (0, 1), (1, 2), (0, 2), (2, 1)], 3)
    assert not stats.has_mle(sweep)
    with pytest.raises(ValueError):
        stats.bradley_terry(sweep)
    elo = stats.fit_elo(sweep)
    assert elo[0] == 0.0 and all(math.isfinite(e) and e < 0 for e in elo[1:])
    # Unconnected players cannot be rated at all.
    assert all(math.isnan(e) for e in stats.fit_elo(stats.win_matrix([(0, 1), (1, 0)], 3)))


def test_bootstrap_intervals_are_reproducible_and_cover_the_fit() -> None:
    outcomes = [(0, 1)] * 6 + [(1, 0)] * 4 + [(1, 2)] * 7 + [(2, 1)] * 3 + [(0, 2)] * 8
    outcomes += [(2, 0)] * 2
    fit = stats.fit_elo(stats.win_matrix(outcomes, 3))
    a = stats.bootstrap_elo_intervals(outcomes, 3, samples=100, seed=5)
    assert a == stats.bootstrap_elo_intervals(outcomes, 3, samples=100, seed=5)
    assert a[0] == (0.0, 0.0)
    for (lo, hi), elo in zip(a[1:], fit[1:], strict=True):
        assert lo <= elo <= hi


# -- the schedule ---------------------------------------------------------------------------


def test_schedule_pairs_every_circle_with_swapped_seats() -> None:
    specs = schedule(["a", "b", "c"], 4, seed=3, rules=pw.Rules(), limit=None)
    assert len(specs) == 3 * 4
    assert [s.index for s in specs] == list(range(12))
    for first, second in zip(specs[::2], specs[1::2], strict=True):
        assert first.circle == second.circle and first.setup == second.setup
        assert first.seats == second.seats[::-1] == first.pair
    # Every pair sees the same circles; different setups differ.
    circles = {s.setup: s.circle for s in specs}
    assert all(s.circle == circles[s.setup] for s in specs)
    assert circles[0] != circles[1]
    assert sorted(circles[0]) == list(range(33))
    # Agent seeds differ per game and seat, and follow from the seed alone.
    seeds = [seed for s in specs for seed in s.agent_seeds]
    assert len(set(seeds)) == len(seeds)
    again = schedule(["a", "b", "c"], 4, seed=3, rules=pw.Rules(), limit=None)
    assert again == specs


# -- runs -----------------------------------------------------------------------------------


def per_game(result: TournamentResult) -> list[tuple[Any, ...]]:
    return [(g.spec, g.moves, g.scores, g.winner, g.plies) for g in result.games]


def test_tiny_run_random_vs_greedy() -> None:
    result = run_tournament(["random", "greedy"], 4, progress=False, seed=0)
    assert not result.interrupted and result.planned == 4 and len(result.games) == 4
    g = result.games
    assert g[0].spec.circle == g[1].spec.circle != g[2].spec.circle == g[3].spec.circle
    assert [x.spec.seats for x in g] == [(0, 1), (1, 0), (0, 1), (1, 0)]
    wins = result.wins()
    assert sum(wins) == 4 and wins[1] >= 3
    for game in g:
        assert game.plies == sum(game.moves_made) == len(game.moves)
        assert game.scores[game.winner] >= game.scores[1 - game.winner]
        assert game.margin(game.winner_player) == -game.margin(game.loser_player)
    s = result.summary()
    assert [p.games for p in s.players] == [4, 4]
    assert [p.wins for p in s.players] == wins
    assert s.players[0].elo == 0.0
    assert s.players[1].elo == stats.elo_from_score(wins[1] / 4)
    assert s.players[1].mean_margin == -s.players[0].mean_margin > 0
    assert s.first_mover_games == 4
    assert s.first_mover_wins == sum(1 for x in g if x.winner == 0)
    assert len(s.pairs) == 1 and s.pairs[0].wins == (wins[0], wins[1])


def test_odd_games_are_rounded_up() -> None:
    result = run_tournament(["random", "random"], 1, progress=False)
    assert result.games_per_pair == 2 and len(result.games) == 2
    assert result.labels == ["random#1", "random#2"]


def test_progress_in_a_log_is_plain_lines(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # stderr is not a terminal here (as under nohup): lines, not a bar's redraws.
    run_tournament(["random", "greedy"], 4, seed=0)
    lines = capsys.readouterr().err.splitlines()
    assert len(lines) == 1  # a quick run: only the line at the end
    assert lines[0].startswith("games 4/4  elapsed 0:00:")
    assert "eta 0:00:00" in lines[0] and lines[0].endswith("greedy")
    monkeypatch.setattr(tournament.run, "PLAIN_EVERY", 0.0)
    run_tournament(["random", "greedy"], 4, seed=0)
    lines = capsys.readouterr().err.splitlines()
    assert [line.split()[1] for line in lines] == ["1/4", "2/4", "3/4", "4/4"]


def test_workers_do_not_change_the_games() -> None:
    one = run_tournament(["random", "random"], 4, workers=1, seed=9, progress=False)
    two = run_tournament(["random", "random"], 4, workers=2, seed=9, progress=False)
    assert per_game(one) == per_game(two)
    other = run_tournament(["random", "random"], 4, workers=1, seed=10, progress=False)
    assert per_game(other) != per_game(one)


def test_round_robin_of_three() -> None:
    result = run_tournament(
        ["random", "greedy", "policy"], 2, progress=True, limit=Limit(time=1.0), seed=2
    )
    s = result.summary()
    assert s.elo_method.startswith("bradley-terry")
    assert [p.games for p in s.players] == [4, 4, 4]
    assert [q.players for q in s.pairs] == [
        ("random", "greedy"),
        ("random", "policy"),
        ("greedy", "policy"),
    ]
    assert sum(q.games for q in s.pairs) == 6
    assert s.players[0].elo == 0.0 and s.players[0].elo_interval == (0.0, 0.0)
    rendered = tournament.report(result)
    assert len(rendered) == 4


def test_mcts_short_run() -> None:
    result = run_tournament(["mcts", "random"], 2, limit=Limit(iterations=50), progress=False)
    assert len(result.games) == 2 and result.wins()[0] >= 1


def test_out_json_and_csv(tmp_path: Path) -> None:
    path = tmp_path / "results.json"
    result = run_tournament(["random", "greedy"], 2, progress=False, out=path)
    data = json.loads(path.read_text("utf-8"))
    assert set(data) >= {"settings", "summary", "games"}
    assert data["settings"]["players"] == ["random", "greedy"]
    assert data["settings"]["completed_games"] == 2
    assert [p["wins"] for p in data["summary"]["players"]] == result.wins()
    for game in data["games"]:
        assert {"pair", "players", "circle", "circle_seed", "moves", "scores", "winner"} <= set(
            game
        )
        assert len(game["seconds"]) == 2 and game["plies"] == len(game["moves"])
        # The record replays through the engine to the same result.
        replay = pw.Game(pw.new_game(circle=game["circle"]))
        for move in game["moves"]:
            replay.push(move)
        assert list(replay.state.scores()) == game["scores"]
        assert replay.state.winner() == game["winner"]
    path = tmp_path / "results.csv"
    result.write(path)
    with path.open(newline="", encoding="utf-8") as f:
        rows = list(csv.DictReader(f))
    assert len(rows) == 2
    assert [int(r["winner"]) for r in rows] == [g.winner for g in result.games]
    assert rows[0]["moves"].split() == list(result.games[0].moves)


# -- interrupts and failures ----------------------------------------------------------------


class Interrupting:
    """A random agent that presses Ctrl-C on its ``after``-th move."""

    name = "interrupting"
    moves = 0

    def __init__(self, after: int, seed: int | None = None) -> None:
        self.inner = get_agent("random", seed=seed)
        self.after = after

    def choose(self, state: pw.State, limit: Limit | float | None = None) -> pw.Move:
        Interrupting.moves += 1
        if Interrupting.moves == self.after:
            raise KeyboardInterrupt
        return self.inner.choose(state, limit)


def test_interrupt_keeps_finished_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Two games of random vs random take well under 400 moves; the third one is stopped.
    first_two = run_tournament(["random", "random"], 2, progress=False)
    stop_at = sum(g.plies for g in first_two.games) + 5
    Interrupting.moves = 0
    monkeypatch.setattr(
        tournament_play, "get_agent", lambda name, seed=None: Interrupting(stop_at, seed)
    )
    path = tmp_path / "r.json"
    assert main(["random", "random", "--games", "6", "--out", str(path)]) == 130
    out, err = capsys.readouterr()
    assert "interrupted after 2 of 6 games" in err
    assert "2 games of 6 (interrupted)" in out
    data = json.loads(path.read_text("utf-8"))
    assert data["settings"]["interrupted"] is True and len(data["games"]) == 2


class Cheating:
    name = "cheat"

    def __init__(self, seed: int | None = None) -> None:
        pass

    def choose(self, state: pw.State, limit: Limit | float | None = None) -> pw.Move:
        return pw.parse_move("0r0@a1")


def test_an_illegal_move_forfeits_the_game_and_the_tournament_goes_on(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(tournament_play, "get_agent", lambda name, seed=None: Cheating(seed))
    result = run_tournament(["x", "y"], 2, progress=False)
    assert [(g.plies, g.winner) for g in result.games] == [(0, 1), (0, 1)]  # seat 0 cheats
    assert all("patch 0 is not on offer" in (g.forfeit or "") for g in result.games)
    assert [p.forfeits for p in result.summary().players] == [1, 1]


def test_stop_on_fault_reports_the_games_so_far(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(tournament_play, "get_agent", lambda name, seed=None: Cheating(seed))
    with pytest.raises(TournamentError) as info:
        run_tournament(["x", "y"], 2, progress=False, stop_on_fault=True)
    assert "game 1, move 1" in str(info.value)
    assert info.value.result is not None and info.value.result.games == []
    assert main(["x", "y", "--games", "2", "--stop-on-fault"]) == 1
    assert "failed" in capsys.readouterr().err


class Reseedable:
    """An agent that can be reseeded is kept per process and closed at the end."""

    name = "reseedable"
    built: ClassVar[list[Reseedable]] = []

    def __init__(self, seed: int | None = None) -> None:
        self.inner = get_agent("random", seed=seed)
        self.seeds = [seed]
        self.closed = False
        Reseedable.built.append(self)

    def reseed(self, seed: int) -> None:
        self.inner = get_agent("random", seed=seed)
        self.seeds.append(seed)

    def choose(self, state: pw.State, limit: Limit | float | None = None) -> pw.Move:
        return self.inner.choose(state, limit)

    def close(self) -> None:
        self.closed = True


def test_reseedable_agents_are_reused_and_closed(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = run_tournament(["random", "random"], 4, progress=False)
    Reseedable.built = []
    monkeypatch.setattr(tournament_play, "get_agent", lambda name, seed=None: Reseedable(seed))
    result = run_tournament(["a", "b"], 4, progress=False)
    playing = [a for a in Reseedable.built if len(a.seeds) > 1]
    assert len(playing) == 2 and all(a.closed for a in Reseedable.built)
    assert [len(a.seeds) for a in playing] == [4, 4]
    assert [g.moves for g in result.games] == [g.moves for g in plain.games]


# -- the command ----------------------------------------------------------------------------


def test_main_runs_and_prints_the_table(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["random", "greedy", "--games", "2", "--edition", "original", "--no-flip"]) == 0
    out, _ = capsys.readouterr()
    assert "random" in out and "greedy" in out and "Elo" in out and "first to move" in out
    assert "original rules" in out and "no flip" in out


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["random", "nobody"], "unknown agent 'nobody'"),
        (["random"], "at least two players"),
        (["random", "greedy", "--games", "0"], "--games"),
        (["random", "greedy", "--games", "x"], "--games"),
        (["random", "greedy", "--time", "-1"], "--time"),
        (["random", "greedy", "--time", "nan"], "--time"),
        (["random", "greedy", "--iterations", "0"], "--iterations"),
        (["random", "greedy", "--workers", "0"], "--workers"),
        (["random", "greedy", "--edition", "third"], "--edition"),
        (["random", "greedy", "--out", "/no/such/folder/r.json"], "does not exist"),
        (["random", "greedy", "--out", "results.txt"], ".json or .csv"),
    ],
)
def test_main_rejects_bad_arguments(
    argv: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 2
    out, err = capsys.readouterr()
    assert message in err
    assert "Traceback" not in out + err


def test_main_rejects_a_folder_as_output(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["random", "greedy", "--out", str(tmp_path / "x.json" / "..")]) == 2
    (tmp_path / "d.json").mkdir()
    assert main(["random", "greedy", "--out", str(tmp_path / "d.json")]) == 2
    assert "folder" in capsys.readouterr().err


def test_main_help_exits_zero(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    assert "patchwork tournament" in out and "rounded up" in out and "level13" in out


def test_run_tournament_rejects_bad_input() -> None:
    with pytest.raises(pw.PatchworkError, match="unknown agent"):
        run_tournament(["random", "nobody"], 2, progress=False)
    with pytest.raises(pw.PatchworkError, match="games"):
        run_tournament(["random", "greedy"], 0, progress=False)
    with pytest.raises(pw.PatchworkError, match="workers"):
        run_tournament(["random", "greedy"], 2, workers=0, progress=False)
    with pytest.raises(pw.PatchworkError, match="time limit"):
        run_tournament(["random", "greedy"], 2, limit=-1.0, progress=False)


def test_game_result_to_dict_names_the_players() -> None:
    result = run_tournament(["random", "greedy"], 2, progress=False)
    game: GameResult = result.games[1]
    d = game.to_dict(result.labels)
    assert d["pair"] == ["random", "greedy"] and d["players"] == ["greedy", "random"]
    assert d["winner_name"] == result.labels[game.winner_player]


BASELINE = "py:benchmarks.baseline:agent"


def test_python_players_seat_the_frozen_baseline() -> None:
    """``py:MODULE:FACTORY`` players are imported in every process that plays them (here the
    spawned workers too), take ``@`` settings and repeat their games with a seed."""
    players = [f"{BASELINE}@iterations=60", "mcts@iterations=60"]
    one = run_tournament(players, 2, workers=1, seed=5, progress=False)
    two = run_tournament(players, 2, workers=2, seed=5, progress=False)
    assert per_game(one) == per_game(two)
    assert [g.spec.seats for g in one.games] == [(0, 1), (1, 0)]
    assert all(g.plies > 20 and min(g.moves_made) > 0 for g in one.games)


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("py:benchmarks.baseline", "write py:MODULE:FACTORY"),
        ("py:no_such_module_here:agent", "cannot import 'no_such_module_here'"),
        ("py:benchmarks.baseline:nothing", "has no nothing()"),
        (f"{BASELINE}@depth", "bad setting 'depth'"),
        (f"{BASELINE}@depth=3", "bad options for agent"),  # it takes no depth
        (f"{BASELINE}@workers=2", "bad options for agent"),
    ],
)
def test_python_players_bad_names(name: str, message: str) -> None:
    with pytest.raises(pw.PatchworkError, match=message):
        run_tournament([name, "random"], 2, progress=False)


PROBE = """
from patchwork.ai import get_agent

built = []


def agent(seed=None, **settings):
    built.append((seed, settings))
    return get_agent("random", seed=seed)
"""


def test_python_players_take_settings_of_their_own(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``py:`` factories get ``seed`` and every ``@`` setting: time and iterations as
    ``limit``, the searcher's keys read as for the named agents, any other as it reads."""
    (tmp_path / "mybots").mkdir()
    (tmp_path / "mybots" / "probe.py").write_text(PROBE)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.delitem(sys.modules, "mybots.probe", raising=False)
    name = "py:mybots.probe:agent@depth=2,style=wild,greedy=true,noise=0.5,iterations=30"
    result = run_tournament([name, "random"], 2, seed=4, progress=False)
    assert len(result.games) == 2
    from mybots import probe  # type: ignore[import-not-found]

    seeds = {s for g in result.games for s in g.spec.agent_seeds}
    assert probe.built[0][0] is None  # built once to check it before the games
    for seed, settings in probe.built:
        assert settings == {
            "depth": 2,
            "style": "wild",
            "greedy": True,
            "noise": 0.5,
            "limit": Limit(iterations=30),
        }
        assert seed is None or seed in seeds


def test_opening_probe_buys_where_the_searcher_advances() -> None:
    """The opening probe of benchmarks/ is the searcher with one change: until it has bought
    a patch it plays its most visited purchase where the searcher would advance."""
    probe, plain = "py:benchmarks.opening_probe:agent@iterations=500", "mcts@iterations=500"
    advanced = 0
    for seed in range(100, 112):
        state = pw.new_game(seed=seed)
        own, its = (tournament_play.build_agent(p, seed=3).choose(state) for p in (probe, plain))
        assert not isinstance(own, pw.Advance)
        if isinstance(its, pw.Advance):
            advanced += 1
        else:
            assert own == its
        # Once a patch is on its quilt it is the searcher itself.
        later = state.apply(own).apply(pw.Advance())  # the opponent passes it: its turn again
        assert later.current_player == state.current_player
        moves = [tournament_play.build_agent(p, seed=4).choose(later) for p in (probe, plain)]
        assert moves[0] == moves[1]
    assert advanced >= 3


def test_opening_probe_counts_advances_before_the_first_purchase() -> None:
    from benchmarks.opening_probe import advanced_first

    start = pw.new_game(seed=100)
    after = start.apply(pw.Advance())  # player 0 advances past player 1 ...
    buy = next(m for m in after.legal_moves() if not isinstance(m, pw.Advance))
    moves = ["A", str(buy), "A", "A"]  # ... who buys before it advances
    game = {"circle": list(start.circle), "first_player": 0, "moves": moves}
    assert advanced_first(game) == [True, False]
    assert advanced_first({**game, "moves": moves[:0]}) == [False, False]
