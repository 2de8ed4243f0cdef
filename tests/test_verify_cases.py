"""Case-citation verdicts and the deterministic five-validator panel, on small in-memory rows."""

from __future__ import annotations

import pytest

from nyaya.citations.cases import extract_case_citations, parse_case_citation
from nyaya.verify import panel
from nyaya.verify.cases import (
    UNVERIFIABLE,
    CaseVerifier,
    NameIndex,
    covered_years,
    name_similarity,
    one_edit,
    party_words,
    spelled_out,
    written_words,
)
from nyaya.verify.model import AMBIGUOUS, CASE_NOT_FOUND, FOUND, NAME_MISMATCH, OVERRULED


def _registry(year: int, number: int, title: str, date: str, scr: str | None = None) -> dict:
    keys = [f"{year} INSC {number}"] + ([scr] if scr else [])
    pet, _, resp = title.partition(" versus ")
    return {"record_id": f"SC:{year} INSC {number}", "title": title, "petitioner": pet,
            "respondent": resp, "decision_date": date, "year": year,
            "neutral_citation": f"{year} INSC {number}", "scr_citation": scr,
            "citation_keys": keys, "judgment_doc_ids": [], "case_id": None}


# 1995: numbers 1..100 held in full, so 1995 is a complete year with maximum 100
REGISTRY = [_registry(1995, n, f"PARTY{n} SINGH versus STATE OF BIHAR", "1995-03-01")
            for n in range(1, 101) if n not in (12, 40, 41)]
REGISTRY += [
    _registry(1995, 12, "MOHINDER SINGH GILL versus THE CHIEF ELECTION COMMISSIONER",
              "1995-01-10", "[1995] 1 SCR 300"),
    _registry(1995, 40, "RAMESHWAR PRASAD versus UNION OF INDIA & ORS.", "1995-05-05"),
    _registry(1995, 41, "BHAGWATI DEVI versus STATE OF KERALA", "1995-05-06"),
]
JUDGMENTS = [
    {"doc_id": "AILA:C1", "case_id": "CASE:AILA:C1", "case_name": "Arunachalam v. Sadhanantham",
     "decision_date": "1979-03-06", "citation_keys": ["AIR 1979 SC 1284", "(1979) 2 SCC 297"]},
    {"doc_id": "AILA:C2", "case_id": "CASE:AILA:C2", "case_name": "Later Bench v. State",
     "decision_date": "1990-01-01", "citation_keys": ["AIR 1990 SC 10"]},
    {"doc_id": "AILA:C3", "case_id": "CASE:AILA:C3", "case_name": "Kishore Lal v. Ram Das",
     "decision_date": "1980-02-02", "citation_keys": ["AIR 1981 SC 55"]},
    {"doc_id": "AILA:C4", "case_id": "CASE:AILA:C4", "case_name": "Kishan Lal v. Union",
     "decision_date": "1980-02-03", "citation_keys": ["AIR 1981 SC 55"]},
    {"doc_id": "AILA:C5", "case_id": "CASE:AILA:C5", "case_name": "Old Rule v. State",
     "decision_date": "1960-02-02", "citation_keys": ["AIR 1960 SC 5"]},
    # an IRLeD prior case: its header is cut before the title, so it has no name
    {"doc_id": "IRLED:prior_case_0009", "case_id": "CASE:IRLED:prior_case_0009",
     "case_name": None, "decision_date": "1992-02-02", "citation_keys": ["AIR 1992 SC 7"]},
]
NODES = [{"node_id": "CASE:AILA:C1", "case_name": "Arunachalam v. Sadhanantham",
          "overruled": True},
         {"node_id": "CASE:AILA:C2", "case_name": "Later Bench v. State", "overruled": False}]
EDGES = [{"source_id": "CASE:AILA:C2", "target_id": "CASE:AILA:C1", "target_type": "case",
          "relation": "overrules", "origin": "text"},
         {"source_id": "CASE:IRLED:prior_case_0009", "target_id": "CASE:AILA:C5",
          "target_type": "case", "relation": "overrules", "origin": "citator"}]


@pytest.fixture(scope="module")
def verifier() -> CaseVerifier:
    return CaseVerifier(JUDGMENTS, REGISTRY, NODES, EDGES, now_year=2025)


CASES = [
    # (text, status, words the reason must contain)
    ("Mohinder Singh Gill v. Chief Election Commissioner, 1995 INSC 12", FOUND,
     ["SC registry"]),
    ("Rameshwar Prasad v. Union of India, 1995 INSC 12", NAME_MISMATCH,
     ["MOHINDER SINGH GILL", "Rameshwar Prasad"]),
    # a designator inside the respondent's description keeps the names with their citation
    ("Rameshwar Prasad v. Commissioner of Income Tax C-1, 1995 INSC 12", NAME_MISMATCH,
     ["MOHINDER SINGH GILL", "Income Tax C-1"]),
    ("Mohinder Singh Gill v. Chief Election Commissioner, [1995] 1 SCR 300", FOUND, []),
    ("1995 INSC 12", FOUND, []),  # no names written: nothing to contradict
    ("Rameshwar Prasad v. Union of India, 1995 INSC 900", CASE_NOT_FOUND,
     ["registry", "CITATION_LIKELY_HALLUCINATED"]),
    ("Sohan Lal v. Union of India, 1995 INSC 101", CASE_NOT_FOUND,
     ["not in the SC registry", "unknown_authority"]),  # in range, complete year, not held
    # the names are a held case's, whose own number is another
    ("Rameshwar Prasad v. Union of India, 1995 INSC 101", CASE_NOT_FOUND,
     ["not in the SC registry", "RAMESHWAR PRASAD", "own INSC citation is 1995 INSC 40",
      "implausible_combination"]),
    ("Sunil Batra v. Delhi Administration, (1955) 2 SCC 100", CASE_NOT_FOUND,
     ["reporter_timing_wrong", "not in the sources we hold"]),
    ("Sunil Batra v. Delhi Administration, (2031) 2 SCC 100", CASE_NOT_FOUND,
     ["future_dated"]),
    ("Sunil Batra v. Delhi Administration, AIR 1978 SC 1675", UNVERIFIABLE,
     ["not in the sources we hold (registry: INSC/SCR 1990–2025; corpus headers)"]),
    ("AIR 1978 SC 1675", UNVERIFIABLE, []),
    ("Arunachalam v. Sadhanantham, AIR 1979 SC 1284", OVERRULED, ["Later Bench v. State"]),
    # an overruling judgment without a name is named by its date and citation
    ("Old Rule v. State, AIR 1960 SC 5", OVERRULED, ["overruled by (unnamed case) "
                                                    "(1992-02-02; AIR 1992 SC 7)"]),
    ("AIR 1981 SC 55", AMBIGUOUS, ["Kishore Lal", "Kishan Lal"]),
    ("Kishore Lal v. Ram Das, AIR 1981 SC 55", FOUND, ["corpus judgment"]),
]


@pytest.mark.parametrize(("text", "status", "words"), CASES)
def test_case_verdicts(verifier: CaseVerifier, text: str, status: str, words: list[str]) -> None:
    [verdict] = verifier.verify(text)
    assert verdict.status == status, verdict.reason
    for word in words:
        assert word in verdict.reason
    if status in (FOUND, NAME_MISMATCH, OVERRULED):
        assert verdict.matched is not None and verdict.case_key in verdict.matched["citations"]


SHORT_FORMS = [
    # (text, the status of each citation in order)
    ("Kishore Lal v. Ram Das, AIR 1981 SC 55. Ibid., para 3; Kishore Lal (supra).",
     [FOUND, FOUND, FOUND]),
    ("Arunachalam v. Sadhanantham, AIR 1979 SC 1284; Arunachalam (supra) was overruled.",
     [OVERRULED, OVERRULED]),
    ("Rameshwar Prasad v. Union of India, 1995 INSC 12. Id. at 4.", [NAME_MISMATCH] * 2),
    ("Rameshwar Prasad v. Union of India, 1995 INSC 900. (ibid)", [CASE_NOT_FOUND] * 2),
    ("AIR 1981 SC 55. Ibid.", [AMBIGUOUS, AMBIGUOUS]),
    ("Sunil Batra v. Delhi Administration, AIR 1978 SC 1675; ibid.", [UNVERIFIABLE] * 2),
]


