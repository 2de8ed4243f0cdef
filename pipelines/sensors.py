"""Start ingestion when the corpus changes (compared by content fingerprint): first the statute
sources that changed (their partitions), then, once those parts are parsed, the ingest job."""

from __future__ import annotations

import dagster as dg
from dagster._core.storage.tags import (
    ASSET_PARTITION_RANGE_END_TAG,
    ASSET_PARTITION_RANGE_START_TAG,
)

from assets.sources import STATUTE_SOURCES
from nyaya.provenance import tree_fingerprint
from nyaya.settings import Settings
from nyaya.statutes.ingest import source_fingerprints

WATCHED = ("statutes", "mappings", "judgments")


def corpus_change_sensor(parts_job: dg.UnresolvedAssetJobDefinition,
                         ingest_job: dg.UnresolvedAssetJobDefinition) -> dg.SensorDefinition:
    @dg.sensor(name="corpus_change_sensor", jobs=[parts_job, ingest_job],
               minimum_interval_seconds=300)
    def _sensor(context: dg.SensorEvaluationContext):
        """Partitions added for new statute sources and deleted for removed ones; one run of
        the parts job over the span of the sources to parse, or the ingest job straight away
        when no statute source changed (a mapping or a judgment did)."""
        from pipelines.freshness import partitions_to_run

        corpus = Settings.from_env().corpus_root
        if not (corpus / "statutes").is_dir():
            return dg.SkipReason(f"no corpus at {corpus}")
        fingerprint = tree_fingerprint(corpus, WATCHED)
        if fingerprint == context.cursor:
            return dg.SkipReason(f"corpus unchanged ({fingerprint})")
        context.update_cursor(fingerprint)
        current = source_fingerprints(corpus)
        held = STATUTE_SOURCES.get_partition_keys(dynamic_partitions_store=context.instance)
        added = [key for key in current if key not in held]
        removed = [key for key in held if key not in current]
        job = context.repository_def.get_job(parts_job.name)
        changed = [key for key in partitions_to_run(job, context.instance, current)
                   if key in current]
        order = [key for key in held if key in current] + added
        to_parse = [key for key in order if key in {*changed, *added}]
        tags = {"corpus_fingerprint": fingerprint}
        if to_parse:
            request = dg.RunRequest(run_key=fingerprint, job_name=parts_job.name, tags={
                **tags, ASSET_PARTITION_RANGE_START_TAG: to_parse[0],
                ASSET_PARTITION_RANGE_END_TAG: to_parse[-1]})
        else:
            request = dg.RunRequest(run_key=fingerprint, job_name=ingest_job.name, tags=tags)
        return dg.SensorResult(run_requests=[request], dynamic_partitions_requests=[
            STATUTE_SOURCES.build_add_request(added),
            STATUTE_SOURCES.build_delete_request(removed)])

    return _sensor


def ingest_after_parts(parts_job: dg.UnresolvedAssetJobDefinition,
                       ingest_job: dg.UnresolvedAssetJobDefinition) -> dg.SensorDefinition:
    """The ingest job once a run of the parts job succeeded: it assembles what was parsed."""
    @dg.run_status_sensor(name="ingest_after_parts", run_status=dg.DagsterRunStatus.SUCCESS,
                          monitored_jobs=[parts_job], request_job=ingest_job)
    def _sensor(context: dg.RunStatusSensorContext) -> dg.RunRequest:
        return dg.RunRequest(run_key=context.dagster_run.run_id,
                             tags={"parts_run": context.dagster_run.run_id})

    return _sensor
