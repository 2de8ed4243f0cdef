"""What `nyaya run` prints, and how its runs show in the UI: by default a line or two per stage,
the assets' own progress and where to look next, without Dagster's DEBUG stream or notices a
user can do nothing about; `-v` gives the DEBUG stream back. Every run carries the tag that the
UI's job page lists runs by. All on the fixture corpus's statute parts (seconds)."""

from __future__ import annotations

import logging
import os
import re
import subprocess
import sys
from pathlib import Path

import dagster as dg

from nyaya.index.embedders import quiet_model_loading
from nyaya.settings import Settings
from pipelines.cli import main
from pipelines.stages import UI_TAGS, closing_lines

ROOT = Path(__file__).resolve().parents[1]
JOB = "statute_parts_job"


def make_dev_label() -> tuple[str, str]:
    """The tag and value the UI lists a job's runs by, for the code location `make dev` serves,
    named by Dagster's own rules (private: they are what the check is about)."""
    from dagster._core.definitions.repository_definition import SINGLETON_REPOSITORY_NAME
    from dagster._core.remote_origin import RemoteRepositoryOrigin
    from dagster._core.storage.tags import REPOSITORY_LABEL_TAG
    from dagster._core.workspace.load import location_origin_from_module_name

    served = re.search(r"dagster dev -m (\S+)$", (ROOT / "Makefile").read_text(), re.M)
    assert served, "make dev serves something else than a module: update stages.UI_TAGS"
    origin = location_origin_from_module_name(served[1], None, str(ROOT))
    return REPOSITORY_LABEL_TAG, RemoteRepositoryOrigin(origin, SINGLETON_REPOSITORY_NAME
                                                        ).get_label()


def test_nyaya_run_is_quiet_by_default_verbose_with_v_and_its_runs_are_on_the_job_page(
        fixture_corpus, tmp_path, monkeypatch, capsys):
    data = tmp_path / "data"
    for variable, value in (("NYAYA_CORPUS", fixture_corpus), ("NYAYA_DATA", data),
                            ("DAGSTER_HOME", tmp_path)):
        monkeypatch.setenv(variable, str(value))
    # a fresh interpreter, as `make run` starts: Dagster's beta notices come when the assets
    # are imported, which this test session did long ago
    quiet = subprocess.run([sys.executable, "-m", "pipelines.cli", "run", "--job", JOB],
                           cwd=ROOT, env=os.environ, capture_output=True, text=True,
                           check=True)
    output = quiet.stdout + quiet.stderr
    assert " DEBUG " not in output
    assert "Warning" not in output
    assert re.search(rf"^\[1/1 [\dms]+\] {JOB}: materializing \d+ partitions \(\d+ missing\)$",
                     quiet.stdout, re.M)
    assert quiet.stdout.splitlines()[-1].endswith(f"{JOB}: succeeded; failed checks: none")
    assert " - INFO - " in quiet.stderr and "statute sources parsed" in quiet.stderr
    assert quiet.stderr.splitlines()[-2:] == [
        f"report: none yet in {data / 'reports' / 'latest'} (the evaluation job writes it: "
        "nyaya report)",
        "UI: make dev, then http://127.0.0.1:3000 (each job's runs on its page)"]

    assert main(["run", "--job", JOB, "--all", "-v"]) == 0
    verbose = capsys.readouterr()
    assert re.search(rf" - DEBUG - {JOB} - .* - STEP_SUCCESS - ", verbose.err)
    assert "statute sources parsed" in verbose.err
    assert f"{JOB}: succeeded; failed checks: none" in verbose.out

    tag, label = make_dev_label()
    assert {tag: label} == UI_TAGS
    with dg.DagsterInstance.get() as instance:
        runs = instance.get_runs(dg.RunsFilter(job_name=JOB))
        # the job page's filter (dagster_graphql's GraphenePipeline.resolve_runs)
        listed = instance.get_runs(dg.RunsFilter(job_name=JOB, tags={tag: label}))
    assert len(runs) == 2
    assert {run.run_id for run in listed} == {run.run_id for run in runs}


def test_the_closing_lines_name_the_latest_report_and_when_it_was_written(tmp_path):
    latest = tmp_path / "reports" / "latest"
    latest.mkdir(parents=True)
    (latest / "report.html").write_text("<html></html>")
    settings = Settings(corpus_root=tmp_path, data_dir=tmp_path, qdrant_path=tmp_path,
                        qdrant_url=None)
    report, ui = closing_lines(settings)
    assert re.fullmatch(rf"report: {re.escape(str(latest / 'report.html'))} \(written "
                        r"\d{4}-\d\d-\d\d \d\d:\d\d; report\.md and metrics\.csv beside it\)",
                        report)
    assert "http://127.0.0.1:3000" in ui


def test_a_model_load_report_of_unused_weights_only_is_left_out(monkeypatch):
    """transformers reports `embeddings.position_ids` UNEXPECTED for the packaged MiniLM on
    every load; a report of missing or mismatched weights still shows."""
    logger = logging.getLogger("transformers.modeling_utils")
    monkeypatch.setattr(logger, "filters", [])
    monkeypatch.setenv("HF_HUB_DISABLE_PROGRESS_BARS", "0")  # a user's own setting is kept
    quiet_model_loading()
    assert os.environ["HF_HUB_DISABLE_PROGRESS_BARS"] == "0"

    def shown(message: str) -> bool:
        return bool(logger.filter(logger.makeRecord(logger.name, logging.WARNING, __file__, 0,
                                                    message, None, None)))

    assert not shown("BertModel LOAD REPORT from: minilm\nembeddings.position_ids | UNEXPECTED")
    assert shown("BertModel LOAD REPORT from: minilm\nencoder.layer.0.weight | MISSING")
    assert shown("something else")
