"""Partition plumbing as plain logic: contiguous runs of partitions, and parts stored as
Parquet rows that come back as the records they were."""

from __future__ import annotations

from dataclasses import dataclass

import pytest

from nyaya.tables import from_records_frame, read_table, records_frame, write_table
from pipelines.partitions import contiguous_ranges

KEYS = ["a", "b", "c", "d", "e"]


@pytest.mark.parametrize(("chosen", "ranges"), [
    (set(), []),
    ({"c"}, [("c", "c")]),
    ({"a", "b", "c", "d", "e"}, [("a", "e")]),
    ({"a", "b", "d"}, [("a", "b"), ("d", "d")]),
    ({"a", "c", "e"}, [("a", "a"), ("c", "c"), ("e", "e")]),
    ({"d", "e"}, [("d", "e")]),
    ({"z"}, []),  # not a partition: nothing to run
])
def test_chosen_partitions_become_one_run_per_contiguous_range(chosen, ranges):
    assert contiguous_ranges(KEYS, chosen) == ranges


@dataclass(frozen=True)
class Record:
    name: str
    line: int | None
    score: float
    tags: list[str]
    span: tuple[int, int] | None


@pytest.mark.parametrize("items", [
    [Record("a", 3, 1.0, ["x", "y"], (1, 2)), Record("b", None, 0.5, [], None)],
    [Record("a", 3, 1.0, [], (4, 5))],  # no gap: the int column stays int
    [],  # an empty part keeps its columns
])
def test_parts_come_back_from_parquet_as_the_records_they_were(tmp_path, items):
    path = tmp_path / "part.parquet"
    write_table(records_frame(items, Record), path)
    frame = read_table(path)
    assert list(frame.columns) == ["name", "line", "score", "tags", "span"]
    back = from_records_frame(frame, Record)
    assert back == items
    assert all(isinstance(r.line, int | None) and isinstance(r.score, float) for r in back)
