"""Precedent search over the judgment chunks, kept apart from statute search so one kind never
crowds out the other. Results are judgments (a judgment's best chunk stands for it); the six
methods of KG-CiteRAG (spec 003 sections 6-7) are retrievers, fused by weighted RRF with its
query-adaptive weights.

Config keys: retrievers (dense, sparse, document, entity, graph, date, bench), fusion (as for
statutes, plus `weights: kg-citerag` for the dynamic weights), candidates (depth per
retriever, 20 in the spec), graph_seeds (how many fused dense + sparse judgments seed the
graph expansion), chunks_per_judgment (the evidence list's cap, 2 in the spec), document:
{terms, pairs: {terms, weight}, masked_citations: {words, weight}} (BM25 over whole
judgments, the query cut to its `terms` rarest terms, all of it when absent; with `pairs`,
plus `weight` x BM25 over their adjacent word pairs, the query cut to its `terms` rarest
pairs; with `masked_citations`, plus `weight` x BM25 over the pairs within `words` words of
each masked citation), chunks_summed (a judgment scored by the sum of its best N chunks
instead of its best one: a judgment that matches in several places is likelier cited than
one that matches once).
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import pandas as pd

from nyaya.citations.cases import MASK
from nyaya.index.embedders import Embedder
from nyaya.index.lookups import CitationGraph, EntityIndex
from nyaya.index.sparse import query_vector
from nyaya.index.store import SparseVector, StoreHit, VectorStore, Where
from nyaya.retrieval.base import Hit, ranked
from nyaya.retrieval.bm25 import BM25Retriever
from nyaya.retrieval.chunks import COLLECTION, chunk_depth, judgments_of
from nyaya.retrieval.fusion import rrf
from nyaya.retrieval.pipeline import ConfigError, config_retrievers
from nyaya.retrieval.retrievers import EntityLookup, GraphExpansion, Query

METHODS = ("dense", "sparse", "document", "entity", "graph", "date", "bench")


def kg_citerag_weights(analysis: Any) -> dict[str, float]:
    """The dynamic weights of spec 003 section 7.3.1, in its order: later rules override."""
    weights = {"dense": 0.30, "sparse": 0.30, "graph": 0.20, "entity": 0.20, "date": 0.0,
               "bench": 0.0}
    if analysis.articles or analysis.sections:
        weights.update(entity=0.50, dense=0.20, sparse=0.20, graph=0.10)
    if analysis.years:
        weights.update(date=0.60, dense=0.15, sparse=0.15, graph=0.10)
    if analysis.judges:
        weights.update(bench=0.60, dense=0.15, sparse=0.15, graph=0.10)
    if analysis.case_names:
        weights.update(sparse=0.50, dense=0.25, graph=0.15, entity=0.10)
    return weights


@dataclass
class ChunkRuns:
    """Chunk-level hits per method, and the judgment each chunk belongs to."""

    runs: dict[str, list[Hit]] = field(default_factory=dict)
    owner: dict[str, str] = field(default_factory=dict)

    def add(self, hits: list[StoreHit], method: str) -> None:
        self.runs[method] = [Hit(str(hit.payload["doc_id"]), hit.score, method) for hit in hits]
        self.owner.update((str(hit.payload["doc_id"]), str(hit.payload["judgment_id"]))
                          for hit in hits)


@dataclass(frozen=True)
class Evidence:
    """A judgment as the precedent list shows it, with the chunks that stand for it."""

    judgment_id: str
    score: float
    chunks: tuple[Hit, ...]
    method: str  # the methods that found the judgment, "+"-joined as a fused hit's


@dataclass
class PrecedentResources:
    store: VectorStore
    embedder: Embedder
    analyzer: Any  # nyaya.retrieval.query_analysis.QueryAnalyzer
    entities: EntityIndex
    graph: CitationGraph
    judgments: pd.DataFrame  # doc_id, source, judges
    #: builds BM25 over whole judgments (`document`), once, for a config that asks: indexing
    #: every judgment's text takes about 30 s, which a search session need not pay
    whole_judgments: Callable[[], BM25Retriever] | None = None
    #: builds BM25 over whole judgments' word pairs (`document: {pairs}`), once, for a
    #: config that asks (about 40 s to index, a few to load)
    judgment_pairs: Callable[[], BM25Retriever] | None = None

    @functools.cached_property
    def documents(self) -> BM25Retriever:
        if self.whole_judgments is None:
            raise ConfigError("the document retriever needs the judgments' texts, which these "
                              "resources lack")
        return self.whole_judgments()

    @functools.cached_property
    def pairs(self) -> BM25Retriever:
        if self.judgment_pairs is None:
            raise ConfigError("document: {pairs} and {masked_citations} need the judgments' "
                              "word-pair index, which these resources lack")
        index = self.judgment_pairs()
        if index.doc_ids != self.documents.doc_ids:
            raise ConfigError("the judgments' word-pair index does not hold the judgments "
                              "their word index holds, in its order; rebuild judgment_index")
        return index

    @functools.cached_property
    def _document_sources(self) -> np.ndarray:
        """The source of each of `documents`' judgments, in its order."""
        return np.array([self.source_of.get(doc, "") for doc in self.documents.doc_ids])

    def within(self, sources: tuple[str, ...] | None) -> np.ndarray | None:
        """A mask over `documents`' judgments: those of the given sources (None: all)."""
        return np.isin(self._document_sources, sources) if sources else None

    def __post_init__(self) -> None:
        # a whole judgment as the query (IRLeD) is the slowest text to analyse: once per
        # text, and only for configs that use the analysis
        self.analyze = functools.lru_cache(maxsize=1024)(self.analyzer.analyze)
        self.encoded = functools.lru_cache(maxsize=1024)(self._encode)
        self.source_of = dict(zip(self.judgments["doc_id"], self.judgments["source"],
                                  strict=True))
        self._benches = [(doc, " ".join(judges).lower()) for doc, judges in
                         zip(self.judgments["doc_id"], self.judgments["judges"], strict=True)
                         if judges is not None and len(judges)]

    def _encode(self, text: str) -> tuple[np.ndarray, SparseVector]:
        """A query's dense and sparse vectors: every config of a run asks for them."""
        return self.embedder.encode([text])[0], query_vector(text)

    def judged_by(self, names: tuple[str, ...]) -> list[str]:
        """Judgments whose bench names any of the judges (surname match, case-insensitive)."""
        keys = [name.lower().split()[-1] for name in names]
        return sorted(doc for doc, bench in self._benches if any(key in bench for key in keys))


