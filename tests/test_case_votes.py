"""Statutes voted by similar cases (nyaya.retrieval.case_votes), the cascade fusion that puts
their votes first, the BM25 query reduction and pool mask they lean on, and the document and
statute searches that use them: pure logic over tiny in-memory texts, real components only."""

from __future__ import annotations

import types

import numpy as np
import pytest

from nyaya.retrieval.base import Hit
from nyaya.retrieval.bm25 import BM25Retriever
from nyaya.retrieval.case_votes import (
    PAIRS,
    SAMPLED_RUNS,
    SHINGLE,
    SOURCE_SHARE,
    CaseVotes,
    prints_query,
    question_runs,
    words_of,
)
from nyaya.retrieval.documents import DocumentSearch
from nyaya.retrieval.fusion import cascade
from nyaya.retrieval.pipeline import ConfigError
from nyaya.retrieval.retrievers import CaseVoting, Query
from nyaya.retrieval.tokenize import tokenize


def numbered(count: int, start: int = 0) -> str:
    """Distinct words w0, w1, ...: every 8-word run of them occurs once."""
    return " ".join(f"w{i}" for i in range(start, start + count))


# --- words_of and question_runs -------------------------------------------------------------


@pytest.mark.parametrize(("text", "expected"), [
    ("The Accused, STRUCK her!", " the accused struck her "),
    ("Section 304-A  IPC", " section 304 a ipc "),
    ("", "  "),
])
def test_words_of_is_lower_case_words_space_padded(text, expected):
    """Padding on both sides is what lets a run be found by plain substring search."""
    assert words_of(text) == expected


@pytest.mark.parametrize("count", [0, 1, SHINGLE - 1])
def test_question_shorter_than_a_run_has_no_runs(count):
    """A question under 8 words cannot be told apart from chance overlap: no runs."""
    assert question_runs(numbered(count)) == ()


@pytest.mark.parametrize("count", [SHINGLE, SHINGLE + 1, 20, 39, 40, 100, 1000])
def test_question_runs_are_at_most_32_evenly_spread(count):
    """Long questions are sampled, not scanned whole: at most 32 runs, from the first word on,
    with gaps between starts that differ by at most one and reach to near the end."""
    runs = question_runs(numbered(count))
    possible = count - SHINGLE + 1
    assert len(runs) == min(SAMPLED_RUNS, possible)
    assert all(run.startswith(" ") and run.endswith(" ") for run in runs)
    assert all(len(run.split()) == SHINGLE for run in runs)
    assert runs[0] == f" {numbered(SHINGLE)} "
    starts = [int(run.split()[0][1:]) for run in runs]
    for start, run in zip(starts, runs, strict=True):
        assert run == f" {numbered(SHINGLE, start)} "
    gaps = np.diff(starts)
    assert all(gaps > 0)
    if len(gaps):
        assert gaps.max() - gaps.min() <= 1
    step = max(1.0, possible / SAMPLED_RUNS)
    assert starts[-1] >= possible - 1 - step


def test_question_runs_ignore_case_and_punctuation():
    """Runs are in `words_of` form, so a question matches however the judgment prints it."""
    runs = question_runs("The ACCUSED, on 3rd May, struck her with an iron-rod.")
    assert runs[0] == " the accused on 3rd may struck her with "
    assert all(run in words_of("...the accused on 3rd May struck her with an iron rod") for run
               in runs)


# --- prints_query ----------------------------------------------------------------------------


QUESTION = ("The accused entered the complainant's house at night through the rear window "
            "and stole gold jewellery kept in a locked almirah in the bedroom")


@pytest.mark.parametrize(("judgment", "prints"), [
    # the question verbatim inside a longer judgment, shouted and re-punctuated
    ("JUDGMENT. The facts, in brief: " + QUESTION.upper().replace(" ", ";  ")
     + ". Held: the conviction under section 457 stands.", True),
    ("Facts: " + QUESTION + ".", True),
    # the same words, shuffled: no 8-word run survives
    (" ".join(sorted(QUESTION.split())), False),
    # a similar case, sharing a few words only
    ("The accused entered a house at night and stole jewellery and cash.", False),
    ("", False),
])
def test_prints_query_finds_the_question_inside_a_judgment(judgment, prints):
    """Only the judgment the question was copied from prints it; a similar case does not."""
    assert prints_query(question_runs(QUESTION), words_of(judgment)) is prints


@pytest.mark.parametrize("words", ["  ", words_of(QUESTION), " anything at all "])
def test_prints_query_without_runs_is_false(words):
    """A question too short to have runs never disqualifies a judgment (0 >= 0.5 * 0 would)."""
    assert prints_query((), words) is False


