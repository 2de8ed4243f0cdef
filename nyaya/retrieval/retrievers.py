"""Retrievers behind one interface: a query (text, its analysis, its vectors) in, ranked hits
that name their method out. Each wraps one index built by the index stage."""

from __future__ import annotations

import json
from collections.abc import Callable, MutableMapping, Sequence
from dataclasses import dataclass, field
from datetime import date
from typing import Any, Protocol

import numpy as np

from nyaya.index.faiss_index import search as faiss_search
from nyaya.index.lookups import CitationGraph, EntityIndex
from nyaya.index.store import NaiveFeedback, ScoreBoost, StoreHit, VectorStore, Where
from nyaya.retrieval.base import Hit, ranked
from nyaya.retrieval.bm25 import BM25Retriever, Feedback
from nyaya.retrieval.case_votes import CaseVotes
from nyaya.retrieval.citing_contexts import CitingContexts
from nyaya.retrieval.section_encoder import SectionEncoder


@dataclass(frozen=True)
class Query:
    """A query as every retriever sees it; vectors are computed once per query."""

    text: str
    dense: np.ndarray
    sparse: tuple[list[int], list[float]]
    analysis: Any  # nyaya.retrieval.query_analysis.QueryAnalysis
    as_of: date | None = None  # date of the conduct asked about; None: today
    seeds: tuple[str, ...] = field(default=())  # judgment doc ids found by earlier stages
    excluded: frozenset[str] = frozenset()  # judgments that never vote (the query's own)


class Retriever(Protocol):
    name: str

    def search(self, query: Query, k: int) -> list[Hit]: ...


def _store_hits(hits: Sequence[StoreHit], method: str, id_field: str) -> list[Hit]:
    return [Hit(str(hit.payload[id_field]), hit.score, method) for hit in hits]


@dataclass
class StoreDense:
    store: VectorStore
    collection: str
    where: Where | None = None
    id_field: str = "doc_id"
    name: str = "dense"

    def search(self, query: Query, k: int) -> list[Hit]:
        hits = self.store.search_dense(self.collection, query.dense, k, self.where)
        return _store_hits(hits, self.name, self.id_field)


@dataclass
class StoreSparse:
    store: VectorStore
    collection: str
    where: Where | None = None
    id_field: str = "doc_id"
    name: str = "sparse"

    def search(self, query: Query, k: int) -> list[Hit]:
        indices, values = query.sparse
        if not indices:
            return []
        hits = self.store.search_sparse(self.collection, indices, values, k, self.where)
        return _store_hits(hits, self.name, self.id_field)


@dataclass
class StoreHybrid:
    """Dense + BM25 fused inside Qdrant; weights, boost and MMR may depend on the query."""

    store: VectorStore
    collection: str
    rrf_k: int
    weights: Callable[[Query], tuple[float, float] | None] = lambda query: None
    boost: Callable[[Query], ScoreBoost | None] = lambda query: None
    mmr_diversity: float | None = None
    prefetch_k: int = 100
    where: Where | None = None
    id_field: str = "doc_id"
    name: str = "qdrant-hybrid"

    def search(self, query: Query, k: int) -> list[Hit]:
        hits = self.store.hybrid(self.collection, query.dense, query.sparse, k,
                                 prefetch_k=self.prefetch_k, where=self.where,
                                 rrf_k=self.rrf_k, weights=self.weights(query),
                                 boost=self.boost(query), mmr_diversity=self.mmr_diversity)
        return _store_hits(hits, self.name, self.id_field)


#: First passes a feedback memo keeps (oldest dropped first): a grid search's training queries
#: fit many times over
FEEDBACK_MEMO_SIZE = 4096


@dataclass
class StoreFeedback:
    """Dense search steered by relevance feedback inside Qdrant: the top `examples` dense
    hits are scored by a feedback model, here the lexical branch (each example's BM25 score
    for the query, divided by the best of them), and the engine's naive feedback query
    searches the whole collection again with coefficients a, b, c (fitted on training
    queries, evals/tuning.py). No example scored above zero leaves plain dense search.
    `memo`, shared by the retrievers of one set of resources, keeps the first pass, which does
    not depend on a, b, c: a grid over them runs it once per query."""

    store: VectorStore
    collection: str
    vector_of: Callable[[str], np.ndarray]
    examples: int = 5
    a: float = 1.0
    b: float = 1.0
    c: float = 0.0
    where: Where | None = None
    id_field: str = "doc_id"
    name: str = "dense-feedback"
    memo: MutableMapping[tuple, tuple[tuple[str, float], ...]] | None = None

    def search(self, query: Query, k: int) -> list[Hit]:
        lexical = self._first_pass(query)
        best = max((score for _, score in lexical), default=0.0)
        if best <= 0 or self.c == 0:
            hits = self.store.search_dense(self.collection, query.dense, k, self.where)
            return _store_hits(hits, self.name, self.id_field)
        feedback = NaiveFeedback(tuple((self.vector_of(doc), score / best)
                                       for doc, score in lexical), self.a, self.b, self.c)
        hits = self.store.search_feedback(self.collection, query.dense, feedback, k, self.where)
        return _store_hits(hits, self.name, self.id_field)

    def _first_pass(self, query: Query) -> tuple[tuple[str, float], ...]:
        """The top dense examples, in rank order, with their lexical scores (0 unmatched)."""
        key = (self.collection, self.examples, self.id_field,
               json.dumps(self.where, sort_keys=True, default=str), query.dense.tobytes(),
               tuple(query.sparse[0]), tuple(query.sparse[1]))
        if self.memo is not None and key in self.memo:
            return self.memo[key]
        first = self.store.search_dense(self.collection, query.dense, self.examples, self.where)
        docs = [str(hit.payload[self.id_field]) for hit in first]
        lexical = dict.fromkeys(docs, 0.0)
        if docs and query.sparse[0]:
            judged = self.store.search_sparse(self.collection, *query.sparse, len(docs),
                                              {**(self.where or {}), self.id_field: docs})
            lexical.update((str(h.payload[self.id_field]), h.score) for h in judged)
        found = tuple(lexical.items())
        if self.memo is not None:
            if len(self.memo) >= FEEDBACK_MEMO_SIZE:
                del self.memo[next(iter(self.memo))]
            self.memo[key] = found
        return found


