"""`nyaya run` redoes only what changed: stale and missing assets come from Dagster's data
versions (code versions hashing the source, corpus observed by fingerprint), plus outputs that
vanished from disk, each with everything downstream of it."""

from __future__ import annotations

import shutil

import dagster as dg
import pytest

from assets import sources, statutes
from nyaya.provenance import source_fingerprint
from pipelines.freshness import keys_to_run, observe_corpus
from pipelines.resources import NyayaSettings, ParquetIOManager


@pytest.fixture
def pipeline(fixture_corpus, tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(fixture_corpus, corpus)
    data_dir = tmp_path / "data"
    resources = {"settings": NyayaSettings(corpus_root=str(corpus), data_dir=str(data_dir)),
                 "io_manager": ParquetIOManager(data_dir=str(data_dir))}
    # without the checks: the fixture corpus fails the official section counts by design
    defs = dg.Definitions(
        assets=dg.load_assets_from_modules([sources, statutes]),
        jobs=[dg.define_asset_job("job", selection=dg.AssetSelection.all())],
        resources=resources)
    return defs, dg.DagsterInstance.ephemeral(), resources, corpus, data_dir


def plan(defs, instance, resources) -> tuple[set[str], dict[str, int]]:
    observe_corpus(instance, resources)
    keys, reasons = keys_to_run(defs, "job", instance)
    return {key.to_user_string() for key in keys}, reasons


def run(defs, instance, keys: set[str]) -> None:
    result = defs.resolve_job_def("job").execute_in_process(
        instance=instance, asset_selection=[dg.AssetKey(key) for key in keys])
    assert result.success


def test_first_run_does_everything_and_a_rerun_nothing(pipeline):
    defs, instance, resources, _, _ = pipeline
    keys, reasons = plan(defs, instance, resources)
    assert "sections" in keys and "human_review_queue" in keys
    assert reasons == {"missing": len(keys)}
    run(defs, instance, keys)
    again, reasons = plan(defs, instance, resources)
    assert again == set()
    assert reasons == {"fresh": len(keys)}


def test_a_changed_mapping_file_redoes_the_map_and_what_is_built_from_it(pipeline):
    defs, instance, resources, corpus, _ = pipeline
    run(defs, instance, plan(defs, instance, resources)[0])
    mapping = corpus / "mappings" / "iea_bsa.csv"
    mapping.write_text(mapping.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    keys, reasons = plan(defs, instance, resources)
    # the statute corpus fingerprint covers mappings, so every table read from it is stale
    assert {"law_transition_map", "sections", "act_registry"} <= keys
    assert reasons["stale"] >= 2


def test_a_deleted_table_is_rebuilt_with_its_downstream_only(pipeline):
    defs, instance, resources, _, data_dir = pipeline
    first, _ = plan(defs, instance, resources)
    run(defs, instance, first)
    (data_dir / "warehouse" / "definitions_index.parquet").unlink()
    keys, reasons = plan(defs, instance, resources)
    assert keys == {"definitions_index"}
    assert reasons["output missing"] == 1


def write_package(root, files: dict[str, str]) -> None:
    for name, text in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")


PACKAGE = {
    "pkg/__init__.py": "",
    "pkg/stage.py": "import os\nfrom pkg import helper\n",
    "pkg/helper.py": "from .deep import value\n",
    "pkg/deep.py": "value = 1\n",
    "pkg/unrelated.py": "other = 2\n",
    "pkg/facts/acts.yaml": "acts: []\n",
}


@pytest.mark.parametrize(("edited", "changes"), [
    ("pkg/stage.py", True),        # the module itself
    ("pkg/helper.py", True),       # imported directly
    ("pkg/deep.py", True),         # imported through a relative import, transitively
    ("pkg/facts/acts.yaml", True),  # data shipped in a package the module uses
    ("pkg/unrelated.py", False),   # code the module never imports
])
def test_code_version_follows_exactly_the_code_an_asset_module_runs(tmp_path, edited, changes):
    write_package(tmp_path, PACKAGE)
    before = source_fingerprint("pkg.stage", tmp_path, ("pkg",))
    path = tmp_path / edited
    path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert (source_fingerprint("pkg.stage", tmp_path, ("pkg",)) != before) is changes
