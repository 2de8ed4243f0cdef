"""benchmarks/bench_scaling.py's pure parts: the deterministic corpus subset and the growth
fit; no pipeline run and no timing."""

from __future__ import annotations

import math
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

from bench_scaling import (
    KEPT_ACTS,
    Growth,
    extrapolate,
    filter_records,
    fit_growth,
    parse_args,
    sampled,
    split_records,
    subset_corpus,
    unit_hash,
)

from nyaya.judgments.sources import read_sc_metadata

SC_FILE = """\
# Supreme Court Judgments Index - 1999

### A versus B
- **Date**: 01-01-1999
- **Identification**: Case ID: 1999 INSC 1 | Citation: [1999] 1 S.C.R. 1

### C versus D
- **Date**: 02-01-1999

### E versus F
- **Date**: 03-01-1999
"""


def files(root: Path) -> set[str]:
    return {p.relative_to(root).as_posix() for p in root.rglob("*")
            if p.is_file() or p.is_symlink()}


def test_unit_hash_is_stable_and_in_range():
    assert unit_hash("AILA:C1") == unit_hash("AILA:C1")
    values = [unit_hash(f"key{i}") for i in range(2000)]
    assert all(0 <= v < 1 for v in values)
    assert 0.45 < sum(v < 0.5 for v in values) / len(values) < 0.55


def test_sampled_subsets_are_nested():
    keys = [f"IRLED:prior_case_{i:04d}" for i in range(500)]
    small = {k for k in keys if sampled(k, 0.1)}
    large = {k for k in keys if sampled(k, 0.5)}
    assert small <= large
    assert {k for k in keys if sampled(k, 1.0)} == set(keys)


def test_split_records_keeps_every_byte():
    head, records = split_records(SC_FILE)
    assert head.startswith("# Supreme Court")
    assert [r.splitlines()[0] for r in records] == ["### A versus B", "### C versus D",
                                                      "### E versus F"]
    assert head + "".join(records) == SC_FILE
    assert split_records("# only a title\n") == ("# only a title\n", [])


def test_filter_records_whole_and_none():
    from bench_scaling import Kept

    counter = Kept()
    assert filter_records(SC_FILE, 1.0, counter) == SC_FILE
    assert (counter.kept, counter.total) == (3, 3)
    assert filter_records(SC_FILE, 1e-12, Kept()) == split_records(SC_FILE)[0]


def test_subset_corpus(fixture_corpus: Path, tmp_path: Path):
    whole = subset_corpus(fixture_corpus, tmp_path / "all", 1.0)
    assert files(whole.root) == files(fixture_corpus)
    for rel in files(whole.root):
        assert (whole.root / rel).read_bytes() == (fixture_corpus / rel).read_bytes()
    # the SC metadata files are filtered copies, everything else a link into the corpus
    links = {rel for rel in files(whole.root) if (whole.root / rel).is_symlink()}
    assert all(not rel.startswith("judgments/sc-metadata/") for rel in links)
    assert {rel for rel in files(whole.root) if rel not in links} == {
        rel for rel in files(fixture_corpus) if rel.startswith("judgments/sc-metadata/")}
    assert whole.corpus_bytes == sum((fixture_corpus / r).stat().st_size
                                     for r in files(fixture_corpus))

    tiny = subset_corpus(fixture_corpus, tmp_path / "tiny", 1e-9)
    kept = files(tiny.root)
    # the codes the blocking checks need, the query files and the qrels stay whole
    for rel in files(fixture_corpus):
        parts = rel.split("/")
        always = (rel.startswith(("statutes/repealed/", "statutes/constitution/",
                                  "statutes/chapters/", "mappings/", "judgments/aila2019/qrels",
                                  "judgments/irled2017/current_cases/"))
                  or rel in ("judgments/aila2019/Query_doc.txt",
                             "judgments/irled2017/qrels.dev.txt")
                  or (parts[:2] == ["statutes", "indiacode"] and parts[2] in KEPT_ACTS))
        if always:
            assert rel in kept, rel
        if rel.startswith(("judgments/aila2019/casedocs/", "judgments/irled2017/prior_cases/")):
            assert rel not in kept, rel
    assert {what: c.total > 0 for what, c in tiny.counts.items()} == {
        "indiacode Acts (other than BNS/BNSS/BSA)": True, "AILA 2019 case documents": True,
        "IRLeD 2017 prior cases": True, "SC metadata records": True}
    assert all(c.kept == 0 for c in tiny.counts.values())
    records, _ = read_sc_metadata(tiny.root)
    assert records == []
    # the same fraction twice: the same files; a larger one holds the smaller one
    again = subset_corpus(fixture_corpus, tmp_path / "tiny", 1e-9)
    assert files(again.root) == kept
    half = subset_corpus(fixture_corpus, tmp_path / "half", 0.5)
    assert kept <= files(half.root) <= files(whole.root)


@pytest.mark.parametrize("b", [0.5, 1.0, 1.3, 2.0])
def test_fit_growth_recovers_a_power_law(b: float):
    sizes = [100, 250, 500, 1000]
    growth = fit_growth(sizes, [3.0 * s ** b for s in sizes])
    assert growth is not None
    assert growth.b == pytest.approx(b)
    assert math.exp(growth.a) == pytest.approx(3.0)
    assert growth.r2 == pytest.approx(1.0)
    assert growth.at(2000) == pytest.approx(3.0 * 2000 ** b)


def test_fit_growth_noise_and_degenerate_input():
    growth = fit_growth([1, 2, 4, 8], [10, 21, 39, 82])
    assert growth is not None and 0.95 < growth.b < 1.05 and 0.99 < growth.r2 < 1
    assert fit_growth([5], [1.0]) is None
    assert fit_growth([5, 5], [1.0, 2.0]) is None
    assert fit_growth([1, 2, 3], [0.0, 0.0, 1.0]) is None  # one usable point
    assert fit_growth([1, 2], [3.0, 3.0]) == Growth(math.log(3.0), 0.0, 1.0)


def test_extrapolate_through_the_measured_point():
    assert extrapolate(60.0, Growth(0.0, 1.0, 1.0), 10) == pytest.approx(600.0)
    assert extrapolate(60.0, Growth(5.0, 0.5, 1.0), 100) == pytest.approx(600.0)
    assert extrapolate(60.0, None, 10) is None


def test_parse_args_runs_earlier_stages():
    args = parse_args(["--fractions", "0.1", "1", "--stages", "index"])
    assert args.fractions == [0.1, 1.0]
    assert args.stages == ["ingest", "embed", "index"]
    with pytest.raises(SystemExit):
        parse_args(["--fractions", "0"])
