"""Clause-level structure of one statute section: units, cross-references and definitions.

Retrieval and citation checking need finer handles than a whole section: a query about
"sub-section (2) of section 106" or "the proviso to section 35" should land on that clause, and a
citation checker needs to know which sections a section points at and which terms it defines.
These are pure functions over the text of ONE section (no Dagster, no I/O) so that the assets
building the tables stay thin and every rule here can be tested on short quoted snippets.

The text comes in two layouts: India Code markdown (paragraphs separated by blank lines, footnote
markers like ``^1`` or ``^2[...]``) and the repealed-IPC JSONL (hard-wrapped lines, no blank
lines, amendment markers like ``3[...]``). Structure markers are therefore only looked for at the
start of a line whose previous line is blank or ends a clause, and every label must continue a
numbering sequence, which is what tells "(8) of section 127" on a wrapped line from sub-section
(8). Every regular expression is anchored at a known position or bounded (possessive or
fixed-width quantifiers), so a 50 kB section costs linear time.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass, field

# "exception" units are the "Exception 1.--" paragraphs of BNS 101, 356 and the IPC: they carry
# their own illustrations and explanations, so they cannot be folded into a neighbouring unit
UNIT_KINDS = (
    "sub_section",
    "clause",
    "sub_clause",
    "proviso",
    "explanation",
    "illustration",
    "exception",
)
REFERENCE_TYPES = (
    "exception_reference",
    "subject_to",
    "definition_import",
    "punishment_table",
    "cross_act_reference",
    "other",
)
DEFINITION_KINDS = ("means", "includes", "means_and_includes")

# --------------------------------------------------------------------------------------------
# Label numbering schemes: (1) (2) (2A) / (a) (b) (aa) (za) / (i) (ii) (ia) / (A) (B)

_NUM, _ALPHA, _ROMAN, _UPPER = "num", "alpha", "roman", "upper"
_FIRST_LABEL = {"1": _NUM, "a": _ALPHA, "i": _ROMAN, "A": _UPPER}
_ROMAN_RE = re.compile(r"(?=[ivxl])(?:xl|l?x{0,3})(?:ix|iv|v?i{0,3})")
_ROMAN_DIGITS = (
    (40, "xl"),
    (10, "x"),
    (9, "ix"),
    (5, "v"),
    (4, "iv"),
    (1, "i"),
)
_UPPER_ROMAN = {
    "I": 1,
    "II": 2,
    "III": 3,
    "IV": 4,
    "V": 5,
    "VI": 6,
    "VII": 7,
    "VIII": 8,
    "IX": 9,
    "X": 10,
}


def _roman_value(label: str) -> int:
    value, rest = 0, label
    for number, digits in _ROMAN_DIGITS:
        while rest.startswith(digits):
            value, rest = value + number, rest[len(digits) :]
    return value


def _to_roman(value: int) -> str:
    out = []
    for number, digits in _ROMAN_DIGITS:
        while value >= number:
            out.append(digits)
            value -= number
    return "".join(out)


def _letter_successors(label: str) -> set[str]:
    """(b) after (a); inserted (aa) after (a) and (ab) after (aa); (b) again after (ab)."""
    out = {label + ("a" if label.islower() else "A")}
    for cut in range(len(label), 0, -1):
        last = label[cut - 1]
        if last not in "zZ":
            out.add(label[: cut - 1] + chr(ord(last) + 1))
    return out


def _successors(scheme: str, label: str) -> set[str]:
    """Labels that may follow `label` as its next sibling.

    Numbers and roman numerals may skip a little (omitted sub-sections leave no trace in the
    text); letters may not, or "(i)" after "(g)" could no longer open sub-clauses."""
    if scheme == _NUM:
        digits = label.rstrip("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
        suffix = label[len(digits) :]
        number = int(digits)
        out = {str(number + step) for step in (1, 2, 3)}
        out.update(digits + s for s in (_letter_successors(suffix) if suffix else {"A"}))
        return out
    if scheme == _ROMAN:
        if _ROMAN_RE.fullmatch(label):
            base, suffix = label, ""
        else:  # inserted sub-clause such as (ia)
            base, suffix = label[:-1], label[-1]
        out = {_to_roman(_roman_value(base) + step) for step in (1, 2)}
        out.update(base + s for s in (_letter_successors(suffix) if suffix else {"a"}))
        return out
    return _letter_successors(label)


# --------------------------------------------------------------------------------------------
# Markers at the start of a line

_PREFIX = r"(?:\^\d{1,3}\[?|\d{1,3}\[|\[)*+"  # footnote / amendment markers: ^1  ^2[  3[  [
_MARKER = re.compile(
    r"[ \t]*+(?P<at>)" + _PREFIX + r"(?:"
    r"\((?P<label>\d{1,3}[A-Z]{0,2}|[a-z]{1,4}|[A-Z]{1,2})\)"
    r"|(?P<kw>Explanations?|Exceptions?)\b[ \t]*+(?P<no>\d{1,2}\b|[IVX]{1,5}\b)?"
    r"[ \t]*+(?:[.:—–]|-{1,3})"
    r"|(?P<prov>Provided)\b"
    r"|(?P<illus>Illustrations?)\b[ \t]*+\.?[ \t]*+\]?[ \t]*+(?:-{2,}|—|–|(?=\r?\n|\Z))"
    r")"
)
_INLINE_LABEL = re.compile(r"[ \t]*+" + _PREFIX + r"\((?P<label>\d{1,3}[A-Z]{0,2}|[a-z]{1,4})\)")
# the heading runs into the first sub-section: "53. Fraudulent transfer.-- (1) Every ..."
_INLINE_FIRST_SUB_SECTION = re.compile(r"(?:—|--)[ \t]*+(?:\d{1,3}\[)?\(1\)")
_FIRST_LABEL_AHEAD = re.compile(r"\s*+" + _PREFIX + r"\((?:a|i|1|A)\)")
# "(8) of section 127", "(a) and (b)": a reference that happens to start a wrapped line
_LABEL_IS_REFERENCE = re.compile(
    r"[ \t\n]*+(?:(?:,|and|or|to)[ \t\n]*+\(|of[ \t\n]++(?:this|that|the[ \t\n]++said|"
    r"sub-?sections?|sections?|sub-?clauses?|clauses?)\b)"
)
# the previous line ends a clause, so a marker on this line starts a new paragraph
_ENDS_CLAUSE = re.compile(r"(?:[;:.,—–\-\])*]|(?:^|[;,:])[ \t]*(?:or|and)|Illustrations?\.?)$")
_LIST_INTRO = re.compile(r"(?:[:—–-]|\bnamely|\bfollowing|\bincludes?|\bmeans)$")
_SCOPE_HINT = re.compile(
    r"[\W\d]{0,8}+(?:(?:in|for[ \t\n]++the[ \t\n]++purposes?[ \t\n]++of)[ \t\n]++)?"
    r"this[ \t\n]++(?P<scope>sub-section|section)\b",
    re.IGNORECASE,
)


@dataclass
class _Unit:
    key: str
    kind: str
    parent_key: str
    start: int
    end: int = -1


@dataclass
class _Frame:
    """An open sub-section / clause / sub-clause and the label it was numbered with."""

    scheme: str
    label: str
    unit: _Unit


@dataclass
class _Leaf:
    kind: str  # proviso / explanation / illustration / exception / heading (a boundary only)
    start: int
    boundary: int  # where the unit before it ends: its line, amendment markers ("12[") included
    number: str | None = None  # "Explanation 2", "Exception 1", "Illustration (a)"
    scope: str | None = None  # "section" / "sub-section" when the text says which it explains
    owner: _Leaf | None = None  # the Exception an explanation or illustration belongs to
    unit: _Unit | None = None


@dataclass
class _Group:
    """A run of provisos / explanations / illustrations / exceptions after some clause.

    Which unit they belong to is only known when the run ends: if the next label continues the
    clause sequence, the run belonged to the clause before it; if it continues the sub-section
    sequence, to the sub-section."""

    start: int
    leaves: list[_Leaf] = field(default_factory=list)
    exception: _Leaf | None = None
    inner_scheme: str | None = None  # numbering of items inside the current leaf
    inner_last: str | None = None
    labelled_illustrations: bool = False
    expect_first_item: bool = False


class _UnitParser:
    def __init__(self, section_number: str, text: str) -> None:
        self.section = section_number
        self.text = text
        self.stack: list[_Frame] = []
        self.group: _Group | None = None
        self.units: list[_Unit] = []
        self.counters: dict[tuple[str, str], int] = {}  # provisos / illustrations per parent
        self.key_counts: dict[str, int] = {}

    # -- driving ------------------------------------------------------------------------------

    def parse(self) -> list[_Unit]:
        text = self.text
        line_start, prev_line, prev_blank = 0, "", True
        while True:
            newline = text.find("\n", line_start)
            line_end = len(text) if newline == -1 else newline
            line = text[line_start:line_end]
            if line.strip():
                if prev_blank or _ENDS_CLAUSE.search(prev_line.rstrip()[-16:]):
                    self._line(line_start)
                prev_blank, prev_line = False, line
            else:
                prev_blank = True
            if newline == -1:
                break
            line_start = newline + 1
        if self.group is not None:
            self._close_group(len(text), None)
        self._pop_to(0, len(text))
        return self.units

    def _line(self, line_start: int) -> None:
        m = _MARKER.match(self.text, line_start)
        if m is None:
            return
        at = m.start("at")
        if m["label"] is not None:
            pos = m.start("label") - 1
            if _LABEL_IS_REFERENCE.match(self.text, m.end()):
                return
            if not self._label(m["label"], pos, at):
                return
            inline = _INLINE_LABEL.match(self.text, m.end())
            if inline and not _LABEL_IS_REFERENCE.match(self.text, inline.end()):
                self._label(inline["label"], inline.start("label") - 1, inline.start("label") - 1)
        elif m["prov"] is not None:
            self._leaf("proviso", m.start("prov"), at, m.end(), None)
        elif m["kw"] is not None:
            kind = "exception" if m["kw"].startswith("Exception") else "explanation"
            self._leaf(kind, m.start("kw"), at, m.end(), m["no"])
        else:
            self._heading(at, m.end())

    # -- labels -------------------------------------------------------------------------------

    def _successor_depth(self, label: str) -> int | None:
        for depth in range(len(self.stack) - 1, -1, -1):
            frame = self.stack[depth]
            if label in _successors(frame.scheme, frame.label):
                return depth
        return None

    def _label(self, label: str, pos: int, at: int) -> bool:
        group = self.group
        if group is not None:
            first = group.inner_scheme is None and label in _FIRST_LABEL
            if group.expect_first_item and first:
                return self._inner_item(label, pos, at)
            if group.inner_scheme is not None and label in _successors(
                group.inner_scheme, group.inner_last or ""
            ):
                return self._inner_item(label, pos, at)
            depth = self._successor_depth(label)
            if depth is not None:
                self._close_group(at, depth)
                return self._label(label, pos, at)
            return self._inner_item(label, pos, at) if first else False

        depth = self._successor_depth(label)
        scheme = _FIRST_LABEL.get(label)
        if not self.stack and not self.units and label[0].isdigit():
            scheme = _NUM  # numbering may open past (1): omitted sub-sections, quoted excerpts
            inline = _INLINE_FIRST_SUB_SECTION.search(self.text, 0, at)
            if label != "1" and inline is not None:  # "376. Punishment for rape.—(1) Whoever"
                self._open(_NUM, "1", inline.end() - 3)
                depth = 0
        if scheme is not None and any(f.scheme == scheme for f in self.stack):
            scheme = None
        if depth is not None and scheme is not None:  # "(i)" after "(h)": clause or sub-clause?
            before = re.sub(r"[\s\d\[\]^]+$", "", self.text[max(0, at - 60) : at])
            if _LIST_INTRO.search(before):
                depth = None
        if depth is not None:
            scheme = self.stack[depth].scheme
            self._pop_to(depth, at)
        elif scheme is None:
            return False
        self._open(scheme, label, pos)
        return True

    def _open(self, scheme: str, label: str, pos: int) -> None:
        parent = self.stack[-1].unit if self.stack else None
        parent_key = parent.key if parent else self.section
        kind = self._structural_kind(scheme, parent)
        unit = self._add(_Unit(f"{parent_key}({label})", kind, parent_key, pos))
        self.stack.append(_Frame(scheme, label, unit))

    def _structural_kind(self, scheme: str, parent: _Unit | None) -> str:
        if scheme == _NUM:
            return "sub_section"
        if parent is None or parent.kind == "sub_section":
            return "clause"
        return "sub_clause"

    def _pop_to(self, depth: int, end: int) -> None:
        """Close every open unit at `depth` and below."""
        for frame in self.stack[depth:]:
            if frame.unit.end < 0:
                frame.unit.end = end
        del self.stack[depth:]

    def _inner_item(self, label: str, pos: int, at: int) -> bool:
        group = self.group
        assert group is not None
        if group.inner_scheme is None:
            group.inner_scheme = _FIRST_LABEL[label]
        group.inner_last = label
        group.expect_first_item = False
        if group.labelled_illustrations:
            group.leaves.append(_Leaf("illustration", pos, at, f"({label})", owner=group.exception))
        return True

    # -- provisos, explanations, illustrations, exceptions ------------------------------------

    def _open_group(self, start: int) -> _Group:
        if self.group is None:
            self.group = _Group(start)
        group = self.group
        group.inner_scheme = group.inner_last = None
        group.labelled_illustrations = group.expect_first_item = False
        return group

    def _leaf(self, kind: str, start: int, at: int, body: int, number: str | None) -> None:
        group = self._open_group(at)
        hint = _SCOPE_HINT.match(self.text, body)
        number = str(_UPPER_ROMAN.get(number, number)) if number else None
        leaf = _Leaf(kind, start, at, number, hint["scope"].lower() if hint else None)
        if kind == "exception":
            group.exception = leaf
        else:
            leaf.owner = group.exception
        group.leaves.append(leaf)

    def _heading(self, at: int, end: int) -> None:
        group = self._open_group(at)
        group.leaves.append(_Leaf("heading", at, at))
        if _FIRST_LABEL_AHEAD.match(self.text, end):
            group.labelled_illustrations = group.expect_first_item = True
            return
        content = end + len(self.text[end : end + 64]) - len(self.text[end : end + 64].lstrip())
        group.leaves.append(_Leaf("illustration", content, content, owner=group.exception))

    def _close_group(self, end: int, depth: int | None) -> None:
        """Attach the run of leaves to the unit whose sequence the next label continues."""
        group = self.group
        assert group is not None
        self.group = None
        closing = depth
        if depth is None:  # end of text: a trailing run belongs to the last sub-section
            depth = 0 if self.stack and self.stack[0].scheme == _NUM else -1
        scoped_depth = {"section": -1}
        for i, frame in enumerate(self.stack):
            if frame.scheme == _NUM:
                scoped_depth["sub-section"] = i
        # a run that opens "In this section ..." hangs off the section, and the clause before
        # it must not swallow it
        first = next((leaf for leaf in group.leaves if leaf.kind != "heading"), None)
        if first is not None and first.scope in scoped_depth:
            depth = min(depth, scoped_depth[first.scope])
        parent_key = self.stack[depth].unit.key if depth >= 0 else self.section
        scoped = {
            scope: self.stack[i].unit.key if i >= 0 else self.section
            for scope, i in scoped_depth.items()
        }
        for frame in self.stack[depth + 1 :]:
            if frame.unit.end < 0:
                frame.unit.end = group.start
        # the unit the next label continues stays open until that label replaces it
        del self.stack[(depth if closing is None else closing) + 1 :]

        # a leaf ends where the next one starts; an Exception runs on over its own leaves
        ends, next_any, next_exception = [], end, end
        for leaf in reversed(group.leaves):
            ends.append(next_exception if leaf.kind == "exception" else next_any)
            next_any = leaf.boundary
            if leaf.kind == "exception":
                next_exception = leaf.boundary
        for leaf, leaf_end in zip(group.leaves, reversed(ends), strict=True):
            if leaf.kind == "heading":
                continue
            parent = leaf.owner.unit.key if leaf.owner and leaf.owner.unit else parent_key
            parent = scoped.get(leaf.scope or "", parent)
            leaf.unit = self._add(
                _Unit(self._leaf_key(parent, leaf), leaf.kind, parent, leaf.start, leaf_end)
            )

    def _leaf_key(self, parent: str, leaf: _Leaf) -> str:
        count_key = (parent, leaf.kind)
        self.counters[count_key] = self.counters.get(count_key, 0) + 1
        if leaf.kind == "proviso":
            return f"{parent} Proviso {self.counters[count_key]}"
        if leaf.kind == "illustration":
            return f"{parent} Illustration {leaf.number or self.counters[count_key]}"
        title = leaf.kind.capitalize()
        return f"{parent} {title} {leaf.number}" if leaf.number else f"{parent} {title}"

    def _add(self, unit: _Unit) -> _Unit:
        count = self.key_counts.get(unit.key, 0) + 1
        self.key_counts[unit.key] = count
        if count > 1:  # a misprinted, repeated label: keep both, told apart
            unit.key = f"{unit.key} #{count}"
        self.units.append(unit)
        return unit


def _parse_units(section_number: str, text: str) -> list[_Unit]:
    """Units in document order with offsets; units with no text are dropped."""
    units = [u for u in _UnitParser(section_number, text).parse() if text[u.start : u.end].strip()]
    units.sort(key=lambda u: u.start)
    return units


def split_units(act_code: str, section_number: str, text: str) -> list[dict]:
    """Rows for the sub-sections, clauses, provisos, explanations, illustrations and
    exceptions of one section, so retrieval can return "103(2)" rather than all of 103.

    A unit's text runs to its next sibling and so includes its children. `ordinal` is the
    unit's 1-based position among all units with the same parent. A section with no internal
    structure yields no rows (the section itself is already a row elsewhere).
    """
    rows: list[dict] = []
    ordinals: dict[str, int] = {}
    for unit in _parse_units(section_number, text):
        ordinals[unit.parent_key] = ordinals.get(unit.parent_key, 0) + 1
        rows.append(
            {
                "act_code": act_code,
                "section_number": section_number,
                "unit_key": unit.key,
                "unit_kind": unit.kind,
                "parent_key": unit.parent_key,
                "ordinal": ordinals[unit.parent_key],
                "text": text[unit.start : unit.end].strip(),
            }
        )
    return rows


# --------------------------------------------------------------------------------------------
# Cross-references

_WS = r"[ \t\n]"
_REF_START = re.compile(
    r"\b(?:(?i:this)" + _WS + r"++(?i:section)\b|(?i:sub-?sections?|sub-?clauses?|clauses?|"
    r"sections?)\b|(?i:ss?)\.(?=" + _WS + r"*+\d))"
)
_UNIT_PART = re.compile(
    r"(?i:sub-?sections?|sub-?clauses?|clauses?)" + _WS + r"*+"
    r"(?P<labels>\(\w{1,6}\)(?:"
    + _WS
    + r"*+(?:,(?:"
    + _WS
    + r"*+(?:and|or)\b)?|and|or|to)"
    + _WS
    + r"*+\(\w{1,6}\))*+)"
)
_LABELS = re.compile(r"\((\w{1,6})\)")
_NUMBER = r"(?P<n>\d{1,4}[A-Z]{0,3})(?![a-z\d])(?P<sfx>(?:\((?:\d{1,3}[A-Z]{0,2}|[a-z]{1,4})\))*+)"
_SECTION_PART = re.compile(r"(?:(?i:sections?)|(?i:ss?)\.)" + _WS + r"*+" + _NUMBER)
_MORE_NUMBERS = re.compile(
    _WS + r"*+(?P<sep>,(?:" + _WS + r"*+(?:and|or)\b)?|and\b|or\b|to\b|-)" + _WS + r"*+"
    r"(?:(?i:sections?)" + _WS + r"++)?" + _NUMBER
)
_OF = re.compile(_WS + r"*+,?" + _WS + r"*+of" + _WS + r"++")
_THIS_SECTION = re.compile(r"(?i:this)" + _WS + r"++(?i:section)\b")
_SAME_ACT = re.compile(r"this" + _WS + r"++(?:Act|Code|Sanhita|Adhiniyam|Ordinance|Regulation)\b")
_EARLIER_ACT = re.compile(
    r"(?:that|the" + _WS + r"++said)" + _WS + r"++(?:Act|Code|Sanhita|Adhiniyam|Ordinance)\b"
)
_NAME_WORD = r"(?:[A-Z][A-Za-z'’\-]*+|of|and|the|for|in|on|to|&|\([A-Z][^()\n]{0,60}\))"
_ACT_NAME = re.compile(
    r"(?:the"
    + _WS
    + r"++)?(?P<name>[A-Z][A-Za-z'’\-]*+(?:"
    + _WS
    + r"++"
    + _NAME_WORD
    + r"){0,14}+)(?P<year>,?"
    + _WS
    + r"*+\d{4}\b)?(?P<num>"
    + _WS
    + r"*+\(\d{1,4}"
    + _WS
    + r"++of"
    + _WS
    + r"++\d{4}\))?"
)
# the word that ends an Act's name: not "Code" in "Code of Criminal Procedure", not
# "Regulation" in "Banking Regulation Act"
_ACT_KEYWORD = re.compile(
    r"\b(?:Act|Code|Sanhita|Adhiniyam|Ordinance|Regulation)\b(?!" + _WS + r"++(?:of\b|[A-Z]))"
)
_BARE_KEYWORD = re.compile(r"\b(?:Act|Code|Sanhita|Adhiniyam|Ordinance|Regulation)\b")
_THE_CAPITAL = re.compile(r"\bthe" + _WS + r"++(?=[A-Z])")
_SENTENCE_BREAK = re.compile(r"[.;:](?=\s)|\n[ \t]*\n")
_REFERENCE_CUES = (
    (
        "exception_reference",
        re.compile(r"\bexcept|\bsave\s+as\b|\bother\s+than\b|\bnothing\s+in\b"),
    ),
    ("subject_to", re.compile(r"\bsubject\s+to\b|\bnotwithstanding\b")),
    (
        "definition_import",
        re.compile(
            r"\bdefined\s+in\b|\bas\s+defined\b|\bmeanings?\s+(?:respectively\s+)?assigned\b"
            r"|\b(?:has|have)\s+the\s+(?:same\s+)?meanings?\b|\bwithin\s+the\s+meaning\s+of\b"
        ),
    ),
    ("punishment_table", re.compile(r"\bpunish|\bpenalty\b|\bsentence")),
)


@dataclass
class _Mention:
    start: int
    end: int
    targets: list[tuple[str, str | None]]  # (section, unit)
    act_name: str | None = None  # named Act, or None for this Act
    same_act: bool = True


def _act_name_at(text: str, pos: int) -> tuple[str, int] | None:
    """ "General Clauses Act, 1897" from "the General Clauses Act, 1897 (10 of 1897)"."""
    m = _ACT_NAME.match(text, pos)
    if m is None:
        return None
    name, end = m["name"], m.end()
    keyword = _ACT_KEYWORD.search(name)
    if keyword is None and not (m["year"] and _BARE_KEYWORD.search(name)):
        return None
    if keyword is not None and keyword.end() < len(name):  # "... Act and the Bharatiya ..."
        name, end = name[: keyword.end()], m.start("name") + keyword.end()
    elif m["year"]:  # "Code of Criminal Procedure, 1973" ends at its year
        name += ", " + m["year"].strip(" ,\t\n")
    return " ".join(name.split()), end


def _labels_unit(parts: list[list[str]]) -> list[str | None]:
    """Innermost-first unit parts -> target units: [["a", "b"], ["1"]] -> ["(1)(a)", "(1)(b)"]."""
    if not parts:
        return [None]
    outer = "".join(f"({labels[0]})" for labels in reversed(parts[1:]))
    return [f"{outer}({label})" for label in parts[0]]


def _expand(first: str, last: str) -> list[str]:
    if first.isdigit() and last.isdigit() and 0 < int(last) - int(first) <= 30:
        return [str(n) for n in range(int(first) + 1, int(last) + 1)]
    return [last]


def _mention_at(
    text: str, start: int, section_number: str, named_acts: _NamedActs
) -> _Mention | None:
    """Parse "clause (a) of sub-section (1) of section 2 of the X Act, 1897" from `start`."""
    pos, parts = start, []
    while (unit := _UNIT_PART.match(text, pos)) is not None:
        parts.append(_LABELS.findall(unit["labels"]))
        pos = unit.end()
        of = _OF.match(text, pos)
        if of is None or not (
            _UNIT_PART.match(text, of.end())
            or _SECTION_PART.match(text, of.end())
            or _THIS_SECTION.match(text, of.end())
        ):
            break
        pos = of.end()
    units = _labels_unit(parts)
    section = _SECTION_PART.match(text, pos)
    this_section = _THIS_SECTION.match(text, pos)
    if section is not None:
        first = section["n"]
        targets = [(first, (section["sfx"] or "") + (u or "") or None) for u in units]
        previous, end = first, section.end()
        while (more := _MORE_NUMBERS.match(text, end)) is not None:
            numbers = [more["n"]]
            if more["sep"] in ("to", "-"):
                numbers = _expand(previous, more["n"])
            targets.extend((n, None) for n in numbers[:-1])
            targets.append((numbers[-1], more["sfx"] or None))
            previous, end = more["n"], more.end()
    elif this_section is not None:
        targets, end = [(section_number, u) for u in units], this_section.end()
    elif parts:
        targets, end = [(section_number, u) for u in units], pos
    else:
        return None
    mention = _Mention(start, end, targets)
    of = _OF.match(text, end)
    if of is None or section is None:
        return mention
    if (same := _SAME_ACT.match(text, of.end())) is not None:
        mention.end = same.end()
    elif (earlier := _EARLIER_ACT.match(text, of.end())) is not None:
        mention.end, mention.same_act = earlier.end(), False
        mention.act_name = named_acts.before(start)
    elif (named := _act_name_at(text, of.end())) is not None:
        mention.act_name, mention.end = named
        mention.same_act = False
        if _BARE_KEYWORD.fullmatch(mention.act_name):  # "of the Act": the one named earlier
            mention.act_name = named_acts.before(start)
    return mention


class _NamedActs:
    """Acts named in the text, found once, for "section 51 of that Act" (the last one named)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: list[tuple[int, str]] | None = None

    def before(self, pos: int) -> str | None:
        if self.found is None:
            self.found = []
            for m in _THE_CAPITAL.finditer(self.text):
                named = _act_name_at(self.text, m.end())
                if named is not None and not _BARE_KEYWORD.fullmatch(named[0]):
                    self.found.append((m.start(), named[0]))
        i = bisect.bisect_left(self.found, pos, key=lambda found: found[0])
        return self.found[i - 1][1] if i else None