@pytest.mark.parametrize(("text", "statuses"), SHORT_FORMS)
def test_short_forms_get_the_antecedents_verdict(verifier: CaseVerifier, text: str,
                                                 statuses: list[str]) -> None:
    verdicts = verifier.verify(text)
    assert [v.status for v in verdicts] == statuses
    full = verdicts[0]
    for short in verdicts[1:]:
        assert text[short.span[0]:short.span[1]] == short.text
        assert (short.case_key, short.matched) == (full.case_key, full.matched)
        assert short.reason == f"'{short.text}' refers to {full.text}: {full.reason}"


@pytest.mark.parametrize("text", [
    "Ibid., para 12.",
    "as held in Kishore Lal (supra)",  # a real party name, but no citation of it before
    "Kishore Lal v. Ram Das, AIR 1981 SC 55. Later, Sohan Singh (supra) differed.",
])
def test_short_form_without_antecedent_is_never_found(verifier: CaseVerifier,
                                                     text: str) -> None:
    short = verifier.verify(text)[-1]
    assert short.status == UNVERIFIABLE
    assert short.case_key is None and short.matched is None
    assert "short form" in short.reason


def test_masked_citations_are_skipped(verifier: CaseVerifier) -> None:
    assert verifier.verify("as held in [?CITATION?], the appeal fails") == []
    assert verifier.verify("as held in [?CITATION?]; ibid.") == []  # its short form too


def test_found_source_and_record(verifier: CaseVerifier) -> None:
    [v] = verifier.verify("Kishore Lal v. Ram Das, AIR 1981 SC 55")
    assert v.source == "corpus judgment" and v.matched["id"] == "CASE:AILA:C3"
    assert not v.survives or v.status == FOUND


def test_panel_verdicts_for_unfound(verifier: CaseVerifier) -> None:
    [beyond] = verifier.check_text("Rameshwar Prasad v. Union of India, 1995 INSC 900")
    out = beyond.validation.to_dict()
    assert out["consensus"]["recommendation"] == panel.LIKELY_HALLUCINATED
    assert out["tier_3_trigger"] is True
    first = out["panel_evaluation"][0]
    assert first["agent"] == panel.AUTHORITY and first["invalid_reason"] == "page_unreasonable"
    [air] = verifier.check_text("Sunil Batra v. Delhi Administration, AIR 1978 SC 1675")
    assert air.validation.consensus.recommendation == panel.LIKELY_VALID
    assert not air.validation.flags


VALIDATOR_CASES = [
    # (citation, validator, verdict, reason)
    ("(1955) 2 SCC 100", "authority", panel.INVALID, "reporter_timing_wrong"),
    ("(1996) 4 SCC 319", "authority", panel.VALID, None),
    ("(1996) 25 SCC 319", "authority", panel.INVALID, "volume_impossible"),
    ("(1996) 4 SCC 1900", "authority", panel.INVALID, "page_unreasonable"),
    ("JT 1985 (2) SC 100", "authority", panel.INVALID, "reporter_timing_wrong"),
    ("AIR 1948 SC 12", "authority", panel.INVALID, "reporter_timing_wrong"),
    ("AIR 1960 PC 12", "authority", panel.INVALID, "reporter_court_mismatch"),
    ("AIR 1982 SC 7000", "authority", panel.INVALID, "page_unreasonable"),
    # high, not impossible: the privacy judgment is AIR 2017 SC 4161
    ("AIR 2017 SC 4161", "authority", panel.UNCERTAIN, "unusual_volume_page"),
    ("(2031) 2 SCC 100", "authority", panel.INVALID, "year_implausible"),
    ("(2031) 2 SCC 100", "temporal", panel.INVALID, "future_dated"),
    ("AIR 1948 SC 12", "temporal", panel.INVALID, "temporal_impossibility"),
    ("AIR 1948 Bom 12", "temporal", panel.VALID, None),
    ("(1996) 4 SCC 319", "temporal", panel.VALID, None),
    # an old ILR volume, numbered since the series began, is dated by its number
    ("I.L.R. 47 Bom. 578", "authority", panel.VALID, None),
    ("I.L.R. 47 Bom. 578", "temporal", panel.VALID, None),
    ("I.L.R. 47 Bom. 9578", "authority", panel.INVALID, "page_unreasonable"),
    ("(1870) ILR 4 Bom 330", "authority", panel.INVALID, "reporter_timing_wrong"),
]


@pytest.mark.parametrize(("raw", "which", "verdict", "reason"), VALIDATOR_CASES)
def test_validators(raw: str, which: str, verdict: str, reason: str | None) -> None:
    cite = parse_case_citation(raw)
    assert cite is not None
    got = (panel.authority(cite, 2025) if which == "authority" else panel.temporal(cite, 2025))
    assert (got.verdict, got.reason) == (verdict, reason), got.detail


def test_neutral_ranges_drop_outliers_and_judge_numbers() -> None:
    ranges = panel.neutral_ranges([(2024, n) for n in (5, 900, 1100, 4354)], [2024])
    assert ranges[2024] == panel.NeutralRange(1100, True)
    cite = parse_case_citation("2024 INSC 1200")
    assert panel.authority(cite, 2025, ranges).verdict == panel.UNCERTAIN
    cite = parse_case_citation("2024 INSC 1500")
    assert panel.authority(cite, 2025, ranges).reason == "page_unreasonable"


ECOLOGY_CASES = [
    ("Maneka Gandhi v. Union of India, AIR 1978 SC 597", panel.VALID, None),
    ("X v. Y, AIR 1978 SC 597", panel.INVALID, "generic_pattern_suspicious"),
    ("ABC v. XYZ, AIR 1978 SC 597", panel.INVALID, "generic_pattern_suspicious"),
    ("AIR 1978 SC 597", panel.UNCERTAIN, "characteristics_unclear"),
]


@pytest.mark.parametrize(("text", "verdict", "reason"), ECOLOGY_CASES)
def test_ecology(text: str, verdict: str, reason: str | None) -> None:
    from nyaya.citations.cases import extract_case_citations

    cite = next(c for c in extract_case_citations(text) if c.kind == "reporter")
    got = panel.ecology(cite)
    assert (got.verdict, got.reason) == (verdict, reason)


def _evals(*verdicts: str) -> list[panel.Evaluation]:
    return [panel.Evaluation(agent, v, None if v == panel.VALID else "mixed_signals")
            for agent, v in zip(panel.AGENTS, verdicts, strict=True)]


V, X, U = panel.VALID, panel.INVALID, panel.UNCERTAIN
CONSENSUS = [
    # (verdicts, level, confidence, recommendation, tier 3)
    ((V, V, V, V, V), "unanimous", 1.0, panel.LIKELY_VALID, False),
    ((V, V, V, V, U), "strong", 0.64, panel.LIKELY_VALID, False),
    ((V, V, X, V, U), "split", 0.36, panel.LIKELY_UNCERTAIN, True),  # spec 004's example
    ((V, V, X, X, U), "split", 0.16, panel.LIKELY_HALLUCINATED, True),
    ((X, X, X, X, X), "unanimous", 1.0, panel.LIKELY_HALLUCINATED, True),
    ((X, X, X, X, V), "strong", 0.64, panel.LIKELY_HALLUCINATED, True),
]


@pytest.mark.parametrize(("verdicts", "level", "confidence", "recommendation", "tier3"),
                         CONSENSUS)
def test_consensus_arithmetic(verdicts: tuple[str, ...], level: str, confidence: float,
                              recommendation: str, tier3: bool) -> None:
    c = panel.consensus(_evals(*verdicts))
    assert c.agreement_level == level
    assert c.confidence_score == confidence
    assert c.recommendation == recommendation
    assert c.tier_3_trigger is tier3
    assert sum(c.verdict_counts.values()) == 5


def test_tie_breaks_to_the_cautious_verdict() -> None:
    c = panel.consensus(_evals(V, V, X, X, U))
    assert c.majority == panel.INVALID


def test_panel_json_layout() -> None:
    cite = parse_case_citation("AIR 1978 SC 597")
    result = panel.run_panel(cite, panel.Finding("not_held"), now_year=2025,
                             timestamp="2025-11-19T10:30:00Z")
    out = result.to_dict()
    assert set(out) == {"panel_evaluation", "consensus", "tier_3_trigger"}
    assert [e["agent"] for e in out["panel_evaluation"]] == list(panel.AGENTS)
    assert all(e["timestamp"] == "2025-11-19T10:30:00Z" for e in out["panel_evaluation"])
    assert set(out["consensus"]) == {"agreement_level", "verdict_counts", "confidence_score",
                                     "recommendation", "reasoning"}


