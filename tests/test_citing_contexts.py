"""Statutes through the judgment passages that cite them (nyaya.retrieval.citing_contexts):
passages built from citation mentions, summed per section, with the query's own judgment and
any judgment printing the query left out; and the statute search that uses them. Pure logic
over tiny in-memory texts, real components only."""

from __future__ import annotations

import types

import pandas as pd
import pytest

from nyaya.retrieval.citing_contexts import CitingContexts
from nyaya.retrieval.pipeline import ConfigError, StatuteSearch
from nyaya.retrieval.retrievers import ContextVoting, Query

QUESTION = "the letter admitting the debt was signed before the suit became time barred"

TEXTS = {
    "j-debt": "The defendant wrote a letter admitting the debt and signed it. Under s. 18 of "
              "the Limitation Act the suit was not time barred. Appeal allowed.",
    "j-debt2": "A signed acknowledgment of the debt gives a fresh period; see s. 18 of the "
               "Limitation Act. The suit is within time.",
    "j-murder": "He struck the deceased with an iron rod; convicted under s. 302 IPC.",
    "j-other": "The debt was admitted in a letter; the suit was barred anyway, s. 19 of the "
               "Limitation Act, part payment.",
}


def mention(doc: str, cited: str, act: str, section: str) -> dict:
    """A statute mention whose group span is the first occurrence of `cited` in the text."""
    start = TEXTS[doc].index(cited)
    return {"doc_id": doc, "mention_type": "statute", "group_start": start,
            "group_end": start + len(cited), "act_code": act, "section": section}


MENTIONS = pd.DataFrame([
    mention("j-debt", "s. 18 of the Limitation Act", "LA_1963", "18"),
    mention("j-debt2", "s. 18 of the Limitation Act", "LA_1963", "18"),
    mention("j-murder", "s. 302 IPC", "IPC_1860", "302"),
    mention("j-other", "s. 19 of the Limitation Act", "LA_1963", "19"),
    # a case citation and an unresolved statute mention stand for nothing
    {"doc_id": "j-debt", "mention_type": "case", "group_start": 0, "group_end": 3,
     "act_code": None, "section": None},
    {"doc_id": "j-other", "mention_type": "statute", "group_start": 0, "group_end": 3,
     "act_code": None, "section": "4"},
])
SUCCESSORS = {"IPC_1860:302": {"BNS_2023:103"}}


@pytest.fixture(scope="module")
def contexts() -> CitingContexts:
    return CitingContexts.from_mentions(MENTIONS, TEXTS, SUCCESSORS)


def passage_score(contexts: CitingContexts, owner: str) -> float:
    scores = contexts.index.scores(QUESTION)
    return float(scores[contexts.owners.index(owner)])


def test_one_passage_per_citation_group_without_the_citation(contexts):
    """Four resolved groups, four passages; the cited words themselves are not in them, the
    words around are; a repealed code's section also stands for its successor."""
    assert contexts.owners == ["j-debt", "j-debt2", "j-murder", "j-other"]
    assert contexts.targets == [frozenset({"LA_1963:18"}), frozenset({"LA_1963:18"}),
                                frozenset({"IPC_1860:302", "BNS_2023:103"}),
                                frozenset({"LA_1963:19"})]
    passages = contexts.index.texts
    assert "Limitation Act the suit" not in passages[0]
    assert "letter admitting the debt" in passages[0] and "not time barred" in passages[0]


def one_group(text: str, cited: str, sections: list[str]) -> CitingContexts:
    """Passages of one judgment `text` whose IPC mentions of `sections` share the group span
    of `cited`."""
    span = text.index(cited)
    return CitingContexts.from_mentions(pd.DataFrame([
        {"doc_id": "j", "mention_type": "statute", "group_start": span,
         "group_end": span + len(cited), "act_code": "IPC_1860", "section": section}
        for section in sections]), {"j": text})


def test_two_sections_cited_in_one_group_share_one_passage():
    """`ss. 302 and 34 IPC`: two mentions with one group span are one passage citing both."""
    both = one_group("Convicted under ss. 302 and 34 IPC for the murder.", "ss. 302 and 34 IPC",
                     ["302", "34"])
    assert both.targets == [frozenset({"IPC_1860:302", "IPC_1860:34"})]


