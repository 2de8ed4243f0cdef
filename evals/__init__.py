"""The evaluation library: query sets, runs, metrics and reports (usable without Dagster)."""

import os

from nyaya.settings import DEFAULT_DATA, resolve

# ranx compiles its metrics with numba, which reads its cache folder once, when first imported:
# a persistent cache turns a ~55 s cold start into ~1 s. Only the data folder is read here, so
# importing the library cannot fail on another setting.
os.environ.setdefault("NUMBA_CACHE_DIR",
                      str(resolve(os.environ.get("NYAYA_DATA", DEFAULT_DATA)) / "numba_cache"))
