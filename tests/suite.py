"""`make test`: the whole suite as two pytest sessions at once, for a 2-core machine.

The real-corpus tests build the main job first (most of the suite's time, with one core idle
much of it); every other test runs beside it at the lowest CPU priority (nice 19), so it takes
the CPU the job leaves idle and gives it back when the job's own threads want it. Each session
keeps its process and order: the real-corpus tests read the job in the process that built it,
as under plain `pytest`. The session beside gets a numba cache of its own, because numba's
on-disk cache is not safe for two processes compiling into it at once (numba/numba#10128).

    python tests/suite.py [PYTEST ARGS...]

ranx's numba code is compiled once, first, beside the real-corpus session's first minutes
(`evals.metrics.compile_ranx`, about 80 s on a cold cache), into that session's cache, which
the session beside then starts from (a copy): neither compiles it on its own, and the job finds
it compiled long before it evaluates anything.

The arguments go to both sessions. Without the corpus (and outside CI) there is nothing to run
beside: one plain session runs, its real-corpus tests skipped. Exits with the first non-zero
status of the two sessions (pytest's own: 1 failed, 5 no test collected), so a failure or an
empty session in either fails the run.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from nyaya.settings import Settings  # noqa: E402

PYTEST = [sys.executable, "-m", "pytest"]


def main(args: list[str]) -> int:
    if not (Settings.from_env().corpus_root / "statutes").is_dir() and not os.environ.get("CI"):
        return subprocess.call([*PYTEST, *args], cwd=ROOT)
    numba_cache = Path(os.environ.get("NUMBA_CACHE_DIR") or ROOT / "data" / "numba_cache")
    beside_cache = numba_cache / "beside"
    started = time.perf_counter()
    running: list[subprocess.Popen] = []
    try:
        running.append(compiling := subprocess.Popen(
            [sys.executable, "-c", "from evals.metrics import compile_ranx; compile_ranx()"],
            cwd=ROOT, env={**os.environ, "NUMBA_CACHE_DIR": str(numba_cache)},
            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True))
        running.append(corpus := subprocess.Popen([*PYTEST, "-m", "corpus", *args], cwd=ROOT))
        _, errors = compiling.communicate()
        if compiling.returncode:  # each session then compiles what it needs on its own
            print(f"compiling ranx's numba code failed (exit {compiling.returncode}):\n{errors}",
                  flush=True)
        shutil.copytree(numba_cache, beside_cache, dirs_exist_ok=True,
                        ignore=lambda folder, _: ["beside"] if Path(folder) == numba_cache else [])
        with tempfile.NamedTemporaryFile("w+", prefix="nyaya-tests-beside-", suffix=".log",
                                         delete=False) as log:
            print(f"tests without the real corpus: running beside, at nice 19, from "
                  f"{time.perf_counter() - started:.0f} s (log: {log.name})", flush=True)
            running.append(beside := subprocess.Popen(
                [*PYTEST, "-m", "not corpus", *args], cwd=ROOT,
                env={**os.environ, "NUMBA_CACHE_DIR": str(beside_cache)}, stdout=log,
                stderr=subprocess.STDOUT, preexec_fn=lambda: os.nice(19)))
            real = corpus.wait()
            other = beside.wait()
            log.seek(0)
            print(f"\n{'=' * 30} tests without the real corpus (beside) {'=' * 30}")
            print(log.read(), end="", flush=True)
    except BaseException:  # Ctrl-C: nothing left running behind
        for process in running:
            process.terminate()
            process.wait()
        raise
    Path(log.name).unlink()  # printed above in full
    print(f"\nboth sessions done in {time.perf_counter() - started:.0f} s: real corpus exit "
          f"{real}, the rest exit {other}")
    return real or other


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
