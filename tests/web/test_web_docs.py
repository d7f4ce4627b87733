"""The API docs work on a machine without internet (issue 35): /docs loads Swagger UI from the
server itself and renders the server's own description; nothing is fetched from elsewhere."""

from __future__ import annotations

from urllib.parse import urlsplit

from playwright.sync_api import Page, Route

from conftest import shot
from server_fixtures import ServerProcess


def test_the_api_docs_need_nothing_from_outside(page: Page, web_server: ServerProcess) -> None:
    outside: list[str] = []

    def only_here(route: Route) -> None:
        if urlsplit(route.request.url).hostname not in ("127.0.0.1", "localhost"):
            outside.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.route("**/*", only_here)
    page.goto(f"{web_server.url}/docs")
    title = page.locator(".swagger-ui .info .title").first
    title.wait_for()
    assert "patchwork-game server" in title.inner_text()
    page.get_by_text("/api/games/{game_id}/moves").first.wait_for()
    shot(page, "api-docs", full_page=False)
    assert outside == []
