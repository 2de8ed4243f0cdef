"""One thin vector-store adapter over two Qdrant backends.

`EdgeStore` runs Qdrant's embedded engine (qdrant-edge) in-process, one shard per
collection under a local directory: the default, with no server to run. `ServerStore` talks
to a Qdrant server through qdrant-client. Both implement `VectorStore` with the same
semantics, so the pipelines and the evaluation can switch backend by setting a URL:

- named dense vectors (cosine) and BM25 sparse vectors whose IDF the engine applies at query
  time (the caller stores only the term-frequency part, see `nyaya.index.sparse`);
- `where` filters are `{field: value}` or `{field: [v1, v2]}`, all fields must match;
- every result list is ordered by score descending, then id ascending, and the top k is
  exact under that order (ties at the cut are resolved by id, not by engine internals), so
  runs are reproducible and the backends agree;
- the embedded store builds no HNSW graph and scans every point: Qdrant draws a graph's
  levels at random, so two builds of the same vectors answered some searches differently
  (every dense config's runs changed from build to build, and the section ranker trained on
  them). A scan costs about 3 ms over the sections and 11-15 ms over the judgment chunks
  (docs/speed.md). A server, for corpora past one machine, keeps its graph;
- hybrid search fuses the dense and sparse branches inside the engine (RRF or DBSF);
- group-by is emulated once, on top of dense search, because qdrant-edge has none.
"""

from __future__ import annotations

import fcntl
import hashlib
import json
import os
import re
import shutil
import tempfile
from abc import ABC, abstractmethod
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import asdict, dataclass
from itertools import permutations
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import qdrant_edge as qe

from nyaya.processes import alive
from nyaya.tables import beside

if TYPE_CHECKING:
    from qdrant_client import QdrantClient

BACKEND_EDGE = "qdrant-edge"
BACKEND_SERVER = "qdrant-server"
FUSIONS = ("rrf", "dbsf")
# RRF constant, given explicitly because qdrant-edge requires one: Qdrant server's default,
# so both backends fuse exactly as a server's plain `Fusion.RRF` would.
RRF_K = 2
# feedback pairs whose scores differ by no more than this are ignored (the engine's margin)
FEEDBACK_MARGIN = 0.0
SCROLL_PAGE = 1024
# Qdrant's HNSW defaults, for a server's collections. Its extra graph links per payload value
# (`payload_m`) rebuild the graph for every large block of an indexed keyword field (era,
# status, domain, Act): 2.5x the build time. Only a collection whose searches are filtered
# keeps them (`CollectionSpec.payload_links`; docs/speed.md).
HNSW_M, HNSW_EF_CONSTRUCT, FULL_SCAN_KB = 16, 100, 10_000
_COLLECTION_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]*")

Where = dict[str, Any]
SparseVector = tuple[list[int], list[float]]


@dataclass(frozen=True)
class CollectionSpec:
    """What a collection holds: the vector names and size, and which payload fields get an
    index (exact match for keywords and integers, range for floats); `payload_links` keeps
    a server's graph links per payload value, which a filtered search needs for its recall
    (the embedded store has no graph)."""

    name: str
    dense_dim: int
    dense_name: str = "dense"
    sparse_name: str = "sparse"
    keyword_fields: tuple[str, ...] = ()
    integer_fields: tuple[str, ...] = ()
    float_fields: tuple[str, ...] = ()
    payload_links: bool = False

    def difference(self, other: CollectionSpec) -> list[str]:
        """The vector settings in which `other` differs from this spec; payload indexes are
        left out because `create` adds missing ones in place."""
        return [f"{key}: existing {getattr(self, key)!r}, requested {getattr(other, key)!r}"
                for key in ("dense_dim", "dense_name", "sparse_name")
                if getattr(self, key) != getattr(other, key)]


@dataclass(frozen=True)
class StorePoint:
    """One point to write: `dense` is float32 and already L2-normalised; `sparse` holds BM25
    term-frequency weights (indices, values), or None for a point without text."""

    id: int
    dense: np.ndarray
    sparse: SparseVector | None
    payload: dict[str, Any]


@dataclass(frozen=True)
class StoreHit:
    id: int
    score: float
    payload: dict[str, Any]


@dataclass(frozen=True)
class ScoreBoost:
    """A payload formula applied to fused scores inside the engine (spec 001's score
    boosting): score * (base + scale * payload[factor_field]) + every bonus whose payload
    field equals its value. `apply` is the same formula in Python, for candidates fused
    outside the engine and for the parity test."""

    factor_field: str | None = None
    base: float = 1.0
    scale: float = 0.0
    factor_default: float = 1.0  # for points without the factor field
    bonuses: tuple[tuple[str, Any, float], ...] = ()  # (field, value, added score)

    def apply(self, score: float, payload: dict[str, Any]) -> float:
        factor = payload.get(self.factor_field, self.factor_default) if self.factor_field \
            else 0.0
        boosted = score * (self.base + self.scale * float(factor))
        return boosted + sum(bonus for field, value, bonus in self.bonuses
                             if payload.get(field) == value)


@dataclass(frozen=True)
class NaiveFeedback:
    """Qdrant's relevance feedback query, naive strategy: a target vector and a few examples
    scored by a feedback model. A candidate d scores a * sim(target, d) plus, for every
    ordered pair of examples (i, j) with s_i - s_j above a small margin,
    c * (s_i - s_j) ** b * (sim(v_i, d) - sim(v_j, d)). `scores` is that formula in numpy,
    for the parity test and for candidates outside the engine."""

    examples: tuple[tuple[np.ndarray, float], ...]  # (vector, feedback score)
    a: float = 1.0
    b: float = 1.0
    c: float = 1.0

    def scores(self, target: np.ndarray, vectors: np.ndarray) -> np.ndarray:
        total = self.a * (vectors @ target)
        for (v_i, s_i), (v_j, s_j) in permutations(self.examples, 2):
            confidence = s_i - s_j
            if confidence > FEEDBACK_MARGIN:
                total = total + self.c * confidence ** self.b * (vectors @ v_i - vectors @ v_j)
        return total


