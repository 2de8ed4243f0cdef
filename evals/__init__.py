"""The evaluation library: query sets, runs, metrics and reports (usable without Dagster)."""

import os

from nyaya.settings import Settings

# ranx compiles its metrics with numba; a persistent cache turns a ~55 s cold start into ~1 s.
os.environ.setdefault("NUMBA_CACHE_DIR", str(Settings.from_env().data_dir / "numba_cache"))
