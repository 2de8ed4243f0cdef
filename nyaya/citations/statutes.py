"""Statute mentions in running text: 'Sections 302/34 IPC', 'Article 21', 'Order XXXIX Rule 1 CPC'.

One `StatuteMention` per cited provision, each with the Act it belongs to and how that Act was
found: named in the phrase ("explicit"), taken from the document ("context": "Section 5 of the
Act", a bare "Section 302" shortly after the Indian Penal Code was named, an Article with no
instrument named), or not at all ("unresolved", with the reason in `problem`).

Short forms with no number ("the said section", "that section", "the same section", "the said
provision") are mentions too, of the provision cited last before them ("short_form": its Act,
section and unit, and its span in `antecedent`), so that they get that provision's verdict. One
with nothing cited in the CONTEXT_WINDOW before it, or after a phrase citing several provisions
("Sections 302/34"), is "unresolved": which provision it means cannot be told. Having no
number, a short form's `start`/`end` are those of its phrase.

Built for volume (whole judgment corpora) and for untrusted text (model answers): every regex is
anchored on a rare literal token, every quantifier is bounded, and Act names are resolved by
dictionary lookups over word prefixes, never by scanning the alias table.

Order/Rule citations carry `section` as "O{order}R{rule}" ("O39R1"; "O39" for an Order cited
without a Rule), with roman Order numbers turned into arabic ones; their `start`/`end` cover the
Rule number (the Order number where no Rule is cited).
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache
from itertools import chain, islice
from typing import NamedTuple

from nyaya.citations.scan import Spans, tokens_before
from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.registry import AliasIndex, absent_schedules, normalize_alias

SECTION = "section"
ARTICLE = "article"
ORDER_RULE = "order_rule"
EXPLICIT = "explicit"
CONTEXT = "context"
SHORT_FORM = "short_form"
UNRESOLVED = "unresolved"
ACT_NOT_NAMED = "act not named"

CONTEXT_WINDOW = 3000  # how far back a bare "Section 302" (or "the said section") may look
NO_ANTECEDENT = f"short form with no provision cited in the {CONTEXT_WINDOW} characters before it"
LIMITATION_WINDOW = 250  # a bare "Article 58" this close after the Limitation Act is its Article
MAX_ITEMS = 60  # provisions in one list ("Sections 1, 2, 3, ..."): longer runs are not citations
MAX_SEGMENTS = 20  # "Section 302 read with Section 34 ..." links in one phrase
RANGE_LIMIT = 20  # "Sections 3 to 5" is expanded when the range is at most this long
RANGE_BUDGET = 2000  # provisions filled in from ranges per document; then only the ends
UNKNOWN_ACT = "act name not in registry: "  # a problem's start when an Act's name is not read
MAX_TRIAL_TOKENS = 24  # words tried when matching an Act name: the longest title in the
# registry, the Cigarettes and Other Tobacco Products (...) Act, 2003, has 21 with "The" and year


@dataclass(frozen=True)
class StatuteMention:
    """One cited provision; `text` is the whole phrase it was cited in."""

    start: int
    end: int
    group_start: int
    group_end: int
    text: str
    kind: str  # "section" | "article" | "order_rule"
    act_code: str | None
    section: str | None  # normalize_section_number form; "O39R1" for order_rule
    unit: str | None  # "(1)(ia)" when a sub-section or clause is named
    act_text: str | None  # the Act as written, None when it was not written
    resolution: str  # "explicit" | "context" | "short_form" | "unresolved"
    problem: str | None
    antecedent: tuple[int, int] | None = None  # a short form's provision: its start, end


# --- regexes ------------------------------------------------------------------------------
# The two scanning patterns (KEYWORD, EVENT_ANCHOR) start with a flat literal alternation so
# that `re` can skip ahead on their first characters; word boundaries on the left are checked
# in Python (a look-behind in front would disable that). Everything else is matched at a known
# position with bounded repetition only.

_SEC_KW = (r"Sections?|SECTIONS?|sections?|Secs?\.?|SECS?\.?|secs?\.?|SS\.|Ss\.|ss\.|S\.|s\.|"
           r"u/ss?\.?|U/[Ss]{1,2}\.?|u/S\.?|§§?|s-(?=[0-9])")
_ART_KW = r"Articles?|ARTICLES?|articles?|Arts?\.|ARTS?\.|arts?\.|u/[Aa]rts?\.?"
_ORD_KW = r"Order|ORDER|order|O\."
KEYWORD = re.compile(rf"(?:{_SEC_KW}|{_ART_KW}|{_ORD_KW})(?=[ \t]{{0,3}}[0-9IVXLC])")

_LIST_SEC_KW = r"(?:Sections?|sections?|SECTIONS?|Secs?\.|secs?\.|SS\.|Ss\.|ss\.|S\.|s\.)\s{0,2}"
_LIST_ART_KW = r"(?:Articles?|articles?|ARTICLES?|Arts?\.|arts?\.)\s{0,2}"
_LIST_RULE_KW = r"(?:Rules?|rules?|RULES?|R\.|r\.)\s{0,2}"
_LIST_KW = {SECTION: _LIST_SEC_KW, ARTICLE: _LIST_ART_KW, ORDER_RULE: _LIST_RULE_KW}

ITEM = re.compile(
    # "64U-I", "378Z-O": India Code's dash before an I or O after a letter; the Income-tax
    # Act's four-letter sections ("115BBDA", "80HHBA", "80JJAA") repeat their first letter,
    # which an OCR'd "8OHHL" (80HHC) does not
    r"(?P<num>[0-9]{1,3}(?:[A-Z]{1,2}-[IO]|-\s?[A-Z]{1,3}|(?P<twice>[A-Z])(?P=twice)[A-Z]{2}"
    r"|[A-Z]{1,3}|[a-z])?)"
    r"(?![A-Za-z0-9]|\.[0-9])"
    r"(?P<unit>(?:\s?\(\s?(?:[0-9]{1,3}[A-Za-z]{0,2}|[a-z]{1,5}|[IVXL]{1,5}|[A-Z])\s?\)){0,6})"
    r"(?P<part>\s(?:Part|PART|part)\s(?:III|II|I|1|2|3)(?![A-Za-z0-9]))?"
)
_SEP_WORDS = (r"(?:\s{0,2}(?:,\s{0,2}(?:(?:and|or)\s{1,2}|&\s{0,2})?|/|&|[-–—])\s{0,2}"
              r"|\s{1,2}(?:and/or|and|or|to)\s{1,2})")
SEP = {kind: re.compile(rf"(?P<sep>{_SEP_WORDS})(?P<kw>{kw})?(?=[0-9])")
       for kind, kw in _LIST_KW.items()}
RANGE_SEPS = {"to", "-", "–", "—"}
#: the last letter of a range of one number's lettered sections ("376A-D": 376A to 376D)
LETTER_RANGE = re.compile(r"\s?[-–—]\s?(?P<letter>[A-Z])(?![A-Za-z0-9])")
NUMBER_LETTER = re.compile(r"(?P<digits>[0-9]{1,3})(?P<letter>[A-Z])")
MEASURE = re.compile(
    r"\s{1,2}(?:years?|months?|days?|weeks?|hours?|minutes?|persons?|accused|witnesses|times|"
    r"lakhs?|crores?|rupees|kms?|kilomet(?:er|re)s?|per\s?cent|pages?|paras?|paragraphs?|"
    r"acres?|met(?:er|re)s?|feet|grams?|kgs?)(?![A-Za-z])|\s?%"
)
_LINK_WORDS = (r"read\s{1,2}with|r/w\.?|r\.\s?w\.|(?:read\s{1,2})?along\s{1,2}with|"
               r"together\s{1,2}with|as\s{1,2}well\s{1,2}as|and/or|and|or|with|&")
LINK = {kind: re.compile(rf"\s{{0,3}}(?:,\s{{0,3}}(?:(?:{_LINK_WORDS})\s{{1,3}})?|"
                         rf"(?:{_LINK_WORDS})\s{{1,3}})(?:{kw})(?=[0-9])")
        for kind, kw in ((SECTION, _LIST_SEC_KW), (ARTICLE, _LIST_ART_KW))}
LINK_BARE = re.compile(r"\s{0,3},?\s{0,3}(?:read\s{1,2}with|r/w\.?|r\.\s?w\.)\s{0,3}(?=[0-9])")
LINK_ORDER = re.compile(rf"\s{{0,3}},?\s{{0,3}}(?:(?:{_LINK_WORDS})\s{{1,3}})?(?:{_ORD_KW})"
                        r"(?=\s{0,2}[0-9IVXLC])")
ORDER_HEAD = re.compile(
    r"\s{0,2}(?P<num>[IVXLC]{1,7}|[0-9]{1,2})(?![A-Za-z0-9])\s{0,2}[,.]?\s{0,2}"
    r"(?:(?P<rkw>Rules?|rules?|RULES?|R\.|r\.)\s{0,2}(?=[0-9]))?"
)
UNIT_BEFORE = re.compile(
    r"(?:(?:sub-?\s?sections?|sub-?\s?clauses?|clauses?|cls?\.|sub-?\s?ss?\.|sub-?\s?cl\.)"
    r"\s?\([0-9A-Za-z]{1,5}\)\s{1,2}of\s{1,2}(?:the\s{1,2})?){1,3}$",
    re.IGNORECASE,
)
PAREN_UNIT = re.compile(r"\(([0-9A-Za-z]{1,5})\)")
PREFIX_ACT = re.compile(r"(?P<act>[A-Z][A-Za-z.]{0,12}[A-Za-z](?:_[0-9]{4})?)[ \t]{1,2}$")

ACT_LEAD = re.compile(
    r"(?P<pre>[ \t]{0,2},?\s{0,2}(?:etc\.?,?\s{1,2})?)"
    r"(?P<lead>(?:(?:of|under|in|Of|OF|UNDER)\s{1,2})?(?:(?:the|The|THE)\s{1,2})?)"
    r"(?P<sched>(?:(?:First|Second|Third|Fourth|Fifth|Sixth|Seventh|Eighth|Ninth|Tenth)\s)?"
    r"Schedule\s(?:to|of|appended\sto)\s(?:the\s)?)?"
)
ACT_NUMBER = re.compile(
    r"(?:Act|ACT|Ordinance)\s{1,2}(?:No\.?\s{0,2})?(?:[0-9]{1,4}|[IVXLC]{1,8})\s{1,2}"
    r"of\s{1,2}[0-9]{4}(?![0-9])"
)
_REF_MODS = (r"said|same|above|aforesaid|above-?mentioned|present|principal|Principal|parent|"
             r"Parent|impugned|main|old|new|earlier|relevant|amended|this|This|that|our|Our|"
             r"Said|Central|State|\(?[0-9]{4}\)?")
REFERENCE = re.compile(
    rf"(?P<mods>(?:(?:{_REF_MODS})\s{{1,2}}){{0,3}})"
    r"(?P<head>Act|ACT|Code|CODE|Sanhita|Adhiniyam|Ordinance|Constitution|CONSTITUTION)"
    r"(?![A-Za-z0-9'’-])(?P<year>\s?,?\s{0,2}(?:of\s{1,2})?(?:1[6-9]|20)[0-9]{2}(?![0-9]))?"
)
CODE_NAME_FOLLOWS = re.compile(r"\s{1,2}(?:of|on|for)\s{1,2}[A-Z]")
YEAR_AFTER = re.compile(r"\s{0,2},?\s{0,2}(?P<y>(?:1[6-9]|20)[0-9]{2})(?![0-9])")
TOKEN = re.compile(r"[^\s,;:\"“”'‘’\[\]{}]+")
GAP_STOP = re.compile(r"[;:\[\]{}\n]")
NON_ALNUM = re.compile(r"[^a-z0-9]")
YEAR_IN_CODE = re.compile(r"_([0-9]{4})(?:_|$)")
YEAR_TEXT = re.compile(r"(?<![0-9])((?:1[6-9]|20)[0-9]{2})(?![0-9])")

# Head words of Act names, and the abbreviations used for the Codes without "Act" after them.
# One flat alternation (no groups in front) keeps the scan on its fast path.
EVENT_ANCHOR = re.compile(
    r"(?:Act|ACT|Code|CODE|Constitution|CONSTITUTION|Sanhita|SANHITA|Adhiniyam|ADHINIYAM|"
    r"Ordinance|ORDINANCE|I\.\s?P\.\s?C\.?|IPC|Cr\.\s?P\.\s?C\.?|Cr\.?P\.?C\.?|CRPC|"
    r"C\.\s?P\.\s?C\.?|CPC|NDPS|POCSO|BNSS|BNS|BSA|B\.\s?N\.\s?S\.(?:\s?S\.)?)(?![A-Za-z0-9])"
)
DEFINITION = re.compile(
    r"\s{0,2},?\s{0,2}[(\[]\s{0,2}(?P<kw>(?:hereinafter|herein\s?after|hereafter|in\s{1,2}short|"
    r"for\s{1,2}short|for\s{1,2}brevity|briefly|shortly)\s{0,2},?\s{0,2}"
    r"(?:(?:referred\s{1,2}to|called|described|mentioned)\s{1,2})?(?:as\s{1,2})?)?"
    r"(?:the\s{1,2})?(?P<q1>[\"'“‘`]{0,2})\s{0,2}(?P<term>[A-Za-z0-9.&\- ]{1,30}?)\s{0,2}"
    r"(?P<q2>[\"'”’`]{0,2})\s{0,2}(?P<kw2>for\s{1,2}short|in\s{1,2}short|hereinafter)?\s{0,2}[)\]]",
    re.IGNORECASE,
)

HEAD_WORDS = {"act", "code", "sanhita", "adhiniyam", "ordinance", "constitution"}
UNKNOWN_HEADS = {"act", "code", "ordinance", "rules", "regulation", "regulations", "order",
                 "sanhita", "adhiniyam", "scheme", "byelaws", "bylaws", "statute", "statutes"}
CONNECTORS = {"of", "and", "&", "the", "for", "on", "to", "in", "from", "relating", "with", "by",
              "de", "under"}
REF_WORDS = {"the", "this", "that", "said", "same", "such", "principal", "parent", "central",
             "state", "old", "new", "earlier", "present", "impugned", "main", "relevant",
             "repealed", "original", "amending", "amended", "an", "any", "each", "every",
             "another", "other", "our", "its", "their", "his", "her", "above", "aforesaid"}
NAME_STOP = {"in", "under", "by", "of", "for", "as", "if", "when", "where", "whether", "since",
             "see", "also", "section", "sections", "article", "articles", "rule", "rules",
             "order", "chapter", "part", "schedule", "clause", "para", "paragraph", "page",
             "annexure", "exhibit", "form", "appendix", "list", "entry", "item", "table", "no",
             "and", "but", "it", "is", "was", "with", "that", "there", "which", "while", "all",
             "a", "an", "now", "so", "thus", "hence", "then", "on", "to", "at", "from"}
# Named things whose "Section 5" / "Article 12" is not a statute's: such mentions are dropped.
NON_STATUTE = {"agreement", "deed", "contract", "lease", "will", "policy", "memorandum",
               "association", "award", "settlement", "bond", "letter", "licence", "license",
               "tender", "document", "instrument", "plaint", "petition", "application",
               "affidavit", "report", "judgment", "book", "chapter", "treatise", "paper",
               "articles"}
INSTRUMENTS = {"treaty", "convention", "covenant", "charter", "declaration", "protocol",
               "notification", "circular", "scheme", "rules", "regulations", "guidelines",
               "ordinance", "bill", "statute", "code", "manual"} | NON_STATUTE
NO_HEADS: frozenset[str] = frozenset()
ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def _norm(token: str) -> str:
    """Per-word form of `normalize_alias`: word keys concatenate to the alias key."""
    if token.isalnum() and token.isascii():
        return token.lower()
    return NON_ALNUM.sub("", token.lower().replace("&", "and"))


@cache
def roman_value(text: str) -> int | None:
    """A Roman numeral's value (digits read as they are); None for a non-canonical one."""
    if text.isdigit():
        return int(text)
    total, prev = 0, 0
    for char in reversed(text):
        value = ROMAN[char]
        total = total - value if value < prev else total + value
        prev = max(prev, value)
    # Reject non-canonical numerals ("IIII", "VX") by round-tripping.
    return total if _to_roman(total) == text else None


