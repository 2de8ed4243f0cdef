"""Segment verification (specification 002): markers, support scores, statuses, the JSON
layout, the judge and embedder hooks, the calibrated threshold and the CLI."""

from __future__ import annotations

import io
import json
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from nyaya.verify.segments import (
    DEFAULT_THRESHOLD,
    EMBED_WEIGHT,
    ERROR,
    PENALTY,
    UNVERIFIED,
    VERIFIED,
    SegmentInputError,
    calibrate_threshold,
    load_evidence_store,
    load_labeled_pairs,
    parse_evidence_store,
    parse_segments,
    render_segments,
    similarities,
    support_score,
    verify_segments,
)
from pipelines.cli import main

FIXTURES = Path(__file__).parent / "fixtures" / "segments"
BNS_103 = ("Whoever commits murder shall be punished with death or imprisonment for life, and "
           "shall also be liable to fine. BNS_2023 s.103(1)")
STORE = parse_evidence_store([
    {"id": "E1", "claim": "Murder is punishable with death or imprisonment for life, and fine.",
     "quote_span": "Whoever commits murder shall be punished with death or imprisonment for "
                   "life, and shall also be liable to fine.", "source": "BNS_2023 s.103(1)"},
    {"id": "E2", "claim": "Grievous hurt is punishable with imprisonment up to seven years.",
     "quote_span": None, "source": "BNS_2023 s.117(2)"},
    {"id": "E3", "claim": "No confession made to a police officer shall be proved as against a "
                          "person accused of any offence."},
], "test store")


# --- parsing ------------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected", "uncited"), [
    ("Murder is punishable [E1]. Theft is too [E2,E3].",
     [("Murder is punishable", ("E1",), None), ("Theft is too", ("E2", "E3"), None)], None),
    ("A [E1, E2] and B [E1-E3]",
     [("A", ("E1", "E2"), None), ("and B", ("E1", "E2", "E3"), None)], None),
    ("Claim [E1] [E2][E2].", [("Claim", ("E1", "E2"), None)], None),  # one group, deduplicated
    ("- Murder [E1]\n- Theft [E2]\n", [("Murder", ("E1",), None), ("Theft", ("E2",), None)],
     None),
    ("Cited [E1]. Then an uncited claim.", [("Cited", ("E1",), None)], "Then an uncited claim."),
    ("No markers here [1].", [], "No markers here [1]."),  # 002: [1] is no evidence marker
    ("", [], None),
    pytest.param("Claim [E1 E2]", [("Claim", (), "malformed evidence marker '[E1 E2]'")], None,
                 marks=pytest.mark.bad_input("verify input", "evidence marker with a space")),
    pytest.param("Claim (E1)", [("Claim", (), "malformed evidence marker '(E1)'")], None,
                 marks=pytest.mark.bad_input("verify input", "evidence marker in parentheses")),
    pytest.param("Claim [e1]", [("Claim", (), "capital E")], None,
                 marks=pytest.mark.bad_input("verify input", "evidence marker in lower case")),
    pytest.param("Claim [E3-E1]", [("Claim", (), "runs backwards")], None,
                 marks=pytest.mark.bad_input("verify input", "evidence range backwards")),
    pytest.param("Claim [E1-E99]", [("Claim", (), "spans more than 50 ids")], None,
                 marks=pytest.mark.bad_input("verify input", "evidence range over 50 ids")),
    pytest.param("Claim [E1] (E2)", [("Claim", ("E1",), "malformed evidence marker '(E2)'")],
                 None, marks=pytest.mark.bad_input("verify input",
                                                   "malformed marker after a good one")),
])
def test_parse_segments(text, expected, uncited):
    parsed = parse_segments(text)
    got = [(s.text, s.citations, s.problem) for s in parsed.segments]
    assert [(t, c) for t, c, _ in got] == [(t, c) for t, c, _ in expected]
    for (_, _, problem), (_, _, want) in zip(got, expected, strict=True):
        assert (problem is None) if want is None else (want in problem)
    assert [s.number for s in parsed.segments] == list(range(1, len(expected) + 1))
    assert all(text[slice(*s.span)] == s.text for s in parsed.segments)
    assert (text[slice(*parsed.uncited)] if parsed.uncited else None) == uncited


# --- the evidence store -------------------------------------------------------------------

