"""Assets materialized in-process on the fixture corpus, and the Definitions load test."""

from __future__ import annotations

import dagster as dg
import pandas as pd
import pytest
from staged import materialize_staged

from assets import evaluation, judgments, statutes
from evals.configs import config_names
from nyaya.tables import Part, PartTables, read_table, table_provenance
from pipelines.definitions import defs
from pipelines.resources import NyayaSettings, ParquetIOManager, project_resources
from pipelines.writers import sole_writer

STATUTE_ASSETS = dg.load_assets_from_modules([statutes])
STATUTE_CHECKS = dg.load_asset_checks_from_modules([statutes])


def resources_for(corpus, data_dir) -> dict:
    return project_resources(NyayaSettings(corpus_root=str(corpus), data_dir=str(data_dir)))


@pytest.fixture(scope="module")
def built(fixture_corpus, tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("data")
    result = materialize_staged(STATUTE_ASSETS, resources_for(fixture_corpus, data_dir))
    assert result.success
    return data_dir, result


def table(data_dir, name) -> pd.DataFrame:
    return pd.read_parquet(data_dir / "warehouse" / f"{name}.parquet")


def test_every_statute_table_is_written_with_schema_metadata(built):
    data_dir, result = built
    for name in ("act_registry", "sections", "ingest_quarantine", "law_transition_map",
                 "sub_sections", "cross_references", "definitions_index"):
        assert (data_dir / "warehouse" / f"{name}.parquet").exists(), name
        metadata = result.asset_materializations_for_node(
            "statute_tables" if name in ("act_registry", "sections", "ingest_quarantine")
            else name)
        assert any(m.metadata.get("dagster/row_count") is not None for m in metadata), name
    sections = table(data_dir, "sections")
    assert list(sections.columns[:4]) == ["act_code", "section_number", "section_key", "title"]


def test_sections_table_content(built):
    sections = table(built[0], "sections").set_index("doc_id")
    assert sections.loc["BNS_2023:103", "chapter_number"] == "VI"
    assert sections.loc["BNS_2023:103", "source_line"] == 36
    assert sections.loc["IPC_1860:302", "status"] == "repealed"
    assert sections.loc["COI:Preamble", "chapter_number"] == "Part I"
    assert sections.loc["HMA_1955:29", "status"] == "omitted"
    # numeric order within an Act: 1, 2, 100, 101, 103, 302, 318
    bns = table(built[0], "sections").query("act_code == 'BNS_2023'")["section_number"].tolist()
    assert bns == ["1", "2", "100", "101", "103", "302", "318"]


def test_registry_covers_fixture_acts_with_curated_codes(built):
    registry = table(built[0], "act_registry").set_index("act_code")
    assert {"BNS_2023", "BNSS_2023", "BSA_2023", "HMA_1955", "IPC_1860", "CrPC_1973",
            "IEA_1872", "COI"} <= set(registry.index)
    assert registry.loc["BNS_2023", "era"] == "naveen_sanhitas"
    assert registry.loc["IPC_1860", "status"] == "repealed"
    assert "I.P.C." in list(registry.loc["IPC_1860", "aliases"])


def test_transition_map_flags_disagreement_and_unresolved(built):
    transitions = table(built[0], "law_transition_map")
    flagged = transitions[transitions["disagreement"]]
    assert set(flagged["old_section"]) == {"498A"}
    unresolved = transitions[~transitions["resolves"]].set_index("old_section")
    # the fixture holds few BNS sections, so most targets are missing; 171I misses both sides
    assert unresolved.loc["171I", "resolution_problem"] == (
        "IPC_1860 s.171I not in sections; BNS_2023 s.177 not in sections")
    assert set(unresolved["new_section"]) == {"3", "85", "86", "177", "358"}


def test_definitions_and_references_come_from_section_text(built):
    definitions = table(built[0], "definitions_index")
    assert "injury" in set(definitions.query("act_code == 'BNS_2023'")["term"])
    refs = table(built[0], "cross_references")
    from_318 = refs.query("source_act_code == 'BNS_2023' and source_section == '318'")
    assert set(from_318["target_section"]) == {"103"}
    assert set(from_318["reference_type"]) == {"punishment_table"}


def test_checks_can_fail_and_block(fixture_corpus, tmp_path):
    """On the fixture corpus BNS has 7 sections, not 358: the blocking check must say so."""
    result = materialize_staged([*STATUTE_ASSETS, *STATUTE_CHECKS],
                                resources_for(fixture_corpus, tmp_path), raise_on_error=False)
    evaluations = {e.check_name: e for e in result.get_asset_check_evaluations()}
    counts = evaluations["sections_match_official_counts"]
    assert not counts.passed
    assert counts.metadata["BNS_2023"].value == "7 (expected == 358)"
    assert evaluations["sections_are_unique"].passed
    assert evaluations["registry_covers_corpus"].passed
    assert not result.success  # blocking: downstream assets did not run


def test_definitions_load_with_every_job_schedule_and_sensor(tmp_path, monkeypatch):
    monkeypatch.setenv("NYAYA_DATA", str(tmp_path))  # a folder no run holds
    repo = defs.get_repository_def()
    assert {job.name for job in repo.get_all_jobs()} >= {"main_job", "ingest_job",
                                                          "evaluation_job"}
    assert {s.name for s in repo.schedule_defs} == {"nightly_evaluation"}
    assert {s.name for s in repo.sensor_defs} == {"corpus_change_sensor", "ingest_after_parts"}
    keys = {key.to_user_string() for key in repo.asset_graph.get_all_asset_keys()}
    assert keys >= {"act_registry", "sections", "sub_sections", "law_transition_map",
                    "cross_references", "definitions_index", "human_review_queue",
                    "retrieval_runs", "retrieval_metrics", "query_type_accuracy",
                    "evaluation_report", "judgments", "sc_case_registry", "judgment_quarantine",
                    "judgment_chunks", "citation_mentions", "entity_index",
                    "citation_graph_nodes", "citation_graph_edges", "domain_tags",
                    "statute_corpus", "judgment_corpus", "legal_sections_qdrant",
                    "sc_judgments_faiss"}
    # one partition per config file, and every scheduled run covers them all in one run
    runs = repo.asset_graph.get(dg.AssetKey("retrieval_runs"))
    assert runs.partitions_def.get_partition_keys() == config_names()
    nightly = repo.get_schedule_def("nightly_evaluation")
    tags = nightly.evaluate_tick(dg.build_schedule_context()).run_requests[0].tags
    assert tags.items() >= {"dagster/asset_partition_range_start": config_names()[0],
                            "dagster/asset_partition_range_end": config_names()[-1]}.items()
    with sole_writer(tmp_path, "nyaya run --job main_job", dg.DagsterInstance.ephemeral()):
        skipped = nightly.evaluate_tick(dg.build_schedule_context())
    assert not skipped.run_requests and "being written by PID" in skipped.skip_message
    # 12 on the tables, and the evaluation's regression check
    assert len(dg.load_asset_checks_from_modules([statutes, judgments, evaluation])) == 13
    ingest = defs.resolve_job_def("ingest_job")
    assert {k.to_user_string() for k in ingest.asset_layer.executable_asset_keys} >= {
        "sections", "judgments", "domain_tags"}


PARTS = dg.StaticPartitionsDefinition(["a", "b", "c"])


@dg.asset(partitions_def=PARTS, backfill_policy=dg.BackfillPolicy.single_run())
def per_part(context) -> dict:
    return {key: pd.DataFrame({"part": [key], "n": [i]})
            for i, key in enumerate(context.partition_keys)}


@dg.asset
def all_parts(per_part: pd.DataFrame) -> pd.DataFrame:
    return per_part


@dg.asset(partitions_def=PARTS, backfill_policy=dg.BackfillPolicy.single_run())
def wrong_parts() -> dict:
    return {"a": pd.DataFrame({"x": [1]})}


def test_partitioned_tables_are_written_apart_and_read_together(tmp_path):
    io = ParquetIOManager(settings=NyayaSettings(data_dir=str(tmp_path)))
    tags = {"dagster/asset_partition_range_start": "a", "dagster/asset_partition_range_end": "c"}
    result = dg.materialize([per_part, all_parts], resources={"io_manager": io}, tags=tags)
    assert result.success
    assert sorted(p.name for p in (tmp_path / "warehouse" / "per_part").iterdir()) == [
        "a.parquet", "a.parquet.sha256", "b.parquet", "b.parquet.sha256", "c.parquet",
        "c.parquet.sha256"]  # each table with its checksum
    combined = pd.read_parquet(tmp_path / "warehouse" / "all_parts.parquet")
    assert combined["part"].tolist() == ["a", "b", "c"]
    failed = dg.materialize([wrong_parts], resources={"io_manager": io}, tags=tags,
                            raise_on_error=False)
    assert not failed.success
    error = failed.get_step_failure_events()[0].event_specific_data.error.cause.message
    assert ("wrong_parts: expected one DataFrame per partition of the run ['a', 'b', 'c'], "
            "got ['a']") in error


@dg.asset(partitions_def=PARTS, backfill_policy=dg.BackfillPolicy.single_run())
def multi_table_part(context) -> dict:
    return {key: Part({"rows": pd.DataFrame({"part": [key]}), "empty": pd.DataFrame({"x": []})},
                      {"source_fingerprint": f"fp-{key}"})
            for key in context.partition_keys}


@dg.asset
def rows_of_parts(multi_table_part: PartTables) -> pd.DataFrame:
    assert sorted(multi_table_part) == ["empty", "rows"]
    return multi_table_part["rows"]


def test_a_part_of_several_tables_is_written_per_table_with_its_provenance(tmp_path):
    io = ParquetIOManager(settings=NyayaSettings(data_dir=str(tmp_path)))
    tags = {"dagster/asset_partition_range_start": "a", "dagster/asset_partition_range_end": "c"}
    assert dg.materialize([multi_table_part, rows_of_parts], resources={"io_manager": io},
                          tags=tags).success
    folder = tmp_path / "warehouse" / "multi_table_part"
    assert sorted(p.name for p in (folder / "rows").glob("*.parquet")) == [
        "a.parquet", "b.parquet", "c.parquet"]
    assert table_provenance(folder / "empty" / "b.parquet") == {"source_fingerprint": "fp-b"}
    combined = pd.read_parquet(tmp_path / "warehouse" / "rows_of_parts.parquet")
    assert combined["part"].tolist() == ["a", "b", "c"]


def test_every_asset_says_what_it_is_in_the_ui():
    """Descriptions render as Markdown there: a bare <date> would vanish as an HTML tag."""
    from pipelines.definitions import defs

    graph = defs.resolve_asset_graph()
    described = {key.to_user_string(): graph.get(key).description
                 for key in graph.get_all_asset_keys()}
    assert [key for key, text in described.items() if not text] == []
    assert "`data/reports/<date>/`" in described["evaluation_report"]
    groups = {graph.get(key).group_name for key in graph.get_all_asset_keys()}
    assert groups == {"sources", "statute_parts", "judgment_parts", "statutes", "judgments",
                      "indexes", "evaluation"}  # as docs/using.md lists them


def test_each_statute_partition_reports_its_own_rows(fixture_corpus, tmp_path):
    """A run over every partition records one materialization per partition: each carries
    that partition's rows, not the run's total."""
    instance = dg.DagsterInstance.ephemeral()
    materialize_staged(STATUTE_ASSETS, resources_for(fixture_corpus, tmp_path), instance)
    records = instance.fetch_materializations(dg.AssetKey("statute_parts"), limit=1000).records
    rows = {record.partition_key: record.asset_materialization.metadata for record in records}
    sections = {key: meta["sections_rows"].value for key, meta in rows.items()}
    assert len(rows) > 3 and len(set(sections.values())) > 1  # not one total repeated
    folder = tmp_path / "warehouse" / "statute_parts" / "sections"
    assert sections == {path.stem: len(read_table(path)) for path in folder.glob("*.parquet")}
    for meta in rows.values():
        assert meta["dagster/row_count"].value == sum(
            meta[f"{table}_rows"].value for table in ("acts", "sections", "quarantine"))
