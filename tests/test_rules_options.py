"""The rules options every game-making command shares: spelled once, read back as ``Rules``."""

from __future__ import annotations

import argparse
from collections.abc import Callable

import pytest

import patchwork as pw
from patchwork.options import add_rules_options, rules_from_args


def _parser(translate: Callable[[str], str] | None = None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="test")
    if translate is None:
        add_rules_options(parser)
    else:
        add_rules_options(parser, translate=translate)
    return parser


def test_no_options_are_the_default_rules() -> None:
    assert rules_from_args(_parser().parse_args([])) == pw.Rules()


def test_every_option_reaches_the_rules() -> None:
    args = _parser().parse_args(["--edition", "original", "--no-rotation", "--no-flip"])
    assert rules_from_args(args) == pw.Rules("original", rotation=False, flip=False)
    args = _parser().parse_args(["--no-flip"])
    assert rules_from_args(args) == pw.Rules(flip=False)


def test_an_unknown_edition_is_refused_with_the_choices(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit):
        _parser().parse_args(["--edition", "third"])
    assert "revised" in capsys.readouterr().err


def test_help_is_english_unless_the_command_translates_it() -> None:
    assert "patches may not be turned" in _parser().format_help()
    shouted = _parser(str.upper).format_help()
    assert "PATCHES MAY NOT BE TURNED" in shouted and "PATCHES MAY NOT BE MIRRORED" in shouted
