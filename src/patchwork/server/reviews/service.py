"""Game reviews on the server: every move of a game judged by the searcher
(:mod:`patchwork.ai.review`), computed in the AI pool one position at a time, so that it
shares the workers with hints and analyses and never holds up an AI move.

- A finished game is reviewed once: the review is stored and from then on served. A second
  request while one runs joins it; everyone connected to the game hears its progress
  (``review_progress``) and the result (``review``).
- A game in progress may be reviewed, up to its last move, only against the AI, by its human
  player (no help during a game between people); that review is kept in memory for the
  version it was made at, never stored.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from ...ai.limit import Limit
from ...ai.review import DEFAULT_SEED, Review, Value, judge, position_seed
from ...engine import Game, Move, Record
from ...i18n import N_
from ..cluster.limits import SharedLimiter
from ..common.errors import ServerError, too_soon
from ..games.live import Caller, LiveGame
from ..games.messages import ErrorMessage
from ..games.reading import record
from ..games.views import move_squares
from ..storage.models import ReviewData, utcnow
from ..storage.store import AddReview
from .messages import ReviewMessage, ReviewProgressMessage
from .schemas import ReviewPly, ReviewStatus, ReviewView

if TYPE_CHECKING:
    from ..games.service import GameService

log = logging.getLogger("patchwork.server")
KEPT = 256  # reviews kept in memory (stored ones are read back from the database)
# A review costs minutes of the AI pool: each client address starts a few (settings'
# review_burst), then one every STARTS_EVERY seconds, and has at most RUNNING_PER_CLIENT
# under way at once.
STARTS_EVERY = 30.0
RUNNING_PER_CLIENT = 2


@dataclass
class _Job:
    """A review under way: the game's version it judges and how far it has got."""

    version: int
    total: int
    stored: bool
    client: str = "-"  # the address that asked for it
    done: int = 0
    task: asyncio.Task[Any] | None = field(default=None, repr=False)


def review_view(
    game_id: str, version: int, game: Game, review: Review, iterations: int, stored: bool
) -> ReviewView:
    """The review as the API serves it: ``Review.to_dict`` with the squares each move played
    and each better move cover (so a client draws both without knowing a rule)."""
    data = review.to_dict()
    states = game.states
    plies = []
    for ply, entry in zip(review.plies, data["plies"], strict=True):
        state = states[ply.ply - 1]
        best = Move.parse(ply.best_move, state)
        plies.append(
            ReviewPly.model_validate(
                {
                    **entry,
                    "squares": move_squares(game.moves[ply.ply - 1]),
                    "best_squares": move_squares(best),
                }
            )
        )
    return ReviewView.model_validate(
        {
            **data,
            "plies": plies,
            "game_id": game_id,
            "version": version,
            "created_at": utcnow().isoformat(),
            "stored": stored,
            "iterations": iterations,
        }
    )


def consistent(view: ReviewView, game: Game) -> ReviewView:
    """A stored review as the review judges now: one stored before the values were made
    consistent (its value after a move is not the value before the next) is judged again
    from its own figures, each position's value and the searcher's move there (no search)."""
    plies = view.plies
    after0 = [
        p.win_probability_after if p.seat == 0 else 1 - p.win_probability_after for p in plies
    ]
    before0 = [
        p.win_probability_before if p.seat == 0 else 1 - p.win_probability_before for p in plies
    ]
    if all(abs(a - b) < 1e-3 for a, b in zip(after0, before0[1:], strict=False)):
        return view
    vals = [
        Value(
            p.win_probability_before if p.seat == 0 else 1 - p.win_probability_before,
            p.margin_before if p.seat == 0 else -p.margin_before,
            p.best_move,
            p.exact,
        )
        for p in plies
    ]
    end = view.curve[-1]
    vals.append(Value(end.win_probability, end.margin, None, view.finished))
    names = (view.players[0].name, view.players[1].name)
    review = replace(
        judge(game, vals, names), limit=Limit(iterations=view.iterations), seed=view.seed
    )
    return review_view(view.game_id, view.version, game, review, view.iterations, view.stored)


def _done(game_id: str, view: ReviewView) -> ReviewStatus:
    n = len(view.plies) + 1
    return ReviewStatus(game_id=game_id, state="done", done=n, total=n, review=view)


