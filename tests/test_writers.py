"""One writer per data folder (pipelines/writers.py) and temporary files of their own."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from pathlib import Path

import dagster as dg
import pandas as pd
import pyarrow.parquet as pq
import pytest

from nyaya.tables import beside, write_table
from pipelines.writers import (
    DataFolderBusy,
    folder_tags,
    holder,
    sole_writer,
)

HOLD = ("import sys, dagster as dg; from pathlib import Path; "
        "from pipelines.writers import sole_writer; "
        "ctx = sole_writer(Path(sys.argv[1]), 'nyaya run --job main_job', "
        "dg.DagsterInstance.ephemeral()); ctx.__enter__(); print('ready', flush=True); "
        "sys.stdin.readline()")


@pytest.fixture
def held(tmp_path):
    """Another process holding the data folder, as a `nyaya run` would."""
    child = subprocess.Popen([sys.executable, "-c", HOLD, str(tmp_path)], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, text=True)
    assert child.stdout is not None and child.stdout.readline().strip() == "ready"
    yield child
    child.communicate("\n", timeout=30)


def test_a_second_writer_is_refused_with_the_first_named(tmp_path, held):
    assert holder(tmp_path).startswith(f"PID {held.pid} (nyaya run --job main_job, since ")
    busy = pytest.raises(DataFolderBusy, match=rf"is being written by PID {held.pid} \(nyaya run")
    with busy, sole_writer(tmp_path, "second", dg.DagsterInstance.ephemeral()):
        pass


def test_nyaya_run_refuses_while_another_holds_the_folder(tmp_path, held, monkeypatch, capsys):
    from pipelines.cli import main

    monkeypatch.setenv("NYAYA_DATA", str(tmp_path))
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    monkeypatch.setattr("pipelines.definitions.defs", _defs_for(tmp_path))
    assert main(["run", "--job", "statute_parts_job"]) == 2
    assert f"is being written by PID {held.pid}" in capsys.readouterr().err


def _defs_for(data_dir: Path) -> dg.Definitions:
    from pipelines import definitions
    from pipelines.resources import NyayaSettings, project_resources

    whole = definitions.defs
    return dg.Definitions(assets=whole.assets, jobs=whole.jobs, asset_checks=whole.asset_checks,
                          resources=project_resources(NyayaSettings(data_dir=str(data_dir))))


def test_the_folder_is_free_again_once_its_writer_is_done(tmp_path):
    instance = dg.DagsterInstance.ephemeral()
    with sole_writer(tmp_path, "first", instance):
        pass
    assert holder(tmp_path) is None
    with sole_writer(tmp_path, "second", instance):
        assert holder(tmp_path).startswith(f"PID {os.getpid()} (second, since ")


def test_a_run_in_progress_on_the_folder_refuses_a_writer(tmp_path):
    """A run the UI, the schedule or a sensor launched (carrying the folder's tag) holds the
    folder while it is in progress; one on another folder does not."""
    instance = dg.DagsterInstance.ephemeral()

    @dg.op
    def noop() -> None:
        pass

    @dg.job
    def somework() -> None:
        noop()

    for folder, schedule in ((tmp_path / "other", None), (tmp_path, "nightly_evaluation")):
        tags = {**folder_tags(folder), **({"dagster/schedule_name": schedule} if schedule
                                          else {})}
        run = instance.create_run_for_job(somework, tags=tags)
        instance.run_storage.handle_run_event(run.run_id, dg.DagsterEvent(
            event_type_value="PIPELINE_START", job_name=run.job_name))  # now STARTED
    busy = pytest.raises(DataFolderBusy, match=r"run \w{8} of somework \(from schedule "
                         r"nightly_evaluation, started\)")
    with busy, sole_writer(tmp_path, "nyaya run", instance):
        pass


def test_writers_of_one_table_never_share_a_temporary_file(tmp_path):
    path = tmp_path / "table.parquet"
    assert beside(path) != beside(path)
    frames = [pd.DataFrame({"writer": [n] * 2000}) for n in range(4)]
    threads = [threading.Thread(target=write_table, args=(frame, path)) for frame in frames]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    # one writer's table, whole (its checksum sidecar may be another's: a run-level lock,
    # not the file names, keeps two writers apart)
    assert pq.read_table(path).to_pandas()["writer"].nunique() == 1
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
