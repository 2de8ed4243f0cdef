"""The reporter database (nyaya/facts/reporters.yaml) and what is compiled from it."""

from __future__ import annotations

import pytest

from nyaya.citations.cases import extract_case_citations
from nyaya.citations.reporters import (
    air_courts,
    anchor,
    reporter_of,
    reporters,
    series_ranges,
    supreme_court_reporters,
)


@pytest.mark.parametrize(("written", "reporter"), [
    ("AIR", "AIR"), ("A.I.R.", "AIR"), ("INSC", "INSC"), ("S.C.C.", "SCC"), ("S. C. C", "SCC"),
    ("SCR", "SCR"), ("S.C.R.", "SCR"), ("Scale", "SCALE"), ("J.T.", "JT"),
    ("Judgments Today", "JT"), ("Judgment  Today", "JT"), ("Cri.L.J.", "Cri LJ"),
    ("Crl LJ", "Cri LJ"), ("Cr.L.J", "Cri LJ"), ("All E.R.", "All ER"), ("AllER", "All ER"),
    ("A.C.", "AC"), ("Ch.", "Ch"), ("Bom. L.R.", "Bom LR"), ("Comp. Cas.", "Comp Cas"),
    ("Lab. I.C.", "Lab IC"), ("U.S.", "US"), ("Crimes", "Crimes"), ("I.L.R.", "ILR"),
    ("I. L. R.", "ILR"), ("ILR", "ILR"), ("F.C.R.", "FCR"),
])
def test_each_written_form_finds_its_reporter(written, reporter):
    match = anchor().match(written)
    assert match is not None and match.end() == len(written)
    assert reporter_of(match).name == reporter


@pytest.mark.parametrize("text", ["AIRLINE", "SCCL", "Chapter", "USA", "Crimesnet"])
def test_a_reporter_inside_a_longer_word_is_no_reporter(text):
    assert anchor().match(text) is None


@pytest.mark.parametrize(("text", "key"), [
    ("Maneka Gandhi v. Union of India, (1978) 1 SCC 248", "(1978) 1 SCC 248"),
    ("see AIR 1978 SC 597", "AIR 1978 SC 597"),
    ("as held in [1974] INSC 106", "1974 INSC 106"),
    ("reported at [1990] Ch 12", "(1990) Ch 12"),
    ("the Ch 12 of the book", None),  # Ch is read only after a bracketed year
    ("JT 1986 SC 619", "JT 1986 SC 619"),
])
def test_the_extractor_dispatches_on_the_database(text, key):
    keys = [citation.key for citation in extract_case_citations(text) if citation.key]
    assert keys == ([key] if key else [])


def test_every_reporter_has_a_group_and_the_order_of_the_file():
    names = [reporter.name for reporter in reporters()]
    assert names[:4] == ["AIR", "INSC", "Indlaw", "SCC"] and len(names) == len(set(names))
    assert anchor().groups == 0  # no capturing group: see anchor()


def test_series_and_courts_come_from_the_file():
    ranges = series_ranges()
    scc = ranges["SCC"]
    assert (scc.start, scc.vol_ok, scc.vol_max, scc.page_ok, scc.page_max) == (1969, 14, 20,
                                                                               1200, 1600)
    assert ranges["AIR SC"].sc_only and not ranges["AIR"].sc_only
    assert not ranges["SCC OnLine"].sc_only  # SCC OnLine reports the High Courts too
    assert {"INSC", "SCR", "SCC", "SCC (Cri)", "JT", "SCALE"} <= supreme_court_reporters()
    assert "SCC OnLine" not in supreme_court_reporters()
    assert air_courts()["Bombay"] == "Bom" and air_courts()["P & H"] == "P&H"
