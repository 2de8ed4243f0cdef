"""Statute ingestion and exact-lookup speed on the real corpus; prints figures.

    make bench            # or: .venv/bin/python benchmarks/bench_statutes.py

Targets (issue: foundation and statute corpus): whole statute corpus ingested into every
table in <= 60 s on a 2-core machine; >= 10,000 in-process lookups per second.
"""

from __future__ import annotations

import random
import resource
import time

from nyaya.lookup import StatuteLookup, parse_citation
from nyaya.settings import Settings
from nyaya.statutes import frames
from nyaya.statutes.ingest import ingest_statutes
from nyaya.statutes.registry import build_alias_index
from nyaya.statutes.transitions import build_transition_map

CITATION_FORMS = ("{act} {n}", "s. {n} {act}", "Section {n} of the {title}", "u/s {n} {act}")


def main() -> None:
    corpus_root = Settings.from_env().require_corpus()
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
    peak_mib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024

    print(f"statute corpus: {len(registry)} Acts, {len(sections)} sections, "
          f"{len(quarantine)} quarantined, {len(transitions)} mapping rows")
    for name, seconds in timings.items():
        print(f"  {name:<55} {seconds:7.2f} s")
    print(f"  {'TOTAL ingest (target <= 60 s)':<55} {total:7.2f} s   peak RSS {peak_mib:.0f} MiB")

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
    rounds = 5
    step = time.perf_counter()
    found = sum(lookup.lookup(q).found for _ in range(rounds) for q in queries)
    elapsed = time.perf_counter() - step
    rate = rounds * len(queries) / elapsed
    parsed = [parse_citation(q, aliases) for q in queries]
    step = time.perf_counter()
    for _ in range(rounds):
        for cited in parsed:
            lookup.resolve(cited)
    resolve_rate = rounds * len(parsed) / (time.perf_counter() - step)
    print(f"lookups: {rounds * len(queries)} citations in {elapsed:.2f} s = {rate:,.0f}/s "
          f"(target >= 10,000/s), found {found // rounds} of {len(queries)} per round; "
          f"resolve only (pre-parsed): {resolve_rate:,.0f}/s")


if __name__ == "__main__":
    main()
