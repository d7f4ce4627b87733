"""The kernels' state vector: where each field lives and how a quilt board fills two words.

This is the one place the layout is written; the kernels, ``State`` and the AI and
environment layers all index the vector by these names (plain module-level integers, so
compiled code reads them as constants).

State vector (int64), ``p`` a player (0 or 1):
    QUILT_LO+p     word 0 of p's quilt board (rows 0 to SPLIT_ROW-1)
    QUILT_HI+p     word 1 of p's quilt board (the rows below)
    BUTTONS+p, POSITION+p, INCOME+p
    TOP            player whose time token is on top when both share a space
    BONUS          owner of the 7x7 bonus tile, -1 while unclaimed
    FIRST          first player to reach the final space, -1 before
    PENDING        special patches the PENDING_PLAYER must place before anything else
    EDITION, MODE  rules: special-patch spaces in use, allowed orientations
    SPECIALS       bit i set while the special patch on the edition's i-th space lies there
    CIRCLE_LEN     patches left in the circle, listed from CIRCLE clockwise from the first
                   one offered (so the neutral token always stands just before CIRCLE)

A quilt board is 81 bits split on a row boundary so that both words stay positive in a signed
int64. Square ``sq = 9*row + col`` is bit ``sq`` of word 0 when ``sq < SPLIT``, otherwise bit
``sq - SPLIT`` of word 1; ``quilt_bits`` joins the two words into one integer with every square
at bit ``sq``.
"""

from __future__ import annotations

from . import data

SPLIT_ROW = 5  # rows 0-4 in word 0, rows 5-8 in word 1
SPLIT = data.BOARD_SIZE * SPLIT_ROW  # the squares (bits) of word 0

QUILT_LO = 0
QUILT_HI = 2
BUTTONS = 4
POSITION = 6
INCOME = 8
TOP = 10
BONUS = 11
FIRST = 12
PENDING = 13
PENDING_PLAYER = 14
EDITION = 15
MODE = 16
SPECIALS = 17
CIRCLE_LEN = 18
CIRCLE = 19
STATE_SIZE = CIRCLE + data.NUM_PATCHES


def quilt_bits(lo: int, hi: int) -> int:
    """A quilt board's two words as one integer: square ``9*row + col`` at that bit."""
    return lo | hi << SPLIT
