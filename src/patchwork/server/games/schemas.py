"""The shapes of requests, responses and websocket messages (pydantic; also the OpenAPI
description at /docs). docs/server.md describes them in prose."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, BeforeValidator, ConfigDict, Field, model_validator

from ...ai.levels import LEVELS
from ..common.limits import MAX_COUNT, check_name, not_a_bool

Seat = Literal[0, 1]
Mode = Literal["ai", "local", "online", "solo"]
SeatKind = Literal["human", "ai", "automa"]
AutomaDeck = Literal["normal", "tactical"]
AutomaFilter = Literal["no_overtake", "most_buttons", "largest", "furthest"]
AutomaColumn = Literal["bonus", "buttons", "patches_with_buttons", "printed_buttons"]

# -- requests ---------------------------------------------------------------------------------
# Request models are strict (docs/server.md, "Strict requests"): a value of the wrong JSON type
# is refused, never converted ("1" is not 1, true is not 1), so a client's mistake shows.

SeatChoice = Annotated[Literal[0, 1, "random"], BeforeValidator(not_a_bool)]
Name = Annotated[str, Field(min_length=1, max_length=40), AfterValidator(check_name)]
# Versions and plies: what the database's 32-bit columns hold (a game changes a few hundred
# times at most), so no number a client sends can overflow a query.
Version = Annotated[int, Field(ge=0, le=MAX_COUNT)]
Ply = Annotated[int, Field(ge=0, le=MAX_COUNT)]
STRICT = ConfigDict(extra="forbid", strict=True)


class SoloIn(BaseModel):
    """The official solo mode: Automa's ``level`` (1 Intern .. 5 Legend) and its ``deck``
    (``tactical``: its next budget shows)."""

    model_config = STRICT
    level: int = Field(ge=1, le=5, description="Automa's level: 1 Intern .. 5 Legend")
    deck: AutomaDeck = Field(default="normal", description="Automa's deck of cards")


class RulesIn(BaseModel):
    model_config = STRICT
    edition: Literal["revised", "original"] = "revised"
    rotation: bool = True
    flip: bool = True
    solo: SoloIn | None = Field(
        default=None, description="a solo game against Automa (mode solo; null: two players)"
    )


class ClockIn(BaseModel):
    """Fischer: ``initial`` seconds each plus ``increment`` seconds per move; or
    correspondence: ``days`` for each move."""

    model_config = STRICT
    kind: Literal["fischer", "correspondence"]
    initial: float | None = Field(default=None, ge=1, le=10_800)
    increment: float = Field(default=0, ge=0, le=600)
    days: int | None = Field(default=None, ge=1, le=30)

    @model_validator(mode="after")
    def _complete(self) -> ClockIn:
        if self.kind == "fischer" and self.initial is None:
            raise ValueError("a fischer clock needs initial (seconds)")
        if self.kind == "correspondence" and self.days is None:
            raise ValueError("a correspondence clock needs days (per move)")
        return self


class CreateGame(BaseModel):
    """``ai``: you against the AI; ``local``: two people at one screen (one token plays both
    seats); ``online``: you and a friend who joins with the invitation; ``solo``: you against
    the official Automa (``rules.solo``), seat 0, moving first."""

    model_config = STRICT
    mode: Mode
    level: int = Field(default=2, ge=min(LEVELS), le=max(LEVELS), description="AI level (mode ai)")
    seat: SeatChoice = Field(default=0, description="your seat (modes ai and online)")
    first_player: SeatChoice = Field(default=0, description="the seat that moves first")
    rules: RulesIn = Field(default_factory=RulesIn)
    clock: ClockIn | None = None
    seed: int | None = Field(default=None, ge=0, le=2**62, description="reproducible circle")
    circle: list[int] | None = Field(
        default=None, max_length=33, description="an explicit circle (33 patch ids)"
    )
    name: Name | None = Field(
        default=None, description="your name; by default Player N, N your seat + 1"
    )
    opponent_name: Name | None = Field(
        default=None, description="the second name (mode local); by default Player 2"
    )
    rated: bool = Field(
        default=False,
        description="counts for your rating (mode ai, signed in; no undo, hints or analysis)",
    )

    @model_validator(mode="after")
    def _solo_setup(self) -> CreateGame:
        if self.rated and self.mode != "ai":
            raise ValueError("only a game against the AI (mode ai) is rated when created")
        solo = self.rules.solo is not None
        if self.mode == "solo" and not solo:
            raise ValueError("a solo game needs rules.solo (Automa's level and deck)")
        if self.mode != "solo" and solo:
            raise ValueError("rules.solo is for mode solo (you against Automa)")
        if solo and (self.seat != 0 or self.first_player != 0):
            raise ValueError("in a solo game you sit in seat 0 and move first")
        return self


class JoinGame(BaseModel):
    model_config = STRICT
    invite: str = Field(min_length=1, max_length=64)
    name: Name | None = Field(default=None, description="by default Player N, N the seat + 1")


class MoveIn(BaseModel):
    model_config = STRICT
    move: str = Field(min_length=1, max_length=32, description="the move in the notation")
    version: Version = Field(description="the game version the move was chosen in")


class VersionIn(BaseModel):
    model_config = STRICT
    version: Version | None = None


class RematchIn(BaseModel):
    model_config = STRICT
    action: Literal["offer", "accept", "decline"] = "offer"


class AnalysisIn(BaseModel):
    model_config = STRICT
    ply: Ply | None = Field(default=None, description="analyse after this many moves")


# -- responses --------------------------------------------------------------------------------


class ErrorBody(BaseModel):
    model_config = ConfigDict(extra="allow")
    code: str
    message: str


class ErrorResponse(BaseModel):
    error: ErrorBody


class SeatView(BaseModel):
    seat: Seat
    kind: SeatKind
    name: str
    level: int | None = Field(description="the AI's level, or Automa's (1-5); null for a person")
    joined: bool
    account: bool = Field(
        default=False, description="bound to an account: the name is its (/players/{name})"
    )


class ClockView(BaseModel):
    kind: Literal["fischer", "correspondence"]
    initial_ms: int | None
    increment_ms: int | None
    days: int | None
    remaining_ms: list[int]
    running: int | None
    turn_started: float | None
    flag_at: float | None


class PatchView(BaseModel):
    patch: int
    buttons: int
    time: int
    income: int
    shape: list[str]


class OfferView(PatchView):
    buyable: bool


class PlayerView(BaseModel):
    buttons: int
    position: int = Field(description="the player's space on the time board")
    income: int
    quilt: list[str] = Field(description="the quilt board's nine rows of # (covered) and .")
    empty_squares: int
    score: int


class AutomaCardView(BaseModel):
    """One Automa card: its budget of virtual buttons, its filters top to bottom and the
    income it pays per income space crossed."""

    number: int
    deck: AutomaDeck
    budget: int
    filters: list[AutomaFilter]
    income: int


class AutomaScorePart(BaseModel):
    column: AutomaColumn = Field(description="a column of the score its level counts")
    points: int


class AutomaView(BaseModel):
    """Automa's side of the table, as the person may know it: never the deck's order."""

    level: int
    level_name: str = Field(description="the level's name in English (Intern .. Legend)")
    deck: AutomaDeck
    marker: int | None = Field(description="the 7x7 marker's space while it lies on the board")
    position: int = Field(description="Automa's space on the time board")
    buttons: int
    with_buttons: list[int] = Field(description="its pile of patches with buttons, in order")
    without_buttons: list[int] = Field(description="the other pile (-1: a special patch)")
    card: AutomaCardView | None = Field(description="the card just played (null: none yet)")
    next_budget: int | None = Field(description="tactical deck: the top card's budget")
    cards_in_deck: int
    cards_seen: list[int] = Field(description="the cards face up on the discard pile")
    score_parts: list[AutomaScorePart] = Field(description="its score by its level's columns")


class AutomaTurnView(BaseModel):
    """One turn Automa played after a move of the person's (the engine plays it)."""

    card: AutomaCardView
    affordable: list[int] = Field(description="the patches on offer within its budget")
    patch: int | None = Field(description="the patch it took (null: it passed)")
    decided_by: AutomaFilter | None = Field(
        description="the filter that left one patch (null: the only one it could afford, or none)"
    )
    start: int
    end: int = Field(description="its space after the turn")
    income: int = Field(description="buttons it collected at income spaces")
    bonus: bool = Field(description="it reached the marker and took the 7x7 tile")
    reshuffled: bool = Field(description="its deck ran out and was shuffled anew")
    specials: int = Field(description="special patches it took on the way")