# 39 distinct words give exactly 32 runs, one per start 0..31, so the share is countable:
# a judgment holding words w0..w(n-1) prints the runs starting at 0..n-8.
@pytest.mark.parametrize(("held", "share", "prints"), [
    (SHINGLE + 15, SOURCE_SHARE, True),    # 16 of 32 runs: exactly half, the threshold
    (SHINGLE + 14, SOURCE_SHARE, False),   # 15 of 32: just under half
    (39, SOURCE_SHARE, True),              # the whole question
    (SHINGLE - 1, SOURCE_SHARE, False),    # not one whole run
    (SHINGLE + 23, 0.75, True),            # 24 of 32 at share 0.75
    (SHINGLE + 22, 0.75, False),           # 23 of 32 at share 0.75
    (SHINGLE - 1, 0.0, True),              # share 0: any judgment
])
def test_prints_query_threshold(held, share, prints):
    """The share counts sampled runs found, compared with >=: half the question is a source."""
    runs = question_runs(numbered(39))
    assert len(runs) == 32
    judgment = "Before the question. " + numbered(held) + " After it."
    assert prints_query(runs, words_of(judgment), share) is prints


def test_prints_query_counts_runs_not_words():
    """Half of the question's words scattered in a judgment is not half of its runs."""
    words = numbered(39).split()
    every_other = " ".join(words[::2]) + " " + " ".join(words[1::2])
    assert not prints_query(question_runs(numbered(39)), words_of(every_other))


# --- CaseVotes -------------------------------------------------------------------------------


JUDGMENTS = {
    # the question's own judgment: it would be nearest, and it cites the answer
    "j-leak": "Judgment. The facts in brief: " + QUESTION.upper().replace(" ", ",  ")
              + ". The appeal is dismissed.",
    "j-burglary": "House breaking by night: the accused entered a house at night and stole "
                  "jewellery and cash.",
    "j-theft": "Theft of gold jewellery from a locked almirah; the stolen gold was recovered.",
    "j-none": "The accused entered the house at night; the bedroom window was broken; "
              "jewellery stolen.",
    "j-murder": "Murder with an iron rod in a quarrel over land.",
}
CITES = {
    "j-leak": ["LEAK"],
    "j-burglary": ["IPC-457", "IPC-380"],
    "j-theft": ["IPC-380", "IPC-379"],
    "j-murder": ["IPC-302"],
    # j-none cites nothing
}


@pytest.fixture(scope="module")
def votes():
    return CaseVotes.over(list(JUDGMENTS), list(JUDGMENTS.values()), CITES)


@pytest.fixture(scope="module")
def nearest(votes):
    """The judgments' own BM25 scores for the question, the votes' only weights."""
    return {hit.doc_id: hit.score for hit in votes.judgments.search(QUESTION, 10)}


def test_the_corpus_is_what_the_vote_tests_assume(votes, nearest):
    """Guards the fixture: the leak is nearest, j-none (citing nothing) next, murder nowhere."""
    order = [hit.doc_id for hit in votes.judgments.search(QUESTION, 10)]
    assert order == ["j-leak", "j-none", "j-burglary", "j-theft"]
    assert prints_query(question_runs(QUESTION), words_of(JUDGMENTS["j-leak"]))
    assert not any(prints_query(question_runs(QUESTION), words_of(JUDGMENTS[doc]))
                   for doc in order[1:])


def test_votes_are_summed_scores_of_the_citing_voters(votes, nearest):
    """Each target scores the sum of its voters' BM25 scores; every hit says `cases`."""
    hits = votes.search(QUESTION, 10)
    assert [hit.doc_id for hit in hits] == ["IPC-380", "IPC-457", "IPC-379"]
    assert {hit.doc_id: hit.score for hit in hits} == pytest.approx({
        "IPC-380": nearest["j-burglary"] + nearest["j-theft"],
        "IPC-457": nearest["j-burglary"],
        "IPC-379": nearest["j-theft"],
    })
    assert {hit.method for hit in hits} == {"cases"} == {CaseVotes.method}


def test_a_judgment_that_prints_the_question_never_votes(votes, nearest):
    """The leak is the nearest judgment by far, yet its citation (the answer) gets no vote."""
    assert max(nearest, key=nearest.get) == "j-leak"
    assert "j-leak" not in [hit.doc_id for hit in votes.voters(QUESTION)]
    assert "LEAK" not in [hit.doc_id for hit in votes.search(QUESTION, 10)]


def test_a_paraphrased_leak_does_vote():
    """Control for the test above: the same judgment, reworded, is a similar case and votes."""
    texts = dict(JUDGMENTS, **{"j-leak": "At night the accused got into the house of the "
                                         "complainant by the back window; gold jewellery went."})
    cv = CaseVotes.over(list(texts), list(texts.values()), CITES)
    assert "LEAK" in [hit.doc_id for hit in cv.search(QUESTION, 10)]


