"""A retrieval configuration, run: retrievers, fusion, then the post-fusion stages, in the
order the config gives. Every config in `evals/configs/` goes through `StatuteSearch`, so two
configs differ only in their parameters, never in code paths.

Config keys (all but `retrievers` optional):
  retrievers: [dense, sparse, bm25, faiss-flat, faiss-hnsw, dense-feedback, qdrant-hybrid,
               cases, contexts, dense-trained] fused when more than one
                                (dense-trained: the section encoder trained on the corpus,
                                nyaya.retrieval.section_encoder)
  cases: {voters: 20}           sections cited by the judgments nearest the query
                                (`contexts`: by the judgment passages that cite them)
  prf: {docs: 10, terms: 20, original: 0.5}   RM3 feedback for the bm25 retriever
  feedback: {examples: 5, a, b, c}   relevance feedback (dense-feedback), c: tuned to fit
  fusion: {method: rrf|cascade|wsum|combsum|combmnz|combmax, k, convention: classic|qdrant,
           norm, weights: {retriever: w}, weights_by_query_type: {type: {retriever: w}}}
  hybrid: {rrf_k, weights_by_query_type, boost: true, mmr_diversity, prefetch_k}
  section_lookup: true          named provisions first, by exact payload match
  boost: true                   spec 001's formula on the fused scores
  mmr_diversity: 0.3
  group_by: {field: act_code, size: 2}
  cross_references: {max_added: 5, hops: 1}
  definitions: {max_added: 3, scan: 10}   the Act's definitions for terms the top hits use
  rerank: {depth: 100}          the fused top `depth` reordered by the trained section ranker
                                (nyaya.verify.ranker); the rest follow in fused order
  include_repealed: false       search repealed IPC / CrPC / IEA sections too
  legal_terms: true             the statutes' words added for what a question asks in plain
                                words (nyaya.retrieval.legal_terms)
  candidates: 100               depth of each retriever before fusion
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any, Protocol, TypeVar

import numpy as np
import pandas as pd

from nyaya.index import faiss_index
from nyaya.index.embedders import Embedder
from nyaya.index.sparse import query_vector
from nyaya.index.store import ScoreBoost, SparseVector, VectorStore
from nyaya.retrieval import postprocess
from nyaya.retrieval.base import Hit
from nyaya.retrieval.bm25 import BM25Retriever, feedback_of
from nyaya.retrieval.case_votes import VOTERS, CaseVotes
from nyaya.retrieval.citing_contexts import CitingContexts
from nyaya.retrieval.fusion import cascade, rrf, score_fusion
from nyaya.retrieval.legal_terms import load_legal_terms
from nyaya.retrieval.retrievers import (
    Bm25,
    CaseVoting,
    ContextVoting,
    EncodedDense,
    FaissDense,
    Query,
    Retriever,
    SectionLookup,
    StoreDense,
    StoreFeedback,
    StoreHybrid,
    StoreSparse,
)
from nyaya.retrieval.section_encoder import SectionEncoder
from nyaya.statutes.registry import NAVEEN_SANHITAS

COLLECTION = "legal_sections"
Built = TypeVar("Built")
RERANK_DEPTH = 100
NEW_CODES_FROM = date(2024, 7, 1)  # BNS, BNSS and BSA in force
CRIMINAL_TYPES = ("criminal_offence",)
# dense:sparse weights by query type, named so configs can share one table (spec 001 s. 5.1)
WEIGHT_TABLES: dict[str, dict[str, dict[str, float]]] = {
    "spec001": {
        "section_lookup": {"dense": 1.0, "sparse": 4.0},
        "criminal_offence": {"dense": 2.0, "sparse": 1.5},
        "civil_conceptual": {"dense": 3.0, "sparse": 1.0},
        "procedural": {"dense": 2.0, "sparse": 1.0},
        "old_statute_reference": {"dense": 1.0, "sparse": 3.0},
        "default": {"dense": 2.0, "sparse": 1.0},
    },
}


class Reranker(Protocol):
    """Reorders a query's fused candidates (`rerank`: nyaya.verify.ranker.SectionRanker)."""

    def rerank(self, query: Query, hits: Sequence[Hit]) -> list[Hit]: ...


class ConfigError(ValueError):
    """A config names something that does not exist; the message names the config and key."""


def config_retrievers(name: str, params: Mapping) -> list[str]:
    """The config's `retrievers`, refused by config name when absent or not a list of names
    (params["retrievers"] would raise a bare KeyError; a string would iterate letters)."""
    retrievers = params.get("retrievers")
    if not isinstance(retrievers, list) or not retrievers or not all(
            isinstance(retriever, str) for retriever in retrievers):
        raise ConfigError(f"config {name}: no retrievers: 'retrievers' must be a non-empty "
                          f"list of retriever names, got {retrievers!r}")
    return retrievers


