"""Page-text section recovery (`nyaya.statutes.pagetext`) on small hand-written Acts.

The fixtures imitate India Code's PDF text (spaced small caps, amendment markers, footnotes
at the foot of each page) without copying any corpus file.
"""

from __future__ import annotations

import time

import pytest

from nyaya.statutes.model import IN_FORCE, REPEALED, SourceLine
from nyaya.statutes.pagetext import (
    CONFIDENCE_NUMBER_MATCH,
    CONFIDENCE_SEQUENTIAL,
    CONFIDENCE_TITLE_MATCH,
    parse_page_text_act,
)

FRONT_MATTER_LINES = 8  # the caller strips `---` ... `---`; body lines start after them
PART_HEADER = "# The Test Act, 2000\n\nSources:\n- pdf: https://example.org/test.pdf\n"


def act(*parts: str, slug: str = "the-test-act-2000") -> list[SourceLine]:
    """SourceLines for part files whose text (after front matter) is given in order."""
    lines: list[SourceLine] = []
    for number, text in enumerate(parts, start=1):
        rel = f"statutes/indiacode/{slug}/part-{number:03d}.md"
        for offset, raw in enumerate((PART_HEADER + text).splitlines()):
            lines.append(SourceLine(rel, FRONT_MATTER_LINES + 1 + offset, raw))
    return lines


def where(lines: list[SourceLine], text: str) -> tuple[str, int]:
    """(file, line) of the first source line that starts with `text`."""
    hit = next(line for line in lines if line.text.startswith(text))
    return hit.source_file, hit.line


PART_1 = """
## Page 1

1
THE TEST ACT, 2000
__________
ARRANGEMENT OF SECTIONS
_________
CHAPTER I
P RELIMINARY
S ECTIONS
1. Short title and commencement.
2. Definitions.
CHAPTER II
B AR C OUNCILS
3. State Bar Councils.
4. Bar Council of India.
4A. Membership in international bodies.
5. Power to make rules.
6. [ Repealed.].
7. Savings.
T HE SCHEDULE.

## Page 2

2
THE TEST ACT, 2000
A CT N O. 1 OF 2000
[1 st May, 2000.]
An Act to test the parser.
B E it enacted by Parliament as follows: ―
CHAPTER I
P RELIMINARY
1. Short title and commencement. ― ( 1 ) This Act may be called the Test Act, 2000.
( 2 ) It shall 1 [come into force] at once.
2. Definitions. ― In this Act, ―
( a ) “ Bar Council ” means a council 4 [constituted under this Act];
1. Subs. by Act 60 of 1973, s. 2, for “ shall ” (w.e.f. 31 - 1 - 1974).
Earlier the words were “ may ”, as enacted in 1961.
4. Ins. by Act 60 of 1973, s. 3 (w.e.f. 31 - 1 - 1974).
*. Vide notification No. S.O. 1 (E), dated 1st May, 2000.
"""

PART_2 = """
## Page 3

3
( b ) “ roll ” means a roll of advocates.
CHAPTER II
B AR C OUNCILS
3. State Bar Councils. ― There shall be a Bar Council for each State.
1 [ 4A. Membership in international bodies. ― The Bar Council may join
international bodies.]
5. Rule-making power of the Government. ― The Central Government may make rules.
6. [ Amendment of Act 2 of 1900.] Rep. by the Repealing Act, 1957 (36 of 1957), s. 2.
7. Savings. ― Nothing in this Act affects any other law.
1. Ins. by Act 21 of 1964, s. 2 (w.e.f. 16 - 5 - 1964).

## Page 4

4
THE SCHEDULE
Form of certificate.
"""


@pytest.fixture(scope="module")
def modern() -> tuple[list[SourceLine], dict, list]:
    lines = act(PART_1, PART_2)
    records, quarantined = parse_page_text_act(lines, act_code="TEST_2000")
    return lines, {r.section_number: r for r in records}, quarantined


