"""`dg.materialize` for asset lists that include parts assets (statute sources, years of
judgments): each partitioned set first, over every partition of the test corpus (one
single-run backfill each), then the rest, which assembles them. One instance holds all of it,
as in `nyaya run`."""

from __future__ import annotations

import dagster as dg

from pipelines.partitions import range_tags, sync_partitions


def materialize_staged(assets: list, resources: dict, instance: dg.DagsterInstance | None = None,
                       **kwargs) -> dg.ExecuteInProcessResult:
    """The result of the last (assembling) run; every parts run must succeed."""
    instance = instance or dg.DagsterInstance.ephemeral()
    sync_partitions(instance, resources["settings"].resolved())
    definitions = [a for a in assets if isinstance(a, dg.AssetsDefinition)]
    by_partitioning: dict[str, list] = {}
    for asset in definitions:
        if asset.partitions_def:
            by_partitioning.setdefault(asset.partitions_def.name, []).append(asset)
    for parts in by_partitioning.values():
        keys = parts[0].partitions_def.get_partition_keys(dynamic_partitions_store=instance)
        parsed = dg.materialize(assets, selection=parts, resources=resources, instance=instance,
                                tags=range_tags(keys[0], keys[-1]))
        assert parsed.success
    rest = [key for a in definitions if not a.partitions_def for key in a.keys]
    return dg.materialize(assets, selection=rest, resources=resources, instance=instance,
                          **kwargs)