def boost_rule(query_type: str, as_of: date | None) -> ScoreBoost:
    """Spec 001's production formula: score x (0.7 + 0.3 x extraction_confidence), +0.15 for
    the new codes when the conduct is on or after 2024-07-01, +0.10 for offence sections on
    criminal queries."""
    bonuses: list[tuple[str, Any, float]] = []
    if as_of is None or as_of >= NEW_CODES_FROM:
        bonuses.append(("era", NAVEEN_SANHITAS, 0.15))
    if query_type in CRIMINAL_TYPES:
        bonuses.append(("is_offence", True, 0.10))
    return ScoreBoost("extraction_confidence", 0.7, 0.3, 1.0, tuple(bonuses))


@dataclass
class StatuteResources:
    """What the statute search reads: the store, the embedder, the query analyzer, and the
    section documents with their vectors (for payloads, BM25, offline MMR)."""

    store: VectorStore
    embedder: Embedder
    analyzer: Any  # nyaya.retrieval.query_analysis.QueryAnalyzer
    documents: pd.DataFrame  # the legal_sections_documents table
    vectors: np.ndarray  # aligned with documents
    cross_references: postprocess.CrossReferences
    definitions: postprocess.Definitions
    faiss_dir: Path | None = None  # where the legal_sections FAISS indexes are
    #: builds the judgments' votes for sections (`cases`), once, for a config that asks: the
    #: index of every judgment's text takes about 30 s, which a search session need not pay
    case_votes: Callable[[], CaseVotes] | None = None
    #: builds the index of the passages citing sections (`contexts`), once, for a config that
    #: asks (about 15 s)
    citing_contexts: Callable[[], CitingContexts] | None = None
    #: builds the trained reranker over these resources (`rerank`), once, when a config asks
    ranker: Callable[[StatuteResources], Reranker] | None = None
    #: loads the section encoder trained on the corpus (`dense-trained`), once, for a config
    #: that asks
    section_encoder: Callable[[], SectionEncoder] | None = None

    def __post_init__(self) -> None:
        self.row_of = {doc: i for i, doc in enumerate(self.documents["doc_id"])}
        self.text_of = dict(zip(self.documents["doc_id"], self.documents["text"], strict=True))
        self._payloads = self.documents.drop(columns=["text"]).to_dict("records")
        self._bm25: dict[bool, BM25Retriever] = {}
        # every config of a run asks for the same query's vectors and analysis
        self.encoded = functools.lru_cache(maxsize=4096)(self._encode)
        self.analyzed = functools.lru_cache(maxsize=4096)(self.analyzer.analyze)
        self.feedback_memo: dict[tuple, tuple[tuple[str, float], ...]] = {}

    def _encode(self, text: str) -> tuple[np.ndarray, SparseVector]:
        """A query's dense and sparse vectors (its analysis: `analyzed`)."""
        return self.embedder.encode([text])[0], query_vector(text)

    def payload(self, doc_id: str) -> Mapping:
        return self._payloads[self.row_of[doc_id]]

    def vector(self, doc_id: str) -> np.ndarray:
        return self.vectors[self.row_of[doc_id]]

    def faiss(self, kind: str) -> Any:
        """A FAISS index of the sections, refused unless built from these very vectors."""
        if self.faiss_dir is None:
            raise ConfigError("no FAISS folder given: the faiss retrievers need one")
        expect = faiss_index.IndexMeta(kind, self.embedder.fingerprint, self.vectors.shape[1],
                                       len(self.vectors), faiss_index.vectors_hash(self.vectors),
                                       faiss_index.ids_hash(self.documents["doc_id"].tolist()),
                                       {})
        index, _ = faiss_index.load(self.faiss_dir, f"{COLLECTION}.{kind}", expect)
        return index

    @functools.cached_property
    def votes(self) -> CaseVotes:
        return _built(self.case_votes, "the cases retriever needs the judgments' citations")

    @functools.cached_property
    def contexts(self) -> CitingContexts:
        return _built(self.citing_contexts,
                      "the contexts retriever needs the judgments' citing passages")

    @functools.cached_property
    def encoder(self) -> SectionEncoder:
        return _built(self.section_encoder,
                      "the dense-trained retriever needs the trained section encoder")

    @functools.cached_property
    def reranker(self) -> Reranker:
        return _built(self.ranker and functools.partial(self.ranker, self),
                      "a config that reranks needs the trained section ranker")

    def bm25(self, include_repealed: bool) -> BM25Retriever:
        if include_repealed not in self._bm25:
            docs = self.documents[_searchable(self.documents, include_repealed)]
            self._bm25[include_repealed] = BM25Retriever(docs["doc_id"].tolist(),
                                                         docs["text"].tolist())
        return self._bm25[include_repealed]