class StoreLockedError(RuntimeError):
    """Another process (or another EdgeStore) owns an embedded shard: qdrant-edge has no
    multi-writer support, so a second owner is refused instead of corrupting the shard."""


class StoreDamagedError(ValueError):
    """A shard that no longer holds what its last writer left: a file gone or changed, or
    another point count. Never searched; a writer rebuilds it (`create` raises it as the
    ValueError that makes `sync_collection` recreate the collection)."""


class ReadOnlyStoreError(RuntimeError):
    """A write through a store opened for searching only."""


class UnknownCollectionError(LookupError):
    """The collection has not been created in this store."""

    def __init__(self, collection: str, where: str) -> None:
        super().__init__(f"no collection {collection!r} in {where}; create it first")
        self.collection = collection


def point_id(doc_id: str) -> int:
    """A stable non-negative 63-bit point id for a document id, the same in every run and
    on both backends (Qdrant ids are unsigned; 63 bits keeps them valid int64 too)."""
    return int.from_bytes(hashlib.sha256(doc_id.encode("utf-8")).digest()[:8], "big") & (
        (1 << 63) - 1)


class VectorStore(Protocol):
    """The operations the pipelines and retrieval need, implemented by both backends."""

    backend: str

    def create(self, spec: CollectionSpec, recreate: bool = False) -> None: ...
    def upsert(self, collection: str, points: Iterable[StorePoint],
               batch_size: int = 1024) -> int: ...
    def delete(self, collection: str, ids: Sequence[int]) -> None: ...
    def count(self, collection: str, where: Where | None = None) -> int: ...
    def ids(self, collection: str) -> set[int]: ...
    def payload_values(self, collection: str, field: str) -> dict[int, Any]: ...
    def search_dense(self, collection: str, vector: np.ndarray, k: int,
                     where: Where | None = None) -> list[StoreHit]: ...
    def search_sparse(self, collection: str, indices: list[int], values: list[float], k: int,
                      where: Where | None = None) -> list[StoreHit]: ...
    def hybrid(self, collection: str, vector: np.ndarray, sparse: SparseVector, k: int,
               prefetch_k: int = 100, fusion: str = "rrf",
               where: Where | None = None, rrf_k: int = RRF_K,
               weights: tuple[float, float] | None = None, boost: ScoreBoost | None = None,
               mmr_diversity: float | None = None) -> list[StoreHit]: ...
    def search_feedback(self, collection: str, vector: np.ndarray, feedback: NaiveFeedback,
                        k: int, where: Where | None = None) -> list[StoreHit]: ...
    def lookup(self, collection: str, where: Where, limit: int = 100) -> list[StoreHit]: ...
    def search_groups(self, collection: str, vector: np.ndarray, group_by: str, groups: int,
                      group_size: int, where: Where | None = None
                      ) -> list[tuple[Any, list[StoreHit]]]: ...
    def optimize(self, collection: str) -> None: ...
    def note_content(self, collection: str, version: str) -> None: ...
    def close(self) -> None: ...


def _rank_key(hit: StoreHit) -> tuple[float, int]:
    return -hit.score, hit.id


def _exact_top(fetch: Callable[[int], list[StoreHit]], k: int) -> list[StoreHit]:
    """The top k by (score desc, id asc), whatever order the engine breaks ties in.

    Fetches one more than needed; while the last fetched hit still ties the k-th, a tied
    point may have been left out, so fetch twice as many. Ties are rare, so this is
    normally one call.
    """
    if k <= 0:
        return []
    limit = k + 1
    while True:
        hits = sorted(fetch(limit), key=_rank_key)
        if len(hits) < limit or hits[-1].score < hits[k - 1].score:
            return hits[:k]
        limit *= 2


def _union(prefetch_k: int, branches: Sequence[Any]) -> int:
    """A fused stage's limit that keeps every candidate of its branches: fused scores tie
    often, and a cut among ties is settled by the engine's segment layout, which differs
    between two builds of the same points."""
    return prefetch_k * len(branches)


def _hits(points: Iterable[Any]) -> list[StoreHit]:
    """Engine scored points (either backend) as hits."""
    return [StoreHit(int(p.id), float(p.score), dict(p.payload or {})) for p in points]


def _batches(points: Iterable[StorePoint], size: int) -> Iterator[list[StorePoint]]:
    batch: list[StorePoint] = []
    for point in points:
        batch.append(point)
        if len(batch) >= size:
            yield batch
            batch = []
    if batch:
        yield batch


def _as_list(vector: np.ndarray) -> list[float]:
    return np.asarray(vector, dtype=np.float32).tolist()


def _check_fusion(fusion: str) -> None:
    if fusion not in FUSIONS:
        raise ValueError(f"unknown fusion {fusion!r}; expected one of {FUSIONS}")


def _check_name(collection: str) -> None:
    if not _COLLECTION_NAME.fullmatch(collection):
        raise ValueError(f"bad collection name {collection!r}: letters, digits, _ . - only")


