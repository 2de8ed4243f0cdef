"""Judgments through their chunks: the `sc_judgments` collection holds judgments cut into
chunks, and a judgment is ranked by its best chunk, or by the sum of its few best (a
judgment that matches a text in several places is likelier the one meant than one that
matches once; docs/retrieval-methods.md has the figures).
"""

from __future__ import annotations

from dataclasses import dataclass

from nyaya.index.sparse import query_vector
from nyaya.index.store import StoreHit, VectorStore
from nyaya.retrieval.base import Hit, ranked

COLLECTION = "sc_judgments"


def judgments_of(hits: list[StoreHit], method: str, summed: int = 1) -> list[Hit]:
    """Chunk hits to judgment hits, each scored by the sum of its `summed` best chunks among
    `hits` (by its best chunk alone with 1, the default: it ranks where that chunk does)."""
    scores: dict[str, list[float]] = {}
    for hit in hits:
        best = scores.setdefault(str(hit.payload["judgment_id"]), [])
        if len(best) < summed:
            best.append(hit.score)
    judgments = [Hit(judgment, sum(best), method) for judgment, best in scores.items()]
    return judgments if summed == 1 else ranked(judgments)


def chunk_depth(depth: int, summed: int) -> int:
    """Chunks searched for `depth` judgments: five each, ten when several are summed (a
    judgment's second and third chunks lie deeper than its first)."""
    return depth * (5 if summed == 1 else 10)


@dataclass(frozen=True)
class SummedChunks:
    """Every judgment held, nearest a text by BM25 over its chunks, its `summed` best summed:
    how the similar cases that vote for statutes can be found (`CaseVotes.found_by`)."""

    store: VectorStore
    summed: int = 3
    method: str = "cases"

    def search(self, text: str, depth: int) -> list[Hit]:
        ids, weights = query_vector(text)
        if not ids:
            return []
        hits = self.store.search_sparse(COLLECTION, ids, weights,
                                        chunk_depth(depth, self.summed))
        return judgments_of(hits, self.method, self.summed)[:depth]
