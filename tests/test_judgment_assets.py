"""Judgment assets materialized in-process on the fixture corpus (tests/minijudgments.py)."""

from __future__ import annotations

import json

import dagster as dg
import pandas as pd
import pytest
from staged import materialize_staged

from assets import judgments, statutes
from nyaya.judgments.graph import to_networkx
from nyaya.judgments.tables import EntityIndex
from pipelines.resources import NyayaSettings, project_resources

ASSETS = dg.load_assets_from_modules([statutes, judgments])
CHECKS = dg.load_asset_checks_from_modules([judgments])


@pytest.fixture(scope="module")
def built(fixture_corpus, tmp_path_factory):
    data_dir = tmp_path_factory.mktemp("data")
    resources = project_resources(NyayaSettings(corpus_root=str(fixture_corpus),
                                                data_dir=str(data_dir)))
    result = materialize_staged([*ASSETS, *CHECKS], resources, raise_on_error=False)
    tables = {name: pd.read_parquet(data_dir / "warehouse" / f"{name}.parquet")
              for name in ("judgments", "sc_case_registry", "judgment_quarantine",
                           "judgment_chunks", "citation_mentions", "entity_index",
                           "citation_graph_nodes", "citation_graph_edges", "domain_tags")}
    tables["queue"] = pd.read_parquet(data_dir / "warehouse" / "human_review_queue.parquet")
    return result, tables


def test_every_file_is_a_row_or_quarantined_with_a_reason(built):
    result, tables = built
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert checks["judgments_per_source"].passed
    assert checks["judgments_have_text"].passed
    quarantined = dict(zip(tables["judgment_quarantine"]["source_file"],
                           tables["judgment_quarantine"]["reason"], strict=True))
    assert quarantined["judgments/aila2019/casedocs/C7.txt"] == "empty_file"
    assert quarantined["judgments/aila2019/casedocs/C8.txt"] == "binary_content"
    assert "AILA:C6" in set(tables["judgments"]["doc_id"])  # cp1252 is decoded, not dropped


def test_the_review_queue_holds_every_quarantined_record_with_its_reason(built):
    """Statute mapping problems and every quarantined judgment file, each with a reason."""
    queue = built[1]["queue"]
    quarantined = set(built[1]["judgment_quarantine"]["source_file"])
    rows = queue[queue["issue"].str.startswith("quarantined:")]
    assert quarantined <= set(rows["source_file"])
    assert {"mapping_disagreement", "mapping_unresolved", "quarantined:empty_file",
            "quarantined:binary_content"} <= set(queue["issue"])
    assert queue["detail"].notna().all()


def test_the_same_case_from_two_sources_is_linked_not_merged(built):
    rows = built[1]["judgments"].set_index("doc_id")
    assert rows.loc["AILA:C1", "case_id"] == rows.loc["IRLED:prior_case_0001", "case_id"]
    assert list(rows.loc["AILA:C1", "same_case_as"]) == ["IRLED:prior_case_0001"]
    assert rows.loc["IRLED:prior_case_0001", "sc_record_id"] == "SC:1996 INSC 912"
    registry = built[1]["sc_case_registry"].set_index("record_id")
    assert list(registry.loc["SC:1996 INSC 912", "judgment_doc_ids"]) == [
        "AILA:C1", "IRLED:prior_case_0001"]


def test_mentions_are_resolved_with_spans_and_chunks(built):
    tables = built[1]
    text = tables["judgments"].set_index("doc_id").loc["AILA:C1", "text"]
    mentions = tables["citation_mentions"].query("doc_id == 'AILA:C1'")
    statutes_ = mentions.query("mention_type == 'statute'")
    assert {(a, s) for a, s in zip(statutes_["act_code"], statutes_["section"], strict=True)} \
        >= {("IPC_1860", "302"), ("IPC_1860", "34"), ("COI", "21")}
    for start, end, section in zip(statutes_["start"], statutes_["end"], statutes_["section"],
                                   strict=True):
        assert text[start:end] == section
    case = mentions.query("citation_key == 'AIR 1978 SC 597'").iloc[0]
    assert case["resolution"] == "resolved"
    assert list(case["resolved_case_ids"]) == ["CASE:IRLED:prior_case_0002"]
    chunks = tables["judgment_chunks"].set_index("chunk_id")
    assert chunks.loc[case["chunk_id"], "start"] <= case["start"] < chunks.loc[
        case["chunk_id"], "end"]
    masked = tables["citation_mentions"].query("kind == 'masked'")
    assert len(masked) > 0 and (masked["resolution"] == "masked").all()
    assert tables["citation_mentions"]["reason"].where(
        tables["citation_mentions"]["resolution"] == "unresolved").dropna().str.len().min() > 0


def test_entity_index_answers_section_and_act_lookups(built):
    index = EntityIndex(built[1]["entity_index"])
    assert index.judgments("IPC_1860:302") == ["AILA:C1", "IRLED:prior_case_0001"]
    assert "AILA:C1#0000" in index.chunks("COI:21")
    assert "AILA:C4" in index.judgments("CrPC_1973")
    assert index.judgments("IPC_1860:999") == []


