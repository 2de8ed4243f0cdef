"""Act codes, aliases and exact lookup (pure logic, table-driven, on the fixture corpus)."""

from __future__ import annotations

import pytest

from nyaya.lookup import (
    NOT_FOUND,
    VERIFIED,
    StatuteLookup,
    parse_citation,
    provision_label,
    render_block,
)
from nyaya.statutes import frames
from nyaya.statutes.ingest import ingest_statutes
from nyaya.statutes.registry import (
    ActEntry,
    acronym,
    build_alias_index,
    derive_codes,
    initials,
    normalize_alias,
)
from nyaya.statutes.transitions import build_transition_map


@pytest.fixture(scope="module")
def lookup(fixture_corpus) -> StatuteLookup:
    corpus = ingest_statutes(fixture_corpus)
    registry = frames.registry_frame(corpus.registry)
    sections = frames.sections_frame(corpus.sections, registry)
    rows, _ = build_transition_map(fixture_corpus)
    return StatuteLookup(registry.to_dict("records"), sections.to_dict("records"),
                         frames.transition_frame(rows, sections).to_dict("records"),
                         build_alias_index(corpus.registry))


def test_every_curated_alias_is_a_name_no_other_act_claims():
    """A YAML flow list splits "Land Acquisition Act, 2013" at its comma into a name and a
    number; and an alias two curated Acts claim would read one of them wrongly."""
    from nyaya.statutes.registry import load_facts, shared_names
    claimed: dict[str, str] = {}
    for act in load_facts()["acts"]:
        for alias in act.get("aliases", []):
            assert isinstance(alias, str), (act["act_code"], alias)
            assert claimed.setdefault(normalize_alias(alias), act["act_code"]) == act["act_code"]
    for name, (read_as, others) in shared_names().items():
        assert claimed[name] == read_as and read_as not in others


def test_an_alias_with_a_year_names_its_act_only_with_that_year():
    index = build_alias_index([ActEntry(
        "RFCTLARRA_2013", "The Right to Fair Compensation and Transparency in Land Acquisition, "
        "Rehabilitation and Resettlement Act, 2013", 2013, "in_force", "modern", "civil_property",
        None, None, None, "indiacode", "x", None, "headings", True,
        ["LARR Act", "Land Acquisition Act 2013"])])
    assert index.resolve("Land Acquisition Act, 2013") == "RFCTLARRA_2013"
    assert index.loosely("the Land Acquisition Act") is None  # the 1894 Act's, mostly


@pytest.mark.parametrize(("text", "key"), [
    ("Cr.P.C.", "crpc"), ("Cr. P.C.", "crpc"), ("CrPC", "crpc"), ("I.P.C.", "ipc"),
    ("The Indian Penal Code, 1860", "indianpenalcode1860"), ("A&C Act", "aandcact"),
])
def test_normalize_alias(text, key):
    assert normalize_alias(text) == key


def _entry(code: str, title: str, year: float, aliases: list[str]) -> ActEntry:
    return ActEntry(act_code=code, title=title, year=year, status="in_force", era="test",
                    legal_domain="test", applicable_from=None, repealed_by=None,
                    repealed_on=None, source_kind="indiacode", source_path=f"test/{code}",
                    source_url=None, section_format="headings", curated=False, aliases=aliases)


LOOSE_REGISTRY = build_alias_index([
    _entry("SCSTPAA_1989", "The Scheduled Castes and the Scheduled Tribes (Prevention of "
           "Atrocities) Act, 1989", 1989.0, []),  # a year read from a table is a float
    _entry("RPA_1950", "The Representation of the People Act, 1950", 1950.0, []),
    _entry("RPA_1951", "The Representation of the People Act, 1951", 1951.0, []),
])


@pytest.mark.parametrize(("written", "act"), [
    # "the", "of" and "and" dropped or added; the year, when written, must be the Act's
    ("Scheduled Castes and Scheduled Tribes (Prevention of Atrocities) Act, 1989",
     "SCSTPAA_1989"),
    ("of the Scheduled Castes & Scheduled Tribes (Prevention of Atrocities) Act", "SCSTPAA_1989"),
    ("Representation of People Act, 1951", "RPA_1951"),
    ("Representation of People Act", None),  # two Acts: no telling which
    ("Scheduled Castes and Scheduled Tribes (Prevention of Atrocities) Act, 1995", None),
    ("Scheduled Castes Act", None),  # words dropped, not only "the", "of" and "and"
])
def test_a_name_read_loosely_is_one_act_or_none(written, act):
    assert LOOSE_REGISTRY.loosely(written) == act


