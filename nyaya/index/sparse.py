"""BM25 sparse vectors for the vector store, on the legal tokenizer.

A document vector holds each term's BM25 term-frequency part,
tf * (k1 + 1) / (tf + k1 * (1 - b + b * len / avg_len)); the store multiplies by the
term's IDF at query time (Qdrant's IDF modifier), so a query vector is just its terms with
weight 1. Term ids are a stable 31-bit hash of the token, so no vocabulary file has to
travel with the index; the legal tokenizer keeps 304A, 498A and 13(1)(ia) whole.
"""

from __future__ import annotations

import zlib
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from nyaya.retrieval.tokenize import tokenize

SparseVector = tuple[list[int], list[float]]


@lru_cache(maxsize=1 << 20)
def term_id(token: str) -> int:
    return zlib.crc32(token.encode("utf-8")) & 0x7FFFFFFF


@dataclass(frozen=True)
class TermCounts:
    """A text tokenized once: its term ids (sorted), how often each occurs, and its length
    in tokens (what BM25's length normalization and the collection's average length need).
    Arrays, so a whole collection's counts fit in memory while its average is taken."""

    ids: np.ndarray
    counts: np.ndarray
    length: int

    @classmethod
    def of(cls, text: str) -> TermCounts:
        tokens = tokenize(text)
        counts: dict[int, int] = {}
        for token, n in Counter(tokens).items():  # distinct tokens may share a hashed id
            key = term_id(token)
            counts[key] = counts.get(key, 0) + n
        ids = sorted(counts)
        return cls(np.array(ids, dtype=np.uint32),
                   np.array([counts[i] for i in ids], dtype=np.uint32), len(tokens))

    def vector(self, avg_len: float, k1: float = 1.2, b: float = 0.75) -> SparseVector:
        norm = k1 * (1 - b + b * self.length / max(avg_len, 1e-9))
        counts = self.counts.tolist()
        # one rounding per distinct count (most terms occur once or twice in a passage)
        weight = {n: round(n * (k1 + 1) / (n + norm), 6) for n in set(counts)}
        return self.ids.tolist(), [weight[n] for n in counts]


def average_length(terms: Sequence[TermCounts]) -> float:
    return sum(text.length for text in terms) / max(len(terms), 1)


def query_vector(text: str) -> SparseVector:
    ids = sorted({term_id(token) for token in tokenize(text)})
    return ids, [1.0] * len(ids)
