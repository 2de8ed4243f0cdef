"""Precedent relevance (nyaya.verify.precedents): features, verdicts and the gate's use of them,
on the small judgments of test_verify_relevance; its training on synthetic pairs."""

from __future__ import annotations

import pandas as pd
import pytest
from test_verify_relevance import (
    CITES,
    JUDGMENTS,
    REGISTRY,
    SECTIONS,
    TRANSITIONS,
    hand_model,
    hand_precedent_model,
)

from evals.relevance import JudgedQuery, fit_model, precedent_pairs, removal_figures
from nyaya.retrieval.case_votes import CaseVotes
from nyaya.retrieval.citing_contexts import CitingContexts, case_citing_passages
from nyaya.verify.gate import verify_text
from nyaya.verify.model import (
    FOUND,
    NOT_APPLICABLE_PRECEDENT,
    NOT_JUDGED,
    PRECEDENT_ONLY,
    RELEVANT_PRECEDENT,
    UNVERIFIED,
    CitationVerdict,
)
from nyaya.verify.precedents import (
    Citers,
    PrecedentFeatures,
    PrecedentJudge,
)
from nyaya.verify.relevance import RelevanceJudge
from nyaya.verify.statutes import StatuteChecker
from nyaya.verify.trained import PASSAGE, QUESTION

# a fact description of more than 60 words, about a tenant's deposit
FACTS = ("The appellant was a tenant of the respondent landlord for eleven years and paid a "
         "security deposit when the lease began. After he vacated the premises and handed over "
         "the keys the landlord refused to return the deposit, saying that the tenant had "
         "damaged the fittings, and kept the whole of the deposit for himself. The tenant sued "
         "the landlord for the deposit with interest and the trial court decreed the suit, "
         "which the High Court reversed on appeal.")
# a whole judgment's length
JUDGMENT = " ".join([FACTS] * 12)
# J2 and J3 cite J1; J3 also cites J2 (node ids as in citation_graph_nodes); J1b is J1's case
# printed by a second source
NODES = pd.DataFrame({"node_id": ["CASE:J1", "CASE:J2", "CASE:J3"],
                      "doc_ids": [["J1", "J1b"], ["J2"], ["J3"]]})
EDGES = pd.DataFrame({"source_id": ["CASE:J2", "CASE:J3", "CASE:J3", "CASE:J3", "CASE:J2"],
                      "target_id": ["CASE:J1", "CASE:J1", "CASE:J2", "CASE:J3", "BNS_2023:103"],
                      "target_type": ["case", "case", "case", "case", "section"]})
CITERS = Citers.from_graph(NODES, EDGES)
DOCS_OF = dict(zip(NODES["node_id"], NODES["doc_ids"], strict=True))


def _case_mention(doc: str, at: int, resolved: list[str], end: int | None = None) -> dict:
    return {"doc_id": doc, "mention_type": "case", "group_start": at,
            "group_end": at if end is None else end, "resolved_case_ids": resolved}


# J2's landlord passage cites J1; J3's murder passage cites J2 (each at its text's end)
CASE_MENTIONS = pd.DataFrame([_case_mention("J2", len(JUDGMENTS["J2"]), ["CASE:J1"]),
                              _case_mention("J3", len(JUDGMENTS["J3"]), ["CASE:J2"])])


@pytest.fixture(scope="module")
def votes() -> CaseVotes:
    return CaseVotes.over(list(JUDGMENTS), list(JUDGMENTS.values()), CITES)


@pytest.fixture(scope="module")
def contexts() -> CitingContexts:
    return CitingContexts.over(case_citing_passages(CASE_MENTIONS, JUDGMENTS, DOCS_OF),
                               JUDGMENTS)


@pytest.fixture(scope="module")
def judge(votes, contexts) -> PrecedentJudge:
    return PrecedentJudge(votes, CITERS, contexts, hand_precedent_model())


TEXTS = {"A": "one two three CITE four five", "B": "six CITE seven", "C": "eight"}


@pytest.mark.parametrize(("mentions", "passages"), [
    # the citation cut out, `span` characters kept each side; the case's other judgments too
    ([_case_mention("A", 14, ["CASE:J1"], 18)], [("A", "three   four ", {"J1", "J1b"})]),
    # two citations of one group are one passage standing for both cases
    ([_case_mention("A", 14, ["CASE:J1"], 18), _case_mention("A", 14, ["CASE:J2"], 18)],
     [("A", "three   four ", {"J1", "J1b", "J2"})]),
    # unresolved, or resolved to a case we hold no judgment of: no passage
    ([_case_mention("B", 4, [], 8), _case_mention("B", 4, ["CASE:X9"], 8)], []),
    # a judgment citing its own case (J1b prints J1's) stands for nothing
    ([_case_mention("J1b", 0, ["CASE:J1"], 0)], []),
])
def test_case_citing_passages(mentions, passages):
    texts = {**TEXTS, "J1b": "x"}
    found = case_citing_passages(pd.DataFrame(mentions), texts, DOCS_OF, span=6)
    assert [(p.owner, p.text, set(p.targets)) for p in found] == passages


