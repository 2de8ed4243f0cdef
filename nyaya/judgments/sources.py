"""Read the Supreme Court judgment sources into one record shape, quarantining what is damaged.

Three corpus sources carry judgment text, each with its own header: AILA 2019 case documents
(name, court, date, case number, "The Judgment was delivered by"), IRLeD 2017 prior cases
(a JUDIS header whose first line lost the case title, a bench, CITATION and CITATOR INFO
lines) and IRLeD 2017 current cases (mostly headerless; some keep "IN THE SUPREME COURT OF
INDIA ... X ... Appellant Versus Y ... Respondent"). The SC metadata files are a registry of
titles, dates and citations without text. Any other collection with `doc_id` and `text`
columns comes in through `read_judgment_dataset`.

Damaged input is never dropped and never stops the run: a file that is empty, binary, mostly
undecodable, or has (almost) no text after its header becomes a `Quarantined` row. A file
that is not UTF-8 but reads as cp1252 is kept, with a parse note saying so; one that reads
neither way is decoded as UTF-8 with replacement characters and kept while under 30% of it
is replacement or control characters (one bad byte in a judgment should not cost the
judgment), and quarantined above that.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path, PurePosixPath

from nyaya.judgments.headers import (
    COURT_HEADER,
    DATE_IN_TEXT,
    citation_identity,
    dedupe_judges,
    is_surname_style,
    parse_bench_line,
    parse_citation_line,
    parse_citator,
    parse_court_header,
    parse_date,
    parse_prior_first_line,
    split_case_name,
    split_judge_names,
)
from nyaya.provenance import dataset_fingerprint, files_fingerprint
from nyaya.statutes.model import Quarantined

AILA_DIR = "judgments/aila2019/casedocs"
PRIOR_DIR = "judgments/irled2017/prior_cases"
CURRENT_DIR = "judgments/irled2017/current_cases"
SC_METADATA_DIR = "judgments/sc-metadata"
COURT = "Supreme Court of India"

AILA = "aila2019"
IRLED_PRIOR = "irled2017_prior"
IRLED_CURRENT = "irled2017_current"
CORPUS_SOURCES = (AILA, IRLED_PRIOR, IRLED_CURRENT)
#: the doc id prefix of each judgment folder's files (the parsers below write the same)
DOC_ID_PREFIXES = {AILA_DIR: "AILA:", PRIOR_DIR: "IRLED:", CURRENT_DIR: "IRLED:"}

MIN_BODY_CHARS = 200  # less judgment text than this after the header: truncated or header only
#: The largest file read as one judgment: four times the longest in the corpus (981,442
#: characters). A bigger one is not one judgment (several pasted together, a dump).
MAX_FILE_BYTES = 4_000_000
GARBAGE_LIMIT = 0.30  # share of replacement/control characters above which a file is unreadable
EXCERPT_CHARS = 200


@dataclass(frozen=True)
class JudgmentRecord:
    """One judgment as read from one source, with the header it came from."""

    doc_id: str  # "AILA:C14", "IRLED:prior_case_0001", "IRLED:current_case_0001"
    source: str  # AILA / IRLED_PRIOR / IRLED_CURRENT, or a dataset's source name
    case_name: str | None  # "Masud Khan v. State of Uttar Pradesh"; None where the header lost it
    petitioner: str | None
    respondent: str | None
    court: str
    decision_date: str | None  # ISO yyyy-mm-dd
    year: int | None
    case_number: str | None
    judges: list[str]  # as written, one per judge, deduplicated in order
    header_citations: list[str]  # the judgment's own reporter citations from its header
    citator: list[dict]  # IRLeD prior: {"relation", "citation", "paragraphs"}; empty elsewhere
    text: str  # the judgment body; trailing spaces stripped, the rest as written
    header: str  # the raw header lines consumed, for audit
    source_file: str  # relative to the corpus root
    parse_notes: list[str] = field(default_factory=list)

    def to_row(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class ScCaseRecord:
    """One entry of the Supreme Court registry (sc-metadata): no text, only identity."""

    record_id: str  # "SC:2019 INSC 770"; see `_record_ids` for shared or missing neutral ids
    title: str
    petitioner: str | None
    respondent: str | None
    decision_date: str | None
    year: int | None
    neutral_citation: str | None  # "2019 INSC 770"
    scr_citation: str | None  # raw as given: "[2019] 9 S.C.R. 593"
    source_file: str
    source_line: int

    def to_row(self) -> dict:
        return asdict(self)


# ---------------------------------------------------------------------------------------
# Files

_CONTROL_BYTES = bytes(b for b in range(32) if b not in (9, 10, 12, 13))


def _quarantine(rel: str, reason: str, detail: str, excerpt: str = "",
                line: int | None = None) -> Quarantined:
    return Quarantined(source_file=rel, source_line=line, act_code=None, section_number=None,
                       reason=reason, detail=detail, excerpt=excerpt[:EXCERPT_CHARS])


def doc_id_of(rel: str) -> str | None:
    """The doc id the judgment file at corpus-relative `rel` has (or would have, had it been
    read); None for a file outside the judgment folders."""
    path = PurePosixPath(rel)
    prefix = DOC_ID_PREFIXES.get(str(path.parent))
    return None if prefix is None else f"{prefix}{path.stem}"


def decode_file(data: bytes, rel: str) -> tuple[str | None, list[str], Quarantined | None]:
    """(text with "\\n" line ends, notes, quarantine row): UTF-8, else cp1252, else lossy UTF-8."""
    if not data.strip():
        return None, [], _quarantine(rel, "empty_file", f"{rel} is empty ({len(data)} bytes).")
    if b"\x00" in data:
        return None, [], _quarantine(
            rel, "binary_content", f"{rel} holds NUL bytes: binary content, not judgment text.",
            data[:EXCERPT_CHARS].decode("latin-1"))
    notes: list[str] = []
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        try:
            text = data.decode("cp1252")
            notes.append("decoded as cp1252")
        except UnicodeDecodeError:
            text = data.decode("utf-8", errors="replace")
            notes.append(f"decoded as utf-8 with {text.count(chr(0xFFFD))} bytes replaced")
    replaced = text.count("\ufffd")
    control = len(data) - len(data.translate(None, _CONTROL_BYTES))
    if text and (replaced + control) / len(text) > GARBAGE_LIMIT:
        reason = "undecodable_text" if replaced > control else "binary_content"
        share = (replaced + control) / len(text)
        return None, notes, _quarantine(
            rel, reason, f"{rel}: {share:.0%} of its characters are replacement or control "
            "characters; it is not readable text.", text[:EXCERPT_CHARS])
    if control:
        notes.append(f"{control} control characters in the text")
    return text.replace("\r\n", "\n").replace("\r", "\n"), notes, None


def _body(lines: list[str], start: int, first: str = "") -> str:
    body = "\n".join(line.rstrip() for line in lines[start:]).strip("\n")
    if first:
        body = f"{first}\n{body}" if body else first
    return body


def _year(iso: str | None) -> int | None:
    return int(iso[:4]) if iso else None


def _too_short(record: JudgmentRecord) -> Quarantined | None:
    chars = len(record.text.strip())
    if chars >= MIN_BODY_CHARS:
        return None
    header = record.header or ""
    lines = header.count("\n") + 1 if header else 0
    why = (f"the header parser took all of the file ({len(header):,} characters in "
           f"{lines:,} line{'s' if lines != 1 else ''}) as its header: no line in it marks "
           "where the judgment text starts" if len(header) > 20 * MIN_BODY_CHARS else
           "truncated or header only")
    return _quarantine(
        record.source_file, "text_too_short",
        f"{record.source_file} has {chars} characters of judgment text after its header "
        f"(fewer than {MIN_BODY_CHARS}): {why}.", header[:EXCERPT_CHARS] or record.text,
        line=1)


# ---------------------------------------------------------------------------------------
# AILA 2019 case documents

_AILA_DELIVERED = re.compile(
    r"^\W*(?:\(Non-Reportable\))?\s*\"?(?:The\s+)?(?:Judgments?|Judgement|Order)\s+"
    r"(?:of\s+the\s+Court\s+)?(?:was|were|wag|is)\s+"
    r"(?:delivered\s+by\b\s*:?\s*(?P<judges>.*)|(?:as|was)\s+fol+o?ws\b.*)$"
    r"|^\s*JUDGE?MENT\s*:?\s*$",
    re.I,
)
_LATER_DELIVERED = re.compile(
    r"^[ \t]*The Judgments? (?:of the Court )?(?:was|were) delivered by\s*:?\s*(.{2,80})$",
    re.M)
_NUMBERED_PARAGRAPH = re.compile(r"^\s*\d+\s*\.\s")
_DATE_SHAPED = re.compile(r"\(?\d{1,2}\s+[A-Za-z]+\.?,?\s+\d{4}\)?|\d{1,2}[-/.]\d{1,2}[-/.]\d{4}")
_CASE_NUMBER_LIKE = re.compile(r"\d")
_AUTHOR_THEN_TEXT = re.compile(r"^(.*?\bJ\.)\s*[-–]\s*(.+)$")
AILA_HEADER_SCAN = 30  # lines after the date searched for "The Judgment was delivered by"


def parse_aila(text: str, stem: str, rel: str) -> JudgmentRecord:
    """An AILA case document: name, court, date, case number, delivered-by line, text."""
    lines = text.split("\n")
    notes: list[str] = []
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    name_line = lines[i].strip() if i < len(lines) else ""
    case_name, petitioner, respondent = split_case_name(name_line)
    if not name_line:
        notes.append("no case name")
    elif petitioner is None:
        notes.append("case name has no 'v' between the parties")
    i += 1
    court_at = next((j for j in range(i, min(i + 8, len(lines)))
                     if lines[j].strip().lower() == COURT.lower()), None)
    if court_at is None:
        notes.append("no 'Supreme Court of India' line")
    else:
        if court_at > i:
            notes.append("lines between case name and court: " + " / ".join(
                " ".join(s.split()) for s in lines[i:court_at] if s.strip()))
        i = court_at + 1
    while i < len(lines) and not lines[i].strip():
        i += 1
    date_line = lines[i].strip() if i < len(lines) else ""
    decision_date = parse_date(date_line)
    if decision_date:
        i += 1
    elif _DATE_SHAPED.fullmatch(date_line):
        notes.append(f"date not a valid date: {date_line!r}")
        i += 1
    else:
        notes.append(f"no date where expected: {date_line[:60]!r}" if date_line else "no date")
    # The case number runs until the delivered-by line; a numbered paragraph or a long line
    # means the text has begun and there is no delivered-by line.
    delivered_at = None
    for j in range(i, min(i + AILA_HEADER_SCAN, len(lines))):
        if _AILA_DELIVERED.match(lines[j]):
            delivered_at = j
            break
        if _NUMBERED_PARAGRAPH.match(lines[j]) or len(lines[j]) > 400:
            break
    judges: list[str] = []
    first_text = ""
    number_lines = [s.strip() for s in lines[i:delivered_at] if s.strip()] \
        if delivered_at is not None else []
    if delivered_at is not None:
        header_end = delivered_at + 1
        m = _AILA_DELIVERED.match(lines[delivered_at])
        named = (m["judges"] or "").strip() if m else ""
        if t := _AUTHOR_THEN_TEXT.match(named):
            named, first_text = t[1], t[2].strip()
        judges = split_judge_names(named) if named else []
    else:
        j = i
        while j < len(lines) and not lines[j].strip():
            j += 1
        candidate = lines[j].strip() if j < len(lines) else ""
        if candidate and len(candidate) < 250 and _CASE_NUMBER_LIKE.search(candidate) \
                and not _NUMBERED_PARAGRAPH.match(candidate):
            number_lines = [candidate]
            header_end = j + 1
        else:
            header_end = i
        notes.append("no 'delivered by' or 'Order of the Court' line")
    case_number = None
    if number_lines:
        case_number = number_lines[0]
        if len(number_lines) > 1 and (re.search(r"\bof$", case_number, re.I)
                                      or re.fullmatch(r"\d{4}\.?", number_lines[1])):
            case_number = f"{case_number} {number_lines[1]}"
        case_number = case_number.rstrip(" .")
    else:
        notes.append("no case number")
    body = _body(lines, header_end, first_text)
    for m in _LATER_DELIVERED.finditer(body):
        judges = dedupe_judges([*judges, *split_judge_names(m[1])])
    if not judges:
        notes.append("no judges named")
    return JudgmentRecord(
        doc_id=f"AILA:{stem}", source=AILA, case_name=case_name, petitioner=petitioner,
        respondent=respondent, court=COURT, decision_date=decision_date,
        year=_year(decision_date), case_number=case_number, judges=judges,
        header_citations=[], citator=[], text=body,
        header="\n".join(line.rstrip() for line in lines[:header_end]), source_file=rel,
        parse_notes=notes)


# ---------------------------------------------------------------------------------------
# IRLeD 2017 prior cases (JUDIS headers)

_BENCH_DATE = re.compile(r"^\s*(\d{2}/\d{2}/\d{4})\b\s*(.*)$")
_AUTHOR_LINE = re.compile(r"^[A-Za-z][A-Za-z.\s]*?[,.\s]\s*J\.?\s*:?\s*$")
_PRIOR_HEADER_SCAN = 15
MAX_BENCH_LINES = 8


def _looks_like_bench(line: str) -> bool:
    """A line of judge names (no digits, no lower-case words, no colon), not "X, J."."""
    s = line.strip().strip("[]")
    if not s or len(s) > 150 or ":" in s or re.search(r"\d", s) or _AUTHOR_LINE.match(s):
        return False
    words = re.findall(r"[A-Za-z']+", s)
    return bool(words) and all(not w.islower() or w in ("and", "of") for w in words)


def parse_prior(text: str, stem: str, rel: str) -> JudgmentRecord:
    """An IRLeD prior case: citations and date, bench, CITATION and CITATOR INFO, then text."""
    lines = text.split("\n")
    notes = ["title truncated"]
    citations, decision_date, first_notes = parse_prior_first_line(lines[0])
    notes.extend(first_notes)
    cit_at = next((j for j in range(1, min(_PRIOR_HEADER_SCAN, len(lines)))
                   if lines[j].startswith("CITATION:")), None)
    bench_lines: list[str] = []
    if cit_at is not None:
        bench_lines = lines[1:cit_at]
        header_end = cit_at + 1
        for extra in parse_citation_line(lines[cit_at]):
            if citation_identity(extra) not in {citation_identity(c) for c in citations}:
                citations.append(extra)
    else:
        notes.append("no CITATION line")
        j = 1
        while j < len(lines) and len(bench_lines) < MAX_BENCH_LINES:
            m = _BENCH_DATE.match(lines[j])
            candidate = m[2] if m else lines[j]
            if m and not candidate.strip():
                bench_lines.append(lines[j])  # a date alone
            elif _looks_like_bench(candidate):
                bench_lines.append(lines[j])
                if not is_surname_style(candidate.strip()):
                    j += 1
                    break  # "K. RAMASWAMY, G.B. PATTANAIK": the whole bench on one line
            else:
                break
            j += 1
        header_end = j if bench_lines else 1
    judges: list[str] = []
    bench_date = None
    for k, line in enumerate(bench_lines):
        if k == 0 and (m := _BENCH_DATE.match(line)):
            bench_date = parse_date(m[1])
            if bench_date is None:
                notes.append(f"bench date not a valid date: {m[1]!r}")
            line = m[2]
        judges.extend(parse_bench_line(line))
    judges = dedupe_judges(judges)
    if decision_date is None and bench_date:
        decision_date = bench_date
        notes.append("date taken from the bench line")
    elif decision_date and bench_date and decision_date != bench_date:
        notes.append(f"bench line date {bench_date} differs from header date {decision_date}")
    citator: list[dict] = []
    if header_end < len(lines) and lines[header_end].startswith("CITATOR INFO"):
        inline = lines[header_end].split(":", 1)[1].strip() if ":" in lines[header_end] else ""
        header_end += 1
        source_line = inline
        if not inline and header_end < len(lines) and re.search(r"\d{4}\s*SC", lines[header_end]):
            source_line = lines[header_end]
            header_end += 1
        citator = parse_citator(source_line)
        if not citator:
            notes.append("CITATOR INFO without readable entries")
    if not citations:
        notes.append("no header citations")
    if not judges:
        notes.append("no judges named")
    if decision_date is None:
        notes.append("no date")
    return JudgmentRecord(
        doc_id=f"IRLED:{stem}", source=IRLED_PRIOR, case_name=None, petitioner=None,
        respondent=None, court=COURT, decision_date=decision_date, year=_year(decision_date),
        case_number=None, judges=judges, header_citations=citations, citator=citator,
        text=_body(lines, header_end),
        header="\n".join(line.rstrip() for line in lines[:header_end]), source_file=rel,
        parse_notes=notes)


# ---------------------------------------------------------------------------------------
# IRLeD 2017 current cases

_TITLE_LINE = re.compile(
    r"^##\s+(?P<title>.*?)\s*(?P<insc>\[\d{4}\] INSC \d+)?\s*\((?P<date>[^()]*)\)\s*$")
_CASE_NUMBER_LINE = re.compile(
    r"^(?:[A-Z][A-Za-z.]*(?:\s+[A-Za-z.]+)*\s*(?:\([A-Za-z.]+\)\s*)?)(?:No\.?\s*)?"
    r"[\d\-]+(?:/\d+)?\s+of\s+\d{4}\s*$", re.I)
_CURRENT_AUTHOR = re.compile(
    r"^\s*((?:Dr\.?\s*|Mrs\.?\s*)?[A-Z][A-Za-z.\s]{1,40}?,?\s*(?:J|CJI)\.?)[\s.:]*$")
_CLOSING = re.compile(r"New\s*Delhi\s*[;:,.]?\s*", re.I)
CLOSING_SCAN_CHARS = 1500


def _closing_date(text: str) -> str | None:
    """The date under "New Delhi;" at the end of a judgment, if written with a month name."""
    tail = text[-CLOSING_SCAN_CHARS:]
    found = None
    for m in _CLOSING.finditer(tail):
        d = DATE_IN_TEXT.match(tail, m.end()) or DATE_IN_TEXT.search(tail[m.end(): m.end() + 60])
        if d:
            found = parse_date(d[0])
    return found


def parse_current(text: str, stem: str, rel: str) -> JudgmentRecord:
    """An IRLeD current case: optional "##" title, court header, bench and author lines."""
    lines = text.split("\n")
    notes: list[str] = []
    i = 0
    while i < len(lines) and not lines[i].strip():
        i += 1
    case_name = petitioner = respondent = case_number = None
    header_date = None
    citations: list[str] = []
    judges: list[str] = []
    first_text = ""
    for _ in range(6):
        if i >= len(lines):
            break
        line = lines[i]
        if line.strip() == "**Judgement**":
            i += 1
        elif m := _TITLE_LINE.match(line):
            case_name, petitioner, respondent = split_case_name(m["title"])
            header_date = parse_date(m["date"])
            if header_date is None:
                notes.append(f"title line date not a valid date: {m['date']!r}")
            if m["insc"]:
                citations.append(m["insc"])
            i += 1
        elif COURT_HEADER.match(line) and case_number is None:
            joined, i = line, i + 1
            while (i < len(lines) and len(lines[i]) < 300 and len(joined) < 2000
                   and not re.search(r"\bRespondents?\b", joined, re.I)
                   and re.search(r"versus|respondent", lines[i], re.I)):
                joined, i = f"{joined} {lines[i]}", i + 1
            court = parse_court_header(joined)
            case_number = court["case_number"]
            judges.extend(court["judges"])
            first_text = court["rest"]
            if petitioner is None and court["petitioner"] and court["respondent"]:
                case_name, petitioner, respondent = split_case_name(
                    f"{court['petitioner']} v. {court['respondent']}")
            elif petitioner is None:
                notes.append("parties not readable in the court header")
            if first_text:
                break
        elif case_number is None and _CASE_NUMBER_LINE.match(line.strip()):
            case_number = line.strip()
            i += 1
        elif m := _CURRENT_AUTHOR.match(line):
            judges.extend(split_judge_names(m[1]))
            i += 1
            break  # the author line is the last header line
        elif ("&" in line or "," in line or len(line.split()) <= 4) and _looks_like_bench(line):
            judges.extend(parse_bench_line(line))
            i += 1
        else:
            break
    if not any(line.strip() and line.strip() != "**Judgement**" for line in lines[:i]):
        notes.append("no header")
    body = _body(lines, i, first_text)
    closing = _closing_date(body)
    decision_date = header_date or closing
    if header_date and closing and header_date != closing:
        notes.append(f"closing date {closing} differs from title line date {header_date}")
    if decision_date is None:
        notes.append("no date")
    if case_name is None:
        notes.append("no case name")
    judges = dedupe_judges(judges)
    if not judges:
        notes.append("no judges named")
    return JudgmentRecord(
        doc_id=f"IRLED:{stem}", source=IRLED_CURRENT, case_name=case_name,
        petitioner=petitioner, respondent=respondent, court=COURT,
        decision_date=decision_date, year=_year(decision_date), case_number=case_number,
        judges=judges, header_citations=citations, citator=[], text=body,
        header="\n".join(line.rstrip() for line in lines[:i]), source_file=rel,
        parse_notes=notes)


# ---------------------------------------------------------------------------------------
# Reading the corpus

_SOURCES = ((AILA_DIR, parse_aila), (PRIOR_DIR, parse_prior), (CURRENT_DIR, parse_current))


def read_judgment_file(path: Path, rel: str, parser) -> JudgmentRecord | Quarantined:
    """One file through its source's parser; damage and missing text become a quarantine row."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            return _quarantine(
                rel, "file_too_large", f"{rel} is {size / 1e6:.1f} MB; a judgment is read "
                f"whole only up to {MAX_FILE_BYTES / 1e6:.0f} MB (four times the longest in the "
                "corpus): several judgments pasted together, or not a judgment.")
        data = path.read_bytes()
    except OSError as exc:
        return _quarantine(rel, "unreadable_file", f"{rel} could not be read: {exc}.")
    text, notes, problem = decode_file(data, rel)
    if problem is not None:
        return problem
    record = parser(text, path.stem, rel)
    if notes:
        record = replace(record, parse_notes=[*notes, *record.parse_notes])
    return _too_short(record) or record


