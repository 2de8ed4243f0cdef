"""Evaluation library: exact metric arithmetic, tie-breaking, query-set validation."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pandas as pd
import pytest
from conftest import PLAIN_WORD_SETS

from evals.configs import config_names, load_config
from evals.corpus_sets import absent_aila_statutes
from evals.hf_datasets import as_dataset_dict
from evals.metrics import (
    RANX_ID_PAD,
    RANX_ID_WIDTH,
    REPEALED_CODES,
    compile_ranx,
    evaluate_groups,
    evaluate_run,
    judged_at,
    ranx_ids,
)
from evals.querysets import QuerySet, QuerySetError, load_queryset
from evals.report import speed_table, write_report
from evals.runs import TrecRunError, rank_frame, read_trec, strictly_decreasing, write_trec
from pipelines.cli import main


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


@pytest.mark.parametrize("ids", [
    ["a", "b", "ab"],
    ["BNS_2023:103", "BNS_2023:1030", "BNS_2023:103A"],
    ["IRLED:prior_case_0071", "AILA:C1", "AILA:C10"],
])
def test_ranx_ids_are_one_width_in_the_ids_order(ids):
    padded = ranx_ids({"q1": dict.fromkeys(ids, 1.0)})["q1"]
    assert {len(doc) for doc in padded} == {RANX_ID_WIDTH}
    assert [doc.rstrip(RANX_ID_PAD) for doc in sorted(padded)] == sorted(ids)


def _ranx_signatures() -> int:
    """Specializations numba holds in this process of ranx's compiled functions."""
    import ranx.data_structures.common as common
    import ranx.metrics as metrics
    from numba.core.registry import CPUDispatcher

    found = {id(f): f for module in (common, *vars(metrics).values(), metrics)
             if hasattr(module, "__dict__") for f in vars(module).values()
             if isinstance(f, CPUDispatcher)}
    return sum(len(f.signatures) for f in found.values())


def test_what_compile_ranx_compiles_serves_runs_of_any_id_length():
    """The test command compiles ranx once (tests/suite.py); runs of other sets, whose ids
    are longer or shorter, must find it compiled, not compile it again for their width."""
    compile_ranx()
    compiled = _ranx_signatures()
    assert compiled > 0
    run = run_of({"q1": [("IRLED:prior_case_0071", 2.0), ("AILA:C1", 1.0)],
                  "q2": [("BNS_2023:103", 1.0)]})
    evaluate_run(run, {"q1": {"AILA:C1": 1}, "q2": {"BNS_2023:103": 2}})
    assert _ranx_signatures() == compiled


def test_groups_by_kind_and_counts():
    qrels = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}}
    run = run_of({"q1": [("a", 1.0)], "q2": [("x", 1.0)], "q3": [("c", 1.0)]})
    table = evaluate_groups(run, qrels, {"query_type": {"q1": "t1", "q2": "t1", "q3": "t2"},
                                         "domain": {"q1": "d1"}}, ("mrr",))
    assert table[["group_kind", "group", "queries"]].values.tolist() == [
        ["all", "all", 3], ["query_type", "t1", 2], ["query_type", "t2", 1],
        ["domain", "d1", 1], ["domain", "untagged", 2]]
    assert table["mrr"].tolist() == pytest.approx([2 / 3, 0.5, 1.0, 1.0, 0.5])


@pytest.mark.parametrize("metrics", [
    ("map", "ndcg@10"), ("judged@2",), ("repealed@2",), ("bpref",),
    ("precision@1", "judged@2", "bpref", "mrr", "repealed@2"),
])
def test_a_groups_row_is_its_queries_scored_alone(metrics):
    """Groups are read from one per-query table: each row must equal scoring its queries on
    their own, for ranx's measures and ours alike."""
    qrels = {"q1": {"BNS_2023:1": 1, "n": 0}, "q2": {"b": 2, "c": 1},
             "q3": {"IPC_1860:302": 1}, "q4": {"z": 0}}
    run = run_of({"q1": [("BNS_2023:1", 3.0), ("IPC_1860:1", 2.0)],
                  "q2": [("c", 2.0), ("b", 1.0), ("n", 0.5)],
                  "q3": [("x", 1.0)], "q4": [("z", 1.0)]})
    tags = {"query_type": {"q1": "t1", "q2": "t1", "q3": "t2"}}
    table = evaluate_groups(run, qrels, tags, metrics).set_index(["group_kind", "group"])
    for group, qids in [(("all", "all"), ["q1", "q2", "q3", "q4"]),
                        (("query_type", "t1"), ["q1", "q2"]), (("query_type", "t2"), ["q3"]),
                        (("query_type", "untagged"), ["q4"])]:
        alone = evaluate_run(run[run["qid"].isin(qids)], {q: qrels[q] for q in qids}, metrics)
        assert table.loc[group, list(metrics)].tolist() == pytest.approx(
            [alone[m] for m in metrics], abs=1e-12), group


