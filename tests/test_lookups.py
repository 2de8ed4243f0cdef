"""Query-time entity index and citation graph: exact answers on small hand-made tables."""

from __future__ import annotations

import pandas as pd
import pytest

from nyaya.index.lookups import CitationGraph, EntityIndex

ENTITIES = pd.DataFrame([
    {"entity_id": "BNS_2023", "entity_type": "act", "act_code": "BNS_2023", "section": None,
     "doc_ids": ["J2"], "chunk_ids": ["J2#0000"], "mention_count": 1},
    {"entity_id": "BNS_2023:103", "entity_type": "section", "act_code": "BNS_2023",
     "section": "103", "doc_ids": ["J3", "J1"], "chunk_ids": [], "mention_count": 7},
    {"entity_id": "COI:21", "entity_type": "article", "act_code": "COI", "section": "21",
     "doc_ids": ["J1"], "chunk_ids": [], "mention_count": 2},
])

NODES = pd.DataFrame([
    {"node_id": "CASE:J1", "node_type": "judgment", "doc_ids": ["J1"], "pagerank": 0.1,
     "overruled": False},
    {"node_id": "CASE:J2", "node_type": "judgment", "doc_ids": ["J2", "J2b"], "pagerank": 0.4,
     "overruled": True},
    {"node_id": "CASE:J3", "node_type": "judgment", "doc_ids": ["J3"], "pagerank": 0.2,
     "overruled": False},
    {"node_id": "SC:R1", "node_type": "registry_case", "doc_ids": [], "pagerank": 0.2,
     "overruled": False},
])
EDGES = pd.DataFrame([
    {"source_id": "CASE:J1", "target_id": "CASE:J2", "target_type": "case", "relation": "cites"},
    {"source_id": "CASE:J3", "target_id": "CASE:J1", "target_type": "case",
     "relation": "follows"},
    {"source_id": "CASE:J1", "target_id": "SC:R1", "target_type": "case", "relation": "cites"},
    {"source_id": "CASE:J1", "target_id": "BNS_2023:103", "target_type": "section",
     "relation": "cites"},
])


@pytest.mark.parametrize(("act", "section", "expected"), [
    ("BNS_2023", "103", ("J1", "J3")),
    ("COI", "21", ("J1",)),
    ("BNS_2023", "104", None),
])
def test_entity_lookup(act, section, expected):
    found = EntityIndex(ENTITIES).section(act, section)
    assert (found.doc_ids if found else None) == expected


def test_entity_index_knows_acts_and_their_cited_provisions():
    index = EntityIndex(ENTITIES)
    assert index.act("BNS_2023").doc_ids == ("J2",)
    assert index.provisions("BNS_2023") == ["BNS_2023:103"]
    assert len(index) == 3


@pytest.mark.parametrize(("seeds", "expected"), [
    # J1 cites J2 (0.4) and R1 (0.2), and is followed by J3 (0.2): PageRank, then node id
    (["J1"], [("CASE:J2", "cites", "cites"), ("CASE:J3", "follows", "cited_by"),
              ("SC:R1", "cites", "cites")]),
    (["J2b"], [("CASE:J1", "cites", "cited_by")]),  # any doc id of a case finds its node
    (["J1", "J3"], [("CASE:J2", "cites", "cites"), ("SC:R1", "cites", "cites")]),
    (["unknown"], []),
])
def test_graph_neighbours_rank_by_pagerank_and_exclude_seeds(seeds, expected):
    found = CitationGraph(NODES, EDGES).neighbours(seeds)
    assert [(n.node_id, n.relation, n.direction) for n in found] == expected


def test_landmarks_are_the_top_pagerank_cases_and_carry_overruled():
    landmarks = CitationGraph(NODES, EDGES).landmarks(limit=2)
    assert [n.node_id for n in landmarks] == ["CASE:J2", "CASE:J3"]
    assert landmarks[0].overruled is True
