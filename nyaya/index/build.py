"""Index builds that do no work when nothing changed.

Vectors: a collection's vectors are saved in parts, one per partition of its documents (the
`partition` column: an Act for the statute collections, a year of judgments for the chunks;
one part, `all`, for a table without the column), each `<collection>/<partition>.npy` with a
JSON manifest naming the embedder fingerprint, the hash of the part's (doc id, content hash)
pairs and the hash of its vectors. A build redoes only the parts that are missing, damaged,
built by another embedder or from other documents, taking known texts from the embedding
cache; `load_vectors` puts the parts back in table order and refuses any that does not match.
Store: points are synced by content hash: only new or changed points are written and
vanished ones deleted, so a sync killed midway resumes where it stopped. FAISS: rebuilt
when the vectors' hash changed or the saved index fails its checksum.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from nyaya.index import faiss_index
from nyaya.index.cache import EmbeddingCache, embed_with_cache
from nyaya.index.collections import PARTITION, CollectionDef
from nyaya.index.sparse import TermCounts, average_length
from nyaya.index.store import StorePoint, VectorStore
from nyaya.tables import beside, records

Log = Callable[[str], None]
SPARSE_PARAMS = {"k1": 1.2, "b": 0.75}
SYNC_BATCH = 2048
# bumped when the payload written for the same row changes, so every point is rewritten once
PAYLOAD_FORMAT = 2
#: the one part of a table that has no partition column
ALL = "all"
NO_ROWS = np.zeros(0, dtype=np.int64)  # a partition without documents still gets its (empty) part


def lines_digest(lines: Iterable[str]) -> str:
    """The short sha256 of the lines joined: what a part's, a shard's or an output's content
    version is."""
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()[:16]


def documents_digest(documents: pd.DataFrame) -> str:
    """One hash over (doc id, content hash) of every row, in table order."""
    return lines_digest(documents["doc_id"] + "\t" + documents["content_hash"])


def partition_rows(documents: pd.DataFrame) -> dict[str, np.ndarray]:
    """partition -> the positions of its rows, in table order."""
    if PARTITION not in documents:
        return {ALL: np.arange(len(documents))}
    return {str(key): rows for key, rows in documents.groupby(PARTITION, sort=True).indices.items()}


@dataclass(frozen=True)
class VectorsManifest:
    collection: str
    partition: str
    embedder: str
    dim: int
    count: int
    documents_digest: str
    vectors_hash: str


def part_paths(folder: Path, collection: str, partition: str) -> tuple[Path, Path]:
    """The matrix and the manifest of one part."""
    return folder / collection / f"{partition}.npy", folder / collection / f"{partition}.json"


def read_manifest(folder: Path, collection: str, partition: str) -> VectorsManifest | None:
    """The part's manifest; None when it is absent or unreadable (a part to build again)."""
    _, meta = part_paths(folder, collection, partition)
    try:
        return VectorsManifest(**json.loads(meta.read_text()))
    except (OSError, ValueError, TypeError):
        return None


def vectors_embedders(folder: Path, collection: str) -> set[str]:
    """The embedder fingerprints the collection's saved parts were built by."""
    return {manifest.embedder for meta in sorted((folder / collection).glob("*.json"))
            if (manifest := read_manifest(folder, collection, meta.stem)) is not None}


def _saved_vectors(matrix_path: Path, manifest: VectorsManifest) -> np.ndarray | None:
    """The saved matrix if it is readable and hashes to its manifest's vectors_hash."""
    try:
        vectors = np.load(matrix_path)
    except (OSError, ValueError, EOFError):
        return None
    return vectors if faiss_index.vectors_hash(vectors) == manifest.vectors_hash else None


@dataclass(frozen=True)
class PartState:
    """One part as found on disk: its vectors and manifest when usable, else why not
    (`reason`, one of "missing", "embedder changed", "documents changed", "output corrupted")
    and `detail`."""

    vectors: np.ndarray | None
    manifest: VectorsManifest | None = None
    reason: str | None = None
    detail: str = ""


def part_state(folder: Path, collection: str, partition: str, documents: pd.DataFrame,
               embedder: str | None = None) -> PartState:
    """Check one saved part against its documents (the partition's rows) and, when given,
    the embedder fingerprint that queries or a rebuild would use."""
    matrix_path, _ = part_paths(folder, collection, partition)
    manifest = read_manifest(folder, collection, partition)
    if manifest is None or not matrix_path.exists():
        return PartState(None, None, "missing", f"{matrix_path}: no vectors")
    if embedder is not None and manifest.embedder != embedder:
        return PartState(None, None, "embedder changed",
                         f"{matrix_path}: built by {manifest.embedder}, but queries would be "
                         f"embedded by {embedder}")
    if manifest.documents_digest != documents_digest(documents):
        return PartState(None, None, "documents changed", f"{matrix_path}: built from other "
                         f"documents than the current {collection} table")
    vectors = _saved_vectors(matrix_path, manifest)
    if vectors is None:
        return PartState(None, None, "output corrupted", f"{matrix_path}: unreadable or does not "
                         "match its manifest's vectors_hash (corrupted)")
    return PartState(vectors, manifest)


