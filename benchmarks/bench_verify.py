"""Citation extraction and verification speed, in-process; prints figures.

    make bench            # or: .venv/bin/python benchmarks/bench_verify.py

Targets (issue: citation verification): extraction of statute mentions and case citations at
under 1 s per MB of text, adversarial (the ADVERSARIAL texts of the extraction tests) or real
(judgments read from the corpus); at least 10,000 citations verified per second in process
(the LLM panel it replaces took about 0.5 s per citation). Extraction needs only the corpus;
verification needs the warehouse tables (`make run` first) and is skipped without them.
"""

from __future__ import annotations

import gc
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))  # the adversarial texts live with the extraction tests

from nyaya.citations.cases import extract_case_citations  # noqa: E402
from nyaya.citations.statutes import extract_statute_mentions  # noqa: E402
from nyaya.settings import Settings  # noqa: E402
from nyaya.statutes.ingest import ingest_statutes  # noqa: E402
from nyaya.statutes.registry import (  # noqa: E402
    AliasIndex,
    alias_index_from_rows,
    build_alias_index,
)
from nyaya.tables import read_table, records  # noqa: E402
from nyaya.verify.cases import load_case_verifier  # noqa: E402
from nyaya.verify.gate import verify_text  # noqa: E402
from nyaya.verify.statutes import StatuteChecker  # noqa: E402
from tests.test_citation_extraction import ADVERSARIAL, megabyte  # noqa: E402

STATUTE_FORMS = ("Section {n} {act}", "s. {n} of the {act}", "{act} {n}", "u/s {n} {act}")
MB = 1_000_000  # characters, as in the extraction tests
REPEATS = 3  # the best of these is reported: the machine is shared


@dataclass(frozen=True)
class ExtractionTiming:
    text: str
    statutes_s_per_mb: float
    statutes_found: int
    cases_s_per_mb: float
    cases_found: int


@dataclass(frozen=True)
class ExtractionFigures:
    alias_origin: str
    aliases: int
    prepare_s: float
    repeats: int
    texts: list[ExtractionTiming]


@dataclass(frozen=True)
class VerificationFigures:
    load_s: float
    warm_up_s: float  # what the first citations needing it would read, read at start
    answers: int
    citations: int
    seconds: float  # the first pass: every per-section cache starts empty
    warm_seconds: float  # the best later pass over the same answers, caches filled

    @property
    def citations_per_s(self) -> float:
        return self.citations / self.seconds

    @property
    def warm_citations_per_s(self) -> float:
        return self.citations / self.warm_seconds


def main() -> None:
    settings = Settings.from_env()
    print_extraction(measure_extraction(settings))
    try:
        print_verification(measure_verification(settings))
    except FileNotFoundError as err:
        print(f"verification speed skipped: {err}")


def _aliases(settings: Settings) -> tuple[AliasIndex, str]:
    """The real alias index: from the warehouse when built, else read from the corpus."""
    try:
        rows = records(read_table(settings.table_path("act_registry")))
        return alias_index_from_rows(rows), "warehouse act_registry"
    except FileNotFoundError:
        registry = ingest_statutes(settings.require_corpus()).registry
        return build_alias_index(registry), "statute corpus (warehouse not built)"


def _judgment_text(corpus_root: Path) -> tuple[str, int]:
    """1 MB of real judgment text: AILA judgments in file order, joined, cut at MB."""
    parts: list[str] = []
    size = 0
    for path in sorted((corpus_root / "judgments" / "aila2019" / "casedocs").glob("*.txt")):
        parts.append(path.read_text(encoding="utf-8"))
        size += len(parts[-1]) + 2
        if size >= MB:
            break
    return "\n\n".join(parts)[:MB], len(parts)


def _best(run: Callable[[], list], repeats: int) -> tuple[float, int]:
    """Fastest of `repeats` runs, in seconds, and how many citations it found."""
    best, found = float("inf"), 0
    for _ in range(repeats):
        started = time.perf_counter()
        found = len(run())
        best = min(best, time.perf_counter() - started)
    return best, found