@dataclass(frozen=True)
class DocumentScoring:
    """A config's `document` retriever: BM25 over whole judgments by their `terms` rarest
    query words, plus `pair_weight` x BM25 by their `pair_terms` rarest word pairs when
    `pairs` (None: every word, every distinct pair), plus `mask_weight` x BM25 by the pairs
    within `mask_words` words of each masked citation when `mask_words`. A pair counts once
    however often the query repeats it: a whole judgment says "high court" dozens of times.
    The words around a masked citation are what the citing judgment says of the case cited
    there, often in that case's own words."""

    terms: int | None = None
    pairs: bool = False
    pair_terms: int | None = None
    pair_weight: float = 1.0
    mask_words: int | None = None
    mask_weight: float = 1.0

    @classmethod
    def of(cls, config: str, spec: Mapping | None) -> DocumentScoring:
        """A config's `document: {terms, pairs: {terms, weight}, masked_citations: {words,
        weight}}`, refused by config name."""
        spec = {} if spec is None else spec
        if not isinstance(spec, Mapping) or set(spec) - {"terms", "pairs", "masked_citations"}:
            raise ConfigError(f"config {config}: document takes terms, pairs and "
                              f"masked_citations, got {spec!r}")
        pairs = _document_part(config, spec, "pairs", "terms")
        masked = _document_part(config, spec, "masked_citations", "words")
        if "masked_citations" in spec and masked.get("words") is None:
            raise ConfigError(f"config {config}: document: {{masked_citations}} needs words, "
                              f"how many words either side of a masked citation to read")
        for key, value, absent in (
                ("document: {terms}", spec.get("terms"), " (all terms when absent)"),
                ("document: {pairs: {terms}}", pairs.get("terms"), " (all terms when absent)"),
                ("document: {masked_citations: {words}}", masked.get("words"), "")):
            if value is not None and (not isinstance(value, int) or isinstance(value, bool)
                                      or value < 1):
                raise ConfigError(f"config {config}: {key} must be a whole number of 1 or "
                                  f"more{absent}, not {value!r}")
        return cls(spec.get("terms"), "pairs" in spec, pairs.get("terms"),
                   _weight(config, "pairs", pairs), masked.get("words"),
                   _weight(config, "masked_citations", masked))

    def search(self, resources: PrecedentResources, text: str, depth: int,
               sources: tuple[str, ...] | None) -> list[Hit]:
        words = resources.documents
        scores = words.scores(text, self.terms)
        if self.pairs:
            pairs = resources.pairs
            scores = scores + self.pair_weight * pairs.scores_of(
                pairs.top_terms(text, self.pair_terms))
        if self.mask_words:
            pairs = resources.pairs
            terms = set().union(*(pairs.top_terms(context, None) for context
                                  in masked_contexts(text, self.mask_words)))
            scores = scores + self.mask_weight * pairs.scores_of(sorted(terms))
        return [Hit(hit.doc_id, hit.score, "document")
                for hit in words.best(scores, depth, resources.within(sources))]


