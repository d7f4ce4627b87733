"""The shapes of the accounts API's requests and answers (docs/accounts.md). Requests are
strict, as every request of the server (common/limits.py); names and passwords are checked by
names.py and passwords.py, which say what is allowed."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..common.limits import STRICT
from .names import MAX_LENGTH, MIN_LENGTH, NAME_FORM


class Credentials(BaseModel):
    model_config = STRICT
    # The form is documented, not enforced here: names.py refuses a bad name as bad_name.
    name: str = Field(
        max_length=64,
        description="the user name: 3 to 20 ASCII letters, digits, _ and -, starting with a letter",
        json_schema_extra={"pattern": NAME_FORM, "minLength": MIN_LENGTH, "maxLength": MAX_LENGTH},
    )
    password: str = Field(max_length=1000, description="8 to 200 characters")


class PasswordChange(BaseModel):
    model_config = STRICT
    old: str = Field(max_length=1000)
    new: str = Field(max_length=1000, description="8 to 200 characters")


class PasswordConfirmation(BaseModel):
    model_config = STRICT
    password: str = Field(max_length=1000)


class Account(BaseModel):
    """The signed-in account."""

    id: str
    name: str
    rating: float
    rd: float = Field(description="the rating's deviation (Glicko-2)")
    provisional: bool = Field(description="the rating is not sure yet (shown with ?)")
    bot: bool = Field(default=False, description="a bot account: a program plays it (BOT)")
    csrf_token: str | None = Field(
        description="send it as X-CSRF-Token with every change (null for an API token)"
    )


class ApiToken(BaseModel):
    token: str = Field(description="pwa_...: send it as Authorization: Bearer <token>")