@pytest.mark.parametrize(("written", "recorded", "same"), [
    ("Kesavananda Bharati v. State of Kerala",
     "HIS HOLINESS KESAVANANDA BHARATI SRIPADAGALVARU versus STATE OF KERALA", True),
    ("Tirumala Tirupati Devasthanams v. Krishnaiah",
     "TIRUMALA TRIUPATI DEVASTHANAMS versus K.M. KRISHNALAH", True),
    ("Rameshwar Prasad v. State of Kerala", "BHAGWATI DEVI versus STATE OF KERALA", False),
    # short names one letter apart are other people (a similarity ratio of 0.8 took them for
    # one): only words of FUZZ_LENGTH letters or more may differ by a typo
    ("M.C. Mehta v. Union of India", "M.C. MEHRA versus UNION OF INDIA", False),
    ("M.C. Mehta v. Union of India", "M.C. MEHTA versus UNION OF INDIA & ORS.", True),
    ("S.K. Verma v. Union of India", "S.K. VARMA versus UNION OF INDIA", False),
    ("Sreedharan v. State", "SRIDHARAN versus STATE", False),  # a spelling, but short
    # "ksh" is written "x", and a name of two words as one
    ("Kasturilal Laxmi Reddy v. State of J & K",
     "Kasturi Lal Lakshmi Reddy v. State of Jammu and Kashmir & Another", True),
    ("Mohan Lal Shamlal Soni v. Union of India", "MOHANLAL SHAMLAL SONI versus UNION OF INDIA",
     True),
    ("Kasturilal v. State", "Kasturi Singh v. State", False),
    # an abbreviation spelled out (the citation benchmark's one real case flagged NAME_MISMATCH)
    ("Dharwad District Public Works Department v. State of Karnataka",
     "THE DHARWAD DISTT. P.W.D. LITERATE DAILY WAGES EMPLOYEES ASSOCIATION & ORS. ETC. versus "
     "STATE OF KARNATAKA & ORS. ETC.", True),
    ("Dharwad District Public Welfare Board v. State of Karnataka",
     "THE DHARWAD DISTT. P.W.D. LITERATE DAILY WAGES EMPLOYEES ASSOCIATION & ORS. ETC. versus "
     "STATE OF KARNATAKA & ORS. ETC.", False),
    # half the words met: each party must have a counterpart, in either order
    ("Mithilesh Garg v. Union of India", "MITHILESH KUMAR versus MANOHAR LAL", False),
    ("Ashok v. State of Maharashtra", "ASHOK KUMAR JAIN versus SUMATI JAIN", False),
    ("Chandran v. State of Kerala", "PRAKASH CHANDRA versus NARAYAN", False),
    # ... which misprints, initials and a shortened party still have (corpus judgments' own)
    ("Arunachalam v. P.S.R. Sadhanathan", "Arunachalam v. P. S. R. Sadhanantham", True),
    ("K. Chinnaswamy Reddy v. State of A.P.", "Chinnaswamy v. State of Andhra Pradesh", True),
    ("Associated Engg. Co. v. Govt. of A.P.",
     "ASSOCIATED ENGINEERING CO. versus GOVERNMENT OF ANDHRA PRADESH AND ANR.", True),
    ("R. Venkatkrishnan vs. CBI", "R. VENKATAKRISHNAN versus CENTRAL BUREAU OF INVESTIGATION",
     True),
    ("DPP v. Humphrys", "Director of Public Prosecutions v. Humphrys", True),
    ("Bani Singh v. State of U.P.", "Bant Singh and Ors. v. Slate of U.P.", True),
    ("Queen v. Gray", "Reg. v. Gray", True),
    ("Narender Kumar v. Union of India",
     "Narendra Kumar and Others v. The Union of India and Others", True),
])
def test_name_similarity(written: str, recorded: str, same: bool) -> None:
    from nyaya.verify.cases import NAME_MATCH

    assert (name_similarity(written, recorded) >= NAME_MATCH) is same


@pytest.mark.parametrize(("words", "other", "found"), [
    # dotted initials (a run of single letters) spelled out in order, and the reverse
    ("dharwad public works department", "dharwad p w d", {"public", "works", "department"}),
    ("delhi development authority v ram lal", "d d a v ram lal",
     {"delhi", "development", "authority"}),
    ("p w d", "public works department", set()),  # single letters are not counted
    ("ram lal v delhi development authority", "ram lal v d d a",
     {"delhi", "development", "authority"}),  # the parties' "v" beside the run
    # one word of three to six letters as the initials of as many words
    ("lic v raj", "life insurance corporation of india v raj", {"lic"}),
    ("life insurance corporation v raj", "lic v raj", {"life", "insurance", "corporation"}),
    # initials in another order, some of them, or two words for a word: nothing
    ("dad v raj", "delhi development authority v raj", set()),
    ("delhi development v raj", "d d a v raj", set()),
    ("delhi development v raj", "dd v raj", set()),  # a word needs three initials
    ("public welfare board", "p w d", set()),
])
def test_an_abbreviation_spelled_out(words: str, other: str, found: set[str]) -> None:
    assert spelled_out(words.split(), other.split()) == found


def test_a_held_case_without_a_recorded_name_cannot_contradict_the_written_one():
    """IRLeD prior-case headers are cut before the title: the citation is found, the name
    is said to be unchecked, and never a NAME_MISMATCH."""
    unnamed = [{"doc_id": "IRLED:prior_case_0001", "case_id": "CASE:IRLED:prior_case_0001",
                "case_name": None, "decision_date": "1950-05-26",
                "citation_keys": ["AIR 1950 SC 124"]}]
    verdicts = CaseVerifier(unnamed, [], now_year=2025).verify(
        "See Romesh Thappar v. The State of Madras (AIR 1950 SC 124).")
    assert [v.status for v in verdicts] == [FOUND]
    assert "could not be checked (none recorded)" in verdicts[0].reason


def test_parallel_citations_of_an_unnamed_held_case_are_no_mismatch():
    """An IRLeD prior case (no name recorded) and a registry record of the same date: the
    parallel citations cannot be told apart by name, so neither is flagged."""
    unnamed = [{"doc_id": "IRLED:prior_case_0002", "case_id": "CASE:IRLED:prior_case_0002",
                "case_name": None, "decision_date": "1996-01-04",
                "citation_keys": ["AIR 1996 SC 100"]}]
    verdicts = CaseVerifier(unnamed, [_registry(
        1996, 6, "JARNAIL SINGH versus STATE OF HARYANA", "1996-01-04", "[1996] 1 SCR 260")],
        now_year=2025).verify("In Jarnail Singh v. State of Haryana, 1996 INSC 6, AIR 1996 SC "
                              "100, it was held.")
    assert [v.status for v in verdicts] == [FOUND, FOUND]


@pytest.mark.parametrize("text", [
    "Narendra Gopal Vidyarthi v. Rajat Vidyarthi, 2008 (16) SCALE 122",  # printed by the SC
    "Girishbhai Dahyabhai Shah v. C.C. Jani, (2009) 15 SCC 64",
])
def test_an_unusual_volume_alone_is_not_evidence_of_invention(verifier, text):
    """Not held, and the volume is in the unusual band: unverifiable, not NOT_FOUND."""
    verdicts = verifier.verify(text)
    assert [v.status for v in verdicts] == [UNVERIFIABLE], verdicts
    assert "plausible" in verdicts[0].reason


# --- party names -------------------------------------------------------------------------


@pytest.mark.parametrize(("a", "b", "near"), [
    ("tirupati", "triupati", True),  # two letters swapped
    ("krishnaiah", "krishnalah", True),  # one changed
    ("devasthanams", "devasthanam", True),  # one dropped
    ("mehta", "mehra", True),  # one edit apart; name_similarity needs long words for fuzz
    ("sharma", "verma", False),
    ("abcdef", "badcfe", False),
])
def test_one_edit(a: str, b: str, near: bool) -> None:
    assert one_edit(a, b) is near
    assert one_edit(b, a) is near


