"""patchwork-game: two-player Patchwork, an exact rules engine and the tools around it."""

import gc

from ._jitcache import drop_stale_cache

drop_stale_cache()

# Importing NumPy, Numba and the engine makes some 10^5 objects that live for good; the cyclic
# collector would walk them again and again meanwhile (a tenth of a second of every start).
_collecting = gc.isenabled()
gc.disable()
try:
    from .engine import *  # noqa: F403
    from .engine import __all__ as _engine_all
finally:
    if _collecting:
        gc.enable()

__version__ = "0.1.0"
__all__ = [*_engine_all, "__version__"]
