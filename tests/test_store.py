"""The vector-store contract, run against both backends: embedded Qdrant Edge and
qdrant-client's local mode standing in for a Qdrant server."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from qdrant_client import QdrantClient

from nyaya.index.store import (
    CollectionSpec,
    EdgeStore,
    NaiveFeedback,
    ReadOnlyStoreError,
    RememberedSearches,
    ScoreBoost,
    ServerStore,
    StoreDamagedError,
    StoreHit,
    StoreLockedError,
    StorePoint,
    UnknownCollectionError,
    VectorStore,
    open_store,
    point_id,
)

pytestmark = pytest.mark.filterwarnings(
    "ignore:Payload indexes have no effect in the local Qdrant:UserWarning")

DIM = 8
NAME = "legal_sections"
SPEC = CollectionSpec(NAME, DIM, keyword_fields=("act_code", "section_number", "doc_id"),
                      integer_fields=("year",))
BARE = CollectionSpec(NAME, DIM)
ACTS = ("IPC", "CrPC", "BNS", "BNSS", "IEA")
YEARS = {"IPC": 1860, "CrPC": 1973, "BNS": 2023, "BNSS": 2023, "IEA": 1872}
RARE_TERM = 9001  # only in point 7
COMMON_TERM = 3


def _unit(vector: np.ndarray) -> np.ndarray:
    return (vector / np.linalg.norm(vector)).astype(np.float32)


def make_points() -> list[StorePoint]:
    """50 sections of five acts; ids 0..49. Section 302 of the IPC appears twice (a section and
    its explanation chunk); points 40..42 share one vector, for ties."""
    rng = np.random.default_rng(7)
    dense = rng.normal(size=(50, DIM))
    dense[41] = dense[42] = dense[40]
    points = []
    for i in range(50):
        act = ACTS[i % len(ACTS)]
        section = "302" if i in (0, 25) else str(100 + i)
        terms = sorted({int(t) for t in rng.integers(1, 20, size=5)} | {COMMON_TERM})
        if i == 7:
            terms.append(RARE_TERM)
        payload = {"doc_id": f"{act}-{section}-{i}", "act_code": act, "section_number": section,
                   "year": YEARS[act]}
        if i != 13:  # one point written before content hashes existed
            payload["content_hash"] = f"h{i}"
        weights = rng.uniform(0.5, 2.0, len(terms)).tolist()  # no ties in sparse scores
        points.append(StorePoint(i, _unit(dense[i]), (terms, weights), payload))
    return points


POINTS = make_points()
MATRIX = np.stack([p.dense for p in POINTS])


def brute_force(query: np.ndarray, where: dict | None = None) -> list[int]:
    """Every matching id by (cosine desc, id asc)."""
    scores = MATRIX @ _unit(query)
    keep = [p.id for p in POINTS
            if all(p.payload.get(key) in (value if isinstance(value, list) else [value])
                   for key, value in (where or {}).items())]
    return sorted(keep, key=lambda i: (-round(float(scores[i]), 5), i))


def ids_of(hits: list[StoreHit]) -> list[int]:
    return [hit.id for hit in hits]


BACKENDS = ("qdrant-edge", "qdrant-server")


def new_store(backend: str, root: Path) -> VectorStore:
    return EdgeStore(root) if backend == "qdrant-edge" else ServerStore(
        QdrantClient(location=":memory:"))


def load(store: VectorStore, spec: CollectionSpec = SPEC) -> VectorStore:
    """Create the collection and write the 50 points; BARE (no payload indexes) is quicker
    on edge, where each index build is a flush."""
    store.create(spec)
    assert store.upsert(NAME, POINTS, batch_size=16) == len(POINTS)
    store.optimize(NAME)
    return store


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, VectorStore]]:
    """One loaded store per backend for the read-only tests (an edge create costs ~0.5 s of
    fsyncs)."""
    stores = {backend: load(new_store(backend, tmp_path_factory.mktemp("qdrant")))
              for backend in BACKENDS}
    yield stores
    for store in stores.values():
        store.close()


@pytest.fixture(params=BACKENDS)
def loaded(request: pytest.FixtureRequest, shared: dict[str, VectorStore]) -> VectorStore:
    """A loaded store, not to be written to."""
    return shared[request.param]


@pytest.fixture(params=BACKENDS)
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[VectorStore]:
    """An empty store of its own, for the tests that write."""
    backend = new_store(request.param, tmp_path / "qdrant")
    yield backend
    backend.close()


def test_point_id_is_stable_and_63_bit() -> None:
    assert point_id("IPC-302") == point_id("IPC-302") != point_id("IPC-303")
    assert 0 <= point_id("IPC-302") < 2**63
    assert point_id("x") == 0x2D711642B726B044 & (2**63 - 1)  # sha256("x")[:8]


def test_backend_names(store: VectorStore) -> None:
    assert store.backend in {"qdrant-edge", "qdrant-server"}
    assert isinstance(store, EdgeStore) == (store.backend == "qdrant-edge")


def test_create_is_idempotent_and_rejects_other_vectors(store: VectorStore) -> None:
    loaded = load(store)
    loaded.create(SPEC)
    assert loaded.count(NAME) == len(POINTS)
    with pytest.raises(ValueError, match=r"'legal_sections'.*dense_dim: existing 8, requested 16"):
        loaded.create(CollectionSpec(NAME, 16))
    with pytest.raises(ValueError, match=r"sparse_name: existing 'sparse', requested 'bm25'"):
        loaded.create(CollectionSpec(NAME, DIM, sparse_name="bm25"))
    loaded.create(CollectionSpec(NAME, 16), recreate=True)
    assert loaded.count(NAME) == 0
    loaded.upsert(NAME, [StorePoint(1, _unit(np.ones(16)), None, {"act_code": "IPC"})])
    assert ids_of(loaded.search_dense(NAME, np.ones(16), 3)) == [1]


@pytest.mark.parametrize("payload_links", [True, False])
def test_filtered_search_is_exact_with_or_without_payload_links(store: VectorStore,
                                                                payload_links: bool) -> None:
    """Both graph settings build and answer a filtered search as brute force does; the
    setting is kept with the collection (an older spec file without it reads as False)."""
    spec = CollectionSpec(NAME, DIM, keyword_fields=SPEC.keyword_fields,
                          payload_links=payload_links)
    load(store, spec)
    query = POINTS[3].dense
    where = {"act_code": "IPC"}
    assert ids_of(store.search_dense(NAME, query, 5, where)) == brute_force(query, where)[:5]
    if isinstance(store, EdgeStore):
        path = store.root / f"{NAME}.spec.json"
        assert json.loads(path.read_text())["payload_links"] is payload_links
        older = {key: value for key, value in json.loads(path.read_text()).items()
                 if key != "payload_links"}
        path.write_text(json.dumps(older))
        assert EdgeStore(store.root, read_only=True)._read_spec(NAME).payload_links is False


def test_count_with_filters(loaded: VectorStore) -> None:
    assert loaded.count(NAME) == 50
    assert loaded.count(NAME, {"act_code": "IPC"}) == 10
    assert loaded.count(NAME, {"act_code": ["BNS", "BNSS"]}) == 20
    assert loaded.count(NAME, {"year": 2023, "act_code": "BNS"}) == 10
    assert loaded.count(NAME, {"year": [1860, 1872]}) == 20
    assert loaded.count(NAME, {"act_code": "IPC", "year": 2023}) == 0


def test_lookup_is_exact_and_ordered_by_id(loaded: VectorStore) -> None:
    hits = loaded.lookup(NAME, {"act_code": "IPC", "section_number": "302"})
    assert ids_of(hits) == [0, 25]
    assert {hit.score for hit in hits} == {1.0}
    assert hits[1].payload["doc_id"] == "IPC-302-25"
    assert loaded.lookup(NAME, {"act_code": "CrPC", "section_number": "302"}) == []
    assert ids_of(loaded.lookup(NAME, {"act_code": "BNS"}, limit=3)) == [2, 7, 12]


def test_dense_search_matches_brute_force(loaded: VectorStore) -> None:
    query = np.random.default_rng(1).normal(size=DIM)
    hits = loaded.search_dense(NAME, _unit(query), 5)
    assert ids_of(hits) == brute_force(query)[:5]
    scores = MATRIX[ids_of(hits)] @ _unit(query)
    assert [hit.score for hit in hits] == pytest.approx(scores.tolist(), abs=1e-5)
    where = {"act_code": ["IPC", "IEA"]}
    assert ids_of(loaded.search_dense(NAME, _unit(query), 5, where)) == brute_force(
        query, where)[:5]


def test_ties_are_broken_by_id(loaded: VectorStore) -> None:
    # 40, 41, 42 are the same vector: the engine may return any two, the adapter the lowest
    hits = loaded.search_dense(NAME, MATRIX[40], 2)
    assert ids_of(hits) == [40, 41]
    assert hits[0].score == hits[1].score
    assert ids_of(loaded.search_dense(NAME, MATRIX[40], 4))[:3] == [40, 41, 42]


def test_sparse_search_ranks_the_rare_term_first(loaded: VectorStore) -> None:
    hits = loaded.search_sparse(NAME, [COMMON_TERM, RARE_TERM], [1.0, 1.0], 10)
    assert hits[0].id == 7
    assert len(hits) == 10
    assert all(a.score >= b.score for a, b in itertools.pairwise(hits))
    assert loaded.search_sparse(NAME, [RARE_TERM], [1.0], 5, {"act_code": "IPC"}) == []
    assert loaded.search_sparse(NAME, [], [], 5) == []


class CountingStore:
    """The real store, counting the searches that reach it."""

    def __init__(self, store: VectorStore) -> None:
        self.store, self.searches = store, 0

    def __getattr__(self, name: str):
        return getattr(self.store, name)

    def search_dense(self, *args, **kwargs) -> list[StoreHit]:
        self.searches += 1
        return self.store.search_dense(*args, **kwargs)

    def search_sparse(self, *args, **kwargs) -> list[StoreHit]:
        self.searches += 1
        return self.store.search_sparse(*args, **kwargs)


QUERY = _unit(np.random.default_rng(3).normal(size=DIM))


def assert_same_hits(got: list[StoreHit], expected: list[StoreHit]) -> None:
    """The same points in the same order with their payloads; scores to float32 precision
    (qdrant-client's local mode rounds a query's score differently from call to call)."""
    assert [(hit.id, hit.payload) for hit in got] == [(hit.id, hit.payload) for hit in expected]
    assert [hit.score for hit in got] == pytest.approx([hit.score for hit in expected], abs=1e-6)


def _dense(store: VectorStore, k: int, where: dict | None = None) -> list[StoreHit]:
    return store.search_dense(NAME, QUERY, k, where)


def _sparse(store: VectorStore, k: int, where: dict | None = None) -> list[StoreHit]:
    return store.search_sparse(NAME, [COMMON_TERM, RARE_TERM], [1.0, 0.5], k, where)


@pytest.mark.parametrize(("search", "asked", "reached_on_edge", "reached_on_server"), [
    (_dense, [(10, None), (3, None), (10, None)], 1, 2),  # a smaller k from a larger answer
    (_dense, [(3, None), (10, None), (5, None)], 2, 3),  # a larger k searches again
    (_dense, [(5, None), (5, {"act_code": "IPC"}), (5, {"act_code": "IPC"})], 2, 2),
    (_sparse, [(20, None), (1, None), (20, None)], 1, 2),
    (_sparse, [(100, None), (80, None)], 1, 2),  # fewer matches than asked: all there are
    (_sparse, [(5, {"act_code": "BNS"}), (5, None), (2, {"act_code": "BNS"})], 2, 3),
])
def test_remembered_searches_answer_as_the_store_and_reach_it_only_when_needed(
        loaded: VectorStore, search, asked, reached_on_edge, reached_on_server) -> None:
    counted = CountingStore(loaded)
    remembered = RememberedSearches(counted)
    for k, where in asked:
        assert_same_hits(search(remembered, k, where), search(loaded, k, where))
    assert counted.searches == (reached_on_edge if loaded.exact else reached_on_server)


def test_remembered_searches_forget_the_oldest_answers_beyond_their_capacity(
        loaded: VectorStore) -> None:
    counted = CountingStore(loaded)
    remembered = RememberedSearches(counted, hits=15)
    _dense(remembered, 10)
    _sparse(remembered, 10)  # 20 hits kept: the dense answer is dropped
    _sparse(remembered, 5)  # on a server, another search (its top 5 need not be the first 5)
    assert counted.searches == (2 if loaded.exact else 3)
    assert_same_hits(_dense(remembered, 10), _dense(loaded, 10))
    assert counted.searches == (3 if loaded.exact else 4)


@pytest.mark.parametrize("fusion", ["rrf", "dbsf"])
def test_hybrid_fuses_both_branches(loaded: VectorStore, fusion: str) -> None:
    dense_only = 30  # nearest to its own vector; the rare term is only in point 7
    hits = loaded.hybrid(NAME, MATRIX[dense_only], ([RARE_TERM], [1.0]), 5, prefetch_k=10,
                         fusion=fusion)
    assert {dense_only, 7} <= set(ids_of(hits))
    assert len(hits) == 5
    assert ids_of(hits) == [hit.id for hit in sorted(hits, key=lambda h: (-h.score, h.id))]
    filtered = loaded.hybrid(NAME, MATRIX[dense_only], ([RARE_TERM], [1.0]), 5,
                             fusion=fusion, where={"act_code": "IPC"})
    assert {hit.payload["act_code"] for hit in filtered} == {"IPC"}


def rrf_qdrant(runs: list[list[StoreHit]], k: int, weights: list[float]) -> dict[int, float]:
    """Qdrant's weighted RRF, written out: 1 / (rank / w + k - 1), rank from 1."""
    scores: dict[int, float] = {}
    for hits, weight in zip(runs, weights, strict=True):
        for rank, hit in enumerate(hits, start=1):
            scores[hit.id] = scores.get(hit.id, 0.0) + 1 / (rank / weight + k - 1)
    return scores


