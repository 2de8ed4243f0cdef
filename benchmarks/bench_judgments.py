"""Judgment ingestion, chunking and citation extraction over the whole corpus; prints figures.

    make bench            # or: .venv/bin/python benchmarks/bench_judgments.py [--sample N]

Target (issue: Supreme Court judgments): ingest, chunk and extract mentions for all ~5,100
judgments in at most 3 minutes on a 2-core machine. Needs the statute tables
(`make run` builds them) for the act registry and sections. `--sample N` chunks and extracts
only N judgments (drawn at random after reading them all), for quick runs.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass

from benchlib import peak_rss_mib

from nyaya.judgments import tables
from nyaya.judgments.sources import JudgmentRecord, read_judgments
from nyaya.settings import Settings
from nyaya.statutes.model import Quarantined
from nyaya.tables import read_table, records_frame

READ_STEP = "read, parse headers, link cases and registry"


@dataclass(frozen=True)
class JudgmentFigures:
    judgments: int  # read
    processed: int  # chunked and extracted (all, or the sample)
    registry_records: int
    quarantined: int
    processed_megachars: float
    step_seconds: dict[str, float]  # step (with its row count) -> seconds
    total_s: float
    peak_rss_mib: float


def measure(settings: Settings, sample: int | None = None) -> JudgmentFigures:
    """Read every judgment and link it; chunk and extract mentions of all (or `sample`)."""
    corpus_root = settings.require_corpus()
    act_registry = read_table(settings.table_path("act_registry"))
    sections = read_table(settings.table_path("sections"))
    timings: dict[str, float] = {}
    start = time.perf_counter()
    records, quarantined = read_judgments(corpus_root)
    judgments, registry, quarantine = tables.judgment_tables(
        corpus_root, records_frame(records, JudgmentRecord),
        records_frame(quarantined, Quarantined))
    timings[READ_STEP] = time.perf_counter() - start
    processed = judgments if sample is None else judgments.sample(
        min(sample, len(judgments)), random_state=7).sort_values("doc_id")
    chosen = set(processed["doc_id"])
    step = time.perf_counter()
    part = tables.judgment_part([r for r in records if r.doc_id in chosen], [])
    chunks = tables.chunk_table(part["chunks"])
    timings[f"chunk + find case citations, the per-year work ({len(chunks)} chunks)"] = \
        time.perf_counter() - step
    step = time.perf_counter()
    mentions = tables.mention_table(processed, chunks, act_registry, sections, registry,
                                    part["case_citations"])
    timings[f"statute mentions + resolve ({len(mentions)} mentions)"] = \
        time.perf_counter() - step
    total = time.perf_counter() - start
    return JudgmentFigures(len(judgments), len(processed), len(registry), len(quarantine),
                           processed["text_chars"].sum() / 1e6, timings, total, peak_rss_mib())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sample", type=int, default=None,
                        help="judgments chunked and extracted (default: all)")
    args = parser.parse_args()
    result = measure(Settings.from_env(), args.sample)
    megabytes, total = result.processed_megachars, result.total_s
    sampled = "" if result.processed == result.judgments else f", {result.processed} processed"
    print(f"judgments: {result.judgments}{sampled} ({megabytes:.1f} M characters), "
          f"{result.registry_records} registry records, {result.quarantined} quarantined")
    for name, seconds in result.step_seconds.items():
        print(f"  {name:<55} {seconds:7.2f} s")
    print(f"  {'TOTAL (target <= 180 s)':<55} {total:7.2f} s   "
          f"{result.processed / total:.1f} judgments/s, {megabytes / total:.2f} M chars/s, "
          f"peak RSS {result.peak_rss_mib:.0f} MiB")


if __name__ == "__main__":
    main()