@pytest.mark.parametrize(("data", "message"), [
    pytest.param({"E1": "claim"}, "store.json: the evidence store must be a JSON list",
                 marks=pytest.mark.bad_input("verify input", "evidence store not a list")),
    pytest.param(["claim"], "store.json: evidence item #1: expected an object, got str",
                 marks=pytest.mark.bad_input("verify input", "evidence item not an object")),
    pytest.param([{"id": "E1"}], "evidence item #1 (E1): 'claim' must be a non-empty string",
                 marks=pytest.mark.bad_input("verify input", "evidence item without claim")),
    pytest.param([{"id": "E1", "claim": "  "}], "'claim' must be a non-empty string",
                 marks=pytest.mark.bad_input("verify input", "evidence claim blank")),
    pytest.param([{"id": "1", "claim": "c"}], "'id' must be a string like 'E1'",
                 marks=pytest.mark.bad_input("verify input", "evidence id not like E1")),
    pytest.param([{"claim": "c"}], "'id' must be a string like 'E1'",
                 marks=pytest.mark.bad_input("verify input", "evidence item without id")),
    pytest.param([{"id": "E1", "claim": "c", "qoute_span": "q"}], "unknown field(s) qoute_span",
                 marks=pytest.mark.bad_input("verify input", "unknown evidence field")),
    pytest.param([{"id": "E1", "claim": "c", "quote_span": 5}],
                 "'quote_span' must be a string or null",
                 marks=pytest.mark.bad_input("verify input", "quote_span not a string")),
    pytest.param([{"id": "E1", "claim": "c"}, {"id": "E1", "claim": "d"}],
                 "evidence item #2 (E1): duplicate id E1",
                 marks=pytest.mark.bad_input("verify input", "duplicate evidence id")),
])
def test_bad_evidence_store(data, message):
    with pytest.raises(SegmentInputError) as err:
        parse_evidence_store(data, "store.json")
    assert message in str(err.value)


@pytest.mark.bad_input("verify input", "evidence file malformed JSON")
def test_evidence_file_with_malformed_json_names_file_and_position(tmp_path):
    path = tmp_path / "evidence.json"
    path.write_text('[{"id": "E1", "claim": "c"}\n {"id": "E2"}]', encoding="utf-8")
    with pytest.raises(SegmentInputError, match=r"evidence\.json: malformed JSON at line 2"):
        load_evidence_store(path)


def test_evidence_item_keeps_every_field():
    store = load_evidence_store(FIXTURES / "evidence.json")
    assert list(store) == ["E1", "E2", "E3"]
    assert store["E1"].source == "BNS_2023 s.103(1)"
    assert store["E1"].text.endswith("BNS_2023 s.103(1)")
    assert set(store["E1"].to_dict()) == {"id", "claim", "quote_span", "source"}
    assert set(STORE["E3"].to_dict()) == {"id", "claim", "quote_span"}


# --- support ------------------------------------------------------------------------------

@pytest.mark.parametrize(("segment", "evidence", "verified", "why"), [
    ("Murder is punishable with death or imprisonment for life under Section 103 BNS.",
     BNS_103, True, "every word, number and provision"),
    ("Under s.103(1) of the Bharatiya Nyaya Sanhita, 2023, murder is punishable with death.",
     BNS_103, True, "every word"),
    ("Murder is punishable with death under Section 302 BNS.", BNS_103, False,
     "provisions or Acts not in the evidence: Section 302"),
    ("Murder is punishable with death under Section 103 IPC.", BNS_103, False,
     "provisions or Acts not in the evidence: IPC"),
    ("Murder is punishable with death under Section 103(2) BNS.", BNS_103, False,
     "Section 103(2)"),
    ("Murder is punishable with death under Section 103.", "BNS_2023 s.103(1) and s.103(2): "
     "Whoever commits murder shall be punished with death.", True, "every word"),
    ("Grievous hurt is punishable with imprisonment up to seven years.",
     "Grievous hurt shall be punished with imprisonment which may extend to ten years.", False,
     "numbers not in the evidence: seven"),
    ("Grievous hurt is punishable with imprisonment up to 7 years.",
     "Grievous hurt shall be punished with imprisonment which may extend to seven years.", True,
     "every word"),
    ("Hurt is punishable with a fine up to Rs. 10,000.",
     "Hurt shall be punished with fine which may extend to ten thousand rupees.", True, ""),
    ("A first-time offender is released after one-half of the maximum period.",
     "A first-time offender is released after one-third of the maximum period.", False,
     "numbers not in the evidence: one-half"),
    ("Rape is punishable with imprisonment of at least ten years.",
     "Rape shall be punished with imprisonment which shall not be less than ten years.", True,
     "every word"),
    ("Rape is punishable with imprisonment up to ten years.",
     "Rape shall be punished with imprisonment which shall not be less than ten years.", False,
     "words not in the evidence: atmost"),
    ("Article 21 protects personal liberty.", "Section 21: personal liberty is protected.", False,
     "provisions or Acts not in the evidence: Article 21"),
    ("A confession made to a police officer can be proved against the accused.",
     "No confession made to a police officer shall be proved as against a person accused.", False,
     "negated on one side only: confession made police officer"),
    ("He may seek a direction for a bailable offence.",
     "He may seek a direction for a non-bailable offence.", False, "negated on one side only"),
    ("Anticipatory bail can be granted by a Magistrate.", BNS_103, False,
     "words not in the evidence: anticipatory, bail, granted, magistrate"),
    ("It is so.", BNS_103, False, "no words, numbers or provisions to check"),
])
def test_support(segment, evidence, verified, why):
    support = support_score(segment, [evidence])
    assert (support.score >= DEFAULT_THRESHOLD) is verified, support
    assert why in support.explain()


