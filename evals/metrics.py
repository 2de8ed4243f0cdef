"""Retrieval metrics with ranx: overall, per query type, per domain and per split.

Measure names are ranx's (`precision@10`, `ndcg@10`, `map`, `mrr`, `bpref`); `judged@k` is
ours: ranx has no measure of how much of the ranking the qrels cover, and a high score on a
run that is mostly unjudged deserves suspicion. The AILA 2019 track reported trec_eval's MAP,
BPREF, recip_rank and P@10; here they are `map`, `bpref`, `mrr` and `precision@10`, computed
over the whole submitted ranking as trec_eval does (tests/test_trec_eval_parity.py checks them
against pytrec_eval on real runs).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import numpy as np
import pandas as pd
from ranx import Qrels, Run, evaluate, optimize_fusion

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
RANX_ID_WIDTH, RANX_ID_PAD = 32, "\x01"  # doc ids as ranx gets them (`ranx_ids`)


def ranx_ids(table: Mapping[str, Mapping[str, float]]) -> dict[str, dict[str, float]]:
    """A {qid: {doc id: value}} table with every doc id padded to RANX_ID_WIDTH characters.
    ranx keeps doc ids as numpy strings as wide as the longest, and numba compiles each of its
    functions again for every width, so what `compile_ranx` compiled would serve one set's ids
    only. Padded with a control character that sorts below every character of an id, ids keep
    their order and stay distinct; the same id is padded the same in every call."""
    return {qid: {doc.ljust(RANX_ID_WIDTH, RANX_ID_PAD): value for doc, value in docs.items()}
            for qid, docs in table.items()}


def to_ranx(frame: pd.DataFrame, qrels: dict[str, dict[str, int]]) -> tuple[Qrels, Run]:
    """ranx objects over the judged queries, doc ids padded (`ranx_ids`); ties pre-broken so
    ranx cannot reorder them."""
    ranked = strictly_decreasing(frame[frame["qid"].isin(list(qrels))])
    run: dict[str, dict[str, float]] = {qid: {} for qid in qrels}
    for qid, doc_id, score in zip(ranked["qid"].tolist(), ranked["doc_id"].tolist(),
                                  ranked["score"].tolist(), strict=True):
        run[qid][doc_id] = float(score)
    return Qrels(ranx_ids(qrels)), Run(ranx_ids(run))


def _top_share(frame: pd.DataFrame, qrels: dict[str, dict[str, int]], k: int,
               counted: Callable[[str, str], bool]) -> dict[str, float]:
    """Per judged query, the share of the top k that `counted(qid, doc)`; a rank the run
    left empty counts as not counted."""
    top = frame[(frame["rank"] <= k) & frame["qid"].isin(qrels)]
    hits = dict.fromkeys(qrels, 0)
    for qid, doc in zip(top["qid"].tolist(), top["doc_id"].tolist(), strict=True):
        hits[qid] += counted(qid, doc)
    return {qid: n / k for qid, n in hits.items()}


def judged_per_query(frame: pd.DataFrame, qrels: dict[str, dict[str, int]],
                     k: int) -> dict[str, float]:
    """The share of each judged query's top k that the qrels judge (any grade)."""
    return _top_share(frame, qrels, k, lambda qid, doc: doc in qrels[qid])


def repealed_per_query(frame: pd.DataFrame, qrels: dict[str, dict[str, int]],
                       k: int) -> dict[str, float]:
    """The share of each judged query's top k that are sections of a repealed code."""
    return _top_share(frame, qrels, k,
                      lambda _qid, doc: doc.split(":", 1)[0] in REPEALED_CODES)


def judged_at(frame: pd.DataFrame, qrels: dict[str, dict[str, int]], k: int) -> float:
    """Mean share of the top k that the qrels judge, over the judged queries."""
    shares = judged_per_query(frame, qrels, k)
    return sum(shares.values()) / len(shares) if shares else 0.0


def bpref_per_query(frame: pd.DataFrame, qrels: dict[str, dict[str, int]]) -> dict[str, float]:
    """trec_eval's bpref of each judged query. ranx's divides by zero for a query with no
    judged non-relevant document (IRLeD's qrels and ours list relevant ones only);
    trec_eval scores such a query as its relevant-retrieved share, and so do we, so the AILA
    and IRLeD figures compare with the tracks' tables. A query with nothing relevant scores 0."""
    ranked = frame[frame["qid"].isin(qrels)].sort_values(["qid", "rank"], kind="mergesort")
    by_query = dict(tuple(ranked.groupby("qid", sort=False)["doc_id"]))
    scores = {}
    for qid, judged in qrels.items():
        relevant = sum(grade > 0 for grade in judged.values())
        nonrelevant = len(judged) - relevant
        score, above = 0.0, 0
        for doc in by_query.get(qid, ()) if relevant else ():
            if doc not in judged:
                continue
            if judged[doc] > 0:
                score += 1.0 - (min(above, relevant) / min(relevant, nonrelevant)
                                if nonrelevant else 0.0)
            else:
                above += 1
        scores[qid] = score / relevant if relevant else 0.0
    return scores


def _check_cutoffs(metrics: Sequence[str]) -> None:
    """ranx says only "invalid literal for int()" of a cutoff like `ndcg@ten`: name the metric."""
    for name in metrics:
        _, at, cutoff = name.partition("@")
        if at and not cutoff.isdigit():
            raise ValueError(f"metric {name!r}: the cutoff after '@' must be a whole number, "
                             f"got {cutoff!r}")


