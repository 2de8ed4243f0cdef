"""The act registry: one entry per Act with a stable code, its era, domain and aliases.

Curated facts (codes people already use, commencement dates, aliases) live in
`nyaya/facts/acts.yaml`; every other Act gets a derived code from its title and year
(acronym + year, with a short hash of the folder name only where two Acts would collide).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from functools import cache
from importlib import resources

import yaml

from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.omissions import STRUCK_DOWN, Omission, omission

NAVEEN_SANHITAS = "naveen_sanhitas"
COLONIAL_CODES = "colonial_codes"
STOP_WORDS = {"the", "of", "and", "for", "in", "on", "to", "by", "with", "from", "a", "an", "at"}
YEAR_IN_TITLE = re.compile(r",?\s*(\d{4})\s*\.?\s*$")


@dataclass
class ActEntry:
    act_code: str
    title: str
    year: int | None
    status: str  # in_force / repealed
    era: str
    legal_domain: str
    applicable_from: str | None  # ISO date, None where the corpus does not say
    repealed_by: str | None
    repealed_on: str | None
    source_kind: str  # indiacode / repealed / constitution
    source_path: str  # relative to the corpus root
    source_url: str | None
    section_format: str  # headings / page_text / json
    curated: bool
    aliases: list[str] = field(default_factory=list)

    def to_row(self) -> dict:
        return asdict(self)


@cache
def _facts_file(name: str) -> dict:
    """A facts file shipped with the package (nyaya/facts/<name>), read and parsed once."""
    return yaml.safe_load(resources.files("nyaya.facts").joinpath(name).read_text(
        encoding="utf-8"))


def load_facts() -> dict:
    """The curated act facts shipped with the package."""
    return _facts_file("acts.yaml")


@cache
def known_gaps() -> dict[tuple[str, str], str]:
    """(act_code, normalized section) -> why the corpus lacks a section that exists in law."""
    rows = _facts_file("known_gaps.yaml")["sections_absent_from_corpus"]
    return {(row["act_code"], normalize_section_number(str(row["section"]))): row["why"]
            for row in rows}


@cache
def dropped_provisions() -> dict[tuple[str, str], Omission]:
    """(act_code, normalized provision) -> its omission (omitted or repealed, the note that
    dropped it, its date), for provisions the corpus's source prints no entry for
    (nyaya/facts/known_gaps.yaml)."""
    dropped = {}
    for row in _facts_file("known_gaps.yaml")["provisions_dropped_before_the_text"]:
        gone = omission(row["kind"], row["note"], None)
        for written in row["provisions"]:
            first, _, last = str(written).partition("-")
            numbers = map(str, range(int(first), int(last) + 1)) if last else [first]
            for number in numbers:
                dropped[(row["act_code"], normalize_section_number(number))] = gone
    return dropped


@cache
def struck_down() -> dict[tuple[str, str], Omission]:
    """(act_code, normalized section) -> its omission, with the note naming the judgment that
    struck it down, for sections whose source prints none (nyaya/facts/struck_down.yaml)."""
    return {(row["act_code"], normalize_section_number(str(row["section"]))):
            Omission(STRUCK_DOWN, row["note"], None)
            for row in _facts_file("struck_down.yaml")["struck_down"]}


@cache
def shared_names() -> dict[str, tuple[str, tuple[str, ...]]]:
    """Normalized short name -> (the Act it is read as, the other Acts it names):
    nyaya/facts/acts.yaml's `shared_names` ("IT Act" is the Income-tax Act too)."""
    return {normalize_alias(name): (row["read_as"], tuple(row["also"]))
            for row in load_facts().get("shared_names", ()) for name in row["names"]}


@cache
def former_names() -> dict[str, str]:
    """`loose_name` key of an Act's former name -> its later name (nyaya/facts/acts.yaml's
    `former_names`: the Workmen's Compensation Act, 1923 is the Employee's Compensation Act)."""
    return {loose_name(row["former"])[0]: row["now"]
            for row in load_facts().get("former_names", ())}


@dataclass(frozen=True)
class AbsentSchedule:
    """A schedule the corpus lacks, its provisions cited by their own numbering."""

    act_code: str
    cited_as: str  # the citation kind that names its provisions: "order_rule" or "article"
    count: int | None  # how many it numbers (Orders I to LI: 51); None: not recorded
    name: str
    why: str


@cache
def absent_schedules() -> dict[tuple[str, str], AbsentSchedule]:
    """(act_code, citation kind) -> the schedule the corpus lacks (nyaya/facts/known_gaps.yaml)."""
    rows = _facts_file("known_gaps.yaml")["schedules_absent_from_corpus"]
    return {(row["act_code"], row["cited_as"]): AbsentSchedule(**row) for row in rows}