class MoveOutcome(BaseModel):
    """What a move did for the player who made it, as the engine applied it: so a client can
    say it in words ("bought patch 25 for 5 buttons: +2 income") without a rule of its own."""

    space_from: int = Field(description="the mover's time board space before the move")
    space_to: int = Field(description="the mover's space after it")
    buttons_paid: int = Field(description="the patch's cost (0 unless a buy)")
    buttons_collected: int = Field(
        description="buttons received: for the spaces advanced and at income marks crossed"
    )
    income_collected: int = Field(description="of those, the buttons paid out at income marks")
    income: int = Field(description="the mover's button income after the move")
    specials_won: int = Field(description="special patches picked up on the way")
    bonus_won: bool = Field(description="the move won the 7x7 bonus tile")
    automa_turns: list[AutomaTurnView] = Field(
        default_factory=list, description="solo: Automa's turns after the move, in order"
    )


class HistoryEntry(BaseModel):
    ply: int
    seat: Seat
    move: str
    squares: list[str] = Field(description="the squares the move covers (none for A)")
    outcome: MoveOutcome


class ResultView(BaseModel):
    termination: Literal["finished", "resigned", "time", "abandoned"]
    winner: int | None
    scores: list[int] | None


class ScoreParts(BaseModel):
    """A score taken apart: ``buttons + bonus - penalty`` (penalty: the empty squares' cost)."""

    buttons: int
    bonus: int
    empty_squares: int
    penalty: int


