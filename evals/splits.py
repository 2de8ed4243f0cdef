"""Which half of a query set a query belongs to, and which configs learned from training
queries: read by every command that searches or scores, so it imports nothing heavy (the
fitting itself is `evals.tuning`).

A query set splits in two by a hash of each qid (stable when queries are added or reordered):
the training half fits the weights, and a tuned config is scored on the held-out half only
(assets/evaluation.py), so its figures never include a query it was fitted on.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Mapping

TRAIN, HELDOUT = "train", "heldout"
TUNED = "tuned"

#: folds of the training queries for a cross-fit (`python -m evals.dense_training --cross-fit`,
#: `python -m evals.ranking --cross-fit`): each fold is measured with a model trained on the
#: others, so a method is chosen without reading a held-out query
CROSS_FIT_FOLDS = 3


def split_of(qid: str) -> str:
    """`train` or `heldout`, from the qid alone."""
    return TRAIN if hashlib.sha256(qid.encode()).digest()[0] % 2 == 0 else HELDOUT


def cross_fit_fold(key: str) -> int:
    """The fold (0 to CROSS_FIT_FOLDS - 1) of a qid or of a case's first doc id, from it alone
    (the train / held-out split hashes them too, with another key)."""
    return hashlib.sha256(f"choose:{key}".encode()).digest()[0] % CROSS_FIT_FOLDS


def in_split(qids: Iterable[str], split: str) -> list[str]:
    return sorted(qid for qid in qids if split_of(qid) == split)


def is_tuned(params: Mapping) -> bool:
    return TUNED in (params.get("fusion", {}).get("weights"), params.get("feedback", {}).get("c"))


def is_trained(params: Mapping) -> bool:
    """Whether a config learned from training queries: tuned per set, reranked by the section
    ranker or searched by the trained section encoder (both trained on nyaya-statutes' and
    cited-statutes' training halves). Such a config is scored on held-out queries only."""
    return (is_tuned(params) or params.get("rerank") is not None
            or "dense-trained" in (params.get("retrievers") or ()))
