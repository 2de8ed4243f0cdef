"""Pure logic behind the judgment tables: chunking, domains, relations, identity, resolution."""

from __future__ import annotations

import math
import re
from collections import Counter
from itertools import pairwise

import pandas as pd
import pytest

from nyaya.citations.cases import extract_case_citations
from nyaya.judgments.chunking import approx_tokens, chunk_judgment
from nyaya.judgments.domains import (
    CitedProvision,
    DomainDecision,
    DomainTagger,
    phrase_pattern,
)
from nyaya.judgments.graph import pagerank, relation_near, to_networkx
from nyaya.judgments.identity import containment, link_same_cases, match_registry, shingles
from nyaya.judgments.resolution import REGISTRY_ONLY, RESOLVED, UNRESOLVED, CaseResolver
from nyaya.judgments.tables import resolve_in_time

PARAGRAPHS = "\n".join(
    f"{i}. " + " ".join(f"word{i}x{j}" for j in range(40)) + "." for i in range(1, 9))


def test_chunks_cover_the_text_in_order_with_exact_offsets():
    chunks = chunk_judgment("AILA:C1", PARAGRAPHS, token_budget=100)
    assert [c.chunk_id for c in chunks] == [f"AILA:C1#{i:04d}" for i in range(len(chunks))]
    for chunk in chunks:
        assert PARAGRAPHS[chunk.start:chunk.end] == chunk.text
        assert chunk.approx_tokens <= 100
    assert all(a.end <= b.start for a, b in pairwise(chunks))
    # every word lands in exactly one chunk
    words = [w for c in chunks for w in c.text.split() if w.startswith("word")]
    assert len(words) == 8 * 40


def test_paragraphs_are_packed_not_split_when_they_fit():
    # each numbered paragraph is ~44 tokens: two fit in 100, three do not
    chunks = chunk_judgment("d", PARAGRAPHS, token_budget=100)
    assert len(chunks) == 4
    assert chunks[0].text.startswith("1. ") and chunks[1].text.startswith("3. ")


@pytest.mark.parametrize(("text", "budget", "expected_pieces"), [
    ("One sentence here. Another one there. " * 30, 50, 5),  # 12 sentences of 4 tokens
    ("nospace " * 300, 64, 5),  # one endless sentence: split at word boundaries
])
def test_oversized_paragraphs_are_split_within_budget(text, budget, expected_pieces):
    chunks = chunk_judgment("d", text, token_budget=budget)
    assert all(c.approx_tokens <= budget for c in chunks)
    assert len(chunks) == expected_pieces


def test_chunk_ids_are_stable_and_budget_is_validated():
    assert chunk_judgment("d", PARAGRAPHS) == chunk_judgment("d", PARAGRAPHS)
    assert chunk_judgment("d", "   \n\n  ") == []
    with pytest.raises(ValueError, match="token_budget"):
        chunk_judgment("d", PARAGRAPHS, token_budget=4)


@pytest.mark.parametrize(("text", "tokens"), [("Section 302, IPC.", 5), ("", 0),
                                              ("a-b", 3)])
def test_approx_tokens_counts_words_and_punctuation(text, tokens):
    assert approx_tokens(text) == tokens


ACT_DOMAINS = {"IPC_1860": "criminal_substantive", "CrPC_1973": "criminal_procedure",
               "COI": "constitutional", "GCA_1897": "general", "ITAX_1961": "tax"}
TAGGER = DomainTagger(ACT_DOMAINS)


@pytest.mark.parametrize(("provision", "domain"), [
    (CitedProvision("IPC_1860", "302", "section", "IPC"), "criminal_substantive"),
    (CitedProvision("COI", "21", "article", None), "constitutional"),
    (CitedProvision("COI", "311", "article", None), "labour_service"),
    (CitedProvision("COI", "136", "article", None), None),  # special leave: says nothing
    (CitedProvision("GCA_1897", "6", "section", None), None),  # cited in every area
    (CitedProvision(None, "4", "section", "Land Acquisition Act, 1894"), "civil_property"),
    (CitedProvision(None, "4", "section", None), None),
])
def test_provision_domains(provision, domain):
    assert TAGGER.provision_domain(provision) == domain


