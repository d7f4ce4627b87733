"""Keep Numba's on-disk cache honest across modules.

Numba keys a cached kernel on its own source file only, but our kernels read constants and
call kernels from other modules (the state layout in ``engine/kernels.py``, say). After
editing one file, a kernel cached from another could silently keep the old layout. So the
cache is dropped whenever any compiled module's source changes: a stamp of every source
file's size and mtime is kept next to the cache and compared at import (a few stat calls).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

_PACKAGE = Path(__file__).resolve().parent
_COMPILED = ("engine", "ai", "envs")
_STAMP = _PACKAGE / "__pycache__" / "numba-sources.stamp"


def _sources_digest() -> str:
    h = hashlib.sha256()
    for folder in _COMPILED:
        for path in sorted((_PACKAGE / folder).glob("*.py")):
            st = path.stat()
            h.update(f"{path.name}:{st.st_size}:{st.st_mtime_ns};".encode())
    return h.hexdigest()


def drop_stale_cache() -> None:
    try:
        digest = _sources_digest()
        if _STAMP.exists() and _STAMP.read_text() == digest:
            return
        for folder in _COMPILED:
            for pattern in ("*.nbi", "*.nbc"):
                for f in (_PACKAGE / folder / "__pycache__").glob(pattern):
                    f.unlink(missing_ok=True)
        _STAMP.parent.mkdir(exist_ok=True)
        _STAMP.write_text(digest)
    except OSError:
        pass  # a read-only install: nothing was edited there anyway