@pytest.mark.parametrize("span", [5, 20])
def test_span_cuts_the_text_each_side(span):
    """`span` characters before the citation and after it, nothing more."""
    cut = CitingContexts.from_mentions(MENTIONS.head(1), TEXTS, span=span)
    start = TEXTS["j-debt"].index("s. 18")
    end = start + len("s. 18 of the Limitation Act")
    assert cut.index.texts == [TEXTS["j-debt"][start - span:start] + " "
                                + TEXTS["j-debt"][end:end + span]]


def test_a_mention_of_a_judgment_without_text_is_refused():
    with pytest.raises(ValueError, match=r"1 judgments with statute mentions have no text "
                                         r"\(j-gone first\)"):
        CitingContexts.from_mentions(MENTIONS.assign(doc_id="j-gone").head(1), TEXTS)


def test_a_section_scores_the_sum_of_its_passages(contexts):
    """LA 18 is cited by two passages matching the question, LA 19 by one; the murder
    passage shares no word and scores nothing."""
    hits = contexts.search(QUESTION, 10)
    assert [hit.doc_id for hit in hits] == ["LA_1963:18", "LA_1963:19"]
    assert hits[0].score == pytest.approx(passage_score(contexts, "j-debt")
                                          + passage_score(contexts, "j-debt2"))
    assert hits[1].score == pytest.approx(passage_score(contexts, "j-other"))
    assert {hit.method for hit in hits} == {"contexts"}


@pytest.mark.parametrize(("summed", "expected"), [(1, "j-debt"), (2, None)])
def test_summed_caps_the_passages_a_section_adds(contexts, summed, expected):
    """With one passage summed, LA 18 scores its best passage only."""
    score = contexts.search(QUESTION, 10, summed=summed)[0].score
    best = max(passage_score(contexts, "j-debt"), passage_score(contexts, "j-debt2"))
    both = passage_score(contexts, "j-debt") + passage_score(contexts, "j-debt2")
    assert score == pytest.approx(best if expected else both)


@pytest.mark.parametrize(("excluded", "expected"), [
    ((), ["LA_1963:18", "LA_1963:19"]),
    (("j-debt",), ["LA_1963:19", "LA_1963:18"]),  # LA 18 keeps one passage, below LA 19's
    (("j-debt", "j-debt2"), ["LA_1963:19"]),
    ({"j-other"}, ["LA_1963:18"]),
])
def test_excluded_judgments_passages_never_count(contexts, excluded, expected):
    hits = contexts.search(QUESTION, 10, excluded=excluded)
    assert [hit.doc_id for hit in hits] == expected
    if excluded == ("j-debt",):
        assert hits[1].score == pytest.approx(passage_score(contexts, "j-debt2"))


def test_a_judgment_that_prints_the_question_never_counts():
    """The question copied into a judgment (AILA's queries came from judgments): that
    judgment's passage, the best match by far, is left out; the others still count."""
    question = ("the appellant wrote to the bank admitting the loan and promising to repay "
                "it within a year of the notice")
    texts = {**TEXTS, "j-source": f"Facts: {question}. Held: s. 18 of the Limitation Act "
                                  "applies."}
    start = texts["j-source"].index("s. 18")
    leak = {"doc_id": "j-source", "mention_type": "statute", "group_start": start,
            "group_end": start + len("s. 18 of the Limitation Act"), "act_code": "LA_1963",
            "section": "20"}
    contexts = CitingContexts.from_mentions(pd.concat([MENTIONS, pd.DataFrame([leak])]), texts)
    assert "LA_1963:20" not in [hit.doc_id for hit in contexts.search(question, 10)]
    assert "LA_1963:18" in [hit.doc_id for hit in contexts.search(question, 10)]


@pytest.mark.parametrize(("keep", "k", "expected"), [
    (None, 1, ["LA_1963:18"]),
    (lambda doc: doc != "LA_1963:18", 10, ["LA_1963:19"]),
    (lambda doc: doc.startswith("BNS"), 10, []),
])
def test_keep_and_k_cut_the_sections(contexts, keep, k, expected):
    assert [hit.doc_id for hit in contexts.search(QUESTION, k, keep=keep)] == expected


def test_a_question_with_no_indexed_word_finds_nothing(contexts):
    assert contexts.search("zzz qqq", 10) == []