@pytest.mark.parametrize(("excluded", "expected"), [
    ((), {"IPC-380": ("j-burglary", "j-theft"), "IPC-457": ("j-burglary",),
          "IPC-379": ("j-theft",)}),
    (("j-theft",), {"IPC-380": ("j-burglary",), "IPC-457": ("j-burglary",)}),
    (("j-burglary",), {"IPC-380": ("j-theft",), "IPC-379": ("j-theft",)}),
    (("j-burglary", "j-theft"), {}),
    # excluding the printing judgment changes nothing: it never voted
    (("j-leak",), {"IPC-380": ("j-burglary", "j-theft"), "IPC-457": ("j-burglary",),
                   "IPC-379": ("j-theft",)}),
    (frozenset({"j-theft", "j-none"}), {"IPC-380": ("j-burglary",), "IPC-457": ("j-burglary",)}),
])
def test_excluded_judgments_never_vote(votes, nearest, excluded, expected):
    """A query's own judgment (and its duplicates) must not vote for the query's answer."""
    hits = votes.search(QUESTION, 10, excluded=excluded)
    assert {hit.doc_id: hit.score for hit in hits} == pytest.approx(
        {target: sum(nearest[doc] for doc in voters) for target, voters in expected.items()})
    assert not {hit.doc_id for hit in votes.voters(QUESTION, excluded=excluded)} & set(excluded)


@pytest.mark.parametrize(("target", "excluded", "expected"), [
    ("IPC-380", (), 2),
    ("IPC-380", ("j-theft",), 1),
    ("IPC-380", ("j-theft", "j-burglary"), 0),
    ("IPC-380", ("j-murder", "j-none"), 2),  # excluded judgments that do not cite it
    ("LEAK", (), 1),  # unlike the votes, the prior counts a judgment printing the question
    ("LEAK", ("j-leak",), 0),  # a development query's own judgment is excluded
    ("IPC-999", (), 0),
])
def test_cited_by_counts_the_citing_judgments_less_the_excluded(votes, target, excluded,
                                                                expected):
    """The ranker's prior: judgments citing a target, a query's own not counted."""
    assert votes.cited_by(target, excluded) == expected


@pytest.mark.parametrize(("count", "expected"), [
    # j-none is nearest after the leak: it takes the only slot and votes for nothing
    (1, {}),
    (2, {"IPC-457": ("j-burglary",), "IPC-380": ("j-burglary",)}),
    (3, {"IPC-380": ("j-burglary", "j-theft"), "IPC-457": ("j-burglary",),
         "IPC-379": ("j-theft",)}),
    (20, {"IPC-380": ("j-burglary", "j-theft"), "IPC-457": ("j-burglary",),
          "IPC-379": ("j-theft",)}),
])
def test_count_limits_voters_and_a_silent_judgment_takes_a_slot(votes, nearest, count,
                                                                 expected):
    """`count` nearest non-printing judgments vote, citing or not: a judgment citing nothing
    still uses up a place among the nearest."""
    voters = votes.voters(QUESTION, count)
    assert [hit.doc_id for hit in voters] == ["j-none", "j-burglary", "j-theft"][:count]
    hits = votes.search(QUESTION, 10, count)
    assert {hit.doc_id: hit.score for hit in hits} == pytest.approx(
        {target: sum(nearest[doc] for doc in docs) for target, docs in expected.items()})


def test_printing_copies_do_not_crowd_out_voters():
    """Two unrecorded copies of the question's judgment rank above the one similar case; with
    one voter asked for, the similar case should still vote."""
    texts = {"copy-a": "Facts: " + QUESTION, "copy-b": "Facts again: " + QUESTION + " dismissed",
             "similar": "The accused entered a house at night and stole jewellery."}
    cv = CaseVotes.over(list(texts), list(texts.values()),
                        {"copy-a": ["LEAK"], "copy-b": ["LEAK"], "similar": ["IPC-457"]})
    assert [hit.doc_id for hit in cv.judgments.search(QUESTION, 10)][-1] == "similar"
    assert [hit.doc_id for hit in cv.voters(QUESTION, 1)] == ["similar"]


@pytest.mark.parametrize(("keep", "expected"), [
    (None, ["IPC-380", "IPC-457", "IPC-379"]),
    (lambda target: target != "IPC-380", ["IPC-457", "IPC-379"]),
    (lambda target: target.endswith("9"), ["IPC-379"]),
    ({"IPC-457", "IPC-302"}.__contains__, ["IPC-457"]),
    (lambda target: False, []),
])
def test_keep_filters_targets(votes, nearest, keep, expected):
    """`keep` drops targets (repealed sections, another scheme) without changing the others'
    votes."""
    hits = votes.search(QUESTION, 10, keep=keep)
    assert [hit.doc_id for hit in hits] == expected
    unfiltered = {hit.doc_id: hit.score for hit in votes.search(QUESTION, 10)}
    assert all(hit.score == unfiltered[hit.doc_id] for hit in hits)


@pytest.mark.parametrize("k", [0, 1, 2, 3, 10])
def test_k_cuts_the_ranked_targets(votes, k):
    """The top k of the full ranking, not k arbitrary targets."""
    assert votes.search(QUESTION, k) == votes.search(QUESTION, 10)[:k]


@pytest.mark.parametrize(("cites", "expected"), [
    # one voter citing two targets: equal votes, ordered by target id
    ({"j-burglary": ["Z-9", "A-1", "M-5"]}, ["A-1", "M-5", "Z-9"]),
    # two voters of different scores citing disjoint pairs: score first, then id
    ({"j-burglary": ["B", "A"], "j-theft": ["D", "C"]}, ["A", "B", "C", "D"]),
])
def test_ties_are_broken_by_target_id(votes, cites, expected):
    """Equal votes come out in id order, so runs are reproducible."""
    hits = votes.with_cites(cites).search(QUESTION, 10)
    assert [hit.doc_id for hit in hits] == expected


