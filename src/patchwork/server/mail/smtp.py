"""Where mail goes: the ``--smtp`` URL, and one message handed to that server (smtplib, run
off the event loop).

``smtp://host[:port]`` (plain, port 25), ``smtp+starttls://host[:port]`` (STARTTLS, port
587) or ``smtps://host[:port]`` (TLS from the start, port 465), each with an optional
``user:password@`` (percent-encoded) to sign in with.
"""

from __future__ import annotations

import smtplib
import ssl
from dataclasses import dataclass, field
from email.message import EmailMessage
from typing import Literal
from urllib.parse import unquote, urlsplit

from ...i18n import N_

Security = Literal["plain", "starttls", "tls"]
SCHEMES: dict[str, tuple[Security, int]] = {
    "smtp": ("plain", 25),
    "smtp+starttls": ("starttls", 587),
    "smtps": ("tls", 465),
}
TIMEOUT = 30.0  # seconds one exchange with the SMTP server may take


class SmtpUrlError(ValueError):
    """An ``--smtp`` URL that names no SMTP server: an English ``template`` (marked ``N_``)
    and its ``params``; ``str()`` is the English text."""

    def __init__(self, template: str, **params: str) -> None:
        self.template = template
        self.params = params
        super().__init__(template.format(**params))


@dataclass(frozen=True, slots=True)
class SmtpTarget:
    host: str
    port: int
    security: Security = "plain"
    user: str | None = None
    password: str | None = field(default=None, repr=False)

    @classmethod
    def parse(cls, url: str) -> SmtpTarget:
        try:
            parts = urlsplit(url)
            port = parts.port
        except ValueError:
            raise SmtpUrlError(N_("the SMTP URL is not a URL with a valid port")) from None
        scheme = parts.scheme.lower()
        if scheme not in SCHEMES:
            raise SmtpUrlError(
                N_("the SMTP URL must start with smtp://, smtp+starttls:// or smtps://")
            )
        if not parts.hostname:
            raise SmtpUrlError(N_("the SMTP URL names no host (smtp://host:port)"))
        if parts.path not in ("", "/") or parts.query or parts.fragment:
            raise SmtpUrlError(N_("an SMTP URL has only a user, a host and a port"))
        security, default_port = SCHEMES[scheme]
        user = unquote(parts.username) if parts.username else None
        password = unquote(parts.password) if parts.password else None
        return cls(parts.hostname, port or default_port, security, user, password)

    @property
    def shown(self) -> str:
        """The URL without the password (for the log)."""
        scheme = {v[0]: k for k, v in SCHEMES.items()}[self.security]
        user = f"{self.user}@" if self.user else ""
        return f"{scheme}://{user}{self.host}:{self.port}"

    def send(self, message: EmailMessage) -> None:
        """Hand ``message`` to the server; returns once it accepted it for every recipient
        (blocking; raises ``smtplib.SMTPException`` or ``OSError`` when it did not)."""
        client: smtplib.SMTP
        if self.security == "tls":
            client = smtplib.SMTP_SSL(
                self.host, self.port, timeout=TIMEOUT, context=ssl.create_default_context()
            )
        else:
            client = smtplib.SMTP(self.host, self.port, timeout=TIMEOUT)
        with client:
            if self.security == "starttls":
                client.starttls(context=ssl.create_default_context())
            if self.user is not None:
                client.login(self.user, self.password or "")
            refused = client.send_message(message)
        if refused:  # some recipients refused (we send to one: never reached)
            raise smtplib.SMTPRecipientsRefused(refused)
