"""The built-in agents: legal moves everywhere, reproducible with a seed, greedy > random."""

from __future__ import annotations

import pytest

import patchwork as pw
from patchwork.ai import Agent, GreedyAgent, RandomAgent, agent_names, get_agent
from patchwork.ai.agents import board_quality
from patchwork.engine.data import FINAL_SPACE

RULES = (
    pw.Rules(),
    pw.Rules("original"),
    pw.Rules(rotation=False),
    pw.Rules(rotation=False, flip=False),
)


def play_out(state: pw.State, agents: tuple[Agent, Agent]) -> list[pw.State]:
    """Every state of a game played out by ``agents`` (seat p plays for player p)."""
    states = [state]
    while not state.is_terminal():
        player = state.current_player
        assert player is not None
        state = state.apply(agents[player].choose(state))
        states.append(state)
    return states


@pytest.fixture(scope="module")
def positions() -> list[pw.State]:
    """Non-terminal positions from played games: openings, pending specials, end games."""
    out: list[pw.State] = []
    for seed in range(8):
        rules = RULES[seed % len(RULES)]
        start = pw.new_game(seed=seed, rules=rules, first_player=seed % 2)
        states = play_out(start, (RandomAgent(seed), RandomAgent(seed + 100)))
        out += [s for s in states if not s.is_terminal()]
    # Greedy players buy far more, so their games reach nearly empty circles.
    for seed in range(2):
        states = play_out(pw.new_game(seed=seed), (GreedyAgent(seed), GreedyAgent(seed + 1)))
        out += [s for s in states if not s.is_terminal()]
    return out


def test_positions_cover_specials_and_end_game(positions: list[pw.State]) -> None:
    assert any(s.pending_specials for s in positions)
    assert any(FINAL_SPACE in (p.position for p in s.players) for s in positions)
    assert any(len(s.circle) < 12 for s in positions)


def test_random_agent_plays_legal_moves(positions: list[pw.State]) -> None:
    agent = RandomAgent(seed=1)
    for state in positions:
        assert state.is_legal(agent.choose(state))


def test_greedy_agent_plays_legal_moves(positions: list[pw.State]) -> None:
    agent = GreedyAgent(seed=1)
    for state in positions:
        move = agent.choose(state)
        assert state.is_legal(move)
        if state.pending_specials:
            assert isinstance(move, pw.PlaceSpecial)


@pytest.mark.parametrize("name", ["random", "greedy"])
def test_seeded_agents_are_reproducible(name: str) -> None:
    def game(seed: int) -> list[pw.State]:
        agents = (get_agent(name, seed=seed), get_agent(name, seed=seed + 1))
        return play_out(pw.new_game(seed=11), agents)

    assert game(5) == game(5)


def test_random_agent_seeds_differ() -> None:
    state = pw.new_game(seed=2)
    picks = {str(RandomAgent(seed).choose(state)) for seed in range(10)}
    assert len(picks) > 1


def test_greedy_beats_random() -> None:
    wins = 0
    for seed in range(20):
        greedy, rand = GreedyAgent(seed), RandomAgent(seed)
        seat = seed % 2
        agents: tuple[Agent, Agent] = (greedy, rand) if seat == 0 else (rand, greedy)
        end = play_out(pw.new_game(seed=seed), agents)[-1]
        wins += end.winner() == seat
    assert wins >= 15


def test_greedy_fills_a_hole_with_a_special_patch() -> None:
    # Player 0's quilt: rows 4-6 covered except e5, a hole only a special patch can fill.
    quilt = "9/9/9/xxxxxxxxx/xxxx1xxxx/xxxxxxxxx/9/9/9"
    state = pw.State.from_text(
        f"revised:rf 1,2,3 26,5,0,{quilt} 20,5,0,9/9/9/9/9/9/9/9/9 0 - - 1@0 32,38,44,50"
    )
    assert state.pending_specials == 1
    assert str(GreedyAgent(seed=0).choose(state)) == "S@e5"


