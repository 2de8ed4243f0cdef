"""Statute-mention and case-citation extraction: the forms judgments use, the false positives
they invite, and robustness on arbitrary and adversarial text."""

from __future__ import annotations

import time

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nyaya.citations.cases import (
    CaseCitation,
    case_name_key,
    extract_case_citations,
    parse_case_citation,
)
from nyaya.citations.statutes import StatuteMention, extract_statute_mentions
from nyaya.statutes.registry import ActEntry, AliasIndex, build_alias_index

ACTS = [
    ("IPC_1860", "The Indian Penal Code, 1860", 1860,
     ["IPC", "I.P.C.", "Indian Penal Code", "Penal Code", "Indian Penal Code 1860"]),
    ("CrPC_1973", "The Code of Criminal Procedure, 1973", 1973,
     ["CrPC", "Cr.P.C.", "Cr. P.C.", "CRPC", "Code of Criminal Procedure",
      "Criminal Procedure Code"]),
    ("COI", "The Constitution of India", 1950,
     ["Constitution", "Constitution of India", "Indian Constitution", "COI"]),
    ("CPC_1908", "The Code of Civil Procedure, 1908", 1908,
     ["CPC", "C.P.C.", "Code of Civil Procedure", "Civil Procedure Code"]),
    ("HMA_1955", "The Hindu Marriage Act, 1955", 1955, ["HMA", "Hindu Marriage Act", "H.M. Act"]),
    ("PCA_1988", "The Prevention of Corruption Act, 1988", 1988,
     ["PC Act", "Prevention of Corruption Act"]),
    ("BNS_2023", "The Bharatiya Nyaya Sanhita, 2023", 2023,
     ["BNS", "B.N.S.", "Bharatiya Nyaya Sanhita"]),
    ("IEA_1872", "The Indian Evidence Act, 1872", 1872,
     ["IEA", "I.E.A.", "Evidence Act", "Indian Evidence Act"]),
    ("LA_1963", "The Limitation Act, 1963", 1963, ["Limitation Act"]),
    ("ITAX_1961", "The Income-tax Act, 1961", 1961, ["Income-tax Act", "Income Tax Act"]),
    ("SCSTPAA_1989", "The Scheduled Castes and the Scheduled Tribes (Prevention of Atrocities) "
     "Act, 1989", 1989, ["SC/ST Act", "Atrocities Act"]),
    ("COTPPARTCPSDA_2003", "The Cigarettes and Other Tobacco Products (Prohibition of "
     "Advertisement and Regulation of Trade and Commerce, Production, Supply and Distribution) "
     "Act, 2003", 2003, ["COTPA"]),
]


def _entry(code: str, title: str, year: int, aliases: list[str]) -> ActEntry:
    return ActEntry(act_code=code, title=title, year=year, status="in_force", era="test",
                    legal_domain="test", applicable_from=None, repealed_by=None,
                    repealed_on=None, source_kind="indiacode", source_path=f"test/{code}",
                    source_url=None, section_format="headings", curated=True,
                    aliases=aliases)


@pytest.fixture(scope="module")
def aliases() -> AliasIndex:
    return build_alias_index([_entry(*act) for act in ACTS])


def _triples(text: str, aliases: AliasIndex) -> list[tuple[str | None, str | None, str | None]]:
    return [(m.act_code, m.section, m.unit) for m in extract_statute_mentions(text, aliases)]


# --- statute mentions: the forms -----------------------------------------------------------

STATUTE_FORMS = [
    ("Section 302 IPC", [("IPC_1860", "302", None)]),
    ("convicted under section 302 of the Indian Penal Code, 1860 and sentenced",
     [("IPC_1860", "302", None)]),
    ("s. 34 of the Indian Penal Code", [("IPC_1860", "34", None)]),
    ("bail u/s 438 Cr.P.C. was refused", [("CrPC_1973", "438", None)]),
    ("under Sec. 498-A I.P.C. the husband", [("IPC_1860", "498A", None)]),
    ("Sections 120B, 420 IPC", [("IPC_1860", "120B", None), ("IPC_1860", "420", None)]),
    ("Sections 302/34 IPC", [("IPC_1860", "302", None), ("IPC_1860", "34", None)]),
    # four letters after the number: the Income-tax Act's 115BBDA and 80JJAA
    ("Sec. 115BBDA of the Income-tax Act applies", [("ITAX_1961", "115BBDA", None)]),
    ("a deduction under Section 80JJAA of the Income-tax Act, 1961",
     [("ITAX_1961", "80JJAA", None)]),
    ("Section 8OHHL of the Income-tax Act", []),  # OCR's 80HHC: no such form
    ("Section 302 read with Section 34 of the IPC",
     [("IPC_1860", "302", None), ("IPC_1860", "34", None)]),
    ("u/s. 302 read with 34 IPC", [("IPC_1860", "302", None), ("IPC_1860", "34", None)]),
    ("The Hindu Marriage Act applies. Sections 3 to 5 of the Act",
     [("HMA_1955", "3", None), ("HMA_1955", "4", None), ("HMA_1955", "5", None)]),
    ("Sections 3 to 40 of the Hindu Marriage Act",  # too long a range: the ends only
     [("HMA_1955", "3", None), ("HMA_1955", "40", None)]),
    ("ss. 14(1) and 39(2) of the Hindu Marriage Act",
     [("HMA_1955", "14", "(1)"), ("HMA_1955", "39", "(2)")]),
    ("Section 13(1)(ia) of the Hindu Marriage Act", [("HMA_1955", "13", "(1)(ia)")]),
    ("clause (a) of sub-section (1) of Section 13 of the Hindu Marriage Act",
     [("HMA_1955", "13", "(1)(a)")]),
    ("Article 21 of the Constitution", [("COI", "21", None)]),
    ("Articles 14, 19 and 21", [("COI", "14", None), ("COI", "19", None), ("COI", "21", None)]),
    ("a petition under Art. 226", [("COI", "226", None)]),
    ("Article 19(1)(g) of the Constitution of India", [("COI", "19", "(1)(g)")]),
    ("Order XXXIX Rule 1 CPC", [("CPC_1908", "O39R1", None)]),
    ("Order 39 Rule 1 and 2 of the Code of Civil Procedure",
     [("CPC_1908", "O39R1", None), ("CPC_1908", "O39R2", None)]),
    ("O. VI, r. 17 or O. 1, r. 10 of the Civil Procedure Code",
     [("CPC_1908", "O6R17", None), ("CPC_1908", "O1R10", None)]),
    ("Order 7 Rule 11(d) CPC", [("CPC_1908", "O7R11", "(d)")]),
    ("section 3 of the Prevention of Corruption Act, 1988", [("PCA_1988", "3", None)]),
    ("BNS_2023 s.103", [("BNS_2023", "103", None)]),
    ("BNS s. 103(1)", [("BNS_2023", "103", "(1)")]),
    ("s.103(1) BNS", [("BNS_2023", "103", "(1)")]),
    ("Section 304 Part II IPC", [("IPC_1860", "304", "Part II")]),
    ("sections 121, 132, 302, etc., of the Indian Penal Code",
     [("IPC_1860", "121", None), ("IPC_1860", "132", None), ("IPC_1860", "302", None)]),
    ("Section 65-B of the Evidence Act", [("IEA_1872", "65B", None)]),
    # India Code's dash before an I or O after a letter ("64U-I" of the Insurance Act), not a
    # range of letters
    ("Section 45U-I of the Evidence Act", [("IEA_1872", "45UI", None)]),
    # a range of one number's lettered sections cites every letter between
    ("Sections 376A-376D IPC", [("IPC_1860", f"376{letter}", None) for letter in "ABCD"]),
    ("Sections 376A-D IPC", [("IPC_1860", f"376{letter}", None) for letter in "ABCD"]),
    ("Sections 376A to 376C of the IPC", [("IPC_1860", f"376{letter}", None) for letter in "ABC"]),
    ("Sections 376A-376 IPC", [("IPC_1860", "376A", None), ("IPC_1860", "376", None)]),
    ("Section 302 IPC and Section 65 of the Evidence Act",
     [("IPC_1860", "302", None), ("IEA_1872", "65", None)]),
    ("§ 302 IPC", [("IPC_1860", "302", None)]),
    # the registry's longest title, 21 words (16 were tried until 2026-12-05)
    ("Section 5 of the Cigarettes and Other Tobacco Products (Prohibition of Advertisement and "
     "Regulation of Trade and Commerce, Production, Supply and Distribution) Act, 2003",
     [("COTPPARTCPSDA_2003", "5", None)]),
]


