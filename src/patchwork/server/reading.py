"""Reading finished (or running) games: records, replays, event logs and lists."""

from __future__ import annotations

from typing import Any

from ..engine import Move, Record, State
from .live import LiveGame
from .models import GameData
from .views import move_squares


def result_view(d: GameData) -> dict[str, Any] | None:
    if d.termination is None:
        return None
    return {"termination": d.termination, "winner": d.winner, "scores": d.scores}


def record(live: LiveGame) -> Record:
    """The game record (docs/notation.md); a game ended by resignation, time or a claim
    carries that ending, an unfinished one no result."""
    d = live.data
    termination = d.termination if d.termination not in (None, "finished") else None
    return Record.from_game(
        live.game,
        players=(d.seat0_name, d.seat1_name),
        event=f"patchwork-game {d.mode} game {d.id}",
        date=d.created_at.date().isoformat(),
        termination=termination,
        winner=d.winner if termination else None,
    )


def frame(ply: int, seat: int | None, move: Move | None, state: State) -> dict[str, Any]:
    """One position of a replay: the move that led to it and what the engine says of it."""
    scores = state.scores()
    return {
        "ply": ply,
        "seat": seat,
        "move": None if move is None else str(move),
        "squares": [] if move is None else move_squares(move),
        "position": state.to_text(),
        "to_move": state.current_player,
        "players": [
            {
                "buttons": p.buttons,
                "position": p.position,
                "income": p.income,
                "quilt": p.quilt.rows(),
                "empty_squares": p.quilt.empty_squares,
                "score": scores[i],
            }
            for i, p in enumerate(state.players)
        ],
        "circle": list(state.circle),
        "bonus_owner": state.bonus_owner,
        "scores": list(scores),
    }


def replay(live: LiveGame) -> dict[str, Any]:
    d = live.data
    state = live.game.start
    frames = [frame(0, None, None, state)]
    for i, move in enumerate(live.game.moves):
        state = state.apply(move)
        frames.append(frame(i + 1, live.movers[i], move, state))
    return {
        "game_id": d.id,
        "players": [d.seat0_name, d.seat1_name],
        "result": result_view(d),
        "frames": frames,
    }


def summary(d: GameData) -> dict[str, Any]:
    return {
        "id": d.id,
        "mode": d.mode,
        "status": d.status,
        "created_at": d.created_at.isoformat(),
        "updated_at": d.updated_at.isoformat(),
        "players": [d.seat0_name, d.seat1_name],
        "result": result_view(d),
    }
