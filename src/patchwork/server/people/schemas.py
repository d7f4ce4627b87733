"""What clients see of people: a player in a list (online, following), and how a player
stands with the viewer."""

from __future__ import annotations

from pydantic import BaseModel, Field


class PersonView(BaseModel):
    name: str
    bot: bool = Field(default=False, description="a bot account: a program plays it (BOT)")
    rating: int
    provisional: bool = Field(description="the rating is not sure yet (shown with ?)")
    online: bool = Field(description="a page of the site is open for them now")
    playing: str | None = Field(description="the game they are playing now (its id), if any")


class Standing(BaseModel):
    """A player as the viewer sees them: online, last seen, and (signed in) whether the
    viewer follows or blocked them."""

    name: str
    online: bool
    playing: str | None
    last_seen: str | None = Field(description="when last seen on the site (ISO 8601)")
    following: bool = Field(description="the viewer follows them")
    blocked: bool = Field(description="the viewer blocked them")


class Online(BaseModel):
    count: int = Field(description="accounts online now")
    players: list[PersonView] = Field(description="the highest rated of them first")
