"""The section encoder trained on the corpus (nyaya.retrieval.section_encoder,
evals/dense_training.py): its pairs, its training, what it keeps, and the search with it."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest

from evals.dense_training import (
    context_pairs,
    distilled_static,
    tokenized_once,
    train_model,
    training_pairs,
)
from evals.relevance import JudgedQuery
from evals.splits import is_trained
from nyaya.retrieval.citing_contexts import CitingPassage
from nyaya.retrieval.retrievers import EncodedDense, Query
from nyaya.retrieval.section_encoder import SectionEncoder, section_texts
from nyaya.settings import Settings

SECTIONS = pd.DataFrame({
    "doc_id": ["BNS:303", "BNS:318", "BNSS:173", "NIA:138", "IPC:379"],
    "text": ["Theft. Whoever intends to take dishonestly any movable property out of the "
             "possession of any person without consent moves that property",
             "Cheating. Whoever by deceiving any person fraudulently or dishonestly induces the "
             "person so deceived to deliver any property",
             "Information in cognizable cases. Every information relating to the commission of "
             "a cognizable offence given orally to an officer in charge of a police station",
             "Dishonour of cheque for insufficiency of funds in the account. Where any cheque "
             "drawn by a person is returned by the bank unpaid",
             "Theft (repealed code). Whoever intending to take dishonestly any movable property"],
    "status": ["in_force", "in_force", "in_force", "in_force", "repealed"]})
QUESTIONS = {
    "BNS:303": ["someone took my phone from my bag without asking",
                "my bicycle was taken from outside my house at night",
                "the servant carried away jewellery from the cupboard"],
    "BNS:318": ["a man sold me a fake gold chain saying it was real",
                "he promised a job abroad, took money and vanished",
                "the seller lied about the car to make me pay"],
    "BNSS:173": ["how do I lodge an FIR at the police station",
                 "the police refused to write down my complaint",
                 "where do I report a crime I saw"],
    "NIA:138": ["my tenant's cheque bounced for lack of money",
                "the bank returned the cheque unpaid, what can I do",
                "a cheque given for a loan was dishonoured"],
}


@pytest.fixture(scope="module")
def base():
    """The distilled static model the encoder starts from (the test models folder's)."""
    return distilled_static(Settings.from_env())


def _title_pairs() -> tuple[list[str], list[str]]:
    sections = dict(zip(SECTIONS["doc_id"], section_texts(SECTIONS), strict=True))
    queries, texts = [], []
    for doc, questions in QUESTIONS.items():
        queries += questions
        texts += [sections[doc]] * len(questions)
    return queries, texts


@pytest.fixture(scope="module")
def trained(base):
    return train_model(base, *_title_pairs())


def _query(text: str) -> Query:
    return Query(text, np.zeros(4, np.float32), ([], []), None)


@pytest.mark.parametrize(("grades", "expected"), [
    ({"BNS:303": 2}, [("q", "BNS:303")]),
    # one pair per judged section, in doc id order
    ({"BNS:318": 1, "BNS:303": 2}, [("q", "BNS:303"), ("q", "BNS:318")]),
    # a section the configs do not search (repealed, unknown) gives no pair
    ({"IPC:379": 2, "XYZ:1": 1}, []),
])
def test_training_pairs_are_one_per_judged_searchable_section(grades, expected):
    sections = {"BNS:303": "theft", "BNS:318": "cheating"}
    queries, texts = training_pairs([JudgedQuery("s", "Q1", "q", grades)], sections)
    assert list(zip(queries, [next(d for d, t in sections.items() if t == text)
                              for text in texts], strict=True)) == expected


@pytest.mark.parametrize(("batches", "tokenized"), [
    ([["a", "b"], ["b", "a"]], [["a", "b"]]),
    # a text repeated within a batch is tokenized once, and answered in place
    ([["a", "a", "c"], ["c"], ["d", "a"]], [["a", "c"], ["d"]]),
    ([[]], []),
])
def test_each_distinct_text_is_tokenized_once(batches, tokenized):
    def ids_of(texts):
        return [[ord(text)] for text in texts]

    calls = []

    def tokenize(texts):
        calls.append(list(texts))
        return ids_of(texts)

    once = tokenized_once(tokenize)
    assert [once(batch) for batch in batches] == [ids_of(batch) for batch in batches]
    assert calls == tokenized


def test_tokenizing_once_trains_the_same_model(base, trained, monkeypatch):
    monkeypatch.setattr("evals.dense_training.tokenized_once", lambda tokenize: tokenize)
    again = train_model(base, *_title_pairs())
    np.testing.assert_array_equal(again.embedding, trained.embedding)


def test_too_few_pairs_are_refused_by_count(base):
    with pytest.raises(ValueError, match="3 training pairs: the section encoder needs at "
                                         "least 4"):
        train_model(base, ["a", "b", "c"], ["x", "y", "z"])


def test_training_brings_each_question_nearer_its_section(base, trained):
    """On the pairs it learned from, the trained model ranks each question's section above
    where the distilled model ranked it, on average, and first for most questions."""
    def ranks(model) -> list[int]:
        encoder = SectionEncoder.encoding(model, SECTIONS)
        search = EncodedDense(encoder, [True] * len(SECTIONS))
        found = []
        for doc, questions in QUESTIONS.items():
            for question in questions:
                order = [hit.doc_id for hit in search.search(_query(question), 5)]
                found.append(order.index(doc) + 1)
        return found

    before, after = ranks(base), ranks(trained)
    assert np.mean(after) < np.mean(before)
    assert sum(rank == 1 for rank in after) >= 10


def test_the_search_keeps_to_the_allowed_sections_and_breaks_ties_by_id(trained):
    encoder = SectionEncoder.encoding(trained, SECTIONS)
    in_force = (SECTIONS["status"] == "in_force").tolist()
    hits = EncodedDense(encoder, in_force).search(_query("theft of movable property"), 10)
    assert {hit.doc_id for hit in hits} == set(SECTIONS.loc[SECTIONS["status"] == "in_force",
                                                            "doc_id"])
    assert all(hit.method == "dense-trained" for hit in hits)
    twins = SectionEncoder(trained, ["B", "A"], np.ones((2, 3), np.float32) / np.sqrt(3))
    assert [hit.doc_id for hit in twins.retriever([True, True], "x").search_vector(
        np.ones(3, np.float32), 2)] == ["A", "B"]
    with pytest.raises(ValueError, match="4 flags for 5 encoded sections"):
        EncodedDense(encoder, in_force[:4])


def test_a_saved_encoder_loads_for_the_same_sections_only(trained, tmp_path):
    encoder = SectionEncoder.encoding(trained, SECTIONS, {"epochs": 20})
    folder = tmp_path / "section-encoder"
    encoder.save(folder)
    loaded = SectionEncoder.load(folder, SECTIONS["doc_id"].tolist())
    assert loaded.doc_ids == encoder.doc_ids and loaded.figures == {"epochs": 20}
    np.testing.assert_array_equal(loaded.vectors, encoder.vectors)
    question = "my cheque bounced"
    assert [h.doc_id for h in EncodedDense(loaded, [True] * 5).search(_query(question), 5)] == \
        [h.doc_id for h in EncodedDense(encoder, [True] * 5).search(_query(question), 5)]
    assert not (tmp_path / "section-encoder.writing").exists()

    with pytest.raises(ValueError, match=r"encoded 5 sections, not the 4 .*section_encoder"):
        SectionEncoder.load(folder, SECTIONS["doc_id"].tolist()[:4])
    with pytest.raises(FileNotFoundError, match=r"no trained section encoder at .*make run"):
        SectionEncoder.load(tmp_path / "nowhere", [])
    meta = json.loads((folder / "encoder.json").read_text())
    (folder / "encoder.json").write_text(json.dumps({**meta, "format": 0}))
    with pytest.raises(ValueError, match="written in format 0"):
        SectionEncoder.load(folder, SECTIONS["doc_id"].tolist())


@pytest.mark.parametrize(("params", "trained_config"), [
    ({"retrievers": ["dense-trained"]}, True),
    ({"retrievers": ["dense", "dense-trained", "sparse"]}, True),
    ({"retrievers": ["dense", "sparse"]}, False),
    ({"retrievers": ["dense", "sparse"], "rerank": {"depth": 100}}, True),
])
def test_a_config_searching_with_the_encoder_is_scored_on_held_out_queries(params,
                                                                          trained_config):
    assert is_trained(params) is trained_config



def test_the_cross_fit_folds_split_the_training_half_in_three():
    """The folds that choose the encoder's fusions and the ranker's candidates (`--cross-fit`)
    are three, of similar size, fall across the train / held-out split (another hash), and
    depend on the key alone."""
    from evals.splits import CROSS_FIT_FOLDS, TRAIN, cross_fit_fold, split_of

    keys = [f"NS{i:03d}" for i in range(600)]
    folds = [cross_fit_fold(key) for key in keys]
    assert CROSS_FIT_FOLDS == 3 and sorted(set(folds)) == [0, 1, 2]
    assert all(abs(folds.count(fold) - 200) < 50 for fold in range(3))
    training = [key for key in keys if split_of(key) == TRAIN]
    assert {cross_fit_fold(key) for key in training} == {0, 1, 2}
    assert [cross_fit_fold(key) for key in keys] == folds


@pytest.mark.parametrize(("needed", "loader", "message"), [
    ("encoder", "section_encoder", "the dense-trained retriever needs the trained section "
                                   "encoder, which these resources lack"),
    ("votes", "case_votes", "the cases retriever needs the judgments' citations"),
    ("reranker", "ranker", "a config that reranks needs the trained section ranker"),
])
def test_resources_without_a_loader_refuse_what_needs_it(needed, loader, message):
    from nyaya.retrieval.pipeline import ConfigError, StatuteResources

    resources = StatuteResources.__new__(StatuteResources)
    setattr(resources, loader, None)
    with pytest.raises(ConfigError, match=message):
        getattr(resources, needed)
    setattr(resources, loader, lambda *given: ("built", given))
    assert getattr(resources, needed)[0] == "built"


def _passages(count: int) -> list[tuple[str, CitingPassage]]:
    return [(f"case-{i % 7}", CitingPassage(f"j{i}", 0, 10, f"passage {i} about debt",
                                           frozenset({f"A:{i % 5}", f"A:{i % 3}"})))
            for i in range(count)]


def test_context_pairs_draw_is_stable_when_a_few_pairs_leave():
    """A pair is drawn by its own hash: sections leaving the in-force set take out their pairs
    and leave every other drawn pair drawn (a shuffle of all of them redrew the lot)."""
    sections = {f"A:{n}": f"section {n}" for n in range(5)}
    trains = {f"case-{n}" for n in range(5)}  # cases 5 and 6 are held out
    texts, cited = context_pairs(_passages(60), sections, trains.__contains__, count=30)
    assert len(texts) == len(cited) == 30
    owners = {int(text.split()[1]) % 7 for text in texts}
    assert owners <= set(range(5))  # no held-out case's passage
    drawn = set(zip(texts, cited, strict=True))
    fewer = {key: text for key, text in sections.items() if key != "A:4"}
    texts2, cited2 = context_pairs(_passages(60), fewer, trains.__contains__, count=30)
    again = set(zip(texts2, cited2, strict=True))
    assert "section 4" not in cited2
    assert {pair for pair in drawn if pair[1] != "section 4"} <= again
    # the same inputs, the same draw, in the same order
    assert context_pairs(_passages(60), sections, trains.__contains__, count=30) == (texts, cited)
