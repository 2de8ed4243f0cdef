"""A content-hash cache of embeddings, so an unchanged text is never embedded twice.

One folder per embedder fingerprint; each batch of new vectors is one Parquet part written
atomically, so a run killed mid-embedding keeps every finished batch and the rerun resumes
from there. Each part carries the sha256 of its hashes and vectors, checked on read, so a
damaged part is refused by name rather than served as wrong vectors. Parts are merged once
there are many of them.
"""

from __future__ import annotations

import hashlib
import time
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from nyaya.index.embedders import Embedder
from nyaya.tables import beside

COMPACT_AFTER_PARTS = 32
CHECKSUM_KEY = b"nyaya.content_sha256"


def text_hash(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


class CacheError(RuntimeError):
    """A cache part that cannot be read or does not match its embedder."""


class EmbeddingCache:
    """hash -> vector for one embedder, persisted as Parquet parts under `folder`."""

    def __init__(self, root: Path, embedder: Embedder) -> None:
        self.embedder = embedder
        self.folder = root / embedder.fingerprint
        self.folder.mkdir(parents=True, exist_ok=True)
        self._rows: dict[str, int] = {}
        self._blocks: list[np.ndarray] = []
        self._size = 0
        self._loaded: list[Path] = []  # the parts read or written here: the ones compact merges
        for part in self._parts():
            self._add(*self._read(part))
            self._loaded.append(part)

    def _parts(self) -> list[Path]:
        return sorted(self.folder.glob("part-*.parquet"))

    def _read(self, part: Path) -> tuple[list[str], np.ndarray]:
        try:
            table = pq.read_table(part)
            hashes = table.column("text_hash").to_pylist()
            flat = table.column("vector").combine_chunks().flatten().to_numpy()
        except (OSError, pa.ArrowException, KeyError) as err:
            raise CacheError(f"{part}: unreadable embedding cache part ({err}); delete it "
                             "and rerun to re-embed its texts") from err
        if len(hashes) and flat.size != len(hashes) * self.embedder.dim:
            raise CacheError(f"{part}: {flat.size} floats for {len(hashes)} vectors of "
                             f"dimension {self.embedder.dim}")
        vectors = flat.reshape(len(hashes), self.embedder.dim).astype(np.float32)
        expected = (table.schema.metadata or {}).get(CHECKSUM_KEY)  # absent in older parts
        if expected is not None and content_sha256(hashes, vectors) != expected.decode():
            raise CacheError(f"{part}: its hashes and vectors do not match the checksum "
                             "written with them (corrupted); delete it and rerun to re-embed "
                             "its texts")
        return hashes, vectors

    def _add(self, hashes: list[str], vectors: np.ndarray) -> None:
        for offset, key in enumerate(hashes):
            self._rows.setdefault(key, self._size + offset)
        self._blocks.append(vectors)
        self._size += len(hashes)

    def __len__(self) -> int:
        return len(self._rows)

    def __contains__(self, key: str) -> bool:
        return key in self._rows

    def _matrix(self) -> np.ndarray:
        if len(self._blocks) > 1:
            self._blocks = [np.concatenate(self._blocks)]
        return self._blocks[0] if self._blocks else np.zeros((0, self.embedder.dim), np.float32)

    def vectors(self, hashes: Sequence[str]) -> np.ndarray:
        rows = np.fromiter((self._rows[key] for key in hashes), dtype=np.int64, count=len(hashes))
        return self._matrix()[rows]

    def store(self, hashes: list[str], vectors: np.ndarray) -> None:
        """Persist one batch as a new part (atomic rename), then keep it in memory."""
        number = len(self._parts())
        path = self.folder / f"part-{number:06d}-{hashes[0][:8]}.parquet"
        write_part(path, hashes, vectors)
        self._add(hashes, vectors)
        self._loaded.append(path)
        if len(self._loaded) >= COMPACT_AFTER_PARTS:
            self.compact()

    def compact(self) -> None:
        """Merge the parts this cache holds into one.

        The merged part is in place before the old ones are removed, so a run killed midway
        loses nothing (it leaves parts that repeat some hashes with the same vectors, read
        once). Parts another process wrote meanwhile are not in memory and are left alone,
        and the merged part is named by its hashes, so two processes never overwrite each
        other's."""
        if len(self._loaded) <= 1:
            return
        hashes = sorted(self._rows, key=self._rows.__getitem__)
        merged = self.folder / f"part-000000-{text_hash(''.join(hashes))[:12]}-merged.parquet"
        write_part(merged, hashes, self.vectors(hashes))
        for part in self._loaded:
            if part != merged:
                part.unlink(missing_ok=True)  # another process's compaction may have done it
        self._loaded = [merged]


def content_sha256(hashes: Sequence[str], vectors: np.ndarray) -> str:
    """The checksum a part carries: its text hashes and float32 vector bytes, in order."""
    digest = hashlib.sha256("\n".join(hashes).encode("utf-8"))
    digest.update(np.ascontiguousarray(vectors, dtype=np.float32).tobytes())
    return digest.hexdigest()


def write_part(path: Path, hashes: list[str], vectors: np.ndarray) -> None:
    """One part, with its content checksum in the Parquet metadata, written atomically."""
    dim = vectors.shape[1]
    flat = pa.array(np.ascontiguousarray(vectors, dtype=np.float32).reshape(-1))
    table = pa.table({"text_hash": pa.array(hashes, pa.string()),
                      "vector": pa.FixedSizeListArray.from_arrays(flat, dim)},
                     metadata={CHECKSUM_KEY: content_sha256(hashes, vectors)})
    tmp = beside(path)
    pq.write_table(table, tmp, compression="zstd")
    tmp.replace(path)


ProgressLog = Callable[[str], None]


#: texts embedded per call, unless the embedder names its own `batch_size`
BATCH_SIZE = 2048


def embed_with_cache(texts: Sequence[str], cache: EmbeddingCache, batch_size: int | None = None,
                     log: ProgressLog | None = None, label: str = "texts") -> np.ndarray:
    """Vectors for `texts` in order; only texts whose hash is not cached are embedded, in
    batches of `batch_size` (by default the embedder's own, else BATCH_SIZE).

    Progress goes to `log` after every batch, with the rate and the time left.
    """
    batch_size = batch_size or getattr(cache.embedder, "batch_size", BATCH_SIZE)
    hashes = [text_hash(text) for text in texts]
    missing: dict[str, str] = {}
    for key, text in zip(hashes, texts, strict=True):
        if key not in cache and key not in missing:
            missing[key] = text
    if log:
        cached = sum(key in cache for key in hashes)
        log(f"{label}: {len(texts)} texts, {cached} found in the {cache.embedder.name} cache, "
            f"{len(missing)} distinct new texts to embed")
    todo = list(missing.items())
    started = time.perf_counter()
    for start in range(0, len(todo), batch_size):
        batch = todo[start:start + batch_size]
        vectors = cache.embedder.encode([text for _, text in batch])
        cache.store([key for key, _ in batch], vectors)
        if log:
            done = start + len(batch)
            rate = done / max(time.perf_counter() - started, 1e-9)
            log(f"{label}: embedded {done}/{len(todo)} ({rate:.1f}/s, "
                f"ETA {format_seconds((len(todo) - done) / rate)})")
    return cache.vectors(hashes)


def format_seconds(seconds: float) -> str:
    minutes, secs = divmod(round(seconds), 60)
    return f"{minutes}m{secs:02d}s" if minutes else f"{secs}s"
