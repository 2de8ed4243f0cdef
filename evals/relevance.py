"""Training of the relevance models on distant supervision (`nyaya.verify.relevance` and
`nyaya.verify.precedents` say what they see and why), their cuts, their figures on held-out
halves (the judge that knows the labeled sets' qrels: evals.labeled).

Run `NYAYA_DATA=data .venv/bin/python -m evals.relevance` to train on a warehouse and print the
figures (what the relevance_model asset does, without writing the models)."""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from itertools import islice

import numpy as np
import pandas as pd
from sklearn.ensemble import HistGradientBoostingClassifier
from sklearn.model_selection import GroupKFold
from threadpoolctl import threadpool_limits

from evals.citation_sets import POOL, PRECEDENTS_SET, STATUTES_SET, dev_set
from evals.corpus_sets import dev_queries, precedent_passage_queries
from evals.labeled import LABELED_SETS
from evals.querysets import QuerySet, load_queryset
from evals.splits import HELDOUT, TRAIN, cross_fit_fold, split_of
from nyaya.parallel import available_cores, map_in_processes
from nyaya.retrieval.case_votes import section_votes
from nyaya.retrieval.citing_contexts import case_contexts
from nyaya.settings import Settings
from nyaya.tables import read_table
from nyaya.verify.model import NOT_APPLICABLE, RELEVANT, TANGENTIAL
from nyaya.verify.precedents import (
    PrecedentFeatures,
    PrecedentJudge,
)
from nyaya.verify.relevance import (
    MIN_REMOVAL_PRECISION,
    NEGATIVE_DEPTH,
    RELEVANT_PRECISION,
    PairFeatures,
    RelevanceJudge,
    doc_key,
    judge_tables,
    judgment_citers,
    ruled_out,
)
from nyaya.verify.trained import PASSAGE, QUESTION, Cuts, RelevanceModel

#: passages of cited-statutes' training half the model learns from (about 20 pairs each): twice
#: as many gave the same held-out figures within 0.02 at four times the fitting time
TRAINING_PASSAGES = 800
#: held-out passages of cited-statutes the figures are read on
HELDOUT_PASSAGES = 200
#: question sets whose training halves the models learn from: nyaya-statutes', and the two
#: sets of plain questions written apart from it, in a citizen's words (2026-12-06); the
#: figures are read on nyaya-statutes' held-out half
QUESTION_SETS = (*LABELED_SETS, "situations", "plain-questions")
#: whole judgments of cited-precedents the precedent model learns from, and is read on
PRECEDENT_TRAINING, PRECEDENT_HELDOUT = 300, 100
#: precedent passages of each form (a chunk, a question-sized window) it learns from, read on
PASSAGE_TRAINING, PASSAGE_HELDOUT = 200, 100
FOLDS = 5  # out-of-fold probabilities for the cuts: a model scores its own training pairs too well
CLASSES = (RELEVANT, TANGENTIAL, NOT_APPLICABLE)
#: a section a judgment cites is one it relied on: RELEVANT to its passage
CITED_GRADE = 2
STATUTES, PRECEDENTS = "statutes", "precedents"  # the two models


def gold_class(grade: int) -> str:
    return RELEVANT if grade >= 2 else TANGENTIAL if grade == 1 else NOT_APPLICABLE


@dataclass(frozen=True)
class JudgedQuery:
    """One query to draw pairs from: its judged documents (doc ids: sections, or judgments) and
    the judgments that must not vote or count as near (its own judgment and its duplicates)."""

    queryset: str
    qid: str
    text: str
    grades: dict[str, int]
    excluded: tuple[str, ...] = ()

    @property
    def sections(self) -> dict[tuple[str, str], int]:
        return {doc_key(doc): grade for doc, grade in self.grades.items()}

    @property
    def fold(self) -> int:
        """Its cross-fit fold: a development passage's is its judgment's (the first of those
        it excludes), so passages of one judgment never sit on both sides of a fold."""
        return cross_fit_fold(min(self.excluded, default=self.qid))


def judged_queries(queryset: QuerySet, grade: int | None = None) -> list[JudgedQuery]:
    """The set's judged queries; `grade` replaces every judged grade (a development set judges
    all its sections 1)."""
    rows = queryset.queries.set_index("qid")
    return [JudgedQuery(queryset.name, qid, str(rows.at[qid, "query"]),
                        {doc: grade or g for doc, g in queryset.qrels[qid].items()},
                        tuple(rows.at[qid, "excluded"]) if "excluded" in rows else ())
            for qid in sorted(queryset.qrels) if qid in rows.index]