def test_modern_act_recovers_sections_in_arrangement_order(modern) -> None:
    _, records, _ = modern
    assert list(records) == ["1", "2", "3", "4A", "5", "6", "7"]


@pytest.mark.parametrize(
    ("number", "confidence"),
    [
        ("1", CONFIDENCE_TITLE_MATCH),
        ("4A", CONFIDENCE_TITLE_MATCH),  # behind an amendment marker "1 ["
        ("5", CONFIDENCE_NUMBER_MATCH),  # body title differs from the arrangement's
        ("6", CONFIDENCE_NUMBER_MATCH),  # repealed stub with its old title
    ],
)
def test_confidence_levels(modern, number: str, confidence: float) -> None:
    _, records, _ = modern
    assert records[number].extraction_confidence == confidence
    assert confidence < 1.0


@pytest.mark.parametrize(
    ("number", "title", "chapter_number", "chapter_title"),
    [
        ("1", "Short title and commencement", "I", "PRELIMINARY"),
        ("2", "Definitions", "I", "PRELIMINARY"),
        ("3", "State Bar Councils", "II", "BAR COUNCILS"),
        ("4A", "Membership in international bodies", "II", "BAR COUNCILS"),
        ("5", "Rule-making power of the Government", "II", "BAR COUNCILS"),
    ],
)
def test_titles_from_body_and_chapters_from_arrangement(
    modern, number: str, title: str, chapter_number: str, chapter_title: str
) -> None:
    _, records, _ = modern
    record = records[number]
    assert (record.title, record.chapter_number, record.chapter_title) == (
        title, chapter_number, chapter_title,
    )


def test_footnotes_are_kept_out_of_text_and_attached_to_the_section(modern) -> None:
    _, records, _ = modern
    definitions = records["2"]
    assert "Subs. by" not in definitions.text and "Vide" not in definitions.text
    assert definitions.footnotes.splitlines() == [
        "1. Subs. by Act 60 of 1973, s. 2, for “ shall ” (w.e.f. 31 - 1 - 1974).",
        "Earlier the words were “ may ”, as enacted in 1961.",  # the rest of a page is notes
        "4. Ins. by Act 60 of 1973, s. 3 (w.e.f. 31 - 1 - 1974).",
        "*. Vide notification No. S.O. 1 (E), dated 1st May, 2000.",
    ]


def test_footnote_numbered_like_a_missing_section_does_not_become_it(modern) -> None:
    lines, records, quarantined = modern
    assert "4" not in records  # only "4. Ins. by Act 60 ..." starts with "4." in the body
    rows = [q for q in quarantined if q.reason == "section_body_not_found"]
    assert [(q.section_number, q.source_file, q.source_line) for q in rows] == [
        ("4", *where(lines, "4. Bar Council of India.")),
    ]
    assert "Bar Council of India" in rows[0].detail and "TEST_2000" in rows[0].detail


def test_text_runs_across_pages_and_part_files_without_page_furniture(modern) -> None:
    _, records, _ = modern
    assert records["2"].text == (
        "In this Act, ―\n( a ) “ Bar Council ” means a council 4 [constituted under this Act];\n"
        "( b ) “ roll ” means a roll of advocates."
    )
    assert records["1"].text.startswith("( 1 ) This Act may be called")
    assert "## Page" not in records["1"].text and "\n3\n" not in records["2"].text


@pytest.mark.parametrize(
    ("number", "first_line"),
    [
        ("1", "1. Short title and commencement. ―"),
        ("2", "2. Definitions. ―"),
        ("3", "3. State Bar Councils. ―"),
        ("4A", "1 [ 4A. Membership"),
        ("7", "7. Savings. ―"),
    ],
)
def test_source_file_and_line_point_at_the_heading(modern, number: str, first_line: str) -> None:
    lines, records, _ = modern
    record = records[number]
    assert (record.source_file, record.source_line) == where(lines, first_line)