@pytest.mark.parametrize(("written", "read", "acts"), [
    # capitals, dotted or not, before "Act", with the title's year when written
    ("of the SCSTPA Act", ("SCSTPAA", None), ["SCSTPAA_1989"]),
    ("the S.C.S.T.P.A. Act, 1989", ("SCSTPAA", "1989"), ["SCSTPAA_1989"]),
    ("RP Act", ("RPA", None), ["RPA_1950", "RPA_1951"]),
    ("RP Act, 1951", ("RPA", "1951"), ["RPA_1951"]),
    ("RP Act 1989", ("RPA", "1989"), []),
    ("RPA Act", ("RPAA", None), []),  # its "Act" twice: not read as RPA
    # not initials: words, one letter, lower case
    ("Representation of People Act", None, []),
    ("R Act", None, []),
    ("rp Act", None, []),
])
def test_a_name_written_as_initials_is_every_act_of_them(written, read, acts):
    assert initials(written) == read
    assert LOOSE_REGISTRY.by_initials(written) == acts


@pytest.mark.parametrize(("written", "acts"), [
    # the end of a title, of its year when written
    ("the Atrocities) Act", ["SCSTPAA_1989"]),
    ("People Act", ["RPA_1950", "RPA_1951"]),
    ("People Act, 1951", ["RPA_1951"]),
    # a whole title of two Acts (one is the aliases' to read); untelling words are no Act's
    ("Representation of the People Act", ["RPA_1950", "RPA_1951"]),
    ("Amendment Act", []),
    ("Act", []),
])
def test_a_shortened_name_is_every_act_whose_title_ends_so(written, acts):
    assert LOOSE_REGISTRY.by_ending(written) == acts


GST_REGISTRY = build_alias_index([
    _entry("CGSTA_2017", "The Central Goods and Services Tax Act, 2017", 2017.0, []),
    _entry("IGSTA_2017", "The Integrated Goods and Services Tax Act, 2017", 2017.0, []),
    _entry("CSTA_1956", "The Central Sales Tax Act, 1956", 1956.0, []),
    _entry("CSTA_1993", "The SAARC Convention (Suppression of Terrorism) Act, 1993", 1993.0, []),
])


@pytest.mark.parametrize(("written", "whole", "ending"), [
    # the initials of a title's last four words or more: the Goods and Services Tax Acts
    ("GST Act", [], ["CGSTA_2017", "IGSTA_2017"]),
    ("GST Act, 2017", [], ["CGSTA_2017", "IGSTA_2017"]),
    ("GST Act, 1939", [], []),
    # a whole title's initials, and a title's last words' ("Convention (Suppression of
    # Terrorism) Act"): the lookup reads the latter only when no whole title has them
    ("C.S.T. Act", ["CSTA_1956"], ["CSTA_1956", "CSTA_1993"]),
])
def test_initials_of_a_titles_last_words(written, whole, ending):
    assert GST_REGISTRY.by_initials(written) == whole
    assert GST_REGISTRY.by_ending_initials(written) == ending


@pytest.mark.parametrize(("title", "expected"), [
    ("The Advocates Act, 1961", "AA"),
    ("The Acquired Territories (Merger) Act, 1960", "ATMA"),
    ("The Hindu Marriage Act, 1955", "HMA"),
])
def test_acronym(title, expected):
    assert acronym(title) == expected


def test_derived_codes_hash_every_member_of_a_collision():
    codes = derive_codes({"the-advocates-act-1961": ("The Advocates Act, 1961", 1961),
                          "the-arms-act-1961": ("The Arms Act, 1961", 1961),
                          "the-tea-act-1953": ("The Tea Act, 1953", 1953)}, taken={"TA_1953"})
    assert codes["the-advocates-act-1961"].startswith("AA_1961_")
    assert codes["the-arms-act-1961"].startswith("AA_1961_")
    assert codes["the-advocates-act-1961"] != codes["the-arms-act-1961"]
    assert codes["the-tea-act-1953"].startswith("TA_1953_")  # curated codes are never reused


@pytest.mark.parametrize(("text", "act", "section", "unit"), [
    ("BNS 103", "BNS_2023", "103", None),
    ("s. 302 IPC", "IPC_1860", "302", None),
    ("Section 302 of the Indian Penal Code", "IPC_1860", "302", None),
    ("u/s 438 Cr.P.C.", "CrPC_1973", "438", None),
    ("BNS_2023 s.103", "BNS_2023", "103", None),
    ("Article 21", "COI", "21", None),
    ("Art. 21A of the Constitution", "COI", "21A", None),
    # a clause of an Article, the Constitution read without its name being written
    ("Article 19(1)(g)", "COI", "19", "(1)(g)"),
    ("Art. 311 (2) of the Constitution", "COI", "311", "(2)"),
    ("Article 243-O", "COI", "243O", None),
    ("Section 13(1)(ia) of the Hindu Marriage Act", "HMA_1955", "13", "(1)(ia)"),
    ("Section 13 of the Hindu Marriage Act, 1955", "HMA_1955", "13", None),
    ("498a IPC", "IPC_1860", "498A", None),
    ("section 65B Evidence Act", "IEA_1872", "65B", None),
    # India Code's dash before an I or O after a letter ("64U-I" of the Insurance Act)
    ("Section 45U-I of the Evidence Act", "IEA_1872", "45U-I", None),
    ("IEA 45U-I", "IEA_1872", "45U-I", None),
])
def test_parse_citation(lookup, text, act, section, unit):
    cited = parse_citation(text, lookup.aliases)
    assert (cited.act_code, cited.section_number, cited.unit, cited.problem) == (
        act, section, unit, None)


