"""Parquet tables: deterministic, checksummed writes and verified reads with pyarrow.

Tables are sorted by their key before writing and carry no wall-clock metadata, so the
same inputs give byte-identical files. Each file has CRC32 page checksums and a sidecar
`<file>.sha256` holding the sha256 of its bytes, so a damaged table is refused
(`CorruptTableError`) instead of being read as wrong rows.
"""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
import secrets
from collections.abc import Callable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

T = TypeVar("T")


PROVENANCE_KEY = "nyaya.provenance"


class CorruptTableError(ValueError):
    """A table whose bytes do not match its checksum, or that cannot be decoded."""


def checksum_path(path: Path) -> Path:
    """The sidecar holding the hex sha256 of the table file's bytes."""
    return path.with_name(path.name + ".sha256")


def beside(path: Path, suffix: str = "") -> Path:
    """A temporary name next to `path`, unique to this process and call: two writers never
    share one (each renames its own file over `path`, the last one wins whole). `suffix` for
    writers that insist on an extension (np.save adds ".npy")."""
    return path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp{suffix}")


def write_table(frame: pd.DataFrame, path: Path,
                provenance: dict[str, str] | None = None) -> pa.Table:
    """Write the table, then its sidecar checksum, each atomically (tmp + rename); with
    `provenance` (what the table was built from) kept in the file's footer.

    A run killed between the two renames leaves a new table beside the old checksum, which
    reads as corrupted and is rebuilt, never as valid."""
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pandas(frame.reset_index(drop=True), preserve_index=False)
    table = table.replace_schema_metadata(
        {PROVENANCE_KEY: json.dumps(provenance, sort_keys=True)} if provenance else None)
    tmp = beside(path)
    pq.write_table(table, tmp, compression="zstd", write_statistics=True,
                   write_page_checksum=True)
    digest = hashlib.sha256(tmp.read_bytes()).hexdigest()
    tmp.replace(path)
    sidecar = checksum_path(path)
    sidecar_tmp = beside(sidecar)
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


def read_table(path: Path, columns: Sequence[str] | None = None) -> pd.DataFrame:
    """The table, verified against its sidecar checksum and its page checksums; with
    `columns`, only those are decoded (the judgments' texts are most of their table), and a
    column the file lacks is a KeyError naming both.

    A table without a sidecar (written before checksums existed) is still read, so existing
    data stays usable; it has no page checksums either, so only damage that breaks decoding
    is caught for it."""
    if not path.exists():
        raise FileNotFoundError(
            f"{path} does not exist: build the tables first (`make run`, or "
            "`dagster asset materialize -m pipelines.definitions --select '*'`)"
        )
    if columns is None:
        return _decoded(path, lambda data: pq.read_table(
            data, page_checksum_verification=True)).to_pandas()
    file = _decoded(path, lambda data: pq.ParquetFile(data, page_checksum_verification=True))
    missing = sorted(set(columns) - set(file.schema_arrow.names))
    if missing:
        raise KeyError(f"{path} has no column {', '.join(missing)}")
    try:
        return file.read(columns=list(columns)).to_pandas()
    except (OSError, pa.ArrowException) as err:
        raise _corrupt(path, f"unreadable Parquet ({err})") from err


def records(frame: pd.DataFrame) -> list[dict]:
    """Rows as dicts with missing values as None (pandas reads missing strings as NaN)."""
    return frame.astype(object).where(frame.notna(), None).to_dict("records")


def records_frame(items: list, kind: type) -> pd.DataFrame:
    """Dataclass records as rows, with every field a column even when there are none: one
    partition's part of a table, stored until the parts are assembled."""
    return pd.DataFrame([dataclasses.asdict(item) for item in items],
                        columns=[field.name for field in dataclasses.fields(kind)])


def from_records_frame(frame: pd.DataFrame, kind: type) -> list:
    """The records back from `records_frame` rows read from Parquet: missing values as None,
    lists as lists, tuple fields as tuples and int fields as int again (a column with gaps
    is read as float), so assembling parts gives the tables that building everything at once
    gives."""
    fields = {field.name: str(field.type) for field in dataclasses.fields(kind)}
    whole = {name for name, kind_of in fields.items() if kind_of.startswith("int")}
    tuples = {name for name, kind_of in fields.items() if kind_of.startswith("tuple")}

    def plain(key: str, value):
        if isinstance(value, np.ndarray):
            return tuple(value.tolist()) if key in tuples else value.tolist()
        if isinstance(value, np.generic):
            value = value.item()
        return int(value) if key in whole and isinstance(value, float) else value
    return [kind(**{key: plain(key, value) for key, value in row.items()})
            for row in records(frame)]


def table_provenance(path: Path) -> dict[str, str]:
    """The provenance `write_table` kept in the file's footer ({} when none)."""
    metadata = pq.read_schema(path).metadata or {}
    return json.loads(metadata.get(PROVENANCE_KEY.encode(), b"{}"))


@dataclasses.dataclass(frozen=True)
class Part:
    """One partition's share of several tables (name -> frame), with what it was built from:
    the provenance goes into every file's footer, so a part can tell whether it is current
    without asking anything but the file."""

    tables: dict[str, pd.DataFrame]
    provenance: dict[str, str]


class PartTables(Mapping[str, pd.DataFrame]):
    """The tables of a partitioned parts asset, each read on first use as the concatenation
    of the given partitions' files (`<folder>/<table>/<partition>.parquet`), in key order."""

    def __init__(self, folder: Path, partitions: list[str]) -> None:
        self.folder = folder
        self.partitions = sorted(partitions)
        self._names = sorted(p.name for p in folder.iterdir() if p.is_dir())
        self._read: dict[str, pd.DataFrame] = {}

    def __getitem__(self, name: str) -> pd.DataFrame:
        if name not in self._names:
            raise KeyError(f"{self.folder} has no table {name!r} (it has {self._names})")
        if name not in self._read:
            frames = [read_table(self.folder / name / f"{key}.parquet")
                      for key in self.partitions]
            self._read[name] = pd.concat(frames, ignore_index=True)
        return self._read[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._names)

    def __len__(self) -> int:
        return len(self._names)
