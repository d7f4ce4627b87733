"""The browser client: the single page at ``/``, ``/play/{id}`` and the account, lobby and
player pages, and its static files.

The client is plain HTML, CSS and JavaScript modules in ``web/`` (no build step). Every page
URL answers the same ``index.html``; the scripts read the game id from the path and an
invitation from the fragment, which never reaches the server.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import APIRouter
from fastapi.responses import FileResponse
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import Scope

WEB = Path(__file__).parent.parent / "web"  # the client: server/web/

# The files carry no content hash in their names, so browsers revalidate them every time
# (a cheap 304 thanks to ETag / Last-Modified) and an upgraded server is seen at once.
CACHE = "no-cache"

router = APIRouter(include_in_schema=False)


class _Static(StaticFiles):
    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers["cache-control"] = CACHE
        response.headers["x-content-type-options"] = "nosniff"
        return response


def _index() -> FileResponse:
    return FileResponse(WEB / "index.html", headers={"cache-control": CACHE})


@router.get("/")
async def home() -> FileResponse:
    return _index()


@router.get("/play/{game_id}")
async def play(game_id: str) -> FileResponse:
    return _index()


# The pages of accounts, the lobby, ratings, the analysis board, the puzzles, the guided
# first game and the tournaments (docs/accounts.md, docs/web.md): the same page, which reads
# the path.
PAGES = ("/signin", "/signup", "/account", "/lobby", "/leaderboard", "/me/games", "/following")
for _path in (*PAGES, "/analysis", "/puzzles", "/learn", "/tournaments"):
    router.add_api_route(_path, _index, methods=["GET"])


@router.get("/players/{name}")
async def player(name: str) -> FileResponse:
    return _index()


@router.get("/tournaments/{tournament_id}")
async def tournament(tournament_id: str) -> FileResponse:
    return _index()


router.mount("/static", _Static(directory=WEB), name="static")