class AdvanceView(BaseModel):
    """What advancing would give the player to move now (the engine applies it to tell)."""

    buttons: int
    position: int
    specials: int


SquareSet = Annotated[
    str,
    Field(
        pattern="^[0-9a-f]{1,21}$",
        description="a set of quilt squares: hexadecimal, bit 9*row+col set for each square "
        "(a1 = bit 0, i9 = bit 80)",
    ),
]


class Placements(BaseModel):
    """Where one patch on offer may be sewn on in one orientation: the squares its bounding
    box's top-left corner may take (the move is ``{patch}{orientation}@{square}``). Each
    distinct footprint is listed once, under the orientation the engine names it by."""

    patch: int
    orientation: Literal["r0", "r90", "r180", "r270", "f0", "f90", "f180", "f270"]
    anchors: SquareSet


class LegalMoves(BaseModel):
    """Every legal move, compactly: ``A`` if ``advance``, ``S@{square}`` for each square of
    ``special``, and each buy of ``buy``. Empty once the game is over."""

    advance: bool
    special: SquareSet | None = Field(description="where the special patch may go, if one waits")
    buy: list[Placements]


class PositionView(BaseModel):
    """The position, every fact as the engine states it."""

    position: str | None = Field(
        description="the engine's position text (docs/notation.md); in a solo game its "
        "public form, which leaves Automa's hidden deck out (docs/solo.md)"
    )
    to_move: int | None
    on_top: int = Field(description="whose time token is on top when both share a space")
    automa: AutomaView | None = Field(description="solo: Automa's side (null: two players)")
    players: list[PlayerView]
    circle: list[int] = Field(description="the patches left, clockwise from the neutral token")
    offer: list[OfferView]
    bonus_owner: int | None
    pending_specials: int
    special_spaces_left: list[int]
    first_to_finish: int | None
    legal: LegalMoves
    scores: list[int]
    score_parts: list[ScoreParts]
    advance: AdvanceView | None
    winner: int | None


