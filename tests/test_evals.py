"""Evaluation library: exact metric arithmetic, tie-breaking, query-set validation."""

from __future__ import annotations

import pandas as pd
import pytest

from evals.configs import config_names, load_config
from evals.metrics import evaluate_by_tag, evaluate_run
from evals.querysets import QuerySetError, load_queryset
from evals.report import speed_table, write_report
from evals.runs import rank_frame, strictly_decreasing, write_trec


def run_of(hits: dict[str, list[tuple[str, float]]]) -> pd.DataFrame:
    return rank_frame({q: [(d, s, "test") for d, s in docs] for q, docs in hits.items()})


def test_metrics_exact_arithmetic():
    qrels = {"q1": {"a": 2, "c": 1}, "q2": {"x": 1}}
    run = run_of({"q1": [("a", 3.0), ("b", 2.0), ("c", 1.0)], "q2": [("y", 1.0)]})
    scores = evaluate_run(run, qrels, ("precision@1", "precision@3", "mrr", "recall@10"))
    assert scores["precision@1"] == pytest.approx((1 + 0) / 2)
    assert scores["precision@3"] == pytest.approx((2 / 3 + 0) / 2)
    assert scores["mrr"] == pytest.approx((1 + 0) / 2)
    assert scores["recall@10"] == pytest.approx((1 + 0) / 2)


def test_unanswered_query_counts_as_zero():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}}
    run = run_of({"q1": [("a", 1.0)]})
    assert evaluate_run(run, qrels, ("mrr",))["mrr"] == pytest.approx(0.5)


def test_ties_are_broken_by_doc_id_and_kept_by_ranx():
    run = run_of({"q1": [("b", 1.0), ("a", 1.0), ("c", 1.0)]})
    assert run["doc_id"].tolist() == ["a", "b", "c"]
    scores = strictly_decreasing(run)["score"].tolist()
    assert scores[0] > scores[1] > scores[2]
    # "b" is relevant: it sits at rank 2 whatever tool re-sorts the scores.
    assert evaluate_run(run, {"q1": {"b": 1}}, ("mrr",))["mrr"] == pytest.approx(0.5)


def test_by_tag_groups_and_counts():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    run = run_of({"q1": [("a", 1.0)], "q2": [("x", 1.0)], "q3": [("c", 1.0)]})
    table = evaluate_by_tag(run, qrels, {"q1": "t1", "q2": "t1", "q3": "t2"}, ("mrr",))
    assert table[["group", "queries"]].values.tolist() == [["all", 3], ["t1", 2], ["t2", 1]]
    assert table["mrr"].tolist() == pytest.approx([2 / 3, 0.5, 1.0])


def test_trec_file_has_six_columns_and_lists_empty_queries(tmp_path):
    run = run_of({"q1": [("a", 2.0), ("b", 2.0)]})
    write_trec(run, tmp_path / "r.trec", "cfg", ["q1", "q2"])
    lines = (tmp_path / "r.trec").read_text().splitlines()
    assert [line.split()[:4] for line in lines] == [["q1", "Q0", "a", "1"], ["q1", "Q0", "b", "2"]]
    assert all(len(line.split()) == 6 for line in lines)
    assert (tmp_path / "r.empty.txt").read_text() == "q2\n"


def test_statute_queryset_is_valid_and_balanced():
    queryset = load_queryset("nyaya-statutes")
    assert len(queryset.queries) >= 30
    assert set(queryset.qrels) == set(queryset.queries["qid"])  # every query is judged
    counts = queryset.queries["query_type"].value_counts()
    assert set(counts.index) == {"section_lookup", "criminal_offence", "civil_conceptual",
                                 "procedural", "old_statute_reference"}
    assert counts.min() >= 5
    assert queryset.queries["domain"].nunique() >= 8


@pytest.mark.parametrize(("queries", "qrels", "message"), [
    ('{"qid": "Q1", "query": "x", "query_type": "t"}\n', "", "missing domain"),
    ('{"qid": "Q1", "query": "x", "query_type": "t", "domain": "d"}\n{bad\n', "", ":2: invalid"),
    ('{"qid": "Q1", "query": "x", "query_type": "t", "domain": "d"}\n', "Q2 0 A:1 1\n",
     "qid Q2 is not in"),
    ('{"qid": "Q1", "query": "x", "query_type": "t", "domain": "d"}\n', "Q1 0 A:1\n",
     "expected 'qid 0 doc_id grade'"),
])
def test_malformed_queryset_names_file_and_line(tmp_path, queries, qrels, message):
    (tmp_path / "bad").mkdir()
    (tmp_path / "bad" / "queries.jsonl").write_text(queries)
    (tmp_path / "bad" / "qrels.txt").write_text(qrels)
    with pytest.raises(QuerySetError, match=message):
        load_queryset("bad", root=tmp_path)


def test_configs_load_and_hash_stably():
    assert "bm25-sections" in config_names()
    config = load_config("bm25-sections")
    assert config.config_hash == load_config("bm25-sections").config_hash
    assert len(config.config_hash) == 12


def test_report_has_speed_and_extra_sections(tmp_path):
    metrics = pd.DataFrame([
        {"config": "slow", "queryset": "s", "group": "all", "queries": 2, "ndcg@10": 0.5,
         "median_ms": 9.0, "queries_per_second": 100.0},
        {"config": "fast", "queryset": "s", "group": "all", "queries": 2, "ndcg@10": 0.25,
         "median_ms": 1.5, "queries_per_second": 600.0},
        {"config": "fast", "queryset": "s", "group": "procedural", "queries": 1,
         "ndcg@10": 0.5, "median_ms": 1.5, "queries_per_second": 600.0},
    ])
    speed = speed_table(metrics)
    assert speed["config"].tolist() == ["fast", "slow"]  # fastest first, 'all' rows only
    accuracy = pd.DataFrame([{"query_type": "all", "correct": 3, "total": 4, "accuracy": 0.75}])
    folder = write_report(metrics, {"corpus": "x"}, tmp_path, "2026-01-01",
                          {"Speed": speed, "Query-type accuracy": accuracy})
    text = (folder / "report.md").read_text()
    assert "## Speed" in text and "## Query-type accuracy" in text and "| all | 3 | 4 | 0.7500 |" \
        in text
    page = (tmp_path / "latest" / "report.html").read_text()
    assert "<h2>Query-type accuracy</h2>" in page and "0.7500" in page
