"""Segment verification: does each marked claim say only what its cited evidence says?

Specification 002 (issue 6). An answer carries evidence markers ([E1], [E1,E2]) that point into
an evidence store of items {"id", "claim", "quote_span"} (plus an optional "source", e.g.
"BNS_2023 s.103(1)"). Each segment is checked against the items it cites and comes out
verified, unverified or error, each with a reason a person can act on.

What a segment is (002 s.1, "Text before citation [E1] -> Segment 1"): the text from the end
of the previous marker (or the start) up to a marker, so every word before the last marker
belongs to exactly one checked segment. Markers separated only by whitespace ("[E1] [E2]",
"[E1][E2]") form one group citing all their ids. Text after the last marker has no citation: it
is not a segment (002 counts only cited segments) but is reported as `uncited_text`, never
dropped. Besides 002's "[E1]", "[E1,E2]", markers may be written "[E1, E2]" and "[E1-E3]" (a
range). Anything else that looks like a marker ("[E1 E2]", "[e1]", "(E1)") makes its segment
an error, as does a marker citing an id the store lacks or a marker with no text of its own.

Deciding: a `judge` (the LLM judge of 002 s.3) decides when given. Otherwise a deterministic
support score does, against `threshold`:

    score = (matched items / segment items) x PENALTY ** (missing numbers and provisions
            + 1 if a negation is on one side only)

Segment items are content words (stemmed, with a shared-prefix match so "punishable" meets
"punished"), numbers ("seven years", "7 years", "10,000", "one-half" normalized; "(2)" is a
label, not a number), provisions ("Section 103(1)", "s.103", "Article 21", "Order XXXIX") and
Acts (the curated aliases of nyaya/facts/acts.yaml: "IPC", "Bharatiya Nyaya Sanhita",
"BNS_2023"). A number or provision the segment states that the evidence lacks halves the score,
so with a threshold above PENALTY a single wrong number, section or Act never verifies ("seven
years" against "ten years", "Section 103 IPC" against "BNS_2023 s.103"). Bounds are words ("not
less than" and "at least" are one word, "up to" and "may extend to" another), and a negation
("no", "not", "cannot", "non-") covers the next few content words of its clause: it counts
against the segment when only one side negates the same words ("can be proved" against "No
confession ... shall be proved"; "bailable" against "non-bailable"). With `embed`, the matched
share is averaged with the best cosine similarity to a cited item (EMBED_WEIGHT) before the
penalties.

The threshold is calibrated (`calibrate_threshold`) on the authored pairs in
tests/fixtures/segments/calibration.jsonl by maximizing F-beta with beta = 0.5: precision
counts twice as much as recall, because in law a wrong "verified" is worse than a missed one.
Lexical support cannot see paraphrases with new words, mixed-up limbs of one section that
share all their numbers, or an extra claim of one word; those need the judge.
"""

from __future__ import annotations

import json
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from itertools import pairwise
from pathlib import Path

import numpy as np

from nyaya.retrieval.tokenize import STOP_WORDS, stem
from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.registry import load_facts, normalize_alias

VERIFIED = "verified"
UNVERIFIED = "unverified"
ERROR = "error"
STATUSES = (VERIFIED, UNVERIFIED, ERROR)
SPEC_VERDICT = {VERIFIED: "Yes", UNVERIFIED: "No", ERROR: "Error"}  # 002's "verified" field

#: Calibrated by `calibrate_threshold` on tests/fixtures/segments/calibration.jsonl (99 pairs, 51
#: supported): precision 0.978, recall 0.882 there; on the held-out holdout.jsonl (27 pairs,
#: written before it was scored) precision 0.833, recall 0.909. Tests re-run the calibration.
DEFAULT_THRESHOLD = 0.842
PENALTY = 0.5  # factor per missing number / provision and for a negation mismatch
EMBED_WEIGHT = 0.5  # share of the embedding similarity in the support score, when given
F_BETA = 0.5  # calibration weighs precision twice as much as recall
MAX_RANGE = 50  # ids one range marker may expand to; longer ranges are malformed
MAX_LISTED = 8  # missing words named in a reason

Embed = Callable[[list[str]], np.ndarray]
Judge = Callable[[str, list[str]], tuple[str, str]]

ID = re.compile(r"E\d+")
_ID_ITEM = r"E\d+(?:\s*[-–]\s*E\d+)?"
MARKER = re.compile(
    rf"(?P<valid>\[\s*{_ID_ITEM}(?:\s*,\s*{_ID_ITEM})*\s*\])"
    r"|(?P<bad>\[\s*[Ee]\s*\d[^\[\]\n]{0,60}\]|\(\s*[Ee]\d+(?:\s*[,;\s\-–]\s*[Ee]\d+)*\s*\))")
