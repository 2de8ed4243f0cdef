"""Parquet tables: deterministic, checksummed writes and verified reads with pyarrow.

Tables are sorted by their key before writing and carry no wall-clock metadata, so the
same inputs give byte-identical files. Each file has CRC32 page checksums and a sidecar
`<file>.sha256` holding the sha256 of its bytes, so a damaged table is refused
(`CorruptTableError`) instead of being read as wrong rows.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from pathlib import Path
from typing import TypeVar

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

T = TypeVar("T")


class CorruptTableError(ValueError):
    """A table whose bytes do not match its checksum, or that cannot be decoded."""


def checksum_path(path: Path) -> Path:
    """The sidecar holding the hex sha256 of the table file's bytes."""
    return path.with_name(path.name + ".sha256")


def write_table(frame: pd.DataFrame, path: Path) -> pa.Table:
    """Write the table, then its sidecar checksum, each atomically (tmp + rename).

    A run killed between the two renames leaves a new table beside the old checksum, which
    reads as corrupted and is rebuilt, never as valid."""
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pandas(frame.reset_index(drop=True), preserve_index=False)
    table = table.replace_schema_metadata(None)
    tmp = path.with_suffix(".parquet.tmp")
    pq.write_table(table, tmp, compression="zstd", write_statistics=True,
                   write_page_checksum=True)
    digest = hashlib.sha256(tmp.read_bytes()).hexdigest()
    tmp.replace(path)
    sidecar = checksum_path(path)
    sidecar_tmp = sidecar.with_name(sidecar.name + ".tmp")
    sidecar_tmp.write_text(digest + "\n", encoding="ascii")
    sidecar_tmp.replace(sidecar)
    return table


def _asset_of(path: Path) -> str:
    """The asset that writes a warehouse table (`<asset>.parquet` or `<asset>/<partition>`)."""
    if path.parent.name == "warehouse":
        return path.stem
    if path.parent.parent.name == "warehouse":
        return path.parent.name
    return "the asset that writes it"


def _corrupt(path: Path, problem: str) -> CorruptTableError:
    return CorruptTableError(f"{path}: {problem}; the table is corrupted and is not read: "
                             f"materialize {_asset_of(path)} again: `make run` rebuilds it")


def _check_bytes(path: Path, data: bytes) -> None:
    """Compare the bytes with the sidecar checksum, when the table has one."""
    sidecar = checksum_path(path)
    if not sidecar.exists():
        return
    expected = sidecar.read_text(encoding="ascii").strip()
    actual = hashlib.sha256(data).hexdigest()
    if actual != expected:
        raise _corrupt(path, f"sha256 {actual[:16]} does not match {sidecar.name} "
                             f"({expected[:16]})")


def _decoded(path: Path, decode: Callable[[pa.BufferReader], T]) -> T:
    """`decode` of the file's bytes, once they match the sidecar checksum (if any); a file
    that does not decode raises CorruptTableError."""
    data = path.read_bytes()
    _check_bytes(path, data)
    try:
        return decode(pa.BufferReader(data))
    except (OSError, pa.ArrowException) as err:
        raise _corrupt(path, f"unreadable Parquet ({err})") from err


def verify_table(path: Path) -> None:
    """Raise CorruptTableError unless the file matches its checksum (or, for a table written
    before checksums, has a readable Parquet footer); cheap: no rows are decoded."""
    _decoded(path, pq.ParquetFile)


def read_table(path: Path) -> pd.DataFrame:
    """The table, verified against its sidecar checksum and its page checksums.

    A table without a sidecar (written before checksums existed) is still read, so existing
    data stays usable; it has no page checksums either, so only damage that breaks decoding
    is caught for it."""
    if not path.exists():
        raise FileNotFoundError(
            f"{path} does not exist: build the tables first (`make run`, or "
            "`dagster asset materialize -m pipelines.definitions --select '*'`)"
        )
    return _decoded(path, lambda data: pq.read_table(
        data, page_checksum_verification=True)).to_pandas()


def records(frame: pd.DataFrame) -> list[dict]:
    """Rows as dicts with missing values as None (pandas reads missing strings as NaN)."""
    return frame.astype(object).where(frame.notna(), None).to_dict("records")