class PlayView(PositionView):
    """What a move can change: the position, the status, the clock, the result."""

    status: Literal["waiting", "active", "finished"]
    clock: ClockView | None
    result: ResultView | None
    undo_available: bool


class RematchView(BaseModel):
    offered_by: int | None
    game_id: str | None


class SeatRating(BaseModel):
    """A rated game's change to one seat's rating (docs/accounts.md, "Ratings")."""

    before: float = Field(description="the rating before the game")
    after: float = Field(description="the rating after it (= before where not counted)")
    rd: float = Field(description="the rating's deviation after the game")
    provisional: bool = Field(description="the deviation is above 110: shown with '?'")
    counted: bool = Field(
        default=True,
        description="false where the game did not count: against the AI once the player "
        "has played rated games against people (or without a rated opponent)",
    )


class GameView(PlayView):
    """The whole game as every client sees it (players and spectators alike)."""

    id: str
    mode: Mode
    version: int
    created_at: str
    updated_at: str
    rules: RulesIn
    special_spaces: list[int] = Field(description="the special patches' spaces in this edition")
    first_player: int
    seats: list[SeatView]
    ratings: list[SeatRating | None] | None = Field(
        description="a rated game once rated: each seat's change (null: no account); "
        "null until then"
    )
    history: list[HistoryEntry]
    rematch: RematchView
    parent_id: str | None
    rated: bool = Field(default=False, description="the game counts for the players' ratings")


class CreatedGame(BaseModel):
    game_id: str
    seat: int | None = Field(description="your seat (null at one screen: you play both)")
    token: str = Field(description="your secret: send it to move; only you have it")
    invite_code: str | None
    invite_url: str | None
    watch_url: str
    ws_url: str
    game: GameView


class Joined(BaseModel):
    game_id: str
    seat: Seat
    token: str
    game: GameView


class ActionResult(BaseModel):
    version: int
    game: GameView


class RematchResult(BaseModel):
    game_id: str | None = Field(description="the new game, once both want it")
    offered_by: int | None
    game: GameView


class Hint(BaseModel):
    version: int
    move: str
    squares: list[str]
    win_probability: float
    margin: float


class CandidateView(BaseModel):
    move: str
    patch: int | None
    visits: int
    win_probability: float
    margin: float
    line: list[str]


class Analysis(BaseModel):
    version: int
    ply: int
    player: int
    best_move: str
    squares: list[str]
    win_probability: float
    margin: float
    principal_line: list[str]
    exact: bool
    iterations: int
    seconds: float
    candidates: list[CandidateView]


MoveClass = Literal["best", "good", "inaccuracy", "mistake", "blunder"]
# "class" is a Python keyword: the field is ``klass`` in Python and ``class`` on the wire.
BY_ALIAS = ConfigDict(serialize_by_alias=True, validate_by_name=True, validate_by_alias=True)


class ReviewPly(BaseModel):
    """One move judged by the searcher (``patchwork.ai.review``): the values before and
    after it for the player who made it (``seat``), what it gave away and its class."""

    model_config = BY_ALIAS
    ply: int = Field(description="1 for the first move; the position before it is ply - 1")
    seat: Seat
    move: str
    best_move: str = Field(description="the searcher's move in the position before")
    squares: list[str] = Field(description="the squares the move played covers")
    best_squares: list[str] = Field(description="the squares the searcher's move covers")
    win_probability_before: float
    win_probability_after: float
    margin_before: float
    margin_after: float
    loss: float = Field(description="win probability given away, 0-1")
    margin_loss: float = Field(description="points given away")
    klass: MoveClass = Field(alias="class")
    exact: bool = Field(description="both values exact (the solver's, or the game's result)")
    forced: bool = Field(description="the only legal move")


