"""What India Code says of a section that is no longer law: the note that omitted, repealed or
struck it down, and from when.

A section the Act has dropped keeps its place in the sections table (status `omitted` or
`repealed`), usually with its old heading and the note that dropped it ("[Power to delegate.]
Rep. by s. 42, ibid. (w.e.f. 26-2-1987)."); a section the Supreme Court struck down keeps its old
text and says so in a footnote (IT Act s.66A). A citation of it is not a citation of the law
unless the conduct came before that date, so the verifier needs the note and the date, read
here from the texts as India Code prints them (page text included: "Omit ted", "19 93").
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from nyaya.statutes.model import OMITTED, REPEALED

STRUCK_DOWN = "struck down"
#: the words that drop a section, as printed (page text splits "Omitted" and "repeal")
DROPPED = re.compile(r"\b(?:omit\s?ted|rep\s?\.|re\s?pealed|struck\s+down)", re.IGNORECASE)
STRUCK = re.compile(r"\bstruck\s+down\b", re.IGNORECASE)
#: "w.e.f. 26-12-1993", page text's "( w.e.f. 26 - 12 - 19 93 )" included
WEF = re.compile(r"w\s*\.\s*e\s*\.\s*f\s*\.?\s*(\d[\d ]*?)\s*[-./]\s*(\d[\d ]*?)\s*[-./]\s*"
                 r"(\d[\d ]*\d)", re.IGNORECASE)
MONTHS = ("january", "february", "march", "april", "may", "june", "july", "august",
          "september", "october", "november", "december")
#: "with effect from the 27th May, 1950", "Order dated 24th March, 2015"
WORDED = re.compile(r"(?:with\s+effect\s+from|dated)\s+(?:the\s+)?(\d{1,2})\s*(?:st|nd|rd|th)?\s+"
                    rf"({'|'.join(MONTHS)})\s*,?\s*(\d{{4}})", re.IGNORECASE)
#: a section whose whole text is the note that dropped it ("[Power to delegate.] Rep. by s. 42,
#: ibid.", "19. [Composition of Appellate Tribunal.] Omitted by the Finance Act, 2017"): the
#: note at the start, or after the old heading in brackets or the section's number
STUB_REPEALED = re.compile(r"(?:^|\]\s*\.?)\s*(?:[―—–]|-{1,2})?\s*Rep(?:ealed)?\.? ?by")
STUB_OMITTED = re.compile(r"(?:^|\]\s*\.?|\d\s?[A-Z]{0,4}\.)\s*(?:[―—–]|-{1,2})?\s*Omit ?ted by")
STUB_CHARS = 400  # a longer text holds more than the note
NOTE_CHARS = 220
HEADING_CHARS = 120  # a note this near the start keeps the old heading before it
FOOTNOTE = re.compile(r"(?:^|\n)\s*\d+\.\s+")


@dataclass(frozen=True)
class Omission:
    """Why a section is no longer law: `kind` (omitted, repealed or struck down), the note as
    India Code prints it (None when it prints none) and the date it took effect, when the note
    gives one (a struck-down section was never valid law, whatever its date)."""

    kind: str
    note: str | None
    effective: str | None  # ISO date

    def describe(self) -> str:
        """"omitted from 1993-12-26 (<the note>)", for every message."""
        when = f" from {self.effective}" if self.effective and self.kind != STRUCK_DOWN else ""
        note = (self.note or "India Code prints no note saying by what or when").rstrip(".")
        return f"{self.kind}{when} ({note})"

    def in_force_on(self, when: date | None) -> bool:
        """Whether the section was still law on `when`: only before a known effective date,
        and never once struck down."""
        return (when is not None and self.kind != STRUCK_DOWN and self.effective is not None
                and when < date.fromisoformat(self.effective))


def stub_status(text: str) -> str | None:
    """REPEALED or OMITTED for a section whose text is only the note that dropped it, whatever
    its (often garbled: "Omi tted", "ic9560Omitted.ic9563") title says; None otherwise."""
    if len(text) >= STUB_CHARS:
        return None
    if STUB_REPEALED.search(text):
        return REPEALED
    if STUB_OMITTED.search(text):
        return OMITTED
    return None


def omission(status: str, text: str | None, footnotes: str | None,
             section_number: str | None = None) -> Omission | None:
    """The omission of a section whose status is omitted or repealed; None for one in force.
    The note is the footnote that strikes the section itself down when there is one, else the
    first words in its text that drop it, else the first footnote that does."""
    if status not in (OMITTED, REPEALED):
        return None
    body = " ".join((text or "").split())
    notes = [" ".join(part.split()) for part in FOOTNOTE.split(footnotes or "") if part.strip()]
    struck = next((n for n in notes if STRUCK.search(n) and _names_section(n, section_number)),
                  None)
    note = struck or _note_in(body) or next(filter(None, map(_note_in, notes)), None)
    kind = STRUCK_DOWN if struck else status
    return Omission(kind, note, _effective(note) if note else None)


def _names_section(note: str, section_number: str | None) -> bool:
    """A footnote about the section itself ("Section 66A has been struck down"), not about an
    amendment of it ("This amendment has been struck down")."""
    return bool(section_number) and re.search(
        rf"\bsection\s+{re.escape(section_number)}\b", note, re.IGNORECASE) is not None


def _note_in(text: str) -> str | None:
    """The words that drop the section, from its old heading when that comes first."""
    found = DROPPED.search(text)
    if found is None:
        return None
    start = 0 if found.start() <= HEADING_CHARS else found.start()
    note = text[start:].lstrip("^0123456789 ")
    return note if len(note) <= NOTE_CHARS else note[:NOTE_CHARS].rsplit(" ", 1)[0] + "..."


def _effective(note: str) -> str | None:
    """The note's date of effect as an ISO date; None when it gives none that is a real
    date ("w.e.f. 6-9-192" is a misprint, not year 192)."""
    found = WEF.search(note)
    if found:
        day, month, year = (int(part.replace(" ", "")) for part in found.groups())
    else:
        worded = WORDED.search(note)
        if worded is None:
            return None
        day, month, year = (int(worded[1]), MONTHS.index(worded[2].lower()) + 1,
                            int(worded[3]))
    if not 1800 <= year <= 2100:
        return None
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None
