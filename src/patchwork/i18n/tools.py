"""The translators' tools: extract, update, compile and check the catalogs (needs Babel, a
development dependency: ``pip install -e '.[dev]'``).

    python -m patchwork.i18n.tools extract   # source -> locale/patchwork.pot
    python -m patchwork.i18n.tools update    # patchwork.pot -> each locale/<lang>/.../*.po
    python -m patchwork.i18n.tools compile   # each .po -> its .mo (what gettext reads)
    python -m patchwork.i18n.tools check     # POT, .po and .mo all up to date and complete
    python -m patchwork.i18n.tools all       # extract, update, compile, check
    python -m patchwork.i18n.tools init xx   # start a catalog for a new language xx

They run ``pybabel`` with the project's settings (``babel.cfg`` at the repository root);
docs/translating.md shows the same steps as plain ``pybabel`` commands.
"""

from __future__ import annotations

import contextlib
import io
import re
import string
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from . import DOMAIN, LOCALE_DIR, SOURCE_LANGUAGE

PACKAGE_DIR = LOCALE_DIR.parent.parent  # src/patchwork
ROOT = PACKAGE_DIR.parent.parent  # the repository
MAPPING = ROOT / "babel.cfg"
POT = LOCALE_DIR / f"{DOMAIN}.pot"
PROJECT = "patchwork-game"
COMMENT_TAG = "TRANSLATORS:"
PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)(?:[!:][^{}]*)?\}")
PRINTF = re.compile(r"%(?:\([A-Za-z_]+\))?[srd]")


def _pybabel(*args: str) -> None:
    from babel.messages.frontend import CommandLineInterface

    code = CommandLineInterface().run(["pybabel", "-q", *args])  # type: ignore[no-untyped-call]
    if code:
        raise SystemExit(code)


def languages() -> list[str]:
    """The languages with a ``.po`` catalog."""
    return sorted(p.parent.parent.name for p in LOCALE_DIR.glob(f"*/LC_MESSAGES/{DOMAIN}.po"))


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def extract(output: Path = POT) -> Path:
    """Every marked text of the source (Python and the web client's JavaScript) -> ``output``."""
    output = output.resolve()
    with contextlib.chdir(ROOT):  # locations relative to the repository: src/patchwork/...
        _extract(output)
    return output


def _extract(output: Path) -> None:
    _pybabel(
        "extract",
        "-F",
        str(MAPPING),
        "-o",
        str(output),
        "-c",
        COMMENT_TAG,
        "--add-location=file",
        "--sort-by-file",
        "--no-wrap",
        f"--project={PROJECT}",
        "--copyright-holder=the patchwork-game authors",
        str(PACKAGE_DIR.relative_to(ROOT)),
    )


def update() -> None:
    """Bring every ``.po`` catalog in line with the POT (new texts appear untranslated)."""
    for lang in languages():
        _pybabel(
            "update", "-i", str(POT), "-o", str(po_path(lang)), "-l", lang, "--no-wrap",
            "--ignore-obsolete",
        )  # fmt: skip


def compile_all() -> None:
    """Compile each ``.po`` into its ``.mo``."""
    for lang in languages():
        _pybabel("compile", "-i", str(po_path(lang)), "-o", str(po_path(lang).with_suffix(".mo")))


def init(lang: str) -> Path:
    """Start the catalog of a new language from the POT."""
    _pybabel("init", "-i", str(POT), "-d", str(LOCALE_DIR), "-D", DOMAIN, "-l", lang)
    return po_path(lang)


def read_catalog(path: Path) -> Any:
    from babel.messages.pofile import read_po

    with path.open("rb") as f:
        return read_po(f)


def msgids(catalog: Iterable[Any]) -> set[str | tuple[str, ...]]:
    """The ids of a catalog's messages (with context), header left out."""
    return {
        (m.context or "", *m.id) if isinstance(m.id, tuple) else (m.context or "", m.id)
        for m in catalog
        if m.id
    }


def placeholders(text: str) -> set[str]:
    """The ``{name}`` fields of a text (``{{`` and ``}}`` are literal braces), and the
    ``%(name)s`` / ``%s`` ones of argparse's texts (``i18n/commandline.py``)."""
    printf = set(PRINTF.findall(text))
    try:
        fields = {field for _lit, field, _spec, _conv in string.Formatter().parse(text) if field}
    except ValueError:  # not a valid format string: count what looks like fields
        fields = set(PLACEHOLDER.findall(text))
    return fields | printf