class ReviewPlayer(BaseModel):
    seat: Seat
    name: str
    accuracy: float | None = Field(description="0-100; null: no move of their own choosing")
    inaccuracies: int
    mistakes: int
    blunders: int
    counts: dict[MoveClass, int]
    worst: list[int] = Field(description="the plies that gave away most, worst first")


class ReviewThresholds(BaseModel):
    inaccuracy: float
    mistake: float
    blunder: float
    points_per_unit: float


class ReviewPoint(BaseModel):
    """A position of the game as the chart draws it: player 0's chances there."""

    ply: int = Field(description="the moves played before it (0: the start)")
    win_probability: float = Field(description="player 0's win probability, 0-1")
    margin: float = Field(description="player 0's expected final margin, in points")


class ReviewView(BaseModel):
    """Every move of a game judged: what ``GET /api/games/{id}/review`` serves."""

    game_id: str
    version: int = Field(description="the game's version when it was reviewed")
    created_at: str
    stored: bool = Field(description="kept in the database (a finished game's review)")
    limit: str = Field(description="the search limit of each position")
    iterations: int
    seed: int
    finished: bool = Field(description="the game reached its end by the rules")
    plies: list[ReviewPly]
    players: list[ReviewPlayer]
    curve: list[ReviewPoint] = Field(
        description="every position's value, from the start to the last (its result when over)"
    )
    thresholds: ReviewThresholds


class ReviewStatus(BaseModel):
    """Where a game's review stands: ``none`` (never asked for), ``running`` (``done`` of
    ``total`` positions valued) or ``done`` (with the review)."""

    game_id: str
    state: Literal["none", "running", "done"]
    done: int
    total: int
    review: ReviewView | None


class ReplayFrame(BaseModel):
    ply: int
    seat: int | None
    move: str | None
    squares: list[str]
    position: str | None = Field(description="null in a solo game (Automa's deck is hidden)")
    automa: AutomaView | None
    to_move: int | None
    on_top: int
    players: list[PlayerView]
    circle: list[int]
    bonus_owner: int | None
    special_spaces_left: list[int]
    scores: list[int]


class Replay(BaseModel):
    game_id: str
    players: list[str]
    seats: list[SeatView] = Field(description="who sat in each seat, as in the game view")
    result: ResultView | None
    frames: list[ReplayFrame]


class GameSummary(BaseModel):
    id: str
    mode: str
    status: str
    created_at: str
    updated_at: str
    players: list[str]
    moves: int | None = None
    result: ResultView | None
    rated: bool = False
    clock: Literal["fischer", "correspondence"] | None = Field(
        default=None, description="the kind of clock (null: none)"
    )
    seat: int | None = Field(default=None, description="My games: the account's seat")
    to_move: int | None = Field(
        default=None, description="My games, a game in play: the seat whose turn it is"
    )


class RatingPoint(BaseModel):
    """One rated game in a player's history."""

    game_id: str
    at: str = Field(description="when it was rated (ISO 8601)")
    rating: float = Field(description="the rating after the game")
    rd: float
    change: float = Field(description="after minus before")
    opponent: str
    score: float = Field(description="1 a win, 0.5 a draw, 0 a loss")


class Profile(BaseModel):
    name: str
    rating: float
    rd: float
    provisional: bool
    created_at: str
    played: int = Field(description="finished games (won + lost + drawn)")
    won: int
    lost: int
    drawn: int
    history: list[RatingPoint] = Field(description="the rated games, oldest first")
    recent: list[GameSummary] = Field(description="the last finished games, latest first")


class LeaderboardEntry(BaseModel):
    rank: int
    name: str
    rating: float
    rd: float
    games: int = Field(description="rated games played")


# -- events: the changes of a game, numbered by its version (stored, replayed by sync) ---------


class _Event(BaseModel):
    version: int = Field(description="the game version this change made")


class CreatedEvent(_Event):
    kind: Literal["created"]
    mode: Mode
    parent_id: str | None = Field(default=None, description="the game this one is a rematch of")


class JoinedEvent(_Event):
    kind: Literal["joined"]
    seat: Seat
    name: str