@pytest.mark.parametrize(("text", "reason"), [
    ("BNS 999", "BNS_2023 has no section 999"),
    ("Section 302 of the Imaginary Code", "Act not recognised"),
    ("murder", "no section number found"),
    # a known name with another year is another Act (the Consumer Protection Act, 1986 is not
    # the Act of 2019): not recognised, never the wrong Act's section
    ("Section 13 of the Hindu Marriage Act, 1956", "Act not recognised"),
    # an alias inside a word is not the Act: "HMA" in "SHMA", as "TPA" in "COTPA" was read as
    # the Transfer of Property Act
    ("Section 13 of SHMA", "Act not recognised"),
])
def test_not_found_says_why(lookup, text, reason):
    result = lookup.lookup(text)
    assert result.status == NOT_FOUND
    assert reason in result.reason
    block = render_block(result)
    assert "check the Act and the section number" in block
    assert "from the response" not in block  # a person looking it up has no response


def test_bns_103_verified_block(lookup):
    result = lookup.lookup("BNS 103")
    assert (result.status, result.title, result.chapter_number) == (
        VERIFIED, "Punishment for murder", "VI")
    block = render_block(result)
    assert block.startswith("CITATION VERIFIED: BNS_2023 s.103\n")
    assert "Applicable from: 2024-07-01" in block and "Era: naveen_sanhitas" in block


def test_repealed_section_names_its_successor(lookup):
    result = lookup.lookup("IPC 302")
    assert result.status == VERIFIED and result.section_status == "repealed"
    assert [(s["act_code"], s["section_number"], s["relation"]) for s in result.successors] == [
        ("BNS_2023", "103", "same")]


def test_successor_tables_merge_sub_section_targets(lookup):
    successors = lookup.lookup("IPC 420").successors
    assert successors == [{"act_code": "BNS_2023", "section_number": "318", "relation": "merge",
                           "units": ["318(4)"], "source_tables": ["ipc_bns_csv", "ipc_bns_jsonl"],
                           "disagreement": False}]


def test_disagreeing_tables_are_both_kept_and_flagged(lookup):
    successors = lookup.lookup("IPC 498A").successors
    assert {(s["section_number"], s["disagreement"]) for s in successors} == {
        ("85", True), ("86", True)}


def test_new_code_section_lists_predecessors(lookup):
    result = lookup.lookup("BNSS 482")
    assert [(p["act_code"], p["section_number"]) for p in result.predecessors] == [
        ("CrPC_1973", "438")]


def test_false_friend_is_found_but_is_not_murder(lookup):
    # BNS 302 exists (religious feelings): existence alone must not be read as "murder".
    result = lookup.lookup("BNS 302")
    assert result.status == VERIFIED and "religious" in result.title


@pytest.mark.parametrize(("act", "number", "unit", "label"), [
    ("BNS_2023", "103", "(1)", "BNS_2023 s.103(1)"),
    ("COI", "21", None, "COI Art.21"),  # the Constitution is numbered in Articles
    (None, None, None, "? s.?"),
])
def test_provision_label(act, number, unit, label):
    assert provision_label(act, number, unit) == label


def test_a_missing_chapter_title_is_left_out_not_printed_as_nan(lookup, monkeypatch):
    row = dict(lookup.sections[("BNS_2023", "103")], chapter_title=float("nan"))
    monkeypatch.setitem(lookup.sections, ("BNS_2023", "103"), row)  # as pandas gives it
    block = render_block(lookup.lookup("BNS 103"))
    assert "Chapter: VI\n" in block and "nan" not in block
    article = lookup.lookup("Article 21")
    assert render_block(article).startswith("CITATION VERIFIED: COI Art.21")


@pytest.mark.parametrize(("text", "preview"), [
    ("liable to fine..\n\n(2) When", "liable to fine. (2) When"),
    ("and so on... the rest", "and so on... the rest"),  # an ellipsis stays
    ("ends with fine..", "ends with fine."),
])
def test_the_preview_reads_a_doubled_stop_as_one(lookup, monkeypatch, text, preview):
    row = dict(lookup.sections[("BNS_2023", "103")], text=text)
    monkeypatch.setitem(lookup.sections, ("BNS_2023", "103"), row)
    monkeypatch.setattr(lookup, "_previews", {})
    assert lookup.lookup("BNS 103").text_preview == preview
