"""The entity index and citation graph, loaded once for query time.

Both are tables built by the judgment stage; here they become dictionaries so that a query
answers in microseconds: Article / Section / Act -> judgments, and a judgment's citation
neighbours ranked by PageRank (the landmark cases when there is nothing to expand from)."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from nyaya.tables import read_table


@dataclass(frozen=True)
class EntityDocuments:
    """The judgments that mention an entity, in doc_id order (the table keeps no per-document
    count); `mention_count` is the entity's total over all of them."""

    entity_id: str
    entity_type: str
    doc_ids: tuple[str, ...]
    mention_count: int


class EntityIndex:
    """act_code + section (or Article / Order-Rule) -> the judgments that cite it."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self._by_id: dict[str, EntityDocuments] = {}
        self._sections_of_act: dict[str, list[str]] = defaultdict(list)
        for row in frame.itertuples(index=False):
            entry = EntityDocuments(row.entity_id, row.entity_type,
                                    tuple(sorted(row.doc_ids)), int(row.mention_count))
            self._by_id[row.entity_id] = entry
            if row.entity_type != "act":
                self._sections_of_act[row.act_code].append(row.entity_id)

    @classmethod
    def load(cls, warehouse: Path) -> EntityIndex:
        return cls(read_table(warehouse / "entity_index.parquet"))

    def __len__(self) -> int:
        return len(self._by_id)

    def section(self, act_code: str, section: str) -> EntityDocuments | None:
        """Judgments citing one provision (for the Constitution, section is the Article)."""
        return self._by_id.get(f"{act_code}:{section}")

    def act(self, act_code: str) -> EntityDocuments | None:
        """Judgments citing the Act itself, without a provision."""
        return self._by_id.get(act_code)

    def provisions(self, act_code: str) -> list[str]:
        """Every provision of an Act that some judgment cites."""
        return sorted(self._sections_of_act.get(act_code, []))


@dataclass(frozen=True)
class Neighbour:
    node_id: str
    doc_ids: tuple[str, ...]
    relation: str
    direction: str  # "cites" (the seed cites it) or "cited_by"
    pagerank: float
    overruled: bool


class CitationGraph:
    """Case -> case edges with relations, and PageRank per case node."""

    def __init__(self, nodes: pd.DataFrame, edges: pd.DataFrame) -> None:
        self._nodes = {row.node_id: row for row in nodes.itertuples(index=False)}
        self._node_of_doc = {doc: row.node_id for row in nodes.itertuples(index=False)
                             for doc in row.doc_ids}
        cases = edges[edges["target_type"] == "case"]
        self._out: dict[str, set[tuple[str, str]]] = defaultdict(set)
        self._in: dict[str, set[tuple[str, str]]] = defaultdict(set)
        for source, target, relation in zip(cases["source_id"], cases["target_id"],
                                            cases["relation"], strict=True):
            self._out[source].add((target, relation))
            self._in[target].add((source, relation))
        self._landmarks = sorted(self._nodes.values(), key=lambda n: (-n.pagerank, n.node_id))

    @classmethod
    def load(cls, warehouse: Path) -> CitationGraph:
        return cls(read_table(warehouse / "citation_graph_nodes.parquet"),
                   read_table(warehouse / "citation_graph_edges.parquet"))

    def node_of(self, doc_id: str) -> str | None:
        return self._node_of_doc.get(doc_id)

    def _neighbour(self, node_id: str, relation: str, direction: str) -> Neighbour:
        node = self._nodes[node_id]
        return Neighbour(node_id, tuple(node.doc_ids), relation, direction,
                         float(node.pagerank), bool(node.overruled))

    def neighbours(self, doc_ids: list[str], limit: int = 10) -> list[Neighbour]:
        """Cases the seed judgments cite or are cited by, highest PageRank first (ties by
        node id), seeds themselves excluded."""
        seeds = {node for node in map(self.node_of, doc_ids) if node}
        found: dict[str, Neighbour] = {}
        for seed in sorted(seeds):
            for target, relation in sorted(self._out.get(seed, ())):
                found.setdefault(target, self._neighbour(target, relation, "cites"))
            for source, relation in sorted(self._in.get(seed, ())):
                found.setdefault(source, self._neighbour(source, relation, "cited_by"))
        ranked = sorted((n for node, n in found.items() if node not in seeds),
                        key=lambda n: (-n.pagerank, n.node_id))
        return ranked[:limit]

    def landmarks(self, limit: int = 10) -> list[Neighbour]:
        """The highest-PageRank cases: the fallback when a query has no seed judgments."""
        return [self._neighbour(node.node_id, "landmark", "none")
                for node in self._landmarks[:limit]]
