"""Relevance verdicts (existence is not relevance) and the gate's use of them, on small in-memory
tables; the spec 001 security-deposit cases also on the real tables when they are built."""

from __future__ import annotations

import json
import math
import pickle
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from sklearn.linear_model import LinearRegression, LogisticRegression

from evals.labeled import labeled_judge
from evals.querysets import QuerySet
from evals.relevance import (
    JudgedQuery,
    candidates,
    class_figures,
    feature_pairs,
    fit_cuts,
    fit_model,
    judged_queries,
    removal_figures,
)
from nyaya import cli
from nyaya.judgments.domains import load_lexicon
from nyaya.retrieval.case_votes import CaseVotes
from nyaya.retrieval.legal_terms import parse_legal_terms
from nyaya.settings import Settings
from nyaya.tables import write_table
from nyaya.verify.gate import render_blocks, verify_text
from nyaya.verify.model import (
    FOUND,
    NOT_APPLICABLE,
    NOT_FOUND,
    OVERALL_VERIFIED,
    PARTIALLY_VERIFIED,
    PRECEDENT_ONLY,
    RELEVANT,
    RELEVANT_PRECEDENT,
    TANGENTIAL,
    UNVERIFIED,
    VERIFIED,
    CitationVerdict,
)
from nyaya.verify.precedents import PrecedentFeatures
from nyaya.verify.relevance import (
    RELATED_DOMAINS,
    PairFeatures,
    RelevanceJudge,
    doc_key,
    domains_related,
)
from nyaya.verify.statutes import StatuteChecker
from nyaya.verify.trained import PASSAGE, QUESTION, Cuts, RankingModel, RelevanceModel, model_path
from pipelines.cli import main


def _act(code: str, title: str, year: int, domain: str, aliases: list[str]) -> dict:
    repealed = code == "IPC_1860"
    return {"act_code": code, "title": title, "year": year,
            "status": "repealed" if repealed else "in_force", "era": "test",
            "legal_domain": domain, "applicable_from": "1862-01-01" if repealed else None,
            "repealed_by": "BNS_2023" if repealed else None,
            "repealed_on": "2024-07-01" if repealed else None, "source_kind": "test",
            "source_path": "test", "source_url": None, "section_format": "json",
            "curated": True, "aliases": aliases}


REGISTRY = [
    _act("BNS_2023", "The Bharatiya Nyaya Sanhita, 2023", 2023, "criminal_substantive", ["BNS"]),
    _act("IPC_1860", "The Indian Penal Code, 1860", 1860, "criminal_substantive", ["IPC"]),
    _act("BSA_2023", "The Bharatiya Sakshya Adhiniyam, 2023", 2023, "evidence", ["BSA"]),
    _act("TPA_1882", "The Transfer of Property Act, 1882", 1882, "civil_property", ["TPA"]),
    _act("ACA_1996", "The Arbitration and Conciliation Act, 1996", 1996, "arbitration", ["ACA"]),
    _act("DRCA_1958", "The Delhi Rent Control Act, 1958", 1958, "tenancy", ["DRCA"]),
]


def _section(act: str, number: str, title: str, text: str) -> dict:
    return {"act_code": act, "section_number": number, "title": title, "text": text,
            "chapter_number": None, "chapter_title": None, "status": "in_force",
            "extraction_confidence": 1.0, "footnotes": ""}


# Paraphrased, short: enough words for the lexical and domain terms, not the Acts' text.
SECTIONS = [
    _section("BNS_2023", "101", "Murder", "Culpable homicide is murder when the act is done "
             "with the intention of causing death."),
    _section("BNS_2023", "103", "Punishment for murder",
             "Whoever commits murder shall be punished with death or imprisonment for life."),
    _section("BNS_2023", "318", "Cheating", "Whoever deceives any person and dishonestly "
             "induces him to deliver property commits cheating."),
    _section("IPC_1860", "302", "Punishment for murder",
             "Whoever commits murder shall be punished with death or imprisonment for life."),
    _section("BSA_2023", "112", "Burden of proof as to relationship in the cases of partners, "
             "landlord and tenant, principal and agent", "When persons have been shown to stand "
             "as landlord and tenant, the burden of proving that they do not stand so is on the "
             "person who affirms it."),
    _section("TPA_1882", "108", "Rights and liabilities of lessor and lessee",
             "The lessee may on the determination of the lease remove fixtures; the lessor "
             "shall deliver possession."),
    _section("TPA_1882", "114", "Relief against forfeiture for non-payment of rent",
             "Where a lease is forfeited for non-payment of rent and the lessor sues to eject "
             "the lessee, the court may give relief against the forfeiture."),
    _section("ACA_1996", "38", "Deposits", "The arbitral tribunal may fix the amount of the "
             "deposit as an advance for the costs; a party may pay the deposit of the other."),
    _section("DRCA_1958", "14", "Protection of tenant against eviction",
             "No order for the recovery of possession of premises shall be made against a "
             "tenant in favour of the landlord except on the grounds stated; the landlord shall "
             "return the security deposit paid by the tenant."),
]
TRANSITIONS = [{"old_act_code": "IPC_1860", "old_section": "302", "new_act_code": "BNS_2023",
                "new_section": "103", "new_unit": None, "relation": "same",
                "source_table": "test", "disagreement": False}]

DEPOSIT = "My landlord is not returning my security deposit"
LABELED = "My landlord is not returning my security deposit even though I vacated the flat"
# R2 and R3 fall in the training half (evals.splits.split_of), R1 in the held-out half.
QUERYSET = QuerySet(
    "mini",
    pd.DataFrame([
        {"qid": "R1", "query": LABELED, "query_type": "civil_conceptual", "domain": "tenancy"},
        {"qid": "R2", "query": "What is the punishment for murder?",
         "query_type": "criminal_offence", "domain": "criminal_substantive"},
        {"qid": "R3", "query": "He deceived me and took my money",
         "query_type": "criminal_offence", "domain": "criminal_substantive"},
    ]),
    {"R1": {"DRCA_1958:14": 2, "TPA_1882:108": 1, "TPA_1882:114": 0},
     "R2": {"BNS_2023:103": 2, "BNS_2023:101": 1},
     "R3": {"BNS_2023:318": 2}},
)


