"""The judgment readers: header parsing on literal strings, the fixture tree, the real corpus."""

from __future__ import annotations

import json
import re
import time

import pandas as pd
import pytest
from minijudgments import AILA, PRIOR, SAME_CASE_PARAGRAPH, write_judgment_fixtures

from nyaya.judgments.headers import (
    parse_bench_line,
    parse_citation_line,
    parse_citator,
    parse_court_header,
    parse_date,
    parse_prior_first_line,
    split_case_name,
    split_judge_names,
)
from nyaya.judgments.sources import (
    AILA as AILA_SOURCE,
)
from nyaya.judgments.sources import (
    IRLED_CURRENT,
    IRLED_PRIOR,
    decode_file,
    read_judgment_dataset,
    read_judgments,
    read_sc_metadata,
)
from nyaya.judgments.tables import judgment_part, judgment_parts


@pytest.fixture(scope="module")
def judgment_corpus(tmp_path_factory: pytest.TempPathFactory):
    return write_judgment_fixtures(tmp_path_factory.mktemp("judgments"))


@pytest.fixture(scope="module")
def judgments(judgment_corpus):
    records, quarantined = read_judgments(judgment_corpus)
    return {r.doc_id: r for r in records}, quarantined


# --- headers on literal strings ------------------------------------------------------------

@pytest.mark.parametrize(("text", "iso"), [
    ("26 September 1973", "1973-09-26"),
    ("1  May  2002", "2002-05-01"),
    ("26 Sep 1973", "1973-09-26"),
    ("3 Sept 1984", "1984-09-03"),
    ("(11 October 1995)", "1995-10-11"),
    ("26-09-1973", "1973-09-26"),
    ("17-07-2019", "2019-07-17"),
    ("10/05/1963", "1963-05-10"),  # day first
    ("March 1, 2010", "2010-03-01"),
    ("JULY 03, 2012.", "2012-07-03"),
    ("2019-07-17", "2019-07-17"),
    ("31 February 1990", None),
    ("31-02-2013", None),
    ("13/13/1990", None),
    ("October 1999)", None),
    ("Smarch 3, 2001", None),
    ("", None),
    (None, None),
])
def test_parse_date(text, iso):
    assert parse_date(text) == iso


@pytest.mark.parametrize(("raw", "expected"), [
    ("Masud Khan v State Of Uttar Pradesh",
     ("Masud Khan v. State of Uttar Pradesh", "Masud Khan", "State of Uttar Pradesh")),
    ("Lakshmi Devi vs. Union Of India",
     ("Lakshmi Devi v. Union of India", "Lakshmi Devi", "Union of India")),
    ("Harbans Singh Versus State Of Punjab",
     ("Harbans Singh v. State of Punjab", "Harbans Singh", "State of Punjab")),
    ("GURMIT SINGH versus KIRAN KANT AND OTHERS",
     ("GURMIT SINGH v. KIRAN KANT AND OTHERS", "GURMIT SINGH", "KIRAN KANT AND OTHERS")),
    ("K. V. Rao vs State", ("K. V. Rao v. State", "K. V. Rao", "State")),
    ("JAYENDRA SWAMIGAL V. STATE OF TAMIL NADU",
     ("JAYENDRA SWAMIGAL v. STATE OF TAMIL NADU", "JAYENDRA SWAMIGAL", "STATE OF TAMIL NADU")),
    ("In re Special Reference", ("In re Special Reference", None, None)),
    ("", (None, None, None)),
])
def test_split_case_name(raw, expected):
    assert split_case_name(raw) == expected


@pytest.mark.parametrize(("text", "judges"), [
    ("A. Alagiriswami, J.", ["A. Alagiriswami"]),
    ("Ruma Pal, J", ["Ruma Pal"]),
    ("Dr. Arijit Pasayat J.", ["Dr. Arijit Pasayat"]),
    ("M. K. Mukherjee, J. and S.P. Kurdukar, J.", ["M. K. Mukherjee", "S.P. Kurdukar"]),
    ("A. N. Ray, Mathew Isaacs and Hameedullah Beg, JJ.",
     ["A. N. Ray", "Mathew Isaacs", "Hameedullah Beg"]),
    ("Hon'ble Justice Untwalia N. L. and Hon'ble Justice Pathak R. S.",
     ["Untwalia N. L.", "Pathak R. S."]),
    ("SHAH, J.C.", ["SHAH, J.C."]),
    ("T.S. THAKUR, CJI.", ["T.S. THAKUR"]),
])
def test_split_judge_names(text, judges):
    assert split_judge_names(text) == judges


