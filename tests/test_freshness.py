"""`nyaya run` redoes only what changed: stale and missing assets come from Dagster's data
versions (code versions hashing the source, corpus observed by fingerprint), plus outputs that
vanished from disk, each with everything downstream of it."""

from __future__ import annotations

import re
import shutil

import dagster as dg
import pandas as pd
import pytest

from assets import sources, statutes
from nyaya.provenance import PROJECT_PACKAGES, source_fingerprint
from nyaya.settings import PROJECT_ROOT
from nyaya.statutes.ingest import source_fingerprints
from pipelines.cli import main
from pipelines.freshness import (
    keys_to_run,
    observe_corpus,
    owed_downstream,
    partitions_to_run,
    settle_downstream,
)
from pipelines.partitions import sync_partitions
from pipelines.resources import NyayaSettings, project_resources
from pipelines.stages import StagedRun, with_resources


@pytest.fixture
def pipeline(fixture_corpus, tmp_path):
    corpus = tmp_path / "corpus"
    shutil.copytree(fixture_corpus, corpus)
    data_dir = tmp_path / "data"
    resources = project_resources(NyayaSettings(corpus_root=str(corpus), data_dir=str(data_dir)))
    # without the checks: the fixture corpus fails the official section counts by design
    parts = dg.AssetSelection.groups(statutes.PARTS_GROUP)
    defs = dg.Definitions(
        assets=dg.load_assets_from_modules([sources, statutes]),
        jobs=[dg.define_asset_job("parts", selection=parts,
                                  partitions_def=sources.STATUTE_SOURCES),
              dg.define_asset_job("job", selection=dg.AssetSelection.all() - parts)],
        resources=resources)
    return defs, dg.DagsterInstance.ephemeral(), resources, corpus, data_dir


def parse_parts(defs, instance, resources) -> list[str]:
    """What `nyaya run` does before the job: sync the partitions with the corpus and parse
    the statute sources whose partitions need it. Returns those partitions."""
    settings = resources["settings"].resolved()
    sync = sync_partitions(instance, settings, settings.data_dir / "warehouse")
    partitions = list(partitions_to_run(defs.resolve_job_def("parts"), instance,
                                        sync["statute_parts_job"].fingerprints,
                                        settings.data_dir / "warehouse"))
    runner = StagedRun(defs, instance)
    assert runner.run("parts", choose=lambda _: dict.fromkeys(partitions, "changed")) == 0
    return partitions


def plan(defs, instance, resources) -> tuple[set[str], dict[str, int]]:
    parse_parts(defs, instance, resources)
    observe_corpus(instance, resources)
    chosen = keys_to_run(defs, "job", instance)
    return {key.to_user_string() for key in chosen.keys}, chosen.reasons


def run(defs, instance, keys: set[str]) -> None:
    result = defs.resolve_job_def("job").execute_in_process(
        instance=instance, asset_selection=[dg.AssetKey(key) for key in keys])
    assert result.success
    # what reads the parts parsed by `parse_parts` is built: as `nyaya run` would, say so
    data_dir = defs.resources["settings"].resolved().data_dir
    settle_downstream(data_dir, owed_downstream(data_dir))