def hand_model() -> RelevanceModel:
    """A real logistic model whose weights are the judge's former hand-set score (lexical + 2 x
    domain + 3 x named) and whose cuts are that score's former thresholds (-0.5, 3.3613): the
    judge and the gate are tested on verdicts known in advance; what training learns is tested
    on the real corpus."""
    classifier = LogisticRegression()
    weights = {"lexical": 1.0, "domain_contradicts": -2.0, "domain_share": 2.0, "named": 3.0}
    classifier.coef_ = np.array([[weights.get(name, 0.0) for name in PairFeatures.NAMES]])
    classifier.intercept_ = np.array([0.0])
    classifier.classes_ = np.array([0, 1])
    classifier.feature_names_in_ = np.array(PairFeatures.NAMES, dtype=object)
    cuts = Cuts(round(_sigmoid(-0.5), 6), round(_sigmoid(3.3613), 6))
    return RelevanceModel(classifier, {QUESTION: cuts, PASSAGE: cuts}, PairFeatures.NAMES)


def hand_precedent_model() -> RelevanceModel:
    """The precedent judge's counterpart of `hand_model`: P(relevant) = sigmoid(6 x lexical +
    2 x shared sections - 4), cuts 0.2 / 0.8, for long questions only (as trained)."""
    classifier = LogisticRegression()
    weights = {"lexical": 6.0, "shared_sections": 2.0}
    classifier.coef_ = np.array([[weights.get(name, 0.0) for name in PrecedentFeatures.NAMES]])
    classifier.intercept_ = np.array([-4.0])
    classifier.classes_ = np.array([0, 1])
    classifier.feature_names_in_ = np.array(PrecedentFeatures.NAMES, dtype=object)
    return RelevanceModel(classifier, {PASSAGE: Cuts(0.2, 0.8)}, PrecedentFeatures.NAMES)


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x))


@pytest.fixture(scope="module")
def judge() -> RelevanceJudge:
    return RelevanceJudge(SECTIONS, REGISTRY, TRANSITIONS, [QUERYSET], model=hand_model())


@pytest.fixture(scope="module")
def checker() -> StatuteChecker:
    return StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS)


@pytest.mark.parametrize(("query", "act", "section", "verdict", "says"), [
    (LABELED, "DRCA_1958", "14", RELEVANT, "grade 2 for labeled query R1 of mini"),
    (f"  {LABELED.upper()}\n ", "TPA_1882", "108", TANGENTIAL, "grade 1"),
    (LABELED, "TPA_1882", "114", NOT_APPLICABLE, "grade 0"),
    (LABELED, "BSA_2023", "112", NOT_APPLICABLE, "not judged relevant"),
    (LABELED, "ACA_1996", "38", NOT_APPLICABLE, "remove this citation"),
])
def test_labeled_queries_are_judged_by_their_qrels(judge, query, act, section, verdict, says):
    relevance = judge.judge(query, act, section)
    assert (relevance.verdict, relevance.source, relevance.score) == (verdict, "qrels", None)
    assert says in relevance.reason


@pytest.mark.parametrize(("query", "act", "section", "verdict", "says"), [
    # specification 001 s.3.1: the three sections the served system passed as authority
    (DEPOSIT, "BSA_2023", "112", NOT_APPLICABLE, "about tenancy but BSA_2023 s.112 belongs to "
     "the evidence domain"),
    (DEPOSIT, "ACA_1996", "38", NOT_APPLICABLE, "arbitration domain"),
    # a lease section of the TPA is no contradiction for a tenancy question (TPA 108, judged
    # relevant to it, is one too): the score keeps it for a person to check
    (DEPOSIT, "TPA_1882", "114", TANGENTIAL, "belongs to the related civil_property domain "
     "(no contradiction)"),
    ("My husband beats me and now wants a divorce", "BNS_2023", "103", TANGENTIAL,
     "the query is about family and BNS_2023 s.103 belongs to the related criminal_substantive"),
    (DEPOSIT + " after I vacated the house. What can I do?", "ACA_1996", "38", NOT_APPLICABLE,
     "remove this citation"),
    (DEPOSIT, "DRCA_1958", "14", TANGENTIAL, "domain tenancy matches the query"),
    ("What is the punishment for murder in Delhi?", "BNS_2023", "103", TANGENTIAL,
     "supporting provision"),
    ("What does BNS section 103 say?", "BNS_2023", "103", RELEVANT, "named in the query"),
    ("IPC 302 murder", "BNS_2023", "103", RELEVANT, "named in the query"),  # the successor
    ("What does BNS section 103 say?", "BNS_2023", "101", TANGENTIAL, "matches the query"),
    # no domain on the query's side: a weak lexical match alone never removes a citation
    ("Someone took my things", "BNS_2023", "318", TANGENTIAL, "no domain to compare"),
])
def test_other_queries_are_judged_by_the_model(judge, query, act, section, verdict, says):
    relevance = judge.judge(query, act, section)
    assert (relevance.verdict, relevance.source) == (verdict, "model")
    features = judge.features(query, act, section)
    assert relevance.score == pytest.approx(judge.model.probabilities(pd.DataFrame(
        [features.vector()], columns=PairFeatures.NAMES))[0], abs=5e-5)
    assert judge.model.cuts[features.kind].verdict(relevance.score) == verdict
    assert says in relevance.reason


@pytest.mark.parametrize(("query", "act", "section", "ruled"), [
    # a question that looks named provisions up: a section of another Act does not answer it
    ("What does BNS section 103 say?", "TPA_1882", "108", True),
    ("What does BNS section 103 say?", "BSA_2023", "112", True),
    ("What does BNS section 103 say?", "BNS_2023", "101", False),  # the named one's Act
    ("IPC 302", "BNS_2023", "101", False),  # the successor's Act
    ("IPC 302", "IPC_1860", "302", False),  # the old code's own
    ("IPC 302", "TPA_1882", "108", True),
    ("Article 21 of the Constitution", "BNS_2023", "103", True),
    # typed a criminal question, but every word beside the citation is the section's own
    ("Is death a punishment for murder under section 103 BNS?", "TPA_1882", "108", True),
    # a question that names a provision but asks something else is judged by the model
    ("I am charged under BNS section 103, can I get bail?", "BSA_2023", "112", False),
    (DEPOSIT, "DRCA_1958", "14", False),  # names nothing
])
def test_a_lookup_question_removes_sections_of_acts_it_does_not_name(judge, query, act,
                                                                     section, ruled):
    relevance = judge.judge(query, act, section)
    assert judge.features(query, act, section).outside_named == ruled
    assert ("looks up the provisions it names" in relevance.reason) == ruled
    if ruled:
        assert relevance.verdict == NOT_APPLICABLE


