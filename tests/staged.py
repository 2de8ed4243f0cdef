"""`dg.materialize` for asset lists that include the per-source statute parts: the parts
first, over every partition of the test corpus (one single-run backfill), then the rest, which
assembles them. One instance holds both, as in `nyaya run`."""

from __future__ import annotations

import dagster as dg
from dagster._core.storage.tags import (
    ASSET_PARTITION_RANGE_END_TAG,
    ASSET_PARTITION_RANGE_START_TAG,
)

from pipelines.partitions import sync_partitions


def materialize_staged(assets: list, resources: dict, instance: dg.DagsterInstance | None = None,
                       **kwargs) -> dg.ExecuteInProcessResult:
    """The result of the second (assembling) run; the parts run must succeed."""
    instance = instance or dg.DagsterInstance.ephemeral()
    settings = resources["settings"].resolved()
    sync_partitions(instance, settings.require_corpus())
    parts = [a for a in assets if isinstance(a, dg.AssetsDefinition) and a.partitions_def]
    if parts:
        keys = parts[0].partitions_def.get_partition_keys(dynamic_partitions_store=instance)
        parsed = dg.materialize(assets, selection=parts, resources=resources, instance=instance,
                                tags={ASSET_PARTITION_RANGE_START_TAG: keys[0],
                                      ASSET_PARTITION_RANGE_END_TAG: keys[-1]})
        assert parsed.success
    rest = [key for a in assets if isinstance(a, dg.AssetsDefinition) and not a.partitions_def
            for key in a.keys]
    return dg.materialize(assets, selection=rest, resources=resources, instance=instance,
                          **kwargs)
