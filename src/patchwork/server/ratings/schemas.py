"""What clients see of players: profiles, rating histories and the leaderboard."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..games.schemas import GameSummary


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
    bot: bool = Field(default=False, description="a bot account: a program plays it (BOT)")
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
    bot: bool = Field(default=False, description="a bot account: a program plays it (BOT)")
    rating: float
    rd: float
    games: int = Field(description="rated games played")