class MoveEvent(_Event):
    kind: Literal["move"]
    ply: int
    seat: Seat
    move: str


class UndoEvent(_Event):
    kind: Literal["undo"]
    removed: list[str] = Field(description="the moves taken back")
    ply: int = Field(description="the moves kept")


class SeatEvent(_Event):
    """``resign`` (who resigned), ``flag`` (who ran out of time), ``claim`` (who claimed),
    ``rematch_offer`` and ``rematch_decline`` (who offered or declined)."""

    kind: Literal["resign", "flag", "claim", "rematch_offer", "rematch_decline"]
    seat: Seat


class RematchEvent(_Event):
    kind: Literal["rematch"]
    game_id: str = Field(description="the new game")


class RatedEvent(_Event):
    """A finished rated game was rated (once, just after it ended)."""

    kind: Literal["rated"]
    ratings: list[SeatRating | None] = Field(description="each seat's change (null: no account)")


class RenamedEvent(_Event):
    """A seat's account was deleted: the seat now shows ``name`` and is bound to nobody."""

    kind: Literal["renamed"]
    seat: Seat
    name: str


Event = Annotated[
    CreatedEvent
    | JoinedEvent
    | MoveEvent
    | UndoEvent
    | SeatEvent
    | RematchEvent
    | RatedEvent
    | RenamedEvent,
    Field(discriminator="kind"),
]


class Events(BaseModel):
    game_id: str
    version: int
    events: list[Event]
    complete: bool = Field(description="false when older events were left out")


class Health(BaseModel):
    status: Literal["ok"]
    database: Literal["ok"]
    redis: Literal["ok", "down"] | None = Field(
        None, description="with several processes (--redis): whether Redis answers; else null"
    )
    node: str | None = Field(
        None, description="with several processes: this process's id (its leases' holder)"
    )
    games_in_memory: int
    connections: int
    ai_ponders: int = Field(description="times level 5 began thinking on a person's time")
    ai_ponder_hits: int = Field(description="AI moves answered from a tree grown that way")
    version: str


class AutomaLevelView(BaseModel):
    level: int
    name: str = Field(description="in English: Intern, Apprentice, Fellow, Master, Legend")
    marker: int = Field(description="the space of the 7x7 marker")
    scores: list[AutomaColumn] = Field(description="the columns of Automa's score it counts")


class Meta(BaseModel):
    patches: list[PatchView]
    board_size: int
    final_space: int
    income_spaces: list[int]
    special_spaces: dict[str, list[int]] = Field(description="per edition")
    offered_patches: int = Field(description="how many patches of the circle are on offer")
    bonus_size: int
    bonus_points: int
    levels: dict[str, str] = Field(description="the AI levels and what each is")
    automa_levels: list[AutomaLevelView] = Field(description="the solo mode's levels")


# -- websocket messages from clients ----------------------------------------------------------

Ref = str | int | None


class _Msg(BaseModel):
    model_config = ConfigDict(extra="ignore", strict=True)
    id: Ref = Field(default=None, description="echoed back as ref in the reply")


class HelloMsg(_Msg):
    type: Literal["hello"]
    token: str | None = Field(default=None, max_length=128)
    last_version: Version | None = None


class MoveMsg(_Msg):
    type: Literal["move"]
    move: str = Field(min_length=1, max_length=32)
    version: Version


class UndoMsg(_Msg):
    type: Literal["undo"]
    version: Version | None = None


class SimpleMsg(_Msg):
    type: Literal["resign", "claim", "hint", "ping", "sync"]


class RematchMsg(_Msg):
    type: Literal["rematch"]
    action: Literal["offer", "accept", "decline"] = "offer"


class AnalysisMsg(_Msg):
    type: Literal["analysis"]
    ply: Ply | None = None


ClientMessage = Annotated[
    HelloMsg | MoveMsg | UndoMsg | SimpleMsg | RematchMsg | AnalysisMsg,
    Field(discriminator="type"),
]