@pytest.mark.parametrize(("text", "expected"), STATUTE_FORMS)
def test_statute_forms(text: str, expected: list, aliases: AliasIndex) -> None:
    assert _triples(text, aliases) == expected


STATUTE_NEGATIVES = [
    "the section of the public that objected",
    "the Section Officer signed the order",
    "see page 302 and para 34 of the judgment",
    "the Act, 1956 came into force in 1956",
    "Rule 5 of the Service Rules was not followed",
    "an Article in the newspaper said so",
    "Clause 11.4 and Art. 11.4 of the Side Letter",
    "Section 5 of the agreement between the parties",
    "Article 12 of the Articles of Association",
    "in order 5 of 2001 the court",
    "sub-section 3 was added later",
    "the 3rd section of the road",
    "",
]


@pytest.mark.parametrize("text", STATUTE_NEGATIVES)
def test_statute_negatives(text: str, aliases: AliasIndex) -> None:
    assert extract_statute_mentions(text, aliases) == []


def test_group_and_number_spans(aliases: AliasIndex) -> None:
    text = "He was convicted under Sections 120B, 420 IPC by the trial court."
    mentions = extract_statute_mentions(text, aliases)
    assert [text[m.start:m.end] for m in mentions] == ["120B", "420"]
    assert {m.text for m in mentions} == {"Sections 120B, 420 IPC"}
    assert all(m.kind == "section" and m.act_text == "IPC" for m in mentions)
    assert all(m.resolution == "explicit" and m.problem is None for m in mentions)


def test_act_text_keeps_the_written_form(aliases: AliasIndex) -> None:
    [mention] = extract_statute_mentions("section 302 of the Indian Penal Code, 1860.", aliases)
    assert mention.act_text == "of the Indian Penal Code, 1860"
    assert mention.text == "section 302 of the Indian Penal Code, 1860"


# --- statute mentions: resolution -----------------------------------------------------------

RESOLUTIONS = [
    # the Act named in the phrase
    ("Section 302 IPC", [("302", "IPC_1860", "explicit", None)]),
    # "the Act" is the Act named last; "the Code" the Code named last
    ("The Hindu Marriage Act, 1955 governs. Section 13 of the Act allows divorce.",
     [("13", "HMA_1955", "context", None)]),
    ("Under the Indian Penal Code and the Code of Civil Procedure, Section 151 of the Code",
     [("151", "CPC_1908", "context", None)]),
    ("the Code of Criminal Procedure and the Evidence Act. Section 313 of the said Code",
     [("313", "CrPC_1973", "context", None)]),
    # a defined short name beats "the most recent Act"
    ("the Indian Penal Code (hereinafter 'the Code') and the Code of Civil Procedure. "
     "Section 300 of the Code", [("300", "IPC_1860", "context", None)]),
    ("the Prevention of Corruption Act, 1988 (in short 'the 1988 Act') and the Evidence Act. "
     "Section 13 of the 1988 Act", [("13", "PCA_1988", "context", None)]),
    # a bare section takes the Act named shortly before it
    ("The Indian Penal Code is the general law. Section 302 punishes murder.",
     [("302", "IPC_1860", "context", None)]),
    ("the said Section 10 was not complied with", [("10", None, "unresolved", "act not named")]),
    ("Section 5 of the Act", [("5", None, "unresolved", "act not named")]),
    # Articles are the Constitution's unless another instrument is named
    ("Art. 226", [("226", "COI", "context", None)]),
    ("Article 14 of the ICCPR",
     [("14", None, "unresolved", "act name not in registry: ICCPR")]),
    # an Act that is named but not in the registry, here or through "the Act"
    ("Section 5 of the Foreigners Act, 1946 and Section 6 of the Act",
     [("5", None, "unresolved", "act name not in registry: Foreigners Act, 1946"),
      ("6", None, "unresolved", "act name not in registry: Foreigners Act, 1946")]),
    # an unknown name reads on over an apostrophe's "s", after the section or before it
    ("Section 4 of the Workmen's Compensation Act, 1923",
     [("4", None, "unresolved", "act name not in registry: Workmen's Compensation Act, 1923")]),
    ("under the Workmen’s Compensation Act, 1923, Section 4",
     [("4", None, "unresolved", "act name not in registry: Workmen’s Compensation Act, 1923")]),
    # a known name with another year is another Act
    ("Section 3 of the Prevention of Corruption Act, 1947",
     [("3", None, "unresolved",
       "act name not in registry: Prevention of Corruption Act, 1947")]),
    # an Act cited by number
    ("Section 2 of Act 5 of 1956", [("2", None, "unresolved",
                                      "act name not in registry: Act 5 of 1956")]),
    # Orders without a Code named are the CPC's
    ("Order 41 Rule 27", [("O41R27", "CPC_1908", "context", None)]),
    # an Act cited by the acronym of its popular name, a slash inside
    ("Section 3(1)(r) of the SC/ST Act", [("3", "SCSTPAA_1989", "explicit", None)]),
    # one beyond the CPC's 51 Orders is read all the same: the verifier says it does not exist
    ("Order LX Rule 3 CPC", [("O60R3", "CPC_1908", "explicit", None)]),
    # a bare Article just after the Limitation Act is its Schedule's, within its 137 Articles
    ("The suit is barred under the Limitation Act, 1963. Article 58 applies.",
     [("58", "LA_1963", "context", None)]),
    ("The suit is barred under the Limitation Act, 1963. A writ under Article 226 lies.",
     [("226", "COI", "context", None)]),
]


@pytest.mark.parametrize(("text", "expected"), RESOLUTIONS)
def test_resolution(text: str, expected: list, aliases: AliasIndex) -> None:
    got = [(m.section, m.act_code, m.resolution, m.problem)
           for m in extract_statute_mentions(text, aliases)]
    assert got == expected


# Short forms without a number: (phrase, act_code, section, unit, resolution, problem, the
# antecedent's text), for the short-form mentions only.
NO_ANTECEDENT = "short form with no provision cited in the 3000 characters before it"
STATUTE_SHORT_FORMS = [
    ("Section 302 IPC applies. The said section prescribes death.",
     [("The said section", "IPC_1860", "302", None, "short_form", None, "302")]),
    ("He was tried under Section 498-A IPC; under that section cruelty is punished.",
     [("that section", "IPC_1860", "498A", None, "short_form", None, "498-A")]),
    ("Article 21 of the Constitution and Section 302 IPC. The same section was applied.",
     [("The same section", "IPC_1860", "302", None, "short_form", None, "302")]),
    # "section" skips an Article cited after it; "provision" takes any kind
    ("Section 302 IPC and Article 21. The said section and the said provision.",
     [("The said section", "IPC_1860", "302", None, "short_form", None, "302"),
      ("the said provision", "COI", "21", None, "short_form", None, "21")]),
    ("Order 39 Rule 1 CPC was invoked. The aforesaid provision", [
        ("The aforesaid provision", "CPC_1908", "O39R1", None, "short_form", None, "1")]),
    # the antecedent's unit, or the one written before the short form
    ("Section 13(1)(ia) of the Hindu Marriage Act. The said section", [
        ("The said section", "HMA_1955", "13", "(1)(ia)", "short_form", None, "13(1)(ia)")]),
    ("Section 13 of the Hindu Marriage Act. Sub-section (2) of that section says", [
        ("that section", "HMA_1955", "13", "(2)", "short_form", None, "13")]),
    # the last provision before it, not the first
    ("Section 302 IPC. Section 65 of the Evidence Act. Under the said section", [
        ("the said section", "IEA_1872", "65", None, "short_form", None, "65")]),
    # an unresolved antecedent stays unresolved, for the same reason
    ("Section 5 of the Act. The said section is unclear.",
     [("The said section", None, "5", None, "unresolved", "act not named", "5")]),
    # nothing cited before it, or several provisions at once: which one is meant is unknown
    ("The said provision is void.",
     [("The said provision", None, None, None, "unresolved",
       NO_ANTECEDENT, None)]),
    ("Article 21 applies. That section is wide.",
     [("That section", None, None, None, "unresolved",
       NO_ANTECEDENT, None)]),
    ("Section 302 IPC applies. " + "Nothing relevant here. " * 150 + "The said section",
     [("The said section", None, None, None, "unresolved", NO_ANTECEDENT, None)]),
    ("Sections 302/34 IPC apply. The said section is clear.",
     [("The said section", None, None, None, "unresolved",
       "short form after several provisions cited together (302, 34): which one it means "
       "is unclear", None)]),
]


