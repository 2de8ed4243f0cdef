"""The tests' real-corpus main job, in a process of its own, so that the tests that do not read
it run beside it on the other core (conftest starts it once collection shows a test that reads
it, and runs those tests last).

`python tests/main_job.py DATA_DIR INSTANCE_DIR CORPUS MODELS_DIR` builds every asset and
partition of the main job as `nyaya run --all` builds them, into DATA_DIR, recording its runs
in a sqlite Dagster instance in INSTANCE_DIR, which `JobRuns` reads back. Exit 0 when every run
succeeded, 1 when one failed (the tests say which), anything else when it could not run.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import dagster as dg

#: The sections embedder of the real-corpus run: the fast static tier, because the int8 default
#: adds ~9 minutes of CPU embedding to the test command (`make run` exercises it).
TEST_EMBEDDER = "minilm-static"


def open_instance(folder: Path | str) -> dg.DagsterInstance:
    """The job's sqlite instance in `folder`, telemetry off as in the project's dagster.yaml."""
    return dg.DagsterInstance.local_temp(str(folder), overrides={"telemetry": {"enabled": False}})


class JobRuns:
    """The runs one job was materialized in (parts, the assets up to the document tables,
    vector parts, the rest), read back from their instance as one run."""

    def __init__(self, instance: dg.DagsterInstance) -> None:
        self.instance = instance
        self.runs = instance.get_runs(ascending=True)

    @property
    def success(self) -> bool:
        return bool(self.runs) and all(run.status == dg.DagsterRunStatus.SUCCESS
                                       for run in self.runs)

    def _events(self, kind: dg.DagsterEventType) -> list[dg.DagsterEvent]:
        return [record.event_log_entry.dagster_event for run in self.runs
                for record in self.instance.get_records_for_run(run.run_id, of_type=kind).records]

    def get_asset_check_evaluations(self) -> list:
        return [event.event_specific_data for event in
                self._events(dg.DagsterEventType.ASSET_CHECK_EVALUATION)]

    def asset_materializations_for_node(self, node: str) -> list[dg.AssetMaterialization]:
        return [event.event_specific_data.materialization for event in
                self._events(dg.DagsterEventType.ASSET_MATERIALIZATION)
                if event.step_key == node]


def numba_cache(root: Path) -> Path:
    """The job's own numba cache: numba's on-disk cache is not safe for two processes
    compiling into it at once (numba/numba#10128). With one cache for both, cold, the test
    process's ranx gave MAP 0.083 for a run that trec_eval scores 0.405, on the CI run of
    5cf2520 (the job's own figures were right). A folder of its own inside the project's
    cache when there is one, so it stays warm between sessions."""
    shared = os.environ.get("NUMBA_CACHE_DIR")
    return Path(shared) / "main-job" if shared else root / "numba_cache"


class BackgroundMainJob:
    """The job's process, its folders and its log; `result` waits for it."""

    def __init__(self, root: Path, corpus: Path, models_dir: Path) -> None:
        self.data_dir, self.instance_dir = root / "data", root / "instance"
        self.data_dir.mkdir(parents=True)
        self.instance_dir.mkdir()
        self.log = root / "main_job.log"
        self.started = time.perf_counter()
        with self.log.open("w") as log:
            self.process = subprocess.Popen(
                [sys.executable, __file__, str(self.data_dir), str(self.instance_dir),
                 str(corpus), str(models_dir)], stdout=log, stderr=subprocess.STDOUT,
                env={**os.environ, "NUMBA_CACHE_DIR": str(numba_cache(root))})

    def result(self) -> tuple[Path, JobRuns]:
        """(data dir, runs) once the process has ended; a process that could not run raises,
        with the end of its log."""
        code = self.process.wait()
        if code not in (0, 1):
            tail = self.log.read_text(errors="replace")[-6000:]
            raise RuntimeError(f"the real-corpus main job exited {code} after "
                               f"{time.perf_counter() - self.started:.0f} s "
                               f"(log: {self.log}):\n{tail}")
        return self.data_dir, JobRuns(open_instance(self.instance_dir))

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            self.process.wait()


def main(data_dir: str, instance_dir: str, corpus: str, models_dir: str) -> int:
    from pipelines.definitions import defs
    from pipelines.resources import NyayaSettings, project_resources
    from pipelines.stages import materialize_every_stage, with_resources

    settings = NyayaSettings(corpus_root=corpus, data_dir=data_dir, embedder=TEST_EMBEDDER,
                             models_dir=models_dir)
    with open_instance(instance_dir) as instance:
        staged = materialize_every_stage(with_resources(defs, project_resources(settings)),
                                         "main_job", instance)
    return 0 if all(result.success for result in staged.results) else 1


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
