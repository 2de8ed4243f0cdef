"""Partition plumbing: contiguous runs of partitions, parts stored as Parquet rows that come
back as the records they were, the partition of a document row, and the files a removed
partition takes with it."""

from __future__ import annotations

import re
from dataclasses import dataclass

import dagster as dg
import pytest

from nyaya.judgments.sources import DATASET, UNDATED, judgment_partition
from nyaya.statutes.ingest import source_key
from nyaya.tables import from_records_frame, read_table, records_frame, write_table
from pipelines.partitions import contiguous_ranges, sync_partitions
from pipelines.resources import NyayaSettings

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


@pytest.mark.parametrize(("source_path", "key"), [
    ("statutes/indiacode/the-bharatiya-nyaya-sanhita-2023", "the-bharatiya-nyaya-sanhita-2023"),
    ("statutes/repealed/ipc-1860/ipc_sections.jsonl", "repealed.ipc-1860"),
    ("statutes/repealed/crpc-1973/crpc.json", "repealed.crpc-1973"),
    ("statutes/constitution/indian_constitution.json", "constitution"),
])
def test_a_registry_source_path_names_its_statute_partition(source_path, key):
    assert source_key(source_path) == key


@pytest.mark.bad_input("indexes", "registry source path that is no statute source")
@pytest.mark.parametrize("source_path", ["statutes/repealed/ipc-1860/other.json",
                                         "statutes/indiacode/", "elsewhere/act-1999"])
def test_a_path_that_is_no_statute_source_is_refused_by_name(source_path):
    with pytest.raises(ValueError, match=re.escape(repr(source_path))):
        source_key(source_path)


@pytest.mark.parametrize(("source", "year", "key"), [
    ("aila2019", 1994, "1994"),
    ("irled2017_prior", None, UNDATED),
    ("irled2017_current", 0, UNDATED),
    ("indian_sc", 2001, DATASET),  # a dataset's judgments are one partition, whatever the year
    ("indian_sc", None, DATASET),
])
def test_a_judgment_row_belongs_to_its_year_or_the_dataset(source, year, key):
    assert judgment_partition(source, year) == key


def test_a_removed_source_loses_its_partition_its_parts_and_its_vector_parts(
        fixture_corpus, tmp_path):
    settings = NyayaSettings(corpus_root=str(fixture_corpus),
                             data_dir=str(tmp_path / "data")).resolved()
    instance = dg.DagsterInstance.ephemeral()
    sync_partitions(instance, settings, settings.warehouse)
    instance.add_dynamic_partitions("statute_sources", ["the-gone-act-1950"])
    stored = [settings.warehouse / "statute_parts" / "sections" / f"{key}.parquet"
              for key in ("the-gone-act-1950", "constitution")]
    stored += [settings.vectors_dir / "legal_sections" / f"{key}.{suffix}"
               for key in ("the-gone-act-1950", "constitution") for suffix in ("npy", "json")]
    for path in stored:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(b"stored")
    changes = sync_partitions(instance, settings, settings.warehouse)
    assert changes["statute_parts_job"].removed == ["the-gone-act-1950"]
    assert "the-gone-act-1950" not in instance.get_dynamic_partitions("statute_sources")
    assert [path.exists() for path in stored] == [False, True, False, False, True, True]