def test_one_missing_number_or_provision_can_never_verify():
    """The calibrated threshold sits above PENALTY: a segment matching its evidence word for
    word but for one number or one provision scores at most PENALTY."""
    assert DEFAULT_THRESHOLD > PENALTY
    for segment in ("Whoever commits murder shall be punished with death or imprisonment for "
                    "life for ten years, and shall also be liable to fine. BNS_2023 s.103(1)",
                    BNS_103.replace("s.103(1)", "s.104(1)"),
                    BNS_103.replace("BNS_2023", "IPC_1860")):
        support = support_score(segment, [BNS_103])
        assert support.score <= PENALTY < DEFAULT_THRESHOLD, support


# --- verification, statuses and the JSON layout ----------------------------------------------

def test_statuses_and_reasons():
    text = ("Murder is punishable with death or imprisonment for life under Section 103 BNS [E1]. "
            "Grievous hurt is punishable with imprisonment up to ten years [E2]. "
            "The accused may be arrested [E9]. [E1] "
            "A confession to a police officer cannot be proved against the accused [E3] "
            "and theft [E1 E2] and an uncited tail.")
    report = verify_segments(text, STORE)
    got = [(r.segment.citations, r.status) for r in report.results]
    assert got == [(("E1",), VERIFIED), (("E2",), UNVERIFIED), (("E9",), ERROR),
                   (("E1",), ERROR), (("E3",), VERIFIED), ((), ERROR)]
    reasons = [r.reason for r in report.results]
    assert reasons[0].startswith("support 1.000 >= 0.842 against E1")
    assert "numbers not in the evidence: ten" in reasons[1]
    assert "Correct the segment or cite evidence that states it" in reasons[1]
    assert "cites E9, not in the evidence store (3 items)" in reasons[2]
    assert "marker [E1] has no text of its own" in reasons[3]
    assert "malformed evidence marker '[E1 E2]'" in reasons[5]
    assert report.uncited_text == "and an uncited tail."
    assert any("after the last evidence marker" in note for note in report.notes)
    assert report.results[2].support is None and report.results[2].cited == []
    assert not report.all_verified


def test_json_layout_follows_specification_002():
    report = verify_segments("Murder is punishable with death [E1]. Murder is punishable with "
                             "death under Section 302 BNS [E1,E2]. Theft [E7].", STORE)
    out = json.loads(json.dumps(report.to_dict()))
    assert {"total_segments", "verified_segments", "unverified_segments",
            "verification_rate", "segments"} <= set(out)
    assert (out["total_segments"], out["verified_segments"], out["unverified_segments"],
            out["error_segments"]) == (3, 1, 2, 1)
    assert out["verification_rate"] == "33.3%"
    assert out["method"] == "lexical" and out["threshold"] == DEFAULT_THRESHOLD
    for number, segment in enumerate(out["segments"], 1):
        assert {"segment_number", "text", "citations", "cited_claims", "verified",
                "verification_reason"} <= set(segment)
        assert segment["segment_number"] == number
        assert segment["verified"] in ("Yes", "No", "Error")
        assert segment["verification_reason"]
        for claim in segment["cited_claims"]:
            assert {"id", "claim", "quote_span"} <= set(claim)
    assert [s["verified"] for s in out["segments"]] == ["Yes", "No", "Error"]
    assert [c["id"] for c in out["segments"][1]["cited_claims"]] == ["E1", "E2"]
    assert out["segments"][2]["support_score"] is None