def _to_roman(number: int) -> str:
    out = []
    for value, letters in ((100, "C"), (90, "XC"), (50, "L"), (40, "XL"), (10, "X"), (9, "IX"),
                           (5, "V"), (4, "IV"), (1, "I")):
        while number >= value:
            out.append(letters)
            number -= value
    return "".join(out)


class _Prepared:
    """What the extractor needs from an AliasIndex, computed once per index."""

    def __init__(self, aliases: AliasIndex) -> None:
        self.aliases = aliases
        self.by_alias = aliases.by_alias
        self.ambiguous = aliases.ambiguous
        keys = list(self.by_alias) + list(self.ambiguous)
        # Every prefix and suffix of every alias: a word-by-word trial stops as soon as what it
        # has read cannot grow into an alias.
        self.prefixes = {k[:i] for k in keys for i in range(1, len(k) + 1)}
        self.suffixes = {k[i:] for k in keys for i in range(len(k))}
        heads_of: dict[str, set[str]] = {}
        for key, code in self.by_alias.items():
            heads = heads_of.setdefault(code, set())
            if re.search(r"act(?:[0-9]{4})?$", key):
                heads.add("act")
            for word in ("code", "sanhita", "adhiniyam", "ordinance", "constitution"):
                if word in key:
                    heads.add(word)
        self.heads = {code: frozenset(heads) for code, heads in heads_of.items()}
        self.coi = aliases.resolve("Constitution")
        self.cpc = aliases.resolve("CPC") or aliases.resolve("Code of Civil Procedure")
        self.limitation = aliases.resolve("Limitation Act")
        schedule = absent_schedules().get((self.limitation or "", ARTICLE))
        #: how many Articles its Schedule numbers: a higher one is the Constitution's
        self.limitation_articles = schedule.count if schedule and schedule.count else 0
        self.years: dict[str, str | None] = {}

    def year_of(self, code: str | None) -> str | None:
        if code is None:
            return None
        if code not in self.years:
            self.years[code] = code_year(code)
        return self.years[code]

    def lookup(self, key: str) -> tuple[str | None, list[str] | None]:
        code = self.by_alias.get(key)
        if code:
            return code, None
        return None, self.ambiguous.get(key)


