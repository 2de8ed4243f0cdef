"""Recover sections from Acts that India Code only gives as `## Page N` blocks of PDF text.

About fifty Acts in the corpus have no `## Section` headings, only the PDF's text page by
page: an ARRANGEMENT OF SECTIONS, then the enacted body, with each page's footnotes
(`1. Subs. by Act 60 of 1973 ...`) printed after its text. The arrangement tells us which
sections to expect and in what order, so the body is searched for each one in turn instead of
trusting every line that starts with a number: footnote lines look exactly like section
starts. Old Acts with no arrangement are split on sequential numbering (Arabic or Roman; a
Roman "IV." is recorded as section "4", the number it is cited by).

Every record is marked with an extraction_confidence below 1.0, and every arrangement entry
whose body cannot be found becomes a `Quarantined` row.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from nyaya.statutes.model import (
    IN_FORCE,
    OMITTED,
    REPEALED,
    Quarantined,
    SectionRecord,
    SourceLine,
)
from nyaya.statutes.omissions import stub_status

CONFIDENCE_TITLE_MATCH = 0.8  # body heading agrees with the arrangement entry
CONFIDENCE_NUMBER_MATCH = 0.6  # only the number, in the arrangement's order
CONFIDENCE_SEQUENTIAL = 0.5  # no arrangement: sections found by consecutive numbering

TITLE_PREFIX = 20  # normalised characters of a title compared with the body heading
ANCHOR_LOOKAHEAD = 8  # later entries whose headings bound the search for one entry
MAX_RUN = 40  # entries one "81. to 85C. Omitted" line may dispose of
MAX_HEADING_LINES = 3  # a body heading may wrap over this many lines
MAX_TITLE_CHARS = 300

PAGE_MARKER = re.compile(r"^## Page \d+\s*$")
PAGE_NUMBER = re.compile(r"^\d{1,4}$")
RULE_LINE = re.compile(r"^[_\-\s]{3,}$")
FURNITURE = re.compile(r"^Subject to verification and confirmation by the Department\.?$")
SPACES = re.compile(r"[ \t\u00a0]+")

# Matched against a line with all whitespace removed, so PDF spacing ("ARRA N GE N MENT",
# "A CT N O.", "B E it en acted") does not matter.
ARRANGEMENT = re.compile(r"^ARRA[A-Z]{2,6}MENTOF(?:SECTIONS|SECTI|CLAUSES)")
ACT_NUMBER = re.compile(r"^\(?ACTN[Oo]")
PREAMBLE = re.compile(r"^(?:AnAct|ANACT|BEitenacted|WHEREAS|Whereas)")
SECTIONS_LABEL = re.compile(r"^SECTIONS?\.?$")

MARKER = r"(?:(?:\d{1,3}|\*{1,3})?\s*\[\s*)*"  # amendment marker before a number: "1 [", "2["
# PDF spacing splits numbers ("2 8.", "4 5MAA."); the arrangement's title settles which is
# meant, and footnote numbers ("1 2. Subs. by ...") are marked as footnotes before matching.
NUMBER = r"\d(?:\s?\d){0,3}(?:\s?-\s?[A-Z]{1,4}|\s?[A-Z]{1,4})?"
NUMBERED = re.compile(rf"^{MARKER}(?P<num>{NUMBER})\]?\s?\.\]?\s*(?P<rest>.*)$")
NUMBER_RANGE = re.compile(
    rf"^{MARKER}(?P<first>{NUMBER})\s?\.?\s*(?:to|-|–)\s*(?P<last>{NUMBER})\s?\.\s*[A-Z\[]"
)
ROMAN_NUMBERED = re.compile(rf"^{MARKER}(?P<num>[IVXLC]{{1,7}})\s?\.\s*(?P<rest>.*)$")
SECTION_TEXT_START = re.compile(r"^(?:\d{1,3}\s*\[\s*)*[A-Z“\"‘'\[(]")
MARGINAL_NOTE = re.compile(r"^(?P<nums>(?:\d{1,3}\s*[.,]\s*)+)(?P<note>[A-Za-z“\"(].*)$")

FOOTNOTE_NUMBER = re.compile(r"^(?:\d{1,3}(?:\s\d)?|\*{1,3})\s*\.\s*(?P<rest>.*)$")
FOOTNOTE_OPENING = re.compile(
    r"^(?:Subs|Ins|Rep|Omitted|Added|Inserted|Substituted|Re\s?-?\s?numbered|Renumbered"
    r"|Vide|See|Now see|Cf|The words?|The brackets|The figures?|The letters?|Certain words"
    r"|The Act|This Act|The provisions|Clause|Sub\s?-?\s?clause|Sub\s?-?\s?section|Se\s?ction"
    r"|Proviso|Explanation|Item|Entry|Para|Original|Extended|Amended|In its application"
    r"|The heading|Heading|\d{1,2}\s?(?:st|nd|rd|th)\b)\b"
)
FOOTNOTE_ANYWHERE = re.compile(r"w\.\s?e\.\s?f|\bibid\b|\bvide\b|\bby Act \d+ of \d{4}", re.I)

CHAPTER = re.compile(r"^(?:\d{1,3}\s*\[\s*)?C\s?HAPTER\s+(?P<num>[IVXLC]+(?:\s?-?\s?[A-Z]{1,3})?)$")
ROMAN_CHAPTER = re.compile(r"^(?P<num>[IVXLC]{1,6})\s?\.\s?[―—–]+\s*(?P<title>[^a-z]+)$")
PART_HEADING = re.compile(r"^(?:\d{1,3}\s*\[\s*)?P\s?ART\s+[IVXLC]+(?:\s?-?\s?[A-Z])?$")
SUB_HEADING = re.compile(r"^[A-Z]{1,2}\s?\.\s?[―—–]")  # "A. — Salaries" inside a chapter
SCHEDULE_HEADING = re.compile(  # matched without spaces: "THEFIRSTSCHEDULE", "1[THESCHEDULE"
    r"^(?:\d{1,3}\[)?(?:THE)?(?:FIRST|SECOND|THIRD|FOURTH|FIFTH|SIXTH|SEVENTH|EIGHTH|NINTH"
    r"|TENTH|ELEVENTH|TWELFTH|THIRTEENTH|FOURTEENTH|FIFTEENTH)?SCH[A-Z]*"
)
HEADING_END = re.compile(r"\.?\s*(?:[―—–]+|-{2,})")
HEADING_END_AFTER_STOP = re.compile(r"\.\s*(?:[―—–]+|-{2,})")
BRACKETED_MARKER = re.compile(r"\d{1,3}\s*\[")
SMALL_CAPS = re.compile(r"\b([A-Z]) (?=[A-Z]{2,}\b)")
OMITTED_TITLE = re.compile(r"^(?:omitted|repealed|rep$)")
ROMAN_VALUES = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


@dataclass
class _Line:
    """A body line with page furniture removed; `kind` says what the parser made of it."""

    source: SourceLine
    text: str
    page: int
    kind: str = "text"  # text / footnote / structure


@dataclass
class _Entry:
    """One ARRANGEMENT OF SECTIONS entry: what the body should contain, and where it was."""

    number: str
    title: str
    chapter_number: str | None
    chapter_title: str | None
    source: SourceLine


@dataclass
class _Start:
    """Where one recovered section begins in the cleaned body."""

    index: int
    number: str
    confidence: float
    fallback_title: str = ""
    chapter_number: str | None = None
    chapter_title: str | None = None
    shared: bool = False  # one line disposes of several sections ("81. to 85C. Omitted")


@dataclass
class _Chapters:
    """Chapter headings seen while walking lines, so each line knows its chapter."""

    current: tuple[str | None, str | None] = (None, None)
    at: dict[int, tuple[str | None, str | None]] = field(default_factory=dict)


def parse_page_text_act(
    lines: list[SourceLine], *, act_code: str
) -> tuple[list[SectionRecord], list[Quarantined]]:
    """Sections of an Act given only as PDF page text, plus what could not be placed.

    `lines` are the Act's part files in order, front matter already removed. Sections are
    matched against the arrangement when the Act prints one, else found by numbering.
    """
    body = _clean(lines)
    arrangement_at = _find(body, 0, lambda compact: ARRANGEMENT.match(compact))
    entries: list[_Entry] = []
    if arrangement_at is not None:
        body_at = _find(body, arrangement_at + 1, _is_body_start)
        if body_at is None:
            body_at = len(body)
        entries = _parse_arrangement(body[arrangement_at + 1 : body_at])
    else:
        body_at = _start_without_arrangement(body)

    quarantined: list[Quarantined] = []
    if entries:
        _mark_body(body, body_at, {_key(e.number): e for e in entries})
        starts, missing = _match_arrangement(body, body_at, entries)
        quarantined += [_not_found(act_code, entry) for entry in missing]
    else:
        chapters = _mark_body(body, body_at, {})
        notes = _marginal_notes(body, body_at)
        starts = _sequential(body, body_at, notes, chapters)

    records = [
        _record(body, start, _span_end(body, starts, n), act_code)
        for n, start in enumerate(starts)
    ]
    if starts:
        trailing = _trailing(body, starts, act_code)
        if trailing is not None:
            quarantined.append(trailing)
    if not records:
        first = lines[0] if lines else SourceLine("", 0, "")
        quarantined.append(Quarantined(
            source_file=first.source_file, source_line=None, act_code=act_code,
            section_number=None, reason="no_sections_found",
            detail=f"{act_code}: page text has no arrangement entries or numbered sections "
                   "that could be located in the body",
        ))
    return records, quarantined


# --- cleaning ---------------------------------------------------------------------------


def _clean(lines: Sequence[SourceLine]) -> list[_Line]:
    """Drop part headers, `## Page` markers, page numbers and rules; normalise spacing."""
    out: list[_Line] = []
    page = 0
    in_header = True
    expect_page_number = False
    current_file = None
    for source in lines:
        if source.source_file != current_file:
            current_file, in_header = source.source_file, True
        if PAGE_MARKER.match(source.text):
            page, in_header, expect_page_number = page + 1, False, True
            continue
        if in_header:
            continue
        text = SPACES.sub(" ", source.text).strip()
        if not text:
            continue
        if expect_page_number:
            expect_page_number = False
            if PAGE_NUMBER.match(text):
                continue
        if RULE_LINE.match(text) or FURNITURE.match(text):
            continue
        out.append(_Line(source, text, page))
    if not out and lines:  # no page markers at all: take every non-blank line
        return [_Line(s, SPACES.sub(" ", s.text).strip(), 0) for s in lines if s.text.strip()]
    return out


def _compact(text: str) -> str:
    return re.sub(r"\s+", "", text)


def _find(body: list[_Line], start: int, test: Callable[[str], object]) -> int | None:
    """Index of the first line from `start` whose whitespace-free text passes `test`."""
    return next((i for i in range(start, len(body)) if test(_compact(body[i].text))), None)


def _is_body_start(compact: str) -> bool:
    return bool(ACT_NUMBER.match(compact) or PREAMBLE.match(compact))


def _start_without_arrangement(body: list[_Line]) -> int:
    """First line after the Act number's marginal-note list, where section 1 may begin."""
    act_at = _find(body, 0, lambda compact: ACT_NUMBER.match(compact))
    act_at = 0 if act_at is None else act_at
    preamble_at = _find(body, act_at, lambda compact: PREAMBLE.match(compact))
    return act_at + 1 if preamble_at is None else preamble_at