@pytest.mark.parametrize(("text", "rate", "all_verified"), [
    ("Murder is punishable with death [E1].", "100.0%", True),
    ("No markers at all.", "0.0%", False),  # nothing cited is nothing verified
    ("", "0.0%", False),
])
def test_verification_rate_edges(text, rate, all_verified):
    report = verify_segments(text, STORE)
    assert report.verification_rate == rate
    assert report.all_verified is all_verified


@pytest.mark.bad_input("verify input", "threshold outside (0, 1]")
@pytest.mark.parametrize("threshold", [0, -0.1, 1.5])
def test_threshold_out_of_range(threshold):
    with pytest.raises(ValueError, match=r"threshold must be in \(0, 1\]"):
        verify_segments("Murder [E1].", STORE, threshold=threshold)


def test_threshold_decides_without_a_judge():
    text = "Murder is punishable with death in every case [E1]."
    support = support_score("Murder is punishable with death in every case", [STORE["E1"].text])
    assert 0 < support.score < 1
    assert verify_segments(text, STORE, threshold=support.score).results[0].status == VERIFIED
    assert verify_segments(text, STORE, threshold=min(1, support.score + 0.001)) \
        .results[0].status == UNVERIFIED


# --- the judge ----------------------------------------------------------------------------

def test_judge_decides_and_is_not_asked_about_errors():
    calls = []

    def judge(segment: str, evidence: list[str]) -> tuple[str, str]:
        calls.append((segment, evidence))
        if "seven" in segment:
            return "verified", "the evidence states seven years"
        return "unverified", "the evidence does not mention the segment's exception"

    text = ("Murder is punishable with death or imprisonment for life [E1]. "
            "Grievous hurt is punishable with imprisonment up to seven years [E2]. Theft [E9].")
    report = verify_segments(text, STORE, judge=judge)
    assert [r.status for r in report.results] == [UNVERIFIED, VERIFIED, ERROR]
    assert report.results[0].reason == ("judge: the evidence does not mention the segment's "
                                        "exception")
    assert report.results[0].support.score == 1.0  # lexically perfect, but the judge decides
    assert report.method == "judge"
    assert len(calls) == 2  # the unknown E9 is an error before any judge is asked
    assert calls[0][1] == [STORE["E1"].text]


@pytest.mark.parametrize(("answer", "reason"), [
    (RuntimeError("quota exceeded"), "the judge failed: RuntimeError: quota exceeded"),
    (("maybe", "unsure"), "the judge returned ('maybe', 'unsure')"),
    (("verified", ""), "a non-empty reason"),
    ("verified", "expected (status, reason)"),
])
def test_judge_failures_are_segment_errors(answer, reason):
    def judge(segment: str, evidence: list[str]) -> tuple[str, str]:
        if isinstance(answer, Exception):
            raise answer
        return answer

    result = verify_segments("Murder is punishable with death [E1].", STORE,
                             judge=judge).results[0]
    assert result.status == ERROR
    assert reason in result.reason


# --- the embedder -------------------------------------------------------------------------

def _letters(texts: list[str]) -> np.ndarray:
    """A deterministic stand-in embedder: letter counts."""
    rows = np.zeros((len(texts), 26))
    for i, text in enumerate(texts):
        for char in re.sub(r"[^a-z]", "", text.lower()):
            rows[i, ord(char) - 97] += 1
    return rows


def test_embedding_similarity_is_combined_with_lexical_support():
    text = "Murder is punishable with death in every case [E1]."
    report = verify_segments(text, STORE, embed=_letters)
    support = report.results[0].support
    [cosine] = similarities(_letters, [("Murder is punishable with death in every case",
                                         [STORE["E1"].text])])
    assert support.similarity == pytest.approx(cosine)
    assert 0 < cosine < 1
    assert support.score == pytest.approx(
        (1 - EMBED_WEIGHT) * support.matched + EMBED_WEIGHT * cosine, abs=1e-4)
    assert report.method == "lexical+embedding"
    assert any("calibrated without an embedder" in note for note in report.notes)


