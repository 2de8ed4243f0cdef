"""Statute verdicts and the gate, on small in-memory tables (no warehouse needed)."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Callable
from datetime import date

import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from test_verify_relevance import write_relevance_inputs, write_statute_tables

from nyaya import cli
from nyaya.citations.statutes import extract_statute_mentions
from nyaya.lookup import render_block
from nyaya.statutes.registry import alias_index_from_rows
from nyaya.tables import write_table
from nyaya.verify.absent_acts import AbsentActs, act_key, provision_key
from nyaya.verify.gate import overall_status, render_blocks, verify_text
from nyaya.verify.model import (
    CORROBORATED,
    FALSE_FRIEND,
    FOUND,
    NOT_FOUND,
    OVERALL_VERIFIED,
    PARTIALLY_VERIFIED,
    PRECEDENT_ONLY,
    SOURCE_CANONICAL_TABLE,
    SOURCE_VECTOR_STORE,
    STALE,
    UNVERIFIABLE,
    UNVERIFIED,
    VERIFIED,
    CitationVerdict,
)
from nyaya.verify.statutes import StatuteChecker, citation_context, verify_statutes
from pipelines.cli import main


def _act(code, title, year, *, aliases, status="in_force", era="naveen_sanhitas",
         applicable_from="2024-07-01", repealed_by=None, repealed_on=None) -> dict:
    return {"act_code": code, "title": title, "year": year, "status": status, "era": era,
            "legal_domain": "criminal_substantive", "applicable_from": applicable_from,
            "repealed_by": repealed_by, "repealed_on": repealed_on, "source_kind": "test",
            "source_path": "test", "source_url": None, "section_format": "json",
            "curated": True, "aliases": aliases}


REGISTRY = [
    _act("BNS_2023", "The Bharatiya Nyaya Sanhita, 2023", 2023,
         aliases=["BNS", "Bharatiya Nyaya Sanhita"]),
    _act("IPC_1860", "The Indian Penal Code, 1860", 1860, aliases=["IPC", "Indian Penal Code"],
         status="repealed", era="colonial_codes", applicable_from="1862-01-01",
         repealed_by="BNS_2023", repealed_on="2024-07-01"),
]


def _section(act, number, title, text) -> dict:
    return {"act_code": act, "section_number": number, "title": title, "text": text,
            "chapter_number": "VI", "chapter_title": "Of offences affecting the human body",
            "status": "in_force" if act == "BNS_2023" else "repealed",
            "extraction_confidence": 1.0, "footnotes": ""}


SECTIONS = [
    _section("BNS_2023", "103", "Punishment for murder",
             "Whoever commits murder shall be punished with death or imprisonment for life."),
    _section("BNS_2023", "302",
             "Uttering words, etc., with deliberate intent to wound religious feelings of any "
             "person", "Whoever, with the deliberate intention of wounding the religious "
             "feelings of any person, utters any word or makes any sound."),
    _section("BNS_2023", "41", "When right of private defence of property extends to causing "
             "death", "The right of private defence of property extends to causing death."),
    _section("IPC_1860", "302", "Punishment for murder",
             "Whoever commits murder shall be punished with death, or imprisonment for life."),
    _section("IPC_1860", "103", "When right of private defence of property extends to causing "
             "death", "The right of private defence of property extends to causing death."),
]


def _link(old, new) -> dict:
    return {"old_act_code": "IPC_1860", "old_section": old, "new_act_code": "BNS_2023",
            "new_section": new, "new_unit": None, "relation": "same",
            "source_table": "ipc_bns_csv", "disagreement": False}


TRANSITIONS = [_link("302", "103"), _link("103", "41")]


@pytest.fixture(scope="module")
def checker() -> StatuteChecker:
    return StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS)


def _one(text, checker, **kwargs) -> CitationVerdict:
    verdicts = verify_statutes(text, checker, **kwargs)
    assert len(verdicts) == 1, verdicts
    return verdicts[0]


def _successors(verdict) -> list[tuple[str, str]]:
    return [(link["act_code"], link["section_number"]) for link in verdict.successors]


@pytest.mark.parametrize(("text", "as_of", "status", "act", "section", "successors", "says"), [
    ("Section 103 BNS punishes murder.", None, VERIFIED, "BNS_2023", "103", [],
     "canonical sections table"),
    ("The accused is charged under Section 999 BNS.", None, NOT_FOUND, "BNS_2023", "999", [],
     "do not renumber or substitute"),
    ("Section 12 of the Frobnicate Act applies.", None, NOT_FOUND, None, "12", [],
     "could not be identified"),
    ("Under Section 302 BNS the accused is punished for the murder of his brother.", None,
     FALSE_FRIEND, "BNS_2023", "302", [("BNS_2023", "103")], "successor of IPC_1860 s.302"),
    ("He was convicted under Section 302 IPC.", date(2025, 1, 1), STALE, "IPC_1860", "302",
     [("BNS_2023", "103")], "BNS_2023 s.103"),
    ("He was convicted under Section 302 IPC.", date(2020, 1, 1), VERIFIED, "IPC_1860", "302",
     [("BNS_2023", "103")], "in force on 2020-01-01"),
    ("He was convicted under Section 302 IPC.", None, VERIFIED, "IPC_1860", "302",
     [("BNS_2023", "103")], "successor: BNS_2023 s.103"),
    ("He was convicted under Section 302 IPC.", date(2024, 7, 1), STALE, "IPC_1860", "302",
     [("BNS_2023", "103")], "repealed on 2024-07-01"),
])
def test_statute_verdicts(checker, text, as_of, status, act, section, successors, says):
    verdict = _one(text, checker, as_of=as_of)
    assert (verdict.status, verdict.act_code, verdict.section_number) == (status, act, section)
    assert _successors(verdict) == successors
    assert says in verdict.reason
    assert text[verdict.span[0]:verdict.span[1]] == verdict.text


@pytest.mark.parametrize(("text", "as_of", "expected"), [
    ("Section 103 BNS punishes murder. The said section applies.", None,
     [("Section 103 BNS", VERIFIED), ("The said section", VERIFIED)]),
    ("He was convicted under Section 302 IPC. Under that section he got life.", date(2025, 1, 1),
     [("Section 302 IPC", STALE), ("that section", STALE)]),
    ("Under Section 302 BNS the accused is punished for the murder of his brother. The same "
     "section applies.", None,
     [("Section 302 BNS", FALSE_FRIEND), ("The same section", FALSE_FRIEND)]),
    # the antecedent's verdict, not one from the words around the short form
    ("Section 302 BNS punishes words meant to wound religious feelings. The said section was "
     "applied to the murder of his brother.", None,
     [("Section 302 BNS", VERIFIED), ("The said section", VERIFIED)]),
    ("Section 999 BNS applies. The said provision is harsh.", None,
     [("Section 999 BNS", NOT_FOUND), ("The said provision", NOT_FOUND)]),
    # nothing cited before it, or several provisions: never verified
    ("The said section applies.", None, [("The said section", NOT_FOUND)]),
    ("Sections 103/302 BNS apply. The said section is clear.", None,
     [("Sections 103/302 BNS", VERIFIED), ("Sections 103/302 BNS", VERIFIED),
      ("The said section", NOT_FOUND)]),
])
def test_short_forms_get_the_antecedents_verdict(checker, text, as_of, expected):
    verdicts = verify_statutes(text, checker, as_of=as_of)
    assert [(v.text, v.status) for v in verdicts] == expected
    full, short = verdicts[0], verdicts[-1]
    assert text[short.span[0]:short.span[1]] == short.text
    if len(expected) == 2:
        assert (short.act_code, short.section_number, _successors(short)) == (
            full.act_code, full.section_number, _successors(full))
        assert short.reason.startswith(f"'{short.text}' refers to {full.text}: ")
    else:
        assert "cite the provision by its number" in short.reason


def test_false_friend_needs_the_old_meaning_in_context(checker):
    # the same citation about religious feelings is the right section
    verdict = _one("Section 302 BNS punishes words meant to wound religious feelings.", checker)
    assert verdict.status == VERIFIED
    # a correctly mapped section is never a false friend, whatever the context says
    assert _one("Section 41 BNS: private defence of property, murder.", checker).status == VERIFIED


@pytest.mark.parametrize(("text", "status", "meant"), [
    # one title word is no margin, but the old section's whole title quoted is the sign
    ("The provision governing affray is Sec. 159 BNS.", FALSE_FRIEND, "194"),
    ("The accused were charged with an affray under Sec. 159 BNS.", FALSE_FRIEND, "194"),
    ("Sec. 159 BNS punishes abetting a mutiny.", VERIFIED, None),
    # the cited title's own word is there too: the sentence may be about both
    ("The provision governing affray and abetting mutiny is Sec. 159 BNS.", VERIFIED, None),
    # "governing" a provision shares its stem with the cited title's "Government"
    ("The provision governing punishment for rioting is s. 147 of the Bharatiya Nyaya "
     "Sanhita, 2023.", FALSE_FRIEND, "191"),
    ("Section 147 BNS governs punishment for rioting.", FALSE_FRIEND, "191"),
    # the Government named, the cited section may be meant
    ("Punishment for rioting against the Government is in s. 147 BNS.", VERIFIED, None),
])
def test_a_false_friend_whose_title_is_quoted(text, status, meant):
    """A one-word title ("Affray", "Estoppel") quoted weighs too little to beat the cited
    section's description by FF_MARGIN when a word of that description is in the sentence too;
    quoted whole, with none of the cited title's words, it need only fit better. Prose about
    a provision ("the provision governing") is no word of a title ("Government")."""
    sections = [*SECTIONS,
                _section("BNS_2023", "159", "Abetting mutiny, or attempting to seduce a soldier, "
                         "sailor or airman from his duty", "Whoever abets the committing of "
                         "mutiny by an officer, soldier, sailor or airman, in the Army, Navy "
                         "or Air Force of the Government of India."),
                _section("IPC_1860", "159", "Affray", "When two or more persons, by fighting "
                         "in a public place, disturb the public peace, they are said to commit "
                         "an affray."),
                _section("BNS_2023", "194", "Affray", "When two or more persons, by fighting "
                         "in a public place, disturb the public peace, they are said to commit "
                         "an affray."),
                _section("BNS_2023", "147", "Waging, or attempting to wage war, or abetting "
                         "waging of war, against Government of India", "Whoever wages war "
                         "against the Government of India, or attempts to wage such war, or "
                         "abets the waging of such war, shall be punished with death."),
                _section("IPC_1860", "147", "Punishment for rioting", "Whoever is guilty of "
                         "rioting, shall be punished with imprisonment."),
                _section("BNS_2023", "191", "Rioting", "Whoever is guilty of rioting shall "
                         "be punished with imprisonment.")]
    checker = StatuteChecker(REGISTRY, sections,
                             [*TRANSITIONS, _link("159", "194"), _link("147", "191")])
    verdict = _one(text, checker)
    assert verdict.status == status, verdict.reason
    if meant:
        assert _successors(verdict) == [("BNS_2023", meant)]


def test_reverse_false_friend_is_opt_in(checker):
    text = "The accused committed murder, so Section 103 IPC applies."
    assert _one(text, checker).status == VERIFIED
    reverse = StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS, reverse_false_friends=True)
    verdict = _one(text, reverse)
    assert (verdict.status, _successors(verdict)) == (FALSE_FRIEND, [("IPC_1860", "302")])
    assert "that meaning is BNS_2023 s.103" in verdict.reason


def test_context_stops_at_the_sentence(checker):
    text = "The victim's murder shocked the town. Section 302 BNS was also charged for the speech."
    start = text.index("Section")
    assert "murder" not in citation_context(text, start, start + 15)
    assert _one(text, checker).status == VERIFIED


def test_vector_store_source_when_indexed(checker):
    verdict = _one("Section 103 BNS", checker, indexed=lambda act, sec: (act, sec) == (
        "BNS_2023", "103"))
    assert verdict.source == SOURCE_VECTOR_STORE
    assert _one("Section 103 BNS", checker).source == SOURCE_CANONICAL_TABLE


def test_commencement_comes_from_the_registry():
    registry = [{**row, "repealed_on": "2024-08-01" if row["act_code"] == "IPC_1860" else None}
                for row in REGISTRY]
    checker = StatuteChecker(registry, SECTIONS, TRANSITIONS)
    assert _one("Section 302 IPC", checker, as_of=date(2024, 7, 15)).status == VERIFIED
    assert _one("Section 302 IPC", checker, as_of=date(2024, 8, 1)).status == STALE


def _case(status: str, start: int = 1000) -> CitationVerdict:
    return CitationVerdict(text="X v. Y (2020) 1 SCC 1", span=(start, start + 21), kind="case",
                           status=status, reason=f"case is {status}")


@pytest.mark.parametrize(("text", "cases", "overall"), [
    ("Section 103 BNS punishes murder.", [], OVERALL_VERIFIED),
    ("Section 103 BNS punishes murder.", [FOUND], OVERALL_VERIFIED),
    ("Section 103 BNS punishes murder. Section 999 BNS too.", [], PARTIALLY_VERIFIED),
    ("Section 103 BNS punishes murder.", [NOT_FOUND], PARTIALLY_VERIFIED),
    ("Section 999 BNS is cited.", [FOUND], PRECEDENT_ONLY),
    ("No statute here.", [FOUND, NOT_FOUND], PRECEDENT_ONLY),
    # cases alone, every one found: still no statutory provision behind the answer
    ("No statute here.", [FOUND], PRECEDENT_ONLY),
    ("No statute here.", [CORROBORATED], PRECEDENT_ONLY),
    ("No statute here.", [NOT_FOUND], UNVERIFIED),
    ("Section 999 BNS is cited.", [NOT_FOUND], UNVERIFIED),
    ("No citation at all.", [], UNVERIFIED),
])
def test_overall_status(checker, text, cases, overall):
    def case_verifier(_text: str) -> list[CitationVerdict]:
        return [_case(status, 1000 + 50 * i) for i, status in enumerate(cases)]

    report = verify_text(text, checker, case_verifier=case_verifier, query="q")
    assert report.overall == overall
    assert report.cases_checked
    assert report.message
    assert report.counts["total"] == len(report.verdicts)


def test_overall_status_messages(checker):
    assert "Statutory gap" in verify_text("Section 999 BNS", checker,
                                          case_verifier=lambda _: [_case(FOUND)]).message
    empty = verify_text("Nothing cited.", checker)
    assert empty.overall == UNVERIFIED and "cannot verify" in empty.message
    assert "not checked" in empty.notes[0] and not empty.cases_checked
    assert overall_status([]) == UNVERIFIED


def test_json_has_every_field(checker):
    report = verify_text("Under Section 302 BNS the accused is punished for murder.", checker,
                         as_of=date(2025, 1, 1), query="punishment for murder")
    data = json.loads(json.dumps(report.to_dict()))
    assert (data["overall"], data["query"], data["as_of"]) == (
        UNVERIFIED, "punishment for murder", "2025-01-01")
    (citation,) = data["citations"]
    for key in ("text", "span", "kind", "act_code", "section_number", "status", "reason",
                "successors"):
        assert key in citation
    assert (citation["kind"], citation["status"], citation["span"]) == (
        "statute", FALSE_FRIEND, [6, 21])
    assert citation["successors"][0]["section_number"] == "103"


def test_rendered_blocks(checker):
    report = verify_text("Section 103 BNS punishes murder. Section 999 BNS does not exist. "
                         "Under Section 302 BNS he is punished for murder. Section 302 IPC "
                         "was cited too.", checker, as_of=date(2025, 1, 1))
    blocks = render_blocks(report)
    assert blocks.startswith(f"OVERALL: {PARTIALLY_VERIFIED}")
    assert "CITATION VERIFIED: BNS_2023 s.103\n" in blocks
    assert "Status: VERIFIED (source: canonical sections table)" in blocks
    assert "Section: 103 — Punishment for murder" in blocks
    assert "CITATION NOT VERIFIED: BNS_2023 s.999" in blocks
    assert blocks.count("ACTION REQUIRED: Remove this citation") == 3
    assert "Section meant: BNS_2023 s.103 (same)" in blocks
    assert "Status: STALE" in blocks and "Successor: BNS_2023 s.103 (same)" in blocks


@pytest.fixture
def warehouse(tmp_path, monkeypatch):
    write_statute_tables(tmp_path / "warehouse", REGISTRY, SECTIONS, TRANSITIONS)
    write_relevance_inputs(tmp_path)  # --query judges relevance
    monkeypatch.setenv("NYAYA_DATA", str(tmp_path))
    # the case verifier is another module's; keep these tests about statutes
    monkeypatch.setattr(cli, "_load_case_verifier", lambda settings, llm=None: (None,
                                                                            "cases skipped"))
    return tmp_path


@pytest.mark.parametrize(("text", "args", "code"), [
    ("Section 103 BNS punishes murder.", [], 0),
    ("Section 302 IPC applies.", ["--as-of", "2020-01-01"], 0),
    ("Section 302 IPC applies.", ["--as-of", "2025-01-01"], 1),
    ("Section 103 BNS and Section 999 BNS.", [], 1),
    ("Nothing cited.", [], 1),
])
def test_cli_exit_codes(warehouse, capsys, text, args, code):
    path = warehouse / "answer.txt"
    path.write_text(text, encoding="utf-8")
    assert main(["verify", str(path), "--json", "--query", "murder", *args]) == code
    data = json.loads(capsys.readouterr().out)
    assert data["query"] == "murder"
    assert data["notes"] == ["cases skipped"]
    assert (data["overall"] == OVERALL_VERIFIED) == (code == 0)


def test_cli_reads_stdin_and_prints_blocks(warehouse, capsys, monkeypatch):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Section 999 BNS.")))
    assert main(["verify", "-"]) == 1
    out = capsys.readouterr().out
    assert "ACTION REQUIRED: Remove this citation" in out and "Note: cases skipped" in out


def test_cli_without_tables(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NYAYA_DATA", str(tmp_path))
    (tmp_path / "a.txt").write_text("Section 103 BNS", encoding="utf-8")
    assert main(["verify", str(tmp_path / "a.txt")]) == 2
    assert "build the tables first" in capsys.readouterr().err


def test_missing_case_module_is_reported(monkeypatch, tmp_path):
    monkeypatch.setitem(sys.modules, "nyaya.verify.cases", None)  # import now fails
    verifier, why_not = cli._load_case_verifier(None)
    assert verifier is None and "not checked" in why_not


@settings(max_examples=200, deadline=None)
@given(text=st.lists(st.sampled_from(
    ["Section", "BNS", "IPC", "CrPC", "s.", "302", "103", "999", "(1)", "of the", "murder",
     " ", " ", ",", ".", "\n", "v.", "AIR", "SC", "1978", "u/s", "religious", "é", "((",
     "the said section", "that section", "ibid", "(supra)"]),
    max_size=120).map("".join))
def test_the_gate_never_crashes_and_every_verdict_points_into_the_text(text):
    report = verify_text(text, StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS),
                         as_of=date(2025, 1, 1))
    assert report.overall in {"VERIFIED", "PARTIALLY_VERIFIED", "PRECEDENT_ONLY", "UNVERIFIED"}
    for verdict in report.verdicts:
        start, end = verdict.span
        assert 0 <= start < end <= len(text)
        assert verdict.reason


@pytest.mark.parametrize(("words", "citations"), [
    (["BNS", "103"], ["BNS 103"]),
    (["s. 302 IPC"], ["s. 302 IPC"]),
    (["Section 302", "IPC"], ["Section 302 IPC"]),  # a bare word: the words are one citation
    (["BNS 103", "IPC 302", "Art 21"], ["BNS 103", "IPC 302", "Art 21"]),
])
def test_lookup_reads_one_citation_or_several_quoted(words, citations):
    assert cli.citations_of(words) == citations


def test_lookup_cli_answers_each_quoted_citation(warehouse, capsys):
    assert main(["lookup", "BNS 103", "IPC 302", "--json"]) == 0
    answers = json.loads(capsys.readouterr().out)
    assert [(a["act_code"], a["section_number"], a["status"]) for a in answers] == [
        ("BNS_2023", "103", "VERIFIED"), ("IPC_1860", "302", "VERIFIED")]
    assert main(["lookup", "BNS 103", "BNS 999"]) == 1  # one not found
    blocks = capsys.readouterr().out
    assert "CITATION VERIFIED: BNS_2023 s.103" in blocks
    assert "CITATION NOT VERIFIED: BNS_2023 s.999" in blocks


def test_a_citation_written_again_with_its_verdict_is_reported_once():
    """Same citation, same verdict: one verdict with the other spans; the same words judged
    differently (a false friend in one sentence) stay two."""
    from nyaya.verify.gate import collapse_repeats
    from nyaya.verify.model import CitationVerdict

    def verdict(start: int, status: str = "VERIFIED", text: str = "BNS 103") -> CitationVerdict:
        return CitationVerdict(text, (start, start + len(text)), "statute", status, "why",
                               "BNS_2023", "103")

    kept = collapse_repeats([verdict(0), verdict(20, text="BNS  103"), verdict(40, "FALSE_FRIEND"),
                             verdict(60)])
    assert [(v.span[0], v.status, v.occurrences) for v in kept] == [
        (0, "VERIFIED", 3), (40, "FALSE_FRIEND", 1)]
    assert kept[0].repeats == [(20, 28), (60, 67)]
    assert kept[0].to_dict()["occurrences"] == 3


def test_text_longer_than_the_limit_is_refused_with_its_length():
    from nyaya.verify.gate import MAX_TEXT_CHARS, TextTooLong, verify_text

    with pytest.raises(TextTooLong, match=rf"is {MAX_TEXT_CHARS + 1:,} characters; at most"):
        verify_text("x" * (MAX_TEXT_CHARS + 1), checker=None)


def test_verify_refuses_a_text_too_long_before_loading_anything(tmp_path, capsys, monkeypatch):
    from nyaya.verify.gate import MAX_TEXT_CHARS
    from pipelines.cli import main

    monkeypatch.setenv("NYAYA_DATA", str(tmp_path / "nothing-built"))  # no table is read
    text = tmp_path / "huge.txt"
    text.write_text("BNS 103. " * (MAX_TEXT_CHARS // 9 + 1), encoding="utf-8")
    assert main(["verify", str(text)]) == 2
    assert f"huge.txt: {len(text.read_text()):,} characters; at most" in capsys.readouterr().err


def _in_chapter(chapter: str, act: str = "BNS_2023") -> Callable[[str, str, str], dict]:
    """A maker of sections (number, title, text) of one chapter of `act`."""
    def section(number: str, title: str, text: str) -> dict:
        return {**_section(act, number, title, text), "chapter_number": chapter}
    return section


_chapter_xv = _in_chapter("XV")


SIBLINGS = [
    _chapter_xv("286", "Negligent conduct with respect to poisonous substance",
                "Whoever does, with any poisonous substance, any act so rashly or negligently."),
    _chapter_xv("287", "Negligent conduct with respect to fire or combustible matter",
                "Whoever does, with fire or any combustible matter, any act so rashly."),
    _chapter_xv("288", "Negligent conduct with respect to explosive substance",
                "Whoever does, with any explosive substance, any act so rashly."),
    _chapter_xv("289", "Negligent conduct with respect to machinery",
                "Whoever knowingly or negligently omits to take such order with any machinery."),
    _chapter_xv("281", "Rash driving or riding on a public way",
                "Whoever drives any vehicle, or rides, on any public way in a manner so rash."),
    _chapter_xv("292", "Punishment for public nuisance in cases not otherwise provided for",
                "Whoever commits a public nuisance in any case not otherwise punishable."),
]


@pytest.mark.parametrize(("text", "status", "meant"), [
    ("Negligent conduct with respect to machinery is punishable under BNS 287.",
     "SIBLING_MEANT", "289"),
    ("Negligent conduct with respect to poisonous substance falls under BNS 288.",
     "SIBLING_MEANT", "286"),
    ("Negligent conduct with respect to machinery is punishable under BNS 289.", "VERIFIED", None),
    ("Negligent conduct with respect to fire falls under BNS 287.", "VERIFIED", None),
    # both named: the sentence is about both
    ("Fire and machinery: BNS 287 covers negligence with fire, not machinery.", "VERIFIED", None),
    ("Rash driving on a public way is an offence under BNS 281.", "VERIFIED", None),
    ("Negligent conduct with respect to machinery: sections 287, 288 and 292 of BNS.", None, None),
])
def test_a_sibling_with_a_near_identical_title_is_named(text, status, meant):
    """The words that set sibling titles apart decide, not the words they share."""
    checker = StatuteChecker(REGISTRY, SECTIONS + SIBLINGS, TRANSITIONS)
    verdicts = verify_statutes(text, checker)
    if status is None:  # a list of sections: never judged by the list's sentence
        assert all(v.status == "VERIFIED" for v in verdicts)
        return
    verdict = verdicts[0]
    assert verdict.status == status, verdict.reason
    if meant:
        assert _successors(verdict) == [("BNS_2023", meant)]
        assert f"describes BNS_2023 s.{meant}" in verdict.reason
        assert not verdict.survives


_chapter_ii = _in_chapter("II")


# Titles set apart by a plural, by "court" or "fine", or by "punishment" alone.
TITLE_SIBLINGS = [
    _chapter_ii("9", "Courts of Judicial Magistrates",
                "In every district there shall be established Courts of Judicial Magistrates."),
    _chapter_ii("11", "Special Judicial Magistrates",
                "The High Court may confer upon any person the powers of a Judicial Magistrate."),
    _chapter_ii("473", "Power to suspend or remit sentences",
                "When any person has been sentenced, the Government may suspend its execution."),
    _chapter_ii("474", "Power to commute sentence",
                "The Government may, without the consent of the person sentenced, commute."),
    _chapter_ii("140", "Execution of sentence of fine",
                "A sentence of fine shall be levied as the Code provides."),
    _chapter_ii("137", "Execution of sentence of imprisonment in special cases",
                "Where the sentence is one of imprisonment in a special case, the Court may."),
    _chapter_ii("229", "Giving false evidence",
                "Whoever, being legally bound by an oath, makes any statement which is false."),
    _chapter_ii("230", "Punishment for false evidence",
                "Whoever intentionally gives false evidence in a judicial proceeding."),
]


@pytest.mark.parametrize(("text", "status", "meant"), [
    # the words that set the titles apart meet however they are inflected or capitalized
    ("As to power to commute sentence, see Section 473 BNS.", "SIBLING_MEANT", "474"),
    ("On special Judicial Magistrates, the relevant provision is Section 9 BNS.",
     "SIBLING_MEANT", "11"),
    # "court" and "fine" tell two titles apart, but a sentence's "Court" or "fine" is no sign
    ("The Court directed the magistrates under Section 11 BNS.", "VERIFIED", None),
    ("The Court imposed a fine and directed the execution of the sentence under Section 137 "
     "BNS.", "VERIFIED", None),
    # unless the sentence quotes the sibling's title whole
    ("As to execution of sentence of fine, see Section 137 BNS.", "SIBLING_MEANT", "140"),
    ("On courts of Judicial Magistrates, the relevant provision is Section 11 BNS.",
     "SIBLING_MEANT", "9"),
    ("For execution of sentence of imprisonment in special cases, Section 140 BNS applies.",
     "SIBLING_MEANT", "137"),
    # the section that punishes an offence is cited in the words of the one that defines it
    ("He was tried for giving false evidence under Section 230 BNS.", "VERIFIED", None),
])
def test_sibling_titles_are_compared_by_their_own_words(text, status, meant):
    """Titles are compared by stems that meet across plurals and a final "e", with the
    boilerplate that can alone set two titles apart ("court", "fine", "imprisonment") kept
    in them but never read as a sign of the sibling."""
    checker = StatuteChecker(REGISTRY, SECTIONS + TITLE_SIBLINGS, TRANSITIONS)
    (verdict,) = verify_statutes(text, checker)
    assert verdict.status == status, verdict.reason
    if meant:
        assert _successors(verdict) == [("BNS_2023", meant)]


_chapter_viii = _in_chapter("VIII", "IPC_1860")


RIOTING = _chapter_viii("146", "Rioting", "Whenever force or violence is used by an unlawful "
                        "assembly, or by any member thereof, every member of such assembly is "
                        "guilty of the offence of rioting.")
ARMED = [
    _chapter_viii("148", "Rioting, armed with deadly weapon",
                  "Whoever is guilty of rioting, being armed with a deadly weapon, shall be "
                  "punished."),
    _chapter_viii("144", "Joining unlawful assembly armed with deadly weapon",
                  "Whoever, being armed with any deadly weapon, is a member of an unlawful "
                  "assembly, shall be punished."),
]


@pytest.mark.parametrize(("sections", "status"), [
    (ARMED, "SIBLING_MEANT"),
    # the section defining the cited title's own word describes it too
    ([*ARMED, RIOTING], "VERIFIED"),
])
def test_a_title_word_is_read_with_its_definition(sections, status):
    """A judgment describes rioting in its definition's words: "a member of the unlawful
    assembly that used force ... the charge under Section 148" cites s.148 rightly, though
    s.144's title holds those words and s.148's does not."""
    checker = StatuteChecker(REGISTRY, SECTIONS + sections, TRANSITIONS)
    text = ("The evidence establishes that he was a member of the unlawful assembly that used "
            "force, and the charge under Section 148 IPC is brought home to him.")
    (verdict,) = verify_statutes(text, checker)
    assert verdict.status == status, verdict.reason


_chapter_xvii = _in_chapter("XVII", "IPC_1860")
_chapter_xii = _in_chapter("XII", "IPC_1860")
_chapter_v = _in_chapter("V", "IPC_1860")
QUOTED = [
    _chapter_v("114", "Abettor present when offence is committed",
               "Whenever any person, who if absent would be liable to be punished as an abettor, "
               "is present when the act or offence is committed, he shall be deemed to have "
               "committed such act or offence."),
    _chapter_v("117", "Abetting commission of offence by the public or by more than ten persons",
               "Whoever abets the commission of an offence by the public generally or by any "
               "number or class of persons exceeding ten."),
    _chapter_viii("25", "Confession to police officer not to be proved",
                  "No confession made to a police officer shall be proved as against a person."),
    _chapter_viii("26", "Confession by accused while in custody of police not to be proved "
                  "against him", "No confession made by any person whilst he is in the custody "
                  "of a police officer shall be proved as against such person."),
    _chapter_xvii("405", "Criminal breach of trust",
                  "Whoever, being in any manner entrusted with property, dishonestly "
                  "misappropriates it."),
    _chapter_xvii("409", "Criminal breach of trust by public servant, or by banker, merchant or "
                  "agent", "Whoever, being a public servant, commits criminal breach of trust."),
    _chapter_xii("241", "Delivery of coin as genuine, which, when first possessed, the deliverer "
                 "did not know to be counterfeit", "Whoever delivers to any other person as "
                 "genuine any counterfeit coin."),
    _chapter_xii("254", "Delivery of coin as genuine, which, when first possessed, the deliverer "
                 "did not know to be altered", "Whoever delivers to any other person as "
                 "genuine any coin which he knows to be altered."),
    _chapter_xii("251", "Delivery of Indian coin, possessed with knowledge that it is altered",
                 "Whoever, having any coin in his possession, delivers it to another."),
    _chapter_xii("253", "Possession of Indian coin by person who knew it to be altered when he "
                 "became possessed thereof", "Whoever, being in possession of Indian coin, "
                 "knew it to be altered."),
]


@pytest.mark.parametrize(("text", "status", "meant"), [
    # the titles share too few words to be siblings, but the sentence quotes one whole
    ("As to confession by accused while in custody of police not to be proved against him, see "
     "s. 25 IPC.", "SIBLING_MEANT", "26"),
    # a long title quoted by its first twelve words
    ("As to possession of Indian coin by person who knew it to be altered when he became "
     "possessed, see Section 251 IPC.", "SIBLING_MEANT", "253"),
    # the cited title's own word is there: the sentence may speak of both
    ("A confession to a police officer while in custody of police not to be proved against "
     "him, s. 25 IPC.", "VERIFIED", None),
    # the offence a cited section aggravates is named beside it, rightly
    ("The accused, a public servant, committed criminal breach of trust and was convicted "
     "under Section 409 IPC.", "VERIFIED", None),
    ("He was charged with criminal breach of trust under Section 409 IPC.", "VERIFIED", None),
    # a title that shares no word with the cited one's, quoted whole
    ("The provision on abettor present when offence is committed is Section 117 of the Indian "
     "Penal Code, 1860.", "SIBLING_MEANT", "114"),
    ("Abetting commission of offence by the public, the abettor being present when the offence "
     "is committed: s. 117 IPC.", "VERIFIED", None),
    # two titles alike in their first twelve words, the cited one quoted as far as the other
    ("Reliance is placed on s. 254 IPC, which deals with delivery of coin as genuine, which, "
     "when first possessed, the deliverer did not know to be.", "VERIFIED", None),
])
def test_a_sibling_whose_title_is_quoted_whole_is_named(text, status, meant):
    """A title quoted word for word says what the sentence is about, however few words it
    shares with the cited title and however common they are."""
    checker = StatuteChecker(REGISTRY, SECTIONS + QUOTED, TRANSITIONS)
    (verdict,) = verify_statutes(text, checker)
    assert verdict.status == status, verdict.reason
    if meant:
        assert [(s["act_code"], s["section_number"]) for s in verdict.successors] == [
            ("IPC_1860", meant)]
        assert f"quotes IPC_1860 s.{meant}'s title" in verdict.reason


@pytest.mark.parametrize(("word", "stem"), [
    ("sentence", "sentenc"), ("sentences", "sentenc"), ("Magistrate", "magistrat"),
    ("magistrates", "magistrat"), ("witness", "witness"), ("witnesses", "witness"),
    ("declared", "declar"), ("declare", "declar"), ("committed", "commit"),
    ("case", "case"), ("cases", "case"),
    ("penalty", "penalti"), ("penalties", "penalti"), ("copy", "copi"), ("copies", "copi"),
    ("delay", "delay"), ("committee", "committe"), ("committees", "committe"),
    # a noun in "-ion" meets its verb: "commute" a sentence, "commutation"; "direct", "direction"
    ("commute", "commut"), ("commutation", "commut"), ("direct", "direct"),
    ("direction", "direct"), ("directions", "direct"), ("nation", "nation"),
])
def test_stems_meet_across_plurals_and_a_final_e(word, stem):
    from nyaya.verify.statutes import _stem
    assert _stem(word.lower()) == stem


@pytest.mark.parametrize(("citation", "status"), [
    ("Section 287 of the Bharatiya Nyaya Sanhita, 2023", "SIBLING_MEANT"),  # the Act's year
    ("BNS_2023 s.287", "SIBLING_MEANT"),  # the act code's year
    ("s. 287 BNS", "SIBLING_MEANT"),
    ("BNS 287", "SIBLING_MEANT"),
    ("Section 287(1) BNS", "SIBLING_MEANT"),  # a sub-section is no second section
    ("Sections 286 and 287 BNS", None),  # a list: the sentence is the list's
    ("Sections 286 to 288 of the Bharatiya Nyaya Sanhita, 2023", None),
    ("Section 287 read with Section 292 BNS", None),
])
def test_a_sibling_is_named_whatever_form_the_citation_takes(citation, status):
    """Sections are counted as the extractor parsed them: a year in the Act's title or code,
    or a sub-section, does not make one citation a list."""
    checker = StatuteChecker(REGISTRY, SECTIONS + SIBLINGS, TRANSITIONS)
    text = f"Negligent conduct with respect to machinery is punishable under {citation}."
    verdicts = verify_statutes(text, checker)
    assert {v.text for v in verdicts} == {citation}
    if status is None:
        assert [v.status for v in verdicts] == ["VERIFIED"] * len(verdicts)
    else:
        (verdict,) = verdicts
        assert (verdict.status, verdict.section_number) == (status, "287"), verdict.reason
        assert _successors(verdict) == [("BNS_2023", "289")]
    # called on its own, the checker parses the phrase again and comes to the same verdicts
    mentions = extract_statute_mentions(text, checker.aliases)
    assert [checker.verdict(text, m).status for m in mentions] == [v.status for v in verdicts]


NO_LONGER_LAW_ACTS = [
    _act("ITA_2000", "The Information Technology Act, 2000", 2000,
         aliases=["IT Act", "Information Technology Act"], era="post_constitution",
         applicable_from="2000-10-17"),
    _act("HSA_1956", "The Hindu Succession Act, 1956", 1956, aliases=["Hindu Succession Act"],
         era="post_constitution", applicable_from="1956-06-17"),
    _act("ITAX_1961", "The Income-tax Act, 1961", 1961, aliases=["Income-tax Act"],
         era="post_constitution", applicable_from="1962-04-01"),
]
NO_LONGER_LAW = [
    {**_section("ITA_2000", "66A", "Omitted", "^1\n[66A. Punishment for sending offensive "
                "messages through communication service, etc."), "status": "omitted",
     "footnotes": "1. Section 66A has been struck down by Supreme Court's Order dated 24th "
                  "March, 2015 in the Shreya Singhal vs. Union of India, AIR 2015 SC. 1523."},
    {**_section("HSA_1956", "24", "Omitted", "[Certain widows re-marrying may not inherit as "
                "widows.] ---Omitted by s. 5, ibid. (w.e.f. 9-9- 2005)."), "status": "omitted"},
    {**_section("HSA_1956", "28", "Repealed", "Rep. by the A.O. 1937."), "status": "repealed"},
    {**_section("HSA_1956", "8", "General rules of succession in the case of males",
                "The property of a male Hindu dying intestate shall devolve ..."),
     "status": "in_force"},
    # omitted with its title kept, beside a near-same title in force
    {**_section("ITAX_1961", "53", "Exemption of capital gains from a residential house",
                "Omitted by the Finance Act, 1992 (18 of 1992), s. 26 ( w.e.f. 1-4-1993)."),
     "status": "omitted"},
    {**_section("ITAX_1961", "54F", "Capital gain on transfer of certain capital assets not to "
                "be charged in case of investment in residential house",
                "Where, in the case of an assessee being an individual ..."),
     "status": "in_force"},
    # struck down by the Court, with no note in its source (nyaya/facts/struck_down.yaml)
    _section("IPC_1860", "303", "Punishment for murder by life-convict",
             "Whoever, being under sentence of imprisonment for life, commits murder shall be "
             "punished with death."),
]


@pytest.mark.parametrize(("text", "as_of", "status", "says"), [
    ("He can be prosecuted under Section 66A of the IT Act.", None, "NOT_IN_FORCE",
     "struck down (Section 66A has been struck down"),
    # struck down is void from the start: no date of conduct makes it law
    ("He can be prosecuted under Section 66A of the IT Act.", date(2010, 1, 1), "NOT_IN_FORCE",
     "void, for conduct on any date"),
    ("Under Section 24 of the Hindu Succession Act a remarried widow cannot inherit.", None,
     "NOT_IN_FORCE", "applies only to conduct before 2005-09-09"),
    ("Under Section 24 of the Hindu Succession Act a remarried widow cannot inherit.",
     date(2001, 1, 1), VERIFIED, "It was in force on 2001-01-01: omitted from 2005-09-09"),
    ("Under Section 24 of the Hindu Succession Act a remarried widow cannot inherit.",
     date(2005, 9, 9), "NOT_IN_FORCE", "so it was not law on 2005-09-09"),
    ("Section 28 of the Hindu Succession Act applies.", date(1900, 1, 1), "NOT_IN_FORCE",
     "cannot be verified for any date"),
    ("Section 8 of the Hindu Succession Act governs a male's property.", None, VERIFIED,
     "exists"),
    # that it is no longer law is a fact of its source; that a neighbour was meant (the words
    # are 54F's title's) only a reading of the sentence
    ("Capital gain not to be charged on investment in residential house: Section 53 of the "
     "Income-tax Act.", None, "NOT_IN_FORCE", "omitted"),
    # void from the start, so before the code's repeal too, and whatever its source says
    ("A life convict who murders must be hanged under Section 303 IPC.", date(1980, 1, 1),
     "NOT_IN_FORCE", "struck down (Section 303 was struck down by the Supreme Court in Mithu"),
])
def test_a_section_no_longer_law_is_not_verified_for_conduct_after_it(text, as_of, status, says):
    """An omitted, repealed or struck-down section of an Act in force is NOT_IN_FORCE (it does
    not survive the gate) unless the conduct came before the date its note gives."""
    checker = StatuteChecker(REGISTRY + NO_LONGER_LAW_ACTS, SECTIONS + NO_LONGER_LAW, TRANSITIONS)
    verdict = _one(text, checker, as_of=as_of)
    assert verdict.status == status and says in verdict.reason, verdict.reason
    report = verify_text(text, checker, as_of=as_of)
    assert report.overall == (OVERALL_VERIFIED if status == VERIFIED else UNVERIFIED)
    if status != VERIFIED:
        assert f"Status: NOT_IN_FORCE — {verdict.reason}" in render_blocks(report)


@pytest.mark.parametrize(("citation", "status", "header", "says"), [
    ("Section 24 of the Hindu Succession Act", "NOT_IN_FORCE", "CITATION NOT IN FORCE: ",
     "omitted from 2005-09-09 ([Certain widows"),
    ("Section 66A of the IT Act", "NOT_IN_FORCE", "CITATION NOT IN FORCE: ",
     "struck down (Section 66A has been struck down"),
    ("Section 8 of the Hindu Succession Act", VERIFIED, "CITATION VERIFIED: ",
     "General rules of succession"),
    # a repealed code's section is the code's repeal, said by its successor, not an omission
    ("Section 302 IPC", VERIFIED, "CITATION VERIFIED: ", "Successor: BNS_2023 s.103"),
    ("Section 171I IPC", "UNVERIFIABLE", "CITATION NOT VERIFIABLE HERE: ",
     "lacks 171I"),
    ("Section 999 IPC", "NOT_FOUND", "CITATION NOT VERIFIED: ", "IPC_1860 has no section 999"),
])
def test_lookup_heads_verified_only_what_is_law_today(citation, status, header, says):
    """`nyaya lookup` is read by a person deciding whether to cite: a section the Act dropped
    or the Court struck down is not headed VERIFIED, nor is one whose text we do not hold."""
    from nyaya.lookup import render_block

    checker = StatuteChecker(REGISTRY + NO_LONGER_LAW_ACTS, SECTIONS + NO_LONGER_LAW, TRANSITIONS)
    result = checker.lookup.lookup(citation)
    block = render_block(result)
    assert result.status == status and block.startswith(header) and says in block, block
    assert result.found == (status in (VERIFIED, "NOT_IN_FORCE"))
    assert (result.omission is not None) == (status == "NOT_IN_FORCE")
    if status == "NOT_IN_FORCE":  # said once, in the status line; a dated omission points
        # to --as-of, a struck-down section has no date before which it was law
        assert "Section status:" not in block
        assert ("--as-of" in block) == ("omitted" in block)


@pytest.mark.parametrize(("as_of", "status", "says"), [
    (None, "UNVERIFIABLE", "exists in law, but the corpus lacks its text (ipc_sections.jsonl "
     "holds 585 sections and lacks 171I"),
    (date(2023, 1, 1), "UNVERIFIABLE", "check it against the official text"),
    (date(2025, 1, 1), STALE, "cite its successor: BNS_2023 s.176"),
])
def test_a_section_the_corpus_lacks_is_unverifiable_not_invented(as_of, status, says):
    """IPC 171I exists in law but not in the corpus's IPC (nyaya/facts/known_gaps.yaml): it is
    never NOT_FOUND, which would call a real section invented; for conduct after the repeal it
    is STALE like any IPC section, with its successor from the transition map."""
    checker = StatuteChecker(REGISTRY, SECTIONS, [*TRANSITIONS, _link("171I", "176")])
    verdict = _one("Failure to keep election accounts is punishable under Section 171I IPC.",
                   checker, as_of=as_of)
    assert verdict.status == status and says in verdict.reason, verdict.reason
    assert _successors(verdict) == [("BNS_2023", "176")]  # a repealed code's, either way
    report = verify_text("Failure to keep election accounts is punishable under Section 171I "
                         "IPC.", checker, as_of=as_of)
    assert report.overall == UNVERIFIED  # nothing verified survives


@pytest.mark.parametrize(("text", "found"), [
    ("Sections 302 and 103 IPC", [("IPC_1860", "302", VERIFIED), ("IPC_1860", "103", VERIFIED)]),
    # one citation as parsed, with more after it
    ("Section 302 r/w 103 IPC", [("IPC_1860", "302", VERIFIED), ("IPC_1860", "103", VERIFIED)]),
    ("Section 302 IPC", [("IPC_1860", "302", VERIFIED)]),
    ("Section 302 of the Imaginary Code", [(None, "302", NOT_FOUND)]),
    # Rules made under an Act: the corpus holds Acts only
    ("Rule 3 of the Consumer Protection Rules, 2020", [(None, "3", "UNVERIFIABLE")]),
])
def test_a_lookup_of_a_list_answers_each_provision(text, found):
    """`nyaya lookup "Sections 302 and 103 IPC"` looks both up, not "Act not recognised in
    'and 103 IPC'"."""
    checker = StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS)
    results = checker.lookup.lookup_all(text)
    assert [(r.act_code, r.section_number, r.status) for r in results] == found