def load_vectors(folder: Path, collection: str, documents: pd.DataFrame,
                 embedder: str | None = None) -> np.ndarray:
    """The documents' vectors in table order, from their parts; refused, naming every part
    that is missing, damaged, built from other documents or by another embedder than the
    one queries will use (`embedder`, a fingerprint)."""
    slices = partition_rows(documents)
    found = {partition: part_state(folder, collection, partition, documents.iloc[rows],
                                   embedder)
             for partition, rows in slices.items()}
    bad = [state.detail for state in found.values() if state.vectors is None]
    if bad:
        more = f" (and {len(bad) - 3} more parts)" if len(bad) > 3 else ""
        raise ValueError("; ".join(bad[:3]) + more + f"; materialize {collection}_vectors "
                         "again for those partitions")
    built_by = {state.manifest.embedder for state in found.values()}
    if len(built_by) > 1:
        raise ValueError(f"{folder / collection}: parts built by {sorted(built_by)}; rebuild "
                         f"{collection}_vectors with one embedder")
    dim = next(iter(found.values())).manifest.dim if found else 0
    vectors = np.zeros((len(documents), dim), dtype=np.float32)
    for partition, rows in slices.items():
        vectors[rows] = found[partition].vectors
    return vectors


@dataclass(frozen=True)
class VectorsResult:
    rebuilt: dict[str, str]  # partition -> why it was built again
    kept: int  # parts found intact and left alone
    vectors: int  # rows in the rebuilt parts
    embedded: int  # texts new to the embedding cache
    seconds: float


def build_vectors(documents: pd.DataFrame, cache: EmbeddingCache, folder: Path,
                  collection: str, partitions: Sequence[str] | None = None,
                  log: Log | None = None) -> VectorsResult:
    """Save the vectors of the given partitions (every partition of the documents when None),
    one part each; a part already intact for these documents and this embedder is kept, so
    a rerun does no work and a damaged part is re-created (from the cache, embedding nothing)
    instead of being found broken later by `load_vectors`. The texts of all the parts to build
    are embedded together, in table order."""
    started = time.perf_counter()
    slices = partition_rows(documents)
    fingerprint = cache.embedder.fingerprint
    considered = sorted(slices) if partitions is None else list(partitions)
    rebuilt = {}
    for partition in considered:
        rows = slices.get(partition, NO_ROWS)
        state = part_state(folder, collection, partition, documents.iloc[rows], fingerprint)
        if state.vectors is None:
            rebuilt[partition] = state.reason
            if log and state.reason == "output corrupted":
                log(f"{state.detail}; re-creating it from the embedding cache")
    if rebuilt and log:
        log(f"{collection}: building {len(rebuilt)} vector parts ("
            + ", ".join(f"{n} {why}" for why, n in sorted(Counter(rebuilt.values()).items()))
            + f"), keeping {len(considered) - len(rebuilt)}")
    rows = np.sort(np.concatenate([NO_ROWS, *(slices.get(p, NO_ROWS) for p in rebuilt)]))
    before = len(cache)
    vectors = embed_with_cache(documents["text"].iloc[rows].tolist(), cache, log=log,
                               label=collection)
    for partition in rebuilt:
        own = slices.get(partition, NO_ROWS)
        part = vectors[np.searchsorted(rows, own)].reshape(len(own), cache.embedder.dim)
        _save_part(folder, VectorsManifest(collection, partition, fingerprint,
                                           cache.embedder.dim, len(own),
                                           documents_digest(documents.iloc[own]),
                                           faiss_index.vectors_hash(part)), part)
    return VectorsResult(rebuilt, len(considered) - len(rebuilt), len(rows), len(cache) - before,
                         time.perf_counter() - started)


def _save_part(folder: Path, manifest: VectorsManifest, vectors: np.ndarray) -> None:
    """The matrix, then its manifest, each by atomic rename: a part killed midway has no
    manifest that matches it, so it is built again."""
    matrix_path, meta_path = part_paths(folder, manifest.collection, manifest.partition)
    matrix_path.parent.mkdir(parents=True, exist_ok=True)
    tmp = beside(matrix_path, ".npy")
    np.save(tmp, vectors)
    tmp.replace(matrix_path)
    meta_tmp = beside(meta_path)
    meta_tmp.write_text(json.dumps(asdict(manifest), indent=2, sort_keys=True) + "\n")
    meta_tmp.replace(meta_path)


@dataclass(frozen=True)
class SyncResult:
    upserted: int
    deleted: int
    unchanged: int
    count: int
    seconds: float