@pytest.mark.parametrize(("rrf_k", "weights"), [(60, (1.0, 1.0)), (60, (1.0, 4.0)),
                                                (2, (3.0, 1.0))])
def test_weighted_hybrid_follows_qdrant_rrf(loaded: VectorStore, rrf_k: int,
                                            weights: tuple[float, float]) -> None:
    query, sparse = MATRIX[30], ([COMMON_TERM, RARE_TERM, 5], [1.0, 1.0, 1.0])
    dense = loaded.search_dense(NAME, query, 20)
    lexical = loaded.search_sparse(NAME, *sparse, 20)
    hits = loaded.hybrid(NAME, query, sparse, 50, prefetch_k=20, rrf_k=rrf_k, weights=weights)
    # 40..42 tie in the dense branch, where each engine orders ties its own way
    tied = {40, 41, 42}
    expected = rrf_qdrant([dense, lexical], rrf_k, list(weights))
    assert {h.id: h.score for h in hits if h.id not in tied} == pytest.approx(
        {i: s for i, s in expected.items() if i not in tied}, rel=1e-5)
    assert set(expected) == {h.id for h in hits}


BOOST = ScoreBoost(factor_field="year_factor", base=0.7, scale=0.3, factor_default=1.0,
                   bonuses=(("act_code", "BNS", 0.15), ("section_number", "302", 0.1)))