def test_statutes_outweigh_a_stray_phrase_and_ties_break_by_name():
    statute = TAGGER.statute_scores([CitedProvision("ITAX_1961", "64", "section", None)] * 3)
    phrases = TAGGER.phrase_scores(p for _, p in TAGGER.phrase_hits("The bail was refused."))
    decision = TAGGER.decide(statute, phrases)
    assert decision.domain == "tax" and decision.method == "statute_mentions"
    assert decision.runner_up == "criminal_procedure"
    tie = TAGGER.decide(Counter({"tax": 2.0, "family": 2.0}), Counter())
    assert tie.domain == "family" and tie.confidence == 0.5


def test_phrases_match_whole_words_only():
    hits = [p for _, p in TAGGER.phrase_hits("The Rental income; parental consent; a tenant.")]
    assert hits == ["tenant"]


PREFIXED = ["bail", "bail bond", "bail bond cancelled", "anticipatory bail", "writ",
            "writ-petition"]


@pytest.mark.parametrize(("text", "expected"), [
    ("bail bond cancelled today", [(0, "bail bond cancelled")]),  # the longest
    ("bail bond cancelledx", [(0, "bail bond")]),  # the longer one is inside a word
    ("bail bondsman", [(0, "bail")]),
    ("anticipatory bail; bail", [(0, "anticipatory bail"), (19, "bail")]),
    ("a writ-petition, a writ-x and writs", [(2, "writ-petition")]),  # hyphen: one word
    ("bailbail bail-bond", []),
    ("", []),
])
def test_the_phrase_trie_matches_as_the_plain_alternation_longest_first(text, expected):
    plain = re.compile(r"(?<![\w-])(?:" + "|".join(
        re.escape(p) for p in sorted(PREFIXED, key=len, reverse=True)) + r")(?![\w-])")
    found = [(m.start(), m.group(0)) for m in phrase_pattern(PREFIXED).finditer(text)]
    assert found == [(m.start(), m.group(0)) for m in plain.finditer(text)] == expected


def test_weak_chunks_inherit_the_judgment_domain():
    judgment = DomainDecision("tax", "statute_mentions", 0.9, 20.0, None)
    weak = TAGGER.tag_chunk(Counter(), Counter({"family": 1.0}), judgment)
    assert (weak.domain, weak.method, weak.confidence) == ("tax", "judgment_context", 0.72)
    strong = TAGGER.tag_chunk(Counter({"family": 4.0}), Counter(), judgment)
    assert (strong.domain, strong.method) == ("family", "statute_mentions")
    orphan = TAGGER.tag_chunk(Counter(), Counter(), DomainDecision(None, "none", 0, 0, None))
    assert orphan.domain is None


def test_a_phrase_in_two_domains_is_refused():
    with pytest.raises(ValueError, match="listed under"):
        DomainTagger({}, {"phrases": {"tax": ["levy"], "family": ["levy"]}})


@pytest.mark.parametrize(("sentence", "relation"), [
    ("The decision in X v. Y, AIR 1960 SC 1 is hereby overruled.", "overrules"),
    ("X v. Y, AIR 1960 SC 1, is no longer good law.", "overrules"),
    ("X v. Y, AIR 1960 SC 1, was overruled in a later case.", "cites"),
    ("The facts of X v. Y, AIR 1960 SC 1 are clearly distinguishable.", "distinguishes"),
    ("We have followed X v. Y, AIR 1960 SC 1.", "follows"),
    ("Reliance was placed upon X v. Y, AIR 1960 SC 1.", "cites"),
    ("We overrule nothing. See X v. Y, AIR 1960 SC 1.", "cites"),  # cue in another sentence
])
def test_relation_is_read_from_the_citing_sentence(sentence, relation):
    start = sentence.index("AIR")
    assert relation_near(sentence, start, start + len("AIR 1960 SC 1")) == relation


