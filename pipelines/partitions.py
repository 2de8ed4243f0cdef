"""Corpus-keyed partitions: one per statute source (India Code Act folder or JSON code) and
one per year of decision of the judgments.

The keys come from the corpus, so they are Dagster dynamic partitions: `sync_partitions` adds
a partition for a new source or year and deletes one (with its stored parts) that is gone from
the corpus. `materialize_parts` runs a parts job over the partitions that need it, one run per
contiguous range of them (a single-run backfill each), before the rest of a job assembles the
parts into whole tables. A Dagster job holds one partitions definition, and the evaluation
assets are partitioned by retrieval config, so each partitioning has a parts job of its own,
which `nyaya run` runs first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import dagster as dg
from dagster._core.storage.tags import (
    ASSET_PARTITION_RANGE_END_TAG,
    ASSET_PARTITION_RANGE_START_TAG,
)

from assets.sources import JUDGMENT_YEARS, STATUTE_SOURCES
from nyaya.judgments.sources import judgment_years, year_fingerprints
from nyaya.settings import Settings
from nyaya.statutes.ingest import source_fingerprints


@dataclass(frozen=True)
class CorpusPartitions:
    """A parts job, its partitions, and each partition's fingerprint from the corpus now."""

    job: str
    partitions: dg.DynamicPartitionsDefinition
    fingerprints: Callable[[Settings], dict[str, str]]


def _statute_fingerprints(settings: Settings) -> dict[str, str]:
    return source_fingerprints(settings.require_corpus())


def _judgment_fingerprints(settings: Settings) -> dict[str, str]:
    corpus = settings.require_corpus()
    return year_fingerprints(corpus, judgment_years(corpus), settings.judgments_dataset)


CORPUS_PARTITIONS = (
    CorpusPartitions("statute_parts_job", STATUTE_SOURCES, _statute_fingerprints),
    CorpusPartitions("judgment_parts_job", JUDGMENT_YEARS, _judgment_fingerprints),
)
#: the jobs whose assets assemble the parts (these run the parts jobs first)
ASSEMBLING_JOBS = ("main_job", "ingest_job")
#: the jobs that embed the document tables per statute source and per year: they need the
#: whole tables, so they run inside a run of a job that builds those and reads the vectors
VECTOR_JOBS = ("statute_vectors_job", "judgment_vectors_job")
VECTOR_STAGE_JOBS = ("main_job", "index_job")


@dataclass(frozen=True)
class Sync:
    added: list[str]
    removed: list[str]
    fingerprints: dict[str, str]  # every partition's, as computed for the sync


def sync_partitions(instance: dg.DagsterInstance, settings: Settings,
                    warehouse: Path | None = None) -> dict[str, Sync]:
    """Make each corpus-keyed partitions definition hold exactly the corpus's keys; delete the
    stored parts of a removed key under `warehouse` and its vector parts. Returns parts job ->
    what changed."""
    changes = {}
    for keyed in CORPUS_PARTITIONS:
        fingerprints = keyed.fingerprints(settings)
        name = keyed.partitions.name
        held = set(instance.get_dynamic_partitions(name))
        added = [key for key in fingerprints if key not in held]
        removed = sorted(held - set(fingerprints))
        if added:
            instance.add_dynamic_partitions(name, added)
        for key in removed:
            instance.delete_dynamic_partition(name, key)
            if warehouse is not None:
                for stored in [*warehouse.glob(f"*_parts/*/{key}.parquet*"),
                               *settings.vectors_dir.glob(f"*/{key}.*")]:
                    stored.unlink()
        changes[keyed.job] = Sync(added, removed, fingerprints)
    return changes


def contiguous_ranges(keys: list[str], chosen: set[str]) -> list[tuple[str, str]]:
    """The chosen keys as (first, last) runs of neighbours in `keys` order: one Dagster run
    each, so a change to three Acts is at most three small runs, not a run over every Act."""
    ranges: list[tuple[str, str]] = []
    start = previous = None
    for key in keys:
        if key in chosen:
            start = start or key
            previous = key
        elif start is not None:
            ranges.append((start, previous))
            start = None
    if start is not None:
        ranges.append((start, previous))
    return ranges


def range_tags(first: str, last: str) -> dict[str, str]:
    """Run tags for one run over the partitions first..last (a single-run backfill)."""
    return {ASSET_PARTITION_RANGE_START_TAG: first, ASSET_PARTITION_RANGE_END_TAG: last}


