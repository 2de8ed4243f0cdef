"""Case citations against the cases we hold: found, misattributed, overruled, or invented.

We hold the SC registry (INSC neutral and SCR citations of the judgments reported in SCR,
decided 1990-2025), the reporter citations printed in ~2,000 corpus judgment headers, and the
citations the corpus judgments print in their text. An AIR or SCC citation of a real case is
usually simply not held, so "not found" alone would flag real law as fabricated: a citation we
cannot find goes to the deterministic five-validator panel (`nyaya.verify.panel`), and only one
the panel finds evidence of invention in is NOT_FOUND; the rest are UNVERIFIABLE.

The party names written with a citation we do not hold are evidence too (`NameIndex`, over
the names of the registry and the corpus judgments):
- they are all the names of a case we hold whose own INSC number or SCR first page is another:
  the citation is wrong (NOT_FOUND, naming the case and its own citation). A page that lies
  inside that case's judgment is a pinpoint, not an invention (UNVERIFIABLE);
- they are a case we hold, decided in the years the citation's year allows, whose citation in
  this reporter we do not hold (an SCC or AIR citation): the case exists (UNVERIFIABLE);
- they are no case decided in those years, in years the registry holds in full, nor a case
  a corpus judgment prints a citation of in those years: evidence of invention (NOT_FOUND,
  saying what was searched). The registry holds the judgments reported in SCR: its INSC
  numbers are complete for 1990-2013 (later years number judgments SCR leaves out too) and
  its SCR volumes run without gaps from 1990 to 2025, 350-1,550 judgments a year; 2025, the
  last year, is partial. SCC and AIR also report judgments SCR does not, so this evidence is
  not proof. Measured on the 4,967 Supreme Court citations of 1991-2024 that the corpus
  judgments print with a name and that we do not hold: 10.7% have names no case of those
  years in the registry or the corpus judgments has; 5.9% when what another corpus judgment
  prints counts as attested, as it does here (1.7% of all 17,916 such citations, held or
  not). `name_absence=False` turns this off.

A citation a corpus judgment prints with the same names is never called invented, whatever
the panel finds: the Supreme Court wrote it (UNVERIFIABLE, "may be misprinted there"). One that
at least CORROBORATING independent corpus judgments print with the same names (the same case's
judgment in two sources counts once) is CORROBORATED, with how many and which: "Maneka Gandhi
v. Union of India, (1978) 1 SCC 248" is printed so by 16. It survives the gate, but
is never VERIFIED: no record of the case itself was checked.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections import Counter, defaultdict
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass, field, replace
from difflib import SequenceMatcher
from functools import lru_cache
from itertools import pairwise
from statistics import median

import pyarrow.parquet as pq

from nyaya.citations.cases import (
    CASE_NAME,
    GAP_TO_REPORTER,
    NEUTRAL,
    PARALLEL_GAP,
    REPORTER,
    SHORT_FORM,
    TAIL,
    CaseCitation,
    case_name_key,
    extract_case_citations,
    key_words,
    parse_case_citation,
    party_key,
)
from nyaya.citations.reporters import supreme_court_reporters
from nyaya.judgments.identity import jaccard, name_tokens
from nyaya.tables import read_table, records
from nyaya.verify import panel
from nyaya.verify.llm import LLM_FAILED, LlmEndpoint
from nyaya.verify.model import (
    AMBIGUOUS,
    CASE_NOT_FOUND,
    CORROBORATED,
    FOUND,
    NAME_MISMATCH,
    OVERRULED,
    UNVERIFIABLE,
    CitationVerdict,
)

SOURCE_CORPUS = "corpus judgment"
SOURCE_REGISTRY = "SC registry"
HELD = "registry: INSC/SCR 1990–2025; corpus headers"
SOURCE_PRINTED = "citations printed in the corpus judgments"

# Party names beside a citation belong to its case when at least half of the shorter name's
# distinctive words (not "state", "union", "india", ...) are in the other. Writers shorten
# names ("Kesavananda Bharati v. State of Kerala" for "His Holiness Kesavananda Bharati
# Sripadagalvaru v. State of Kerala": 1.0), so containment, not Jaccard; a name sharing only
# "State of Kerala" has no distinctive word in common (0.0). Measured on the warehouse:
# corpus judgment names against their own registry titles vs. against random titles.
NAME_MATCH = 0.5
# A name cited alone is read on over at most this many words either side of where the
# extractor stopped, within its line and between its neighbouring citations (`_read_on`).
READ_ON_WORDS = 12
READ_ON_CHARS = 24 * READ_ON_WORDS
READ_ON_WORD = re.compile(r"\S+")
READ_ON_EDGE = " \t,;:.\"'“”‘’([)]"
# What may close a name after the words that make it a held case's: "And. Ors. Etc. Etc."
NAME_CLOSERS = re.compile(r"(?:[\s,.]{0,3}(?:(?:and|&)[\s.]{1,2})?(?:ors|anr|others|another|"
                          r"etc)\b\.?)*", re.IGNORECASE)
WORD_EDGE = READ_ON_EDGE.replace(".", "")  # what ends a word that closes a party
# "(D)", "(Dead)", "(since deceased)", "By Lrs.", "through his legal heirs": written or not,
# shortened or spelt out, the party is the same
REPRESENTATION = re.compile(
    r"\((?:d|dead|deceased|died|since\s+deceased)\)"
    r"|\b(?:by|thr\.?|through)\s+(?:(?:his|her|their|the)\s+)?"
    r"(?:l\.\s?rs?\b\.?|lrs?\b\.?|legal\s+(?:heirs?|representatives?)\b)", re.IGNORECASE)
STANDS_IN = TAIL | {"d", "dead", "deceased", "died", "since", "by", "thr", "through", "his",
                    "her", "their", "l", "rs", "lrs", "legal", "heir", "heirs",
                    "representative", "representatives"}
PARTY_CLOSERS = TAIL - {"or"}  # "And Ors.", "& Anr. Etc.", "and other": a name shown keeps them
CORROBORATING = 2  # independent corpus judgments printing a citation with its names
# A citation we do not hold that this many corpus judgments (of different cases) print with
# another case's names, and none with the names written, is that case's (docs/verification.md
# has what it flags among the citations the judgments print).
MISPRINTED_BY = 3
LOOSE_NAMES = 0.6  # two names this alike letter by letter may be one, misprinted
# "TIRUMALA TRIUPATI" is "Tirumala Tirupati", "KRISHNALAH" is "Krishnaiah": registry titles
# carry typos, so two words of at least FUZZ_LENGTH letters one edit apart (a letter changed,
# added, dropped, or two swapped) are one word. Shorter words must be equal: "Mehta" is not
# "Mehra", nor "Verma" "Varma" (a similarity ratio of 0.8 took each pair for one name).
FUZZ_LENGTH = 7
GENERIC_TOKENS = {"v", "state", "union", "india", "of", "the", "and", "govt", "government",
                  "ors", "anr", "ltd", "pvt", "co", "corpn", "through", "its", "secretary",
                  "commissioner", "collector", "officer", "district", "m", "s", "mr", "smt",
                  "dead", "lrs", "by", "etc", "u", "p", "up"}
# A year's INSC numbers are held when the registry has this share of them (1990-2013: ~100%;
# 2014 on: 50-80%), so a missing number of such a year is evidence of invention.
NEUTRAL_COMPLETE = 0.9
# A decision year is covered by the registry when it holds at least this share of the median
# year's judgments (1990-2025 hold 350-1,550 a year, the median 750; 1977 and 1989 one each),
# and it is not the last year held: SCR is printed months after the decision, so the newest
# year is partial (2025 thins out from June). Its INSC numbers show 1990-2013 complete, its
# SCR volumes' pages run on without gaps in every year: the count only drops stray years.
COVERED_SHARE = 0.25
# Reported in the year of decision or the next (SCR 3,877 of 3,895 citations the corpus
# resolves to a dated case; SCC all 1,363; AIR SC 1,013 of 1,022); two years later at most.
REPORT_LAG = 2
SUPP_LAG = 6  # supplementary volumes print older judgments: "(1995) Supp 3 SCC" of 1991
SC_REPORTERS = supreme_court_reporters()  # nyaya/facts/reporters.yaml
SCR_KEY = re.compile(r"\[(?P<year>[0-9]{4})\](?P<supp> Supp)?(?: (?P<vol>[0-9]+))? SCR "
                     r"(?P<page>[0-9]+)$")
VOLUME_KEY = re.compile(r"\((?P<year>[0-9]{4})\) (?P<vol>[0-9]+) (?P<reporter>SCC|SCALE) "
                        r"(?P<page>[0-9]+)$")


# Some letters of Indian names are written two ways ("Laxmi" and "Lakshmi", "Vishwanath" and
# "Vishvanath"), and two words of a name often as one ("Kasturilal" and "Kasturi Lal",
# "Mohanlal" and "Mohan Lal"): words that meet so are one. Vowels are not among them: a
# spelling of short words may be another person ("Sreedharan", "Sridharan"; the test's).
SPELLINGS = (("ksh", "x"), ("w", "v"))


@lru_cache(maxsize=1 << 16)
def _spelled(word: str) -> str:
    for written, spelled in SPELLINGS:
        word = word.replace(written, spelled)
    return word


# Words many names share ("Singh", "Kumar", "Punjab": in COMMON_SHARE of the cases' names or
# more, and at least COMMON_MIN) cannot alone make two names one: "Bachan Singh v. State of
# Punjab" is not "Machhi Singh v. State of Punjab", though two of its three words are there.
# A rarer word that meets no word of the other even loosely (a similarity ratio under LOOSE)
# tells them apart; one that does is a misprint ("Bachiter", "Bachhittar").
COMMON_SHARE = 0.005
COMMON_MIN = 20
LOOSE = 0.75


def common_name_words(names: Iterable[str]) -> frozenset[str]:
    """The words that COMMON_SHARE of `names` (one per case) hold."""
    counts: Counter[str] = Counter()
    total = 0
    for name in names:
        total += 1
        counts.update(name_tokens(name))
    cut = max(COMMON_MIN, COMMON_SHARE * total)
    return frozenset(word for word, count in counts.items() if count >= cut)


def name_similarity(written: str, recorded: str, common: Container[str] = frozenset()) -> float:
    """Share of the shorter name's distinctive words found (fuzzily) in the other; 0 when
    only `common` words meet and a rarer one meets nothing, even loosely."""
    a, b = name_tokens(written), name_tokens(recorded)
    da = {t for t in a if t not in GENERIC_TOKENS and len(t) > 1}
    db = {t for t in b if t not in GENERIC_TOKENS and len(t) > 1}
    if not da or not db:
        return jaccard(a, b)
    (short, short_name), (long_, long_name) = sorted(
        ((da, written), (db, recorded)), key=lambda side: len(side[0]))
    long_words, short_words = case_name_key(long_name).split(), case_name_key(short_name).split()
    spelled = {_spelled(u) for u in long_} | {_spelled(x + y) for x, y in pairwise(long_words)}
    joined = {word for x, y in pairwise(short_words)
              if _spelled(x + y) in spelled for word in (x, y)}
    met = {t for t in short if t in long_ or t in joined or _spelled(t) in spelled or (
        len(t) >= FUZZ_LENGTH and any(len(u) >= FUZZ_LENGTH and one_edit(t, u)
                                      for u in long_))}
    if met != short:
        met |= short & (spelled_out(short_words, long_words)
                        | spelled_out(long_words, short_words))
    if common and met and all(t in common or any(  # a typo of a common word is one too
            u in common and one_edit(t, u) for u in long_) for t in met) and any(
            t not in common and not any(SequenceMatcher(None, t, u).ratio() >= LOOSE
                                        for u in long_) for t in short - met):
        return 0.0
    share = len(met) / len(short)
    if share <= HALF_MET and not parties_agree(written, recorded):
        return 0.0
    return share


# Half the words met is the least that makes two names one, and a misprint often leaves no
# more ("Arunachalam v. P.S.R. Sadhanathan" for "... Sadhanantham"). So little must hold
# party by party: "Mithilesh Garg v. Union of India" is not "MITHILESH KUMAR versus MANOHAR
# LAL", whose one shared word is the petitioner's first name.
HALF_MET = 0.5
# Words of a party that name no one: what a generic party ("Union of India", "State of
# Kerala") is compared by, against the other's.
PARTY_FILLER = frozenset({"the", "and", "ors", "anr", "etc", "others", "another", "other",
                          "through", "thr", "thru", "its", "dead", "deceased", "lrs", "legal",
                          "heirs", "representatives", "for", "alias", "smt", "shri", "sri",
                          "mrs", "miss", "late", "ltd", "pvt", "co"})
CROWN = frozenset({"r", "rex", "reg", "regina", "queen", "king", "emperor", "crown", "the"})


def parties_agree(written: str, recorded: str) -> bool:
    """Whether each party of a two-party name has a counterpart in the other's, in either
    order (parties swap sides between courts); True when either names one party."""
    a, b = _sides(written), _sides(recorded)
    if len(a) != 2 or len(b) != 2:
        return True
    return ((_party_agrees(a[0], b[0]) and _party_agrees(a[1], b[1]))
            or (_party_agrees(a[0], b[1]) and _party_agrees(a[1], b[0])))


def _party_agrees(x: str, y: str) -> bool:
    """Two parties that may be one: a distinctive word of one meets a word of the other (as
    it is, misprinted, two words joined, or as initials), or, where one says only what a
    party is, they share what that is (a party of nothing but filler agrees with any)."""
    raw_x, raw_y = _side_words(x), _side_words(y)
    if CROWN.issuperset(raw_x) and CROWN.issuperset(raw_y):
        return True
    keys_x, keys_y = _keys(raw_x), _keys(raw_y)
    if keys_x and keys_y:
        return (_meets_any(keys_x, _party_forms(raw_y, keys_y))
                or _meets_any(keys_y, _party_forms(raw_x, keys_x)))
    what_x, what_y = _what(raw_x), _what(raw_y)
    return (not what_x or not what_y or _meets_any(what_x, what_y | _lead_letters(raw_y))
            or _meets_any(what_y, _lead_letters(raw_x)))


def _what(raw: list[str]) -> set[str]:
    """What a party's words say it is ("government", "state", "cbi"), its filler aside."""
    return {WORD_FORMS.get(w, w) for w in raw if len(w) > 2} - PARTY_FILLER