def test_board_quality() -> None:
    assert board_quality(0) == 0
    full = (1 << 81) - 1
    assert board_quality(full) == 0
    one_hole = full & ~(1 << 40)  # e5
    assert board_quality(one_hole) < board_quality(full & ~(1 << 0)) < 0


def test_get_agent_by_name() -> None:
    assert agent_names() == (
        "random",
        "greedy",
        "policy",
        "mcts",
        *(f"level{n}" for n in range(1, 14)),
    )
    assert isinstance(get_agent("random"), RandomAgent)
    assert isinstance(get_agent(" Greedy ", seed=3), GreedyAgent)
    assert isinstance(get_agent("greedy"), Agent)


def test_get_agent_errors() -> None:
    with pytest.raises(pw.PatchworkError, match=r"unknown agent 'minimax'.*random, greedy"):
        get_agent("minimax")
    with pytest.raises(ValueError, match="bad options for agent 'random'"):
        get_agent("random", depth=3)


def test_get_agent_with_settings() -> None:
    from patchwork.ai import MCTSAgent, mcts
    from patchwork.ai.limit import Limit

    agent = get_agent("level11@iterations=2000,exact_endgame=no", seed=1)
    assert isinstance(agent, MCTSAgent)
    assert agent.default_limit == Limit(iterations=2000)
    assert not agent.exact_endgame
    assert get_agent("mcts@time=0.5").default_limit == Limit(time=0.5)
    assert get_agent("mcts@endgame_spaces=16").endgame_spaces == 16  # type: ignore[attr-defined]
    tuned = get_agent("level11@c_uct=0.5,playout_noise=0.2,tries=6")
    assert isinstance(tuned, MCTSAgent)
    assert (tuned.params.c_uct, tuned.params.noise, tuned.params.tries) == (0.5, 0.2, 6)
    assert tuned.params.margin_weight == mcts.Params().margin_weight  # the rest: defaults
    assert tuned.params.c_place == 0.5  # placements explore as c_uct unless set
    assert get_agent("mcts@c_place=0.1").params.c_place == 0.1  # type: ignore[attr-defined]
    # Keyword options given in code win over the spec's.
    assert get_agent("mcts@workers=2", workers=1).workers == 1


@pytest.mark.parametrize(
    ("spec", "message"),
    [
        ("mcts@depth=3", "bad setting 'depth=3'"),
        ("mcts@iterations", "bad setting 'iterations'"),
        ("mcts@iterations=many", "bad value for iterations"),
        ("mcts@c_uct=wide", "bad value for c_uct"),
        ("mcts@exact_endgame=maybe", "'maybe' is not yes or no"),
        ("mcts@iterations=0", "at least 1"),
        ("greedy@workers=2", "bad options for agent 'greedy@workers=2'"),
    ],
)
def test_get_agent_bad_settings(spec: str, message: str) -> None:
    with pytest.raises(pw.PatchworkError, match=message):
        get_agent(spec)


def test_every_search_level_below_the_top_is_set_in_iterations() -> None:
    """So they play alike on any machine, and repeat a game exactly with a seed."""
    from patchwork.ai import level
    from patchwork.ai.levels import LADDER, LEVELS
    from patchwork.ai.limit import Limit

    for n in LEVELS[:-1]:
        agent = level(n)
        if LADDER[n].kind == "search":
            assert agent.default_limit == Limit(iterations=LADDER[n].iterations)  # type: ignore[attr-defined]
    assert level(LEVELS[-1]).default_limit == Limit(time=5.0)  # type: ignore[attr-defined]


@pytest.mark.parametrize("cls", [RandomAgent, GreedyAgent])
def test_no_move_in_a_finished_game(cls: type[RandomAgent] | type[GreedyAgent]) -> None:
    end = play_out(pw.new_game(seed=4), (RandomAgent(0), RandomAgent(1)))[-1]
    with pytest.raises(pw.PatchworkError, match="game is over"):
        cls(seed=0).choose(end)
