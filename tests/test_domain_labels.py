"""Shape of the hand-labeled judgment domain gold set (evals/labels/judgment_domains.yaml)."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
import yaml

LABELS = Path(__file__).resolve().parents[1] / "evals" / "labels" / "judgment_domains.yaml"

VOCABULARY = [
    "criminal_substantive", "criminal_procedure", "evidence", "constitutional",
    "civil_contract", "civil_property", "civil_procedure", "family", "tax", "labour_service",
    "arbitration", "consumer", "tenancy", "banking_finance", "environment",
    "negotiable_instruments", "cyber", "child_protection", "administrative",
]

DOC_ID = re.compile(r"^(AILA:C\d+|IRLED:prior_case_\d{4}|IRLED:current_case_\d{4})$")


@pytest.fixture(scope="module")
def labels() -> dict:
    return yaml.safe_load(LABELS.read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def judgments(labels) -> list[dict]:
    return labels["judgments"]


def corpus_path(corpus: Path, doc_id: str) -> Path:
    source, name = doc_id.split(":", 1)
    if source == "AILA":
        return corpus / "judgments" / "aila2019" / "casedocs" / f"{name}.txt"
    folder = "prior_cases" if name.startswith("prior_case_") else "current_cases"
    return corpus / "judgments" / "irled2017" / folder / f"{name}.txt"


def test_vocabulary_is_the_agreed_list_in_order(labels):
    assert labels["domains"] == VOCABULARY


def test_enough_judgments(judgments):
    assert len(judgments) >= 150


def test_every_entry_is_complete(judgments):
    for j in judgments:
        assert set(j) == {"doc_id", "domain", "also", "why"}, j
        assert DOC_ID.match(j["doc_id"]), j["doc_id"]
        assert isinstance(j["also"], list), j["doc_id"]
        assert isinstance(j["why"], str) and j["why"].strip(), j["doc_id"]
        assert "\n" not in j["why"].strip(), j["doc_id"]


def test_doc_ids_unique_and_sorted(judgments):
    ids = [j["doc_id"] for j in judgments]
    assert [d for d, n in Counter(ids).items() if n > 1] == []
    assert ids == sorted(ids)


def test_domains_in_vocabulary(judgments):
    for j in judgments:
        assert j["domain"] in VOCABULARY, j["doc_id"]
        assert all(a in VOCABULARY for a in j["also"]), j["doc_id"]
        assert len(set(j["also"])) == len(j["also"]), j["doc_id"]


def test_primary_not_repeated_in_secondaries(judgments):
    assert [j["doc_id"] for j in judgments if j["domain"] in j["also"]] == []


def source(doc_id: str) -> str:
    """AILA, IRLED:prior or IRLED:current."""
    if doc_id.startswith("AILA:"):
        return "AILA"
    return "IRLED:prior" if doc_id.startswith("IRLED:prior_case_") else "IRLED:current"


def test_each_source_represented(judgments):
    sources = Counter(source(j["doc_id"]) for j in judgments)
    assert set(sources) == {"AILA", "IRLED:prior", "IRLED:current"}
    assert min(sources.values()) >= 10


def test_primary_domains_are_spread(judgments):
    primaries = Counter(j["domain"] for j in judgments)
    assert len(primaries) >= 8
    assert max(primaries.values()) <= len(judgments) // 2


def test_every_doc_id_exists_in_the_corpus(judgments, real_corpus):
    missing = [j["doc_id"] for j in judgments
               if not corpus_path(real_corpus, j["doc_id"]).is_file()]
    assert missing == []
