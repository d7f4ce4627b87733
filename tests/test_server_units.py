"""The server's pure parts, without a server: clocks, rate limits, the views of the engine's
answers, game setup checks and message parsing."""

from __future__ import annotations

import random

import pytest

import patchwork as pw
from patchwork.ai import GreedyAgent
from patchwork.engine.data import INCOME_SPACES
from patchwork.server.common.errors import ServerError
from patchwork.server.common.ratelimit import KeyedLimiter, TokenBucket
from patchwork.server.common.tokens import token_hash
from patchwork.server.games import clocks
from patchwork.server.games.creation import new_game_data, rematch_data
from patchwork.server.games.live import GUEST, Caller, LiveGame
from patchwork.server.games.requests import CreateGame
from patchwork.server.games.views import move_outcome, state_view
from patchwork.server.http.game_socket import validate
from patchwork.server.http.sockets import decode, ref_of
from patchwork.server.run import build_parser, settings_from
from server_fixtures import legal_moves


def test_fischer_clock_charges_the_mover_and_adds_the_increment() -> None:
    spec = clocks.ClockSpec("fischer", initial_ms=60_000, increment_ms=2_000)
    assert spec.allowance_ms == 60_000
    assert clocks.after_move(spec, 60_000, turn_started=100.0, now=112.5) == 49_500
    assert clocks.flag_time(49_500, 200.0) == pytest.approx(249.5)
    assert not clocks.is_flagged(1_000, 10.0, 10.999)
    assert clocks.is_flagged(1_000, 10.0, 11.0)
    assert clocks.remaining_now(5_000, 10.0, 12.0) == 3_000
    assert clocks.remaining_now(5_000, None, 99.0) == 5_000
    assert clocks.ClockSpec.from_json(spec.to_json()) == spec


def test_correspondence_clock_resets_each_move() -> None:
    spec = clocks.ClockSpec("correspondence", days=2)
    assert spec.allowance_ms == 2 * clocks.DAY_MS
    assert clocks.after_move(spec, 5, turn_started=0.0, now=86_000.0) == 2 * clocks.DAY_MS
    assert clocks.ClockSpec.from_json(spec.to_json()) == spec
    assert clocks.ClockSpec.from_json(None) is None


def test_token_bucket_allows_a_burst_then_the_rate() -> None:
    bucket = TokenBucket(rate=0.001, burst=3)
    assert [bucket.take() for _ in range(5)] == [True, True, True, False, False]
    assert bucket.retry_after() > 0
    limiter = KeyedLimiter(rate=0.001, burst=1, max_keys=2)
    assert limiter.check("a") is None and limiter.check("a") is not None
    assert limiter.check("b") is None and limiter.check("c") is None  # "a" forgotten
    assert limiter.check("a") is None
    assert not KeyedLimiter(0, 1).enabled


@pytest.mark.parametrize("seed", range(4))
def test_views_are_the_engines_answers(seed: int) -> None:
    rng = random.Random(seed)
    rules = pw.Rules(rotation=seed % 2 == 0, flip=seed < 2)
    state = pw.new_game(seed=seed, rules=rules)
    while not state.is_terminal():
        view = state_view(state).model_dump()
        legal = state.legal_moves()
        # The compact form spells out to exactly the engine's moves, each footprint once.
        spelled = legal_moves(view)
        assert sorted(spelled) == sorted(str(m) for m in legal)
        assert len(set(spelled)) == len(spelled)
        assert view["to_move"] == state.current_player
        assert view["on_top"] == state.on_top
        assert view["scores"] == list(state.scores())
        assert [o["patch"] for o in view["offer"]] == list(state.offered)
        for offer in view["offer"]:
            assert offer["buyable"] == any(
                isinstance(m, pw.Buy) and m.patch_id == offer["patch"] for m in legal
            )
        assert view["pending_specials"] == state.pending_specials
        assert pw.State.from_text(view["position"]) == state
        state = state.apply(rng.choice(legal))
    end = state_view(state).model_dump()
    assert legal_moves(end) == [] and end["winner"] == state.winner()


def test_new_games_are_checked_by_the_engine() -> None:
    with pytest.raises(ServerError) as e:
        new_game_data(CreateGame(mode="ai", circle=[0, 1, 2]))
    assert e.value.code == "invalid_request" and "circle" in e.value.message
    new = new_game_data(CreateGame(mode="online", seat=1, name="Ann"))
    data = new.data
    assert data.status == "waiting" and data.seat1_token == token_hash(new.token)
    assert data.seat0_token is None and new.invite is not None
    assert data.invite_hash == token_hash(new.invite)
    local = new_game_data(CreateGame(mode="local"))
    assert local.seat is None and local.data.seat0_token == local.data.seat1_token
    again = rematch_data(local.data)
    assert again.parent_id == local.data.id and again.first_player == 1
    assert again.seat0_token == local.data.seat0_token
    live = LiveGame.build(again, [])
    assert live.seats_of(Caller(local.token)) == frozenset({0, 1})
    assert live.seats_of(Caller("nope")) == frozenset() and live.seats_of(GUEST) == frozenset()
    # A seat bound to an account is that account's, with or without the token.
    live.data.seat1_user = "u1"
    assert live.seats_of(Caller(user_id="u1")) == frozenset({1})
    assert live.seats_of(Caller("nope", "u2")) == frozenset()


