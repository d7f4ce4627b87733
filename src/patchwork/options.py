"""Command-line options that several commands share: the rules (``--edition``,
``--no-rotation`` and ``--no-flip``), and the argument types for counts and seconds.

Every command that sets up games (``patchwork play``, ``patchwork tournament``) adds them with
:func:`add_rules_options` and reads them back with :func:`rules_from_args`, so they are
spelled, explained and turned into :class:`Rules` once. The help texts are English templates
marked with ``N_``; a command that speaks its reader's language passes its ``translate``.
"""

from __future__ import annotations

import argparse
import math
from collections.abc import Callable

from .engine import Rules
from .engine.data import EDITIONS
from .i18n import N_


def _english(text: str) -> str:
    return text


def add_rules_options(
    parser: argparse.ArgumentParser, translate: Callable[[str], str] = _english
) -> None:
    """Add ``--edition``, ``--no-rotation`` and ``--no-flip`` to ``parser``."""
    parser.add_argument(
        "--edition",
        choices=EDITIONS,
        default=Rules().edition,
        help=translate(N_("time board printing: where the special patches lie (default revised)")),
    )
    parser.add_argument(
        "--no-rotation", action="store_true", help=translate(N_("patches may not be turned"))
    )
    parser.add_argument(
        "--no-flip", action="store_true", help=translate(N_("patches may not be mirrored"))
    )


def rules_from_args(args: argparse.Namespace) -> Rules:
    """The :class:`Rules` that the options of :func:`add_rules_options` ask for."""
    return Rules(args.edition, rotation=not args.no_rotation, flip=not args.no_flip)


def _whole(text: str, least: int) -> int:
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a whole number") from None
    if value < least:
        raise argparse.ArgumentTypeError(f"must be at least {least}, not {value}")
    return value


def positive_int(text: str) -> int:
    """An argparse type: a whole number of at least 1."""
    return _whole(text, 1)


def whole_int(text: str) -> int:
    """An argparse type: a whole number of at least 0."""
    return _whole(text, 0)


def positive_seconds(text: str) -> float:
    """An argparse type: a finite positive number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{text!r} is not a number") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"must be a positive number of seconds, not {text}")
    return value