@pytest.mark.parametrize(("name", "words"), [
    # honorifics, "M/s", "& Ors.", "(Dead) through LRs", States, initials, numbers drop out
    ("Shri Gopal & Anr. v. State of M.P.", [["gopal"], []]),
    ("M/S. A.P.T. Ispat Pvt. Ltd. vs. U.P. Small Industries Corporation Ltd.",
     [["ispat"], ["small", "industries"]]),
    ("Gaya Din (Dead) through LRs. & Others v. Hanuman Prasad (Dead) through LRs.",
     [["gaya", "din"], ["hanuman", "prasad"]]),
    ("SMT. HARBANS KAUR versus THE COMMISSIONER OF WEALTH TAX, JULLUNDUR",
     [["harbans", "kaur"], ["jullundur"]]),
    ("State of Maharasthra v. Appasaheb", [[], ["appasaheb"]]),  # a State's name misspelt
    ("K. V. Rao vs. State", [["rao"], []]),  # "vs." is the separator, not the initial "V."
    ("K. V. Rao v. State of Kerala", [["rao"], []]),
    ("RAM SINGH V. STATE OF KERALA", [["ram", "singh"], []]),  # a title's capital "V."
    ("Ram Lal v. State (NCT of Delhi)", [["ram", "lal"], []]),
    ("\u201cPeople\u2019s Union\u201d v. Union of India", [["people"], []]),  # curly quotes
])
def test_written_words(name: str, words: list[list[str]]) -> None:
    """Each party's distinctive words, as written (`written_words`) and as keyed."""
    assert [len(side) for side in party_words(name)] == [len(side) for side in words]
    assert written_words(name) == [w for side in words for w in side]


def test_spellings_share_a_key() -> None:
    assert party_words("Sreedharan v. Bhatt") == party_words("SRIDHARAN versus BHAT")
    assert party_words("Mishra v. Chowdhury") == party_words("MISRA versus CHOWDHURY")
    assert party_words("Mehta v. X") != party_words("Mehra v. X")


def _index(*cases: tuple[str, int, str]) -> NameIndex:
    index = NameIndex()
    for ident, year, name in cases:
        index.add(ident, year, [name])
    index.prepare()
    return index


NAMES = _index(
    ("ongc", 2003, "OIL & NATURAL GAS CORPORATION LTD. versus SAW PIPES LTD."),
    ("chhotey", 2011, "STATE OF U.P. versus CHHOTEYLAL"),
    ("kamlesh", 1995, "KAMLESH KUMAR ISHWARDAS PATEL versus UNION OF INDIA AND ORS."),
    ("tirupati", 1990, "TIRUMALA TRIUPATI DEVASTHANAMS versus K.M. KRISHNALAH"),
    ("mehra", 2015, "ASHOK KUMAR MEHRA versus STATE OF PUNJAB"),
    ("rbi", 2006, "MANAGER, R.B.I. versus GOPINATH SHARMA AND ANR."),
    ("cce", 1996, "PUREWAL ASSOCIATES LTD. ETC. versus COLLECTOR OF CENTRAL EXCISE"),
)


@pytest.mark.parametrize(("written", "years", "loose", "found"), [
    ("ONGC Ltd. v. Saw Pipes Ltd.", None, False, ["ongc"]),  # a body's initials
    ("Purewal Associates Ltd. v. CCE", None, False, ["cce"]),
    ("State of Uttar Pradesh v. Chhotey Lal", None, False, ["chhotey"]),  # joined as recorded
    ("Kamleshkumar Ishwardas Patel v. Union of India", None, False, ["kamlesh"]),  # joined
    ("Tirumala Tirupati Devasthanams v. Krishnaiah", None, False, ["tirupati"]),  # typos
    ("Ashok Mehta v. State of Punjab", None, False, []),  # "Mehta" is not "Mehra"
    ("Ashok Kumar Mehta v. State of Punjab", None, False, ["mehra"]),  # one of three missed
    ("Ashok Kumar Mehra v. State of Punjab", range(2013, 2016), False, ["mehra"]),
    ("Ashok Kumar Mehra v. State of Punjab", range(1990, 2010), False, []),  # other years
    ("Saw Pipes v. State", None, False, ["ongc"]),
    ("Meena Ansari v. State of Kerala", None, True, []),  # invented
    # one party matched in part and the other in part is another case, loosely or not
    ("Ashok Tiwari v. Gopinath Mehra", None, True, []),
    ("State of Kerala v. Union of India", None, True, []),  # nothing distinctive to look for
    # written longer than recorded: a loose search keeps a word of each party
    ("Reserve Bank of India v. Gopinath Sharma", None, False, ["rbi"]),  # "R.B.I."
    ("Gopinath Sharma v. State", None, False, ["rbi"]),
])
def test_name_index_search(written: str, years, loose: bool, found: list[str]) -> None:
    assert [ident for _, ident in NAMES.search(written, years, loose)] == found


def test_two_word_names_must_match_in_full() -> None:
    index = _index(("a", 1995, "MEENA KUMARI versus STATE OF KERALA"),
                   ("b", 1995, "SALMA ANSARI versus UNION OF INDIA"))
    assert index.search("Meena Ansari v. State of Kerala", loose=True) == []


@pytest.mark.parametrize(("decided", "covered"), [
    ({1977: 1, 1989: 1, 1990: 400, 1991: 350, 2024: 780, 2025: 459}, {1990, 1991, 2024}),
    ({1995: 100}, set()),  # the last year held is partial: SCR prints months later
    ({}, set()),
])
def test_covered_years(decided: dict[int, int], covered: set[int]) -> None:
    assert covered_years(decided) == covered


# --- what the names written say of a citation we do not hold -----------------------------

def _record(year: int, number: int, title: str, scr: str | None = None) -> dict:
    return _registry(year, number, title, f"{year}-06-01", scr)


def _named_registry() -> list[dict]:
    """1994-1997, twenty judgments a year (1997 the last year held, so partial); 1995 holds
    its INSC numbers but 17 (a complete year), 1996 only even ones (a partial one)."""
    fillers = ["ALPHONSO", "BHAGIRATHI", "CHINNAPPA", "DURGAPRASAD", "ELAYARAJA", "FAKIRCHAND",
               "GANGADHARA", "HIRALALBHAI", "INDUMATHI", "JAGANNATHA", "KESHAVANAND",
               "LAKSHMIKANT", "MADHUSUDAN", "NARASIMHULU", "OMPRAKASHJI", "PADMANABHA",
               "RAGHUNANDAN", "SHIVALINGAM", "TRILOKINATH", "UMASHANKAR"]
    rows = []
    for year in (1994, 1995, 1996, 1997):
        numbers = (range(2, 41, 2) if year == 1996 else [n for n in range(1, 22) if n != 17]
                   if year == 1995 else range(1, 21))
        for i, number in enumerate(numbers):
            rows.append(_record(year, number, f"{fillers[i]}{year} versus STATE OF BIHAR",
                                f"[{year}] 1 SCR {10 + 50 * i}"))
    named = {
        (1995, 3): ("ATUL SINGH versus SUNIL KUMAR SINGH", "[1995] 1 SCR 110"),
        (1995, 4): ("INTERNATIONAL AIRPORT AUTHORITY OF INDIA versus INTERNATIONAL AIR CARGO "
                    "WORKERS UNION & ANR.", "[1995] 1 SCR 160"),
        (1996, 10): ("MOHAN LAL GUPTA versus STATE OF PUNJAB", "[1996] 1 SCR 210"),
        (1996, 12): ("ABRAR versus STATE OF U.P.", "[1996] 1 SCR 260"),
        (1996, 14): ("STATE OF MAHARASHTRA versus RAJENDRA AND OTHERS", "[1996] 1 SCR 310"),
        (1996, 16): ("RAJENDRA versus STATE OF RAJASTHAN", "[1996] 1 SCR 360"),
    }
    for row in rows:
        key = (row["year"], int(row["neutral_citation"].split()[-1]))
        if key in named:
            title, scr = named[key]
            row.update(_record(key[0], key[1], title, scr))
    return rows


PRINTED = [  # citations the corpus judgments print
    {"doc_id": "AILA:C9", "citation_key": "(1996) 3 SCC 50", "case_name": "Hari Om v. State",
     "reporter": "SCC"},
    {"doc_id": "AILA:C9", "citation_key": "[1996] 1 SCR 999",
     "case_name": "Mohan Lal Gupta v. State of Punjab", "reporter": "SCR"},
    {"doc_id": "AILA:C520", "citation_key": "(1982) 3 SCC 1982",  # misprinted, but printed
     "case_name": "Sant Bir v. State of Bihar", "reporter": "SCC"},
]


@pytest.fixture(scope="module")
def named() -> CaseVerifier:
    return CaseVerifier([], _named_registry(), now_year=2025, mentions=PRINTED)


