"""Accounts (docs/accounts.md): names, passwords, cookie sessions and API tokens, the
sign-in limits. Accounts know nothing of games: the app tells the games what deleting an
account changed."""