def _sentence_bounds(text: str, start: int, end: int, reach: int) -> tuple[int, int]:
    left = max(0, start - reach)
    for m in _SENTENCE_BREAK.finditer(text, left, start):
        left = m.end()
    right_match = _SENTENCE_BREAK.search(text, end, min(len(text), end + reach))
    right = right_match.end() if right_match else min(len(text), end + reach)
    return left, right


def _reference_type(text: str, start: int, end: int, other_act: bool) -> str:
    left, _ = _sentence_bounds(text, start, end, 80)
    window = " ".join(text[left:start].lower().split())
    for kind, cue in _REFERENCE_CUES:
        if cue.search(window):
            return kind
    return "cross_act_reference" if other_act else "other"


def find_cross_references(
    act_code: str,
    section_number: str,
    text: str,
    resolve_act: Callable[[str], str | None],
) -> list[dict]:
    """Rows for every section this section points at, so a citation checker can follow them.

    The reference type comes from cue words in the ~80 characters before the mention within
    the same sentence, first match winning: exception_reference, subject_to,
    definition_import, punishment_table, then cross_act_reference when another Act is named.
    A named Act that `resolve_act` cannot place is kept with target_act_code None and typed
    cross_act_reference, so that unresolved Acts are visible rather than dropped. All rows of
    one mention ("sections 303 to 305") share its span.
    """
    rows: list[dict] = []
    pos, named_acts = 0, _NamedActs(text)
    while (token := _REF_START.search(text, pos)) is not None:
        mention = _mention_at(text, token.start(), section_number, named_acts)
        if mention is None:
            pos = token.end()
            continue
        pos = mention.end
        target_act: str | None = act_code
        if not mention.same_act:
            target_act = resolve_act(mention.act_name) if mention.act_name else None
        other_act = target_act != act_code
        if target_act is None:
            reference_type = "cross_act_reference"
        else:
            reference_type = _reference_type(text, mention.start, mention.end, other_act)
        left, right = _sentence_bounds(text, mention.start, mention.end, 100)
        context = " ".join(text[left:right].split())[:200]
        for target_section, target_unit in mention.targets:
            rows.append(
                {
                    "source_act_code": act_code,
                    "source_section": section_number,
                    "target_act_code": target_act,
                    "target_section": target_section,
                    "target_unit": target_unit,
                    "reference_type": reference_type,
                    "span_start": mention.start,
                    "span_end": mention.end,
                    "context": context,
                }
            )
    return rows