def read_judgments(corpus_root: Path, only: set[str] | None = None
                   ) -> tuple[list[JudgmentRecord], list[Quarantined]]:
    """Every AILA and IRLeD judgment file (or those of `only`, paths relative to the corpus
    root) as a record or a quarantine row, sorted by doc_id."""
    records: list[JudgmentRecord] = []
    quarantined: list[Quarantined] = []
    for folder, parser in _SOURCES:
        directory = Path(corpus_root) / folder
        if not directory.is_dir():
            quarantined.append(_quarantine(folder, "missing_source",
                                           f"{folder} is not in the corpus at {corpus_root}."))
            continue
        for path in sorted(directory.glob("*.txt")):
            if only is not None and f"{folder}/{path.name}" not in only:
                continue
            result = read_judgment_file(path, f"{folder}/{path.name}", parser)
            (records if isinstance(result, JudgmentRecord) else quarantined).append(result)
    records.sort(key=lambda r: r.doc_id)
    quarantined.sort(key=lambda q: (q.source_file, q.source_line or 0))
    return records, quarantined


# ---------------------------------------------------------------------------------------
# Partitions by year of decision

UNDATED = "undated"  # judgments without a decision year, and files that are not judgments
DATASET = "dataset"  # every judgment of the optional Hugging Face dataset


