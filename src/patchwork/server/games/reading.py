"""Reading finished (or running) games: records, replays, event logs and lists."""

from __future__ import annotations

from ...engine import Move, Record, State
from ...i18n import N_
from ..common.errors import ServerError
from ..storage.models import GameData
from .live import LiveGame
from .schemas import GameSummary, Replay, ReplayFrame
from .views import automa_view, move_squares, players_view, public_text, result_view, seats_view


def seat_kinds(d: GameData) -> tuple[str, str]:
    """What played each seat, as records name them: "human", "automa", or the AI's agent
    ("level3"),
    so that ``patchwork play --load`` resumes against the same opponent."""
    kinds = tuple(d.kind(s) if d.kind(s) != "ai" else f"level{d.ai_level}" for s in (0, 1))
    return kinds[0], kinds[1]


def record(live: LiveGame, language: str | None = None) -> Record:
    """The game record (docs/notation.md) with its seats and ``language`` (the reader's,
    for the terminal app to resume in); a game ended by resignation, time or a claim
    carries that ending, an unfinished one no result. Read it under the game's lock."""
    d = live.data
    termination = d.termination if d.termination not in (None, "finished") else None
    return Record.from_game(
        live.game,
        players=(d.seat0_name, d.seat1_name),
        seats=seat_kinds(d),
        language=language,
        event=f"patchwork-game {d.mode} game {d.id}",
        date=d.created_at.date().isoformat(),
        termination=termination,
        winner=d.winner if termination else None,
    )


def served_record(live: LiveGame, language: str | None = None) -> Record:
    """The record as the record routes serve it: a solo game's only once it is over, for
    its setup holds the seed of Automa's deck, which tells the deck's order (D6)."""
    if live.data.solo is not None and live.data.status != "finished":
        raise ServerError(
            "not_allowed",
            N_("a solo game's record is given once it is over: it would tell Automa's deck"),
        )
    return record(live, language)


def frame(ply: int, seat: int | None, move: Move | None, state: State) -> ReplayFrame:
    """One position of a replay: the move that led to it and what the engine says of it."""
    return ReplayFrame(
        ply=ply,
        seat=seat,
        move=None if move is None else str(move),
        squares=[] if move is None else move_squares(move),
        position=public_text(state),
        automa=automa_view(state),
        to_move=state.current_player,
        on_top=state.on_top,
        players=players_view(state),
        circle=list(state.circle),
        bonus_owner=state.bonus_owner,
        special_spaces_left=list(state.special_spaces_left),
        scores=list(state.scores()),
    )


def replay(live: LiveGame) -> Replay:
    """Every position of the game, from the start (read under the game's lock: the stored
    moves, not one on its way to the database)."""
    d = live.data
    states = live.game.states
    frames = [frame(0, None, None, states[0])]
    for i, (move, seat) in enumerate(zip(live.game.moves, live.movers, strict=True)):
        frames.append(frame(i + 1, seat, move, states[i + 1]))
    return Replay(
        game_id=d.id,
        players=[d.seat0_name, d.seat1_name],
        seats=seats_view(d),
        result=result_view(d),
        frames=frames,
    )


def summary(d: GameData) -> GameSummary:
    return GameSummary(
        id=d.id,
        mode=d.mode,
        status=d.status,
        created_at=d.created_at.isoformat(),
        updated_at=d.updated_at.isoformat(),
        players=[d.seat0_name, d.seat1_name],
        result=result_view(d),
        rated=d.rated,
        clock=None if d.clock is None else d.clock["kind"],
    )


def my_summary(live: LiveGame, user_id: str) -> GameSummary:
    """A game in an account's list: which seat is theirs, whose turn it is, how far it got."""
    d = live.data
    seat = next((s for s in (0, 1) if d.user(s) == user_id), None)
    return summary(d).model_copy(
        update={
            "seat": seat,
            "to_move": live.game.state.current_player if d.status == "active" else None,
            "moves": len(live.game.moves),
        }
    )
