"""Training of the section ranker (`nyaya.verify.ranker` says what it sees and why): the fused
candidates of the config that reranks, for training queries only, labeled by their judgments.

The training queries are the relevance model's (`evals.relevance.training_queries`):
nyaya-statutes' training half (by qid) and RANKER_PASSAGES passages of cited-statutes'
training half (by judgment, their own judgment never voting): no held-out query or judgment is
among them. A candidate is a positive when judged (any grade).

Run `NYAYA_DATA=data .venv/bin/python -m evals.ranking` to train on a built data folder and
print the figures (what the section_ranker asset does, without writing the model)."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable

import pandas as pd

from evals.configs import load_config
from evals.relevance import JudgedQuery, fit_classifier, set_weights, training_queries
from evals.runner import load_statute_resources
from nyaya.index.store import VectorStore
from nyaya.retrieval.pipeline import RERANK_DEPTH, StatuteSearch
from nyaya.settings import Settings
from nyaya.verify.ranker import RANK_FEATURES, rank_features
from nyaya.verify.relevance import RelevanceJudge, judge_tables
from nyaya.verify.trained import RankingModel

#: the config whose candidates the ranker learns to reorder (and which reranks with it)
RERANKING_CONFIG = "lookup-cases-ltr"
#: passages of cited-statutes' training half beside the questions: 200 gave held-out MAP 0.465
#: on cited-statutes against 0.283 without the ranker (docs/retrieval-methods.md)
RANKER_PASSAGES = 200


def ranking_pairs(search: StatuteSearch, judge: RelevanceJudge,
                  queries: Iterable[JudgedQuery], depth: int = RERANK_DEPTH,
                  log: Callable[[str], None] = print) -> pd.DataFrame:
    """One row per (query, candidate): the top `depth` fused candidates of `search` with
    their set, qid, rank, grade (0 when unjudged) and RANK_FEATURES."""
    frames = []
    queries = list(queries)
    started = time.monotonic()
    for done, judged in enumerate(queries, 1):
        query = search.query(judged.text, excluded=judged.excluded)
        hits = search.candidates(query)[:depth]
        frames.append(rank_features(judge, search.resources, query, hits).assign(
            queryset=judged.queryset, qid=judged.qid, doc_id=[hit.doc_id for hit in hits],
            rank=range(1, len(hits) + 1),
            grade=[judged.grades.get(hit.doc_id, 0) for hit in hits]))
        if done % 50 == 0 or done == len(queries):
            spent = time.monotonic() - started
            log(f"ranker candidates: {done}/{len(queries)} queries, {spent:.0f}s, ETA "
                f"{spent / done * (len(queries) - done):.0f}s")
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=[*RANK_FEATURES, "queryset", "qid", "doc_id", "rank", "grade"])


def fit_ranker(pairs: pd.DataFrame) -> RankingModel:
    """Train on `pairs` (ranking_pairs of training queries only), each set weighing the same
    in all; ValueError when no candidate is judged."""
    if pairs.empty or not (pairs["grade"] >= 1).any():
        raise ValueError("no judged candidate to train the section ranker on: the training "
                         "queries' judged sections are not among their candidates")
    classifier = fit_classifier(pairs[list(RANK_FEATURES)], (pairs["grade"] >= 1).astype(int),
                                set_weights(pairs))
    judged = pairs[pairs["grade"] >= 1]
    return RankingModel(classifier, RANK_FEATURES, {
        "candidates_of": RERANKING_CONFIG,
        "training_pairs": pairs.groupby("queryset").size().to_dict(),
        "training_queries": pairs.groupby("queryset")["qid"].nunique().to_dict(),
        "judged_candidates": judged.groupby("queryset").size().to_dict()})


def train(settings: Settings, store: VectorStore, log: Callable[[str], None] = print
          ) -> RankingModel:
    """The section ranker trained on the warehouse's training queries, over the candidates
    of RERANKING_CONFIG searched in `store`."""
    started = time.monotonic()
    resources = load_statute_resources(settings, store)
    search = StatuteSearch(RERANKING_CONFIG, load_config(RERANKING_CONFIG).params, resources)
    judge = RelevanceJudge(*judge_tables(settings), votes=lambda: resources.votes)
    training, _ = training_queries(settings, RANKER_PASSAGES)
    model = fit_ranker(ranking_pairs(search, judge, training, log=log))
    model.figures["seconds"] = round(time.monotonic() - started, 1)
    return model


def main() -> None:
    """Train on the data folder of NYAYA_DATA and print the figures."""
    import json

    from nyaya.index.store import open_store

    settings = Settings.from_env()
    store = open_store(settings.qdrant_path, read_only=True)
    try:
        print(json.dumps(train(settings, store).figures, indent=2, default=str))
    finally:
        store.close()


if __name__ == "__main__":
    main()
