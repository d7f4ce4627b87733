"""The languages, for the web client: the catalogs (exported from the compiled ``.mo``
files, the same ones the terminal and the server use) and the "How to play" pages.

    GET /api/i18n          {"languages": [{"code", "name", "dir"}, ...]}
    GET /api/i18n/{lang}   {"language", "dir", "plural", "messages", "plurals", ...}
    GET /howto/{lang}      the rules for players, as a page in that language
"""

from __future__ import annotations

import html
from functools import lru_cache

from fastapi import APIRouter, Response
from fastapi.responses import HTMLResponse, JSONResponse
from markdown_it import MarkdownIt

from .. import i18n
from ..i18n import N_, catalogs
from .errors import ServerError

router = APIRouter(tags=["languages"])
CACHE = "public, max-age=300"


def _unknown(lang: str) -> ServerError:
    return ServerError("not_found", N_("there is no language {lang!r}"), {"lang": lang})


@router.get("/api/i18n")
async def languages() -> JSONResponse:
    """The languages the interface is translated into (English first), each named in itself,
    with its text direction."""
    return JSONResponse({"languages": catalogs.languages()}, headers={"cache-control": CACHE})


@router.get("/api/i18n/{lang}")
async def catalog(lang: str) -> JSONResponse:
    """A language's catalog: every translated message, the plural forms of each counted
    message, and the catalog's plural rule (a C expression in ``n`` giving the form)."""
    code = i18n.supported(lang)
    exported = None if code is None else catalogs.export(code)
    if exported is None:
        raise _unknown(lang)
    return JSONResponse(exported, headers={"cache-control": CACHE})


@lru_cache(maxsize=8)
def howto_page(lang: str) -> str | None:
    """The "How to play" page of a language as a standalone HTML document."""
    text = i18n.howto_markdown(lang)
    if text is None:
        return None
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = md.render(text)
    t = i18n.translator(lang)
    title = t.gettext("How to play Patchwork")
    back = t.gettext("Back to the game")
    others = " · ".join(
        f'<a href="/howto/{code}" hreflang="{code}" lang="{code}">{html.escape(name)}</a>'
        for code, name in ((c, i18n.language_name(c)) for c in i18n.available_languages())
        if code != lang
    )
    return f"""<!doctype html>
<html lang="{lang}" dir="{i18n.direction(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{html.escape(title)}</title>
<style>
body {{ max-width: 46rem; margin: 2rem auto; padding: 0 1rem; line-height: 1.6;
  font-family: system-ui, "Vazirmatn", "Noto Sans Arabic", sans-serif; color: #222;
  background: #fdfbf7; }}
nav {{ display: flex; justify-content: space-between; gap: 1rem; flex-wrap: wrap;
  font-size: .95rem; }}
h1 {{ margin-top: 1.5rem; }}
code, pre {{ direction: ltr; unicode-bidi: isolate; font-family: ui-monospace, monospace;
  background: #f1ece2; padding: 0 .2em; border-radius: 3px; }}
pre {{ padding: .5em; overflow-x: auto; text-align: left; }}
table {{ border-collapse: collapse; }}
th, td {{ border: 1px solid #ccc; padding: .2em .6em; }}
</style>
</head>
<body>
<nav><a href="/" rel="home">← {html.escape(back)}</a><span>{others}</span></nav>
<main>
{body}</main>
</body>
</html>
"""


@router.get("/howto/{lang}", response_class=HTMLResponse)
async def howto(lang: str) -> Response:
    """The rules for players in ``lang`` (written for this project from its RULES.md)."""
    code = i18n.supported(lang, i18n.LANGUAGES)
    page = None if code is None else howto_page(code)
    if code is None or page is None:
        raise _unknown(lang)
    return HTMLResponse(page, headers={"cache-control": CACHE, "content-language": code})
