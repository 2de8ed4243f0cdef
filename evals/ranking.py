"""Training of the section ranker (`nyaya.verify.ranker` says what it sees and why): the fused
candidates of the config that reranks, for training queries only, labeled by their judgments.

The training queries are the relevance model's (`evals.relevance.training_queries`):
the question sets' training halves (by qid) and RANKER_PASSAGES passages of cited-statutes'
training half (by judgment, their own judgment never voting): no held-out query or judgment is
among them. A candidate is labeled by its judged grade, 0 when unjudged.

Run `NYAYA_DATA=data .venv/bin/python -m evals.ranking` to train on a built data folder and
print the figures (what the section_ranker asset does, without writing the model). With
`--cross-fit` it measures the config on the training queries without reading a held-out one:
each fold's queries (CROSS_FIT_FOLDS, by a hash of the qid, or of a passage's judgment) are
reranked by a ranker trained on the other folds', beside the fused order, with and without
the statutes' words added to plain questions (`legal_terms`)."""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable, Iterable, Mapping

import pandas as pd
from lightgbm import LGBMRanker

from evals.configs import load_config
from evals.metrics import evaluate_groups
from evals.querysets import load_queryset
from evals.relevance import JudgedQuery, as_queryset, training_queries
from evals.runner import load_statute_resources, run_queryset
from evals.splits import CROSS_FIT_FOLDS
from nyaya.index.store import VectorStore
from nyaya.retrieval.pipeline import RERANK_DEPTH, StatuteResources, StatuteSearch
from nyaya.settings import Settings
from nyaya.verify.ranker import RANK_FEATURES, SectionRanker, rank_features
from nyaya.verify.relevance import RelevanceJudge, judge_tables
from nyaya.verify.trained import RankingModel

#: the config whose candidates the ranker learns to reorder (and which reranks with it)
RERANKING_CONFIG = "lookup-cases-ltr"
#: passages of cited-statutes' training half beside the questions: 200 gave held-out MAP 0.465
#: on cited-statutes against 0.283 without the ranker (docs/retrieval-methods.md)
RANKER_PASSAGES = 200
CROSS_FIT_METRICS = ("map", "ndcg@10")


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


def new_ranker() -> LGBMRanker:
    """LambdaMART over the judged grades, each query one list: a cross-fit inside the
    training halves put it above the pointwise classifier of version 2 on every question set
    (docs/retrieval-methods.md). One thread and a fixed seed, so two builds train one model."""
    return LGBMRanker(objective="lambdarank", n_estimators=200, learning_rate=0.05,
                      num_leaves=15, min_child_samples=20, random_state=0, n_jobs=1,
                      deterministic=True, force_row_wise=True, verbose=-1)


def fit_ranker(pairs: pd.DataFrame) -> RankingModel:
    """Train on `pairs` (ranking_pairs of training queries only), each query a list ordered
    by its judged grades; ValueError when no candidate is judged."""
    if pairs.empty or not (pairs["grade"] >= 1).any():
        raise ValueError("no judged candidate to train the section ranker on: the training "
                         "queries' judged sections are not among their candidates")
    pairs = pairs.sort_values(["queryset", "qid", "rank"], kind="stable")
    lists = pairs.groupby(["queryset", "qid"], sort=False).size().to_numpy()
    ranker = new_ranker().fit(pairs[list(RANK_FEATURES)], pairs["grade"].clip(lower=0),
                              group=lists)
    judged = pairs[pairs["grade"] >= 1]
    return RankingModel(ranker, RANK_FEATURES, {
        "candidates_of": RERANKING_CONFIG,
        "training_pairs": pairs.groupby("queryset").size().to_dict(),
        "training_queries": pairs.groupby("queryset")["qid"].nunique().to_dict(),
        "judged_candidates": judged.groupby("queryset").size().to_dict()})


def _training_inputs(settings: Settings, store: VectorStore
                     ) -> tuple[StatuteResources, RelevanceJudge, list[JudgedQuery]]:
    """The statute search's resources over `store`, the judge whose features the ranker sees
    (sharing their votes) and the training queries."""
    resources = load_statute_resources(settings, store)
    judge = RelevanceJudge(*judge_tables(settings), votes=lambda: resources.votes,
                           warehouse=settings.warehouse)
    return resources, judge, training_queries(settings, RANKER_PASSAGES)[0]


