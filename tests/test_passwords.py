"""Password hashes (accounts/passwords.py): argon2id at the memory the server was started with
(``--password-memory``), and a hash made at another setting verifies and is made anew."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest

from patchwork.server.accounts import passwords
from patchwork.server.common.config import Settings
from patchwork.server.run import build_parser, settings_from

SECRET = "quilted-squares-9"


@pytest.fixture(autouse=True)
def default_memory() -> Iterator[None]:
    yield
    passwords.set_memory(Settings().password_memory)


def test_a_hash_made_at_another_memory_verifies_and_is_made_anew() -> None:
    async def run() -> None:
        passwords.set_memory(2)
        old = await passwords.hash_password(SECRET)
        assert old.startswith("$argon2id$") and "$m=2048," in old
        passwords.set_memory(1)
        assert await passwords.verify(old, SECRET)
        assert not await passwords.verify(old, SECRET + "!")
        assert passwords.needs_rehash(old)
        new = await passwords.hash_password(SECRET)
        assert "$m=1024," in new and not passwords.needs_rehash(new)
        assert not await passwords.verify_nobody(SECRET)

    asyncio.run(run())


def test_the_option_takes_1_to_1024_mib(capsys: pytest.CaptureFixture[str]) -> None:
    parser = build_parser()
    assert settings_from(parser.parse_args([])).password_memory == 64
    assert settings_from(parser.parse_args(["--password-memory", "8"])).password_memory == 8
    for bad in ("0", "1025", "1.5", "lots"):
        with pytest.raises(SystemExit):
            parser.parse_args(["--password-memory", bad])
        assert "give 1 to 1024 MiB" in capsys.readouterr().err