@pytest.mark.parametrize(("text", "expected"), STATUTE_SHORT_FORMS)
def test_statute_short_forms(text: str, expected: list, aliases: AliasIndex) -> None:
    # a short form's span is its phrase: it has no number of its own
    got = [(m.text, m.act_code, m.section, m.unit, m.resolution, m.problem,
            text[m.antecedent[0]:m.antecedent[1]] if m.antecedent else None)
           for m in extract_statute_mentions(text, aliases)
           if (m.start, m.end) == (m.group_start, m.group_end)]
    assert got == expected


@pytest.mark.parametrize("text", [
    "Section 302 IPC. so that provision is made for the poor",
    "Section 302 IPC. that section of the society objected",
    "Section 302 IPC. the same provision in the Rules",
    "Section 302 IPC. the said sections apply",  # plural: not one provision
    "Section 302 IPC. the said sub-section applies",
    "Section 302 IPC. the said Section 10 applies",  # numbered: read as a citation
    "Section 302 IPC. same section",
    "Section 302 IPC. the unsaid section",
])
def test_statute_short_form_negatives(text: str, aliases: AliasIndex) -> None:
    assert [m.resolution for m in extract_statute_mentions(text, aliases)
            if m.resolution == "short_form" or m.section is None] == []
    assert all(m.antecedent is None for m in extract_statute_mentions(text, aliases))


def test_bare_section_far_from_any_act_is_unresolved(aliases: AliasIndex) -> None:
    text = "The Indian Penal Code was enacted. " + "Nothing relevant here. " * 200
    text += "Section 302 is then mentioned."
    [mention] = extract_statute_mentions(text, aliases)
    assert (mention.act_code, mention.resolution, mention.problem) == (
        None, "unresolved", "act not named")


def test_longest_alias_wins(aliases: AliasIndex) -> None:
    # "Penal Code" and "Indian Penal Code" are both aliases; the phrase names the longer one.
    [mention] = extract_statute_mentions("s. 120B of the Indian Penal Code", aliases)
    assert mention.act_text == "of the Indian Penal Code"
    assert mention.act_code == "IPC_1860"


def test_ambiguous_alias_is_reported() -> None:
    index = build_alias_index([
        _entry("PA_1861", "The Police Act, 1861", 1861, []),
        _entry("PA_1949", "The Police Act, 1949", 1949, []),
    ])
    [mention] = extract_statute_mentions("Section 7 of the Police Act", index)
    assert mention.act_code is None
    assert mention.resolution == "unresolved"
    assert mention.problem == "ambiguous act alias: PA_1861, PA_1949"


# --- case citations -------------------------------------------------------------------------

CITATION_KEYS = [
    ("1995 (6) SCC 315", "(1995) 6 SCC 315"),
    ("(1995) 6 SCC 315", "(1995) 6 SCC 315"),
    ("1995 SCC (6) 315", "(1995) 6 SCC 315"),
    ("[2000] 1 SCC 358", "(2000) 1 SCC 358"),
    ("(1994) Supp (3) SCC 5", "(1994) Supp 3 SCC 5"),
    ("1992 Suppl.(1) SCC 335", "(1992) Supp 1 SCC 335"),
    ("1980 Suppl. SCC 27", "(1980) Supp SCC 27"),
    ("1995 (7) JT 225", "JT 1995 (7) SC 225"),
    ("JT 2004 (6) SC 299", "JT 2004 (6) SC 299"),
    ("1995 (5) SCALE 690", "(1995) 5 SCALE 690"),
    ("1985 (3) Suppl.SCR 264", "[1985] Supp 3 SCR 264"),
    ("[1962] Suppl, 3 S.C.R. 724", "[1962] Supp 3 SCR 724"),
    ("[1996] SUPP. 4 S.C.R. 393", "[1996] Supp 4 SCR 393"),  # the registry writes capitals
    ("(1994) SUPP (3) SCC 5", "(1994) Supp 3 SCC 5"),
    ("JT 1986 SC 619", "JT 1986 SC 619"),  # no volume
    ("[1974] INSC 106", "1974 INSC 106"),
    ("2019 INSC 770", "2019 INSC 770"),
    ("AIR 1974 SC 1389", "AIR 1974 SC 1389"),
    ("1974 AIR 1389", "AIR 1974 SC 1389"),
    ("AIR 1960 Bom 12", "AIR 1960 Bom 12"),
    ("A.I.R. 1945 P.C. 151", "AIR 1945 PC 151"),
    ("AIR (1945) PC 118", "AIR 1945 PC 118"),
    ("1991 AIR(Orissa) 283", "AIR 1991 Ori 283"),
    ("1964 SCR (3) 787", "[1964] 3 SCR 787"),
    ("[2019] 9 S.C.R. 593", "[2019] 9 SCR 593"),
    ("1975 (1) SCR 173", "[1975] 1 SCR 173"),
    ("(1975) 1 SCR 173", "[1975] 1 SCR 173"),
    ("1953 SCR 136", "[1953] SCR 136"),
    ("(1970) 77 I.T.R. 27", "(1970) 77 ITR 27"),
    ("2004 Cri.LJ 28", "(2004) Cri LJ 28"),
    ("1990 Cri LJ 1234", "(1990) Cri LJ 1234"),
    ("[1944] A.C. 315", "(1944) AC 315"),
    ("2003 Indlaw SC 512", "2003 Indlaw SC 512"),
    # ILR: a volume of the numbering kept until about 1950 is keyed without its year, so the
    # forms with and without the year meet; a later one keeps it (volumes restart each year)
    ("(1903) ILR 30 Cal 539", "ILR 30 Cal 539"),
    ("ILR 30 Calcutta 539", "ILR 30 Cal 539"),
    ("I.L.R. 47 Bom. 578", "ILR 47 Bom 578"),
    ("I. L. R. 47 Bombay 509", "ILR 47 Bom 509"),
    ("I.L.R. (1906) XXXIII Cal. 227", "ILR 33 Cal 227"),  # a Roman volume
    ("ILR (1880) 4 Bombay 330", "ILR 4 Bom 330"),
    ("I.L.R. (1951) 2 All. 62", "ILR (1951) 2 All 62"),
    ("I.L.R. [1969] 2 Kerala 71", "ILR (1969) 2 Ker 71"),
    ("ILR 1991 Kar. 2248", "ILR 1991 Kant 2248"),  # a year, no volume
    ("I.L.R. [1954] Mad. 867", "ILR 1954 Mad 867"),
    ("I.L.R. 1967 P & H 278", "ILR 1967 P&H 278"),
    ("1966 (2) ILR(P&H) 428", "ILR (1966) 2 P&H 428"),  # year and volume before it
    ("AIR 1952 Madras 613", "AIR 1952 Mad 613"),  # a court written out
    ("[1939] F.C.R. 18", "(1939) FCR 18"),
]


@pytest.mark.parametrize(("raw", "key"), CITATION_KEYS)
def test_parse_case_citation_keys(raw: str, key: str) -> None:
    citation = parse_case_citation(raw)
    assert citation is not None
    assert citation.key == key
    assert citation.text == raw


