"""Three independent steps in the embedding pool, for test_pools' multiprocess run: a module
of their own, so each step's new process imports Dagster and the pool's name, not the
whole project (which made that one test take 40 s)."""

from __future__ import annotations

import time

import dagster as dg

from assets.indexes import EMBEDDING_POOL

HOLD_S = 1.5  # each probe step holds its slot this long


def _probe(name: str) -> dg.AssetsDefinition:
    @dg.asset(name=name, pool=EMBEDDING_POOL)
    def _held() -> dg.MaterializeResult:
        began = time.time()
        time.sleep(HOLD_S)
        return dg.MaterializeResult(metadata={"began": began, "ended": time.time()})

    return _held


PROBES = [_probe(f"probe_{i}") for i in range(3)]


def probe_job() -> dg.JobDefinition:
    job = dg.define_asset_job("probe_job", selection=dg.AssetSelection.all())
    return dg.Definitions(assets=PROBES, jobs=[job]).resolve_job_def("probe_job")