@pytest.mark.parametrize(("text", "says"), [
    ("The accused was convicted under Section 302.",
     "the corpus holds a section 302 in 2 Acts: BNS_2023 s.302 (Uttering words"),
    ("The accused was convicted under Section 302 of the Act.", "IPC_1860 s.302 (Punishment"),
    ("The accused was convicted under Section 999.",
     "no Act the corpus holds has a section 999"),
])
def test_a_section_cited_without_its_act_is_unverifiable_naming_the_acts_that_hold_it(text,
                                                                                      says):
    """A number with no Act (nor one "the Act" refers back to) is no invention: UNVERIFIABLE,
    to be named, never NOT_FOUND; an Act named that is none known stays NOT_FOUND."""
    checker = StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS)
    verdict = _one(text, checker)
    assert verdict.status == "UNVERIFIABLE" and says in verdict.reason, verdict.reason
    assert "the Act of section" in verdict.reason
    cited = text.removeprefix("The accused was convicted under ").rstrip(".")
    result = checker.lookup.lookup(cited.removesuffix(" of the Act"))
    assert result.status == "UNVERIFIABLE" and says.split(" (")[0] in result.reason
    assert render_block(result).startswith("CITATION NOT VERIFIABLE HERE: ? s.")


@pytest.mark.parametrize(("text", "status", "says"), [
    # a bare number read as the Act named before it, which lacks it: another Act may be meant
    ("He was convicted under Section 302 IPC. Shreya Singhal struck down Section 103A.",
     "UNVERIFIABLE", "written without its Act, it was read as IPC_1860's"),
    ("He was convicted under Section 302 IPC. The Court also cited Section 103A IPC.",
     NOT_FOUND, "it does not exist there"),
    ("He was convicted under Section 302 IPC and Section 103A of the said Code.", NOT_FOUND,
     "it does not exist there"),
])
def test_a_bare_section_the_act_before_it_lacks_is_unverifiable(text, status, says):
    checker = StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS)
    verdict = verify_statutes(text, checker)[-1]
    assert verdict.status == status and says in verdict.reason, verdict.reason
    if status == "UNVERIFIABLE":
        assert "name its Act" in verdict.reason


