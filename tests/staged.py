"""`dg.materialize` for asset lists that include corpus-partitioned assets (statute sources,
years of judgments, and the vectors built by them), in the stages of `pipelines/stages.py`
that `nyaya run` takes; every partition of the test corpus is built. One instance holds all."""

from __future__ import annotations

import dagster as dg

from pipelines.partitions import range_tags, sync_partitions
from pipelines.schedules import every_partition
from pipelines.stages import plan


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
    keys = ({key for a in definitions for key in a.keys if graph.get(key).is_materializable}
            if only is None else set(only.resolve(graph)))
    runs = [] if runs is None else runs
    result = None
    for stage in plan(graph, keys):
        if stage.partitions is not None:
            partition_keys = stage.partitions.get_partition_keys(
                dynamic_partitions_store=instance)
            parts = dg.materialize(assets, selection=list(stage.keys), resources=resources,
                                   instance=instance,
                                   tags=range_tags(partition_keys[0], partition_keys[-1]))
            assert parts.success, f"the run of {stage.keys} failed"
            runs.append(parts)
            continue
        configs = {graph.get(key).partitions_def for key in stage.keys} - {None}
        tags = every_partition(configs.pop()) if configs else {}
        result = dg.materialize(assets, selection=list(stage.keys), resources=resources,
                                instance=instance, tags=tags, **kwargs)
        runs.append(result)
    assert result is not None, "no unpartitioned asset to materialize"
    return result