def _party_forms(raw: list[str], keys: tuple[str, ...]) -> set[str]:
    return ({*keys, *_lead_letters(raw), *_letter_runs(raw)}
            | {_joined(a, b) for a, b in pairwise(keys)})


def _lead_letters(raw: list[str]) -> set[str]:
    """A party's initials and their beginnings, three letters or more, whether or not it is
    a body: "Director of Public Prosecutions" is the "DPP", "Commissioner of Income-tax,
    Madras" the "CIT"."""
    letters = "".join(w[0] for w in raw if w not in ACRONYM_SKIP and not w.isdigit())
    return {letters[:n] for n in range(3, len(letters) + 1)}


def _meets_any(words: Iterable[str], forms: set[str]) -> bool:
    """Whether a word is one of `forms` or as alike as a misprint ("Narayandappa" and
    "Nanjundappa", "Slate" and "State")."""
    return any(w in forms or any(one_edit(w, f) or SequenceMatcher(None, w, f).ratio()
                                 >= LOOSE_NAMES for f in forms) for w in words)


# An abbreviation of one name spelled out in the other: "P.W.D." (a run of single letters, two
# or more) or "PWD" (one word of three to six letters) for "Public Works Department", the
# words of the window in order, one initial each.
INITIALISM_WORD = range(3, 7)


def spelled_out(words: Sequence[str], other: Sequence[str]) -> set[str]:
    """The words of `words` (a name key's) that abbreviate `other`'s words or that `other`
    abbreviates: a word that is the initials of a window of `other`, and the words of a window
    whose initials are an initialism of `other`."""
    runs, initials, windows = _abbreviations(tuple(other))
    found = {word for word in words if len(word) in INITIALISM_WORD and word in windows}
    for size in range(2, max(INITIALISM_WORD) + 1):
        for i in range(len(words) - size + 1):
            window = words[i:i + size]
            if all(len(word) > 1 for word in window) and (
                    "".join(word[0] for word in window) in (initials if size >= 3 else runs)):
                found.update(window)
    return found


@lru_cache(maxsize=1 << 16)
def _abbreviations(words: tuple[str, ...]) -> tuple[frozenset[str], frozenset[str],
                                                      frozenset[str]]:
    """A name key's words read as abbreviations (cached: a registry name is compared often):
    its runs of single letters, those and its words that may be initialisms, and the initials
    of its windows of INITIALISM_WORD words."""
    runs, run = set(), []
    for word in (*words, ""):
        if len(word) == 1:
            run.append(word)
            continue
        if len(run) >= 2:  # the parties' "v" may close or open a run: "d d a v ram lal"
            letters = "".join(run)
            runs.update(form for form in {letters, letters.removesuffix("v"),
                                          letters.removeprefix("v")} if len(form) >= 2)
        run = []
    initials = {word for word in words if len(word) in INITIALISM_WORD} | runs
    windows = {"".join(word[0] for word in words[i:i + size])
               for size in INITIALISM_WORD for i in range(len(words) - size + 1)
               if all(len(word) > 1 for word in words[i:i + size])}
    return frozenset(runs), frozenset(initials), frozenset(windows)


def one_edit(a: str, b: str) -> bool:
    """Whether `a` and `b` are at most one edit apart: a letter changed, added or dropped, or
    two neighbours swapped (Damerau-Levenshtein distance <= 1)."""
    if a == b:
        return True
    if abs(len(a) - len(b)) > 1:
        return False
    if len(a) > len(b):
        a, b = b, a
    i = 0
    while i < len(a) and a[i] == b[i]:
        i += 1
    if len(a) < len(b):
        return a[i:] == b[i + 1:]
    return a[i + 1:] == b[i + 1:] or (
        i + 1 < len(a) and a[i] == b[i + 1] and a[i + 1] == b[i] and a[i + 2:] == b[i + 2:])


# --- party names: which cases have the names written ---------------------------------------

# Words that say what a party is, not who: any case may have them. A party that is only such
# words ("State of Kerala", "Union of India", "CBI") says nothing about which case is meant.
PARTY_GENERIC = frozenset({
    "v", "vs", "versus", "state", "union", "india", "of", "the", "and", "govt", "government",
    "ors", "anr", "ltd", "limited", "pvt", "private", "co", "company", "corpn", "corporation",
    "through", "thr", "thru", "its", "secretary", "commissioner", "collector", "officer",
    "district", "mr", "mrs", "ms", "miss", "smt", "shri", "sri", "shrimati", "sh", "km", "kum",
    "kumari", "mst", "dr", "prof", "late", "dead", "deceased", "lrs", "lr", "legal", "heirs",
    "representatives", "by", "etc", "others", "another", "other", "rep", "represented", "mis",
    "in", "for", "on", "at", "to", "an", "or", "alias", "public", "prosecutor", "inspector",
    "police", "station", "sub", "chief", "principal", "director", "assistant", "additional",
    "deputy", "general", "manager", "chairman", "president", "authority", "board", "nct",
    "administration", "ut", "territory", "now", "new", "no", "messrs", "thiru", "tmt", "sree",
    "shree", "smti", "ch", "appellant", "respondent", "petitioner", "ex", "son", "daughter",
    "wife", "minor", "guardian", "natural", "father", "mother", "cbi", "bureau",
    "investigation", "central", "income", "tax", "excise", "customs", "sales", "wealth",
    "revenue", "department", "ministry", "municipal", "council", "committee"})