class Reviews:
    """The reviews of the server's games: started once, shared, stored when finished."""

    def __init__(self, svc: GameService) -> None:
        self.svc = svc
        self._jobs: dict[str, _Job] = {}
        self._kept: OrderedDict[str, ReviewView] = OrderedDict()
        burst = svc.settings.review_burst
        cluster = None if svc.node is None else svc.node.cluster
        self._starts = SharedLimiter(1 / STARTS_EVERY if burst > 0 else 0.0, max(1, burst), cluster)

    # -- asking -----------------------------------------------------------------------------

    async def status(self, game_id: str) -> ReviewStatus:
        """The review if there is one, else how far the one under way has got."""
        live = await self.svc.get(game_id)
        view = await self._ready(live)
        if view is not None:
            return _done(live.id, view)
        job = self._jobs.get(live.id)
        if job is not None:
            return self._running(live.id, job)
        return ReviewStatus(game_id=live.id, state="none", done=0, total=0, review=None)

    async def request(self, game_id: str, caller: Caller, client: str = "-") -> ReviewStatus:
        """Start the review of a game (or join the one under way, or serve the one made);
        a new one within the limits of the asking ``client`` (its address)."""
        live = await self.svc.get(game_id)
        view = await self._ready(live)
        if view is not None:
            return _done(live.id, view)
        async with live.lock:  # the stored game, not a move on its way to the database
            finished = live.data.status == "finished"
            if not finished:
                self._may_review_in_play(live, caller)
            view = self._kept_for(live)
            if view is not None:  # finished meanwhile
                return _done(live.id, view)
            job = self._jobs.get(live.id)
            if job is not None:
                if job.version != live.version and not job.stored:
                    raise ServerError("busy", N_("a review of this game is already running"))
                return self._running(live.id, job)
            await self._may_start(client)
            rec = record(live)
            job = _Job(live.version, len(live.game.states), stored=finished, client=client)
            self._jobs[live.id] = job
            job.task = asyncio.get_running_loop().create_task(self._run(live.id, job, rec))
        return self._running(live.id, job)

    async def _may_start(self, client: str) -> None:
        """ServerError ``rate_limited`` if ``client`` has asked for enough reviews for now."""
        if not self._starts.enabled:
            return
        running = sum(1 for job in self._jobs.values() if job.client == client)
        wait = (
            STARTS_EVERY
            if running >= RUNNING_PER_CLIENT
            else await self._starts.wait(f"review starts {client}")
        )
        if wait is not None:
            raise too_soon(N_("too many reviews asked for; try again in {seconds:.0f} s"), wait)

    def _may_review_in_play(self, live: LiveGame, caller: Caller) -> None:
        if live.data.mode not in ("ai", "solo"):  # against the AI or Automa: no one to help
            raise ServerError(
                "not_allowed",
                N_("a game between people is reviewed once it is over (no help during play)"),
            )
        if live.data.rated:
            raise ServerError("not_allowed", N_("a rated game is reviewed once it is over"))
        seats = self.svc.seats(live, caller)
        if not any(live.data.kind(s) == "human" for s in seats):
            raise ServerError("bad_token", N_("that token plays no seat of this game"))

    @staticmethod
    def _running(game_id: str, job: _Job) -> ReviewStatus:
        return ReviewStatus(
            game_id=game_id, state="running", done=job.done, total=job.total, review=None
        )

    def _kept_for(self, live: LiveGame) -> ReviewView | None:
        """A review in memory that still tells the game as it is."""
        view = self._kept.get(live.id)
        if view is None or not (view.stored or view.version == live.version):
            return None
        self._kept.move_to_end(live.id)
        return view

    async def _ready(self, live: LiveGame) -> ReviewView | None:
        view = self._kept_for(live)
        if view is not None or live.data.status != "finished":
            return view
        try:
            row = await self.svc.store.call(self.svc.store.load_review, live.id)
        except Exception:
            log.exception("reading the review of game %s failed", live.id)
            raise ServerError("unavailable", N_("the database is unavailable")) from None
        if row is None:
            return None
        view = consistent(ReviewView.model_validate(row.data), live.game)
        self._keep(view)
        return view

    def _keep(self, view: ReviewView) -> None:
        self._kept[view.game_id] = view
        self._kept.move_to_end(view.game_id)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)

    # -- computing --------------------------------------------------------------------------

    async def _run(self, game_id: str, job: _Job, rec: Record) -> None:
        hub = self.svc.hub
        try:
            game = await asyncio.to_thread(rec.replay)
            view = await self._compute(game_id, job, game, rec.players)
            if job.stored:
                await self._store(view)
            self._keep(view)
            hub.broadcast(game_id, ReviewMessage(review=view))
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("the review of game %s failed", game_id)
            err = ServerError("unavailable", N_("the review failed; try again"))
            hub.broadcast(game_id, ErrorMessage(**err.body("en")))
        finally:
            self._jobs.pop(game_id, None)

    async def _compute(
        self, game_id: str, job: _Job, game: Game, names: tuple[str, str]
    ) -> ReviewView:
        """Value every position in the pool, a few at a time (as many as the pool lends
        help), saying how far it has got after each; then judge the moves."""
        iterations = self.svc.settings.review_iterations
        texts = [s.to_text() for s in game.states]
        vals: list[Value | None] = [None] * len(texts)
        todo = list(range(len(texts)))
        hub = self.svc.hub
        hub.broadcast(game_id, ReviewProgressMessage(done=0, total=job.total))

        async def worker() -> None:
            while todo:
                i = todo.pop(0)
                seed = position_seed(DEFAULT_SEED, i)
                vals[i] = await self.svc.ai.value(texts[i], iterations, seed)
                job.done += 1
                hub.broadcast(game_id, ReviewProgressMessage(done=job.done, total=job.total))

        await asyncio.gather(*(worker() for _ in range(self.svc.ai.help_slots)))
        valued = [v for v in vals if v is not None]
        judged = judge(game, valued, names)
        review = replace(judged, limit=Limit(iterations=iterations))
        return review_view(game_id, job.version, game, review, iterations, job.stored)

    async def _store(self, view: ReviewView) -> None:
        row = ReviewData(
            game_id=view.game_id,
            version=view.version,
            iterations=view.iterations,
            seed=view.seed,
            data=view.model_dump(mode="json"),
        )
        try:
            await self.svc.store.commit([AddReview(row)])
        except Exception:  # another server stored it first, or the database is away
            log.warning("the review of game %s was not stored", view.game_id, exc_info=True)

    async def close(self) -> None:
        tasks = [j.task for j in self._jobs.values() if j.task is not None]
        for task in tasks:
            task.cancel()
        if tasks:
            await asyncio.gather(*tasks, return_exceptions=True)