@pytest.mark.parametrize(("embed", "message"), [
    (lambda texts: np.ones((len(texts) + 1, 3)), "expected one finite row per text"),
    (lambda texts: np.zeros((len(texts), 3)), "zero vector"),
    (lambda texts: np.full((len(texts), 3), np.nan), "expected one finite row per text"),
])
def test_bad_embedder_output(embed, message):
    with pytest.raises(ValueError, match=message):
        verify_segments("Murder is punishable with death [E1].", STORE, embed=embed)


# --- calibration --------------------------------------------------------------------------

HARD_NEGATIVES = {"wrong_number", "wrong_section", "wrong_act", "negation", "unrelated",
                  "partial"}


def test_default_threshold_is_the_calibrated_one():
    pairs = load_labeled_pairs(FIXTURES / "calibration.jsonl")
    assert len(pairs) >= 60
    assert {p.kind for p in pairs if not p.supported} >= HARD_NEGATIVES
    calibration = calibrate_threshold(pairs)
    assert calibration.threshold == DEFAULT_THRESHOLD
    assert (calibration.pairs, calibration.supported) == (len(pairs),
                                                          sum(p.supported for p in pairs))
    assert calibration.precision > calibration.recall  # beta 0.5 leans to precision


def test_calibration_maximizes_f_beta_and_counts_agree():
    pairs = load_labeled_pairs(FIXTURES / "calibration.jsonl")
    calibration = calibrate_threshold(pairs)
    scored = [(support_score(p.segment, p.evidence).score, p.supported) for p in pairs]

    def at(threshold: float) -> tuple[int, int, int]:
        true_pos = sum(s >= threshold and ok for s, ok in scored)
        false_pos = sum(s >= threshold and not ok for s, ok in scored)
        return true_pos, false_pos, sum(ok for _, ok in scored) - true_pos

    true_pos, false_pos, missed = at(calibration.threshold)
    assert (calibration.false_verified, calibration.missed) == (false_pos, missed)
    assert calibration.precision == true_pos / (true_pos + false_pos)
    assert calibration.recall == true_pos / (true_pos + missed)
    beta2 = calibration.beta ** 2
    for threshold in np.linspace(0.01, 1, 100):
        tp, fp, fn = at(threshold)
        if tp:
            p, r = tp / (tp + fp), tp / (tp + fn)
            assert (1 + beta2) * p * r / (beta2 * p + r) <= calibration.f_beta + 1e-12


@pytest.mark.parametrize("name", ["calibration.jsonl", "holdout.jsonl"])
def test_wrong_numbers_provisions_and_negations_never_verify(name):
    pairs = load_labeled_pairs(FIXTURES / name)
    checked = [p for p in pairs if p.kind in {"wrong_number", "wrong_section", "wrong_act",
                                              "negation"}]
    assert checked and all(not p.supported for p in checked)
    for pair in checked:
        assert support_score(pair.segment, pair.evidence).score < DEFAULT_THRESHOLD, pair


def test_held_out_pairs_at_the_default_threshold():
    """The held-out pairs were written before they were ever scored: a regression floor."""
    pairs = load_labeled_pairs(FIXTURES / "holdout.jsonl")
    passed = [p.supported for p in pairs
              if support_score(p.segment, p.evidence).score >= DEFAULT_THRESHOLD]
    precision = sum(passed) / len(passed)
    recall = sum(passed) / sum(p.supported for p in pairs)
    assert precision >= 0.8 and recall >= 0.8, (precision, recall)


def test_calibration_needs_both_labels():
    pairs = [p for p in load_labeled_pairs(FIXTURES / "calibration.jsonl") if p.supported]
    with pytest.raises(ValueError, match="both supported and unsupported"):
        calibrate_threshold(pairs)


@pytest.mark.parametrize(("line", "message"), [
    pytest.param("{not json", "pairs.jsonl:2: malformed JSON",
                 marks=pytest.mark.bad_input("labels", "labeled pair line not JSON")),
    pytest.param('{"segment": "s", "evidence": "e", "supported": true, "kind": "k"}',
                 "pairs.jsonl:2: expected segment",
                 marks=pytest.mark.bad_input("labels", "labeled pair without evidence list")),
    pytest.param('{"segment": "s", "evidence": ["e"], "supported": "yes", "kind": "k"}',
                 "supported (true/false)",
                 marks=pytest.mark.bad_input("labels", "labeled pair supported not a boolean")),
])
def test_bad_labeled_pairs(tmp_path, line, message):
    path = tmp_path / "pairs.jsonl"
    good = '{"segment": "s", "evidence": ["e"], "supported": true, "kind": "k"}'
    path.write_text(f"{good}\n{line}\n", encoding="utf-8")
    with pytest.raises(SegmentInputError, match=re.escape(message)):
        load_labeled_pairs(path)


