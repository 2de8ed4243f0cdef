"""Case-citation verdicts and the deterministic five-validator panel, on small in-memory rows."""

from __future__ import annotations

import pytest

from nyaya.citations.cases import parse_case_citation
from nyaya.verify import panel
from nyaya.verify.cases import UNVERIFIABLE, CaseVerifier, name_similarity
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
]
NODES = [{"node_id": "CASE:AILA:C1", "case_name": "Arunachalam v. Sadhanantham",
          "overruled": True},
         {"node_id": "CASE:AILA:C2", "case_name": "Later Bench v. State", "overruled": False}]
EDGES = [{"source_id": "CASE:AILA:C2", "target_id": "CASE:AILA:C1", "target_type": "case",
          "relation": "overrules", "origin": "text"}]


@pytest.fixture(scope="module")
def verifier() -> CaseVerifier:
    return CaseVerifier(JUDGMENTS, REGISTRY, NODES, EDGES, now_year=2025)


CASES = [
    # (text, status, words the reason must contain)
    ("Mohinder Singh Gill v. Chief Election Commissioner, 1995 INSC 12", FOUND,
     ["SC registry"]),
    ("Rameshwar Prasad v. Union of India, 1995 INSC 12", NAME_MISMATCH,
     ["MOHINDER SINGH GILL", "Rameshwar Prasad"]),
    ("Mohinder Singh Gill v. Chief Election Commissioner, [1995] 1 SCR 300", FOUND, []),
    ("1995 INSC 12", FOUND, []),  # no names written: nothing to contradict
    ("Rameshwar Prasad v. Union of India, 1995 INSC 900", CASE_NOT_FOUND,
     ["registry", "CITATION_LIKELY_HALLUCINATED"]),
    ("Rameshwar Prasad v. Union of India, 1995 INSC 101", CASE_NOT_FOUND,
     ["not in the SC registry", "unknown_authority"]),  # in range, complete year, not held
    ("Sunil Batra v. Delhi Administration, (1955) 2 SCC 100", CASE_NOT_FOUND,
     ["reporter_timing_wrong", "not in the sources we hold"]),
    ("Sunil Batra v. Delhi Administration, (2031) 2 SCC 100", CASE_NOT_FOUND,
     ["future_dated"]),
    ("Sunil Batra v. Delhi Administration, AIR 1978 SC 1675", UNVERIFIABLE,
     ["not in the sources we hold (registry: INSC/SCR 1990–2025; corpus headers)"]),
    ("AIR 1978 SC 1675", UNVERIFIABLE, []),
    ("Arunachalam v. Sadhanantham, AIR 1979 SC 1284", OVERRULED, ["Later Bench v. State"]),
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
    ("AIR 1982 SC 5000", "authority", panel.INVALID, "page_unreasonable"),
    ("(2031) 2 SCC 100", "authority", panel.INVALID, "year_implausible"),
    ("(2031) 2 SCC 100", "temporal", panel.INVALID, "future_dated"),
    ("AIR 1948 SC 12", "temporal", panel.INVALID, "temporal_impossibility"),
    ("AIR 1948 Bom 12", "temporal", panel.VALID, None),
    ("(1996) 4 SCC 319", "temporal", panel.VALID, None),
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
])
def test_name_similarity(written: str, recorded: str, same: bool) -> None:
    from nyaya.verify.cases import NAME_MATCH

    assert (name_similarity(written, recorded) >= NAME_MATCH) is same


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


@pytest.mark.parametrize("text", [
    "Narendra Gopal Vidyarthi v. Rajat Vidyarthi, 2008 (16) SCALE 122",  # printed by the SC
    "Girishbhai Dahyabhai Shah v. C.C. Jani, (2009) 15 SCC 64",
])
def test_an_unusual_volume_alone_is_not_evidence_of_invention(verifier, text):
    """Not held, and the volume is in the unusual band: unverifiable, not NOT_FOUND."""
    verdicts = verifier.verify(text)
    assert [v.status for v in verdicts] == [UNVERIFIABLE], verdicts
    assert "plausible" in verdicts[0].reason
