"""What clients see: the game as the view models of ``schemas``, every rule-bound fact taken
from the engine. The one place views are built.

Nothing here decides a rule: legal moves, the squares each covers, scores, whose turn it is,
who is on top, pending special patches and the rest are the engine's answers, rendered.
"""

from __future__ import annotations

from functools import cache, lru_cache
from typing import Any

from ...ai.analysis import squares
from ...ai.levels import DEFAULT_LEVEL, DESCRIPTIONS
from ...engine import (
    PATCHES,
    Advance,
    Buy,
    Game,
    IllegalMoveError,
    Move,
    PlaceSpecial,
    Quilt,
    State,
)
from ...engine import automa as pwautoma
from ...engine import data as pwdata
from ...engine.moves import move_from_code
from ...engine.tables import ORIENTATION_NAMES
from ..storage.models import GameData
from .requests import RulesIn, SoloIn
from .schemas import (
    AdvanceView,
    AutomaCardView,
    AutomaLevelView,
    AutomaScorePart,
    AutomaTurnView,
    AutomaView,
    ClockView,
    GameView,
    HistoryEntry,
    LegalMoves,
    Meta,
    MoveOutcome,
    OfferView,
    PatchView,
    Placements,
    PlayerView,
    PlayView,
    PositionView,
    RematchView,
    ResultView,
    ScoreParts,
    SeatView,
    TakebackView,
)


@lru_cache(maxsize=20_000)
def _squares(move: Move) -> tuple[str, ...]:
    return tuple(squares(move))


def move_squares(move: Move) -> list[str]:
    """The quilt squares a move covers, as square names (empty for an advance)."""
    return list(_squares(move))


def square_bit(row: int, col: int) -> int:
    """A square's bit in a :data:`~patchwork.server.schemas.SquareSet`."""
    return 1 << (pwdata.BOARD_SIZE * row + col)


ADVANCE_GROUP = "A"
SPECIAL_GROUP = "S"


@cache
def _legal_entry(code: int) -> tuple[str | tuple[int, int], int]:
    """Where a legal-move code goes in :class:`LegalMoves`: its group (advance, a special
    patch, or a (patch, orientation) of a buy) and the bit of its square."""
    move = move_from_code(code)
    if isinstance(move, Buy):
        return (move.patch_id, move.orientation), square_bit(move.row, move.col)
    if isinstance(move, PlaceSpecial):
        return SPECIAL_GROUP, square_bit(move.row, move.col)
    return ADVANCE_GROUP, 0


def legal_view(state: State) -> LegalMoves:
    """The engine's legal moves, grouped: the anchors of each (patch, orientation) it lists
    and the squares a special patch may take, as square sets."""
    groups: dict[str | tuple[int, int], int] = {}
    if not state.is_terminal():
        entry = _legal_entry
        for code in state.legal_move_codes().tolist():
            group, bit = entry(code)
            groups[group] = groups.get(group, 0) | bit
    special = groups.pop(SPECIAL_GROUP, None)
    advance = groups.pop(ADVANCE_GROUP, None) is not None
    buys = sorted((g, bits) for g, bits in groups.items() if isinstance(g, tuple))
    return LegalMoves(
        advance=advance,
        special=None if special is None else format(special, "x"),
        buy=[
            Placements(
                patch=patch,
                orientation=ORIENTATION_NAMES[o],  # type: ignore[arg-type]
                anchors=format(bits, "x"),
            )
            for (patch, o), bits in buys
        ],
    )


@cache
def patch_view(patch_id: int) -> PatchView:
    p = PATCHES[patch_id]
    return PatchView(
        patch=p.id, buttons=p.buttons, time=p.time, income=p.income, shape=list(p.shape)
    )


@cache
def offer_view(patch_id: int, buyable: bool) -> OfferView:
    return OfferView(**dict(patch_view(patch_id)), buyable=buyable)


def advance_view(state: State) -> AdvanceView | None:
    """What advancing (action A) would give the player to move, by applying it in the engine:
    the buttons gained (spaces moved plus any income marks crossed), the space it reaches and
    the special patches it picks up. ``None`` when advancing is not a legal move now."""
    me = state.current_player
    if me is None:
        return None
    try:
        after = state.apply(Advance())  # judged once: illegal now raises
    except IllegalMoveError:
        return None
    now, then = state.players[me], after.players[me]
    return AdvanceView(
        buttons=then.buttons - now.buttons,
        position=then.position,
        specials=after.pending_specials if after.current_player == me else 0,
    )


def score_parts_view(state: State, scores: tuple[int, int]) -> list[ScoreParts]:
    """Each score taken apart as the engine counts it: buttons + bonus - penalty."""
    parts = []
    for p in (0, 1):
        buttons, bonus, empty = state.score_parts(p)
        penalty = buttons + bonus - scores[p]
        parts.append(ScoreParts(buttons=buttons, bonus=bonus, empty_squares=empty, penalty=penalty))
    return parts


@lru_cache(maxsize=8192)
def _quilt_rows(quilt: Quilt) -> tuple[str, ...]:
    # A quilt changes only when its owner sews a patch on: most views repeat both.
    return tuple(quilt.rows())