_CACHE: list[tuple[AliasIndex, int, _Prepared]] = []


def _prepared(aliases: AliasIndex) -> _Prepared:
    for index, size, prepared in _CACHE:
        if index is aliases and size == len(aliases.by_alias):
            return prepared
    prepared = _Prepared(aliases)
    _CACHE.insert(0, (aliases, len(aliases.by_alias), prepared))
    del _CACHE[4:]
    return prepared


def code_year(code: str | None) -> str | None:
    """The year an act code carries ("CPA_2019" -> "2019"; None for "COI")."""
    match = YEAR_IN_CODE.search(code) if code else None
    return match.group(1) if match else None


class _Event(NamedTuple):
    """An Act named in the document, for context resolution (a tuple: there are many)."""

    pos: int
    end: int
    code: str | None
    name: str
    problem: str | None
    heads: frozenset[str]
    year: str | None


@dataclass
class _Act:
    """The Act part of a phrase, as read: named, referred to, or not in the registry."""

    status: str  # "code" | "unknown" | "ambiguous" | "reference" | "non_statute"
    start: int  # act_text span, lead words ("of the") included
    end: int
    name: str
    code: str | None = None
    problem: str | None = None
    ref_head: str | None = None
    ref_keys: tuple[str, ...] = ()
    ref_year: str | None = None
    defs_only: bool = False


@dataclass
class _Item:
    number: str
    unit: str | None
    start: int
    end: int


@dataclass
class _Segment:
    kind: str
    items: list[_Item]
    end: int
    act: _Act | None = None
    order: int | None = None
    no_rule: bool = False  # "Order 39 CPC"


