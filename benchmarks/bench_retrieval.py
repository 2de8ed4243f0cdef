"""Latency and throughput of every retrieval config, side by side, on the built indexes.

    .venv/bin/python benchmarks/bench_retrieval.py [--repeat 3]

Needs `make run` first. For each statute config in evals/configs/: the median and p95
milliseconds of one query (embedding, analysis, every retriever, fusion and post-processing
included), and the throughput over the whole nyaya-statutes set (queries per second, one
process, one query at a time), best of --repeat passes; the ratio column is each median over
the fastest config's. Tuned configs are fitted before they are timed (not counted).
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

import numpy as np
import pandas as pd

from evals.configs import configs_for, load_config
from evals.querysets import load_queryset
from evals.runner import load_statute_resources
from evals.splits import is_tuned
from evals.tuning import fit
from nyaya.index.store import open_store
from nyaya.retrieval.pipeline import StatuteSearch
from nyaya.settings import Settings

K = 10


@dataclass(frozen=True)
class RetrievalFigures:
    embedder: str
    queries: int
    repeat: int
    rows: list[dict]  # per config: median_ms, p95_ms, queries_per_s


def measure(settings: Settings, repeat: int = 3, configs: list[str] | None = None,
            queries: int | None = None) -> RetrievalFigures:
    """Each statute config (all, or `configs`) over the nyaya-statutes questions (all, or
    the first `queries`), one at a time; the best of `repeat` passes by total time."""
    queryset = load_queryset("nyaya-statutes")
    texts = queryset.queries["query"].tolist()[:queries]
    store = open_store(settings.qdrant_path, settings.qdrant_url, settings.qdrant_api_key,
                       read_only=True)
    rows = []
    try:
        resources = load_statute_resources(settings, store)
        for name in configs or configs_for("statutes"):
            params = load_config(name).params
            if is_tuned(params):  # fitted first, on the training half, as the evaluation does
                params, _ = fit(lambda p, n=name: StatuteSearch(n, p, resources), params,
                                queryset)
            search = StatuteSearch(name, params, resources)
            search.search(texts[0], K)  # warm: BM25 index, caches
            best: np.ndarray | None = None
            for _ in range(repeat):
                times = []
                for text in texts:
                    started = time.perf_counter()
                    search.search(text, K)
                    times.append((time.perf_counter() - started) * 1000)
                current = np.array(times)
                if best is None or current.sum() < best.sum():
                    best = current
            rows.append({"config": name, "median_ms": round(float(np.median(best)), 2),
                         "p95_ms": round(float(np.percentile(best, 95)), 2),
                         "queries_per_s": round(len(texts) / (best.sum() / 1000), 1)})
    finally:
        store.close()
    return RetrievalFigures(resources.embedder.name, len(texts), repeat, rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    result = measure(Settings.from_env(), args.repeat)
    table = pd.DataFrame(result.rows).sort_values("median_ms")
    table["x_fastest"] = (table["median_ms"] / table["median_ms"].min()).round(2)
    print(f"{result.queries} queries (nyaya-statutes), k={K}, embedder "
          f"{result.embedder}; best of {result.repeat}")
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