def test_pagerank_and_networkx_round_trip():
    nodes = pd.DataFrame({"node_id": ["A", "B", "C"], "node_type": ["judgment"] * 3})
    edges = pd.DataFrame({"source_id": ["A", "C", "A"], "target_id": ["B", "B", "IPC:302"],
                          "target_type": ["case", "case", "section"],
                          "relation": ["cites", "follows", "cites"]})
    ranks = pagerank(nodes["node_id"].tolist(), edges)
    assert ranks["B"] > ranks["A"] == pytest.approx(ranks["C"])
    assert sum(ranks.values()) == pytest.approx(1.0)
    graph = to_networkx(nodes, edges)
    assert graph.number_of_edges() == 3 and graph.has_edge("C", "B")


def test_same_case_links_need_a_shared_citation_or_same_day_shared_text():
    body = " ".join(f"w{i}" for i in range(200))
    rows = [
        {"doc_id": "AILA:C1", "source": "aila2019", "decision_date": "1990-01-02",
         "text": body, "citation_keys": []},
        {"doc_id": "IRLED:prior_case_0001", "source": "irled2017_prior",
         "decision_date": "1990-01-02", "text": "Headnote. " + body,
         "citation_keys": ["AIR 1990 SC 1"]},
        {"doc_id": "IRLED:prior_case_0002", "source": "irled2017_prior",
         "decision_date": "1990-01-02", "text": "unrelated words " * 50,
         "citation_keys": ["AIR 1990 SC 9"]},
        {"doc_id": "IRLED:prior_case_0003", "source": "irled2017_prior",
         "decision_date": None, "text": "x", "citation_keys": ["AIR 1990 SC 9"]},
    ]
    cases = link_same_cases(rows)
    assert cases["AILA:C1"] == cases["IRLED:prior_case_0001"] == "CASE:AILA:C1"
    assert cases["IRLED:prior_case_0002"] == cases["IRLED:prior_case_0003"] \
        == "CASE:IRLED:prior_case_0002"
    assert cases["AILA:C1"] != cases["IRLED:prior_case_0002"]
    assert link_same_cases(list(reversed(rows))) == cases  # order does not matter


@pytest.mark.parametrize(("keys", "date", "record", "how"), [
    # the neutral number alone decides
    (["1992 INSC 36", "(1992) 4 SCC 99"], "1992-02-04", "SC:1992 INSC 36", "citation"),
    # an LII number (IRLeD prior case 1466's "[1992] INSC 36") whose SCR citation is another
    # record's: the SCR citation decides
    (["1992 INSC 36", "[1992] 1 SCR 565"], "1992-01-28", "SC:1992 INSC 40", "citation"),
    # ... and one of no record we hold: no link
    (["1992 INSC 36", "[1992] 1 SCR 777"], "1992-02-04", None, None),
    # the SCR citation agrees: linked
    (["1992 INSC 36", "[1992] 1 SCR 530"], "1992-02-04", "SC:1992 INSC 36", "citation"),
    # an LII number the Court gives to a judgment of another day (IRLeD prior case 1443's
    # "[1997] INSC 288", of 13 March, and the registry's L. Chandra Kumar, of the 18th)
    (["1992 INSC 36", "(1992) 4 SCC 99"], "1992-01-28", None, None),
    # ... or a citation both share with a record of neither's day
    (["1992 INSC 36", "[1992] 1 SCR 565"], "1992-03-02", None, None),
    # no date to compare: the number decides
    (["1992 INSC 36"], None, "SC:1992 INSC 36", "citation"),
])
def test_registry_match_by_citation_needs_agreeing_scr_and_date(keys, date, record, how):
    records = {"SC:1992 INSC 36": {"citation_keys": ["1992 INSC 36", "[1992] 1 SCR 530"],
                                   "decision_date": "1992-02-04"},
               "SC:1992 INSC 40": {"citation_keys": ["1992 INSC 40", "[1992] 1 SCR 565"],
                                   "decision_date": "1992-01-28"}}
    by_key = {key: [rid] for rid, rec in records.items() for key in rec["citation_keys"]}
    judgment = {"citation_keys": keys, "decision_date": date, "case_name": None}
    assert match_registry(judgment, by_key, {}, records) == (record, how)


