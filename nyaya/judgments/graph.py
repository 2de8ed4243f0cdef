"""The citation graph: which judgment cites, follows, distinguishes or overrules which.

Edges come from two places: case citations found in judgment text (the relation read from
the words around the citation) and the CITATOR INFO blocks of IRLeD headers, where the
reporter records how later judgments treated this one. Nodes are cases, not files: the same
judgment read from two sources is one node. Tables are plain Parquet; `to_networkx` loads
them for analysis.
"""

from __future__ import annotations

import re

import networkx as nx
import pandas as pd

CITES = "cites"
FOLLOWS = "follows"
DISTINGUISHES = "distinguishes"
OVERRULES = "overrules"

# Read left to right within the citing sentence; the first cue found wins. "was overruled in"
# says a third judgment overruled the cited one, so only first-person or present forms count.
_RELATION_CUES: list[tuple[str, re.Pattern]] = [
    (OVERRULES, re.compile(
        r"\b(?:is|are|stands?|must\s+be|should\s+be|be|hereby|we)\s+(?:hereby\s+)?overruled?\b"
        r"|\bno\s+longer\s+(?:good|valid)\s+law\b|\bwe\s+overrule\b", re.IGNORECASE)),
    (DISTINGUISHES, re.compile(r"\bdistinguish(?:ed|able|es)?\b|\bnot\s+applicable\s+to\s+the"
                               r"\s+facts\b", re.IGNORECASE)),
    (FOLLOWS, re.compile(r"\b(?:followed|follow|relied\s+(?:up)?on|rely\s+(?:up)?on|applied)\b",
                         re.IGNORECASE)),
]

# JUDIS citator codes as printed in IRLeD headers: the later judgment named after the code
# treated this one that way. Codes not listed are kept as plain citations.
CITATOR_RELATIONS = {"O": OVERRULES, "F": FOLLOWS, "D": DISTINGUISHES, "R": CITES,
                     "RF": CITES, "E": CITES, "E&R": CITES, "E&F": FOLLOWS, "C": CITES,
                     "APL": FOLLOWS, "APR": FOLLOWS}

# A full stop ends a sentence unless it closes an abbreviation common in case names
# ("v.", "Ors.", "No.", initials like "K.M.").
_SENTENCE_EDGE = re.compile(
    r"(?<!\bv)(?<!\bvs)(?<!\bNo)(?<!\bOrs)(?<!\bAnr)(?<!\bLtd)(?<!\bCo)(?<!\bDr)(?<!\bSmt)"
    r"(?<!\bMr)(?<!\bMs)(?<!\bpara)(?<![\s.(][A-Z])[.;:?!]\s+(?=[A-Z\"'(])|\n")


def relation_near(text: str, start: int, end: int, window: int = 240) -> str:
    """The treatment a citation at text[start:end] gets from its own sentence."""
    left = max(0, start - window)
    right = min(len(text), end + window)
    before = text[left:start]
    edges = list(_SENTENCE_EDGE.finditer(before))
    if edges:
        left += edges[-1].end()
    after = _SENTENCE_EDGE.search(text, end, right)
    sentence = text[left: after.start() if after else right]
    for relation, cue in _RELATION_CUES:
        if cue.search(sentence):
            return relation
    return CITES


def pagerank(nodes: list[str], edges: pd.DataFrame, alpha: float = 0.85) -> dict[str, float]:
    """PageRank over case->case edges; isolated nodes keep the uniform teleport share.

    Overruling edges are left out: being overruled is not authority.
    """
    graph = nx.DiGraph()
    graph.add_nodes_from(nodes)
    case_edges = edges[(edges["target_type"] == "case") & (edges["relation"] != OVERRULES)]
    graph.add_edges_from(zip(case_edges["source_id"], case_edges["target_id"], strict=True))
    return nx.pagerank(graph, alpha=alpha, tol=1e-10, max_iter=200)


def to_networkx(nodes: pd.DataFrame, edges: pd.DataFrame) -> nx.MultiDiGraph:
    """The graph tables as a networkx multigraph, node and edge columns as attributes."""
    graph = nx.MultiDiGraph()
    for row in nodes.to_dict("records"):
        graph.add_node(row["node_id"], **row)
    for row in edges.to_dict("records"):
        graph.add_edge(row["source_id"], row["target_id"], **row)
    return graph
