"""FAISS indexes over unit vectors (inner product = cosine), persisted with their metadata.

Three kinds: `flat` (exact, the reference), `hnsw` (graph, no training) and `ivf` (inverted
lists, trained by k-means, for corpora too large for a graph in memory). Each index is saved
as `<name>.faiss` beside `<name>.json` holding the embedder fingerprint, dimension, count,
the content hash of the vectors and of the ids, and the file's own sha256, so a stale or
corrupted index is refused on load rather than served.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass
from pathlib import Path

import faiss
import numpy as np

from nyaya.tables import beside

KINDS = ("flat", "hnsw", "ivf")
HNSW_M = 32
HNSW_EF_CONSTRUCTION = 80
HNSW_EF_SEARCH = 128


class FaissIndexError(RuntimeError):
    """An index file that is missing, corrupted or built from other vectors."""


@dataclass(frozen=True)
class IndexMeta:
    kind: str
    embedder: str
    dim: int
    count: int
    vectors_hash: str
    ids_hash: str
    params: dict
    file_sha256: str = ""


def vectors_hash(vectors: np.ndarray) -> str:
    data = np.ascontiguousarray(vectors, dtype=np.float32).tobytes()
    return hashlib.sha256(data).hexdigest()[:16]


def ids_hash(ids: list[str]) -> str:
    return hashlib.sha256("\n".join(ids).encode("utf-8")).hexdigest()[:16]


def ivf_lists(count: int) -> int:
    """About 4 * sqrt(n) lists, the usual rule, and at least 39 points per list to train."""
    return max(1, min(int(4 * np.sqrt(count)), count // 39))


def build(kind: str, vectors: np.ndarray, threads: int = 0) -> tuple[faiss.Index, dict]:
    """An index of `kind` over `vectors` (float32, unit rows); deterministic for fixed input."""
    if kind not in KINDS:
        raise ValueError(f"unknown FAISS index kind {kind!r}; choose one of {KINDS}")
    if threads:
        faiss.omp_set_num_threads(threads)
    vectors = np.ascontiguousarray(vectors, dtype=np.float32)
    dim = vectors.shape[1]
    if kind == "flat":
        index, params = faiss.IndexFlatIP(dim), {}
    elif kind == "hnsw":
        index = faiss.IndexHNSWFlat(dim, HNSW_M, faiss.METRIC_INNER_PRODUCT)
        index.hnsw.efConstruction = HNSW_EF_CONSTRUCTION
        index.hnsw.efSearch = HNSW_EF_SEARCH
        params = {"M": HNSW_M, "efConstruction": HNSW_EF_CONSTRUCTION, "efSearch": HNSW_EF_SEARCH}
    else:
        nlist = ivf_lists(len(vectors))
        index = faiss.IndexIVFFlat(faiss.IndexFlatIP(dim), dim, nlist, faiss.METRIC_INNER_PRODUCT)
        index.cp.seed = 1234
        index.train(vectors)
        index.nprobe = max(1, nlist // 16)
        params = {"nlist": nlist, "nprobe": index.nprobe}
    index.add(vectors)
    return index, params


def save(index: faiss.Index, meta: IndexMeta, folder: Path, name: str) -> IndexMeta:
    """Write `<name>.faiss` then `<name>.json` (the metadata last, so it marks completion)."""
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.faiss"
    tmp = beside(path)
    faiss.write_index(index, str(tmp))
    tmp.replace(path)
    meta = IndexMeta(**{**asdict(meta), "file_sha256": file_sha256(path)})
    meta_path = folder / f"{name}.json"
    meta_tmp = beside(meta_path)
    meta_tmp.write_text(json.dumps(asdict(meta), indent=2, sort_keys=True) + "\n")
    meta_tmp.replace(meta_path)
    return meta


def read_meta(folder: Path, name: str) -> IndexMeta | None:
    path = folder / f"{name}.json"
    if not path.exists():
        return None
    return IndexMeta(**json.loads(path.read_text()))


def load(folder: Path, name: str, expect: IndexMeta | None = None) -> tuple[faiss.Index, IndexMeta]:
    """Load an index, refusing one whose bytes or provenance do not match its metadata."""
    meta = read_meta(folder, name)
    path = folder / f"{name}.faiss"
    if meta is None or not path.exists():
        raise FaissIndexError(f"{path}: no index (or no {name}.json beside it); "
                              "rebuild the indexes")
    actual = file_sha256(path)
    if actual != meta.file_sha256:
        raise FaissIndexError(f"{path}: sha256 {actual[:16]} does not match its metadata "
                          f"{meta.file_sha256[:16]}: the file is corrupted; rebuild it")
    if expect is not None:
        for field in ("embedder", "dim", "count", "vectors_hash", "ids_hash"):
            if getattr(meta, field) != getattr(expect, field):
                raise FaissIndexError(f"{path}: built with {field}={getattr(meta, field)!r}, "
                                  f"expected {getattr(expect, field)!r}: the index is stale")
    index = faiss.read_index(str(path))
    if index.ntotal != meta.count:
        raise FaissIndexError(f"{path}: holds {index.ntotal} vectors, metadata says {meta.count}")
    if meta.kind == "hnsw":
        index.hnsw.efSearch = meta.params["efSearch"]
    elif meta.kind == "ivf":
        index.nprobe = meta.params["nprobe"]
    return index, meta


def file_sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with path.open("rb") as handle:
        for block in iter(lambda: handle.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def search(index: faiss.Index, queries: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    scores, rows = index.search(np.ascontiguousarray(queries, dtype=np.float32), k)
    return scores, rows


def recall_at_k(exact_rows: np.ndarray, approx_rows: np.ndarray) -> float:
    """Mean share of each query's exact top-k that the approximate index also returned."""
    k = exact_rows.shape[1]
    hits = [len(set(e[e >= 0]) & set(a[a >= 0])) / k
            for e, a in zip(exact_rows, approx_rows, strict=True)]
    return float(np.mean(hits))