def normalize_alias(text: str) -> str:
    """Key for alias matching: 'Cr. P.C.', 'CrPC' and 'crpc' all become 'crpc'."""
    text = text.lower().replace("&", "and")
    text = re.sub(r"^\s*the\s+", "", text)
    return re.sub(r"[^a-z0-9]", "", text)


def title_year(title: str, slug: str) -> int | None:
    match = YEAR_IN_TITLE.search(title) or re.search(r"-(\d{4})$", slug)
    return int(match.group(1)) if match else None


def era_for(year: int | None) -> str:
    """Era of an Act without a curated one: before or after the Constitution (1950)."""
    if year is None:
        return "unknown"
    return "pre_constitution" if year < 1950 else "post_constitution"


def domain_for_title(title: str) -> str:
    """The first domain whose keyword is a whole word or phrase of the title ('rent', not
    'cur-rent')."""
    lowered = title.lower()
    for domain, pattern in _domain_patterns():
        if pattern.search(lowered):
            return domain
    return "general"


@cache
def _domain_patterns() -> list[tuple[str, re.Pattern]]:
    return [(domain, re.compile(r"\b(?:" + "|".join(map(re.escape, keywords)) + r")\b"))
            for domain, keywords in load_facts()["domain_keywords"]]


def acronym(title: str) -> str:
    words = re.findall(r"[A-Za-z]+", YEAR_IN_TITLE.sub("", title))
    letters = [w[0].upper() for w in words if w.lower() not in STOP_WORDS]
    return "".join(letters) or "ACT"


def derive_codes(titles: dict[str, tuple[str, int | None]], taken: set[str]) -> dict[str, str]:
    """slug -> code for uncurated Acts; a colliding acronym gets a slug hash on every member.

    Hashing every member of a collision group (not just the later ones) keeps a code from
    depending on the order in which Acts were read.
    """
    plain = {}
    for slug, (title, year) in titles.items():
        plain[slug] = f"{acronym(title)}_{year}" if year else acronym(title)
    counts: dict[str, int] = {}
    for code in plain.values():
        counts[code] = counts.get(code, 0) + 1
    out = {}
    for slug, code in plain.items():
        if counts[code] > 1 or code in taken:
            code = f"{code}_{hashlib.sha1(slug.encode()).hexdigest()[:4].upper()}"
        out[slug] = code
    return out


def auto_aliases(title: str) -> list[str]:
    """Names people write for an Act: its title with and without 'The' and the year."""
    bare = re.sub(r"^the\s+", "", title, flags=re.IGNORECASE).strip()
    no_year = YEAR_IN_TITLE.sub("", bare).strip().rstrip(",")
    return list(dict.fromkeys([title, bare, no_year]))


LOOSE_WORDS = frozenset({"the", "of", "and"})  # what a name may drop or add and stay the Act's
_INITIALS = re.compile(
    r"(?:(?i:of|under|in|to|by)\s+)?(?:(?i:the)\s+)?(?P<letters>(?:[A-Z]\.?\s?){2,6}?)\s*"
    r"Act\b\.?(?:\s*,?\s*(?P<year>(?:1[89]|20)\d\d))?\s*[.,;:)]*")


def initials(written: str) -> tuple[str, str | None] | None:
    """(the `acronym` it stands for, its year or None) of an Act written as its title's
    initials: "of the S.R. Act, 1963" -> ("SRA", "1963"); None for any other name. "CLRA Act"
    is read as CLRAA only, never as CLRA (the Calcutta Land-Revenue Act's): a name that
    repeats its "Act" is a guess too far."""
    match = _INITIALS.fullmatch(written.strip())
    if match is None:
        return None
    return re.sub(r"[^A-Z]", "", match["letters"]) + "A", match["year"]


def name_words(name: str) -> tuple[tuple[str, ...], str | None]:
    """(words, year) of an Act's name, "the", "of" and "and" dropped and the year, when written
    last, apart."""
    words = re.findall(r"[a-z0-9]+", name.lower().replace("&", " and "))
    year = words.pop() if words and re.fullmatch(r"(1[89]|20)\d\d", words[-1]) else None
    return tuple(word for word in words if word not in LOOSE_WORDS), year


def loose_name(name: str) -> tuple[str, str | None]:
    """(key, year) of an Act's name with "the", "of" and "and" dropped: "Scheduled Castes and
    Scheduled Tribes (Prevention of Atrocities) Act, 1989" and the title's "Scheduled Castes
    and the Scheduled Tribes ..." meet."""
    words, year = name_words(name)
    return "".join(words), year


