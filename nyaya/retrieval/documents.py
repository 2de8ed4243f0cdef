"""Search over a small document list held in memory: BM25, exact dense, or their fusion.

For benchmark corpora that are not ours to index, such as AILA 2019's 197 statute
descriptions: building Qdrant collections for them would add state to manage and nothing to
measure. The retrievers and fusion are the same ones the statute side uses.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date

import numpy as np
import pandas as pd

from nyaya.index.embedders import Embedder
from nyaya.retrieval.base import Hit
from nyaya.retrieval.bm25 import BM25Retriever
from nyaya.retrieval.dense import ExactDenseRetriever
from nyaya.retrieval.fusion import rrf
from nyaya.retrieval.pipeline import ConfigError

RETRIEVERS = ("dense", "sparse")


@dataclass
class DocumentResources:
    documents: pd.DataFrame  # doc_id, text
    embedder: Embedder

    def __post_init__(self) -> None:
        ids, texts = self.documents["doc_id"].tolist(), self.documents["text"].tolist()
        self.bm25 = BM25Retriever(ids, texts)
        self.dense = ExactDenseRetriever(ids, self.embedder.encode(texts))


class DocumentSearch:
    """One config over the documents: `retrievers` from {dense, sparse}; two are fused with
    RRF (`fusion: {method: rrf, k}`)."""

    def __init__(self, name: str, params: Mapping, resources: DocumentResources) -> None:
        self.name, self.resources = name, resources
        self.retrievers = list(params.get("retrievers", []))
        unknown = sorted(set(self.retrievers) - set(RETRIEVERS))
        if not self.retrievers or unknown:
            raise ConfigError(f"config {name}: retrievers must be some of {RETRIEVERS}, "
                              f"got {self.retrievers}")
        fusion = params.get("fusion") or {}
        if len(self.retrievers) > 1 and fusion.get("method") != "rrf":
            raise ConfigError(f"config {name}: two retrievers need fusion: {{method: rrf}}")
        self.rrf_k = float(fusion.get("k", 60))
        self.candidates = int(params.get("candidates", 100))

    def search(self, text: str, k: int = 10, as_of: date | None = None) -> list[Hit]:
        """`as_of` is accepted for the runner's one calling convention; these corpora carry no
        dates."""
        runs: dict[str, list[Hit]] = {}
        if "sparse" in self.retrievers:
            runs["sparse"] = self.resources.bm25.search(text, self.candidates)
        if "dense" in self.retrievers:
            query = self.resources.embedder.encode([text])[0].astype(np.float32)
            runs["dense"] = self.resources.dense.search_vector(query, self.candidates)
        if len(runs) == 1:
            return next(iter(runs.values()))[:k]
        return rrf(runs, k=self.rrf_k)[:k]