def test_repealed_stub_and_schedule_after_last_section(modern) -> None:
    lines, records, quarantined = modern
    assert records["6"].status == REPEALED and records["5"].status == IN_FORCE
    assert records["7"].text == "Nothing in this Act affects any other law."
    assert records["7"].footnotes == "1. Ins. by Act 21 of 1964, s. 2 (w.e.f. 16 - 5 - 1964)."
    trailing = [q for q in quarantined if q.reason == "trailing_text_not_sectioned"]
    assert [(q.source_file, q.source_line) for q in trailing] == [where(lines, "THE SCHEDULE")]


def _three_sections(footnote: str) -> list[SourceLine]:
    return act(
        "## Page 1\n\n1\nARRANGEMENT OF SECTIONS\n1. Short title.\n2. Definitions.\n3. Extent.\n"
        "## Page 2\n\n2\nACT NO. 9 OF 1999\nBE it enacted as follows: ―\n"
        "1. Short title. ― This Act may be called the Small Act.\n"
        f"{footnote}\n"
        "## Page 3\n\n3\n3. Extent. ― It extends to the whole of India.\n"
    )


@pytest.mark.parametrize(
    "footnote",
    [
        "2. Subs. by Act 60 of 1973, s. 2, for “shall”.",
        "2. Ins. by s. 3, ibid.",
        "2. Omitted by the Finance Act, 1988 (26 of 1988), s. 48 (w.e.f. 1-4-1988).",
        "2. Added by Act 4 of 1988.",
        "2. Rep. by the Repealing and Amending Act, 1957.",
        "2. The words “and Goa” omitted by Act 18 of 1987.",
        "2. Vide notification No. S.O. 3912(E), dated 30th October, 2019.",
        "1 2. Subs. by Act 26 of 2012, s. 9, for “and Uttaranchal”.",
    ],
)
def test_footnote_lines_are_never_section_starts(footnote: str) -> None:
    records, quarantined = parse_page_text_act(_three_sections(footnote), act_code="SMALL")
    assert [r.section_number for r in records] == ["1", "3"]
    assert records[0].footnotes == footnote and footnote not in records[0].text
    assert [(q.reason, q.section_number) for q in quarantined] == [
        ("section_body_not_found", "2"),
    ]


@pytest.mark.parametrize(
    ("entry", "heading", "number", "title"),
    [
        ("7A. Membership in bodies.", "1 [ 7A. Membership in bodies. ― The Council may join.]",
         "7A", "Membership in bodies"),
        ("7A. Membership in bodies.", "2[7A. Membership in bodies. ― The Council may join.]",
         "7A", "Membership in bodies"),
        ("10B. Disqualification of members.",
         "4 [ 5 [ 10B.] Disqualification of members. ― A member shall be disqualified.",
         "10B", "Disqualification of members"),
        ("28. Protection of action taken.", "2 8. Protection of action taken. ― No suit lies.",
         "28", "Protection of action taken"),
        ("80-IA. Deductions for undertakings.",
         "80-IA. Deductions for undertakings. ― In computing income",
         "80-IA", "Deductions for undertakings"),
        ("5. Technical Committee.", "5. 4 [ Technical Committee ]. ― The Committee shall advise.",
         "5", "Technical Committee"),
    ],
)
def test_amendment_markers_and_pdf_spacing_around_numbers(
    entry: str, heading: str, number: str, title: str
) -> None:
    lines = act(
        f"## Page 1\n\n1\nARRANGEMENT OF SECTIONS\n{entry}\n"
        f"## Page 2\n\n2\nACT NO. 3 OF 2001\nAn Act to test.\n{heading}\n"
    )
    records, quarantined = parse_page_text_act(lines, act_code="MARKERS")
    assert quarantined == []
    assert [(r.section_number, r.title, r.extraction_confidence) for r in records] == [
        (number, title, CONFIDENCE_TITLE_MATCH),
    ]


