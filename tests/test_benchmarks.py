"""benchmarks/run_all.py's table, ratios, CSV and command line; no data and no timing (the
figures themselves are measured by `python benchmarks/run_all.py`, never asserted here)."""

from __future__ import annotations

import csv
import json
import sys
from dataclasses import asdict, fields
from datetime import date
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from run_all import (
    BENCHMARKS,
    COLUMNS,
    FIGURES_LINE,
    FULL,
    QUICK,
    Benchmark,
    Figure,
    csv_path,
    format_number,
    format_table,
    main,
    run_suite,
    select_benchmarks,
    table_rows,
    versus,
    write_csv,
)


@pytest.mark.parametrize(("value", "peer_value", "ratio"), [
    (3.0, 1.5, 2.0),
    (1.0, 4.0, 0.25),
    (0.0, 2.0, 0.0),
    (7.5, 7.5, 1.0),
    (5.0, None, None),  # no peer
    (5.0, 0.0, None),  # a peer of zero has no ratio, not an error
])
def test_ratio_is_value_over_peer_value(value, peer_value, ratio):
    peer = "" if peer_value is None else "peer"
    figure = Figure("stage", "figure", value, "s", peer, peer_value)
    assert figure.ratio == ratio
    assert figure.row()["ratio"] == ratio


@pytest.mark.parametrize(("peer", "peer_value"), [("numpy exact", None), ("", 1.0)])
def test_a_peer_needs_both_name_and_value(peer, peer_value):
    with pytest.raises(ValueError, match="both its name and its value"):
        Figure("stage", "figure", 1.0, "ms", peer, peer_value)


def test_row_has_the_columns_in_order():
    figure = Figure("BM25", "query median: bm25s", 0.5, "ms", "rank_bm25", 2.0)
    assert list(figure.row()) == list(COLUMNS)
    assert list(figure.row().values()) == ["BM25", "query median: bm25s", 0.5, "ms",
                                           "rank_bm25", 2.0, 0.25]


def test_versus_puts_each_contender_beside_the_peer():
    figures = versus("search", "sections", "ms", {"faiss hnsw": 0.5, "numpy exact": 2.0,
                                                 "qdrant-edge dense": 1.0}, "numpy exact")
    assert [(f.figure, f.peer, f.peer_value, f.ratio) for f in figures] == [
        ("sections: faiss hnsw", "numpy exact", 2.0, 0.25),
        ("sections: numpy exact", "", None, None),  # the peer itself stands alone
        ("sections: qdrant-edge dense", "numpy exact", 2.0, 0.5),
    ]
    assert {f.stage for f in figures} == {"search"}
    assert {f.unit for f in figures} == {"ms"}


def test_versus_without_the_peer_measured_gives_no_ratios():
    figures = versus("embedding", "bucketed", "texts/s", {"minilm-int8": 50.0}, "minilm")
    assert [(f.figure, f.value, f.peer, f.ratio) for f in figures] == [
        ("bucketed: minilm-int8", 50.0, "", None)]


@pytest.mark.parametrize(("value", "text"), [
    (None, ""),
    (0.0, "0.00"),
    (0.000123456, "0.000123"),
    (0.5, "0.5"),
    (2.0, "2.00"),
    (12.25, "12.25"),
    (150.3, "150.3"),
    (-0.04, "-0.04"),
    (12345.6, "12,346"),
])
def test_format_number(value, text):
    assert format_number(value) == text


FIGURES = [
    Figure("BM25 engines", "index build: bm25s", 1.5, "s", "rank_bm25", 0.5),
    Figure("BM25 engines", "index build: rank_bm25", 0.5, "s"),
    Figure("statute ingestion", "peak RSS", 605.0, "MiB"),
]


def test_table_rows_name_a_stage_once_and_format_numbers():
    assert table_rows(FIGURES) == [
        ["BM25 engines", "index build: bm25s", "1.50", "s", "rank_bm25", "0.5", "3.00"],
        ["", "index build: rank_bm25", "0.5", "s", "", "", ""],
        ["statute ingestion", "peak RSS", "605.0", "MiB", "", "", ""],
    ]


def test_format_table_aligns_every_column():
    lines = format_table(FIGURES).splitlines()
    assert lines[0].split() == list(COLUMNS)
    assert len(lines) == 1 + len(FIGURES)
    # numbers are right-aligned: each value ends where the header's "value" ends
    value_end = lines[0].index("value") + len("value")
    assert [line[value_end - 5:value_end].strip() for line in lines[1:]] == ["1.50", "0.5",
                                                                           "605.0"]