NAMED_CASES = [
    # (text, status, words the reason must hold)
    # invented names, in years the registry holds in full: evidence of invention
    ("Meena Ansari v. State of Kerala, (1996) 3 SCC 460", CASE_NOT_FOUND,
     ["no case decided 1994–1997", "'Meena Ansari v. State of Kerala'",
      "distinctive words searched: meena, ansari", "SC registry", "held in full for 1994–1996",
      "unknown_authority"]),
    ("Meena Ansari v. State of Kerala, AIR 1995 SC 1640", CASE_NOT_FOUND,
     ["no case decided 1993–1996"]),
    # ... not where the registry is partial (1997, its last year) or holds nothing (1986)
    ("Meena Ansari v. State of Kerala, (1997) 3 SCC 460", UNVERIFIABLE, ["plausible"]),
    ("Meena Ansari v. State of Kerala, (1986) 3 SCC 460", UNVERIFIABLE, ["plausible"]),
    # a real case whose SCC citation we do not hold: it exists, the page is unchecked
    ("Atul Singh v. Sunil Kumar Singh, (1995) 2 SCC 300", UNVERIFIABLE,
     ["ATUL SINGH versus SUNIL KUMAR SINGH", "whose SCC citation we do not hold"]),
    # a real case's names with another INSC number or SCR page: the citation is wrong
    ("Atul Singh v. Sunil Kumar Singh, 1995 INSC 17", CASE_NOT_FOUND,
     ["not in the SC registry, which holds 20 of the 21", "ATUL SINGH",
      "own INSC citation is 1995 INSC 3", "is not its citation"]),
    ("Atul Singh v. Sunil Kumar Singh, [1995] 1 SCR 515", CASE_NOT_FOUND,
     ["own SCR citation is [1995] 1 SCR 110", "implausible_combination"]),
    # a page inside the judgment the names are: a pinpoint, not an invention
    ("International Airport Authority of India v. International Air Cargo Workers Union, "
     "[1995] 1 SCR 185", UNVERIFIABLE, ["page 185 lies inside", "pinpoint"]),
    # 1996 holds half its INSC numbers: two names are evidence, one is not (a namesake's
    # number may be one we lack); LII's bracketed numbering is not the Court's
    ("Mohan Lal Gupta v. State of Punjab, 1996 INSC 7", CASE_NOT_FOUND,
     ["own INSC citation is 1996 INSC 10"]),
    ("Abrar v. State of Uttar Pradesh, 1996 INSC 7", UNVERIFIABLE, ["ABRAR"]),
    ("State of Maharashtra v. Rajendra, 1996 INSC 7", CASE_NOT_FOUND,  # the State's name too
     ["own INSC citation is 1996 INSC 14"]),
    ("Mohan Lal Gupta v. State of Punjab, [1996] INSC 7", UNVERIFIABLE, ["plausible"]),
    # printed by a corpus judgment: the Supreme Court wrote it
    ("Hari Om v. State, (1996) 3 SCC 50", UNVERIFIABLE,
     ["corpus judgment AILA:C9 prints (1996) 3 SCC 50 as 'Hari Om v. State'"]),
    ("Hari Om v. State, (1996) 5 SCC 212", UNVERIFIABLE,
     ["corpus judgment AILA:C9 cites a case of these names"]),
    ("Mohan Lal Gupta v. State of Punjab, [1996] 1 SCR 999", UNVERIFIABLE,
     ["corpus judgment AILA:C9 prints"]),
    # printed so by a judgment: not invented, though the page is beyond any SCC volume
    ("Sant Bir v. State of Bihar, (1982) 3 SCC 1982", UNVERIFIABLE,
     ["corpus judgment AILA:C520 prints", "page_unreasonable", "may be misprinted"]),
    ("Sohan Singh v. State of Bihar, (1982) 3 SCC 1982", CASE_NOT_FOUND,  # not with these names
     ["page_unreasonable", "likely fabricated"]),
    # no distinctive name: nothing to search for
    ("State of Kerala v. Union of India, (1996) 3 SCC 460", UNVERIFIABLE, ["plausible"]),
]


@pytest.mark.parametrize(("text", "status", "words"), NAMED_CASES)
def test_names_written_with_a_citation_we_do_not_hold(named: CaseVerifier, text: str,
                                                      status: str, words: list[str]) -> None:
    [verdict] = named.verify(text)
    assert verdict.status == status, verdict.reason
    for word in words:
        assert word in verdict.reason
    if "is not its citation" in verdict.reason:
        assert verdict.matched is not None and verdict.case_key not in verdict.matched[
            "citations"]
    if status == UNVERIFIABLE:
        assert "is not its citation" not in verdict.reason


COMMA_NAMES = [
    _record(1992, 327, "JARNAIL SINGH versus SECRETARY, MINISTRY OF HOME AFFAIRS AND ORS."),
    _record(1997, 391, "SPECIAL LAND ACQUISITION OFFICER, KHEDA AND ANR. ETC. versus VASUDEV "
                       "CHANDRASHANKAR AND ANR. ETC."),
    _record(1996, 5, "UNION OF INDIA versus GENERAL MANAGER, NORTHERN RAILWAY"),
    _record(1996, 6, "UNION OF INDIA versus GENERAL MANAGER, SOUTHERN RAILWAY"),
    _record(1996, 1464, "MAJOR SINGH versus RATTAN SINGH (DEAD) BY LRS. AND ORS."),
]

READ_ON_NAMES = [
    # (text, status, the citation as shown): a name cited alone, cut where a party's
    # description has a comma, is read on when the longer name is one held case's whole name
    ("The rule in Jarnail Singh v. Secretary, Ministry Of Home Affairs And Ors. applies.",
     FOUND, "Jarnail Singh v. Secretary, Ministry Of Home Affairs And Ors."),
    ("In Special Land Acquisition Officer, Kheda And Anr. Etc. v. Vasudev Chandrashankar And "
     "Anr. Etc., the Court held so.", FOUND, "Special Land Acquisition Officer, Kheda And Anr. "
     "Etc. v. Vasudev Chandrashankar And Anr. Etc."),
    # two held cases share the cut name: the words after the comma choose
    ("As Union of India v. General Manager, Southern Railway shows, it is so.", FOUND,
     "Union of India v. General Manager, Southern Railway"),
    # "(D) By Lrs." is the registry's "(DEAD) BY LRS.": who stands in for a party that died
    ("In Major Singh v. Rattan Singh (D) By Lrs. And Ors. the Court held so.", FOUND,
     "Major Singh v. Rattan Singh (D) By Lrs. And Ors."),
    ("In Major Singh v. Rattan Singh, it was held.", FOUND, "Major Singh v. Rattan Singh"),
    # prose after the comma, or the description on the next line: no case has that name
    ("In Jarnail Singh v. Secretary, as it then stood, the Court erred.", UNVERIFIABLE,
     "Jarnail Singh v. Secretary"),
    ("In Jarnail Singh v. Secretary,\nMinistry Of Home Affairs And Ors. the Court held so.",
     UNVERIFIABLE, "Jarnail Singh v. Secretary"),
]


@pytest.mark.parametrize(("text", "status", "shown"), READ_ON_NAMES)
def test_a_name_cited_alone_is_read_on_to_a_held_cases_name(text: str, status: str,
                                                            shown: str) -> None:
    verifier = CaseVerifier([], COMMA_NAMES, now_year=2025)
    [verdict] = verifier.verify(text)
    assert (verdict.status, verdict.text) == (status, shown), verdict.reason
    assert text[verdict.span[0]:verdict.span[1]] == shown


def test_the_citations_after_a_name_read_on_are_checked_with_it() -> None:
    """The extractor stops at "for the" ("Board of Trustees for the Port of Calcutta"); read on
    to a held case's whole name, the name ends there, so the citations after it are its own,
    and a parallel citation of another case is a mismatch."""
    registry = [_record(2006, 677, "EVEREST INDUSTRIES LTD. versus BOARD OF TRUSTEES FOR THE "
                                   "PORT OF CALCUTTA"),
                _record(1997, 40, "ASSOCIATED STONE INDUSTRIES versus COMMISSIONER OF INCOME "
                                  "TAX", "[1997] 1 SCR 957")]
    verifier = CaseVerifier([], registry, now_year=2025)
    text = ("In Everest Industries Ltd. v. Board of Trustees for the Port of Calcutta, 2006 INSC "
            "677, [1997] 1 SCR 957, the Court held so.")
    name, own, other = verifier.verify(text)
    assert (name.status, own.status) == (FOUND, FOUND), (name.reason, own.reason)
    assert other.status == NAME_MISMATCH and "ASSOCIATED STONE" in other.reason
    # a citation further on, past other words, is not the name's
    [_, far] = verifier.verify("In Everest Industries Ltd. v. Board of Trustees for the Port of "
                               "Calcutta, as held in [1997] 1 SCR 957.")
    assert far.status == FOUND and "ASSOCIATED STONE" in far.reason