def test_parsed_fields() -> None:
    scc = parse_case_citation("(1994) Supp (3) SCC 5")
    assert scc is not None
    assert (scc.kind, scc.reporter, scc.year, scc.volume, scc.page, scc.supplementary) == (
        "reporter", "SCC", 1994, "3", "5", True)
    air = parse_case_citation("AIR 1960 Bom 12")
    assert air is not None
    assert (air.reporter, air.year, air.court, air.page) == ("AIR", 1960, "Bom", "12")
    neutral = parse_case_citation("[1974] INSC 106")
    assert neutral is not None
    assert (neutral.kind, neutral.reporter, neutral.year, neutral.page) == (
        "neutral", "INSC", 1974, "106")


@pytest.mark.parametrize("raw", ["", "the appellant", "1995 (6) 315", "AIR", "SCC 315",
                                 "Section 302 IPC", "in 1995 the SCC was",
                                 "ILR Bom. 915",  # neither year nor volume
                                 "the ILR 30 series"])  # no court
def test_parse_case_citation_rejects(raw: str) -> None:
    assert parse_case_citation(raw) is None


def _kinds_keys(text: str) -> list[tuple[str, str | None]]:
    return [(c.kind, c.key) for c in extract_case_citations(text)]


CASE_TEXTS = [
    ("In Maneka Gandhi v. Union of India this Court held that",
     [("case_name", "maneka gandhi v union of india")]),
    ("as held in Maneka Gandhi v. Union of India, AIR 1978 SC 597, the procedure",
     [("reporter", "AIR 1978 SC 597")]),
    ("See K.M. Nanavati v. State of Maharashtra (1962) Supp 1 SCR 567 : AIR 1962 SC 605.",
     [("reporter", "[1962] Supp 1 SCR 567"), ("reporter", "AIR 1962 SC 605")]),
    ("In State of U.P. v. Ram Singh and Union of India & Ors. v. Tulsiram Patel the",
     [("case_name", "state of u p v ram singh"),
      ("case_name", "union of india v tulsiram patel")]),
    ("The decision in M/s. Tata Iron & Steel Co. Ltd. v. State of Bihar & Ors. was",
     [("case_name", "tata iron and steel co ltd v state of bihar")]),
    ("as observed in Maneka Gandhi (supra) and in Nanavati's case (supra).",
     [("short_form", None), ("short_form", None)]),
    ("This court in [?CITATION?] settled that", [("masked", None)]),
    ("Part V of the Act and Schedule V. The rest", []),
    ("the sum of Rs. 5 v. 10 was paid; v. v. v.", []),
    ("in the year 1995 the (6) volume", []),
    ("Mohori Bibee v. Dharmodas Ghose, (1903) ILR 30 Cal 539, held so.",
     [("reporter", "ILR 30 Cal 539")]),
    ("(2) [(1926) I. L. R. 53] Cal. 827.",  # brackets as the scanned reports misplace them
     [("reporter", "ILR 53 Cal 827")]),
]


@pytest.mark.parametrize(("text", "expected"), CASE_TEXTS)
def test_case_citations_in_text(text: str, expected: list) -> None:
    assert _kinds_keys(text) == expected


# Short forms: (text, [(as written, form, kind, key, the antecedent as written)]) for the
# short forms only; kind "short_form" and no key when nothing before them fits.
CASE_SHORT_FORMS = [
    ("In Maneka Gandhi v. Union of India, AIR 1978 SC 597, the Court held so. Ibid., para 12.",
     [("Ibid.", "ibid", "reporter", "AIR 1978 SC 597", "AIR 1978 SC 597")]),
    ("as held in Maneka Gandhi v. Union of India (ibid) and (ibid.)",
     [("(ibid)", "ibid", "case_name", "maneka gandhi v union of india",
       "Maneka Gandhi v. Union of India"),
      ("(ibid.)", "ibid", "case_name", "maneka gandhi v union of india",
       "Maneka Gandhi v. Union of India")]),
    ("See State of U.P. v. Ram Singh, 2019 INSC 5. Id. at 45; see id., para 3 (id.).",
     [("Id.", "id.", "neutral", "2019 INSC 5", "2019 INSC 5"),
      ("id.", "id.", "neutral", "2019 INSC 5", "2019 INSC 5"),
      ("(id.)", "id.", "neutral", "2019 INSC 5", "2019 INSC 5")]),
    ("See State of U.P. v. Ram Singh, 2019 INSC 5, holding \"no bail.\" Id. at 45.",
     [("Id.", "id.", "neutral", "2019 INSC 5", "2019 INSC 5")]),
    # "ibid" is the citation just before it, a short form's included
    ("Maneka Gandhi v. Union of India, AIR 1978 SC 597 and Rustom Cavasjee Cooper v. Union of "
     "India, AIR 1970 SC 564. Maneka Gandhi (supra); ibid.",
     [("Maneka Gandhi (supra)", "supra", "reporter", "AIR 1978 SC 597", "AIR 1978 SC 597"),
      ("ibid.", "ibid", "reporter", "AIR 1978 SC 597", "AIR 1978 SC 597")]),
    # supra: the party name, either side, of the last such case; parallel citations: the first
    ("See K.M. Nanavati v. State of Maharashtra (1962) Supp 1 SCR 567 : AIR 1962 SC 605. "
     "In Nanavati's case (supra) the jury was discharged.",
     [("Nanavati's case (supra)", "supra", "reporter", "[1962] Supp 1 SCR 567",
       "(1962) Supp 1 SCR 567")]),
    ("In Union of India v. Tulsiram Patel the Court held so; Tulsiram Patel (supra) governs.",
     [("Tulsiram Patel (supra)", "supra", "case_name", "union of india v tulsiram patel",
       "Union of India v. Tulsiram Patel")]),
    ("In Ram v. Shyam, AIR 1960 SC 1, and Ram v. Mohan, AIR 1961 SC 2. Ram, supra, held.",
     [("Ram, supra", "supra", "reporter", "AIR 1961 SC 2", "AIR 1961 SC 2")]),
    # nothing to refer to: no citation before it, or none with that name
    ("Ibid., para 12.", [("Ibid.", "ibid", "short_form", None, None)]),
    ("Maneka Gandhi v. Union of India, AIR 1978 SC 597. " + "Nothing relevant here. " * 50
     + "Ibid. and ibid.", [("Ibid.", "ibid", "short_form", None, None),
                           ("ibid.", "ibid", "short_form", None, None)]),
    ("as observed in Maneka Gandhi (supra).",
     [("Maneka Gandhi (supra)", "supra", "short_form", None, None)]),
    ("In Ram v. Shyam, AIR 1960 SC 1. Later, Mohan Lal (supra) and ibid.",
     [("Mohan Lal (supra)", "supra", "short_form", None, None),
      ("ibid.", "ibid", "short_form", None, None)]),
    # a masked citation's short form is masked too
    ("This court in [?CITATION?] settled it. Ibid.",
     [("Ibid.", "ibid", "masked", None, "[?CITATION?]")]),
]


@pytest.mark.parametrize(("text", "expected"), CASE_SHORT_FORMS)
def test_case_short_forms(text: str, expected: list) -> None:
    citations = extract_case_citations(text)
    got = [(c.text, c.short_form, c.kind, c.key,
            text[c.antecedent[0]:c.antecedent[1]] if c.antecedent else None)
           for c in citations if c.short_form]
    assert got == expected
    for c in citations:
        if c.short_form:
            assert c.text == text[c.start:c.end]
            assert (c.antecedent is None) == (c.kind == "short_form")


@pytest.mark.parametrize("text", [
    "Maneka Gandhi v. Union of India, AIR 1978 SC 597. The fee was paid. The rule is valid.",
    "Maneka Gandhi v. Union of India, AIR 1978 SC 597. Said. The user id. was wrong.",
    "Maneka Gandhi v. Union of India, AIR 1978 SC 597. His ID. card and ibidem.",
    "Maneka Gandhi v. Union of India, AIR 1978 SC 597. as noticed supra, para 12 supra.",
    "Maneka Gandhi v. Union of India, AIR 1978 SC 597. file.id. and x-ibid",
])
def test_case_short_form_negatives(text: str) -> None:
    assert [c.text for c in extract_case_citations(text) if c.short_form] == []


