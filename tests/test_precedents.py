"""KG-CiteRAG's query-adaptive weights (spec 003 section 7.3.1), rule by rule."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

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
