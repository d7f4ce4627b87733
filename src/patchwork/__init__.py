"""patchwork-game: two-player Patchwork, an exact rules engine and the tools around it."""

from .engine import *  # noqa: F403
from .engine import __all__ as _engine_all

__version__ = "0.1.0"
__all__ = [*_engine_all, "__version__"]
