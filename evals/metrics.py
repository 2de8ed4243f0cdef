"""Retrieval metrics with ranx, overall and by query tag."""

from __future__ import annotations

import pandas as pd
from ranx import Qrels, Run, evaluate

from evals.runs import strictly_decreasing

DEFAULT_METRICS = ("precision@1", "precision@3", "precision@5", "recall@10", "ndcg@10", "mrr",
                   "map", "hit_rate@5")


def to_ranx(frame: pd.DataFrame, qrels: dict[str, dict[str, int]]) -> tuple[Qrels, Run]:
    """ranx objects over the judged queries; ties pre-broken so ranx cannot reorder them."""
    ranked = strictly_decreasing(frame)
    run: dict[str, dict[str, float]] = {qid: {} for qid in qrels}
    for row in ranked.itertuples():
        if row.qid in run:
            run[row.qid][row.doc_id] = float(row.score)
    return Qrels(qrels), Run(run)


def evaluate_run(frame: pd.DataFrame, qrels: dict[str, dict[str, int]],
                 metrics: tuple[str, ...] = DEFAULT_METRICS) -> dict[str, float]:
    """Mean metrics over the judged queries; an unanswered query scores zero, never drops."""
    ranx_qrels, ranx_run = to_ranx(frame, qrels)
    scores = evaluate(ranx_qrels, ranx_run, list(metrics), make_comparable=True)
    if not isinstance(scores, dict):  # ranx returns a bare float for a single metric
        scores = {metrics[0]: scores}
    return {name: float(scores[name]) for name in metrics}


def evaluate_by_tag(frame: pd.DataFrame, qrels: dict[str, dict[str, int]], tags: dict[str, str],
                    metrics: tuple[str, ...] = DEFAULT_METRICS) -> pd.DataFrame:
    """One row per tag value (plus 'all'), with the number of judged queries in it."""
    groups: dict[str, list[str]] = {"all": sorted(qrels)}
    for qid in sorted(qrels):
        groups.setdefault(tags.get(qid, "untagged"), []).append(qid)
    rows = []
    for tag, qids in sorted(groups.items(), key=lambda item: (item[0] != "all", item[0])):
        subset = {qid: qrels[qid] for qid in qids}
        rows.append({"group": tag, "queries": len(qids),
                     **evaluate_run(frame[frame["qid"].isin(qids)], subset, metrics)})
    return pd.DataFrame(rows)