def test_csv_path_is_dated_under_reports(tmp_path):
    assert csv_path(tmp_path, date(2026, 11, 23)) == (
        tmp_path / "reports" / "benchmarks" / "2026-11-23.csv")


def test_write_csv_keeps_full_precision_and_leaves_no_peer_blank(tmp_path):
    figures = [Figure("search", "dense: faiss", 0.1 + 0.2, "ms", "numpy exact", 3.0),
               Figure("ingestion", "total", 8.5, "s")]
    path = write_csv(figures, tmp_path / "new" / "folder" / "day.csv")
    with path.open(newline="", encoding="utf-8") as handle:
        reader = csv.DictReader(handle)
        assert tuple(reader.fieldnames) == COLUMNS
        rows = list(reader)
    assert len(rows) == 2
    assert float(rows[0]["value"]) == 0.1 + 0.2  # not 0.3: written in full
    assert float(rows[0]["ratio"]) == (0.1 + 0.2) / 3.0
    assert rows[0]["peer"] == "numpy exact"
    assert rows[1] == {"stage": "ingestion", "figure": "total", "value": "8.5", "unit": "s",
                       "peer": "", "peer_value": "", "ratio": ""}


def test_figures_survive_the_child_process_line():
    figure = Figure("search", "hnsw", 0.26, "ms", "numpy exact", 1.74)
    line = FIGURES_LINE + json.dumps([asdict(figure)])
    rows = json.loads(line[len(FIGURES_LINE):])
    assert [Figure(**row) for row in rows] == [figure]


@pytest.mark.bad_input("CLI", "benchmark --only with an unknown name")
def test_only_rejects_an_unknown_benchmark_with_the_names_it_knows(capsys):
    with pytest.raises(SystemExit) as exited:
        main(["--only", "statutes,no-such-bench"])
    assert exited.value.code == 2
    error = capsys.readouterr().err
    assert "unknown benchmark name(s): no-such-bench" in error
    assert "statutes, judgments" in error  # the valid names are listed


@pytest.mark.bad_input("CLI", "benchmark --only empty")
def test_only_rejects_an_empty_list():
    with pytest.raises(ValueError, match=r"\(none given\)"):
        select_benchmarks(" , ")


def test_only_keeps_the_suite_order():
    assert [b.name for b in select_benchmarks("bm25, statutes")] == ["statutes", "bm25"]
    assert [b.name for b in select_benchmarks(None)] == [b.name for b in BENCHMARKS]


def test_benchmark_names_are_unique():
    names = [b.name for b in BENCHMARKS]
    assert len(names) == len(set(names))


def test_quick_samples_everything_the_full_suite_measures_whole():
    for field in fields(QUICK):
        quick, full = getattr(QUICK, field.name), getattr(FULL, field.name)
        assert quick is not None, field.name
        if isinstance(quick, int) and not isinstance(quick, bool) and full is not None:
            assert quick <= full, field.name


def test_a_failing_benchmark_is_reported_and_the_others_still_run(capsys):
    def measured(_sizes):
        return [Figure("stage", "figure", 2.0, "s")]

    def broken(_sizes):
        raise FileNotFoundError("no warehouse")

    figures, failures = run_suite([Benchmark("broken", broken), Benchmark("fine", measured)],
                                  quick=True)
    assert failures == {"broken": "FileNotFoundError: no warehouse"}
    assert figures[0] == Figure("stage", "figure", 2.0, "s")
    assert [f.figure for f in figures[1:]] == ["fine"]  # the wall time of the one that ran
    assert figures[1].unit == "s"
    assert "[1/2] broken" in capsys.readouterr().err


def test_quick_configs_are_real_configs():
    from evals.configs import config_names, load_config

    known = set(config_names())
    assert set(QUICK.retrieval_configs) <= known
    assert set(QUICK.evaluation_configs) <= known
    sides = {load_config(name).params.get("side", "statutes") for name in QUICK.evaluation_configs}
    assert sides == {"statutes", "precedents", "aila-statutes"}  # one config per side
    assert {load_config(name).params.get("side", "statutes")
            for name in QUICK.retrieval_configs} == {"statutes"}