def test_with_cites_keeps_the_index(votes):
    """Another scheme's targets on the same judgments, without re-indexing them."""
    other = votes.with_cites({"j-theft": ["BNS-303"]})
    assert other.judgments is votes.judgments
    assert [hit.doc_id for hit in other.search(QUESTION, 10)] == ["BNS-303"]


def test_a_judgment_without_text_is_refused():
    """Votes need every indexed judgment's text for the printing check."""
    with pytest.raises(ValueError, match="no text for 1 indexed judgments, b first"):
        CaseVotes(BM25Retriever(["a", "b"], ["theft", "murder"]), {"a": "theft"}, {})


# --- cascade ---------------------------------------------------------------------------------


def run(method, *docs):
    return [Hit(doc, 10.0 - i, method) for i, doc in enumerate(docs)]


@pytest.mark.parametrize(("runs", "expected"), [
    ({}, []),
    ({"cases": [], "sparse": []}, []),
    ({"cases": run("cases", "a", "b")}, [("a", "cases"), ("b", "cases")]),
    ({"cases": [], "sparse": run("sparse", "x", "y")}, [("x", "sparse"), ("y", "sparse")]),
    ({"cases": run("cases", "a", "b"), "sparse": run("sparse", "b", "c", "a", "d")},
     [("a", "cases"), ("b", "cases"), ("c", "sparse"), ("d", "sparse")]),
    # the runs' order decides, not their names
    ({"sparse": run("sparse", "b", "c"), "cases": run("cases", "a", "b")},
     [("b", "sparse"), ("c", "sparse"), ("a", "cases")]),
    ({"cases": run("cases", "a"), "sparse": run("sparse", "a", "b"),
      "dense": run("dense", "c", "b", "a")},
     [("a", "cases"), ("b", "sparse"), ("c", "dense")]),
    # a repeat within one run is kept once, at its first rank
    ({"cases": run("cases", "a", "a", "b")}, [("a", "cases"), ("b", "cases")]),
])
def test_cascade_first_run_whole_then_only_unseen(runs, expected):
    """Later runs fill ranks, never reorder the first; scores fall by one per rank to 1."""
    fused = cascade(runs)
    assert [(hit.doc_id, hit.method) for hit in fused] == expected
    assert [hit.score for hit in fused] == [float(len(fused) - i) for i in range(len(fused))]


def test_cascade_ignores_the_runs_scores():
    """A later run's higher score does not lift its documents above the first run's."""
    fused = cascade({"cases": [Hit("a", 0.001, "cases")],
                     "sparse": [Hit("b", 1e9, "sparse"), Hit("a", 5.0, "sparse")]})
    assert [(hit.doc_id, hit.score, hit.method) for hit in fused] == [
        ("a", 2.0, "cases"), ("b", 1.0, "sparse")]


# --- BM25Retriever: top_terms, terms=, within= -----------------------------------------------


DOCS = {
    "d1": "theft of a motor vehicle",
    "d2": "theft of gold jewellery at night",
    "d3": "murder with an iron rod",
    "d4": "theft robbery dacoity night",
    "d5": "cheating by false promise of land",
}


@pytest.fixture(scope="module")
def bm25():
    return BM25Retriever(list(DOCS), list(DOCS.values()))


@pytest.mark.parametrize(("text", "count", "expected"), [
    # document frequencies: theft 3, night 2, every other term 1
    ("theft night gold", 1, ["gold"]),
    ("theft night gold", 2, ["gold", "night"]),
    ("theft night gold", 3, ["gold", "night", "theft"]),
    ("theft night gold", 10, ["gold", "night", "theft"]),
    # ties among one-document terms: alphabetical
    ("motor robbery iron gold", 2, ["gold", "iron"]),
    ("theft motor", 1, ["motor"]),
    # unknown tokens are never picked, though no document holds them
    ("zebra theft", 1, ["theft"]),
    ("zebra quokka", 3, []),
    # stop words are no terms; repeats count once; stemming applies
    ("the theft THEFT thefts of night", 5, ["night", "theft"]),
    ("", 3, []),
])
def test_top_terms_are_the_rarest_known_terms(bm25, text, count, expected):
    """Query reduction keeps the highest-IDF terms: fewest documents, then alphabetical."""
    assert bm25.top_terms(text, count) == expected


@pytest.mark.parametrize(("query", "terms"), [
    ("theft night gold", 1),
    ("theft night gold", 2),
    ("theft night motor vehicle robbery", 3),
    ("theft of gold at night by false promise", 4),
    ("zebra theft night", 1),
])
def test_search_with_terms_is_search_over_the_reduced_query(bm25, query, terms):
    """`terms=n` is exactly a search for the n rarest terms, nothing else of the query."""
    reduced = " ".join(bm25.top_terms(query, terms))
    assert tokenize(reduced) == bm25.top_terms(query, terms)  # no stem re-stemmed
    assert bm25.search(query, 10, terms=terms) == bm25.search(reduced, 10)
    assert bm25.search(query, 10, terms=terms) != bm25.search(query, 10)


