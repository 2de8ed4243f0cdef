"""What every retriever returns: ranked hits that say which method found them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True)
class Hit:
    doc_id: str
    score: float
    method: str  # the retriever, or "+"-joined retrievers for a fused hit


def ranked(hits: Iterable[Hit]) -> list[Hit]:
    """Score descending, then doc id: the one deterministic order every stage returns."""
    return sorted(hits, key=lambda hit: (-hit.score, hit.doc_id))
