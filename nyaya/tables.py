"""Parquet tables: deterministic writes and reads with pyarrow.

Tables are sorted by their key before writing and carry no wall-clock metadata, so the
same inputs give byte-identical files.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq


def write_table(frame: pd.DataFrame, path: Path) -> pa.Table:
    path.parent.mkdir(parents=True, exist_ok=True)
    table = pa.Table.from_pandas(frame.reset_index(drop=True), preserve_index=False)
    table = table.replace_schema_metadata(None)
    tmp = path.with_suffix(".parquet.tmp")
    pq.write_table(table, tmp, compression="zstd", write_statistics=True)
    tmp.replace(path)
    return table


def read_table(path: Path) -> pd.DataFrame:
    if not path.exists():
        raise FileNotFoundError(
            f"{path} does not exist: build the tables first (`make run`, or "
            "`dagster asset materialize -m pipelines.definitions --select '*'`)"
        )
    return pq.read_table(path).to_pandas()


def records(frame: pd.DataFrame) -> list[dict]:
    """Rows as dicts with missing values as None (pandas reads missing strings as NaN)."""
    return frame.astype(object).where(frame.notna(), None).to_dict("records")