def test_case_name_is_attached_to_its_citations() -> None:
    text = "See State of U.P. v. Ram Singh (1996) 4 SCC 319 : AIR 1996 SC 12 and later cases."
    citations = extract_case_citations(text)
    assert [c.key for c in citations] == ["(1996) 4 SCC 319", "AIR 1996 SC 12"]
    assert {(c.case_name, c.petitioner, c.respondent) for c in citations} == {
        ("State of U.P. v. Ram Singh", "State of U.P.", "Ram Singh")}


def test_case_name_spans_and_parties() -> None:
    text = "In Maneka Gandhi v. Union of India this Court held"
    [citation] = extract_case_citations(text)
    assert text[citation.start:citation.end] == "Maneka Gandhi v. Union of India"
    assert (citation.petitioner, citation.respondent) == ("Maneka Gandhi", "Union of India")


# Names the extractor used to cut short, so that a citation went unchecked against the case
# that holds it: (text, the name attached to its one reporter or neutral citation).
CASE_NAME_FORMS = [
    # "M/S." closes no sentence
    ("See Jatinder v. M/S. Chopra Land Dev. P. Ltd. (1996 INSC 300).",
     "Jatinder v. M/S. Chopra Land Dev. P. Ltd."),
    ("See M/S. Speedline Agencies v. M/S. T. Stanes & Co. Ltd. ([2009] 14 S.C.R. 558).",
     "M/S. Speedline Agencies v. M/S. T. Stanes & Co. Ltd."),
    ("See Commissioner of Central Excise vs. M/S. Hira Cement (2024 INSC 1003).",
     "Commissioner of Central Excise vs. M/S. Hira Cement"),
    # nor "Rep.", "S/O.", "Mohd.", "Cdr."; "the" after "Through" / "by" is inside the name
    ("In Benjamin v. State Rep. by Inspector of Police, [2007] 6 S.C.R. 1088, it was held.",
     "Benjamin v. State Rep. by Inspector of Police"),
    ("In S. Athilakshmi v. State Rep. by the Drugs Inspector, 2023 INSC 107, it was held.",
     "S. Athilakshmi v. State Rep. by the Drugs Inspector"),
    ("In Periyasami S/O. Duraisami Novanagar v. State Represented Through the Inspector of "
     "Police, 2002 INSC 280.",
     "Periyasami S/O. Duraisami Novanagar v. State Represented Through the Inspector of Police"),
    ("See Central Bureau of Investigation v. Mohd. Parvez Abdul Kayuum (2013 INSC 691).",
     "Central Bureau of Investigation v. Mohd. Parvez Abdul Kayuum"),
    ("See Wg Cdr. Ashwini Kumar Handa v. Union of India ([2018] 1 S.C.R. 873).",
     "Wg Cdr. Ashwini Kumar Handa v. Union of India"),
    # an initial is no article ("A.") and no separator (a capital "V.")
    ("In Ms. Ins. Malhotra vs. Dr. A. Kriplani, 2019 INSC 813, it was held.",
     "Ms. Ins. Malhotra vs. Dr. A. Kriplani"),
    ("See State of Kerala v. V. Gopalan, AIR 1978 SC 597.", "State of Kerala v. V. Gopalan"),
    ("In Union of India v. V. K. Sharma, (1996) 4 SCC 319, it was held.",
     "Union of India v. V. K. Sharma"),
    ("See K. V. Rao v. State of Kerala, AIR 1978 SC 597.", "K. V. Rao v. State of Kerala"),
    # a stop word capitalised inside a name; a reporter's name as a word ("Air Cargo")
    ("In M/S. Ssppl and M/S. Ail Was vs. Salma Dam Joint Venture, [2015] 7 S.C.R. 512, it was "
     "held.", "M/S. Ssppl and M/S. Ail Was vs. Salma Dam Joint Venture"),
    ("See International Airport Authority of India versus International Air Cargo Workers "
     "Union, [2009] 8 SCR 406.",
     "International Airport Authority of India versus International Air Cargo Workers Union"),
    # "at" between two names' words; a full stop before the citation's bracket
    ("See Salam Samarjeet Singh v. High Court of Manipur at Imphal. ([2016] 9 SCR 449).",
     "Salam Samarjeet Singh v. High Court of Manipur at Imphal"),
    # abbreviated offices ("Commr. Cen. Exc.") close no sentence
    ("This Court relied on M/S. Rajmal Lakhichand versus Commr. Cen. Exc. & Customs, [2011] 7 "
     "SCR 348, to allow the petition.",
     "M/S. Rajmal Lakhichand versus Commr. Cen. Exc. & Customs"),
    # a dash between words of a name, an alias written "@NAME", a stray full stop
    ("This Court relied on Hind Offshore Pvt. Ltd. v. Iffco \u2013 Tokio General Insurance Co. "
     "Ltd., 2023 INSC 899, to allow the petition.",
     "Hind Offshore Pvt. Ltd. v. Iffco \u2013 Tokio General Insurance Co. Ltd."),
    ("See Tamil Nadu Generation and Distribution Corporation Ltd. vs. Csepdi - Trishe "
     "Consortium (2008 INSC 1056).",
     "Tamil Nadu Generation and Distribution Corporation Ltd. vs. Csepdi - Trishe Consortium"),
    ("This Court relied on Surinder Singh @CHHINDA vs. State of Punjab, [1997] 2 S.C.R. 475.",
     "Surinder Singh @CHHINDA vs. State of Punjab"),
    ("See Medley Pharmaceuticals Ltd v. Commissioner of Central Excise and . Customs, [2004] 1 "
     "S.C.R. 891.", "Medley Pharmaceuticals Ltd v. Commissioner of Central Excise and . Customs"),
    ("The principle was settled in Yogeshwar Prasad v. National Inst. Edu. Planning & Admn., "
     "[2002] 2 S.C.R. 411.", "Yogeshwar Prasad v. National Inst. Edu. Planning & Admn."),
    # a bare "State" is a party
    ("In Sunil Dutt Sharma vs. State, 2013 INSC 691, it was held.", "Sunil Dutt Sharma vs. State"),
    ("In State v. Sunil Dutt Sharma, 2013 INSC 691, it was held.", "State v. Sunil Dutt Sharma"),
    # "and Anr ." with a space before the full stop
    ("See Shri Gopal and Anr . v. Subhash ([2018] 13 S.C.R. 740).",
     "Shri Gopal and Anr . v. Subhash"),
    ("See Union of India and Anr . v. P.M. Rangasami (2022 INSC 426).",
     "Union of India and Anr . v. P.M. Rangasami"),
    # curly quotes around the name, or inside it
    ("In \u201cManeka Gandhi v. Union of India\u201d, AIR 1978 SC 597, the Court held.",
     "Maneka Gandhi v. Union of India"),
    ("In \u2018Maneka Gandhi v. Union of India\u2019 (AIR 1978 SC 597) the Court held.",
     "Maneka Gandhi v. Union of India"),
    ("See Government of Goa Through the Chief Secretary versus Maria Julieta D\u2019SOUZA "
     "(2017 INSC 802).",
     "Government of Goa Through the Chief Secretary versus Maria Julieta D\u2019SOUZA"),
    ("This Court relied on PEOPLE\u2019S Union for Civil Liberties vs. Union of India, (2003) 4 "
     "SCC 399.", "PEOPLE\u2019S Union for Civil Liberties vs. Union of India"),
]


@pytest.mark.parametrize(("text", "name"), CASE_NAME_FORMS)
def test_case_name_forms_are_read_whole(text: str, name: str) -> None:
    [citation] = extract_case_citations(text)
    assert citation.kind in ("reporter", "neutral")
    assert citation.case_name == name
    assert citation.text == text[citation.start:citation.end]


