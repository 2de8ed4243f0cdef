"""Acts the corpus does not hold but its judgments cite: the Industrial Disputes Act, 1947, the
Land Acquisition Act, 1894, the Code of Criminal Procedure, 1898 and hundreds more (the corpus
holds the Acts in force and the repealed IPC, CrPC and IEA). A citation of such an Act cannot be
checked against its text, but it is no invention: the Supreme Court cited it. So it is
UNVERIFIABLE, or CORROBORATED when at least CORROBORATING independent judgments cite the same
section of it (never VERIFIED: nothing was read of the Act itself), instead of NOT_FOUND,
"remove this citation", which a corpus judgment's own citation got before.

An Act is known by its name as written with its year ("Industrial Disputes Act, 1947"). A name
written without a year is that Act only when the judgments write it with one year nearly
always (DOMINANT of the judgments citing it with a year) and says more than a kind of Act (two
words besides "Act", "Code", "of" and "the"): "Industrial Disputes Act" is the 1947 Act;
"Amendment Act", "Rent Act" or "Bombay Act" is none. A judgment in two sources counts once (the
judgments table's `case_id`).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache

import pandas as pd

from nyaya.citations.statutes import SECTION, UNKNOWN_ACT
from nyaya.settings import Settings
from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.registry import (
    AliasIndex,
    acronym,
    endings,
    initials,
    normalize_alias,
    shortened,
)
from nyaya.tables import read_table
from nyaya.verify.model import CORROBORATED, UNVERIFIABLE

CORROBORATING = 2  # independent judgments citing an Act (or its section) for it to count
_LEAD = re.compile(r"^\s*(?:(?:of|under|in|to|by)\s+)?(?:the\s+)?", re.IGNORECASE)
_GENERIC = frozenset({"act", "code", "of", "the", "and"})
_YEAR = re.compile(r"[\s,]*\(?((?:18|19|20)\d\d)\)?\s*[.,;:)]*\s*$")
DOMINANT = 0.9  # share of the dated citations of a name that make an undated one that year's
SHOWN = 3  # judgments named in a reason
TABLES = ("citation_mentions", "judgments")  # what the Acts are read from
SOURCE_JUDGMENTS = "statute citations in the corpus judgments"
HELD_ACTS = "it holds the central Acts in force and the repealed IPC, CrPC and IEA"
#: names and provisions read once each: a few thousand among the corpus's 47,000 citations of
#: Acts it lacks (about 0.3 s saved when they are first read), bounded for a server
NAMES_CACHED = 1 << 16


@lru_cache(maxsize=NAMES_CACHED)
def act_key(written: str) -> tuple[str, str | None]:
    """(the name's key, its year or None): "of the Industrial Disputes Act, 1947" ->
    ("industrialdisputesact", "1947")."""
    name = _LEAD.sub("", written).strip()
    year = _YEAR.search(name)
    if year:
        name = name[:year.start()]
    return normalize_alias(name), year.group(1) if year else None


@dataclass(frozen=True)
class AbsentAct:
    """One Act the corpus lacks, as its judgments cite it."""

    name: str  # its commonest written form with the year
    judgments: tuple[str, ...]  # citing judgments (one per case), sorted
    sections: dict[str, tuple[str, ...]]  # provision (`provision_key`) -> the judgments citing it

    @property
    def corroborated(self) -> bool:
        return len(self.judgments) >= CORROBORATING

    def citing(self, number: str, kind: str = SECTION) -> tuple[str, ...]:
        return self.sections.get(provision_key(number, kind), ())

    def judged(self, number: str, kind: str = SECTION) -> tuple[str, str]:
        """(status, reason) for its provision (`kind`: a section, or an Article or an Order
        and Rule of a schedule): CORROBORATED when at least CORROBORATING judgments cite that
        provision, else UNVERIFIABLE; never NOT_FOUND (the Supreme Court cited the Act), never
        VERIFIED (nothing of the Act itself was read)."""
        citing = self.citing(number, kind)
        section = provision_key(number, kind)
        held = f"The corpus does not hold the {self.name} ({HELD_ACTS})"
        if len(citing) >= CORROBORATING:
            return CORROBORATED, (
                f"{held}, but {len(citing)} corpus judgments cite its {section} "
                f"({shown(citing)}): the Supreme Court relied on it; corroborated, not checked "
                "against the Act's text, which may since have been amended or repealed.")
        cited = (f"one cites its {section} ({citing[0]})" if citing
                 else f"none cites its {section}")
        return UNVERIFIABLE, (
            f"{held}, but {len(self.judgments)} corpus judgments cite it "
            f"({shown(self.judgments)}); {cited}, so it cannot be verified here: check it "
            "against the official text before relying on it.")


class AbsentActs:
    """The Acts of unread names in the corpus judgments' statute citations."""

    def __init__(self, cited: Iterable[tuple[str, str, str | None]],
                 case_of: dict[str, str] | None = None, held: AliasIndex | None = None
                 ) -> None:
        """`cited`: (judgment, the name as written, provision (`provision_key`) or None) per
        citation; `case_of`: judgment -> its case, so that one case's judgment in two sources
        counts once; `held`: the registry's names, whose Acts (`AliasIndex.loosely`: "of the
        People" for "of People") are never taken for Acts the corpus lacks."""
        case_of = case_of or {}
        # (name key, year) -> section -> case -> the first judgment of it seen
        by_act: dict[tuple[str, str], dict[str | None, dict[str, str]]] = defaultdict(
            lambda: defaultdict(dict))
        forms: dict[tuple[str, str], dict[str, int]] = defaultdict(lambda: defaultdict(int))
        undated: list[tuple[str, str, str | None]] = []
        for judgment, written, section in cited:
            key, year = act_key(written)
            if not key:
                continue
            if year is None:
                if _specific(written):
                    undated.append((key, judgment, section))
                continue
            by_act[key, year][section].setdefault(case_of.get(judgment, judgment), judgment)
            forms[key, year][_LEAD.sub("", written).strip().rstrip(".,;:")] += 1
        years: dict[str, dict[str, int]] = defaultdict(dict)
        for (key, year), sections in by_act.items():
            years[key][year] = len(set().union(*map(set, sections.values())))
        self._year_of = {}
        for key, counts in years.items():
            year, most = max(counts.items(), key=lambda kv: (kv[1], kv[0]))
            if most >= DOMINANT * sum(counts.values()):
                self._year_of[key] = year
        for key, judgment, section in undated:
            if key in self._year_of:
                by_act[key, self._year_of[key]][section].setdefault(
                    case_of.get(judgment, judgment), judgment)
        self.acts: dict[tuple[str, str], AbsentAct] = {}
        for act, sections in by_act.items():
            judgments = {case: doc for cases in sections.values() for case, doc in cases.items()}
            cited_sections: dict[str, dict[str, str]] = defaultdict(dict)
            for section, cases in sections.items():
                if section:
                    cited_sections[section].update(cases)
            name = max(forms[act].items(), key=lambda kv: (kv[1], kv[0]))[0]
            if held is not None and held.loosely(name) is not None:
                continue
            self.acts[act] = AbsentAct(name, tuple(sorted(judgments.values())), {
                section: tuple(sorted(cases.values()))
                for section, cases in cited_sections.items()})
        # (year, Act) of each Act enough judgments cite, by its name's key and by the
        # `acronym` of its name ("IDA": the Industrial Disputes Act, 1947)
        self._by_key: dict[str, list[tuple[str, AbsentAct]]] = defaultdict(list)
        self._initialled: dict[str, list[tuple[str, AbsentAct]]] = defaultdict(list)
        self._ended: dict[tuple[str, ...], list[tuple[str, AbsentAct]]] = defaultdict(list)
        for (key, year), act in sorted(self.acts.items()):
            if act.corroborated:
                self._by_key[key].append((year, act))
                self._initialled[acronym(act.name)].append((year, act))
                for ending in endings(act.name):
                    self._ended[ending].append((year, act))

    @classmethod
    def from_tables(cls, mentions: pd.DataFrame, judgments: pd.DataFrame,
                    held: AliasIndex | None = None) -> AbsentActs:
        """From citation_mentions rows (doc_id, mention_type, kind, act_code, section, reason)
        and the judgments table's doc_id and case_id."""
        case_of = {doc: case for doc, case in zip(judgments["doc_id"].tolist(),
                                                  judgments["case_id"].tolist(), strict=True)
                   if isinstance(case, str) and case}
        unread = mentions[(mentions["mention_type"] == "statute") & mentions["act_code"].isna()
                          & mentions["reason"].fillna("").str.startswith(UNKNOWN_ACT)]
        return cls(((doc, unread_name(reason),
                     provision_key(section, kind) if isinstance(section, str) and section
                     else None)
                    for doc, reason, section, kind in zip(
                        *(unread[column].tolist() for column in ("doc_id", "reason", "section",
                                                                 "kind")),
                        strict=True)), case_of, held)

    def named(self, written: str) -> AbsentAct | None:
        """The Act of a name as written ("of the Industrial Disputes Act"), when the judgments
        cite it; None otherwise."""
        key, year = act_key(written)
        if year is None and not _specific(written):
            return None
        return self.acts.get((key, year or self._year_of.get(key, "")))

    def of_another_year(self, names: Iterable[str], year: str | None, number: str,
                        kind: str = SECTION) -> list[AbsentAct]:
        """The Acts of the same name as a registry Act (`names`: its title and aliases) but
        not its `year` whose `number` at least CORROBORATING judgments cite: "section 491 of
        the Code of Criminal Procedure" is the 1898 Code's, which the 1973 Code lacks."""
        keys = {act_key(name)[0] for name in names}
        return [act for key in sorted(keys) for enacted, act in self._by_key.get(key, ())
                if enacted != year and len(act.citing(number, kind)) >= CORROBORATING]

    def by_initials(self, written: str) -> list[AbsentAct]:
        """The Acts enough judgments cite whose name's initials `written` is ("ID Act": the
        Industrial Disputes Act, 1947), of its year when written, one per year (the name most
        judgments write); [] for a name that is not initials."""
        read = initials(written)
        return [] if read is None else _one_a_year(self._initialled.get(read[0], ()), read[1])

    def by_ending(self, written: str) -> list[AbsentAct]:
        """The Acts enough judgments cite whose name is, or ends with, what is written ("the
        Gratuity Act": the Payment of Gratuity Act, 1972), as `by_initials`; [] for a name
        that tells nothing (`shortened`)."""
        read = shortened(written)
        return [] if read is None else _one_a_year(self._ended.get(read[0], ()), read[1])


def _one_a_year(named: Iterable[tuple[str, AbsentAct]], year: str | None) -> list[AbsentAct]:
    """The Acts of `year` (any, when None), one per year: "I.D. Act, 1947" is the "Industrial
    Disputes Act, 1947" of most judgments."""
    acts: dict[str, AbsentAct] = {}
    for enacted, act in named:
        known = acts.get(enacted)
        if (year is None or enacted == year) and (
                known is None or len(act.judgments) > len(known.judgments)):
            acts[enacted] = act
    return sorted(acts.values(), key=lambda act: act.name)


@lru_cache(maxsize=NAMES_CACHED)
def _specific(written: str) -> bool:
    """Whether a name without its year says more than a kind of Act ("Rent Act" does not)."""
    words = re.findall(r"[a-z]+", _LEAD.sub("", written).lower())
    return len([word for word in words if word not in _GENERIC]) >= 2


def unread_name(problem: str | None) -> str | None:
    """The Act's name as written in an extractor's problem ("act name not in registry: ...");
    None for any other problem."""
    return problem[len(UNKNOWN_ACT):] if problem and problem.startswith(UNKNOWN_ACT) else None


@lru_cache(maxsize=NAMES_CACHED)
def provision_key(number: str, kind: str = SECTION) -> str:
    """How a provision of an Act is told apart and named: "section 25F" ("25-F" too),
    "article 181", "order_rule O39R1" (`ParsedCitation.kind`)."""
    return f"{kind} {normalize_section_number(number)}"


def shown(judgments: tuple[str, ...]) -> str:
    more = len(judgments) - SHOWN
    return ", ".join(judgments[:SHOWN]) + (f" and {more} more" if more > 0 else "")


def absent_acts_of(settings: Settings, held: AliasIndex) -> Callable[[], AbsentActs] | None:
    """What builds the Acts from the warehouse's tables (about 1 s, so only when a citation
    first needs them); None when the judgments are not built (statute tables alone verify
    without them, such a citation NOT_FOUND)."""
    if not all(settings.table_path(table).is_file() for table in TABLES):
        return None
    return lambda: AbsentActs.from_tables(
        read_table(settings.table_path("citation_mentions"),
                   ["doc_id", "mention_type", "kind", "act_code", "section", "reason"]),
        read_table(settings.table_path("judgments"), ["doc_id", "case_id"]), held)
