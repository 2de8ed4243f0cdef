"""Metric libraries side by side: ranx (what nyaya uses) against pytrec_eval (trec_eval's own
code), evaluating the same real runs with the same measures.

    .venv/bin/python benchmarks/bench_metrics.py [--per-set N] [--repeat 3]

Needs `make run` first (the TREC runs in data/runs/<query set>/<config>.trec and the judgments
table for the IRLeD qrels). Each run's ties are broken as evals.metrics does before either
library sees it, so both must agree (tests/test_trec_eval_parity.py checks it): the largest
difference of any mean is printed beside the times. Timed per library, a pass over every
run (building the library's qrels and run objects from the same dicts, evaluating, averaging
over the judged queries): the first pass, then the best of --repeat more. The first is apart:
ranx holds doc ids in numpy arrays as wide as the longest id, and numba specializes its
kernels per width, so a query set with a new width pays a compile or a load from
NUMBA_CACHE_DIR once per process.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import pytrec_eval
from ranx import Qrels, Run, evaluate

from evals.configs import config_names, load_config, side_of
from evals.corpus_sets import load_any_queryset, querysets_for
from evals.metrics import TREC_EVAL_NAMES
from evals.runs import read_trec, strictly_decreasing
from nyaya.settings import Settings
from nyaya.tables import read_table

#: trec_eval name -> ranx name. bpref is left out: ranx's divides by zero on qrels without a
#: judged non-relevant document, so nyaya computes its own (evals.metrics.bpref).
MEASURES = ({trec: ours for trec, ours in TREC_EVAL_NAMES.items() if ours != "bpref"}
            | {"ndcg_cut_10": "ndcg@10", "recall_100": "recall@100", "P_3": "precision@3"})
LIBRARIES = ("ranx", "pytrec_eval")

Qrel = dict[str, dict[str, int]]
RunDict = dict[str, dict[str, float]]


@dataclass(frozen=True)
class RealRun:
    queryset: str
    config: str
    qrels: Qrel
    run: RunDict  # every judged query, empty where the run has no line for it

    @property
    def lines(self) -> int:
        return sum(len(docs) for docs in self.run.values())


@dataclass(frozen=True)
class MetricsFigures:
    runs: int
    queries: int  # judged queries, summed over the runs
    lines: int
    first_pass_s: dict[str, float]  # library -> the first pass over every run
    warm_s: dict[str, float]  # library -> the best of the passes after it
    max_difference: float  # largest |ranx - pytrec_eval| of any mean of any run


def run_paths(settings: Settings) -> dict[str, list[Path]]:
    """query set -> the runs written for it by today's configs (folders of renamed sets and
    configs may linger in data/runs; they are not read)."""
    paths: dict[str, list[Path]] = {}
    for name in config_names():
        for queryset in querysets_for(side_of(load_config(name))):
            path = settings.data_dir / "runs" / queryset / f"{name}.trec"
            if path.exists():
                paths.setdefault(queryset, []).append(path)
    return dict(sorted(paths.items()))


def load_runs(settings: Settings, per_set: int | None = None) -> list[RealRun]:
    """The written runs of every query set (its first `per_set` configs when given), each
    over its set's judged queries."""
    judgments = read_table(settings.table_path("judgments"))
    runs = []
    for queryset, paths in run_paths(settings).items():
        qrels = load_any_queryset(queryset, settings.corpus_root, judgments,
                                  settings.warehouse).qrels
        for path in paths[:per_set]:
            frame = strictly_decreasing(read_trec(path))
            run: RunDict = {qid: {} for qid in qrels}
            for qid, doc_id, score in zip(frame["qid"], frame["doc_id"], frame["score"],
                                          strict=True):
                if qid in run:
                    run[qid][doc_id] = float(score)
            runs.append(RealRun(queryset, path.stem, qrels, run))
    if not runs:
        raise FileNotFoundError(f"no runs under {settings.data_dir / 'runs'}: `make run` first")
    return runs


def with_ranx(real: RealRun) -> dict[str, float]:
    scores = evaluate(Qrels(real.qrels), Run(real.run), list(MEASURES.values()),
                      make_comparable=True)
    return {name: float(scores[name]) for name in MEASURES.values()}


def with_pytrec_eval(real: RealRun) -> dict[str, float]:
    """Means over the judged queries: trec_eval skips a query without lines, which is a 0."""
    evaluator = pytrec_eval.RelevanceEvaluator(real.qrels, set(MEASURES))
    per_query = evaluator.evaluate({qid: docs for qid, docs in real.run.items() if docs})
    return {ours: sum(scores[trec] for scores in per_query.values()) / len(real.qrels)
            for trec, ours in MEASURES.items()}


EVALUATORS: dict[str, Callable[[RealRun], dict[str, float]]] = {
    "ranx": with_ranx, "pytrec_eval": with_pytrec_eval}


def measure(settings: Settings, per_set: int | None = None, repeat: int = 3) -> MetricsFigures:
    """Both libraries over the same runs: a first pass, then the best of `repeat` more."""
    runs = load_runs(settings, per_set)
    first, warm, results = {}, {}, {}
    for library in LIBRARIES:
        evaluator, passes = EVALUATORS[library], []
        for _ in range(1 + repeat):
            started = time.perf_counter()
            results[library] = [evaluator(real) for real in runs]
            passes.append(time.perf_counter() - started)
        first[library], warm[library] = passes[0], min(passes[1:])
    difference = max(abs(ours[name] - theirs[name])
                     for ours, theirs in zip(results["ranx"], results["pytrec_eval"],
                                             strict=True)
                     for name in MEASURES.values())
    return MetricsFigures(len(runs), sum(len(real.qrels) for real in runs),
                          sum(real.lines for real in runs), first, warm, difference)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--per-set", type=int, default=None,
                        help="first N configs' runs of each query set (default: all)")
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    result = measure(Settings.from_env(), args.per_set, args.repeat)
    print(f"{result.runs} real runs, {result.queries} judged queries, {result.lines:,} lines; "
          f"measures {', '.join(MEASURES.values())}; warm: best of {args.repeat}")
    print(f"  {'library':<12} {'first pass s':>12} {'warm s':>8} {'warm x ranx':>12}")
    for library in LIBRARIES:
        warm = result.warm_s[library]
        print(f"  {library:<12} {result.first_pass_s[library]:12.3f} {warm:8.3f} "
              f"{warm / result.warm_s['ranx']:12.2f}")
    print(f"largest difference of any mean: {result.max_difference:.2e}")


if __name__ == "__main__":
    main()
