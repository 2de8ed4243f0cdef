"""How often the SIBLING_MEANT rule flags a citation that is right: real judgment chunks (which
cite correctly) through the statute checker; prints the counts and every flagged citation.

    .venv/bin/python benchmarks/bench_siblings.py [--chunks 3000] [--seeds 7 8]

Needs the warehouse tables (`make run`).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import pandas as pd

from nyaya.settings import Settings
from nyaya.verify.model import SIBLING_MEANT
from nyaya.verify.statutes import StatuteChecker, verify_statutes


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=3000, help="chunks per seed")
    parser.add_argument("--seeds", type=int, nargs="+", default=[7, 8])
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    checker = StatuteChecker.from_settings(settings)
    chunks = pd.read_parquet(settings.warehouse / "judgment_chunks.parquet",
                             columns=["chunk_id", "text"])
    statuses: Counter[str] = Counter()
    flagged = []
    for seed in args.seeds:
        sample = chunks.sample(args.chunks, random_state=seed)
        for chunk_id, text in zip(sample["chunk_id"], sample["text"], strict=True):
            for verdict in verify_statutes(text, checker):
                statuses[verdict.status] += 1
                if verdict.status == SIBLING_MEANT:
                    flagged.append((chunk_id, verdict.text, verdict.reason))
    found = sum(n for status, n in statuses.items() if status != "NOT_FOUND")
    print(f"{len(args.seeds) * args.chunks} chunks: {dict(statuses)}")
    print(f"SIBLING_MEANT on {len(flagged)} of {found} found citations "
          f"({len(flagged) / max(found, 1):.2%})")
    for chunk_id, cited, reason in flagged:
        print(f"  {chunk_id}: {cited!r}: {reason}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