def payload_of(row: dict, stamp: str, integer_fields: tuple[str, ...] = ()) -> dict:
    """The point's payload; integer fields as ints (a table read back from Parquet holds a
    nullable integer column as floats, and 1973.0 would not match an integer filter)."""
    payload = {key: value for key, value in row.items() if key not in {"text", "point_id"}}
    for field in integer_fields:
        if payload.get(field) is not None:
            payload[field] = int(payload[field])
    payload["content_hash"] = f"{row['content_hash']}:{stamp}"
    return payload


def sync_collection(store: VectorStore, definition: CollectionDef, documents: pd.DataFrame,
                    vectors: np.ndarray, embedder: str, log: Log | None = None) -> SyncResult:
    """Make the store's collection hold exactly the documents: write what is new or changed.

    The stored content hash includes the BM25 average length (rounded to a token), so a
    corpus change that moves it re-writes the sparse weights of every point, and the
    embedder's fingerprint, so vectors from another embedder are never kept; a collection
    whose vector size differs (another embedder) is recreated.
    """
    started = time.perf_counter()
    spec = definition.spec(vectors.shape[1])
    try:
        store.create(spec)
    except ValueError as err:
        if log:
            log(f"{definition.name}: recreating it ({err})")
        store.create(spec, recreate=True)
    terms = [TermCounts.of(text) for text in documents["text"].tolist()]
    avg_len = round(average_length(terms))
    stamp = f"{avg_len}:{embedder}:p{PAYLOAD_FORMAT}"
    stored = store.payload_values(definition.name, "content_hash")
    wanted = {int(pid): f"{digest}:{stamp}"
              for pid, digest in zip(documents["point_id"], documents["content_hash"],
                                     strict=True)}
    stale = sorted(set(stored) - set(wanted))
    if stale:
        store.delete(definition.name, stale)
    rows = [i for i, pid in enumerate(documents["point_id"]) if stored.get(int(pid)) !=
            wanted[int(pid)]]
    for start in range(0, len(rows), SYNC_BATCH):
        batch = documents.iloc[rows[start:start + SYNC_BATCH]]
        points = [StorePoint(int(row["point_id"]), vectors[index],
                             terms[index].vector(avg_len, **SPARSE_PARAMS),
                             payload_of(row, stamp, definition.integer_fields))
                  for index, row in zip(rows[start:start + SYNC_BATCH], records(batch),
                                        strict=True)]
        store.upsert(definition.name, points)
        if log:
            log(f"{definition.name}: wrote {min(start + SYNC_BATCH, len(rows))}/{len(rows)}")
    if rows or stale:
        store.optimize(definition.name)
    store.note_content(definition.name,
                       lines_digest(f"{pid}:{wanted[pid]}" for pid in sorted(wanted)))
    return SyncResult(len(rows), len(stale), len(documents) - len(rows),
                      store.count(definition.name), time.perf_counter() - started)


@dataclass(frozen=True)
class FaissResult:
    meta: faiss_index.IndexMeta
    rebuilt: bool
    seconds: float
    recall_at_10: float | None  # against the flat index, on the given queries


def build_faiss(kind: str, vectors: np.ndarray, doc_ids: list[str], embedder: str,
                folder: Path, name: str, queries: np.ndarray | None = None) -> FaissResult:
    """Build (or keep) one persisted FAISS index; measure recall@10 against exact search.

    An index kept from an earlier build is loaded, which verifies its sha256; one that fails
    is rebuilt rather than served or left to fail the run."""
    started = time.perf_counter()
    expected = faiss_index.IndexMeta(kind, embedder, int(vectors.shape[1]), len(vectors),
                                     faiss_index.vectors_hash(vectors),
                                     faiss_index.ids_hash(doc_ids), {})
    previous = faiss_index.read_meta(folder, name)
    rebuilt = previous is None or any(
        getattr(previous, f) != getattr(expected, f)
        for f in ("kind", "embedder", "dim", "count", "vectors_hash", "ids_hash"))
    if not rebuilt:
        try:
            index, meta = faiss_index.load(folder, name, expected)
        except faiss_index.FaissIndexError:  # the file is gone or fails its sha256
            rebuilt = True
    if rebuilt:
        index, params = faiss_index.build(kind, vectors)
        meta = faiss_index.save(index, faiss_index.IndexMeta(**{**asdict(expected),
                                                                "params": params}), folder, name)
    recall = None
    if queries is not None and len(queries) and kind != "flat":
        exact = np.argsort(-(queries @ vectors.T), axis=1, kind="stable")[:, :10]
        _, approx = faiss_index.search(index, queries, 10)
        recall = faiss_index.recall_at_k(exact, approx)
    return FaissResult(meta, rebuilt, time.perf_counter() - started, recall)
