"""Verification rates over runs: the gate applied to each config's top sections, on the small
tables of test_verify_relevance."""

from __future__ import annotations

import pandas as pd
import pytest
from test_verify_relevance import QUERYSET, REGISTRY, SECTIONS, TRANSITIONS, hand_model

from evals.querysets import QuerySet
from evals.runs import rank_frame
from evals.splits import HELDOUT, split_of
from evals.verification import removal_tradeoff, verification_rates
from nyaya.lookup import cited_as
from nyaya.verify.relevance import RelevanceJudge
from nyaya.verify.statutes import StatuteChecker
from nyaya.verify.trained import Cuts, RelevanceModel


@pytest.mark.parametrize(("doc_id", "text"), [
    ("BNS_2023:103", "BNS_2023 s.103"), ("COI:21", "Article 21"),
    ("CPC_1908:Order XXXIX", "CPC_1908 s.Order XXXIX"),
])
def test_cited_as(doc_id, text):
    assert cited_as(doc_id) == text


# The mini set with its training-half queries R2 and R3 renamed into the held-out half (R5,
# R6), where false positives and removals are counted; R9 stays in the training half.
RENAMED = {"R1": "R1", "R2": "R5", "R3": "R6"}
HELD_OUT = QuerySet(QUERYSET.name, pd.concat([
    QUERYSET.queries.assign(qid=QUERYSET.queries["qid"].map(RENAMED)),
    QUERYSET.queries.iloc[[1]].assign(qid="R9")], ignore_index=True),
    {RENAMED[qid]: docs for qid, docs in QUERYSET.qrels.items()} | {"R9": {"BNS_2023:103": 2}})


def test_the_renamed_queries_are_in_the_halves_they_are_meant_for():
    assert [split_of(qid) == HELDOUT for qid in HELD_OUT.queries["qid"]] == [True] * 3 + [False]


def judge() -> RelevanceJudge:
    return RelevanceJudge(SECTIONS, REGISTRY, TRANSITIONS, model=hand_model())  # never qrels


def runs_of(config: str, hits: dict[str, list[str]]) -> pd.DataFrame:
    frame = rank_frame({qid: [(doc, 1.0 - i / 10, "x") for i, doc in enumerate(docs)]
                        for qid, docs in hits.items()})
    return frame.assign(config=config, queryset=QUERYSET.name)


def test_rates_and_false_positives():
    runs = pd.concat([
        runs_of("one-answer", {"R1": ["DRCA_1958:14"]}),  # R5, R6, R9: no citation, UNVERIFIED
        runs_of("judged", {"R1": ["DRCA_1958:14"], "R5": ["BNS_2023:103"],
                           "R6": ["BNS_2023:318"], "R9": ["BNS_2023:103"]}),
        # R9, in the training half, passes cheating for murder: not counted
        runs_of("off-topic", {"R1": ["ACA_1996:38"], "R5": ["BNS_2023:318", "BNS_2023:103"],
                              "R6": ["BNS_2023:318"], "R9": ["BNS_2023:318"]}),
    ], ignore_index=True)
    table = verification_rates(runs, HELD_OUT, StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS),
                               judge(), k=5).set_index("config")
    rates = ["verified_rate", "partially_verified_rate", "precedent_only_rate",
             "unverified_rate"]
    assert table[rates].sum(axis=1).round(9).eq(1.0).all()
    assert table.at["one-answer", "unverified_rate"] == pytest.approx(3 / 4)
    assert table.at["one-answer", "false_positives_per_query"] == 0.0
    assert table.at["judged", "false_positives_per_query"] == 0.0  # all judged relevant
    # the deposit question citing arbitration deposits is removed, not passed; cheating
    # passed for a murder question is a false positive when the score lets it through
    assert table.at["judged", "verified_rate"] == 1.0
    assert table.at["off-topic", "verified_rate"] == pytest.approx(3 / 4)
    assert table.at["off-topic", "unverified_rate"] == pytest.approx(1 / 4)  # R1: removed
    assert table.at["off-topic", "false_positives_per_query"] == pytest.approx(1 / 3)
    assert list(table.index) == ["judged", "off-topic", "one-answer"]
    assert (table["queries"] == 4).all() and (table["held_out_queries"] == 3).all()
    # the served system's precision@3 targets, per area (every judged query): R1 is civil
    # (tenancy), R5, R6 and R9 criminal
    assert table.at["judged", "precision@3_civil"] == pytest.approx(1 / 3)
    assert table.at["judged", "precision@3_criminal"] == pytest.approx(1 / 3)
    assert table.at["off-topic", "precision@3_civil"] == 0.0
    assert table.at["off-topic", "precision@3_criminal"] == pytest.approx((1 / 3 + 1 / 3) / 3)


