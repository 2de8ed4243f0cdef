"""Parameters fitted on training queries only: fusion weights (ranx `optimize_fusion`) and
the relevance-feedback coefficients (a grid search through the config's own search).

Only a query set's training half fits them (`evals.splits`), and a tuned config is scored on
the held-out half only (assets/evaluation.py). Every config also gets a `heldout` row, the fair
comparison with a tuned one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from datetime import date

from ranx import Qrels, Run, optimize_fusion

from evals.metrics import evaluate_run, ranx_ids
from evals.querysets import QuerySet
from evals.runs import rank_frame
from evals.splits import TRAIN, TUNED, in_split
from nyaya.retrieval.pipeline import ConfigError, StatuteSearch

# relevance feedback grid: a stays 1 (only the ratio to c matters for the order), b shapes
# how much a large score gap counts, c how far the examples pull; without feedback (c = 0) b
# changes nothing, so that point is searched once
FEEDBACK_GRID = [(0.5, 0.0)] + [(b, c) for b in (0.5, 1.0, 2.0)
                                for c in (0.05, 0.1, 0.2, 0.4, 0.8)]


def fit(search_of: Callable[[Mapping], StatuteSearch], params: Mapping, queryset: QuerySet
        ) -> tuple[dict, dict]:
    """The config's parameters with everything marked `tuned` fitted on `queryset`'s training
    queries, and what was fitted (for the provenance of every result row)."""
    fitted: dict = {}
    params = dict(params)
    if params.get("feedback", {}).get("c") == TUNED:
        fitted["feedback"] = tune_feedback(search_of, params, queryset)
        params["feedback"] = {**params["feedback"], **fitted["feedback"]}
    if params.get("fusion", {}).get("weights") == TUNED:
        fitted["weights"] = tune_weights(search_of(params), queryset)
        params = with_weights(params, fitted["weights"])
    return params, fitted


def _training(queryset: QuerySet) -> list[tuple[str, str, date | None]]:
    train = in_split(queryset.qrels, TRAIN)
    if not train:
        raise ConfigError(f"{queryset.name}: no judged training query to fit parameters on")
    rows = queryset.queries.set_index("qid")
    found = []
    for qid in train:
        as_of = rows.at[qid, "as_of"] if "as_of" in rows else None
        found.append((qid, str(rows.at[qid, "query"]),
                      date.fromisoformat(as_of) if isinstance(as_of, str) else None))
    return found


def tune_feedback(search_of: Callable[[Mapping], StatuteSearch], params: Mapping,
                  queryset: QuerySet) -> dict[str, float]:
    """Coefficients (a, b, c) of the relevance feedback query with the best nDCG@10 on the
    training queries, each grid point run through the config's whole search; ties go to
    the first point (c = 0 first: no feedback unless it helps)."""
    training = _training(queryset)
    qrels = {qid: queryset.qrels[qid] for qid, _, _ in training}
    best: tuple[float, dict[str, float]] | None = None
    for b, c in FEEDBACK_GRID:
        coefficients = {"a": 1.0, "b": b, "c": c}
        search = search_of({**params, "feedback": {**params["feedback"], **coefficients}})
        run = rank_frame({qid: [(h.doc_id, h.score, h.method) for h in
                                search.search(text, 10, as_of=as_of)]
                          for qid, text, as_of in training})
        score = evaluate_run(run, qrels, ("ndcg@10",))["ndcg@10"]
        if best is None or score > best[0]:
            best = (score, coefficients)
    assert best is not None
    return best[1]


def tune_weights(search: StatuteSearch, queryset: QuerySet) -> dict[str, float]:
    """Weights per retriever maximizing the config's `fusion.tune_metric` (default nDCG@10)
    on the judged training queries, over a grid of `fusion.tune_step` (default 0.1)."""
    spec = search.params["fusion"]
    method = spec.get("method", "wsum")
    if method == "rrf" or len(search.retrievers) < 2:
        raise ConfigError(f"config {search.name}: tuned weights need a score fusion (wsum, "
                          "combsum, ...) over at least two retrievers")
    training = _training(queryset)
    depth = int(search.params.get("candidates", 100))
    names = list(search.retrievers)
    scores: dict[str, dict[str, dict[str, float]]] = {name: {} for name in names}
    for qid, text, as_of in training:
        query = search.query(text, as_of)
        for name in names:
            hits = search.retrievers[name].search(query, depth)
            # ranx needs every query in every run; a miss is one zero-score placeholder
            scores[name][qid] = {hit.doc_id: hit.score for hit in hits} or {"<none>": 0.0}
    best = optimize_fusion(Qrels(ranx_ids({qid: queryset.qrels[qid] for qid, _, _ in training})),
                           [Run(ranx_ids(scores[name])) for name in names],
                           norm=spec.get("norm", "min-max"), method=method,
                           metric=spec.get("tune_metric", "ndcg@10"),
                           step=float(spec.get("tune_step", 0.1)), show_progress=False)
    return {name: round(float(weight), 6) for name, weight in zip(names, best["weights"],
                                                                   strict=True)}


def with_weights(params: Mapping, weights: Mapping[str, float]) -> dict:
    """The config's parameters with its fitted weights in place of `tuned`."""
    return {**params, "fusion": {**params["fusion"], "weights": dict(weights)}}