def _translated(m: Any) -> bool:
    return all(m.string) if isinstance(m.string, tuple | list) else bool(m.string)


def _entry(m: Any) -> tuple[Any, ...]:
    string = tuple(m.string) if isinstance(m.string, tuple | list) else m.string
    ids = tuple(m.id) if isinstance(m.id, tuple | list) else m.id
    return (m.context, ids, string)


def problems(lang: str) -> list[str]:
    """What is wrong with a catalog: untranslated, fuzzy, placeholders that differ from the
    source (each plural form), missing plural forms, a stale ``.mo``."""
    from babel.messages.mofile import read_mo

    found: list[str] = []
    catalog = read_catalog(po_path(lang))
    nplurals = catalog.num_plurals
    for m in catalog:
        if not m.id:
            continue
        if m.fuzzy:
            found.append(f"{lang}: fuzzy: {m.id!r}")
        ids = m.id if isinstance(m.id, tuple) else (m.id,)
        strings = m.string if isinstance(m.string, tuple) else (m.string,)
        if isinstance(m.id, tuple) and len(strings) != nplurals:
            found.append(f"{lang}: {len(strings)} plural forms, not {nplurals}: {m.id!r}")
        if not all(strings):
            found.append(f"{lang}: untranslated: {m.id!r}")
            continue
        fields = [placeholders(i) for i in ids]
        allowed = set().union(*fields)
        for i, s in enumerate(strings):
            # A plural form other than the last may leave out a field that the English
            # singular leaves out too ("a special patch"), but none may add one; the last
            # form (the one used for most counts) has every field of the English plural.
            got = placeholders(s)
            if len(fields) == 1:
                required = fields[0]
            elif i == len(strings) - 1:
                required = fields[1]
            else:
                required = fields[0] & fields[1]
            if not required <= got <= allowed:
                found.append(f"{lang}: placeholders {sorted(got)} in {s!r} for {m.id!r}")
    mo = po_path(lang).with_suffix(".mo")
    if not mo.is_file():
        found.append(f"{lang}: no compiled catalog {mo.name}")
    else:
        with mo.open("rb") as f:
            compiled = read_mo(f)
        expected_mo = {_entry(m) for m in catalog if m.id and not m.fuzzy and _translated(m)}
        got_mo = {_entry(m) for m in compiled if m.id and _translated(m)}
        # Babel writes an untranslated plural entry with the source texts: only translated
        # entries are compared, and the .mo may hold no message the .po does not.
        po_ids = {_entry(m)[:2] for m in catalog if m.id}
        if not expected_mo <= got_mo or not {e[:2] for e in got_mo} <= po_ids:
            found.append(f"{lang}: {mo.name} is not compiled from the current {po_path(lang).name}")
    return found


def stale_pot() -> tuple[set[Any], set[Any]]:
    """(texts in the source missing from the POT, texts in the POT gone from the source)."""
    with tempfile.TemporaryDirectory() as tmp:
        fresh = read_catalog(extract(Path(tmp) / "fresh.pot"))
    committed = read_catalog(POT)
    return msgids(fresh) - msgids(committed), msgids(committed) - msgids(fresh)


def check() -> list[str]:
    """Everything :func:`problems` finds in every catalog, and a stale POT."""
    missing, gone = stale_pot()
    found = [f"POT: not extracted yet: {m!r}" for m in sorted(missing, key=str)]
    found += [f"POT: no longer in the source: {m!r}" for m in sorted(gone, key=str)]
    pot_ids = msgids(read_catalog(POT))
    for lang in languages():
        found += problems(lang)
        ids = msgids(read_catalog(po_path(lang)))
        if ids != pot_ids:
            found.append(f"{lang}: the .po does not match the POT (run update)")
    return found


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    command = args[0] if args else "help"
    if command == "extract":
        extract()
    elif command == "update":
        update()
    elif command == "compile":
        compile_all()
    elif command == "init" and len(args) == 2 and args[1] != SOURCE_LANGUAGE:
        print(init(args[1]))
    elif command in ("check", "all"):
        if command == "all":
            extract()
            update()
            compile_all()
        found = check()
        out = io.StringIO()
        for line in found:
            print(line, file=out)
        print(out.getvalue(), end="", file=sys.stderr)
        print(f"{len(found)} problem(s) in {len(languages())} catalogs")
        return 1 if found else 0
    else:
        print(__doc__)
        return 0 if command in ("help", "-h", "--help") else 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