@pytest.mark.bad_input("case citations", "a judgment with case mentions but no text")
def test_case_citing_passages_refuse_a_judgment_without_text():
    with pytest.raises(ValueError, match="1 judgments with case mentions have no text"):
        case_citing_passages(pd.DataFrame([_case_mention("Z", 0, ["CASE:J1"])]), TEXTS,
                             DOCS_OF)


@pytest.mark.parametrize(("doc_ids", "excluded", "count"), [
    (["J1"], [], 2),  # cited by J2 and J3
    (["J1b"], [], 2),  # the same case, printed by another source
    (["J1"], ["J3"], 1),  # the question's own case does not count
    (["J2"], [], 1),
    (["J3"], [], 0),  # a case citing itself is no citer; a section is no case
    (["J3", "J1"], [], 2),  # one case held by several judgments: its best-cited
    (["J9"], [], 0),  # not in the graph
    ([], [], 0),
])
def test_citers_count_other_cases_citing_the_judgment(doc_ids, excluded, count):
    assert CITERS.count(doc_ids, excluded) == count


def test_features(judge):
    assert len(FACTS.split()) > 60
    first = judge.features(FACTS, ["J1"])
    assert first.kind == PASSAGE and first.query_words == len(FACTS.split())
    assert first.lexical_rank in (1, 2) and first.lexical > 0.5
    # J1 cites DRCA 14 and TPA 108; the other judgments (J2, J3) cite DRCA 14 and BNS 103
    assert first.shared_sections == 0.5
    assert first.cited_by == 2 and judge.features(FACTS, ["J1"], ["J2"]).cited_by == 1
    murder = judge.features(FACTS, ["J3"])
    assert (murder.lexical_rank, murder.shared_sections) == (3, 0.0)
    assert murder.lexical < first.lexical
    # a case held by two judgments is read through its best match
    assert judge.features(FACTS, ["J3", "J1"]).lexical == first.lexical
    assert judge.features(FACTS, ["NOT:HELD"]) is None
    # an excluded judgment is never among the nearest: J1 then shares only with J3
    assert judge.features(FACTS, ["J1"], excluded=["J2"]).shared_sections == 0.0


@pytest.mark.parametrize(("doc_ids", "excluded", "score", "rank"), [
    (["J1"], [], 1.0, 1),  # J2's landlord passage cites it: the best-matched case
    (["J2"], [], 0.0, 4),  # cited only in J3's murder passage, which does not match
    (["J3"], [], 0.0, 4),  # cited by no one: past every judgment
    (["J1"], ["J2"], 0.0, 4),  # the question's own judgment's passages never count
    (["J2", "J1"], [], 1.0, 1),  # one case held by several judgments: its best-cited
])
def test_features_read_the_passages_citing_the_case(judge, doc_ids, excluded, score, rank):
    features = judge.features(FACTS, doc_ids, excluded)
    assert (features.contexts, features.contexts_rank) == (score, rank)


def test_ranked_puts_the_closest_judgments_first(judge):
    assert list(judge.ranked(FACTS))[-1] == "J3"


@pytest.mark.parametrize(("query", "doc_ids", "verdict", "says"), [
    (JUDGMENT, ["J1"], RELEVANT_PRECEDENT, "a precedent for the question"),
    (JUDGMENT, ["J3"], NOT_APPLICABLE_PRECEDENT, "remove this citation"),
    (JUDGMENT, ["NOT:HELD"], NOT_JUDGED, "we hold no text of this case"),
    (FACTS, ["J1"], RELEVANT_PRECEDENT, "a precedent for the question"),
    # the hand model has cuts for passages only: a question is not judged, and says why
    ("My landlord kept my deposit", ["J1"], NOT_JUDGED,
     "was not trained on texts of 5 words (a question)"),
])
def test_verdicts(judge, query, doc_ids, verdict, says):
    relevance = judge.judge(query, doc_ids, "Ram v. Shyam")
    assert relevance.verdict == verdict and relevance.source == "model"
    assert relevance.reason.startswith("Ram v. Shyam: ") and says in relevance.reason
    assert (relevance.score is None) == (verdict == NOT_JUDGED)


def test_a_judge_without_its_model_refuses(votes, contexts):
    with pytest.raises(ValueError, match="no precedent relevance model"):
        PrecedentJudge(votes, CITERS, contexts).judge(JUDGMENT, ["J1"], "X v. Y")


