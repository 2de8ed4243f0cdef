"""Retrievers on small hand-made indexes: what they return and in which order."""

from __future__ import annotations

import faiss
import numpy as np
import pytest

from nyaya.retrieval.retrievers import FaissDense, Query


def unit(*values: float) -> np.ndarray:
    vector = np.array(values, dtype=np.float32)
    return vector / np.linalg.norm(vector)


VECTORS = np.stack([unit(1, 0), unit(0.9, 0.1), unit(0.7, 0.3), unit(0.1, 0.9), unit(0, 1)])
DOCS = ["a", "b", "c", "d", "e"]


def flat_index() -> faiss.Index:
    index = faiss.IndexFlatIP(2)
    index.add(VECTORS)
    return index


@pytest.mark.parametrize(("allowed", "k", "expected"), [
    (None, 2, ["a", "b"]),
    ([False, False, True, True, True], 2, ["c", "d"]),   # fetches deeper past excluded rows
    ([False, False, False, False, True], 3, ["e"]),     # fewer allowed rows than k
])
def test_faiss_dense_skips_rows_outside_allowed(allowed, k, expected):
    retriever = FaissDense(flat_index(), DOCS, allowed)
    query = Query("q", unit(1, 0), ([], []), analysis=None)
    assert [hit.doc_id for hit in retriever.search(query, k)] == expected
