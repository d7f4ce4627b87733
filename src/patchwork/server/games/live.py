"""A game in memory: its stored row, the engine's game rebuilt from the stored moves, and
what the server needs while it runs (its lock, timers, the cached view)."""

from __future__ import annotations

import asyncio
import hmac
from dataclasses import dataclass, field

from ...engine import Game, Rules, new_game, parse_move
from ...engine.automa import Automa
from ..common.tokens import token_hash
from ..storage.models import GameData, MoveData
from .schemas import GameView, PlayView
from .views import game_view, play_view


@dataclass(frozen=True, slots=True)
class Caller:
    """Who asks (http/auth.py tells): a seat's secret token, a signed-in account, both or neither.
    A caller plays the seats whose token it holds and the seats bound to its account."""

    token: str | None = None
    user_id: str | None = None
    # The hash of the account session it came with: its sockets close when that ends.
    session: str | None = None

    def __bool__(self) -> bool:
        return bool(self.token) or self.user_id is not None


GUEST = Caller()


def rules_of(edition: str, rotation: bool, flip: bool, solo: dict[str, object] | None) -> Rules:
    """The engine's rules of a stored game (the solo part without its seed)."""
    automa = None
    if solo is not None:
        automa = Automa.from_dict({k: v for k, v in solo.items() if k != "seed"})
    return Rules(edition=edition, rotation=rotation, flip=flip, solo=automa)


def start_state(data: GameData) -> Game:
    rules = rules_of(data.edition, data.rotation, data.flip, data.solo)
    seed = None if data.solo is None else data.solo["seed"]
    return Game(
        new_game(circle=data.circle, rules=rules, first_player=data.first_player, automa_seed=seed)
    )


@dataclass(eq=False)
class LiveGame:
    data: GameData
    game: Game
    movers: list[int]
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    ai_task: asyncio.Task[None] | None = None
    ai_version: int = -1
    clock_timer: asyncio.TimerHandle | None = None
    presence_timers: list[asyncio.TimerHandle] = field(default_factory=list)
    # per seat: None while connected (or an AI), else the epoch time it went away
    away_since: list[float | None] = field(default_factory=lambda: [None, None])
    analysing: bool = False
    _play: tuple[int, PlayView] | None = None
    _view: tuple[int, GameView] | None = None

    @classmethod
    def build(cls, data: GameData, line: list[MoveData]) -> LiveGame:
        """Rebuild the game by replaying its stored moves through the engine."""
        game = start_state(data)
        movers = []
        for m in line:
            seat = game.state.current_player
            game.push(parse_move(m.move))  # judged once, by the push
            if seat != m.seat:
                raise ValueError(f"game {data.id}: ply {m.ply} is stored for seat {m.seat}")
            movers.append(m.seat)
        return cls(data=data, game=game, movers=movers)

    @property
    def id(self) -> str:
        return self.data.id

    @property
    def version(self) -> int:
        return self.data.version

    def seats_of(self, caller: Caller) -> frozenset[int]:
        """The seats ``caller`` may play (both for a game at one screen, none if unknown)."""
        h = None if not caller.token else token_hash(caller.token)
        return frozenset(
            s
            for s in (0, 1)
            if (
                h is not None
                and (stored := self.data.token_hash(s)) is not None
                and hmac.compare_digest(stored, h)
            )
            or (caller.user_id is not None and self.data.user(s) == caller.user_id)
        )

    def human_seats(self) -> list[int]:
        return [s for s in (0, 1) if self.data.kind(s) == "human"]

    def ai_seat(self) -> int | None:
        for s in (0, 1):
            if self.data.kind(s) == "ai":
                return s
        return None

    def play_view(self) -> PlayView:
        """What the last change made of the game (:func:`~.views.play_view`), once per version.

        Computed while the game in memory is the stored one: a move is pushed onto the game
        before it is written, and ``movers`` and the version follow only once it is."""
        if self._play is None or self._play[0] != self.version:
            self._play = (self.version, play_view(self.data, self.game.state, self.movers))
        return self._play[1]

    def view(self) -> GameView:
        """The whole game view, computed once per version (on demand: a move sends only an
        update)."""
        if self._view is None or self._view[0] != self.version:
            self._view = (
                self.version,
                game_view(self.data, self.game, self.movers, self.play_view()),
            )
        return self._view[1]

    def invalidate(self) -> None:
        self._play = None
        self._view = None