def measure_extraction(settings: Settings, repeats: int = REPEATS,
                       adversarial: bool = True) -> ExtractionFigures:
    """Seconds per MB for statute-mention and case-citation extraction (target < 1 s), on the
    adversarial texts (unless `adversarial` is False) and 1 MB of real judgments."""
    aliases, origin = _aliases(settings)
    started = time.perf_counter()
    extract_statute_mentions("Section 302 IPC", aliases)  # the alias prefixes, built once
    prepared = time.perf_counter() - started
    texts = ({f"adversarial: {name}": megabyte(unit) for name, unit in ADVERSARIAL.items()}
             if adversarial else {})
    real, files = _judgment_text(settings.require_corpus())
    texts[f"real: {files} AILA judgments"] = real
    timings = []
    for name, text in texts.items():
        per_mb = MB / len(text)
        statutes, n_statutes = _best(lambda t=text: extract_statute_mentions(t, aliases),
                                     repeats)
        cases, n_cases = _best(lambda t=text: extract_case_citations(t), repeats)
        timings.append(ExtractionTiming(name, statutes * per_mb, n_statutes, cases * per_mb,
                                        n_cases))
    return ExtractionFigures(origin, len(aliases.by_alias), prepared, repeats, timings)


def print_extraction(result: ExtractionFigures) -> None:
    print(f"extraction: alias index from the {result.alias_origin} ({result.aliases} aliases), "
          f"prepared in {result.prepare_s:.2f} s; best of {result.repeats} runs, "
          "s per MB of 1,000,000 characters (target < 1 s)")
    print(f"  {'text':<36} {'statutes s/MB':>14} {'found':>7} {'cases s/MB':>11} {'found':>7}")
    for row in result.texts:
        flag = "" if max(row.statutes_s_per_mb, row.cases_s_per_mb) < 1 else "  OVER TARGET"
        print(f"  {row.text:<36} {row.statutes_s_per_mb:14.3f} {row.statutes_found:7d} "
              f"{row.cases_s_per_mb:11.3f} {row.cases_found:7d}{flag}")


def measure_verification(settings: Settings, answers: int | None = None) -> VerificationFigures:
    """Citations verified per second against the warehouse tables (target >= 10,000), over
    all 450 synthetic answers of about ten citations each, or the first `answers`."""
    started = time.perf_counter()
    checker = StatuteChecker.from_settings(settings)
    cases = load_case_verifier(settings)
    loaded = time.perf_counter() - started
    started = time.perf_counter()
    checker.warm()  # as `nyaya serve` does at start: the first pass times verification alone
    warmed_up = time.perf_counter() - started
    sections = read_table(settings.table_path("sections"))
    registry = read_table(settings.table_path("sc_case_registry"))
    rng = random.Random(7)
    curated = sections[sections["act_code"].isin(["BNS_2023", "BNSS_2023", "BSA_2023",
                                                  "IPC_1860", "CrPC_1973", "IEA_1872"])]
    sample = curated.sample(3000, random_state=7, replace=True)
    sentences = [rng.choice(STATUTE_FORMS).format(n=n, act=act.split("_")[0])
                 + " applies to these facts."
                 for n, act in zip(sample["section_number"], sample["act_code"], strict=True)]
    sentences += [f"See {title}, {neutral}." for title, neutral in zip(
        registry["title"].head(1000), registry["neutral_citation"].head(1000), strict=True)
        if isinstance(neutral, str)]
    sentences += [f"BNS {n} is cited here." for n in range(400, 900)]  # NOT_FOUND path
    rng.shuffle(sentences)
    texts = [" ".join(sentences[i:i + 10]) for i in range(0, len(sentences), 10)][:answers]
    # A gate that serves answers keeps its tables for the life of the process: out of the
    # cyclic collector, whose full passes over millions of table objects would otherwise
    # land at random inside the timed loop.
    gc.collect()
    gc.freeze()
    passes = []
    for _ in range(REPEATS):
        started = time.perf_counter()
        reports = [verify_text(a, checker, as_of=date(2025, 1, 1), case_verifier=cases)
                   for a in texts]
        passes.append(time.perf_counter() - started)
    gc.unfreeze()
    return VerificationFigures(loaded, warmed_up, len(texts),
                               sum(len(r.verdicts) for r in reports), passes[0], min(passes[1:]))


def print_verification(result: VerificationFigures) -> None:
    print(f"tables loaded in {result.load_s:.1f} s, what the first citations needing it "
          f"would read in {result.warm_up_s:.1f} s (read at start, as `nyaya serve` does); "
          f"{result.answers} answers, "
          f"{result.citations} citations verified in {result.seconds:.2f} s on the first pass "
          f"= {result.citations_per_s:,.0f} citations/s, {result.warm_seconds:.2f} s warm (best "
          f"of {REPEATS - 1} more passes) = {result.warm_citations_per_s:,.0f} citations/s "
          "(target >= 10,000/s)")


if __name__ == "__main__":
    main()
