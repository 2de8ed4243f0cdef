"""Statute ingestion and exact-lookup speed on the real corpus; prints figures.

    make bench            # or: .venv/bin/python benchmarks/bench_statutes.py

Targets (issue: foundation and statute corpus): whole statute corpus ingested into every
table in <= 60 s on a 2-core machine; >= 10,000 in-process lookups per second.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path

from benchlib import peak_rss_mib

from nyaya.lookup import StatuteLookup, parse_citation
from nyaya.settings import Settings
from nyaya.statutes import frames
from nyaya.statutes.ingest import ingest_statutes
from nyaya.statutes.registry import build_alias_index
from nyaya.statutes.transitions import build_transition_map

CITATION_FORMS = ("{act} {n}", "s. {n} {act}", "Section {n} of the {title}", "u/s {n} {act}")
ROUNDS = 5


@dataclass(frozen=True)
class StatuteFigures:
    acts: int
    sections: int
    quarantined: int
    mapping_rows: int
    step_seconds: dict[str, float]  # step (with its row count) -> seconds
    total_s: float
    peak_rss_mib: float
    rounds: int
    citations_per_round: int
    found_per_round: int
    lookup_s: float  # all rounds, parse + resolve
    resolve_per_s: float  # pre-parsed citations

    @property
    def lookups_per_s(self) -> float:
        return self.rounds * self.citations_per_round / self.lookup_s


def measure(corpus_root: Path, rounds: int = ROUNDS) -> StatuteFigures:
    """Ingest the whole corpus into every table (timed per step), then time exact lookups
    over mixed citation forms, NOT_FOUND cases included."""
    timings: dict[str, float] = {}
    start = time.perf_counter()
    corpus = ingest_statutes(corpus_root)
    timings["read + parse (registry, sections, quarantine)"] = time.perf_counter() - start
    step = time.perf_counter()
    registry = frames.registry_frame(corpus.registry)
    sections = frames.sections_frame(corpus.sections, registry)
    quarantine = frames.quarantine_frame(corpus.quarantined)
    rows, _ = build_transition_map(corpus_root)
    transitions = frames.transition_frame(rows, sections)
    timings["registry, sections, transition map frames"] = time.perf_counter() - step
    aliases = build_alias_index(corpus.registry)
    for name, build in (("sub_sections", lambda: frames.sub_sections_frame(sections)),
                        ("cross_references",
                         lambda: frames.cross_references_frame(sections, aliases)),
                        ("definitions_index", lambda: frames.definitions_frame(sections)),
                        ("human_review_queue",
                         lambda: frames.review_queue_frame(sections, quarantine, transitions))):
        step = time.perf_counter()
        table = build()
        timings[f"{name} ({len(table)} rows)"] = time.perf_counter() - step
    total = time.perf_counter() - start
    peak_mib = peak_rss_mib()

    lookup = StatuteLookup(registry.to_dict("records"), sections.to_dict("records"),
                           transitions.to_dict("records"), aliases)
    rng = random.Random(7)
    curated = registry[registry["curated"]].set_index("act_code")
    sample = sections[sections["act_code"].isin(curated.index)].sample(2000, random_state=7)
    queries = []
    for act, number in zip(sample["act_code"], sample["section_number"], strict=True):
        alias = curated.loc[act, "aliases"][0]
        form = rng.choice(CITATION_FORMS)
        queries.append(form.format(act=alias, n=number, title=curated.loc[act, "title"]))
    queries += [f"BNS {n}" for n in range(359, 859)]  # NOT_FOUND cases cost the same path
    step = time.perf_counter()
    found = sum(lookup.lookup(q).found for _ in range(rounds) for q in queries)
    elapsed = time.perf_counter() - step
    parsed = [parse_citation(q, aliases) for q in queries]
    step = time.perf_counter()
    for _ in range(rounds):
        for cited in parsed:
            lookup.resolve(cited)
    resolve_rate = rounds * len(parsed) / (time.perf_counter() - step)
    return StatuteFigures(len(registry), len(sections), len(quarantine), len(transitions),
                          timings, total, peak_mib, rounds, len(queries), found // rounds,
                          elapsed, resolve_rate)


def main() -> None:
    result = measure(Settings.from_env().require_corpus())
    print(f"statute corpus: {result.acts} Acts, {result.sections} sections, "
          f"{result.quarantined} quarantined, {result.mapping_rows} mapping rows")
    for name, seconds in result.step_seconds.items():
        print(f"  {name:<55} {seconds:7.2f} s")
    print(f"  {'TOTAL ingest (target <= 60 s)':<55} {result.total_s:7.2f} s   "
          f"peak RSS {result.peak_rss_mib:.0f} MiB")
    lookups = result.rounds * result.citations_per_round
    print(f"lookups: {lookups} citations in {result.lookup_s:.2f} s = "
          f"{result.lookups_per_s:,.0f}/s (target >= 10,000/s), found {result.found_per_round} "
          f"of {result.citations_per_round} per round; resolve only (pre-parsed): "
          f"{result.resolve_per_s:,.0f}/s")


if __name__ == "__main__":
    main()
