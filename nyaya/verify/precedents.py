"""Relevance of a cited precedent to the question (specification 001's precedent assessment):
RELEVANT_PRECEDENT, TANGENTIAL or NOT_APPLICABLE_PRECEDENT, by a model trained as the statute
one is (`nyaya.verify.relevance`; what they share: `nyaya.verify.trained`), on the corpus's own
case citations: a judgment with its case citations masked is a query, the judgments it cites are
relevant to it, and the others most like it, uncited, are not (`evals/relevance.py`, the
`relevance_model` asset).

What the model sees (PrecedentFeatures): how well the case's whole text matches the question
(BM25 relative to the best judgment's, and its rank), how well the passages in which other
judgments cite it match the question (what a case is cited for is said in the citing
judgments' words, which a question shares more often than the case's own), the share of the
statutes the case cites that the judgments most like the question cite too, how many cases we
hold cite it (an established precedent), the question's own case aside, and the question's
length. Not its PageRank: in training, the graph holds the question's own citations, which are
the labels, and a model given PageRank learned them (docs/verification.md).

Training covers whole judgments, a chunk around a case citation and the words either side of
one (a question's length), so any question is judged by the cuts of its kind (`kind_of`); a
case whose text we do not hold, or a model without cuts for the question's kind, is
NOT_JUDGED, with the reason.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Iterable, Iterator, Mapping
from dataclasses import dataclass
from functools import lru_cache
from itertools import islice

import numpy as np
import pandas as pd

from nyaya.retrieval.case_votes import CaseVotes
from nyaya.retrieval.citing_contexts import CitingContexts
from nyaya.verify.model import (
    NOT_APPLICABLE,
    NOT_APPLICABLE_PRECEDENT,
    NOT_JUDGED,
    RELEVANT,
    RELEVANT_PRECEDENT,
    TANGENTIAL,
)
from nyaya.verify.trained import (
    SOURCE_MODEL,
    Relevance,
    RelevanceModel,
    kind_of,
)

QUERY_TERMS = 200  # a long question is reduced to its rarest terms (docs/retrieval-methods.md)
NEIGHBOURS = 20  # judgments most like the question whose statutes a case is compared with
PRECEDENT_VERDICTS = {RELEVANT: RELEVANT_PRECEDENT, TANGENTIAL: TANGENTIAL,
                      NOT_APPLICABLE: NOT_APPLICABLE_PRECEDENT}


@dataclass(frozen=True)
class PrecedentFeatures:
    """What the model sees of one (question, case) pair."""

    lexical: float  # whole-text BM25 relative to the best judgment's (1 = the best match)
    lexical_rank: int  # among every judgment, 1 = the best
    shared_sections: float  # share of the case's statutes cited by the nearest judgments too
    cited_by: int  # cases we hold that cite it, the question's own aside
    query_words: int
    # the passages citing it, summed, relative to the best-matched case's (0 = none matched)
    contexts: float
    contexts_rank: int  # 1 = the best-matched case; one past every judgment when none matched

    NAMES = ("lexical", "log_lexical_rank", "shared_sections", "log_cited_by", "query_words",
             "contexts", "log_contexts_rank")

    def vector(self) -> list[float]:
        return [self.lexical, math.log1p(self.lexical_rank), self.shared_sections,
                math.log1p(self.cited_by), float(self.query_words), self.contexts,
                math.log1p(self.contexts_rank)]

    @property
    def kind(self) -> str:
        return kind_of(self.query_words)


@dataclass(frozen=True)
class _View:
    lexical: np.ndarray  # per judgment (index order), relative to the best
    rank: np.ndarray  # per judgment, 1 = the best
    order: np.ndarray  # judgment rows, best first


@dataclass(frozen=True)
class Citers:
    """Which cases cite each judgment's case, from the citation graph (every relation: cites,
    follows, distinguishes, overrules)."""

    of: Mapping[str, frozenset[str]]  # judgment doc id -> node ids of the cases citing its case
    case_of: Mapping[str, str]  # judgment doc id -> its case's node id

    @classmethod
    def from_graph(cls, nodes: pd.DataFrame, edges: pd.DataFrame) -> Citers:
        """From citation_graph_nodes (node_id, doc_ids) and citation_graph_edges."""
        docs_of = {node: list(doc_ids) for node, doc_ids in
                   zip(nodes["node_id"], nodes["doc_ids"], strict=True) if doc_ids is not None}
        citing: dict[str, set[str]] = {}
        cases = edges[edges["target_type"] == "case"]
        for source, target in zip(cases["source_id"], cases["target_id"], strict=True):
            if source != target:
                citing.setdefault(target, set()).add(source)
        return cls({doc: frozenset(citing.get(node, ())) for node, docs in docs_of.items()
                    for doc in docs},
                   {doc: node for node, docs in docs_of.items() for doc in docs})

    def count(self, doc_ids: Iterable[str], excluded: Iterable[str] = ()) -> int:
        """The most cases citing any of `doc_ids` (one case, held by several judgments), not
        counting the cases of the `excluded` judgments."""
        skip = {self.case_of[doc] for doc in excluded if doc in self.case_of}
        return max((len(self.of.get(doc, frozenset()) - skip) for doc in doc_ids), default=0)


class PrecedentJudge:
    """Judges (question, case) pairs by the trained model over the judgments' whole texts
    (`votes`: the judgments' BM25 index and the statutes each cites), who cites them, and in
    what words (`contexts`: the passages around case citations, `citing_contexts.case_contexts`)."""

    def __init__(self, votes: CaseVotes, citers: Citers, contexts: CitingContexts,
                 model: RelevanceModel | None = None) -> None:
        self.index, self.cites, self.citers, self.contexts, self.model = (
            votes.judgments, votes.cites, citers, contexts, model)
        self.row_of = {doc: i for i, doc in enumerate(self.index.doc_ids)}
        self._view = lru_cache(maxsize=64)(self._query_view)
        self._cited_for = lru_cache(maxsize=64)(self._query_contexts)

    def _query_contexts(self, query: str, excluded: frozenset[str]
                        ) -> dict[str, tuple[float, int]]:
        """Each case cited in passages matching the query: its score relative to the best
        case's, and its rank."""
        hits = self.contexts.search(query, len(self.row_of), excluded, terms=QUERY_TERMS)
        best = hits[0].score if hits else 1.0
        return {hit.doc_id: (round(hit.score / best, 4), rank)
                for rank, hit in enumerate(hits, start=1)}

    def _query_view(self, query: str) -> _View:
        scores = self.index.scores(query, QUERY_TERMS)
        best = scores.max(initial=0.0)
        order = np.argsort(-scores, kind="stable")
        rank = np.empty(len(scores), dtype=int)
        rank[order] = np.arange(1, len(scores) + 1)
        return _View(scores / best if best > 0 else scores, rank, order)

    def ranked(self, query: str) -> Iterator[str]:
        """The judgments, those most like the query first (ties in index order)."""
        return (self.index.doc_ids[i] for i in self._view(query).order)

    def features(self, query: str, doc_ids: Collection[str], excluded: Iterable[str] = ()
                 ) -> PrecedentFeatures | None:
        """The pair's features, the case read through the best-matching of its judgments
        (`doc_ids`: one case can be held by several sources); None when none is held.
        `excluded` judgments are never among the nearest (a development query's own)."""
        rows = [self.row_of[doc] for doc in doc_ids if doc in self.row_of]
        if not rows:
            return None
        view = self._view(query)
        row = max(rows, key=lambda i: (view.lexical[i], -i))
        skip = set(excluded) | set(doc_ids)
        nearest = [doc for doc in islice(self.ranked(query), NEIGHBOURS + len(skip))
                   if doc not in skip][:NEIGHBOURS]
        near_sections = set().union(*(self.cites.get(doc, ()) for doc in nearest))
        own = set().union(*(self.cites.get(doc, ()) for doc in doc_ids))
        cited_for = self._cited_for(query, frozenset(excluded))
        unmatched = (0.0, len(self.row_of) + 1)
        contexts, contexts_rank = max((cited_for.get(doc, unmatched) for doc in doc_ids),
                                      key=lambda found: (found[0], -found[1]))
        return PrecedentFeatures(
            lexical=round(float(view.lexical[row]), 4), lexical_rank=int(view.rank[row]),
            shared_sections=round(len(own & near_sections) / len(own), 4) if own else 0.0,
            cited_by=self.citers.count(doc_ids, excluded),
            query_words=len(query.split()), contexts=contexts, contexts_rank=contexts_rank)

    def judge(self, query: str, doc_ids: Collection[str], case: str) -> Relevance:
        """RELEVANT_PRECEDENT / TANGENTIAL / NOT_APPLICABLE_PRECEDENT for one case (`case`
        names it in the reason), or NOT_JUDGED with why."""
        if self.model is None:
            raise ValueError("this judge has no precedent relevance model")
        features = self.features(query, doc_ids)
        if features is None:
            return Relevance(NOT_JUDGED, f"{case}: relevance not judged: we hold no text of "
                             "this case.", SOURCE_MODEL)
        if features.kind not in self.model.cuts:
            return Relevance(NOT_JUDGED, f"{case}: relevance not judged: the precedent model "
                             f"was not trained on texts of {features.query_words:,} words (a "
                             f"{features.kind}); rebuild it (make run).", SOURCE_MODEL)
        probability = round(float(self.model.probabilities(pd.DataFrame(
            [features.vector()], columns=PrecedentFeatures.NAMES))[0]), 4)
        cuts = self.model.cuts[features.kind]
        verdict = PRECEDENT_VERDICTS[cuts.verdict(probability)]
        cited_for = (f"the passages citing it match the question {features.contexts:g} of "
                     f"the best-matched case's (rank {features.contexts_rank:,})"
                     if features.contexts else
                     "no passage citing it in the judgments we hold matches the question")
        terms = (f"its text matches the question {features.lexical:g} of the best judgment "
                 f"(rank {features.lexical_rank:,}); {cited_for}; it shares "
                 f"{features.shared_sections:.0%} of the statutes it cites with the "
                 f"{NEIGHBOURS} judgments most like the question; {features.cited_by:,} cases we "
                 f"hold cite it (P(relevant) {probability:g}; cuts "
                 f"{cuts.low:g} / {cuts.high:g})")
        action = {RELEVANT_PRECEDENT: "a precedent for the question",
                  TANGENTIAL: "keep it only as supporting authority; a person should check "
                              "that it applies",
                  NOT_APPLICABLE_PRECEDENT: "it exists but is no precedent for the question: "
                                            "remove this citation"}[verdict]
        return Relevance(verdict, f"{case}: {terms}: {action}.", SOURCE_MODEL, probability)