# stripped from the front of a segment: the end of the previous sentence, list bullets
EDGE = " \t\r\n.,;:!?)]}-*•"


class SegmentInputError(ValueError):
    """Bad input (evidence store, labeled pairs): the message names the file and the record."""


# --- parsing ------------------------------------------------------------------------------


@dataclass(frozen=True)
class Segment:
    """One cited claim: its text (markers removed), where it is, what it cites."""

    number: int
    text: str
    span: tuple[int, int]
    citations: tuple[str, ...]
    markers: str  # the marker group as written, for reasons
    problem: str | None = None  # a malformed marker, found while parsing


@dataclass(frozen=True)
class ParsedText:
    segments: list[Segment]
    uncited: tuple[int, int] | None  # span of text after the last marker, when it has words


def _expand(marker: str) -> list[str] | str:
    """The ids of a valid-looking marker, or why it is malformed."""
    ids: list[str] = []
    for item in marker.strip("[] \t").split(","):
        ends = [int(part.strip()[1:]) for part in re.split(r"[-–]", item)]
        if len(ends) == 2:
            low, high = ends
            if high < low:
                return f"range {item.strip()!r} runs backwards"
            if high - low >= MAX_RANGE:
                return f"range {item.strip()!r} spans more than {MAX_RANGE} ids"
            ids += [f"E{n}" for n in range(low, high + 1)]
        else:
            ids.append(item.strip())
    return ids


def parse_segments(text: str) -> ParsedText:
    """Split `text` into cited segments (see the module docstring for what a segment is)."""
    groups: list[list[re.Match]] = []
    for match in MARKER.finditer(text):
        if groups and not text[groups[-1][-1].end():match.start()].strip():
            groups[-1].append(match)
        else:
            groups.append([match])
    segments, cursor = [], 0
    for group in groups:
        start, end = _trimmed(text, cursor, group[0].start())
        written = text[group[0].start():group[-1].end()]
        ids: list[str] = []
        problems = []
        for match in group:
            expanded = _expand(match.group()) if match.group("valid") else (
                "evidence markers are written [E1] or [E1,E2]: capital E, ids separated by "
                "commas, in square brackets")
            if isinstance(expanded, str):
                problems.append(f"malformed evidence marker {match.group()!r}: {expanded}")
            else:
                ids += expanded
        segments.append(Segment(len(segments) + 1, text[start:end], (start, end),
                                tuple(dict.fromkeys(ids)), written,
                                "; ".join(problems) or None))
        cursor = group[-1].end()
    start, end = _trimmed(text, cursor, len(text))
    has_words = re.search(r"\w", text[start:end]) is not None
    return ParsedText(segments, (start, end) if has_words else None)


def _trimmed(text: str, start: int, end: int) -> tuple[int, int]:
    while start < end and text[start] in EDGE:
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return start, end


# --- the evidence store -------------------------------------------------------------------


@dataclass(frozen=True)
class EvidenceItem:
    """One evidence store entry (002 s.2): an atomic claim and the quote it rests on."""

    id: str
    claim: str
    quote_span: str | None = None
    source: str | None = None  # where the quote is from, e.g. "BNS_2023 s.103(1)"

    @property
    def text(self) -> str:
        """What a segment is checked against: claim, quote and source together."""
        return " ".join(part for part in (self.claim, self.quote_span, self.source) if part)

    def to_dict(self) -> dict:
        row = {"id": self.id, "claim": self.claim, "quote_span": self.quote_span}
        return {**row, "source": self.source} if self.source is not None else row


EVIDENCE_FIELDS = ("id", "claim", "quote_span", "source")


