"""`dg.materialize` for asset lists that include partitioned assets (statute sources, years of
judgments, and the vectors built by them), in the order `nyaya run` takes: at each step, every
unpartitioned asset not downstream of a pending partitioned one, in one run; else the
partitioned assets whose inputs are all built, over every partition of the test corpus (one
single-run backfill per partitioning). One instance holds all of it."""

from __future__ import annotations

import dagster as dg

from pipelines.partitions import range_tags, sync_partitions


def materialize_staged(assets: list, resources: dict, instance: dg.DagsterInstance | None = None,
                       only: dg.AssetSelection | None = None, runs: list | None = None,
                       **kwargs) -> dg.ExecuteInProcessResult:
    """The result of the last unpartitioned run; every partitioned run must succeed. `only`
    limits the run to those assets (the others are read from storage); `runs` collects every
    run's result."""
    instance = instance or dg.DagsterInstance.ephemeral()
    sync_partitions(instance, resources["settings"].resolved())
    definitions = [a for a in assets if isinstance(a, dg.AssetsDefinition)]
    graph = dg.Definitions(assets=definitions, resources=resources).resolve_asset_graph()
    partitions_of = {key: a.partitions_def for a in definitions for key in a.keys}
    pending = set(partitions_of) if only is None else set(only.resolve(graph))
    runs = [] if runs is None else runs
    result = None
    while pending:
        partitioned = {key for key in pending if partitions_of[key]}
        blocked = dg.AssetSelection.assets(*partitioned).downstream().resolve(graph)
        free = sorted(pending - blocked - partitioned)
        if free:
            result = dg.materialize(assets, selection=free, resources=resources,
                                    instance=instance, **kwargs)
            runs.append(result)
            pending -= set(free)
            continue
        ready = sorted(key for key in partitioned
                       if not graph.get(key).parent_keys & pending)
        by_partitioning: dict[str, list[dg.AssetKey]] = {}
        for key in ready:
            by_partitioning.setdefault(partitions_of[key].name, []).append(key)
        for keys in by_partitioning.values():
            partition_keys = partitions_of[keys[0]].get_partition_keys(
                dynamic_partitions_store=instance)
            parts = dg.materialize(assets, selection=keys, resources=resources,
                                   instance=instance,
                                   tags=range_tags(partition_keys[0], partition_keys[-1]))
            assert parts.success, f"the run of {keys} failed"
            runs.append(parts)
            pending -= set(keys)
    assert result is not None, "no unpartitioned asset to materialize"
    return result