@pytest.mark.parametrize("pool", [
    ("d1", "d3", "d4"),
    ("d2",),
    ("d3", "d5"),
    (),
    tuple(DOCS),
])
def test_within_keeps_the_search_inside_the_pool(bm25, pool):
    """Documents outside the pool never appear; those inside keep their unrestricted scores
    and order."""
    mask = np.array([doc in pool for doc in DOCS])
    query = "theft of gold jewellery at night"
    everywhere = bm25.search(query, 10)
    assert bm25.search(query, 10, within=mask) == [hit for hit in everywhere
                                                   if hit.doc_id in pool]


def test_within_and_terms_combine(bm25):
    """A pooled, reduced search: the rarest term d2 holds (gold) is outside the pool, so only
    the pool's documents holding the reduced terms remain."""
    mask = np.array([doc != "d2" for doc in DOCS])
    hits = bm25.search("theft gold night", 10, terms=2, within=mask)
    assert [hit.doc_id for hit in hits] == ["d4"]


#: chunks of the same judgments, as another way to find voters: j-murder's chunk matches the
#: question best here, j-theft's next, j-leak's (printing the question) most of all
CHUNK_TEXTS = {
    "j-murder": "the accused entered a house at night and stole gold jewellery; a quarrel",
    "j-theft": "gold jewellery stolen from a house",
    "j-leak": JUDGMENTS["j-leak"],
}


@pytest.fixture(scope="module")
def by_chunks(votes):
    return votes.found_by(BM25Retriever(list(CHUNK_TEXTS), list(CHUNK_TEXTS.values())))


def test_voters_found_another_way_vote_the_same_way(votes, by_chunks):
    """`found_by`: the voters and their weights come from the other finder; a judgment
    printing the question still never votes, and the original votes are untouched."""
    found = {hit.doc_id: hit.score for hit in
             BM25Retriever(list(CHUNK_TEXTS), list(CHUNK_TEXTS.values())).search(QUESTION, 10)}
    assert list(found)[:2] == ["j-leak", "j-murder"]
    assert [hit.doc_id for hit in by_chunks.voters(QUESTION)] == ["j-murder", "j-theft"]
    assert {hit.doc_id: hit.score for hit in by_chunks.search(QUESTION, 10)} == pytest.approx({
        "IPC-302": found["j-murder"], "IPC-380": found["j-theft"],
        "IPC-379": found["j-theft"]})
    assert [hit.doc_id for hit in votes.voters(QUESTION)] == ["j-none", "j-burglary",
                                                              "j-theft"]
    assert [hit.doc_id for hit in by_chunks.voters(QUESTION, excluded={"j-murder"})] == [
        "j-theft"]


# --- DocumentSearch --------------------------------------------------------------------------


STATUTES = {
    "IPC-302": "Punishment for murder: whoever commits murder shall be punished with death.",
    "IPC-379": "Punishment for theft of movable property.",
    "IPC-380": "Theft in dwelling house, tent or vessel used for the custody of property.",
    "IPC-457": "Lurking house-trespass or house-breaking by night.",
    "IPC-420": "Cheating and dishonestly inducing delivery of property.",
    "IPC-454": "Lurking house-trespass or house-breaking in order to commit an offence.",
}


@pytest.fixture(scope="module")
def resources(votes):
    """What DocumentSearch reads from DocumentResources, with real BM25 and votes; no
    embedder, since no config here names the dense retriever."""
    return types.SimpleNamespace(bm25=BM25Retriever(list(STATUTES), list(STATUTES.values())),
                                 votes=votes, embedder=None, dense=None)


def test_cascade_config_ranks_voted_statutes_then_bm25_fill(resources):
    """[cases, sparse] by cascade: the similar cases' statutes first, in vote order, then the
    statutes BM25 finds that no case voted for."""
    search = DocumentSearch("cfg", {"retrievers": ["cases", "sparse"],
                                    "fusion": {"method": "cascade"}}, resources)
    voted = [hit.doc_id for hit in resources.votes.search(QUESTION, 100)]
    lexical = [hit.doc_id for hit in resources.bm25.search(QUESTION, 100)]
    assert voted == ["IPC-380", "IPC-457", "IPC-379"]
    assert "IPC-454" in lexical  # the fill has something to add
    hits = search.search(QUESTION, 10)
    assert [hit.doc_id for hit in hits] == voted + [doc for doc in lexical if doc not in voted]
    assert [hit.method for hit in hits] == ["cases"] * 3 + ["bm25"] * (len(hits) - 3)
    assert [hit.score for hit in hits] == [float(len(hits) - i) for i in range(len(hits))]
    assert search.search(QUESTION, 2) == hits[:2]


def test_rrf_config_fuses_votes_and_bm25(resources):
    """The same pair by RRF: found by both retrievers names both methods."""
    search = DocumentSearch("cfg", {"retrievers": ["cases", "sparse"],
                                    "fusion": {"method": "rrf", "k": 60}}, resources)
    methods = {hit.doc_id: hit.method for hit in search.search(QUESTION, 10)}
    lexical = {hit.doc_id for hit in resources.bm25.search(QUESTION, 100)}
    for doc in ("IPC-380", "IPC-457", "IPC-379"):
        assert methods[doc] == ("bm25+cases" if doc in lexical else "cases")


