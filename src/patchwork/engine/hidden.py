"""What the rules settle about the parts of a position that a player's view leaves out.

A CodinGame bot, for one, sees both quilts, the buttons, the incomes and where the time
tokens stand, and knows that it is to move, but not whose token is on top or who reached the
final space first. Where the rules leave one possibility these functions give it, and None
where they leave a choice (the caller then takes a reading of its own).

Both lean on one consequence of the rules: a player who has just taken a special patch stands
ahead of the other token (the other one, had it reached that space, would have taken the
patch first), so a player with a special patch to place never shares a space with the other.
"""

from __future__ import annotations

from . import data


def on_top(positions: tuple[int, int], to_move: int) -> int | None:
    """Whose time token is on top. On a shared space it is the player to move (of two tokens
    on one space the one on top moves first). Apart, the rules do not say, nor does it matter:
    when the tokens meet again, the one arriving goes on top."""
    return to_move if positions[0] == positions[1] else None


def first_to_finish(positions: tuple[int, int], to_move: int | None) -> int | None:
    """Who reached the final space first: the one player there, None while nobody is.

    With both there the game is over (None); a position with both there and one of them to
    move cannot come from play, and reads as the other having finished first.
    """
    there = [p for p in (0, 1) if positions[p] == data.FINAL_SPACE]
    if len(there) == 1:
        return there[0]
    if len(there) == 2 and to_move is not None:
        return 1 - to_move
    return None
