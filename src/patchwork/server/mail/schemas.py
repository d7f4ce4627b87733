"""What the mail settings' routes take and give (only ever to the account's owner)."""

from __future__ import annotations

from pydantic import BaseModel, Field

from ..common.limits import STRICT


class MailAddressIn(BaseModel):
    model_config = STRICT
    address: str = Field(max_length=1000, description="name@example.com (at most 254 characters)")


class MailSettings(BaseModel):
    """The account's mail address and whether mail goes to it."""

    enabled: bool = Field(description="this server sends mail (it was started with --smtp)")
    address: str | None = Field(description="the account's address, if it gave one")
    confirmed: bool = Field(description="its confirmation link was opened")
    stopped: bool = Field(description="a mail's stop link was opened: no mail until set again")
    lang: str | None = Field(description="the language of its mails")
    mail_after: float = Field(
        description="seconds away from the site before a turn in a correspondence game is mailed"
    )