#: words that tell no Act from another when a shortened name is all of them ("the Amendment
#: Act", "the Validation Act")
UNTELLING_WORDS = frozenset({"amendment", "amending", "validation", "validating", "first",
                             "second", "third", "supplementary", "repealing", "act", "code"})


#: the bracketed words of a title just before its "Act" or "Code": "(Protection)" of "The Wild
#: Life (Protection) Act, 1972", which its popular name drops
BRACKETED_BEFORE_ACT = re.compile(r"\s*\([^()]*\)\s*(?=(?:Act|Code)\b)")
#: bracketed words that only say what the Act does to its subject ("(Protection)",
#: "(Prevention and Control of Pollution)", "(Development and Regulation)"): the name without
#: them is that Act's. Other brackets carry the subject ("The Criminal Procedure
#: (Identification) Act", "The Orissa (Alteration of Name) Act"): without them, a guess.
QUALIFYING_WORDS = frozenset({"protection", "prevention", "prohibition", "regulation", "control",
                              "development", "abolition", "redressal", "conservation", "rights",
                              "pollution", "and", "of", "the"})


#: the fewest last words of a title whose initials may be its name ("Goods and Services Tax
#: Act": "GST Act"); two ("Tax Act": "TA") would name dozens
INITIALLED_ENDING = 4


def endings(name: str) -> list[tuple[str, ...]]:
    """The names an Act's name may be written as, whole or shortened to its last words down
    to the last two ("Indian Stamp Act" gives "indian stamp act" and "stamp act"), leaving out
    those that tell nothing ("amendment act")."""
    words, _ = name_words(name)
    return [words[i:] for i in range(len(words) - 1) if not set(words[i:]) <= UNTELLING_WORDS]


def shortened(written: str) -> tuple[tuple[str, ...], str | None] | None:
    """(words, year) of a name that may be an Act's shortened ("the Stamp Act"), or None for
    one that tells nothing or names no Act ("the Amendment Act", "the Bombay Code")."""
    words, year = name_words(written)
    if len(words) < 2 or words[-1] not in ("act", "code") or set(words) <= UNTELLING_WORDS:
        return None
    return words, year


@dataclass
class AliasIndex:
    """Normalized alias -> act_code; aliases claimed by two Acts are kept out and listed.
    `loose`: `loose_name` keys of every title and alias -> the (act_code, year) they name."""

    by_alias: dict[str, str]
    ambiguous: dict[str, list[str]]
    loose: dict[str, set[tuple[str, str | None]]] = field(default_factory=dict)
    #: `acronym` of every title -> the (act_code, year) of the Acts it is the initials of
    initialled: dict[str, set[tuple[str, str | None]]] = field(default_factory=dict)
    #: the `endings` of every title -> the (act_code, year) of the Acts whose titles end so
    ended: dict[tuple[str, ...], set[tuple[str, str | None]]] = field(default_factory=dict)
    #: `acronym` of every title's endings of INITIALLED_ENDING words or more -> its Acts
    ending_initialled: dict[str, set[tuple[str, str | None]]] = field(default_factory=dict)
    #: `loose_name` of every title without its bracketed words ("Wild Life Act" of "The Wild
    #: Life (Protection) Act, 1972") -> its Acts
    headed: dict[str, set[tuple[str, str | None]]] = field(default_factory=dict)
    #: the same, of the titles whose bracketed words only qualify (QUALIFYING_WORDS)
    qualified: dict[str, set[tuple[str, str | None]]] = field(default_factory=dict)

    def loosely(self, written: str) -> str | None:
        """The one Act whose title or alias `written` differs from only in "the", "of" and
        "and" (its year, when written, the Act's); None when none or several."""
        key, year = loose_name(written)
        codes = _of_year(self.loose.get(key, ()), year)
        return next(iter(codes)) if len(codes) == 1 else None

    def by_initials(self, written: str) -> list[str]:
        """The Acts whose title's initials `written` is ("SR Act": the Specific Relief Act,
        1963, the Societies Registration Act, 1860 and two more), of its year when written;
        [] for a name that is not initials."""
        return _initialled_as(self.initialled, written)

    def by_ending_initials(self, written: str) -> list[str]:
        """The Acts the initials of whose title's last words (INITIALLED_ENDING or more) it is
        ("GST Act": the Central, Integrated and Union Territory Goods and Services Tax Acts), of
        its year when written; [] for a name that is not initials."""
        return _initialled_as(self.ending_initialled, written)

    def by_head(self, written: str, qualified: bool = False) -> list[str]:
        """The Acts whose title without its bracketed words is what is written ("Wild Life
        Act": the Wild Life (Protection) Act, 1972), of its year when written; `qualified`:
        only those whose bracketed words merely qualify the name."""
        key, year = loose_name(written)
        return sorted(_of_year((self.qualified if qualified else self.headed).get(key, ()),
                               year))

    def by_ending(self, written: str) -> list[str]:
        """The Acts whose title ends with what is written ("Stamp Act": the Indian Stamp Act,
        1899), of its year when written; [] for a name that tells nothing."""
        read = shortened(written)
        if read is None:
            return []
        words, year = read
        return sorted(_of_year(self.ended.get(words, ()), year))

    def resolve(self, text: str) -> str | None:
        return self.by_alias.get(normalize_alias(text))

    def longest_in(self, text: str) -> tuple[str, str] | None:
        """The longest alias contained in the text, as (act_code, normalized alias)."""
        key = normalize_alias(text)
        best = None
        for alias, code in self.by_alias.items():
            if alias in key and (best is None or len(alias) > len(best[1])):
                best = (code, alias)
        return best