LEASE_WORDS = parse_legal_terms({"concepts": [
    {"law": "lessor lessee rights and liabilities advance", "asks": ["security deposit"]}]},
    "table")


@pytest.fixture(scope="module")
def strict_judge() -> RelevanceJudge:
    """The hand model with a removal cut so high that it would remove every section not named:
    what the law's words keep, they keep against the model."""
    model = hand_model()
    strict = RelevanceModel(model.classifier, {kind: Cuts(0.99, 0.999) for kind in model.cuts},
                            PairFeatures.NAMES)
    return RelevanceJudge(SECTIONS, REGISTRY, TRANSITIONS, model=strict,
                          legal_terms=LEASE_WORDS)


@pytest.mark.parametrize(("query", "act", "section", "depth", "verdict", "says"), [
    # the concept's words rank the lease sections first, though the question shares no word
    # with them: the model's removal is overruled, with the words and the rank in the reason
    (DEPOSIT, "TPA_1882", "108", 10, TANGENTIAL, 'the query asks, "lessor lessee rights and '
     'liabilities advance", rank it 1'),
    (DEPOSIT, "TPA_1882", "114", 10, TANGENTIAL, "rank it 2"),
    (DEPOSIT, "TPA_1882", "114", 1, NOT_APPLICABLE, "remove this citation"),  # below the depth
    (DEPOSIT, "DRCA_1958", "14", 10, NOT_APPLICABLE, "remove this citation"),  # words unmatched
    # the rule for an unrelated area still removes what the words match ("advance")
    (DEPOSIT, "ACA_1996", "38", 10, NOT_APPLICABLE, "a question of an unrelated area"),
    # a question that names a provision gets no words: the lookup answers it
    ("Does TPA section 114 cover my security deposit?", "TPA_1882", "108", 10, NOT_APPLICABLE,
     "remove this citation"),
    # a passage of facts is in the law's words already and gets none either
    (" ".join([DEPOSIT] * 9), "TPA_1882", "108", 10, NOT_APPLICABLE, "remove this citation"),
])
def test_the_law_s_words_of_a_plain_question_keep_what_they_pick_out(
        strict_judge, monkeypatch, query, act, section, depth, verdict, says):
    monkeypatch.setattr("nyaya.verify.relevance.LAW_WORDS_DEPTH", depth)
    strict_judge._scores.clear()
    relevance = strict_judge.judge(query, act, section)
    assert (relevance.verdict, relevance.source) == (verdict, "model")
    assert says in relevance.reason
    assert strict_judge.model.cuts[QUESTION].verdict(relevance.score) == NOT_APPLICABLE


def test_the_law_s_words_match_what_the_rule_still_removes(strict_judge):
    parts = strict_judge.features(DEPOSIT, "ACA_1996", "38")
    assert parts.kept and parts.domain < 0 and parts.law_words_rank <= 3
    assert strict_judge.features(DEPOSIT, "DRCA_1958", "14").law_words_rank is None


class CountingModel:
    """The hand model, counting the batches it predicts."""

    def __init__(self, model: RelevanceModel) -> None:
        self.model, self.batches = model, 0

    def __getattr__(self, name: str):
        return getattr(self.model, name)

    def probabilities(self, matrix: pd.DataFrame) -> np.ndarray:
        self.batches += 1
        return self.model.probabilities(matrix)


PREPARED = [(DEPOSIT, "BSA_2023", "112"), (DEPOSIT, "DRCA_1958", "14"),
            ("What does BNS section 103 say?", "BNS_2023", "101"),
            ("What does BNS section 103 say?", "BNS_2023", "103"),
            (DEPOSIT, "BSA_2023", "112"),  # asked twice, scored once
            ("What is the punishment for murder?", "BNS_2023", "103")]  # labeled: its qrels


@pytest.mark.parametrize("asked", [PREPARED[:1], PREPARED[:4], PREPARED, PREPARED[::-1]])
def test_prepared_pairs_are_judged_as_unprepared_ones_after_one_prediction(judge, asked):
    counting = CountingModel(hand_model())
    prepared = RelevanceJudge(SECTIONS, REGISTRY, TRANSITIONS, [QUERYSET], model=counting)
    prepared.prepare(asked)
    assert counting.batches == 1
    assert [prepared.judge(*pair) for pair in asked] == [judge.judge(*pair) for pair in asked]
    assert counting.batches == 1


@pytest.mark.parametrize(("query", "act", "section", "lexical", "domain", "named", "related"), [
    (DEPOSIT, "BSA_2023", "112", (0.0, 1.0), -1.0, False, None),
    (DEPOSIT, "DRCA_1958", "14", (1.0, 1.0), 1.0, False, None),  # the table's best lexical match
    (DEPOSIT, "BNS_2023", "318", (0.0, 0.0), -1.0, False, None),
    (DEPOSIT, "TPA_1882", "114", (0.0, 1.0), 0.0, False, "tenancy"),
    ("What does BNS section 103 say?", "BNS_2023", "103", (0.0, 1.0), 1.0, True, None),
    ("nothing in common", "BNS_2023", "999", (0.0, 0.0), 0.0, False, None),  # not in the table
])
def test_features(judge, query, act, section, lexical, domain, named, related):
    parts = judge.features(query, act, section)
    assert lexical[0] <= parts.lexical <= lexical[1]
    assert (parts.domain, parts.named, parts.related_to) == (domain, named, related)
    assert (parts.vote, parts.vote_rank, parts.act_vote) == (0.0, None, 0.0)  # no votes given
    assert parts.query_words == len(query.split()) and parts.kind == QUESTION