def as_queryset(name: str, queries: Iterable[JudgedQuery]) -> QuerySet:
    """Judged queries as a query set named `name` (what a search runs through), the inverse of
    `judged_queries`."""
    queries = list(queries)
    return QuerySet(name, pd.DataFrame({"qid": [query.qid for query in queries],
                                        "query": [query.text for query in queries],
                                        "excluded": [query.excluded for query in queries]}),
                    {query.qid: query.grades for query in queries})


def candidates(judge: RelevanceJudge, query: JudgedQuery, depth: int = NEGATIVE_DEPTH
               ) -> dict[tuple[str, str], str]:
    """Section -> origin: the judged ones, and as negatives when unjudged what a plain
    retrieval, a retrieval through similar cases or a near miss would cite: the top `depth`
    BM25 sections, the top `depth` voted ones, and the Act neighbours of the judged ones."""
    origins = dict.fromkeys(query.sections, "judged")
    for key in judge.top_sections(query.text, depth, query.excluded):
        origins.setdefault(key, "retrieved")
    for key in judge.top_voted(query.text, depth, query.excluded):
        origins.setdefault(key, "voted")
    for key in list(query.sections):
        for near in judge.neighbours(*key):
            origins.setdefault(near, "neighbour")
    return origins


def feature_pairs(judge: RelevanceJudge, queries: Iterable[JudgedQuery]) -> pd.DataFrame:
    """One row per candidate pair: the query's set, qid and kind, the section, its origin and
    grade (0 when unjudged), the model's features (PairFeatures.NAMES) and whether the law's
    words of the question keep it from the model's removal."""
    rows = []
    for query in queries:
        grades = query.sections
        for (act, section), origin in candidates(judge, query).items():
            features = judge.features(query.text, act, section, query.excluded)
            rows.append({"queryset": query.queryset, "qid": query.qid, "kind": features.kind,
                         "act_code": act, "section_number": section, "origin": origin,
                         "grade": grades.get((act, section), 0),
                         "kept": features.kept, "outside_named": features.outside_named,
                         **dict(zip(PairFeatures.NAMES, features.vector(), strict=True))})
    return pd.DataFrame(rows)


def verdict_figures(verdicts: Sequence[str], grades: Sequence[int]
                    ) -> dict[str, dict[str, float]]:
    """Precision, recall and support (gold pairs) per class of the given verdicts."""
    gold = [gold_class(g) for g in grades]
    figures = {}
    for name in CLASSES:
        hits = sum(v == g == name for v, g in zip(verdicts, gold, strict=True))
        said, support = list(verdicts).count(name), gold.count(name)
        figures[name] = {"precision": round(hits / said, 3) if said else 0.0,
                         "recall": round(hits / support, 3) if support else 0.0,
                         "support": support}
    return figures


def class_figures(scores: Sequence[float], grades: Sequence[int], cuts: Cuts
                  ) -> dict[str, dict[str, float]]:
    """verdict_figures at the given cuts."""
    return verdict_figures([cuts.verdict(s) for s in scores], grades)