class _Document:
    """One text being read: the Acts it names (in order) and its defined short names."""

    def __init__(self, text: str, prep: _Prepared) -> None:
        self.text = text
        self.p = prep
        self.events: list[_Event] = []
        self.defs: dict[str, tuple[list[int], list[_Event]]] = {}
        self._scan_events()
        self.def_prefixes = {k[:i] for k in self.defs for i in range(1, len(k) + 1)}
        self.event_pos = [e.pos for e in self.events]
        # Any Act but the Constitution, which has Articles, not Sections.
        self.all_pos, self.all_ev = self._index(lambda e: e.code is None or e.code != prep.coi)
        self.head_index = {head: self._index(lambda e, h=head: h in e.heads)
                           for head in HEAD_WORDS}
        self.year_index: dict[str, tuple[list[int], list[_Event]]] = {}
        for event in self.events:
            if event.year:
                pos, evs = self.year_index.setdefault(event.year, ([], []))
                pos.append(event.pos)
                evs.append(event)

    def _index(self, keep) -> tuple[list[int], list[_Event]]:
        events = [e for e in self.events if keep(e)]
        return [e.pos for e in events], events

    # --- Acts named in running text ---------------------------------------------------------
    def _scan_events(self) -> None:
        text = self.text
        last_end = 0
        for m in EVENT_ANCHOR.finditer(text):
            start = m.start()
            if start < last_end or (start and (text[start - 1].isalnum()
                                                or text[start - 1] in "_.")):
                continue
            word = _norm(m.group())
            if word not in HEAD_WORDS:  # "IPC", "Cr.P.C."
                code = self.p.by_alias.get(word)
                event = (_Event(start, m.end(), code, m.group(), None,
                                self.p.heads.get(code, NO_HEADS), self.p.year_of(code))
                         if code else None)
            else:
                event = self._named_at(m, last_end)
            if event is None:
                continue
            self.events.append(event)
            last_end = event.end
            self._definition_after(event)

    def _event_for(self, start: int, end: int, code: str | None, ambiguous: list[str] | None,
                   name: str, year: str | None = None) -> _Event:
        code_year = self.p.year_of(code)
        if code and not (year and code_year and year != code_year):
            return _Event(start, end, code, name, None, self.p.heads.get(code, NO_HEADS),
                          code_year)
        # Not resolvable: an ambiguous alias, an unknown name, or a known name with another year.
        problem = (f"ambiguous act alias: {', '.join(ambiguous)}" if ambiguous
                   else f"{UNKNOWN_ACT}{name}")
        words = [w for w in (_norm(t) for t in name.split()) if w and not w.isdigit()]
        return _Event(start, end, None, name, problem,
                      frozenset(words) & (UNKNOWN_HEADS | HEAD_WORDS), year)

    def _named_at(self, m: re.Match, floor: int) -> _Event | None:
        """The Act whose name ends (or, for 'Code of ...', starts) at this head word."""
        text = self.text
        start, end = m.span()
        head = m.group()
        name_word_before = _name_word_before(text, start, floor)
        if not name_word_before and head[0] not in "CS":
            return None  # no name to the left, and "Act" alone names nothing
        if ACT_NUMBER.match(text, start):
            return None
        year_m = YEAR_AFTER.match(text, end)
        year = year_m.group("y") if year_m else None
        # Words of an Act named just before are not part of this one's name; and a name can
        # only run on to the left through a capitalised word ("the Act", "Act Act" do not).
        left = _Left(text, start, floor) if name_word_before else None
        key = _norm(head)
        best: tuple[int, int, int, str | None, list[str] | None, bool] | None = None
        # (key length, name start, name end, code, ambiguous, year used)
        for tok_start, tok in chain([(start, "")], ((t[0], t[2]) for t in left or ())):
            word = _norm(tok)
            if tok and not word:
                break
            key = word + key
            if key not in self.p.suffixes:
                break
            if word == "the":
                continue
            if year:
                code, amb = self.p.lookup(key + year)
                if code or amb:
                    best = (len(key) + 4, tok_start, year_m.end(), code, amb, True)
                    continue
            code, amb = self.p.lookup(key)
            if code or amb:
                best = (len(key), tok_start, end, code, amb, False)
        if head[0] in "CS":  # "Code of Criminal Procedure", "Constitution of India"
            right = self._right_trial(_norm(head), end)
            if right and (best is None or right[0] > best[0]):
                best = (right[0], start, right[1], right[2], right[3], right[4])
        if best:
            _, name_start, name_end, code, amb, used_year = best
            if not used_year:
                after = YEAR_AFTER.match(text, name_end)
                year = after.group("y") if after else None
                name_end = after.end() if after else name_end
            # An alias that is only the tail of a longer capitalised name ('Divorce Act' in
            # 'Muslim Women (Protection of Rights on Divorce) Act') names some other Act.
            longer = left and _name_continues_left(t for t in left if t[0] < name_start)
            if not longer:
                return self._event_for(name_start, name_end, code, amb,
                                       text[name_start:name_end], year)
            return self._event_for(longer, name_end, None, None, text[longer:name_end], year)
        if left is None or _norm(head) not in {"act", "code", "ordinance", "sanhita",
                                               "adhiniyam"}:
            return None
        name_start = _unknown_name_start(left, text)
        if name_start is None:
            return None
        name_end = year_m.end() if year_m else end
        return self._event_for(name_start, name_end, None, None, text[name_start:name_end], year)

    def _right_trial(self, key: str,
                     pos: int) -> tuple[int, int, str | None, list[str] | None, bool] | None:
        """Longest alias that starts with the head word ending at `pos` ('Code' + 'of Civil
        Procedure'), as (key length, end, code, ambiguous codes, ends with a year)."""
        text = self.text
        best = None
        prev_end = pos
        for count, m in enumerate(TOKEN.finditer(text, pos, min(len(text), pos + 160))):
            if count >= 8 or GAP_STOP.search(text, prev_end, m.start()):
                break
            key += _norm(m.group())
            if key not in self.p.prefixes:
                break
            code, amb = self.p.lookup(key)
            if code or amb:
                best = (len(key), _strip_end(text, m.start(), m.end()), code, amb,
                        bool(YEAR_TEXT.fullmatch(m.group())))
            prev_end = m.end()
        return best

    def _definition_after(self, event: _Event) -> None:
        """'(hereinafter referred to as "the Act")' right after a named Act."""
        if "(" not in self.text[event.end:event.end + 5] and "[" not in self.text[
                event.end:event.end + 5]:
            return
        m = DEFINITION.match(self.text, event.end)
        if not m or not (m.group("kw") or m.group("kw2") or (m.group("q1") and m.group("q2"))):
            return
        key = normalize_alias(m.group("term"))
        if not key or key.isdigit():
            return
        positions, events = self.defs.setdefault(key, ([], []))
        positions.append(m.end())
        events.append(event)

    # --- context lookups ---------------------------------------------------------------------
    @staticmethod
    def _latest(index: tuple[list[int], list[_Event]], pos: int,
                min_pos: int = -1) -> _Event | None:
        positions, events = index
        i = bisect_left(positions, pos)
        if i and positions[i - 1] >= min_pos:
            return events[i - 1]
        return None

    def definition(self, key: str, pos: int) -> _Event | None:
        index = self.defs.get(key)
        return self._latest(index, pos) if index else None

    def resolve_reference(self, act: _Act, pos: int) -> _Event | None:
        for key in act.ref_keys:
            event = self.definition(key, pos)
            if event:
                return event
        if act.defs_only:
            return None
        if act.ref_year:
            index = self.year_index.get(act.ref_year)
            return self._latest(index, pos) if index else None
        head = act.ref_head or "act"
        event = self._latest(self.head_index[head], pos)
        if event is None and head == "act":
            event = self._latest((self.all_pos, self.all_ev), pos)
        return event

    def bare_context(self, pos: int) -> _Event | None:
        return self._latest((self.all_pos, self.all_ev), pos, pos - CONTEXT_WINDOW)

    def latest_any(self, pos: int, window: int) -> _Event | None:
        positions = self.event_pos
        i = bisect_left(positions, pos)
        if i and positions[i - 1] >= pos - window:
            return self.events[i - 1]
        return None


def _strip_end(text: str, start: int, end: int) -> int:
    """End of a name token: keep the dot of 'Cr.P.C.' but not a sentence's full stop."""
    while end > start and text[end - 1] in ".)" and not (
            text[end - 1] == "." and "." in text[start:end - 1]) and not (
            text[end - 1] == ")" and "(" in text[start:end - 1]):
        end -= 1
    return end


