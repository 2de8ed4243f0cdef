"""Faults injected into a copy of a built data folder: each found, repaired or refused, and
nothing lost. Prints the table docs/operations.md keeps.

    make faults      # or: .venv/bin/python benchmarks/bench_faults.py [--keep]

Needs a data folder built by `make run` (data/). It is copied (data/faults/, deleted after
unless --keep) with its Dagster storage, and every command runs with NYAYA_DATA and the
storage pointed at the copy: the copy is also a moved data folder, so every check must read
where the folder is now. Per fault: what was injected, the command that ran after it, whether
its output named the fault, how long it took, and what was lost: the row count of the tables
and the point count of the collections it touched, before against after (must be equal).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from nyaya.index.store import EdgeStore  # noqa: E402
from nyaya.tables import read_table  # noqa: E402

NYAYA = [sys.executable, "-m", "pipelines.cli"]


@dataclass(frozen=True)
class Outcome:
    fault: str
    command: str
    detected: bool
    said: str  # the line that named it
    seconds: float
    lost: str


class Copy:
    """A copy of the data folder and the environment that points every command at it."""

    def __init__(self, source: Path, target: Path) -> None:
        if target.exists():
            shutil.rmtree(target)
        shutil.copytree(source, target, ignore=shutil.ignore_patterns(
            ".readers", "faults", "scaling", "numba_cache", ".writer.lock"))
        self.data = target
        self.env = {**os.environ, "NYAYA_DATA": str(target), "DAGSTER_HOME": str(REPO),
                    "NYAYA_DAGSTER_STORAGE": str(target / "dagster"),
                    "NUMBA_CACHE_DIR": str(source / "numba_cache"),
                    "HF_HUB_OFFLINE": "1", "HF_DATASETS_OFFLINE": "1"}

    def run(self, *args: str, stdin: bytes | None = None) -> tuple[int, str, float]:
        started = time.perf_counter()
        done = subprocess.run([*NYAYA, *args], cwd=REPO, env=self.env, input=stdin,
                              capture_output=True)
        return (done.returncode, (done.stdout + done.stderr).decode(errors="replace"),
                time.perf_counter() - started)

    def start(self, *args: str) -> subprocess.Popen:
        return subprocess.Popen([*NYAYA, *args], cwd=REPO, env=self.env,
                                stdout=subprocess.PIPE, stderr=subprocess.STDOUT)

    def rows(self, table: str) -> int:
        return len(read_table(self.data / "warehouse" / f"{table}.parquet"))

    def points(self, collection: str) -> int:
        store = EdgeStore(self.data / "qdrant", read_only=True)
        try:
            return store.count(collection)
        finally:
            store.close()


def _line(output: str, needle: str) -> str:
    return next((line.strip() for line in output.splitlines() if needle in line), "")


def _lost(before: dict[str, int], after: dict[str, int]) -> str:
    differ = [f"{name} {before[name]:,} -> {after.get(name, 0):,}" for name in before
              if after.get(name) != before[name]]
    return "; ".join(differ) or "none (" + ", ".join(f"{n} {v:,}" for n, v in before.items()) + ")"


def qdrant_file_deleted(copy: Copy) -> Outcome:
    """One file of a legal_sections segment deleted: Qdrant opens the shard anyway, with a
    fraction of its points."""
    before = {"legal_sections points": copy.points("legal_sections")}
    victim = next(path for path in sorted((copy.data / "qdrant" / "legal_sections").rglob("*"))
                  if path.name == "id_tracker.mappings")
    victim.unlink()
    refused, said, _ = copy.run("search", "punishment for murder", "-k", "1")
    code, output, seconds = copy.run("run", "--job", "index_job")
    after = {"legal_sections points": copy.points("legal_sections")}
    found = "store damaged" in output and refused == 2 and "is damaged" in said
    return Outcome("Qdrant segment file deleted (id_tracker.mappings)",
                   "nyaya search, then nyaya run --job index_job", found and code == 0,
                   _line(said, "is damaged")[:100] + "; "
                   + (_line(output, "rebuilt with the same content")
                      or "its readers rebuilt (content before unknown)")[:100],
                   seconds, _lost(before, after))


def truncated(fault: str, target: Callable[[Copy], Path], cut: int, job: str, counted: str,
              count: Callable[[Copy], int]) -> Callable[[Copy], Outcome]:
    """A file of the copy cut short by `cut` bytes, then `nyaya run --job <job>`."""
    def inject(copy: Copy) -> Outcome:
        before = {counted: count(copy)}
        path = target(copy)
        path.write_bytes(path.read_bytes()[:-cut])
        code, output, seconds = copy.run("run", "--job", job)
        after = {counted: count(copy)}
        # rebuilt byte-identical, so nothing that reads it is rebuilt, then or later
        spared = "rebuilt with the same content" in output and "materializing" not in \
            output.split("rebuilt with the same content", 1)[1]
        again, later, _ = copy.run("run", "--job", job)
        spared = spared and again == 0 and "nothing to do, every asset is fresh" in later
        return Outcome(fault, f"nyaya run --job {job}",
                       "output corrupted" in output and code == 0 and spared,
                       _line(output, "output corrupted")[:100] + "; "
                       + _line(output, "rebuilt with the same content")[:100],
                       seconds, _lost(before, after))
    return inject


def two_runs_at_once(copy: Copy) -> Outcome:
    """A second `nyaya run` started while the first holds the folder."""
    before = {"sections rows": copy.rows("sections")}
    first = copy.start("run", "--job", "ingest_job")
    time.sleep(3)
    code, output, seconds = copy.run("run", "--job", "ingest_job")
    first_code = first.wait()
    after = {"sections rows": copy.rows("sections")}
    return Outcome("two nyaya run at once", "the second nyaya run --job ingest_job",
                   code == 2 and "is being written by PID" in output and first_code == 0,
                   _line(output, "is being written")[:140], seconds, _lost(before, after))


def refused_input(name: str, args: tuple[str, ...], needle: str,
                  stdin: bytes | None = None) -> Callable[[Copy], Outcome]:
    def inject(copy: Copy) -> Outcome:
        code, output, seconds = copy.run(*args, stdin=stdin)
        return Outcome(name, "nyaya " + " ".join(args)[:60], code == 2 and needle in output,
                       _line(output, needle)[:140], seconds, "none (nothing written)")
    return inject


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep data/faults/ afterwards")
    args = parser.parse_args(argv)
    source = REPO / "data"
    if not (source / "warehouse" / "sections.parquet").exists():
        print("bench_faults: no built data folder at data/: run `make run` first",
              file=sys.stderr)
        return 2
    started = time.perf_counter()
    copy = Copy(source, source / "faults")
    print(f"copied data/ to {copy.data} in {time.perf_counter() - started:.0f} s", flush=True)
    big = copy.data.parent / "faults-20mb.txt"
    big.write_text("Murder is punished under BNS 103 and was under IPC 302. " * 360_000)
    faults = [
        qdrant_file_deleted,
        # the copy is a moved folder: the check must read the copy, the original is intact
        truncated("table truncated in a copied data folder",
                  lambda c: c.data / "warehouse" / "definitions_index.parquet", 4096,
                  "ingest_job", "definitions_index rows", lambda c: c.rows("definitions_index")),
        two_runs_at_once,
        refused_input("query-set name that is a path", (
            "eval", str(big), "--queryset", "../../../../tmp/x"), "unknown query set"),
        refused_input("20 MB of text to verify", ("verify", str(big)), "characters; at most"),
        refused_input("invalid UTF-8 on standard input", ("verify", "-"), "not UTF-8 text",
                      stdin=b"BNS 103 \xff\xfe murder"),
        # rebuilt from the embedding cache, byte-identical: what reads the vectors is spared
        truncated("vector part truncated",
                  lambda c: sorted((c.data / "vectors" / "sc_judgments").glob("*.npy"))[0], 64,
                  "index_job", "sc_judgments points", lambda c: c.points("sc_judgments")),
    ]
    outcomes = []
    try:
        for inject in faults:
            outcomes.append(inject(copy))
            print(f"  {outcomes[-1].fault}: {'found' if outcomes[-1].detected else 'MISSED'} "
                  f"in {outcomes[-1].seconds:.1f} s", flush=True)
    finally:
        big.unlink(missing_ok=True)
        if not args.keep:
            shutil.rmtree(copy.data, ignore_errors=True)
    print("\n| fault | after it | found, repaired or refused | said | time | data lost |")
    print("|---|---|---|---|---|---|")
    for o in outcomes:
        said = o.said.replace("|", "/")
        print(f"| {o.fault} | `{o.command}` | {'yes' if o.detected else '**no**'} | {said} | "
              f"{o.seconds:.1f} s | {o.lost} |")
    return 0 if all(o.detected and o.lost.startswith("none") for o in outcomes) else 1


if __name__ == "__main__":
    sys.exit(main())
