"""The app's colours: the 16 basic terminal colours, written as the very RGB values a
16-colour terminal is matched against.

A 16-colour terminal gets each of them back exactly, so colours that differ on screen
still differ there (named ANSI colours are first mapped through the theme's palette, and
two of them can then fall onto one basic colour). Nothing relies on colour alone: glyphs
tell the ghost, special patches and empty squares apart.
"""

from __future__ import annotations

BLACK = "#000000"
RED = "#aa0000"
GREEN = "#00aa00"
BROWN = "#aa5500"
MAGENTA = "#aa00aa"
CYAN = "#00aaaa"
GREY = "#aaaaaa"
BRIGHT_RED = "#ff5555"
BRIGHT_GREEN = "#55ff55"
YELLOW = "#ffff55"
BRIGHT_BLUE = "#5555ff"
BRIGHT_MAGENTA = "#ff55ff"
BRIGHT_CYAN = "#55ffff"
WHITE = "#ffffff"

# Patches on a quilt: neighbours always get different ones (see quilt.colour_patches).
PATCHES = (
    BRIGHT_RED,
    BRIGHT_GREEN,
    YELLOW,
    BRIGHT_BLUE,
    BRIGHT_MAGENTA,
    BRIGHT_CYAN,
    BROWN,
    CYAN,
    MAGENTA,
    GREEN,
    RED,
)
PLAYERS = (BRIGHT_CYAN, BRIGHT_MAGENTA)
BAD = BRIGHT_RED  # refusals, what does not fit
GOOD = BRIGHT_GREEN  # what fits, what worked
NOTE = YELLOW  # thinking, paused, income
HINT = BRIGHT_CYAN
