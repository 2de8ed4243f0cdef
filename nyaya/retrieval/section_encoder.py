"""A dense encoder adapted to Indian statute text (issue 19): the static model distilled from the
packaged MiniLM, trained on the corpus's own citations (a judgment's passage against the
sections it cites; evals/dense_training.py), kept with the sections it embedded.

The packaged MiniLM never saw Indian legal text and no better model is to be had here; a
static model trains on CPU in about a minute. The sections' vectors are stored with the model
(37,464 sections: 37 MB, against seconds to encode them at every load), with the ids they were
encoded for, so a search refuses vectors that no longer match the sections table.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd

from nyaya.retrieval.dense import ExactDenseRetriever
from nyaya.settings import Settings

#: a section's text is cut here before encoding: the static model reads 512 tokens at most
SECTION_CHARS = 2000
ASSET = "section_encoder"
FORMAT = 1


def section_texts(documents: pd.DataFrame) -> list[str]:
    """What the encoder reads of each section (the documents' text: title and body), cut."""
    return documents["text"].fillna("").str.slice(0, SECTION_CHARS).tolist()


def ids_digest(doc_ids: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(doc_ids).encode()).hexdigest()[:16]


def _unit(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    return vectors / (np.linalg.norm(vectors, axis=1, keepdims=True) + 1e-9)


@dataclass
class SectionEncoder:
    """The trained static model and the unit vectors of the sections it encoded (rows aligned
    with `doc_ids`); `figures` records how it was trained."""

    model: Any  # a model2vec StaticModel
    doc_ids: list[str]
    vectors: np.ndarray
    figures: dict = field(default_factory=dict)

    @classmethod
    def encoding(cls, model: Any, documents: pd.DataFrame, figures: dict | None = None
                 ) -> SectionEncoder:
        """`model` with every section of `documents` (a legal_sections_documents table)
        encoded."""
        encoder = cls(model, documents["doc_id"].tolist(), np.zeros((0, 0), np.float32),
                      dict(figures or {}))
        encoder.vectors = encoder.encode(section_texts(documents))
        return encoder

    def encode(self, texts: Sequence[str]) -> np.ndarray:
        """Unit vectors, one row per text."""
        if not texts:
            return np.zeros((0, int(self.model.dim)), dtype=np.float32)
        return _unit(self.model.encode(list(texts), show_progress_bar=False))

    def retriever(self, allowed: Sequence[bool], name: str) -> ExactDenseRetriever:
        """Exact search over the sections `allowed` marks (aligned with `doc_ids`)."""
        keep = np.asarray(allowed, dtype=bool)
        if len(keep) != len(self.doc_ids):
            raise ValueError(f"{len(keep)} flags for {len(self.doc_ids)} encoded sections")
        return ExactDenseRetriever([doc for doc, kept in zip(self.doc_ids, keep, strict=True)
                                    if kept], self.vectors[keep], name)

    def save(self, folder: Path) -> None:
        """The model, the vectors and what they are, written to a fresh folder then moved in
        place: a reader never sees half of a new encoder."""
        folder.parent.mkdir(parents=True, exist_ok=True)
        staging = folder.with_name(folder.name + ".writing")
        shutil.rmtree(staging, ignore_errors=True)
        self.model.save_pretrained(str(staging / "model"))
        np.save(staging / "sections.npy", self.vectors)
        (staging / "encoder.json").write_text(json.dumps({
            "format": FORMAT, "doc_ids": self.doc_ids, "ids_digest": ids_digest(self.doc_ids),
            "figures": self.figures}, default=str))
        shutil.rmtree(folder, ignore_errors=True)
        staging.rename(folder)

    @classmethod
    def load(cls, folder: Path, doc_ids: Sequence[str]) -> SectionEncoder:
        """The encoder the section_encoder asset wrote, for the sections `doc_ids` (the
        sections table now): FileNotFoundError when there is none, ValueError when it encoded
        other sections or was written in another format; each names the asset to rebuild."""
        from model2vec import StaticModel

        meta_path = folder / "encoder.json"
        if not meta_path.is_file():
            raise FileNotFoundError(f"no trained section encoder at {folder}: build it with "
                                    f"`make run` (the {ASSET} asset)")
        meta = json.loads(meta_path.read_text())
        if meta.get("format") != FORMAT:
            raise ValueError(f"{meta_path}: written in format {meta.get('format')!r}, this "
                             f"code reads {FORMAT}: rebuild the {ASSET} asset (`make run`)")
        if meta["ids_digest"] != ids_digest(list(doc_ids)):
            raise ValueError(f"{folder} encoded {len(meta['doc_ids']):,} sections, not the "
                             f"{len(doc_ids):,} of the sections table now: rebuild the "
                             f"{ASSET} asset (`make run`)")
        vectors = np.load(folder / "sections.npy")
        if vectors.shape[0] != len(meta["doc_ids"]):
            raise ValueError(f"{folder / 'sections.npy'}: {vectors.shape[0]:,} vectors for "
                             f"{len(meta['doc_ids']):,} sections: rebuild the {ASSET} asset")
        return cls(StaticModel.from_pretrained(str(folder / "model")), list(meta["doc_ids"]),
                   vectors, meta.get("figures", {}))


def encoder_path(settings: Settings) -> Path:
    """Where the section_encoder asset writes the encoder: with the other trained models."""
    return settings.data_dir / "trained" / "section-encoder"
