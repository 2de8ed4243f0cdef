"""Concurrency pools: the embedding and Qdrant-writing assets are in their pools, the instance
settings (dagster.yaml at the root) give each pool one slot, under Dagster's multiprocess
executor two steps of one pool never run at once, and the slot of a run killed mid-step is
given back by the next `nyaya run` (else that run would wait for it for ever)."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import time
from itertools import pairwise
from pathlib import Path

import dagster as dg
import pytest
from pool_probes import PROBES

from assets.indexes import EMBEDDING_POOL, QDRANT_WRITES_POOL
from pipelines.definitions import defs
from pipelines.recovery import release_dead_runs

ROOT = Path(__file__).resolve().parent.parent


def _pool_of(suffix: str) -> dict[str, str | None]:
    keys = [key for key in defs.resolve_asset_graph().get_all_asset_keys()
            if key.path[-1].endswith(suffix)]
    return {key.path[-1]: defs.resolve_assets_def(key).op.pool for key in keys}


@pytest.mark.parametrize(("suffix", "pool"), [("_vectors", EMBEDDING_POOL),
                                              ("_qdrant", QDRANT_WRITES_POOL)])
def test_assets_are_in_their_pools(suffix: str, pool: str) -> None:
    pools = _pool_of(suffix)
    assert len(pools) == 4  # one per Qdrant collection
    assert set(pools.values()) == {pool}, pools


@pytest.fixture
def instance(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    """A persistent instance with the project's own dagster.yaml, its storage in tmp_path."""
    home = tmp_path / "home"
    home.mkdir()
    shutil.copy(ROOT / "dagster.yaml", home / "dagster.yaml")
    monkeypatch.setenv("DAGSTER_HOME", str(home))
    monkeypatch.setenv("NYAYA_DAGSTER_STORAGE", str(tmp_path / "storage"))
    with dg.DagsterInstance.get() as found:
        yield found


def test_project_instance_gives_each_pool_one_slot(instance: dg.DagsterInstance) -> None:
    assert instance.get_concurrency_config().pool_config.default_pool_limit == 1


def test_multiprocess_steps_of_one_pool_never_overlap(instance: dg.DagsterInstance) -> None:
    recon = dg.build_reconstructable_job("tests.pool_probes", "probe_job",
                                         reconstructor_working_directory=str(ROOT))
    run_config = {"execution": {"config": {"multiprocess": {"max_concurrent": 3}}}}
    with dg.execute_job(recon, instance, run_config=run_config) as result:
        assert result.success
    spans = []
    for probe in PROBES:
        event = instance.get_latest_materialization_event(probe.key)
        metadata = event.asset_materialization.metadata
        spans.append((metadata["began"].value, metadata["ended"].value))
    spans.sort()
    # three processes were free to run at once; the one pool slot made them take turns
    assert all(later[0] >= earlier[1] for earlier, later in pairwise(spans))


HOLDS_A_SLOT = f"""
import sys, time
sys.path.insert(0, {str(ROOT)!r})
import dagster as dg
from pipelines.recovery import owner_tags

@dg.asset(name="holds_a_slot", pool={EMBEDDING_POOL!r})
def holds_a_slot():
    time.sleep(300)

job = dg.define_asset_job("slot_job", selection=dg.AssetSelection.all())
defs = dg.Definitions(assets=[holds_a_slot], jobs=[job])
with dg.DagsterInstance.get() as instance:
    defs.resolve_job_def("slot_job").execute_in_process(instance=instance, tags=owner_tags())
"""


def _claimed(instance: dg.DagsterInstance) -> list:
    return instance.event_log_storage.get_concurrency_info(EMBEDDING_POOL).claimed_slots


def test_a_killed_runs_slot_is_given_back(instance: dg.DagsterInstance) -> None:
    child = subprocess.Popen([sys.executable, "-c", HOLDS_A_SLOT], env=os.environ.copy(),
                             stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not _claimed(instance):
            assert child.poll() is None, "the run ended before it held its slot"
            assert time.monotonic() < deadline, "the run never took its pool slot"
            time.sleep(0.3)
        (slot,) = _claimed(instance)
        assert release_dead_runs(instance) == []  # its process is alive: left alone
        child.send_signal(signal.SIGKILL)
        child.wait()
    finally:
        child.kill()
    assert _claimed(instance)  # a killed process keeps its slot...
    assert release_dead_runs(instance) == [slot.run_id]  # ...until a later run frees it
    assert instance.get_run_by_id(slot.run_id).status == dg.DagsterRunStatus.FAILURE
    assert not _claimed(instance)
    assert release_dead_runs(instance) == []