class _StoreBase(ABC):
    """What both backends share, written once so it behaves the same on both: scroll-based
    reads and the group-by emulation (qdrant-edge has no group-by, so the server's is not
    used either)."""

    @abstractmethod
    def search_dense(self, collection: str, vector: np.ndarray, k: int,
                     where: Where | None = None) -> list[StoreHit]: ...

    @abstractmethod
    def count(self, collection: str, where: Where | None = None) -> int: ...

    @abstractmethod
    def _scroll(self, collection: str, where: Where | None, with_payload: bool | list[str],
                limit: int | None = None) -> Iterator[Any]:
        """Records (id, payload) in id order, `limit` at most, without vectors."""

    def ids(self, collection: str) -> set[int]:
        return {int(r.id) for r in self._scroll(collection, None, False)}

    def payload_values(self, collection: str, field: str) -> dict[int, Any]:
        """id -> payload[field] for every point, None where the field is missing, so a sync
        still sees (and can delete) such points."""
        return {int(r.id): (r.payload or {}).get(field)
                for r in self._scroll(collection, None, [field])}

    def lookup(self, collection: str, where: Where, limit: int = 100) -> list[StoreHit]:
        """Payload-only exact match, in id order, score 1.0."""
        return sorted((StoreHit(int(r.id), 1.0, dict(r.payload or {}))
                       for r in self._scroll(collection, where, True, limit)),
                      key=lambda hit: hit.id)

    def search_groups(self, collection: str, vector: np.ndarray, group_by: str, groups: int,
                      group_size: int, where: Where | None = None
                      ) -> list[tuple[Any, list[StoreHit]]]:
        """The first `groups` distinct values of payload[group_by] in ranking order, each with
        its best `group_size` hits; points without the field are skipped.

        Equal to grouping the full ranking client-side: pages grow (doubling) until each
        chosen group is full, or known complete because its filtered count is reached, or
        the collection is exhausted.
        """
        if groups <= 0 or group_size <= 0:
            return []
        totals: dict[Any, int] = {}
        limit = max(4 * groups * group_size, 32)
        while True:
            hits = self.search_dense(collection, vector, limit, where)
            members: dict[Any, list[StoreHit]] = {}
            for hit in hits:
                value = hit.payload.get(group_by)
                if value is None:
                    continue
                if value in members or len(members) < groups:
                    members.setdefault(value, []).append(hit)
            if len(hits) < limit or (len(members) == groups and all(
                    self._group_complete(collection, group_by, value, len(found), group_size,
                                         where, totals)
                    for value, found in members.items())):
                return [(value, found[:group_size]) for value, found in members.items()]
            limit *= 2

    def _group_complete(self, collection: str, group_by: str, value: Any, found: int,
                        group_size: int, where: Where | None, totals: dict[Any, int]) -> bool:
        if found >= group_size:
            return True
        if not isinstance(value, str | int):  # only these can be matched exactly
            return False
        if value not in totals:
            totals[value] = self.count(collection, {**(where or {}), group_by: value})
        return found >= totals[value]


# --------------------------------------------------------------------------- qdrant-edge


def _edge_filter(where: Where | None) -> qe.Filter | None:
    if not where:
        return None
    return qe.Filter(must=[
        qe.FieldCondition(key, match=qe.MatchAny(list(value)) if isinstance(value, list | tuple)
                          else qe.MatchValue(value))
        for key, value in where.items()])


def _edge_formula(boost: ScoreBoost) -> qe.Formula:
    ex = qe.Expression
    factor = ex.Constant(boost.base)
    if boost.factor_field:
        factor = ex.Sum([factor, ex.Mult([ex.Constant(boost.scale),
                                          ex.Variable(boost.factor_field)])])
    terms = [ex.Mult([ex.Variable("$score"), factor])]
    terms += [ex.Mult([ex.Condition(qe.FieldCondition(field, match=qe.MatchValue(value))),
                       ex.Constant(bonus)]) for field, value, bonus in boost.bonuses]
    defaults = {boost.factor_field: boost.factor_default} if boost.factor_field else None
    return qe.Formula(ex.Sum(terms), defaults=defaults)


@dataclass
class _Shard:
    shard: qe.EdgeShard
    spec: CollectionSpec