# --- arrangement ------------------------------------------------------------------------


def _parse_arrangement(lines: list[_Line]) -> list[_Entry]:
    """Entries `N. Title.` with the chapter they sit under; wrapped titles are joined."""
    entries: list[_Entry] = []
    chapter: tuple[str | None, str | None] = (None, None)
    reading_chapter_title = False
    for line in lines:
        text = line.text
        if SECTIONS_LABEL.match(_compact(text)):
            continue
        heading = _chapter_heading(text)
        if heading is not None:
            chapter, reading_chapter_title = heading, heading[1] is None
            continue
        numbered = NUMBERED.match(text)
        if numbered and numbered["rest"]:
            reading_chapter_title = False
            entries.append(_Entry(_printed(numbered["num"]), numbered["rest"], *chapter,
                                  line.source))
        elif reading_chapter_title and _is_upper(text):
            title = _join_small_caps(text)
            chapter = (chapter[0], f"{chapter[1]} {title}" if chapter[1] else title)
        elif entries and not _is_upper(text) and not entries[-1].title.endswith("."):
            entries[-1].title = f"{entries[-1].title} {text}"
        else:
            reading_chapter_title = False
    return entries


def _chapter_heading(text: str) -> tuple[str, str | None] | None:
    """('II', None) for `CHAPTER II`; ('II', 'PUBLIC FERRIES') for `II. — P UBLIC F ERRIES`."""
    match = CHAPTER.match(text)
    if match:
        return _compact(match["num"]), None
    match = ROMAN_CHAPTER.match(text)
    if match and _is_upper(match["title"]):
        return match["num"], _join_small_caps(match["title"]).rstrip(".")
    return None