NUMBERED = [
    {**_section("BNS_2023", "64", "Punishment for rape",
                "(1) Whoever commits rape shall be punished with rigorous imprisonment.\n"
                "(2) Whoever, being a police officer, commits rape shall be punished.\n"
                " (3) Whoever commits rape on a woman under sixteen shall be punished."),
     "footnotes": "1. Sub-section (5) omitted by Act 1 of 2024, s. 2 (w.e.f. 1-1-2025)."},
    # the parser reads no sub-section after a heading's dash; the text still numbers them
    _section("BNS_2023", "65", "Punishment for rape in certain cases",
             "Rape of a child. -- (1) Whoever commits rape on a woman under sixteen.\n"
             "(2) Whoever commits rape on a woman under twelve."),
]


@pytest.mark.parametrize(("citation", "status", "says"), [
    ("Section 64(2) BNS", VERIFIED, "exists"),
    ("Section 64(3) BNS", VERIFIED, "exists"),  # printed, though the unit parser misses it
    ("Section 64(3)(a) BNS", VERIFIED, "exists"),
    ("Section 64(7) BNS", "UNVERIFIABLE",
     "its text numbers sub-sections (1) to (3): it has no sub-section (7)"),
    ("Section 64(5) BNS", "UNVERIFIABLE", "India Code notes: 'Sub-section (5) omitted by"),
    ("Section 65(4) BNS", "UNVERIFIABLE", "numbers sub-sections (1) to (2)"),
    # a text that numbers no sub-sections cannot tell: a source may have stripped them
    ("Section 103(9) BNS", VERIFIED, "exists"),
])
def test_a_sub_section_after_the_last_the_text_numbers_is_not_verified(citation, status,
                                                                        says):
    """"Section 64(7) BNS" names a section that exists and a sub-section its text does not
    have: UNVERIFIABLE, with the numbering held, so neither VERIFIED nor called invented (an
    earlier or later text of the Act may have it)."""
    checker = StatuteChecker(REGISTRY, SECTIONS + NUMBERED, TRANSITIONS)
    result = checker.lookup.lookup(citation)
    assert result.status == status, result.reason
    verdict = _one(f"He was convicted under {citation}.", checker)
    assert verdict.status == status and says in verdict.reason, verdict.reason
    if status != VERIFIED:
        block = render_block(result)
        assert block.startswith("CITATION NOT VERIFIABLE HERE: ") and says in block, block
        assert "Section: 64 — Punishment for rape" in block or "Section: 65" in block


