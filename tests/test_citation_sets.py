"""Development sets from the corpus's own citations (evals/citation_sets.py): masking, the
passages and their judgments, precedent qrels without the query itself, the split by judgment."""

from __future__ import annotations

import pandas as pd
import pytest

from evals.citation_sets import (
    MASK,
    PRECEDENTS_SET,
    STATUTES_SET,
    aila_sections,
    case_citation_spans,
    dev_set,
    duplicates_of,
    facts_queries,
    mask_spans,
    merged,
    passage_queries,
    precedent_passages,
    precedent_queries,
    with_judgment,
)
from evals.querysets import QuerySet
from evals.runner import run_queryset
from evals.splits import HELDOUT, TRAIN, split_of
from nyaya.retrieval.base import Hit
from nyaya.retrieval.case_votes import cited_sections


@pytest.mark.parametrize(("spans", "expected"), [
    ([], []),
    ([(5, 8), (0, 2)], [(0, 2), (5, 8)]),
    ([(0, 4), (2, 6)], [(0, 6)]),  # overlapping
    ([(0, 4), (4, 6)], [(0, 6)]),  # touching: one mask, not two in a row
    ([(0, 10), (2, 3)], [(0, 10)]),  # nested
])
def test_spans_are_merged(spans, expected):
    assert merged(spans) == expected


@pytest.mark.parametrize(("text", "spans", "offset", "expected"), [
    ("under Section 302 IPC he", [(6, 21)], 0, f"under {MASK} he"),
    ("a b c", [], 0, "a b c"),
    ("Art. 14 and Art. 21.", [(0, 7), (12, 19)], 0, f"{MASK} and {MASK}."),
    ("Art. 14 of the Constitution", [(0, 7), (0, 27)], 0, MASK),  # a mention in its group
    # a passage starting at 100 of its judgment: spans are judgment offsets, clipped to it
    ("tion 5 applies", [(96, 106)], 100, f"{MASK} applies"),
    ("s. 5 and more", [(100, 104), (200, 210)], 100, f"{MASK} and more"),
])
def test_citations_are_masked(text, spans, offset, expected):
    assert mask_spans(text, spans, offset) == expected


TEXT = ("Facts. The accused was tried under Section 302 IPC. "  # 0-52, chunk 0
        "He relied on Article 21 of the Constitution and Section 5 of the Foo Act.")  # 52-


def _mentions(*rows: tuple) -> pd.DataFrame:
    columns = ["doc_id", "chunk_id", "mention_type", "group_start", "group_end", "act_code",
               "section", "resolved_case_ids"]
    frame = pd.DataFrame([(*row, []) if len(row) == 7 else row for row in rows],
                         columns=columns)
    return frame.assign(case_name=None)


STATUTE_MENTIONS = _mentions(
    ("J1", "J1#0", "statute", 35, 50, "IPC_1860", "302"),
    ("J1", "J1#1", "statute", 65, 95, "COI", "21"),
    ("J1", "J1#1", "statute", 100, 124, None, "5"),  # an Act the registry lacks: masked only
    ("J2", "J2#0", "statute", 0, 5, "IPC_1860", "302"),  # not a judgment of the pool
)
@pytest.mark.parametrize(("mentions", "expected"), [
    (STATUTE_MENTIONS, {"J1": {"IPC_1860:302", "COI:21"}, "J2": {"IPC_1860:302"}}),
    # a case citation votes for no statute; an unresolved Act is no section
    (_mentions(("J3", "J3#0", "case", 0, 5, None, None, ["CASE:A:1"]),
               ("J3", "J3#0", "statute", 6, 9, None, "5")), {}),
    (_mentions(("J4", "J4#0", "statute", 0, 5, "COI", "21"),
               ("J4", "J4#2", "statute", 9, 15, "COI", "21")), {"J4": {"COI:21"}}),
])
def test_a_judgment_cites_the_sections_its_statute_mentions_resolve_to(mentions, expected):
    assert cited_sections(mentions) == expected


CHUNKS = pd.DataFrame({"chunk_id": ["J1#0", "J1#1", "J2#0"], "ordinal": [0, 1, 0],
                       "start": [0, 52, 0], "end": [52, len(TEXT), 10]})


@pytest.mark.parametrize(("judged", "expected"), [
    # in-force sections only: IPC is repealed, so the passage is the second chunk
    ({"COI:21": ["COI:21"]},
     [("J1", f"He relied on {MASK} and {MASK}.", ["COI:21"])]),
    # AILA ids through the section map: the first chunk that cites one
    ({"IPC_1860:302": ["AILA:S2"], "COI:21": ["AILA:S3"]},
     [("J1", f"Facts. The accused was tried under {MASK}. ", ["AILA:S2"])]),
    ({"IPC_1860:307": ["AILA:S9"]}, []),  # nothing the set judges is cited
])
def test_passage_queries_judge_what_the_passage_cites(judged, expected):
    found = passage_queries(STATUTE_MENTIONS, CHUNKS, {"J1": TEXT}, judged)
    assert list(found.itertuples(index=False, name=None)) == expected