def parse_evidence_store(data: object, origin: str) -> dict[str, EvidenceItem]:
    """Evidence items by id from the JSON of 002 (a list of objects); `origin` names the
    input in errors. Unknown fields are errors too: a misspelt "qoute_span" would otherwise
    lose its quote without a word."""
    if not isinstance(data, list):
        raise SegmentInputError(f"{origin}: the evidence store must be a JSON list of objects "
                                f"with id, claim and quote_span, not {type(data).__name__}")
    store: dict[str, EvidenceItem] = {}
    for number, row in enumerate(data, 1):
        where = f"{origin}: evidence item #{number}"
        if not isinstance(row, dict):
            raise SegmentInputError(f"{where}: expected an object, got {type(row).__name__}")
        if isinstance(row.get("id"), str):
            where += f" ({row['id']})"
        unknown = sorted(set(row) - set(EVIDENCE_FIELDS))
        if unknown:
            raise SegmentInputError(f"{where}: unknown field(s) {', '.join(unknown)}; "
                                    f"allowed: {', '.join(EVIDENCE_FIELDS)}")
        if not isinstance(row.get("id"), str) or not ID.fullmatch(row["id"]):
            raise SegmentInputError(f"{where}: 'id' must be a string like 'E1' (markers can "
                                    f"only cite E<number>), got {row.get('id')!r}")
        if not isinstance(row.get("claim"), str) or not row["claim"].strip():
            raise SegmentInputError(f"{where}: 'claim' must be a non-empty string")
        for optional in ("quote_span", "source"):
            if row.get(optional) is not None and not isinstance(row[optional], str):
                raise SegmentInputError(f"{where}: {optional!r} must be a string or null")
        if row["id"] in store:
            raise SegmentInputError(f"{where}: duplicate id {row['id']}")
        store[row["id"]] = EvidenceItem(row["id"], row["claim"], row.get("quote_span"),
                                        row.get("source"))
    return store


def load_evidence_store(path: Path) -> dict[str, EvidenceItem]:
    """`parse_evidence_store` on a JSON file, with JSON syntax errors named by position."""
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except UnicodeDecodeError as err:
        raise SegmentInputError(f"{path}: not UTF-8 text (byte {err.start})") from err
    except json.JSONDecodeError as err:
        raise SegmentInputError(f"{path}: malformed JSON at line {err.lineno} column "
                                f"{err.colno}: {err.msg}") from err
    return parse_evidence_store(data, str(path))


# --- support ------------------------------------------------------------------------------

NEGATION_WORDS = frozenset("cannot neither never no nobody non none nor not nothing".split())
NEGATION_SCOPE = 6  # content words after a negation that it is taken to negate
# bounds are compared as words, so the "not" of "shall not be less than" is no negation
BOUNDS = [(re.compile(pattern), word) for pattern, word in (
    (r"\b(?:not|no)\s+(?:be\s+)?less\s+than\b|\bat\s+least\b|\bminimum(?:\s+of)?\b",
     " atleast "),
    (r"\b(?:not|no)\s+(?:be\s+)?more\s+than\b|\bnot\s+exceed(?:ing)?\b|\bat\s+most\b"
     r"|\bup\s*to\b|\bextend\s+to\b|\bmaximum(?:\s+of)?\b", " atmost "))]
# words that carry no claim of their own in a paraphrase ("Section 103 provides that ...")
META_WORDS = frozenset(
    "may might must also under per provide provides provided state states stated say says "
    "said according whoever".split())
IRREGULAR = {"women": "woman", "men": "man", "children": "child", "rs": "rupees"}
INFLECTIONS = ("", "e", "s", "es", "d", "ed", "ing", "er", "ers")  # "caus"/"cause", not "-able"
UNITS = dict(zip(
    "zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen "
    "fifteen sixteen seventeen eighteen nineteen".split(), range(20), strict=True))
TENS = dict(zip("twenty thirty forty fifty sixty seventy eighty ninety".split(),
                range(20, 100, 10), strict=True))
SCALES = {"hundred": 100, "thousand": 1000, "lakh": 10**5, "lakhs": 10**5, "crore": 10**7,
          "crores": 10**7, "million": 10**6}
FRACTIONS = {"half": 2, "halves": 2, "third": 3, "thirds": 3, "quarter": 4, "quarters": 4,
             "fourth": 4, "fourths": 4}
# "one" alone is usually a pronoun ("one who"); it is a number before these words
ONE_BEFORE = frozenset("year years month months week weeks day days hour hours minute minutes "
                       "rupee rupees".split())
# a "(2)" is a sub-section or clause label, not a quantity
NUMBER_TOKEN = re.compile(r"\(\s*\d+\s*\)|\d+(?:,\d+)*(?:\.\d+)?|[a-z]+")
_NUM = r"\d+(?:-?[A-Z]{1,2}(?![A-Za-z]))?"
_UNIT = r"(?:\(\s*[0-9A-Za-z]{1,5}\s*\))*"
PROVISION = re.compile(
    r"(?<![A-Za-z])(?P<kw>sections?|secs?\.?|ss?\.|u/ss?\.?|§§?|articles?|arts?\.|orders?"
    rf"|rules?)\s{{0,2}}(?P<list>(?:{_NUM}|[IVXLC]{{1,7}}(?![A-Za-z])){_UNIT}"
    rf"(?:\s{{0,2}}(?:,|/|&|\band\b|\bor\b)\s{{0,2}}{_NUM}{_UNIT})*)",
    re.IGNORECASE)