def test_lexical_rank_and_the_acts_best_match(judge):
    best = judge.features(DEPOSIT, "DRCA_1958", "14")
    assert (best.lexical, best.lexical_rank, best.act_lexical) == (1.0, 1, 1.0)
    other = judge.features(DEPOSIT, "TPA_1882", "114")
    assert other.lexical_rank > 1 and other.act_lexical >= other.lexical
    missing = judge.features(DEPOSIT, "BNS_2023", "999")
    assert missing.lexical_rank == len(SECTIONS) + 1


JUDGMENTS = {"J1": "The landlord kept the security deposit of the tenant after he vacated.",
             "J2": "The landlord refused to return the deposit; the tenant sued for it.",
             "J3": "The accused stabbed the deceased with a knife: murder."}
CITES = {"J1": {"DRCA_1958:14", "TPA_1882:108"}, "J2": {"DRCA_1958:14"},
         "J3": {"BNS_2023:103"}}


@pytest.fixture(scope="module")
def voting_judge() -> RelevanceJudge:
    votes = CaseVotes.over(list(JUDGMENTS), list(JUDGMENTS.values()), CITES)
    return RelevanceJudge(SECTIONS, REGISTRY, TRANSITIONS, model=hand_model(),
                          votes=lambda: votes)


@pytest.mark.parametrize(("act", "section", "excluded", "voted", "rank", "act_vote"), [
    ("DRCA_1958", "14", (), (1.0, 1.0), 1, (0.5, 1.0)),  # both landlord judgments cite it
    ("TPA_1882", "108", (), (0.01, 0.99), 2, (0.01, 0.5)),  # one of them
    ("BNS_2023", "103", (), (0.0, 0.0), None, (0.0, 0.0)),  # the murder judgment shares no word
    ("TPA_1882", "108", ("J1",), (0.0, 0.0), None, (0.0, 0.0)),  # its one voter excluded
    ("DRCA_1958", "14", ("J1",), (1.0, 1.0), 1, (1.0, 1.0)),
])
def test_vote_features(voting_judge, act, section, excluded, voted, rank, act_vote):
    parts = voting_judge.features(DEPOSIT, act, section, excluded)
    assert voted[0] <= parts.vote <= voted[1] and parts.vote_rank == rank
    assert act_vote[0] <= parts.act_vote <= act_vote[1]
    assert voting_judge.top_voted(DEPOSIT, 5, excluded)[:1] == [("DRCA_1958", "14")]


@pytest.mark.parametrize(("query", "act", "section", "verdict", "says"), [
    # the judgments like the question cite them: kept whatever the model says
    (DEPOSIT, "DRCA_1958", "14", TANGENTIAL, "judgments like the query cite it (vote rank 1)"),
    (DEPOSIT, "TPA_1882", "108", TANGENTIAL, "(vote rank 2)"),
    (DEPOSIT, "TPA_1882", "114", NOT_APPLICABLE, "no case like the query cites it"),
    # a passage's votes keep nothing: it shares words with many judgments
    (" ".join([DEPOSIT] * 9), "DRCA_1958", "14", NOT_APPLICABLE, "remove this citation"),
])
def test_what_judgments_like_a_question_cite_the_model_does_not_remove(query, act, section,
                                                                       verdict, says):
    votes = CaseVotes.over(list(JUDGMENTS), list(JUDGMENTS.values()), CITES)
    model = hand_model()
    strict = RelevanceModel(model.classifier, {kind: Cuts(0.99, 0.999) for kind in model.cuts},
                            PairFeatures.NAMES)
    no_words = parse_legal_terms({"concepts": [{"law": "void", "asks": ["nothing asked"]}]},
                                 "table")
    judge = RelevanceJudge(SECTIONS, REGISTRY, TRANSITIONS, model=strict, votes=lambda: votes,
                           legal_terms=no_words)
    relevance = judge.judge(query, act, section)
    assert relevance.verdict == verdict and says in relevance.reason
    assert strict.cuts[QUESTION].verdict(relevance.score) == NOT_APPLICABLE


@pytest.mark.parametrize(("probability", "verdict"), [
    (0.0, NOT_APPLICABLE), (0.19, NOT_APPLICABLE), (0.2, TANGENTIAL), (0.79, TANGENTIAL),
    (0.8, RELEVANT), (1.0, RELEVANT)])
def test_cuts_decide_the_class(probability, verdict):
    assert Cuts(0.2, 0.8).verdict(probability) == verdict


def test_cuts_must_be_ordered_and_cover_both_kinds():
    with pytest.raises(ValueError, match="above the relevant cut"):
        Cuts(0.8, 0.2)
    for cuts in ({}, {"other": Cuts(0.1, 0.5)}):
        with pytest.raises(ValueError, match="expected question and/or passage"):
            RelevanceModel(LogisticRegression(), cuts, PairFeatures.NAMES)


@pytest.mark.parametrize(("words", "kind"), [(1, QUESTION), (60, QUESTION), (61, PASSAGE)])
def test_a_long_query_is_a_passage(words, kind):
    features = PairFeatures(0.0, 1, 0.0, False, 0.0, None, 0.0, 0.0, words)
    assert features.kind == kind


def test_a_judge_without_a_model_judges_labeled_queries_only():
    judge = RelevanceJudge(SECTIONS, REGISTRY, TRANSITIONS, [QUERYSET])
    assert judge.judge(LABELED, "DRCA_1958", "14").verdict == RELEVANT
    with pytest.raises(ValueError, match="no relevance model"):
        judge.judge(DEPOSIT, "DRCA_1958", "14")


def test_the_model_file_round_trips_and_refuses_other_features(tmp_path):
    path = tmp_path / "relevance.pkl"
    hand_model().save(path)
    loaded = RelevanceModel.load(path, PairFeatures.NAMES)
    assert loaded.cuts == hand_model().cuts
    row = pd.DataFrame([[0.5] * len(PairFeatures.NAMES)], columns=PairFeatures.NAMES)
    assert loaded.probabilities(row) == pytest.approx(hand_model().probabilities(row))
    with pytest.raises(FileNotFoundError, match="relevance_model asset"):
        RelevanceModel.load(tmp_path / "none.pkl", PairFeatures.NAMES)
    with pytest.raises(ValueError, match="trained for other features"):
        RelevanceModel.load(path, ("lexical",))
    path.write_bytes(pickle.dumps({"format": 0, "model": loaded}))
    with pytest.raises(ValueError, match="trained for other features"):
        RelevanceModel.load(path, PairFeatures.NAMES)