JUDGMENTS = pd.DataFrame({
    "doc_id": ["A:1", "A:2", "I:1", "I:2", "C:1"],
    "source": ["aila2019", "aila2019", "irled2017_prior", "irled2017_prior",
               "irled2017_current"],
    "same_case_as": [["I:1"], [], ["A:1"], [], []],
    "text": ["A1 follows Maneka Gandhi v. UoI, AIR 1978 SC 597 here.", "A2 cites nothing.",
             "I1 is A1 again.", "I2 cites A:1 as [1970] 1 SCR 1.", "C1 cites I:2."]})


@pytest.mark.parametrize(("mentions", "expected"), [
    # the cited judgment, and its duplicate in the other source; the citation masked
    (_mentions(("A:2", "", "case", 3, 8, None, None, ["CASE:A:1"])),
     [("A:2", f"A2 {MASK} nothing.", ["A:1", "I:1"])]),
    # a self-citation, through the judgment's duplicate, is no query: nothing left to find
    (_mentions(("A:1", "", "case", 11, 48, None, None, ["CASE:I:1"])), []),
    # one mention for the self-citation and one for another judgment: only the other is judged
    (_mentions(("A:1", "", "case", 3, 10, None, None, ["CASE:A:1"]),
               ("A:1", "", "case", 11, 48, None, None, ["CASE:I:2"])),
     [("A:1", f"A1 {MASK} {MASK} here.", ["I:2"])]),
    # a current case is no query and no candidate; an unresolved citation judges nothing
    (_mentions(("C:1", "", "case", 9, 12, None, None, ["CASE:I:2"]),
               ("I:2", "", "case", 0, 2, None, None, ["CASE:C:1"]),
               ("A:2", "", "case", 3, 8, None, None, [])), []),
])
def test_precedent_queries_never_judge_the_query_itself(mentions, expected):
    found = precedent_queries(mentions, JUDGMENTS)
    assert list(found.itertuples(index=False, name=None)) == expected


HEADER = ("Ram v State\nSupreme Court of India\n\n1 May 1990\nCr.A. 1 of 1990\n"
          "The Judgment was delivered by : X, J.\n")
FACTS = "1. The facts under Section 302 IPC are these, as in Sita v. Gita, AIR 1978 SC 597 too."


def _facts_case(text: str, cited: str, source: str = "aila2019") -> tuple:
    """A judgment A:9 (of `source`) printing `text`, its statute and case citations found."""
    judgments = pd.concat([JUDGMENTS, pd.DataFrame({
        "doc_id": ["A:9"], "source": [source], "same_case_as": [[]], "text": [text]})],
        ignore_index=True)
    mentions = _mentions(("A:9", "", "statute", text.index("Section"), text.index(" are"),
                          "IPC_1860", "302"),
                         ("A:9", "", "case", text.index("AIR"), text.index(" too"), None, None,
                          [f"CASE:{cited}"]))
    mentions["case_name"] = [None, "Sita v. Gita"]
    return mentions, judgments


@pytest.mark.parametrize(("text", "cited", "source", "words", "expected"), [
    # the header skipped, statute and case citations masked (names too), cut to its words;
    # judged on the AILA documents cited (A:1, not its IRLeD twin I:1)
    (HEADER + FACTS, "A:1", "aila2019", 8,
     [("A:9", f"1. The facts under {MASK} are these, as", ["A:1"])]),
    (HEADER + FACTS, "A:1", "aila2019", 100,
     [("A:9", f"1. The facts under {MASK} are these, as in {MASK} too.", ["A:1"])]),
    (FACTS, "A:1", "aila2019", 4, [("A:9", "1. The facts under", ["A:1"])]),  # no header
    (HEADER + FACTS, "I:2", "aila2019", 8, []),  # cites no AILA document: no query
    (HEADER + FACTS, "A:1", "irled2017_prior", 8, []),  # not an AILA document: no query
])
def test_facts_queries_are_an_aila_judgments_opening_judged_on_what_it_cites(
        text, cited, source, words, expected):
    mentions, judgments = _facts_case(text, cited, source)
    found = facts_queries(precedent_queries(mentions, judgments), mentions, judgments, words)
    assert list(found.itertuples(index=False, name=None)) == expected


CITING = "It was held in Ram v. Shyam, AIR 1970 SC 1 and AIR 1970 SCR 9 that bail is a rule."


