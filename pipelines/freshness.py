"""What a run must redo: Dagster's data-version staleness, plus outputs gone from disk or
damaged (a Parquet table that fails its checksum is rebuilt, not served).

Every asset carries a code version that hashes the source it runs (`source_fingerprint`) and
the corpus is observed by content fingerprint (`assets/sources.py`), so an asset is stale when
its code, its facts or its input data changed; `nyaya run` materializes only those assets and
everything downstream of them, which makes a re-run with no change do no work. A partitioned
asset (one partition per retrieval config) is redone whole when any partition is missing or
stale: its run covers every config anyway (a single-run backfill).

The parts assets (one partition per statute source, per year of judgments) are judged per
partition instead, by `partitions_to_run`: each part's files carry the code version and the
fingerprint of the source they were built from in their footers, compared with the corpus now.
The vectors built per partition are judged by `vector_partitions_to_run`, from each part's
manifest (its documents' digest, its embedder) against the document table now. (Dagster's own
per-partition staleness queries the event log for each partition: 16 ms a partition, 43 s for
the 850 statute sources.)"""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path

import dagster as dg

# Dagster has no public API for staleness (the UI reads it over GraphQL) nor for observing
# source assets outside a run: these four are the only private imports of the project
from dagster._core.asset_graph_view.asset_graph_view import AssetGraphView
from dagster._core.definitions.data_version import CachingStaleStatusResolver, StaleStatus
from dagster._core.definitions.observe import observe
from dagster._core.definitions.temporal_context import TemporalContext

from assets.sources import SOURCE_FINGERPRINT, judgment_corpus, statute_corpus
from nyaya.index.build import ALL, part_state, partition_rows
from nyaya.index.collections import PARTITION
from nyaya.index.embedders import embedder_fingerprint
from nyaya.index.store import EdgeStore
from nyaya.settings import Settings
from nyaya.tables import CorruptTableError, read_table, table_provenance, verify_table
from pipelines.resources import DATA_PATH

SOURCES = (statute_corpus, judgment_corpus)
VECTORS = "_vectors"  # a vectors asset's name: its collection's, then this
QDRANT = "_qdrant"  # and a Qdrant asset's


def observe_corpus(instance: dg.DagsterInstance, resources: dict,
                   run_config: dict | None = None) -> None:
    """Record the corpus fingerprints as new observations (a no-op version when unchanged);
    `run_config` sets the observation run's console logging, as for the other runs."""
    observe(list(SOURCES), instance=instance, resources=resources, run_config=run_config)


def _outputs_unusable(instance: dg.DagsterInstance, key: dg.AssetKey,
                      data_dir: Path) -> str | None:
    """Why the last materialization's files cannot be used ("output missing" when a file or
    folder it named is gone, "output corrupted" when a Parquet table in it fails
    verification), or None when they can. An output inside the data folder is looked for in
    `data_dir`, today's, wherever the folder was when it was written."""
    event = instance.get_latest_materialization_event(key)
    if event is None or event.asset_materialization is None:
        return "output missing"
    metadata = event.asset_materialization.metadata
    inside = metadata.get(DATA_PATH)
    paths = [data_dir / inside.value] if isinstance(inside, dg.TextMetadataValue) else [
        Path(value.path) for value in metadata.values() if isinstance(value, dg.PathMetadataValue)]
    if any(not path.exists() for path in paths):
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
                      fingerprints: dict[str, str], warehouse: Path) -> dict[str, str]:
    """partition -> why, for the partitions of a parts job to build again, in partition order:
    a table file of the part is missing or damaged, or its footer's provenance names another
    code version or another source fingerprint than `fingerprints` (partition -> its
    source's fingerprint now)."""
    partitions = job.partitions_def.get_partition_keys(dynamic_partitions_store=instance)
    graph = job.asset_layer.asset_graph
    chosen: dict[str, str] = {}
    for key in job.asset_layer.executable_asset_keys:
        folder = warehouse / key.path[-1]
        tables = sorted(p for p in folder.iterdir() if p.is_dir()) if folder.is_dir() else []
        for partition in partitions:
            if partition not in chosen:
                reason = part_reason([table / f"{partition}.parquet" for table in tables],
                                     graph.get(key).code_version, fingerprints.get(partition))
                if reason is not None:
                    chosen[partition] = reason
    return {partition: chosen[partition] for partition in partitions if partition in chosen}