# --------------------------------------------------------------------------------------------
# Definitions

_QUOTED = r"[“\"‘][^“”\"‘’\n]{1,80}+[”\"’]"
_DEFINITION = re.compile(
    r"(?P<terms>"
    + _QUOTED
    + r"(?:"
    + _WS
    + r"*+(?:,|,?"
    + _WS
    + r"*+(?:and|or)"
    + _WS
    + r"++)"
    + _WS
    + r"*+"
    + _QUOTED
    + r"){0,5}+)(?:"
    r"(?P<heading>[ \t]*+\.?[ \t]*+(?:-{2,}|—|–))"
    r"|"
    + _WS
    + r"*+,?"
    + _WS
    + r"*+(?:(?:in"
    + _WS
    + r"++relation"
    + _WS
    + r"++to|with"
    + _WS
    + r"++(?:reference|respect)"
    + _WS
    + r"++to|when"
    + _WS
    + r"++used)\b"
    r"[^“”\"‘’;:\n]{0,80}?," + _WS + r"*+)?"
    r"(?P<verb>means"
    + _WS
    + r"++and"
    + _WS
    + r"++includes|shall"
    + _WS
    + r"++mean"
    + _WS
    + r"++and"
    + _WS
    + r"++include|means|mean|shall"
    + _WS
    + r"++mean|includes|"
    r"include|shall" + _WS + r"++include|denotes|denote)\b)"
)
_TERM = re.compile(r"[“\"‘]([^“”\"‘’\n]{1,80}+)[”\"’]")
_MEANS_VERB = re.compile(r"\b(?:means?|denotes?|includes?)\b")
_AND_INCLUDES = re.compile(r"\band" + _WS + r"++(?:shall" + _WS + r"++)?includes?\b")
_PARAGRAPH_START = re.compile(
    r"(?:^|\n)(?:[ \t\[]|\^?\d{1,3})*+(?:\([0-9A-Za-z]{1,4}\)(?:[ \t\[]|\^?\d{1,3})*+)*+$"
)
_DEFINITION_TITLE = re.compile(
    r"\W*+(?:definitions?\b|interpretation(?:[- ]?clause)?\W*+$)", re.IGNORECASE
)
# longer than any real definition (BNS 2(28) "public servant" is ~2,500); keeps many terms in
# one long unnumbered paragraph linear
_MAX_DEFINITION_CHARS = 6000
_TRAILING_JOINER = re.compile(r"(?:[;,]\s*(?:and|or)?|\s(?:and|or))\s*$")


