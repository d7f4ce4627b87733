"""``python -m patchwork.tournament``: the same as ``patchwork tournament``."""

import sys

from .cli import main

sys.exit(main())