@pytest.mark.parametrize(("citation", "as_of", "status", "says"), [
    ("Article 291", None, "NOT_IN_FORCE", "omitted from 1971-12-28 (Omitted by the "
     "Constitution (Twenty-sixth Amendment) Act, 1971"),
    ("Article 291", date(1965, 1, 1), "UNVERIFIABLE", "was law on 1965-01-01"),
    ("Article 385", date(1965, 1, 1), "NOT_IN_FORCE", "so it was not law on 1965-01-01"),
    ("Article 35A", date(2019, 8, 5), "NOT_IN_FORCE", "omitted from 2019-08-05"),
    # no date in the note: it cannot be law on any date
    ("Article 272", date(1990, 1, 1), "NOT_IN_FORCE", "cannot be verified for any date"),
])
def test_an_article_dropped_before_the_text_was_printed_is_not_in_force_not_invented(
        citation, as_of, status, says):
    """The Constitution's source has no entry for the Articles amendments omitted (privy
    purses, Article 291): they were law, so they are NOT_IN_FORCE with the amendment that
    dropped them (nyaya/facts/known_gaps.yaml), never NOT_FOUND, and UNVERIFIABLE for conduct
    before that date."""
    constitution = [_act("COI", "The Constitution of India", 1950, aliases=["Constitution"],
                         era="constitution", applicable_from="1950-01-26")]
    checker = StatuteChecker(REGISTRY + constitution, SECTIONS, TRANSITIONS)
    result = checker.lookup.lookup(citation)
    assert result.status == "NOT_IN_FORCE" and not result.found
    block = render_block(result)
    assert block.startswith(f"CITATION NOT IN FORCE: COI Art.{citation.split()[1]}"), block
    verdict = _one(f"The State relied on {citation} of the Constitution.", checker, as_of=as_of)
    assert verdict.status == status and says in verdict.reason, verdict.reason


