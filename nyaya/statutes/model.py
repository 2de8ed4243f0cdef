"""Records shared by every statute parser.

Parsers never drop input silently: a record is either a `SectionRecord` or a `Quarantined`
row that names the file, the line and what is wrong with it.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass

IN_FORCE = "in_force"
OMITTED = "omitted"
REPEALED = "repealed"


class CorpusFormatError(ValueError):
    """A corpus file that cannot be read as its format says; names the file and line."""

    def __init__(self, path: str, line: int | None, message: str) -> None:
        self.path = path
        self.line = line
        self.message = message
        where = f"{path}:{line}" if line is not None else path
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True)
class SectionRecord:
    """One section of an Act (or one Article of the Constitution)."""

    act_code: str
    section_number: str  # as printed: "103", "304A", "16-I"
    title: str
    text: str
    chapter_number: str | None
    chapter_title: str | None
    footnotes: str
    status: str  # IN_FORCE / OMITTED / REPEALED
    extraction_confidence: float  # 1.0 for a clean heading; lower for page-text recovery
    source_file: str  # relative to the corpus root
    source_line: int  # 1-based line of the heading (or record) in source_file

    def to_row(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class Quarantined:
    """Input that could not become a clean record, kept with the reason."""

    source_file: str
    source_line: int | None
    act_code: str | None
    section_number: str | None
    reason: str  # short code, e.g. "duplicate_section_number", "bad_front_matter"
    detail: str  # a sentence a person can act on
    excerpt: str = ""

    def to_row(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class SourceLine:
    """One line of a corpus file, with where it came from (Acts span several part files)."""

    source_file: str
    line: int  # 1-based
    text: str