def part_reason(files: list[Path], code_version: str | None,
                fingerprint: str | None) -> str | None:
    """Why a part (its table files) cannot stand: "missing", "output corrupted", "code
    changed", "source changed"; or None."""
    if not files or not all(path.exists() for path in files):
        return "missing"
    try:
        for path in files:
            verify_table(path)
    except CorruptTableError:
        return "output corrupted"
    for path in files:
        provenance = table_provenance(path)
        if provenance.get("code_version") != code_version:
            return "code changed"
        if provenance.get(SOURCE_FINGERPRINT) != fingerprint:
            return "source changed"
    return None


def _stale_vector_parts(settings: Settings, name: str,
                        partitions: list[str]) -> dict[str, str]:
    """partition -> why, for the parts of a collection's vectors that are missing, damaged,
    or were built from other documents than the current table or by another embedder than
    the configured one."""
    embedder = embedder_fingerprint(settings.embedder_of(name), settings.models_dir,
                                    settings.bge_m3_path)
    if embedder is None:  # its model is not built yet: every part is to be checked
        return dict.fromkeys(partitions, "embedder not built")
    documents = read_table(settings.warehouse / f"{name}_documents.parquet")
    # what a part's digest covers (an unpartitioned table has no partition column)
    documents = documents[[c for c in ("doc_id", "content_hash", PARTITION) if c in documents]]
    rows = partition_rows(documents)
    stale = {}
    for partition in partitions:
        state = part_state(settings.vectors_dir, name, partition,
                           documents.iloc[rows.get(partition, [])], embedder)
        if state.reason is not None:
            stale[partition] = state.reason
    return stale


def vector_partitions_to_run(job: dg.JobDefinition, instance: dg.DagsterInstance,
                             settings: Settings) -> dict[str, str]:
    """partition -> why, for the partitions of a vectors job to build again, in partition
    order (see `_stale_vector_parts`)."""
    partitions = job.partitions_def.get_partition_keys(dynamic_partitions_store=instance)
    chosen: dict[str, str] = {}
    for key in sorted(job.asset_layer.executable_asset_keys):
        name = key.path[-1].removesuffix(VECTORS)
        pending = [partition for partition in partitions if partition not in chosen]
        chosen |= _stale_vector_parts(settings, name, pending)
    return {partition: chosen[partition] for partition in partitions if partition in chosen}


def vectors_unusable(settings: Settings, key: dg.AssetKey) -> str | None:
    """Why an unpartitioned vectors asset's one part cannot be served (its embedder is not
    the configured one, say), or None; None for any other asset."""
    name = key.path[-1]
    if not name.endswith(VECTORS):
        return None
    return _stale_vector_parts(settings, name.removesuffix(VECTORS), [ALL]).get(ALL)


def store_unusable(settings: Settings, key: dg.AssetKey) -> str | None:
    """Why a Qdrant asset's embedded shard differs from what its last build sealed (a file
    gone or resized, no seal), or None; None for any other asset and for a Qdrant server."""
    name = key.path[-1]
    if not name.endswith(QDRANT) or settings.qdrant_url:
        return None
    problem = EdgeStore(settings.qdrant_path).damage(name.removesuffix(QDRANT))
    return f"store damaged ({problem})" if problem else None


def keys_to_run(defs: dg.Definitions, job_name: str,
                instance: dg.DagsterInstance) -> tuple[list[dg.AssetKey], dict[str, int]]:
    """The job's assets that are stale or missing, with everything downstream of them; and a
    count of the job's assets by reason."""
    graph = defs.resolve_asset_graph()
    job_keys = defs.resolve_job_def(job_name).asset_layer.executable_asset_keys
    view = AssetGraphView(temporal_context=TemporalContext(
        effective_dt=datetime.now(UTC), last_event_id=None),
        instance=instance, asset_graph=graph)
    resolver = CachingStaleStatusResolver(instance=instance, asset_graph=graph,
                                          loading_context=view)
    settings = defs.resources["settings"].resolved()
    reasons: dict[str, int] = {}
    seeds: set[dg.AssetKey] = set()
    for key in job_keys:
        partitions = graph.get(key).partitions_def
        status = _status(resolver, partitions, key)
        reason = status.value.lower()
        if status == StaleStatus.FRESH:
            reason = (_outputs_unusable(instance, key, settings.data_dir)
                      or (None if partitions else vectors_unusable(settings, key)
                          or store_unusable(settings, key)) or reason)
        reasons[reason] = reasons.get(reason, 0) + 1
        if reason != "fresh":
            seeds.add(key)
    if not seeds:
        return [], reasons
    closure = dg.AssetSelection.assets(*seeds).downstream().resolve(graph)
    return sorted(closure & set(job_keys)), reasons