# States and their abbreviations: "State of M.P." and "STATE OF MADHYA PRADESH" are one party.
STATE_WORDS = frozenset({
    "uttar", "pradesh", "madhya", "himachal", "andhra", "arunachal", "tamil", "nadu",
    "tamilnadu", "west", "bengal", "kerala", "punjab", "haryana", "bihar", "gujarat",
    "maharashtra", "karnataka", "mysore", "rajasthan", "orissa", "odisha", "assam", "jammu",
    "kashmir", "goa", "manipur", "meghalaya", "mizoram", "nagaland", "sikkim", "tripura",
    "uttarakhand", "uttaranchal", "jharkhand", "chhattisgarh", "telangana", "bombay", "madras",
    "calcutta", "pondicherry", "puducherry", "chandigarh", "delhi", "up", "mp", "hp", "ap",
    "tn", "wb", "jk"})
# "Maharasthra" and "Rajathan" are state names too: words one edit from a long state name,
# found through the forms with one letter dropped that they share with it
STATE_DROPPED: dict[str, list[str]] = defaultdict(list)
for _state in STATE_WORDS:
    if len(_state) >= 6:
        for _i in range(len(_state) + 1):
            STATE_DROPPED[_state[:_i] + _state[_i + 1:]].append(_state)
# Abbreviations as registry titles and judgments write them in full, or the reverse.
WORD_FORMS = {
    "assn": "association", "asson": "association", "distt": "district", "dist": "district",
    "admn": "administration", "admin": "administration", "secy": "secretary",
    "corp": "corporation", "dept": "department", "deptt": "department", "mfg": "manufacturing",
    "engg": "engineering", "instt": "institute", "inst": "institute", "univ": "university",
    "commr": "commissioner", "addl": "additional", "asstt": "assistant", "asst": "assistant",
    "dy": "deputy", "supdt": "superintendent", "natl": "national", "intl": "international",
    "bros": "brothers", "spl": "special", "coop": "cooperative", "inds": "industries",
    "mohd": "mohammad", "md": "mohammad", "mohammed": "mohammad", "muhammad": "mohammad",
    "mohamed": "mohammad", "kr": "kumar", "pd": "prasad", "govt": "government"}
NAME_WORD = re.compile(r"[a-z0-9]+")
# Longest separator first, and a lower-case one before a capital one, so that the initial in
# "K. V. Rao vs. State" or "K. V. Rao v. State" is not taken for "v.".
_SEPARATORS = (r"\sversus\s", r"\svs\.?\s", r"\sv/s\.?\s", r"\sv\.?\s")
PARTY_SPLITS = [*(re.compile(p) for p in _SEPARATORS),
                *(re.compile(p, re.IGNORECASE) for p in _SEPARATORS)]
TRANSLITERATION = [("ee", "i"), ("oo", "u"), ("w", "v"), ("ph", "f")]
ASPIRATE = re.compile(r"([bcdgkpst])h")
DOUBLED = re.compile(r"(.)\1")


@lru_cache(maxsize=131072)
def word_key(word: str) -> str:
    """A word as its spellings share it: "Chaudhary"/"Choudhary" differ, but "Sreedharan" and
    "Sridharan", "Bhatt" and "Bhat", "Mishra" and "Misra" are one key."""
    for a, b in TRANSLITERATION:
        word = word.replace(a, b)
    return DOUBLED.sub(r"\1", ASPIRATE.sub(r"\1", word))


def _sides(name: str) -> list[str]:
    padded = " " + " ".join(name.split()) + " "
    for split in PARTY_SPLITS:
        parts = split.split(padded, maxsplit=1)
        if len(parts) == 2:
            return parts
    return [padded]


def _side_words(side: str) -> list[str]:
    return NAME_WORD.findall(side.lower().replace("m/s", " "))


@lru_cache(maxsize=131072)
def _distinctive(word: str) -> str | None:
    """A written word as `party_words` keeps it (its `word_key`), or None when it says what a
    party is rather than who."""
    word = WORD_FORMS.get(word, word)
    if (len(word) < 3 or word in PARTY_GENERIC or word in STATE_WORDS or word.isdigit()
            or (len(word) >= 6 and _state_like(word))):
        return None
    return word_key(word)


def written_words(name: str) -> list[str]:
    """The distinctive words of a name as written (lower-cased), for a person to read."""
    out: list[str] = []
    for side in _sides(name):
        raw = _side_words(side)
        out += [w for w in raw if _distinctive(w) is not None] or [
            "".join(run) for run in _letter_runs(raw, keyed=False)]
    return list(dict.fromkeys(out))


def _keys(words: list[str]) -> tuple[str, ...]:
    return tuple(dict.fromkeys(k for k in map(_distinctive, words) if k is not None))


@lru_cache(maxsize=65536)
def party_words(name: str) -> tuple[tuple[str, ...], ...]:
    """The distinctive words of each party of a case name, as `word_key`s: honorifics,
    "M/s", "& Ors.", "(Dead) through LRs", official titles, State and Union names, initials
    and numbers dropped ("Shri Gopal & Anr. v. State of M.P." -> (("gopal",), ())). A party
    that is only initials is its initials ("M/S V.V.F. Limited" -> "vvf")."""
    out = []
    for side in _sides(name):
        raw = _side_words(side)
        out.append(_keys(raw) or tuple(_letter_runs(raw)))
    return tuple(out)


ACRONYM_SKIP = frozenset({"of", "and", "the", "for", "in", "at", "ors", "anr", "etc", "others",
                          "another", "through", "thr", "by", "m", "s"})
ACRONYM_TAIL = frozenset({"ltd", "limited", "pvt", "private", "india"})
# Only a body's name is shortened to its initials ("ONGC", "CCE"), never a person's.
ORGANISATION = frozenset({
    "corporation", "corpn", "company", "co", "ltd", "limited", "bank", "board", "authority",
    "commission", "council", "committee", "association", "society", "trust", "university",
    "industries", "mills", "department", "ministry", "excise", "customs", "bureau",
    "collector", "commissioner", "government", "municipal", "development", "insurance",
    "railway", "railways", "electricity", "transport", "service", "services", "institute",
    "organisation", "organization", "federation", "sangh", "nigam", "parishad", "samiti"})


def _joined(a: str, b: str) -> str:
    """Two word keys as one word's key: keys have no doubled letter, except where they meet."""
    return a + b[1:] if a[-1] == b[0] else a + b


def index_forms(name: str) -> tuple[tuple[str, ...], set[str]]:
    """(`party_words`, the forms under which a recorded name is found): its distinctive
    words, each two neighbours joined ("KAMLESH KUMAR" for a written "Kamleshkumar"), and the
    initials of a body's name ("OIL & NATURAL GAS CORPORATION LTD." for "ONGC", "COLLECTOR
    OF CENTRAL EXCISE" for "CCE", "LIFE INSURANCE CORPORATION OF INDIA" for "LIC")."""
    forms: set[str] = set()
    parties = []
    for side in _sides(name):
        raw = _side_words(side)
        words = _keys(raw)
        parties.append(words)
        forms.update(words)
        forms.update(_joined(a, b) for a, b in pairwise(words))
        forms.update(_initials(raw))
        forms.update(_letter_runs(raw))
    return tuple(parties), forms


def _letter_runs(raw: list[str], keyed: bool = True) -> list[str]:
    """Initials written as letters ("R.B.I.", "O.N.G.C."), three or more, as one word (a
    `word_key` when `keyed`, as a written "VVF" is)."""
    runs, run = [], ""
    for word in [*raw, ""]:
        if len(word) == 1 and word.isalpha():
            run += word
            continue
        if len(run) >= 3:
            runs.append(run)
        run = ""
    return [word_key(r) for r in runs] if keyed else runs


def _initials(raw: list[str]) -> list[str]:
    """The initials a body's name is shortened to, with and without a closing "Ltd." or
    "India" ("Life Insurance Corporation of India": "lici", "lic"); none for a person."""
    if ORGANISATION.isdisjoint(raw):
        return []
    raw = [w for w in raw if w not in ACRONYM_SKIP and not w.isdigit()]
    out = []
    while len(raw) >= 3:
        out.append(word_key("".join(w[0] for w in raw)))
        if raw[-1] not in ACRONYM_TAIL:
            break
        raw.pop()
    return out


@lru_cache(maxsize=131072)
def _state_like(word: str) -> bool:
    """Whether a word is one edit from a state's name of six letters or more."""
    near = STATE_DROPPED.get(word, [])
    for i in range(len(word)):
        near = near + STATE_DROPPED.get(word[:i] + word[i + 1:], [])
    return any(one_edit(word, state) for state in near)


def misses_allowed(words: int, loose: bool) -> int:
    """Written words a case may lack and still be the case meant. Two-word names ("Meena
    Ansari v. State of Kerala") must match in full: allowing one miss would take any Meena
    for her. Longer names are written longer or shorter than recorded ("Gaya Din (Dead)
    through LRs. & Others v. Hanuman Prasad"), and `loose` (used to decide that no case has
    the names) allows half of them. Either way, when both parties have words, one party must
    match in full and the other in part: "Dinesh Chatterjee v. Savitri Pandey" is not
    "DINESH CHANDRA PANDEY versus HIGH COURT OF M.P."."""
    if words <= 2:
        return 0
    if not loose:
        return 1 if words <= 5 else 2
    return 1 if words == 3 else words // 2