LISTED = re.compile(rf"(?P<num>{_NUM}|[IVXLC]{{1,7}})(?P<unit>{_UNIT})", re.IGNORECASE)
KINDS = {"a": "article", "o": "order", "r": "rule"}  # by a keyword's first letter
ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


@cache
def _act_pattern() -> tuple[re.Pattern, dict[str, str]]:
    """One regex over the curated Act aliases and codes (longest first), and normalized alias
    -> act code ("B.N.S." also matches "BNS"; both normalize to "bns")."""
    by_alias: dict[str, str] = {}
    for act in load_facts()["acts"]:
        for alias in [*act.get("aliases", []), act["act_code"]]:
            by_alias.setdefault(alias, act["act_code"])
    patterns = ["".join(r"\.?" if c == "." else r"\s*" if c == " " else re.escape(c)
                        for c in alias) for alias in sorted(by_alias, key=len, reverse=True)]
    codes = {normalize_alias(alias): code for alias, code in reversed(by_alias.items())}
    return (re.compile(rf"(?<![A-Za-z0-9_])(?P<alias>{'|'.join(patterns)})(?![A-Za-z0-9_])"
                       r"(?:,?\s{0,2}(?P<year>\d{4})\b)?", re.IGNORECASE), codes)


def _roman(numeral: str) -> int:
    values = [ROMAN[c] for c in numeral.upper()]
    return sum(-v if v < nxt else v for v, nxt in zip(values, [*values[1:], 0], strict=True))


@dataclass(frozen=True)
class _Features:
    words: dict[str, str]  # stem -> first surface form
    numbers: dict[str, str]  # normalized value -> surface
    provisions: dict[str, str]  # "section 103(1)" / "act BNS_2023" -> surface
    negations: tuple[tuple[str, ...], ...]  # the stems each negation is taken to negate


def _features(text: str) -> _Features:
    """The items a text is checked on; Acts, then provisions, then numbers are taken out of
    the text before the next kind is read, so "Section 103" is no number 103."""
    provisions: dict[str, str] = {}
    pattern, codes = _act_pattern()

    def act(match: re.Match) -> str:
        alias, year = match.group("alias"), match.group("year")
        code = codes[normalize_alias(alias)]
        if year and not code.endswith(f"_{year}"):  # "IPC, 1973": the year stays a number
            provisions.setdefault(f"act {code}", alias.rstrip("."))
            return " " * len(alias) + match.group()[len(alias):]
        provisions.setdefault(f"act {code}", match.group().rstrip("."))
        return " " * len(match.group())

    def provision(match: re.Match) -> str:
        kind = KINDS.get(match.group("kw")[0].lower(), "section")
        for item in LISTED.finditer(match.group("list")):
            number = item.group("num")
            if not number[0].isdigit() and kind != "order":
                continue  # roman numerals number Orders only
            number = normalize_section_number(number) if number[0].isdigit() \
                else str(_roman(number))
            unit = re.sub(r"\s", "", item.group("unit")).lower()
            provisions.setdefault(f"{kind} {number}{unit}", match.group().strip())
        return " " * len(match.group())

    lowered = PROVISION.sub(provision, pattern.sub(act, text)).lower()
    lowered = re.sub(r"\bnon-(?=[a-z])", "non ", lowered)  # "non-bailable" negates "bailable"
    for bound, word in BOUNDS:
        lowered = bound.sub(word, lowered)
    numbers, rest = _numbers(lowered)
    words: dict[str, str] = {}
    negations = []
    for clause in re.split(r"[.;:,()!?\[\]]", rest):
        scope: list[str] | None = None
        for word in re.findall(r"[a-z]+(?:['’]t)?", clause):
            if word in NEGATION_WORDS or re.search(r"n['’]t$", word):
                scope = []
                negations.append(scope)
                continue
            if word in STOP_WORDS or word in META_WORDS or len(word) < 2:
                continue
            key = stem(IRREGULAR.get(word, word))
            words.setdefault(key, word)
            if scope is not None and len(scope) < NEGATION_SCOPE:
                scope.append(key)
    return _Features(words, numbers, provisions, tuple(tuple(s) for s in negations if s))


