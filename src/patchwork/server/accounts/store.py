"""The database side of accounts: users and their sessions (blocking; run through
``Store.call``). Session secrets are never stored, only their sha256 (``live.token_hash``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, fields

from sqlalchemy import Engine, delete, insert, or_, select, update
from sqlalchemy.exc import IntegrityError

from ..storage.models import (
    GameData,
    UserData,
    as_utc,
    events,
    games,
    rating_history,
    sessions,
    sign_in_addresses,
    users,
    utcnow,
)


@dataclass(frozen=True)
class SessionData:
    """One row of ``sessions``: a browser's cookie session or an API token."""

    token_hash: str
    user_id: str
    kind: str  # "cookie" or "api"
    csrf_hash: str | None
    created_at: dt.datetime
    expires_at: dt.datetime

    def to_row(self) -> dict[str, object]:
        return {f.name: getattr(self, f.name) for f in fields(self)}


class NameTaken(Exception):
    """The name's look-alike key is another account's; ``name`` is that account's name."""

    def __init__(self, name: str) -> None:
        super().__init__(name)
        self.name = name


class AccountStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add_user(self, user: UserData, session: SessionData, address_hash: str) -> None:
        """A new account, its first session and the (hashed) address it came from, or
        NameTaken (the database's unique key decides, so two sign-ups racing for one name
        cannot both win)."""
        try:
            with self.engine.begin() as conn:
                conn.execute(insert(users), user.to_row())
                conn.execute(insert(sessions), session.to_row())
                conn.execute(
                    insert(sign_in_addresses),
                    {"user_id": user.id, "address_hash": address_hash, "last_at": user.created_at},
                )
        except IntegrityError:
            existing = self.user_by_key(user.name_key)
            raise NameTaken(user.name if existing is None else existing.name) from None

    def user_by_key(self, key: str) -> UserData | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(users).where(users.c.name_key == key)).mappings().first()
        return None if row is None else UserData.from_row(row)

    def signed_in_from(self, user_id: str, address_hash: str) -> bool:
        """Whether the account has signed in from that (hashed) address before."""
        with self.engine.connect() as conn:
            found = conn.execute(
                select(sign_in_addresses.c.user_id).where(
                    sign_in_addresses.c.user_id == user_id,
                    sign_in_addresses.c.address_hash == address_hash,
                )
            ).first()
        return found is not None

    def remember_address(self, user_id: str, address_hash: str, now: dt.datetime) -> None:
        """The account signed in from that (hashed) address now."""
        row = {"user_id": user_id, "address_hash": address_hash, "last_at": now}
        mine = (
            sign_in_addresses.c.user_id == user_id,
            sign_in_addresses.c.address_hash == address_hash,
        )
        with self.engine.begin() as conn:
            if conn.execute(update(sign_in_addresses).where(*mine).values(last_at=now)).rowcount:
                return
            try:
                with conn.begin_nested():
                    conn.execute(insert(sign_in_addresses), row)
            except IntegrityError:  # remembered meanwhile (or the account just went)
                pass

    def add_session(self, session: SessionData) -> None:
        with self.engine.begin() as conn:
            conn.execute(insert(sessions), session.to_row())
            # Expired sessions of the same account go when a new one comes.
            conn.execute(
                delete(sessions).where(
                    sessions.c.user_id == session.user_id,
                    sessions.c.expires_at < session.created_at,
                )
            )

    def session(self, token_hash: str, now: dt.datetime) -> tuple[SessionData, UserData] | None:
        """The live session of that secret and its account (None: unknown or expired)."""
        with self.engine.connect() as conn:
            row = (
                conn.execute(select(sessions).where(sessions.c.token_hash == token_hash))
                .mappings()
                .first()
            )
            if row is None or as_utc(row["expires_at"]) <= now:
                return None
            user = (
                conn.execute(select(users).where(users.c.id == row["user_id"])).mappings().first()
            )
        if user is None:
            return None
        s = dict(row)
        s["created_at"] = as_utc(s["created_at"])
        s["expires_at"] = as_utc(s["expires_at"])
        return SessionData(**s), UserData.from_row(user)

    def delete_session(self, token_hash: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(delete(sessions).where(sessions.c.token_hash == token_hash))

    def set_password(self, user_id: str, password_hash: str, keep: str) -> list[str]:
        """A new password hash; every session of the account but ``keep`` ends (with the
        password, whoever knew the old one is out). The sessions that ended."""
        with self.engine.begin() as conn:
            conn.execute(
                update(users).where(users.c.id == user_id).values(password_hash=password_hash)
            )
            others = (sessions.c.user_id == user_id, sessions.c.token_hash != keep)
            ended = list(conn.execute(select(sessions.c.token_hash).where(*others)).scalars())
            conn.execute(delete(sessions).where(*others))
        return ended

    def rehash(self, user_id: str, password_hash: str) -> None:
        """The same password, hashed with today's parameters (no session ends)."""
        with self.engine.begin() as conn:
            conn.execute(
                update(users).where(users.c.id == user_id).values(password_hash=password_hash)
            )

    def delete_user(self, user_id: str, shown_as: str) -> tuple[list[tuple[str, int]], list[str]]:
        """Delete the account and its sessions; its games stay, its seats (and the rating
        histories that name it as the opponent) now called ``shown_as``, bound to nobody.
        Each game's rename is a change like any other (the next version, a ``renamed``
        event), so every process's copy catches up. The games and their new versions, and
        the sessions that ended."""
        changed = []
        now = utcnow()
        with self.engine.begin() as conn:
            for seat in (0, 1):
                rows = conn.execute(
                    select(games.c.id, games.c.version)
                    .where(games.c[f"seat{seat}_user"] == user_id)
                    .with_for_update()
                ).all()
                for game_id, version in rows:
                    conn.execute(
                        update(games)
                        .where(games.c.id == game_id)
                        .values(
                            {
                                f"seat{seat}_name": shown_as,
                                f"seat{seat}_user": None,
                                "version": version + 1,
                                "updated_at": now,
                            }
                        )
                    )
                    conn.execute(
                        insert(events).values(
                            game_id=game_id,
                            version=version + 1,
                            kind="renamed",
                            data={"seat": seat, "name": shown_as},
                            created_at=now,
                        )
                    )
                    changed.append((game_id, version + 1))
            conn.execute(
                update(rating_history)
                .where(rating_history.c.opponent_user == user_id)
                .values(opponent_name=shown_as, opponent_user=None)
            )
            mine = sessions.c.user_id == user_id
            ended = list(conn.execute(select(sessions.c.token_hash).where(mine)).scalars())
            conn.execute(delete(sessions).where(mine))
            conn.execute(delete(sign_in_addresses).where(sign_in_addresses.c.user_id == user_id))
            conn.execute(delete(users).where(users.c.id == user_id))
        return changed, ended

    def games_of(self, user_id: str, statuses: tuple[str, ...], limit: int) -> list[GameData]:
        """The account's games of those statuses, the most recently changed first."""
        with self.engine.connect() as conn:
            q = (
                select(games)
                .where(
                    or_(games.c.seat0_user == user_id, games.c.seat1_user == user_id),
                    games.c.status.in_(statuses),
                )
                .order_by(games.c.updated_at.desc())
                .limit(limit)
            )
            return [GameData.from_row(r) for r in conn.execute(q).mappings()]

    def become_bot(self, user_id: str) -> UserData | None:
        """Make the account a bot, for good; None (nothing changed) if it has a rated game:
        its rating was made by a person."""
        mine = or_(games.c.seat0_user == user_id, games.c.seat1_user == user_id)
        with self.engine.begin() as conn:
            rated = conn.execute(select(games.c.id).where(mine, games.c.rated).limit(1)).first()
            if rated is not None:
                return None
            conn.execute(update(users).where(users.c.id == user_id).values(bot=True))
            row = conn.execute(select(users).where(users.c.id == user_id)).mappings().first()
        return None if row is None else UserData.from_row(row)


def bots_among(engine: Engine, user_ids: list[str | None]) -> set[str]:
    """Which of these accounts are bots."""
    ids = [u for u in user_ids if u is not None]
    if not ids:
        return set()
    with engine.connect() as conn:
        rows = conn.execute(select(users.c.id).where(users.c.id.in_(ids), users.c.bot))
        return {r[0] for r in rows}