def materialize_parts(job: dg.JobDefinition, instance: dg.DagsterInstance,
                      partitions: list[str] | None = None, resources: dict | None = None,
                      tags: dict[str, str] | None = None) -> list[dg.ExecuteInProcessResult]:
    """Run a parts job over the given partitions (every partition when None), one in-process
    run per contiguous range; stops at the first failed run. Returns the runs' results."""
    keys = job.partitions_def.get_partition_keys(dynamic_partitions_store=instance)
    chosen = set(keys if partitions is None else partitions)
    run_job = job if resources is None else _with_resources(job, resources)
    results = []
    for first, last in contiguous_ranges(keys, chosen):
        results.append(run_job.execute_in_process(
            instance=instance, raise_on_error=False, tags={**(tags or {}),
                                                           **range_tags(first, last)}))
        if not results[-1].success:
            break
    return results


def _with_resources(job: dg.JobDefinition, resources: dict) -> dg.JobDefinition:
    """The job with other resources (a test's data folder and corpus)."""
    from pipelines.definitions import defs

    return dg.Definitions(assets=defs.assets, asset_checks=defs.asset_checks,
                          jobs=defs.jobs, resources=resources).resolve_job_def(job.name)


def split_at_vector_parts(graph: dg.AssetGraph, keys: list[dg.AssetKey],
                          vector_keys: set[dg.AssetKey]
                          ) -> tuple[list[dg.AssetKey], list[dg.AssetKey]]:
    """(the keys the vector parts read from, upstream of them; the others): what a run of
    a vector-stage job materializes before and after the vector parts. The outputs of one
    multi-asset stay together (it runs whole)."""
    upstream = dg.AssetSelection.assets(*vector_keys).upstream().resolve(graph) - vector_keys
    upstream = {sibling for key in upstream for sibling in graph.get(key).execution_set_asset_keys}
    return ([key for key in keys if key in upstream], [key for key in keys if key not in upstream])


def downstream_of(graph: dg.AssetGraph, keys: set[dg.AssetKey]) -> set[dg.AssetKey]:
    return dg.AssetSelection.assets(*keys).downstream().resolve(graph) - keys if keys else set()


def materialize_job(job_name: str, instance: dg.DagsterInstance,
                    resources: dict | None = None,
                    tags: dict[str, str] | None = None) -> list[dg.ExecuteInProcessResult]:
    """Every asset of a job in process, in the order `nyaya run --all` takes: the corpus parts
    (for an assembling job), the assets up to the document tables, the vector parts (for a
    vector-stage job), the rest. Stops at the first failed run; returns every run's result."""
    from pipelines.definitions import defs, run_tags

    settings = (resources or defs.resources)["settings"].resolved()
    results = []

    def parts(jobs: tuple[str, ...]) -> bool:
        for name in jobs:
            ran = materialize_parts(defs.resolve_job_def(name), instance, resources=resources,
                                    tags=tags)
            results.extend(ran)
            if ran and not ran[-1].success:
                return False
        return True

    def assets(selection: list[dg.AssetKey]) -> bool:
        if selection:
            results.append(job.execute_in_process(
                instance=instance, raise_on_error=False, asset_selection=selection,
                tags={**run_tags(job_name), **(tags or {})}))
        return not selection or results[-1].success

    job = defs.resolve_job_def(job_name) if resources is None else _with_resources(
        defs.resolve_job_def(job_name), resources)
    keys = sorted(job.asset_layer.executable_asset_keys)
    staged = job_name in VECTOR_STAGE_JOBS
    before, after = (split_at_vector_parts(defs.resolve_asset_graph(), keys, vector_keys())
                     if staged else (keys, []))
    if job_name in ASSEMBLING_JOBS:
        sync_partitions(instance, settings)
        if not parts(tuple(keyed.job for keyed in CORPUS_PARTITIONS)):
            return results
    if assets(before) and (not staged or parts(VECTOR_JOBS)):
        assets(after)
    return results


def vector_keys() -> set[dg.AssetKey]:
    """The vector assets built by partition (every asset of the vector jobs)."""
    from pipelines.definitions import defs

    return {key for name in VECTOR_JOBS
            for key in defs.resolve_job_def(name).asset_layer.executable_asset_keys}
