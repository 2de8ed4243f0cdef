"""The relevance judge's BM25 over every section (title and text), kept on disk by the
`judge_sections_index` asset and loaded by every later process. Apart from the judge, so that
the asset's code version does not follow what only the judge reads (its law's words)."""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path

from nyaya.retrieval import tokenize as tokenize_module
from nyaya.retrieval.bm25 import BM25Retriever
from nyaya.settings import Settings
from nyaya.tables import read_table, records


def section_index_dir(warehouse: Path) -> Path:
    """Where the `judge_sections_index` asset keeps the judge's BM25 over the sections."""
    return warehouse.parent / "bm25" / "judge_sections"


def section_index_stamp(texts: Sequence[str]) -> str:
    """What that index is built from: the texts themselves (each section's title and text)
    and the tokenizer's code."""
    digest = hashlib.sha256(Path(tokenize_module.__file__).read_bytes())
    for text in texts:
        digest.update(text.encode() + b"\0")
    return digest.hexdigest()


def section_texts(sections: Iterable[dict]) -> list[str]:
    """What the judge's lexical match reads of each section: its title and its text."""
    return [f"{row.get('title') or ''} {row.get('text') or ''}" for row in sections]


def index_sections(settings: Settings) -> BM25Retriever:
    """Index every section of the sections table as the judge reads it and keep the index in
    `section_index_dir`, for every later process to load (about 5 s of the 37,464
    sections)."""
    sections = read_table(settings.table_path("sections"), ["title", "text"])
    index = sections_bm25(tuple(section_texts(records(sections))), None)
    index.save(section_index_dir(settings.warehouse), section_index_stamp(index.texts))
    return index


@lru_cache(maxsize=2)
def sections_bm25(texts: tuple[str, ...], warehouse: Path | None) -> BM25Retriever:
    """BM25 over the sections' texts (doc ids: their rows), once per process for the same
    texts: the judges of the ranker, the relevance model, the runs and the verification rates
    share it. The index `index_sections` kept in `warehouse`'s data folder when it is of
    these texts, else indexed here (about 5 s of the full table; not kept)."""
    rows = [str(row) for row in range(len(texts))]
    kept = (BM25Retriever.load(section_index_dir(warehouse), section_index_stamp(texts), rows,
                               texts) if warehouse is not None else None)
    return kept or BM25Retriever(rows, texts)