def year_key(item: JudgmentRecord | Quarantined) -> str:
    """The partition a corpus judgment belongs to: its decision year, or UNDATED."""
    year = getattr(item, "year", None)
    return str(year) if year else UNDATED


def judgment_partition(source: str, year: int | None) -> str:
    """The partition of a row of the judgments table: DATASET for a judgment from the
    dataset (any source that is not one of the corpus's), else its year or UNDATED."""
    if source not in CORPUS_SOURCES:
        return DATASET
    return str(year) if year else UNDATED


def judgment_years(corpus_root: Path) -> dict[str, list[str]]:
    """year key -> the judgment files decided that year (paths relative to the corpus root).
    UNDATED is always there, with any file or folder that did not give a record. A file's
    year is known only from its parsed header, so this reads every file (about 2 s); a parts
    run reads its own files again after fingerprinting them, so that a file changed in
    between is never recorded as built."""
    records, quarantined = read_judgments(corpus_root)
    years: dict[str, list[str]] = {UNDATED: []}
    for item in [*records, *quarantined]:
        years.setdefault(year_key(item), []).append(item.source_file)
    return {key: sorted(files) for key, files in sorted(years.items())}


def year_fingerprints(corpus_root: Path, years: dict[str, list[str]],
                      dataset: str | None = None) -> dict[str, str]:
    """year key -> sha256 over its files' names and bytes (a missing one by name), plus
    DATASET with the dataset's fingerprint when one is configured."""
    fingerprints = {key: files_fingerprint(corpus_root, [corpus_root / rel for rel in files])
                    for key, files in years.items()}
    if dataset:
        fingerprints[DATASET] = dataset_fingerprint(dataset)
    return fingerprints


