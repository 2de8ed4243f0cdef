"""The nightly regression: evaluation and report at 02:00 IST, every config in one run."""

from __future__ import annotations

import dagster as dg

from pipelines.partitions import range_tags


def every_partition(partitions: dg.PartitionsDefinition | None) -> dict[str, str]:
    """Run tags that make one run cover every partition (every retrieval config): a
    single-run backfill, so the indexes and models load once instead of once per config.
    None for an unpartitioned job."""
    if partitions is None:
        return {}
    keys = partitions.get_partition_keys()
    return range_tags(keys[0], keys[-1])


def nightly_evaluation(job: dg.UnresolvedAssetJobDefinition,
                       partitions: dg.PartitionsDefinition) -> dg.ScheduleDefinition:
    @dg.schedule(name="nightly_evaluation", job=job, cron_schedule="0 2 * * *",
                 execution_timezone="Asia/Kolkata")
    def nightly(context: dg.ScheduleEvaluationContext) -> dg.RunRequest | dg.SkipReason:
        """Every config, with the report, against the tables as they are; skipped while a
        `nyaya run` holds the data folder (one writer at a time)."""
        from nyaya.settings import Settings
        from pipelines.writers import holder

        busy = holder(Settings.from_env().data_dir)
        if busy:
            return dg.SkipReason(f"the data folder is being written by {busy}")
        return dg.RunRequest(tags=every_partition(partitions))

    return nightly