class NameIndex:
    """Entries (cases, or citations printed in judgments) by the distinctive words of their
    party names, searched by the names written with a citation."""

    def __init__(self) -> None:
        self.ids: list[str] = []
        self.years: list[int | None] = []
        self.postings: dict[str, set[int]] = defaultdict(set)
        self.words: set[str] = set()  # the names' own words, which typos may reach
        self._deletions: dict[str, list[str]] | None = None

    def __len__(self) -> int:
        return len(self.ids)

    def add(self, ident: str, year: int | None, names: Iterable[str]) -> None:
        index = len(self.ids)
        self.ids.append(ident)
        self.years.append(year)
        for name in names:
            parties, forms = index_forms(name)
            for form in forms:
                self.postings[form].add(index)
            for words in parties:
                self.words.update(words)
        self._deletions = None

    def prepare(self) -> None:
        """Build the search structures now (once every entry is added), not on first use."""
        self._deleted()

    def _deleted(self) -> dict[str, list[str]]:
        """Long words by each form with one letter dropped: the words one edit from a word."""
        if self._deletions is None:
            deletions: dict[str, list[str]] = defaultdict(list)
            for word in self.words:
                if len(word) >= FUZZ_LENGTH:
                    for i in range(len(word)):
                        deletions[word[:i] + word[i + 1:]].append(word)
            self._deletions = deletions
        return self._deletions

    def holders(self, word: str) -> set[int]:
        """Entries with `word`, or with a word one edit from it (both long enough)."""
        exact = self.postings.get(word)
        if len(word) < FUZZ_LENGTH - 1:
            return exact or set()
        deleted = self._deleted()
        near = set(deleted.get(word, ()))  # one letter added to the word written
        for i in range(len(word)):
            shorter = word[:i] + word[i + 1:]
            if shorter in self.words and len(word) >= FUZZ_LENGTH:
                near.add(shorter)  # one letter dropped
            near.update(deleted.get(shorter, ()))  # changed, or swapped
        near = {w for w in near if w != word and max(len(w), len(word)) >= FUZZ_LENGTH
                and one_edit(w, word)}
        if not near:
            return exact or set()
        return set().union(exact or set(), *(self.postings[w] for w in near))

    def search(self, written: str, years: Container[int] | None = None,
               loose: bool = False) -> list[tuple[int, str]]:
        """(words missed, id) of the entries whose names hold the written names (all but
        `misses_allowed` of their distinctive words), of `years` when given; fewest misses
        first. Empty when the written names have no distinctive word."""
        sides = [side for side in party_words(written) if side]
        words = list(dict.fromkeys(w for side in sides for w in side))
        if not words:
            return []
        held = {w: self.holders(w) for w in words}
        for side in sides:  # "Chhotey Lal" is "CHHOTEYLAL"
            for a, b in pairwise(side):
                joined = self.postings.get(_joined(a, b))
                if joined:
                    held[a] = held[a] | joined
                    held[b] = held[b] | joined
        for raw, side in zip(map(_side_words, _sides(written)), party_words(written),
                             strict=True):
            for initials in _initials(raw):  # "Reserve Bank of India" is "R.B.I."
                shortened = self.postings.get(initials)
                if shortened and side:
                    for w in side:
                        held[w] = held[w] | shortened
        allowed = misses_allowed(len(words), loose)
        rarest = sorted(words, key=lambda w: len(held[w]))[:allowed + 1]
        found = []
        for i in set().union(*(held[w] for w in rarest)):
            if years is not None and self.years[i] not in years:
                continue
            missed = [w for w in words if i not in held[w]]
            if len(missed) > allowed or (missed and len(sides) == 2 and (
                    any(all(w in missed for w in side) for side in sides)
                    or all(any(w in missed for w in side) for side in sides))):
                continue  # a party wholly missed, or both in part: another case
            found.append((len(missed), self.ids[i]))
        return sorted(found)


# The longest judgment of an SCR volume runs ~100 pages (the median, over 1990-2025, of each
# volume's largest gap between first pages): a page further on is no pinpoint.
PINPOINT_PAGES = 100


def _same_page(cite: CaseCitation, own: str) -> bool:
    """Whether an SCR citation is `own` written without its volume or "Supp" ("[1964] SCR
    261" for "[1964] 6 SCR 261"): the same page of the same year."""
    found = SCR_KEY.match(own)
    return bool(found and cite.page and int(found["year"]) == cite.year
                and found["page"] == cite.page and (cite.volume is None or found["vol"] is None
                                                    or bool(found["supp"]) != cite.supplementary))


def _pinpoint(cite: CaseCitation, own: str) -> bool:
    """Whether an SCR citation's page may lie inside the judgment whose first page is `own`."""
    found = SCR_KEY.match(own)
    return bool(found and cite.page and found["vol"] == cite.volume
                and int(found["year"]) == cite.year and bool(found["supp"]) == cite.supplementary
                and int(found["page"]) < int(cite.page) <= int(found["page"]) + PINPOINT_PAGES)


def _strong(written: str, case: Case) -> bool:
    """Whether the written names have two or more distinctive words (`name_similarity`'s,
    where a State's name counts) and the case has every one of them."""
    words = {t for t in name_tokens(written) if t not in GENERIC_TOKENS and len(t) > 1}
    held = {t for name in case.names for t in name_tokens(name)}
    return len(words) >= 2 and words <= held


def _record_keys(rec: dict) -> list[str]:
    """A registry record's citation keys, with its SCR citation's when the table lacks it:
    tables built before the extractor read "[1996] SUPP. 4 S.C.R. 393" (capitals) hold no key
    for 6,481 of the 27,533 records' SCR citations."""
    keys = _listed(rec.get("citation_keys"))
    scr = rec.get("scr_citation")
    if scr and not any(" SCR " in key for key in keys):
        parsed = parse_case_citation(scr)
        if parsed is not None and parsed.key and parsed.reporter == "SCR":
            keys.append(parsed.key)
    return keys


def _listed(value: Iterable[str] | None) -> list[str]:
    """A list column as a list: Parquet gives numpy arrays, whose truth value is an error."""
    return [] if value is None else list(value)


@dataclass
class Case:
    """One case as we hold it: a corpus case (its judgments) and/or a registry record."""

    case_id: str
    names: list[str]
    decision_date: str | None
    keys: set[str]
    record_ids: set[str]
    doc_ids: set[str]
    #: the keys its judgments' headers print: where an LII number ("[1994] INSC 172") is the
    #: case's own, while the registry's INSC keys are the Court's numbering
    printed_keys: set[str] = field(default_factory=set)

    @property
    def name(self) -> str:
        return self.names[0] if self.names else "(unnamed case)"

    @property
    def year(self) -> int | None:
        return int(self.decision_date[:4]) if self.decision_date else None

    def matched(self) -> dict:
        return {"id": self.case_id, "case_name": self.name, "decision_date": self.decision_date,
                "citations": sorted(self.keys), "record_ids": sorted(self.record_ids),
                "doc_ids": sorted(self.doc_ids)}

    def label(self) -> str:
        cites = ", ".join(sorted(self.keys)[:2])
        return f"{self.name} ({self.decision_date or 'undated'}; {cites or self.case_id})"


@dataclass
class CaseCheck:
    verdict: CitationVerdict
    validation: panel.PanelResult | None  # the panel's evaluation, for citations not found