@pytest.mark.parametrize(("text", "name"), [
    # the clause's opener stays out, capitalised or not
    ("This Court In Ramesh v. State of Kerala, AIR 1978 SC 597 held.",
     "Ramesh v. State of Kerala"),
    ("The Court in Ramesh v. State of Kerala, AIR 1978 SC 597 held.",
     "Ramesh v. State of Kerala"),
    ("It was held in His Holiness Kesavananda Bharati v. State of Kerala, AIR 1973 SC 1461.",
     "Holiness Kesavananda Bharati v. State of Kerala"),
    # a reporter as printed still ends a name; so does "the" after a name
    ("In Ram Singh v. State AIR 1978 SC 597 the Court held.", "Ram Singh v. State"),
    ("In Ram Singh v. Union of India the Court held so, AIR 1978 SC 597.", None),
    ("In Ram Singh v. Mohan Lal and the Court, AIR 1978 SC 597.", None),
    ("See Ram Singh v. Mohan Lal of the Court, AIR 1978 SC 597.", None),
    # "of the" inside a party's name, and a party's number, before its citation
    ("See Union of India v. National Federation of the Blind, AIR 2009 SC 100.",
     "Union of India v. National Federation of the Blind"),
    ("See Dalmia Power Ltd. v. Assistant Commissioner of Income Tax Circle 1, [2008] 11 SCR "
     "431.", "Dalmia Power Ltd. v. Assistant Commissioner of Income Tax Circle 1"),
    # a designator the registry prints inside a party's description, before its citation
    ("In Ryatar Sahakari Sakkarre Karkhane Niyamit v. Asst. Commissioner of Income Tax C-1, "
     "[2017] 11 SCR 857, held.",
     "Ryatar Sahakari Sakkarre Karkhane Niyamit v. Asst. Commissioner of Income Tax C-1"),
    ("See X Ltd. v. Commissioner of Income Tax-4, (2010) 5 SCC 1.",
     "X Ltd. v. Commissioner of Income Tax-4"),
    ("See X Ltd. v. Income Tax Officer, Ward 1(2), (2010) 5 SCC 1.",
     "X Ltd. v. Income Tax Officer, Ward 1(2)"),
    ("In Ram v. Shyam 1990, AIR 1978 SC 597.", None),  # a year is no party's number
    ("In Ram v. Shyam, 12, AIR 1978 SC 597.", None),  # a number after a comma: no name's
    ("In Ram v. Shyam at page 5, AIR 1978 SC 597.", None),
    ("In Ram v. Shyam. AIR 1978 SC 597 was cited.", None),  # a sentence apart
    ("In Ram v. Shyam - the court held, AIR 1978 SC 597.", None),
    # a plural's apostrophe inside a party's name, straight or curly, in capitals too
    ("In Workmen v. Hindustan Lever Employees' Union, (1984) 4 SCC 392, held.",
     "Workmen v. Hindustan Lever Employees' Union"),
    ("See Bank of India v. United Bank of India Retirees’ Welfare Association, (2018) 5 SCC 1.",
     "Bank of India v. United Bank of India Retirees’ Welfare Association"),
    ("See Bank of India v. United Bank of India RETIREES’ WELFARE ASSOCIATION, (2018) 5 SCC 1.",
     "Bank of India v. United Bank of India RETIREES’ WELFARE ASSOCIATION"),
    # a petitioner's number just before "v.", as the registry prints tax authorities
    ("See Commissioner of Income Tax 14 v. Jasjit Singh, (2016) 3 SCC 1.",
     "Commissioner of Income Tax 14 v. Jasjit Singh"),
    ("See Income Tax Officer Ward 1(2) v. Jasjit Singh, (2016) 3 SCC 1.",
     "Income Tax Officer Ward 1(2) v. Jasjit Singh"),
    # a party's bracketed letter or an accused's number, and a long bracket of a new name
    ("In Indian National Congress (I) v. Institute of Social Welfare, (2002) 5 SCC 685.",
     "Indian National Congress (I) v. Institute of Social Welfare"),
    ("See State of Tamil Nadu v. Suresh (A-2) and Anr., (2017) 1 SCC 1.",
     "State of Tamil Nadu v. Suresh (A-2) and Anr."),
    ("See Zee Telefilms Ltd. (Now Known As Zee Entertainment Enterprises Ltd.) v. Suresh "
     "Productions, (1995) 1 SCC 1.", "Zee Telefilms Ltd. (Now Known As Zee Entertainment "
     "Enterprises Ltd.) v. Suresh Productions"),
    # a stray second full stop before the comma, and a Brigadier's "Brg."
    ("In T. P. Srivastava v. National Tobacco Co. of India Ltd .., (1992) 1 SCC 1, held.",
     "T. P. Srivastava v. National Tobacco Co. of India Ltd"),
    ("See Union of India v. Brg. P. K. Dutta, (2025) 4 SCC 336.",
     "Union of India v. Brg. P. K. Dutta"),
])
def test_case_name_forms_end_where_the_name_does(text: str, name: str | None) -> None:
    cites = [c for c in extract_case_citations(text) if c.kind == "reporter"]
    assert [c.case_name for c in cites] == [name]


@pytest.mark.parametrize("text", [
    "Ram Kumar v. Shyam Lal, (1990) 2 SCC 14 v. Mohan Das, (1991) 1 SCC 1.",
    "Ram Kumar v. Shyam Lal, AIR 1990 SC 14 v. Mohan Das.",
])
def test_a_citations_page_is_no_partys_number(text: str) -> None:
    """A petitioner may end in a number ("Income Tax 14 v."), but never reaches back into a
    reporter citation before it, whose page would be read as one."""
    names = [c.case_name for c in extract_case_citations(text) if c.case_name]
    assert not any("SC" in name for name in names), names


