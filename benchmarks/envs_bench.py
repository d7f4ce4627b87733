"""Environment steps per second of the Gymnasium, PettingZoo and OpenSpiel adapters.

    python benchmarks/envs_bench.py [--seconds 3] [--json]

The same as ``python -m patchwork.envs.bench``; see that module for what is measured.
"""

from __future__ import annotations

from patchwork.envs.bench import main

if __name__ == "__main__":
    raise SystemExit(main())