# ---------------------------------------------------------------------------------------
# SC metadata (registry)

_FIELD = re.compile(r"^- \*\*(?P<key>[A-Za-z ]+)\*\*:\s?(?P<value>.*)$")
_IDENTIFICATION = re.compile(r"Case ID:\s*(?P<neutral>.*?)\s*\|\s*Citation:\s*(?P<scr>.*?)\s*$")


def _split_parties(parties: str | None, title: str) -> tuple[str | None, str | None]:
    """Petitioner and respondent from "A vs B" (the Parties line), else from "A versus B"."""
    for text, separator in ((parties, " vs "), (title, " versus ")):
        if text is not None and f" {text} ".count(separator) == 1:
            left, right = f" {text} ".split(separator)
            return (" ".join(left.split()) or None, " ".join(right.split()) or None)
    return None, None


def _record_ids(raw: list[dict]) -> list[str]:
    """Stable ids: "SC:<neutral>"; where distinct records share a neutral citation (93 do
    in the corpus) "SC:<neutral>#<SCR citation>"; without a neutral citation, or if still not
    unique, "SC:<file stem>:<ordinal of the record in its file>"."""
    counts = Counter(r["neutral"] for r in raw if r["neutral"])
    ids = []
    for r in raw:
        if not r["neutral"]:
            ids.append(f"SC:{r['stem']}:{r['ordinal']}")
        elif counts[r["neutral"]] == 1:
            ids.append(f"SC:{r['neutral']}")
        elif r["scr"]:
            ids.append(f"SC:{r['neutral']}#{r['scr']}")
        else:
            ids.append(f"SC:{r['stem']}:{r['ordinal']}")
    repeated = {i for i, n in Counter(ids).items() if n > 1}
    return [f"SC:{r['stem']}:{r['ordinal']}" if i in repeated else i
            for i, r in zip(ids, raw, strict=True)]