@pytest.mark.parametrize(("line", "judges"), [
    ("RAY, A.N. (CJ) RAY, A.N. (CJ) REDDY, P. JAGANMOHAN PALEKAR, D.G.",
     ["RAY, A.N.", "REDDY, P. JAGANMOHAN", "PALEKAR, D.G."]),
    ("JEEVAN REDDY, B.P. (J) JEEVAN REDDY, B.P. (J) MAJMUDAR S.B. (J)",
     ["JEEVAN REDDY, B.P.", "MAJMUDAR S.B."]),
    ("SINHA, BHUVNESHWAR P.(CJ) KAPUR, J.L.", ["SINHA, BHUVNESHWAR P.", "KAPUR, J.L."]),
    ("CHANDRACHUD, Y.V. ((CJ) TULZAPURKAR, V.D.", ["CHANDRACHUD, Y.V.", "TULZAPURKAR, V.D."]),
    # the author repeated at the start marks where a two-word surname ends
    ("FAZAL ALI, SAIYID FAZAL ALI, SAIYID SASTRI, M. PATANJALI",
     ["FAZAL ALI, SAIYID", "SASTRI, M. PATANJALI"]),
    ("K. RAMASWAMY, G.B. PATTANAIK", ["K. RAMASWAMY", "G.B. PATTANAIK"]),
    ("G.B.Pattanaik, N.Santosh Hegde", ["G.B.Pattanaik", "N.Santosh Hegde"]),
    ("[K. S. HEGDE AND A. N. GROVER, JJ.]", ["K. S. HEGDE", "A. N. GROVER"]),
    ("CJI, K. VENKATASWAMI", ["K. VENKATASWAMI"]),
    ("ASHOK BHAN & DALVEER BHANDARI", ["ASHOK BHAN", "DALVEER BHANDARI"]),
    ("CJI R.C. Lahoti,G.P. Mathur & P.K. Balasubramanyan",
     ["R.C. Lahoti", "G.P. Mathur", "P.K. Balasubramanyan"]),
    ("S.B. MAJMUDAR, M. JAGANNADHA RAO.", ["S.B. MAJMUDAR", "M. JAGANNADHA RAO"]),
])
def test_parse_bench_line(line, judges):
    assert parse_bench_line(line) == judges


@pytest.mark.parametrize(("line", "citations", "iso", "note"), [
    (" 551; AIR 1996 SC 463; 1995 (6) SCC 315; 1995 (7) JT 225; 1995 (5) SCALE 690 "
     "(11 October 1995)",
     ["AIR 1996 SC 463", "1995 (6) SCC 315", "1995 (7) JT 225", "1995 (5) SCALE 690"],
     "1995-10-11", "first header citation truncated: '551'"),
    (" [1974] INSC 106; AIR 1974 SC 1389; 1975 (1) SCR 173; 1974 (1) SCC 717 (26 April 1974)",
     ["[1974] INSC 106", "AIR 1974 SC 1389", "1975 (1) SCR 173", "1974 (1) SCC 717"],
     "1974-04-26", None),
    (" ANR [1985] INSC 211; AIR 1986 SC 137; 1985 (3) Suppl.SCR 264 (30 September 1985)",
     ["[1985] INSC 211", "AIR 1986 SC 137", "1985 (3) Suppl.SCR 264"], "1985-09-30", None),
    (" 1963 SC 1760; 1964 (3) SCR 787 (10 May 1963)", ["AIR 1963 SC 1760", "1964 (3) SCR 787"],
     "1963-05-10", "first header citation lost 'AIR ': restored '1963 SC 1760'"),
    (" SC 23; 1953 SCR 136 (30 October 1952)", ["1953 SCR 136"], "1952-10-30",
     "first header citation truncated: 'SC 23'"),
    (" October 1999)", [], None, "header date truncated: 'October 1999)'"),
    (" [1996] INSC 1059 (31 February 1996)", ["[1996] INSC 1059"], None,
     "header date not a valid date: '31 February 1996'"),
    ("", [], None, "no date in header"),
])
def test_parse_prior_first_line(line, citations, iso, note):
    got_citations, got_iso, notes = parse_prior_first_line(line)
    assert (got_citations, got_iso) == (citations, iso)
    assert (note in notes) if note else notes == []