class CaseVerifier:
    """Verdicts for case citations from the judgments, the SC registry and the citation graph."""

    def __init__(self, judgments: Iterable[dict], registry: Iterable[dict],
                 nodes: Iterable[dict] = (), edges: Iterable[dict] = (),
                 now_year: int | None = None, llm: LlmEndpoint | None = None,
                 mentions: Iterable[dict] = (), name_absence: bool = True,
                 covered: Iterable[int] | None = None) -> None:
        """`mentions`: citation_mentions rows (doc_id, citation_key, case_name, reporter):
        the citations the corpus judgments print. `name_absence`: whether names no case of
        the covered years has are evidence of invention. `covered`: the decision years the
        registry holds in full (by default read from its yearly counts, `covered_years`)."""
        self.now_year = now_year
        self.llm = llm  # the panel's LLM validators instead of its rules, when given
        self.name_absence = name_absence
        self.cases: dict[str, Case] = {}
        self.doc_case: dict[str, str] = {}  # corpus judgment -> its case (two sources, one)
        record_case: dict[str, str] = {}
        for row in judgments:
            case = self._case(row.get("case_id") or f"CASE:{row['doc_id']}")
            if row.get("case_name"):
                case.names.append(row["case_name"])
            case.decision_date = case.decision_date or row.get("decision_date")
            printed = _listed(row.get("citation_keys"))
            case.keys.update(printed)
            case.printed_keys.update(printed)
            case.doc_ids.add(row["doc_id"])
            self.doc_case[row["doc_id"]] = case.case_id
        neutral_pairs: list[tuple[int, int]] = []
        decided: dict[int, int] = defaultdict(int)  # registry judgments per decision year
        for rec in registry:
            if rec.get("decision_date"):
                decided[int(rec["decision_date"][:4])] += 1
            cid = rec.get("case_id") or rec["record_id"]
            record_case[rec["record_id"]] = cid
            case = self._case(cid)
            if rec.get("title"):
                case.names.append(rec["title"])
            case.decision_date = case.decision_date or rec.get("decision_date")
            case.keys.update(_record_keys(rec))
            case.record_ids.add(rec["record_id"])
        self.common = common_name_words(c.names[0] for c in self.cases.values() if c.names)
        # each side of the names held, and their word-ends and word-starts (`_read_on`)
        self.petitioner_keys: set[str] = set()
        self.respondent_keys: set[str] = set()
        self.petitioner_ends: set[str] = set()
        self.respondent_starts: set[str] = set()
        self.by_key: dict[str, set[str]] = defaultdict(set)
        self.by_name: dict[str, set[str]] = defaultdict(set)
        for case in self.cases.values():
            for name in case.names:
                key = name_key(name)
                self.by_name[key].add(case.case_id)
                petitioner, _, respondent = key.partition(" v ")
                self.petitioner_keys.add(petitioner)
                self.respondent_keys.add(respondent)
                words = petitioner.split()
                self.petitioner_ends.update(" ".join(words[i:]) for i in range(len(words)))
                words = respondent.split()
                self.respondent_starts.update(" ".join(words[:i + 1])
                                              for i in range(len(words)))
            for key in case.keys:
                self.by_key[key].add(case.case_id)
                year, _, number = key.partition(" INSC ")
                if number.isdigit() and year.isdigit():
                    neutral_pairs.append((int(year), int(number)))
        registry_years: dict[int, set[int]] = defaultdict(set)
        for case in self.cases.values():
            if case.record_ids:
                for key in case.keys:
                    year, _, number = key.partition(" INSC ")
                    if number.isdigit() and year.isdigit():
                        registry_years[int(year)].add(int(number))
        ranges = panel.neutral_ranges(neutral_pairs)
        self.neutral = {
            year: panel.NeutralRange(r.max_number, len(registry_years.get(year, ()))
                                     >= NEUTRAL_COMPLETE * r.max_number)
            for year, r in ranges.items()}
        self.neutral_held = {y: len(n) for y, n in registry_years.items()}
        self.node_name = {n["node_id"]: n.get("case_name") for n in nodes}
        self.overruled_by: dict[str, set[str]] = defaultdict(set)
        for edge in edges:
            if edge.get("relation") == "overrules":
                target = record_case.get(edge["target_id"], edge["target_id"])
                self.overruled_by[target].add(edge["source_id"])
        for node in nodes:
            if node.get("overruled"):
                self.overruled_by.setdefault(record_case.get(node["node_id"], node["node_id"]),
                                             set())
        self.covered = set(covered) if covered is not None else covered_years(decided)
        self.decided = dict(decided)
        self._index_names(mentions)

    def _index_names(self, mentions: Iterable[dict]) -> None:
        """The name indexes, SCR volumes page by page, and reporter volumes per year."""
        self.names = NameIndex()
        self.scr_pages: dict[tuple[int, bool, str | None], list[tuple[int, str]]] = \
            defaultdict(list)
        volume_keys: list[tuple[str, int, int, str]] = []
        for case in self.cases.values():
            self.names.add(case.case_id, case.year, case.names)
            for key in case.keys:
                volume_keys += _volume_key(key)
                scr = SCR_KEY.match(key)
                if scr and case.record_ids:  # the registry's SCR volumes have no gaps
                    self.scr_pages[(int(scr["year"]), bool(scr["supp"]), scr["vol"])].append(
                        (int(scr["page"]), case.case_id))
        for pages in self.scr_pages.values():
            pages.sort()
        self.names.prepare()
        # citations printed in corpus judgments with a name, of any court (the Supreme Court
        # relied on a High Court's or the Privy Council's too); its SC ones searched by name
        self.printed = NameIndex()
        self.printed_rows: list[tuple[str, str, str]] = []  # (doc_id, key, name as printed)
        self.printed_keys: dict[str, list[int]] = defaultdict(list)
        first_covered = min(self.covered, default=9999) - 1
        for row in mentions:
            key = row.get("citation_key")
            if not key:
                continue
            volume_keys += _volume_key(key)
            name = row.get("case_name")
            if not name:
                continue
            year = _key_year(key)
            name = " ".join(name.split())
            # names are searched only where absence is evidence
            if year is not None and first_covered <= year and _supreme(row.get("reporter"), key):
                self.printed.add(str(len(self.printed_rows)), year, [name])
            self.printed_keys[key].append(len(self.printed_rows))
            self.printed_rows.append((row.get("doc_id") or "?", key, name))
        self.printed.prepare()
        self.volumes = panel.volume_ranges(volume_keys)

    def _case(self, case_id: str) -> Case:
        if case_id not in self.cases:
            self.cases[case_id] = Case(case_id, [], None, set(), set(), set())
        return self.cases[case_id]

    @classmethod
    def from_tables(cls, settings, llm: LlmEndpoint | None = None) -> CaseVerifier:
        """Built from the warehouse Parquet tables (of the judgments, JUDGMENT_COLUMNS: their
        texts would take a second to decode)."""
        def rows(name: str, columns: Sequence[str] | None = None) -> list[dict]:
            return records(read_table(settings.table_path(name), columns))
        return cls(rows("judgments", JUDGMENT_COLUMNS), rows("sc_case_registry"),
                   rows("citation_graph_nodes"), rows("citation_graph_edges"), llm=llm,
                   mentions=printed_citations(settings.table_path("citation_mentions")))

    # --- checking ------------------------------------------------------------------------

    def verify(self, text: str) -> list[CitationVerdict]:
        """One verdict per case citation in `text`; masked citations are skipped."""
        return [check.verdict for check in self.check_text(text)]

    def check_text(self, text: str) -> list[CaseCheck]:
        """A short form ("ibid", "X (supra)") gets the check of the citation it refers to;
        parallel citations written after one name are checked against each other."""
        cites = [c for c in extract_case_citations(text) if c.kind != "masked"]
        by_span = {(c.start, c.end): self.check(c) for c in cites if c.antecedent is None}
        for index, cite in enumerate(cites):
            if cite.kind != CASE_NAME or cite.antecedent is not None:
                continue
            status = by_span[(cite.start, cite.end)].verdict.status
            if status in (FOUND, OVERRULED):  # "X v. Y And. Ors. Etc., 1991 INSC 309"
                self._name_what_follows(text, cite, cites[index + 1:], by_span)
            elif status in (UNVERIFIABLE, AMBIGUOUS):
                floor = cites[index - 1].end if index else 0
                ceiling = cites[index + 1].start if index + 1 < len(cites) else len(text)
                read_on = self._read_on(text, cite, floor, ceiling)
                if read_on is not None:
                    by_span[(cite.start, cite.end)] = CaseCheck(self._found(*read_on), None)
                    self._name_what_follows(text, read_on[0], cites[index + 1:], by_span)
        self._check_parallel(cites, by_span)
        return [by_span[(c.start, c.end)] if c.antecedent is None
                else _short_form_check(c, by_span[c.antecedent]) for c in cites]

    def _name_what_follows(self, text: str, name: CaseCitation, after: list[CaseCitation],
                           by_span: dict[tuple[int, int], CaseCheck]) -> None:
        """The unnamed citations right after a name cited alone that is a held case's, or read
        on to a held case's whole name ("Everest Industries Ltd. v. Board of Trustees for the
        Port of Calcutta, 2006 INSC 677, [1997] 1 SCR 957", cut by the extractor at "for
        the"), checked with that name as one full citation: the name ends where the held one
        does, so what follows it across a separator is its citation, once the words a name
        may close with ("And. Ors. Etc. Etc.") are passed."""
        reach = GAP_TO_REPORTER.match(text, NAME_CLOSERS.match(text, name.end).end()).end()
        for cite in after:
            if cite.start > reach or cite.case_name or cite.kind not in (REPORTER, NEUTRAL):
                return
            named = replace(cite, case_name=name.case_name, petitioner=name.petitioner,
                            respondent=name.respondent, full_start=name.start)
            by_span[(cite.start, cite.end)] = self.check(named)
            reach = PARALLEL_GAP.match(text, cite.end).end()

    def _check_parallel(self, cites: list[CaseCitation],
                        by_span: dict[tuple[int, int], CaseCheck]) -> None:
        """NAME_MISMATCH for parallel citations of one name ("X v. Y, 1995 INSC 12, (1995) 2
        SCC 45") that we hold for two different cases: one of them is another case's, and
        which we cannot tell. The same case held twice (a corpus judgment and its registry
        record not linked) has one decision date and one name, so that is no mismatch."""
        groups: dict[int, list[tuple[CaseCitation, Case]]] = defaultdict(list)
        for cite in cites:
            verdict = by_span[(cite.start, cite.end)].verdict if cite.antecedent is None \
                else None
            if (verdict is not None and cite.full_start is not None and verdict.matched
                    and verdict.status in (FOUND, OVERRULED)):
                groups[cite.full_start].append((cite, self.cases[verdict.matched["id"]]))
        for group in groups.values():
            first, case = group[0]
            for cite, other in group[1:]:
                if not _same_case(case, other):
                    for a, x, b, y in ((first, case, cite, other), (cite, other, first, case)):
                        by_span[(a.start, a.end)] = CaseCheck(self._verdict(
                            a, NAME_MISMATCH, f"{a.key} and {b.key} are written as parallel "
                            f"citations of one case, '{a.case_name}', but {a.key} is the "
                            f"citation of {x.label()} and {b.key} of {y.label()}: one of them "
                            "is another case's citation; find the right one", x), None)

    def check(self, cite: CaseCitation) -> CaseCheck:
        if cite.kind == SHORT_FORM:
            return CaseCheck(self._verdict(
                cite, UNVERIFIABLE, f"'{cite.text}' is a short form, and no case is cited "
                "before it in this text for it to refer to: cite the case in full"), None)
        if cite.kind == "case_name":
            return CaseCheck(self._check_name(cite), None)
        ids = self.by_key.get(cite.key, set()) if cite.key else set()
        cases = [self.cases[i] for i in sorted(ids)]
        written = cite.case_name
        # "1995 INSC 387" is the Court's numbering, which the registry holds; "[1995] INSC 387"
        # LII of India's, which IRLeD headers print: the same number, two cases
        lii = cite.lii_numbered
        if cite.reporter == "INSC" and len(cases) > 1:
            cases = [c for c in cases
                     if (cite.key in c.printed_keys if lii else c.record_ids)] or cases
        if written and len(cases) > 1:  # the written names pick the closest case(s)
            scores = {c.case_id: self._similarity(written, c) for c in cases}
            best = max(scores.values())
            if best >= NAME_MATCH:
                cases = [c for c in cases if scores[c.case_id] == best]
        if len(cases) > 1:
            return CaseCheck(self._verdict(
                cite, AMBIGUOUS, f"{cite.key} matches {len(cases)} cases: "
                + "; ".join(c.label() for c in cases)), None)
        if cases:
            case = cases[0]
            # a held case with no recorded name (IRLeD prior-case headers are cut before the
            # title) cannot contradict the name written with it
            if written and case.names and self._similarity(written, case) < NAME_MATCH:
                # LII of India's number, and the case holds the Court's (a header printing
                # the LII number makes it the case's own)
                if lii and cite.key not in case.printed_keys:
                    other = self._lii_names_elsewhere(cite, written)
                    if other is not None:
                        return CaseCheck(self._verdict(
                            cite, NAME_MISMATCH, f"'{cite.text}', in square brackets, is LII "
                            f"of India's number of a judgment of {cite.year}, but the names "
                            f"written are those of {other.label()}, and no case of "
                            f"{cite.year} we hold has them (the registry holds that year in "
                            "full): the number is another case's; find this case's citation",
                            other), None)
                    named = self._held_under_names(written, cite.year)
                    also = (f"; the names written are those of {named.label()}"
                            if named is not None else "")
                    return CaseCheck(self._verdict(
                        cite, UNVERIFIABLE, f"'{cite.text}', in square brackets, is LII of "
                        f"India's numbering, not the Court's neutral citation the registry "
                        f"holds ({cite.key} is {case.label()}), so '{written}' cannot be "
                        f"checked against it{also}: confirm it in the reporter", named), None)
                return CaseCheck(self._verdict(
                    cite, NAME_MISMATCH, f"{cite.key} is the citation of {case.label()}, not of "
                    f"'{written}'; cite that case or find the right citation for this one",
                    case), None)
            unnamed = bool(written) and not case.names
            printers = self._printers(cite, written) if unnamed else []
            # no name recorded, but the judgments print the case's citation with another's:
            # the citation is held, so two agreeing are enough
            if unnamed and not printers:
                mismatch = self._printed_as_another(
                    cite, written, f"{case.label()}, whose name we do not record",
                    CORROBORATING, case)
                if mismatch is not None:
                    return mismatch
            found = self._found(cite, case)
            if unnamed:
                found.reason += (
                    f"; its name is not recorded, but {_judgments(len(printers))} of "
                    f"different cases print{'s' if len(printers) == 1 else ''} it with the "
                    f"names written ({_shown(printers)})"
                    if printers else f"; the name '{written}' could not be checked (none "
                    "recorded)")
            return CaseCheck(found, None)
        return self._not_found(cite)

    def _similarity(self, written: str, case: Case) -> float:
        return max((name_similarity(written, n, self.common) for n in case.names), default=0.0)

    def _found(self, cite: CaseCitation, case: Case) -> CitationVerdict:
        source = SOURCE_CORPUS if case.doc_ids else SOURCE_REGISTRY
        if case.case_id in self.overruled_by:
            by = sorted(self.overruled_by[case.case_id])
            names = "; ".join(self._overruling(b) for b in by)
            reason = (f"{case.label()} was overruled by {names}" if names
                      else f"{case.label()} is marked overruled in the citation graph")
            return self._verdict(cite, OVERRULED, reason + "; it is not good law", case, source)
        return self._verdict(cite, FOUND, f"{cite.key or cite.text} is {case.label()}, "
                             f"confirmed in the {source}", case, source)

    def _overruling(self, node_id: str) -> str:
        """An overruling judgment in words: its name, else (IRLeD's prior cases have none)
        its date and citations."""
        name = self.node_name.get(node_id)
        if name:
            return f"{name} ({node_id})"
        case = self.cases.get(node_id)
        return case.label() if case is not None else node_id

    def _check_name(self, cite: CaseCitation) -> CitationVerdict:
        written = cite.case_name or cite.text
        cases = [self.cases[i] for i in sorted(self.by_name.get(name_key(written), ()))]
        if len(cases) == 1:
            return self._found(cite, cases[0])
        if cases:
            return self._verdict(cite, AMBIGUOUS, f"'{written}' names {len(cases)} cases: "
                                 + "; ".join(c.label() for c in cases[:5]))
        return self._verdict(cite, UNVERIFIABLE, f"'{written}' is cited by name only, and no "
                             f"case in the sources we hold ({HELD}) has these party names")

    def _read_on(self, text: str, cite: CaseCitation, floor: int, ceiling: int
                 ) -> tuple[CaseCitation, Case] | None:
        """A name cited alone, read on past where the extractor stopped (a comma, "Etc."),
        when the longer name is the whole name of one case we hold: "Jarnail Singh v.
        Secretary, Ministry Of Home Affairs And Ors." or "Special Land Acquisition Officer,
        Kheda And Anr. Etc. v. ...". With no citation after it nothing marks where a name
        ends, and prose may follow a comma, so only a held case's name decides: the fullest
        name, in the fewest words. `floor` and `ceiling`: the citations before and after it."""
        if not (cite.petitioner and cite.respondent):
            return None
        befores = [b for b in self._leads(text, cite, floor) if b[2] in self.petitioner_keys]
        afters = [a for a in self._tails(text, cite, ceiling) if a[2] in self.respondent_keys]
        best: tuple[tuple[int, int], CaseCitation, Case] | None = None
        for start, lead, petitioner_key in befores:
            for end, tail, respondent_key in afters:
                if not (lead or tail):
                    continue
                key = f"{petitioner_key} v {respondent_key}"
                ids = self.by_name.get(key, ())
                if len(ids) == 1 and (best is None or (len(key), start - end) > best[0]):
                    first = start + len(lead) - len(lead.lstrip(READ_ON_EDGE))
                    last = end - (len(tail) - len(tail.rstrip(READ_ON_EDGE)))
                    name = text[first:last]
                    best = ((len(key), start - end), replace(
                        cite, start=first, end=last, text=name, case_name=name, key=key,
                        petitioner=(lead + cite.petitioner).strip(READ_ON_EDGE),
                        respondent=(cite.respondent + tail).strip(READ_ON_EDGE)),
                        self.cases[next(iter(ids))])
        if best is None:
            return None
        wide = best[1]
        end = _party_tail_end(text, wide.end, ceiling)
        if end != wide.end:
            name = text[wide.start:end]
            wide = replace(wide, end=end, text=name, case_name=name,
                           respondent=wide.respondent + text[wide.end:end])
        return wide, best[2]

    def _leads(self, text: str, cite: CaseCitation, floor: int) -> list[tuple[int, str, str]]:
        """(start, words before the petitioner, the petitioner's key with them) for each
        reading back, from none, while what it reads is still the end of some held
        petitioner's name or only closes or stands in for a party ("And Ors.", "By Lrs.")."""
        leads = [(cite.start, "", _party(cite.petitioner))]
        floor = max(floor, text.rfind("\n", 0, cite.start) + 1, cite.start - READ_ON_CHARS)
        for match in reversed(list(READ_ON_WORD.finditer(text, floor, cite.start))):
            lead = text[match.start():cite.start]
            key = _party(lead + cite.petitioner)
            if len(leads) > READ_ON_WORDS or (key not in self.petitioner_ends
                                              and not _stands_in(match.group())):
                break
            leads.append((match.start(), lead, key))
        return leads

    def _tails(self, text: str, cite: CaseCitation, ceiling: int
               ) -> list[tuple[int, str, str]]:
        """(end, words after the respondent, the respondent's key with them) for each reading
        on, from none, within the line, while what it reads is still the start of some held
        respondent's name or only closes or stands in for a party."""
        tails = [(cite.end, "", _party(cite.respondent))]
        ceiling = min(ceiling, cite.end + READ_ON_CHARS)
        for match in READ_ON_WORD.finditer(text, cite.end, ceiling):
            tail = text[cite.end:match.end()]
            key = _party(cite.respondent + tail)
            if "\n" in tail or len(tails) > READ_ON_WORDS or (
                    key not in self.respondent_starts and not _stands_in(match.group())):
                break
            tails.append((match.end(), tail, key))
        return tails

    def _not_found(self, cite: CaseCitation) -> CaseCheck:
        if cite.key is None:
            return CaseCheck(self._verdict(cite, CASE_NOT_FOUND,
                                           f"'{cite.text}' is not a well-formed citation"), None)
        printers = self._printers(cite, cite.case_name) if cite.case_name else []
        if len(printers) >= CORROBORATING:
            return CaseCheck(self._verdict(
                cite, CORROBORATED, f"{cite.key} is not in the sources we hold ({HELD}), but "
                f"{len(printers)} corpus judgments of different cases print it with these "
                f"names ({_shown(printers)}): the Supreme Court relied on it; corroborated, not "
                "checked against a record of the case", source=SOURCE_PRINTED), None)
        if cite.case_name and not printers:
            mismatch = self._printed_as_another(
                cite, cite.case_name, f"not in the sources we hold ({HELD})", MISPRINTED_BY)
            if mismatch is not None:
                return mismatch
        finding = panel.Finding("not_held", f"{cite.key} is not in the sources we hold ({HELD})")
        held = self.neutral.get(cite.year or 0)
        if cite.reporter == "INSC" and held is not None and held.complete:
            finding = panel.Finding(
                "not_found_where_held",
                f"{cite.key} is not in the SC registry, which holds "
                f"{self.neutral_held.get(cite.year or 0, 0)} of the {held.max_number} "
                f"neutral citations of {cite.year}")
        named, case = self._by_names(cite, finding)
        if named is not None and finding.status == "not_found_where_held" \
                and named.status in ("names_found", "names_not_found"):
            # the number is missing where every number is held: that stays the evidence
            finding = replace(finding, detail=named.detail)
        elif named is not None:
            finding = named
        result = panel.run_panel(cite, finding, self.neutral, self.now_year, llm=self.llm,
                                 volumes=self.volumes)
        c = result.consensus
        summary = (f"panel {c.verdict_counts['VALID']}/5 VALID, {c.recommendation}"
                   + (f" ({'; '.join(result.flags)})" if result.flags else ""))
        failed = [e for e in result.evaluations if e.reason == LLM_FAILED]
        if failed and not result.flags:  # an outage is not evidence of fabrication
            return CaseCheck(self._verdict(
                cite, UNVERIFIABLE, f"{finding.detail}; panel incomplete: {len(failed)} of 5 "
                f"LLM validators failed ({failed[0].detail}): confirm it in the reporter",
                case), result)
        # only an INVALID finding is evidence of invention: for a citation we do not hold,
        # the knowledge validator is UNCERTAIN and synthesis echoes any UNCERTAIN, so one
        # unusual volume or page alone would otherwise read as "likely hallucinated"
        printed = self._printed_as(cite, cite.case_name) if cite.case_name else None
        if result.flags and printed is not None and printed not in finding.detail:
            finding = replace(finding, detail=f"{finding.detail}, but {printed}")
        if result.flags and printed is not None:
            # the Supreme Court printed this very citation with these names: not invented,
            # though perhaps misprinted ("(1982) 3 SCC 1982" for Sant Bir v. State of Bihar)
            return CaseCheck(self._verdict(
                cite, UNVERIFIABLE, f"{finding.detail}; the panel finds it implausible "
                f"({summary}), so it may be misprinted there: confirm it in the reporter before "
                "relying on it", case), result)
        if result.flags:
            return CaseCheck(self._verdict(
                cite, CASE_NOT_FOUND, f"{finding.detail}; likely fabricated: {summary}; remove "
                "it, do not substitute another case", case), result)
        return CaseCheck(self._verdict(
            cite, UNVERIFIABLE, f"{finding.detail}; it is plausible ({summary}) but unchecked: "
            "confirm it in the reporter before relying on it", case), result)

    # --- the party names written with a citation we do not hold ----------------------------

    def _by_names(self, cite: CaseCitation, base: panel.Finding
                  ) -> tuple[panel.Finding | None, Case | None]:
        """What the names written say of a Supreme Court citation we do not hold (module
        doc): (finding, the case the names are) or (None, None) when they say nothing."""
        written = cite.case_name
        if not written or cite.year is None or not _supreme(cite.reporter, cite.key or "",
                                                             cite.court):
            return None, None
        lag = SUPP_LAG if cite.supplementary else REPORT_LAG
        years = range(cite.year - lag, cite.year + 2)
        span = f"{years[0]}–{years[-1]}"
        matches = self._ranked(written, cite.year, self.names.search(written, years))
        found = [self.cases[cid] for _, cid in matches]
        inside = self._scr_page_of(cite)
        if inside is not None and inside.case_id in {c.case_id for c in found}:
            return panel.Finding(
                "names_found", f"{cite.key} is not the first page of a judgment we hold, but "
                f"page {cite.page} lies inside {inside.label()}, whose names are written: a "
                "pinpoint? cite the judgment's first page"), inside
        printed = self._printed_as(cite, written)
        whole = [self.cases[cid] for missed, cid in matches if not missed]
        if whole and printed is None:  # the Court printing this very citation outweighs us
            wrong = self._wrong_citation(cite, written, whole)
            if wrong is not None:
                case, own = wrong
                more = (f" ({len(whole) - 1} other cases of those years have these names, "
                        "none this citation)") if len(whole) > 1 else ""
                return panel.Finding(
                    "wrong_citation", f"{base.detail}; the names written are those of "
                    f"{case.label()}{more}, whose own {cite.reporter} citation is {own}: "
                    f"{cite.key} is not its citation"), case
        printed = printed or self._printed_names(cite, written)
        if printed is not None:
            return panel.Finding("names_found", f"{base.detail}, but {printed}"), None
        if found:
            alike = ("are those of" if self._similarity(written, found[0]) >= NAME_MATCH
                     else "resemble those of")  # the search's words met, but few or common
            return panel.Finding(
                "names_found", f"{base.detail}; the names written {alike} "
                f"{found[0].label()}, decided in the years a {cite.year} report allows "
                f"({span}), whose {cite.reporter} citation we do not hold"), found[0]
        if not self.name_absence or not self._covered(cite):
            return None, None
        close = [self.cases[cid] for _, cid in self._ranked(
            written, cite.year, self.names.search(written, years, loose=True))]
        if close:
            return panel.Finding(
                "names_found", f"{base.detail}; the names written resemble those of "
                f"{close[0].label()}, decided {span}, whose {cite.reporter} citation we do not "
                "hold"), close[0]
        words = written_words(written)
        if not words:
            return None, None
        elsewhere = [self.cases[cid] for _, cid in self.names.search(written)][:3]
        judged = sum(self.decided.get(y, 0) for y in years)
        detail = (f"{base.detail}; no case decided {span} (the years a {cite.year} report "
                  f"allows) has the party names '{written}' (distinctive words searched: "
                  f"{', '.join(words)}): not in the SC registry ({judged} judgments of those "
                  f"years, the SCR-reported ones, held in full for {_spans(self.covered)}), "
                  "the corpus judgments, or the citations they print")
        if elsewhere:
            detail += ("; cases of these names were decided in other years: "
                       + "; ".join(c.label() for c in elsewhere))
        return panel.Finding("names_not_found", detail), None

    def _lii_names_elsewhere(self, cite: CaseCitation, written: str) -> Case | None:
        """The case held under other years that the names written with an LII number are,
        when the registry holds the number's year in full and no case of that year (or the
        year before, for a judgment numbered late), nor a citation a corpus judgment prints,
        has them: a neutral number carries its judgment's year, so the pairing is wrong."""
        if cite.year is None or not self._covered(cite):
            return None
        years = range(cite.year - 1, cite.year + 1)
        if self.names.search(written, years, loose=True) or self._printed_names(cite, written):
            return None
        return self._held_under_names(written, cite.year)

    def _held_under_names(self, written: str, year: int | None) -> Case | None:
        """The dated case held whose names are those written, the likeliest first
        (`_ranked`), or None."""
        for _, case_id in self._ranked(written, year or 0, self.names.search(written)):
            case = self.cases[case_id]
            if case.year is not None and self._similarity(written, case) >= NAME_MATCH:
                return case
        return None

    def _ranked(self, written: str, year: int, matches: list[tuple[int, str]]
                ) -> list[tuple[int, str]]:
        """Matches, the likeliest first: fewest words missed, most alike in name (the
        written words found, a State's too; then all words shared), nearest in year."""
        tokens = name_tokens(written)

        def order(match: tuple[int, str]) -> tuple:
            case = self.cases[match[1]]
            shared = max((jaccard(tokens, name_tokens(n)) for n in case.names), default=0.0)
            return (match[0], -self._similarity(written, case), -shared,
                    abs((case.year or 0) - year), case.case_id)
        return sorted(matches, key=order)

    def _covered(self, cite: CaseCitation) -> bool:
        """Whether the registry holds in full every year the citation's judgment may be of."""
        year = cite.year or 0
        if cite.reporter == "INSC":  # a neutral citation carries its decision year
            return year in self.covered
        first = year - (SUPP_LAG if cite.supplementary else 1)
        return all(y in self.covered for y in range(first, year + 1))

    def _wrong_citation(self, cite: CaseCitation, written: str, found: list[Case]
                        ) -> tuple[Case, str] | None:
        """(case, its own citation) when every case that has all the names written holds its
        own citation in the cited INSC or SCR series, so that the one written is none of theirs.

        Only the registry's citations count: a corpus header's may differ from the citation
        other judgments print for the same case (pre-1990 texts cite "[1962] 1 SCR 169" for
        "[1962] 2 SCR 169"), and which is the misprint we cannot tell. An INSC number is one
        case's only neutral citation, an SCR first page one case's too; an SCR citation
        written without its volume is the same citation.
        Where the registry holds part of a year's INSC numbers or SCR volumes, a name of one
        distinctive word could be a namesake's whose citation we lack, so there only cases
        that have two or more distinctive words written, all of them, count (a State's name
        is one: "State of Maharashtra v. Rajendra" is not "RAJENDRA versus STATE OF M.P."),
        and a page up to PINPOINT_PAGES after the case's first, in its volume, may be a
        pinpoint into it (where volumes are held in full, `_scr_page_of` tells exactly).
        "[1993] INSC 483", in square brackets, is numbered by LII of India (the IRLeD
        judgments print it), not by the Court's neutral citation scheme the registry holds
        ("1993 INSC 365" for the same case), so it is not compared."""
        if cite.reporter == "INSC":
            if cite.text.startswith("["):
                return None  # "[1993] INSC 483" is LII of India's numbering, not the Court's
            series = " INSC "
            held = self.neutral.get(cite.year or 0)
            complete = held is not None and held.complete
        elif cite.reporter == "SCR":
            series = " SCR "
            complete = self._covered(cite)
        else:
            return None
        found = [case for case in found if case.record_ids]  # the registry's, not a header's
        if not complete:
            found = [case for case in found if _strong(written, case)]
        own = [sorted(k for k in case.keys if series in k) for case in found]
        if not found or not all(own):  # a case whose citation in this series we do not know
            return None
        if series == " SCR " and any(_same_page(cite, key) or (
                not complete and _pinpoint(cite, key)) for keys in own for key in keys):
            return None
        return found[0], ", ".join(own[0])

    def _scr_page_of(self, cite: CaseCitation) -> Case | None:
        """The registry judgment an SCR page falls in: the last one starting before it in
        its volume, for volumes the registry holds in full."""
        if cite.reporter != "SCR" or cite.page is None or not self._covered(cite):
            return None
        pages = self.scr_pages.get((cite.year or 0, cite.supplementary, cite.volume))
        if not pages:
            return None
        i = bisect_right(pages, (int(cite.page), "\uffff")) - 1
        return self.cases[pages[i][1]] if i >= 0 else None

    def _printed_as(self, cite: CaseCitation, written: str) -> str | None:
        """Where a corpus judgment prints this citation with these names, in words; None
        when none does. The Supreme Court wrote it: it is not invented, though it is not
        checked against a record of the case."""
        for i in self.printed_keys.get(cite.key or "", ()):
            doc, _, name = self.printed_rows[i]
            if name_similarity(written, name, self.common) >= NAME_MATCH:
                return f"corpus judgment {doc} prints {cite.key} as '{name}'"
        return None

    def _printers(self, cite: CaseCitation, written: str) -> list[str]:
        """The corpus judgments that print this citation with these names, one per case."""
        by_case: dict[str, str] = {}
        for i in self.printed_keys.get(cite.key or "", ()):
            doc, _, name = self.printed_rows[i]
            if name_similarity(written, name, self.common) >= NAME_MATCH:
                by_case.setdefault(self.doc_case.get(doc, doc), doc)
        return sorted(by_case.values())

    def _printed_as_another(self, cite: CaseCitation, written: str, held: str, at_least: int,
                            case: Case | None = None) -> CaseCheck | None:
        """NAME_MISMATCH when `at_least` corpus judgments print the citation as another case's
        (`_printed_otherwise`); `held`: what we know of the citation, in words."""
        other = self._printed_otherwise(cite, written, at_least)
        if other is None:
            return None
        name, docs = other
        return CaseCheck(self._verdict(
            cite, NAME_MISMATCH, f"{cite.key} is {held}, but {len(docs)} corpus judgments of "
            f"different cases print it as the citation of '{name}' ({_shown(docs)}), none "
            f"with '{written}': cite that case or find the right citation for this one", case,
            None if case else SOURCE_PRINTED), None)

    def _printed_otherwise(self, cite: CaseCitation, written: str, at_least: int
                           ) -> tuple[str, list[str]] | None:
        """(the names, the judgments) when `at_least` corpus judgments of different cases
        print this citation with one other case's names, unlike the written ones even letter
        by letter (a misprint of them is not another case): the citation is that case's.
        Called when none prints it with the written names. Only for the Supreme Court's
        reporters, whose keys always name one case: another report's key may leave out a
        volume the judgments did not write."""
        if not _supreme(cite.reporter, cite.key or ""):
            return None
        groups: list[tuple[str, dict[str, str]]] = []  # names -> {case: judgment}
        for i in self.printed_keys.get(cite.key or "", ()):
            doc, _, name = self.printed_rows[i]
            group = next((g for g in groups if name_similarity(g[0], name, self.common)
                          >= NAME_MATCH), None)
            if group is None:
                group = (name, {})
                groups.append(group)
            group[1].setdefault(self.doc_case.get(doc, doc), doc)
        if not groups:
            return None
        name, printers = max(groups, key=lambda g: len(g[1]))
        if len(printers) < at_least or SequenceMatcher(
                None, case_name_key(written), case_name_key(name)).ratio() >= LOOSE_NAMES:
            return None
        return name, sorted(printers.values())

    def _printed_names(self, cite: CaseCitation, written: str) -> str | None:
        """Where a corpus judgment cites a case of these names, reported within a year of
        this citation, in words; None when none does."""
        year = cite.year or 0
        for _, i in self.printed.search(written, range(year - 1, year + 2)):
            doc, key, name = self.printed_rows[int(i)]
            return f"corpus judgment {doc} cites a case of these names: '{name}', {key}"
        return None

    def _verdict(self, cite: CaseCitation, status: str, reason: str, case: Case | None = None,
                 source: str | None = None) -> CitationVerdict:
        return CitationVerdict(text=cite.text, span=(cite.start, cite.end), kind="case",
                               status=status, reason=reason, source=source,
                               case_key=cite.key, case_name=cite.case_name,
                               matched=case.matched() if case else None)


