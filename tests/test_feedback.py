"""RM3 pseudo-relevance feedback on BM25: the expanded query's weights and what it finds."""

from __future__ import annotations

import pytest

from nyaya.retrieval.bm25 import BM25Retriever, Feedback, feedback_of

DOCS = {
    "theft": "theft of movable property dishonestly taken out of possession",
    "robbery": "robbery is theft with violence or fear of instant hurt",
    "extortion": "extortion by putting a person in fear of injury to deliver property",
    "marriage": "solemnisation of marriage before the registrar",
}


def retriever() -> BM25Retriever:
    return BM25Retriever(list(DOCS), list(DOCS.values()))


@pytest.mark.parametrize("feedback", [Feedback(), Feedback(2, 3, 0.5), Feedback(1, 1, 0.0),
                                      Feedback(4, 50, 1.0)])
def test_expanded_weights_sum_to_one_and_keep_the_query_share(feedback):
    bm25 = retriever()
    tokens = ["theft", "property"]
    scores = bm25._index.get_scores(tokens)
    mixed = bm25.expanded(tokens, scores, bm25._top(scores, feedback.docs), feedback)
    assert sum(mixed.values()) == pytest.approx(1.0)
    assert sum(mixed[t] for t in tokens) >= feedback.original - 1e-9
    assert len(set(mixed) - set(tokens)) <= feedback.terms


def test_feedback_with_the_original_weight_one_ranks_as_plain_bm25():
    bm25 = retriever()
    plain = [hit.doc_id for hit in bm25.search("theft of property", 4)]
    kept = [hit.doc_id for hit in bm25.search("theft of property", 4,
                                              feedback=Feedback(2, 5, 1.0))]
    assert kept == plain


def test_feedback_finds_a_document_sharing_only_the_feedback_words():
    """'violence' is in no query word's document but robbery's: feedback from the theft
    documents brings extortion (fear, injury) in, which plain BM25 never scores."""
    bm25 = retriever()
    plain = {hit.doc_id for hit in bm25.search("violence hurt", 4)}
    expanded = {hit.doc_id for hit in bm25.search("violence hurt", 4,
                                                  feedback=Feedback(1, 10, 0.3))}
    assert "extortion" not in plain and "extortion" in expanded
    assert "marriage" not in expanded


@pytest.mark.parametrize(("spec", "message"), [
    ({"docs": 0}, "docs >= 1"),
    ({"original": 1.5}, "0 <= original <= 1"),
    ({"depth": 3}, "prf takes docs, terms and original, got depth"),
    ("yes", "(not a mapping)"),
])
def test_bad_feedback_settings_name_the_config(spec, message):
    with pytest.raises(ValueError, match="config cfg") as raised:
        feedback_of("cfg", spec)
    assert message in str(raised.value)


def test_no_feedback_setting_is_none():
    assert feedback_of("cfg", None) is None
    assert feedback_of("cfg", {"docs": 3}) == Feedback(docs=3)