@pytest.mark.parametrize(("citation", "says"), [
    ("Article 371J of the Constitution", "inserted by the Constitution (Ninety-eighth Amendment)"),
    ("Article 279A of the Constitution", "(One Hundred and First Amendment) Act, 2016"),
])
def test_an_article_inserted_after_the_source_was_made_is_unverifiable(citation, says):
    """The Constitution's source holds its text of about 2011: Articles inserted since (the
    GST Council's 279A, Karnataka's 371J) exist in law, so they are UNVERIFIABLE, never
    NOT_FOUND (nyaya/facts/known_gaps.yaml)."""
    constitution = [_act("COI", "The Constitution of India", 1950, aliases=["Constitution"],
                         era="constitution", applicable_from="1950-01-26")]
    checker = StatuteChecker(REGISTRY + constitution, SECTIONS, TRANSITIONS)
    verdict = _one(f"The State relied on {citation}.", checker)
    assert verdict.status == "UNVERIFIABLE" and says in verdict.reason, verdict.reason


SCHEDULE_ACTS = [
    _act("CPC_1908", "The Code of Civil Procedure, 1908", 1908,
         aliases=["CPC", "Code of Civil Procedure"], era="pre_constitution",
         applicable_from="1909-01-01"),
    _act("LA_1963", "The Limitation Act, 1963", 1963, aliases=["Limitation Act"],
         era="post_constitution", applicable_from="1964-01-01"),
    _act("ICA_1872", "The Indian Contract Act, 1872", 1872, aliases=["Contract Act"],
         era="pre_constitution", applicable_from="1872-09-01"),
]
SCHEDULE_SECTIONS = [
    {**_section("LA_1963", "5", "Extension of prescribed period in certain cases",
                "Any appeal or any application may be admitted after the prescribed period."),
     "status": "in_force"},
]