@pytest.mark.parametrize(("line", "citations"), [
    ("CITATION: 1974 AIR 1389 1975 SCR (1) 173 1974 SCC (1) 717",
     ["AIR 1974 SC 1389", "1975 (1) SCR 173", "1974 (1) SCC 717"]),
    ("CITATION: 1996 AIR 463 1995 SCC (6) [315 JT 1995] (7) 225 1995 SCALE (5)690",
     ["AIR 1996 SC 463", "1995 (6) SCC 315", "1995 (7) JT 225", "1995 (5) SCALE 690"]),
    ("CITATION: 1953 AIR 23 [[1952] INSC 52]; [1953 SCR 136 ]",
     ["[1952] INSC 52", "AIR 1953 SC 23", "1953 SCR 136"]),
    ("CITATION: 1985 SCR Supl. (3) 264 [[1987] INSC 315]; [1987 SCC Supl. 401] JT 1987 (4) 251",
     ["[1987] INSC 315", "1985 (3) Suppl.SCR 264", "1987 Suppl.SCC 401", "1987 (4) JT 251"]),
    ("CITATION: 1989 SCC (4) [21 JT 1989] Supl. 239", ["1989 (4) SCC 21", "1989 Suppl.JT 239"]),
    ("CITATION: 1971 AIR [1801 1971 SCR 549]", ["AIR 1971 SC 1801", "1971 SCR 549"]),
])
def test_parse_citation_line(line, citations):
    assert parse_citation_line(line) == citations


@pytest.mark.parametrize(("line", "entries"), [
    ("D 1975 SC1821 (9,10, [43) RF 1976] SC 490 (88)",
     [("D", "AIR 1975 SC 1821", "9,10,43"), ("RF", "AIR 1976 SC 490", "88")]),
    # an unclosed paragraph list runs into the next entry; a cut entry at the end is dropped
    ("R 1980 SC1042 (2,41,101 R 1984 SC1420 (13) F 197",
     [("R", "AIR 1980 SC 1042", "2,41,101"), ("R", "AIR 1984 SC 1420", "13")]),
    ("O [1988 SC 584] (1,2,3,5) E&R 1987 SC 311 (11, [13)",
     [("O", "AIR 1988 SC 584", "1,2,3,5"), ("E&R", "AIR 1987 SC 311", "11,13")]),
    ("RF [[1988] ScotCS CSOH_1]; [1988 SC 305] (22)", [("RF", "AIR 1988 SC 305", "22")]),
    ("[1963 SC 601] (6) * 1988 SC2235 (5A) MV 1990 SC 10",
     [(None, "AIR 1963 SC 601", "6"), ("*", "AIR 1988 SC 2235", "5A"),
      ("MV", "AIR 1990 SC 10", None)]),
    ("", []),
])
def test_parse_citator(line, entries):
    got = [(e["relation"], e["citation"], e["paragraphs"]) for e in parse_citator(line)]
    assert got == entries


