"""Corpus-keyed partitions: one per statute source (India Code Act folder or JSON code).

The keys come from the corpus, so they are Dagster dynamic partitions: `sync_partitions` adds
a partition for a new source and deletes one (with its stored parts) for a source gone from
the corpus. `materialize_parts` runs the partitioned parsing over the partitions that need it,
one run per contiguous range of them (a single-run backfill each), before the rest of a job
assembles the parts into whole tables. A Dagster job holds one partitions definition, and the
evaluation assets are partitioned by retrieval config, so the parts have a job of their own
(`statute_parts_job`) that `nyaya run` runs first.
"""

from __future__ import annotations

from pathlib import Path

import dagster as dg
from dagster._core.storage.tags import (
    ASSET_PARTITION_RANGE_END_TAG,
    ASSET_PARTITION_RANGE_START_TAG,
)

from assets.sources import STATUTE_SOURCES
from nyaya.statutes.ingest import source_keys

#: partitions definition -> how to list its keys from the corpus root
KEYED_BY_CORPUS = {STATUTE_SOURCES.name: source_keys}
#: jobs that parse parts, and the jobs whose assets assemble them (these run the parts first)
PARTS_JOBS = ("statute_parts_job",)
ASSEMBLING_JOBS = ("main_job", "ingest_job")


def sync_partitions(instance: dg.DagsterInstance, corpus_root: Path,
                    warehouse: Path | None = None) -> dict[str, tuple[list[str], list[str]]]:
    """Make each corpus-keyed partitions definition hold exactly the corpus's keys; delete the
    stored parts of a removed key under `warehouse`. Returns name -> (added, removed)."""
    changes = {}
    for name, keys_of in KEYED_BY_CORPUS.items():
        wanted = keys_of(corpus_root)
        held = set(instance.get_dynamic_partitions(name))
        added = [key for key in wanted if key not in held]
        removed = sorted(held - set(wanted))
        if added:
            instance.add_dynamic_partitions(name, added)
        for key in removed:
            instance.delete_dynamic_partition(name, key)
            if warehouse is not None:
                for stored in warehouse.glob(f"*/{key}.parquet*"):
                    stored.unlink()
        changes[name] = (added, removed)
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


def materialize_parts(job: dg.JobDefinition, instance: dg.DagsterInstance,
                      partitions: list[str] | None = None, resources: dict | None = None,
                      tags: dict[str, str] | None = None) -> list[dg.ExecuteInProcessResult]:
    """Run a parts job over the given partitions (every partition when None), one in-process
    run per contiguous range. Returns the runs' results (none when nothing is given)."""
    keys = job.partitions_def.get_partition_keys(dynamic_partitions_store=instance)
    chosen = set(keys if partitions is None else partitions)
    results = []
    for first, last in contiguous_ranges(keys, chosen):
        range_tags = {ASSET_PARTITION_RANGE_START_TAG: first, ASSET_PARTITION_RANGE_END_TAG: last}
        run_job = job if resources is None else _with_resources(job, resources)
        results.append(run_job.execute_in_process(
            instance=instance, raise_on_error=False, tags={**(tags or {}), **range_tags}))
        if not results[-1].success:
            break
    return results


def _with_resources(job: dg.JobDefinition, resources: dict) -> dg.JobDefinition:
    """The job with other resources (a test's data folder and corpus)."""
    from pipelines.definitions import defs

    return dg.Definitions(assets=defs.assets, asset_checks=defs.asset_checks,
                          jobs=defs.jobs, resources=resources).resolve_job_def(job.name)
