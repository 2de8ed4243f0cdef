"""Runs left behind by a killed `nyaya run`: marked failed, their pool slots given back.

A step holds a slot of its concurrency pool (`embedding`, `qdrant_writes`: one slot each) while
it runs. A process killed mid-step never gives the slot back, and the next run would wait for
it for ever (measured: a second run busy-waited at full CPU). `nyaya run` tags its runs with the
host and its process id, so that a later one can tell a run whose process is gone from one
still going, and release it. Runs launched by the daemon carry no such tags and are left to
Dagster's run monitoring.
"""

from __future__ import annotations

import os
import socket

import dagster as dg

from nyaya.processes import alive

HOST_TAG = "nyaya/host"
PID_TAG = "nyaya/pid"
UNFINISHED = [dg.DagsterRunStatus.STARTING, dg.DagsterRunStatus.STARTED,
              dg.DagsterRunStatus.CANCELING]


def owner_tags() -> dict[str, str]:
    """The tags that name this process as the run's owner."""
    return {HOST_TAG: socket.gethostname(), PID_TAG: str(os.getpid())}


def release_dead_runs(instance: dg.DagsterInstance) -> list[str]:
    """Mark failed every unfinished run that a `nyaya run` on this host started from a process
    that no longer exists, and free its pool slots; the ids of the runs released."""
    host = socket.gethostname()
    released = []
    for run in instance.get_runs(filters=dg.RunsFilter(statuses=UNFINISHED,
                                                       tags={HOST_TAG: host})):
        pid = run.tags.get(PID_TAG, "")
        if not pid.isdigit() or alive(int(pid)):
            continue
        instance.report_run_failed(run, message=f"its process {pid} on {host} is gone "
                                   "(killed); a later nyaya run released its pool slots")
        instance.event_log_storage.free_concurrency_slots_for_run(run.run_id)
        released.append(run.run_id)
    return released