@pytest.mark.parametrize(("voters", "expected"), [
    (1, []),
    (2, ["IPC-380", "IPC-457"]),
    (20, ["IPC-380", "IPC-457", "IPC-379"]),
])
def test_cases_config_sets_the_voters(resources, voters, expected):
    """`cases: {voters}` reaches CaseVotes: one voter is j-none, which cites nothing."""
    search = DocumentSearch("cfg", {"retrievers": ["cases"], "cases": {"voters": voters}},
                            resources)
    assert [hit.doc_id for hit in search.search(QUESTION, 10)] == expected


@pytest.mark.parametrize(("excluded", "expected"), [
    ((), ["IPC-380", "IPC-457", "IPC-379"]),
    (("j-theft",), ["IPC-380", "IPC-457"]),
    ({"j-burglary"}, ["IPC-379", "IPC-380"]),  # one voter: a tie, by id
    (("j-burglary", "j-theft"), []),
])
def test_document_search_excluded_judgments_never_vote(resources, excluded, expected):
    """`excluded` passed to search reaches the votes, alone or in a cascade."""
    alone = DocumentSearch("cfg", {"retrievers": ["cases"]}, resources)
    assert [hit.doc_id for hit in alone.search(QUESTION, 10, excluded=excluded)] == expected
    both = DocumentSearch("cfg", {"retrievers": ["cases", "sparse"],
                                  "fusion": {"method": "cascade"}}, resources)
    hits = both.search(QUESTION, 10, excluded=excluded)
    assert [hit.doc_id for hit in hits if hit.method == "cases"] == expected


@pytest.mark.parametrize(("params", "message"), [
    ({"retrievers": ["cases", "sparse"]}, "config cfg-x: two retrievers need fusion"),
    ({"retrievers": ["cases", "sparse"], "fusion": None}, "config cfg-x: two retrievers"),
    ({"retrievers": ["cases", "sparse"], "fusion": {"k": 60}}, "config cfg-x: two retrievers"),
    ({"retrievers": ["cases", "sparse"], "fusion": {"method": "wsum"}},
     "config cfg-x: two retrievers"),
    ({"retrievers": ["sparse", "bm42"], "fusion": {"method": "rrf"}},
     "config cfg-x: retrievers must be some of"),
    ({"retrievers": ["splade"]}, r"config cfg-x: retrievers must be .*'splade'"),
    ({"retrievers": []}, "config cfg-x: retrievers must be some of"),
    ({}, "config cfg-x: retrievers must be some of"),
])
def test_bad_document_configs_are_refused(resources, params, message):
    """A config error names the config, at construction, before any search."""
    with pytest.raises(ConfigError, match=message):
        DocumentSearch("cfg-x", params, resources)


@pytest.mark.parametrize(("nearest", "expected"), [
    ("judgments", ["IPC-380", "IPC-457", "IPC-379"]),
    ("chunks", ["IPC-302", "IPC-379", "IPC-380"]),
])
def test_cases_config_chooses_how_voters_are_found(resources, by_chunks, nearest, expected):
    """`cases: {nearest}` picks the resources' votes or their votes by chunks."""
    with_chunks = types.SimpleNamespace(**vars(resources), votes_by_chunks=by_chunks,
                                        store=object())
    search = DocumentSearch("cfg", {"retrievers": ["cases"], "cases": {"nearest": nearest}},
                            with_chunks)
    assert [hit.doc_id for hit in search.search(QUESTION, 10)] == expected


@pytest.mark.parametrize(("nearest", "store", "message"), [
    ("sentences", object(), r"config cfg-x: cases: \{nearest: sentences\} is not one of "
                            "judgments, chunks"),
    ("chunks", None, "config cfg-x: voters found by their chunks need the judgment chunks' "
                     "store"),
])
def test_voters_found_a_way_these_resources_cannot_is_refused(resources, nearest, store,
                                                               message):
    bare = types.SimpleNamespace(**vars(resources), store=store)
    with pytest.raises(ConfigError, match=message):
        DocumentSearch("cfg-x", {"retrievers": ["cases"], "cases": {"nearest": nearest}}, bare)


def test_cases_without_citations_is_refused(resources):
    """Resources lacking the judgments' votes cannot serve the cases retriever."""
    bare = types.SimpleNamespace(bm25=resources.bm25, votes=None, embedder=None, dense=None)
    with pytest.raises(ConfigError, match="config cfg-x: the cases retriever needs"):
        DocumentSearch("cfg-x", {"retrievers": ["cases"]}, bare)
    assert DocumentSearch("cfg-x", {"retrievers": ["sparse"]}, bare).search(QUESTION, 3)


# --- CaseVoting, the statute side's `cases` retriever ----------------------------------------


def query(text, excluded=()):
    return Query(text, np.zeros(4, dtype=np.float32), ([], []), None,
                 excluded=frozenset(excluded))