def _is_upper(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 3 and sum(c.isupper() for c in letters) >= 0.9 * len(letters)


def _join_small_caps(text: str) -> str:
    """'B AR C OUNCILS' -> 'BAR COUNCILS': PDF small caps split a word after its capital."""
    return SMALL_CAPS.sub(r"\1", text).strip()


# --- body -------------------------------------------------------------------------------


def _mark_body(body: list[_Line], body_at: int, expected: dict[str, _Entry]) -> _Chapters:
    """Mark footnote and heading lines in the body and record chapter headings.

    A page's footnotes follow its text, so once a footnote-like line appears the rest of the
    page is footnotes, unless a later line is plainly an expected section heading.
    """
    chapters = _Chapters()
    footnote_page = -1
    reading_chapter_title = False
    for index in range(body_at, len(body)):
        line = body[index]
        text = line.text
        if _is_expected_heading(text, expected):
            footnote_page, reading_chapter_title = -1, False
            continue
        if line.page == footnote_page or _is_footnote_start(text):
            line.kind, footnote_page = "footnote", line.page
            continue
        heading = _chapter_heading(text)
        if heading is not None:
            line.kind, reading_chapter_title = "structure", heading[1] is None
            chapters.current = heading
            chapters.at[index] = heading
        elif reading_chapter_title and _is_upper(text) and not NUMBERED.match(text):
            line.kind = "structure"
            title = _join_small_caps(text)
            number, known = chapters.current
            chapters.current = (number, f"{known} {title}" if known else title)
            chapters.at[index] = chapters.current
        else:
            reading_chapter_title = False
            if PART_HEADING.match(text) or SUB_HEADING.match(text):
                line.kind = "structure"
    return chapters


def _is_expected_heading(text: str, expected: dict[str, _Entry]) -> bool:
    """A line that starts an arrangement entry by number and title, or as a repealed stub
    (`6. [Amendment of ...] Rep. by ...`), or disposes of a run (`81. to 85C. Omitted by`)."""
    if not expected:
        return False
    run = NUMBER_RANGE.match(text)
    if run:
        return _key(run["first"]) in expected and _key(run["last"]) in expected
    numbered = NUMBERED.match(text)
    if not numbered:
        return False
    entry = expected.get(_key(numbered["num"]))
    if entry is None:
        return False
    if _title_matches(entry.title, numbered["rest"]):
        return True
    return _is_omitted(entry.title) and numbered["rest"].startswith("[")


def _is_footnote_start(text: str) -> bool:
    match = FOOTNOTE_NUMBER.match(text)
    if not match:
        return False
    rest = match["rest"]
    return bool(FOOTNOTE_OPENING.match(rest) or FOOTNOTE_ANYWHERE.search(rest))


def _candidates(
    body: list[_Line], body_at: int
) -> tuple[dict[str, list[int]], dict[str, list[tuple[int, str]]]]:
    """Body lines that could start a section, by normalised number, in body order; and
    lines that dispose of a run of sections at once (`81. to 85C. Omitted by ...`)."""
    found: dict[str, list[int]] = {}
    ranges: dict[str, list[tuple[int, str]]] = {}
    for index in range(body_at, len(body)):
        line = body[index]
        if line.kind != "text":
            continue
        numbered = NUMBERED.match(line.text)
        if numbered and SECTION_TEXT_START.match(numbered["rest"]):
            found.setdefault(_key(numbered["num"]), []).append(index)
            continue
        run = NUMBER_RANGE.match(line.text)
        if run:
            ranges.setdefault(_key(run["first"]), []).append((index, _key(run["last"])))
    return found, ranges


def _match_arrangement(
    body: list[_Line], body_at: int, entries: list[_Entry]
) -> tuple[list[_Start], list[_Entry]]:
    """Find each entry's body heading in order; return the starts and the entries not found.

    An entry takes its first heading line whose title agrees, else a line disposing of a run
    of entries starting with it, else its first line with the right number, provided the
    line comes before the next few entries' agreeing headings.
    """
    candidates, ranges = _candidates(body, body_at)

    def first_after(entry: _Entry, after: int, titled: bool) -> int | None:
        lines = candidates.get(_key(entry.number), [])
        for index in lines[bisect.bisect_right(lines, after) :]:
            rest = NUMBERED.match(body[index].text)["rest"]
            if not titled or _title_matches(entry.title, _with_next(body, index, rest)):
                return index
        return None

    def run_after(n: int, after: int, bound: int) -> tuple[int, int] | None:
        """(line, index of the run's last entry) for a run line starting at entry n."""
        for index, last in ranges.get(_key(entries[n].number), []):
            if after < index < bound:
                keys = [_key(e.number) for e in entries[n : n + MAX_RUN]]
                if last in keys:
                    return index, n + keys.index(last)
        return None

    starts: list[_Start] = []
    missing: list[_Entry] = []
    position = body_at - 1
    n = 0
    while n < len(entries):
        entry = entries[n]
        later = (first_after(e, position, True) for e in entries[n + 1 : n + 1 + ANCHOR_LOOKAHEAD])
        bound = min((i for i in later if i is not None), default=len(body))
        chosen: list[tuple[int, _Entry, float]] = []
        titled = first_after(entry, position, True)
        run = run_after(n, position, bound)
        if titled is not None and titled < bound:
            chosen = [(titled, entry, CONFIDENCE_TITLE_MATCH)]
        elif run is not None:
            chosen = [(run[0], e, CONFIDENCE_NUMBER_MATCH) for e in entries[n : run[1] + 1]]
        else:
            numbered = first_after(entry, position, False)
            if numbered is not None and numbered < bound:
                chosen = [(numbered, entry, CONFIDENCE_NUMBER_MATCH)]
        if not chosen:
            missing.append(entry)
            n += 1
            continue
        for index, found, confidence in chosen:
            starts.append(_Start(index, found.number, confidence, found.title,
                                 found.chapter_number, found.chapter_title,
                                 shared=len(chosen) > 1))
        position = chosen[0][0]
        n += len(chosen)
    return starts, missing


def _sequential(
    body: list[_Line], body_at: int, notes: dict[int, str], chapters: _Chapters
) -> list[_Start]:
    """Sections of an Act with no arrangement: 1, 2, 2A, 3 ... or I, II, III ...

    A gap of one number is tolerated (a lost heading) so one bad line does not end the Act.
    """
    starts: list[_Start] = []
    roman: bool | None = None
    last, last_suffix = 0, ""
    chapter: tuple[str | None, str | None] = (None, None)
    for index in range(body_at, len(body)):
        chapter = chapters.at.get(index, chapter)
        line = body[index]
        if line.kind != "text":
            continue
        parsed = _sequence_number(line.text, roman)
        if parsed is None:
            continue
        value, suffix, is_roman, printed = parsed
        next_number = value in (last + 1, last + 2) and not suffix
        inserted = value == last and suffix > last_suffix and bool(starts)
        if not (next_number or inserted) or (roman is None and value != 1):
            continue
        roman = is_roman
        last, last_suffix = value, suffix
        starts.append(_Start(index, printed, CONFIDENCE_SEQUENTIAL, notes.get(value, ""),
                             *chapter))
    return starts


def _sequence_number(text: str, roman: bool | None) -> tuple[int, str, bool, str] | None:
    """(value, letter suffix, is Roman, number to record) for a line opening a section."""
    if roman is not True:
        match = NUMBERED.match(text)
        if match and SECTION_TEXT_START.match(match["rest"]):
            printed = _printed(match["num"])
            digits = re.match(r"\d+", printed)[0]
            return int(digits), printed[len(digits) :].lstrip("-"), False, printed
    if roman is not False:
        match = ROMAN_NUMBERED.match(text)
        if match and SECTION_TEXT_START.match(match["rest"]):
            value = _roman_value(match["num"])
            if value:
                return value, "", True, str(value)
    return None


def _roman_value(numeral: str) -> int:
    """Integer value of a well-formed Roman numeral, 0 when it is not one."""
    total = 0
    for i, char in enumerate(numeral):
        value = ROMAN_VALUES[char]
        following = ROMAN_VALUES[numeral[i + 1]] if i + 1 < len(numeral) else 0
        total += -value if value < following else value
    return total if total > 0 and _to_roman(total) == numeral else 0


def _to_roman(value: int) -> str:
    out = []
    for number, numeral in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"),
                            (9, "IX"), (5, "V"), (4, "IV"), (1, "I")):
        count, value = divmod(value, number)
        out.append(numeral * count)
    return "".join(out)


