"""The citation benchmark (issue 6) on the real warehouse: per-class recall and precision
against the issue's targets, where the misses are, and verification throughput.

    .venv/bin/python benchmarks/bench_citations.py [--seed 0] [--per-class 70] [--misses 5]

Needs the ingested tables (`nyaya run --job ingest_job`, or `make run`) under NYAYA_DATA.
"""

from __future__ import annotations

import argparse
import sys
import time
from dataclasses import dataclass
from pathlib import Path

# the code of the checkout this script is in, not the installed one: a worktree of an older
# commit measures that commit
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pandas as pd

from evals.citation_benchmark import build_items, by_subclass, judged, score, verify_items
from nyaya.settings import Settings
from nyaya.verify.cases import load_case_verifier
from nyaya.verify.statutes import StatuteChecker


@dataclass(frozen=True)
class CitationFigures:
    items: pd.DataFrame  # the labelled items (build_items)
    verdicts: pd.DataFrame  # one row per item (verify_items), with citations and seconds
    build_s: float
    load_s: float

    @property
    def citations(self) -> int:
        return int(self.verdicts["citations"].sum())

    @property
    def verify_s(self) -> float:
        return float(self.verdicts["seconds"].sum())


def measure(settings: Settings, seed: int = 0, per_class: int = 70) -> CitationFigures:
    """Build the labelled items, load the verifier tables, verify every item (each timed)."""
    started = time.perf_counter()
    items = build_items(settings.warehouse, seed, per_class)
    built = time.perf_counter() - started
    started = time.perf_counter()
    checker = StatuteChecker.from_settings(settings)
    cases = load_case_verifier(settings)
    loaded = time.perf_counter() - started
    return CitationFigures(items, verify_items(items, checker, cases), built, loaded)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--per-class", type=int, default=70)
    parser.add_argument("--misses", type=int, default=5, help="wrong verdicts shown per class")
    args = parser.parse_args()
    settings = Settings.from_env()
    result = measure(settings, args.seed, args.per_class)
    items, verdicts = result.items, result.verdicts
    table = score(items, verdicts)
    pd.set_option("display.width", 200)
    pd.set_option("display.max_colwidth", 160)
    pd.set_option("display.max_rows", 200)
    print(f"warehouse: {settings.warehouse}; seed {args.seed}; {len(items)} items "
          f"built in {result.build_s:.1f} s; verifier tables loaded in {result.load_s:.1f} s\n")
    print(table.to_string(index=False, float_format=lambda v: f"{v:.3f}"))
    print()
    print(by_subclass(items, verdicts).to_string(index=False))
    citations, seconds = result.citations, result.verify_s
    print(f"\nthroughput: {citations} citations in {len(items)} items verified in "
          f"{seconds:.2f} s = {citations / seconds:,.0f} citations/s "
          f"({seconds / len(items) * 1000:.2f} ms per item)")
    wrong = judged(items, verdicts).merge(verdicts[["id", "reason"]], on="id")
    wrong = wrong[~wrong["correct"]]
    for cls, group in wrong.groupby("class", sort=False):
        print(f"\n{cls}: {len(group)} not right, e.g.")
        for row in group.head(args.misses).itertuples(index=False):
            print(f"  [{row.subclass}] {row.text!r} as_of={row.as_of} expected {row.expected}"
                  f" {row.expected_successors} -> {row.status} {row.successors}: "
                  f"{row.reason[:220]}")


if __name__ == "__main__":
    main()
