"""Independent pieces of one step spread over the machine's cores in worker processes.

The heavy pure-Python steps (parsing and chunking judgments, searching every query set) hold
one core each; on the 2-core machine the project is sized for, the other sat idle. Workers are
spawned, never forked: a step runs inside Dagster's process, whose threads a fork would copy
mid-flight. Workers keep the thread settings of this process: with one thread a worker's FAISS
scores differed from this process's in the sixth decimal (a different BLAS summation order),
and a step's output must not depend on how it was spread.
"""

from __future__ import annotations

import multiprocessing
import os
import queue
from collections.abc import Callable, Sequence
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")
Log = Callable[[str], None]

_messages: multiprocessing.Queue | None = None  # a worker's line to its parent's log


def available_cores() -> int:
    """The cores this process may run on (its affinity, not the machine's count)."""
    return len(os.sched_getaffinity(0))


def map_in_processes(function: Callable[[Item, Log], Result], items: Sequence[Item], *,
                     log: Log = print, workers: int | None = None) -> list[Result]:
    """`[function(item, log) for item in items]`, in that order, over up to `workers` worker
    processes (the available cores by default). What a worker logs reaches `log` in this
    process while the work goes on. One worker, or one item, runs here with no process at all.
    `function` and the items must pickle (a module-level function, plain data)."""
    workers = min(len(items), workers or available_cores())
    if workers <= 1:
        return [function(item, log) for item in items]
    context = multiprocessing.get_context("spawn")
    messages = context.Queue()
    with ProcessPoolExecutor(workers, mp_context=context, initializer=_start_worker,
                             initargs=(messages,)) as pool:
        futures = [pool.submit(_run, function, item) for item in items]
        pending = set(futures)
        while pending:
            _, pending = wait(pending, timeout=0.5, return_when=FIRST_COMPLETED)
            _forward(messages, log)
    _forward(messages, log)  # the workers have exited: every line they logged is queued
    return [future.result() for future in futures]


def _start_worker(messages: multiprocessing.Queue) -> None:
    global _messages
    _messages = messages


def _run(function: Callable[[Item, Log], Result], item: Item) -> Result:
    return function(item, _messages.put)


def _forward(messages: multiprocessing.Queue, log: Log) -> None:
    while True:
        try:
            log(messages.get_nowait())
        except queue.Empty:
            return
