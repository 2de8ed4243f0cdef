"""ranx against pytrec_eval (trec_eval's own code) on real runs of the main job: the AILA 2019
measures and the headline ones must be identical once ties are broken."""

from __future__ import annotations

import pytest
import pytrec_eval

from evals.corpus_sets import load_any_queryset
from evals.metrics import TREC_EVAL_NAMES, evaluate_run
from evals.runs import read_trec
from nyaya.tables import read_table

#: trec_eval measure -> ours, beyond the AILA track's four
EXTRA = {"ndcg_cut_10": "ndcg@10", "recall_100": "recall@100", "P_3": "precision@3"}
RUNS = [("aila2019-precedents", "precedents-sparse"), ("irled2017-precedents", "kg-citerag"),
        ("aila2019-statutes", "aila-statutes-rrf"), ("nyaya-statutes", "lookup-weighted-rrf")]


@pytest.mark.parametrize(("queryset_name", "config"), RUNS)
def test_ranx_equals_trec_eval_on_real_runs(main_run, real_corpus, queryset_name, config):
    data_dir, _ = main_run
    judgments = read_table(data_dir / "warehouse" / "judgments.parquet")
    qrels = load_any_queryset(queryset_name, real_corpus, judgments).qrels
    run = read_trec(data_dir / "runs" / queryset_name / f"{config}.trec")
    measures = TREC_EVAL_NAMES | EXTRA  # bpref too where no judged non-relevant line exists
    ours = evaluate_run(run, qrels, tuple(measures.values()))
    trec_run: dict[str, dict[str, float]] = {}
    for row in run.itertuples():
        trec_run.setdefault(row.qid, {})[row.doc_id] = float(row.score)
    evaluator = pytrec_eval.RelevanceEvaluator(qrels, set(measures))
    per_query = evaluator.evaluate(trec_run)
    for trec_name, name in measures.items():
        # trec_eval averages over the queries it saw; a judged query without a line is 0
        theirs = sum(scores[trec_name] for scores in per_query.values()) / len(qrels)
        assert ours[name] == pytest.approx(theirs, abs=1e-9), (trec_name, ours[name], theirs)
    assert len(per_query) >= 0.9 * len(qrels)  # the runs answer (almost) every judged query
