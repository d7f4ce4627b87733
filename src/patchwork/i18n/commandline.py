"""The command line in the current language, argparse's own words included.

argparse writes a few texts of its own (``usage:``, ``options``, the help of ``-h``, its
errors) through gettext's default domain, where no catalog of ours is looked for: they are
marked here so that they are extracted into ours, and :func:`install` sends argparse's
lookups to the current language. :class:`HelpFormatter` measures the help's lines in terminal
cells, so that Chinese and Japanese (two cells a character) fit the terminal as well."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import Any

from rich.cells import cell_len

from . import LANGUAGES, N_, _, fmt, lang_option, ngettext, set_language
from .cells import wrap

# argparse's texts that a person meets (its errors for programmers are left in English).
WORDS = (
    N_("usage: "),
    N_("positional arguments"),
    N_("options"),
    N_("show this help message and exit"),
    N_("%(prog)s: error: %(message)s\n"),
    N_("argument %(argument_name)s: %(message)s"),
    N_("the following arguments are required: %s"),
    N_("unrecognized arguments: %s"),
    N_("invalid choice: %(value)r (choose from %(choices)s)"),
    N_("invalid %(type)s value: %(value)r"),
    N_("expected one argument"),
    N_("expected at most one argument"),
    N_("expected at least one argument"),
    N_("ambiguous option: %(option)s could match %(matches)s"),
    N_("not allowed with argument %s"),
    N_("one of the arguments %s is required"),
    N_("ignored explicit argument %r"),
    N_("can't open '%(filename)s': %(error)s"),
    N_("unknown parser %(parser_name)r (choices: %(choices)s)"),
)


def add_lang_option(
    parser: argparse.ArgumentParser,
    text: str = N_("language of the texts ({codes}; default: the system locale)"),
) -> None:
    """``--lang``, one of our languages (``parse`` reads it before the rest, so that the help
    and the errors are already in it); ``text`` its help, naming the codes."""
    parser.add_argument("--lang", metavar="LANG", help=fmt(_(text), codes=", ".join(LANGUAGES)))


def _plural_words(n: int) -> str:
    """argparse's one text with a plural (an option of several values: ``--agents P0 P1``),
    marked here for Babel; argparse itself looks it up."""
    return ngettext("expected %s argument", "expected %s arguments", n)


def install() -> None:
    """Make argparse speak the current language (it looks its words up when it writes them,
    and the group titles when a parser is made: call this before making one)."""
    argparse._ = _  # type: ignore[attr-defined]
    argparse.ngettext = ngettext  # type: ignore[attr-defined]


def parse(
    build_parser: Callable[[], argparse.ArgumentParser], argv: list[str] | None
) -> argparse.Namespace | int:
    """A command's options, read in the language its ``--lang`` (or the locale) asks for, so
    that ``--help`` and argparse's complaints are translated too; after ``--help`` or a bad
    option (argparse has printed why), the exit code instead."""
    args = sys.argv[1:] if argv is None else argv
    set_language(lang_option(args))
    try:
        return build_parser().parse_args(args)
    except SystemExit as e:
        return e.code if isinstance(e.code, int) else 2


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, its lines measured in terminal cells and broken as the language
    breaks them (Chinese and Japanese between characters), its usage lined up in cells."""

    def _format_usage(self, usage: Any, actions: Any, groups: Any, prefix: str | None) -> str:
        # argparse lines the usage up under its prefix by characters: laid out behind an ASCII
        # stand-in as wide as the prefix (使い方： takes eight cells), then given the prefix back.
        prefix = _("usage: ") if prefix is None else prefix
        stand_in = "u" * cell_len(prefix)
        text: str = super()._format_usage(usage, actions, groups, stand_in)
        return prefix + text.removeprefix(stand_in)

    def _split_lines(self, text: str, width: int) -> list[str]:
        return wrap(self._whitespace_matcher.sub(" ", text).strip(), width)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        text = self._whitespace_matcher.sub(" ", text).strip()
        return "\n".join(wrap(text, width, indent, indent))


class RawDescriptionHelpFormatter(HelpFormatter):
    """:class:`HelpFormatter` that leaves the description's own lines as they are written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        return "".join(indent + line for line in text.splitlines(keepends=True))