class _Left:
    """The words before a head word, nearest first, up to the previous sentence or Act name."""

    def __init__(self, text: str, pos: int, floor: int) -> None:
        self._source = tokens_before(text, pos, max(floor, pos - 16 * MAX_TRIAL_TOKENS, 0), TOKEN)
        self._text = text
        self._pos = pos
        self._seen: list[tuple[int, int, str]] = []
        self._done = False

    def _pull(self) -> bool:
        if self._done or len(self._seen) >= MAX_TRIAL_TOKENS:
            return False
        tok = next(self._source, None)
        prev_start = self._seen[-1][0] if self._seen else self._pos
        if tok is None or GAP_STOP.search(self._text, tok[1], prev_start) or (
                tok[1] != self._pos and tok[2].endswith(".") and _sentence_end(tok[2])):
            self._done = True
            return False
        self._seen.append(tok)
        return True

    def __iter__(self) -> Iterator[tuple[int, int, str]]:
        i = 0
        while i < len(self._seen) or self._pull():
            yield self._seen[i]
            i += 1

    def first(self) -> tuple[int, int, str] | None:
        return next(iter(self), None)


def _name_word_before(text: str, pos: int, floor: int) -> bool:
    """Whether the word before `pos` could be the last word of an Act's name ('Penal', 'N.I.',
    '(Amendment)'): capitalised, and not itself a head word."""
    j = pos
    while j > floor and j > pos - 4 and text[j - 1] in " \t":
        j -= 1
    if j == pos or j <= floor:
        return False
    lo = max(floor, j - 40, 0)
    k = max(text.rfind(" ", lo, j), text.rfind("\n", lo, j), text.rfind("\t", lo, j), lo - 1)
    word = text[k + 1:j].lstrip("([\"'“‘")
    return bool(word) and (word[0].isupper() or word[0].isdigit()) and (
        _norm(word) not in UNKNOWN_HEADS)


def _sentence_end(tok: str) -> bool:
    core = tok.rstrip(".")
    return len(core) > 3 and "." not in core and (core.islower() or core.isdigit()
                                                  or core[0].isupper())


def _capitalized(tok: str) -> bool:
    core = tok.lstrip("(")
    return bool(core) and core[0].isupper()


NAME_CONNECTORS = {"of", "and", "&", "the", "for", "on", "to", "from", "relating", "de"}


def _apostrophe_s(text: str, start: int, word: str) -> bool:
    """Whether the token at `start` is the "s" after an apostrophe ("Workmen's"), which the
    tokens split off: part of the name it follows."""
    return word == "s" and text[start - 1:start] in ("'", "’")


def _unknown_name_start(left: Iterable[tuple[int, int, str]], text: str) -> int | None:
    """Start of a capitalised Act name ending at the head word ('the Foreigners Act'; 'the
    Workmen's Compensation Act', over the "s" after its apostrophe).

    None for references ('the said Act', 'BY THE ACT', 'this Amending Act') and for runs with
    no name word in them.
    """
    run: list[tuple[int, str]] = []
    for tok_start, _end, tok in islice(left, 10):
        if not run and tok.lower().strip("()") in REF_WORDS:
            return None
        if _norm(tok) in UNKNOWN_HEADS:
            break  # the end of another name: "Act Act"
        word = tok.lower().strip("()")
        if _apostrophe_s(text, tok_start, word):
            continue
        if (word in NAME_STOP and word not in NAME_CONNECTORS) or _numeral(word):
            break
        if _capitalized(tok) or (word in NAME_CONNECTORS and run):
            run.append((tok_start, tok))
        else:
            break
    # Trim from the far end: connectors and reference words are not part of the name.
    while run and run[-1][1].lower().strip("()") in CONNECTORS | REF_WORDS:
        run.pop()
    if not any(_norm(t) not in CONNECTORS | REF_WORDS | UNKNOWN_HEADS | HEAD_WORDS
               for _s, t in run):
        return None  # "Act Act", "Code Act": no name word
    return run[-1][0]


def _name_continues_left(left: Iterable[tuple[int, int, str]]) -> int | None:
    """Start of the capitalised name words (through connectors) right before an alias."""
    start = None
    for tok_start, _end, tok in islice(left, 10):
        word = tok.lower().strip("()")
        if word in NAME_CONNECTORS and word != "the":
            continue
        if not _capitalized(tok) or word in NAME_STOP | REF_WORDS or _numeral(word):
            break
        start = tok_start
    return start


def _numeral(word: str) -> bool:
    return any(c.isdigit() for c in word) or (bool(word) and set(word) <= set("ivxlc")
                                               and len(word) > 1)


@cache
def _kind_of(keyword: str) -> str:
    low = keyword.lower()
    if low.startswith("o"):
        return ORDER_RULE
    if "a" in low:
        return ARTICLE
    return SECTION


