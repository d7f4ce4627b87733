"""``patchwork puzzles generate``, able to read a server's database (``--from-db URL``).

The generator (``patchwork.puzzles.generate``) sits below the server and may not import it,
so the command runs from here and hands it ``finished_games``: the finished games of a
database, read only through the storage layer (``Store(read_only=True)``), each rebuilt as the
games domain rebuilds a game (``LiveGame.build``), with the plies its stored review classes
a mistake or a blunder (the review's JSON, ``ai.review.PlyReview.to_dict``'s form). Solo
games are left out: their puzzles would need Automa's deck. Nothing is written.
"""

from __future__ import annotations

from sqlalchemy.engine import make_url
from sqlalchemy.exc import SQLAlchemyError

from ...engine import PatchworkError
from ...puzzles.generate import Finished
from ...puzzles.generate import main as generate
from ..games.live import LiveGame
from ..storage.store import Store

FLAWS = frozenset({"mistake", "blunder"})  # the review's classes that make a candidate


def finished_games(url: str) -> list[Finished]:
    """The finished games of the database at ``url``, oldest first; PatchworkError (one
    line) if it cannot be read."""
    try:
        store = Store(url, read_only=True)
    except (SQLAlchemyError, ImportError, ValueError) as e:
        raise PatchworkError(f"cannot read the database {_shown(url)}: {_reason(e)}") from None
    try:
        found = []
        for game_id in store.finished():
            loaded = store.load(game_id)
            if loaded is None or loaded[0].solo is not None:
                continue
            live = LiveGame.build(*loaded)
            review = store.load_review(game_id)
            flawed = None if review is None else _flawed(review.data)
            found.append(
                Finished(
                    name=f"game {game_id}",
                    start=live.game.start.to_text(),
                    moves=tuple(map(str, live.game.moves)),
                    flawed=flawed,
                )
            )
        return found
    except (SQLAlchemyError, ValueError, PatchworkError) as e:
        raise PatchworkError(f"cannot read the database {_shown(url)}: {_reason(e)}") from None
    finally:
        store.close()


def _flawed(review: dict[str, object]) -> frozenset[int]:
    plies = review.get("plies")
    return frozenset(
        int(p["ply"])
        for p in (plies if isinstance(plies, list) else [])
        if isinstance(p, dict) and p.get("class") in FLAWS
    )


def _shown(url: str) -> str:
    """The URL as it may be printed: without its password."""
    try:
        return make_url(url).render_as_string(hide_password=True)
    except SQLAlchemyError:
        return repr(url)


def _reason(e: Exception) -> str:
    """The error's first line: the driver's own words where there are (SQLAlchemy's add the
    statement and a link)."""
    cause = getattr(e, "orig", None) or e
    return str(cause).strip().splitlines()[0] if str(cause).strip() else type(cause).__name__


def main(argv: list[str] | None = None) -> int:
    """``patchwork puzzles generate`` (see ``patchwork.puzzles.generate.main``)."""
    return generate(argv, finished_games)