def _metadata_entries(text: str, rel: str, stem: str, quarantined: list[Quarantined]
                      ) -> list[dict]:
    entries: list[dict] = []
    current: dict | None = None
    for number, line in enumerate(text.split("\n"), start=1):
        stripped = line.strip()
        if line.startswith("### "):
            current = {"rel": rel, "stem": stem, "line": number, "ordinal": len(entries) + 1,
                       "heading": stripped[4:], "fields": {}}
            entries.append(current)
        elif m := _FIELD.match(stripped):
            if current is None:
                quarantined.append(_quarantine(rel, "orphan_field", f"{rel}:{number} has a "
                                               "field line before any '### ' record heading.",
                                               stripped, number))
            else:
                current["fields"].setdefault(m["key"].strip().lower(), m["value"].strip())
        elif stripped and not stripped.startswith("# "):
            quarantined.append(_quarantine(rel, "unreadable_line", f"{rel}:{number} is neither a "
                                           "record heading nor a '- **Field**:' line.",
                                           stripped, number))
    return entries


def read_sc_metadata(corpus_root: Path) -> tuple[list[ScCaseRecord], list[Quarantined]]:
    """The SC registry records, in file and line order; exact repeats are quarantined."""
    directory = Path(corpus_root) / SC_METADATA_DIR
    quarantined: list[Quarantined] = []
    if not directory.is_dir():
        return [], [_quarantine(SC_METADATA_DIR, "missing_source",
                                f"{SC_METADATA_DIR} is not in the corpus at {corpus_root}.")]
    entries: list[dict] = []
    for path in sorted(directory.glob("*.md")):
        rel = f"{SC_METADATA_DIR}/{path.name}"
        text, _notes, problem = decode_file(path.read_bytes(), rel)
        if problem is not None:
            quarantined.append(problem)
            continue
        entries.extend(_metadata_entries(text, rel, path.stem, quarantined))
    seen: dict[tuple, dict] = {}
    kept: list[dict] = []
    for entry in entries:
        f = entry["fields"]
        title = " ".join(entry["heading"].split())
        if not title:
            quarantined.append(_quarantine(entry["rel"], "no_title", f"{entry['rel']}:"
                                           f"{entry['line']} is a record heading without a title.",
                                           line=entry["line"]))
            continue
        ident = _IDENTIFICATION.match(f.get("identification", ""))
        entry["neutral"] = (ident["neutral"] or None) if ident else None
        entry["scr"] = (ident["scr"] or None) if ident else None
        entry["title"] = title
        key = (title, f.get("date"), " ".join(f.get("parties", "").split()),
               entry["neutral"], entry["scr"])
        if key in seen:
            first = seen[key]
            quarantined.append(_quarantine(
                entry["rel"], "duplicate_record",
                f"{entry['rel']}:{entry['line']} repeats the record at {first['rel']}:"
                f"{first['line']} (same title, date, parties and citations).",
                title, entry["line"]))
            continue
        seen[key] = entry
        kept.append(entry)
    records = []
    for entry, record_id in zip(kept, _record_ids(kept), strict=True):
        f = entry["fields"]
        title = re.sub(r"\s+versus$", "", entry["title"])
        petitioner, respondent = _split_parties(f.get("parties"), entry["title"])
        decision_date = parse_date(f.get("date"))
        records.append(ScCaseRecord(
            record_id=record_id, title=title, petitioner=petitioner, respondent=respondent,
            decision_date=decision_date, year=_year(decision_date),
            neutral_citation=entry["neutral"], scr_citation=entry["scr"],
            source_file=entry["rel"], source_line=entry["line"]))
    return records, quarantined