@pytest.mark.parametrize(("citation", "status", "label", "says"), [
    ("Order XXXIX Rule 1 CPC", "UNVERIFIABLE", "CPC_1908 Order XXXIX Rule 1",
     "the corpus does not hold the First Schedule (Orders I to LI"),
    ("O. 39 R. 2 CPC", "UNVERIFIABLE", "CPC_1908 Order XXXIX Rule 2", "Orders I to LI"),
    ("Order 37 of the Code of Civil Procedure", "UNVERIFIABLE", "CPC_1908 Order XXXVII",
     "Orders I to LI"),
    ("Order LX Rule 3 CPC", NOT_FOUND, "CPC_1908 Order LX Rule 3",
     "there is no CPC_1908 Order LX Rule 3"),
    ("Article 113 of the Limitation Act", "UNVERIFIABLE", "LA_1963 Schedule Art.113",
     "Articles 1 to 137"),
    # Article 5 of the Schedule (a suit on a bill of exchange) is not section 5
    ("Article 5 of the Limitation Act", "UNVERIFIABLE", "LA_1963 Schedule Art.5",
     "Articles 1 to 137"),
    ("Article 140 of the Limitation Act", NOT_FOUND, "LA_1963 Schedule Art.140",
     "there is no LA_1963 Schedule Art.140"),
    ("Section 5 of the Limitation Act", VERIFIED, "LA_1963 s.5", "Extension of prescribed"),
    ("Order 5 Rule 2 of the Contract Act", NOT_FOUND, "ICA_1872 Order V Rule 2",
     "no schedule numbered in Orders and Rules"),
    ("Article 10 of the Contract Act", NOT_FOUND, "ICA_1872 Schedule Art.10",
     "no schedule numbered in Articles"),
])
def test_a_schedule_the_corpus_lacks_is_unverifiable_within_its_range(citation, status, label,
                                                                     says):
    """The CPC's Orders and the Limitation Act's Articles are in schedules the corpus does not
    hold (nyaya/facts/known_gaps.yaml): within the schedule's range such a citation is in law,
    so UNVERIFIABLE, never NOT_FOUND (which would call "Order XXXIX Rule 1" invented) nor the
    section of the same number; beyond it, or in an Act without such a schedule, NOT_FOUND."""
    from nyaya.lookup import render_block

    checker = StatuteChecker(REGISTRY + SCHEDULE_ACTS, SECTIONS + SCHEDULE_SECTIONS,
                             TRANSITIONS)
    result = checker.lookup.lookup(citation)
    block = render_block(result)
    assert result.status == status and label in block.splitlines()[0] and says in block, block
    verdicts = verify_statutes(f"The court relied on {citation} here.", checker)
    assert [(v.status, says in v.reason) for v in verdicts] == [(status, True)], verdicts


def test_a_section_whose_heading_has_no_text_is_unverifiable_not_invented(tmp_path):
    """The source prints BNS 999's heading but no text under it (the ingest quarantine's
    section_text_missing): it exists in law, so citing it is UNVERIFIABLE with the source's
    words, as a known gap is; a number the source never names stays NOT_FOUND."""
    from nyaya.lookup import read_untexted

    path = tmp_path / "ingest_quarantine.parquet"
    write_table(pd.DataFrame([
        {"source_file": "statutes/bns.json", "source_line": 9.0, "act_code": "BNS_2023",
         "section_number": "999", "reason": "section_text_missing", "excerpt": "",
         "detail": "the source has the heading 'Power to make rules' but no text under it"},
        {"source_file": "statutes/bns.json", "source_line": 3.0, "act_code": "BNS_2023",
         "section_number": "998", "reason": "duplicate_section_number", "excerpt": "",
         "detail": "a second section 998"},
        {"source_file": "statutes/x.pdf", "source_line": None, "act_code": None,
         "section_number": None, "reason": "section_body_not_found", "excerpt": "",
         "detail": "an arrangement entry with no Act"},
    ]), path)
    untexted = read_untexted(path)
    assert untexted == {("BNS_2023", "999"): "statutes/bns.json: the source has the heading "
                        "'Power to make rules' but no text under it"}
    checker = StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS, untexted=untexted)
    named = _one("Rules are made under Section 999 of the BNS.", checker)
    assert named.status == "UNVERIFIABLE" and "heading 'Power to make rules'" in named.reason
    assert _one("Rules are made under Section 998 of the BNS.", checker).status == "NOT_FOUND"
    from nyaya.lookup import render_block
    assert render_block(checker.lookup.lookup("BNS 999")).startswith(
        "CITATION NOT VERIFIABLE HERE: BNS_2023 s.999")


# --- Acts the corpus lacks but its judgments cite (nyaya/verify/absent_acts.py) --------------

@pytest.mark.parametrize(("written", "key", "year"), [
    ("Industrial Disputes Act, 1947", "industrialdisputesact", "1947"),
    ("of the Industrial Disputes Act, 1947.", "industrialdisputesact", "1947"),
    ("under the Industrial Disputes Act 1947", "industrialdisputesact", "1947"),
    ("Industrial Disputes Act (1947)", "industrialdisputesact", "1947"),
    ("the Land Acquisition (Amendment) Act, 1984", "landacquisitionamendmentact", "1984"),
    ("Industrial Disputes Act", "industrialdisputesact", None),
])
def test_an_act_is_known_by_its_name_and_year(written, key, year):
    assert act_key(written) == (key, year)


# (judgment, the name as written, section): J2a and J2b are one case's judgment in two sources
CITED_BY_JUDGMENTS = [
    ("J1", "Industrial Disputes Act, 1947", "25F"), ("J2a", "Industrial Disputes Act", "25F"),
    ("J2b", "Industrial Disputes Act, 1947", "25-F"), ("J3", "Industrial Disputes Act, 1947", "2A"),
    ("J1", "Payment of Gratuity Act, 1972", "4"), ("J4", "Payment of Gratuity Act, 1972", "7"),
    ("J1", "Amendment Act, 1976", "3"), ("J2a", "Amendment Act, 1984", "3"),
    ("J5", "Amendment Act", "3"), ("J3", "Amendment Act", "3"),
    ("J5", "Sea Customs Act, 1878", "167"),  # one judgment only
]
# the 1908 Limitation Act's Article 181, which two judgments cite, is not its section 181
ARTICLES = [("J1", "Limitation Act, 1908", provision_key("181", "article")),
            ("J3", "Limitation Act, 1908", provision_key("181", "article")),
            ("J4", "Limitation Act, 1908", provision_key("5"))]


@pytest.fixture(scope="module")
def absent_checker() -> StatuteChecker:
    acts = AbsentActs([*((judgment, name, provision_key(section))
                         for judgment, name, section in CITED_BY_JUDGMENTS), *ARTICLES],
                      {"J2a": "C2", "J2b": "C2"})
    return StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS, absent_acts=lambda: acts)


def test_warm_reads_the_absent_acts_once_before_any_citation_needs_them():
    """`nyaya serve` warms the checker at start so that its first answer does not read the
    judgments' citations; a later citation of an absent Act reads nothing more."""
    built = []

    def build() -> AbsentActs:
        built.append(1)
        return AbsentActs([(judgment, name, provision_key(section))
                           for judgment, name, section in CITED_BY_JUDGMENTS])

    checker = StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS, absent_acts=build)
    assert built == []
    checker.warm()
    assert built == [1]
    report = verify_statutes("Section 25F of the Industrial Disputes Act, 1947", checker)
    assert [v.status for v in report] == [CORROBORATED] and built == [1]


@pytest.mark.parametrize(("text", "status", "says"), [
    # two cases cite the section (J2's two sources count once; "25-F" is 25F): corroborated
    ("Section 25F of the Industrial Disputes Act, 1947", CORROBORATED,
     "2 corpus judgments cite its section 25F (J1, J2b)"),
    # without the year: the 1947 Act, the year nearly all its dated citations carry
    ("Section 25F of the Industrial Disputes Act", CORROBORATED, "Industrial Disputes Act, 1947"),
    # the Act is cited by several, this section by one or none: it cannot be checked here
    ("Section 2A of the Industrial Disputes Act, 1947", UNVERIFIABLE,
     "one cites its section 2A (J3)"),
    ("Section 99 of the Industrial Disputes Act, 1947", UNVERIFIABLE,
     "3 corpus judgments cite it (J1, J2b, J3); none cites its section 99"),
    ("Section 4 of the Payment of Gratuity Act, 1972", UNVERIFIABLE, "one cites its section 4"),
    # an Act one judgment cites, a name of no single year or no Act at all, another year
    ("Section 167 of the Sea Customs Act, 1878", NOT_FOUND, "could not be identified"),
    ("Section 3 of the Amendment Act", NOT_FOUND, "could not be identified"),
    ("Section 3 of the Digital Privacy Act, 2019", NOT_FOUND, "could not be identified"),
    ("Section 25F of the Industrial Disputes Act, 1950", NOT_FOUND, "could not be identified"),
    ("Article 181 of the Limitation Act, 1908", CORROBORATED, "cite its article 181 (J1, J3)"),
    ("Section 181 of the Limitation Act, 1908", UNVERIFIABLE, "none cites its section 181"),
])
def test_an_act_the_corpus_lacks_is_judged_by_the_judgments_citing_it(absent_checker, text,
                                                                      status, says):
    verdict = _one(text, absent_checker)
    assert verdict.status == status
    assert says in verdict.reason
    assert (verdict.source == "statute citations in the corpus judgments") == (
        status != NOT_FOUND)