def test_the_citations_after_a_held_name_and_its_closing_words_are_checked_with_it() -> None:
    """A registry title's "And. Ors. Etc. Etc." ends the extractor's name at "And", before
    the citations; the name is a held case's whole name, so they are its own, and a parallel
    citation of another case (same first name, other parties) is a mismatch."""
    registry = [_record(1991, 309, "MITHILESH GARG ETC. ETC. versus UNION OF INDIA AND. ORS. "
                                   "ETC. ETC."),
                _record(1996, 1257, "MITHILESH KUMAR versus MANOHAR LAL", "[1996] Supp 8 SCR 173")]
    verifier = CaseVerifier([], registry, now_year=2025)
    name, own, other = verifier.verify(
        "This Court relied on Mithilesh Garg Etc. Etc. v. Union of India And. Ors. Etc. Etc., "
        "1991 INSC 309, [1996] Supp 8 SCR 173, to allow the petition.")
    assert (name.status, own.status) == (FOUND, FOUND), (name.reason, own.reason)
    assert other.status == NAME_MISMATCH and "MANOHAR LAL" in other.reason, other.reason


def test_name_absence_can_be_turned_off() -> None:
    verifier = CaseVerifier([], _named_registry(), now_year=2025, name_absence=False)
    [verdict] = verifier.verify("Meena Ansari v. State of Kerala, (1996) 3 SCC 460")
    assert verdict.status == UNVERIFIABLE
    [wrong] = verifier.verify("Atul Singh v. Sunil Kumar Singh, 1995 INSC 17")
    assert wrong.status == CASE_NOT_FOUND  # a wrong number of a held case is no absence


def test_the_same_names_in_another_year_are_named() -> None:
    verifier = CaseVerifier([], _named_registry(), now_year=2025)
    [verdict] = verifier.verify("Atul Singh v. Sunil Kumar Singh, (1992) 2 SCC 300")
    assert verdict.status == UNVERIFIABLE  # 1990-1991 are not held: nothing to conclude
    registry = [*_named_registry(), *(_record(y, 1, f"FILLER{y} versus STATE",
                                              f"[{y}] 1 SCR 5") for y in range(1990, 1994))]
    verifier = CaseVerifier([], registry, now_year=2025, covered=range(1990, 1997))
    [verdict] = verifier.verify("Atul Singh v. Sunil Kumar Singh, (1992) 2 SCC 300")
    assert verdict.status == CASE_NOT_FOUND
    assert "cases of these names were decided in other years: ATUL SINGH" in verdict.reason


def test_lii_numbers_with_names_of_another_years_case_are_a_mismatch() -> None:
    """An LII number carries its judgment's year, as the Court's does: names held only under
    another year, where the registry holds the number's year in full, are another case's."""
    registry = [_registry(1991, 156, "SHIVAJI DAYANU PATIL versus VATSCHALA UTTAM MORE",
                          "1991-07-17"),
                _registry(1995, 91, "UNION OF INDIA versus D. MOHAN", "1995-02-01"),
                _registry(1995, 7, "RAM LAL versus STATE OF PUNJAB", "1995-01-20"),
                _registry(1993, 9, "RAM LAL versus STATE OF PUNJAB", "1993-05-02")]
    verifier = CaseVerifier([], registry, now_year=2025, covered=range(1990, 1997))
    [wrong] = verifier.verify("Shivaji Dayanu Patil v. Vatschala Uttam More, [1995] INSC 91")
    assert wrong.status == NAME_MISMATCH, wrong.reason
    assert "LII of India's number of a judgment of 1995" in wrong.reason
    assert "SHIVAJI DAYANU PATIL" in wrong.reason
    # names a case of the number's year has too: the LII number cannot be checked
    [same_year] = verifier.verify("Ram Lal v. State of Punjab, [1995] INSC 91")
    assert same_year.status == UNVERIFIABLE, same_year.reason
    # a year the registry does not hold in full proves nothing
    partial = CaseVerifier([], registry, now_year=2025, covered=range(1990, 1995))
    [unheld] = partial.verify("Shivaji Dayanu Patil v. Vatschala Uttam More, [1995] INSC 91")
    assert unheld.status == UNVERIFIABLE, unheld.reason


def test_an_lii_number_is_checked_against_the_case_whose_header_prints_it() -> None:
    """LII numbers the Court's judgments one or two apart: "[1995] INSC 29" may be the
    Court's 1995 INSC 30. A held case whose header prints no INSC number (linked to the
    registry by its SCR citation) holds only the Court's number, so other names written with
    the LII number are unchecked, not a mismatch; a header printing the number makes it that
    case's, and other names are then a mismatch."""
    registry = [_registry(1995, 29, "BHUSHAN UTTAM KHARE versus DEAN, B.J. MEDICAL COLLEGE",
                          "1995-01-28", "[1995] 1 SCR 386"),
                _registry(1995, 30, "SH. BILESHWAR KHAND UDYOG versus STATE OF GUJARAT",
                          "1995-01-28", "[1995] 1 SCR 391")]
    registry[0]["case_id"] = "CASE:IRLED:prior_case_1391"
    by_scr = [{"doc_id": "IRLED:prior_case_1391", "case_id": "CASE:IRLED:prior_case_1391",
               "case_name": None, "decision_date": "1995-01-28",
               "citation_keys": ["[1995] 1 SCR 386"]}]
    text = "Shri Bileshwar Khand Udyog v. State of Gujarat, [1995] INSC 29"
    [unchecked] = CaseVerifier(by_scr, registry, now_year=2025).verify(text)
    assert unchecked.status == UNVERIFIABLE, unchecked.reason
    assert "LII of India's numbering" in unchecked.reason
    # the case the names are, so that it can be cited by the Court's own citation
    assert "the names written are those of SH. BILESHWAR KHAND UDYOG" in unchecked.reason
    assert unchecked.matched["id"] == "SC:1995 INSC 30"
    by_lii = [{**by_scr[0], "case_name": "Bhushan Uttam Khare v. Dean",
               "citation_keys": ["1995 INSC 29", "[1995] 1 SCR 386"]}]
    [wrong] = CaseVerifier(by_lii, registry, now_year=2025).verify(text)
    assert wrong.status == NAME_MISMATCH, wrong.reason


# --- reporter volumes per year -------------------------------------------------------------

def test_volume_ranges_need_enough_citations() -> None:
    keys = [("SCC", 1975, v, str(p)) for v in (1, 2, 3, 4) for p in range(30)]
    keys += [("SCC", 1975, 11, "5")]  # one citation of a volume that never was: a typo
    keys += [("SCC", 2008, v, str(p)) for v in range(1, 17) for p in range(3)]
    ranges = panel.volume_ranges(keys)
    assert ranges[("SCC", 1975)] == panel.VolumeRange(4, 121)
    assert ("SCC", 2008) not in ranges  # 48 citations cannot tell 16 volumes from 17
    cite = parse_case_citation("(1975) 6 SCC 198")
    got = panel.authority(cite, 2025, None, ranges)
    assert (got.verdict, got.reason) == (panel.INVALID, "volume_impossible")
    assert "printed 4 volumes in 1975" in got.detail
    cite = parse_case_citation("(1975) 3 SCC 198")
    assert panel.authority(cite, 2025, None, ranges).verdict == panel.VALID
    cite = parse_case_citation("(1975) Supp 6 SCC 198")  # supplementary volumes are apart
    assert panel.authority(cite, 2025, None, ranges).verdict == panel.VALID


def test_a_volume_beyond_the_years_count_is_not_found() -> None:
    printed = [{"doc_id": f"D{v}{p}", "citation_key": f"(1975) {v} SCC {p}",
                "case_name": None, "reporter": "SCC"} for v in (1, 2, 3, 4) for p in range(1, 31)]
    verifier = CaseVerifier([], [], now_year=2025, mentions=printed)
    [verdict] = verifier.verify("Gopal Pillai v. State of Kerala, (1975) 6 SCC 198")
    assert verdict.status == CASE_NOT_FOUND
    assert "volume_impossible" in verdict.reason