def fit_cuts(scores: Sequence[float], grades: Sequence[int],
             min_precision: float = MIN_REMOVAL_PRECISION,
             relevant_precision: float | None = None) -> Cuts:
    """The removal cut: the highest whose removals (pairs below it) are at least
    `min_precision` unjudged; the relevant cut: at or above it, the lowest at or above which
    at least `relevant_precision` of the pairs are judged RELEVANT (one above the highest
    score when none is), or without it the best macro F1 of the classes judged among the
    pairs (RELEVANT at or above it, TANGENTIAL between), the lowest on a tie. Candidates: the
    lowest score, the midpoints between distinct scores and one above the highest. Counted
    from sorted scores, so tens of thousands of pairs take a moment."""
    if not any(g >= 1 for g in grades):
        raise ValueError("no judged pair to calibrate on")
    values = np.unique(np.asarray(scores, dtype=float))
    cuts = np.concatenate([values[:1], (values[:-1] + values[1:]) / 2, values[-1:] + 1.0])
    ordered = np.argsort(scores, kind="stable")
    sorted_scores = np.asarray(scores, dtype=float)[ordered]
    gold = np.array([gold_class(g) for g in grades])[ordered]
    below = np.searchsorted(sorted_scores, cuts, side="left")  # pairs scoring below each cut
    # per class, gold pairs below each cut
    gold_below = {c: np.concatenate([[0], np.cumsum(gold == c)])[below] for c in CLASSES}
    removed_right = gold_below[NOT_APPLICABLE]
    precision = np.where(below > 0, removed_right / np.maximum(below, 1), 1.0)
    at = int(np.flatnonzero(precision >= min_precision - 1e-12).max())
    support = {c: int((gold == c).sum()) for c in CLASSES}
    said = {NOT_APPLICABLE: below[at], TANGENTIAL: below[at:] - below[at],
            RELEVANT: len(gold) - below[at:]}
    hits = {NOT_APPLICABLE: gold_below[NOT_APPLICABLE][at],
            TANGENTIAL: gold_below[TANGENTIAL][at:] - gold_below[TANGENTIAL][at],
            RELEVANT: support[RELEVANT] - gold_below[RELEVANT][at:]}
    f1 = []
    for name in CLASSES:
        if not support[name]:
            continue
        p = np.where(said[name] > 0, hits[name] / np.maximum(said[name], 1), 0.0)
        r = hits[name] / support[name]
        f1.append(np.broadcast_to(np.where(p + r > 0, 2 * p * r / np.maximum(p + r, 1e-12),
                                           0.0), cuts[at:].shape))
    if relevant_precision is not None:
        asserted = said[RELEVANT]
        precise = np.where(asserted > 0, hits[RELEVANT] / np.maximum(asserted, 1), 0.0)
        reached = np.flatnonzero(precise >= relevant_precision - 1e-12)
        high = cuts[at:][reached[0]] if reached.size else cuts[-1]
        return Cuts(round(float(cuts[at]), 6), round(float(high), 6))
    macro = np.round(np.mean(f1, axis=0), 9)
    return Cuts(round(float(cuts[at]), 6), round(float(cuts[at:][int(np.argmax(macro))]), 6))


def new_classifier() -> HistGradientBoostingClassifier:
    """Gradient-boosted trees: the features interact (a vote matters for a passage, the lexical
    rank for a question); fixed seed and no early stopping, so a refit is the same model."""
    return HistGradientBoostingClassifier(max_iter=200, learning_rate=0.05, max_leaf_nodes=15,
                                          early_stopping=False, random_state=0)


def fit_classifier(matrix: pd.DataFrame, labels: pd.Series, weights: np.ndarray
            ) -> HistGradientBoostingClassifier:
    """One thread: OpenMP's threads spin against any other busy process on a small machine
    (a fit took 20 times as long beside a benchmark)."""
    with threadpool_limits(limits=1):
        return new_classifier().fit(matrix, labels, sample_weight=weights)


def set_weights(pairs: pd.DataFrame) -> np.ndarray:
    """Each training set weighs the same in all, however many pairs it has."""
    sizes = pairs["queryset"].map(pairs["queryset"].value_counts())
    return (len(pairs) / pairs["queryset"].nunique() / sizes).to_numpy()


def fit_model(pairs: pd.DataFrame, min_precision: float = MIN_REMOVAL_PRECISION,
              features: tuple[str, ...] = PairFeatures.NAMES,
              kinds: tuple[str, ...] = (QUESTION, PASSAGE),
              relevant_precision: dict[str, float] | None = None) -> RelevanceModel:
    """Train on `pairs` (feature_pairs or precedent_pairs of training queries only) with cuts
    for each of the `kinds` of query, fitted on out-of-fold probabilities, folds split by
    query; a kind in `relevant_precision` gets a relevant cut of that precision (`fit_cuts`)."""
    if pairs.empty or not (pairs["grade"] >= 1).any():
        raise ValueError("no judged pair to train the relevance model on")
    matrix, labels = pairs[list(features)], (pairs["grade"] >= 1).astype(int)
    weights = set_weights(pairs)
    folds = min(FOLDS, pairs["qid"].nunique())
    if folds < 2:
        raise ValueError("the relevance model needs training pairs of two queries at least")
    out_of_fold = np.zeros(len(pairs))
    for fit, held in GroupKFold(folds).split(matrix, labels, pairs["qid"]):
        classifier = fit_classifier(matrix.iloc[fit], labels.iloc[fit], weights[fit])
        out_of_fold[held] = classifier.predict_proba(matrix.iloc[held])[:, 1]
    cuts, figures = {}, {}
    for kind in kinds:
        mine = (pairs["kind"] == kind).to_numpy()
        if not (pairs["grade"][mine] >= 1).any():
            raise ValueError(f"no judged {kind} pair to fit the {kind} cuts on")
        scores, grades = out_of_fold[mine].round(6).tolist(), pairs["grade"][mine].tolist()
        cuts[kind] = fit_cuts(scores, grades, min_precision,
                              (relevant_precision or {}).get(kind))
        figures[kind] = class_figures(scores, grades, cuts[kind])
    classifier = fit_classifier(matrix, labels, weights)
    return RelevanceModel(classifier, cuts, features, {
        "training_pairs": pairs.groupby("queryset").size().to_dict(),
        "training_queries": pairs.groupby("queryset")["qid"].nunique().to_dict(),
        "out_of_fold": figures})