def test_one_line_disposing_of_a_run_of_sections() -> None:
    lines = act(
        "## Page 1\n\n1\nARRANGEMENT OF SECTIONS\n1. Short title.\n2. [Omitted.].\n"
        "3. [Omitted.].\n4. Savings.\n"
        "## Page 2\n\n2\nACT NO. 4 OF 1961\nAn Act to test.\n"
        "1. Short title. ― This Act may be called the Run Act.\n"
        "2. to 3. Omitted by Act 20 of 1967, s. 33 (w.e.f. 1-4-1968).\n"
        "4. Savings. ― Nothing affects other laws.\n"
    )
    records, quarantined = parse_page_text_act(lines, act_code="RUN")
    assert quarantined == []
    assert [(r.section_number, r.status) for r in records] == [
        ("1", IN_FORCE), ("2", "omitted"), ("3", "omitted"), ("4", IN_FORCE),
    ]
    assert records[1].source_line == records[2].source_line == where(lines, "2. to 3.")[1]


OLD_ACT = """
## Page 1

1
THE OLD REVENUE ACT, 1850
A CT N O. XXVI OF 1850
1. Repeals Act 10, 1842.
2, 3. Collector may fine defaulters, and (3) report the
fine to Government.
An Act to amend the revenue law.
W HEREAS it is expedient to amend the law; It is enacted as follows:
I. Act X. 1842, is repealed.
II. The Collector may impose a fine on any defaulter, under Regulation
VI. of 1833 of the Bombay Code.
III. The Collector shall report every fine 1 to the Government.
1. Subs. by the A.O. 1950, for “Governor General”.
"""


def test_act_without_arrangement_is_split_on_roman_numbering() -> None:
    lines = act(OLD_ACT, slug="the-old-revenue-act-1850")
    records, quarantined = parse_page_text_act(lines, act_code="OLD_1850")
    assert quarantined == []
    assert [(r.section_number, r.extraction_confidence) for r in records] == [
        ("1", CONFIDENCE_SEQUENTIAL), ("2", CONFIDENCE_SEQUENTIAL), ("3", CONFIDENCE_SEQUENTIAL),
    ]
    assert records[0].title == "Repeals Act 10, 1842"  # from the marginal notes
    assert records[1].title == records[2].title  # "2, 3." share one marginal note
    assert "VI. of 1833" in records[1].text  # a wrapped Roman numeral is not section 6
    assert records[2].footnotes == "1. Subs. by the A.O. 1950, for “Governor General”."
    assert (records[0].source_file, records[0].source_line) == where(lines, "I. Act X.")


def test_nothing_recoverable_is_one_quarantined_row_for_the_act() -> None:
    lines = act("## Page 1\n\n1\nTHE EMPTY ACT\nA table of tolls.\nFerry  Rs. 2\n")
    records, quarantined = parse_page_text_act(lines, act_code="EMPTY")
    assert records == []
    assert [(q.reason, q.act_code, q.source_file) for q in quarantined] == [
        ("no_sections_found", "EMPTY", "statutes/indiacode/the-test-act-2000/part-001.md"),
    ]


def test_large_act_parses_in_linear_time() -> None:
    count = 3000
    arrangement = "\n".join(f"{n}. Provision number {n}." for n in range(1, count + 1))
    body = "\n".join(
        f"## Page {n + 1}\n\n{n + 1}\n{n}. Provision number {n}. ― ( 1 ) Text of section {n}.\n"
        + "( a ) a clause of the section that runs on for a while;\n" * 25
        + f"1. Subs. by Act {n} of 1990, s. 2 (w.e.f. 1-4-1990)."
        for n in range(1, count + 1)
    )
    lines = act(f"## Page 1\n\n1\nARRANGEMENT OF SECTIONS\n{arrangement}\nACT NO. 1 OF 1990\n"
                + body)
    assert len(lines) > 90_000
    began = time.thread_time()  # CPU time: the suite runs it at the lowest priority
    records, quarantined = parse_page_text_act(lines, act_code="BIG")
    assert time.thread_time() - began < 10
    assert len(records) == count and quarantined == []
