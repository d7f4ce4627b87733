"""Secrets are stored only as their hashes: seat tokens, invitations, sessions, API tokens."""

from __future__ import annotations

import hashlib


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).hexdigest()
