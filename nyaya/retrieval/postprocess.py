"""Stages after fusion, outside the engine: score boosting, MMR, group-by, cross-reference and
definitions expansion. Each takes ranked hits and returns ranked hits, so a config is an
ordered list of them."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

import numpy as np
import pandas as pd

from nyaya.index.store import ScoreBoost
from nyaya.retrieval.base import Hit, ranked

# reference types worth following from a retrieved section (issue 5; spec 001 section 6)
EXPANSION_TYPES = ("exception_reference", "subject_to", "definition_import", "punishment_table")


def boost(hits: Sequence[Hit], rule: ScoreBoost,
          payload: Callable[[str], Mapping]) -> list[Hit]:
    """The engine's boosting formula applied to hits fused outside the engine."""
    return ranked(Hit(hit.doc_id, rule.apply(hit.score, dict(payload(hit.doc_id))), hit.method)
                  for hit in hits)


def mmr(hits: Sequence[Hit], query: np.ndarray, vectors: Callable[[str], np.ndarray],
        diversity: float, k: int) -> list[Hit]:
    """Maximal marginal relevance over the candidates, as Qdrant defines it: pick greedily by
    (1 - diversity) * sim(query) - diversity * max sim(already picked); ties by doc id. The
    hits keep their scores; their order is MMR's."""
    if not 0.0 <= diversity <= 1.0:
        raise ValueError(f"MMR diversity must be in [0, 1], got {diversity}")
    if not hits:
        return []
    matrix = np.stack([vectors(hit.doc_id) for hit in hits])
    relevance = matrix @ query
    similarity = matrix @ matrix.T
    redundancy = np.zeros(len(hits))  # max similarity to anything chosen so far
    # rank of each doc id, so ties on the MMR value fall to the smaller doc id
    tie_order = np.argsort(np.argsort([hit.doc_id for hit in hits], kind="stable"))
    left = np.ones(len(hits), dtype=bool)
    chosen: list[int] = []
    while left.any() and len(chosen) < k:
        value = (1 - diversity) * relevance - diversity * redundancy
        candidates = np.flatnonzero(left & (value == value[left].max()))
        best = int(candidates[np.argmin(tie_order[candidates])])
        chosen.append(best)
        left[best] = False
        redundancy = np.maximum(redundancy, similarity[best])
    return [hits[i] for i in chosen]


def group_by(hits: Sequence[Hit], key: Callable[[str], object], group_size: int) -> list[Hit]:
    """At most `group_size` hits per key (e.g. per Act), in rank order."""
    taken: dict[object, int] = {}
    kept = []
    for hit in hits:
        group = key(hit.doc_id)
        if taken.get(group, 0) < group_size:
            taken[group] = taken.get(group, 0) + 1
            kept.append(hit)
    return kept


@dataclass(frozen=True)
class CrossReferences:
    """Section -> the sections it refers to by an exception, a subject-to clause, an imported
    definition or a punishment table."""

    targets: Mapping[str, tuple[str, ...]]

    @classmethod
    def from_table(cls, frame: pd.DataFrame,
                   types: Sequence[str] = EXPANSION_TYPES) -> CrossReferences:
        keep = frame[frame["reference_type"].isin(types) & frame["target_exists"]
                     & (frame["source_act_code"] + ":" + frame["source_section"]
                        != frame["target_act_code"] + ":" + frame["target_section"])]
        targets: dict[str, list[str]] = {}
        for row in keep.itertuples(index=False):
            target = f"{row.target_act_code}:{row.target_section}"
            listed = targets.setdefault(f"{row.source_act_code}:{row.source_section}", [])
            if target not in listed:
                listed.append(target)
        return cls({source: tuple(sorted(found)) for source, found in targets.items()})

    def expand(self, hits: Sequence[Hit], max_added: int = 5, hops: int = 1,
               allowed: Callable[[str], bool] = lambda doc: True) -> list[Hit]:
        """The hits, then up to `max_added` referenced sections not already there and
        `allowed` (the search's own universe: in force only, by default), each scored just
        below the section that refers to it (method `xref`)."""
        present = {hit.doc_id for hit in hits}
        added: list[Hit] = []
        frontier = list(hits)
        for _ in range(hops):
            following = []
            for hit in frontier:
                for target in self.targets.get(hit.doc_id, ()):
                    if target in present or len(added) >= max_added or not allowed(target):
                        continue
                    present.add(target)
                    new = Hit(target, hit.score * 0.999, "xref")
                    added.append(new)
                    following.append(new)
            frontier = following
        return ranked([*hits, *added])


@dataclass(frozen=True)
class Definitions:
    """Act -> its defined terms and the section defining each (the definitions_index table),
    so a retrieved section that uses a defined term brings its definition along (spec 001
    s. 6.3: 'wrongful confinement' needs BNS s.2)."""

    terms: Mapping[str, tuple[re.Pattern, Mapping[str, str]]]  # act -> (any term, term -> doc)

    @classmethod
    def from_table(cls, frame: pd.DataFrame) -> Definitions:
        terms: dict[str, tuple[re.Pattern, Mapping[str, str]]] = {}
        for act, rows in frame.groupby("act_code", sort=True):
            doc_of = {str(term).lower(): f"{act}:{section}" for term, section in
                      zip(rows["term"], rows["section_number"], strict=True)
                      if len(str(term)) >= 3}
            if doc_of:
                # longest first, so 'wrongful confinement' wins over 'wrongful'
                alternation = "|".join(re.escape(t) for t in sorted(doc_of, key=lambda t:
                                                                    (-len(t), t)))
                terms[str(act)] = (re.compile(rf"\b(?:{alternation})\b", re.IGNORECASE), doc_of)
        return cls(terms)

    def expand(self, hits: Sequence[Hit], text: Callable[[str], str],
               exists: Callable[[str], bool], max_added: int = 3, scan: int = 10) -> list[Hit]:
        """The hits, then up to `max_added` definition sections of the Acts of the top `scan`
        hits whose text uses a term they define, each scored just below the first hit that
        uses it (method `definition`). A section never brings itself."""
        present = {hit.doc_id for hit in hits}
        added: list[Hit] = []
        for hit in hits[:scan]:
            act = hit.doc_id.split(":", 1)[0]
            if act not in self.terms or len(added) >= max_added:
                continue
            pattern, doc_of = self.terms[act]
            for match in pattern.finditer(text(hit.doc_id)):
                target = doc_of[match.group(0).lower()]
                if target not in present and exists(target) and len(added) < max_added:
                    present.add(target)
                    added.append(Hit(target, hit.score * 0.999, "definition"))
        return ranked([*hits, *added])