def test_a_year_held_in_part_asks_for_more_of_the_names() -> None:
    """1997 is the registry's last year, held in part: one distinctive word could be a
    namesake's whose citation we lack, and a page shortly after a judgment's first may be a
    pinpoint into it, where we cannot see which judgment a page falls in."""
    registry = [
        *_named_registry(),
        _record(1997, 30, "NATIONAL SPOT EXCHANGE LIMITED versus UNION OF INDIA & ORS.",
                "[1997] 2 SCR 223"),
        _record(1997, 31, "ABRAR versus STATE OF BIHAR", "[1997] 2 SCR 400")]
    verifier = CaseVerifier([], registry, now_year=2025)
    assert 1997 not in verifier.covered
    cases = [
        ("National Spot Exchange Limited v. Union of India, [1997] 2 SCR 900", CASE_NOT_FOUND),
        ("National Spot Exchange Limited v. Union of India, [1997] 2 SCR 240", UNVERIFIABLE),
        ("National Spot Exchange Limited v. Union of India, [1997] 2 SCR 100", CASE_NOT_FOUND),
        ("Abrar v. State of Bihar, [1997] 2 SCR 100", CASE_NOT_FOUND),  # the State counts
        ("Abrar v. Union of India, [1997] 2 SCR 100", UNVERIFIABLE),
    ]
    for text, status in cases:
        [verdict] = verifier.verify(text)
        assert verdict.status == status, (text, verdict.reason)


def test_a_party_of_initials_only_is_its_initials() -> None:
    assert written_words("Union of India vs. M/S V.V.F Limited") == ["vvf"]
    assert party_words("Union of India vs. M/S V.V.F Limited") == party_words(
        "UNION OF INDIA versus M/S. VVF LTD.")
    index = _index(("vvf", 2020, "UNION OF INDIA versus M/S V.V.F. LIMITED"))
    assert index.search("Union of India v. VVF Ltd.") == [(0, "vvf")]


def test_only_the_registrys_citations_make_a_citation_wrong() -> None:
    """A corpus header's SCR citation may be the misprint, not the text's; and an SCR
    citation written without its volume is the same citation."""
    judgments = [{"doc_id": "AILA:C5", "case_id": "CASE:AILA:C5",
                  "case_name": "P.J. Irani v. State of Madras", "decision_date": "1961-04-21",
                  "citation_keys": ["AIR 1961 SC 1731", "[1962] 2 SCR 169"]}]
    verifier = CaseVerifier(judgments, _named_registry(), now_year=2025)
    [header] = verifier.verify("P.J. Irani v. State of Madras, [1962] 1 SCR 169")
    assert header.status == UNVERIFIABLE, header.reason
    [volume] = verifier.verify("Atul Singh v. Sunil Kumar Singh, [1995] SCR 110")
    assert volume.status == UNVERIFIABLE, volume.reason
    assert "ATUL SINGH" in volume.reason


def test_a_registry_scr_citation_without_its_key_is_read() -> None:
    """Tables built before the extractor read "SUPP." in capitals hold no key for it."""
    record = _registry(1996, 850, "RAJENDRA SINGH versus THE STATE OF MADHYA PRADESH AND ORS.",
                       "1996-08-08")
    record["scr_citation"] = "[1996] SUPP. 4 S.C.R. 393"
    [verdict] = CaseVerifier([], [record], now_year=2025).verify(
        "Rajendra Singh v. State of M.P., [1996] Supp. 4 SCR 393")
    assert verdict.status == FOUND, verdict.reason


def test_an_lii_number_of_a_header_is_its_judgment_and_the_courts_the_records() -> None:
    """IRLeD headers print LII of India's INSC numbers; the registry holds the Court's, which
    gives the same number to a judgment of another day: two cases, not one (the tables do not
    link them, `match_registry`)."""
    judgments = [{"doc_id": "IRLED:prior_case_0744", "case_id": "CASE:IRLED:prior_case_0744",
                  "case_name": None, "decision_date": "1994-03-11",
                  "citation_keys": ["1994 INSC 172", "JT 1994 (2) SC 423", "(1994) 3 SCC 569"]}]
    record = _registry(1994, 172, "SARDAR SINGH versus SMT. KRISHNA DEVI AND ANR.",
                       "1994-04-26", "[1994] 3 SCR 717")
    verifier = CaseVerifier(judgments, [record], now_year=2025)
    [jt] = verifier.verify("See Kartar Singh v. State of Punjab (JT 1994 (2) SC 423).")
    assert jt.status == FOUND, jt.reason
    [scr] = verifier.verify("Sardar Singh v. Krishna Devi, [1994] 3 SCR 717")
    assert scr.status == FOUND and "SARDAR SINGH" in scr.reason
    [mismatch] = verifier.verify("Kartar Singh v. State of Punjab, [1994] 3 SCR 717")
    assert mismatch.status == NAME_MISMATCH
    # the number: the Court's scheme unbracketed (the registry's), LII's in brackets (IRLeD's)
    [court] = verifier.verify("Kartar Singh v. State of Punjab, 1994 INSC 172")
    assert court.status == NAME_MISMATCH and "SARDAR SINGH" in court.reason
    [lii] = verifier.verify("Kartar Singh v. State of Punjab, [1994] INSC 172")
    assert lii.status == FOUND and lii.matched["id"] == "CASE:IRLED:prior_case_0744"


@pytest.mark.parametrize(("printers", "status"), [
    # two judgments of different cases print it with these names: corroborated
    ([("A1", "CASE:A1", "Maneka Gandhi v. Union of India"),
      ("A2", "CASE:A2", "Maneka Gandhi vs. U.O.I.")], "CORROBORATED"),
    # the same case's judgment in two sources counts once
    ([("A1", "CASE:X", "Maneka Gandhi v. Union of India"),
      ("I1", "CASE:X", "Maneka Gandhi v. Union of India")], "UNVERIFIABLE"),
    # printed with other names by the second judgment: one printer
    ([("A1", "CASE:A1", "Maneka Gandhi v. Union of India"),
      ("A2", "CASE:A2", "Ram Lal v. State of Punjab")], "UNVERIFIABLE"),
])
def test_a_citation_printed_by_several_judgments_is_corroborated(printers, status) -> None:
    judgments = [{"doc_id": doc, "case_id": case, "case_name": None, "decision_date": None,
                  "citation_keys": []} for doc, case, _ in printers]
    printed = [{"doc_id": doc, "citation_key": "(1978) 1 SCC 248", "case_name": name,
                "reporter": "SCC"} for doc, _, name in printers]
    verifier = CaseVerifier(judgments, [], now_year=2025, mentions=printed)
    [verdict] = verifier.verify("See Maneka Gandhi v. Union of India, (1978) 1 SCC 248.")
    assert verdict.status == status, verdict.reason
    if status == "CORROBORATED":
        assert "2 corpus judgments of different cases print it" in verdict.reason
        assert verdict.survives and verdict.source == "citations printed in the corpus judgments"


def test_an_old_report_printed_without_its_year_corroborates_one_written_with_it() -> None:
    """ILR volumes were numbered since the series began: "(1903) ILR 30 Cal 539" and "I.L.R.
    30 Cal. 539" are one citation, as the judgments print it either way."""
    written = [("A1", "Mohori Bibee v. Dharmodas Ghose, I.L.R. 30 Cal. 539"),
               ("A2", "Mohori Bibee v. Dharmodas Ghosh, (1903) ILR 30 Cal 539")]
    judgments = [{"doc_id": doc, "case_id": f"CASE:{doc}", "case_name": None,
                  "decision_date": None, "citation_keys": []} for doc, _ in written]
    printed = [{"doc_id": doc, "citation_key": cite.key, "case_name": cite.case_name,
                "reporter": cite.reporter}
               for doc, text in written for cite in extract_case_citations(text)]
    verifier = CaseVerifier(judgments, [], now_year=2025, mentions=printed)
    [verdict] = verifier.verify("A minor's agreement is void: Mohori Bibee v. Dharmodas Ghose, "
                                "(1903) ILR 30 Cal 539.")
    assert verdict.status == "CORROBORATED", verdict.reason
    assert "2 corpus judgments of different cases print it" in verdict.reason


MANEKA = "Maneka Gandhi v. Union of India"