def _marginal_notes(body: list[_Line], body_at: int) -> dict[int, str]:
    """Old Acts list marginal notes (`2, 3. Empowers ...`) before the preamble; titles."""
    notes: dict[int, str] = {}
    numbers: list[int] = []
    act_at = _find(body, 0, lambda compact: ACT_NUMBER.match(compact))
    for line in body[(act_at or 0) : body_at]:
        match = MARGINAL_NOTE.match(line.text)
        if match:
            numbers = [int(n) for n in re.findall(r"\d+", match["nums"])]
            for number in numbers:
                notes[number] = match["note"]
        else:
            for number in numbers:
                notes[number] = f"{notes[number]} {line.text}"
    return notes


# --- records ----------------------------------------------------------------------------


def _span_end(body: list[_Line], starts: list[_Start], n: int) -> int:
    """Index after a section's last line: the next section's line, or for the last one the
    first schedule heading after it."""
    here = starts[n].index
    following = next((s.index for s in starts[n + 1 :] if s.index > here), None)
    if following is not None:
        return following
    for index in range(here + 1, len(body)):
        line = body[index]
        if line.kind == "text" and _is_upper(line.text) and len(line.text) < 80 \
                and SCHEDULE_HEADING.match(_compact(line.text)):
            return index
    return len(body)


