"""patchwork-game: two-player Patchwork, an exact rules engine and the tools around it."""

from ._jitcache import drop_stale_cache

drop_stale_cache()

from .engine import *  # noqa: E402, F403
from .engine import __all__ as _engine_all  # noqa: E402

__version__ = "0.1.0"
__all__ = [*_engine_all, "__version__"]
