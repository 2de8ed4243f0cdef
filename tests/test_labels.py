"""Integrity of the hand-labeled statute-mention gold set (evals/labels/statute_mentions.yaml).

The labels are facts for measuring a statute-citation extractor; these tests only check that
the file is well formed and that every span still points at the number it claims to.
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
import yaml

from nyaya.statutes.ingest import ingest_statutes

LABELS = Path(__file__).resolve().parents[1] / "evals" / "labels" / "statute_mentions.yaml"

KINDS = {"section", "article", "order_rule"}
RESOLUTIONS = {"explicit", "context"}
MENTION_KEYS = {"start", "end", "quote", "act_code", "section", "unit", "kind", "resolution",
                "implied", "note"}
REGION_KEYS = {"doc_id", "source_file", "start", "end", "mentions"}
SECTION_RE = re.compile(r"^[0-9]+[A-Z]{0,2}$")  # "302", "304B", "36D", "7A"
ORDER_RULE_RE = re.compile(r"^O([0-9]+)R([0-9]+[A-Z]?)$")  # "O21R16", "O41R3A"
ACT_CODE_RE = re.compile(r"^[A-Za-z]+(_[0-9]{4}(_[0-9A-F]{4})?)?$")  # IPC_1860, COI, AA_1961_0303
DOC_SOURCES = {
    "AILA": re.compile(r"^AILA:(C[0-9]+)$"),
    "IRLED": re.compile(r"^IRLED:(prior_case_[0-9]{4})$"),
}
ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}
OCR_DIGITS = str.maketrans({"O": "0", "I": "1", "L": "1"})


@pytest.fixture(scope="module")
def labels() -> dict:
    return yaml.safe_load(LABELS.read_text(encoding="utf-8"))


def _mentions(labels: dict) -> Iterator[tuple[dict, dict]]:
    for region in labels["regions"]:
        for mention in region["mentions"]:
            yield region, mention


def _norm(text: str) -> str:
    return re.sub(r"[\s.\-]", "", text).upper()


def _roman(text: str) -> int | None:
    if not text or any(ch not in ROMAN for ch in text):
        return None
    values = [ROMAN[ch] for ch in text]
    return sum(-v if i + 1 < len(values) and v < values[i + 1] else v
               for i, v in enumerate(values))


def _number(text: str) -> int | None:
    text = _norm(text)
    return int(text) if text.isdigit() else _roman(text)


def _expected_source(doc_id: str) -> str:
    for prefix, pattern in DOC_SOURCES.items():
        match = pattern.match(doc_id)
        if match:
            folder = "aila2019/casedocs" if prefix == "AILA" else "irled2017/prior_cases"
            return f"judgments/{folder}/{match.group(1)}.txt"
    raise AssertionError(f"bad doc_id {doc_id!r}")


def test_enough_labels(labels: dict) -> None:
    mentions = [m for _, m in _mentions(labels)]
    assert len(mentions) >= 200
    assert len({r["doc_id"] for r in labels["regions"]}) >= 30
    assert sum(m["resolution"] == "context" for m in mentions) >= 30
    assert sum(m["kind"] == "article" for m in mentions) >= 20
    assert {r["doc_id"].split(":")[0] for r in labels["regions"]} == {"AILA", "IRLED"}


def test_region_fields(labels: dict) -> None:
    for region in labels["regions"]:
        assert set(region) == REGION_KEYS, region["doc_id"]
        assert region["source_file"] == _expected_source(region["doc_id"])
        assert 0 <= region["start"] < region["end"]
        assert region["mentions"], f"{region['doc_id']}: a region without mentions"


def test_regions_of_one_document_do_not_overlap(labels: dict) -> None:
    by_doc: dict[str, list[tuple[int, int]]] = {}
    for region in labels["regions"]:
        by_doc.setdefault(region["doc_id"], []).append((region["start"], region["end"]))
    for doc_id, spans in by_doc.items():
        spans.sort()
        for (_, end), (start, _) in itertools.pairwise(spans):
            assert end <= start, doc_id


def test_mention_fields(labels: dict) -> None:
    for region, m in _mentions(labels):
        where = f"{region['doc_id']}@{m.get('start')}"
        assert {"start", "end", "quote", "act_code", "section", "kind", "resolution"} <= set(m)
        assert set(m) <= MENTION_KEYS, where
        assert m["kind"] in KINDS, where
        assert m["resolution"] in RESOLUTIONS, where
        assert isinstance(m["quote"], str) and m["quote"].strip(), where
        if m["kind"] == "order_rule":
            assert ORDER_RULE_RE.match(m["section"]), where
            assert m["act_code"] == "CPC_1908", where
        else:
            assert SECTION_RE.match(m["section"]), where
        if m["act_code"] is None:
            note = m.get("note", "")
            assert note.startswith(("not in registry:", "undeterminable")), where
        else:
            assert ACT_CODE_RE.match(m["act_code"]), where
        if m["kind"] == "article" and m["act_code"] is not None:
            assert m["act_code"] == "COI", where
        if "implied" in m:
            assert m["implied"] is True, where


def test_spans_inside_regions_sorted_and_disjoint(labels: dict) -> None:
    for region in labels["regions"]:
        mentions = region["mentions"]
        spans = [(m["start"], m["end"]) for m in mentions]
        assert spans == sorted(spans), region["doc_id"]
        for m in mentions:
            assert region["start"] <= m["start"] < m["end"] <= region["end"], region["doc_id"]
        written = [(m["start"], m["end"]) for m in mentions if not m.get("implied")]
        for (_, end), (start, _) in itertools.pairwise(written):
            assert end <= start, f"{region['doc_id']}: overlapping spans at {start}"
        for m in mentions:
            if m.get("implied"):  # a range member not written out: its span is the whole range
                inner = [w for w in written if m["start"] <= w[0] and w[1] <= m["end"]]
                assert len(inner) == 2, f"{region['doc_id']}@{m['start']}"
                assert inner[0][0] == m["start"] and inner[1][1] == m["end"]


def test_act_codes_exist_in_registry(labels: dict, real_corpus: Path) -> None:
    codes = {entry.act_code for entry in ingest_statutes(real_corpus).registry}
    used = {m["act_code"] for _, m in _mentions(labels) if m["act_code"] is not None}
    assert used <= codes, sorted(used - codes)


def _plausible(written: str, m: dict) -> bool:
    """The span renders the labeled number (OCR slips allowed only where the note says so)."""
    if m.get("implied"):
        return bool(re.search(r"(?i)\bto\b|-", written))
    candidates = {_norm(written)}
    if "OCR" in m.get("note", ""):
        candidates.add(_norm(written).translate(OCR_DIGITS))
    if m["kind"] != "order_rule":
        return m["section"] in candidates
    order, rule = ORDER_RULE_RE.match(m["section"]).groups()
    number = _number(written)
    return number == int(order) or _norm(written) == rule


def test_spans_point_at_the_numbers_in_the_corpus(labels: dict, real_corpus: Path) -> None:
    texts: dict[str, str] = {}
    for region, m in _mentions(labels):
        source = region["source_file"]
        if source not in texts:
            texts[source] = (real_corpus / source).read_text(encoding="utf-8")
        text = texts[source]
        where = f"{region['doc_id']}@{m['start']}"
        assert region["end"] <= len(text), where
        written = text[m["start"]:m["end"]]
        assert _plausible(written, m), f"{where}: {written!r} is not {m['section']}"
        window = " ".join(text[max(0, m["start"] - 300):m["end"] + 300].split())
        assert " ".join(m["quote"].split()) in window, f"{where}: quote not found near the span"