@pytest.mark.parametrize(("start", "end", "name", "expected"), [
    # a reporter citation's span widened to the names printed before it
    (CITING.index("AIR 1970 SC"), CITING.index(" and"), "Ram v. Shyam",
     (CITING.index("Ram"), CITING.index(" and"))),
    # a parallel citation: the names are further back, still within reach
    (CITING.index("AIR 1970 SCR"), CITING.index(" that"), "Ram v. Shyam",
     (CITING.index("Ram"), CITING.index(" that"))),
    # names printed elsewhere, or none known: the citation alone
    (CITING.index("AIR 1970 SCR"), CITING.index(" that"), "Sita v. Gita",
     (CITING.index("AIR 1970 SCR"), CITING.index(" that"))),
    (CITING.index("AIR 1970 SC"), CITING.index(" and"), None,
     (CITING.index("AIR 1970 SC"), CITING.index(" and"))),
    # a name-only mention is its own span
    (CITING.index("Ram"), CITING.index(","), "Ram v. Shyam",
     (CITING.index("Ram"), CITING.index(","))),
])
def test_a_case_citation_span_takes_in_the_names_before_it(start, end, name, expected):
    """The names would tell a query which case its masked citation was."""
    found = pd.DataFrame({"group_start": [start], "group_end": [end], "case_name": [name]})
    assert case_citation_spans(found, CITING) == [expected]


def test_precedent_queries_mask_the_cited_case_names():
    start = JUDGMENTS.at[0, "text"].index("AIR")
    mentions = _mentions(("A:1", "", "case", start, start + 15, None, None, ["CASE:I:2"]))
    mentions["case_name"] = "Maneka Gandhi v. UoI"
    assert precedent_queries(mentions, JUDGMENTS)["query"].tolist() == [f"A1 follows {MASK} here."]


PASSAGE_TEXT = ("Opening words of the judgment. " + " ".join(f"w{i}" for i in range(40))
                + " as held in Ram v. Shyam, AIR 1970 SC 1 " + " ".join(f"x{i}" for i in range(40)))


@pytest.mark.parametrize(("window", "expected"), [
    # the chunk holding the first citation of a pool judgment, citations masked
    (None, PASSAGE_TEXT[31:].replace("Ram v. Shyam, AIR 1970 SC 1", MASK)),
    # or the words either side of it
    (3, f"w38 w39 as held in {MASK} x0 x1 x2"[8:]),
])
def test_precedent_passages_are_the_chunk_or_the_words_around_the_citation(window, expected):
    judgments = JUDGMENTS.assign(text=JUDGMENTS["text"].where(JUDGMENTS["doc_id"] != "A:2",
                                                              PASSAGE_TEXT))
    start = PASSAGE_TEXT.index("AIR")
    mentions = _mentions(("A:2", "A:2#1", "case", start, start + 13, None, None, ["CASE:I:2"]),
                         ("A:2", "A:2#1", "case", 0, 7, None, None, []))  # not in the chunk
    mentions["case_name"] = ["Ram v. Shyam", None]
    chunks = pd.DataFrame({"chunk_id": ["A:2#0", "A:2#1"], "ordinal": [0, 1],
                           "start": [0, 31], "end": [31, len(PASSAGE_TEXT)]})
    found = precedent_passages(mentions, chunks, judgments, window)
    assert list(found.itertuples(index=False, name=None)) == [("A:2", expected, ["I:2"])]


def test_the_halves_split_by_judgment_and_the_cut_is_stable():
    qids = [f"AILA:C{n}" for n in range(60)]
    queries = with_judgment(pd.DataFrame({"qid": qids, "query": "q",
                                          "judged": [["COI:14"]] * 60}), {})
    train, held = (dev_set(STATUTES_SET, queries, split, None) for split in (TRAIN, HELDOUT))
    assert set(train.qrels).isdisjoint(held.qrels)
    assert set(train.qrels) | set(held.qrels) == set(qids)
    assert all(split_of(qid) == HELDOUT for qid in held.queries["qid"])
    cut = dev_set(STATUTES_SET, queries, HELDOUT, 5)
    again = dev_set(STATUTES_SET, queries.iloc[::-1], HELDOUT, 5)  # the order given is moot
    assert len(cut.queries) == 5 and list(cut.queries["qid"]) == list(again.queries["qid"])
    assert set(cut.queries["qid"]) <= set(held.queries["qid"])
    assert cut.qrels[cut.queries.at[0, "qid"]] == {"COI:14": 1}


