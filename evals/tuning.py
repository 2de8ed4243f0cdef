"""Fusion weights fitted with ranx `optimize_fusion` on training queries only.

A query set splits in two by a hash of each qid (stable when queries are added or reordered):
the training half fits the weights, and a tuned config is scored on the held-out half only
(assets/evaluation.py), so its figures never include a query it was fitted on. Every config
also gets a `heldout` row, the fair comparison with a tuned one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping
from datetime import date

from ranx import Qrels, Run, optimize_fusion

from evals.querysets import QuerySet
from nyaya.retrieval.pipeline import ConfigError, StatuteSearch

TRAIN, HELDOUT = "train", "heldout"


def split_of(qid: str) -> str:
    """`train` or `heldout`, from the qid alone."""
    return TRAIN if hashlib.sha256(qid.encode()).digest()[0] % 2 == 0 else HELDOUT


def in_split(qids: Iterable[str], split: str) -> list[str]:
    return sorted(qid for qid in qids if split_of(qid) == split)


def is_tuned(params: Mapping) -> bool:
    return params.get("fusion", {}).get("weights") == "tuned"


def tune_weights(search: StatuteSearch, queryset: QuerySet) -> dict[str, float]:
    """Weights per retriever maximizing the config's `fusion.tune_metric` (default nDCG@10)
    on the judged training queries, over a grid of `fusion.tune_step` (default 0.1)."""
    spec = search.params["fusion"]
    method = spec.get("method", "wsum")
    if method == "rrf" or len(search.retrievers) < 2:
        raise ConfigError(f"config {search.name}: tuned weights need a score fusion (wsum, "
                          "combsum, ...) over at least two retrievers")
    train = in_split(queryset.qrels, TRAIN)
    if not train:
        raise ConfigError(f"{queryset.name}: no judged training query to tune {search.name} on")
    rows = queryset.queries.set_index("qid")
    depth = int(search.params.get("candidates", 100))
    names = list(search.retrievers)
    scores: dict[str, dict[str, dict[str, float]]] = {name: {} for name in names}
    for qid in train:
        as_of = rows.at[qid, "as_of"] if "as_of" in rows else None
        query = search.query(str(rows.at[qid, "query"]),
                             date.fromisoformat(as_of) if isinstance(as_of, str) else None)
        for name in names:
            hits = search.retrievers[name].search(query, depth)
            # ranx needs every query in every run; a miss is one zero-score placeholder
            scores[name][qid] = {hit.doc_id: hit.score for hit in hits} or {"<none>": 0.0}
    best = optimize_fusion(Qrels({qid: queryset.qrels[qid] for qid in train}),
                           [Run(scores[name]) for name in names],
                           norm=spec.get("norm", "min-max"), method=method,
                           metric=spec.get("tune_metric", "ndcg@10"),
                           step=float(spec.get("tune_step", 0.1)), show_progress=False)
    return {name: round(float(weight), 6) for name, weight in zip(names, best["weights"],
                                                                   strict=True)}


def with_weights(params: Mapping, weights: Mapping[str, float]) -> dict:
    """The config's parameters with its fitted weights in place of `tuned`."""
    return {**params, "fusion": {**params["fusion"], "weights": dict(weights)}}