class EdgeStore(_StoreBase):
    """Qdrant Edge, embedded: one shard per collection at `<root>/<collection>/`, its spec at
    `<root>/<collection>.spec.json`, its owner lock at `<root>/<collection>.lock`.

    A shard has one writer: opening it takes an exclusive `flock` (the lock file names the
    writer's PID) and a second opener gets `StoreLockedError`, so two writers never meet on
    one shard. The engine locks a shard's WAL for as long as it is loaded, so readers cannot
    share the files either: a `read_only` store copies each shard it searches into a private
    folder (`<root>/.readers/<pid>-*/`) under a shared lock, which only waits out a writer,
    then releases the lock and searches its copy. A search therefore runs beside a run, the
    UI, a server and other searches, and never blocks a rebuild; it sees the shard as it was
    when it opened. Copying costs about 1 s per 500 MB. Shards open lazily and stay open until
    `close()`, which deletes a reader's copies. Call `optimize()` after bulk loads.

    A writer's `close()` seals each shard it opened: `<root>/<collection>.built.json` records
    its point count and the size of every file. Opening a shard checks the files against it
    (and the count once loaded), so a shard that lost or changed a file is refused instead of
    searched with a fraction of its points; `damage()` is the same check without loading.
    """

    backend = BACKEND_EDGE
    #: every search scans all points, so a top k is the first k of any larger top k
    exact = True

    def __init__(self, root: Path, read_only: bool = False) -> None:
        """`read_only`: search private copies; a write raises `ReadOnlyStoreError`. Every
        nearest-neighbour search and prefetch scans all points, a shard built with a graph
        by an older version too."""
        self.root = Path(root)
        self.read_only = read_only
        self._params = qe.SearchParams(exact=True)
        self._shards: dict[str, _Shard] = {}
        self._locks: dict[str, int] = {}
        self._copies: Path | None = None
        self._contents: dict[str, str] = {}
        self._written: set[str] = set()

    def _spec_path(self, collection: str) -> Path:
        return self.root / f"{collection}.spec.json"

    def _read_spec(self, collection: str) -> CollectionSpec | None:
        path = self._spec_path(collection)
        if not path.is_file():
            return None
        raw = json.loads(path.read_text())
        return CollectionSpec(**{key: tuple(value) if isinstance(value, list) else value
                                 for key, value in raw.items()})

    def _write_spec(self, spec: CollectionSpec) -> None:
        path = self._spec_path(spec.name)
        tmp = beside(path)
        tmp.write_text(json.dumps(asdict(spec), indent=2) + "\n")
        tmp.replace(path)

    def _lock(self, collection: str) -> None:
        """Take the collection's writer lock, once per store."""
        if collection in self._locks:
            return
        self._locks[collection] = self._flock(collection, fcntl.LOCK_EX)

    def _flock(self, collection: str, kind: int) -> int:
        """The open lock file of a collection, locked `kind` (exclusive: the PID written)."""
        self.root.mkdir(parents=True, exist_ok=True)
        path = self.root / f"{collection}.lock"
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(fd, kind | fcntl.LOCK_NB)
        except BlockingIOError:
            writer = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            if kind == fcntl.LOCK_SH:
                raise StoreLockedError(
                    f"Qdrant Edge shard {self.root / collection} is being written by PID "
                    f"{writer} (lock file {path}): search again when it is built, or set "
                    "NYAYA_QDRANT_URL to search a Qdrant server") from None
            raise StoreLockedError(
                f"Qdrant Edge shard {self.root / collection} is locked by PID {writer} or by "
                f"a search copying it (lock file {path}): another process or store owns it; "
                "close that one first, or give this one its own qdrant path") from None
        if kind == fcntl.LOCK_EX:
            os.ftruncate(fd, 0)
            os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
        return fd

    def _reader_copy(self, collection: str) -> Path:
        """A private copy of the shard, taken while no writer holds it."""
        fd = self._flock(collection, fcntl.LOCK_SH)
        try:
            if self._copies is None:
                readers = self.root / ".readers"
                readers.mkdir(parents=True, exist_ok=True)
                _remove_dead_copies(readers)
                self._copies = Path(tempfile.mkdtemp(prefix=f"{os.getpid()}-", dir=readers))
            target = self._copies / collection
            shutil.copytree(self.root / collection, target)
        finally:
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
        return target

    def _writable(self, collection: str) -> None:
        """Refuse a write to a read-only store; note the write otherwise (see `_write_seal`)."""
        if self.read_only:
            raise ReadOnlyStoreError(f"Qdrant Edge store {self.root} was opened read-only: "
                                     f"cannot write collection {collection!r}")
        self._written.add(collection)

    def _shard(self, collection: str) -> _Shard:
        if collection in self._shards:
            return self._shards[collection]
        spec = self._read_spec(collection)
        if spec is None:
            raise UnknownCollectionError(collection, f"Qdrant Edge store {self.root}")
        if self.read_only:
            directory = self._reader_copy(collection)
        else:
            self._lock(collection)
            directory = self.root / collection
        seal = self._seal(collection)
        problem = _damage(directory, seal)
        shard = None if problem else qe.EdgeShard.load(str(directory))
        if shard is not None and seal is not None:
            points = shard.count(qe.CountRequest(exact=True))
            if points != seal["points"]:
                problem = f"{points} points, {seal['points']} when it was built"
        if problem:
            if shard is not None:
                shard.close()
            raise StoreDamagedError(
                f"Qdrant Edge shard {self.root / collection} is damaged ({problem}): not "
                "searched; `nyaya run` rebuilds it")
        opened = _Shard(shard, spec)
        self._shards[collection] = opened
        return opened

    def _seal_path(self, collection: str) -> Path:
        return self.root / f"{collection}.built.json"

    def _seal(self, collection: str) -> dict | None:
        path = self._seal_path(collection)
        try:
            return json.loads(path.read_text()) if path.is_file() else None
        except ValueError:
            return {"points": -1, "files": {}}  # an unreadable seal seals nothing

    def _write_seal(self, collection: str, points: int) -> None:
        path = self._seal_path(collection)
        tmp = beside(path)
        seal = {"points": points, "files": _files(self.root / collection)}
        # the content noted by this writer; one that only read keeps the last one's
        content = (self._contents.get(collection) if collection in self._written
                   or collection in self._contents else self.sealed_content(collection))
        if content:
            seal["content"] = content
        tmp.write_text(json.dumps(seal, indent=1) + "\n")
        tmp.replace(path)

    def note_content(self, collection: str, version: str) -> None:
        """Kept in the shard's seal at `close()`, where a damaged shard leaves it readable:
        a rebuild that comes back with the same content spares what reads the store."""
        self._contents[collection] = version

    def sealed_content(self, collection: str) -> str | None:
        """The content version the shard's seal records, if any."""
        seal = self._seal(collection)
        return seal.get("content") if seal else None

    def damage(self, collection: str) -> str | None:
        """Why the collection's shard on disk is not what its last writer left (a file
        missing, added or resized; no seal: built before seals or never closed), or None.
        Reads file sizes only: what freshness asks on every run."""
        if self._read_spec(collection) is None:
            return "no collection"
        seal = self._seal(collection)
        if seal is None:
            return "no build seal"
        return _damage(self.root / collection, seal)

    def create(self, spec: CollectionSpec, recreate: bool = False) -> None:
        """Create the collection's shard and payload indexes. Idempotent for the same
        vectors; indexes missing from an existing shard are added; different vectors are a
        ValueError unless `recreate` (which drops every point)."""
        _check_name(spec.name)
        self._writable(spec.name)
        self._lock(spec.name)
        existing = self._read_spec(spec.name)
        directory = self.root / spec.name
        if existing is not None and not recreate:
            difference = existing.difference(spec)
            if difference:
                raise ValueError(f"collection {spec.name!r} exists with other vectors "
                                 f"({'; '.join(difference)}); use recreate=True to rebuild it")
            shard = self._shard(spec.name).shard
        else:
            if spec.name in self._shards:
                self._shards.pop(spec.name).shard.close()
            if existing is None and directory.exists() and not recreate:
                raise ValueError(f"{directory} holds a shard without its spec file (an "
                                 "interrupted create?); use recreate=True to rebuild it")
            shutil.rmtree(directory, ignore_errors=True)
            self._spec_path(spec.name).unlink(missing_ok=True)
            shard = qe.EdgeShard.create(str(directory), qe.EdgeConfig(
                vectors={spec.dense_name: qe.EdgeVectorParams(size=spec.dense_dim,
                                                              distance=qe.Distance.Cosine)},
                sparse_vectors={spec.sparse_name: qe.EdgeSparseVectorParams(
                    modifier=qe.Modifier.Idf)},
                # no graph: every search is a scan (see the module's docstring)
                hnsw_config=qe.HnswIndexConfig(m=0, payload_m=0, ef_construct=HNSW_EF_CONSTRUCT,
                                               full_scan_threshold=FULL_SCAN_KB)))
        indexed = {name: info.data_type for name, info in shard.info().payload_schema.items()}
        for names, schema in ((spec.keyword_fields, qe.PayloadSchemaType.Keyword),
                              (spec.integer_fields, qe.PayloadSchemaType.Integer),
                              (spec.float_fields, qe.PayloadSchemaType.Float)):
            for name in names:
                if indexed.get(name) != schema:  # each index build is a flush (~0.1 s)
                    shard.update(qe.UpdateOperation.create_field_index(name, schema))
        self._write_spec(spec)
        self._shards[spec.name] = _Shard(shard, spec)

    def upsert(self, collection: str, points: Iterable[StorePoint],
               batch_size: int = 1024) -> int:
        """Write points in batches (one engine update each); returns how many."""
        self._writable(collection)
        opened = self._shard(collection)
        dense, sparse = opened.spec.dense_name, opened.spec.sparse_name
        written = 0
        for batch in _batches(points, batch_size):
            opened.shard.update(qe.UpdateOperation.upsert_points([
                qe.Point(p.id, {dense: np.asarray(p.dense, dtype=np.float32).tolist()}
                         | ({sparse: qe.SparseVector(list(p.sparse[0]), list(p.sparse[1]))}
                            if p.sparse is not None else {}), p.payload)
                for p in batch]))
            written += len(batch)
        return written

    def delete(self, collection: str, ids: Sequence[int]) -> None:
        self._writable(collection)
        opened = self._shard(collection)
        if len(ids):
            opened.shard.update(qe.UpdateOperation.delete_points([int(i) for i in ids]))

    def count(self, collection: str, where: Where | None = None) -> int:
        return self._shard(collection).shard.count(
            qe.CountRequest(exact=True, filter=_edge_filter(where)))

    def _scroll(self, collection: str, where: Where | None, with_payload: bool | list[str],
                limit: int | None = None) -> Iterator[Any]:
        shard = self._shard(collection).shard
        offset, seen = None, 0
        while limit is None or seen < limit:
            page = SCROLL_PAGE if limit is None else min(SCROLL_PAGE, limit - seen)
            records, offset = shard.scroll(qe.ScrollRequest(
                offset=offset, limit=page, filter=_edge_filter(where),
                with_payload=with_payload, with_vector=False))
            yield from records
            seen += len(records)
            if offset is None:
                return

    def _query(self, collection: str, limit: int, query: Any,
               prefetches: list[qe.Prefetch] | None = None,
               where: Where | None = None) -> list[StoreHit]:
        return _hits(self._shard(collection).shard.query(qe.QueryRequest(
            limit=limit, query=query, prefetches=prefetches, filter=_edge_filter(where),
            params=self._params, with_payload=True, with_vector=False)))

    def search_dense(self, collection: str, vector: np.ndarray, k: int,
                     where: Where | None = None) -> list[StoreHit]:
        query = qe.Query.Nearest(np.asarray(vector, dtype=np.float32).tolist(),
                                 using=self._shard(collection).spec.dense_name)
        return _exact_top(lambda n: self._query(collection, n, query, where=where), k)

    def search_sparse(self, collection: str, indices: list[int], values: list[float], k: int,
                      where: Where | None = None) -> list[StoreHit]:
        using = self._shard(collection).spec.sparse_name
        if not len(indices):
            return []
        query = qe.Query.Nearest(qe.SparseVector(list(indices), list(values)), using=using)
        return _exact_top(lambda n: self._query(collection, n, query, where=where), k)

    def search_feedback(self, collection: str, vector: np.ndarray, feedback: NaiveFeedback,
                        k: int, where: Where | None = None) -> list[StoreHit]:
        """Dense search steered by scored examples (Qdrant's relevance feedback query)."""
        using = self._shard(collection).spec.dense_name
        query = qe.Query.FeedbackNaive(qe.FeedbackNaiveQuery(
            _as_list(vector), [qe.FeedbackItem(_as_list(v), float(s))
                               for v, s in feedback.examples],
            qe.NaiveFeedbackStrategy(feedback.a, feedback.b, feedback.c)), using=using)
        return _exact_top(lambda n: self._query(collection, n, query, where=where), k)

    def hybrid(self, collection: str, vector: np.ndarray, sparse: SparseVector, k: int,
               prefetch_k: int = 100, fusion: str = "rrf",
               where: Where | None = None, rrf_k: int = RRF_K,
               weights: tuple[float, float] | None = None, boost: ScoreBoost | None = None,
               mmr_diversity: float | None = None) -> list[StoreHit]:
        """Dense and sparse branches as prefetches, fused in the engine (RRF with Qdrant's
        k and optional (dense, sparse) weights, or DBSF); then, optionally, a score-boosting
        formula over the fused candidates and MMR over those. An empty sparse query leaves
        only the dense branch."""
        _check_fusion(fusion)
        spec = self._shard(collection).spec
        condition = _edge_filter(where)
        dense = np.asarray(vector, dtype=np.float32).tolist()
        prefetches = [qe.Prefetch(limit=prefetch_k, filter=condition, params=self._params,
                                  query=qe.Query.Nearest(dense, using=spec.dense_name))]
        if len(sparse[0]):
            prefetches.append(qe.Prefetch(limit=prefetch_k, filter=condition,
                                          params=self._params, query=(
                qe.Query.Nearest(qe.SparseVector(list(sparse[0]), list(sparse[1])),
                                 using=spec.sparse_name))))
        branch_weights = list(weights[:len(prefetches)]) if weights else None
        fused = (qe.Fusion.Rrf(k=rrf_k, weights=branch_weights) if fusion == "rrf"
                 else qe.Fusion.Dbsf())
        if boost is None and mmr_diversity is None:
            return _exact_top(lambda n: self._query(collection, n, fused, prefetches), k)
        query, stages = fused, prefetches
        if boost is not None:
            fused_stage = qe.Prefetch(limit=_union(prefetch_k, prefetches),
                                      prefetches=prefetches, query=fused)
            query, stages = _edge_formula(boost), [fused_stage]
        if mmr_diversity is None:
            return _exact_top(lambda n: self._query(collection, n, query, stages), k)
        mmr = qe.Mmr(dense, lambda_=1.0 - mmr_diversity, candidates_limit=prefetch_k,
                     using=spec.dense_name)
        # MMR picks greedily, so its order is the answer: no re-sorting by score
        return self._query(collection, k, mmr,
                           [qe.Prefetch(limit=prefetch_k, prefetches=stages, query=query)])

    def optimize(self, collection: str) -> None:
        """Merge and index segments in-process (blocking); worth it after bulk loads."""
        self._writable(collection)
        self._shard(collection).shard.optimize()

    def close(self) -> None:
        """Close every open shard (closing persists it) and, for a writer, seal it; then
        release the locks and delete a reader's copies."""
        for collection, opened in self._shards.items():
            points = None if self.read_only else opened.shard.count(
                qe.CountRequest(exact=True))
            opened.shard.close()
            if points is not None:
                self._write_seal(collection, points)
        self._shards.clear()
        self._written.clear()
        self._contents.clear()
        for fd in self._locks.values():
            fcntl.flock(fd, fcntl.LOCK_UN)
            os.close(fd)
        self._locks.clear()
        if self._copies is not None:
            shutil.rmtree(self._copies, ignore_errors=True)
            self._copies = None