@pytest.mark.parametrize(("text", "overall", "says"), [
    # the judgments corroborate it; nothing was checked against the Act's text
    ("Section 25F of the Industrial Disputes Act, 1947 applies.", PRECEDENT_ONLY,
     "1 statute citation(s) of them are of Acts the corpus does not hold"),
    ("Section 103 BNS punishes murder; see too Section 25F of the Industrial Disputes Act, 1947.",
     OVERALL_VERIFIED, "corroborated (the same section cited by several corpus judgments)"),
])
def test_a_corroborated_statute_survives_but_verifies_nothing(absent_checker, text, overall,
                                                               says):
    report = verify_text(text, absent_checker)
    assert report.overall == overall and says in report.message
    blocks = render_blocks(report)
    assert ("CITATION CORROBORATED: Industrial Disputes Act, 1947 s.25F (as written: 'Section "
            "25F of the Industrial Disputes Act, 1947')") in blocks
    assert "ACTION REQUIRED" not in blocks


@pytest.mark.parametrize(("dated", "year"), [
    ({"1947": 9, "1974": 1}, "1947"),  # a misprint beside nine: still the 1947 Act
    ({"1947": 8, "1974": 1}, None),  # below DOMINANT (0.9): no year can be told
    ({"1976": 2, "1984": 2}, None),
])
def test_an_undated_name_is_the_year_nearly_all_its_dated_citations_carry(dated, year):
    cited = [(f"{written_year}-{i}", f"Industrial Disputes Act, {written_year}", "section 10")
             for written_year, count in dated.items() for i in range(count)]
    acts = AbsentActs([*cited, ("U1", "Industrial Disputes Act", "section 10")])
    found = acts.named("the Industrial Disputes Act")
    assert (found.name[-4:] if found else None) == year
    if found:  # the undated citation counts with the dated ones
        assert "U1" in found.citing("10")


@pytest.mark.parametrize(("citation", "status", "header"), [
    ("Section 25F of the Industrial Disputes Act", CORROBORATED,
     "CITATION CORROBORATED: Industrial Disputes Act, 1947 s.25F\n"),
    ("Industrial Disputes Act, 1947 section 2A", UNVERIFIABLE,
     "CITATION NOT VERIFIABLE HERE: Industrial Disputes Act, 1947 s.2A\n"),
    ("Section 167 of the Sea Customs Act", NOT_FOUND, "CITATION NOT VERIFIED: ? s.167\n"),
    ("Article 181 of the Limitation Act, 1908", CORROBORATED,
     "CITATION CORROBORATED: Limitation Act, 1908 Schedule Art.181\n"),
])
def test_the_lookup_judges_an_act_the_corpus_lacks_as_the_verifier_does(absent_checker, citation,
                                                                        status, header):
    result = absent_checker.lookup.lookup(citation)
    assert result.status == status and result.act_code is None
    assert render_block(result).startswith(header)


# --- Acts the corpus lacks that its own Acts repeal (nyaya/statutes/repeals.py) ---------------

REPEALING = [_act("CSS_2020", "The Code on Social Security, 2020", 2020, aliases=[]),
             _act("IRC_2020", "The Industrial Relations Code, 2020", 2020, aliases=[])]
REPEAL_SECTIONS = [
    {**_section("CSS_2020", "164", "Repeal and savings",
                "(1) The following enactments are hereby repealed, namely:—\n1. The Employees' "
                "State Insurance Act, 1948 (34 of 1948);\n2. The Payment of Gratuity Act, 1972 "
                "(39 of 1972);\n3. The Employee's Compensation Act, 1923 (8 of 1923)."
                "\n(2) Notwithstanding such repeal, section 6 of the General "
                "Clauses Act, 1897 (10 of 1897) shall apply."), "status": "in_force"},
    {**_section("IRC_2020", "104", "Repeal and savings",
                "(1) The Industrial Disputes Act, 1947 (14 of 1947) shall stand repealed."),
     "status": "in_force"},
]


@pytest.fixture(scope="module")
def repeal_checker() -> StatuteChecker:
    acts = AbsentActs([(judgment, "Industrial Disputes Act, 1947", provision_key("25F"))
                       for judgment in ("J1", "J2")])
    return StatuteChecker(REGISTRY + REPEALING, SECTIONS + REPEAL_SECTIONS, TRANSITIONS,
                          absent_acts=lambda: acts)


@pytest.mark.parametrize(("text", "status", "says"), [
    # a real Act the corpus lacks, repealed by an Act it holds: never NOT_FOUND
    ("Section 2(12) of the Employees' State Insurance Act, 1948", UNVERIFIABLE,
     "the Code on Social Security, 2020 repealed it (CSS_2020 s.164)"),
    ("Section 39 of the Employees State Insurance Act", UNVERIFIABLE,
     "'Employees State Insurance Act', written without its year, was read as it"),
    # its name before it was renamed (acts.yaml's former_names)
    ("Section 3 of the Workmens Compensation Act, 1923", UNVERIFIABLE,
     "'Workmens Compensation Act, 1923' is its former name"),
    # with its apostrophe: the unknown name reads on over the "s" after it
    ("Section 3 of the Workmen's Compensation Act, 1923", UNVERIFIABLE,
     "'Workmen's Compensation Act, 1923' is its former name"),
    # the judgments cite it too: judged by them, the repeal said
    ("Section 25F of the Industrial Disputes Act, 1947", CORROBORATED,
     "The Industrial Relations Code, 2020 repealed it (IRC_2020 s.104)"),
    # another year, or an Act a repeal section only mentions
    ("Section 4 of the Payment of Gratuity Act, 1982", NOT_FOUND, "could not be identified"),
    ("Section 6 of the General Clauses Act, 1897", NOT_FOUND, "could not be identified"),
])
def test_an_act_the_corpus_repeals_is_no_invention(repeal_checker, text, status, says):
    verdict = _one(text, repeal_checker)
    assert verdict.status == status, verdict.reason
    assert says in verdict.reason
    result = repeal_checker.lookup.lookup(text)
    assert result.status == status
    if status != NOT_FOUND:  # the lookup words an unknown Act its own way
        assert says in result.reason


# --- A short name two Acts go by (nyaya/facts/acts.yaml's shared_names) ----------------------

@pytest.fixture(scope="module")
def namesake_checker() -> StatuteChecker:
    registry = [*REGISTRY,
                _act("ITA_2000", "The Information Technology Act, 2000", 2000,
                     aliases=["IT Act", "I.T. Act", "Information Technology Act"]),
                _act("ITAX_1961", "The Income-tax Act, 1961", 1961,
                     aliases=["Income-tax Act", "Income Tax Act"])]
    sections = [*SECTIONS,
                {**_section("ITA_2000", "43A", "Compensation for failure to protect data",
                            "Where a body corporate is negligent ..."), "status": "in_force"},
                {**_section("ITAX_1961", "43A", "Special provisions consequential to changes "
                            "in rate of exchange of currency", "Notwithstanding ..."),
                 "status": "in_force"},
                {**_section("ITAX_1961", "44AD", "Special provision for computing profits and "
                            "gains of business on presumptive basis", "Notwithstanding ..."),
                 "status": "in_force"}]
    return StatuteChecker(registry, sections, TRANSITIONS)


@pytest.mark.parametrize(("text", "status", "act"), [
    # the Information Technology Act has no s.44AD; the Income-tax Act, "IT Act" too, has
    ("Section 44AD of the IT Act", VERIFIED, "ITAX_1961"),
    ("Section 44AD of the I.T. Act", VERIFIED, "ITAX_1961"),
    # both have a s.43A: the name is read as it is
    ("Section 43A of the IT Act", VERIFIED, "ITA_2000"),
    # the Act named in full, or a number neither has
    ("Section 44AD of the Information Technology Act", NOT_FOUND, "ITA_2000"),
    ("Section 999 of the IT Act", NOT_FOUND, "ITA_2000"),
])
def test_a_short_name_two_acts_go_by(namesake_checker, text, status, act):
    verdict = _one(text, namesake_checker)
    assert (verdict.status, verdict.act_code) == (status, act), verdict.reason
    result = namesake_checker.lookup.lookup(text)
    assert (result.status, result.act_code) == (status, act)
    if act == "ITAX_1961":
        says = "names ITA_2000, which has no section 44AD, and the Income-tax Act, 1961 too"
        assert says in verdict.reason and says in result.reason


# --- Names an Act goes by that are not its aliases (StatuteLookup.read_name) ----------------

@pytest.fixture(scope="module")
def named_checker() -> StatuteChecker:
    registry = [*REGISTRY,
                _act("WLPA_1972", "The Wild Life (Protection) Act, 1972", 1972, aliases=[]),
                _act("ACA_1996", "The Arbitration and Conciliation Act, 1996", 1996, aliases=[]),
                _act("BCATUA_1970", "The Banking Companies (Acquisition and Transfer of "
                     "Undertakings) Act, 1970", 1970, aliases=[]),
                _act("BCATUA_1980", "The Banking Companies (Acquisition and Transfer of "
                     "Undertakings) Act, 1980", 1980, aliases=[]),
                _act("CPIA_2022", "The Criminal Procedure (Identification) Act, 2022", 2022,
                     aliases=[]),
                _act("OANA_2011", "The Orissa (Alteration of Name) Act, 2011", 2011, aliases=[])]
    sections = [*SECTIONS, *({**_section(act, "9", "A section", "Text."), "status": "in_force"}
                             for act in ("WLPA_1972", "ACA_1996", "BCATUA_1970", "BCATUA_1980",
                                         "CPIA_2022", "OANA_2011"))]
    return StatuteChecker(registry, sections, TRANSITIONS)


@pytest.mark.parametrize(("text", "status", "act", "says"), [
    # the title without its bracketed words: one Act's, or several
    ("Section 9 of the Wild Life Act", VERIFIED, "WLPA_1972",
     "'Wild Life Act' read as the Wild Life (Protection) Act, 1972"),
    ("Section 9 of the Wild Life Act, 1972", VERIFIED, "WLPA_1972", "read as the Wild Life"),
    ("Section 9 of the Wild Life Act, 1986", NOT_FOUND, None, "could not be identified"),
    ("Section 9 of the Banking Companies Act", UNVERIFIABLE, None,
     "it may be the Banking Companies (Acquisition and Transfer of Undertakings) Act, 1970"),
    # bracketed words that carry the subject: one Act without them is a guess
    ("Section 9 of the Criminal Procedure Act", UNVERIFIABLE, None,
     "it may be the Criminal Procedure (Identification) Act, 2022"),
    # a State's name and "Act": an Act of that State, not the Act renaming it
    ("Section 9 of the Orissa Act", UNVERIFIABLE, None, "is an Act of Orissa"),
    # an amending Act of an Act the corpus holds: its principal Act holds the amendment
    ("Section 9 of the Arbitration and Conciliation (Amendment) Act, 2015", UNVERIFIABLE, None,
     "amends the Arbitration and Conciliation Act, 1996, which the corpus holds as amended"),
    # a State's Act, which the corpus does not hold; an Act of no State, no one knows
    ("Section 4 of the Bombay Prevention of Gambling Act, 1887", UNVERIFIABLE, None,
     "is an Act of Bombay; the corpus holds the central Acts only"),
    ("Section 4 of the Frobnicate Prevention Act", NOT_FOUND, None, "could not be identified"),
])
def test_names_an_act_goes_by(named_checker, text, status, act, says):
    verdict = _one(text, named_checker)
    assert (verdict.status, verdict.act_code) == (status, act), verdict.reason
    assert says in verdict.reason
    result = named_checker.lookup.lookup(text)
    assert (result.status, result.act_code) == (status, act)


