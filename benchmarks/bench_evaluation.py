"""Evaluation time: 12 configs over every query set they run on, warm, against the 2-minute
target of issue 7; the cold-start costs (resource and model loading, ranx's numba JIT) apart.

    .venv/bin/python benchmarks/bench_evaluation.py [--configs a,b,...] [--queries N]

Needs `make run` first. Warm means: resources loaded and ranx compiled once; the figure is the
wall time of searching every query of every set and computing every metric of the report
(overall, per query type, domain and split). The 12 default configs span the three sides and
every kind of retriever and fusion; kg-citerag is left out of the default list because its
graph expansion over IRLeD's 200 whole-judgment queries alone takes about 100 s (run it with
--configs to see). `--queries N` keeps each query set's first N queries, for quick runs.
"""

from __future__ import annotations

import argparse
import os
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from evals.configs import load_config
from evals.corpus_sets import CANDIDATE_SOURCES, load_any_queryset
from evals.metrics import DEFAULT_METRICS, STATUTE_METRICS, evaluate_groups
from evals.querysets import QuerySet
from evals.runner import SIDES, group_tags, run_queryset
from evals.runs import write_trec
from nyaya.index.store import open_store
from nyaya.settings import Settings
from nyaya.tables import read_table

TWELVE = ("bm25-sections", "dense-qdrant", "sparse-qdrant", "rrf-dense-sparse", "weighted-rrf",
          "qdrant-hybrid-boosted", "lookup-weighted-rrf", "rrf-mmr", "role-lawyer",
          "precedents-dense-sparse-rrf", "precedents-sparse", "aila-statutes-rrf")
TARGET_SECONDS = 120


@dataclass(frozen=True)
class EvaluationFigures:
    configs: int
    rows: list[dict]  # per (config, query set): queries, search_s, metrics_s, median_ms
    cold: dict[str, float]  # what is paid once per process -> seconds
    warm_s: float

    @property
    def queries(self) -> int:
        return sum(row["queries"] for row in self.rows)


def first_queries(queryset: QuerySet, count: int | None) -> QuerySet:
    """The set cut to its first `count` queries and their qrels (all of it for None)."""
    if count is None:
        return queryset
    queries = queryset.queries.head(count)
    kept = set(queries["qid"])
    return QuerySet(queryset.name, queries,
                    {qid: grades for qid, grades in queryset.qrels.items() if qid in kept})


def measure(settings: Settings, names: Sequence[str], queries: int | None = None,
            runs_dir: Path | None = None) -> EvaluationFigures:
    """Search every query set of each config (each set's first `queries` when given) and
    compute every metric of the report, warm; the cold-start costs (first ranx call, each
    side's resources) timed apart. Meaningful only in a fresh process: a warm one has no cold
    start left to time. Given `runs_dir`, each run is also written there as
    `<query set>/<config>.trec`, as the pipeline writes it."""
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
                    queryset = first_queries(load_any_queryset(
                        queryset_name, settings.corpus_root, judgments), queries)
                    started = time.perf_counter()
                    timed = run_queryset(search, queryset, int(params["top_k"]),
                                         CANDIDATE_SOURCES.get(queryset_name))
                    searched = time.perf_counter() - started
                    if runs_dir is not None:
                        write_trec(timed.run, runs_dir / queryset_name / f"{name}.trec", name,
                                   queryset.queries["qid"].tolist())
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
    return EvaluationFigures(len(names), rows, cold, warm_total)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--configs", default=",".join(TWELVE))
    parser.add_argument("--queries", type=int, default=None,
                        help="first N queries of each set only (default: all)")
    args = parser.parse_args()
    print(f"NUMBA_CACHE_DIR={os.environ.get('NUMBA_CACHE_DIR', '(unset: cold JIT every run)')}")
    result = measure(Settings.from_env(), args.configs.split(","), args.queries)
    pd.set_option("display.width", 160)
    print(pd.DataFrame(result.rows).to_string(index=False))
    print("\ncold start (paid once per process, not in the warm figure):")
    for what, seconds in result.cold.items():
        print(f"  {what}: {seconds:.1f} s")
    warm_total = result.warm_s
    print(f"\nwarm: {result.configs} configs, {len(result.rows)} (config, query set) runs, "
          f"{result.queries} queries: {warm_total:.1f} s "
          f"(target {TARGET_SECONDS} s: {'met' if warm_total <= TARGET_SECONDS else 'MISSED'})")


if __name__ == "__main__":
    main()
