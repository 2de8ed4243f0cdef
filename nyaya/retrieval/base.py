"""What every retriever returns: ranked hits that say which method found them."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

#: A query of more words than this is a passage of facts, not a question: it is read in the
#: law's words already (no plain-word expansion) and the relevance model has cuts for each.
PASSAGE_WORDS = 60


@dataclass(frozen=True)
class Hit:
    doc_id: str
    score: float
    method: str  # the retriever, or "+"-joined retrievers for a fused hit


def ranked(hits: Iterable[Hit]) -> list[Hit]:
    """Score descending, then doc id: the one deterministic order every stage returns."""
    return sorted(hits, key=lambda hit: (-hit.score, hit.doc_id))
