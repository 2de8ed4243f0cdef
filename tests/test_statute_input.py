"""Bad statute input: every case names the file and line, or becomes a quarantined record."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from nyaya.statutes.indiacode import parse_front_matter, parse_section_headings, read_act
from nyaya.statutes.ingest import ingest_statutes
from nyaya.statutes.model import CorpusFormatError
from nyaya.statutes.structured import read_code_json, read_ipc

FRONT = '---\ntitle: "The Sample Act, 2001"\npart: 1\nparts: 1\n---\n# The Sample Act, 2001\n\n'


def write_act(root: Path, slug: str, body: bytes) -> Path:
    folder = root / "statutes" / "indiacode" / slug
    folder.mkdir(parents=True)
    (folder / "part-001.md").write_bytes(body)
    return folder


@pytest.mark.parametrize(
    ("content", "line", "message"),
    [
        pytest.param(b"", None, "file is empty",
                     marks=pytest.mark.bad_input("statute corpus", "empty act file")),
        pytest.param(b"title: x\n---\n", 1, "front matter missing",
                     marks=pytest.mark.bad_input("statute corpus", "front matter missing")),
        pytest.param(b"---\ntitle: x\npart 1\n---\n", 3, "bad front matter line",
                     marks=pytest.mark.bad_input("statute corpus",
                                                 "front matter line without ':'")),
        pytest.param(b"---\ntitle: x\npart: 1\nparts: 1\n", 4, "not closed",
                     marks=pytest.mark.bad_input("statute corpus", "front matter not closed")),
        pytest.param(b"---\ntitle: x\n---\n## Section 1 - A.\n", 3,
                     "lacks required keys: part, parts",
                     marks=pytest.mark.bad_input("statute corpus",
                                                 "front matter lacks required keys")),
        pytest.param(FRONT.encode() + b"## Section 1 - Caf\xe9 rules.\n", 8, "not valid UTF-8",
                     marks=pytest.mark.bad_input("statute corpus", "act file not valid UTF-8")),
    ],
)
def test_malformed_act_file_names_file_and_line(tmp_path, content, line, message):
    folder = write_act(tmp_path, "the-sample-act-2001", content)
    with pytest.raises(CorpusFormatError) as caught:
        read_act(folder, tmp_path)
    assert caught.value.path == "statutes/indiacode/the-sample-act-2001/part-001.md"
    assert caught.value.line == line
    assert message in caught.value.message


@pytest.mark.bad_input("statute corpus", "part count differs from front matter")
def test_part_count_must_match_front_matter(tmp_path):
    folder = write_act(tmp_path, "the-sample-act-2001", FRONT.replace("parts: 1", "parts: 2")
                       .encode() + b"## Section 1 - A.\n\ntext\n")
    with pytest.raises(CorpusFormatError, match="parts: 2 but 1 part files"):
        read_act(folder, tmp_path)


@pytest.mark.bad_input("statute corpus", "duplicate section number in an act")
def test_duplicate_section_is_quarantined_not_dropped(tmp_path):
    body = FRONT + "## Section 7 - First.\n\nalpha\n\n## Section 7 - Second.\n\nbeta\n"
    doc = read_act(write_act(tmp_path, "the-sample-act-2001", body.encode()), tmp_path)
    sections, quarantined = parse_section_headings(doc, "SA_2001")
    assert [(s.section_number, s.text) for s in sections] == [("7", "alpha")]
    assert len(quarantined) == 1
    bad = quarantined[0]
    assert (bad.reason, bad.section_number, bad.source_line, bad.excerpt) == (
        "duplicate_section_number", "7", 12, "beta")
    assert "different text" in bad.detail and "part-001.md:8" in bad.detail


@pytest.mark.bad_input("statute corpus", "act without section headings")
def test_act_without_sections_is_quarantined(tmp_path):
    doc = read_act(write_act(tmp_path, "the-sample-act-2001", (FRONT + "No headings.\n").encode()),
                   tmp_path)
    sections, quarantined = parse_section_headings(doc, "SA_2001")
    assert sections == []
    assert [q.reason for q in quarantined] == ["no_sections_found"]


def test_front_matter_line_numbers_are_kept():
    meta, body = parse_front_matter(FRONT + "## Section 1 - A.\n", "x.md")
    assert meta["title"] == "The Sample Act, 2001"
    assert [(line.line, line.text) for line in body if line.text.startswith("##")] == [
        (8, "## Section 1 - A.")]


@pytest.mark.bad_input("statute corpus", "repealed code JSON truncated")
def test_truncated_json_names_line(tmp_path):
    path = tmp_path / "crpc.json"
    path.write_text('[\n {"chapter": 1, "section": 1,\n')
    with pytest.raises(CorpusFormatError) as caught:
        read_code_json(tmp_path, "crpc.json", "CrPC_1973")
    assert caught.value.line == 3 and "invalid JSON" in caught.value.message


@pytest.mark.bad_input("statute corpus", "repealed code record without section number")
@pytest.mark.bad_input("statute corpus", "repealed code section number not a number")
@pytest.mark.bad_input("statute corpus", "duplicate section in repealed code JSON")
def test_bad_json_records_are_quarantined(tmp_path):
    records = [{"chapter": 1, "section": 1, "section_title": "Short title", "section_desc": "x"},
               {"chapter": 1, "section": "", "section_title": "No number", "section_desc": "y"},
               {"chapter": 1, "section": "2 and 3", "section_title": "Odd", "section_desc": "z"},
               {"chapter": 1, "section": 1, "section_title": "Again", "section_desc": "w"}]
    (tmp_path / "crpc.json").write_text(json.dumps(records))
    out = read_code_json(tmp_path, "crpc.json", "CrPC_1973")
    assert [s.section_number for s in out.sections] == ["1"]
    assert [(q.source_line, q.reason) for q in out.quarantined] == [
        (2, "bad_record"), (3, "bad_record"), (4, "duplicate_section_number")]


@pytest.mark.bad_input("statute corpus", "repealed JSONL line truncated")
def test_truncated_jsonl_line_is_named(tmp_path):
    good = json.dumps({"section_number": "1", "section_title": "T", "full_text": "1. T.—x"})
    (tmp_path / "ipc.jsonl").write_text(good + "\n" + good[:20] + "\n")
    with pytest.raises(CorpusFormatError) as caught:
        read_ipc(tmp_path, "ipc.jsonl", "IPC_1860")
    assert caught.value.line == 2


@pytest.mark.bad_input("statute corpus", "binary act file in a full ingest")
def test_ingest_quarantines_unreadable_act_and_keeps_the_rest(tmp_path, fixture_corpus):
    corpus = tmp_path / "corpus"
    shutil.copytree(fixture_corpus, corpus)
    write_act(corpus, "the-broken-act-1999", b"\x00\x01binary")
    result = ingest_statutes(corpus)
    broken = [q for q in result.quarantined if q.reason == "unreadable_act_file"]
    assert [q.source_file for q in broken] == [
        "statutes/indiacode/the-broken-act-1999/part-001.md"]
    entry = next(e for e in result.registry if e.source_path.endswith("the-broken-act-1999"))
    assert entry.section_format == "unreadable"
    assert any(s.act_code == "BNS_2023" and s.section_number == "103" for s in result.sections)


@pytest.mark.bad_input("statute corpus", "section heading without text")
def test_heading_without_text_is_quarantined_not_served(tmp_path):
    body = FRONT + "## Section 1 - Short title.\n\n## Section 2 - Definitions.\n\nterms\n"
    doc = read_act(write_act(tmp_path, "the-sample-act-2001", body.encode()), tmp_path)
    sections, quarantined = parse_section_headings(doc, "SA_2001")
    assert [s.section_number for s in sections] == ["2"]
    assert [(q.section_number, q.reason, q.source_line) for q in quarantined] == [
        ("1", "section_text_missing", 8)]


@pytest.mark.parametrize(("heading", "text", "status"), [
    ("## Section 3 - Duties of the Board.", "The Board shall keep accounts.", "in_force"),
    ("## Section 4 - [Omitted.].", "^1[4. Omitted by Act 68 of 1976.]", "omitted"),
    # the title kept, the text only the note that dropped the section
    ("## Section 19 - Composition of Appellate Tribunal.",
     "19. [Composition of Appellate Tribunal.] Omitted by the Finance Act, 2017 (7 of 2017), "
     "s. 170 (w.e.f. 26-5-2017).", "omitted"),
    ("## Section 38 - Repeal.", "[Repeal.] Rep. by the Repealing and Amending Act, 1964.",
     "repealed"),
    ("## Section 48 - Omi tted.", "[Power to remove difficulties] Omitted by the State Bank of "
     "India (Amendment) Act, 1964 (35 of 1964), s.15 (w.e.f. 1-12-1964).", "omitted"),
    # a note about words, inside a section in force, drops nothing
    ("## Section 5 - Penalty.", "Whoever contravenes this Act shall be punished. The words "
     "\"or fine\" were omitted by Act 5 of 1990.", "in_force"),
])
def test_a_section_whose_text_is_the_note_that_dropped_it_is_not_in_force(
        tmp_path, heading, text, status):
    body = f"{FRONT}{heading}\n\n{text}\n"
    doc = read_act(write_act(tmp_path, "the-sample-act-2001", body.encode()), tmp_path)
    sections, _ = parse_section_headings(doc, "SA_2001")
    assert [s.status for s in sections] == [status]


def test_an_article_whose_text_is_the_note_that_dropped_it_is_repealed(tmp_path):
    from nyaya.statutes.structured import read_constitution

    rel = "statutes/constitution/indian_constitution.json"
    (tmp_path / rel).parent.mkdir(parents=True)
    (tmp_path / rel).write_text(json.dumps([
        {"article": 21, "title": "Protection of life and personal liberty", "part": 3,
         "description": "No person shall be deprived of his life or personal liberty except "
                        "according to procedure established by law."},
        {"article": 31, "title": "Compulsory acquisition of property", "part": 3,
         "description": "[Compulsory acquisition of property.] Rep. by the Constitution "
                        "(Forty-fourth Amendment) Act, 1978, s. 6 (w.e.f. 20-6-1979)."}]))
    collected = read_constitution(tmp_path, rel, "COI")
    assert [(s.section_number, s.status) for s in collected.sections] == [
        ("21", "in_force"), ("31", "repealed")]