def _built(loader: Callable[[], Built] | None, needs: str) -> Built:
    """What an optional loader of the resources gives, loaded when a config first asks;
    ConfigError saying what `needs` it when the resources have none."""
    if loader is None:
        raise ConfigError(f"{needs}, which these resources lack")
    return loader()


def _searchable(documents: pd.DataFrame, include_repealed: bool) -> pd.Series:
    statuses = ["in_force", "repealed"] if include_repealed else ["in_force"]
    return documents["status"].isin(statuses)


def _weights_for(spec: Mapping, query_type: str) -> dict[str, float] | None:
    by_type = spec.get("weights_by_query_type")
    if isinstance(by_type, str):
        if by_type not in WEIGHT_TABLES:
            raise ConfigError(f"unknown weight table {by_type!r}; expected {list(WEIGHT_TABLES)}")
        by_type = WEIGHT_TABLES[by_type]
    if by_type:
        return dict(by_type.get(query_type, by_type["default"]))
    return dict(spec["weights"]) if spec.get("weights") else None


class StatuteSearch:
    """One config over the legal_sections collection."""

    def __init__(self, name: str, params: Mapping, resources: StatuteResources) -> None:
        self.name = name
        self.params = params
        self.resources = resources
        self.depth = int(params.get("candidates", 100))  # of each retriever before fusion
        rerank = params.get("rerank")
        if rerank is not None and not isinstance(rerank, Mapping):
            raise ConfigError(f"config {name}: 'rerank' must be a mapping such as "
                              f"{{depth: {RERANK_DEPTH}}}, got {rerank!r}")
        if rerank is not None and resources.ranker is None:
            raise ConfigError(f"config {name} reranks, but these resources have no trained "
                              "section ranker")
        legal_terms = params.get("legal_terms", False)
        if not isinstance(legal_terms, bool):
            raise ConfigError(f"config {name}: 'legal_terms' must be true or false, got "
                              f"{legal_terms!r}")
        self.legal_terms = load_legal_terms() if legal_terms else None
        include_repealed = bool(params.get("include_repealed", False))
        where = None if include_repealed else {"status": "in_force"}
        # what expansions may add: the retrievers' own universe, so a cross-reference from
        # an in-force section never brings a repealed IPC / CrPC / IEA one back in
        documents = resources.documents
        self.searchable = frozenset(documents.loc[_searchable(documents, include_repealed),
                                                  "doc_id"].tolist())
        self.retrievers: dict[str, Retriever] = {}
        for retriever in config_retrievers(name, params):
            self.retrievers[retriever] = self._retriever(retriever, where, include_repealed)
        self.lookup = (SectionLookup(resources.store, COLLECTION)
                       if params.get("section_lookup") else None)

    def _retriever(self, name: str, where: dict | None, include_repealed: bool) -> Retriever:
        resources = self.resources
        if name == "dense":
            return StoreDense(resources.store, COLLECTION, where)
        if name == "sparse":
            return StoreSparse(resources.store, COLLECTION, where)
        if name == "bm25":
            return Bm25(resources.bm25(include_repealed),
                        feedback=feedback_of(self.name, self.params.get("prf")))
        if name.startswith("faiss-"):
            kind = name.removeprefix("faiss-")
            return FaissDense(resources.faiss(kind), resources.documents["doc_id"].tolist(),
                              _searchable(resources.documents, include_repealed).tolist(), name)
        if name == "dense-feedback":
            spec = self.params.get("feedback", {})
            return StoreFeedback(resources.store, COLLECTION, resources.vector,
                                 int(spec.get("examples", 5)), float(spec.get("a", 1.0)),
                                 float(spec.get("b", 1.0)), float(spec.get("c", 0.0)), where,
                                 memo=resources.feedback_memo)
        if name == "cases":
            return CaseVoting(resources.votes, int((self.params.get("cases") or {}).get(
                "voters", VOTERS)), self.searchable.__contains__)
        if name == "contexts":
            return ContextVoting(resources.contexts, self.searchable.__contains__)
        if name == "dense-trained":
            return EncodedDense(resources.encoder, [doc in self.searchable
                                                    for doc in resources.encoder.doc_ids])
        if name == "qdrant-hybrid":
            spec = self.params.get("hybrid", {})
            return StoreHybrid(
                resources.store, COLLECTION, rrf_k=int(spec.get("rrf_k", 61)),
                weights=lambda q: _pair(_weights_for(spec, q.analysis.query_type)),
                boost=lambda q: (boost_rule(q.analysis.query_type, q.as_of)
                                 if spec.get("boost") else None),
                mmr_diversity=spec.get("mmr_diversity"),
                prefetch_k=int(spec.get("prefetch_k", 100)), where=where)
        raise ConfigError(f"config {self.name}: unknown retriever {name!r} (expected dense, "
                          "sparse, bm25, faiss-flat, faiss-hnsw, dense-feedback, "
                          "qdrant-hybrid, cases, contexts or dense-trained)")

    def query(self, text: str, as_of: date | None = None, excluded: Collection[str] = ()
              ) -> Query:
        """The question as the retrievers read it: its text and vectors with `law_words`
        added; its analysis that of the question as asked."""
        searched = " ".join([text, *self.law_words(text)])
        dense, sparse = self.resources.encoded(searched)
        return Query(searched, dense, sparse, self.resources.analyzed(text), as_of=as_of,
                     excluded=frozenset(excluded))

    def law_words(self, text: str) -> list[str]:
        """What `legal_terms` adds to a question asked in plain words: nothing without it,
        for a passage, or for a question that names a provision (the lookup answers that
        one, and added words only pull the rest away from it)."""
        if self.legal_terms is None:
            return []
        return self.legal_terms.for_question(text, self.resources.analyzed(text))

    def search(self, text: str, k: int = 5, as_of: date | None = None,
               excluded: Collection[str] = ()) -> list[Hit]:
        """The top-k sections (5 by default, as the served system shows them); `excluded`
        judgments never vote (`cases`)."""
        query = self.query(text, as_of, excluded)
        hits = self.candidates(query)
        if self.params.get("rerank") is not None:
            hits = self._reranked(query, hits)
        if self.params.get("boost"):
            hits = postprocess.boost(hits, boost_rule(query.analysis.query_type, as_of),
                                     self.resources.payload)
        if self.params.get("mmr_diversity") is not None:
            hits = postprocess.mmr(hits, query.dense, self.resources.vector,
                                   float(self.params["mmr_diversity"]), self.depth)
        if self.params.get("group_by"):
            spec = self.params["group_by"]
            hits = postprocess.group_by(
                hits, lambda doc: self.resources.payload(doc)[spec["field"]], int(spec["size"]))
        if self.params.get("cross_references"):
            spec = self.params["cross_references"]
            hits = self.resources.cross_references.expand(
                hits[:k], int(spec.get("max_added", 5)), int(spec.get("hops", 1)),
                self.searchable.__contains__)
        if self.params.get("definitions"):
            spec = self.params["definitions"]
            hits = self.resources.definitions.expand(
                hits[:k], self.resources.text_of.__getitem__, self.searchable.__contains__,
                int(spec.get("max_added", 3)), int(spec.get("scan", 10)))
        if self.lookup is not None:
            named = self.lookup.search(query, k)
            top = max((hit.score for hit in hits), default=0.0)
            first = [Hit(h.doc_id, top + h.score, h.method) for h in named]
            hits = first + [hit for hit in hits if hit.doc_id not in
                            {h.doc_id for h in named}]
        return hits[:k]

    def candidates(self, query: Query) -> list[Hit]:
        """The retrievers' hits, fused: what the later stages (and a reranker) work on."""
        runs = {name: retriever.search(query, self.depth)
                for name, retriever in self.retrievers.items()}
        return self._fuse(runs, query.analysis.query_type)

    def _reranked(self, query: Query, hits: list[Hit]) -> list[Hit]:
        """The top `rerank.depth` in the ranker's order, then the rest in fused order with
        scores below every reranked one."""
        depth = int(self.params["rerank"].get("depth", RERANK_DEPTH))
        top = self.resources.reranker.rerank(query, hits[:depth])
        floor = min((hit.score for hit in top), default=0.0)
        return top + [Hit(hit.doc_id, floor - i, hit.method)
                      for i, hit in enumerate(hits[depth:], 1)]

    def _fuse(self, runs: dict[str, list[Hit]], query_type: str) -> list[Hit]:
        if len(runs) == 1:
            return next(iter(runs.values()))
        spec = self.params.get("fusion", {})
        method = spec.get("method", "rrf")
        weights = _weights_for(spec, query_type)
        if method == "rrf":
            return rrf(runs, float(spec.get("k", 60)), weights,
                       spec.get("convention", "classic"))
        if method == "cascade":
            return cascade(runs)
        return score_fusion(runs, method, spec.get("norm", "min-max"), weights)


def _pair(weights: dict[str, float] | None) -> tuple[float, float] | None:
    """Per-branch weights for the engine's (dense, sparse) prefetches."""
    return (weights["dense"], weights["sparse"]) if weights else None