def players_view(state: State, scores: tuple[int, int] | None = None) -> list[PlayerView]:
    scores = state.scores() if scores is None else scores
    return [
        PlayerView(
            buttons=pl.buttons,
            position=pl.position,
            income=pl.income,
            quilt=list(_quilt_rows(pl.quilt)),
            empty_squares=pl.quilt.empty_squares,
            score=scores[p],
        )
        for p, pl in enumerate(state.players)
    ]


@cache
def automa_card_view(number: int) -> AutomaCardView:
    c = pwautoma.CARDS[number]
    return AutomaCardView(
        number=c.number,
        deck=c.deck,  # type: ignore[arg-type]
        budget=c.budget,
        filters=list(c.filters),  # type: ignore[arg-type]
        income=c.income,
    )


def automa_view(state: State) -> AutomaView | None:
    """Automa's side as the engine lets the person know it (``State.automa``, D6): the
    deck's order is not in it, so it is not in any view."""
    a = state.automa
    if a is None:
        return None
    return AutomaView(
        level=a.level,
        level_name=a.level_name,
        deck=a.deck,  # type: ignore[arg-type]
        marker=a.marker,
        position=a.position,
        buttons=a.buttons,
        with_buttons=list(a.with_buttons),
        without_buttons=list(a.without_buttons),
        card=None if a.played is None else automa_card_view(a.played),
        next_budget=a.next_budget,
        cards_in_deck=a.cards_in_deck,
        cards_seen=list(a.cards_seen),
        score_parts=[AutomaScorePart(column=k, points=v) for k, v in a.score_parts],  # type: ignore[arg-type]
    )


def automa_turn_view(turn: pwautoma.Turn) -> AutomaTurnView:
    return AutomaTurnView(
        card=automa_card_view(turn.card),
        affordable=list(turn.affordable),
        patch=turn.patch,
        decided_by=turn.decided_by,  # type: ignore[arg-type]
        filters_used=list(turn.filters_used),  # type: ignore[arg-type]
        start=turn.start,
        end=turn.end,
        income=turn.income,
        bonus=turn.bonus,
        reshuffled=turn.reshuffled,
        specials=turn.specials,
    )


def public_text(state: State) -> str:
    """The position text as the person sees it: a solo game's leaves Automa's deck out (D6)."""
    return state.to_text(public=True)


def _position(state: State) -> dict[str, Any]:
    """The fields of :class:`PositionView`: what the engine says of the position."""
    legal = legal_view(state)
    buyable = {b.patch for b in legal.buy}
    scores = state.scores()
    return {
        "position": public_text(state),
        "to_move": state.current_player,
        "on_top": state.on_top,
        "automa": automa_view(state),
        "players": players_view(state, scores),
        "circle": list(state.circle),
        "offer": [offer_view(i, i in buyable) for i in state.offered],
        "bonus_owner": state.bonus_owner,
        "pending_specials": state.pending_specials,
        "special_spaces_left": list(state.special_spaces_left),
        "first_to_finish": state.first_to_finish,
        "legal": legal,
        "scores": list(scores),
        "score_parts": score_parts_view(state, scores),
        "advance": advance_view(state),
        "winner": state.winner(),
    }


def state_view(state: State) -> PositionView:
    """The position: players, circle, offer, legal moves and the rest, as the engine says."""
    return PositionView(**_position(state))


def clock_view(data: GameData, to_move: int | None) -> ClockView | None:
    """The clock as stored: a client counts the running seat down from ``turn_started``."""
    if data.clock is None:
        return None
    remaining = data.remaining() or [0, 0]
    running = to_move if data.turn_started is not None and data.status == "active" else None
    flag_at = None
    if running is not None and data.turn_started is not None:
        flag_at = data.turn_started + remaining[running] / 1000.0
    return ClockView(
        kind=data.clock["kind"],
        initial_ms=data.clock.get("initial_ms"),
        increment_ms=data.clock.get("increment_ms"),
        days=data.clock.get("days"),
        remaining_ms=remaining,
        running=running,
        turn_started=data.turn_started,
        flag_at=flag_at,
    )


def result_view(data: GameData) -> ResultView | None:
    if data.termination is None:
        return None
    return ResultView(termination=data.termination, winner=data.winner, scores=data.scores)  # type: ignore[arg-type]


def play_view(data: GameData, state: State, movers: list[int]) -> PlayView:
    """What a move changes: the position and the game's status, clock and result."""
    human_seats = [s for s in (0, 1) if data.kind(s) == "human"]
    return PlayView(
        **_position(state),
        status=data.status,  # type: ignore[arg-type]
        clock=clock_view(data, state.current_player),
        result=result_view(data),
        undo_available=(
            data.mode in ("ai", "local", "solo")
            and data.status == "active"
            and any(s in human_seats for s in movers)
        ),
        takeback=takeback_view(data, movers),
    )


def takebacks_allowed(data: GameData) -> bool:
    """The takeback rule (docs/server.md, "Takebacks"): an online game between people allows
    them when casual, and when rated only if both players agreed when it was made."""
    return data.mode == "online" and (not data.rated or data.takebacks)