def test_ties_go_by_section_id():
    """One passage citing two sections: equal scores, ordered by doc id."""
    tied = one_group("The accused stole a phone; convicted under s. 379 and s. 380 IPC.",
                     "s. 379 and s. 380 IPC", ["380", "379"])
    hits = tied.search("stole a phone", 10)
    assert [hit.doc_id for hit in hits] == ["IPC_1860:379", "IPC_1860:380"]
    assert hits[0].score == hits[1].score > 0


# --- the statute search's `contexts` retriever ------------------------------------------------


def test_contexts_retriever_passes_the_query_exclusions(contexts):
    retriever = ContextVoting(contexts, lambda doc: True)
    query = Query(QUESTION, None, ([], []), None, excluded=frozenset({"j-debt", "j-debt2"}))
    assert [hit.doc_id for hit in retriever.search(query, 10)] == ["LA_1963:19"]


def test_statute_config_keeps_contexts_within_the_searchable_sections(contexts):
    """A repealed section is never a hit of an in-force config, its successor is."""
    documents = pd.DataFrame({"doc_id": ["LA_1963:18", "IPC_1860:302", "BNS_2023:103"],
                              "status": ["in_force", "repealed", "in_force"]})
    resources = types.SimpleNamespace(documents=documents, ranker=None, contexts=contexts)
    search = StatuteSearch("cfg", {"retrievers": ["contexts"]}, resources)
    query = Query("struck the deceased with an iron rod", None, ([], []), None)
    hits = search.retrievers["contexts"].search(query, 10)
    assert [hit.doc_id for hit in hits] == ["BNS_2023:103"]


def test_a_contexts_config_without_citing_passages_is_refused():
    from nyaya.retrieval.pipeline import StatuteResources

    resources = StatuteResources.__new__(StatuteResources)
    resources.citing_contexts = None
    with pytest.raises(ConfigError, match="the contexts retriever needs the judgments' citing "
                                          "passages"):
        _ = resources.contexts


# --- another scheme's ids: AILA's statutes ----------------------------------------------------


def test_retargeted_passages_stand_for_the_mapped_ids(contexts):
    """Each section id becomes its mapped ids; an unmapped one stands for nothing; the index
    is shared, so the scores are the section scheme's."""
    aila = contexts.retargeted({"LA_1963:18": ["S7", "S9"], "IPC_1860:302": ["S1"]})
    assert aila.index is contexts.index
    assert aila.targets == [frozenset({"S7", "S9"}), frozenset({"S7", "S9"}),
                            frozenset({"S1"}), frozenset()]
    section = {hit.doc_id: hit.score for hit in contexts.search(QUESTION, 10)}
    assert {hit.doc_id: hit.score for hit in aila.search(QUESTION, 10)} == pytest.approx(
        {"S7": section["LA_1963:18"], "S9": section["LA_1963:18"]})


@pytest.mark.parametrize(("excluded", "expected"), [
    ((), ["S7", "A-2", "A-1"]),
    (("j-debt", "j-debt2"), ["A-2", "A-1"]),
])
def test_document_search_cascades_passages_then_bm25(contexts, excluded, expected):
    """[contexts, sparse] by cascade over a document list: the passages' statutes first, BM25
    fills; the query's excluded judgments lend no passage."""
    from nyaya.retrieval.bm25 import BM25Retriever
    from nyaya.retrieval.documents import DocumentSearch

    descriptions = {"A-1": "limitation for a suit on a debt", "A-2": "time barred suit: the "
                    "debt was admitted in a letter signed before the suit"}
    resources = types.SimpleNamespace(
        bm25=BM25Retriever(list(descriptions), list(descriptions.values())),
        contexts=contexts.retargeted({"LA_1963:18": ["S7"]}), citing_contexts=object(),
        votes=None)
    search = DocumentSearch("cfg", {"retrievers": ["contexts", "sparse"],
                                    "fusion": {"method": "cascade"}}, resources)
    assert [hit.doc_id for hit in search.search(QUESTION, 10, excluded=excluded)] == expected


def test_a_document_config_with_contexts_but_no_passages_is_refused():
    from nyaya.retrieval.documents import DocumentSearch

    resources = types.SimpleNamespace(citing_contexts=None, votes=None)
    with pytest.raises(ConfigError, match="config cfg: the contexts retriever needs the "
                                          "judgments' citing passages"):
        DocumentSearch("cfg", {"retrievers": ["contexts"]}, resources)