def test_the_ranking_model_file_round_trips_and_is_no_relevance_model(tmp_path):
    """The section ranker's file: scores as saved (a linear ranker: the lexical match plus
    3 x named); a relevance model's file (the same features) is refused, and the other way
    round, each naming the asset to rebuild."""
    path, other = tmp_path / "ranker.pkl", tmp_path / "relevance.pkl"
    ranker = LinearRegression()
    ranker.coef_ = np.array([{"lexical": 1.0, "named": 3.0}.get(name, 0.0)
                             for name in PairFeatures.NAMES])
    ranker.intercept_ = 0.0
    ranker.n_features_in_ = len(PairFeatures.NAMES)
    ranker.feature_names_in_ = np.array(PairFeatures.NAMES, dtype=object)
    RankingModel(ranker, PairFeatures.NAMES, {"seconds": 1.0}).save(path)
    hand_model().save(other)
    loaded = RankingModel.load(path, PairFeatures.NAMES)
    rows = pd.DataFrame([[0.5] * len(PairFeatures.NAMES)] * 2, columns=PairFeatures.NAMES)
    rows.loc[1, "named"] = 1.0
    assert loaded.scores(rows).tolist() == pytest.approx([2.0, 3.5])
    assert loaded.scores(rows.iloc[:0]).size == 0
    assert loaded.figures == {"seconds": 1.0}
    with pytest.raises(FileNotFoundError, match=r"no ranking model at .*section_ranker asset"):
        RankingModel.load(tmp_path / "none.pkl", PairFeatures.NAMES)
    with pytest.raises(ValueError, match="rebuild the section_ranker asset"):
        RankingModel.load(other, PairFeatures.NAMES)
    with pytest.raises(ValueError, match="rebuild the relevance_model asset"):
        RelevanceModel.load(path, PairFeatures.NAMES)
    path.write_bytes(pickle.dumps({"format": 1, "model": loaded}))
    with pytest.raises(ValueError, match="another version"):
        RankingModel.load(path, PairFeatures.NAMES)


def test_related_domains_are_a_symmetric_relation_between_known_domains():
    lexicon = load_lexicon()
    known = set(lexicon["phrases"]) | set(lexicon["article_domains"]) - {"ignore"}
    pairs = [(a, b) for a, others in RELATED_DOMAINS.items() for b in others]
    assert {d for pair in pairs for d in pair} <= known
    assert all(a != b for a, b in pairs)
    assert len({frozenset(pair) for pair in pairs}) == len(pairs)  # each pair listed once
    assert all(domains_related(a, b) and domains_related(b, a) for a, b in pairs)
    # specification 001: the deposit question's wrong citations are unrelated areas
    assert not domains_related("tenancy", "evidence")
    assert not domains_related("tenancy", "arbitration")
    assert domains_related("tenancy", "civil_property")


# --- training arithmetic ---------------------------------------------------------------------

SCORES = [-2.0, -1.5, -1.0, 0.1, 0.2, 0.5, 1.0, 2.5, 3.0]
GRADES = [0, 0, 0, 1, 0, 0, 1, 2, 2]


@pytest.mark.parametrize(("scores", "grades", "min_precision", "expected"), [
    # cuts: -2, -1.75, -1.25, -0.45, 0.15, 0.35, 0.75, 1.75, 2.75, 4.0
    (SCORES, GRADES, 0.98, (-0.45, 1.75)),  # the three unjudged lowest are removed
    (SCORES, GRADES, 0.8, (0.75, 1.75)),  # 5 of 6 below 0.75 unjudged
    (SCORES, GRADES, 0.7, (1.75, 1.75)),  # 5/7 below 1.75 still passes
    ([0.0, 1.0, 2.0], [1, 0, 2], 0.98, (0.0, 0.5)),  # a judged pair lowest: nothing removed;
    # the relevant cuts 0.5 and 1.5 tie on macro F1: the lower wins
    ([1.0, 1.0, 1.0], [2, 2, 0], 0.98, (1.0, 1.0)),  # one distinct score
])
def test_fit_cuts(scores, grades, min_precision, expected):
    assert fit_cuts(scores, grades, min_precision) == Cuts(*expected)


@pytest.mark.parametrize(("scores", "grades", "relevant_precision", "expected"), [
    # above the removal cut -0.45: RELEVANT (grade 2) is 2 of 2 pairs at or above 1.75, 2 of 3
    # at or above 0.75, 2 of 4 at or above 0.35, 2 of 6 at or above -0.45
    (SCORES, GRADES, 1.0, (-0.45, 1.75)), (SCORES, GRADES, 0.6, (-0.45, 0.75)),
    (SCORES, GRADES, 0.5, (-0.45, 0.35)), (SCORES, GRADES, 0.3, (-0.45, -0.45)),
    ([0.0, 1.0, 2.0], [0, 1, 0], 0.5, (0.5, 3.0)),  # none reaches it: nothing is asserted
])
def test_a_relevant_cut_of_a_precision(scores, grades, relevant_precision, expected):
    cuts = fit_cuts(scores, grades, 0.98, relevant_precision)
    assert (cuts.low, cuts.high) == expected



def test_fit_needs_a_judged_pair():
    with pytest.raises(ValueError, match="no judged pair"):
        fit_cuts([0.1, 0.2], [0, 0])


def test_class_figures():
    figures = class_figures(SCORES, GRADES, Cuts(-0.45, 1.75))
    assert figures[RELEVANT] == {"precision": 1.0, "recall": 1.0, "support": 2}
    assert figures[TANGENTIAL] == {"precision": 0.5, "recall": 1.0, "support": 2}
    assert figures[NOT_APPLICABLE] == {"precision": 1.0, "recall": 0.6, "support": 5}