def is_definition_section(title: str) -> bool:
    """True for "Definitions.", "Interpretation-clause.", "Definition of ...": the sections
    whose quoted terms are worth a definitions table."""
    return _DEFINITION_TITLE.match(title) is not None


def _definition_kind(verb: str | None, body: str) -> str:
    if verb is None:  # '"offence".---... the word "offence" means ...': its paragraph's verb
        paragraph = body[:400].split("\n\n", 1)[0]
        first = _MEANS_VERB.search(paragraph)
        verb = first.group() if first else "means"
    verb = " ".join(verb.split())
    if verb.endswith(("and includes", "and include")):
        return "means_and_includes"
    if verb.startswith(("include", "shall include")):
        return "includes"
    return "means_and_includes" if _AND_INCLUDES.search(body) else "means"


def _innermost(units: list[_Unit], positions: list[int]) -> list[_Unit | None]:
    """For ascending positions, the innermost unit holding each (unit spans nest)."""
    ordered = sorted(units, key=lambda unit: (unit.start, -unit.end))
    out: list[_Unit | None] = []
    stack: list[_Unit] = []
    i = 0
    for pos in positions:
        while i < len(ordered) and ordered[i].start <= pos:
            while stack and stack[-1].end <= ordered[i].start:
                stack.pop()
            stack.append(ordered[i])
            i += 1
        while stack and stack[-1].end <= pos:
            stack.pop()
        out.append(stack[-1] if stack else None)
    return out