def takeback_view(data: GameData, movers: list[int]) -> TakebackView:
    allowed = takebacks_allowed(data)
    open_ = allowed and data.status == "active" and data.takeback_offer is None
    return TakebackView(
        allowed=allowed,
        offered_by=data.takeback_offer,  # type: ignore[arg-type]
        declined=data.takeback_declined,  # type: ignore[arg-type]
        can_ask=[open_ and data.takeback_declined != s and s in movers for s in (0, 1)],
    )


def move_outcome(before: State, after: State, seat: int, move: Move) -> MoveOutcome:
    """What ``move`` did for ``seat``, read off the engine's states before and after it."""
    now, then = before.players[seat], after.players[seat]
    paid = PATCHES[move.patch_id].buttons if isinstance(move, Buy) else 0
    collected = then.buttons - now.buttons + paid
    return MoveOutcome(
        space_from=now.position,
        space_to=then.position,
        buttons_paid=paid,
        buttons_collected=collected,
        income_collected=then.income_from(now.position),
        income=then.income,
        specials_won=max(0, after.pending_specials - before.pending_specials)
        if after.current_player == seat
        else 0,
        bonus_won=before.bonus_owner is None and after.bonus_owner == seat,
        # Solo: the turns the engine played for Automa inside the move (replayed to tell).
        automa_turns=[automa_turn_view(t) for t in before.automa_replies(move)]
        if before.automa is not None
        else [],
    )


def history_entry(ply: int, seat: int, move: Move, before: State, after: State) -> HistoryEntry:
    return HistoryEntry(
        ply=ply,
        seat=seat,  # type: ignore[arg-type]
        move=str(move),
        squares=move_squares(move),
        outcome=move_outcome(before, after, seat, move),
    )


def _seat_level(data: GameData, seat: int) -> int | None:
    if data.kind(seat) == "ai":
        return data.ai_level
    if data.kind(seat) == "automa" and data.solo is not None:
        level: int = data.solo["level"]
        return level
    return None


def rules_view(data: GameData) -> RulesIn:
    """The game's rules as a client gives them (a solo game's without the deck's seed)."""
    solo = None
    if data.solo is not None:
        solo = SoloIn(level=data.solo["level"], deck=data.solo["deck"])
    return RulesIn(edition=data.edition, rotation=data.rotation, flip=data.flip, solo=solo)  # type: ignore[arg-type]


def seats_view(data: GameData) -> list[SeatView]:
    """Who sits in each seat: a person or the AI (and its level), the name, joined or not."""
    return [
        SeatView(
            seat=s,
            kind=data.kind(s),  # type: ignore[arg-type]
            name=data.name(s),
            level=_seat_level(data, s),
            joined=data.token_hash(s) is not None
            or data.user(s) is not None
            or data.kind(s) != "human",
            account=data.user(s) is not None,
            bot=data.bot(s),
        )
        for s in (0, 1)
    ]


def game_view(data: GameData, game: Game, movers: list[int], play: PlayView) -> GameView:
    """The whole game as clients see it (the same for players and spectators): ``play``
    (what :func:`play_view` made of the same game) and the rest."""
    rules = game.start.rules
    states = game.states
    return GameView(
        **dict(play),
        id=data.id,
        mode=data.mode,  # type: ignore[arg-type]
        version=data.version,
        created_at=data.created_at.isoformat(),
        updated_at=data.updated_at.isoformat(),
        rules=rules_view(data),
        special_spaces=list(rules.special_spaces),
        first_player=data.first_player,
        seats=seats_view(data),
        ratings=data.ratings,  # type: ignore[arg-type]
        # The moves stored so far: ``movers`` grows only once a move is in the database.
        history=[
            history_entry(i + 1, seat, m, states[i], states[i + 1])
            for i, (m, seat) in enumerate(zip(game.moves, movers, strict=False))
        ],
        rematch=RematchView(offered_by=data.rematch_offer, game_id=data.rematch_id),
        parent_id=data.parent_id,
        rated=data.rated,
    )


@cache
def meta_view() -> Meta:
    """The fixed facts clients draw with: every patch, the time board of each edition, the
    quilt board, the AI levels."""
    return Meta(
        patches=[patch_view(p.id) for p in PATCHES],
        board_size=pwdata.BOARD_SIZE,
        final_space=pwdata.FINAL_SPACE,
        income_spaces=list(pwdata.INCOME_SPACES),
        special_spaces={e: list(s) for e, s in pwdata.SPECIAL_SPACES.items()},
        offered_patches=pwdata.OFFERED_PATCHES,
        bonus_size=pwdata.BONUS_SIZE,
        bonus_points=pwdata.BONUS_POINTS,
        levels={str(n): text for n, text in DESCRIPTIONS.items()},
        default_level=DEFAULT_LEVEL,
        automa_levels=[
            AutomaLevelView(level=lv.level, name=lv.name, marker=lv.marker, scores=list(lv.scores))  # type: ignore[arg-type]
            for lv in pwautoma.LEVELS.values()
        ],
    )