def removal_figures(model: RelevanceModel, pairs: pd.DataFrame,
                    rule: Callable[[pd.DataFrame, Sequence[str]], np.ndarray] | None = None,
                    kept: Sequence[bool] | None = None) -> dict:
    """On (held-out) pairs, per set: NOT_APPLICABLE precision and recall, relevant documents
    removed per query, the three classes' figures and the share removed of each origin. `rule`
    marks the pairs removed whatever the model says (the statute judge's `ruled_out`),
    `kept` those the model may not remove (TANGENTIAL instead: the statute judge's
    `PairFeatures.kept`)."""
    scores = model.probabilities(pairs)
    verdicts = [model.cuts[kind].verdict(s) for kind, s in zip(pairs["kind"], scores,
                                                               strict=True)]
    if kept is not None:
        verdicts = [TANGENTIAL if keep and verdict == NOT_APPLICABLE else verdict
                    for verdict, keep in zip(verdicts, kept, strict=True)]
    if rule is not None:
        verdicts = [NOT_APPLICABLE if ruled else verdict for verdict, ruled in
                    zip(verdicts, rule(pairs, pairs["kind"].tolist()), strict=True)]
    frame = pairs.assign(verdict=verdicts)
    frame["removed"] = frame["verdict"] == NOT_APPLICABLE
    out = {}
    for name, rows in frame.groupby("queryset", sort=True):
        relevant, removed = rows["grade"] >= 1, rows["removed"]
        out[name] = {
            "queries": int(rows["qid"].nunique()), "pairs": len(rows),
            "not_applicable_precision": (round(float((~relevant[removed]).mean()), 3)
                                         if removed.any() else None),
            "not_applicable_recall": round(float(removed[~relevant].mean()), 3),
            "relevant_removed_per_query": round(float((removed & relevant).sum())
                                                / rows["qid"].nunique(), 3),
            "classes": verdict_figures(rows["verdict"].tolist(), rows["grade"].tolist()),
            "removed_by_origin": rows.groupby("origin")["removed"].mean().round(3).to_dict()}
    return out


def training_queries(settings: Settings, passages: int | None = TRAINING_PASSAGES
                     ) -> tuple[list[JudgedQuery], list[JudgedQuery]]:
    """(training, held-out) queries: the training halves of QUESTION_SETS with `passages` of
    cited-statutes' training half (None: all of it), and the held-out half of nyaya-statutes with
    HELDOUT_PASSAGES of cited-statutes'. Split by qid and by judgment (evals.splits)."""
    texts = dev_queries(settings.warehouse, settings.corpus_root)[STATUTES_SET]
    halves = []
    for split, count, names in ((TRAIN, passages, QUESTION_SETS),
                                (HELDOUT, HELDOUT_PASSAGES, LABELED_SETS[:1])):
        questions = []
        for name in names:
            labeled = load_queryset(name)
            questions += judged_queries(QuerySet(labeled.name, labeled.queries, {
                qid: docs for qid, docs in labeled.qrels.items() if split_of(qid) == split}))
        halves.append(questions + judged_queries(dev_set(STATUTES_SET, texts, split, count),
                                                 CITED_GRADE))
    return halves[0], halves[1]


