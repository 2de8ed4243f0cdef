"""Run the page-text parser over every India Code Act that lacks `## Section` headings.

Prints, per Act, the sections recovered, rows quarantined, the share found with an agreeing
title (confidence 0.8) and the seconds taken, then totals; `--samples N` also prints N random
sections per Act so a person can check that they are real sections, not footnote soup.

    NYAYA_CORPUS=../shared/corpus python benchmarks/pagetext_survey.py [--samples 2]
"""

from __future__ import annotations

import argparse
import os
import random
import sys
import time
from collections import Counter
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from nyaya.statutes.model import SourceLine  # noqa: E402
from nyaya.statutes.pagetext import CONFIDENCE_TITLE_MATCH, parse_page_text_act  # noqa: E402


def act_lines(act_dir: Path, corpus: Path) -> list[SourceLine]:
    """All lines of an Act's part files after their front matter, with file and line."""
    out: list[SourceLine] = []
    for path in sorted(act_dir.glob("part-*.md")):
        rel = str(path.relative_to(corpus))
        lines = path.read_text(encoding="utf-8").splitlines()
        closing = lines.index("---", 1) if lines and lines[0] == "---" else -1
        out += [SourceLine(rel, n + 1, lines[n]) for n in range(closing + 1, len(lines))]
    return out


def page_text_acts(corpus: Path) -> list[Path]:
    acts = []
    for act_dir in sorted((corpus / "statutes" / "indiacode").iterdir()):
        texts = (p.read_text(encoding="utf-8") for p in sorted(act_dir.glob("part-*.md")))
        if act_dir.is_dir() and not any("\n## Section" in t for t in texts):
            acts.append(act_dir)
    return acts


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--samples", type=int, default=0, help="random sections shown per Act")
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    corpus = Path(os.environ.get("NYAYA_CORPUS", REPO.parent / "shared" / "corpus")).resolve()
    rng = random.Random(args.seed)

    totals: Counter[str] = Counter()
    reasons: Counter[str] = Counter()
    total_seconds = 0.0
    print(f"{'act':70} {'sect':>5} {'quar':>5} {'@0.8':>6} {'sec':>7}")
    for act_dir in page_text_acts(corpus):
        lines = act_lines(act_dir, corpus)
        began = time.perf_counter()
        records, quarantined = parse_page_text_act(lines, act_code=act_dir.name)
        seconds = time.perf_counter() - began
        total_seconds += seconds
        titled = sum(r.extraction_confidence == CONFIDENCE_TITLE_MATCH for r in records)
        share = titled / len(records) if records else 0.0
        print(f"{act_dir.name[:70]:70} {len(records):5} {len(quarantined):5} "
              f"{share:6.0%} {seconds:7.3f}")
        totals["acts"] += 1
        totals["sections"] += len(records)
        totals["titled"] += titled
        totals["quarantined"] += len(quarantined)
        reasons.update(q.reason for q in quarantined)
        for record in rng.sample(records, min(args.samples, len(records))):
            print(f"    s.{record.section_number} [{record.extraction_confidence}] "
                  f"ch={record.chapter_number}/{record.chapter_title} {record.status} "
                  f"{record.title!r}\n      text: {record.text[:160]!r}\n"
                  f"      notes: {record.footnotes[:100]!r}")
    share = totals["titled"] / totals["sections"] if totals["sections"] else 0.0
    print(f"\n{totals['acts']} Acts: {totals['sections']} sections, "
          f"{totals['quarantined']} quarantined ({dict(reasons)}), {share:.0%} at 0.8, "
          f"{total_seconds:.2f} s parsing")


if __name__ == "__main__":
    main()