def train(settings: Settings, store: VectorStore, log: Callable[[str], None] = print
          ) -> RankingModel:
    """The section ranker trained on the warehouse's training queries, over the candidates
    of RERANKING_CONFIG searched in `store`."""
    started = time.monotonic()
    resources, judge, training = _training_inputs(settings, store)
    search = StatuteSearch(RERANKING_CONFIG, load_config(RERANKING_CONFIG).params, resources)
    model = fit_ranker(ranking_pairs(search, judge, training, log=log))
    model.figures["seconds"] = round(time.monotonic() - started, 1)
    return model


def cross_fit(resources: StatuteResources, judge: RelevanceJudge,
              training: list[JudgedQuery], tags: Mapping[str, Mapping[str, str]],
              log: Callable[[str], None] = print) -> pd.DataFrame:
    """CROSS_FIT_METRICS of RERANKING_CONFIG on `training` (training queries only), with
    `legal_terms` off and on: the fused order, and each fold reranked by a ranker trained on
    the other folds' candidates. One row per (terms, order, set, group): all of a set's queries,
    then one per tag of `tags` (qid -> tag, per kind)."""
    fold = {query.qid: query.fold for query in training}
    rows = []
    for terms in (False, True):
        params = {**load_config(RERANKING_CONFIG).params, "legal_terms": terms}
        fused = StatuteSearch(RERANKING_CONFIG, {key: value for key, value in params.items()
                                                 if key != "rerank"}, resources)
        reranked = StatuteSearch(RERANKING_CONFIG, params, resources)
        pairs = ranking_pairs(reranked, judge, training, log=log)
        runs: dict[str, list[pd.DataFrame]] = {}
        for k in range(CROSS_FIT_FOLDS):
            resources.reranker = SectionRanker(
                judge, fit_ranker(pairs[pairs["qid"].map(fold) != k]), resources)
            for name in sorted({query.queryset for query in training}):
                members = [query for query in training
                           if query.queryset == name and query.fold == k]
                runs.setdefault(name, []).extend(
                    run_queryset(search, as_queryset(name, members), RERANK_DEPTH).run
                    .assign(order=order)
                    for order, search in (("fused", fused), ("ranker", reranked)) if members)
            log(f"cross-fit: legal_terms {terms}, fold {k + 1} of {CROSS_FIT_FOLDS} measured")
        del resources.reranker  # the trained one again, should the resources search on
        for name, frames in runs.items():
            run = pd.concat(frames, ignore_index=True)
            qrels = {query.qid: query.grades for query in training if query.queryset == name}
            tagged = {kind: of for kind, of in tags.items() if set(of) & set(qrels)}
            for order, part in run.groupby("order", sort=True):
                rows += evaluate_groups(part, qrels, tagged, CROSS_FIT_METRICS).assign(
                    legal_terms=terms, order=order, set=name).to_dict("records")
    return pd.DataFrame(rows)


def main(argv: list[str] | None = None) -> None:
    """Train on the data folder of NYAYA_DATA and print the figures, or (`--cross-fit`) the
    cross-fitted figures."""
    import json

    from nyaya.index.store import open_store

    parser = argparse.ArgumentParser(prog="python -m evals.ranking")
    parser.add_argument("--cross-fit", action="store_true",
                        help=f"measure {RERANKING_CONFIG} on the training queries, each fold "
                             "reranked by a ranker trained on the others")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    store = open_store(settings.qdrant_path, read_only=True)
    try:
        if not args.cross_fit:
            print(json.dumps(train(settings, store).figures, indent=2, default=str))
            return
        types = load_queryset("nyaya-statutes").tags("query_type")
        table = cross_fit(*_training_inputs(settings, store), {"query_type": types})
    finally:
        store.close()
    table["group"] = table["set"] + " " + table["group"]
    print("nyaya-statutes' training questions were read to write nyaya/facts/legal_terms.yaml "
          "(docs/retrieval-methods.md): with legal_terms on, their figures measure that fit "
          "too, and the held-out half says what generalizes")
    print(table.pivot_table(index="group", columns=["legal_terms", "order"],
                            values=list(CROSS_FIT_METRICS), sort=False).round(3).to_markdown())


if __name__ == "__main__":
    main()