@pytest.mark.parametrize(("line", "number", "petitioner", "respondent", "judges"), [
    ("IN THE SUPREME COURT OF INDIA CIVIL APPELLATE JURISDICTION CIVIL APPEAL NO. 2226 OF 2010 "
     "[Arising out of Special Leave to Appeal (C) No.26684 of 2008] State of Haryana & Ors. ... "
     "Appellants Versus Manoj Kumar ... Respondent",
     "CIVIL APPEAL NO. 2226 OF 2010", "State of Haryana & Ors.", "Manoj Kumar", []),
    ("IN THE SUPREME COURT OF INDIA CIVIL APPELLATE JURISDICTION CIVIL APPEAL NO.5854 OF 2009 "
     "(Arising out of SLP(C) No. 29303/2008) Ashok K. Jha & Ors. ...Appellants Versus Garden "
     "Silk Mills & Anr. ...Respondents JUDGEMENT R.M. Lodha, J.",
     "CIVIL APPEAL NO.5854 OF 2009", "Ashok K. Jha & Ors.", "Garden Silk Mills & Anr.",
     ["R.M. Lodha"]),
    ("Reportable IN THE SUPREME COURT OF INDIA CIVIL APPELLATE JURISDICTION CIVIL APPEAL NO.1215 "
     "OF 2011 M. Nagabhushana ...Appellant(s) \\- Versus - State of Karnataka & Others "
     "...Respondent(s)",
     "CIVIL APPEAL NO.1215 OF 2011", "M. Nagabhushana", "State of Karnataka & Others", []),
    ("REPORTABLE IN THE SUPREME COURT OF INDIA CRIMINAL APPELLATE JURISDICTION CRIMINAL APPEAL "
     "NO. 607 OF 2005 BIMAN BASU ... APPELLANT VERSUS",
     "CRIMINAL APPEAL NO. 607 OF 2005", "BIMAN BASU", None, []),
])
def test_parse_court_header(line, number, petitioner, respondent, judges):
    got = parse_court_header(line)
    assert (got["case_number"], got["petitioner"], got["respondent"], got["judges"]) == (
        number, petitioner, respondent, judges)


def test_court_header_keeps_body_text_run_into_it():
    got = parse_court_header(
        "IN THE SUPREME COURT OF INDIA CRIMINAL APPELLATE JURISDICTION SPECIAL LEAVE PETITION "
        "(CRIMINAL) Nos. 6219-6220 OF 2012 Kamlesh Kumar & Ors.  Petitioners Versus The State "
        "& Ors.  Respondents J U D G E M E N T H.L. GOKHALE, J These petitions challenge it.")
    assert got["judges"] == ["H.L. GOKHALE"]
    assert got["rest"] == "These petitions challenge it."


@pytest.mark.parametrize(("data", "reason", "note"), [
    (b"", "empty_file", None),
    (b"  \n\n ", "empty_file", None),
    (b"Case\x00\x01\x02", "binary_content", None),
    (b"\x01\x02\x03\x04\x05\x06 ab", "binary_content", None),
    (b"\x81\x8d\x90\xfe" * 50, "undecodable_text", None),
    ("The appellant \u2013 a clerk".encode("cp1252"), None, "decoded as cp1252"),
    ("Plain \u2013 UTF-8 text".encode(), None, None),
    (b"\xef\xbb\xbfWith a BOM\r\nand CRLF", None, None),
])
def test_decode_file(data, reason, note):
    text, notes, problem = decode_file(data, "x.txt")
    assert (problem.reason if problem else None) == reason
    assert (text is None) == (reason is not None)
    if note:
        assert note in notes
    if text is not None:
        assert "\r" not in text and not text.startswith("\ufeff")


# --- the fixture tree ---------------------------------------------------------------------

@pytest.mark.bad_input("judgment corpus", "empty judgment file")
@pytest.mark.bad_input("judgment corpus", "binary judgment file")
@pytest.mark.bad_input("judgment corpus", "undecodable judgment text")
@pytest.mark.bad_input("judgment corpus", "judgment with header only")
def test_read_judgments_counts_ids_and_quarantine(judgments):
    records, quarantined = judgments
    assert sorted(records) == [
        "AILA:C1", "AILA:C10", "AILA:C2", "AILA:C3", "AILA:C4", "AILA:C5", "AILA:C6",
        "IRLED:current_case_0001", "IRLED:current_case_0002", "IRLED:current_case_0003",
        "IRLED:current_case_0004", "IRLED:prior_case_0001", "IRLED:prior_case_0002",
        "IRLED:prior_case_0003", "IRLED:prior_case_0004", "IRLED:prior_case_0007"]
    assert sorted((q.source_file.rsplit("/", 1)[1], q.reason) for q in quarantined) == [
        ("C11.txt", "undecodable_text"), ("C7.txt", "empty_file"), ("C8.txt", "binary_content"),
        ("C9.txt", "text_too_short"), ("prior_case_0005.txt", "empty_file"),
        ("prior_case_0006.txt", "text_too_short")]
    for q in quarantined:
        assert q.act_code is None and q.section_number is None
        assert q.source_file in q.detail


