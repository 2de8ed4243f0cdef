"""Reader for the India Code Markdown Acts (`statutes/indiacode/<slug>/part-NNN.md`).

Each part file carries YAML front matter; most Acts then have one `## Section N - Title.`
heading per section with `### Footnotes` under it. Acts without section headings (only
`## Page N` blocks of PDF text) are handed to `pagetext.parse_page_text_act`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path

from nyaya.statutes.model import (
    IN_FORCE,
    OMITTED,
    REPEALED,
    CorpusFormatError,
    Quarantined,
    SectionRecord,
    SourceLine,
)
from nyaya.statutes.omissions import stub_status

PART_FILE = re.compile(r"^part-(\d{3})\.md$")
SECTION_HEADING = re.compile(
    r"^## Section (?P<number>[0-9A-Za-z][0-9A-Za-z.\-]*?)\.?(?: - (?P<title>.*))?$"
)
FOOTNOTES_HEADING = "### Footnotes"
# The Tea Act prints "## Section 16 - I. Power of ..." for section 16-I; the body confirms it.
SPLIT_LETTER_TITLE = re.compile(r"^(?P<letter>[A-Z]{1,2})\. (?P<title>.+)$")
OMITTED_TITLE = re.compile(r"^\[?\s*(omitted|repealed)\b", re.IGNORECASE)
REQUIRED_FRONT_MATTER = ("title", "part", "parts")


@dataclass(frozen=True)
class ActPart:
    """One part file: its front matter and body lines (with their line numbers)."""

    source_file: str
    front_matter: dict[str, str]
    body: list[SourceLine]


@dataclass(frozen=True)
class ActDocument:
    """All parts of one Act, in order."""

    slug: str
    title: str
    source_url: str | None
    parts: list[ActPart]

    @cached_property
    def lines(self) -> list[SourceLine]:
        return [line for part in self.parts for line in part.body]

    @property
    def has_section_headings(self) -> bool:
        return any(line.text.startswith("## Section ") for line in self.lines)


def read_text(path: Path, rel: str) -> str:
    """Decode a corpus file as UTF-8, naming the line of the first undecodable byte."""
    if not path.is_file():
        raise CorpusFormatError(rel, None, "file is missing")
    data = path.read_bytes()
    if not data.strip():
        raise CorpusFormatError(rel, None, "file is empty")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise CorpusFormatError(
            rel, line, f"not valid UTF-8 (byte 0x{data[err.start]:02x} at offset {err.start})"
        ) from err


def parse_front_matter(text: str, rel: str) -> tuple[dict[str, str], list[SourceLine]]:
    """Split `---` YAML-style front matter (flat `key: value` lines) from the body."""
    lines = text.splitlines()
    if not lines or lines[0].strip() != "---":
        raise CorpusFormatError(rel, 1, "front matter missing: the file must start with '---'")
    meta: dict[str, str] = {}
    for index in range(1, len(lines)):
        raw = lines[index]
        if raw.strip() == "---":
            missing = [key for key in REQUIRED_FRONT_MATTER if key not in meta]
            if missing:
                raise CorpusFormatError(
                    rel, index + 1, f"front matter lacks required keys: {', '.join(missing)}"
                )
            body = [SourceLine(rel, n + 1, lines[n]) for n in range(index + 1, len(lines))]
            return meta, body
        key, sep, value = raw.partition(":")
        if not sep or not key.strip() or " " in key.strip():
            raise CorpusFormatError(rel, index + 1, f"bad front matter line: {raw[:80]!r}")
        meta[key.strip()] = value.strip().strip('"')
    raise CorpusFormatError(rel, len(lines), "front matter is not closed by '---'")


def read_act(act_dir: Path, corpus_root: Path) -> ActDocument:
    """Read every part of one Act; raise CorpusFormatError naming the first bad file."""
    part_paths = sorted(p for p in act_dir.iterdir() if PART_FILE.match(p.name))
    if not part_paths:
        raise CorpusFormatError(str(act_dir.relative_to(corpus_root)), None, "no part-NNN.md files")
    parts = []
    for path in part_paths:
        rel = str(path.relative_to(corpus_root))
        meta, body = parse_front_matter(read_text(path, rel), rel)
        parts.append(ActPart(rel, meta, body))
    declared = parts[0].front_matter.get("parts", "")
    if declared.isdigit() and int(declared) != len(parts):
        raise CorpusFormatError(
            parts[0].source_file, None,
            f"front matter says parts: {declared} but {len(parts)} part files exist",
        )
    first = parts[0].front_matter
    return ActDocument(act_dir.name, _title(first), first.get("source"), parts)


def _title(front_matter: dict[str, str]) -> str:
    return front_matter["title"].strip().rstrip(".")


def read_title(act_dir: Path, corpus_root: Path) -> str | None:
    """The Act's title from its first part's front matter alone (None where that is
    unreadable): what act codes are derived from, without parsing the whole Act."""
    part_paths = sorted(p for p in act_dir.iterdir() if PART_FILE.match(p.name))
    if not part_paths:
        return None
    rel = str(part_paths[0].relative_to(corpus_root))
    try:
        return _title(parse_front_matter(read_text(part_paths[0], rel), rel)[0])
    except CorpusFormatError:
        return None


def _status(title: str, text: str) -> str:
    if OMITTED_TITLE.match(title):
        return REPEALED if title.lower().lstrip("[ ").startswith("repealed") else OMITTED
    return stub_status(text) or IN_FORCE


def _number_and_title(number: str, title: str, body: list[str]) -> tuple[str, str]:
    split = SPLIT_LETTER_TITLE.match(title)
    if split:
        joined = f"{number}-{split['letter']}"
        head = next((line for line in body if line.strip()), "")
        if re.search(rf"\b{re.escape(number)}-?{split['letter']}\.", head):
            return joined, split["title"]
    return number, title


def parse_section_headings(doc: ActDocument, act_code: str) -> tuple[list[SectionRecord],
                                                                    list[Quarantined]]:
    """Sections of an Act with clean `## Section` headings (extraction_confidence 1.0).

    A repeated section number keeps the first occurrence and quarantines the others with
    their text, so a person can decide; an identical repeat is quarantined as a duplicate too.
    """
    records: list[SectionRecord] = []
    quarantined: list[Quarantined] = []
    seen: dict[str, SectionRecord] = {}
    current: dict | None = None

    def flush() -> None:
        if current is None:
            return
        text_lines, note_lines = current["text"], current["notes"]
        number, title = _number_and_title(current["number"], current["title"], text_lines)
        text = "\n".join(text_lines).strip()
        record = SectionRecord(
            act_code=act_code,
            section_number=number,
            title=title.rstrip(".").strip(),
            text=text,
            chapter_number=None,
            chapter_title=None,
            footnotes="\n".join(note_lines).strip(),
            status=_status(title, text),
            extraction_confidence=1.0,
            source_file=current["file"],
            source_line=current["line"],
        )
        if not text and record.status == IN_FORCE:
            quarantined.append(Quarantined(
                source_file=record.source_file, source_line=record.source_line,
                act_code=act_code, section_number=number, reason="section_text_missing",
                detail=f"the source has the heading '{record.title}' but no text under it",
                excerpt=record.footnotes[:500],
            ))
            return
        key = normalize_section_number(number)
        if key in seen:
            first = seen[key]
            same = first.text == record.text
            quarantined.append(Quarantined(
                source_file=record.source_file, source_line=record.source_line,
                act_code=act_code, section_number=number,
                reason="duplicate_section_number",
                detail=(f"section {number} appears again ({'identical' if same else 'different'}"
                        f" text); first at {first.source_file}:{first.source_line} was kept"),
                excerpt=record.text[:500],
            ))
            return
        seen[key] = record
        records.append(record)

    for line in doc.lines:
        heading = SECTION_HEADING.match(line.text)
        if heading:
            flush()
            current = {"number": heading["number"], "title": heading["title"] or "",
                       "file": line.source_file, "line": line.line, "text": [], "notes": [],
                       "in_notes": False}
            continue
        if current is None:
            continue
        if line.text.strip() == FOOTNOTES_HEADING:
            current["in_notes"] = True
        elif line.text.startswith("## ") or line.text.startswith("# "):
            flush()
            current = None
        else:
            current["notes" if current["in_notes"] else "text"].append(line.text)
    flush()
    if not records:
        quarantined.append(Quarantined(
            source_file=doc.parts[0].source_file, source_line=None, act_code=act_code,
            section_number=None, reason="no_sections_found",
            detail=f"{doc.title}: no '## Section' headings and no page text could be parsed",
        ))
    return records, quarantined


def normalize_section_number(number: str) -> str:
    """Canonical key for lookups: '304-A', '304 A' and '304a' all become '304A'."""
    return re.sub(r"[\s\-.]", "", number).upper()
