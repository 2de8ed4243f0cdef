"""Search over a small document list held in memory: BM25, exact dense, statutes voted by
similar cases or found through the judgment passages citing them, or their fusion.

For benchmark corpora that are not ours to index, such as AILA 2019's 197 statute
descriptions: building Qdrant collections for them would add state to manage and nothing to
measure. The retrievers and fusion are the same ones the statute side uses.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from datetime import date

import numpy as np
import pandas as pd

from nyaya.index.embedders import Embedder
from nyaya.index.store import VectorStore
from nyaya.retrieval.base import Hit
from nyaya.retrieval.bm25 import BM25Retriever, feedback_of
from nyaya.retrieval.case_votes import VOTERS, CaseVotes
from nyaya.retrieval.chunks import SummedChunks
from nyaya.retrieval.citing_contexts import CitingContexts
from nyaya.retrieval.dense import ExactDenseRetriever
from nyaya.retrieval.fusion import cascade, rrf
from nyaya.retrieval.pipeline import ConfigError

RETRIEVERS = ("dense", "sparse", "cases", "contexts")
#: how the judgments that vote are found (`cases: {nearest}`)
NEAREST = ("judgments", "chunks")
FUSIONS = ("rrf", "cascade")


@dataclass
class DocumentResources:
    documents: pd.DataFrame  # doc_id, text
    embedder: Embedder
    #: builds the judgments' votes for the documents (`cases`), once, for a config that asks:
    #: indexing every judgment's text is not for a search session that never votes
    case_votes: Callable[[], CaseVotes] | None = None
    #: builds the judgment passages citing the documents (`contexts`), once, for a config
    #: that asks
    citing_contexts: Callable[[], CitingContexts] | None = None
    #: the judgment chunks' store, for votes whose voters are found by their chunks
    #: (`cases: {nearest: chunks}`)
    store: VectorStore | None = None

    @functools.cached_property
    def votes(self) -> CaseVotes | None:
        return None if self.case_votes is None else self.case_votes()

    @functools.cached_property
    def votes_by_chunks(self) -> CaseVotes:
        """`votes`, the voters found by their three best chunks (`DocumentSearch` checked
        that both exist)."""
        return self.votes.found_by(SummedChunks(self.store))

    @functools.cached_property
    def contexts(self) -> CitingContexts | None:
        return None if self.citing_contexts is None else self.citing_contexts()

    def __post_init__(self) -> None:
        ids, texts = self.documents["doc_id"].tolist(), self.documents["text"].tolist()
        self.bm25 = BM25Retriever(ids, texts)
        self.dense = ExactDenseRetriever(ids, self.embedder.encode(texts))


class DocumentSearch:
    """One config over the documents: `retrievers` from RETRIEVERS; two or more
    are fused by RRF (`fusion: {method: rrf, k, weights}`) or by `cascade` (the first retriever's
    ranking, then what the next ones add). `cases: {voters, nearest}` sets how many similar
    judgments vote and how they are found (`judgments`, BM25 over their whole texts, by
    default; `chunks`, by their three best chunks), `prf: {docs, terms, original}` adds RM3
    feedback to BM25."""

    def __init__(self, name: str, params: Mapping, resources: DocumentResources) -> None:
        self.name, self.resources = name, resources
        self.retrievers = list(params.get("retrievers", []))
        unknown = sorted(set(self.retrievers) - set(RETRIEVERS))
        if not self.retrievers or unknown:
            raise ConfigError(f"config {name}: retrievers must be some of {RETRIEVERS}, "
                              f"got {self.retrievers}")
        fusion = params.get("fusion") or {}
        self.fusion = fusion.get("method")
        if len(self.retrievers) > 1 and self.fusion not in FUSIONS:
            raise ConfigError(f"config {name}: two retrievers need fusion: {{method: one of "
                              f"{', '.join(FUSIONS)}}}")
        if "cases" in self.retrievers and resources is not None and resources.votes is None:
            raise ConfigError(f"config {name}: the cases retriever needs the judgments' "
                              "citations, which these resources lack")
        if "contexts" in self.retrievers and resources is not None and \
                resources.citing_contexts is None:
            raise ConfigError(f"config {name}: the contexts retriever needs the judgments' "
                              "citing passages, which these resources lack")
        self.rrf_k = float(fusion.get("k", 60))
        self.weights = fusion.get("weights")
        self.candidates = int(params.get("candidates", 100))
        cases = params.get("cases") or {}
        self.voters = int(cases.get("voters", VOTERS))
        self.nearest = cases.get("nearest", "judgments")
        if self.nearest not in NEAREST:
            raise ConfigError(f"config {name}: cases: {{nearest: {self.nearest}}} is not one of "
                              f"{', '.join(NEAREST)}")
        if self.nearest == "chunks" and resources is not None and resources.store is None:
            raise ConfigError(f"config {name}: voters found by their chunks need the judgment "
                              "chunks' store, which these resources lack")
        self.feedback = feedback_of(name, params.get("prf"))

    def search(self, text: str, k: int = 10, as_of: date | None = None,
               excluded: Collection[str] = ()) -> list[Hit]:
        """`as_of` is accepted for the runner's one calling convention (these corpora carry
        no dates); `excluded` judgments never vote nor lend their passages (a query's own
        judgment)."""
        runs: dict[str, list[Hit]] = {}
        for retriever in self.retrievers:
            if retriever == "sparse":
                runs[retriever] = self.resources.bm25.search(text, self.candidates,
                                                             feedback=self.feedback)
            elif retriever == "dense":
                query = self.resources.embedder.encode([text])[0].astype(np.float32)
                runs[retriever] = self.resources.dense.search_vector(query, self.candidates)
            elif retriever == "contexts":
                runs[retriever] = self.resources.contexts.search(text, self.candidates, excluded)
            else:
                votes = (self.resources.votes_by_chunks if self.nearest == "chunks" else
                         self.resources.votes)
                runs[retriever] = votes.search(text, self.candidates, self.voters, excluded)
        if len(runs) == 1:
            return next(iter(runs.values()))[:k]
        if self.fusion == "cascade":
            return cascade(runs)[:k]
        return rrf(runs, k=self.rrf_k, weights=self.weights)[:k]