def name_key(name: str) -> str:
    """`case_name_key` without the words that say a party died and who stands in for them:
    "Rattan Singh (D) By Lrs." is the registry's "RATTAN SINGH (DEAD) BY LRS."."""
    return case_name_key(REPRESENTATION.sub(" ", name))


@lru_cache(maxsize=8192)
def _party(party: str) -> str:
    """One party's part of `name_key` (cached as `case_name_key` is: text repeats names)."""
    return party_key(REPRESENTATION.sub(" ", party))


@lru_cache(maxsize=8192)
def _stands_in(word: str) -> bool:
    """Whether a written word only closes a party or stands in for one that died ("Ors.",
    "(D)", "By", "Lrs.", "The"), which a name's key drops."""
    return all(w in STANDS_IN for w in key_words(word))


def _party_tail_end(text: str, end: int, ceiling: int) -> int:
    """Where a name read on ends with the words that close a party ("And Ors.", "And Anr.
    Etc."), which the name's key drops: the name shown keeps them."""
    for match in READ_ON_WORD.finditer(text, end, ceiling):
        word = match.group().rstrip(WORD_EDGE)  # "Ors." keeps its stop
        core = word.strip(READ_ON_EDGE).lower()
        if "\n" in text[end:match.start()] or core not in PARTY_CLOSERS:
            break
        if core not in ("and", "&"):
            end = match.start() + len(word)
    return end


