"""Retrieval metrics with ranx: overall, per query type, per domain and per split.

Measure names are ranx's (`precision@10`, `ndcg@10`, `map`, `mrr`, `bpref`); `judged@k` is
ours: ranx has no measure of how much of the ranking the qrels cover, and a high score on a
run that is mostly unjudged deserves suspicion. The AILA 2019 track reported trec_eval's MAP,
BPREF, recip_rank and P@10; here they are `map`, `bpref`, `mrr` and `precision@10`, computed
over the whole submitted ranking as trec_eval does (tests/test_trec_eval_parity.py checks them
against pytrec_eval on real runs).
"""

from __future__ import annotations

from collections.abc import Mapping

import pandas as pd
from ranx import Qrels, Run, evaluate

from evals.runs import strictly_decreasing

DEFAULT_METRICS = ("precision@1", "precision@3", "precision@5", "precision@10", "recall@5",
                   "recall@10", "recall@100", "ndcg@10", "map", "mrr", "hit_rate@10", "bpref",
                   "judged@10")
#: The AILA 2019 track's official measures (trec_eval names -> ours).
TREC_EVAL_NAMES = {"map": "map", "bpref": "bpref", "recip_rank": "mrr", "P_10": "precision@10"}
JUDGED = "judged@"
BPREF = "bpref"
REPEALED = "repealed@"
#: The codes the 2023 codes replaced on 2024-07-01: statute runs report how much of their top
#: k is these (`repealed@10`), which the transition set's new-code queries must not return.
REPEALED_CODES = ("IPC_1860", "CrPC_1973", "IEA_1872")
STATUTE_METRICS = (*DEFAULT_METRICS, "repealed@10")


def to_ranx(frame: pd.DataFrame, qrels: dict[str, dict[str, int]]) -> tuple[Qrels, Run]:
    """ranx objects over the judged queries; ties pre-broken so ranx cannot reorder them."""
    ranked = strictly_decreasing(frame[frame["qid"].isin(list(qrels))])
    run: dict[str, dict[str, float]] = {qid: {} for qid in qrels}
    for qid, doc_id, score in zip(ranked["qid"].tolist(), ranked["doc_id"].tolist(),
                                  ranked["score"].tolist(), strict=True):
        run[qid][doc_id] = float(score)
    return Qrels(qrels), Run(run)


def judged_at(frame: pd.DataFrame, qrels: dict[str, dict[str, int]], k: int) -> float:
    """Mean share of the top k that the qrels judge (any grade), over the judged queries; a
    rank the run left empty counts as unjudged."""
    top = frame[(frame["rank"] <= k) & frame["qid"].isin(qrels)]
    judged = sum(doc in qrels[qid] for qid, doc in zip(top["qid"], top["doc_id"], strict=True))
    return judged / (k * len(qrels)) if qrels else 0.0


def repealed_at(frame: pd.DataFrame, qrels: dict[str, dict[str, int]], k: int) -> float:
    """Mean share of the top k that are sections of a repealed code, over the judged
    queries."""
    top = frame[(frame["rank"] <= k) & frame["qid"].isin(qrels)]
    old = top["doc_id"].str.split(":", n=1).str[0].isin(REPEALED_CODES).sum()
    return float(old) / (k * len(qrels)) if qrels else 0.0


def bpref(frame: pd.DataFrame, qrels: dict[str, dict[str, int]]) -> float:
    """trec_eval's bpref, mean over the judged queries. ranx's divides by zero for a query
    with no judged non-relevant document (IRLeD's qrels and ours list relevant ones only);
    trec_eval scores such a query as its relevant-retrieved share, and so do we, so the AILA
    and IRLeD figures compare with the tracks' tables."""
    if not qrels:
        return 0.0
    total = 0.0
    ranked = frame[frame["qid"].isin(qrels)].sort_values(["qid", "rank"], kind="mergesort")
    by_query = dict(tuple(ranked.groupby("qid", sort=False)["doc_id"]))
    for qid, judged in qrels.items():
        relevant = sum(grade > 0 for grade in judged.values())
        nonrelevant = len(judged) - relevant
        if not relevant:
            continue
        score, above = 0.0, 0
        for doc in by_query.get(qid, ()):
            if doc not in judged:
                continue
            if judged[doc] > 0:
                score += 1.0 - (min(above, relevant) / min(relevant, nonrelevant)
                                if nonrelevant else 0.0)
            else:
                above += 1
        total += score / relevant
    return total / len(qrels)


def _check_cutoffs(metrics: tuple[str, ...]) -> None:
    """ranx says only "invalid literal for int()" of a cutoff like `ndcg@ten`: name the metric."""
    for name in metrics:
        _, at, cutoff = name.partition("@")
        if at and not cutoff.isdigit():
            raise ValueError(f"metric {name!r}: the cutoff after '@' must be a whole number, "
                             f"got {cutoff!r}")


def evaluate_run(frame: pd.DataFrame, qrels: dict[str, dict[str, int]],
                 metrics: tuple[str, ...] = DEFAULT_METRICS) -> dict[str, float]:
    """Mean metrics over the judged queries; an unanswered query scores zero, never drops."""
    _check_cutoffs(metrics)
    own = {name: (judged_at if name.startswith(JUDGED) else repealed_at)
           for name in metrics if name.startswith((JUDGED, REPEALED))}
    ranx_metrics = [m for m in metrics if m not in own and m != BPREF]
    out: dict[str, float] = {}
    if ranx_metrics and not frame["qid"].isin(qrels).any():
        out |= dict.fromkeys(ranx_metrics, 0.0)  # ranx cannot take a run with no line at all
    elif ranx_metrics:
        ranx_qrels, ranx_run = to_ranx(frame, qrels)
        scores = evaluate(ranx_qrels, ranx_run, ranx_metrics, make_comparable=True)
        if not isinstance(scores, dict):  # ranx returns a bare float for a single metric
            scores = {ranx_metrics[0]: scores}
        out |= {name: float(scores[name]) for name in ranx_metrics}
    out |= {name: measure(frame, qrels, int(name.split("@")[1])) for name, measure in own.items()}
    if BPREF in metrics:
        out[BPREF] = bpref(frame, qrels)
    return {name: out[name] for name in metrics}


def evaluate_groups(frame: pd.DataFrame, qrels: dict[str, dict[str, int]],
                    tag_sets: Mapping[str, Mapping[str, str]],
                    metrics: tuple[str, ...] = DEFAULT_METRICS) -> pd.DataFrame:
    """One row for all judged queries, then one per value of each tag kind (query_type,
    domain, split...), each with its kind and number of judged queries. A tag kind missing for
    a query puts it in 'untagged', never out of the table."""
    rows = [{"group_kind": "all", "group": "all", "queries": len(qrels),
             **evaluate_run(frame, qrels, metrics)}]
    for kind, tags in tag_sets.items():
        groups: dict[str, list[str]] = {}
        for qid in sorted(qrels):
            groups.setdefault(tags.get(qid) or "untagged", []).append(qid)
        for tag, qids in sorted(groups.items()):
            subset = {qid: qrels[qid] for qid in qids}
            rows.append({"group_kind": kind, "group": tag, "queries": len(qids),
                         **evaluate_run(frame[frame["qid"].isin(qids)], subset, metrics)})
    return pd.DataFrame(rows)
