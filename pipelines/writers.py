"""One writer per data folder.

Two runs writing one data folder at once build the same partitions twice and can leave any
table as either one's (measured: two `nyaya run` started six seconds apart both built a
judgment partition and both started `main_job`). So:

- `nyaya run` holds `<data>/.writer.lock` (an exclusive `flock`, released by the kernel if
  the process dies) for its whole duration, and refuses to start while another process holds
  it or while a run of the Dagster instance (launched from the UI, the schedule or a sensor)
  is in progress on the same folder; the message names who;
- the schedule and the corpus sensor skip their tick while the folder is held;
- runs launched from the UI and the daemon carry `DATA_FOLDER_TAG` and the instance's queued
  run coordinator (`dagster.yaml`) lets one such run per folder in at a time, counting
  `nyaya run`'s own runs, which carry it too.

What remains: a run launched from the UI in the moment between two stages of a `nyaya run`
(when none of its runs is in progress) is not held back.
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg

DATA_FOLDER_TAG = "nyaya/data_folder"
LOCK_NAME = ".writer.lock"
IN_PROGRESS = [dg.DagsterRunStatus.STARTING, dg.DagsterRunStatus.STARTED,
               dg.DagsterRunStatus.CANCELING]


class DataFolderBusy(RuntimeError):
    """Another writer holds the data folder; the message names it."""


def folder_tags(data_dir: Path) -> dict[str, str]:
    return {DATA_FOLDER_TAG: str(data_dir.resolve())}


def holder(data_dir: Path) -> str | None:
    """Who holds the data folder's writer lock (as it wrote itself down), or None."""
    path = data_dir / LOCK_NAME
    if not path.exists():
        return None
    fd = os.open(path, os.O_RDWR)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        return _owner(fd)
    else:
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _owner(fd: int) -> str:
    """What the holder of the lock file wrote of itself."""
    return os.pread(fd, 300, 0).decode(errors="replace").strip() or "another process"


def runs_in_progress(instance: dg.DagsterInstance, data_dir: Path) -> list[str]:
    """The instance's runs in progress on this data folder, each as a person would name it."""
    runs = instance.get_runs(filters=dg.RunsFilter(statuses=IN_PROGRESS,
                                                   tags=folder_tags(data_dir)))
    named = []
    for run in runs:
        origin = (f"schedule {run.tags['dagster/schedule_name']}"
                  if "dagster/schedule_name" in run.tags else
                  f"sensor {run.tags['dagster/sensor_name']}"
                  if "dagster/sensor_name" in run.tags else "the UI or another nyaya run")
        named.append(f"run {run.run_id[:8]} of {run.job_name} (from {origin}, "
                     f"{run.status.value.lower()})")
    return named


@contextmanager
def sole_writer(data_dir: Path, what: str, instance: dg.DagsterInstance) -> Iterator[None]:
    """Hold the data folder for `what` (refused with DataFolderBusy when another process or
    an in-progress run of the instance has it)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(data_dir / LOCK_NAME, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        owner = _owner(fd)
        os.close(fd)
        raise DataFolderBusy(f"{data_dir} is being written by {owner}: wait for it to "
                             "finish, or stop it, then run again") from None
    try:
        others = runs_in_progress(instance, data_dir)
        if others:
            raise DataFolderBusy(f"{data_dir} is being written by {'; '.join(others)}: wait "
                                 "for it to finish (the UI's Runs page), then run again")
        since = datetime.now(UTC).strftime("%Y-%m-%d %H:%M:%S UTC")
        os.ftruncate(fd, 0)
        os.pwrite(fd, f"PID {os.getpid()} ({what}, since {since})\n".encode(), 0)
        yield
    finally:
        os.ftruncate(fd, 0)
        fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)