@pytest.mark.parametrize("text", ["Section 482 of the Code", "Section 5 of the said Act",
                                  "s. 5 of this Act"])
def test_a_lookup_of_an_act_referred_to_but_not_named(checker, text):
    """Looked up alone, "the Code" names no Act: the Acts with the number are listed."""
    result = checker.lookup.lookup(text)
    assert result.status == UNVERIFIABLE
    assert "is not named, so it cannot be verified" in result.reason


def test_without_the_judgments_an_unread_act_is_not_found(checker):
    verdict = _one("Section 25F of the Industrial Disputes Act, 1947", checker)
    assert verdict.status == NOT_FOUND and "could not be identified" in verdict.reason


def test_an_act_the_registry_holds_is_never_taken_for_one_the_corpus_lacks():
    cited = [(judgment, "Indian Penal Code of 1860", provision_key("302"))
             for judgment in ("J1", "J2")]
    assert AbsentActs(cited).named("Indian Penal Code of 1860").corroborated
    held = AbsentActs(cited, held=alias_index_from_rows(REGISTRY))
    assert held.named("Indian Penal Code of 1860") is None


# --- Acts written as their titles' initials (StatuteLookup.read_name) ------------------------

INITIALLED_REGISTRY = [
    _act(code, title, year, aliases=[], era="post_constitution", applicable_from=None)
    for code, title, year in (
        ("PWDVA_2005", "The Protection of Women from Domestic Violence Act, 2005", 2005),
        ("SRA_1963", "The Specific Relief Act, 1963", 1963),
        ("SRA_1860", "The Societies Registration Act, 1860", 1860),
        ("CPA_2019", "The Consumer Protection Act, 2019", 2019))]
INITIALLED_SECTIONS = [
    {**_section(code, number, "A title", "Some text."), "status": "in_force"}
    for code, number in (("PWDVA_2005", "12"), ("SRA_1963", "10"), ("SRA_1860", "10"),
                         ("CPA_2019", "2"))]
# the corpus lacks the 1986 Consumer Protection Act and the Industrial Disputes Act (written
# two ways); one judgment only cites a General Sales Tax Act
INITIALLED_ABSENT = [
    ("J1", "Consumer Protection Act, 1986", "12"), ("J2", "Consumer Protection Act, 1986", "12"),
    ("J1", "Industrial Disputes Act, 1947", "25F"), ("J2", "Industrial Disputes Act, 1947", "25F"),
    ("J3", "Industrial Disputes Act, 1947", "25F"), ("J4", "I.D. Act, 1947", "25F"),
    ("J5", "I.D. Act, 1947", "25F"), ("J6", "General Sales Tax Act, 1939", "5")]


def _with_absent(registry: list[dict], sections: list[dict],
                 cited: list[tuple[str, str, str]]) -> StatuteChecker:
    """A checker whose Acts the corpus lacks are those `cited` (judgment, name, section)."""
    acts = AbsentActs((judgment, name, provision_key(section))
                      for judgment, name, section in cited)
    return StatuteChecker(registry, sections, [], absent_acts=lambda: acts)


@pytest.fixture(scope="module")
def initials_checker() -> StatuteChecker:
    return _with_absent(INITIALLED_REGISTRY, INITIALLED_SECTIONS, INITIALLED_ABSENT)


@pytest.mark.parametrize(("text", "status", "act", "says"), [
    # the one Act of those initials, held or cited by the judgments
    ("Section 12 of the PWDV Act", VERIFIED, "PWDVA_2005",
     "'PWDV Act' read as the initials of the Protection of Women from Domestic Violence Act, "
     "2005, the only Act"),
    ("Section 10 of the S.R. Act, 1963", VERIFIED, "SRA_1963", "read as the initials of the "
     "Specific Relief Act, 1963"),
    ("Section 2 of the CP Act, 2019", VERIFIED, "CPA_2019", "the Consumer Protection Act, 2019"),
    # a section the one Act lacks: not found there, as written in full
    ("Section 99 of the PWDV Act", NOT_FOUND, "PWDVA_2005", "has no section 99"),
    # initials of several Acts, or of an Act the corpus lacks: a guess, never NOT_FOUND
    ("Section 10 of the SR Act", UNVERIFIABLE, None, "'SR Act' is no name the registry holds; "
     "as initials it may be the Societies Registration Act, 1860 and the Specific Relief Act, "
     "1963: name the Act in full"),
    ("Section 2 of the CP Act", UNVERIFIABLE, None,
     "may be the Consumer Protection Act, 2019 and the Consumer Protection Act, 1986"),
    ("Section 25F of the ID Act", UNVERIFIABLE, None,
     "as initials it may be the Industrial Disputes Act, 1947: name"),
    # an Act one judgment cites, and initials of nothing known
    ("Section 5 of the GST Act", NOT_FOUND, None, "could not be identified"),
    ("Section 5 of the XQZ Act", NOT_FOUND, None, "could not be identified"),
])
def test_an_act_written_as_initials_is_the_one_act_of_them_or_a_guess(initials_checker, text,
                                                                      status, act, says):
    verdict = _one(text, initials_checker)
    assert (verdict.status, verdict.act_code) == (status, act)
    assert says in verdict.reason
    result = initials_checker.lookup.lookup(text)
    assert (result.status, result.act_code) == (status, act)
    if status == UNVERIFIABLE:  # the lookup's reason is the verifier's
        assert says in result.reason


@pytest.mark.parametrize(("text", "says"), [
    # the end of registry titles, or of the name of an Act the judgments cite
    ("Section 10 of the Relief Act", "shortened, it may be the Specific Relief Act, 1963, or an "
     "Act the corpus does not know: name the Act in full"),
    ("Section 2 of the Protection Act", "the Consumer Protection Act, 2019 and the Consumer "
     "Protection Act, 1986"),
    ("Section 25F of the Disputes Act, 1947", "the Industrial Disputes Act, 1947"),
])
def test_a_shortened_act_name_is_a_guess_naming_the_acts_it_may_be(initials_checker, text,
                                                                    says):
    """"The Stamp Act" may be the Indian Stamp Act, 1899, or a State's Stamp Act the corpus
    does not know: UNVERIFIABLE naming what it may be, never read as one Act, never
    NOT_FOUND."""
    verdict = _one(text, initials_checker)
    assert verdict.status == UNVERIFIABLE and says in verdict.reason, verdict.reason
    assert initials_checker.lookup.lookup(text).status == UNVERIFIABLE


def test_gst_act_is_a_guess_among_the_acts_of_those_initials():
    """"GST Act" is no registry title's initials; it is those of the Central and Integrated
    Goods and Services Tax Acts' last words, and of the General Sales Tax Act, 1939 that
    judgments cite: UNVERIFIABLE naming all three, never one read as meant."""
    registry = [_act(code, title, 2017, aliases=[], era="post_constitution",
                     applicable_from=None)
                for code, title in (("CGSTA_2017", "The Central Goods and Services Tax Act, 2017"),
                                    ("IGSTA_2017", "The Integrated Goods and Services Tax Act, "
                                     "2017"))]
    sections = [{**_section("CGSTA_2017", "16", "Eligibility for input tax credit", "Text."),
                 "status": "in_force"}]
    absent = [("J1", "General Sales Tax Act, 1939", "5"), ("J2", "General Sales Tax Act, 1939",
                                                           "5")]
    verdict = _one("Credit is claimed under Section 16 of the GST Act.",
                   _with_absent(registry, sections, absent))
    assert verdict.status == UNVERIFIABLE, verdict.reason
    assert ("as initials it may be the Central Goods and Services Tax Act, 2017, the Integrated "
            "Goods and Services Tax Act, 2017 and the General Sales Tax Act, 1939"
            ) in verdict.reason


# --- a provision the registry Act lacks, of the same-named Act of another year ---------------

OLDER_REGISTRY = [_act("CrPC_1973", "The Code of Criminal Procedure, 1973", 1973,
                       aliases=["CrPC", "Code of Criminal Procedure"], era="colonial_codes",
                       applicable_from="1974-04-01")]
OLDER_SECTIONS = [{**_section("CrPC_1973", "482", "Saving of inherent powers of High Court",
                              "Nothing in this Code shall be deemed to limit the inherent "
                              "powers."), "status": "in_force"}]
# the 1898 Code, which the corpus lacks: two judgments cite its s.491, one its s.561A
OLDER_ABSENT = [("J1", "Code of Criminal Procedure, 1898", "491"),
                ("J2", "Code of Criminal Procedure, 1898", "491"),
                ("J3", "Code of Criminal Procedure, 1898", "561A")]


@pytest.fixture(scope="module")
def older_checker() -> StatuteChecker:
    return _with_absent(OLDER_REGISTRY, OLDER_SECTIONS, OLDER_ABSENT)


@pytest.mark.parametrize(("text", "status", "says"), [
    # written without a year: it may be the older Code's, whose section two judgments cite
    ("Section 491 of the Code of Criminal Procedure", UNVERIFIABLE,
     "written without a year, it may be the Code of Criminal Procedure, 1898's, which the "
     "corpus does not hold: 2 corpus judgments cite its section 491 (J1, J2)"),
    ("Section 491 CrPC", UNVERIFIABLE, "Code of Criminal Procedure, 1898's"),
    # the 1973 Code named, a section one judgment cites, one no Code has: as before
    ("Section 491 of the Code of Criminal Procedure, 1973", NOT_FOUND, "has no section 491"),
    ("Section 561A of the Code of Criminal Procedure", NOT_FOUND, "has no section 561A"),
    ("Section 999 CrPC", NOT_FOUND, "has no section 999"),
    ("Section 482 of the Code of Criminal Procedure", VERIFIED, "exists"),
])
def test_a_section_the_act_lacks_may_be_its_older_namesakes(older_checker, text, status, says):
    verdict = _one(text, older_checker)
    assert (verdict.status, verdict.act_code) == (status, "CrPC_1973")
    assert says in verdict.reason
    result = older_checker.lookup.lookup(text)
    assert result.status == status and says in (result.reason or "exists")
    assert (result.older_act is not None) == (status == UNVERIFIABLE)