def _ranx_per_query(judged: pd.DataFrame, qrels: dict[str, dict[str, int]],
                    metrics: list[str]) -> pd.DataFrame:
    ranx_qrels, ranx_run = to_ranx(judged, {qid: dict(docs) for qid, docs in qrels.items()})
    ranx_run.make_comparable(ranx_qrels)  # in place; sorts the query ids
    # always a list of two or more: for one metric with a cutoff ("ndcg@10") and
    # return_mean=False, ranx 0.3.21 looks its result up under the name without the cutoff
    # and raises KeyError; the repeated name is computed twice and returned once, in a dict
    asked = metrics if len(metrics) > 1 else metrics * 2
    scores = evaluate(ranx_qrels, ranx_run, asked, return_mean=False, make_comparable=True,
                      save_results_in_run=False)
    return pd.DataFrame({m: np.asarray(scores[m], dtype=float) for m in metrics},
                        index=pd.Index(ranx_run.get_query_ids(), name="qid"))


def per_query_scores(frame: pd.DataFrame, qrels: dict[str, dict[str, int]],
                     metrics: Sequence[str]) -> pd.DataFrame:
    """Every metric per judged query (index qid, sorted; one column a metric). An unanswered
    judged query scores 0 and never drops: dropping it would flatter a run that answers less.
    Group means and paired tests are read from this one table, so ranx converts a run once."""
    metrics = list(dict.fromkeys(metrics))
    if not metrics:
        raise ValueError("no metrics asked for")
    _check_cutoffs(metrics)
    qids = pd.Index(sorted(qrels), name="qid")
    judged = frame[frame["qid"].isin(list(qrels))]
    scores = pd.DataFrame(0.0, index=qids, columns=metrics)
    ranx_metrics = [m for m in metrics if not own_metric(m)]
    if ranx_metrics and not judged.empty:  # ranx cannot take a run with no line at all
        scores[ranx_metrics] = _ranx_per_query(judged, qrels, ranx_metrics).reindex(qids)
    for name in metrics:
        if name == BPREF:
            scores[name] = pd.Series(bpref_per_query(judged, qrels))
        elif own_metric(name):
            per_query = judged_per_query if name.startswith(JUDGED) else repealed_per_query
            scores[name] = pd.Series(per_query(judged, qrels, int(name.split("@")[1])))
    return scores


def own_metric(name: str) -> bool:
    """A metric computed here rather than by ranx (judged@k, repealed@k, bpref): ranx has no
    judged@k or repealed@k, and its bpref differs from trec_eval's."""
    return name == BPREF or name.startswith((JUDGED, REPEALED))


def _means(scores: pd.DataFrame, metrics: Sequence[str]) -> dict[str, float]:
    """Each metric's mean over the queries as ranx takes it (np.mean in query order); no
    judged query at all scores 0."""
    if scores.empty:
        return dict.fromkeys(metrics, 0.0)
    return {name: float(np.mean(scores[name].to_numpy())) for name in metrics}


def evaluate_run(frame: pd.DataFrame, qrels: dict[str, dict[str, int]],
                 metrics: tuple[str, ...] = DEFAULT_METRICS) -> dict[str, float]:
    """Mean metrics over the judged queries; an unanswered query scores zero, never drops."""
    return _means(per_query_scores(frame, qrels, metrics), metrics)


def evaluate_groups(frame: pd.DataFrame, qrels: dict[str, dict[str, int]],
                    tag_sets: Mapping[str, Mapping[str, str]],
                    metrics: tuple[str, ...] = DEFAULT_METRICS) -> pd.DataFrame:
    """One row for all judged queries, then one per value of each tag kind (query_type,
    domain, split...), each with its kind and number of judged queries. A tag kind missing for
    a query puts it in 'untagged', never out of the table."""
    scores = per_query_scores(frame, qrels, metrics)
    rows = [{"group_kind": "all", "group": "all", "queries": len(qrels),
             **_means(scores, metrics)}]
    for kind, tags in tag_sets.items():
        groups: dict[str, list[str]] = {}
        for qid in sorted(qrels):
            groups.setdefault(tags.get(qid) or "untagged", []).append(qid)
        for tag, qids in sorted(groups.items()):
            rows.append({"group_kind": kind, "group": tag, "queries": len(qids),
                         **_means(scores.loc[qids], metrics)})
    return pd.DataFrame(rows)


def compile_ranx() -> None:
    """Compile the numba code the evaluation runs of ranx (every metric of STATUTE_METRICS,
    and `optimize_fusion`'s weighted sum over min-max scores, as `evals.tuning` fits it) on a
    two-query run, into NUMBA_CACHE_DIR: about 85 s on a cold cache here, after which a process
    loads it in seconds. The test command runs it beside the real-corpus job's first minutes
    (tests/suite.py), so that neither session compiles it on its own."""
    frame = pd.DataFrame({"qid": ["q1"] * 3 + ["q2"] * 3,
                          "doc_id": ["a", "b", "c", "a", "b", "d"],
                          "score": [3.0, 2.0, 1.0, 3.0, 2.0, 1.0], "rank": [1, 2, 3] * 2})
    qrels = {"q1": {"a": 1}, "q2": {"d": 2}}
    evaluate_run(frame, qrels, STATUTE_METRICS)
    runs = [{"q1": {"a": 1.0, "b": 0.5}, "q2": {"d": 1.0, "a": 0.2}},
            {"q1": {"b": 1.0, "c": 0.1}, "q2": {"a": 1.0, "d": 0.3}}]
    optimize_fusion(Qrels(ranx_ids(qrels)), [Run(ranx_ids(run)) for run in runs],
                    norm="min-max", method="wsum", metric="ndcg@10", step=0.5,
                    show_progress=False)
