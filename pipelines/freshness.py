"""What a run must redo: Dagster's data-version staleness, plus outputs gone from disk or
damaged (a Parquet table that fails its checksum is rebuilt, not served).

Every asset carries a code version that hashes the source it runs (`source_fingerprint`) and
the corpus is observed by content fingerprint (`assets/sources.py`), so an asset is stale when
its code, its facts or its input data changed; `nyaya run` materializes only those assets and
everything downstream of them, which makes a re-run with no change do no work. A partitioned
asset (one partition per retrieval config) is redone whole when any partition is missing or
stale: its run covers every config anyway (a single-run backfill)."""

from __future__ import annotations

from pathlib import Path

import dagster as dg
from dagster._core.asset_graph_view.asset_graph_view import AssetGraphView
from dagster._core.definitions.data_version import CachingStaleStatusResolver, StaleStatus
from dagster._core.definitions.observe import observe
from dagster._core.definitions.temporal_context import TemporalContext
from dagster._time import get_current_datetime

from assets.sources import judgment_corpus, statute_corpus
from assets.statutes import SOURCE_FINGERPRINT
from nyaya.tables import CorruptTableError, verify_table

SOURCES = (statute_corpus, judgment_corpus)


def observe_corpus(instance: dg.DagsterInstance, resources: dict) -> None:
    """Record the corpus fingerprints as new observations (a no-op version when unchanged)."""
    observe(list(SOURCES), instance=instance, resources=resources)


def _latest_paths(instance: dg.DagsterInstance, key: dg.AssetKey) -> list[Path] | None:
    """The files and folders the asset's last materialization named, None if it has none."""
    event = instance.get_latest_materialization_event(key)
    if event is None or event.asset_materialization is None:
        return None
    return [Path(value.path) for value in event.asset_materialization.metadata.values()
            if isinstance(value, dg.PathMetadataValue)]


def _tables_unusable(paths: list[Path] | None) -> str | None:
    """Why these outputs cannot be used ("output missing" when a file or folder is gone,
    "output corrupted" when a Parquet table in them fails verification), or None."""
    if paths is None or any(not path.exists() for path in paths):
        return "output missing"
    tables = [table for path in paths
              for table in (sorted(path.glob("*.parquet")) if path.is_dir() else [path])
              if table.suffix == ".parquet"]
    try:
        for table in tables:
            verify_table(table)
    except CorruptTableError:
        return "output corrupted"
    return None


def _outputs_unusable(instance: dg.DagsterInstance, key: dg.AssetKey) -> str | None:
    """Why the last materialization's files cannot be used, or None when they can."""
    return _tables_unusable(_latest_paths(instance, key))


def _status(resolver: CachingStaleStatusResolver, partitions: dg.PartitionsDefinition | None,
            key: dg.AssetKey) -> StaleStatus:
    """The asset's status; for a partitioned one, the worst of its partitions' (Dagster calls
    a partitioned asset fresh when asked without a partition)."""
    if partitions is None:
        return resolver.get_status(key)
    found = {resolver.get_status(key, partition) for partition in
             partitions.get_partition_keys()}
    return next((status for status in (StaleStatus.MISSING, StaleStatus.STALE)
                 if status in found), StaleStatus.FRESH)


def partitions_to_run(job: dg.JobDefinition, instance: dg.DagsterInstance,
                      fingerprints: dict[str, str]) -> list[str]:
    """The partitions of a parts job that some asset of it lacks, holds damaged, or last
    materialized from another code version or another source fingerprint than `fingerprints`
    (partition -> its source's fingerprint now)."""
    partitions = job.partitions_def.get_partition_keys(dynamic_partitions_store=instance)
    graph = job.asset_layer.asset_graph
    chosen: set[str] = set()
    for key in job.asset_layer.executable_asset_keys:
        latest = latest_by_partition(instance, key)
        code_version = graph.get(key).code_version
        for partition in partitions:
            event = latest.get(partition)
            if partition in chosen:
                continue
            if event is None or part_reason(
                    event, code_version, fingerprints.get(partition)) is not None:
                chosen.add(partition)
    return [partition for partition in partitions if partition in chosen]


def latest_by_partition(instance: dg.DagsterInstance,
                        key: dg.AssetKey) -> dict[str, dg.AssetMaterialization]:
    """The newest materialization of each partition of an asset, read in pages of 1,000."""
    latest: dict[str, dg.AssetMaterialization] = {}
    cursor = None
    while True:
        page = instance.fetch_materializations(dg.AssetRecordsFilter(asset_key=key),
                                               limit=1000, cursor=cursor, ascending=False)
        for record in page.records:
            materialization = record.asset_materialization
            if materialization and materialization.partition not in latest:
                latest[materialization.partition] = materialization
        if not page.has_more:
            return latest
        cursor = page.cursor


def part_reason(event: dg.AssetMaterialization, code_version: str | None,
                fingerprint: str | None) -> str | None:
    """Why a partition's last materialization cannot stand ("code changed", "source changed",
    "output missing", "output corrupted"), or None."""
    if event.tags.get("dagster/code_version") != code_version:
        return "code changed"
    recorded = event.metadata.get(SOURCE_FINGERPRINT)
    if recorded is None or recorded.value != fingerprint:
        return "source changed"
    folders = [Path(value.path) for value in event.metadata.values()
               if isinstance(value, dg.PathMetadataValue)]
    return _tables_unusable([folder / f"{event.partition}.parquet" for folder in folders]
                            or None)


def keys_to_run(defs: dg.Definitions, job_name: str,
                instance: dg.DagsterInstance) -> tuple[list[dg.AssetKey], dict[str, int]]:
    """The job's assets that are stale or missing, with everything downstream of them; and a
    count of the job's assets by reason."""
    graph = defs.resolve_asset_graph()
    job_keys = defs.resolve_job_def(job_name).asset_layer.executable_asset_keys
    view = AssetGraphView(temporal_context=TemporalContext(
        effective_dt=get_current_datetime(), last_event_id=None),
        instance=instance, asset_graph=graph)
    resolver = CachingStaleStatusResolver(instance=instance, asset_graph=graph,
                                          loading_context=view)
    reasons: dict[str, int] = {}
    seeds: set[dg.AssetKey] = set()
    for key in job_keys:
        status = _status(resolver, graph.get(key).partitions_def, key)
        reason = status.value.lower()
        if status == StaleStatus.FRESH:
            reason = _outputs_unusable(instance, key) or reason
        reasons[reason] = reasons.get(reason, 0) + 1
        if reason != "fresh":
            seeds.add(key)
    if not seeds:
        return [], reasons
    closure = dg.AssetSelection.assets(*seeds).downstream().resolve(graph)
    return sorted(closure & set(job_keys)), reasons