def test_score_boost_in_the_engine_equals_its_python_formula(loaded: VectorStore) -> None:
    """Points carry no `year_factor`, so the default factor applies: score * 1.0 + bonuses."""
    query, sparse = MATRIX[0], ([COMMON_TERM], [1.0])
    plain = {h.id: h for h in loaded.hybrid(NAME, query, sparse, 50, prefetch_k=50)}
    boosted = loaded.hybrid(NAME, query, sparse, 50, prefetch_k=50, boost=BOOST)
    assert {h.id: h.score for h in boosted} == pytest.approx(
        {i: BOOST.apply(h.score, h.payload) for i, h in plain.items()}, rel=1e-5)
    assert boosted[0].payload["act_code"] == "BNS" or boosted[0].payload["section_number"] \
        == "302"


def test_the_boost_sees_every_candidate_of_both_branches(loaded: VectorStore) -> None:
    """No fused candidate is cut before the formula: a cut among tied fused scores was
    settled by the engine's segment layout, so two builds boosted different candidates."""
    query, sparse = MATRIX[0], ([COMMON_TERM, RARE_TERM], [1.0, 1.0])
    plain = loaded.hybrid(NAME, query, sparse, 50, prefetch_k=10)
    boosted = loaded.hybrid(NAME, query, sparse, 50, prefetch_k=10, boost=BOOST)
    assert len(plain) > 10 and set(ids_of(boosted)) == set(ids_of(plain))


