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

from nyaya.retrieval.tokenize import token_count, tokenize

SparseVector = tuple[list[int], list[float]]


def term_id(token: str) -> int:
    return zlib.crc32(token.encode("utf-8")) & 0x7FFFFFFF


def average_length(texts: Sequence[str]) -> float:
    lengths = [token_count(text) for text in texts]
    return sum(lengths) / max(len(lengths), 1)


def document_vector(text: str, avg_len: float, k1: float = 1.2, b: float = 0.75) -> SparseVector:
    tokens = tokenize(text)
    counts = Counter()
    for token, n in Counter(tokens).items():  # distinct tokens may share a hashed id
        counts[term_id(token)] += n
    norm = k1 * (1 - b + b * len(tokens) / max(avg_len, 1e-9))
    ids = sorted(counts)
    return ids, [round(counts[i] * (k1 + 1) / (counts[i] + norm), 6) for i in ids]


def query_vector(text: str) -> SparseVector:
    ids = sorted({term_id(token) for token in tokenize(text)})
    return ids, [1.0] * len(ids)
