"""Fusion: exact arithmetic on small runs, and parity with the engines that also fuse (ranx
offline, qdrant-edge inside the store)."""

from __future__ import annotations

import numpy as np
import pytest
from ranx import Run, fuse

from nyaya.index.store import CollectionSpec, EdgeStore, StorePoint
from nyaya.retrieval.base import Hit
from nyaya.retrieval.fusion import normalize, rrf, score_fusion


def run(method: str, *pairs: tuple[str, float]) -> list[Hit]:
    return [Hit(doc, score, method) for doc, score in pairs]


DENSE = run("dense", ("a", 0.9), ("b", 0.8), ("c", 0.5))
SPARSE = run("sparse", ("b", 12.0), ("d", 7.0), ("a", 1.0))


@pytest.mark.parametrize(("k", "weights", "convention", "expected"), [
    # classic: w / (k + rank)
    (60, None, "classic", {"b": 1 / 62 + 1 / 61, "a": 1 / 61 + 1 / 63, "d": 1 / 62,
                           "c": 1 / 63}),
    (60, {"dense": 2, "sparse": 1}, "classic", {"a": 2 / 61 + 1 / 63, "b": 2 / 62 + 1 / 61,
                                                 "c": 2 / 63, "d": 1 / 62}),
    # qdrant: 1 / (rank / w + k - 1)
    (2, None, "qdrant", {"b": 1 / 3 + 1 / 2, "a": 1 / 2 + 1 / 4, "d": 1 / 3, "c": 1 / 4}),
    (2, {"dense": 4, "sparse": 1}, "qdrant", {"a": 1 / 1.25 + 1 / 4, "b": 1 / 1.5 + 1 / 2,
                                              "c": 1 / 1.75, "d": 1 / 3}),
])
def test_rrf_scores(k, weights, convention, expected):
    fused = rrf({"dense": DENSE, "sparse": SPARSE}, k, weights, convention)
    assert {hit.doc_id: hit.score for hit in fused} == pytest.approx(expected, abs=1e-15)
    assert [hit.score for hit in fused] == sorted((hit.score for hit in fused), reverse=True)


def test_fused_hits_name_every_method_that_found_them():
    fused = {hit.doc_id: hit.method for hit in rrf({"dense": DENSE, "sparse": SPARSE})}
    assert fused == {"a": "dense+sparse", "b": "dense+sparse", "c": "dense", "d": "sparse"}


def test_unweighted_qdrant_k_is_classic_k_plus_one():
    classic = rrf({"dense": DENSE, "sparse": SPARSE}, 60, convention="classic")
    qdrant = rrf({"dense": DENSE, "sparse": SPARSE}, 61, convention="qdrant")
    assert [(h.doc_id, round(h.score, 15)) for h in classic] == [
        (h.doc_id, round(h.score, 15)) for h in qdrant]


def test_ties_are_broken_by_doc_id():
    fused = rrf({"x": run("x", ("z", 1.0)), "y": run("y", ("m", 1.0))})
    assert [hit.doc_id for hit in fused] == ["m", "z"]


@pytest.mark.parametrize(("values", "norm", "expected"), [
    ([4.0, 2.0, 0.0], "min-max", [1.0, 0.5, 0.0]),
    ([3.0, 3.0], "min-max", [1.0, 1.0]),
    ([3.0, 1.0], "zmuv", [1.0, -1.0]),
    ([5.0, 5.0], "zmuv", [0.0, 0.0]),
    ([5.0, 1.0], "none", [5.0, 1.0]),
])
def test_normalize(values, norm, expected):
    assert normalize(np.array(values), norm).tolist() == expected


@pytest.mark.parametrize(("method", "expected"), [
    # min-max: dense a 1, b 0.75, c 0; sparse b 1, d 6/11, a 0
    ("combsum", {"b": 1.75, "a": 1.0, "d": 6 / 11, "c": 0.0}),
    ("combmnz", {"b": 3.5, "a": 2.0, "d": 6 / 11, "c": 0.0}),
    ("combmax", {"b": 1.0, "a": 1.0, "d": 6 / 11, "c": 0.0}),
    ("wsum", {"b": 0.3 * 0.75 + 0.7, "a": 0.3, "d": 0.7 * 6 / 11, "c": 0.0}),
])
def test_score_fusions(method, expected):
    fused = score_fusion({"dense": DENSE, "sparse": SPARSE}, method, "min-max",
                         {"dense": 0.3, "sparse": 0.7} if method == "wsum" else None)
    assert {hit.doc_id: hit.score for hit in fused} == pytest.approx(expected, abs=1e-12)


