"""Judgment ingestion, chunking and citation extraction over the whole corpus; prints figures.

    make bench            # or: .venv/bin/python benchmarks/bench_judgments.py

Target (issue: Supreme Court judgments): ingest, chunk and extract mentions for all ~5,100
judgments in at most 3 minutes on a 2-core machine. Needs the statute tables
(`make run` builds them) for the act registry and sections.
"""

from __future__ import annotations

import resource
import time

from nyaya.judgments import tables
from nyaya.settings import Settings
from nyaya.tables import read_table


def main() -> None:
    settings = Settings.from_env()
    corpus_root = settings.require_corpus()
    act_registry = read_table(settings.table_path("act_registry"))
    sections = read_table(settings.table_path("sections"))
    timings: dict[str, float] = {}
    start = time.perf_counter()
    judgments, registry, quarantine = tables.judgment_tables(corpus_root)
    timings["read, parse headers, link cases and registry"] = time.perf_counter() - start
    step = time.perf_counter()
    chunks = tables.chunk_table(judgments)
    timings[f"chunk ({len(chunks)} chunks)"] = time.perf_counter() - step
    step = time.perf_counter()
    mentions = tables.mention_table(judgments, chunks, act_registry, sections, registry)
    timings[f"extract + resolve mentions ({len(mentions)})"] = time.perf_counter() - step
    total = time.perf_counter() - start
    megabytes = judgments["text_chars"].sum() / 1e6
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"judgments: {len(judgments)} ({megabytes:.1f} M characters), {len(registry)} "
          f"registry records, {len(quarantine)} quarantined")
    for name, seconds in timings.items():
        print(f"  {name:<55} {seconds:7.2f} s")
    print(f"  {'TOTAL (target <= 180 s)':<55} {total:7.2f} s   "
          f"{len(judgments) / total:.1f} judgments/s, {megabytes / total:.2f} M chars/s, "
          f"peak RSS {peak_mib:.0f} MiB")


if __name__ == "__main__":
    main()