def _judgments(count: int) -> str:
    return f"{count} corpus judgment{'' if count == 1 else 's'}"


def _shown(docs: list[str]) -> str:
    return ", ".join(docs[:5]) + (f" and {len(docs) - 5} more" if len(docs) > 5 else "")


def _short_form_check(cite: CaseCitation, antecedent: CaseCheck) -> CaseCheck:
    """The antecedent's verdict, at the short form's own text and span."""
    full = antecedent.verdict
    verdict = replace(full, text=cite.text, span=(cite.start, cite.end),
                      reason=f"'{cite.text}' refers to {full.text}: {full.reason}")
    return CaseCheck(verdict, antecedent.validation)


def _same_case(a: Case, b: Case) -> bool:
    """Whether two cases we hold apart are one: the same decision date (where both are
    known) and, where both have names, the names of one are the other's."""
    if a.case_id == b.case_id:
        return True
    if a.decision_date and b.decision_date and a.decision_date != b.decision_date:
        return False
    if not a.names or not b.names:  # an IRLeD prior case's header is cut before its title:
        return True  # nothing to tell the two apart by
    return any(name_similarity(x, y) >= NAME_MATCH for x in a.names for y in b.names)


def covered_years(decided: dict[int, int]) -> set[int]:
    """Decision years the registry holds in full (COVERED_SHARE), from judgments per year."""
    if not decided:
        return set()
    floor = COVERED_SHARE * median(decided.values())
    last = max(decided)
    return {year for year, n in decided.items() if n >= floor and year != last}