class _Reader:
    """Reads provision phrases at keyword anchors."""

    def __init__(self, text: str, prep: _Prepared) -> None:
        self.text = text
        self.p = prep
        self.doc = _Document(text, prep)
        # Provisions filled in from ranges, per document: "Sections 1 to 20" repeated over a
        # megabyte must not turn into a million mentions.
        self.range_budget = RANGE_BUDGET

    def extract(self) -> list[StatuteMention]:
        text = self.text
        out: list[StatuteMention] = []
        last_end = 0
        for m in KEYWORD.finditer(text):
            start = m.start()
            if start < last_end:
                continue
            if start and (text[start - 1].isalnum() or text[start - 1] in "-/._"):
                continue
            result = self._group(m, last_end)
            if result is None:
                continue
            mentions, end = result
            out.extend(mentions)
            last_end = end
        return out

    # --- phrase structure -------------------------------------------------------------------
    def _group(self, m: re.Match, last_end: int) -> tuple[list[StatuteMention], int] | None:
        kind = _kind_of(m.group())
        segments = (self._order_segments(m.end()) if kind == ORDER_RULE
                    else self._segments(kind, m.end()))
        if not segments:
            return None
        group_start = m.start()
        prefix = None
        if kind != ORDER_RULE:
            prefix = self._prefix_act(group_start, last_end)
            if prefix:
                group_start = prefix.start
        group_end = segments[-1].end
        group_text = self.text[group_start:group_end]
        mentions: list[StatuteMention] = []
        for i, segment in enumerate(segments):
            # A segment without its own Act takes the one named after it in the phrase
            # ("Section 302 read with Section 34 IPC"), else the one before it ("section 3 of
            # the Act read with section 4"), else one written before the keyword ("BNS s. 103").
            act = segment.act
            if act is None:
                act = (next((s.act for s in segments[i + 1:] if s.act), None)
                       or next((s.act for s in reversed(segments[:i]) if s.act), None)
                       or prefix)
            if act is not None and act.status == "non_statute":
                continue
            code, resolution, problem = self._resolve(segment.kind, act, segment.items[0].start,
                                                       segment.items[0].number)
            act_text = self.text[act.start:act.end] if act else None
            unit_before = _unit_before(self.text, m.start()) if i == 0 else None
            for j, item in enumerate(segment.items):
                unit = item.unit
                if unit_before and j == 0:
                    unit = (unit or "") + unit_before
                if segment.kind == ORDER_RULE:
                    if segment.no_rule:
                        number = f"O{segment.order}"
                    else:
                        number = f"O{segment.order}R{_section(item.number)}"
                else:
                    number = _section(item.number)
                mentions.append(StatuteMention(
                    item.start, item.end, group_start, group_end, group_text, segment.kind, code,
                    number, unit or None, act_text, resolution, problem))
        return mentions, group_end  # all dropped ("Section 5 of the agreement"): still skipped

    def _segments(self, kind: str, pos: int) -> list[_Segment]:
        segments: list[_Segment] = []
        segment = self._segment(kind, pos)
        while segment is not None:
            segments.append(segment)
            if len(segments) >= MAX_SEGMENTS:
                break
            link = LINK[kind].match(self.text, segment.end) or LINK_BARE.match(
                self.text, segment.end)
            segment = self._segment(kind, link.end()) if link else None
        return segments

    def _segment(self, kind: str, pos: int) -> _Segment | None:
        text = self.text
        while pos < len(text) and text[pos] in " \t":
            pos += 1
        items = self._items(kind, pos)
        if not items:
            return None
        end = items[-1].end
        act = self._act_after(kind, end)
        return _Segment(kind, items, act.end if act else end, act)

    def _items(self, kind: str, pos: int) -> list[_Item]:
        text = self.text
        m = ITEM.match(text, pos)
        if not m:
            return []
        items = [_item(m)]
        sep_re = SEP[kind]
        end = m.end()
        while len(items) < MAX_ITEMS:
            letters = LETTER_RANGE.match(text, end)
            last = NUMBER_LETTER.fullmatch(items[-1].number) if letters else None
            if last and not items[-1].unit and last.group("letter") < letters.group("letter"):
                high = last.group("digits") + letters.group("letter")
                items.extend(_Item(number, None, items[-1].start, letters.end())
                             for number in [*letters_between(items[-1].number, high), high])
                end = letters.end()
                continue
            s = sep_re.match(text, end)
            if not s:
                break
            n = ITEM.match(text, s.end())
            if not n or MEASURE.match(text, n.end()):
                break
            item = _item(n)
            prev = items[-1]
            if (s.group("sep").strip() in RANGE_SEPS and not s.group("kw")
                    and not prev.unit and not item.unit):
                if prev.number.isdigit() and item.number.isdigit():
                    low, high = int(prev.number), int(item.number)
                    if low < high <= low + RANGE_LIMIT and self.range_budget > 0:
                        self.range_budget -= high - low - 1
                        items.extend(_Item(str(k), None, prev.start, item.end)
                                     for k in range(low + 1, high))
                else:
                    items.extend(_Item(number, None, prev.start, item.end)
                                 for number in letters_between(prev.number, item.number))
            items.append(item)
            end = n.end()
        return items[:MAX_ITEMS]

    def _order_segments(self, pos: int) -> list[_Segment]:
        segments: list[_Segment] = []
        while len(segments) < MAX_SEGMENTS:
            segment = self._order_segment(pos)
            if segment is None:
                break
            segments.append(segment)
            link = LINK_ORDER.match(self.text, segment.end)
            if not link:
                break
            pos = link.end()
        return segments

    def _order_segment(self, pos: int) -> _Segment | None:
        text = self.text
        head = ORDER_HEAD.match(text, pos)
        if not head:
            return None
        order = roman_value(head.group("num"))
        if not order:  # one beyond the CPC's Orders is read too, for the verifier to flag
            return None
        if head.group("rkw"):
            items = self._items(ORDER_RULE, head.end())
            if not items:
                return None
            act = self._act_after(ORDER_RULE, items[-1].end)
            return _Segment(ORDER_RULE, items, act.end if act else items[-1].end, act, order)
        # "Order 39 CPC": an Order cited alone counts only with its Code named.
        num_end = head.start("num") + len(head.group("num"))
        act = self._act_after(ORDER_RULE, num_end)
        if act is None or act.status != "code":
            return None
        item = _Item(head.group("num"), None, head.start("num"), num_end)
        return _Segment(ORDER_RULE, [item], act.end, act, order, no_rule=True)

    def _prefix_act(self, pos: int, last_end: int) -> _Act | None:
        """'BNS s. 103', 'BNS_2023 s.103': an Act code or abbreviation just before the keyword."""
        text = self.text
        if pos < 2 or text[pos - 1] not in " \t" or not (text[pos - 2].isupper()
                                                          or text[pos - 2].isdigit()):
            return None
        m = PREFIX_ACT.search(self.text, max(last_end, pos - 24), pos)
        if not m:
            return None
        token = m.group("act")
        start = m.start("act")
        if start and (self.text[start - 1].isalnum() or self.text[start - 1] in "._"):
            return None
        if "_" not in token and sum(c.isupper() for c in token) < 2:
            return None
        code = self.p.by_alias.get(_norm(token))
        if not code:
            return None
        return _Act("code", start, m.end("act"), token, code)

    # --- the Act part ------------------------------------------------------------------------
    def _act_after(self, kind: str, pos: int) -> _Act | None:
        text = self.text
        lead = ACT_LEAD.match(text, pos)
        start = lead.start("lead")
        q = lead.end()
        has_lead = bool(lead.group("lead"))
        if not has_lead and (not (q < len(text) and (text[q].isupper() or text[q] == "("))
                             or KEYWORD.match(text, q)):
            return None  # an Act written straight after the number starts with a capital
        num = ACT_NUMBER.match(text, q)
        if num:
            return _Act("unknown", start, num.end(), num.group(),
                        problem=f"{UNKNOWN_ACT}{num.group()}")
        if has_lead:
            ref = self._reference(q, start)
            if ref:
                return ref
        named = self._alias_trial(q, start)
        if named:
            return named
        return self._unknown_after(kind, q, start, has_lead, lead.group("lead"))

    def _reference(self, q: int, start: int) -> _Act | None:
        text = self.text
        m = REFERENCE.match(text, q)
        if not m:
            return None
        head = m.group("head").lower()
        if head != "act" and CODE_NAME_FOLLOWS.match(text, m.end("head")):
            return None  # "the Code of Civil Procedure": a name, read by the alias trial
        mods = m.group("mods").split()
        if head == "constitution":
            if re.match(r"\s{0,2}\(", text[m.end("head"):m.end("head") + 3]):
                return None  # "the Constitution (Forty-second Amendment) Act"
            name = text[q:m.end()]
            if self.p.coi is None:
                return _Act("unknown", start, m.end(), name,
                            problem=f"{UNKNOWN_ACT}{name}")
            return _Act("code", start, m.end(), name, self.p.coi)
        year_m = YEAR_TEXT.search(m.group("year") or "") or next(
            (YEAR_TEXT.search(x) for x in mods if YEAR_TEXT.search(x)), None)
        year = year_m.group(1) if year_m else None
        kept = [x for x in mods if x.lower() not in {"said", "same", "above", "aforesaid",
                                                    "abovementioned", "above-mentioned", "this",
                                                    "that", "our"}]
        keys = []
        phrase = " ".join([*kept, head])
        if year and m.group("year"):
            keys.append(normalize_alias(f"{phrase} {year}"))
        keys.append(normalize_alias(phrase))
        if normalize_alias(head) not in keys:
            keys.append(normalize_alias(head))
        defs_only = any(x.lower() in {"central", "state", "principal", "parent", "old", "new",
                                       "amended", "earlier", "main", "relevant", "present",
                                       "impugned"} for x in kept)
        end = m.end()
        return _Act("reference", start, end, text[q:end], ref_head=head,
                    ref_keys=tuple(dict.fromkeys(keys)), ref_year=year, defs_only=defs_only)

    def _alias_trial(self, q: int, start: int) -> _Act | None:
        """Longest alias (or defined short name) that the words at `q` begin with."""
        text = self.text
        key = ""
        best = None
        prev_end = q
        limit = min(len(text), q + 200)
        defs = self.doc.defs
        for count, m in enumerate(TOKEN.finditer(text, q, limit)):
            tok_start = m.start()
            if count >= MAX_TRIAL_TOKENS or (tok_start - prev_end > 1 and GAP_STOP.search(
                    text, prev_end, tok_start)):
                break
            if count == 0 and tok_start != q:
                break
            tok = m.group()
            word = _norm(tok)
            if not word:
                break
            prev_end = m.end()
            if not key and word == "the":
                continue
            key += word
            if key not in self.p.prefixes and key not in self.doc.def_prefixes:
                break
            event = self.doc.definition(key, q) if key in defs else None
            code, amb = (event.code, None) if event and event.code else self.p.lookup(key)
            if code or amb or event:
                best = (tok_start, prev_end, code, amb, event)
            if tok[-1] == "." and _sentence_end(tok):
                break
        if best is None:
            return None
        _tok_start, tok_end, code, amb, event = best
        end = _strip_end(text, _tok_start, tok_end)
        name = text[q:end]
        year_m = YEAR_AFTER.match(text, end)
        if year_m:
            written = year_m.group("y")
            enacted = code_year(code)
            end = year_m.end()
            if code and enacted and written != enacted:
                full = text[q:end]
                return _Act("unknown", start, end, full,
                            problem=f"{UNKNOWN_ACT}{full}")
        if code:
            return _Act("code", start, end, name, code)
        if amb:
            return _Act("ambiguous", start, end, name,
                        problem=f"ambiguous act alias: {', '.join(amb)}")
        assert event is not None
        return _Act("unknown", start, end, name, problem=event.problem)

    def _words_after(self, q: int) -> Iterator[re.Match]:
        """Word tokens from `q` on (the first must start at `q`), to the end of the sentence."""
        text = self.text
        prev_end = q
        for count, m in enumerate(TOKEN.finditer(text, q, min(len(text), q + 160))):
            if count >= 12 or (count == 0 and m.start() != q) or GAP_STOP.search(
                    text, prev_end, m.start()):
                return
            yield m
            prev_end = m.end()
            if m.group().endswith(".") and _sentence_end(m.group()):
                return

    def _unknown_after(self, kind: str, q: int, start: int, has_lead: bool,
                       lead: str) -> _Act | None:
        """An instrument named after the number but not in the registry ('of the Foreigners
        Act', 'of the ICCPR'), or a document that is not a statute ('of the agreement')."""
        text = self.text
        words = self._words_after(q)
        first_m = next(words, None)
        if first_m is None:
            return None
        of_lead = lead.strip().lower().startswith(("of", "under"))
        first = first_m.group()
        if not _capitalized(first) or first.lower().strip("().") in NAME_STOP | REF_WORDS:
            # "of the agreement", "of the said notification"
            if not of_lead:
                return None
            for tok in chain([first_m], islice(words, 2)):
                word = tok.group().lower().strip("().")
                if word in REF_WORDS:
                    continue
                if word not in INSTRUMENTS:
                    return None
                end = _strip_end(text, tok.start(), tok.end())
                return self._instrument(start, end, text[q:end], word)
            return None
        run_end = last_head = None
        for m in chain([first_m], words):
            tok = m.group()
            word = tok.lower().strip("().")
            if _capitalized(tok):
                if m is not first_m and word in NAME_STOP:
                    break
                run_end = m
                if _norm(tok) in UNKNOWN_HEADS:
                    last_head = m
            elif word not in CONNECTORS and not _apostrophe_s(text, m.start(), word):
                break
        if kind == ARTICLE and of_lead and run_end is not None:
            end_tok = last_head or run_end
        elif last_head is not None and (of_lead or not has_lead):
            end_tok = last_head
        else:
            return None
        end = _strip_end(text, end_tok.start(), end_tok.end())
        year_m = YEAR_AFTER.match(text, end)
        if year_m:
            end = year_m.end()
        return self._instrument(start, end, text[q:end], _norm(end_tok.group()))

    @staticmethod
    def _instrument(start: int, end: int, name: str, head_word: str) -> _Act:
        if head_word in NON_STATUTE:
            return _Act("non_statute", start, end, name)
        return _Act("unknown", start, end, name, problem=f"{UNKNOWN_ACT}{name}")

    # --- resolution --------------------------------------------------------------------------
    def _resolve(self, kind: str, act: _Act | None, pos: int,
                 number: str) -> tuple[str | None, str, str | None]:
        if act is not None and act.status == "code":
            return act.code, EXPLICIT, None
        if act is not None and act.status in ("unknown", "ambiguous"):
            return None, UNRESOLVED, act.problem
        if kind == ORDER_RULE:
            if self.p.cpc:
                return self.p.cpc, CONTEXT, None
            return None, UNRESOLVED, ACT_NOT_NAMED
        if act is not None:  # a reference: "the Act", "the said Code", "the 1996 Act"
            return _from_event(self.doc.resolve_reference(act, pos))
        if kind == ARTICLE:
            # Articles are the Constitution's, except a bare "Article 58" right after the
            # Limitation Act was named (the Articles of its Schedule; "Article 226" there is
            # still the Constitution's: the Schedule stops at 137).
            digits = re.match(r"\d+", number)
            if self.p.limitation and digits and int(digits.group()) <= self.p.limitation_articles:
                event = self.doc.latest_any(pos, LIMITATION_WINDOW)
                if event is not None and event.code == self.p.limitation:
                    return event.code, CONTEXT, None
            if self.p.coi:
                return self.p.coi, CONTEXT, None
            return None, UNRESOLVED, ACT_NOT_NAMED
        return _from_event(self.doc.bare_context(pos))