@pytest.mark.parametrize(("printers", "written", "status"), [
    # three judgments of different cases print it as Maneka Gandhi's, none as Arnesh Kumar's
    ([("A1", MANEKA), ("A2", "Maneka Gandhi vs. U.O.I."), ("A3", MANEKA)],
     "Arnesh Kumar v. State of Bihar", NAME_MISMATCH),
    # two are not enough
    ([("A1", MANEKA), ("A2", MANEKA)], "Arnesh Kumar v. State of Bihar", UNVERIFIABLE),
    # one judgment printing the names written: the others' printing is no evidence against it
    ([("A1", MANEKA), ("A2", MANEKA), ("A3", MANEKA), ("A4", "Arnesh Kumar v. State of Bihar")],
     "Arnesh Kumar v. State of Bihar", UNVERIFIABLE),
    # names alike letter by letter are a misprint of one case's, not another case
    ([("A1", MANEKA), ("A2", MANEKA), ("A3", MANEKA)], "Manek Gandi v. Union of India",
     UNVERIFIABLE),
])
def test_a_citation_printed_as_another_cases_is_a_name_mismatch(printers, written,
                                                                 status) -> None:
    printed = [{"doc_id": doc, "citation_key": "(1978) 1 SCC 248", "case_name": name,
                "reporter": "SCC"} for doc, name in printers]
    verifier = CaseVerifier([], [], now_year=2025, mentions=printed)
    [verdict] = verifier.verify(f"See {written}, (1978) 1 SCC 248.")
    assert verdict.status == status, verdict.reason
    if status == NAME_MISMATCH:
        assert "3 corpus judgments of different cases print it as the citation of " \
            "'Maneka Gandhi v. Union of India'" in verdict.reason


@pytest.mark.parametrize(("written", "status", "says"), [
    # the case is held without a name; two judgments print its citation with another's
    ("Brathi v. State of Punjab", NAME_MISMATCH,
     "2 corpus judgments of different cases print it as the citation of 'Paschim Banga Khet "
     "Mazdoor Samity v. State of West Bengal'"),
    # and with the names written: those judgments vouch for them
    ("Paschim Banga Khet Mazdoor Samity v. State of West Bengal", FOUND,
     "its name is not recorded, but 2 corpus judgments of different cases print it with the "
     "names written (A1, A2)"),
])
def test_a_held_case_without_a_name_is_named_by_the_judgments_printing_it(written, status,
                                                                           says) -> None:
    judgments = [{"doc_id": "IRLED:prior_case_0007", "case_id": "CASE:IRLED:prior_case_0007",
                  "case_name": None, "decision_date": "1996-05-06",
                  "citation_keys": ["(1996) 4 SCC 37"]}]
    printed = [{"doc_id": doc, "citation_key": "(1996) 4 SCC 37", "case_name": name,
                "reporter": "SCC"}
               for doc, name in (("A1", "Paschim Banga Khet Mazdoor Samity v. State of West "
                                        "Bengal"),
                                 ("A2", "Paschim Bangal Khet Mazdoor Samity vs. State of West "
                                        "Bengal & Ors."))]
    verifier = CaseVerifier(judgments, [], now_year=2025, mentions=printed)
    [verdict] = verifier.verify(f"See {written}, (1996) 4 SCC 37.")
    assert verdict.status == status, verdict.reason
    assert says in verdict.reason


def test_names_that_meet_only_on_common_words_are_two_cases() -> None:
    from nyaya.verify.cases import common_name_words

    names = [f"{first} Singh v. State of Punjab" for first in ("Bachan", "Machhi", "Harjit")]
    common = common_name_words(names * 10)  # 30 names: a word in 20 of them is common
    assert common >= {"singh", "punjab"} and "bachan" not in common
    assert name_similarity("Bachan Singh v. State of Punjab",
                           "Machhi Singh v. State of Punjab", common) == 0.0
    assert name_similarity("Bachan Singh v. State of Punjab",
                           "Machhi Singh v. State of Punjab") >= 0.5  # without the guard
    # a rare word misprinted still meets its own, and names of common words alone are one
    assert name_similarity("Bachiter Singh v. State of Punjab",
                           "Bachhittar Singh v. State of Punjab", common) >= 0.5
    assert name_similarity("Singh v. State of Punjab", "Singh v. State of Punjab", common) == 1
    # a typo of a common word is common too
    assert name_similarity("Industrial Develoment Corporation v. State",
                           "Housing Area Development Authority v. State", {"development"}) == 0.0
    assert name_similarity("Industrial Develoment Corporation v. State",
                           "Housing Area Development Authority v. State") == 0.5


# Real registry titles (1992-2016), held under made-up numbers of 1996, for the pairing tests.
PAIRED = CaseVerifier([], [
    _registry(1996, 1, "JARNAIL SINGH versus SECRETARY, MINISTRY OF HOME AFFAIRS AND ORS.",
              "1996-12-03"),
    _registry(1996, 2, "SPECIAL LAND ACQUISITION OFFICER, KHEDA AND ANR. ETC. versus VASUDEV "
              "CHANDRASHANKAR AND ANR. ETC.", "1996-04-08"),
    _registry(1996, 3, "GANPATI BAYAJI PATIL versus SBRIDHAR BABAJI VIBHUTE (D) BY LRS. AND ORS.",
              "1996-08-22"),
    _registry(1996, 4, "DR. YOGESH BHARDWAJ versus STATE OF U.P. AND ORS.", "1996-04-24"),
    _registry(1996, 5, "STATE OF MAHARASHTRA versus MAHADEO DEOMAN RAI ALIAS KALAL AND OTHERS",
              "1996-04-19"),
    _registry(1996, 6, "JARNAIL SINGH AND ANR. ETC. versus STATE OF HARYANA", "1996-01-21",
              "[1996] 1 SCR 260"),
    _registry(1996, 7, "JARNAIL SINGH AND ANR. versus STATE OF HARYANA AND ANR.", "1996-03-07",
              "[1996] 3 SCR 460"),
], now_year=2025)


@pytest.mark.parametrize(("text", "statuses", "words"), [
    # real names as printed, commas, "Etc.", "(D) By Lrs.", "State Of": their own record
    ("In Jarnail Singh v. Secretary, Ministry Of Home Affairs And Ors., 1996 INSC 1, held.",
     [FOUND], []),
    ("In Special Land Acquisition Officer, Kheda And Anr. Etc. v. Vasudev Chandrashankar And "
     "Anr. Etc., 1996 INSC 2, held.", [FOUND], []),
    ("In Ganpati Bayaji Patil v. Sbridhar Babaji Vibhute (D) By Lrs. And Ors., 1996 INSC 3.",
     [FOUND], []),
    ("In Dr. Yogesh Bhardwaj v. State Of U.P. And Ors., 1996 INSC 4, it was held.", [FOUND], []),
    # a wrong pairing: both names in the reason
    ("In Rattan Singh & Ors. v. Nirmal Gill & Ors. Etc., 1996 INSC 5, the Court held so.",
     [NAME_MISMATCH], ["Rattan Singh & Ors. v. Nirmal Gill & Ors. Etc.", "MAHADEO DEOMAN RAI"]),
    ("In Ganpati Bayaji Patil v. Sbridhar Babaji Vibhute (D) By Lrs. And Ors., 1996 INSC 2.",
     [NAME_MISMATCH], ["Ganpati Bayaji Patil", "KHEDA"]),
    # in square brackets, LII of India's number: not the registry's case of that number
    ("In Rattan Singh & Ors. v. Nirmal Gill & Ors. Etc., [1996] INSC 5, the Court held so.",
     [UNVERIFIABLE], ["LII of India", "MAHADEO DEOMAN RAI"]),
    # parallel citations of two cases of like names: which one is wrong cannot be told
    ("In Jarnail Singh v. State of Haryana, 1996 INSC 6, [1996] 3 SCR 460, it was held.",
     [NAME_MISMATCH] * 2, ["parallel citations", "1996 INSC 6", "[1996] 3 SCR 460"]),
    ("In Jarnail Singh v. State of Haryana, 1996 INSC 6, [1996] 1 SCR 260, it was held.",
     [FOUND] * 2, []),  # one case's two citations
])
def test_a_full_citation_is_checked_as_one(text: str, statuses: list[str],
                                           words: list[str]) -> None:
    """One verdict per citation, none for a name fragment; the names against the case."""
    verdicts = PAIRED.verify(text)
    assert [v.status for v in verdicts] == statuses
    for verdict in verdicts:
        assert all(w in verdict.reason for w in words), verdict.reason
        assert verdict.survives == (verdict.status == FOUND)  # a mismatch is removed