def test_records_are_sorted_and_sourced(judgment_corpus):
    records, _ = read_judgments(judgment_corpus)
    assert [r.doc_id for r in records] == sorted(r.doc_id for r in records)
    sources = {r.doc_id.split(":")[1][:5]: r.source for r in records}
    assert sources == {"C1": AILA_SOURCE, "C10": AILA_SOURCE, "C2": AILA_SOURCE,
                       "C3": AILA_SOURCE, "C4": AILA_SOURCE, "C5": AILA_SOURCE,
                       "C6": AILA_SOURCE, "curre": IRLED_CURRENT, "prior": IRLED_PRIOR}
    assert all(r.court == "Supreme Court of India" for r in records)
    assert all(r.text == r.text.strip("\n") and not any(
        line != line.rstrip() for line in r.text.split("\n")) for r in records)


def test_aila_header_fields(judgments):
    records, _ = judgments
    c1 = records["AILA:C1"]
    assert (c1.case_name, c1.petitioner, c1.respondent) == (
        "Ramesh Chandra v. State of Rajasthan", "Ramesh Chandra", "State of Rajasthan")
    assert (c1.decision_date, c1.year, c1.case_number, c1.judges) == (
        "1996-08-12", 1996, "Criminal Appeal No. 455 of 1995", ["A. B. Rao"])
    assert c1.source_file == f"{AILA}/C1.txt"
    assert c1.header.endswith("The Judgment was delivered by : A. B. Rao, J.")
    assert c1.text.startswith("1.  The appellant") and c1.parse_notes == []
    c2 = records["AILA:C2"]
    assert c2.case_number == "Criminal Appeal No. 210 of 1985"  # joined across two lines
    assert c2.judges == [] and "no judges named" in c2.parse_notes
    assert c2.text.startswith("Special leave granted.")
    assert records["AILA:C3"].judges == ["C. D. Menon", "E. F. Iyer"]
    assert records["AILA:C4"].case_number is None
    assert records["AILA:C5"].decision_date == "1979-09-26"
    assert records["AILA:C5"].case_number == "Civil Appeal No. 1201 of 1978"
    assert records["AILA:C5"].text.startswith("Heard counsel")
    c10 = records["AILA:C10"]
    assert c10.decision_date is None and c10.year is None
    assert "date not a valid date: '31 February 1990'" in c10.parse_notes
    assert c10.case_number == "Civil Appeal No. 77 of 1989"


def test_cp1252_file_is_kept_with_a_note(judgments):
    c6 = judgments[0]["AILA:C6"]
    assert c6.parse_notes[0] == "decoded as cp1252"
    assert "appellant \u2013 a bank clerk" in c6.text and "\u2018missing\u2019" in c6.text


def test_prior_case_headers(judgments):
    records, _ = judgments
    p1 = records["IRLED:prior_case_0001"]
    assert p1.case_name is None and "title truncated" in p1.parse_notes
    assert p1.decision_date == "1996-08-12"
    assert p1.judges == ["RAO, A.B.", "MENON, C.D."]
    # the CITATION line adds only the SCALE citation the first line did not have
    assert p1.header_citations == ["[1996] INSC 912", "AIR 1996 SC 2890", "1996 (5) SCC 400",
                                   "1996 (6) JT 155", "1996 (4) SCALE 512"]
    assert p1.header.splitlines()[-1].startswith("CITATION:")
    assert p1.text.startswith("Indian Penal Code, 1860, s. 302")  # headnote is text
    p2 = records["IRLED:prior_case_0002"]
    assert p2.judges == ["BEG, M. HAMEEDULLAH", "CHANDRACHUD, Y.V.", "BHAGWATI, P.N.",
                         "KRISHNAIYER, V.R."]
    assert "AIR 1978 SC 597" in p2.header_citations and "1978 (1) SCC 248" in p2.header_citations
    assert [e["relation"] for e in p2.citator] == ["R", "F", "RF"]
    p4 = records["IRLED:prior_case_0004"]
    assert (p4.decision_date, p4.judges) == (None, ["K. Rao", "S. Menon"])
    assert "no CITATION line" in p4.parse_notes and p4.text.startswith("RAO, J.")
    p7 = records["IRLED:prior_case_0007"]
    assert p7.decision_date == "1950-05-05" and "date taken from the bench line" in p7.parse_notes
    assert p7.header_citations == ["[1950] INSC 11", "AIR 1950 SC 169", "1950 SCR 453"]