def _numbers(text: str) -> tuple[dict[str, str], str]:
    """Numbers written in digits or words, normalized ("ten thousand" and "10,000" -> "10000",
    "one-third" -> "1/3"), and the text with them blanked out."""
    tokens = list(NUMBER_TOKEN.finditer(text))
    numbers: dict[str, str] = {}
    spans = []
    i = 0
    while i < len(tokens):
        if not _numeric(tokens[i].group()):
            i += 1
            continue
        j = i + 1
        while j < len(tokens) and _numeric(tokens[j].group()) and _joined(text, tokens, j):
            j += 1
        run = [token.group() for token in tokens[i:j]]
        after = tokens[j].group() if j < len(tokens) and _joined(text, tokens, j) else ""
        end = tokens[j - 1].end()
        if after in FRACTIONS:
            value, end = f"{_value(run)}/{FRACTIONS[after]}", tokens[j].end()
            j += 1
        elif run == ["one"] and after not in ONE_BEFORE:
            i = j
            continue
        else:
            value = _value(run)
        numbers.setdefault(value, text[tokens[i].start():end])
        spans.append((tokens[i].start(), end))
        i = j
    for start, end in spans:
        text = text[:start] + " " * (end - start) + text[end:]
    return numbers, text


def _joined(text: str, tokens: list[re.Match], j: int) -> bool:
    """Token j follows token j - 1 with only spaces or a hyphen between ("twenty-four")."""
    return re.fullmatch(r"[\s-]*", text[tokens[j - 1].end():tokens[j].start()]) is not None


def _numeric(token: str) -> bool:
    return token[0].isdigit() or token in UNITS or token in TENS or token in SCALES


def _value(run: list[str]) -> str:
    total, current = 0.0, 0.0
    for token in run:
        if token in SCALES:
            if SCALES[token] == 100:
                current = (current or 1) * 100
            else:
                total += (current or 1) * SCALES[token]
                current = 0
        elif token[0].isdigit():
            current += float(token.replace(",", ""))
        else:
            current += UNITS.get(token, TENS.get(token, 0))
    value = total + current
    return str(int(value)) if value == int(value) else f"{value:g}"


def _related(word: str, other: str) -> bool:
    """Same word up to inflection: equal; or both of 5+ letters sharing their first 5
    ("punishable"/"punished", "defam"/"defamation"); or a 4-letter word plus an inflection
    ("caus"/"cause", but not "bail"/"bailable")."""
    short, long = sorted((word, other), key=len)
    if len(short) >= 5:
        return short[:5] == long[:5]
    return short == long or (len(short) == 4 and long.startswith(short)
                             and long[4:] in INFLECTIONS)


def _shares(words: Iterable[str], others: Iterable[str]) -> int:
    """How many of `words` have a related word among `others`."""
    others = list(others)
    return sum(any(_related(word, other) for other in others) for word in words)


def _negation_conflict(segment: _Features, evidence: list[_Features]) -> tuple[str, ...]:
    """Words around a negation on one side only: the segment negates something the
    evidence does not negate, or states plainly (at least half of the words of) something
    the evidence negates."""
    ev_scopes = [scope for f in evidence for scope in f.negations]
    for scope in segment.negations:
        if not any(_shares(scope, other) for other in ev_scopes):
            return scope
    for scope in ev_scopes:
        if _shares(scope, segment.words) >= max(2, math.ceil(len(scope) / 2)) and not any(
                _shares(scope, other) for other in segment.negations):
            return scope
    return ()


def _provision_supported(key: str, evidence: Iterable[str]) -> bool:
    """'section 103(1)' is supported by itself or by the whole 'section 103' (when the evidence
    names no other unit of it); a bare 'section 103' by any unit of it."""
    base = re.sub(r"\(.*$", "", key)
    keys = set(evidence)
    if key in keys:
        return True
    units = {k for k in keys if re.sub(r"\(.*$", "", k) == base}
    return bool(units) and (key == base or units == {base})


