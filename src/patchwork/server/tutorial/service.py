"""The guided first game on the server: the lesson a progress stands at, a move tried there,
and the finished game stored for its first review.

The server keeps no progress: the client sends the one it keeps with every request, and the
course checks it again (``Progress.from_dict``), so any process answers and a restart loses
nothing. Every rule and every lesson's goal is the course's; here they are only shown, in the
request's language, on the table the game screen draws (the games domain's ``Board``). The
course's work (replaying the game, the opponent's answers) runs off the event loop.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict

from ...engine import PatchworkError
from ...i18n import N_, Translator, translator
from ...tutorial import LESSONS, Progress, attempt, begin, replay
from ...tutorial.course import LEARNER, OPPONENT_LEVEL, setup
from ...tutorial.lessons import BACK, COUNTING, JUMPED, WAITING
from ..cluster.limits import SharedLimiter
from ..common.errors import ServerError, refused_move, too_soon
from ..games.board import board
from ..games.creation import ai_name, seat_name
from ..games.finished import store_finished
from ..games.schemas import SeatView
from ..games.service import GameService
from ..storage.models import UserData
from .schemas import LessonView, MoveResult, ProgressData, ReviewGame

GAMES_EVERY = 30.0  # a client address stores a few games (--review-burst), then one this often
KEPT_GAMES = 1_000  # finished courses remembered, so that sending one twice makes one game


def _progress(data: ProgressData | None) -> Progress:
    """The progress ``data`` describes, checked by the course, or ``invalid_progress``."""
    if data is None:
        return begin()
    try:
        return Progress.from_dict(data.model_dump())
    except PatchworkError as e:
        raise ServerError("invalid_progress", e.template, e.params) from None


def _seats(user: UserData | None) -> list[SeatView]:
    """The learner in seat 0 (by the account's name when signed in), the gentle AI in 1."""
    name = seat_name(LEARNER) if user is None else user.name
    return [
        SeatView(seat=0, kind="human", name=name, level=None, joined=True, account=bool(user)),
        SeatView(seat=1, kind="ai", name=ai_name(OPPONENT_LEVEL), level=OPPONENT_LEVEL,
                 joined=True),
    ]  # fmt: skip


def _notes(progress: Progress) -> list[str]:
    """The course's words said besides the lesson, as they apply (English msgids)."""
    said = ((progress.back, BACK), (progress.jumped, JUMPED), (progress.free, WAITING))
    return [COUNTING] if progress.finished else [text for applies, text in said if applies]


def lesson_view(progress: Progress, t: Translator, user: UserData | None) -> LessonView:
    """The lesson ``progress`` stands at, in ``t``'s language, on the table."""
    lesson = progress.current
    finished = progress.finished
    return LessonView(
        number=progress.number,
        count=len(LESSONS),
        id=lesson.id,
        title=t.gettext(lesson.title),
        text=t.gettext(lesson.text),
        step=progress.step + 1,
        steps=len(lesson.steps),
        task=None if finished else t.gettext(progress.task.task),
        free=progress.free,
        jumped=progress.jumped,
        back=progress.back,
        finished=finished,
        notes=[t.gettext(text) for text in _notes(progress)],
        progress=ProgressData.model_validate(progress.to_dict()),
        board=board(setup(), list(progress.moves), _seats(user), kind="tutorial"),
    )


def _view(data: ProgressData | None, lang: str, user: UserData | None) -> LessonView:
    return lesson_view(_progress(data), translator(lang), user)


def _move(data: ProgressData, text: str, lang: str, user: UserData | None) -> MoveResult:
    progress = _progress(data)
    if progress.finished:
        raise ServerError("game_over", N_("the lessons are over: there is no move to make"))
    try:
        tried = attempt(progress, text)
    except PatchworkError as e:
        raise refused_move(e) from None
    t = translator(lang)
    step = progress.task
    said = step.hint if not tried.met else step.done if tried.done else None
    return MoveResult(
        met=tried.met,
        said=None if said is None else t.gettext(said),
        move=tried.move,
        replies=list(tried.replies),
        view=lesson_view(tried.progress, t, user),
    )


async def view(data: ProgressData | None, lang: str, user: UserData | None) -> LessonView:
    """The lesson ``data`` stands at (the first lesson for None)."""
    return await asyncio.to_thread(_view, data, lang, user)


async def move(data: ProgressData, text: str, lang: str, user: UserData | None) -> MoveResult:
    """Move ``text`` tried at ``data``: played if it meets the step (the opponent answering),
    else answered with the step's hint; a move that is no move, or not a legal one, is
    refused with the engine's reason."""
    return await asyncio.to_thread(_move, data, text, lang, user)


class FirstReviews:
    """The finished courses' games, stored for their first review: as many per client address
    as reviews it may start (``--review-burst``), then one every ``GAMES_EVERY`` seconds. A
    course sent again by the same account or address gets the game already made for it
    (remembered by this process: the last ``KEPT_GAMES``)."""

    def __init__(self, svc: GameService) -> None:
        self.svc = svc
        burst = svc.settings.review_burst
        cluster = None if svc.node is None else svc.node.cluster
        self.limit = SharedLimiter(1 / GAMES_EVERY if burst > 0 else 0.0, max(1, burst), cluster)
        self.made: OrderedDict[tuple[tuple[str, ...], str], str] = OrderedDict()
        self.lock = asyncio.Lock()

    async def store(self, data: ProgressData, user: UserData | None, address: str) -> ReviewGame:
        progress = await asyncio.to_thread(_progress, data)
        if not progress.finished:
            raise ServerError(
                "game_not_over", N_("the first review comes once the lessons are over")
            )
        key = (progress.moves, f"account {user.id}" if user else f"address {address}")
        async with self.lock:  # the same course sent twice at once: one game
            game_id = self.made.get(key)
            if game_id is None:
                wait = await self.limit.wait(f"tutorial games {address}")
                if wait is not None:
                    raise too_soon(N_("too many games stored; try again in {seconds:.0f} s"), wait)
                game = await asyncio.to_thread(replay, progress.moves)
                game_id = await store_finished(self.svc.store, game, OPPONENT_LEVEL, user)
                self.made[key] = game_id
                if len(self.made) > KEPT_GAMES:
                    self.made.popitem(last=False)
            self.made.move_to_end(key)
        return ReviewGame(game_id=game_id, review_url=f"/play/{game_id}?replay=1&review=1")