@pytest.mark.parametrize(("payload", "expected"), [
    ({"conf": 0.5}, 0.5 * (0.7 + 0.15)),
    ({"conf": 1.0, "era": "new"}, 0.5 + 0.15),
    ({}, 0.5 * 1.0),  # factor_default
])
def test_score_boost_formula(payload: dict, expected: float) -> None:
    boost = ScoreBoost("conf", 0.7, 0.3, 1.0, (("era", "new", 0.15),))
    assert boost.apply(0.5, payload) == pytest.approx(expected)


def test_mmr_diversifies_away_from_duplicates(loaded: VectorStore) -> None:
    """Points 40..42 share one vector: plain search returns all three at the top, MMR with
    diversity keeps one of them and brings in others."""
    query = MATRIX[40]
    plain = loaded.hybrid(NAME, query, ([], []), 5, prefetch_k=30)
    assert set(ids_of(plain)[:3]) == {40, 41, 42}
    diverse = loaded.hybrid(NAME, query, ([], []), 5, prefetch_k=30, mmr_diversity=0.7)
    assert len(diverse) == 5
    assert len({40, 41, 42} & set(ids_of(diverse))) == 1


def test_bad_fusion_is_rejected(loaded: VectorStore) -> None:
    with pytest.raises(ValueError, match="unknown fusion 'max'"):
        loaded.hybrid(NAME, MATRIX[0], ([1], [1.0]), 5, fusion="max")


