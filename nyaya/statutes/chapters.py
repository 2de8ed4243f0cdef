"""Chapter numbers and titles for BNS, BNSS and BSA from `statutes/chapters/*.csv`.

India Code's pages for the new codes lack chapter headings; the CSVs give section ranges.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass
from pathlib import Path

from nyaya.statutes.indiacode import read_text
from nyaya.statutes.model import CorpusFormatError

CHAPTER_COLUMNS = ("chapter", "chapter_title", "first_section", "last_section")


@dataclass(frozen=True)
class ChapterRange:
    number: str  # roman, without the word CHAPTER: "VI"
    title: str
    first: int
    last: int


def read_chapters(path: Path, rel: str) -> list[ChapterRange]:
    reader = csv.DictReader(io.StringIO(read_text(path, rel)))
    if tuple(reader.fieldnames or ()) != CHAPTER_COLUMNS:
        raise CorpusFormatError(rel, 1, f"expected columns {','.join(CHAPTER_COLUMNS)}")
    out = []
    for line, row in enumerate(reader, start=2):
        try:
            first, last = int(row["first_section"]), int(row["last_section"])
        except (TypeError, ValueError) as err:
            raise CorpusFormatError(rel, line, f"section range is not numeric: {row}") from err
        if first > last:
            raise CorpusFormatError(rel, line, f"first_section {first} > last_section {last}")
        number = re.sub(r"^CHAPTER\s+", "", row["chapter"].strip(), flags=re.IGNORECASE)
        out.append(ChapterRange(number, row["chapter_title"].strip(), first, last))
    return out


def chapter_of(section_number: str, chapters: list[ChapterRange]) -> ChapterRange | None:
    """The chapter whose range holds the section's numeric part ('111A' falls in 111's)."""
    match = re.match(r"\d+", section_number)
    if not match:
        return None
    base = int(match.group())
    return next((c for c in chapters if c.first <= base <= c.last), None)
