"""The nightly regression: evaluation and report at 02:00 IST."""

from __future__ import annotations

import dagster as dg


def nightly_evaluation(job: dg.UnresolvedAssetJobDefinition) -> dg.ScheduleDefinition:
    return dg.ScheduleDefinition(name="nightly_evaluation", job=job, cron_schedule="0 2 * * *",
                                 execution_timezone="Asia/Kolkata")