def test_search_groups_match_client_side_grouping(loaded: VectorStore) -> None:
    query = np.random.default_rng(3).normal(size=DIM)
    for where, group_by, groups, size in ((None, "act_code", 3, 2), (None, "year", 4, 3),
                                          ({"act_code": ["IPC", "BNS"]}, "section_number", 3, 2),
                                          (None, "section_number", 2, 3),  # small groups
                                          (None, "act_code", 9, 20)):
        result = loaded.search_groups(NAME, _unit(query), group_by, groups, size, where)
        expected: dict = {}
        for i in brute_force(query, where):
            value = POINTS[i].payload[group_by]
            if value in expected or len(expected) < groups:
                expected.setdefault(value, []).append(i)
        assert [(value, ids_of(hits)) for value, hits in result] == [
            (value, found[:size]) for value, found in expected.items()]
        assert len({value for value, _ in result}) == len(result)
        assert all(len(hits) <= size for _, hits in result)
    # "302" has two IPC members only, and the group stays complete once both are found
    assert [ids_of(hits) for value, hits in loaded.search_groups(
        NAME, MATRIX[25], "section_number", 1, 5, {"act_code": "IPC"})] == [[25, 0]]


def test_delete_ids_and_payload_values(store: VectorStore) -> None:
    loaded = load(store, BARE)
    assert loaded.ids(NAME) == set(range(50))
    values = loaded.payload_values(NAME, "content_hash")
    assert set(values) == set(range(50))
    assert values[3] == "h3" and values[13] is None
    loaded.delete(NAME, [3, 13, 49])
    loaded.delete(NAME, [])
    assert loaded.count(NAME) == 47
    assert loaded.ids(NAME) == set(range(50)) - {3, 13, 49}
    assert 3 not in ids_of(loaded.search_dense(NAME, MATRIX[3], 3))


def test_upsert_overwrites_by_id(store: VectorStore) -> None:
    loaded = load(store, BARE)
    changed = StorePoint(5, POINTS[5].dense, None, {**POINTS[5].payload, "content_hash": "new"})
    assert loaded.upsert(NAME, iter([changed])) == 1
    assert loaded.count(NAME) == 50
    assert loaded.payload_values(NAME, "content_hash")[5] == "new"


def test_unknown_collection_is_named(store: VectorStore) -> None:
    for call in (lambda: store.count("missing_acts"), lambda: store.ids("missing_acts"),
                 lambda: store.search_dense("missing_acts", MATRIX[0], 3)):
        with pytest.raises(UnknownCollectionError, match="'missing_acts'"):
            call()


def test_backends_agree(shared: dict[str, VectorStore]) -> None:
    edge, server = shared["qdrant-edge"], shared["qdrant-server"]
    # exactly tied points (40..42) take the engine's order inside a fused branch, so the
    # fused comparison leaves their acts out
    untied = {"act_code": ["BNSS", "IEA"]}
    rng = np.random.default_rng(11)
    for _ in range(5):
        query = _unit(rng.normal(size=DIM))
        dense = [ids_of(store.search_dense(NAME, query, 5)) for store in (edge, server)]
        assert dense[0] == dense[1] == brute_force(query)[:5]
        for fusion in ("rrf", "dbsf"):
            fused = [ids_of(store.hybrid(NAME, query, ([COMMON_TERM, 5, 11], [1.0, 1.0, 1.0]),
                                         5, prefetch_k=8, fusion=fusion, where=untied))
                     for store in (edge, server)]
            assert fused[0] == fused[1]
    sparse = [ids_of(store.search_sparse(NAME, [COMMON_TERM, 5], [1.0, 1.0], 8))
              for store in (edge, server)]
    assert sparse[0] == sparse[1]