def test_only_the_statute_sources_that_changed_are_parsed_again(pipeline):
    defs, instance, resources, corpus, data_dir = pipeline
    every = parse_parts(defs, instance, resources)
    assert "the-bharatiya-nyaya-sanhita-2023" in every and "constitution" in every
    run(defs, instance, plan(defs, instance, resources)[0])
    assert parse_parts(defs, instance, resources) == []
    bns = corpus / "statutes" / "indiacode" / "the-bharatiya-nyaya-sanhita-2023" / "part-001.md"
    bns.write_text(bns.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert parse_parts(defs, instance, resources) == ["the-bharatiya-nyaya-sanhita-2023"]
    keys, _ = plan(defs, instance, resources)
    assert {"sections", "act_registry", "sub_sections"} <= keys  # assembled again
    # a new Act is one new partition; a removed one loses its partition and its stored parts
    added = corpus / "statutes" / "indiacode" / "the-added-act-2025"
    added.mkdir()
    (added / "part-001.md").write_text(
        "---\ntitle: The Added Act, 2025\npart: 1\nparts: 1\n---\n\n"
        "## Section 1 - Short title.\n\nThis Act may be called the Added Act, 2025.\n",
        encoding="utf-8")
    assert parse_parts(defs, instance, resources) == ["the-added-act-2025"]
    run(defs, instance, plan(defs, instance, resources)[0])
    sections = pd.read_parquet(data_dir / "warehouse" / "sections.parquet")
    assert "AA_2025:1" in set(sections["doc_id"])
    shutil.rmtree(added)
    assert parse_parts(defs, instance, resources) == []
    assert list((data_dir / "warehouse").glob("statute_parts/*/the-added-act-2025.parquet*")) == []
    run(defs, instance, plan(defs, instance, resources)[0])
    sections = pd.read_parquet(data_dir / "warehouse" / "sections.parquet")
    assert "AA_2025:1" not in set(sections["doc_id"])


def test_a_damaged_part_is_parsed_again(pipeline):
    defs, instance, resources, _, data_dir = pipeline
    parse_parts(defs, instance, resources)
    part = data_dir / "warehouse" / "statute_parts" / "sections" / "constitution.parquet"
    part.write_bytes(part.read_bytes()[:-40])
    settings = resources["settings"].resolved()
    assert partitions_to_run(defs.resolve_job_def("parts"), instance, sync_partitions(
        instance, settings)["statute_parts_job"].fingerprints, data_dir / "warehouse") == {
        "constitution": "output corrupted"}
    assert parse_parts(defs, instance, resources) == ["constitution"]


def test_first_run_does_everything_and_a_rerun_nothing(pipeline):
    defs, instance, resources, _, _ = pipeline
    keys, reasons = plan(defs, instance, resources)
    assert "sections" in keys and "definitions_index" in keys
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
    # the project's layout: modules imported by dotted name only (`pkg/__init__.py` never
    # named), a facts folder that is no package, read by the file's name
    "pkg/sub/__init__.py": "",
    "pkg/sub/reader.py": "from pkg.sub.terms import FILE\n",
    "pkg/sub/terms.py": 'FILE = "terms.yaml"  # resources.files("pkg.data").joinpath(FILE)\n',
    "pkg/data/terms.yaml": "concepts: []\n",
    "pkg/data/other.yaml": "unread: []\n",
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


@pytest.mark.parametrize(("edited", "changes"), [
    ("pkg/data/terms.yaml", True),   # a facts file a module it runs names
    ("pkg/sub/terms.py", True),
    ("pkg/data/other.yaml", False),  # facts nothing it runs names
    ("pkg/facts/acts.yaml", False),  # under `pkg`, which it never imports as a package
])
def test_code_version_follows_the_facts_files_a_module_names(tmp_path, edited, changes):
    """Until 2026-12-05 a facts file read by name from nyaya/facts (no package, so imported by
    nobody) was in no asset's code version: an edit of legal_terms.yaml or acts.yaml left every
    asset fresh."""
    write_package(tmp_path, PACKAGE)
    before = source_fingerprint("pkg.sub.reader", tmp_path, ("pkg",))
    path = tmp_path / edited
    path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert (source_fingerprint("pkg.sub.reader", tmp_path, ("pkg",)) != before) is changes


ASSET_MODULES = ("assets.sources", "assets.statutes", "assets.judgments", "assets.indexes",
                 "assets.evaluation")


@pytest.mark.parametrize(("facts_file", "stale"), [
    ("legal_terms.yaml", {"assets.evaluation"}),  # read by the retrieval configs only
    ("acts.yaml", set(ASSET_MODULES) - {"assets.sources"}),  # the registry: everything built
])
def test_editing_a_facts_file_makes_exactly_its_readers_stale(tmp_path, facts_file, stale):
    """On a copy of the project's packages: which assets' code versions a facts edit moves."""
    for package in PROJECT_PACKAGES:
        shutil.copytree(PROJECT_ROOT / package, tmp_path / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    before = {m: source_fingerprint(m, tmp_path) for m in ASSET_MODULES}
    path = tmp_path / "nyaya" / "facts" / facts_file
    path.write_text(path.read_text(encoding="utf-8") + "# edited\n", encoding="utf-8")
    assert {m for m in ASSET_MODULES if source_fingerprint(m, tmp_path) != before[m]} == stale


def test_the_corpus_sensor_builds_only_changed_partitions_then_ingests(pipeline, monkeypatch):
    from pipelines.definitions import defs as project_defs
    from pipelines.sensors import corpus_change_sensor

    defs, instance, resources, corpus, data_dir = pipeline
    monkeypatch.setenv("NYAYA_CORPUS", str(corpus))
    monkeypatch.setenv("NYAYA_DATA", str(data_dir))  # where the daemon's settings put parts
    sensor = corpus_change_sensor([project_defs.get_job_def("statute_parts_job"),
                                   project_defs.get_job_def("judgment_parts_job")],
                                  project_defs.get_job_def("ingest_job"))
    repo = project_defs.get_repository_def()

    def tick(cursor=None):
        return sensor.evaluate_tick(dg.build_sensor_context(
            instance=instance, repository_def=repo, cursor=cursor))

    def requested(result) -> dict[str, tuple[str, str]]:
        return {r.job_name: (r.tags.get("dagster/asset_partition_range_start"),
                             r.tags.get("dagster/asset_partition_range_end"))
                for r in result.run_requests}

    first = tick()
    sources = first.dynamic_partitions_requests[0].partition_keys
    years = first.dynamic_partitions_requests[2].partition_keys
    assert "constitution" in sources and len(sources) == len(source_fingerprints(corpus))
    assert "undated" in years and all(y == "undated" or y.isdigit() for y in years)
    assert requested(first) == {"statute_parts_job": (sources[0], sources[-1]),
                                "judgment_parts_job": (years[0], years[-1])}
    parse_parts(defs, instance, resources)  # the statute run; then the judgment run's work:
    assert StagedRun(with_resources(project_defs, resources), instance).run(
        "judgment_parts_job") == 0
    assert tick(first.cursor).run_requests == []  # skipped: nothing changed
    bns = corpus / "statutes" / "indiacode" / "the-bharatiya-nyaya-sanhita-2023" / "part-001.md"
    bns.write_text(bns.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    bns_key = "the-bharatiya-nyaya-sanhita-2023"
    assert requested(tick(first.cursor)) == {"statute_parts_job": (bns_key, bns_key)}
    parse_parts(defs, instance, resources)
    mapping = corpus / "mappings" / "iea_bsa.csv"
    mapping.write_text(mapping.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert requested(tick(first.cursor)) == {"ingest_job": (None, None)}  # no partition changed


def test_only_the_year_of_a_changed_judgment_is_built_again(pipeline):
    from nyaya.judgments.sources import judgment_years
    from pipelines.definitions import defs as project_defs

    _, instance, resources, corpus, data_dir = pipeline
    settings = resources["settings"].resolved()
    job = project_defs.get_job_def("judgment_parts_job")

    def to_build() -> list[str]:
        sync = sync_partitions(instance, settings, data_dir / "warehouse")
        return list(partitions_to_run(job, instance, sync["judgment_parts_job"].fingerprints,
                                      data_dir / "warehouse"))

    years = judgment_years(corpus)
    assert to_build() == list(years)  # nothing built yet: every year, and 'undated'
    assert StagedRun(with_resources(project_defs, resources), instance).run(
        "judgment_parts_job") == 0
    assert to_build() == []
    year, files = next((key, files) for key, files in years.items() if key != "undated")
    changed = corpus / files[0]
    changed.write_text(changed.read_text(encoding="utf-8") + "\nA closing line.\n",
                       encoding="utf-8")
    assert to_build() == [year]
    chunks = data_dir / "warehouse" / "judgment_parts" / "chunks" / f"{year}.parquet"
    assert chunks.exists()


def test_nyaya_run_builds_the_parts_first_and_a_rerun_none(fixture_corpus, tmp_path, monkeypatch,
                                                          capsys):
    monkeypatch.setenv("NYAYA_CORPUS", str(fixture_corpus))
    monkeypatch.setenv("NYAYA_DATA", str(tmp_path / "data"))
    monkeypatch.setenv("DAGSTER_HOME", str(tmp_path))
    main(["run", "--job", "ingest_job"])  # exit 1: the fixture fails the official counts
    first = capsys.readouterr().out
    for job in ("statute_parts_job", "judgment_parts_job"):
        assert f"{job}: succeeded" in first
        assert re.search(rf"{job}: materializing \d+ partitions \(\d+ missing\)", first)
    main(["run", "--job", "ingest_job"])
    second = capsys.readouterr().out
    assert "statute_parts_job: every partition is fresh" in second
    assert "judgment_parts_job: every partition is fresh" in second
    main(["run", "--job", "judgment_parts_job"])  # a parts job on its own
    assert "judgment_parts_job: every partition is fresh" in capsys.readouterr().out


def test_nyaya_run_embeds_only_the_partitions_whose_documents_changed(
        fixture_corpus, models_dir, tmp_path, monkeypatch, capsys):
    """The index job builds the document tables, then the vector parts that need it (per
    statute source, per year), then what reads them: an edited Act re-embeds its own part,
    a damaged part is re-created, and an unchanged corpus builds nothing."""
    from assets import indexes
    from nyaya.index.embedders import load_embedder
    from pipelines import definitions

    load_embedder("minilm-static", models_dir)  # distilled once, as a run before this would

    corpus = tmp_path / "corpus"
    shutil.copytree(fixture_corpus, corpus)
    data = tmp_path / "data"
    for variable, value in (("NYAYA_CORPUS", corpus), ("NYAYA_DATA", data),
                            ("DAGSTER_HOME", tmp_path), ("NYAYA_EMBEDDER", "minilm-static"),
                            ("NYAYA_MODELS", models_dir)):
        monkeypatch.setenv(variable, str(value))
    # the index checks only: the fixture fails the official section counts, which block
    whole = definitions.defs

    def use_checks(*checks) -> None:
        monkeypatch.setattr(definitions, "defs", dg.Definitions(
            assets=whole.assets, jobs=whole.jobs, resources=whole.resources,
            asset_checks=[*dg.load_asset_checks_from_modules([indexes]), *checks]))

    @dg.asset_check(asset="legal_sections_documents")
    def fails_without_blocking() -> dg.AssetCheckResult:
        return dg.AssetCheckResult(passed=False)

    use_checks()
    assert main(["run", "--job", "ingest_job"]) == 0
    use_checks(fails_without_blocking)  # exit 1, but the vectors and the rest still run
    assert main(["run", "--job", "index_job"]) == 1
    first = capsys.readouterr().out
    assert "failed checks: fails_without_blocking" in first
    for job in ("statute_vectors_job", "judgment_vectors_job"):
        assert re.search(rf"{job}: materializing \d+ partitions \(\d+ missing\)", first)
    assert first.rstrip().endswith("index_job: succeeded; failed checks: none")
    use_checks()
    assert main(["run", "--job", "index_job"]) == 0
    second = capsys.readouterr().out
    assert "statute_vectors_job: every partition is fresh" in second
    assert "judgment_vectors_job: every partition is fresh" in second
    assert "index_job: nothing to do, every asset is fresh" in second

    bns = corpus / "statutes" / "indiacode" / "the-bharatiya-nyaya-sanhita-2023" / "part-001.md"
    bns.write_text(bns.read_text(encoding="utf-8").replace(
        "commits the offence of culpable homicide", "commits culpable homicide"),
        encoding="utf-8")
    assert main(["run", "--job", "ingest_job"]) == 0
    assert main(["run", "--job", "index_job"]) == 0
    edited = capsys.readouterr().out
    assert "statute_vectors_job: materializing 1 partitions (1 documents changed)" in edited
    assert "judgment_vectors_job: every partition is fresh" in edited
    assert "index_job: succeeded" in edited

    part = sorted((data / "vectors" / "sc_judgments").glob("*.npy"))[0]
    part.write_bytes(part.read_bytes()[:-64])
    assert main(["run", "--job", "index_job"]) == 0
    repaired = capsys.readouterr().out
    assert "judgment_vectors_job: materializing 1 partitions (1 output corrupted)" in repaired
    assert "statute_vectors_job: every partition is fresh" in repaired
    # rebuilt byte-identical from the embedding cache: what reads the vectors is spared
    assert "sc_judgments_vectors: rebuilt with the same content" in repaired
    assert "index_job: materializing" not in repaired
    # and not later either: the part got back its data version (its input's moved meanwhile)
    assert main(["run", "--job", "index_job"]) == 0
    assert "index_job: nothing to do, every asset is fresh" in capsys.readouterr().out

    from nyaya.index.store import EdgeStore  # a Qdrant shard that lost a file is rebuilt

    shard = data / "qdrant" / "legal_sections"
    next(path for path in sorted(shard.rglob("*")) if path.is_file()
         and "segments" in path.parts).unlink()
    assert main(["run", "--job", "index_job"]) == 0
    rebuilt = capsys.readouterr().out
    assert re.search(r"index_job: assets by state: \d+ fresh, 1 store damaged \(1 file\(s\) "
                     "missing", rebuilt)
    assert EdgeStore(data / "qdrant").damage("legal_sections") is None
    # the seal keeps the digest of the points' content hashes: the same points came back
    assert "legal_sections_qdrant: rebuilt with the same content" in rebuilt


def test_unpartitioned_vectors_built_by_another_embedder_are_stale(tmp_path, models_dir):
    """The embedder is not in the vectors' code version: the part's manifest names it, and a
    run whose configured embedder differs builds the part again."""
    from dataclasses import replace

    from nyaya.index.build import build_vectors
    from nyaya.index.cache import EmbeddingCache
    from nyaya.index.embedders import load_embedder
    from nyaya.settings import Settings
    from nyaya.tables import write_table
    from pipelines.freshness import vectors_unusable

    settings = replace(Settings.from_env(), data_dir=tmp_path, embedder="minilm-static",
                       models_root=models_dir)
    documents = pd.DataFrame({"doc_id": ["T:1", "T:2"],
                              "text": ["IPC 302 is now BNS 103", "CrPC 438 is now BNSS 482"],
                              "content_hash": ["h1", "h2"]})
    write_table(documents, settings.warehouse / "law_transition_context_documents.parquet")
    cache = EmbeddingCache(settings.embeddings_dir, load_embedder("minilm-static", models_dir))
    build_vectors(documents, cache, settings.vectors_dir, "law_transition_context")
    key = dg.AssetKey("law_transition_context_vectors")
    assert vectors_unusable(settings, key) is None
    assert vectors_unusable(replace(settings, embedder="minilm-int8"), key) == "embedder changed"
    assert vectors_unusable(settings, dg.AssetKey("sections")) is None  # not a vectors asset


def test_a_copied_data_folder_is_checked_where_it_is_now(pipeline):
    """After `cp -a data elsewhere` and NYAYA_DATA=elsewhere, a table damaged in the copy is
    found (the checks read the copy, not the folder the event log first named), and the
    original left intact does not hide it."""
    defs, instance, resources, corpus, data_dir = pipeline
    run(defs, instance, plan(defs, instance, resources)[0])
    copy = data_dir.parent / "elsewhere"
    shutil.copytree(data_dir, copy)
    moved = project_resources(NyayaSettings(corpus_root=str(corpus), data_dir=str(copy)))
    defs = dg.Definitions(assets=defs.assets, jobs=defs.jobs, resources=moved)
    table = copy / "warehouse" / "definitions_index.parquet"
    table.write_bytes(table.read_bytes()[:-40])
    chosen = keys_to_run(defs, "job", instance)
    assert {key.to_user_string() for key in chosen.keys} == {"definitions_index"}
    assert chosen.reasons["output corrupted"] == 1
