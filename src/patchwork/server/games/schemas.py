"""What clients see of games: the views and answers of the HTTP API and of a game's websocket
(pydantic; also the OpenAPI description at /docs), and the events that number a game's changes.
docs/server.md describes them in prose."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field

from .requests import AutomaColumn, AutomaDeck, AutomaFilter, Mode, RulesIn, Seat, SeatKind

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
    bot: bool = Field(default=False, description="a bot account sits here (BOT)")


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
    filters_used: list[AutomaFilter] = Field(
        description="the card's filters the choice went through, the deciding one last (rule 9)"
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


class TakebackView(BaseModel):
    """Asking to take back a move in an online game between people (docs/server.md)."""

    allowed: bool = Field(description="casual, or rated with both players' agreement")
    offered_by: Seat | None = Field(description="the seat asking, until answered")
    declined: Seat | None = Field(description="declined: it asks again after the next move")
    can_ask: list[bool] = Field(description="per seat: it may ask now")


class PlayView(PositionView):
    """What a move can change: the position, the status, the clock, the result."""

    status: Literal["waiting", "active", "finished"]
    clock: ClockView | None
    result: ResultView | None
    undo_available: bool
    takeback: TakebackView


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


class SearchView(BaseModel):
    """The searcher's view of a position, for the player to move
    (:func:`patchwork.ai.analysis.as_dict`)."""

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


class Analysis(SearchView):
    """A game's position analysed for its player: at ``ply`` of the game's ``version``."""

    version: int
    ply: int


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
    asked_by: Seat | None = Field(default=None, description="a takeback: the seat that asked")


class SeatEvent(_Event):
    """``resign`` (who resigned), ``flag`` (who ran out of time), ``claim`` (who claimed),
    ``rematch_offer`` and ``rematch_decline`` (who offered or declined), ``takeback_offer``,
    ``takeback_decline`` and ``takeback_cancel`` (who asked, declined or cancelled)."""

    kind: Literal[
        "resign",
        "flag",
        "claim",
        "rematch_offer",
        "rematch_decline",
        "takeback_offer",
        "takeback_decline",
        "takeback_cancel",
    ]
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
    ai_ponders: int = Field(description="times the top level began thinking on a person's time")
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
    default_level: int = Field(description="the AI level a game is against unless one is chosen")
    automa_levels: list[AutomaLevelView] = Field(description="the solo mode's levels")
