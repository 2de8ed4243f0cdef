"""Exact dense search with numpy, and chunk-to-document score pooling.

The exact search is the reference every approximate index is measured against, and the
peer in the latency benchmark. Ties are broken by doc id, as everywhere in nyaya.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from nyaya.retrieval.base import Hit

POOLINGS = ("max", "mean", "first")


def top_k(scores: np.ndarray, ids: Sequence[str], k: int, method: str) -> list[Hit]:
    """The k best of one score vector, ties by id, every id tied at the cut considered."""
    if len(scores) > k:
        kth = np.partition(scores, len(scores) - k)[len(scores) - k]
        candidates = np.flatnonzero(scores >= kth)
    else:
        candidates = np.arange(len(scores))
    ranked = sorted(candidates, key=lambda i: (-float(scores[i]), ids[i]))[:k]
    return [Hit(ids[i], float(scores[i]), method) for i in ranked]


class ExactDenseRetriever:
    """Inner product over unit vectors held in one float32 matrix."""

    def __init__(self, doc_ids: Sequence[str], vectors: np.ndarray, method: str = "dense") -> None:
        if len(doc_ids) != len(vectors):
            raise ValueError(f"{len(doc_ids)} ids but {len(vectors)} vectors")
        self.doc_ids = list(doc_ids)
        self.vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        self.method = method

    def search_vector(self, query: np.ndarray, k: int = 10) -> list[Hit]:
        return top_k(self.vectors @ query.astype(np.float32), self.doc_ids, k, self.method)


def pool_by_document(chunk_scores: np.ndarray, chunk_docs: Sequence[str],
                     pooling: str = "max") -> tuple[list[str], np.ndarray]:
    """Document scores from chunk scores: the best chunk, the mean, or the first chunk only.

    `chunk_docs` must list each chunk's document with a document's chunks in order.
    """
    if pooling not in POOLINGS:
        raise ValueError(f"unknown pooling {pooling!r}; choose one of {POOLINGS}")
    docs = np.asarray(chunk_docs)
    starts = np.flatnonzero(np.r_[True, docs[1:] != docs[:-1]])
    names = docs[starts].tolist()
    if len(set(names)) != len(names):
        raise ValueError("chunks of one document must be contiguous")
    if pooling == "max":
        return names, np.maximum.reduceat(chunk_scores, starts)
    if pooling == "mean":
        counts = np.diff(np.r_[starts, len(docs)])
        return names, np.add.reduceat(chunk_scores, starts) / counts
    return names, chunk_scores[starts]