def test_a_relevant_section_the_gate_removes_is_counted():
    """The gate removes ACA 38 from the deposit question as NOT_APPLICABLE; judged relevant
    there, that removal is counted, once per judged query, and no other config's is."""
    qrels = {qid: dict(docs) for qid, docs in HELD_OUT.qrels.items()}
    qrels["R1"]["ACA_1996:38"] = 1
    judged = QuerySet(HELD_OUT.name, HELD_OUT.queries, qrels)
    runs = pd.concat([runs_of("off-topic", {"R1": ["ACA_1996:38"], "R6": ["BNS_2023:318"]}),
                      runs_of("judged", {"R1": ["DRCA_1958:14"]})], ignore_index=True)
    table = verification_rates(runs, judged, StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS),
                               judge()).set_index("config")
    assert table.at["off-topic", "relevant_removed_per_query"] == pytest.approx(1 / 3)
    assert table.at["judged", "relevant_removed_per_query"] == 0.0


def test_false_positives_passed_as_relevant_are_counted_apart():
    """A false positive passed as RELEVANT is asserted to answer the question; one passed as
    TANGENTIAL goes with a note for a person to check. The hand model passes cheating for a
    murder question (R5) as TANGENTIAL; the same model with its relevant cut lowered to its
    removal cut passes it as RELEVANT."""
    runs = runs_of("off-topic", {"R5": ["BNS_2023:318", "BNS_2023:103"]})
    checker = StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS)
    model = hand_model()
    eager = RelevanceModel(model.classifier, {kind: Cuts(cuts.low, cuts.low)
                                              for kind, cuts in model.cuts.items()},
                           model.features)
    noted = verification_rates(runs, HELD_OUT, checker, judge()).iloc[0]
    asserted = verification_rates(runs, HELD_OUT, checker, RelevanceJudge(
        SECTIONS, REGISTRY, TRANSITIONS, model=eager)).iloc[0]
    assert noted["false_positives_per_query"] == pytest.approx(1 / 3)
    assert asserted["false_positives_per_query"] == pytest.approx(1 / 3)
    assert noted["asserted_false_positives_per_query"] == 0.0
    assert asserted["asserted_false_positives_per_query"] == pytest.approx(1 / 3)


def test_removal_tradeoff_prices_fewer_false_positives_in_relevant_sections_removed():
    runs = runs_of("off-topic", {"R1": ["ACA_1996:38"], "R5": ["BNS_2023:318", "BNS_2023:103"],
                                 "R6": ["BNS_2023:318"]})
    table = removal_tradeoff(runs, HELD_OUT, judge(), cuts=(0.0, 1.0)).set_index("removal_cut")
    gate = verification_rates(runs, HELD_OUT, StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS),
                              judge()).iloc[0]
    # the model's own cut is what the gate does
    for figure in ("false_positives_per_query", "relevant_removed_per_query"):
        assert table.at["model", figure] == pytest.approx(gate[figure])
    # no cut at all: the rule still removes arbitration deposits from the deposit question;
    # cheating passed for murder (R5) is the one false positive
    assert table.at[0.0, "kept_per_query"] == pytest.approx(3 / 3)
    assert table.at[0.0, "false_positives_per_query"] == pytest.approx(1 / 3)
    assert table.at[0.0, "relevant_removed_per_query"] == 0.0
    # everything cut: no false positive, and both judged sections (R5's murder, R6's
    # cheating) removed
    assert table.at[1.0, "kept_per_query"] == 0.0
    assert table.at[1.0, "false_positives_per_query"] == 0.0
    assert table.at[1.0, "relevant_removed_per_query"] == pytest.approx(2 / 3)
    assert table["relevant_in_top_k_per_query"].tolist() == pytest.approx([2 / 3] * 3)