def _unit_before(text: str, pos: int) -> str | None:
    """'clause (a) of sub-section (1) of Section 13' -> '(1)(a)'."""
    lo = max(0, pos - 90)
    tail = text[max(0, pos - 9):pos]
    if ")" not in tail or "of" not in tail:
        return None
    m = UNIT_BEFORE.search(text, lo, pos)
    if not m:
        return None
    return "".join(f"({u})" for u in reversed(PAREN_UNIT.findall(m.group())))


def _from_event(event: _Event | None) -> tuple[str | None, str, str | None]:
    if event is None:
        return None, UNRESOLVED, ACT_NOT_NAMED
    if event.code:
        return event.code, CONTEXT, None
    return None, UNRESOLVED, event.problem


_SECTION_CACHE: dict[str, str] = {}


def _section(number: str) -> str:
    """normalize_section_number, memoised: the same few hundred numbers recur everywhere."""
    out = _SECTION_CACHE.get(number)
    if out is None:
        out = normalize_section_number(number)
        if len(_SECTION_CACHE) < 10_000:
            _SECTION_CACHE[number] = out
    return out


def letters_between(low: str, high: str) -> list[str]:
    """The sections strictly between two lettered sections of one number ("376A" and "376D":
    376B, 376C), which a range of them cites too; none for any other pair."""
    first, last = NUMBER_LETTER.fullmatch(low), NUMBER_LETTER.fullmatch(high)
    if not (first and last and first.group("digits") == last.group("digits")):
        return []
    return [first.group("digits") + chr(code)
            for code in range(ord(first.group("letter")) + 1, ord(last.group("letter")))]


