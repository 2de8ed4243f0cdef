"""What the two relevance judges share (`nyaya.verify.relevance` for sections,
`nyaya.verify.precedents` for cases): the verdict record, the kinds of query, the cuts on a
model's probability and the trained model with its file; and the section ranker's model
(`nyaya.verify.ranker`), stored the same way."""

from __future__ import annotations

import pickle
from dataclasses import asdict, dataclass, field
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
from threadpoolctl import ThreadpoolController

from nyaya.retrieval.base import PASSAGE_WORDS
from nyaya.settings import Settings
from nyaya.verify.model import NOT_APPLICABLE, RELEVANT, TANGENTIAL

SOURCE_MODEL = "model"
QUESTION, PASSAGE = "question", "passage"
#: 2 since the section ranker became a LightGBM lambdarank model (2026-12-06): a file of
#: format 1 holds a classifier whose scores mean something else
MODEL_FORMAT = 2
#: Up to this many rows are predicted on one thread: the trees' OpenMP start-up for a few
#: rows costs more than the work, and far more when another process holds the cores.
ONE_THREAD_ROWS = 256


@cache
def _threads() -> ThreadpoolController:
    return ThreadpoolController()


def kind_of(words: int) -> str:
    """The kind of a query of so many words: each kind has cuts of its own."""
    return PASSAGE if words > PASSAGE_WORDS else QUESTION


@dataclass(frozen=True)
class Relevance:
    """One (query, section) judgment; `reason` says why and what to do."""

    verdict: str  # RELEVANT | TANGENTIAL | NOT_APPLICABLE
    reason: str
    source: str  # "qrels" | "model"
    score: float | None = None  # the model's probability that the section is relevant

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Cuts:
    """NOT_APPLICABLE below `low`, RELEVANT at or above `high`, TANGENTIAL between, on the
    model's probability."""

    low: float
    high: float

    def __post_init__(self) -> None:
        if self.low > self.high:
            raise ValueError(f"removal cut {self.low} is above the relevant cut {self.high}")

    def verdict(self, probability: float) -> str:
        return (RELEVANT if probability >= self.high else
                TANGENTIAL if probability >= self.low else NOT_APPLICABLE)


@dataclass(frozen=True)
class RelevanceModel:
    """A fitted classifier (anything with `predict_proba` over the `features` columns) and the
    cuts of each kind of query it was trained for; `figures` records how it was trained and
    how it did. The statute judge's model reads PairFeatures.NAMES, the precedent judge's
    `nyaya.verify.precedents.PrecedentFeatures.NAMES`."""

    classifier: Any
    cuts: dict[str, Cuts]
    features: tuple[str, ...]
    figures: dict = field(default_factory=dict)

    def __post_init__(self) -> None:
        unknown = set(self.cuts) - {QUESTION, PASSAGE}
        if not self.cuts or unknown:
            raise ValueError(f"cuts for {sorted(self.cuts)}: expected {QUESTION} and/or "
                             f"{PASSAGE} queries")

    def probabilities(self, matrix: pd.DataFrame) -> np.ndarray:
        """P(relevant) of each row of features (the `features` columns)."""
        return _predicted(self.classifier, matrix, self.features)

    def save(self, path: Path) -> None:
        _save(self, path)

    @classmethod
    def load(cls, path: Path, features: tuple[str, ...]) -> RelevanceModel:
        """The model the relevance_model asset wrote; FileNotFoundError naming the asset when
        there is none, ValueError when it was written for other `features`."""
        return _load(cls, path, features, "relevance_model")


@dataclass(frozen=True)
class RankingModel:
    """A fitted ranker (anything with `predict` over the `features` columns) whose score
    orders a retrieval's candidates (`nyaya.verify.ranker`); `figures` records how it was
    trained."""

    ranker: Any
    features: tuple[str, ...]
    figures: dict = field(default_factory=dict)

    def scores(self, matrix: pd.DataFrame) -> np.ndarray:
        """Each row's score (the `features` columns): higher ranks first. Only an order, not
        a probability."""
        if not len(matrix):
            return np.zeros(0)
        return np.asarray(self.ranker.predict(matrix[list(self.features)]), dtype=float)

    def save(self, path: Path) -> None:
        _save(self, path)

    @classmethod
    def load(cls, path: Path, features: tuple[str, ...]) -> RankingModel:
        """The model the section_ranker asset wrote; FileNotFoundError naming the asset when
        there is none, ValueError when it was written for other `features`."""
        return _load(cls, path, features, "section_ranker")


def _predicted(classifier: Any, matrix: pd.DataFrame, features: tuple[str, ...]
               ) -> np.ndarray:
    if not len(matrix):
        return np.zeros(0)
    columns = matrix[list(features)]
    if len(matrix) > ONE_THREAD_ROWS:
        return classifier.predict_proba(columns)[:, 1]
    with _threads().limit(limits=1, user_api="openmp"):
        return classifier.predict_proba(columns)[:, 1]


def _save(model: RelevanceModel | RankingModel, path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as handle:
        pickle.dump({"format": MODEL_FORMAT, "model": model}, handle)


def _load(cls: type, path: Path, features: tuple[str, ...], asset: str) -> Any:
    if not path.is_file():
        raise FileNotFoundError(f"no {'ranking' if cls is RankingModel else 'relevance'} "
                                f"model at {path}: build it with `make run` (the {asset} "
                                "asset)")
    with path.open("rb") as handle:
        stored = pickle.load(handle)  # our own asset's output, in our data folder
    model = stored.get("model") if stored.get("format") == MODEL_FORMAT else None
    if not isinstance(model, cls) or model.features != features:
        raise ValueError(f"{path} was written by another version or trained for other "
                         f"features: rebuild the {asset} asset (`make run`)")
    return model


def ranker_path(settings: Settings) -> Path:
    """Where the section_ranker asset writes its model, beside the relevance models."""
    return settings.data_dir / "trained" / "ranker-statutes.pkl"


def model_path(settings: Settings, name: str = "statutes") -> Path:
    """Where the relevance_model asset writes a model ("statutes" or "precedents"): with the
    data it was trained on, not in the models folder, which caches packaged and distilled
    embedders and may be shared."""
    return settings.data_dir / "trained" / f"relevance-{name}.pkl"
