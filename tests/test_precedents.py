"""KG-CiteRAG's query-adaptive weights (spec 003 section 7.3.1), rule by rule; chunk hits to
judgment hits."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from nyaya.index.store import StoreHit
from nyaya.retrieval.chunks import judgments_of
from nyaya.retrieval.precedents import kg_citerag_weights


def analysis(**found) -> SimpleNamespace:
    empty = {"articles": (), "sections": (), "years": (), "judges": (), "case_names": ()}
    return SimpleNamespace(**{**empty, **found})


@pytest.mark.parametrize(("found", "expected"), [
    ({}, {"dense": 0.30, "sparse": 0.30, "graph": 0.20, "entity": 0.20, "date": 0.0,
          "bench": 0.0}),
    ({"articles": ("14",)}, {"dense": 0.20, "sparse": 0.20, "graph": 0.10, "entity": 0.50,
                             "date": 0.0, "bench": 0.0}),
    ({"years": (1973,)}, {"dense": 0.15, "sparse": 0.15, "graph": 0.10, "entity": 0.20,
                          "date": 0.60, "bench": 0.0}),
    ({"judges": ("Krishna Iyer",)}, {"dense": 0.15, "sparse": 0.15, "graph": 0.10,
                                     "entity": 0.20, "date": 0.0, "bench": 0.60}),
    # later rules override earlier ones, as in the spec's code: case names win on bm25
    ({"sections": ("BNS_2023:103",), "case_names": ("A v. B",)},
     {"dense": 0.25, "sparse": 0.50, "graph": 0.15, "entity": 0.10, "date": 0.0,
      "bench": 0.0}),
])
def test_kg_citerag_weights(found, expected):
    assert kg_citerag_weights(analysis(**found)) == expected


def chunk_hits(*scored: tuple[str, float]) -> list[StoreHit]:
    """Chunk hits in the store's order (score descending), each naming its judgment."""
    return [StoreHit(n, score, {"judgment_id": judgment, "doc_id": f"{judgment}#{n}"})
            for n, (judgment, score) in enumerate(scored)]


@pytest.mark.parametrize(("hits", "summed", "expected"), [
    # the best chunk alone: A's 9 beats B's 8 however many chunks B has
    (chunk_hits(("A", 9.0), ("B", 8.0), ("B", 7.0), ("B", 6.0)), 1, [("A", 9.0), ("B", 8.0)]),
    # two summed: B's 8 + 7 beats A's lone 9
    (chunk_hits(("A", 9.0), ("B", 8.0), ("B", 7.0), ("B", 6.0)), 2, [("B", 15.0), ("A", 9.0)]),
    # three summed, but only the best three of B's four count
    (chunk_hits(("B", 8.0), ("B", 7.0), ("A", 6.0), ("B", 5.0), ("A", 5.0), ("B", 4.0)), 3,
     [("B", 20.0), ("A", 11.0)]),
    # equal sums: the judgment id decides, so two runs never differ
    (chunk_hits(("B", 5.0), ("A", 4.0), ("A", 1.0), ("B", 0.0)), 2, [("A", 5.0), ("B", 5.0)]),
    ([], 3, []),
])
def test_judgments_of_sums_their_best_chunks(hits, summed, expected):
    found = judgments_of(hits, "sparse", summed)
    assert [(hit.doc_id, hit.score) for hit in found] == expected
    assert {hit.method for hit in found} <= {"sparse"}