def _initialled_as(named: dict[str, set[tuple[str, str | None]]], written: str) -> list[str]:
    """The act codes `named` holds under the initials `written` is, of its year when written."""
    read = initials(written)
    return [] if read is None else sorted(_of_year(named.get(read[0], ()), read[1]))


def _of_year(named: Iterable[tuple[str, str | None]], year: str | None) -> set[str]:
    """The act codes of (act_code, year enacted) pairs that a name written with `year` (or
    none) may mean: an Act of unknown year may be any."""
    return {code for code, enacted in named if year is None or enacted is None or year == enacted}


def alias_index_from_rows(rows: list[dict]) -> AliasIndex:
    """The alias index from `act_registry` table rows (aliases may arrive as arrays)."""
    return build_alias_index([ActEntry(**{**row, "aliases": list(row["aliases"])})
                              for row in rows])


def build_alias_index(entries: list[ActEntry]) -> AliasIndex:
    curated: dict[str, str] = {}
    auto: dict[str, set[str]] = {}
    loose: dict[str, set[tuple[str, str | None]]] = {}
    initialled: dict[str, set[tuple[str, str | None]]] = {}
    ended: dict[tuple[str, ...], set[tuple[str, str | None]]] = {}
    ending_initialled: dict[str, set[tuple[str, str | None]]] = {}
    headed: dict[str, set[tuple[str, str | None]]] = {}
    qualified: dict[str, set[tuple[str, str | None]]] = {}
    for entry in entries:
        # a year read from a table is a float (1989.0), or NaN when unknown
        enacted = str(int(entry.year)) if entry.year and entry.year == entry.year else None
        initialled.setdefault(acronym(entry.title), set()).add((entry.act_code, enacted))
        bracketed = BRACKETED_BEFORE_ACT.search(entry.title)
        if bracketed:
            head = loose_name(BRACKETED_BEFORE_ACT.sub(" ", entry.title))[0]
            headed.setdefault(head, set()).add((entry.act_code, enacted))
            if set(re.findall(r"[a-z]+", bracketed.group().lower())) <= QUALIFYING_WORDS:
                qualified.setdefault(head, set()).add((entry.act_code, enacted))
        for ending in endings(entry.title):
            ended.setdefault(ending, set()).add((entry.act_code, enacted))
            if len(ending) >= INITIALLED_ENDING:
                ending_initialled.setdefault(acronym(" ".join(ending)), set()).add(
                    (entry.act_code, enacted))
        for name in (entry.title, *entry.aliases):
            key, year = loose_name(name)
            # an alias with a year names the Act only with it: "Land Acquisition Act 2013" must
            # not make the undated "Land Acquisition Act" (the 1894 Act's, mostly) this one
            if key and (name is entry.title or year is None):
                loose.setdefault(key, set()).add((entry.act_code, enacted))
        code_keys = {normalize_alias(entry.act_code), normalize_alias(entry.act_code.split("_")[0])}
        if entry.curated:
            for alias in [*entry.aliases, entry.act_code]:
                curated.setdefault(normalize_alias(alias), entry.act_code)
            curated.update({k: entry.act_code for k in code_keys if k not in curated})
        for alias in auto_aliases(entry.title):
            auto.setdefault(normalize_alias(alias), set()).add(entry.act_code)
        auto.setdefault(normalize_alias(entry.act_code), set()).add(entry.act_code)
    by_alias = dict(curated)
    ambiguous: dict[str, list[str]] = {}
    for key, codes in auto.items():
        if key in by_alias or not key:
            continue
        if len(codes) == 1:
            by_alias[key] = next(iter(codes))
        else:
            ambiguous[key] = sorted(codes)
    return AliasIndex(by_alias, ambiguous, loose, initialled, ended, ending_initialled, headed,
                      qualified)