def test_candidates_are_the_judged_and_what_a_retrieval_would_cite(voting_judge):
    queries = {query.qid: query for query in judged_queries(QUERYSET)}
    origins = candidates(voting_judge, queries["R1"], depth=3)  # the labeled deposit question
    assert {key for key, origin in origins.items() if origin == "judged"} == \
        set(queries["R1"].sections)
    assert "retrieved" in origins.values()
    # BNS 318 shares no word with R2's murder question, but it comes next to the judged BNS 103
    assert candidates(voting_judge, queries["R2"])[("BNS_2023", "318")] == "neighbour"
    pairs = feature_pairs(voting_judge, queries.values())
    assert set(PairFeatures.NAMES) <= set(pairs.columns)
    assert (pairs.loc[pairs["origin"] != "judged", "grade"] == 0).all()
    assert len(pairs) == sum(len(candidates(voting_judge, q)) for q in queries.values())


def test_a_voted_section_is_a_candidate(voting_judge):
    query = JudgedQuery("dev", "Q", DEPOSIT, {"BNS_2023:103": 2})
    assert candidates(voting_judge, query)[("DRCA_1958", "14")] in {"retrieved", "voted"}
    assert candidates(voting_judge, query)[("TPA_1882", "108")] == "voted"  # no word in common


def test_judged_queries_carry_the_grade_and_exclusions():
    queries = judged_queries(QuerySet("dev", pd.DataFrame([
        {"qid": "J9", "query": "facts of the case", "excluded": ["J9", "J10"]}]),
        {"J9": {"BNS_2023:103": 1}}), grade=2)
    assert queries == [JudgedQuery("dev", "J9", "facts of the case", {"BNS_2023:103": 2},
                                   ("J9", "J10"))]
    assert queries[0].sections == {("BNS_2023", "103"): 2}


def _synthetic_pairs(queries: int = 40) -> pd.DataFrame:
    """Pairs of two sets and both kinds where a relevant section is the best lexical match and
    voted for, an irrelevant one neither: a model must learn to remove the second."""
    rows = []
    for q in range(queries):
        for relevant in (True, False, False, False):
            features = PairFeatures(
                lexical=0.9 if relevant else 0.1 * (q % 5), lexical_rank=1 if relevant else 50,
                domain=1.0 if relevant else -1.0, named=False, vote=1.0 if relevant else 0.0,
                vote_rank=1 if relevant else None, act_vote=0.5, act_lexical=0.9,
                query_words=20 if q % 2 else 120)
            rows.append({"queryset": "a" if q % 4 else "b", "qid": f"Q{q}",
                         "kind": features.kind, "origin": "judged" if relevant else "retrieved",
                         "grade": 2 if relevant else 0,
                         **dict(zip(PairFeatures.NAMES, features.vector(), strict=True))})
    return pd.DataFrame(rows)


def test_fit_model_learns_cuts_of_both_kinds_and_removes_what_does_not_belong():
    pairs = _synthetic_pairs()
    model = fit_model(pairs)
    assert set(model.cuts) == {QUESTION, PASSAGE}
    assert model.figures["training_queries"] == {"a": 30, "b": 10}
    figures = removal_figures(model, _synthetic_pairs(12))
    for name in ("a", "b"):
        assert figures[name]["not_applicable_precision"] == 1.0
        assert figures[name]["not_applicable_recall"] == 1.0
        assert figures[name]["relevant_removed_per_query"] == 0.0
    assert figures["a"]["removed_by_origin"] == {"judged": 0.0, "retrieved": 1.0}
    assert fit_model(pairs).cuts == model.cuts  # a refit is the same model


@pytest.mark.parametrize(("pairs", "says"), [
    (_synthetic_pairs().assign(grade=0), "no judged pair"),
    (_synthetic_pairs().query("kind == 'question'"), "no judged passage pair"),
    (_synthetic_pairs().query("qid == 'Q1'"), "two queries at least"),
])
def test_fit_model_refuses_what_it_cannot_learn_from(pairs, says):
    with pytest.raises(ValueError, match=says):
        fit_model(pairs.reset_index(drop=True))


def test_removal_figures_count_per_set():
    # the hand model's verdicts are known: an irrelevant pair (domain -1, lexical <= 0.4)
    # scores below -0.5 and is removed; a relevant one (0.9 + 2) is TANGENTIAL, never removed
    figures = removal_figures(hand_model(), _synthetic_pairs(8))
    assert (figures["a"]["queries"], figures["a"]["pairs"]) == (6, 24)
    assert figures["a"]["not_applicable_recall"] == 1.0
    assert figures["a"]["not_applicable_precision"] == 1.0
    assert figures["a"]["relevant_removed_per_query"] == 0.0
    assert figures["a"]["classes"][RELEVANT] == {"precision": 0.0, "recall": 0.0, "support": 6}


# --- the gate --------------------------------------------------------------------------------

SPEC_ANSWER = ("Section 112 BSA puts the burden of proof on the tenant, Section 114 TPA gives "
               "relief against forfeiture and Section 38 ACA covers deposits.")
# the two of them the score removes (TPA 114 is a related lease section: kept as TANGENTIAL)
UNRELATED_ANSWER = ("Section 112 BSA puts the burden of proof on the tenant and Section 38 ACA "
                    "covers deposits.")


def _case(status: str) -> CitationVerdict:
    return CitationVerdict(text="X v. Y (2024) 1 SCC 1", span=(1000, 1021), kind="case",
                           status=status, reason=f"case is {status}")


@pytest.mark.parametrize(("text", "query", "cases", "overall", "relevances"), [
    (SPEC_ANSWER, DEPOSIT, [FOUND], PARTIALLY_VERIFIED,
     [NOT_APPLICABLE, TANGENTIAL, NOT_APPLICABLE]),
    (UNRELATED_ANSWER, DEPOSIT, [FOUND], PRECEDENT_ONLY, [NOT_APPLICABLE] * 2),
    (UNRELATED_ANSWER, DEPOSIT, [], UNVERIFIED, [NOT_APPLICABLE] * 2),
    (UNRELATED_ANSWER, DEPOSIT, [NOT_FOUND], UNVERIFIED, [NOT_APPLICABLE] * 2),
    (SPEC_ANSWER, LABELED, [FOUND], PRECEDENT_ONLY, [NOT_APPLICABLE] * 3),
    ("Section 14 DRCA protects the tenant.", DEPOSIT, [FOUND], OVERALL_VERIFIED, [TANGENTIAL]),
    ("Section 14 DRCA protects the tenant.", LABELED, [], OVERALL_VERIFIED, [RELEVANT]),
    ("Section 14 DRCA applies; Section 112 BSA too.", DEPOSIT, [], PARTIALLY_VERIFIED,
     [TANGENTIAL, NOT_APPLICABLE]),
    ("Section 103 BNS punishes murder; see Section 999 BNS.", "punishment for murder", [],
     PARTIALLY_VERIFIED, [TANGENTIAL, None]),  # a NOT_FOUND citation is not judged
    # without a query nothing is judged: the existence verdicts alone, as before
    (SPEC_ANSWER, None, [FOUND], OVERALL_VERIFIED, [None] * 3),
])
def test_overall_status_with_relevance(judge, checker, text, query, cases, overall, relevances):
    report = verify_text(text, checker, query=query, relevance=judge,
                         case_verifier=lambda _: [_case(status) for status in cases])
    assert report.overall == overall
    statutes = [v for v in report.verdicts if v.kind == "statute"]
    assert [v.relevance and v.relevance["verdict"] for v in statutes] == relevances
    assert all(v.status == VERIFIED for v in statutes if v.relevance)
    removed = relevances.count(NOT_APPLICABLE)
    assert any(f"{removed} statute citation(s) exist but do not apply" in note
               for note in report.notes) == bool(removed)


