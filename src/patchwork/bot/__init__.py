"""``patchwork bot``: the bridge that plays an engine (or any agent) on a patchwork-game server
as a bot account (docs/bots.md, "The bridge").

It is a client of the server's HTTP API only (it never imports the server): ``client`` speaks
HTTP (the account's event stream and each game's stream, kept open and reopened after a
dropped connection; the answers to challenges; moves), ``policy`` says which challenges to
accept (a TOML file), ``bridge`` runs the loop (challenges answered, one thread per game
asking its own agent for the moves), ``cli`` is the command.
"""

from .client import ApiError, BotClient, Unreachable
from .policy import Policy, PolicyError, TimePolicy, load_policy

__all__ = [
    "ApiError",
    "BotClient",
    "Policy",
    "PolicyError",
    "TimePolicy",
    "Unreachable",
    "load_policy",
]
