"""Citation verification speed, in-process, on the real tables; prints figures.

    make bench            # or: .venv/bin/python benchmarks/bench_verify.py

Target (issue: citation verification): at least 10,000 citations verified per second in
process (the LLM panel it replaces took about 0.5 s per citation). Needs `make run` first.
"""

from __future__ import annotations

import random
import time
from datetime import date

from nyaya.settings import Settings
from nyaya.tables import read_table
from nyaya.verify.cases import load_case_verifier
from nyaya.verify.gate import verify_text
from nyaya.verify.statutes import StatuteChecker

STATUTE_FORMS = ("Section {n} {act}", "s. {n} of the {act}", "{act} {n}", "u/s {n} {act}")


def main() -> None:
    settings = Settings.from_env()
    started = time.perf_counter()
    checker = StatuteChecker.from_settings(settings)
    cases = load_case_verifier(settings)
    loaded = time.perf_counter() - started
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
    answers = [" ".join(sentences[i:i + 10]) for i in range(0, len(sentences), 10)]
    started = time.perf_counter()
    reports = [verify_text(a, checker, as_of=date(2025, 1, 1), case_verifier=cases)
               for a in answers]
    elapsed = time.perf_counter() - started
    citations = sum(len(r.verdicts) for r in reports)
    print(f"tables loaded in {loaded:.1f} s; {len(answers)} answers, {citations} citations "
          f"verified in {elapsed:.2f} s = {citations / elapsed:,.0f} citations/s "
          f"(target >= 10,000/s)")


if __name__ == "__main__":
    main()
