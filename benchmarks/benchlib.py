"""Helpers the benchmark scripts share (kept here so that no script imports another's
heavy dependencies just for a helper)."""

from __future__ import annotations

import resource
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np


def peak_rss_mib() -> float:
    """This process's peak resident memory. Linux's VmHWM where it exists: ru_maxrss survives
    exec, so a child started from a large parent would report the parent's peak."""
    status = Path("/proc/self/status")
    if status.exists():
        for line in status.read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def latencies(run: Callable[[int], object], count: int) -> np.ndarray:
    """Milliseconds of `run(i)` for i in range(count), one call at a time."""
    times = []
    for i in range(count):
        started = time.perf_counter()
        run(i)
        times.append((time.perf_counter() - started) * 1000)
    return np.array(times)