def precedent_pairs(judge: PrecedentJudge, queries: Iterable[JudgedQuery],
                    pool: Collection[str], depth: int = NEGATIVE_DEPTH) -> pd.DataFrame:
    """One row per candidate (query, judgment): the judged judgments, and as negatives, of the
    `pool` judgments the query does not cite, the `depth` most like it and `depth` drawn at
    random (in an order hashed from the qid): a cited case is often unlike the judgment citing
    it, so negatives drawn only among the most alike would teach the model that unlike means
    cited. The pool is where the development set's judgments come from: a judgment outside it
    may be cited unrecorded. Columns as feature_pairs', `doc_id` for the section."""
    rows = []
    ordered = sorted(pool)
    for query in queries:
        origins = dict.fromkeys(query.grades, "judged")
        nearest = (doc for doc in judge.ranked(query.text)
                   if doc in pool and doc not in query.excluded)
        for doc in islice(nearest, depth):
            origins.setdefault(doc, "retrieved")
        drawn = sorted(ordered, key=lambda doc: hashlib.sha256(
            f"{query.qid} {doc}".encode()).digest())
        for doc in islice((d for d in drawn if d not in origins and d not in query.excluded),
                          depth):
            origins[doc] = "sampled"
        for doc, origin in origins.items():
            features = judge.features(query.text, [doc], query.excluded)
            if features is None:  # a judged judgment the index does not hold
                continue
            rows.append({"queryset": query.queryset, "qid": query.qid, "kind": features.kind,
                         "doc_id": doc, "origin": origin, "grade": query.grades.get(doc, 0),
                         **dict(zip(PrecedentFeatures.NAMES, features.vector(), strict=True))})
    return pd.DataFrame(rows)


def precedent_training(settings: Settings, judge: PrecedentJudge) -> RelevanceModel:
    """The precedent model, trained on the training halves of cited-precedents
    (PRECEDENT_TRAINING whole judgments) and of the precedent passages (PASSAGE_TRAINING
    chunks and as many question-sized windows), each cited pool judgment RELEVANT, with cuts
    for questions and passages; its figures on the held-out halves (PRECEDENT_HELDOUT,
    PASSAGE_HELDOUT)."""
    judgments = read_table(settings.table_path("judgments"))
    pool = set(judgments.loc[judgments["source"].isin(POOL), "doc_id"])
    sets = {PRECEDENTS_SET: (dev_queries(settings.warehouse, settings.corpus_root)[
        PRECEDENTS_SET], PRECEDENT_TRAINING, PRECEDENT_HELDOUT)}
    sets.update({name: (queries, PASSAGE_TRAINING, PASSAGE_HELDOUT) for name, queries in
                 precedent_passage_queries(settings.warehouse).items()})
    halves = {split: [query for name, (queries, trained, held) in sets.items()
                      for query in judged_queries(dev_set(
                          name, queries, split, trained if split == TRAIN else held),
                          CITED_GRADE)]
              for split in (TRAIN, HELDOUT)}
    model = fit_model(precedent_pairs(judge, halves[TRAIN], pool),
                      features=PrecedentFeatures.NAMES)
    model.figures["held_out"] = removal_figures(model, precedent_pairs(judge, halves[HELDOUT],
                                                                       pool))
    return model


def train(settings: Settings, workers: int = 1) -> tuple[RelevanceModel, RelevanceModel]:
    """The statute and precedent relevance models trained on the warehouse's training halves,
    each with its figures on the held-out halves in `figures["held_out"]`; with `workers` > 1
    the two at once in worker processes (nyaya.parallel)."""
    statutes, precedents = map_in_processes(_train_one, [(settings, STATUTES),
                                                         (settings, PRECEDENTS)],
                                            workers=workers)
    return statutes, precedents


def _train_one(work: tuple[Settings, str], _log: Callable[[str], None]) -> RelevanceModel:
    settings, name = work
    if name == PRECEDENTS:
        return precedent_training(settings, PrecedentJudge(section_votes(settings.warehouse),
                                                           judgment_citers(settings),
                                                           case_contexts(settings.warehouse)))
    judge = RelevanceJudge(*judge_tables(settings),
                           votes=lambda: section_votes(settings.warehouse),
                           warehouse=settings.warehouse)
    training, held_out = training_queries(settings)
    model = fit_model(feature_pairs(judge, training),
                      relevant_precision={QUESTION: RELEVANT_PRECISION})
    pairs = feature_pairs(judge, held_out)
    model.figures["held_out"] = removal_figures(model, pairs, ruled_out,
                                                pairs["kept"])
    return model


def main() -> None:
    """Train on the warehouse of NYAYA_DATA and print the cuts and figures."""
    import json

    for name, model in zip((STATUTES, PRECEDENTS), train(Settings.from_env(), available_cores()),
                           strict=True):
        print(json.dumps({"model": name,
                          "cuts": {kind: vars(cuts) for kind, cuts in model.cuts.items()},
                          **model.figures}, indent=2, default=str))


if __name__ == "__main__":
    main()
