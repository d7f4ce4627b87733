"""The ladder of thirteen levels (ai/levels.py): its names and settings, the former five levels
kept exactly, records and stored games that name a former level, the humanlike low levels'
blind spots, and the ratings the measured steps give."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, insert, select

import patchwork as pw
from patchwork.ai import GreedyAgent, Limit, MCTSAgent
from patchwork.ai.agents import FULL_SIGHT, Sight
from patchwork.ai.levels import (
    DEFAULT_LEVEL,
    DESCRIPTIONS,
    FORMER_LEVELS,
    LADDER,
    LEVELS,
    former,
    level,
    recorded_kind,
)
from patchwork.ai.policy_agent import PolicyAgent
from patchwork.engine import PATCHES
from patchwork.engine.data import BOARD_SIZE
from patchwork.server.ratings.rating import (
    ANCHOR_LEVEL,
    ANCHOR_RATING,
    LEVEL_RATINGS,
    MEASURED_WIN_RATES,
    elo_difference,
    nearest_level,
)
from server_fixtures import database_url

QUICK = Limit(iterations=30)  # enough to see each search level play, in a blink


# -- names and settings ------------------------------------------------------------------------


def test_the_ladder_is_thirteen_named_levels_each_playing_a_legal_move() -> None:
    assert tuple(range(1, 14)) == LEVELS and DEFAULT_LEVEL in LEVELS
    state = pw.new_game(seed=3)
    for n in LEVELS:
        assert DESCRIPTIONS[n] and DESCRIPTIONS[n] not in [DESCRIPTIONS[m] for m in LEVELS if m < n]
        agent = level(n, seed=n, **({"limit": QUICK} if LADDER[n].kind == "search" else {}))
        assert agent.name == f"level{n}"
        state.check_legal(agent.choose(state))
        assert pw.ai.get_agent(f"level{n}").name == f"level{n}"
    with pytest.raises(pw.PatchworkError, match="there is no level 14: levels are 1-13"):
        level(14)
    with pytest.raises(pw.PatchworkError, match="unknown agent 'level14'"):
        pw.ai.get_agent("level14")


def test_search_grows_up_the_ladder_and_only_the_top_thinks_in_seconds() -> None:
    searches = [n for n in LEVELS if LADDER[n].kind == "search"]
    iterations = [LADDER[n].iterations for n in searches[:-1]]
    assert iterations == sorted(iterations) and len(set(iterations)) == len(iterations)
    top = level(max(LEVELS))
    assert isinstance(top, MCTSAgent) and top.default_limit == Limit(time=5.0)
    assert top.workers == 2 and top.ponders
    assert not any(level(n).ponders for n in searches[:-1])  # type: ignore[attr-defined]


def test_the_former_levels_play_exactly_as_they_did() -> None:
    """Each former level is the rung that kept its settings (the five-level ladder's code)."""
    assert sorted(FORMER_LEVELS) == [1, 2, 3, 4, 5]
    assert list(FORMER_LEVELS.values()) == sorted(FORMER_LEVELS.values())
    one, two = level(former(1)), level(former(2))
    assert isinstance(one, PolicyAgent) and one.noise == 2.0
    assert isinstance(two, GreedyAgent) and two.sight == FULL_SIGHT and two.noise == 0.0
    settings = {
        3: (Limit(iterations=100), 1, False),
        4: (Limit(iterations=3_000), 1, True),
        5: (Limit(time=5.0), 2, True),
    }
    for old, (limit, workers, exact) in settings.items():
        agent = level(former(old))
        assert isinstance(agent, MCTSAgent)
        assert (agent.default_limit, agent.workers, agent.exact_endgame) == (limit, workers, exact)
    # The full-sight person is the greedy agent the former level 2 was, move for move.
    state = pw.new_game(seed=9)
    for _ in range(12):
        move = level(former(2), seed=4).choose(state)
        assert move == GreedyAgent(seed=4).choose(state)
        state = state.apply(move)
    with pytest.raises(pw.PatchworkError, match="there was no level 6: the former levels were 1-5"):
        former(6)


# -- records that name a former level ------------------------------------------------------------


def finished_record(seats: tuple[str, str]) -> pw.Record:
    state, moves = pw.new_game(seed=5), []
    agent = GreedyAgent(seed=1)
    for _ in range(6):
        move = agent.choose(state)
        moves.append(move)
        state = state.apply(move)
    game = pw.Game(pw.new_game(seed=5))
    for move in moves:
        game.push(move)
    return pw.Record.from_game(game, seats=seats)


def test_a_version_2_record_names_the_former_ladder() -> None:
    record = finished_record(("human", "level3"))
    now = record.to_dict()
    assert now["version"] == 3 and now["seats"] == ["human", "level3"]
    assert pw.Record.from_dict(now).version == 3
    old = pw.Record.from_dict({**now, "version": 2})
    assert old.version == 2 and old.seats == ("human", "level3")
    assert old.to_dict()["version"] == 2  # written again, it keeps the ladder it names
    assert [recorded_kind(k, 2) for k in old.seats] == ["human", f"level{former(3)}"]
    assert [recorded_kind(k, 3) for k in now["seats"]] == ["human", "level3"]
    assert recorded_kind("mcts", 2) == "mcts"
    with pytest.raises(pw.PatchworkError, match="there was no level 9"):
        recorded_kind("level9", 2)


def test_a_text_record_says_its_ladder_and_one_without_the_tag_is_the_former() -> None:
    record = finished_record(("level5", "human"))
    text = record.to_text()
    assert '[Version "3"]' in text and pw.Record.from_text(text).version == 3
    old = text.replace('[Version "3"]\n', "")
    assert pw.Record.from_text(old).version == 2
    assert '[Version "2"]' in pw.Record.from_text(old).to_text()
    with pytest.raises(pw.InvalidRecordError, match="record version '7' is not supported"):
        pw.Record.from_text(text.replace('[Version "3"]', '[Version "7"]'))


def test_the_terminal_app_resumes_a_former_record_against_the_same_ai(tmp_path: Path) -> None:
    from patchwork.tui.app import build_parser, setup

    record = finished_record(("human", "level4")).to_dict()
    saved = tmp_path / "old.json"
    saved.write_text(json.dumps({**record, "version": 2}))
    session, _options = setup(build_parser().parse_args(["--load", str(saved)]))
    agent = session.seats[1].agent
    assert isinstance(agent, MCTSAgent) and agent.name == f"level{former(4)}"
    assert agent.default_limit == Limit(iterations=3_000)
    fresh = tmp_path / "new.json"
    fresh.write_text(json.dumps(record))
    session, _options = setup(build_parser().parse_args(["--load", str(fresh)]))
    assert session.seats[1].agent.name == "level4"  # type: ignore[union-attr]


# -- the humanlike levels --------------------------------------------------------------------


def play(agents: tuple[pw.ai.Agent, pw.ai.Agent], seed: int) -> pw.Game:
    game = pw.Game(pw.new_game(seed=seed))
    while (mover := game.state.current_player) is not None:
        game.push(agents[mover].choose(game.state))
    return game


def habits(game: pw.Game, seat: int) -> tuple[int, int]:
    """``seat``'s empty squares at the end, and the buttons of income it bought."""
    empty = BOARD_SIZE * BOARD_SIZE - game.state.players[seat].quilt.bits.bit_count()
    income = sum(
        PATCHES[m.patch_id].income
        for m, mover in zip(game.moves, game.movers(), strict=True)
        if mover == seat and isinstance(m, pw.Buy)
    )
    return empty, income


def test_the_first_level_loses_the_way_people_learning_do() -> None:
    """Against the full-sight look-ahead, level 1 ends with more holes in its quilt and buys
    less income: its blind spots, not random moves (it never sews a patch floating free)."""
    beginner, casual = [], []
    for seed in range(4):
        for seat in (0, 1):
            agents = [level(DEFAULT_LEVEL, seed=seed), level(DEFAULT_LEVEL, seed=seed)]
            agents[seat] = level(1, seed=seed)
            game = play((agents[0], agents[1]), seed)
            beginner.append(habits(game, seat))
            casual.append(habits(game, 1 - seat))
            assert game.state.scores()[seat] < game.state.scores()[1 - seat] + 15
    assert sum(e for e, _ in beginner) > 1.5 * sum(e for e, _ in casual)
    assert sum(i for _, i in beginner) < sum(i for _, i in casual)
    assert LADDER[1].sight.income < LADDER[3].sight.income < FULL_SIGHT.income


def test_sight_is_read_from_a_tournament_spec() -> None:
    agent = pw.ai.get_agent("greedy@sight=0.5:1:0,noise=2")
    assert isinstance(agent, GreedyAgent)
    assert agent.sight == Sight(income=0.5, time=1.0, packing=0.0) and agent.noise == 2.0
    with pytest.raises(pw.PatchworkError, match="is not income:time:packing"):
        pw.ai.get_agent("greedy@sight=0.5")


# -- ratings -------------------------------------------------------------------------------


def test_the_ratings_climb_by_the_measured_steps_from_the_anchor() -> None:
    assert sorted(LEVEL_RATINGS) == list(LEVELS)
    assert LEVEL_RATINGS[ANCHOR_LEVEL] == ANCHOR_RATING and former(1) == ANCHOR_LEVEL
    for n in LEVELS[1:]:
        assert 0.6 <= MEASURED_WIN_RATES[n] <= 0.8  # every step one a person can climb
        step = LEVEL_RATINGS[n] - LEVEL_RATINGS[n - 1]
        assert step == pytest.approx(elo_difference(MEASURED_WIN_RATES[n]))
    assert [nearest_level(LEVEL_RATINGS[n] + 1) for n in LEVELS] == list(LEVELS)
    assert nearest_level(0) == 1 and nearest_level(9_999) == max(LEVELS)


# -- games stored before the ladder -------------------------------------------------------------


@pytest.fixture(params=["sqlite", "postgresql"])
def engine_url(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    url, drop = database_url(request.param, tmp_path)
    yield url
    drop()


def test_migration_0013_renames_the_former_levels_in_stored_games(engine_url: str) -> None:
    from alembic import command

    from patchwork.server.games.creation import new_game_data
    from patchwork.server.games.requests import CreateGame
    from patchwork.server.storage.migrate import alembic_config, upgrade
    from patchwork.server.storage.models import games

    engine = create_engine(engine_url)
    try:
        upgrade(engine, "0012")
        rows = {}
        for old in FORMER_LEVELS:
            data = new_game_data(CreateGame(mode="ai", level=old, seat=0, seed=old)).data
            data.seat0_name = "AI level 2"  # a person may call themself so: left alone
            rows[data.id] = old
            with engine.begin() as conn:
                conn.execute(insert(games).values(data.to_row()))
        people = new_game_data(CreateGame(mode="local", seed=1)).data
        with engine.begin() as conn:
            conn.execute(insert(games).values(people.to_row()))
        upgrade(engine)

        def stored() -> dict[str, tuple[int | None, str, str]]:
            cols = (games.c.id, games.c.ai_level, games.c.seat0_name, games.c.seat1_name)
            with engine.connect() as conn:
                return {r[0]: tuple(r[1:]) for r in conn.execute(select(*cols))}

        after = stored()
        for game_id, old in rows.items():
            new = FORMER_LEVELS[old]
            assert after[game_id] == (new, "AI level 2", f"AI level {new}")
        assert after[people.id] == (None, "Player 1", "Player 2")
        cfg = alembic_config()
        with engine.begin() as conn:
            cfg.attributes["connection"] = conn
            command.downgrade(cfg, "0012")
        assert {g: row[0] for g, row in stored().items() if g in rows} == rows
    finally:
        engine.dispose()