def _record(body: list[_Line], start: _Start, end: int, act_code: str) -> SectionRecord:
    first = body[start.index]
    numbered = NUMBERED.match(first.text) or ROMAN_NUMBERED.match(first.text)
    if start.shared or not numbered:
        title, text_lines, skip = "", [first.text], 0
    else:
        title, text_lines, skip = _heading(body, start.index, end, numbered["rest"],
                                           start.fallback_title)
    text_lines += [
        body[i].text for i in range(start.index + 1 + skip, end) if body[i].kind == "text"
    ]
    text = "\n".join(t for t in text_lines if t)
    footnotes = "\n".join(
        body[i].text for i in range(start.index, end) if body[i].kind == "footnote"
    )
    title = _clean_title(title or start.fallback_title)
    return SectionRecord(
        act_code=act_code,
        section_number=start.number,
        title=title,
        text=text,
        chapter_number=start.chapter_number,
        chapter_title=start.chapter_title,
        footnotes=footnotes,
        status=_status(title, start.fallback_title, text),
        extraction_confidence=start.confidence,
        source_file=first.source.source_file,
        source_line=first.source.line,
    )


def _heading(
    body: list[_Line], index: int, end: int, rest: str, expected_title: str
) -> tuple[str, list[str], int]:
    """(title, first text lines, continuation lines used) for a section's opening line.

    The title runs up to the dash after it (`Short title. ― (1) This Act ...`). A title may
    wrap onto the next lines, which then must end it with `. ―`; when the arrangement gives
    a title, a wrapped one must not run far past it (a dash further down is not the title's).
    """
    match = HEADING_END.search(rest)
    if match and match.start() <= MAX_TITLE_CHARS:
        return rest[: match.start()], [rest[match.end() :].strip()], 0
    joined = rest
    for extra in range(1, MAX_HEADING_LINES):
        index_next = index + extra
        if index_next >= end or body[index_next].kind != "text":
            break
        joined = f"{joined} {body[index_next].text}"
        match = HEADING_END_AFTER_STOP.search(joined)
        if match and match.start() <= MAX_TITLE_CHARS:
            title = joined[: match.start()]
            if expected_title and len(_norm(title)) > len(_norm(expected_title)) + 15:
                break
            return title, [joined[match.end() :].strip()], extra
    return "", [rest], 0


