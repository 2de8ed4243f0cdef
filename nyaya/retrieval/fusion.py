"""Fusing ranked lists: reciprocal-rank fusions and normalized score fusions.

Two RRF conventions exist and they do not rank alike once weights differ:
- classic (Cormack et al. 2009; ranx `rrf`; the served system's spec 001):
  score = sum_i w_i / (k + rank_i), rank from 1, k = 60 by convention;
- qdrant (Qdrant's `position_score`, also inside qdrant-edge):
  score = sum_i 1 / (rank_i / w_i + k - 1), rank from 1, default k = 2.
Unweighted, qdrant's k is classic k plus one: qdrant k = 61 gives exactly the scores of
classic k = 60, 1 / (rank + 60). Weighted, qdrant divides the rank by the weight instead of
multiplying the contribution, so the same weights rank differently. Every config names its
convention, and the parity tests hold each convention to its engine (ranx, qdrant-edge).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np

from nyaya.retrieval.base import Hit, ranked

RRF_CONVENTIONS = ("classic", "qdrant")
NORMS = ("min-max", "zmuv", "none")
SCORE_FUSIONS = ("wsum", "combsum", "combmnz", "combmax")


def _methods(found: Mapping[str, list[str]], doc_id: str) -> str:
    return "+".join(sorted(set(found[doc_id])))


def _weights(runs: Mapping[str, Sequence[Hit]],
             weights: Mapping[str, float] | None) -> dict[str, float]:
    if weights is None:
        return dict.fromkeys(runs, 1.0)
    unknown = set(weights) - set(runs)
    if unknown:
        raise ValueError(f"weights for runs that are not fused: {sorted(unknown)}")
    if any(value < 0 for value in weights.values()):
        raise ValueError(f"negative fusion weight in {dict(weights)}")
    return {name: float(weights.get(name, 0.0)) for name in runs}


def rrf(runs: Mapping[str, Sequence[Hit]], k: float = 60, weights: Mapping[str, float] |
        None = None, convention: str = "classic") -> list[Hit]:
    """Reciprocal rank fusion of named runs (each already in rank order)."""
    if convention not in RRF_CONVENTIONS:
        raise ValueError(f"unknown RRF convention {convention!r}; expected {RRF_CONVENTIONS}")
    weight = _weights(runs, weights)
    scores: dict[str, float] = {}
    found: dict[str, list[str]] = {}
    for name, hits in runs.items():
        w = weight[name]
        if w == 0:
            continue
        for rank, hit in enumerate(hits, start=1):
            contribution = w / (k + rank) if convention == "classic" else 1 / (rank / w + k - 1)
            scores[hit.doc_id] = scores.get(hit.doc_id, 0.0) + contribution
            found.setdefault(hit.doc_id, []).append(hit.method)
    return ranked(Hit(doc, score, _methods(found, doc)) for doc, score in scores.items())


def cascade(runs: Mapping[str, Sequence[Hit]]) -> list[Hit]:
    """The first run whole, then what each later run adds, in the runs' order: for a branch
    that is better wherever it answers (statutes voted by similar cases) and another that
    only fills the ranks it leaves empty. Scores are rewritten to fall by one per rank."""
    seen: set[str] = set()
    order = []
    for hits in runs.values():
        for hit in hits:
            if hit.doc_id not in seen:
                seen.add(hit.doc_id)
                order.append(hit)
    return [Hit(hit.doc_id, float(len(order) - rank), hit.method)
            for rank, hit in enumerate(order)]


def normalize(scores: np.ndarray, norm: str) -> np.ndarray:
    """min-max to [0, 1] (all-equal scores become 1), zmuv to mean 0 and unit variance (all
    equal become 0); the conventions ranx uses."""
    if norm not in NORMS:
        raise ValueError(f"unknown normalization {norm!r}; expected {NORMS}")
    if norm == "none" or len(scores) == 0:
        return scores
    if norm == "min-max":
        low, high = scores.min(), scores.max()
        return np.ones_like(scores) if high == low else (scores - low) / (high - low)
    std = scores.std()
    return np.zeros_like(scores) if std == 0 else (scores - scores.mean()) / std


def score_fusion(runs: Mapping[str, Sequence[Hit]], method: str = "wsum",
                 norm: str = "min-max", weights: Mapping[str, float] | None = None
                 ) -> list[Hit]:
    """Fusion of normalized scores: wsum (weighted sum), combsum (plain sum), combmnz (sum
    times the number of runs that found the document), combmax (the best)."""
    if method not in SCORE_FUSIONS:
        raise ValueError(f"unknown score fusion {method!r}; expected {SCORE_FUSIONS}")
    weight = _weights(runs, weights if method == "wsum" else None)
    per_doc: dict[str, list[float]] = {}
    found: dict[str, list[str]] = {}
    for name, hits in runs.items():
        if not hits:
            continue
        values = normalize(np.array([hit.score for hit in hits], dtype=np.float64), norm)
        for hit, value in zip(hits, values, strict=True):
            per_doc.setdefault(hit.doc_id, []).append(weight[name] * float(value))
            found.setdefault(hit.doc_id, []).append(hit.method)
    fused = []
    for doc, values in per_doc.items():
        if method == "combmax":
            score = max(values)
        elif method == "combmnz":
            score = sum(values) * len(values)
        else:
            score = sum(values)
        fused.append(Hit(doc, score, _methods(found, doc)))
    return ranked(fused)
