"""BM25 over any table of (doc_id, text), on bm25s with the legal tokenizer."""

from __future__ import annotations

from collections.abc import Sequence

import bm25s
import numpy as np

from nyaya.retrieval.base import Hit
from nyaya.retrieval.tokenize import tokenize


class BM25Retriever:
    """Sparse lexical retrieval; ties are broken by doc id so runs are reproducible."""

    method = "bm25"

    def __init__(self, doc_ids: Sequence[str], texts: Sequence[str], k1: float = 1.2,
                 b: float = 0.75) -> None:
        if len(doc_ids) != len(texts):
            raise ValueError(f"{len(doc_ids)} doc ids but {len(texts)} texts")
        if len(set(doc_ids)) != len(doc_ids):
            raise ValueError("doc ids must be unique")
        self.doc_ids = list(doc_ids)
        self._index = bm25s.BM25(k1=k1, b=b)
        self._index.index([tokenize(text) or ["<empty>"] for text in texts], show_progress=False)
        self._vocab = set(self._index.vocab_dict)

    def top_terms(self, text: str, count: int) -> list[str]:
        """The text's `count` distinct terms rarest in the index (fewest documents first, then
        alphabetical): query reduction, the top-IDF terms of a long query."""
        frequency = np.diff(self._index.scores["indptr"])
        vocab = self._index.vocab_dict
        return sorted({t for t in tokenize(text) if t in self._vocab},
                      key=lambda t: (frequency[vocab[t]], t))[:count]

    def search(self, query: str, k: int = 10, *, terms: int | None = None,
               within: np.ndarray | None = None) -> list[Hit]:
        """The top k documents; `terms` reduces the query to its rarest terms (`top_terms`),
        `within` (a mask over the indexed documents) keeps the search inside a pool."""
        tokens = (self.top_terms(query, terms) if terms else
                  [t for t in tokenize(query) if t in self._vocab])
        if not tokens:
            return []
        scores = self._index.get_scores(tokens)
        if within is not None:
            scores = np.where(within, scores, 0.0)
        candidates = np.flatnonzero(scores > 0)
        if len(candidates) > k:
            # Keep every document scoring at least the k-th best, so ties at the cut are
            # settled by doc id below rather than by argpartition's arbitrary order.
            kth = np.partition(scores[candidates], len(candidates) - k)[len(candidates) - k]
            candidates = candidates[scores[candidates] >= kth]
        ranked = sorted(candidates, key=lambda i: (-float(scores[i]), self.doc_ids[i]))[:k]
        return [Hit(self.doc_ids[i], float(scores[i]), self.method) for i in ranked]