def test_citator_overruled_entry_points_at_another_fixture_case(judgments):
    records, _ = judgments
    overruled = records["IRLED:prior_case_0003"]
    assert overruled.citator[0] == {"relation": "O", "citation": "AIR 1978 SC 597",
                                    "paragraphs": "5,7"}
    assert overruled.citator[0]["citation"] in records["IRLED:prior_case_0002"].header_citations
    assert overruled.header_citations == ["AIR 1975 SC 1404", "1975 (3) SCR 91"]
    assert all(r.citator == [] for r in records.values() if r.source != IRLED_PRIOR)


def test_same_judgment_in_two_sources(judgments):
    records, _ = judgments
    aila, prior = records["AILA:C1"], records["IRLED:prior_case_0001"]
    assert aila.decision_date == prior.decision_date
    assert SAME_CASE_PARAGRAPH in aila.text and SAME_CASE_PARAGRAPH in prior.text


def test_current_case_headers(judgments):
    records, _ = judgments
    c1 = records["IRLED:current_case_0001"]
    assert (c1.case_name, c1.case_number, c1.judges, c1.decision_date) == (
        "State of Gujarat & Ors. v. Kishan Lal", "CIVIL APPEAL NO. 1144 OF 2010",
        ["Dalip Singh"], "2010-03-01")  # date from the closing "New Delhi; March 1, 2010."
    assert c1.text.startswith("1\\. Leave granted.") and "\r" not in c1.text
    c2 = records["IRLED:current_case_0002"]
    assert (c2.case_name, c2.decision_date, c2.header_citations, c2.judges) == (
        "HARDEV SINGH v. PARAMJIT KAUR & ORS.", "2013-01-07", ["[2013] INSC 130"],
        ["Neha Misra"])
    c3 = records["IRLED:current_case_0003"]
    assert (c3.case_name, c3.decision_date, c3.judges) == (None, None, ["G.S. Rao"])
    assert {"no date", "no case name"} <= set(c3.parse_notes)
    c4 = records["IRLED:current_case_0004"]
    assert c4.case_number == "Appeal (crl.) 804 of 2001"
    assert c4.judges == ["A. Rao", "B. Menon"]  # the author line repeats a bench judge


@pytest.mark.bad_input("judgment corpus", "sc-metadata duplicate record")
def test_read_sc_metadata_fixture(judgment_corpus):
    records, quarantined = read_sc_metadata(judgment_corpus)
    by_id = {r.record_id: r for r in records}
    assert list(by_id) == [
        "SC:1996 INSC 912", "SC:sc_1996_searchable:2", "SC:2013 INSC 130", "SC:2013 INSC 201",
        "SC:2013 INSC 413#[2013] 6 S.C.R. 561", "SC:2013 INSC 413#[2013] 6 S.C.R. 545"]
    first = by_id["SC:1996 INSC 912"]
    assert (first.title, first.petitioner, first.respondent, first.decision_date, first.year,
            first.neutral_citation, first.scr_citation, first.source_line) == (
        "RAMESH CHANDRA versus STATE OF RAJASTHAN", "RAMESH CHANDRA", "STATE OF RAJASTHAN",
        "1996-08-12", 1996, "1996 INSC 912", "[1996] SUPP. 4 S.C.R. 210", 3)
    assert by_id["SC:sc_1996_searchable:2"].title == "MOHAN DAS versus UNION OF INDIA AND ORS."
    in_re = by_id["SC:2013 INSC 201"]
    assert (in_re.title, in_re.petitioner, in_re.respondent) == (
        "IN RE: CONDITIONS IN CHILDREN'S HOMES", None, None)
    assert by_id["SC:2013 INSC 413#[2013] 6 S.C.R. 545"].decision_date is None  # 31-02-2013
    assert [(q.reason, q.source_line) for q in quarantined] == [("duplicate_record", 15)]
    assert "sc_1996_searchable.md:3" in quarantined[0].detail


