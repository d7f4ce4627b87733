"""The languages, for the web client: the catalogs (exported from the compiled ``.mo``
files, the same ones the terminal and the server use) and the "How to play" pages.

    GET /api/i18n          {"languages": [{"code", "name", "dir"}, ...]}
    GET /api/i18n/{lang}   {"language", "dir", "plural", "messages", "plurals", ...}
    GET /howto/{lang}      the rules for players, as a page in that language
"""

from __future__ import annotations

import html
import re
from functools import lru_cache

from fastapi import APIRouter, Response
from fastapi.responses import HTMLResponse, JSONResponse
from markdown_it import MarkdownIt

from ... import i18n
from ...i18n import N_, catalogs
from ..common.errors import ServerError

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


# The pictures the page's script draws (web/js/howto.js), where the Markdown marks them.
_PICTURE = re.compile(r"<p>\[\[picture:(\w+)\]\]</p>")


@lru_cache(maxsize=8)
def howto_page(lang: str) -> str | None:
    """The "How to play" page of a language as an HTML document in the table's own style
    (its stylesheet, header and cards), with figures that ``howto.js`` draws from
    ``/api/meta`` as the table draws them: patches, the time board, a placement."""
    text = i18n.howto_markdown(lang, pictures=True)
    if text is None:
        return None
    md = MarkdownIt("commonmark", {"html": False}).enable("table")
    body = _PICTURE.sub(
        lambda m: f'<figure class="howto-picture" data-picture="{m.group(1)}"></figure>',
        md.render(text),
    )
    t = i18n.translator(lang)
    title = t.gettext("How to play Patchwork")
    back = t.gettext("Back to the game")
    brand = t.gettext("Patchwork")
    arrow = "→" if i18n.direction(lang) == "rtl" else "←"
    # (In Persian "·" reads as the digit zero: its own comma there.)
    others = ("، " if i18n.direction(lang) == "rtl" else " · ").join(
        f'<a href="/howto/{code}" hreflang="{code}" lang="{code}">{html.escape(name)}</a>'
        for code, name in ((c, i18n.language_name(c)) for c in i18n.available_languages())
        if code != lang
    )
    return f"""<!doctype html>
<html lang="{lang}" dir="{i18n.direction(lang)}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>{html.escape(title)}</title>
<link rel="icon" href="/static/icon.svg" type="image/svg+xml">
<link rel="stylesheet" href="/static/css/app.css">
<script type="module" src="/static/js/howto.js"></script>
</head>
<body class="howto-page">
<header class="site-head">
<a href="/" rel="home" class="brand"><span class="brand-mark" aria-hidden="true"></span>
<span>{html.escape(brand)}</span></a>
<nav class="head-links howto-langs">{others}</nav>
</header>
<main class="howto card">
<p class="howto-back"><a href="/">{arrow} {html.escape(back)}</a></p>
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