def test_a_query_without_a_judge_changes_nothing(checker):
    with_query = verify_text(SPEC_ANSWER, checker, query=DEPOSIT)
    without = verify_text(SPEC_ANSWER, checker)
    assert render_blocks(with_query) == render_blocks(without)
    assert with_query.overall == OVERALL_VERIFIED
    assert all(v.relevance is None for v in with_query.verdicts)


def test_json_carries_the_relevance(judge, checker):
    report = verify_text("Section 112 BSA and Section 14 DRCA.", checker, query=DEPOSIT,
                         relevance=judge)
    data = json.loads(json.dumps(report.to_dict()))
    first, second = data["citations"]
    assert (first["status"], first["relevance"]["verdict"]) == (VERIFIED, NOT_APPLICABLE)
    assert set(first["relevance"]) == {"verdict", "reason", "source", "score"}
    assert first["relevance"]["source"] == "model"
    assert first["relevance"]["score"] < hand_model().cuts[QUESTION].low
    assert second["relevance"]["verdict"] == TANGENTIAL
    assert data["counts"]["surviving"] == 1
    plain = verify_text("Section 112 BSA.", checker).to_dict()
    assert plain["citations"][0]["relevance"] is None


def test_rendered_blocks(judge, checker):
    report = verify_text("Section 112 BSA applies. Section 14 DRCA protects the tenant.", checker,
                         query=DEPOSIT, relevance=judge)
    blocks = render_blocks(report)
    assert blocks.startswith(f"OVERALL: {PARTIALLY_VERIFIED}")
    assert "Note: 1 statute citation(s) exist but do not apply to the query" in blocks
    assert "CITATION NOT APPLICABLE: BSA_2023 s.112 (as written: 'Section 112 BSA')" in blocks
    assert "relevance NOT_APPLICABLE — BSA_2023 s.112 exists but does not answer" in blocks
    assert "It exists, but it does not answer the query." in blocks
    assert blocks.count("ACTION REQUIRED: Remove this citation") == 1
    assert "CITATION VERIFIED: DRCA_1958 s.14\n" in blocks
    assert "Relevance: TANGENTIAL — DRCA_1958 s.14: domain tenancy matches" in blocks
    assert "a person should check that it applies. (source: model)" in blocks
    assert "Section: 14 — Protection of tenant against eviction" in blocks


def data_settings(data_dir: Path) -> Settings:
    return Settings(corpus_root=data_dir, data_dir=data_dir, qdrant_path=data_dir / "qdrant",
                    qdrant_url=None)


def write_relevance_inputs(data_dir: Path) -> None:
    """What `nyaya verify --query` reads besides the statute tables: the model (the hand model
    here) and the tables the judgments' votes are built from."""
    settings = data_settings(data_dir)
    hand_model().save(model_path(settings))
    hand_precedent_model().save(model_path(settings, "precedents"))
    write_table(pd.DataFrame({"node_id": [f"CASE:{doc}" for doc in JUDGMENTS],
                              "doc_ids": [[doc] for doc in JUDGMENTS],
                              "pagerank": [0.2, 0.3, 0.5]}),
                data_dir / "warehouse" / "citation_graph_nodes.parquet")
    write_table(pd.DataFrame({"source_id": ["CASE:J2"], "target_id": ["CASE:J1"],
                              "target_type": ["case"]}),
                data_dir / "warehouse" / "citation_graph_edges.parquet")
    write_table(pd.DataFrame({"doc_id": list(JUDGMENTS), "case_id": list(JUDGMENTS),
                              "text": list(JUDGMENTS.values())}),
                data_dir / "warehouse" / "judgments.parquet")
    write_table(pd.DataFrame([{"doc_id": doc, "mention_type": "statute", "kind": "section",
                               "act_code": act, "section": section, "reason": None}
                              for doc, cited in CITES.items()
                              for act, section in map(doc_key, sorted(cited))]),
                data_dir / "warehouse" / "citation_mentions.parquet")


def write_statute_tables(warehouse: Path, registry: list[dict] = REGISTRY,
                         sections: list[dict] = SECTIONS,
                         transitions: list[dict] = TRANSITIONS) -> None:
    """The statute tables lookup and verify read: the three, and a quarantine with nothing."""
    for name, rows in (("act_registry", registry), ("sections", sections),
                       ("law_transition_map", transitions)):
        write_table(pd.DataFrame(rows), warehouse / f"{name}.parquet")
    write_table(pd.DataFrame(columns=["source_file", "source_line", "act_code", "section_number",
                                      "reason", "detail", "excerpt"]),
                warehouse / "ingest_quarantine.parquet")


@pytest.fixture
def warehouse(tmp_path, monkeypatch):
    write_statute_tables(tmp_path / "warehouse")
    write_relevance_inputs(tmp_path)
    monkeypatch.setenv("NYAYA_DATA", str(tmp_path))
    monkeypatch.setattr(cli, "_load_case_verifier",
                        lambda settings, llm=None: (None, "cases skipped"))
    return tmp_path