def test_same_case_has_a_registry_record(judgments, judgment_corpus):
    records, _ = judgments
    registry, _ = read_sc_metadata(judgment_corpus)
    neutral = {r.neutral_citation: r for r in registry}
    prior = records["IRLED:prior_case_0001"]
    insc = next(c for c in prior.header_citations if "INSC" in c)
    match = neutral[insc.replace("[", "").replace("]", "")]
    assert match.decision_date == prior.decision_date == records["AILA:C1"].decision_date


@pytest.mark.bad_input("judgment corpus", "judgment source folder missing")
def test_missing_sources_are_reported_not_fatal(tmp_path):
    records, quarantined = read_judgments(tmp_path)
    assert records == [] and {q.reason for q in quarantined} == {"missing_source"}
    assert len(quarantined) == 3
    sc_records, sc_quarantined = read_sc_metadata(tmp_path)
    assert sc_records == [] and [q.reason for q in sc_quarantined] == ["missing_source"]


# --- datasets --------------------------------------------------------------------------------

@pytest.fixture
def hf_cache(tmp_path, monkeypatch):
    datasets = pytest.importorskip("datasets")
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-cache")
    return tmp_path


@pytest.mark.bad_input("judgment corpus", "dataset row with empty text")
@pytest.mark.bad_input("judgment corpus", "dataset duplicate doc_id")
def test_read_judgment_dataset_from_jsonl(hf_cache):
    rows = [
        {"doc_id": "x1", "text": "Held: the conviction under Section 302 IPC stands.\n",
         "case_name": "Ram Prasad vs State of U.P.", "decision_date": "2001-03-04",
         "citations": ["AIR 2001 SC 10", "(2001) 3 SCC 5"]},
        {"doc_id": "x2", "text": "   ", "case_name": None, "decision_date": None,
         "citations": []},
        {"doc_id": "x3", "text": "Order: appeal allowed.", "case_name": "Sita v Gita",
         "decision_date": "31-02-2001", "citations": []},
        {"doc_id": "x1", "text": "A second row with the same id.", "case_name": None,
         "decision_date": None, "citations": []},
    ]
    path = hf_cache / "judgments.jsonl"
    path.write_text("".join(json.dumps(row) + "\n" for row in rows), encoding="utf-8")
    records, quarantined = read_judgment_dataset(str(path), source="mine")
    assert [r.doc_id for r in records] == ["MINE:x1", "MINE:x3"]
    first = records[0]
    assert (first.source, first.case_name, first.petitioner, first.decision_date, first.year,
            first.header_citations, first.text) == (
        "mine", "Ram Prasad v. State of U.P.", "Ram Prasad", "2001-03-04", 2001,
        ["AIR 2001 SC 10", "(2001) 3 SCC 5"], "Held: the conviction under Section 302 IPC stands.")
    assert records[1].decision_date is None
    assert "date not a valid date: '31-02-2001'" in records[1].parse_notes
    assert [(q.reason, q.source_line) for q in quarantined] == [
        ("empty_text", 2), ("duplicate_doc_id", 4)]