def _files(directory: Path) -> dict[str, int]:
    return {str(path.relative_to(directory)): path.stat().st_size
            for path in sorted(directory.rglob("*")) if path.is_file()}


def _damage(directory: Path, seal: dict | None) -> str | None:
    """How a shard's files differ from its seal (the first few), or None."""
    if seal is None:
        return None
    if not directory.is_dir():
        return "its folder is gone"
    found, sealed = _files(directory), seal.get("files", {})
    missing = sorted(set(sealed) - set(found))
    changed = sorted(name for name in set(sealed) & set(found) if sealed[name] != found[name])
    added = sorted(set(found) - set(sealed))
    for what, names in (("missing", missing), ("changed size", changed), ("unexpected", added)):
        if names:
            return f"{len(names)} file(s) {what}: {', '.join(names[:3])}"
    return None


def _remove_dead_copies(readers: Path) -> None:
    """Delete the copies of readers whose process is gone (killed before `close`)."""
    for folder in readers.iterdir():
        pid = folder.name.split("-", 1)[0]
        if pid.isdigit() and not alive(int(pid)):
            shutil.rmtree(folder, ignore_errors=True)


# --------------------------------------------------------------------------- qdrant server


def _server_filter(where: Where | None) -> Any:
    from qdrant_client import models

    if not where:
        return None
    return models.Filter(must=[
        models.FieldCondition(key=key, match=models.MatchAny(any=list(value))
                              if isinstance(value, list | tuple)
                              else models.MatchValue(value=value))
        for key, value in where.items()])


