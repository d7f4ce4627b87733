"""The mails, in plain text and in the reader's language: a confirmation, "your turn" and
"game over". Each carries its one-click stop link in the text and as ``List-Unsubscribe``
with ``List-Unsubscribe-Post`` (RFC 8058), so a mail program can offer "unsubscribe" too."""

from __future__ import annotations

from dataclasses import dataclass
from email.message import EmailMessage
from email.utils import formatdate, make_msgid
from urllib.parse import quote, urlencode, urlsplit

from ...i18n import N_, Translator, translator
from ..storage.models import GameData

DELETED = N_("Deleted player")


@dataclass(frozen=True, slots=True)
class Site:
    """Where the links point (``--public-url``) and who mail comes from (``--mail-from``)."""

    public_url: str
    sender: str

    @property
    def base(self) -> str:
        return self.public_url.rstrip("/")

    @property
    def domain(self) -> str:
        return urlsplit(self.public_url).hostname or "localhost"

    def link(self, path: str, **query: str) -> str:
        return f"{self.base}{path}" + (f"?{urlencode(query)}" if query else "")

    def game(self, game_id: str) -> str:
        return self.link(f"/play/{quote(game_id)}")

    def stop(self, token: str, lang: str) -> str:
        return self.link("/mail/stop", token=token, lang=lang)

    def confirm(self, secret: str, lang: str) -> str:
        return self.link("/mail/confirm", token=secret, lang=lang)


def _opponent(t: Translator, game: GameData, seat: int) -> str:
    """The other seat's name ("Deleted player" is stored in English, as clients translate it)."""
    name = game.name(1 - seat)
    return t.gettext(name) if name == DELETED else name


def _message(
    site: Site, t: Translator, to: str, subject: str, body: str, stop_url: str
) -> EmailMessage:
    footer = t.format(
        N_(
            "You get this mail because mail about correspondence games was asked for at "
            "{site} with this address. Your mail settings: {settings}\n"
            "To get no more mail from us, open this link: {stop}"
        ),
        site=site.base,
        settings=site.link("/account"),
        stop=stop_url,
    )
    message = EmailMessage()
    message["Subject"] = subject
    message["From"] = site.sender
    message["To"] = to
    message["Date"] = formatdate(usegmt=True)
    message["Message-ID"] = make_msgid(domain=site.domain)
    message["Auto-Submitted"] = "auto-generated"
    message["List-Unsubscribe"] = f"<{stop_url}>"
    message["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    message.set_content(f"{body}\n\n-- \n{footer}\n")
    message["Content-Language"] = t.language  # (after the content, which resets Content-*)
    return message


def confirmation(
    site: Site, lang: str, to: str, name: str, secret: str, stop_token: str
) -> EmailMessage:
    t = translator(lang)
    body = t.format(
        N_(
            "Hello {name},\n\n"
            "Someone, we hope you, asked Patchwork at {site} to send mail about the "
            "correspondence games of the account {name} to this address. To say yes, open "
            "this link within a week:\n\n{link}\n\n"
            "If it was not you, do nothing: no mail goes to an address before it is confirmed."
        ),
        name=name,
        site=site.base,
        link=site.confirm(secret, lang),
    )
    subject = t.gettext(N_("Confirm your address for Patchwork"))
    return _message(site, t, to, subject, body, site.stop(stop_token, lang))


def your_turn(
    site: Site, lang: str, to: str, name: str, game: GameData, seat: int, stop_token: str
) -> EmailMessage:
    t = translator(lang)
    opponent = _opponent(t, game, seat)
    days = (game.clock or {}).get("days")
    body = t.format(
        N_("Hello {name},\n\nIt is your turn in your correspondence game against {opponent}:"),
        name=name,
        opponent=opponent,
    )
    body += f"\n\n{site.game(game.id)}"
    if isinstance(days, int):
        each = t.ngettext(
            "You have {days} day for each move.", "You have {days} days for each move.", days
        )
        body += "\n\n" + t.format_text(each, days=days)
    subject = t.format(N_("Your turn against {opponent}"), opponent=opponent)
    return _message(site, t, to, subject, body, site.stop(stop_token, lang))


def _result(t: Translator, game: GameData, seat: int) -> str:
    scores = game.scores if isinstance(game.scores, list) and len(game.scores) == 2 else None
    if game.winner is None:
        return t.gettext(N_("The game ended in a draw."))
    if scores is not None:
        mine, theirs = scores[seat], scores[1 - seat]
        if game.winner == seat:
            return t.format(N_("You won, {mine} to {theirs}."), mine=mine, theirs=theirs)
        return t.format(N_("You lost, {mine} to {theirs}."), mine=mine, theirs=theirs)
    return t.gettext(N_("You won.") if game.winner == seat else N_("You lost."))


def game_over(
    site: Site, lang: str, to: str, name: str, game: GameData, seat: int, stop_token: str
) -> EmailMessage:
    t = translator(lang)
    opponent = _opponent(t, game, seat)
    body = t.format(
        N_("Hello {name},\n\nYour correspondence game against {opponent} is over."),
        name=name,
        opponent=opponent,
    )
    body += f" {_result(t, game, seat)}\n\n{site.game(game.id)}"
    subject = t.format(N_("Your game against {opponent} is over"), opponent=opponent)
    return _message(site, t, to, subject, body, site.stop(stop_token, lang))