@pytest.mark.parametrize(("text", "status", "records"), [
    # the Court's neutral number: the registry's record, whatever the names
    ("Krishna Sahai v. State of U.P., 1991 INSC 117", REGISTRY_ONLY, ("SC:1991 INSC 117",)),
    # LII of India's number with another case's names (IRLeD prior case 406 prints this): not
    # the record the Court numbers so
    ("Krishna Sahai v. State of U.P., [1991] INSC 117", UNRESOLVED, ()),
    # ... with the record's own names: the two schemes agree here
    ("Maharaja Tourist Service v. State of Gujarat, [1991] INSC 117", REGISTRY_ONLY,
     ("SC:1991 INSC 117",)),
    # ... with no names to tell
    ("[1991] INSC 117", UNRESOLVED, ()),
    # a header printing the LII number makes it that judgment's
    ("Krishna Sahai v. State of U.P., [1990] INSC 106", RESOLVED, ()),
])
def test_an_lii_number_resolves_to_the_registry_only_with_its_names(text, status, records):
    judgments = [{"case_id": "CASE:IRLED:prior_case_0001", "case_name": None,
                  "citation_keys": ["1990 INSC 106", "(1990) 2 SCC 673"]}]
    registry = [{"record_id": "SC:1991 INSC 117", "citation_keys": ["1991 INSC 117"],
                 "title": "MAHARAJA TOURIST SERVICE ETC. ETC. versus STATE OF GUJARAT"}]
    [cite] = [c for c in extract_case_citations(text) if c.kind != "case_name"]
    resolution = CaseResolver(judgments, registry).resolve(cite)
    assert resolution.status == status, resolution.reason
    assert resolution.registry_ids == records
    if status == UNRESOLVED:
        assert "LII" in resolution.reason


def test_shingle_containment():
    a = shingles("one two three four five six seven")
    assert containment(a, shingles("zero one two three four five six seven eight")) == 1.0
    assert containment(a, set()) == 0.0


@pytest.mark.parametrize(("act_code", "year", "expected"), [
    ("CrPC_1973", 1960, None),  # "the Code" of a 1960 judgment is the 1898 Code
    ("CrPC_1973", 1980, "CrPC_1973"),
    ("CrPC_1973", None, "CrPC_1973"),
    ("IPC_1860", 1960, "IPC_1860"),
])
def test_an_act_younger_than_the_judgment_is_not_what_it_cites(act_code, year, expected):
    years = {"CrPC_1973": 1973, "IPC_1860": 1860}
    got, resolution, reason = resolve_in_time(act_code, "context", None, years, year)
    assert got == expected
    assert (resolution == "unresolved") == (expected is None)
    assert (reason is not None) == (expected is None)


def test_statute_evidence_counts_acts_not_the_length_of_a_charge_list():
    charges = [CitedProvision("IPC_1860", s, "section", "IPC")
               for s in ("147", "148", "149", "302", "307")]
    bail = [CitedProvision("CrPC_1973", "438", "section", "Cr.P.C.")]
    scores = TAGGER.statute_scores(charges + bail)
    assert scores["criminal_substantive"] == pytest.approx(2 * (1 + math.log(5)))
    assert scores["criminal_procedure"] == pytest.approx(2.0)