def test_no_judged_query_scores_zero_everywhere():
    assert evaluate_run(run_of({"q1": [("a", 1.0)]}), {}, ("map", "judged@5", "bpref")) == {
        "map": 0.0, "judged@5": 0.0, "bpref": 0.0}


@pytest.mark.parametrize(("hits", "k", "expected"), [
    ({"q1": [("a", 3.0), ("z", 2.0)], "q2": [("b", 1.0)]}, 2, (1 / 2 + 0 / 2) / 2),
    ({"q1": [("a", 3.0), ("n", 2.0)], "q2": [("b", 1.0)]}, 2, (2 / 2 + 0 / 2) / 2),
    ({"q1": [("z", 3.0), ("a", 2.0)], "q2": [("x", 1.0)]}, 1, (0 + 1) / 2),
    ({"q1": [("a", 3.0)]}, 4, (1 / 4 + 0) / 2),  # an empty rank is unjudged
])
def test_judged_at_k_counts_every_judged_grade(hits, k, expected):
    qrels = {"q1": {"a": 1, "n": 0}, "q2": {"x": 0}}
    assert judged_at(run_of(hits), qrels, k) == pytest.approx(expected)


def test_bpref_exact_and_as_trec_eval_without_judged_nonrelevant():
    # q1: relevant a, c; judged non-relevant n. Ranking n, a, c: a has 1 non-relevant above it
    # (1 - 1/min(2, 1) = 0), c too (0): bpref 0. Ranking a, n, c: 1 + 0 over 2 = 0.5.
    qrels = {"q1": {"a": 1, "c": 1, "n": 0}}
    worse = run_of({"q1": [("n", 3.0), ("a", 2.0), ("c", 1.0)]})
    better = run_of({"q1": [("a", 3.0), ("n", 2.0), ("c", 1.0)]})
    assert evaluate_run(worse, qrels, ("bpref",))["bpref"] == pytest.approx(0.0)
    assert evaluate_run(better, qrels, ("bpref",))["bpref"] == pytest.approx(0.5)
    # no judged non-relevant document: trec_eval scores the relevant-retrieved share
    qrels = {"q1": {"a": 1, "c": 1, "m": 1}, "q2": {"z": 1}}
    assert evaluate_run(better, qrels, ("bpref",))["bpref"] == pytest.approx((2 / 3 + 0) / 2)


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
    pytest.param('{"qid": "Q1", "query_type": "t", "domain": "d"}\n', "", "missing query",
                 marks=pytest.mark.bad_input("query sets", "query missing a required field")),
    pytest.param('{"qid": "Q1", "query": "x", "query_type": "t", "domain": "d"}\n{bad\n', "",
                 ":2: invalid",
                 marks=pytest.mark.bad_input("query sets", "query line not valid JSON")),
    pytest.param('{"qid": "Q1", "query": "x", "query_type": "t", "domain": "d"}\n',
                 "Q2 0 A:1 1\n", "qid Q2 is not in",
                 marks=pytest.mark.bad_input("qrels", "judged qid not in the query set")),
    pytest.param('{"qid": "Q1", "query": "x", "query_type": "t", "domain": "d"}\n',
                 "Q1 0 A:1\n", "expected 'qid 0 doc_id grade'",
                 marks=pytest.mark.bad_input("qrels", "qrels line without grade")),
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