@pytest.mark.parametrize(("voters", "excluded", "keep", "expected"), [
    (20, (), {"IPC-380", "IPC-457", "IPC-379"}, ["IPC-380", "IPC-457", "IPC-379"]),
    (20, ("j-theft",), {"IPC-380", "IPC-457", "IPC-379"}, ["IPC-380", "IPC-457"]),
    (20, (), {"IPC-379", "IPC-457"}, ["IPC-457", "IPC-379"]),
    (2, (), {"IPC-380", "IPC-457", "IPC-379"}, ["IPC-380", "IPC-457"]),
    (20, ("j-burglary",), {"IPC-457"}, []),
])
def test_case_voting_passes_voters_excluded_and_keep(votes, voters, excluded, keep, expected):
    """The statute pipeline's retriever: the query's excluded judgments never vote, and only
    searchable sections are voted for."""
    retriever = CaseVoting(votes, voters, keep.__contains__)
    hits = retriever.search(query(QUESTION, excluded), 10)
    assert [hit.doc_id for hit in hits] == expected
    assert hits == votes.search(QUESTION, 10, voters, frozenset(excluded), keep.__contains__)
    assert all(hit.method == retriever.name for hit in hits)


# --- word pairs: the analyzer, the index that drops lone pairs, the document retriever -------


@pytest.mark.parametrize(("text", "expected"), [
    ("The accused struck the deceased with an iron rod",
     ["accus struck", "struck deceas", "deceas iron", "iron rod"]),  # stop words skipped
    ("dying declaration. Dying declarations",
     ["dying declaration", "declaration dying", "dying declaration"]),  # across sentences
    ("Section 498A of the Code", ["section 498a", "498a code"]),
    ("theft", []),
    ("", []),
])
def test_word_pairs_are_adjacent_tokens(text, expected):
    assert PAIRS.analyzer(text) == expected


PAIRED = {
    "quotes": "the dying declaration recorded by the magistrate was relied upon",
    "cited": "a dying declaration recorded by a magistrate is relied upon as true",
    "words": "upon the declaration of the dying witness relied the magistrate",
    "other": "the landlord kept the security deposit after the lease ended",
}


@pytest.fixture(scope="module")
def pair_index():
    return BM25Retriever(list(PAIRED), list(PAIRED.values()), analyzer=PAIRS.analyzer, min_df=2)


@pytest.mark.parametrize(("min_df", "indexed"), [(1, True), (2, False)])
def test_a_pair_fewer_judgments_hold_than_min_df_is_not_indexed(min_df, indexed):
    index = BM25Retriever(list(PAIRED), list(PAIRED.values()), analyzer=PAIRS.analyzer,
                          min_df=min_df)
    assert ("security deposit" in index.top_terms("security deposit", 5)) is indexed
    assert "dying declaration" in index.top_terms("dying declaration", 5)


def test_pairs_find_the_judgment_sharing_phrases_not_just_words(pair_index):
    """"words" holds every word of the query; only "cited" holds its phrases."""
    hits = pair_index.search(PAIRED["quotes"], 4)
    assert {hit.doc_id for hit in hits} == {"quotes", "cited"}


def _document_resources(words: BM25Retriever, pairs: BM25Retriever):
    return types.SimpleNamespace(documents=words, pairs=pairs, within=lambda sources: (
        None if sources is None else np.isin(words.doc_ids, list(sources))))


@pytest.mark.parametrize(("spec", "expected"), [
    # words alone: "words" shares more of the query's words than "cited" does
    ({"terms": 200}, ["words", "cited"]),
    # the phrases lift the judgment that shares them
    ({"terms": 200, "pairs": {"weight": 2}}, ["cited", "words"]),
])
def test_document_scoring_adds_weighted_pair_scores(pair_index, spec, expected):
    from nyaya.retrieval.precedents import DocumentScoring

    texts = {k: v for k, v in PAIRED.items() if k != "quotes"}
    words = BM25Retriever(list(PAIRED), list(PAIRED.values()))
    query = "the dying declaration recorded by the magistrate relied upon the witness"
    scoring = DocumentScoring.of("cfg", spec)
    hits = scoring.search(_document_resources(words, pair_index), query, 3, tuple(texts))
    assert [hit.doc_id for hit in hits[:2]] == expected
    assert all(hit.method == "document" for hit in hits)
    expected_scores = words.scores(query, 200) + (
        2 * pair_index.scores_of(sorted(set(PAIRS.analyzer(query)) & set(pair_index.top_terms(
            query, None)))) if "pairs" in spec else 0)
    assert [hit.score for hit in hits] == [
        float(expected_scores[list(PAIRED).index(hit.doc_id)]) for hit in hits]


def test_a_pair_the_query_repeats_counts_once(pair_index):
    """A whole judgment says "dying declaration" dozens of times; it is one phrase (and with
    `terms`, each word counts once too)."""
    from nyaya.retrieval.precedents import DocumentScoring

    words = BM25Retriever(list(PAIRED), list(PAIRED.values()))
    resources = _document_resources(words, pair_index)
    scoring = DocumentScoring.of("cfg", {"terms": 200, "pairs": {"weight": 1}})
    once = scoring.search(resources, "dying declaration recorded", 4, None)
    assert len(once) == 3
    assert scoring.search(resources, "dying declaration recorded. " * 5, 4, None) == once