def test_messages_are_checked_before_use() -> None:
    with pytest.raises(ServerError) as e:
        decode("{", 100)
    assert e.value.code == "bad_json"
    with pytest.raises(ServerError) as e:
        decode("x" * 101, 100)
    assert e.value.code == "too_large"
    with pytest.raises(ServerError) as e:
        decode("[" * 100_000 + "]" * 100_000, 10**6)
    assert e.value.code == "bad_json"
    assert ref_of({"id": 3}) == 3 and ref_of({"id": True}) is None and ref_of([1]) is None
    bad: object
    for bad in ([], {"type": "move"}, {"type": "nope"}, {"type": "move", "move": "", "version": 1}):
        with pytest.raises(ServerError) as e:
            validate(bad)
        assert e.value.code == "invalid_message"
    assert validate({"type": "move", "move": "A", "version": 3, "extra": 1}).version == 3


def test_command_line_options() -> None:
    args = build_parser().parse_args(
        ["--db", "sqlite:///x.db", "--grace", "5", "--ai-workers", "3"]
    )
    settings = settings_from(args)
    assert settings.db_url == "sqlite:///x.db" and settings.grace_seconds == 5
    assert settings.ai_workers == 3 and settings.is_sqlite and settings.ai_ponder
    assert not settings_from(build_parser().parse_args(["--no-ponder"])).ai_ponder
    with pytest.raises(SystemExit):
        build_parser().parse_args(["--port", "eighty"])


def test_advance_view_is_what_the_engine_gives() -> None:
    # RULES.md check 3: me on 4, opponent on 10, advance: to 11, +7 buttons, income twice.
    circle = ",".join(str(i) for i in range(1, 33)) + ",0"
    text = f"revised:rf {circle} 4,5,2,9/9/9/9/9/9/9/9/9 10,5,0,9/9/9/9/9/9/9/9/9 0 - - - "
    state = pw.State.from_text(text + "26,32,38,44,50")
    assert state_view(state).model_dump()["advance"] == {
        "buttons": 7 + 2 * 2,
        "position": 11,
        "specials": 0,
    }
    # Original edition: crossing 20 and 26 picks up both special patches.
    state = pw.State.from_text(
        f"original:rf {circle} 19,5,0,9/9/9/9/9/9/9/9/9 25,5,0,9/9/9/9/9/9/9/9/9 0 - - - "
        "20,26,32,44,50"
    )
    assert state_view(state).model_dump()["advance"] == {
        "buttons": 7,
        "position": 26,
        "specials": 2,
    }


@pytest.mark.parametrize("seed", range(2))
def test_score_parts_add_up_to_the_scores(seed: int) -> None:
    rng = random.Random(seed)
    state = pw.new_game(seed=seed)
    while not state.is_terminal():
        view = state_view(state).model_dump()
        for p, parts in enumerate(view["score_parts"]):
            assert parts["buttons"] + parts["bonus"] - parts["penalty"] == view["scores"][p]
            assert parts["empty_squares"] == view["players"][p]["empty_squares"]
            assert parts["penalty"] == 2 * parts["empty_squares"]
        if view["advance"] is not None:
            after = state.apply(pw.Advance())
            assert view["advance"]["position"] == after.players[state.current_player].position
        state = state.apply(rng.choice(state.legal_moves()))
    assert state_view(state).model_dump()["advance"] is None


def test_a_move_outcome_splits_the_buttons_into_spaces_and_income() -> None:
    # Greedy play until moves have crossed income marks with some income: each outcome's
    # income is income x marks crossed, and an advance's other buttons are its spaces.
    state, agent, seen = pw.new_game(seed=4), GreedyAgent(seed=4), 0
    while not state.is_terminal():
        seat = state.current_player
        assert seat is not None
        move = agent.choose(state)
        after = state.apply(move)
        o = move_outcome(state, after, seat, move)
        then = after.players[seat]
        marks = sum(o.space_from < m <= o.space_to for m in INCOME_SPACES)
        assert o.income_collected == marks * then.income
        if isinstance(move, pw.Advance):
            assert o.buttons_collected - o.income_collected == o.space_to - o.space_from
        seen += o.income_collected > 0
        state = after
    assert seen >= 3