# ---------------------------------------------------------------------------------------
# Any dataset with doc_id and text columns

REQUIRED_COLUMNS = ("doc_id", "text")
_FILE_BUILDERS = {".jsonl": "json", ".json": "json", ".parquet": "parquet", ".csv": "csv",
                  ".tsv": "csv", ".txt": "text"}


def _as_list(value) -> list[str]:
    if value is None:
        return []
    if isinstance(value, str):
        return [v.strip() for v in value.split(";") if v.strip()]
    return [str(v).strip() for v in value if v is not None and str(v).strip()]


def read_judgment_dataset(spec: str, *, split: str = "train", source: str = "dataset"
                          ) -> tuple[list[JudgmentRecord], list[Quarantined]]:
    """Judgments from a Hugging Face dataset: a local file or folder, or a hub id.

    A local file goes through its packaged builder (`load_dataset("json", data_files=...)`:
    `load_dataset` does not take a file path itself); a folder or hub id goes straight to
    `load_dataset(spec, split=split)`, so offline settings from the environment apply.
    Required columns: doc_id, text. Optional: case_name, petitioner, respondent, court,
    decision_date, case_number, judges, citations (a list, or one string split at ";").
    doc_id becomes "<SOURCE>:<doc_id>". Rows with empty text or a repeated doc_id are
    quarantined with their 1-based row number.
    """
    import datasets  # imported here: a heavy import that only this reader needs

    path = Path(spec).expanduser()
    if path.is_file():
        builder = _FILE_BUILDERS.get(path.suffix.lower())
        if builder is None:
            raise ValueError(f"{spec}: unsupported file type {path.suffix!r}; use one of "
                             f"{', '.join(sorted(_FILE_BUILDERS))}, a folder or a dataset id")
        try:
            dataset = datasets.load_dataset(builder, data_files=str(path), split=split)
        except datasets.exceptions.DatasetGenerationError as err:
            # the builder's own message names no file; its cause says what is wrong
            raise ValueError(f"{spec}: not readable as {builder}: {err.__cause__ or err}"
                             ) from err
    else:
        dataset = datasets.load_dataset(spec, split=split)
    missing = [c for c in REQUIRED_COLUMNS if c not in dataset.column_names]
    if missing:
        raise ValueError(f"{spec}: missing required column(s) {', '.join(missing)} "
                         f"(columns found: {', '.join(dataset.column_names) or 'none'})")
    prefix = source.upper()
    records: list[JudgmentRecord] = []
    quarantined: list[Quarantined] = []
    seen: set[str] = set()
    for number, row in enumerate(dataset, start=1):
        raw_id = str(row.get("doc_id") or "").strip()
        text = "\n".join(line.rstrip() for line in str(row.get("text") or "").splitlines())
        text = text.strip("\n")
        if not raw_id:
            quarantined.append(_quarantine(spec, "missing_doc_id", f"{spec} row {number} has "
                                           "no doc_id.", text, number))
            continue
        if not text.strip():
            quarantined.append(_quarantine(spec, "empty_text", f"{spec} row {number} "
                                           f"(doc_id {raw_id}) has no text.", raw_id, number))
            continue
        if raw_id in seen:
            quarantined.append(_quarantine(spec, "duplicate_doc_id", f"{spec} row {number} "
                                           f"repeats doc_id {raw_id}.", raw_id, number))
            continue
        seen.add(raw_id)
        notes = []
        name, petitioner, respondent = split_case_name(row.get("case_name"))
        petitioner = row.get("petitioner") or petitioner
        respondent = row.get("respondent") or respondent
        raw_date = row.get("decision_date")
        decision_date = parse_date(str(raw_date)) if raw_date not in (None, "") else None
        if raw_date not in (None, "") and decision_date is None:
            notes.append(f"date not a valid date: {raw_date!r}")
        court = str(row.get("court") or "").strip()
        if not court:
            notes.append("court not given")
        records.append(JudgmentRecord(
            doc_id=f"{prefix}:{raw_id}", source=source, case_name=name, petitioner=petitioner,
            respondent=respondent, court=court or "unknown", decision_date=decision_date,
            year=_year(decision_date), case_number=row.get("case_number") or None,
            judges=dedupe_judges(_as_list(row.get("judges"))),
            header_citations=_as_list(row.get("citations")), citator=[], text=text, header="",
            source_file=spec, parse_notes=notes))
    records.sort(key=lambda r: r.doc_id)
    return records, quarantined
