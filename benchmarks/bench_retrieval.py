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

import numpy as np
import pandas as pd

from evals.configs import configs_for, load_config
from evals.querysets import load_queryset
from evals.runner import load_statute_resources
from evals.tuning import fit, is_tuned
from nyaya.index.store import open_store
from nyaya.retrieval.pipeline import StatuteSearch
from nyaya.settings import Settings


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    settings = Settings.from_env()
    queryset = load_queryset("nyaya-statutes")
    queries = queryset.queries["query"].tolist()
    store = open_store(settings.qdrant_path, settings.qdrant_url, settings.qdrant_api_key)
    rows = []
    try:
        resources = load_statute_resources(settings, store)
        for name in configs_for("statutes"):
            params = load_config(name).params
            if is_tuned(params):  # fitted first, on the training half, as the evaluation does
                params, _ = fit(lambda p, n=name: StatuteSearch(n, p, resources), params,
                                queryset)
            search = StatuteSearch(name, params, resources)
            search.search(queries[0], 10)  # warm: BM25 index, caches
            best: np.ndarray | None = None
            for _ in range(args.repeat):
                times = []
                for text in queries:
                    started = time.perf_counter()
                    search.search(text, 10)
                    times.append((time.perf_counter() - started) * 1000)
                current = np.array(times)
                if best is None or current.sum() < best.sum():
                    best = current
            rows.append({"config": name, "median_ms": round(float(np.median(best)), 2),
                         "p95_ms": round(float(np.percentile(best, 95)), 2),
                         "queries_per_s": round(len(queries) / (best.sum() / 1000), 1)})
    finally:
        store.close()
    table = pd.DataFrame(rows).sort_values("median_ms")
    table["x_fastest"] = (table["median_ms"] / table["median_ms"].min()).round(2)
    print(f"{len(queries)} queries (nyaya-statutes), k=10, embedder "
          f"{resources.embedder.name}; best of {args.repeat}")
    print(table.to_string(index=False))


if __name__ == "__main__":
    main()