def _found(doc_ids: list[str]) -> CitationVerdict:
    return CitationVerdict(text="Ram v. Shyam, (2020) 1 SCC 1", span=(17, 44), kind="case",
                           status=FOUND, reason="found", case_name="Ram v. Shyam",
                           matched={"id": "C1", "case_name": "Ram v. Shyam", "doc_ids": doc_ids})


@pytest.mark.parametrize(("query", "doc_ids", "overall", "relevance", "note"), [
    (JUDGMENT, ["J1"], PRECEDENT_ONLY, RELEVANT_PRECEDENT, None),
    (JUDGMENT, ["J3"], UNVERIFIED, NOT_APPLICABLE_PRECEDENT, "no precedent for the query"),
    ("My landlord kept my deposit", ["J1"], PRECEDENT_ONLY, NOT_JUDGED, "was not judged"),
    (None, ["J3"], PRECEDENT_ONLY, None, None),  # no query: existence alone
])
def test_the_gate_judges_found_cases(votes, contexts, query, doc_ids, overall, relevance,
                                     note):
    judge = RelevanceJudge(SECTIONS, REGISTRY, TRANSITIONS, model=hand_model(),
                           votes=lambda: votes,
                           precedents=lambda v: PrecedentJudge(v, CITERS, contexts,
                                                               hand_precedent_model()))
    # the statute cited does not exist: the answer rests on the precedent alone, if at all
    report = verify_text("Section 999 BNS. Ram v. Shyam, (2020) 1 SCC 1.",
                         StatuteChecker(REGISTRY, SECTIONS, TRANSITIONS), query=query,
                         relevance=judge, case_verifier=lambda _: [_found(doc_ids)])
    (case,) = [v for v in report.verdicts if v.kind == "case"]
    assert report.overall == overall
    assert (case.relevance or {}).get("verdict") == relevance
    assert case.survives == (relevance != NOT_APPLICABLE_PRECEDENT)
    assert any(note in n for n in report.notes) if note else len(report.notes) == 0


def test_a_judge_without_a_precedent_judge_says_so():
    judge = RelevanceJudge(SECTIONS, REGISTRY, TRANSITIONS, model=hand_model())
    relevance = judge.judge_case(JUDGMENT, ["J1"], "X v. Y")
    assert relevance.verdict == NOT_JUDGED and "no precedent model" in relevance.reason


def test_precedent_pairs_take_negatives_from_the_pool_only(judge):
    query = JudgedQuery("dev", "Q1", FACTS, {"J2": 2}, ("Q1",))
    pairs = precedent_pairs(judge, [query], pool={"J1", "J2"}, depth=5)
    assert dict(zip(pairs["doc_id"], pairs["origin"], strict=True)) == {
        "J2": "judged", "J1": "retrieved"}  # J3 is outside the pool
    assert set(PrecedentFeatures.NAMES) <= set(pairs.columns)
    assert pairs.set_index("doc_id")["grade"].to_dict() == {"J2": 2, "J1": 0}


def _synthetic(queries: int = 40) -> pd.DataFrame:
    rows = []
    for q in range(queries):
        for cited in (True, False, False):
            features = PrecedentFeatures(0.9 if cited else 0.1 * (q % 4), 1 if cited else 40,
                                         0.8 if cited else 0.0, 1, 300,
                                         0.7 if cited else 0.0, 2 if cited else 41)
            rows.append({"queryset": "dev", "qid": f"Q{q}", "kind": features.kind,
                         "doc_id": f"J{q}-{cited}", "origin": "judged" if cited else "retrieved",
                         "grade": 2 if cited else 0,
                         **dict(zip(PrecedentFeatures.NAMES, features.vector(), strict=True))})
    return pd.DataFrame(rows)


def test_the_precedent_model_trains_on_passages_only():
    model = fit_model(_synthetic(), features=PrecedentFeatures.NAMES, kinds=(PASSAGE,))
    assert set(model.cuts) == {PASSAGE} and QUESTION not in model.cuts
    figures = removal_figures(model, _synthetic(12))["dev"]
    assert figures["not_applicable_precision"] == 1.0
    assert figures["not_applicable_recall"] == 1.0
    assert figures["relevant_removed_per_query"] == 0.0


def test_random_negatives_come_from_the_pool_and_are_stable(judge):
    query = JudgedQuery("dev", "Q1", FACTS, {"J1": 2})
    pool = {"J1", "J2", "J3"}
    first = precedent_pairs(judge, [query], pool, depth=2)
    # J1 judged (and the closest), J2 next: retrieved; J3, the one left, drawn at random
    assert sorted(first["origin"]) == ["judged", "retrieved", "sampled"]
    assert first.equals(precedent_pairs(judge, [query], pool, depth=2))
