"""Acts that the corpus's own Acts repeal: the Code on Social Security, 2020 (s.164) repeals the
Employees' State Insurance Act, 1948, the Code on Wages, 2019 (s.69) the Minimum Wages Act,
1948. The corpus holds the Acts in force, so it lacks most Acts repealed this way, and a
citation of one was NOT_FOUND ("Act not recognised ... do not cite it as written"), as if
invented. It names a real Act, law until its repeal took effect: the verdict says so and names
the repealing Act.

Read from each section titled as a repeal ("Repeal and savings", "Repeals", "Repeal of ..."):
the Acts its first sub-section names with their number ("The Payment of Wages Act, 1936 (4 of
1936)"), where that part says they are repealed. What a later sub-section names (the General
Clauses Act, whose section 6 governs the repeal) is not taken.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from nyaya.statutes.registry import normalize_alias

REPEAL_TITLE = re.compile(r"^\s*(?:\d+[A-Z]?\.\s*)?repeal(?!ed)", re.IGNORECASE)
REPEALS = re.compile(r"repeal", re.IGNORECASE)
# the second sub-section opens a sentence ("(2) Every", "(2) On the dissolution"), unlike
# "sub-section (2) of section 1" inside the first
SECOND_PART = re.compile(r"\(\s*2\s*\)\s*(?=[A-Z])")
# the section itself repealed: "[Repeals].—Rep. by the Repealing and Amending Act, 1960 ..."
REPEALED_NOTE = re.compile(r"\b(?:Rep\.|Repealed) by\b")
# an Act's number as its title is printed with: "(34 of 1948)", "(XXXVII of 1948)"
ACT_NUMBER = re.compile(r"\(\s*(?:\d+|[IVXLC]+)\s+of\s+(?P<year>1[789]\d\d|20\d\d)\s*\)")
# "by" joins a name only before a capital ("Carriage of Goods by Sea Act"), not in "in force in
# India by the Indian Copyright Act"
_WORD = r"(?:[A-Z][\w'’.&-]*|\([^()]*\)|of|and|the|for|in|on|to|&|by(?=\s+[A-Z]))"
# the name just before the number: capitalised words, small words and bracketed parts, ending
# in "Act" (or "Code", "Ordinance", "Regulation") and its year
NAME_BEFORE = re.compile(
    rf"(?P<name>[A-Z][\w'’.&-]+(?:\s+{_WORD})*?\s+(?:Act|Code|Ordinance|Regulation)s?)"
    r"\s*,?\s*(?P<year>1[789]\d\d|20\d\d)\s*$")
LEAD_THE = re.compile(r"^(?:the|The|THE)\s+")
# where a listed name starts: after a list mark ("(a) The Factories Act", "1. The ..."), a dash
# or a colon
ITEM_BREAK = re.compile(r"\((?:[a-z]|[ivx]+)\)\s|(?:^|\s)\d+\.\s|--|—|;|:")
# a part of an Act repealed, not the Act: "sections 2 to 5 of the", "Chapter IV A of the"
# before the name, or "Part IX of the Prisoners Act" in it
PART_OF = re.compile(r"\b(?:sections?|chapter|part|schedule|clause|article)\s[\w\s,()-]{0,40}"
                     r"\bof\s+(?:the\s+)?$", re.IGNORECASE)
PART_NAMED = re.compile(r"^(?:Part|Chapter|Schedule|Section)s?\b")


@dataclass(frozen=True)
class Repeal:
    """An Act the corpus lacks, and the Act and section of the corpus that repeal it."""

    name: str  # "Employees' State Insurance Act, 1948", as the repealing section prints it
    by_act: str  # the repealing Act's code
    by_title: str
    by_section: str

    def describe(self) -> str:
        return (f"the {self.by_title} repealed it ({self.by_act} s.{self.by_section}), from when "
                "that repeal took effect")


def repealed_acts(sections: Iterable[Mapping], titles: Mapping[str, str]
                  ) -> dict[tuple[str, str], Repeal]:
    """(`normalize_alias` of the name, year) -> the Repeal, for each Act a repeal section of
    `sections` names;
    `titles`: act code -> title. An Act repealed twice (an Ordinance, then the Act that
    replaced it) keeps the first repeal read."""
    found: dict[tuple[str, str], Repeal] = {}
    for row in sections:
        if not REPEAL_TITLE.match(str(row.get("title") or "")):
            continue
        text = " ".join(str(row.get("text") or "").split())
        if REPEALED_NOTE.search(text):
            continue
        second = SECOND_PART.search(text, 1)
        first = text[:second.start()] if second else text
        if not REPEALS.search(first):
            continue
        start = 0
        for number in ACT_NUMBER.finditer(first):
            item = ITEM_BREAK.split(first[start:number.start()])[-1]
            start = number.end()
            named = NAME_BEFORE.search(item)
            if (named is None or named.group("year") != number.group("year")
                    or PART_OF.search(item[:named.start()])
                    or PART_NAMED.match(named.group("name"))):
                continue
            name = f"{LEAD_THE.sub('', named.group('name'))}, {named.group('year')}"
            key = (normalize_alias(named.group("name")), named.group("year"))
            act = str(row["act_code"])
            found.setdefault(key, Repeal(name, act, LEAD_THE.sub("", titles.get(act, act)),
                                         str(row["section_number"])))
    return found