@pytest.mark.parametrize(("text", "message"), [
    pytest.param("q1 Q0 a 1 1.0\n", "expected 6 columns",
                 marks=pytest.mark.bad_input("TREC runs", "wrong number of columns")),
    pytest.param("q1 Q0 a 1 high t\n", "score 'high' is not a number",
                 marks=pytest.mark.bad_input("TREC runs", "score not a number")),
    pytest.param("q1 Q0 a 1 2.0 t\nq1 Q0 a 2 1.0 t\n", ":2: a listed twice for query q1",
                 marks=pytest.mark.bad_input("TREC runs", "document listed twice for a query")),
    pytest.param("\n", "no run lines",
                 marks=pytest.mark.bad_input("TREC runs", "run without lines")),
])
def test_bad_trec_runs_name_file_and_line(tmp_path, text, message):
    path = tmp_path / "run.trec"
    path.write_text(text)
    with pytest.raises(TrecRunError, match=message) as err:
        read_trec(path)
    assert str(path) in str(err.value)


def test_read_trec_reranks_by_score_then_doc_id(tmp_path):
    path = tmp_path / "run.trec"
    path.write_text("q1 Q0 b 1 1.0 t\nq1 Q0 c 2 3.0 t\nq1 Q0 a 3 1.0 t\n")
    assert read_trec(path)["doc_id"].tolist() == ["c", "a", "b"]