# A full citation is one unit: the names are read up to the citation they precede, commas
# inside a party's description, "Etc." and "(D) By Lrs." included (registry titles as printed);
# each text's one citation carries the whole name, and no fragment is left as a name citation.
FULL_CITATIONS = [
    ("In State of Maharashtra vs. M/S. the Britannia Biscuits Co. Ltd., [2020] 2 S.C.R. 500, "
     "held.", "State of Maharashtra vs. M/S. the Britannia Biscuits Co. Ltd."),
    ("See Collector of Customs and Central Excise, Guntur, Etc. Etc. v. M/S Surendra Cotton Oil "
     "Mills and Fert. Co. Etc. Etc. (2003 INSC 291).",  # "Fert." (Fertilizers) ends no name
     "Collector of Customs and Central Excise, Guntur, Etc. Etc. v. M/S Surendra Cotton Oil "
     "Mills and Fert. Co. Etc. Etc."),
    ("In Jarnail Singh v. Secretary, Ministry Of Home Affairs And Ors., 1992 INSC 327, it was "
     "held.", "Jarnail Singh v. Secretary, Ministry Of Home Affairs And Ors."),
    ("In Special Land Acquisition Officer, Kheda And Anr. Etc. v. Vasudev Chandrashankar And "
     "Anr. Etc., 1997 INSC 391, it was held.",
     "Special Land Acquisition Officer, Kheda And Anr. Etc. v. Vasudev Chandrashankar And Anr. "
     "Etc."),
    ("In Rattan Singh & Ors. v. Nirmal Gill & Ors. Etc., 1990 INSC 142, the Court held so.",
     "Rattan Singh & Ors. v. Nirmal Gill & Ors. Etc."),
    ("See Prakash Nagardas Dubal Shaha v. Sou. Meena Prakash Dubal Shah & Ors. (2016 INSC "
     "1178).", "Prakash Nagardas Dubal Shaha v. Sou. Meena Prakash Dubal Shah & Ors."),
    ("In Gaya Din (D) By Lrs. & Ors. v. Hanuman Prasad (D) By Lrs. & Ors., 2001 INSC 5, held.",
     "Gaya Din (D) By Lrs. & Ors. v. Hanuman Prasad (D) By Lrs. & Ors."),
    ("In Gaya Din (Dead) by LRs. v. Hanuman Prasad, (2001) 1 SCC 501, it was held.",
     "Gaya Din (Dead) by LRs. v. Hanuman Prasad"),
    ("In Ghat Talab v. Gopal Dass (dead) by Lr Ram Niwas, 2020 INSC 123, it was held.",
     "Ghat Talab v. Gopal Dass (dead) by Lr Ram Niwas"),
    ("In Dr. Yogesh Bhardwaj v. State Of U.P. And Ors., 1990 INSC 155, it was held.",
     "Dr. Yogesh Bhardwaj v. State Of U.P. And Ors."),
    ("In The Divisional Controller, Ksrtc v. Mahadeva Shetty and Anr., 2003 INSC 300, held.",
     "Divisional Controller, Ksrtc v. Mahadeva Shetty and Anr."),
    # "Civil" inside a respondent's name, not opening "Civil Appeal No."; "Pty."; "Under the"
    ("In State of Kerala v. Peoples Union for Civil Liberties, [2010] 9 S.C.R. 476, held.",
     "State of Kerala v. Peoples Union for Civil Liberties"),
    ("See Godrej Sara Lee Limited vs. Reckitt Benckiser Australia Pty. Ltd., [2007] 5 SCR 26.",
     "Godrej Sara Lee Limited vs. Reckitt Benckiser Australia Pty. Ltd."),
    ("In Yogesh Mehta vs. Custodian Appointed Under the Special Court, 2025 INSC 661, held.",
     "Yogesh Mehta vs. Custodian Appointed Under the Special Court"),
    # a petitioner "Rep. by" someone, and "Infn." an abbreviation
    ("See Annamalai University Rep. by Registrar vs. Secy. to Govt. Infn. & Tourism Dept., 2023 "
     "INSC 325.", "Annamalai University Rep. by Registrar vs. Secy. to Govt. Infn. & Tourism "
     "Dept."),
    # "Etc." after a comma, just before "v."
    ("See The Assistant Commissioner of Income Tax, Madras, Etc. Etc. v. Thanthi Trust Etc. "
     "Etc., 2001 INSC 58.", "Assistant Commissioner of Income Tax, Madras, Etc. Etc. v. Thanthi "
     "Trust Etc. Etc."),
    # a comma after a court's or bench's words opens no party: "The Full Bench, X v. Y"
    ("As the Full Bench, Ram Lal v. Shyam Lal, 1990 INSC 12, held.", "Ram Lal v. Shyam Lal"),
    # "by" before a petitioner's name, not after "(D)", stays out of it
    ("It was decided by Ram Lal v. Shyam Lal, 1990 INSC 12.", "Ram Lal v. Shyam Lal"),
    # a bracket inside the petitioner's name, of one word in any case or of several
    ("In Hira Lal (dead) by Lrs. Etc v. State of Maharashtra and Anr., 1996 INSC 301, held.",
     "Hira Lal (dead) by Lrs. Etc v. State of Maharashtra and Anr."),
    ("In Ram Lal (since deceased) v. Shyam, 1990 INSC 12, held.",
     "Ram Lal (since deceased) v. Shyam"),
    ("In N.T.C. (South Maharashtra) Limited v. Rashtriya Mill Mazdoor Sangh And Ors. Etc. Etc., "
     "1996 INSC 291, held.", "N.T.C. (South Maharashtra) Limited v. Rashtriya Mill Mazdoor "
     "Sangh And Ors. Etc. Etc."),
    ("In Go Airlines (India) Limited v. Ram, 1996 INSC 291, held.",
     "Go Airlines (India) Limited v. Ram"),
    ("In Mohideen Abdul Khadar (DEAD)THROUGH Lrs. v. Rahmath Beevi (D) Thr. Her Lrs. and Ors., "
     "2023 INSC 969, held.", "Mohideen Abdul Khadar (DEAD)THROUGH Lrs. v. Rahmath Beevi (D) Thr. "
     "Her Lrs. and Ors."),
    ("In State (Govt. of NCT of Delhi) v. Prem Raj, (2003) 7 SCC 121, held.",
     "State (Govt. of NCT of Delhi) v. Prem Raj"),
    # "& Ors." after a full stop, as some registry titles print it
    ("In Santosh Devi v. Union of India. & Ors., 2019 INSC 277, held.",
     "Santosh Devi v. Union of India. & Ors."),
    # registry abbreviations inside a name end no sentence
    ("See Commissioner of Central Excise, Mumbai v. M/S. Hindustan Spinning & Wvg. M. Ltd. and "
     "Anr., 2009 INSC 546, held.", "Commissioner of Central Excise, Mumbai v. M/S. Hindustan "
     "Spinning & Wvg. M. Ltd. and Anr."),
]


@pytest.mark.parametrize(("text", "names"), [
    # the name before it is its own, not the start of the next one's petitioner
    ("In Ram v. Shyam, Mohan v. State, AIR 1990 SC 1, held.",
     [("case_name", "Ram v. Shyam"), ("reporter", "Mohan v. State")]),
    ("Ram v. State, AIR 1990 SC 5, Officer, Kheda v. Ram, AIR 1991 SC 1.",
     [("reporter", "Ram v. State"), ("reporter", "Officer, Kheda v. Ram")]),
])
def test_a_petitioner_read_back_over_a_comma_stops_at_what_is_before_it(
        text: str, names: list[tuple[str, str]]) -> None:
    assert [(c.kind, c.case_name) for c in extract_case_citations(text)] == names


@pytest.mark.parametrize("text", [
    "In Ram v. Shyam, Civil Appeal No. 12 of 1990, AIR 1990 SC 1, held.",
    "In Ram v. Shyam Criminal Appeal No. 12 of 1990, AIR 1990 SC 1, held.",
])
def test_a_proceeding_after_a_name_is_no_part_of_it(text: str) -> None:
    """"Civil" and "Criminal" end a name when a proceeding follows ("Civil Appeal No.")."""
    names = [c.case_name for c in extract_case_citations(text)]
    assert names == ["Ram v. Shyam", None]


@pytest.mark.parametrize(("text", "name"), FULL_CITATIONS)
def test_a_full_citation_carries_its_whole_name(text: str, name: str) -> None:
    [citation] = extract_case_citations(text)
    assert citation.kind in ("reporter", "neutral") and citation.case_name == name
    assert citation.full_start == text.index(name)


@pytest.mark.parametrize(("text", "name"), [
    # a bracket that never opens, a short form or a year in brackets is no part of a name
    ("(see above) Ram Lal v. Shyam Lal, 1990 INSC 12, held.", "Ram Lal v. Shyam Lal"),
    ("As in Ram v. Shyam (supra) and Mohan Lal v. State, 1990 INSC 12, held.",
     "Mohan Lal v. State"),
    ("As held in (1990) Ram Lal v. Shyam Lal, 1990 INSC 12.", "Ram Lal v. Shyam Lal"),
    # a bracket before the name is an aside about the citation before it
    ("Ram v. State, 1998 INSC 5 (Raj Deo Sharma- I) and Raj Deo Sharma (II) v. State of Bihar, "
     "1999 INSC 7.", "Raj Deo Sharma (II) v. State of Bihar"),
])
def test_brackets_outside_a_name_stay_out_of_it(text: str, name: str) -> None:
    assert [c.case_name for c in extract_case_citations(text) if c.kind == "neutral"][-1] == name


def test_a_parallel_citation_in_brackets_shares_the_full_citation() -> None:
    text = ("See Commissioner of Central Excise, Mumbai v. M/S. Hindustan Spinning & Wvg. M. Ltd. "
            "and Anr., 2009 INSC 546 ([1992] Supp 3 SCR 428).")
    cites = extract_case_citations(text)
    assert [(c.key, c.full_start) for c in cites] == [("2009 INSC 546", 4),
                                                      ("[1992] Supp 3 SCR 428", 4)]


def test_parallel_citations_share_the_full_citation() -> None:
    text = ("In Jarnail Singh v. State Of Haryana, 1993 INSC 21, [1993] 1 SCR 260; later Ram v. "
            "Shyam, 1995 INSC 4.")
    cites = extract_case_citations(text)
    assert [(c.key, c.full_start) for c in cites] == [
        ("1993 INSC 21", 3), ("[1993] 1 SCR 260", 3), ("1995 INSC 4", text.index("Ram v."))]