class ServerStore(_StoreBase):
    """A Qdrant server (or qdrant-client's local mode in tests) through qdrant-client.

    For a real deployment, create the collections sharded and replicated: pass
    `shard_number` (e.g. 2 per node) and `replication_factor` (2 or more, so a node can
    fail without losing reads); both go to `create_collection`. The client is built
    elsewhere (`from_url`) so tests can hand in `QdrantClient(location=":memory:")`.
    The server needs parameterised RRF (Qdrant 1.16+).
    """

    backend = BACKEND_SERVER
    #: a server's collections search through their HNSW graph: a top k need not be the
    #: first k of a larger one
    exact = False

    def __init__(self, client: QdrantClient, shard_number: int | None = None,
                 replication_factor: int | None = None) -> None:
        self.client = client
        self.shard_number = shard_number
        self.replication_factor = replication_factor
        self._names: dict[str, tuple[str, str]] = {}

    @classmethod
    def from_url(cls, url: str, api_key: str | None = None, shard_number: int | None = None,
                 replication_factor: int | None = None) -> ServerStore:
        from qdrant_client import QdrantClient

        return cls(QdrantClient(url=url, api_key=api_key), shard_number, replication_factor)

    def _existing(self, collection: str) -> CollectionSpec | None:
        """The vector settings of an existing collection (payload indexes left empty)."""
        if not self.client.collection_exists(collection):
            return None
        params = self.client.get_collection(collection).config.params
        dense = params.vectors if isinstance(params.vectors, dict) else {"": params.vectors}
        sparse = params.sparse_vectors or {}
        if len(dense) != 1 or len(sparse) != 1:
            raise ValueError(f"collection {collection!r} has dense vectors {sorted(dense)} and "
                             f"sparse vectors {sorted(sparse)}; expected one of each")
        (dense_name, dense_params), = dense.items()
        return CollectionSpec(collection, dense_params.size, dense_name, next(iter(sparse)))

    def _vector_names(self, collection: str) -> tuple[str, str]:
        """(dense, sparse) vector names, read from the server once per collection."""
        if collection not in self._names:
            existing = self._existing(collection)
            if existing is None:
                raise UnknownCollectionError(collection, "the Qdrant server")
            self._names[collection] = (existing.dense_name, existing.sparse_name)
        return self._names[collection]

    def create(self, spec: CollectionSpec, recreate: bool = False) -> None:
        """Create the collection and payload indexes (local mode ignores indexes).
        Idempotent for the same vectors; different vectors are a ValueError unless
        `recreate` (which drops every point)."""
        from qdrant_client import models

        _check_name(spec.name)
        existing = self._existing(spec.name)
        if existing is not None and recreate:
            self.client.delete_collection(spec.name)
        elif existing is not None:
            difference = existing.difference(spec)
            if difference:
                raise ValueError(f"collection {spec.name!r} exists with other vectors "
                                 f"({'; '.join(difference)}); use recreate=True to rebuild it")
        if existing is None or recreate:
            self.client.create_collection(
                spec.name,
                vectors_config={spec.dense_name: models.VectorParams(
                    size=spec.dense_dim, distance=models.Distance.COSINE)},
                sparse_vectors_config={spec.sparse_name: models.SparseVectorParams(
                    modifier=models.Modifier.IDF)},
                hnsw_config=models.HnswConfigDiff(
                    m=HNSW_M, ef_construct=HNSW_EF_CONSTRUCT, full_scan_threshold=FULL_SCAN_KB,
                    payload_m=None if spec.payload_links else 0),
                shard_number=self.shard_number, replication_factor=self.replication_factor)
        for names, schema in ((spec.keyword_fields, models.PayloadSchemaType.KEYWORD),
                              (spec.integer_fields, models.PayloadSchemaType.INTEGER),
                              (spec.float_fields, models.PayloadSchemaType.FLOAT)):
            for name in names:
                self.client.create_payload_index(spec.name, name, field_schema=schema)
        self._names[spec.name] = (spec.dense_name, spec.sparse_name)

    def upsert(self, collection: str, points: Iterable[StorePoint],
               batch_size: int = 1024) -> int:
        """Write points in batches, waiting for each; returns how many."""
        from qdrant_client import models

        dense, sparse = self._vector_names(collection)
        written = 0
        for batch in _batches(points, batch_size):
            self.client.upsert(collection, wait=True, points=[
                models.PointStruct(
                    id=p.id, payload=p.payload,
                    vector={dense: np.asarray(p.dense, dtype=np.float32).tolist()}
                    | ({sparse: models.SparseVector(indices=list(p.sparse[0]),
                                                    values=list(p.sparse[1]))}
                       if p.sparse is not None else {}))
                for p in batch])
            written += len(batch)
        return written

    def delete(self, collection: str, ids: Sequence[int]) -> None:
        from qdrant_client import models

        self._vector_names(collection)
        if len(ids):
            self.client.delete(collection, wait=True, points_selector=models.PointIdsList(
                points=[int(i) for i in ids]))

    def count(self, collection: str, where: Where | None = None) -> int:
        self._vector_names(collection)
        return self.client.count(collection, count_filter=_server_filter(where),
                                 exact=True).count

    def _scroll(self, collection: str, where: Where | None, with_payload: bool | list[str],
                limit: int | None = None) -> Iterator[Any]:
        self._vector_names(collection)
        offset, seen = None, 0
        while limit is None or seen < limit:
            page = SCROLL_PAGE if limit is None else min(SCROLL_PAGE, limit - seen)
            records, offset = self.client.scroll(
                collection, scroll_filter=_server_filter(where), limit=page, offset=offset,
                with_payload=with_payload, with_vectors=False)
            yield from records
            seen += len(records)
            if offset is None:
                return

    def _query(self, collection: str, limit: int, **query: Any) -> list[StoreHit]:
        return _hits(self.client.query_points(
            collection, limit=limit, with_payload=True, with_vectors=False, **query).points)

    def search_dense(self, collection: str, vector: np.ndarray, k: int,
                     where: Where | None = None) -> list[StoreHit]:
        dense, _ = self._vector_names(collection)
        query = np.asarray(vector, dtype=np.float32).tolist()
        return _exact_top(lambda n: self._query(
            collection, n, query=query, using=dense, query_filter=_server_filter(where)), k)

    def search_feedback(self, collection: str, vector: np.ndarray, feedback: NaiveFeedback,
                        k: int, where: Where | None = None) -> list[StoreHit]:
        """Dense search steered by scored examples (Qdrant's relevance feedback query)."""
        from qdrant_client import models

        dense, _ = self._vector_names(collection)
        query = models.RelevanceFeedbackQuery(relevance_feedback=models.RelevanceFeedbackInput(
            target=_as_list(vector),
            feedback=[models.FeedbackItem(example=_as_list(v), score=float(s))
                      for v, s in feedback.examples],
            strategy=models.NaiveFeedbackStrategy(naive=models.NaiveFeedbackStrategyParams(
                a=feedback.a, b=feedback.b, c=feedback.c))))
        return _exact_top(lambda n: self._query(
            collection, n, query=query, using=dense, query_filter=_server_filter(where)), k)

    def search_sparse(self, collection: str, indices: list[int], values: list[float], k: int,
                      where: Where | None = None) -> list[StoreHit]:
        from qdrant_client import models

        _, sparse = self._vector_names(collection)
        if not len(indices):
            return []
        query = models.SparseVector(indices=list(indices), values=list(values))
        return _exact_top(lambda n: self._query(
            collection, n, query=query, using=sparse, query_filter=_server_filter(where)), k)

    def hybrid(self, collection: str, vector: np.ndarray, sparse: SparseVector, k: int,
               prefetch_k: int = 100, fusion: str = "rrf",
               where: Where | None = None, rrf_k: int = RRF_K,
               weights: tuple[float, float] | None = None, boost: ScoreBoost | None = None,
               mmr_diversity: float | None = None) -> list[StoreHit]:
        """As `EdgeStore.hybrid`, fused on the server (weighted RRF needs Qdrant 1.17+,
        formulas 1.14+, MMR 1.15+)."""
        from qdrant_client import models

        _check_fusion(fusion)
        dense_name, sparse_name = self._vector_names(collection)
        condition = _server_filter(where)
        dense = np.asarray(vector, dtype=np.float32).tolist()
        prefetch = [models.Prefetch(query=dense, using=dense_name, limit=prefetch_k,
                                    filter=condition)]
        if len(sparse[0]):
            prefetch.append(models.Prefetch(
                query=models.SparseVector(indices=list(sparse[0]), values=list(sparse[1])),
                using=sparse_name, limit=prefetch_k, filter=condition))
        branch_weights = list(weights[:len(prefetch)]) if weights else None
        fused = (models.RrfQuery(rrf=models.Rrf(k=rrf_k, weights=branch_weights))
                 if fusion == "rrf" else models.FusionQuery(fusion=models.Fusion.DBSF))
        if boost is None and mmr_diversity is None:
            return _exact_top(lambda n: self._query(collection, n, query=fused,
                                                    prefetch=prefetch), k)
        query: Any = fused
        stages: list[Any] = prefetch
        if boost is not None:
            fused_stage = models.Prefetch(prefetch=prefetch, query=fused,
                                          limit=_union(prefetch_k, prefetch))
            query, stages = _server_formula(boost), [fused_stage]
        if mmr_diversity is None:
            return _exact_top(lambda n: self._query(collection, n, query=query,
                                                    prefetch=stages), k)
        mmr = models.NearestQuery(nearest=dense, mmr=models.Mmr(
            diversity=mmr_diversity, candidates_limit=prefetch_k))
        return self._query(collection, k, query=mmr, using=dense_name, prefetch=[
            models.Prefetch(prefetch=stages, query=query, limit=prefetch_k)])

    def optimize(self, collection: str) -> None:
        """Nothing to do: the server runs its optimizers in the background."""
        self._vector_names(collection)

    def note_content(self, collection: str, version: str) -> None:
        """Nothing to keep: a server's collections have no seal (see `EdgeStore`)."""

    def close(self) -> None:
        self.client.close()