@dataclass(frozen=True)
class Support:
    """The support score of one segment against its evidence, and what is missing."""

    score: float
    matched: float  # share of the segment's items found in the evidence
    similarity: float | None  # best cosine similarity to a cited item, when embedded
    missing_words: tuple[str, ...] = ()
    missing_numbers: tuple[str, ...] = ()
    missing_provisions: tuple[str, ...] = ()
    negation_conflict: tuple[str, ...] = ()  # stems around a one-sided negation
    empty: bool = False  # the segment has nothing to check

    def explain(self) -> str:
        """What counted against the segment, as a clause a reviewer can check."""
        if self.empty:
            return "the segment has no words, numbers or provisions to check"
        parts = []
        if self.missing_numbers:
            parts.append("numbers not in the evidence: " + ", ".join(self.missing_numbers))
        if self.missing_provisions:
            parts.append("provisions or Acts not in the evidence: "
                         + ", ".join(self.missing_provisions))
        if self.negation_conflict:
            parts.append("negated on one side only: " + " ".join(self.negation_conflict))
        if self.missing_words:
            listed = ", ".join(self.missing_words[:MAX_LISTED])
            more = len(self.missing_words) - MAX_LISTED
            parts.append("words not in the evidence: " + listed
                         + (f" and {more} more" if more > 0 else ""))
        return "; ".join(parts) or "every word, number and provision is in the evidence"


def support_score(segment: str, evidence: Sequence[str], *,
                  similarity: float | None = None) -> Support:
    """How well `evidence` (the cited items' texts) supports `segment` (module docstring).
    `similarity` is the embedding cosine, when an embedder is in use."""
    seg = _features(segment)
    found = [_features(text) for text in evidence]
    ev_words = [w for f in found for w in f.words]
    ev_provisions = [p for f in found for p in f.provisions]
    ev_numbers = {n for f in found for n in f.numbers}
    ev_numbers |= {key.split(" ")[1].split("(")[0] for key in ev_provisions
                   if not key.startswith("act ")}  # a bare "103" may name Section 103
    missing_words = tuple(surface for word, surface in seg.words.items()
                          if not _shares([word], ev_words))
    missing_numbers = tuple(surface for value, surface in seg.numbers.items()
                            if value not in ev_numbers)
    missing_provisions = tuple(surface for key, surface in seg.provisions.items()
                               if not _provision_supported(key, ev_provisions))
    conflict = _negation_conflict(seg, found)
    total = len(seg.words) + len(seg.numbers) + len(seg.provisions)
    if total == 0:
        return Support(0.0, 0.0, similarity, empty=True)
    matched = 1 - (len(missing_words) + len(missing_numbers) + len(missing_provisions)) / total
    base = matched if similarity is None else \
        (1 - EMBED_WEIGHT) * matched + EMBED_WEIGHT * max(similarity, 0.0)
    penalties = len(missing_numbers) + len(missing_provisions) + bool(conflict)
    return Support(round(base * PENALTY ** penalties, 4), matched, similarity, missing_words,
                   missing_numbers, missing_provisions, conflict)


def similarities(embed: Embed, pairs: Sequence[tuple[str, Sequence[str]]]) -> list[float]:
    """Best cosine similarity of each segment to its evidence texts, embedding each distinct
    text once."""
    texts = list(dict.fromkeys(t for segment, evidence in pairs for t in (segment, *evidence)))
    if not texts:
        return []
    vectors = np.asarray(embed(texts), dtype=np.float64)
    if vectors.ndim != 2 or vectors.shape[0] != len(texts) or not np.isfinite(vectors).all():
        raise ValueError(f"embed returned an array of shape {vectors.shape} for {len(texts)} "
                         "texts; expected one finite row per text")
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    if (norms == 0).any():
        raise ValueError("embed returned a zero vector; cosine similarity is undefined")
    vectors = vectors / norms
    row = {text: i for i, text in enumerate(texts)}
    return [max(float(vectors[row[segment]] @ vectors[row[text]]) for text in evidence)
            for segment, evidence in pairs]


# --- verification -------------------------------------------------------------------------


@dataclass
class SegmentResult:
    segment: Segment
    status: str  # verified | unverified | error
    reason: str
    cited: list[EvidenceItem]
    support: Support | None  # None for errors found before scoring

    def to_dict(self) -> dict:
        """002's segment object, with the support score and span added."""
        return {"segment_number": self.segment.number, "text": self.segment.text,
                "citations": list(self.segment.citations),
                "cited_claims": [item.to_dict() for item in self.cited],
                "verified": SPEC_VERDICT[self.status], "verification_reason": self.reason,
                "support_score": self.support.score if self.support else None,
                "span": list(self.segment.span)}