def test_one_case_printed_twice_lands_in_one_half():
    """An AILA document and the IRLeD prior case printing the same judgment are one judgment:
    never one in training and the other held out."""
    pairs = [(f"AILA:C{n}", f"IRLED:prior_case_{n:04d}") for n in range(40)]
    same = {doc: {a, b} for a, b in pairs for doc in (a, b)}
    queries = with_judgment(pd.DataFrame({"qid": [doc for pair in pairs for doc in pair],
                                          "query": "q", "judged": [["COI:14"]] * 80}), same)
    halves = [set(dev_set(STATUTES_SET, queries, split, None).qrels) for split in (TRAIN, HELDOUT)]
    for a, b in pairs:
        assert (a in halves[0]) == (b in halves[0]) and (a in halves[1]) == (b in halves[1])
    assert halves[0] and halves[1]
    assert any(split_of(a) != split_of(b) for a, b in pairs)  # the ids alone would part some


def test_an_unknown_half_is_refused():
    queries = with_judgment(pd.DataFrame({"qid": ["A:1"], "query": "q", "judged": [["I:2"]]}),
                            {})
    with pytest.raises(ValueError, match="no half 'test'"):
        dev_set(STATUTES_SET, queries, "test", None)


@pytest.mark.parametrize(("name", "query_type"), [(PRECEDENTS_SET, "judgment"),
                                                  (STATUTES_SET, "facts")])
def test_queries_carry_their_case_as_never_ranked_nor_voting(name, query_type):
    """A query's own judgment and its recorded duplicates: never ranked for it (precedents)
    and never voting for its statutes (`cases`)."""
    queries = with_judgment(pd.DataFrame({"qid": ["A:1", "A:2"], "query": "q",
                                          "judged": [["I:2"], ["I:2"]]}),
                            duplicates_of(JUDGMENTS))
    found = dev_set(name, queries, split_of("A:1"), None)
    row = found.queries[found.queries["qid"] == "A:1"].iloc[0]
    assert row["excluded"] == ["A:1", "I:1"] and row["query_type"] == query_type
    assert queries.set_index("qid").at["A:2", "excluded"] == ["A:2"]


SECTIONS = pd.DataFrame({
    "doc_id": ["IPC_1860:302", "BNS_2023:103", "ECA_1955:7", "PCA_1988:7", "COI:14"],
    "title": ["Punishment for murder", "Punishment for murder", "Penalties", "Penalties",
              "Equality before law"],
    "text": ["Whoever commits murder shall be punished with death",
             "Whoever commits murder shall be punished with death or imprisonment for life",
             "If any person contravenes any order made under section 3",
             "Any public servant who accepts gratification",
             "The State shall not deny to any person equality"],
    "year": [1860, 2023, 1955, 1988, 1950]})


@pytest.mark.parametrize(("title", "text", "expected"), [
    # a later Act with the same title is never an AILA statute
    ("Punishment for murder", "Punishment for murder. Whoever commits murder shall be "
     "punished with death, or imprisonment for life", "IPC_1860:302"),
    # a shared title goes to the section whose text it shares most words with
    ("Penalties", "Penalties. If any person contravenes any order made under section 3",
     "ECA_1955:7"),
    ("Equality before law.", "Equality before law. Something else entirely", None),  # overlap
    ("Right to silence", "Right to silence. The State shall not deny", None),  # no title
])
def test_aila_statutes_map_to_sections_by_title(title, text, expected):
    aila = pd.DataFrame({"doc_id": ["AILA:S1"], "title": [title], "text": [text]})
    assert aila_sections(aila, SECTIONS).get("AILA:S1") == expected


class _Search:
    """A search that ranks the query's own judgment first, as a judgment asked for its
    precedents would."""

    def __init__(self) -> None:
        self.asked: list[int] = []

    def search(self, text: str, k: int, as_of=None, excluded=()) -> list[Hit]:
        self.asked.append(k)
        ranked = ["A:1", "I:1", "I:2", "A:2"]
        return [Hit(doc, 1.0 - rank / 10, "sparse") for rank, doc in enumerate(ranked)][:k]


@pytest.mark.parametrize(("excluded", "top_k", "asked", "ranked"), [
    (None, 2, [2], ["A:1", "I:1"]),
    ([["A:1", "I:1"]], 2, [4], ["I:2", "A:2"]),  # deeper by what is dropped, still top_k
    ([["A:1"]], 10, [11], ["I:1", "I:2", "A:2"]),
])
def test_a_query_never_ranks_what_it_excludes(excluded, top_k, asked, ranked):
    queries = pd.DataFrame({"qid": ["A:1"], "query": ["text"]})
    if excluded is not None:
        queries["excluded"] = excluded
    search = _Search()
    run = run_queryset(search, QuerySet("s", queries, {}), top_k).run
    assert search.asked == asked
    assert run.sort_values("rank")["doc_id"].tolist() == ranked