def _server_formula(boost: ScoreBoost) -> Any:
    from qdrant_client import models

    factor: Any = boost.base
    if boost.factor_field:
        factor = models.SumExpression(sum=[boost.base, models.MultExpression(
            mult=[boost.scale, boost.factor_field])])
    terms: list[Any] = [models.MultExpression(mult=["$score", factor])]
    terms += [models.MultExpression(mult=[models.FieldCondition(
        key=field, match=models.MatchValue(value=value)), bonus])
        for field, value, bonus in boost.bonuses]
    defaults = {boost.factor_field: boost.factor_default} if boost.factor_field else None
    return models.FormulaQuery(formula=models.SumExpression(sum=terms), defaults=defaults)


#: store hits a `RememberedSearches` keeps at most (oldest answers dropped first): about one
#: query set's dense and sparse answers on the precedent side
REMEMBERED_HITS = 400_000


class RememberedSearches:
    """A store whose dense and sparse searches are remembered, for a batch of configs run over
    the same queries: the fused statute configs share their dense and BM25 branches, the
    precedent configs their chunk searches, and each such search would otherwise scan the
    collection again. On an exact store a top k is the first k of any larger top k (hits
    ordered by score, then id), so one answer serves every smaller k. Everything else goes to
    the store unchanged; for a read-only batch, not for a store being written."""

    def __init__(self, store: VectorStore, hits: int = REMEMBERED_HITS) -> None:
        self._store = store
        self._exact = getattr(store, "exact", False)
        self._capacity = hits
        # key -> (the k asked, the hits); insertion order, oldest first
        self._answers: dict[tuple, tuple[int, list[StoreHit]]] = {}
        self._kept = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)

    def search_dense(self, collection: str, vector: np.ndarray, k: int,
                     where: Where | None = None) -> list[StoreHit]:
        key = ("dense", collection, np.asarray(vector, dtype=np.float32).tobytes(),
               _where_key(where))
        return self._remembered(key, k, lambda n: self._store.search_dense(
            collection, vector, n, where))

    def search_sparse(self, collection: str, indices: list[int], values: list[float], k: int,
                      where: Where | None = None) -> list[StoreHit]:
        key = ("sparse", collection, tuple(indices), tuple(values), _where_key(where))
        return self._remembered(key, k, lambda n: self._store.search_sparse(
            collection, indices, values, n, where))

    def _remembered(self, key: tuple, k: int, search: Callable[[int], list[StoreHit]]
                    ) -> list[StoreHit]:
        """The top k of the answer to a search asked with k or more (it holds every match
        when it has fewer), else the store's answer, remembered."""
        key = key if self._exact else (*key, k)
        asked, hits = self._answers.get(key, (0, []))
        if asked >= k:
            return hits[:k]
        hits = search(k)
        self._forget(key)
        self._answers[key] = (k, hits)
        self._kept += len(hits)
        while self._kept > self._capacity and len(self._answers) > 1:
            self._forget(next(iter(self._answers)))
        return hits[:k]

    def _forget(self, key: tuple) -> None:
        _, hits = self._answers.pop(key, (0, []))
        self._kept -= len(hits)


def _where_key(where: Where | None) -> str:
    return json.dumps(where, sort_keys=True, default=str)


def open_store(qdrant_path: Path, qdrant_url: str | None = None,
               api_key: str | None = None, read_only: bool = False) -> VectorStore:
    """The server backend when a URL is configured, else the embedded one at qdrant_path
    (`read_only`: for searching, beside other searches; a server takes readers anyway)."""
    if qdrant_url:
        return ServerStore.from_url(qdrant_url, api_key)
    return EdgeStore(qdrant_path, read_only=read_only)