@pytest.mark.bad_input("judgment corpus", "dataset without required columns")
def test_read_judgment_dataset_requires_columns(hf_cache):
    path = hf_cache / "bad.jsonl"
    path.write_text(json.dumps({"id": "a", "body": "text"}) + "\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"bad\.jsonl.*doc_id, text"):
        read_judgment_dataset(str(path))


# --- the real corpus ------------------------------------------------------------------------

@pytest.mark.corpus
def test_real_corpus_judgments_and_registry(real_corpus):
    if not (real_corpus / "judgments").is_dir():
        pytest.skip(f"no judgments in {real_corpus}")
    start = time.perf_counter()
    records, quarantined = read_judgments(real_corpus)
    registry, registry_quarantined = read_sc_metadata(real_corpus)
    elapsed = time.perf_counter() - start
    assert elapsed < 30, f"reading the judgments took {elapsed:.1f}s"

    def files(prefix: str) -> int:
        return sum(r.source_file.startswith(prefix) for r in records) + sum(
            q.source_file.startswith(prefix) for q in quarantined)

    assert (files(AILA), files(PRIOR), files("judgments/irled2017/current_cases")) == (
        2914, 2000, 200)
    assert {q.reason for q in quarantined} <= {"empty_file", "binary_content",
                                               "undecodable_text", "text_too_short"}
    assert len(quarantined) <= 10
    assert len({r.doc_id for r in records}) == len(records)

    by_source: dict[str, list] = {}
    for r in records:
        by_source.setdefault(r.source, []).append(r)

    def rate(source: str, has) -> float:
        rows = by_source[source]
        return sum(1 for r in rows if has(r)) / len(rows)

    # floors a little under what the readers achieve on this corpus (see the module report)
    assert rate(AILA_SOURCE, lambda r: r.decision_date) >= 0.99
    assert rate(AILA_SOURCE, lambda r: r.petitioner and r.respondent) >= 0.99
    assert rate(AILA_SOURCE, lambda r: r.judges) >= 0.85
    assert rate(AILA_SOURCE, lambda r: r.case_number) >= 0.95
    assert rate(IRLED_PRIOR, lambda r: r.decision_date) >= 0.95
    assert rate(IRLED_PRIOR, lambda r: r.header_citations) >= 0.94
    assert rate(IRLED_PRIOR, lambda r: r.judges) >= 0.99
    assert rate(IRLED_PRIOR, lambda r: r.citator) >= 0.50
    assert rate(IRLED_CURRENT, lambda r: r.decision_date) >= 0.15
    assert rate(IRLED_CURRENT, lambda r: r.case_name) >= 0.14
    overruled = [e for r in by_source[IRLED_PRIOR] for e in r.citator if e["relation"] == "O"]
    assert len(overruled) >= 40

    assert len(registry) + len(registry_quarantined) == 28881
    assert {q.reason for q in registry_quarantined} == {"duplicate_record"}
    assert len({r.record_id for r in registry}) == len(registry)
    assert sum(1 for r in registry if r.decision_date) / len(registry) >= 0.99
    assert sum(1 for r in registry if r.petitioner and r.respondent) / len(registry) >= 0.99
    assert sum(1 for r in registry if r.neutral_citation) / len(registry) >= 0.99


@pytest.mark.parametrize(("content", "reason", "detail"), [
    # one 10 MB line: too big to be one judgment, said with its size
    ("x " * 5_000_000, "file_too_large", r"is 10\.0 MB; a judgment is read whole only up to 4 MB"),
    # one 100 KB line with no header marker: the header parser took it all, and says so
    ("word " * 20_000, "text_too_short",
     r"took all of the file \(99,999 characters in 1 line\) as its header"),
])
def test_an_oversized_or_unmarked_file_is_quarantined_for_its_true_reason(
        tmp_path, content, reason, detail):
    from nyaya.judgments.sources import parse_aila, read_judgment_file

    path = tmp_path / "C99.txt"
    path.write_text(content, encoding="utf-8")
    row = read_judgment_file(path, "judgments/aila2019/casedocs/C99.txt", parse_aila)
    assert row.reason == reason
    assert re.search(detail, row.detail), row.detail
    assert len(row.excerpt) <= 200


def test_judgment_parts_over_workers_equal_each_part_made_here(judgment_corpus):
    records, quarantined = read_judgments(judgment_corpus)
    batches = {"odd": (records[1::2], []), "even": (records[::2], quarantined), "none": ([], [])}
    apart = judgment_parts(batches, workers=2)
    assert list(apart) == ["odd", "even", "none"]
    assert len(apart["even"]["chunks"]) > len(apart["odd"]["chunks"]) * 0.2 > 0
    for key, (found, bad) in batches.items():
        for name, frame in judgment_part(found, bad).items():
            pd.testing.assert_frame_equal(apart[key][name], frame)
