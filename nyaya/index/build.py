"""Index builds that do no work when nothing changed.

Vectors: a collection's matrix is saved as `<collection>.npy` with a JSON manifest naming
the embedder fingerprint, the hash of the documents' content hashes and the hash of the
vectors; a rerun with the same manifest and an intact matrix reuses it, a damaged matrix is
re-created from the embedding cache, and new texts come from the cache too.
Store: points are synced by content hash: only new or changed points are written and
vanished ones deleted, so a sync killed midway resumes where it stopped. FAISS: rebuilt
when the vectors' hash changed or the saved index fails its checksum.
"""

from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from nyaya.index import faiss_index
from nyaya.index.cache import EmbeddingCache, embed_with_cache
from nyaya.index.collections import CollectionDef
from nyaya.index.sparse import average_length, document_vector
from nyaya.index.store import StorePoint, VectorStore
from nyaya.tables import records

Log = Callable[[str], None]
SPARSE_PARAMS = {"k1": 1.2, "b": 0.75}
SYNC_BATCH = 2048
# bumped when the payload written for the same row changes, so every point is rewritten once
PAYLOAD_FORMAT = 2


def documents_digest(documents: pd.DataFrame) -> str:
    """One hash over (doc id, content hash) of every row, in table order."""
    blob = "\n".join(documents["doc_id"] + "\t" + documents["content_hash"])
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16]


@dataclass(frozen=True)
class VectorsManifest:
    collection: str
    embedder: str
    dim: int
    count: int
    documents_digest: str
    vectors_hash: str


def vector_paths(folder: Path, collection: str) -> tuple[Path, Path]:
    return folder / f"{collection}.npy", folder / f"{collection}.json"


def read_manifest(folder: Path, collection: str) -> VectorsManifest | None:
    _, meta = vector_paths(folder, collection)
    return VectorsManifest(**json.loads(meta.read_text())) if meta.exists() else None


def _saved_vectors(matrix_path: Path, manifest: VectorsManifest) -> np.ndarray | None:
    """The saved matrix if it is readable and hashes to its manifest's vectors_hash."""
    try:
        vectors = np.load(matrix_path)
    except (OSError, ValueError, EOFError):
        return None
    return vectors if faiss_index.vectors_hash(vectors) == manifest.vectors_hash else None


def load_vectors(folder: Path, collection: str, documents: pd.DataFrame,
                 embedder: str | None = None) -> np.ndarray:
    """The saved matrix, refused when it was built from other documents, by another embedder
    than the one queries will use (`embedder`, a fingerprint), or is damaged."""
    matrix_path, _ = vector_paths(folder, collection)
    manifest = read_manifest(folder, collection)
    if manifest is None or not matrix_path.exists():
        raise FileNotFoundError(f"{matrix_path}: no vectors; materialize {collection}_vectors")
    if embedder is not None and manifest.embedder != embedder:
        raise ValueError(f"{matrix_path}: built by {manifest.embedder}, but queries would be "
                         f"embedded by {embedder}; rebuild the vectors or set the embedder "
                         "they were built with")
    if manifest.documents_digest != documents_digest(documents):
        raise ValueError(f"{matrix_path}: built from other documents than the current "
                         f"{collection} table; materialize {collection}_vectors again")
    vectors = _saved_vectors(matrix_path, manifest)
    if vectors is None:
        raise ValueError(f"{matrix_path}: unreadable or does not match its manifest's "
                         f"vectors_hash (corrupted); materialize {collection}_vectors again")
    return vectors


@dataclass(frozen=True)
class VectorsResult:
    manifest: VectorsManifest
    reused: bool
    embedded: int
    seconds: float


def build_vectors(documents: pd.DataFrame, cache: EmbeddingCache, folder: Path,
                  collection: str, log: Log | None = None) -> VectorsResult:
    """Save the documents' vectors with their manifest; reuse the saved matrix only when it
    is intact, so a damaged file is re-created (from the cache, embedding nothing) instead of
    being found broken later by `load_vectors`."""
    started = time.perf_counter()
    digest = documents_digest(documents)
    previous = read_manifest(folder, collection)
    matrix_path, meta_path = vector_paths(folder, collection)
    if (previous is not None and matrix_path.exists()
            and previous.embedder == cache.embedder.fingerprint
            and previous.documents_digest == digest):
        if _saved_vectors(matrix_path, previous) is not None:
            return VectorsResult(previous, True, 0, time.perf_counter() - started)
        if log:
            log(f"{matrix_path}: unreadable or does not match its manifest (corrupted); "
                "re-creating it from the embedding cache")
    before = len(cache)
    vectors = embed_with_cache(documents["text"].tolist(), cache, log=log, label=collection)
    manifest = VectorsManifest(collection, cache.embedder.fingerprint, cache.embedder.dim,
                               len(documents), digest, faiss_index.vectors_hash(vectors))
    folder.mkdir(parents=True, exist_ok=True)
    tmp = matrix_path.with_name(matrix_path.stem + ".tmp.npy")
    np.save(tmp, vectors)
    tmp.replace(matrix_path)
    meta_tmp = meta_path.with_suffix(".json.tmp")
    meta_tmp.write_text(json.dumps(asdict(manifest), indent=2, sort_keys=True) + "\n")
    meta_tmp.replace(meta_path)
    return VectorsResult(manifest, False, len(cache) - before, time.perf_counter() - started)


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
    avg_len = round(average_length(documents["text"].tolist()))
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
                             document_vector(row["text"], avg_len, **SPARSE_PARAMS),
                             payload_of(row, stamp, definition.integer_fields))
                  for index, row in zip(rows[start:start + SYNC_BATCH], records(batch),
                                        strict=True)]
        store.upsert(definition.name, points)
        if log:
            log(f"{definition.name}: wrote {min(start + SYNC_BATCH, len(rows))}/{len(rows)}")
    if rows or stale:
        store.optimize(definition.name)
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
