"""A real SMTP server for the mail tests (aiosmtpd, in the test process, on a free loopback
port) and the mailbox that reads what it received."""

from __future__ import annotations

import contextlib
import email
import email.policy
import re
import threading
import time
from collections.abc import Callable, Iterator
from email.message import EmailMessage
from typing import Any

from aiosmtpd.controller import Controller

from server_fixtures import WAIT, free_port


def body(message: EmailMessage) -> str:
    """The plain-text part of a mail."""
    part = message.get_body(("plain",))
    assert part is not None
    text: str = part.get_content()  # type: ignore[attr-defined]
    return text


def link(message: EmailMessage, path: str) -> str:
    """The first link to ``path`` in the mail."""
    found = re.search(rf"https?://\S+{re.escape(path)}\S*", body(message))
    assert found, body(message)
    return found.group(0)


class Mailbox:
    """What the SMTP server received: each message, parsed, with its envelope's recipients."""

    def __init__(self) -> None:
        self.messages: list[tuple[list[str], EmailMessage]] = []
        self.changed = threading.Condition()

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:
        with self.changed:
            message = email.message_from_bytes(envelope.content, policy=email.policy.default)
            assert isinstance(message, EmailMessage)
            self.messages.append((list(envelope.rcpt_tos), message))
            self.changed.notify_all()
        return "250 OK"

    def to(self, address: str) -> list[EmailMessage]:
        with self.changed:
            return [m for rcpt, m in self.messages if address in rcpt]

    def wait(
        self, address: str, pred: Callable[[EmailMessage], bool] = lambda m: True
    ) -> EmailMessage:
        """The first message to ``address`` for which ``pred`` holds (waiting for it)."""
        deadline = time.monotonic() + WAIT
        with self.changed:
            while True:
                for rcpt, m in self.messages:
                    if address in rcpt and pred(m):
                        return m
                left = deadline - time.monotonic()
                assert left > 0, f"no such mail to {address}; it got {self.subjects(address)}"
                self.changed.wait(left)

    def link(self, address: str, path: str) -> str:
        """The first link to ``path`` in a mail to ``address`` (waiting for the mail)."""
        return link(self.wait(address, lambda m: path in body(m)), path)

    def subjects(self, address: str) -> list[str]:
        return [str(m["subject"]) for m in self.to(address)]


@contextlib.contextmanager
def smtp_server() -> Iterator[tuple[Mailbox, int]]:
    """An SMTP server on a free loopback port: its mailbox and port, stopped afterwards."""
    box, port = Mailbox(), free_port()
    controller = Controller(box, hostname="127.0.0.1", port=port)
    controller.start()
    try:
        yield box, port
    finally:
        controller.stop()