def test_bad_parameters_are_refused_with_the_choices():
    with pytest.raises(ValueError, match="classic"):
        rrf({"dense": DENSE}, convention="ranx")
    with pytest.raises(ValueError, match="not fused"):
        rrf({"dense": DENSE}, weights={"sparse": 1.0})
    with pytest.raises(ValueError, match="combmnz"):
        score_fusion({"dense": DENSE}, "borda")


# ----------------------------------------------------------------------------- parity


def random_runs(seed: int, queries: int = 20) -> dict[str, dict[str, list[Hit]]]:
    """Two runs per query over a shared pool, distinct scores (ties are a separate rule)."""
    rng = np.random.default_rng(seed)
    runs: dict[str, dict[str, list[Hit]]] = {"dense": {}, "sparse": {}}
    for q in range(queries):
        for name in runs:
            docs = rng.choice(60, size=25, replace=False)
            scores = np.sort(rng.random(25))[::-1] * (10 if name == "sparse" else 1)
            runs[name][f"q{q}"] = [Hit(f"d{d:02d}", float(s), name)
                                   for d, s in zip(docs, scores, strict=True)]
    return runs


def ranx_run(hits: dict[str, list[Hit]], name: str) -> Run:
    return Run({q: {h.doc_id: h.score for h in found} for q, found in hits.items()}, name=name)


@pytest.mark.parametrize(("method", "norm", "params", "ours"), [
    ("rrf", None, {"k": 60}, lambda r: rrf(r, 60)),
    ("wsum", "min-max", {"weights": [0.3, 0.7]},
     lambda r: score_fusion(r, "wsum", "min-max", {"dense": 0.3, "sparse": 0.7})),
    ("sum", "zmuv", {}, lambda r: score_fusion(r, "combsum", "zmuv")),
    ("mnz", "min-max", {}, lambda r: score_fusion(r, "combmnz", "min-max")),
    ("max", "min-max", {}, lambda r: score_fusion(r, "combmax", "min-max")),
])
def test_our_fusions_equal_ranx_fuse(method, norm, params, ours):
    runs = random_runs(7)
    theirs = fuse([ranx_run(runs["dense"], "dense"), ranx_run(runs["sparse"], "sparse")],
                  norm=norm, method=method, params=params).to_dict()
    for qid in runs["dense"]:
        mine = {h.doc_id: h.score for h in ours({n: runs[n][qid] for n in runs})}
        assert mine == pytest.approx(theirs[qid], abs=1e-9)


@pytest.mark.parametrize(("k", "weights"), [(2, None), (60, None), (60, [2.0, 1.0]),
                                            (10, [1.0, 4.0])])
def test_qdrant_convention_equals_qdrant_edge_fusion(tmp_path, k, weights):
    """The same prefetch lists fused inside qdrant-edge and by `rrf(convention="qdrant")`."""
    import qdrant_edge as qe

    rng = np.random.default_rng(3)
    store = EdgeStore(tmp_path)
    store.create(CollectionSpec("c", 8))
    points = []
    for i in range(40):
        vector = rng.normal(size=8).astype(np.float32)
        indices = sorted(rng.choice(60, 6, replace=False).tolist())
        points.append(StorePoint(i + 1, vector / np.linalg.norm(vector),
                                 (indices, rng.random(6).tolist()), {"doc_id": f"d{i:02d}"}))
    store.upsert("c", points)
    try:
        for _ in range(5):
            query = rng.normal(size=8).astype(np.float32)
            query /= np.linalg.norm(query)
            sparse = (sorted(rng.choice(60, 12, replace=False).tolist()), [1.0] * 12)
            dense_hits = store.search_dense("c", query, 40)
            sparse_hits = store.search_sparse("c", *sparse, 40)
            prefetches = [
                qe.Prefetch(limit=40, query=qe.Query.Nearest(query.tolist(), using="dense")),
                qe.Prefetch(limit=40, query=qe.Query.Nearest(qe.SparseVector(*sparse),
                                                             using="sparse"))]
            engine = store._query("c", 80, qe.Fusion.Rrf(k=k, weights=weights), prefetches)
            ours = rrf({"dense": [Hit(str(h.id), h.score, "dense") for h in dense_hits],
                        "sparse": [Hit(str(h.id), h.score, "sparse") for h in sparse_hits]},
                       k, dict(zip(("dense", "sparse"), weights, strict=True))
                       if weights else None, "qdrant")
            assert {str(h.id): h.score for h in engine} == pytest.approx(
                {h.doc_id: h.score for h in ours}, rel=1e-6)
    finally:
        store.close()
