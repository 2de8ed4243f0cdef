"""Post-fusion stages on hand-made hits: exact scores and orders."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nyaya.index.store import ScoreBoost
from nyaya.retrieval.base import Hit
from nyaya.retrieval.postprocess import CrossReferences, Definitions, boost, group_by, mmr


def hits(*pairs: tuple[str, float]) -> list[Hit]:
    return [Hit(doc, score, "fused") for doc, score in pairs]


PAYLOADS = {
    "BNS_2023:103": {"era": "naveen_sanhitas", "extraction_confidence": 1.0, "is_offence": True},
    "IPC_1860:302": {"era": "colonial_codes", "extraction_confidence": 1.0, "is_offence": True},
    "BNS_2023:2": {"era": "naveen_sanhitas", "extraction_confidence": 0.5, "is_offence": False},
}


def test_boost_reorders_by_era_confidence_and_offence():
    rule = ScoreBoost("extraction_confidence", 0.7, 0.3, 1.0,
                      (("era", "naveen_sanhitas", 0.15), ("is_offence", True, 0.10)))
    boosted = boost(hits(("IPC_1860:302", 0.5), ("BNS_2023:2", 0.45), ("BNS_2023:103", 0.3)),
                    rule, PAYLOADS.__getitem__)
    assert [(h.doc_id, round(h.score, 6)) for h in boosted] == [
        ("IPC_1860:302", 0.6), ("BNS_2023:103", 0.55), ("BNS_2023:2", 0.5325)]


VECTORS = {"a": np.array([1.0, 0.0]), "a2": np.array([1.0, 0.0]),
           "b": np.array([0.6, 0.8]), "c": np.array([0.0, 1.0])}


@pytest.mark.parametrize(("diversity", "expected"), [
    (0.0, ["a", "a2", "b"]),   # pure relevance: the duplicate stays (ties by doc id)
    (0.7, ["a", "c", "b"]),    # the far one before the near one, the duplicate last
])
def test_mmr(diversity, expected):
    candidates = hits(("a", 1.0), ("a2", 1.0), ("b", 0.6), ("c", 0.0))
    chosen = mmr(candidates, np.array([1.0, 0.0]), VECTORS.__getitem__, diversity, 3)
    assert [h.doc_id for h in chosen] == expected


def test_mmr_refuses_a_diversity_outside_0_1():
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        mmr(hits(("a", 1.0)), np.array([1.0, 0.0]), VECTORS.__getitem__, 1.5, 1)


def test_group_by_keeps_at_most_n_per_act():
    ranked_hits = hits(("BNS_2023:1", 5), ("BNS_2023:2", 4), ("BNS_2023:3", 3), ("HMA_1955:9", 2))
    kept = group_by(ranked_hits, lambda doc: doc.split(":")[0], 2)
    assert [h.doc_id for h in kept] == ["BNS_2023:1", "BNS_2023:2", "HMA_1955:9"]


REFS = pd.DataFrame([
    # source, target, type, exists
    ("BNS_2023", "318", "BNS_2023", "103", "punishment_table", True),
    ("BNS_2023", "103", "BNS_2023", "101", "definition_import", True),
    ("BNS_2023", "103", "BNS_2023", "100", "other", True),          # not a followed type
    ("BNS_2023", "103", "BNS_2023", "999", "subject_to", False),   # target missing
    ("BNS_2023", "101", "BNS_2023", "100", "exception_reference", True),
], columns=["source_act_code", "source_section", "target_act_code", "target_section",
            "reference_type", "target_exists"])


@pytest.mark.parametrize(("hops", "max_added", "expected"), [
    (1, 5, ["BNS_2023:103", "BNS_2023:101", "HMA_1955:1"]),
    (2, 5, ["BNS_2023:103", "BNS_2023:101", "BNS_2023:100", "HMA_1955:1"]),
    (2, 1, ["BNS_2023:103", "BNS_2023:101", "HMA_1955:1"]),
])
def test_cross_reference_expansion_follows_typed_references(hops, max_added, expected):
    refs = CrossReferences.from_table(REFS)
    expanded = refs.expand(hits(("BNS_2023:103", 1.0), ("HMA_1955:1", 0.5)), max_added, hops)
    assert [h.doc_id for h in expanded] == expected
    assert {h.method for h in expanded if h.doc_id not in ("BNS_2023:103", "HMA_1955:1")} \
        <= {"xref"}


def test_cross_reference_expansion_stays_in_the_searchable_universe():
    """A reference to a section the search excludes (repealed, when only the law in force is
    searched) is not followed, and does not use up the budget."""
    refs = CrossReferences.from_table(REFS)
    expanded = refs.expand(hits(("BNS_2023:103", 1.0)), 5, 2,
                           allowed=lambda doc: doc != "BNS_2023:101")
    assert [h.doc_id for h in expanded] == ["BNS_2023:103"]


DEFINED = pd.DataFrame({
    "act_code": ["BNS_2023", "BNS_2023", "BNS_2023", "ICA_1872"],
    "section_number": ["2", "2", "2", "2"],
    "term": ["wrongful confinement", "wrongful", "document", "contract"],
})
TEXTS = {
    "BNS_2023:127": "Whoever wrongfully restrains any person ... commits Wrongful Confinement.",
    "BNS_2023:318": "Whoever deceives any person and induces him to deliver a document ...",
    "BNS_2023:103": "Whoever commits murder shall be punished with death.",
    "BNS_2023:2": "In this Sanhita, document means ...",
    "ICA_1872:10": "All agreements are contracts if made by free consent.",  # 'contracts' != term
}


@pytest.mark.parametrize(("hits", "max_added", "expected"), [
    # a defined term (any case, longest match) brings the Act's definitions section
    (["BNS_2023:127"], 3, ["BNS_2023:127", "BNS_2023:2"]),
    # once, however many hits use its terms; a section without a defined term adds nothing
    (["BNS_2023:103", "BNS_2023:127", "BNS_2023:318"], 3,
     ["BNS_2023:103", "BNS_2023:127", "BNS_2023:2", "BNS_2023:318"]),
    (["BNS_2023:103"], 3, ["BNS_2023:103"]),
    (["BNS_2023:127"], 0, ["BNS_2023:127"]),  # the cap
    (["ICA_1872:10"], 3, ["ICA_1872:10"]),  # whole words only
    (["BNS_2023:2"], 3, ["BNS_2023:2"]),  # never brings itself
])
def test_definitions_expansion(hits, max_added, expected):
    definitions = Definitions.from_table(DEFINED)
    scored = [Hit(doc, 1.0 - i / 10, "rrf") for i, doc in enumerate(hits)]
    found = definitions.expand(scored, TEXTS.__getitem__, TEXTS.__contains__, max_added)
    assert [hit.doc_id for hit in found] == expected
    assert {hit.method for hit in found if hit.doc_id not in hits} <= {"definition"}


def test_definitions_expansion_adds_only_sections_that_exist():
    definitions = Definitions.from_table(DEFINED)
    found = definitions.expand([Hit("BNS_2023:127", 1.0, "rrf")], TEXTS.__getitem__,
                               lambda doc: doc != "BNS_2023:2")
    assert [hit.doc_id for hit in found] == ["BNS_2023:127"]