def test_an_unclosed_bracket_stays_out_of_a_neutral_citation() -> None:
    text = "See Ram Singh v. State (2019 INSC 813)."
    [citation] = extract_case_citations(text)
    assert (citation.text, citation.case_name) == ("2019 INSC 813", "Ram Singh v. State")


@pytest.mark.parametrize("text", [
    "Court v. High Court, AIR 1978 SC 597",  # generic words on both sides
    "the State v. the accused was argued",
])
def test_generic_parties_are_no_case_name(text: str) -> None:
    assert [c.case_name for c in extract_case_citations(text)] in ([], [None])


@pytest.mark.parametrize("name", [
    "Maneka Gandhi v. Union of India",
    "MANEKA GANDHI versus UNION OF INDIA & ANR.",
    "Smt. Maneka Gandhi vs Union Of India And Another",
    "Maneka Gandhi Vs. Union of India and others",
])
def test_case_name_key_matches_across_sources(name: str) -> None:
    assert case_name_key(name) == "maneka gandhi v union of india"


def test_case_name_key_keeps_different_cases_apart() -> None:
    assert case_name_key("State of Bihar v. Ram") != case_name_key("State of Bihar v. Shyam")
    assert case_name_key("K. V. Rao vs. State of A.P.") == "k v rao v state of a p"
    assert case_name_key("M/s. Tata Iron & Steel Co. Ltd. v. State") == (
        "tata iron and steel co ltd v state")


# --- robustness -----------------------------------------------------------------------------

TRICKY = ["Section", "section", "Sections", "s.", "ss.", "u/s", "Art.", "Article", "Order",
          "Rule", "O.", "r.", "302", "34", "120B", "498-A", "(1)", "(ia)", "XXXIX", "IPC",
          "I.P.C.", "Cr.P.C.", "of", "the", "Act", "Code", "Indian", "Penal", "read", "with",
          "and", "to", "/", ",", ".", "v.", "vs.", "versus", "Union", "India", "State", "AIR",
          "SCC", "SCR", "INSC", "JT", "SCALE", "1995", "(1995)", "[1974]", "(6)", "Supp",
          "(supra)", "[?CITATION?]", "(", ")", "((((", "\n", "ü", "ß", "१२", "٣", "§", "&",
          "Ors.", "M/s.", "hereinafter", "'the", "Act'", "Indlaw", "etc.,", "Part", "II",
          "ibid", "Ibid.", "(ibid)", "id.", "Id.", "(id.)", "supra", "said", "that", "same",
          "provision", "case"]


def _check_statutes(text: str, mentions: list[StatuteMention]) -> None:
    for m in mentions:
        assert 0 <= m.group_start <= m.start < m.end <= m.group_end <= len(text)
        assert m.text == text[m.group_start:m.group_end]
        assert m.kind in ("section", "article", "order_rule")
        assert m.resolution in ("explicit", "context", "short_form", "unresolved")
        assert (m.act_code is None) == (m.resolution == "unresolved")
        assert (m.section is None) <= (m.resolution == "unresolved")
        if m.antecedent is not None:
            assert m.antecedent[1] <= m.start


def _check_cases(text: str, citations: list[CaseCitation]) -> None:
    assert citations == sorted(citations, key=lambda c: (c.start, c.end))
    for c in citations:
        assert 0 <= c.start < c.end <= len(text)
        assert c.text == text[c.start:c.end]
        assert c.kind in ("reporter", "neutral", "case_name", "masked", "short_form")
        assert (c.kind == "short_form") <= (c.short_form is not None)
        if c.antecedent is not None:
            assert c.short_form is not None and c.antecedent[1] <= c.start


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=400))
def test_arbitrary_text_never_breaks(text: str) -> None:
    index = build_alias_index([_entry(*act) for act in ACTS])
    _check_statutes(text, extract_statute_mentions(text, index))
    _check_cases(text, extract_case_citations(text))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(TRICKY), max_size=60),
       st.lists(st.sampled_from([" ", "", "  ", ", ", "\n"]), min_size=1, max_size=5))
def test_citation_like_text_never_breaks(words: list[str], seps: list[str]) -> None:
    text = "".join(w + seps[i % len(seps)] for i, w in enumerate(words))
    index = build_alias_index([_entry(*act) for act in ACTS])
    _check_statutes(text, extract_statute_mentions(text, index))
    _check_cases(text, extract_case_citations(text))


ADVERSARIAL = {
    "section runs": "Section Section section Sections ",
    "versus runs": "v. v. vs. v. V. versus ",
    "digits": "1234567890 (1995) 302/34 ",
    "parentheses": "((((((()))))))(1)(a)(",
    "unicode": "§§ ५६ ٣ Ünïcödé — “quoted” ‘v.’ ",
    "mixed": "Section 302 v. Art. ((( AIR 1995 SC ( 12 ",
    "short forms": "Ibid. id. (id.) A v. B Maneka Gandhi (supra) the said section that section ",
    # an Act acronym and number right after a phrase: overlap tests must not be quadratic
    "acronym after a phrase": "Section 5 IPC 302 was cited in the charge sheet filed by police. ",
    # initials, detached full stops, stop words and "the" inside names: each read ahead or
    # behind a bounded number of words
    "initials and stops": "K. V. V. Rao V. v. V. Anr . . v. Ail Was As v. X Through the the ",
    "names": "M/S. Ram Rep. by the S/O. Mohd. Cdr. A. v. V. K. Sharma and Anr . v. State, "
             "2019 INSC 5 \u201cRam v. Shyam\u201d, AIR 1995 SC 12 ",
    # brackets inside names, read back to their "(" over a bounded number of words
    "brackets in names": "Ram (since dead Lal) (D) Kumar) v. (South Zone) Ltd. (dead)THROUGH "
                         "Lrs. (a b c d e f g h) v. State. & Ors., 1990 INSC 5 ",
}


def megabyte(unit: str) -> str:
    """`unit` repeated to 1,000,000 characters (shared with benchmarks/bench_verify.py)."""
    return (unit * (1_000_000 // len(unit) + 1))[:1_000_000]


@pytest.mark.parametrize("name", list(ADVERSARIAL))
def test_one_megabyte_of_adversarial_text(name: str, aliases: AliasIndex) -> None:
    text = megabyte(ADVERSARIAL[name])
    # this thread's CPU time, not the wall clock: the tests run beside the real-corpus job at
    # the lowest priority (tests/suite.py), where a second of wall time can hold little CPU
    began = time.thread_time()
    mentions = extract_statute_mentions(text, aliases)
    middle = time.thread_time()
    citations = extract_case_citations(text)
    ended = time.thread_time()
    assert isinstance(mentions, list) and isinstance(citations, list)
    # Generous bounds: CI machines are noisy; on a quiet one each takes well under a second.
    assert middle - began < 5, f"statutes took {middle - began:.2f}s"
    assert ended - middle < 5, f"cases took {ended - middle:.2f}s"


@pytest.mark.parametrize(("text", "expected"), [
    ("He was charged under BNS 302 for murder.", [("BNS_2023", "302", None)]),
    ("IPC 1860 and IPC 302", [("IPC_1860", "302", None)]),  # 1860 is the year, not a section
    ("CrPC 438(2) applies", [("CrPC_1973", "438", "(2)")]),
    ("BNS_2023 103", [("BNS_2023", "103", None)]),
    ("The AIR 1978 SC 597 report", []),  # a reporter, not an Act
    ("Section 302 IPC", [("IPC_1860", "302", None)]),  # not counted twice
])
def test_act_acronym_then_number_as_model_answers_write_it(text, expected, aliases):
    found = extract_statute_mentions(text, aliases)
    assert [(m.act_code, m.section, m.unit) for m in found] == expected
    assert all(m.resolution == "explicit" for m in found)


def test_gap_reach_bounds_the_gap_to_a_reporter() -> None:
    """`_attach_names` skips the gap pattern for a citation further on than GAP_REACH: the
    longest text the pattern can match must not be longer."""
    import re

    from nyaya.citations import cases

    longest = re._parser.parse(cases.GAP_TO_REPORTER.pattern).getwidth()[1]
    assert longest <= cases.GAP_REACH