# --- rendering and the CLI ----------------------------------------------------------------

def test_render_segments():
    report = verify_segments("Murder is punishable with death [E1]. Theft [E9]. Tail.", STORE)
    text = render_segments(report)
    assert "  • Total segments: 2" in text
    assert "  • Verification rate: 50.0%" in text
    assert "Segment 2 [E9]: ERROR — cites E9" in text
    assert "Uncited text (not checked): “Tail.”" in text
    assert "✓ All citations verified" not in text


def _cli(args: list[str]) -> int:
    return main(["verify-segments", *args])


def test_cli_all_verified(capsys):
    evidence = str(FIXTURES / "evidence.json")
    assert _cli([str(FIXTURES / "answer.txt"), "--evidence", evidence]) == 0
    out = capsys.readouterr().out
    assert "Verification rate: 100.0%" in out and "✓ All citations verified" in out
    assert _cli([str(FIXTURES / "answer.txt"), "--evidence", evidence, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["total_segments"], report["verified_segments"]) == (3, 3)


def test_cli_unverified_from_stdin_with_threshold(capsys, monkeypatch):
    evidence = str(FIXTURES / "evidence.json")
    wrong = "Nothing done by a child under twelve years of age is an offence [E2]."
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(wrong.encode())))
    assert _cli(["-", "--evidence", evidence, "--json"]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["segments"][0]["verified"] == "No"
    assert "numbers not in the evidence: twelve" in report["segments"][0]["verification_reason"]
    paraphrase = "Nothing done by a child under seven years is an offence in any court [E2]."
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(paraphrase.encode())))
    assert _cli(["-", "--evidence", evidence]) == 1
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(paraphrase.encode())))
    assert _cli(["-", "--evidence", evidence, "--threshold", "0.5"]) == 0


@pytest.mark.parametrize(("setup", "args", "message"), [
    pytest.param(None, ["missing.txt", "--evidence", "EVIDENCE"], "missing.txt",
                 marks=pytest.mark.bad_input("CLI", "verify-segments of a missing answer")),
    pytest.param(None, ["ANSWER", "--evidence", "nowhere.json"], "nowhere.json",
                 marks=pytest.mark.bad_input("CLI", "verify-segments missing evidence file")),
    pytest.param('[{"id": "E1"', ["ANSWER", "--evidence", "BAD"], "malformed JSON at line 1",
                 marks=pytest.mark.bad_input("CLI", "verify-segments evidence JSON truncated")),
    pytest.param('[{"id": "E1", "claim": ""}]', ["ANSWER", "--evidence", "BAD"],
                 "evidence item #1 (E1): 'claim' must be a non-empty string",
                 marks=pytest.mark.bad_input("CLI", "verify-segments evidence with empty claim")),
    pytest.param(None, ["ANSWER", "--evidence", "EVIDENCE", "--threshold", "1.5"],
                 "threshold must be in (0, 1]",
                 marks=pytest.mark.bad_input("CLI", "verify-segments threshold out of range")),
    pytest.param(b"[\xff]", ["ANSWER", "--evidence", "BAD"], "bad.json: not UTF-8 text (byte 1)",
                 marks=pytest.mark.bad_input("CLI", "verify-segments evidence not UTF-8")),
    pytest.param(b"Murder \xff [E1]", ["BAD", "--evidence", "EVIDENCE"], "bad.json: not UTF-8 text",
                 marks=pytest.mark.bad_input("CLI", "verify-segments answer not UTF-8")),
])
def test_cli_bad_input(tmp_path, capsys, setup, args, message):
    bad = tmp_path / "bad.json"
    if setup is not None:
        bad.write_bytes(setup if isinstance(setup, bytes) else setup.encode())
    paths = {"ANSWER": str(FIXTURES / "answer.txt"), "EVIDENCE": str(FIXTURES / "evidence.json"),
             "BAD": str(bad), "missing.txt": str(tmp_path / "missing.txt"),
             "nowhere.json": str(tmp_path / "nowhere.json")}
    assert _cli([paths.get(arg, arg) for arg in args]) == 2
    captured = capsys.readouterr()
    assert captured.out == ""
    assert captured.err.startswith("nyaya verify-segments: ") and message in captured.err