def test_edge_persists_across_reopen(tmp_path: Path) -> None:
    first = EdgeStore(tmp_path)
    first.create(SPEC)
    first.upsert(NAME, POINTS)
    first.close()
    assert (tmp_path / f"{NAME}.spec.json").is_file()
    reopened = open_store(tmp_path)
    try:
        assert reopened.backend == "qdrant-edge"
        assert reopened.count(NAME) == 50
        assert reopened.lookup(NAME, {"act_code": "IPC", "section_number": "302"})[0].id == 0
        assert ids_of(reopened.search_dense(NAME, MATRIX[9], 1)) == [9]
        reopened.create(SPEC)  # same spec: a no-op on the persisted shard
        assert reopened.count(NAME) == 50
        indexes = reopened._shards[NAME].shard.info().payload_schema  # type: ignore[attr-defined]
        assert sorted(indexes) == sorted(SPEC.keyword_fields + SPEC.integer_fields)
    finally:
        reopened.close()


def test_edge_single_owner_in_process(tmp_path: Path) -> None:
    owner = EdgeStore(tmp_path)
    owner.create(BARE)
    try:
        with pytest.raises(StoreLockedError, match=rf"locked by PID {os.getpid()}"):
            EdgeStore(tmp_path).count(NAME)
    finally:
        owner.close()
    second = EdgeStore(tmp_path)  # released on close
    assert second.count(NAME) == 0
    second.close()


