"""Readers for the JSON sources: the repealed IPC / CrPC / IEA and the Constitution.

Each reader returns sections plus quarantined records; a file that is not valid JSON
raises CorpusFormatError with the line the decoder stopped at.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from pathlib import Path

from nyaya.statutes.indiacode import normalize_section_number, read_text
from nyaya.statutes.model import (
    IN_FORCE,
    OMITTED,
    REPEALED,
    CorpusFormatError,
    Quarantined,
    SectionRecord,
)
from nyaya.statutes.omissions import stub_status

ROMAN = [(1000, "M"), (900, "CM"), (500, "D"), (400, "CD"), (100, "C"), (90, "XC"),
         (50, "L"), (40, "XL"), (10, "X"), (9, "IX"), (5, "V"), (4, "IV"), (1, "I")]
OMITTED_TEXT = re.compile(r"^\W*\d*\W*(omitted|repealed)\b", re.IGNORECASE)
SECTION_NUMBER = re.compile(r"^\d+[A-Z]{0,3}$")


def to_roman(number: int) -> str:
    out = []
    for value, letters in ROMAN:
        count, number = divmod(number, value)
        out.append(letters * count)
    return "".join(out)


def _load_json(path: Path, rel: str) -> object:
    try:
        return json.loads(read_text(path, rel))
    except json.JSONDecodeError as err:
        raise CorpusFormatError(rel, err.lineno, f"invalid JSON: {err.msg}") from err


def load_list(corpus_root: Path, rel: str, what: str) -> list:
    """A JSON source that must be a list; anything else is refused by file, not by `.get`."""
    data = _load_json(corpus_root / rel, rel)
    if not isinstance(data, list):
        raise CorpusFormatError(rel, 1, f"expected a JSON list of {what}")
    return data


def _load_jsonl(path: Path, rel: str) -> Iterable[tuple[int, object]]:
    for number, line in enumerate(read_text(path, rel).splitlines(), start=1):
        if not line.strip():
            continue
        try:
            yield number, json.loads(line)
        except json.JSONDecodeError as err:
            raise CorpusFormatError(rel, number, f"invalid JSON line: {err.msg}") from err


def _strip_heading(text: str, number: str) -> str:
    """IPC full_text repeats '302. Punishment for murder.—' before the body; drop it."""
    match = re.match(rf"^\s*(?:\d+\[)?{re.escape(number)}\.\s*[^—]{{0,300}}?—", text)
    return text[match.end():].strip() if match else text.strip()


class _Collector:
    """Builds sections from raw records, quarantining bad or repeated ones."""

    def __init__(self, act_code: str, rel: str) -> None:
        self.act_code, self.rel = act_code, rel
        self.sections: list[SectionRecord] = []
        self.quarantined: list[Quarantined] = []
        self._seen: dict[str, int] = {}

    def reject(self, line: int | None, number: str | None, reason: str, detail: str,
               excerpt: str = "") -> None:
        self.quarantined.append(Quarantined(self.rel, line, self.act_code, number, reason,
                                            detail, excerpt[:500]))

    def add(self, line: int, number: str, title: str, text: str, chapter: str | None,
            chapter_title: str | None, status: str) -> None:
        key = normalize_section_number(number)
        if key in self._seen:
            self.reject(line, number, "duplicate_section_number",
                        f"section {number} repeats record {self._seen[key]}; the first was kept",
                        text)
            return
        self._seen[key] = line
        if OMITTED_TEXT.match(title) or OMITTED_TEXT.match(text):
            status = OMITTED
        elif status == IN_FORCE:
            status = stub_status(text) or status
        self.sections.append(SectionRecord(
            act_code=self.act_code, section_number=number, title=title.strip().rstrip("."),
            text=text, chapter_number=chapter, chapter_title=chapter_title, footnotes="",
            status=status, extraction_confidence=1.0, source_file=self.rel, source_line=line,
        ))


def _require(record: object, fields: tuple[str, ...]) -> str | None:
    if not isinstance(record, dict):
        return f"expected an object, got {type(record).__name__}"
    missing = [f for f in fields if record.get(f) in (None, "")]
    return f"missing field(s): {', '.join(missing)}" if missing else None


def read_ipc(corpus_root: Path, rel: str, act_code: str) -> _Collector:
    """IPC 1860 from JSON lines (section_number, section_title, chapter_*, full_text)."""
    out = _Collector(act_code, rel)
    fields = ("section_number", "section_title", "full_text")
    for line, record in _load_jsonl(corpus_root / rel, rel):
        problem = _require(record, fields)
        if problem:
            number = record.get("section_number") if isinstance(record, dict) else None
            out.reject(line, number, "bad_record", problem, json.dumps(record)[:500])
            continue
        number = str(record["section_number"]).strip()
        out.add(line, number, record["section_title"],
                _strip_heading(record["full_text"], number),
                record.get("chapter_number"), record.get("chapter_title"), REPEALED)
    return out


def read_code_json(corpus_root: Path, rel: str, act_code: str) -> _Collector:
    """CrPC 1973 / IEA 1872 from a JSON list (chapter, section, section_title, section_desc).

    The list has no line numbers per record, so source_line is the 1-based record index.
    """
    out = _Collector(act_code, rel)
    for index, record in enumerate(load_list(corpus_root, rel, "sections"), start=1):
        problem = _require(record, ("section", "section_title", "section_desc"))
        number = str(record.get("section", "")).strip() if isinstance(record, dict) else ""
        if not problem and not SECTION_NUMBER.match(number):
            problem = f"section number {number!r} is not a section number"
        if problem:
            out.reject(index, number or None, "bad_record", f"record {index}: {problem}",
                       json.dumps(record)[:500])
            continue
        chapter = record.get("chapter")
        out.add(index, number, record["section_title"], record["section_desc"].strip(),
                to_roman(chapter) if isinstance(chapter, int) else chapter, None, REPEALED)
    return out


def read_constitution(corpus_root: Path, rel: str, act_code: str) -> _Collector:
    """Articles of the Constitution; the Preamble (article 0) is kept as 'Preamble'."""
    out = _Collector(act_code, rel)
    for index, record in enumerate(load_list(corpus_root, rel, "articles"), start=1):
        problem = _require(record, ("article", "title", "description"))
        if problem:
            out.reject(index, None, "bad_record", f"record {index}: {problem}",
                       json.dumps(record)[:500])
            continue
        number = "Preamble" if str(record["article"]) == "0" else str(record["article"]).strip()
        part = str(record.get("part", "")).strip()
        part_label = f"Part {_part_roman(part)}" if part else None
        out.add(index, number, record["title"], record["description"].strip(), part_label,
                record.get("part_title"), IN_FORCE)
    return out


def _part_roman(part: str) -> str:
    """Constitution Parts print as roman numerals with a letter suffix: 4A -> IVA."""
    match = re.match(r"^(\d+)([A-Z]?)$", part)
    return f"{to_roman(int(match[1]))}{match[2]}" if match else part