@dataclass
class SegmentReport:
    results: list[SegmentResult]
    uncited_text: str | None
    threshold: float
    method: str  # "lexical" | "lexical+embedding" | "judge"
    notes: list[str] = field(default_factory=list)

    def count(self, status: str) -> int:
        return sum(result.status == status for result in self.results)

    @property
    def all_verified(self) -> bool:
        """True when there is at least one segment and every one is verified."""
        return bool(self.results) and self.count(VERIFIED) == len(self.results)

    @property
    def verification_rate(self) -> str:
        """002's "87.5%" string; "0.0%" when there is no segment (nothing was verified)."""
        total = len(self.results)
        return f"{100 * self.count(VERIFIED) / total if total else 0:.1f}%"

    def to_dict(self) -> dict:
        """002's JSON layout. unverified_segments counts every segment that is not verified
        (its totals add up: 8 = 7 + 1); error_segments says how many of those are errors."""
        return {"total_segments": len(self.results),
                "verified_segments": self.count(VERIFIED),
                "unverified_segments": len(self.results) - self.count(VERIFIED),
                "error_segments": self.count(ERROR),
                "verification_rate": self.verification_rate,
                "method": self.method, "threshold": self.threshold,
                "uncited_text": self.uncited_text, "notes": list(self.notes),
                "segments": [result.to_dict() for result in self.results]}


def verify_segments(text: str, evidence: Mapping[str, EvidenceItem], *,
                    threshold: float = DEFAULT_THRESHOLD, embed: Embed | None = None,
                    judge: Judge | None = None) -> SegmentReport:
    """Verify every cited segment of `text` against `evidence` (module docstring): `judge`
    decides when given, else the support score against `threshold`."""
    if not 0 < threshold <= 1:
        raise ValueError(f"threshold must be in (0, 1], got {threshold}")
    parsed = parse_segments(text)
    problems = {s.number: _problem(s, evidence) for s in parsed.segments}
    checkable = [s for s in parsed.segments if problems[s.number] is None]
    cosine_of = dict(zip([s.number for s in checkable], similarities(
        embed, [(s.text, [evidence[i].text for i in s.citations]) for s in checkable]),
        strict=True)) if embed else {}
    results = []
    for segment in parsed.segments:
        cited = [evidence[i] for i in segment.citations if i in evidence]
        if problems[segment.number]:
            results.append(SegmentResult(segment, ERROR, problems[segment.number], cited, None))
            continue
        texts = [item.text for item in cited]
        support = support_score(segment.text, texts, similarity=cosine_of.get(segment.number))
        against = f"against {', '.join(segment.citations)}; {support.explain()}"
        if judge is not None:
            status, reason = _judged(judge, segment.text, texts)
        elif support.score >= threshold:
            status, reason = VERIFIED, f"support {support.score:.3f} >= {threshold} {against}"
        else:
            status, reason = UNVERIFIED, (f"support {support.score:.3f} < {threshold} {against}. "
                                          "Correct the segment or cite evidence that states it")
        results.append(SegmentResult(segment, status, reason, cited, support))
    notes = []
    if parsed.uncited:
        notes.append("text after the last evidence marker is not checked: cite it or remove it")
    if not parsed.segments:
        notes.append("no evidence markers ([E1], [E1,E2]) found: nothing could be verified")
    if embed is not None and judge is None and threshold == DEFAULT_THRESHOLD:
        notes.append(f"threshold {threshold} was calibrated without an embedder; calibrate one "
                     "for this embedder with calibrate_threshold(pairs, embed=...)")
    method = "judge" if judge else "lexical+embedding" if embed else "lexical"
    uncited = text[slice(*parsed.uncited)] if parsed.uncited else None
    return SegmentReport(results, uncited, threshold, method, notes)


def _problem(segment: Segment, evidence: Mapping[str, EvidenceItem]) -> str | None:
    """Why a segment cannot be checked at all (an error), or None."""
    if segment.problem:
        return segment.problem
    if not re.search(r"\w", segment.text):
        return (f"marker {segment.markers} has no text of its own before it (only punctuation "
                "since the previous marker): put it right after the claim it supports, or "
                "merge it into the previous marker")
    unknown = [i for i in segment.citations if i not in evidence]
    if unknown:
        return (f"cites {', '.join(unknown)}, not in the evidence store ("
                f"{len(evidence)} items): add the evidence or correct the marker")
    return None


def _judged(judge: Judge, segment: str, evidence: list[str]) -> tuple[str, str]:
    """The judge's verdict; a failure or malformed answer is an error of that segment (002
    s.4: "Error: verification process failed"), with what went wrong."""
    try:
        answer = judge(segment, evidence)
    except Exception as err:  # any judge failure (API, parsing) is this segment's error
        return ERROR, f"the judge failed: {type(err).__name__}: {err}"
    if not (isinstance(answer, tuple) and len(answer) == 2 and answer[0] in STATUSES
            and isinstance(answer[1], str) and answer[1].strip()):
        return ERROR, (f"the judge returned {answer!r}; expected (status, reason) with status "
                       f"one of {', '.join(STATUSES)} and a non-empty reason")
    return answer[0], f"judge: {answer[1]}"