def test_edge_single_owner_across_processes(tmp_path: Path) -> None:
    setup = EdgeStore(tmp_path)
    setup.create(BARE)
    setup.close()
    child = subprocess.Popen(
        [sys.executable, "-c",
         "import sys; from nyaya.index.store import EdgeStore; "
         f"s = EdgeStore({str(tmp_path)!r}); s.count({NAME!r}); "
         "print('ready', flush=True); sys.stdin.readline(); s.close()"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None and child.stdout.readline().strip() == "ready"
        with pytest.raises(StoreLockedError, match=rf"{NAME} is locked by PID {child.pid}"):
            EdgeStore(tmp_path).count(NAME)
    finally:
        child.communicate("\n", timeout=10)
    assert child.returncode == 0
    after = EdgeStore(tmp_path)  # the child's close released it
    assert after.count(NAME) == 0
    after.close()


def test_edge_readers_search_copies_beside_a_writer(tmp_path: Path) -> None:
    setup = EdgeStore(tmp_path)
    setup.create(SPEC)
    setup.upsert(NAME, POINTS)
    setup.close()
    first, second = EdgeStore(tmp_path, read_only=True), EdgeStore(tmp_path, read_only=True)
    try:
        assert first.count(NAME) == second.count(NAME) == 50  # two readers at once
        writer = EdgeStore(tmp_path)  # readers hold no lock once they have their copy
        writer.delete(NAME, [0])
        assert writer.count(NAME) == 49 and first.count(NAME) == 50
        with pytest.raises(StoreLockedError, match=rf"being written by PID {os.getpid()}"):
            EdgeStore(tmp_path, read_only=True).count(NAME)
        writer.close()
        with pytest.raises(ReadOnlyStoreError, match="opened read-only"):
            first.create(SPEC)
        with pytest.raises(ReadOnlyStoreError, match="opened read-only"):
            first.delete(NAME, [1])
        assert len(list((tmp_path / ".readers").iterdir())) == 2
    finally:
        first.close()
        second.close()
    assert not list((tmp_path / ".readers").iterdir())  # close deletes the copies
    stale = tmp_path / ".readers" / "999999999-gone"  # a killed reader's copy
    stale.mkdir()
    third = EdgeStore(tmp_path, read_only=True)
    assert third.count(NAME) == 49 and not stale.exists()
    third.close()


def test_open_store_picks_the_backend(tmp_path: Path) -> None:
    store = open_store(tmp_path / "qdrant", None)
    assert isinstance(store, EdgeStore)
    store.close()
    assert not (tmp_path / "qdrant").exists()  # nothing is written until a collection is


@pytest.mark.parametrize(("a", "b", "c"), [(1.0, 1.0, 0.0), (1.0, 1.0, 1.0), (0.5, 2.0, 3.0)])
def test_relevance_feedback_in_the_engine_equals_its_python_formula(
        loaded: VectorStore, a: float, b: float, c: float) -> None:
    """Qdrant's naive relevance feedback: a * sim(target) plus c * (s_i - s_j)^b times the
    difference of similarities to each better- and worse-scored example."""
    target = _unit(np.random.default_rng(2).normal(size=DIM))
    feedback = NaiveFeedback(((MATRIX[3], 0.9), (MATRIX[11], 0.2), (MATRIX[25], 0.5)), a, b, c)
    hits = loaded.search_feedback(NAME, target, feedback, 8)
    expected = feedback.scores(target, MATRIX)
    top = sorted(range(len(MATRIX)), key=lambda i: (-round(float(expected[i]), 5), i))[:8]
    assert ids_of(hits) == top
    assert [h.score for h in hits] == pytest.approx(expected[top].tolist(), abs=1e-4)
    if c == 0.0:  # no feedback weight: plain dense search scaled by a
        assert ids_of(hits) == ids_of(loaded.search_dense(NAME, target, 8))
    where = {"act_code": "BNS"}
    assert {h.payload["act_code"] for h in loaded.search_feedback(NAME, target, feedback, 3,
                                                                   where)} == {"BNS"}


def test_relevance_feedback_formula_by_hand() -> None:
    v1, v2 = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    feedback = NaiveFeedback(((v1, 0.8), (v2, 0.3)), a=2.0, b=2.0, c=4.0)
    doc = np.array([[0.6, 0.8]])
    # 2 * 0.6 (target v1) + 4 * 0.5^2 * (0.6 - 0.8); the pair (v2, v1) has confidence < 0
    assert feedback.scores(v1, doc)[0] == pytest.approx(1.2 + 1.0 * -0.2)


def test_feedback_retriever_lets_the_lexical_branch_judge_the_dense_examples(
        loaded: VectorStore) -> None:
    from nyaya.retrieval.retrievers import Query, StoreDense, StoreFeedback

    vector_of = {p.payload["doc_id"]: p.dense for p in POINTS}.__getitem__
    target = _unit(np.random.default_rng(3).normal(size=DIM))
    query = Query("q", target, ([COMMON_TERM, RARE_TERM], [1.0, 1.0]), analysis=None)
    dense = [h.doc_id for h in StoreDense(loaded, NAME).search(query, 10)]
    assert [h.doc_id for h in StoreFeedback(loaded, NAME, vector_of, c=0.0).search(
        query, 10)] == dense  # no pull: plain dense search
    lexical_only = Query("q", target, ([], []), analysis=None)
    assert [h.doc_id for h in StoreFeedback(loaded, NAME, vector_of, c=1.0).search(
        lexical_only, 10)] == dense  # nothing to judge the examples with
    # by hand: the five dense examples, scored by BM25 over just them, divided by the best
    examples = dense[:5]
    judged = {str(h.payload["doc_id"]): h.score for h in loaded.search_sparse(
        NAME, [COMMON_TERM, RARE_TERM], [1.0, 1.0], 5, {"doc_id": examples})}
    best = max(judged.values())
    feedback = NaiveFeedback(tuple((vector_of(d), judged.get(d, 0.0) / best) for d in examples),
                             1.0, 1.0, 1.0)
    expected = [str(h.payload["doc_id"]) for h in loaded.search_feedback(NAME, target,
                                                                          feedback, 10)]
    found = StoreFeedback(loaded, NAME, vector_of, c=1.0).search(query, 10)
    assert [h.doc_id for h in found] == expected != dense
    assert {h.method for h in found} == {"dense-feedback"}


def test_feedback_retrievers_share_their_first_pass_through_a_memo(
        loaded: VectorStore, monkeypatch: pytest.MonkeyPatch) -> None:
    """A grid over a, b, c (evals/tuning.py) runs the first pass once per query; the answers
    are those of a retriever without a memo."""
    from nyaya.retrieval import retrievers
    from nyaya.retrieval.retrievers import Query, StoreFeedback

    vector_of = {p.payload["doc_id"]: p.dense for p in POINTS}.__getitem__
    query = Query("q", _unit(np.random.default_rng(3).normal(size=DIM)),
                  ([COMMON_TERM, RARE_TERM], [1.0, 1.0]), analysis=None)
    memo: dict = {}
    for c in (0.0, 0.5, 1.0, 2.0):
        shared = StoreFeedback(loaded, NAME, vector_of, c=c, memo=memo).search(query, 10)
        alone = StoreFeedback(loaded, NAME, vector_of, c=c).search(query, 10)
        assert [(h.doc_id, h.score) for h in shared] == [(h.doc_id, h.score) for h in alone]
    assert len(memo) == 1
    StoreFeedback(loaded, NAME, vector_of, examples=3, c=1.0, memo=memo).search(query, 10)
    assert len(memo) == 2  # another first pass: more examples is another key
    monkeypatch.setattr(retrievers, "FEEDBACK_MEMO_SIZE", 2)
    other = Query("r", query.dense[::-1].copy(), query.sparse, analysis=None)
    StoreFeedback(loaded, NAME, vector_of, c=1.0, memo=memo).search(other, 10)
    assert len(memo) == 2  # bounded: the oldest went


def test_edge_store_scans_every_point(tmp_path: Path) -> None:
    """The same answers as brute force for plain, filtered and fused searches."""
    store = load(EdgeStore(tmp_path / "qdrant"))
    try:
        query = _unit(np.random.default_rng(4).normal(size=DIM))
        assert ids_of(store.search_dense(NAME, query, 7)) == brute_force(query)[:7]
        where = {"act_code": "BNS"}
        assert ids_of(store.search_dense(NAME, query, 4, where)) == brute_force(query,
                                                                                where)[:4]
        fused = store.hybrid(NAME, query, ([COMMON_TERM, RARE_TERM], [1.0, 1.0]), 5,
                             prefetch_k=50)
        assert len(fused) == 5 and fused[0].score >= fused[-1].score
        assert ids_of(store.search_sparse(NAME, [RARE_TERM], [1.0], 3)) == [7]
    finally:
        store.close()


def test_a_writer_seals_its_shard_and_a_damaged_one_is_refused(tmp_path: Path) -> None:
    """A shard that lost a file (Qdrant opens it anyway, with a fraction of its points) or
    whose point count moved is refused to searches and rebuilt by a writer."""
    writer = EdgeStore(tmp_path)
    writer.create(SPEC)
    writer.upsert(NAME, POINTS)
    writer.close()
    assert EdgeStore(tmp_path).damage(NAME) is None
    seal = tmp_path / f"{NAME}.built.json"
    assert json.loads(seal.read_text())["points"] == 50
    victim = next(path for path in sorted((tmp_path / NAME).rglob("*")) if path.is_file()
                  and "segments" in path.parts)
    victim.unlink()
    assert "1 file(s) missing" in EdgeStore(tmp_path).damage(NAME)
    reader = EdgeStore(tmp_path, read_only=True)
    with pytest.raises(StoreDamagedError, match=r"is damaged \(1 file\(s\) missing: .*`nyaya "
                       r"run` rebuilds it"):
        reader.count(NAME)
    reader.close()
    rebuilt = EdgeStore(tmp_path)
    with pytest.raises(StoreDamagedError):
        rebuilt.create(SPEC)  # what sync_collection answers with recreate=True
    rebuilt.create(SPEC, recreate=True)
    rebuilt.upsert(NAME, POINTS)
    rebuilt.close()
    assert EdgeStore(tmp_path).damage(NAME) is None
    seal.write_text(seal.read_text().replace('"points": 50', '"points": 51'))
    reader = EdgeStore(tmp_path, read_only=True)
    with pytest.raises(StoreDamagedError, match="50 points, 51 when it was built"):
        reader.count(NAME)
    reader.close()
    seal.unlink()
    assert EdgeStore(tmp_path).damage(NAME) == "no build seal"


def test_two_edge_builds_of_the_same_vectors_answer_alike_and_exactly(tmp_path: Path) -> None:
    """Over 10 MB of vectors, where Qdrant would otherwise build its HNSW graph (random levels,
    approximate answers that changed from build to build), two embedded builds give the
    brute-force top 10 for every query."""
    rng = np.random.default_rng(11)
    vectors = rng.normal(size=(9000, 384)).astype(np.float32)
    vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
    queries = vectors[:40] + rng.normal(scale=0.5, size=(40, 384)).astype(np.float32)
    spec = CollectionSpec("many", 384)
    answers = []
    for build in ("a", "b"):
        store = EdgeStore(tmp_path / build)
        try:
            store.create(spec)
            store.upsert("many", (StorePoint(i, vector, None, {}) for i, vector in
                                  enumerate(vectors)))
            store.optimize("many")
            answers.append([ids_of(store.search_dense("many", query, 10)) for query in queries])
        finally:
            store.close()
    scores = queries @ vectors.T
    expected = [sorted(range(len(vectors)), key=lambda i: (-row[i], i))[:10] for row in scores]
    assert answers[0] == answers[1] == expected
