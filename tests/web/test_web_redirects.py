"""Where the sign-in page sends a person afterwards (``?next=``): always a page of this site,
however the address is dressed up (issue 35: "/\\host" and "/<tab>/host" name another host)."""

from __future__ import annotations

from urllib.parse import quote

import pytest
from playwright.sync_api import Page

from server_fixtures import ServerProcess


@pytest.mark.parametrize(
    ("given", "goes_to"),
    [
        ("/lobby", "/lobby"),
        ("/play/abc?x=1#y", "/play/abc?x=1#y"),
        ("/\\example.invalid", "/here"),
        ("/\t/example.invalid", "/here"),
        ("/\n/example.invalid", "/here"),
        ("//example.invalid", "/here"),
        ("https://example.invalid/", "/here"),
        ("javascript:alert(1)", "/here"),
        ("/signin", "/here"),
        ("", "/here"),
    ],
)
def test_the_next_page_is_always_on_this_site(
    page: Page, web_server: ServerProcess, given: str, goes_to: str
) -> None:
    page.goto(f"{web_server.url}/signin?next={quote(given, safe='')}")
    got = page.evaluate('import("/static/js/account.js").then((m) => m.nextPath("/here"))')
    assert got == goes_to