def test_citation_graph_has_overruling_from_the_citator_and_loads_into_networkx(built):
    result, tables = built
    nodes, edges = tables["citation_graph_nodes"], tables["citation_graph_edges"]
    overrules = edges.query("relation == 'overrules'")
    assert list(zip(overrules["source_id"], overrules["target_id"], overrules["origin"],
                    strict=True)) == [("CASE:IRLED:prior_case_0002",
                                       "CASE:IRLED:prior_case_0003", "citator")]
    assert nodes.set_index("node_id").loc["CASE:IRLED:prior_case_0003", "overruled"]
    ranked = nodes.sort_values("pagerank", ascending=False)["node_id"].iloc[0]
    assert ranked == "CASE:IRLED:prior_case_0002"  # cited by two cases
    graph = to_networkx(nodes, edges)
    assert graph.has_edge("CASE:AILA:C1", "IPC_1860:302")
    checks = {e.check_name: e for e in result.get_asset_check_evaluations()}
    assert checks["graph_has_no_dangling_edges"].passed


def test_every_section_and_chunk_gets_a_domain_with_its_method(built):
    tags = built[1]["domain_tags"]
    assert set(tags["unit_type"]) == {"section", "judgment", "chunk"}
    assert tags.query("unit_type == 'section'")["legal_domain"].notna().all()
    by_unit = tags.set_index("unit_id")
    assert by_unit.loc["AILA:C4", "legal_domain"] == "criminal_procedure"  # s.438 CrPC: bail
    assert by_unit.loc["IRLED:current_case_0001", "legal_domain"] == "labour_service"
    chunk = by_unit.loc["IRLED:current_case_0001#0000"]
    assert (chunk["legal_domain"], chunk["method"]) == ("labour_service", "judgment_context")
    assert set(tags["method"]) <= {"act_mapping", "act_title_lexicon", "statute_mentions",
                                   "keyword_lexicon", "judgment_context", "none"}


def test_floors_tuned_for_the_real_corpus_fail_loudly_on_odd_fixtures(built):
    """The fixture's damaged and header-less files keep date parsing below the real floors."""
    checks = {e.check_name: e for e in built[0].get_asset_check_evaluations()}
    assert not checks["decision_dates_parse"].passed
    assert "aila2019" in checks["decision_dates_parse"].description


def test_a_datasets_source_joins_the_corpus_through_the_same_asset(fixture_corpus, tmp_path):
    """NYAYA_JUDGMENTS_DATASET (here a local jsonl read by `datasets.load_dataset`)."""
    rows = [{"doc_id": "x1", "text": "The appellant was convicted under Section 302 IPC. " * 20,
             "case_name": "A v. B", "decision_date": "2001-02-03"},
            {"doc_id": "x2", "text": "", "case_name": "C v. D", "decision_date": None}]
    path = tmp_path / "extra.jsonl"
    path.write_text("\n".join(json.dumps(row) for row in rows), encoding="utf-8")
    data_dir = tmp_path / "data"
    resources = project_resources(NyayaSettings(corpus_root=str(fixture_corpus),
                                                data_dir=str(data_dir),
                                                judgments_dataset=str(path)))
    result = materialize_staged([judgments.judgment_parts, judgments.judgment_sources],
                                resources)
    assert result.success
    # the dataset is a partition of its own beside the years
    assert (data_dir / "warehouse" / "judgment_parts" / "judgments" / "dataset.parquet").exists()
    table = pd.read_parquet(data_dir / "warehouse" / "judgments.parquet").set_index("doc_id")
    assert table.loc["DATASET:x1", "decision_date"] == "2001-02-03"
    assert "AILA:C1" in table.index
    quarantine = pd.read_parquet(data_dir / "warehouse" / "judgment_quarantine.parquet")
    assert "empty_text" in set(quarantine["reason"])


def test_development_sets_build_from_the_fixture_citations(built):
    """The distant-supervision sets (evals/citation_sets.py) from the fixture's own citations:
    Maneka Gandhi (IRLED:prior_case_0002) is cited by AILA judgments, a passage is judged on
    the sections it cites, and no query is judged on itself."""
    from evals.citation_sets import (
        MASK,
        POOL,
        duplicates_of,
        passage_queries,
        precedent_queries,
        statute_targets,
        with_judgment,
    )

    tables = built[1]
    judgments, mentions = tables["judgments"], tables["citation_mentions"]
    pool = judgments[judgments["source"].isin(POOL)]
    cited = set(statute_targets(mentions).dropna())
    passages = passage_queries(mentions, tables["judgment_chunks"],
                               dict(zip(pool["doc_id"], pool["text"], strict=True)),
                               {doc: [doc] for doc in cited})
    assert "COI:21" in cited and len(passages) > 0
    assert passages["query"].str.contains(MASK, regex=False).all()
    assert all(docs and set(docs) <= cited for docs in passages["judged"])
    precedents = with_judgment(precedent_queries(mentions, judgments), duplicates_of(judgments))
    assert "IRLED:prior_case_0002" in {doc for docs in precedents["judged"] for doc in docs}
    for qid, judged, excluded in zip(precedents["qid"], precedents["judged"],
                                     precedents["excluded"], strict=True):
        assert qid in excluded and not set(judged) & set(excluded)
