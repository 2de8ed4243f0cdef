"""Start ingestion when the corpus changes (compared by content fingerprint): first the
partitions that changed (statute sources, years of judgments: the parts jobs the ingest job's
stage plan starts with, `pipelines/stages.py`), then, once those parts are built, the ingest
job."""

from __future__ import annotations

import dagster as dg

from nyaya.provenance import tree_fingerprint
from nyaya.settings import Settings

WATCHED = ("statutes", "mappings", "judgments")
BUSY = [dg.DagsterRunStatus.QUEUED, dg.DagsterRunStatus.NOT_STARTED,
        dg.DagsterRunStatus.STARTING, dg.DagsterRunStatus.STARTED]


def corpus_change_sensor(parts_jobs: list[dg.UnresolvedAssetJobDefinition],
                         ingest_job: dg.UnresolvedAssetJobDefinition) -> dg.SensorDefinition:
    @dg.sensor(name="corpus_change_sensor", jobs=[*parts_jobs, ingest_job],
               minimum_interval_seconds=300)
    def _sensor(context: dg.SensorEvaluationContext):
        """Partitions added for new sources and years and deleted for removed ones; per parts
        job, one run over the span of its partitions to build, or the ingest job straight
        away when no partition changed (a mapping, say)."""
        from pipelines.freshness import partitions_to_run
        from pipelines.partitions import CORPUS_PARTITIONS, range_tags
        from pipelines.stages import Project, parts_jobs_before
        from pipelines.writers import holder

        settings = Settings.from_env()
        corpus = settings.corpus_root
        if not (corpus / "statutes").is_dir():
            return dg.SkipReason(f"no corpus at {corpus}")
        busy = holder(settings.data_dir)
        if busy:  # the cursor stays: the next tick sees the change again
            return dg.SkipReason(f"the data folder is being written by {busy}")
        fingerprint = tree_fingerprint(corpus, WATCHED)
        if fingerprint == context.cursor:
            return dg.SkipReason(f"corpus unchanged ({fingerprint})")
        context.update_cursor(fingerprint)
        tags = {"corpus_fingerprint": fingerprint}
        requests, partition_requests = [], []
        first = parts_jobs_before(Project.of_repository(context.repository_def), ingest_job.name)
        for keyed in (keyed for keyed in CORPUS_PARTITIONS if keyed.job in first):
            current = keyed.fingerprints(settings)
            held = keyed.partitions.get_partition_keys(dynamic_partitions_store=context.instance)
            added = [key for key in current if key not in held]
            removed = [key for key in held if key not in current]
            changed = set(partitions_to_run(context.repository_def.get_job(keyed.job),
                                            context.instance, current,
                                            settings.data_dir / "warehouse"))
            order = [key for key in held if key in current] + added
            to_build = [key for key in order if key in changed or key in added]
            partition_requests += [keyed.partitions.build_add_request(added),
                                   keyed.partitions.build_delete_request(removed)]
            if to_build:
                requests.append(dg.RunRequest(
                    run_key=f"{fingerprint}:{keyed.job}", job_name=keyed.job,
                    tags={**tags, **range_tags(to_build[0], to_build[-1])}))
        if not requests:
            requests = [dg.RunRequest(run_key=fingerprint, job_name=ingest_job.name, tags=tags)]
        return dg.SensorResult(run_requests=requests,
                               dynamic_partitions_requests=partition_requests)

    return _sensor


def ingest_after_parts(parts_jobs: list[dg.UnresolvedAssetJobDefinition],
                       ingest_job: dg.UnresolvedAssetJobDefinition) -> dg.SensorDefinition:
    """The ingest job once the last pending parts run has succeeded: it assembles them."""
    @dg.run_status_sensor(name="ingest_after_parts", run_status=dg.DagsterRunStatus.SUCCESS,
                          monitored_jobs=parts_jobs, request_job=ingest_job)
    def _sensor(context: dg.RunStatusSensorContext):
        pending = context.instance.get_runs(filters=dg.RunsFilter(
            job_name=None, statuses=BUSY))
        if any(run.job_name in {job.name for job in parts_jobs} for run in pending):
            return dg.SkipReason("another parts run is still to finish")
        return dg.RunRequest(run_key=context.dagster_run.run_id,
                             tags={"parts_run": context.dagster_run.run_id})

    return _sensor
