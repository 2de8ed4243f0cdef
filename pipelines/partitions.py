"""Corpus-keyed partitions: one per statute source (India Code Act folder or JSON code) and
one per year of decision of the judgments.

The keys come from the corpus, so they are Dagster dynamic partitions: `sync_partitions` adds
a partition for a new source or year and deletes one (with its stored parts) that is gone from
the corpus. A parts job runs over the partitions that need it, one run per contiguous range of
them (a single-run backfill each), before the rest of a job assembles the parts into whole
tables: the order is `pipelines/stages.py`'s.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import dagster as dg

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
#: Dagster's run tags for a single-run backfill over a range of partitions (documented tag
#: names; the constants that hold them are not public API)
RANGE_START_TAG = "dagster/asset_partition_range_start"
RANGE_END_TAG = "dagster/asset_partition_range_end"


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
    return {RANGE_START_TAG: first, RANGE_END_TAG: last}
