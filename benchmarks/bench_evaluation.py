"""Evaluation time: 12 configs over every query set they run on, warm, against the 2-minute
target of issue 7; the cold-start costs (resource and model loading, ranx's numba JIT) apart.

    .venv/bin/python benchmarks/bench_evaluation.py [--configs a,b,...]

Needs `make run` first. Warm means: resources loaded and ranx compiled once; the figure is the
wall time of searching every query of every set and computing every metric of the report
(overall, per query type, domain and split). The 12 default configs span the three sides and
every kind of retriever and fusion; kg-citerag is left out of the default list because its
graph expansion over IRLeD's 200 whole-judgment queries alone takes about 100 s (run it with
--configs to see).
"""

from __future__ import annotations

import argparse
import os
import time

import pandas as pd

from assets.evaluation import SIDES, group_tags
from evals.configs import load_config
from evals.corpus_sets import CANDIDATE_SOURCES, load_any_queryset
from evals.metrics import DEFAULT_METRICS, STATUTE_METRICS, evaluate_groups
from evals.runner import run_queryset
from nyaya.index.store import open_store
from nyaya.settings import Settings
from nyaya.tables import read_table

TWELVE = ("bm25-sections", "dense-qdrant", "sparse-qdrant", "rrf-dense-sparse", "weighted-rrf",
          "qdrant-hybrid-boosted", "lookup-weighted-rrf", "rrf-mmr", "role-lawyer",
          "precedents-dense-sparse-rrf", "precedents-sparse", "aila-statutes-rrf")
TARGET_SECONDS = 120


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", default=",".join(TWELVE))
    args = parser.parse_args()
    names = args.configs.split(",")
    settings = Settings.from_env()
    print(f"NUMBA_CACHE_DIR={os.environ.get('NUMBA_CACHE_DIR', '(unset: cold JIT every run)')}")
    judgments = read_table(settings.table_path("judgments"))
    cold, rows = {}, []

    started = time.perf_counter()
    evaluate_groups(pd.DataFrame({"qid": ["q"], "doc_id": ["d"], "rank": [1], "score": [1.0]}),
                    {"q": {"d": 1, "e": 0}}, {}, STATUTE_METRICS)
    cold["ranx first evaluation (numba JIT or cache load)"] = time.perf_counter() - started

    store = open_store(settings.qdrant_path, settings.qdrant_url, settings.qdrant_api_key)
    try:
        warm_total = 0.0
        for side, (searcher, load) in SIDES.items():
            chosen = [name for name in names if
                      load_config(name).params.get("side", "statutes") == side]
            if not chosen:
                continue
            started = time.perf_counter()
            resources = load(settings, store)
            cold[f"load {side} resources (indexes, embedder)"] = time.perf_counter() - started
            for name in chosen:
                params = load_config(name).params
                search = searcher(name, params, resources)
                for queryset_name in params["querysets"]:
                    queryset = load_any_queryset(queryset_name, settings.corpus_root, judgments)
                    started = time.perf_counter()
                    timed = run_queryset(search, queryset, int(params["top_k"]),
                                         CANDIDATE_SOURCES.get(queryset_name))
                    searched = time.perf_counter() - started
                    evaluate_groups(timed.run, queryset.qrels, group_tags(queryset),
                                    STATUTE_METRICS if side == "statutes" else DEFAULT_METRICS)
                    scored = time.perf_counter() - started - searched
                    warm_total += searched + scored
                    rows.append({"config": name, "queryset": queryset_name,
                                 "queries": len(queryset.queries),
                                 "search_s": round(searched, 2), "metrics_s": round(scored, 2),
                                 "median_ms": round(timed.median_ms, 2)})
    finally:
        store.close()
    pd.set_option("display.width", 160)
    print(pd.DataFrame(rows).to_string(index=False))
    print("\ncold start (paid once per process, not in the warm figure):")
    for what, seconds in cold.items():
        print(f"  {what}: {seconds:.1f} s")
    runs = len(rows)
    print(f"\nwarm: {len(names)} configs, {runs} (config, query set) runs, "
          f"{sum(r['queries'] for r in rows)} queries: {warm_total:.1f} s "
          f"(target {TARGET_SECONDS} s: {'met' if warm_total <= TARGET_SECONDS else 'MISSED'})")


if __name__ == "__main__":
    main()
