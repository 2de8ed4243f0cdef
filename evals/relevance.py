"""Calibration of the relevance judge's thresholds on a labeled set, and the judge that knows
the labeled sets' qrels (`nyaya.verify.relevance` explains the score and what was found).

Run `NYAYA_DATA=data .venv/bin/python -m evals.relevance` to print the calibration on a
warehouse: the source of T_LOW and T_HIGH."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass
from itertools import pairwise

from evals.querysets import QuerySet, load_queryset
from evals.tuning import HELDOUT, TRAIN, split_of
from nyaya.settings import Settings
from nyaya.verify.model import NOT_APPLICABLE, RELEVANT, TANGENTIAL
from nyaya.verify.relevance import (
    MIN_REMOVAL_PRECISION,
    NEGATIVE_DEPTH,
    RelevanceJudge,
    doc_key,
)

#: the sets whose queries the judge answers from their qrels
LABELED_SETS = ("nyaya-statutes",)


def labeled_judge(settings: Settings) -> RelevanceJudge:
    """The judge over the warehouse tables, with the labeled sets' qrels."""
    return RelevanceJudge.from_settings(settings, [load_queryset(name) for name in LABELED_SETS])


CLASSES = (RELEVANT, TANGENTIAL, NOT_APPLICABLE)


def gold_class(grade: int) -> str:
    return RELEVANT if grade >= 2 else TANGENTIAL if grade == 1 else NOT_APPLICABLE


def classify(score: float, t_low: float, t_high: float) -> str:
    return RELEVANT if score >= t_high else TANGENTIAL if score >= t_low else NOT_APPLICABLE


@dataclass(frozen=True)
class LabeledPair:
    qid: str
    act_code: str
    section_number: str
    grade: int  # 0 for an unjudged negative
    origin: str  # judged | retrieved (top BM25 hit) | neighbour (next to a judged section)
    score: float


def calibration_pairs(judge: RelevanceJudge, queryset: QuerySet,
                      depth: int = NEGATIVE_DEPTH) -> list[LabeledPair]:
    """Every judged pair of the set's judged queries, with the score path's score, plus as
    negatives what a plain retrieval or a near miss would cite: the query's top `depth` BM25
    sections and the Act neighbours of its judged sections, when unjudged."""
    pairs = []
    text = dict(zip(queryset.queries["qid"], queryset.queries["query"], strict=True))
    for qid in sorted(queryset.qrels):
        grades = {doc_key(doc): grade for doc, grade in queryset.qrels[qid].items()}
        origins = dict.fromkeys(grades, "judged")
        for key in judge.top_sections(text[qid], depth):
            origins.setdefault(key, "retrieved")
        for key in list(grades):
            for near in judge.neighbours(*key):
                origins.setdefault(near, "neighbour")
        pairs += [LabeledPair(qid, act, section, grades.get((act, section), 0), origin,
                              judge.score(text[qid], act, section).total)
                  for (act, section), origin in origins.items()]
    return pairs


def _cuts(scores: Sequence[float]) -> list[float]:
    """Candidate thresholds: the lowest score, the midpoints between distinct scores and one
    above the highest (so that 'nothing reaches it' is a candidate too)."""
    values = sorted(set(scores))
    middles = [round((a + b) / 2, 4) for a, b in pairwise(values)]
    return [values[0], *middles, values[-1] + 1.0]


def class_figures(scores: Sequence[float], grades: Sequence[int], t_low: float,
                  t_high: float) -> dict[str, dict[str, float]]:
    """Precision, recall and support (gold pairs) per class at the given thresholds."""
    gold = [gold_class(g) for g in grades]
    predicted = [classify(s, t_low, t_high) for s in scores]
    figures = {}
    for name in CLASSES:
        hits = sum(p == g == name for p, g in zip(predicted, gold, strict=True))
        said, support = predicted.count(name), gold.count(name)
        figures[name] = {"precision": round(hits / said, 3) if said else 0.0,
                         "recall": round(hits / support, 3) if support else 0.0,
                         "support": support}
    return figures


def _macro_f1(figures: dict[str, dict[str, float]]) -> float:
    f1 = [2 * f["precision"] * f["recall"] / (f["precision"] + f["recall"])
          if f["precision"] + f["recall"] else 0.0 for f in figures.values()]
    return sum(f1) / len(f1)


def removal_precision(scores: Sequence[float], grades: Sequence[int], cut: float) -> float:
    """Share of the pairs scoring below `cut` that are not relevant (1.0 when none is)."""
    below = [g for s, g in zip(scores, grades, strict=True) if s < cut]
    return sum(g < 1 for g in below) / len(below) if below else 1.0


def fit_thresholds(scores: Sequence[float], grades: Sequence[int],
                   min_precision: float = MIN_REMOVAL_PRECISION) -> tuple[float, float]:
    """(t_low, t_high): t_low the highest cut whose removals (pairs below it) are at least
    `min_precision` unjudged; t_high the cut at or above it with the best macro F1 of the three
    classes, the lowest on a tie."""
    if not any(g >= 1 for g in grades):
        raise ValueError("no judged pair to calibrate on")
    cuts = _cuts(scores)
    t_low = max(c for c in cuts if removal_precision(scores, grades, c) >= min_precision)
    t_high = max((c for c in cuts if c >= t_low),
                 key=lambda c: (round(_macro_f1(class_figures(scores, grades, t_low, c)), 9), -c))
    return t_low, t_high


@dataclass(frozen=True)
class Calibration:
    t_low: float
    t_high: float
    figures: dict[str, dict[str, dict[str, float]]]  # split -> class -> precision/recall/support
    removed: dict[str, dict[str, float]]  # split -> pair origin -> share judged NOT_APPLICABLE
    queries: dict[str, int]  # split -> judged queries


def calibrate(judge: RelevanceJudge, queryset: QuerySet,
              min_precision: float = MIN_REMOVAL_PRECISION) -> Calibration:
    """Fit the thresholds on the training half of `queryset` (evals.tuning.split_of) and report
    both halves; the held-out figures are the fair ones."""
    pairs = calibration_pairs(judge, queryset)
    halves = {split: [p for p in pairs if split_of(p.qid) == split] for split in (TRAIN, HELDOUT)}
    train = halves[TRAIN]
    t_low, t_high = fit_thresholds([p.score for p in train], [p.grade for p in train],
                                   min_precision)
    figures, removed = {}, {}
    for split, half in halves.items():
        figures[split] = class_figures([p.score for p in half], [p.grade for p in half],
                                       t_low, t_high)
        by_origin: dict[str, list[bool]] = {}
        for p in half:
            by_origin.setdefault(p.origin, []).append(
                classify(p.score, t_low, t_high) == NOT_APPLICABLE)
        removed[split] = {origin: round(sum(flags) / len(flags), 3)
                          for origin, flags in sorted(by_origin.items())}
    queries = {split: len({p.qid for p in half}) for split, half in halves.items()}
    return Calibration(t_low, t_high, figures, removed, queries)


def main() -> None:
    """Print the calibration on the warehouse of NYAYA_DATA (the source of T_LOW and T_HIGH)."""
    import json

    result = calibrate(labeled_judge(Settings.from_env()), load_queryset(LABELED_SETS[0]))
    print(json.dumps(asdict(result), indent=2))


if __name__ == "__main__":
    main()