def _item(m: re.Match) -> _Item:
    unit = re.sub(r"\s", "", m.group("unit")) if m.group("unit") else ""
    if m.group("part"):
        unit = (unit + " " if unit else "") + m.group("part").strip()
    return _Item(m.group("num"), unit or None, m.start(), m.end())


def extract_statute_mentions(text: str, aliases: AliasIndex) -> list[StatuteMention]:
    """Every cited provision in `text`, in order, with its Act resolved where the text allows."""
    if not text:
        return []
    mentions = _Reader(text, _prepared(aliases)).extract()
    taken = Spans((m.group_start, m.group_end) for m in mentions)
    extra = [m for m in _acronym_mentions(text, aliases)
             if not taken.overlaps(m.start, m.group_end)]
    if extra:
        mentions = sorted([*mentions, *extra], key=lambda m: (m.start, m.end))
    short = _short_forms(text, mentions)
    if not short:
        return mentions
    return sorted([*mentions, *short], key=lambda m: (m.start, m.end))


# "BNS 302", "IPC 498A", "CrPC 438(2)", "BNSS_2023 173": an Act acronym, then the number with no
# section word, as model answers write them. Only short aliases (acronyms) of the registry
# count, and a four-digit number after one is a year ("IPC 1860"), never a section.
ACRONYM_NUMBER = re.compile(
    r"(?<![\w.])(?P<act>[A-Z][A-Za-z.]{1,8}(?:_[0-9]{4})?)[ \t]{1,2}"
    r"(?P<num>[0-9]{1,3}[A-Z]{0,2})(?P<unit>(?:\([0-9A-Za-z]{1,5}\)){0,4})(?![\w(])")
_MAX_ACRONYM = 6


def _acronym_mentions(text: str, aliases: AliasIndex) -> list[StatuteMention]:
    found = []
    for m in ACRONYM_NUMBER.finditer(text):
        act = m.group("act")
        key = normalize_alias(act.split("_")[0])
        code = aliases.by_alias.get(normalize_alias(act)) if "_" in act else None
        if code is None and sum(c.isupper() for c in act) >= 2 and len(key) <= _MAX_ACRONYM:
            code = aliases.by_alias.get(key)
        if code is None:
            continue
        found.append(StatuteMention(
            m.start("num"), m.end("num"), m.start(), m.end(), m.group(0),
            ARTICLE if code == aliases.resolve("Constitution") else SECTION, code,
            _section(m.group("num")), m.group("unit") or None, act, EXPLICIT, None))
    return found


# "the said section", "that section", "the same section", "the said provision": a provision
# cited again without its number. Anchored on the modifier; "the" before it is read in Python.
SAID = re.compile(r"(?P<mod>said|aforesaid|same|that|That|Said|Aforesaid|SAID|THAT)\s{1,2}"
                  r"(?P<head>section|Section|SECTION|provision|Provision|PROVISION)"
                  r"(?![A-Za-z0-9'’-])")
THE_BEFORE = re.compile(r"(?:the|The|THE)\s{1,2}$")
# A number after it is a numbered citation ("that Section 34", read by the Reader); "that
# section of the society", "the same provision in the Rules", "the said provision for
# reservation" are not about a cited provision.
NOT_SHORT = re.compile(r"[ \t]{0,3}[0-9IVXLC]|\s{1,2}(?:of|in|under|for)\s")


def _short_forms(text: str, mentions: list[StatuteMention]) -> list[StatuteMention]:
    """Mentions for the short forms in `text`, each of the provision cited last before it
    ('the said section': the last Section; 'the said provision': the last of any kind)."""
    groups = _groups(mentions)
    taken = Spans((g[0].group_start, g[0].group_end) for g in groups)
    by_end = sorted(groups, key=lambda g: g[0].group_end)
    latest = {head: ([g[0].group_end for g in kept], kept) for head, kept in (
        ("provision", by_end), ("section", [g for g in by_end if g[0].kind == SECTION]))}
    out: list[StatuteMention] = []
    for m in SAID.finditer(text):
        start, end = m.span()
        mod, head = m.group("mod").lower(), m.group("head").lower()
        if (start and (text[start - 1].isalnum() or text[start - 1] in "-_/.'’")) or (
                mod == "that" and head != "section") or NOT_SHORT.match(text, end):
            continue  # "so that provision is made" is no reference
        the = THE_BEFORE.search(text, max(0, start - 6), start)
        if (the and mod == "that") or (not the and mod == "same"):
            continue  # "the that section"; "same section" (the same as what?)
        if the:
            start = the.start()
        if taken.overlaps(start, end):
            continue  # part of a cited phrase
        ends, kept = latest[head]
        j = bisect_right(ends, start)
        near = bool(j) and ends[j - 1] >= start - CONTEXT_WINDOW
        out.append(_short_form(text, start, end, kept[j - 1] if near else None))
    return out


def _groups(mentions: list[StatuteMention]) -> list[list[StatuteMention]]:
    """Mentions cited in one phrase, phrase by phrase, in text order."""
    groups: list[list[StatuteMention]] = []
    for m in sorted(mentions, key=lambda x: (x.group_start, x.start)):
        if groups and m.group_start == groups[-1][0].group_start:
            groups[-1].append(m)
        else:
            groups.append([m])
    return groups


def _short_form(text: str, start: int, end: int,
                group: list[StatuteMention] | None) -> StatuteMention:
    """The mention a short form at [start, end) stands for, given the last group before it."""
    phrase = text[start:end]
    unit = _unit_before(text, start)  # "sub-section (2) of that section"
    if not group:
        return StatuteMention(start, end, start, end, phrase, SECTION, None, None, unit, None,
                              UNRESOLVED, NO_ANTECEDENT)
    cited = list(dict.fromkeys((m.act_code, m.section) for m in group))
    if len(cited) > 1:
        numbers = ", ".join(dict.fromkeys(str(section) for _, section in cited))
        return StatuteMention(start, end, start, end, phrase, group[0].kind, None, None, unit,
                              None, UNRESOLVED, f"short form after several provisions cited "
                              f"together ({numbers}): which one it means is unclear")
    first = group[0]
    units = {m.unit for m in group}
    if unit is None and len(units) == 1:
        unit = first.unit
    resolution = SHORT_FORM if first.act_code else UNRESOLVED
    return StatuteMention(start, end, start, end, phrase, first.kind, first.act_code,
                          first.section, unit, None, resolution, first.problem,
                          (first.start, first.end))