@pytest.mark.parametrize(("text", "words", "expected"), [
    ("as held in [?CITATION?] the dying declaration alone", 2,
     ["held in", "the dying"]),  # each side apart: no pair spans the mask
    ("a b c [?CITATION?] d e [?CITATION?] f", 1, ["c", "d", "e", "f"]),
    ("[?CITATION?] opens the text", 5, ["", "opens the text"]),
    ("[?CITATION?][?CITATION?]", 3, ["", "", "", ""]),
    ("no masked citation here", 10, []),
    ("[?citation?] is not the mask", 10, []),  # the placeholder is written as IRLeD writes it
])
def test_masked_contexts_are_the_words_either_side_of_each_mask(text, words, expected):
    from nyaya.retrieval.precedents import masked_contexts

    assert masked_contexts(text, words) == expected


MASKED = {
    "near": "the court believed the dying declaration recorded before her death",
    "far": "the magistrate recorded the confession and the victim named the accused in the "
           "complaint",
    "both": "the magistrate recorded the confession of the victim",
    "other": "the victim named the accused in the first information report",
    "police": "a dying declaration recorded by the police",
}
MASKED_QUERY = ("The magistrate recorded the confession and the victim named the accused in the "
                "complaint. In [?CITATION?] the dying declaration recorded before her death was "
                "believed.")


@pytest.mark.parametrize(("spec", "query", "first"), [
    # the whole text's pairs favour the judgment sharing most of its phrases ...
    ({"terms": 200, "pairs": {"weight": 1}}, MASKED_QUERY, "far"),
    # ... the words next to the masked citation say which case it cites
    ({"terms": 200, "pairs": {"weight": 1}, "masked_citations": {"words": 4, "weight": 8}},
     MASKED_QUERY, "near"),
    # without a mask the same config ranks by the whole text alone
    ({"terms": 200, "pairs": {"weight": 1}, "masked_citations": {"words": 4, "weight": 8}},
     MASKED_QUERY.replace("[?CITATION?]", "that case"), "far"),
])
def test_words_around_a_masked_citation_decide_which_case_it_cites(spec, query, first):
    from nyaya.retrieval.precedents import DocumentScoring

    words = BM25Retriever(list(MASKED), list(MASKED.values()))
    pairs = BM25Retriever(list(MASKED), list(MASKED.values()), analyzer=PAIRS.analyzer,
                          min_df=2)
    hits = DocumentScoring.of("cfg", spec).search(_document_resources(words, pairs), query, 5,
                                                  None)
    assert hits[0].doc_id == first
    assert [hit.score for hit in hits] == sorted((hit.score for hit in hits), reverse=True)


# --- the kept judgments' index ---------------------------------------------------------------

KEPT_IDS = ["J1", "J2", "J3"]
KEPT_TEXTS = ["the tenant paid a security deposit to the landlord",
              "the accused struck the deceased with an iron rod",
              "the landlord kept the deposit after the lease ended"]


@pytest.fixture()
def kept(tmp_path):
    folder = tmp_path / "judgments"
    BM25Retriever(KEPT_IDS, KEPT_TEXTS).save(folder, "stamp-1")
    return folder


def test_a_kept_index_loads_and_scores_as_the_one_built(kept):
    built = BM25Retriever(KEPT_IDS, KEPT_TEXTS)
    loaded = BM25Retriever.load(kept, "stamp-1", KEPT_IDS, KEPT_TEXTS)
    assert loaded is not None and loaded.doc_ids == KEPT_IDS
    for query in ("landlord deposit", "iron rod", "nothing indexed here"):
        assert np.array_equal(loaded.scores(query), built.scores(query))
        assert loaded.search(query, 3) == built.search(query, 3)
    assert not list(kept.parent.glob("*.building"))  # written beside, then renamed


@pytest.mark.parametrize(("stamp", "doc_ids", "damage"), [
    ("stamp-2", KEPT_IDS, None),  # built from another table or tokenizer
    ("stamp-1", ["J1", "J2"], None),  # other judgments
    ("stamp-1", ["J3", "J2", "J1"], None),  # another order: rows would map to wrong ids
    ("stamp-1", KEPT_IDS, "nyaya.json"),  # no record of what it was built from
    ("stamp-1", KEPT_IDS, "vocab.index.json"),  # half an index
])
def test_a_stale_or_damaged_index_is_not_loaded(kept, stamp, doc_ids, damage):
    """The caller indexes the judgments anew instead of scoring with the wrong index."""
    if damage:
        (kept / damage).unlink()
    assert BM25Retriever.load(kept, stamp, doc_ids, KEPT_TEXTS[:len(doc_ids)]) is None


def test_no_kept_index_is_none(tmp_path):
    assert BM25Retriever.load(tmp_path / "absent", "stamp-1", KEPT_IDS, KEPT_TEXTS) is None