def _spans(years: set[int]) -> str:
    """1990, 1991, ..., 2024 -> '1990–2024'; gaps make more spans."""
    out: list[str] = []
    for year in sorted(years):
        if out and out[-1].endswith(str(year - 1)):
            out[-1] = out[-1].split("–")[0] + f"–{year}"
        else:
            out.append(str(year))
    return ", ".join(out) or "no year"


def _supreme(reporter: str | None, key: str, court: str | None = None) -> bool:
    """Whether a citation is of the Supreme Court of India: its reporters, AIR SC, SCC OnLine
    SC."""
    if reporter in SC_REPORTERS:
        return True
    parts = key.split(" ")  # "AIR 1995 SC 1640", "2019 SCC OnLine SC 1234"
    if reporter == "AIR":
        return (court or (parts[2] if len(parts) == 4 else "")) == "SC"
    return reporter == "SCC OnLine" and (court or (parts[-2] if len(parts) == 5 else "")) == "SC"


YEAR_IN_KEY = re.compile(r"(?<![0-9])(1[89][0-9]{2}|20[0-4][0-9])(?![0-9])")


def _key_year(key: str) -> int | None:
    found = YEAR_IN_KEY.search(key)
    return int(found.group()) if found else None


def _volume_key(key: str) -> list[tuple[str, int, int, str]]:
    """[(reporter, year, volume, page)] of an SCC, SCALE or SCR citation key with a volume
    (not a supplementary one), for `panel.volume_ranges`."""
    found = VOLUME_KEY.match(key)
    if found:
        return [(found["reporter"], int(found["year"]), int(found["vol"]), found["page"])]
    scr = SCR_KEY.match(key)
    if scr and scr["vol"] and not scr["supp"]:
        return [("SCR", int(scr["year"]), int(scr["vol"]), scr["page"])]
    return []


MENTION_COLUMNS = ["mention_type", "doc_id", "citation_key", "case_name", "reporter"]
#: what the verifier reads of a corpus judgment (`CaseVerifier.__init__`)
JUDGMENT_COLUMNS = ("doc_id", "case_id", "case_name", "decision_date", "citation_keys")


def printed_citations(path) -> list[dict]:
    """The case citations of the citation_mentions table (none when it is not built)."""
    if not path.exists():
        return []
    table = pq.read_table(path, columns=MENTION_COLUMNS,
                          filters=[("mention_type", "=", "case")])
    columns = {name: table.column(name).to_pylist() for name in MENTION_COLUMNS[1:]}
    return [dict(zip(columns, row, strict=True)) for row in zip(*columns.values(), strict=True)]


def load_case_verifier(settings, llm: LlmEndpoint | None = None
                       ) -> Callable[[str], list[CitationVerdict]]:
    """A function verifying every case citation in a text against the warehouse tables."""
    return CaseVerifier.from_tables(settings, llm).verify
