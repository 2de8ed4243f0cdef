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
the 850 statute sources.)

A rebuilt output is judged by its content, not by its new materialization: `content_version`
reads what survives damage to the output itself (each table's sidecar checksum, each vector
part's manifest, each Qdrant shard's seal), so an output repaired with the same content leaves
its downstream alone, and one whose content changed takes its downstream with it
(`pipelines.stages` compares the two).
Until that downstream is rebuilt the data folder records it as owed (`owe_downstream`), so a
run killed in between leaves it to the next run instead of serving stale results."""

from __future__ import annotations

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import dagster as dg

# Dagster has no public API for staleness (the UI reads it over GraphQL), for data versions
# recorded per partition nor for observing source assets outside a run: these four are the
# only private imports of the project
from dagster._core.asset_graph_view.asset_graph_view import AssetGraphView
from dagster._core.definitions.data_version import (
    DATA_VERSION_TAG,
    CachingStaleStatusResolver,
    StaleStatus,
    extract_data_version_from_entry,
)
from dagster._core.definitions.observe import observe
from dagster._core.definitions.temporal_context import TemporalContext

from assets.sources import SOURCE_FINGERPRINT, judgment_corpus, statute_corpus
from nyaya.index.build import ALL, lines_digest, part_state, partition_rows, read_manifest
from nyaya.index.collections import PARTITION
from nyaya.index.embedders import embedder_fingerprint
from nyaya.index.store import EdgeStore
from nyaya.settings import Settings
from nyaya.tables import (
    CorruptTableError,
    beside,
    checksum_path,
    read_table,
    table_provenance,
    verify_table,
)
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


def content_version(settings: Settings, key: dg.AssetKey,
                    partitions: Iterable[str] | None = None) -> str | None:
    """What the asset's output holds now, as a digest of records that a damaged output leaves
    intact: the sidecar checksum of each of its Parquet tables, the manifest (vectors' hash,
    documents' digest, embedder) of each of its vector parts. `partitions` narrows it to those
    partitions' files; for a Qdrant shard, the digest of its points' content hashes that its
    seal records. None when the asset keeps no such record (a FAISS index, a report, a Qdrant
    server) or a partition's is gone: its content is then unknown."""
    name = key.path[-1]
    if name.endswith(QDRANT):
        return (None if settings.qdrant_url else
                EdgeStore(settings.qdrant_path).sealed_content(name.removesuffix(QDRANT)))
    if name.endswith(VECTORS):
        collection = name.removesuffix(VECTORS)
        folder = settings.vectors_dir / collection
        names = (sorted(partitions) if partitions is not None
                 else sorted(path.stem for path in folder.glob("*.json")))
        manifests = [read_manifest(settings.vectors_dir, collection, part) for part in names]
        if not names or any(manifest is None for manifest in manifests):
            return None
        return lines_digest(f"{part}:{m.vectors_hash}:{m.documents_digest}:{m.embedder}"
                       for part, m in zip(names, manifests, strict=True))
    table, folder = settings.table_path(name), settings.warehouse / name
    if partitions is None and checksum_path(table).is_file():
        sidecars = [checksum_path(table)]
    elif folder.is_dir():
        wanted = None if partitions is None else {f"{part}.parquet.sha256" for part in partitions}
        sidecars = sorted(path for path in folder.rglob("*.parquet.sha256")
                          if wanted is None or path.name in wanted)
        if wanted is not None and len({path.name for path in sidecars}) < len(wanted):
            return None
    else:
        return None
    if not sidecars:
        return None
    return lines_digest(f"{path.relative_to(settings.warehouse)}:{path.read_text().strip()}"
                   for path in sidecars)


#: a partition key, or None for an unpartitioned asset
Partition = str | None


def keep_data_versions(instance: dg.DagsterInstance, key: dg.AssetKey,
                       partitions: Iterable[Partition]) -> None:
    """After a rebuild that left the asset's content as it was, give each partition back the
    data version it had before, so that what read it is not stale: a part kept (by content)
    while its inputs were rebuilt has an older version than a rebuild computes from them.
    Dagster reads the latest materialization's version, so one more is recorded, its tags the
    rebuild's but for the version of the materialization before it."""
    for partition in partitions:
        latest = instance.get_latest_data_version_record(key, False, partition)
        event = latest and latest.event_log_entry.asset_materialization
        before = event and instance.get_latest_data_version_record(
            key, False, partition, before_cursor=latest.storage_id)
        version = before and extract_data_version_from_entry(before.event_log_entry)
        if version is None or event.tags.get(DATA_VERSION_TAG) == version.value:
            continue
        instance.report_runless_asset_event(dg.AssetMaterialization(
            asset_key=key, partition=partition,
            tags={**event.tags, DATA_VERSION_TAG: version.value},
            metadata={**event.metadata, "content": dg.MetadataValue.text(
                "rebuilt with the same content: data version kept")}))


def _owed_path(data_dir: Path) -> Path:
    return data_dir / ".downstream-owed.json"


def owed_downstream(data_dir: Path) -> set[dg.AssetKey]:
    """The assets to rebuild because what they read changed in a run that ended (killed, or
    of a job without them) before it rebuilt them."""
    path = _owed_path(data_dir)
    if not path.is_file():
        return set()
    try:
        names = json.loads(path.read_text())
    except (OSError, ValueError) as err:
        names = err
    if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
        raise ValueError(f"{path}: not a JSON list of asset names ({names!r:.80}); delete it "
                         "and run `nyaya run --all`, which rebuilds what it could have named")
    return {dg.AssetKey.from_user_string(name) for name in names}


def owe_downstream(data_dir: Path, keys: Iterable[dg.AssetKey]) -> None:
    """Record that `keys` are to be rebuilt, before they are: a run killed in between, or one
    of a job without them, leaves them to the next run."""
    _write_owed(data_dir, owed_downstream(data_dir) | set(keys))


def settle_downstream(data_dir: Path, keys: Iterable[dg.AssetKey]) -> None:
    """Forget `keys`: they have been rebuilt."""
    owed = owed_downstream(data_dir)
    if owed & set(keys):
        _write_owed(data_dir, owed - set(keys))


def _write_owed(data_dir: Path, owed: set[dg.AssetKey]) -> None:
    path = _owed_path(data_dir)
    if not owed:
        path.unlink(missing_ok=True)
        return
    path.parent.mkdir(parents=True, exist_ok=True)  # before a first run wrote anything
    tmp = beside(path)
    tmp.write_text(json.dumps(sorted(key.to_user_string() for key in owed)) + "\n")
    tmp.replace(path)


@dataclass(frozen=True)
class ToRun:
    """What a run of a job must build: `keys`, in the job; how many of the job's assets are
    in each state (`reasons`); and the repairs among the keys, each with its content version
    before (`repairs`: assets Dagster calls fresh whose files are gone, damaged or built by
    another embedder), whose downstream is built only if the repair changes the content."""

    keys: list[dg.AssetKey]
    reasons: dict[str, int]
    repairs: dict[dg.AssetKey, str | None]


def keys_to_run(defs: dg.Definitions, job_name: str, instance: dg.DagsterInstance) -> ToRun:
    """The job's assets that are stale or missing, with everything downstream of them; those
    whose outputs cannot be used, alone (see `ToRun`); and what an interrupted run owed."""
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
    repairs: dict[dg.AssetKey, str | None] = {}
    owed = owed_downstream(settings.data_dir)
    for key in job_keys:
        partitions = graph.get(key).partitions_def
        status = _status(resolver, partitions, key)
        reason = status.value.lower()
        if status == StaleStatus.FRESH:
            unusable = (_outputs_unusable(instance, key, settings.data_dir)
                        or (None if partitions else vectors_unusable(settings, key)
                            or store_unusable(settings, key)))
            if unusable:
                reason = unusable
                repairs[key] = content_version(settings, key)
            elif key in owed:
                reason = "input changed, not rebuilt yet"
                seeds.add(key)
        else:
            seeds.add(key)
        reasons[reason] = reasons.get(reason, 0) + 1
    closure = dg.AssetSelection.assets(*seeds).downstream().resolve(graph) if seeds else set()
    keys = sorted((closure & set(job_keys)) | set(repairs))
    return ToRun(keys, reasons, {key: before for key, before in repairs.items()
                                 if key not in closure})