def render_segments(report: SegmentReport) -> str:
    """Human lines in the layout of 002's example results, then one entry per segment."""
    lines = ["Citation Verification Results:",
             f"  • Total segments: {len(report.results)}",
             f"  • Verified segments: {report.count(VERIFIED)}",
             f"  • Unverified segments: {len(report.results) - report.count(VERIFIED)}"
             f" ({report.count(ERROR)} errors)",
             f"  • Verification rate: {report.verification_rate}",
             f"  • Method: {report.method}, threshold {report.threshold}"]
    lines.append("  ✓ All citations verified successfully!" if report.all_verified
                 else "  ⚠️ Needs review: not every segment is verified")
    lines += [f"  Note: {note}" for note in report.notes]
    for result in report.results:
        cites = ",".join(result.segment.citations) or "-"
        lines += ["", f"Segment {result.segment.number} [{cites}]: "
                      f"{result.status.upper()} — {result.reason}",
                  f"    “{' '.join(result.segment.text.split())}”"]
    if report.uncited_text:
        lines += ["", f"Uncited text (not checked): “{' '.join(report.uncited_text.split())}”"]
    return "\n".join(lines)


# --- calibration --------------------------------------------------------------------------


@dataclass(frozen=True)
class LabeledPair:
    segment: str
    evidence: tuple[str, ...]
    supported: bool
    kind: str  # what the pair tests: paraphrase, wrong_number, negation, ...


@dataclass(frozen=True)
class Calibration:
    threshold: float
    precision: float
    recall: float
    f_beta: float
    beta: float
    pairs: int
    supported: int
    false_verified: int  # unsupported pairs the threshold lets through
    missed: int  # supported pairs it rejects


def load_labeled_pairs(path: Path) -> list[LabeledPair]:
    """Labeled pairs from JSON Lines: {"segment", "evidence": [..], "supported", "kind"}."""
    pairs = []
    for line_number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}:{line_number}"
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise SegmentInputError(f"{where}: malformed JSON: {err.msg}") from err
        if not (isinstance(row, dict) and isinstance(row.get("segment"), str)
                and row["segment"].strip() and isinstance(row.get("evidence"), list)
                and row["evidence"] and all(isinstance(e, str) and e for e in row["evidence"])
                and isinstance(row.get("supported"), bool) and isinstance(row.get("kind"), str)):
            raise SegmentInputError(f"{where}: expected segment (non-empty string), evidence "
                                    "(non-empty list of strings), supported (true/false) and "
                                    "kind (string)")
        pairs.append(LabeledPair(row["segment"], tuple(row["evidence"]), row["supported"],
                                 row["kind"]))
    return pairs


def calibrate_threshold(pairs: Sequence[LabeledPair], *, embed: Embed | None = None,
                        beta: float = F_BETA) -> Calibration:
    """The threshold that maximizes F-beta on `pairs` (beta < 1 favours precision: a wrong
    "verified" costs more than a missed one). Candidates are midpoints between neighbouring
    scores, rounded to 3 decimals and evaluated as rounded; ties go to the higher threshold."""
    positives = sum(pair.supported for pair in pairs)
    if positives in (0, len(pairs)):
        raise ValueError("calibration needs both supported and unsupported pairs")
    cosines = similarities(embed, [(p.segment, p.evidence) for p in pairs]) if embed else \
        [None] * len(pairs)
    scored = [(support_score(p.segment, p.evidence, similarity=c).score, p.supported)
              for p, c in zip(pairs, cosines, strict=True)]
    values = sorted({score for score, _ in scored})
    best: Calibration | None = None
    for low, high in pairwise(values):
        threshold = round((low + high) / 2, 3)
        passed = [supported for score, supported in scored if score >= threshold]
        true_pos = sum(passed)
        if not passed:
            continue
        precision, recall = true_pos / len(passed), true_pos / positives
        f_beta = 0.0 if true_pos == 0 else \
            (1 + beta**2) * precision * recall / (beta**2 * precision + recall)
        candidate = Calibration(threshold, precision, recall, f_beta, beta, len(pairs),
                                positives, len(passed) - true_pos, positives - true_pos)
        if best is None or f_beta > best.f_beta or (
                math.isclose(f_beta, best.f_beta) and threshold > best.threshold):
            best = candidate
    if best is None:
        raise ValueError("every pair has the same support score; nothing to calibrate")
    return best