def extract_definitions(act_code: str, section_number: str, text: str) -> list[dict]:
    """Rows for the terms a definitions section defines, so a term can be looked up by name.

    Finds '"term" means ...', '"term" includes ...', '"term", in relation to X, means ...',
    heading-style '"term".--- ...' and the IPC style 'The word "person" includes ...', with
    straight or curly quotes. unit_key is the innermost unit holding the term ("2(14)",
    "2(1)(a)") or the bare section. definition_text runs to the end of that unit, or to the
    next definition that starts a paragraph, whichever comes first (at most 6,000 characters).
    """
    units = _parse_units(section_number, text)
    matches = list(_DEFINITION.finditer(text))
    holders = _innermost(units, [m.start() for m in matches])
    # a definition ends where the next one that opens its own paragraph ("(b) ", "^5[")
    # begins: any such one in unnumbered text, only one of the same unit otherwise, so that
    # "public servant" keeps the "election" of its Explanation
    cuts: list[int | None] = [None] * len(matches)
    next_any: int | None = None
    next_in: dict[int, int] = {}
    for i in range(len(matches) - 1, -1, -1):
        holder = holders[i]
        cuts[i] = next_any if holder is None else next_in.get(id(holder))
        opening = _PARAGRAPH_START.search(text, max(0, matches[i].start() - 40), matches[i].start())
        if opening is not None:
            at = opening.start() + opening[0].startswith("\n")
            next_any = at
            next_in[id(holder)] = at
    rows: list[dict] = []
    seen: set[tuple[str, str]] = set()
    for m, holder, cut in zip(matches, holders, cuts, strict=True):
        end = min(holder.end if holder else len(text), m.start() + _MAX_DEFINITION_CHARS)
        if cut is not None:
            end = min(end, cut)
        unit_key = holder.key if holder else section_number
        terms = []
        for term_match in _TERM.finditer(m["terms"]):
            term = " ".join(term_match[1].lower().split()).strip(" ,.")
            if term and (unit_key, term) not in seen:
                seen.add((unit_key, term))
                terms.append(term)
        if not terms:  # '"offence".--- ... the word "offence" means': already have it
            continue
        definition_text = " ".join(text[m.start() : end].split())
        joiner = _TRAILING_JOINER.search(definition_text[-12:])
        if joiner is not None:
            definition_text = definition_text[: len(definition_text) - len(joiner[0])]
        kind = _definition_kind(m["verb"], text[m.end() : min(end, m.end() + 1500)])
        for term in terms:
            rows.append(
                {
                    "act_code": act_code,
                    "section_number": section_number,
                    "unit_key": unit_key,
                    "term": term,
                    "definition_kind": kind,
                    "definition_text": definition_text,
                }
            )
    return rows
