"""What clients see: the game as JSON-ready data, every rule-bound fact taken from the engine.

Nothing here decides a rule: legal moves, the squares each covers, scores, whose turn it is,
pending special patches and the rest are the engine's answers, rendered.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from ..ai.levels import DESCRIPTIONS
from ..engine import PATCHES, Advance, Buy, Game, Move, State, square_name
from ..engine import data as pwdata
from ..engine.moves import move_from_code
from .models import GameData


@cache
def _move_info(code: int) -> tuple[str, tuple[str, ...]]:
    """A legal-move code's notation and the squares it covers (computed once per code)."""
    move = move_from_code(code)
    return str(move), tuple(square_name(r, c) for r, c in sorted(move.squares))


@lru_cache(maxsize=20_000)
def _squares(move: Move) -> tuple[str, ...]:
    return tuple(square_name(r, c) for r, c in sorted(move.squares))


def move_squares(move: Move) -> list[str]:
    """The quilt squares a move covers, as square names (empty for an advance)."""
    return list(_squares(move))


def patch_view(patch_id: int) -> dict[str, Any]:
    p = PATCHES[patch_id]
    return {
        "patch": p.id,
        "buttons": p.buttons,
        "time": p.time,
        "income": p.income,
        "shape": list(p.shape),
    }


def advance_view(state: State) -> dict[str, Any] | None:
    """What advancing (action A) would give the player to move, by applying it in the engine:
    the buttons gained (spaces moved plus any income marks crossed), the space it reaches and
    the special patches it picks up. ``None`` when advancing is not a legal move now."""
    me = state.current_player
    if me is None or not state.is_legal(Advance()):
        return None
    after = state.apply(Advance())
    return {
        "buttons": after.players[me].buttons - state.players[me].buttons,
        "position": after.players[me].position,
        "specials": after.pending_specials if after.current_player == me else 0,
    }


def score_parts_view(state: State) -> list[dict[str, int]]:
    """Each score taken apart as the engine counts it: buttons + bonus - penalty."""
    parts = []
    for p in (0, 1):
        buttons, bonus, empty = state.score_parts(p)
        penalty = buttons + bonus - state.scores()[p]
        parts.append(
            {"buttons": buttons, "bonus": bonus, "empty_squares": empty, "penalty": penalty}
        )
    return parts


def state_view(state: State) -> dict[str, Any]:
    """The position: players, circle, offer, legal moves and their squares."""
    terminal = state.is_terminal()
    codes = [] if terminal else [int(c) for c in state.legal_move_codes()]
    legal = [_move_info(c) for c in codes]
    buyable = {m.patch_id for c in codes if isinstance(m := move_from_code(c), Buy)}
    scores = state.scores()
    players = []
    for p, pl in enumerate(state.players):
        players.append(
            {
                "buttons": pl.buttons,
                "position": pl.position,
                "income": pl.income,
                "quilt": pl.quilt.rows(),
                "empty_squares": pl.quilt.empty_squares,
                "score": scores[p],
            }
        )
    return {
        "position": state.to_text(),
        "to_move": state.current_player,
        "players": players,
        "circle": list(state.circle),
        "offer": [{**patch_view(i), "buyable": i in buyable} for i in state.offered],
        "bonus_owner": state.bonus_owner,
        "pending_specials": state.pending_specials,
        "special_spaces_left": list(state.special_spaces_left),
        "first_to_finish": state.first_to_finish,
        "legal_moves": [text for text, _ in legal],
        "placements": {text: list(squares) for text, squares in legal if squares},
        "scores": list(scores),
        "score_parts": score_parts_view(state),
        "advance": advance_view(state),
        "winner": state.winner(),
    }


def clock_view(data: GameData, to_move: int | None) -> dict[str, Any] | None:
    """The clock as stored: a client counts the running seat down from ``turn_started``."""
    if data.clock is None:
        return None
    remaining = data.remaining() or [0, 0]
    running = to_move if data.turn_started is not None and data.status == "active" else None
    flag_at = None
    if running is not None and data.turn_started is not None:
        flag_at = data.turn_started + remaining[running] / 1000.0
    return {
        "kind": data.clock["kind"],
        "initial_ms": data.clock.get("initial_ms"),
        "increment_ms": data.clock.get("increment_ms"),
        "days": data.clock.get("days"),
        "remaining_ms": remaining,
        "running": running,
        "turn_started": data.turn_started,
        "flag_at": flag_at,
    }


def game_view(data: GameData, game: Game, movers: list[int]) -> dict[str, Any]:
    """The whole game as clients see it (the same for players and spectators)."""
    state = game.state
    moves = game.moves
    clock = clock_view(data, state.current_player)
    result = None
    if data.termination is not None:
        result = {"termination": data.termination, "winner": data.winner, "scores": data.scores}
    human_seats = [s for s in (0, 1) if data.kind(s) == "human"]
    return {
        "id": data.id,
        "mode": data.mode,
        "status": data.status,
        "version": data.version,
        "created_at": data.created_at.isoformat(),
        "updated_at": data.updated_at.isoformat(),
        "rules": {"edition": data.edition, "rotation": data.rotation, "flip": data.flip},
        "first_player": data.first_player,
        "seats": [
            {
                "seat": s,
                "kind": data.kind(s),
                "name": data.name(s),
                "level": data.ai_level if data.kind(s) == "ai" else None,
                "joined": data.token_hash(s) is not None or data.kind(s) == "ai",
            }
            for s in (0, 1)
        ],
        "clock": clock,
        **state_view(state),
        "history": [
            {"ply": i + 1, "seat": movers[i], "move": str(m), "squares": move_squares(m)}
            for i, m in enumerate(moves)
        ],
        "result": result,
        "undo_available": (
            data.mode in ("ai", "local")
            and data.status == "active"
            and any(movers[i] in human_seats for i in range(len(moves)))
        ),
        "rematch": {"offered_by": data.rematch_offer, "game_id": data.rematch_id},
        "parent_id": data.parent_id,
    }


def meta_view() -> dict[str, Any]:
    """The fixed facts clients draw with: every patch and the time board of each edition."""
    return {
        "patches": [patch_view(p.id) for p in PATCHES],
        "board_size": pwdata.BOARD_SIZE,
        "final_space": pwdata.FINAL_SPACE,
        "income_spaces": list(pwdata.INCOME_SPACES),
        "special_spaces": {e: list(s) for e, s in pwdata.SPECIAL_SPACES.items()},
        "bonus_size": pwdata.BONUS_SIZE,
        "bonus_points": pwdata.BONUS_POINTS,
        "levels": {str(n): text for n, text in DESCRIPTIONS.items()},
    }
