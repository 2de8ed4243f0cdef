"""The evaluation loop's pure parts (`evals/evaluate.py`): which judgments a config is scored on,
quick subsets, a run's provenance columns, and the doc ids of empty judgment files. The loop
over the built indexes runs in the real-corpus main job and the evaluation benchmark."""

from __future__ import annotations

import pandas as pd
import pytest

from evals.evaluate import (
    ConfigRun,
    EvaluationError,
    first_queries,
    metrics_of,
    run_configs,
    scored_qrels,
)
from evals.querysets import QuerySet
from evals.runs import rank_frame
from evals.splits import HELDOUT, TRAIN, split_of
from nyaya.judgments.sources import doc_id_of

QIDS = [f"Q{i}" for i in range(1, 13)]
QUERYSET = QuerySet(
    "toy", pd.DataFrame({"qid": QIDS, "query": [f"question {q}" for q in QIDS],
                         "query_type": "civil", "domain": "tenancy"}),
    {qid: {"BNS_2023:103": 2, "BNS_2023:101": 1} for qid in QIDS})


@pytest.mark.parametrize(("rel", "doc_id"), [
    ("judgments/aila2019/casedocs/C14.txt", "AILA:C14"),
    ("judgments/irled2017/prior_cases/prior_case_0827.txt", "IRLED:prior_case_0827"),
    ("judgments/irled2017/current_cases/current_case_0001.txt", "IRLED:current_case_0001"),
    ("judgments/sc-metadata/2001.jsonl", None),  # a registry file, not a judgment
    ("judgments/aila2019/qrels/statutes.train.txt", None),
    ("statutes/indiacode/x/part-001.md", None),
])
def test_a_judgment_file_has_the_doc_id_its_reader_gives(rel, doc_id):
    assert doc_id_of(rel) == doc_id


@pytest.mark.parametrize(("config", "expected"), [
    ("bm25-sections", QIDS),
    ("wsum-tuned", [qid for qid in QIDS if split_of(qid) == HELDOUT]),  # never its training half
])
def test_a_tuned_config_is_scored_on_the_held_out_half_only(config, expected):
    assert sorted(scored_qrels(config, QUERYSET)) == sorted(expected)
    assert 0 < len(scored_qrels("wsum-tuned", QUERYSET)) < len(QIDS)


@pytest.mark.parametrize("configs", [["wsum-tuned"], ["lookup-cases-ltr", "bm25-sections"],
                                     ["dense-trained"]])
def test_a_config_that_learned_from_training_halves_is_never_run_on_them(configs, tmp_path):
    """`--training` scores configs on the development sets' training halves: one tuned,
    reranked or encoded from those halves is refused before anything is searched."""
    from nyaya.settings import Settings

    settings = Settings(tmp_path / "corpus", tmp_path / "data", tmp_path / "qdrant", None)
    with pytest.raises(EvaluationError, match=f"config {configs[0]} learned from"):
        next(run_configs(settings, configs, dev_split=TRAIN))
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize(("configs", "sets", "named"), [
    (["precedents-sparse"], ["nyaya-statutes"], "nyaya-statutes"),
    (["bm25-sections", "precedents-sparse"], ["cited-precedents", "no-such-set"], "no-such-set"),
])
def test_a_query_set_no_config_runs_on_is_refused_by_name(configs, sets, named, tmp_path):
    """`--set` names a set outside the configs' sides: refused before anything is searched,
    with the sets that are there."""
    from nyaya.settings import Settings

    settings = Settings(tmp_path / "corpus", tmp_path / "data", tmp_path / "qdrant", None)
    with pytest.raises(EvaluationError, match=f"query set {named}: they run on .*"
                                              "cited-precedents"):
        next(run_configs(settings, configs, sets=sets))
    assert not (tmp_path / "data").exists()


@pytest.mark.parametrize(("sets", "workers", "first_read"), [
    (None, 1, "legal_sections_documents.parquet"),  # the statute side loads first
    # both sides at once, in two worker processes: the first side's error is raised here
    (None, 2, "legal_sections_documents.parquet"),
    (["cited-precedents"], 1, "judgments.parquet"),  # it has no set here: not loaded at all
])
def test_a_side_without_a_chosen_set_loads_nothing(sets, workers, first_read, tmp_path):
    from nyaya.settings import Settings

    settings = Settings(tmp_path / "corpus", tmp_path / "data", tmp_path / "qdrant", None)
    with pytest.raises(FileNotFoundError, match=f"warehouse/{first_read} does not exist"):
        next(run_configs(settings, ["bm25-sections", "precedents-sparse"], sets=sets,
                         log=lambda _: None, workers=workers))


@pytest.mark.parametrize(("count", "kept"), [(None, 12), (3, 3), (0, 0), (50, 12)])
def test_first_queries_keeps_their_judgments(count, kept):
    subset = first_queries(QUERYSET, count)
    assert len(subset.queries) == kept
    assert sorted(subset.qrels) == sorted(subset.queries["qid"])


def test_a_run_carries_its_provenance_and_scores_like_the_report():
    run = rank_frame({qid: [("BNS_2023:103", 2.0, "bm25"), ("IPC_1860:302", 1.0, "bm25")]
                      for qid in QIDS})
    config_run = ConfigRun("bm25-sections", "abc123", QUERYSET, run, {"w": 0.5}, "static",
                           seconds=0.5, median_ms=4.0)
    frame = config_run.frame()
    assert set(frame["config"]) == {"bm25-sections"} and set(frame["queryset"]) == {"toy"}
    assert frame["fitted_params"].iloc[0] == '{"w": 0.5}'
    assert frame["queries_per_second"].iloc[0] == 24.0
    overall = metrics_of("bm25-sections", QUERYSET, run).query("group == 'all'").iloc[0]
    assert overall["precision@1"] == 1.0 and overall["queries"] == 12


def test_each_run_is_scored_query_by_query_for_the_regression_check():
    """Long rows per (config, set, embedder, metric, query); a judged query the run missed
    scores 0, and a tuned config only on the held-out queries it is scored on."""
    from evals.evaluate import as_per_query, scores_by_query
    from evals.querysets import QuerySet

    queries = pd.DataFrame({"qid": ["q1", "q2"], "query": ["a", "b"]})
    queryset = QuerySet("qs", queries, {"q1": {"d1": 1}, "q2": {"d2": 1}})
    runs = pd.DataFrame({"qid": ["q1", "q1"], "doc_id": ["d9", "d1"], "rank": [1, 2],
                         "score": [2.0, 1.0], "method": "bm25", "config": "bm25-sections",
                         "queryset": "qs", "embedder": "emb"})
    scores = as_per_query(scores_by_query({"qs": queryset}, runs, ["mrr", "precision@1"]))
    assert scores == {("bm25-sections", "qs", "emb", "mrr"): {"q1": 0.5, "q2": 0.0},
                      ("bm25-sections", "qs", "emb", "precision@1"): {"q1": 0.0, "q2": 0.0}}