def _document_part(config: str, spec: Mapping, part: str, count: str) -> Mapping:
    """`document: {<part>: {<count>, weight}}`, empty when absent."""
    value = spec.get(part)
    if value is not None and (not isinstance(value, Mapping) or set(value) - {count, "weight"}):
        raise ConfigError(f"config {config}: document: {{{part}}} takes {count} and weight, "
                          f"got {value!r}")
    return value or {}


def _weight(config: str, part: str, spec: Mapping) -> float:
    weight = spec.get("weight", 1.0)
    if not isinstance(weight, int | float) or isinstance(weight, bool) or weight <= 0:
        raise ConfigError(f"config {config}: document: {{{part}: {{weight}}}} must be a "
                          f"positive number, not {weight!r}")
    return float(weight)


def masked_contexts(text: str, words: int) -> list[str]:
    """The `words` words before and after each masked citation ([?CITATION?], as IRLeD and the
    development sets mask them), each side a text of its own so that no word pair spans a
    mask; none for a text without masks."""
    contexts = []
    for before, after in itertools.pairwise(side.split() for side in MASK.split(text)):
        contexts += [" ".join(before[-words:]), " ".join(after[:words])]
    return contexts


class PrecedentSearch:
    """One config over the sc_judgments collection, within a pool of sources."""

    def __init__(self, name: str, params: Mapping, resources: PrecedentResources) -> None:
        retrievers = config_retrievers(name, params)
        unknown = [r for r in retrievers if r not in METHODS]
        if unknown:
            raise ConfigError(f"config {name}: unknown precedent retrievers {unknown} "
                              f"(expected some of {METHODS})")
        self.name, self.params, self.resources = name, params, resources
        self.summed = int(params.get("chunks_summed", 1))
        if self.summed < 1:
            raise ConfigError(f"config {name}: chunks_summed must be 1 or more, not "
                              f"{params['chunks_summed']!r}")
        self.uses_analysis = bool({"entity", "date", "bench"} & set(retrievers)) or \
            params.get("fusion", {}).get("weights") == "kg-citerag"
        self.document = DocumentScoring.of(name, params.get("document"))

    def search(self, text: str, k: int = 3, sources: tuple[str, ...] | None = None,
               excluded: Collection[str] = ()) -> list[Hit]:
        """The top-k judgments (3 by default, as the served system shows them), each ranked
        where its best chunk puts it. `excluded` judgments (a development query's own) may
        still be ranked, for the caller to drop, but never seed the graph expansion: their
        neighbours are the citations the query was made by masking."""
        runs, _, query = self._retrieve(text, sources, excluded)
        return self._fuse(runs, query.analysis)[:k]

    def evidence(self, text: str, k: int = 3, sources: tuple[str, ...] | None = None
                 ) -> list[Evidence]:
        """What a model would read: the top-k judgments of `search`, each with at most
        `chunks_per_judgment` (2, spec 003's de-duplication) of its chunks, best first: the
        chunks the dense and sparse branches found (fused by RRF), then, for a judgment only
        the entity, graph or bench methods found, its chunks nearest the query."""
        runs, chunk_runs, query = self._retrieve(text, sources)
        per = int(self.params.get("chunks_per_judgment", 2))
        chunks: dict[str, list[Hit]] = {}
        for hit in rrf(chunk_runs.runs) if chunk_runs.runs else []:
            judgment = chunk_runs.owner[hit.doc_id]
            if len(chunks.setdefault(judgment, [])) < per:
                chunks[judgment].append(hit)
        found = []
        for hit in self._fuse(runs, query.analysis)[:k]:
            best = chunks.get(hit.doc_id) or [
                Hit(str(h.payload["doc_id"]), h.score, "dense") for h in
                self.resources.store.search_dense(COLLECTION, query.dense, per,
                                                  {"judgment_id": [hit.doc_id]})]
            found.append(Evidence(hit.doc_id, hit.score, tuple(best), hit.method))
        return found

    def _retrieve(self, text: str, sources: tuple[str, ...] | None,
                  excluded: Collection[str] = ()
                  ) -> tuple[dict[str, list[Hit]], ChunkRuns, Query]:
        """Judgment runs per method, the chunk runs of the dense and sparse branches, and the
        query (its analysis None when no method of the config needs it)."""
        resources = self.resources
        analysis = resources.analyze(text) if self.uses_analysis else None
        query = Query(text, *resources.encoded(text), analysis)
        depth = int(self.params.get("candidates", 20))
        pool: Where = {"source": list(sources)} if sources else {}
        runs: dict[str, list[Hit]] = {}
        chunk_runs = ChunkRuns()
        wanted = self.params["retrievers"]
        if "dense" in wanted:
            runs["dense"] = self._dense(query.dense, depth, pool, chunk_runs=chunk_runs)
        if "sparse" in wanted and query.sparse[0]:
            hits = resources.store.search_sparse(COLLECTION, *query.sparse,
                                                 chunk_depth(depth, self.summed), pool or None)
            chunk_runs.add(hits, "sparse")
            runs["sparse"] = judgments_of(hits, "sparse", self.summed)[:depth]
        if "document" in wanted:
            runs["document"] = self.document.search(resources, text, depth, sources)
        if "entity" in wanted:
            runs["entity"] = self._in_pool(EntityLookup(resources.entities).search(
                query, depth * 5), sources)[:depth]
        if "date" in wanted and analysis and analysis.years:
            runs["date"] = self._dense(query.dense, depth,
                                       {**pool, "year": [int(y) for y in analysis.years]},
                                       "date")
        if "bench" in wanted and analysis and analysis.judges:
            judged = [doc for doc in resources.judged_by(analysis.judges)
                      if not sources or resources.source_of.get(doc) in sources]
            runs["bench"] = self._dense(query.dense, depth, {**pool, "judgment_id": judged},
                                        "bench") if judged else []
        if "graph" in wanted:
            seeds = [hit for hit in rrf({n: runs[n] for n in ("dense", "sparse") if n in runs})
                     if hit.doc_id not in excluded]
            seeded = Query(text, query.dense, query.sparse, analysis, seeds=tuple(
                hit.doc_id for hit in seeds[:int(self.params.get("graph_seeds", 5))]))
            runs["graph"] = self._in_pool(GraphExpansion(resources.graph).search(
                seeded, depth * 5), sources)[:depth]
        return runs, chunk_runs, query

    def _dense(self, vector: np.ndarray, depth: int, where: Where, method: str = "dense",
               chunk_runs: ChunkRuns | None = None) -> list[Hit]:
        hits = self.resources.store.search_dense(COLLECTION, vector,
                                                 chunk_depth(depth, self.summed), where or None)
        if chunk_runs is not None:
            chunk_runs.add(hits, method)
        return judgments_of(hits, method, self.summed)[:depth]

    def _in_pool(self, hits: list[Hit], sources: tuple[str, ...] | None) -> list[Hit]:
        if not sources:
            return hits
        return [hit for hit in hits if self.resources.source_of.get(hit.doc_id) in sources]

    def _fuse(self, runs: dict[str, list[Hit]], analysis: Any) -> list[Hit]:
        runs = {name: hits for name, hits in runs.items() if hits}
        if not runs:
            return []
        if len(runs) == 1:
            return ranked(next(iter(runs.values())))
        spec = self.params.get("fusion", {})
        weights = spec.get("weights")
        if weights == "kg-citerag":
            dynamic = kg_citerag_weights(analysis)
            weights = {name: dynamic[name] for name in runs}
        return rrf(runs, float(spec.get("k", 60)), weights, spec.get("convention", "classic"))