@pytest.mark.parametrize(("text", "query", "code", "relevance"), [
    ("Section 112 BSA.", DEPOSIT, 1, NOT_APPLICABLE),
    ("Section 14 DRCA.", DEPOSIT, 0, TANGENTIAL),
    ("Section 14 DRCA.", None, 0, None),
])
def test_cli_judges_relevance_with_a_query(warehouse, capsys, text, query, code, relevance):
    path = warehouse / "answer.txt"
    path.write_text(text, encoding="utf-8")
    args = ["verify", str(path), "--json", *(["--query", query] if query else [])]
    assert main(args) == code
    (citation,) = json.loads(capsys.readouterr().out)["citations"]
    assert (citation["relevance"] or {}).get("verdict") == relevance


@pytest.mark.bad_input("CLI", "verify --query before the relevance model is trained")
def test_cli_query_without_the_model(warehouse, capsys):
    model_path(data_settings(warehouse)).unlink()
    (warehouse / "a.txt").write_text("Section 112 BSA", encoding="utf-8")
    assert main(["verify", str(warehouse / "a.txt"), "--query", DEPOSIT]) == 2
    assert "no relevance model at" in capsys.readouterr().err
    assert main(["verify", str(warehouse / "a.txt")]) == 0  # no query: no model needed


@pytest.mark.bad_input("CLI", "verify before the tables are built")
def test_cli_query_without_tables(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("NYAYA_DATA", str(tmp_path))
    (tmp_path / "a.txt").write_text("Section 112 BSA", encoding="utf-8")
    assert main(["verify", str(tmp_path / "a.txt"), "--query", DEPOSIT]) == 2
    assert "build the tables first" in capsys.readouterr().err


# --- the real tables -------------------------------------------------------------------------

@pytest.fixture(scope="module")
def real_judge(main_run) -> RelevanceJudge:
    """From the tables of the session's main run on the real corpus."""
    from pipelines.resources import NyayaSettings

    data_dir, _ = main_run
    return labeled_judge(NyayaSettings(data_dir=str(data_dir)).resolved())


@pytest.mark.parametrize("query", [
    DEPOSIT,
    DEPOSIT + " after I vacated the house. What can I do?",  # specification 001's wording
    "My landlord is not returning my security deposit even though I vacated the flat two "
    "months ago",  # nyaya-statutes NS020, judged by its qrels
])
@pytest.mark.parametrize(("act", "section", "by_model"), [
    # evidence and arbitration: areas unrelated to a tenancy question, which does not name them
    ("BSA_2023", "112", NOT_APPLICABLE), ("ACA_1996", "38", NOT_APPLICABLE),
    # TPA 114 is a lease section, as TPA 108 is, which NS020 judges relevant to this question
    # (and which matches its words less): the model cannot tell the two apart, so it keeps TPA
    # 114 as TANGENTIAL (a person must check it) rather than remove a relevant lease section;
    # only the labeled query's qrels remove it
    ("TPA_1882", "114", TANGENTIAL), ("TPA_1882", "108", TANGENTIAL)])
def test_spec_001_security_deposit_cases_on_the_real_tables(real_judge, query, act, section,
                                                            by_model):
    relevance = real_judge.judge(query, act, section)
    by_qrels = TANGENTIAL if (act, section) == ("TPA_1882", "108") else NOT_APPLICABLE
    expected = (by_qrels, "qrels") if "two months" in query else (by_model, "model")
    assert (relevance.verdict, relevance.source) == expected, relevance.reason


@pytest.mark.parametrize(("query", "verdict", "says"), [
    ("The accused stabbed the victim in the stomach with a spear; he says he never meant to kill "
     "him. Is it murder?", RELEVANT_PRECEDENT, "the passages citing it match the question"),
    # a tenancy question: nothing the judgments citing it say fits, yet from a question-sized
    # text a case is never removed (docs/verification.md)
    ("My landlord kept my security deposit after I vacated the flat. Can I get it back?",
     TANGENTIAL, "no passage citing it in the judgments we hold matches the question"),
])
def test_a_precedent_is_judged_by_what_the_judgments_citing_it_say(real_judge, query, verdict,
                                                                   says):
    """Virsa Singh v. State of Punjab (AIR 1958 SC 465, AILA's C94), which the judgments we
    hold cite for when a bodily injury intended is murder."""
    relevance = real_judge.judge_case(query, ["AILA:C94"], "Virsa Singh v. State of Punjab")
    assert relevance.verdict == verdict and says in relevance.reason, relevance.reason


def test_the_trained_models_remove_rarely_wrongly_on_held_out_halves(main_run):
    """The relevance_model asset of the session's main run: on the held-out halves they were
    not trained on, a removal is right at least 98% of the time and removes some of what does
    not belong (docs/verification.md has the figures). The precedent model removes far less (a
    cited case is often unlike the text citing it), and from a question-sized text nothing:
    there it only tells RELEVANT_PRECEDENT from TANGENTIAL."""
    from pipelines.resources import NyayaSettings

    data_dir, _ = main_run
    settings = NyayaSettings(data_dir=str(data_dir)).resolved()
    statutes = RelevanceModel.load(model_path(settings), PairFeatures.NAMES)
    precedents = RelevanceModel.load(model_path(settings, "precedents"),
                                     PrecedentFeatures.NAMES)
    # the questions' cut is fitted at 99.8% on the out-of-fold pairs of 76 training questions:
    # one relevant pair scoring low moves it, and the held-out recall with it (0.224 on
    # 2026-12-04's tables, 0.107 on 2026-12-05's, precision 1.0 both times)
    least_recall = {"cited-statutes": 0.15, "nyaya-statutes": 0.08, "cited-precedents": 0.05,
                    "cited-precedent-passages": 0.05, "cited-precedent-questions": 0.0}
    assert set(statutes.figures["held_out"]) | set(precedents.figures["held_out"]) == set(
        least_recall)
    for model in (statutes, precedents):
        for name, figures in model.figures["held_out"].items():
            precision = figures["not_applicable_precision"]
            assert precision is None or precision >= 0.98, (name, figures)
            assert figures["not_applicable_recall"] >= least_recall[name], (name, figures)
            assert figures["relevant_removed_per_query"] <= 0.15, (name, figures)
            assert figures["classes"]["RELEVANT"]["precision"] >= 0.3, (name, figures)