def test_eval_command_scores_an_external_run(tmp_path, capsys):
    queryset = load_queryset("nyaya-statutes")
    first = sorted(queryset.qrels)[0]
    best = max(queryset.qrels[first], key=queryset.qrels[first].get)
    path = tmp_path / "external.trec"
    path.write_text(f"{first} Q0 {best} 1 9.5 ext\n{first} Q0 NOPE:1 2 1.0 ext\n")
    assert main(["eval", str(path), "--queryset", "nyaya-statutes", "--metrics",
                 "precision@1,mrr", "--by", "query_type", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    overall = report["runs"][0]["rows"][0]
    assert overall["group"] == "all" and overall["queries"] == len(queryset.qrels)
    assert overall["mrr"] == pytest.approx(1 / len(queryset.qrels))  # one query answered
    assert report["runs"][0]["unanswered"] == len(queryset.qrels) - 1
    assert {row["group_kind"] for row in report["runs"][0]["rows"]} == {"all", "query_type"}


@pytest.mark.bad_input("CLI", "eval of a run of another query set")
def test_eval_command_refuses_a_run_of_another_set(tmp_path, capsys):
    path = tmp_path / "other.trec"
    path.write_text("AILA_Q1 Q0 AILA:C1 1 1.0 ext\n")
    assert main(["eval", str(path), "--queryset", "nyaya-statutes"]) == 2
    assert "not in nyaya-statutes" in capsys.readouterr().err


def test_a_queryset_becomes_a_datasets_dict_with_its_tags():
    queryset = QuerySet("tiny", pd.DataFrame([
        {"qid": "q1", "query": "murder", "query_type": "criminal_offence", "domain": "crim",
         "as_of": "2026-01-01", "excluded": ["J1"]},
        {"qid": "q2", "query": "unjudged", "query_type": "procedural", "domain": "crim",
         "as_of": None, "excluded": []}]), {"q1": {"BNS_2023:103": 2, "BNS_2023:101": 1}})
    corpus = pd.DataFrame({"doc_id": ["BNS_2023:101", "BNS_2023:103"], "text": ["a", "b"],
                           "extra": [1, 2]})
    data = as_dataset_dict(queryset, corpus)
    assert {name: len(split) for name, split in data.items()} == {
        "corpus": 2, "queries": 2, "qrels": 2}
    assert data["corpus"].column_names == ["doc_id", "text"]
    assert data["queries"][0]["query_type"] == "criminal_offence"
    assert (data["queries"][0]["as_of"], data["queries"][0]["excluded"]) == ("2026-01-01", ["J1"])
    assert data["qrels"].to_pandas().values.tolist() == [
        ["q1", "BNS_2023:101", 1], ["q1", "BNS_2023:103", 2]]


def test_transition_set_judges_only_the_new_codes():
    queryset = load_queryset("transition")
    assert len(queryset.queries) >= 40
    assert set(queryset.qrels) == set(queryset.queries["qid"])
    assert set(queryset.queries["direction"]) == {"old_to_new", "new_code"}
    judged_acts = {doc.split(":")[0] for docs in queryset.qrels.values() for doc in docs}
    assert judged_acts <= {"BNS_2023", "BNSS_2023", "BSA_2023"}
    assert not judged_acts & set(REPEALED_CODES)


@pytest.mark.parametrize(("name", "count"), PLAIN_WORD_SETS.items())
def test_plain_word_sets_name_no_provision_and_judge_what_they_ask(name: str, count: int):
    """These sets measure plain questions: none may name a section, an Article or a code that
    the lookup would answer, and every query is judged, with a grade-2 section."""
    queryset = load_queryset(name)
    assert len(queryset.queries) == count
    assert set(queryset.qrels) == set(queryset.queries["qid"])
    assert all(2 in grades.values() for grades in queryset.qrels.values())
    assert set(queryset.queries["query_type"]) == {"civil_conceptual", "procedural",
                                                   "criminal_offence"}
    named = re.compile(r"\b(?:sections?|s\.|articles?|art\.|order)\s*\d|\b(?:ipc|crpc|bns|bnss|"
                       r"bsa|cpc)\b|\b\d+[a-z]?\s+of\s+the\b", re.IGNORECASE)
    assert not [query for query in queryset.queries["query"] if named.search(query)]


def test_judged_aila_statutes_without_a_file_are_known(real_corpus):
    """AILA 2019 ships 197 of S1-S200; the released qrels judge S58, which is absent: it stays a
    judged miss (counted in the run's log), so every run's recall has this ceiling."""
    assert absent_aila_statutes(real_corpus) == {"AILA:S58"}


def test_a_query_set_folder_is_evaluated_with_every_config_of_its_side(tmp_path: Path) -> None:
    """No config names a set: a judged folder joins its side's sets (statutes unless its
    queryset.yaml says otherwise); a folder without qrels, or with a bad side, does not."""
    from evals.querysets import QuerySetError, judged_sets

    for name, files in {"mine": {"qrels.txt": "q1 0 BNS_2023:103 1\n"},
                        "cases": {"qrels.txt": "q1 0 AILA:C1 1\n",
                                  "queryset.yaml": "side: precedents\n"},
                        "unjudged": {}}.items():
        (tmp_path / name).mkdir()
        (tmp_path / name / "queries.jsonl").write_text('{"qid": "q1", "query": "murder"}\n')
        for file, text in files.items():
            (tmp_path / name / file).write_text(text)
    assert judged_sets("statutes", tmp_path) == ["mine"]
    assert judged_sets("precedents", tmp_path) == ["cases"]
    (tmp_path / "cases" / "queryset.yaml").write_text("side: judgments\n")
    with pytest.raises(QuerySetError, match=r"cases/queryset.yaml: 'side' must be one of"):
        judged_sets("precedents", tmp_path)


def test_configs_name_their_side_not_their_sets(tmp_path: Path) -> None:
    from evals.configs import load_config
    from evals.corpus_sets import querysets_for

    assert querysets_for("statutes") == ["cited-statutes", "nyaya-statutes", "plain-questions",
                                         "situations", "transition"]
    assert querysets_for("precedents") == ["aila2019-precedents", "cited-aila-precedents",
                                           "cited-precedents", "irled2017-precedents"]
    assert querysets_for("aila-statutes") == ["aila2019-statutes", "cited-aila-statutes"]
    (tmp_path / "old.yaml").write_text("name: old\nretrievers: [bm25]\nquerysets: [transition]\n")
    with pytest.raises(ValueError, match="'querysets' is no longer read"):
        load_config("old", tmp_path)


@pytest.mark.parametrize("name", ["cases-weighted-rrf", "lookup-cases-cascade",
                                  "aila-statutes-cases-rrf", "lookup-cases-contexts-rrf"])
def test_tried_configs_load_by_name_but_are_no_defaults(name):
    """A config dropped from the defaults stays loadable (its figures can be reproduced) and
    says why it was dropped, but `make run` never evaluates it."""
    from evals.configs import TRIED

    config = load_config(name)
    assert config.name == name and name not in config_names()
    assert "Tried, not kept" in (TRIED / f"{name}.yaml").read_text(encoding="utf-8")


def test_a_default_config_wins_over_a_tried_one_of_the_same_name(tmp_path):
    (tmp_path / "x.yaml").write_text("name: x\nretrievers: [bm25]\ntop_k: 10\n")
    (tmp_path / "tried").mkdir()
    (tmp_path / "tried" / "y.yaml").write_text("name: y\nretrievers: [bm25]\ntop_k: 10\n")
    assert config_names(tmp_path) == ["x"]
    assert load_config("x", tmp_path).params["top_k"] == 10
    with pytest.raises(FileNotFoundError):  # tried/ is only the project's own folder's
        load_config("y", tmp_path)