@dataclass
class FaissDense:
    """Dense search over a FAISS index of all rows; rows outside `allowed` (e.g. repealed
    sections) are skipped by fetching deeper until k allowed rows are found."""

    index: Any  # a loaded faiss index
    doc_ids: Sequence[str]
    allowed: Sequence[bool] | None = None
    name: str = "faiss-dense"

    def search(self, query: Query, k: int) -> list[Hit]:
        depth = k
        while True:
            scores, rows = faiss_search(self.index, query.dense[None, :], depth)
            found = [(float(score), int(row)) for score, row in zip(scores[0], rows[0],
                                                                    strict=True)
                     if row >= 0 and (self.allowed is None or self.allowed[row])]
            if len(found) >= k or depth >= len(self.doc_ids):
                return ranked(Hit(self.doc_ids[row], score, self.name)
                              for score, row in found)[:k]
            depth = min(depth * 4, len(self.doc_ids))


@dataclass
class EncodedDense:
    """Dense search with the section encoder trained on the corpus: the query is encoded by
    the same model (not the configured embedder) and scanned exactly over the sections
    `allowed` marks (aligned with the encoder's)."""

    encoder: SectionEncoder
    allowed: Sequence[bool]
    name: str = "dense-trained"

    def __post_init__(self) -> None:
        self._exact = self.encoder.retriever(self.allowed, self.name)

    def search(self, query: Query, k: int) -> list[Hit]:
        return self._exact.search_vector(self.encoder.encode([query.text])[0], k)


@dataclass
class Bm25:
    retriever: BM25Retriever
    name: str = "bm25"
    feedback: Feedback | None = None  # RM3, when the config asks (`prf`)

    def search(self, query: Query, k: int) -> list[Hit]:
        return [Hit(hit.doc_id, hit.score, self.name)
                for hit in self.retriever.search(query.text, k, feedback=self.feedback)]


@dataclass
class SectionLookup:
    """The provisions a query names, by exact act_code + section_number payload match: no
    embedding, so a named section is never missed or confused with a neighbour."""

    store: VectorStore
    collection: str
    name: str = "section-lookup"

    def search(self, query: Query, k: int) -> list[Hit]:
        hits: list[Hit] = []
        seen: set[str] = set()
        refs = query.analysis.sections
        for position, ref in enumerate(refs):
            for found in self.store.lookup(self.collection, {
                    "act_code": ref.act_code, "section_number": ref.section}, limit=5):
                doc_id = str(found.payload["doc_id"])
                if doc_id not in seen:
                    seen.add(doc_id)
                    # named first ranks first; scores stay above any fused score
                    hits.append(Hit(doc_id, float(len(refs) - position), self.name))
        return hits[:k]


@dataclass
class EntityLookup:
    """Judgments that cite a provision the query names (Article / Section / Act)."""

    index: EntityIndex
    name: str = "entity"

    def search(self, query: Query, k: int) -> list[Hit]:
        scores: dict[str, float] = {}
        analysis = query.analysis
        keys = [(ref.act_code, ref.section) for ref in analysis.sections]
        keys += [("COI", article) for article in analysis.articles]
        for act, section in keys:
            entry = self.index.section(act, section)
            for doc in entry.doc_ids if entry else ():
                scores[doc] = scores.get(doc, 0.0) + 1.0
        for act in analysis.acts:
            entry = self.index.act(act)
            for doc in entry.doc_ids if entry else ():
                scores[doc] = scores.get(doc, 0.0) + 0.5
        return ranked(Hit(doc, score, self.name) for doc, score in scores.items())[:k]


@dataclass
class GraphExpansion:
    """Citation neighbours of the judgments earlier stages found, by PageRank; the landmark
    cases when there are none."""

    graph: CitationGraph
    name: str = "graph"

    def search(self, query: Query, k: int) -> list[Hit]:
        found = (self.graph.neighbours(list(query.seeds), limit=k) if query.seeds
                 else self.graph.landmarks(limit=k))
        hits: dict[str, float] = {}
        for neighbour in found:
            for doc in neighbour.doc_ids:
                hits.setdefault(doc, neighbour.pagerank)
        return ranked(Hit(doc, score, self.name) for doc, score in hits.items())[:k]


@dataclass
class CaseVoting:
    """Sections voted for by the judgments nearest the query (nyaya.retrieval.case_votes),
    within the sections `keep` allows; the query's `excluded` judgments never vote."""

    votes: CaseVotes
    voters: int
    keep: Callable[[str], bool]
    name: str = "cases"

    def search(self, query: Query, k: int) -> list[Hit]:
        return self.votes.search(query.text, k, self.voters, query.excluded, self.keep)


@dataclass
class ContextVoting:
    """Sections scored by the judgment passages that cite them (nyaya.retrieval.
    citing_contexts), within the sections `keep` allows; the query's `excluded` judgments'
    passages never count."""

    contexts: CitingContexts
    keep: Callable[[str], bool]
    name: str = "contexts"

    def search(self, query: Query, k: int) -> list[Hit]:
        return self.contexts.search(query.text, k, query.excluded, self.keep)