def _clean_title(title: str) -> str:
    title = BRACKETED_MARKER.sub("", title).replace("[", "").replace("]", "")
    return SPACES.sub(" ", title).strip(" .")


def _status(title: str, arrangement_title: str, text: str) -> str:
    for probe in (_norm(title), _norm(arrangement_title)):
        if OMITTED_TITLE.match(probe):
            return REPEALED if probe.startswith("rep") else OMITTED
    return stub_status(text) or IN_FORCE


def _trailing(body: list[_Line], starts: list[_Start], act_code: str) -> Quarantined | None:
    """The schedules (or notes) after the last section, which are not sections themselves."""
    end = _span_end(body, starts, len(starts) - 1)
    tail = [line for line in body[end:] if line.kind == "text"]
    if not tail:
        return None
    return Quarantined(
        source_file=tail[0].source.source_file, source_line=tail[0].source.line,
        act_code=act_code, section_number=None, reason="trailing_text_not_sectioned",
        detail=f"{act_code}: {len(tail)} lines after section {starts[-1].number} start with "
               f"{tail[0].text[:60]!r} (a schedule or notes), not kept in any section",
        excerpt="\n".join(line.text for line in tail[:10])[:500],
    )


def _not_found(act_code: str, entry: _Entry) -> Quarantined:
    return Quarantined(
        source_file=entry.source.source_file, source_line=entry.source.line,
        act_code=act_code, section_number=entry.number, reason="section_body_not_found",
        detail=f"{act_code}: the arrangement lists section {entry.number} "
               f"({_clean_title(entry.title)!r}) but no body line starting "
               f"'{entry.number}.' was found in order",
        excerpt=entry.source.text.strip(),
    )


# --- small helpers ----------------------------------------------------------------------


def _printed(number: str) -> str:
    return re.sub(r"\s+", "", number)


def _key(number: str) -> str:
    return re.sub(r"[\s\-]", "", number).upper()


def _norm(text: str) -> str:
    """Lowercase letters and digits only, amendment markers removed: for comparing titles."""
    return re.sub(r"[^a-z0-9]", "", BRACKETED_MARKER.sub("", text).lower())


def _title_matches(arrangement_title: str, body_text: str) -> bool:
    expected = _norm(arrangement_title)[:TITLE_PREFIX]
    return bool(expected) and _norm(body_text).startswith(expected)


def _is_omitted(title: str) -> bool:
    return bool(OMITTED_TITLE.match(_norm(title)))


def _with_next(body: list[_Line], index: int, rest: str) -> str:
    """A heading's text with the following line, for titles that wrap."""
    if index + 1 < len(body) and body[index + 1].kind == "text":
        return f"{rest} {body[index + 1].text}"
    return rest
