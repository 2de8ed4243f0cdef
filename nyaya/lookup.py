"""Deterministic exact lookup of a statute citation: the base that verification builds on.

`parse_citation` turns what people write ("s. 302 IPC", "BNS_2023 s.103", "Article 21 of the
Constitution", "u/s 438 Cr.P.C.") into act_code + section; `StatuteLookup` answers from the
sections table and names successors of repealed-code sections from the transition map.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable
from dataclasses import asdict, dataclass, field, replace
from functools import cached_property
from pathlib import Path

import pandas as pd

from nyaya.citations.statutes import (
    ARTICLE,
    ORDER_RULE,
    SECTION,
    code_year,
    extract_statute_mentions,
    roman_value,
)
from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.omissions import FOOTNOTE, STRUCK_DOWN, Omission, omission
from nyaya.statutes.registry import (
    AliasIndex,
    absent_schedules,
    dropped_provisions,
    former_names,
    known_gaps,
    loose_name,
    normalize_alias,
    shared_names,
    struck_down,
)
from nyaya.statutes.repeals import Repeal, repealed_acts
from nyaya.statutes.structure import split_units
from nyaya.statutes.structured import to_roman
from nyaya.tables import read_table
from nyaya.verify.absent_acts import (
    HELD_ACTS,
    AbsentAct,
    AbsentActs,
    act_key,
    provision_key,
    shown,
)
from nyaya.verify.model import CORROBORATED, NOT_FOUND, NOT_IN_FORCE, UNVERIFIABLE, VERIFIED

DOUBLED_STOP = re.compile(r"(?<!\.)\.\.(?=\s|$)")  # "fine.. (2)", not an ellipsis "..."
CONSTITUTION = "COI"  # its curated act code (nyaya/facts/acts.yaml): numbered in Articles
#: an Order of the CPC's First Schedule as the extractor writes it: "O39R1", "O37"
ORDER_KEY = re.compile(r"^O(?P<order>\d+)(?:R(?P<rule>\d+[A-Z]*))?$")


def provision_label(act_code: str | None, number: str | None, unit: str | None = None,
                    kind: str = SECTION) -> str:
    """How a provision is named in every message: "BNS_2023 s.103(1)", "COI Art.21",
    "CPC_1908 Order XXXIX Rule 1", "LA_1963 Schedule Art.113"."""
    order = ORDER_KEY.match(number or "")
    if order:
        rule = f" Rule {order['rule']}" if order["rule"] else ""
        return f"{act_code or '?'} Order {to_roman(int(order['order']))}{rule}{unit or ''}"
    name = "Art." if act_code == CONSTITUTION else "Schedule Art." if kind == ARTICLE else "s."
    return f"{act_code or '?'} {name}{number or '?'}{unit or ''}"


def cited_as(doc_id: str) -> str:
    """A section doc id ("BNS_2023:103", "COI:21") as an answer cites it ("BNS_2023 s.103",
    "Article 21"), for the gate to verify what a search returned."""
    act, number = doc_id.split(":", 1)
    return f"Article {number}" if act == CONSTITUTION else f"{act} s.{number}"


def _text(value: object) -> str | None:
    """A table cell as text: None for a missing one (pandas gives NaN, not None)."""
    return value if isinstance(value, str) and value.strip() else None

UNIT_WRITTEN = r"(?P<unit>(?:\s?\([0-9A-Za-z]{1,6}\))*)"  # "(1)(ia)", "(2) (b)"
# "304-A", "498A", and India Code's dash before an I or O after a letter: "64U-I", "378Z-O"
SECTION_NUMBER = r"\d+(?:[A-Za-z]{1,2}-[IOio]\b|-[A-Z]{1,4}\b|[A-Za-z]{0,4})"
ARTICLE_CITED = re.compile(
    r"\b(?:article|art\.?)\s*(?P<number>\d+(?:-[A-Z]{1,2}\b|[A-Za-z]{0,2}))" + UNIT_WRITTEN,
    re.IGNORECASE)
SECTION_WORD = re.compile(
    r"(?:\bsections?\b\.?|\bsecs?\b\.?|(?<![\w.])s\.|(?<![\w.])ss\.|\bu/s\.?)\s*"
    rf"(?P<number>{SECTION_NUMBER})"
    + UNIT_WRITTEN,
    re.IGNORECASE,
)
BARE_NUMBER = re.compile(
    rf"(?<![\w(])(?P<number>{SECTION_NUMBER})(?P<unit>(?:\([0-9A-Za-z]{{1,6}}\))*)(?![\w)])"
)
ORDER_CITED = re.compile(
    r"(?:\border|(?<![\w.])o\.)\s*(?P<order>[IVXLC]{1,7}|\d{1,3})\b\.?"
    r"(?:\s*,?\s*(?:rules?|r\.)\s*(?P<rule>\d+[A-Z]?))?",
    re.IGNORECASE)
FILLER = re.compile(r"^(?:\s*(?:of|the|under|in|to)\b\s*|\s*[,-]\s*)+", re.IGNORECASE)
YEAR = re.compile(r"\b((?:18|19|20)\d\d)\b")  # a year, alone or written with an Act's name
PREAMBLE = re.compile(r"\bpreamble\b", re.IGNORECASE)


@dataclass(frozen=True)
class ParsedCitation:
    raw: str
    act_code: str | None
    section_number: str | None  # as written, uppercased: "304A"
    unit: str | None  # "(1)(ia)" when the citation names a sub-section or clause
    problem: str | None  # why act or section could not be read, when one could not
    #: how the provision is numbered: a section, an Article (the Constitution's, or a
    #: schedule's in another Act) or an Order and Rule of the CPC
    kind: str = SECTION
    act_written: str | None = None  # the words naming an Act that could not be read
    dated: bool = False  # whether the Act was written with a year
    named_as: str | None = None  # the words that named the Act it was read as


SHOWN_ACTS = 4  # Acts named when initials may be several, or a number cited alone
#: words that refer to an Act without naming it: looked up alone, they name none
GENERIC_REFERENCE = re.compile(r"(?:of|under|in|to|by)?\s*(?:the|this|that)?\s*(?:said\s+)?"
                               r"(?:Act|Code|Sanhita|Adhiniyam|Ordinance)[\s,.;:]*",
                               re.IGNORECASE)
#: an Act amending another: "Arbitration and Conciliation (Amendment) Act, 2015", "Criminal Law
#: (Second Amendment) Act", "Companies Amendment Act"
AMENDING = re.compile(r"(?P<base>.+?)\s*\(?\s*(?:(?:First|Second|Third|Fourth)\s+)?"
                      r"Amendment\s*\)?\s*Act\b.*", re.IGNORECASE)
#: an Act named by a State, or a province before 1950, first: "Bombay Prevention of Gambling Act"
STATE_ACT = re.compile(
    r"(?P<state>Andhra Pradesh|Arunachal Pradesh|Assam|Bihar|Bombay|Chhattisgarh|Goa|Gujarat|"
    r"Haryana|Himachal Pradesh|Hyderabad|Jammu and Kashmir|J\s*&\s*K|Jharkhand|Karnataka|"
    r"Kerala|Madhya Pradesh|M\.\s?P\.|Madras|Maharashtra|Manipur|Meghalaya|Mizoram|Mysore|"
    r"Nagaland|Orissa|Odisha|Punjab|Panjab|Rajasthan|Sikkim|Tamil Nadu|Telangana|Tripura|"
    r"Travancore-Cochin|U\.\s?P\.|United Provinces|Uttar Pradesh|Uttarakhand|West Bengal|"
    r"Bengal|Central Provinces|C\.\s?P\.|Saurashtra|Pondicherry|Puducherry)\b"
    r"(?=.*\b(?:Act|Code|Ordinance)\b)", re.IGNORECASE)
NO_ACT_NAMED = "no Act named"
#: named first among the Acts that hold a number cited without its Act
CODES_FIRST = ("BNS_2023", "BNSS_2023", "BSA_2023", "IPC_1860", "CrPC_1973", "IEA_1872", "COI")
LEAD_THE = re.compile(r"^the\s+", re.IGNORECASE)
#: the first unit of a cited provision when it is a numbered sub-section: "7" of "(7)(a)"
LEAD_UNIT = re.compile(r"^\((?P<number>\d+[A-Za-z]{0,2})\)")
#: a numbered sub-section where one opens: a line's start, or after the heading's dash
SUB_SECTION_OPENS = re.compile(r"(?:^|\n|--|[—―–]|\.)[ \t]*\((\d+[A-Za-z]{0,2})\)[ \t\n]")
#: Rules, Regulations or Bye-laws made under an Act, which the corpus does not hold
SUBORDINATE = re.compile(r"\b(?:Rules|Regulations|Bye-?laws)\b(?:,?\s*\d{4})?\s*$",
                         re.IGNORECASE)
NAME_LEAD = re.compile(r"^\s*(?:(?:of|under|in|to|by)\s+)?(?:the\s+)?", re.IGNORECASE)


@dataclass(frozen=True)
class UnreadName:
    """What an Act's name that the registry's aliases do not read is (`StatuteLookup.
    read_name`): a registry Act, an Act the corpus lacks, the Acts whose initials it may be,
    or nothing known."""

    written: str = ""
    held: str | None = None  # the registry Act it names
    absent: AbsentAct | None = None  # the Act the corpus lacks that it names
    initials_of: tuple[str, ...] = ()  # the titles of the Acts it may be the initials of
    read_as_initials: bool = False  # `held` was read from its title's initials
    read_by_head: bool = False  # `held` was read as its title without the bracketed words
    #: the titles of the Acts whose names end with it ("the Stamp Act")
    ending_of: tuple[str, ...] = ()
    repealed: Repeal | None = None  # the Act the corpus lacks that an Act it holds repeals
    amends: str | None = None  # the title of the Act the corpus holds that it amends
    state: str | None = None  # the State (or province) whose Act it names

    def repeal_note(self, reason: str) -> str:
        """`reason`, and who repealed the Act, when an Act the corpus holds did."""
        if self.repealed is None:
            return reason
        said = self.repealed.describe()
        return f"{reason} {said[0].upper()}{said[1:]}."

    def repealed_reason(self) -> str:
        """Why a section of an Act that an Act of the corpus repeals is UNVERIFIABLE, never
        NOT_FOUND: the Act was real, and law until the repeal took effect."""
        repeal = self.repealed
        written = NAME_LEAD.sub("", self.written).strip()
        undated = ("" if act_key(written)[1] else
                   f" '{written}', written without its year, was read as it, the one Act of "
                   "that name an Act of the corpus repeals.")
        former = (f" '{written}' is its former name." if loose_name(written)[0] in former_names()
                  else "")
        return (f"The corpus does not hold the {repeal.name} ({HELD_ACTS}): "
                f"{repeal.describe()}.{former}{undated} It cannot be verified here: check it "
                "against the official text for conduct before the repeal, and cite the "
                f"{repeal.by_title} for conduct after it.")

    @property
    def candidates(self) -> tuple[str, ...]:
        """The Acts it may be, as initials or shortened: UNVERIFIABLE, never NOT_FOUND."""
        return self.initials_of or self.ending_of

    def unsure(self) -> str:
        """Why a citation of what may be initials, or a shortened name, is UNVERIFIABLE, never
        NOT_FOUND: such names of real Acts are no invention, but which Act they mean is a
        guess (a shortened one may be a State's Act the corpus does not know)."""
        titles = ["the " + LEAD_THE.sub("", title) for title in self.candidates[:SHOWN_ACTS]]
        if len(self.candidates) > SHOWN_ACTS:
            titles.append(f"{len(self.candidates) - SHOWN_ACTS} more")
        named = " and ".join([", ".join(titles[:-1]), titles[-1]] if len(titles) > 1 else titles)
        how = "as initials it may be " if self.initials_of else "shortened, it may be "
        tail = "" if self.initials_of else ", or an Act the corpus does not know"
        return (f"'{self.written}' is no name the registry holds; {how}{named}{tail}: name the "
                "Act in full to verify this citation")

    def reading_note(self, title: str) -> str:
        """How the name was read as the Act the corpus holds, when not by its aliases."""
        title = LEAD_THE.sub("", title)
        if self.read_as_initials:
            return (f" ('{self.written}' read as the initials of the {title}, the only Act the "
                    "corpus holds or its judgments cite with those initials.)")
        if self.read_by_head:
            return (f" ('{self.written}' read as the {title}, the only Act the corpus holds "
                    "whose title, without its bracketed words, is that name.)")
        return ""

    def unheld_reason(self) -> str | None:
        """Why a section of an amending Act, or of a State's Act, is UNVERIFIABLE, never
        NOT_FOUND; None for any other name."""
        if self.amends:
            return (f"'{self.written}' amends the {self.amends}, which the corpus holds as "
                    "amended, not the amending Act: cite the section of the "
                    f"{self.amends} that it inserted or amended")
        if self.state:
            return (f"'{self.written}' is an Act of {self.state}; the corpus holds the central "
                    "Acts only, so it cannot be verified here: check it against the State's "
                    "official text")
        return None


@dataclass
class LookupResult:
    #: VERIFIED (in the table and law today), NOT_IN_FORCE (in the table, but its Act dropped
    #: it or the Court struck it down), UNVERIFIABLE (in law, its text not in the corpus),
    #: CORROBORATED (an Act the corpus lacks, its section cited by several corpus judgments:
    #: `act_code` None, `act_title` as they write it) or NOT_FOUND; a section of a wholly
    #: repealed code is VERIFIED, its successors beside it
    status: str
    query: str
    act_code: str | None
    section_number: str | None
    unit: str | None = None
    title: str | None = None
    act_title: str | None = None
    era: str | None = None
    applicable_from: str | None = None
    chapter_number: str | None = None
    chapter_title: str | None = None
    section_status: str | None = None
    #: why a section its Act dropped (or the Court struck down) is no longer law; None for a
    #: section in force and for one of a wholly repealed code (its Act's repeal says that)
    omission: Omission | None = None
    extraction_confidence: float | None = None
    text_preview: str | None = None
    reason: str | None = None
    #: an Act of the same name and another year, which the corpus lacks, whose provision of
    #: that number its judgments cite: what an undated citation the Act lacks may mean
    older_act: AbsentAct | None = None
    #: why the corpus lacks a section that exists in law (nyaya/facts/known_gaps.yaml, or the
    #: ingest quarantine's heading without text): not found here, but not invented either
    known_gap: str | None = None
    #: why the sub-section cited is not in the section held (`StatuteLookup.unit_unheld`): the
    #: section is, so the citation is UNVERIFIABLE, neither VERIFIED nor called invented
    unit_unheld: str | None = None
    successors: list[dict] = field(default_factory=list)
    predecessors: list[dict] = field(default_factory=list)
    numbered_as: str = SECTION  # ParsedCitation.kind
    #: how a short name two Acts go by was read as the other Act (`shared_names`)
    namesake: str | None = None

    @property
    def found(self) -> bool:
        """Whether the sections table holds it, in force or not."""
        return self.status in (VERIFIED, NOT_IN_FORCE) and self.known_gap is None

    def to_dict(self) -> dict:
        return asdict(self)


def parse_citation(text: str, aliases: AliasIndex) -> ParsedCitation:
    """Read one statute citation; never guesses an Act it cannot name."""
    raw = text.strip()
    order = ORDER_CITED.search(raw)
    if order and (number := roman_value(order["order"].upper())):
        rest = (raw[: order.start()] + " " + raw[order.end():]).strip()
        act = _act_in(rest, aliases) if rest else aliases.resolve("CPC")
        rule = f"R{order['rule'].upper()}" if order["rule"] else ""
        return ParsedCitation(raw, act, f"O{number}{rule}", None,
                              None if act else f"Act not recognised in {rest!r}", ORDER_RULE,
                              act_written=None if act else rest)
    article = ARTICLE_CITED.search(raw)
    if article:
        rest = (raw[: article.start()] + " " + raw[article.end():]).strip()
        act = _act_in(rest, aliases) if rest else aliases.resolve("Constitution")
        unit = re.sub(r"\s", "", article["unit"] or "") or None
        return ParsedCitation(raw, act, article["number"].upper().replace("-", ""), unit,
                              None if act else f"Act not recognised in {rest!r}", ARTICLE,
                              act_written=None if act else rest, dated=bool(YEAR.search(rest)))
    if PREAMBLE.search(raw):
        return ParsedCitation(raw, aliases.resolve("Constitution"), "Preamble", None, None)
    match = SECTION_WORD.search(raw) or _bare_number(raw)
    if not match:
        return ParsedCitation(raw, _act_in(raw, aliases), None, None, "no section number found")
    rest = (raw[: match.start()] + " " + raw[match.end():]).strip()
    act = _act_in(rest, aliases)
    unit = re.sub(r"\s", "", match["unit"] or "") or None
    named = rest and not GENERIC_REFERENCE.fullmatch(rest)  # "of the Code": which, it says not
    problem = None if act else (f"Act not recognised in {rest!r}" if named else NO_ACT_NAMED)
    return ParsedCitation(raw, act, match["number"].upper(), unit, problem,
                          act_written=rest if not act and named else None,
                          dated=bool(YEAR.search(rest)), named_as=rest if act else None)


def _bare_number(text: str) -> re.Match | None:
    """The section number in '302 IPC' or 'Indian Penal Code 1860 302': not the Act's year."""
    candidates = list(BARE_NUMBER.finditer(text))
    numbers = [m for m in candidates if not YEAR.fullmatch(m["number"])]
    return (numbers or candidates or [None])[0]


def _act_in(text: str, aliases: AliasIndex) -> str | None:
    cleaned = FILLER.sub("", re.sub(r"[,;:]+$", "", text.strip())).strip()
    if not cleaned:
        return None
    exact = aliases.resolve(cleaned)
    if exact:
        return exact
    found = aliases.longest_in(cleaned)
    # Accept a contained alias only when it is whole words ("TPA" is not inside "COTPA", nor
    # "TP Act" inside "MTP Act") and most of what was written, so a stray short alias inside
    # unrelated words cannot pick an Act; and never when the words name another year: "the
    # Consumer Protection Act, 1986" is not the Act of 2019.
    if (found and found[1] in _word_runs(cleaned)
            and len(found[1]) >= 0.6 * len(re.sub(r"[^a-z0-9]", "", cleaned.lower()))):
        written, enacted = YEAR.findall(cleaned), code_year(found[0])
        if written and enacted and enacted not in written:
            return None
        return found[0]
    return None


def _word_runs(text: str) -> set[str]:
    """Each run of consecutive words of `text` as `normalize_alias` writes an alias
    ("Cr.P.C. 1973" gives "cr", "crp", "crpc", "crpc1973", ...): the forms a contained alias
    may take."""
    words = [normalize_alias(word) for word in re.findall(r"[A-Za-z0-9&]+", text)]
    return {"".join(words[i:j]) for i in range(len(words)) for j in range(i + 1, len(words) + 1)}


SECTION_COLUMNS = ["act_code", "section_number", "title", "text", "footnotes",
                   "chapter_number", "chapter_title", "status", "extraction_confidence"]


def read_sections(path: Path) -> pd.DataFrame:
    """The sections table's columns a StatuteLookup reads; a table without them is refused by
    name, where pandas' KeyError would list only the columns."""
    sections = read_table(path)
    missing = [column for column in SECTION_COLUMNS if column not in sections.columns]
    if missing:
        raise ValueError(f"{path}: lacks column(s) {', '.join(missing)}; build the tables "
                         "again (`make run`)")
    return sections[SECTION_COLUMNS]


#: quarantine reasons of a section the source names (a heading, an arrangement entry) but whose
#: text could not be read: it exists in law, so citing it is no invention
UNTEXTED_REASONS = ("section_text_missing", "section_body_not_found")


def untexted_sections(quarantine: pd.DataFrame) -> dict[tuple[str, str], str]:
    """(act_code, normalized section) -> why its text is missing, from the ingest quarantine's
    rows: "the source has the heading 'Definitions' but no text under it"."""
    rows = quarantine[quarantine["reason"].isin(UNTEXTED_REASONS)
                      & quarantine["act_code"].notna() & quarantine["section_number"].notna()]
    return {(act, normalize_section_number(number)): f"{source}: {detail}"
            for act, number, source, detail in zip(
                rows["act_code"], rows["section_number"], rows["source_file"], rows["detail"],
                strict=True)}


def read_untexted(path: Path) -> dict[tuple[str, str], str]:
    """`untexted_sections` of the ingest quarantine table at `path`."""
    return untexted_sections(read_table(
        path, ["reason", "act_code", "section_number", "source_file", "detail"]))


class StatuteLookup:
    """In-memory exact lookup over the sections table (plain dicts, built once). `untexted`:
    sections the source names but whose text could not be read (`read_untexted`), which are
    UNVERIFIABLE like the known gaps, not NOT_FOUND."""

    def __init__(self, registry: list[dict], sections: list[dict], transitions: list[dict],
                 aliases: AliasIndex,
                 untexted: dict[tuple[str, str], str] | None = None,
                 absent_acts: Callable[[], AbsentActs] | None = None) -> None:
        """`absent_acts` builds, when a citation of an Act not in the registry first needs
        them, the Acts the corpus lacks that its judgments cite (`absent_acts_of`); without
        it such a citation is NOT_FOUND."""
        self.aliases = aliases
        self._absent_acts_of = absent_acts
        #: sections in law whose text the corpus lacks, and why
        self.gaps = {**(untexted or {}), **known_gaps()}
        self.acts = {row["act_code"]: row for row in registry}
        self.sections = {(row["act_code"], normalize_section_number(row["section_number"])): row
                         for row in sections}
        self.successors: dict[tuple[str, str], list[dict]] = defaultdict(list)
        self.predecessors: dict[tuple[str, str], list[dict]] = defaultdict(list)
        self._previews: dict[tuple[str, str], str] = {}
        self._units: dict[tuple[str, str], frozenset[str]] = {}
        for row in transitions:
            # Rows may come from a DataFrame, where a missing side is NaN rather than None.
            if not isinstance(row.get("old_section"), str) or not isinstance(
                    row.get("new_section"), str):
                continue
            old = (row["old_act_code"], normalize_section_number(row["old_section"]))
            new = (row["new_act_code"], normalize_section_number(row["new_section"]))
            _merge_link(self.successors[old], row["new_act_code"], row["new_section"], row)
            _merge_link(self.predecessors[new], row["old_act_code"], row["old_section"], row)

    def _preview(self, key: tuple[str, str], row: dict) -> str:
        """The section's opening text on one line, made once per section: the verification
        gate resolves the same sections over and over."""
        found = self._previews.get(key)
        if found is None:
            # India Code prints some clause ends doubled ("liable to fine..", 84 sections):
            # the table keeps the source as printed, the preview reads as the law does
            text = DOUBLED_STOP.sub(".", " ".join(row["text"].split()))
            found = self._previews[key] = text[:300] + ("..." if len(text) > 300 else "")
        return found

    @cached_property
    def absent_acts(self) -> AbsentActs | None:
        return self._absent_acts_of() if self._absent_acts_of else None

    def warm(self) -> None:
        """Read now what is otherwise read when a citation first needs it: the Acts the corpus
        lacks (from the judgments' citations) and the curated short names. A server's first
        answer should not pay for them; a one-off lookup may never need them."""
        _ = self.absent_acts
        shared_names()

    def absent_act(self, written: str | None) -> AbsentAct | None:
        """The Act the corpus lacks of a name as written, when enough of its judgments cite
        it (`AbsentAct.corroborated`); None otherwise, or without the judgments."""
        act = self.absent_acts.named(written) if written and self.absent_acts else None
        return act if act is not None and act.corroborated else None

    @cached_property
    def repeals(self) -> dict[str, list[tuple[str, Repeal]]]:
        """Name key -> (year, Repeal) of each Act that an Act of the corpus repeals."""
        titles = {code: str(row.get("title") or code) for code, row in self.acts.items()}
        by_name: dict[str, list[tuple[str, Repeal]]] = defaultdict(list)
        for (key, year), repeal in sorted(repealed_acts(self.sections.values(), titles).items()):
            by_name[key].append((year, repeal))
        return by_name

    def repealed_act(self, written: str) -> Repeal | None:
        """The Act of a name as written (or of its later name, `former_names`) that an Act of
        the corpus repeals: of its year when written, else the one Act of that name; None
        otherwise."""
        now = former_names().get(loose_name(NAME_LEAD.sub("", written))[0])
        key, year = act_key(written)
        if now is not None:
            key = act_key(now)[0]
        found = [repeal for enacted, repeal in self.repeals.get(key, ())
                 if year is None or enacted == year]
        return found[0] if len(found) == 1 else None

    def read_name(self, written: str | None) -> UnreadName:
        """An Act's name that the aliases do not read: a registry Act's with "the", "of" or
        "and" dropped or added (`AliasIndex.loosely`), an Act the corpus lacks that its
        judgments cite (`absent_act`), else the Acts, held or not, whose title's initials it
        is ("PWDV Act", "ID Act"): the one registry Act of those initials is read as that
        Act; else the Acts they may be are named, and so are those the initials of whose
        title's last words it is ("GST Act") or whose names end with it ("the Stamp Act").
        Verification and lookup only: corpus extraction reads the aliases alone."""
        if not written:
            return UnreadName()
        held = self.aliases.loosely(written)
        if held is not None:
            return UnreadName(written, held=held)
        absent = self.absent_act(written)
        repealed = self.repealed_act(written)
        if absent is not None or repealed is not None:
            return UnreadName(written, absent=absent, repealed=repealed)
        codes = self.aliases.by_initials(written)
        absents = self.absent_acts.by_initials(written) if self.absent_acts else []
        written = NAME_LEAD.sub("", written).strip()
        if len(codes) == 1 and not absents:
            return UnreadName(written, held=codes[0], read_as_initials=True)
        headed = self.aliases.by_head(written)
        if len(headed) == 1 and self.aliases.by_head(written, qualified=True):
            return UnreadName(written, held=headed[0], read_by_head=True)
        state = STATE_ACT.match(written)  # "Orissa Act", "Bombay Prevention of Gambling Act"
        if state:
            return UnreadName(written, state=state["state"])
        # an Act the corpus lacks is never read from initials alone: its judgments could
        # only corroborate a guess
        # the initials of a title's last words, when no whole title has them, are a guess too
        # ("GST Act": a Goods and Services Tax Act, or the General Sales Tax Act)
        codes = codes or self.aliases.by_ending_initials(written)
        titles = sorted(self.acts[code]["title"] for code in codes)
        if titles or absents:
            return UnreadName(written, initials_of=(*titles, *(act.name for act in absents)))
        # a shortened name is never read as one Act: a State's Act of the same ending may be
        # meant, which the corpus does not know
        ended = sorted(self.acts[code]["title"] for code in {
            *self.aliases.by_ending(written), *headed})
        ended_absent = self.absent_acts.by_ending(written) if self.absent_acts else []
        if ended or ended_absent:
            return UnreadName(written, ending_of=(*ended, *(act.name for act in ended_absent)))
        amended = AMENDING.fullmatch(written)
        held = self.aliases.loosely(amended["base"] + " Act") if amended else None
        return UnreadName(written, amends=LEAD_THE.sub("", self.acts[held]["title"])
                          if held is not None else None)

    @cached_property
    def holders(self) -> dict[str, list[str]]:
        """normalized section number -> the Acts the sections table holds it in, the codes
        first."""
        held: dict[str, list[str]] = defaultdict(list)
        for act, number in self.sections:
            held[number].append(act)
        first = {code: i for i, code in enumerate(CODES_FIRST)}
        return {number: sorted(acts, key=lambda act: (first.get(act, len(first)), act))
                for number, acts in held.items()}

    def unnamed(self, number: str) -> str:
        """Why a section cited with no Act is UNVERIFIABLE, never NOT_FOUND: the number is no
        invention, its Act is missing; the Acts that hold it are named, to choose from."""
        return (f"the Act of section {number} is not named, so it cannot be verified: name it "
                f"({self.held_in(number)})")

    def held_in(self, number: str) -> str:
        """"the corpus holds a section 66A in 3 Acts: ITA_2000 s.66A (...), ...", the codes
        first, or that no Act it holds has one."""
        key = normalize_section_number(number)
        acts = self.holders.get(key, [])
        if not acts:
            return f"no Act the corpus holds has a section {number}"
        shown = [f"{provision_label(act, number)} ({self.sections[(act, key)]['title']})"
                 for act in acts[:SHOWN_ACTS]]
        more = f" and {len(acts) - SHOWN_ACTS} more" if len(acts) > SHOWN_ACTS else ""
        return (f"the corpus holds a section {number} in {len(acts)} Acts: "
                f"{', '.join(shown)}{more}")

    def lookup(self, text: str) -> LookupResult:
        return self.resolve(parse_citation(text, self.aliases))

    def lookup_all(self, text: str) -> list[LookupResult]:
        """Every provision a lookup's text names: one, or each of a list that is no single
        citation ("Sections 302 and 34 IPC", "Articles 14 and 21"), read by the extractor
        that verification reads answers with."""
        cited = parse_citation(text, self.aliases)
        if cited.section_number:  # "302/34 IPC", "Sections 13 and 14 of the HMA"
            listed = [m for m in extract_statute_mentions(text, self.aliases) if m.section]
            if len(listed) > 1:
                return [self.resolve(ParsedCitation(
                    text, m.act_code, m.section, m.unit,
                    None if m.act_code else m.problem or NO_ACT_NAMED, m.kind,
                    act_written=None if m.act_code else m.act_text,
                    dated=bool(m.act_text and YEAR.search(m.act_text)),
                    named_as=m.act_text if m.act_code else None)) for m in listed]
        return [self.resolve(cited)]

    def resolve(self, cited: ParsedCitation) -> LookupResult:
        result = LookupResult(NOT_FOUND, cited.raw, cited.act_code, cited.section_number,
                              cited.unit, numbered_as=cited.kind)
        if cited.problem:
            name = self.read_name(cited.act_written)
            if name.held is not None:
                found = self.resolve(replace(cited, act_code=name.held, problem=None,
                                             act_written=None))
                note = name.reading_note(found.act_title or name.held).strip()
                found.reason = f"{found.reason} {note}" if found.reason else note or None
                return found
            result.reason = cited.problem
            if name.absent is not None and cited.section_number:
                result.status, reason = name.absent.judged(cited.section_number, cited.kind)
                result.reason = name.repeal_note(reason)
                result.act_title = name.absent.name
            elif name.repealed is not None and cited.section_number:
                result.status, result.reason = UNVERIFIABLE, name.repealed_reason()
                result.act_title = name.repealed.name
            elif name.candidates and cited.section_number:
                result.status, result.reason = UNVERIFIABLE, name.unsure()
            elif name.unheld_reason() and cited.section_number:
                result.status, result.reason = UNVERIFIABLE, name.unheld_reason()
            elif cited.problem == NO_ACT_NAMED and cited.section_number:
                result.status, result.reason = UNVERIFIABLE, self.unnamed(cited.section_number)
            elif cited.act_written and SUBORDINATE.search(cited.act_written):
                result.status = UNVERIFIABLE
                result.reason = (f"'{cited.raw}' cites Rules, Regulations or Bye-laws made "
                                 "under an Act; the corpus holds Acts only, so it cannot be "
                                 "verified here")
            return result
        act = self.acts.get(cited.act_code, {})
        result.act_title = act.get("title")
        if cited.kind != SECTION and cited.act_code != CONSTITUTION:
            return self._scheduled(result, cited)
        key = (cited.act_code, normalize_section_number(cited.section_number))
        row = self.sections.get(key)
        if row is None:
            result.reason = (f"{cited.act_code} has no section {cited.section_number} "
                             "in the sections table")
            dropped = dropped_provisions().get(key)
            if dropped:
                result.omission = dropped
                result.status, result.known_gap = NOT_IN_FORCE, "its source prints no entry for it"
                result.reason = (f"{provision_label(cited.act_code, cited.section_number)} is not "
                                 f"in the sections table: it was {result.omission.describe()}")
                return result
            gap = self.gaps.get(key)
            if gap:
                result.reason += f" (it exists in law but the corpus lacks it: {gap})"
                result.status = UNVERIFIABLE
                result.known_gap = gap
                result.successors = list(self.successors.get(key, []))
                return result
            return self._of_a_namesake(cited) or self._of_another_year(result, cited)
        result.status = VERIFIED
        result.section_number = row["section_number"]
        result.title = row["title"]
        result.era = _text(act.get("era"))
        result.applicable_from = _text(act.get("applicable_from"))
        result.chapter_number = _text(row.get("chapter_number"))
        result.chapter_title = _text(row.get("chapter_title"))
        result.section_status = row["status"]
        if not _text(act.get("repealed_on")):
            result.omission = omission(row["status"], row.get("text"), row.get("footnotes"),
                                       row["section_number"])
        # void whatever its Act's fate, so a repealed code's section too
        result.omission = struck_down().get(key) or result.omission
        if result.omission is not None:  # read as today's law: no date is given
            result.status = NOT_IN_FORCE
            result.reason = f"{result.omission.describe()}; no longer law"
        result.extraction_confidence = row["extraction_confidence"]
        result.text_preview = self._preview(key, row)
        result.successors = list(self.successors.get(key, []))
        result.predecessors = list(self.predecessors.get(key, []))
        if result.status == VERIFIED and cited.unit:
            result.unit_unheld = self.unit_unheld(key, row, cited.unit)
            if result.unit_unheld:
                result.status, result.reason = UNVERIFIABLE, result.unit_unheld
        return result

    def unit_unheld(self, key: tuple[str, str], row: dict, unit: str) -> str | None:
        """Why a cited sub-section is not in the section's text, when that text numbers its
        sub-sections and the one cited comes after the last of them ("Section 103(7) BNS": 103
        has (1) and (2)); None when it is there, or when the text cannot tell (no numbered
        sub-sections read, or a number inside the range the parser may have missed). Not
        NOT_FOUND: another text of the Act may have it, an earlier one (Article 123(4),
        1975-1979) or a later one than the source's."""
        lead = LEAD_UNIT.match(unit)
        if lead is None:
            return None
        cited = lead["number"].upper()
        numbered = self._numbered_units(key, row)
        if not numbered or cited in numbered or f"({cited})" in (row["text"] or "").upper():
            return None
        last = max(numbered, key=_unit_order)
        if _unit_order(cited) <= _unit_order(last):
            return None
        label = provision_label(key[0], row["section_number"])
        dropped = next((note for note in FOOTNOTE.split(row.get("footnotes") or "")
                        if re.search(rf"sub-sections?\s+(?:\([0-9A-Z]+\)[, and]*)*"
                                     rf"\({re.escape(cited)}\)", note, re.IGNORECASE)), None)
        noted = f"; India Code notes: '{' '.join(dropped.split())}'" if dropped else ""
        return (f"{label} is held, but its text numbers sub-sections (1) to ({last}): it has no "
                f"sub-section ({cited}){noted}. It may be of another text of the Act than the one "
                "held, earlier or later, or not exist")

    def _numbered_units(self, key: tuple[str, str], row: dict) -> frozenset[str]:
        """The section's numbered sub-sections as its text prints them ("1", "1A", "2"),
        read once per section; none unless they start at (1)."""
        found = self._units.get(key)
        if found is None:
            text = row["text"] or ""
            parsed = {unit["unit_key"][len(row["section_number"]) + 1:-1].upper()
                      for unit in split_units(key[0], row["section_number"], text)
                      if unit["unit_kind"] == "sub_section"
                      and unit["parent_key"] == row["section_number"]}
            # the unit parser misses a "(1)" printed after the heading ("... -- (1) Notwith")
            opened = {number.upper() for number in SUB_SECTION_OPENS.findall(text)}
            numbered = parsed | opened
            found = self._units[key] = frozenset(numbered if "1" in numbered else ())
        return found

    def _of_a_namesake(self, cited: ParsedCitation) -> LookupResult | None:
        """A section the Act lacks whose short name another Act goes by too
        (`shared_names`: "Section 44AD of the IT Act"): that Act's, when it has it; None
        otherwise."""
        written = NAME_LEAD.sub("", cited.named_as or "").strip(" ,;:.")
        read_as, others = shared_names().get(normalize_alias(written), (None, ()))
        key = normalize_section_number(cited.section_number or "")
        for other in others if read_as == cited.act_code else ():
            if (other, key) in self.sections:
                found = self.resolve(replace(cited, act_code=other, named_as=None))
                title = LEAD_THE.sub("", self.acts[other]["title"])
                found.namesake = (f"'{written}' names {cited.act_code}, which has no section "
                                  f"{cited.section_number}, and the {title} too, which has it.")
                found.reason = " ".join(filter(None, (found.reason, found.namesake)))
                return found
        return None

    def _of_another_year(self, result: LookupResult, cited: ParsedCitation) -> LookupResult:
        """A provision the registry Act lacks, cited without the Act's year: UNVERIFIABLE when
        an Act of the same name and another year, which the corpus lacks, has it cited by
        several judgments ("Section 491 of the Code of Criminal Procedure", the 1898 Code's
        habeas corpus), else NOT_FOUND as it was."""
        act = self.acts.get(cited.act_code or "")
        if cited.dated or not act or not cited.section_number or self.absent_acts is None:
            return result
        aliases = act.get("aliases")  # a list, or an array read from the table
        names = [act["title"], *(() if aliases is None else aliases)]
        year = code_year(cited.act_code)
        older = self.absent_acts.of_another_year(names, year, cited.section_number, cited.kind)
        if older:
            found = older[0]
            citing = found.citing(cited.section_number, cited.kind)
            result.status, result.older_act = UNVERIFIABLE, found
            result.reason += (
                f"; written without a year, it may be the {found.name}'s, which the corpus does "
                f"not hold: {len(citing)} corpus judgments cite its "
                f"{provision_key(cited.section_number, cited.kind)} ({shown(citing)}). Name the "
                "Act's year to verify it")
        return result

    def _scheduled(self, result: LookupResult, cited: ParsedCitation) -> LookupResult:
        """A provision numbered in a schedule the corpus lacks (an Order of the CPC, an
        Article of the Limitation Act's Schedule): in law within the schedule's range, so
        UNVERIFIABLE, never the section of the same number; NOT_FOUND beyond the range, or in
        an Act with no such schedule (`absent_schedules`)."""
        schedule = absent_schedules().get((cited.act_code, cited.kind))
        label = provision_label(cited.act_code, cited.section_number, None, cited.kind)
        if schedule is None:
            numbered = "Orders and Rules" if cited.kind == ORDER_RULE else "Articles"
            result.reason = (f"{cited.act_code} is numbered in sections and has no schedule "
                             f"numbered in {numbered}")
            return result
        order = ORDER_KEY.match(cited.section_number or "")
        digits = re.match(r"\d+", cited.section_number or "")
        number = int(order["order"]) if order else int(digits.group()) if digits else 0
        if schedule.count is not None and not 1 <= number <= schedule.count:
            result.reason = f"{cited.act_code} numbers {schedule.name}: there is no {label}"
            return self._of_another_year(result, cited)
        result.status = UNVERIFIABLE
        result.known_gap = f"the corpus does not hold {schedule.name}; {schedule.why}"
        result.reason = f"{label} is not in the sections table ({result.known_gap})"
        return result

def _unit_order(number: str) -> tuple[int, str]:
    """A sub-section number's place: (2) < (2A) < (3)."""
    digits = re.match(r"\d+", number)
    return (int(digits.group()), number[digits.end():]) if digits else (0, number)


def _merge_link(links: list[dict], act_code: str, section: str, row: dict) -> None:
    """One link per target section; the source tables and sub-section targets are merged."""
    for link in links:
        if link["act_code"] == act_code and link["section_number"] == section:
            break
    else:
        link = {"act_code": act_code, "section_number": section, "relation": row["relation"],
                "units": [], "source_tables": [], "disagreement": False}
        links.append(link)
    if link["relation"] in (None, "unspecified"):
        link["relation"] = row["relation"]
    if isinstance(row.get("new_unit"), str) and row["new_unit"] not in link["units"]:
        link["units"].append(row["new_unit"])
    if row["source_table"] not in link["source_tables"]:
        link["source_tables"].append(row["source_table"])
    link["disagreement"] = link["disagreement"] or bool(row.get("disagreement"))


def render_block(result: LookupResult) -> str:
    """The human-readable block for a person looking a citation up (the layout of the
    citation-verification flow specification; `nyaya verify` words its action for a model's
    answer instead). Only a section that is law today is headed VERIFIED."""
    cited = provision_label(result.act_code or result.act_title, result.section_number,
                           result.unit, result.numbered_as)
    if result.act_code is None and result.status in (CORROBORATED, UNVERIFIABLE):
        return "\n".join([  # an Act the corpus lacks, cited by its judgments
            f"CITATION {'CORROBORATED' if result.status == CORROBORATED else 'NOT VERIFIABLE HERE'}"
            f": {cited}", f"Status: {result.status} — {result.reason}",
            "Check it against the official text of the Act before relying on it."])
    if result.status == UNVERIFIABLE and not result.unit_unheld:
        why = (f"it exists in law, but the corpus lacks its text ({result.known_gap})"
               if result.known_gap else result.reason)
        return "\n".join([
            f"CITATION NOT VERIFIABLE HERE: {cited}", f"Status: UNVERIFIABLE — {why}.",
            "Check it against the official text before relying on it.",
            *_successor_lines(result)])
    if result.status == NOT_IN_FORCE and result.known_gap:
        return "\n".join([f"CITATION NOT IN FORCE: {cited}",
                          f"Status: NOT_IN_FORCE — {result.reason}; {result.known_gap}.",
                          "Do not cite it as today's law."])
    if not result.found and not result.unit_unheld:
        return (f"CITATION NOT VERIFIED: {cited}\n"
                f"Status: NOT_FOUND — {result.reason}.\n"
                "Do not cite it as written: check the Act and the section number against the "
                "statute.")
    if result.status == NOT_IN_FORCE:
        dated = result.omission.effective and result.omission.kind != STRUCK_DOWN
        header = [f"CITATION NOT IN FORCE: {cited}",
                  f"Status: NOT_IN_FORCE — {result.reason} (source: canonical sections table).",
                  "Do not cite it as today's law"
                  + ("; for conduct before that date, `nyaya verify --as-of` judges it."
                     if dated else ".")]
    elif result.unit_unheld:
        header = [f"CITATION NOT VERIFIABLE HERE: {cited}",
                  f"Status: UNVERIFIABLE — {result.unit_unheld}.",
                  "Check it against the official text before relying on it; the section held:"]
    else:
        header = [f"CITATION VERIFIED: {cited}",
                  "Status: VERIFIED (source: canonical sections table)"]
    lines = [
        *header,
        "",
        f"Section: {result.section_number} — {result.title}",
        f"Act: {result.act_title} ({result.act_code})",
        f"Era: {result.era} | Applicable from: {result.applicable_from or 'not recorded'}",
    ]
    if result.chapter_number:
        lines.append(f"Chapter: {result.chapter_number}"
                     + (f" — {result.chapter_title}" if result.chapter_title else ""))
    if result.omission is None and result.section_status != "in_force":
        lines.append(f"Section status: {result.section_status}")
    if result.extraction_confidence is not None and result.extraction_confidence < 1.0:
        lines.append(f"Extraction confidence: {result.extraction_confidence:.2f} "
                     "(recovered from page text; check the source)")
    lines.extend(_successor_lines(result))
    lines.append(f"Text (preview): {result.text_preview}")
    return "\n".join(lines)


def _successor_lines(result: LookupResult) -> list[str]:
    lines = []
    for link in result.successors:
        units = f" [{', '.join(link['units'])}]" if link["units"] else ""
        flag = " (mapping tables disagree)" if link["disagreement"] else ""
        successor = provision_label(link["act_code"], link["section_number"])
        lines.append(f"Successor: {successor}{units} ({link['relation']}){flag}")
    return lines
