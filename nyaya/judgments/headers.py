"""Pure string parsers for judgment headers: dates, case names, judges, citations, citator.

Each function takes literal text and returns plain values, so the rules can be tested on the
header variants found in the corpus without touching files. Nothing here guesses: text that
does not match a known shape gives None (or nothing) and the caller records a parse note.
"""

from __future__ import annotations

import re
from datetime import date

MONTHS = {
    "january": 1, "february": 2, "march": 3, "april": 4, "may": 5, "june": 6, "july": 7,
    "august": 8, "september": 9, "october": 10, "november": 11, "december": 12,
    "jan": 1, "feb": 2, "mar": 3, "apr": 4, "jun": 6, "jul": 7, "aug": 8, "sep": 9,
    "sept": 9, "oct": 10, "nov": 11, "dec": 12,
}
MIN_YEAR, MAX_YEAR = 1800, 2100

_DAY_MONTH_YEAR = re.compile(r"(\d{1,2})(?:st|nd|rd|th)?\s+([A-Za-z]+)\.?,?\s+(\d{4})")
_MONTH_DAY_YEAR = re.compile(r"([A-Za-z]+)\.?\s+(\d{1,2})(?:st|nd|rd|th)?,?\s+(\d{4})")
_NUMERIC = re.compile(r"(\d{1,2})([-/.])(\d{1,2})\2(\d{4})")
_ISO = re.compile(r"(\d{4})-(\d{2})-(\d{2})(?:[T ][\d:.]+Z?)?")


def _iso(year: int, month: int | None, day: int) -> str | None:
    if month is None or not MIN_YEAR <= year <= MAX_YEAR:
        return None
    try:
        return date(year, month, day).isoformat()
    except ValueError:
        return None


def parse_date(text: str | None) -> str | None:
    """ISO yyyy-mm-dd for one date written the ways the sources write it, else None.

    Accepts "26 September 1973", "26 Sep 1973", "(11 October 1995)", "26-09-1973",
    "10/05/1963" (always day first: Indian usage), "March 1, 2010" and ISO. A date that does
    not exist on the calendar, or a partial one ("October 1999)"), gives None: never guessed.
    """
    if not text:
        return None
    s = " ".join(text.split()).strip(" ;,.").strip()
    if s.startswith("(") and s.endswith(")"):
        s = s[1:-1].strip(" ;,.")
    if m := _DAY_MONTH_YEAR.fullmatch(s):
        return _iso(int(m[3]), MONTHS.get(m[2].lower()), int(m[1]))
    if m := _MONTH_DAY_YEAR.fullmatch(s):
        return _iso(int(m[3]), MONTHS.get(m[1].lower()), int(m[2]))
    if m := _NUMERIC.fullmatch(s):
        return _iso(int(m[4]), int(m[3]), int(m[1]))
    if m := _ISO.fullmatch(s):
        return _iso(int(m[1]), int(m[2]), int(m[3]))
    return None


_MONTH_NAMES = "|".join(sorted(MONTHS, key=len, reverse=True))
# A date inside running text, month written as a word (the closing "New Delhi; March 1, 2010").
DATE_IN_TEXT = re.compile(
    rf"\b(?:\d{{1,2}}(?:st|nd|rd|th)?\s+(?:{_MONTH_NAMES})\.?,?\s+\d{{4}}"
    rf"|(?:{_MONTH_NAMES})\.?\s+\d{{1,2}}(?:st|nd|rd|th)?,?\s+\d{{4}})\b",
    re.IGNORECASE,
)

# ---------------------------------------------------------------------------------------
# Case names

# "v", "v.", "vs", "vs.", "versus" in any case; a bare capital "V"/"V." is also an initial
# ("K. V. Rao"), so it is only taken when no unambiguous separator is present.
_SEPARATOR = re.compile(r"\s+(?:v\.?|vs\.?|Vs\.?|VS\.?|versus|Versus|VERSUS)\s+|\s*-versus-\s*")
_SEPARATOR_CAPITAL_V = re.compile(r"\s+V\.?\s+")
_SMALL_WORDS = {"Of", "And", "The", "For", "In", "On", "By", "To", "At", "With"}


def _tidy_party(party: str) -> str:
    """Whitespace collapsed and "Of"/"And" lowered inside title-case names (not all-caps ones)."""
    party = " ".join(party.split()).strip(" ,;:-")
    if party.isupper():
        return party
    words = party.split(" ")
    return " ".join(w.lower() if i and w in _SMALL_WORDS else w for i, w in enumerate(words))


def split_case_name(raw: str | None) -> tuple[str | None, str | None, str | None]:
    """(case_name, petitioner, respondent) with the separator normalized to " v. "."""
    if not raw or not raw.strip():
        return None, None, None
    text = " ".join(raw.split())
    match = _SEPARATOR.search(text) or _SEPARATOR_CAPITAL_V.search(text)
    if not match:
        return _tidy_party(text), None, None
    petitioner = _tidy_party(text[: match.start()])
    respondent = _tidy_party(text[match.end():])
    if not petitioner or not respondent:
        return _tidy_party(text), petitioner or None, respondent or None
    return f"{petitioner} v. {respondent}", petitioner, respondent


# ---------------------------------------------------------------------------------------
# Judges

_HONBLE = re.compile(r"Hon'?ble\s+(?:the\s+)?(?:(?:Mr|Mrs|Ms|Dr)\.?\s*)?Justice\s+", re.I)
_TRAILING_TITLE = re.compile(r"[\s,.]*\b(?:JJ|J|CJI|CJ)\b\.?[\s.:,\-]*$")
_LEADING_ROLE = re.compile(r"^(?:CJI|CHIEF JUSTICE OF INDIA)\b[\s,]*", re.I)
_ROLE_ONLY = re.compile(r"(?:CJI|CJ|J|JJ|CHIEF JUSTICE OF INDIA|the Chief Justice)\.?", re.I)


def _judge_key(name: str) -> str:
    return re.sub(r"[\s.,]", "", name).upper()


def dedupe_judges(names: list[str]) -> list[str]:
    """Names in order, first spelling kept; repeats (ignoring case, spaces and dots) dropped.

    A later bare surname that ends or starts an earlier name ("Thakker" after "C.K. THAKKER",
    "MATHEW" after "Kuttyil Kurien Mathew") is the author line naming a judge already listed.
    """
    seen: list[str] = []
    out = []
    for name in names:
        key = _judge_key(name)
        if not key or key in seen:
            continue
        if re.fullmatch(r"[A-Za-z'-]+", name.strip()) and any(
                k != key and (k.endswith(key) or k.startswith(key)) for k in seen):
            continue
        seen.append(key)
        out.append(name)
    return out


def split_judge_names(text: str) -> list[str]:
    """Judges named in "A. N. Ray, J. and P. N. Bhagwati, J." style text, titles removed.

    Splits at "and" and "&"; with a plural "JJ." also at commas ("A, B and C, JJ."). The name
    is kept as written ("Dr. Arijit Pasayat", "RAY"); only "J."/"JJ."/"CJI" and "Hon'ble
    Justice" are taken off. Role words alone ("CJI") are not names and are left out.
    """
    text = _HONBLE.sub("", text.strip().strip("[]"))
    plural = re.search(r"\bJJ\b", text) is not None
    parts = re.split(r"\s+and\s+|\s*&\s*", text, flags=re.I)
    if plural:
        parts = [p for part in parts for p in part.split(",")]
    names = []
    for part in parts:
        name = _TRAILING_TITLE.sub("", part).strip(" ,;:-")
        name = _LEADING_ROLE.sub("", name).strip(" ,;:-")
        name = re.sub(r"(?<=[A-Za-z]{2})\.+$", "", name)  # "Pasayat." -> "Pasayat"
        if name and not _ROLE_ONLY.fullmatch(name):
            names.append(name)
    return dedupe_judges(names)


_MARKER = re.compile(r"\s*\(\(?(C?J)\)")


def parse_surname_bench(line: str) -> list[str]:
    """Judges from a JUDIS bench line: "RAY, A.N. (CJ) REDDY, P. JAGANMOHAN PALEKAR, D.G.".

    A name is SURNAME, GIVEN NAMES; "(J)"/"(CJ)" end one. After the first comma a new name
    starts at the next word that ends in a comma (a one-word surname): "JAGANMOHAN PALEKAR,"
    is read as the end of one name and the surname of the next.
    """
    tokens = _MARKER.sub(r" (\1) ", line).split()
    names: list[str] = []
    current: list[str] = []
    has_comma = False
    # JUDIS prints the author, then the bench starting with the author again: "FAZAL ALI,
    # SAIYID FAZAL ALI, SAIYID SASTRI, ..." The repeat marks where the first name ends.
    for k in range(2, len(tokens) // 2 + 1):
        head = tokens[:k]
        if head == tokens[k: 2 * k] and "," in "".join(head) and not head[-1].endswith(",") \
                and "(J)" not in head and "(CJ)" not in head:
            names.append(" ".join(head))
            tokens = tokens[k:]
            break

    def flush() -> None:
        nonlocal current, has_comma
        name = " ".join(current).strip(" ,")
        if name:
            names.append(name)
        current, has_comma = [], False

    for token in tokens:
        if token in ("(J)", "(CJ)"):
            flush()
            continue
        if token.endswith(",") and has_comma:
            flush()
        current.append(token)
        has_comma = has_comma or token.endswith(",")
    flush()
    return names


def is_surname_style(line: str) -> bool:
    """True for JUDIS "SURNAME, INITIALS" bench lines; False for "K. RAMASWAMY, G.B. PATTANAIK"."""
    if re.search(r"\(\(?C?J\)", line):
        return True
    if not line.isupper() or _LEADING_ROLE.match(line):
        return False
    first = line.split(",", 1)[0]
    return "," in line and "." not in first


def parse_bench_line(line: str) -> list[str]:
    """Judges from one bench line in either style (surname-first or comma-separated)."""
    line = line.strip().strip("[]").strip()
    if not line:
        return []
    if is_surname_style(line) and not re.search(r"\bJJ\b", line):
        return dedupe_judges(parse_surname_bench(line))
    line = re.sub(r"\s+AND\s+", " & ", line)
    parts = [p for chunk in line.split("&") for p in chunk.split(",")]
    names = []
    for part in parts:
        name = _TRAILING_TITLE.sub("", part).strip(" ,.;:-") if re.search(
            r"\bJJ?\b\.?\s*$", part) else part.strip(" ,;:-")
        name = re.sub(r"(?<=[A-Za-z]{2})\.+$", "", name)  # "V.N. KHARE." -> "V.N. KHARE"
        name = _LEADING_ROLE.sub("", name).strip(" ,.;:-") if name.upper() != "CJI" else ""
        if name and not _ROLE_ONLY.fullmatch(name):
            names.append(name)
    return dedupe_judges(names)


# ---------------------------------------------------------------------------------------
# Reporter citations in headers

# The forms of the first header line of an IRLeD prior case, one per ";"-separated segment.
HEADER_CITATION = re.compile(
    r"\[\d{4}\] INSC \d+"
    r"|AIR \d{4} SC \d+"
    r"|(?:19|20)\d{2}(?: \(\d+\))? (?:Suppl\.)?(?:SCR|SCC|JT|SCALE) \d+"
)
_AIR_WITHOUT_PREFIX = re.compile(r"(?:19|20)\d{2} SC \d+")
_INSC_AT_END = re.compile(r"\[\d{4}\] INSC \d+$")
_TRAILING_DATE = re.compile(r"\s*\(([^()]*)\)\s*$")
_PARTIAL_DATE = re.compile(r"\s*\b[A-Za-z]+\s+\d{4}\)\s*$|\s*\d{4}\)\s*$")


def parse_prior_first_line(line: str) -> tuple[list[str], str | None, list[str]]:
    """(own citations, ISO date, notes) from an IRLeD prior case's truncated first line.

    " [1974] INSC 106; AIR 1974 SC 1389; 1975 (1) SCR 173 (26 April 1974)" gives the four
    citations and 1974-04-26. The first segment is usually cut: a tail that is a whole
    citation is kept ("ORS [1985] INSC 211" -> "[1985] INSC 211"; "1964 SC 1217" is an AIR
    citation that lost its "AIR "), a fragment ("551", "SC 23") is dropped with a note.
    """
    notes: list[str] = []
    text = line.strip()
    iso = None
    if m := _TRAILING_DATE.search(text):
        iso = parse_date(m[1])
        if iso is None:
            notes.append(f"header date not a valid date: {m[1]!r}")
        text = text[: m.start()]
    elif m := _PARTIAL_DATE.search(text):
        notes.append(f"header date truncated: {m[0].strip()!r}")
        text = text[: m.start()]
    else:
        notes.append("no date in header")
    citations: list[str] = []
    segments = [s.strip() for s in text.split(";")]
    for i, segment in enumerate(segments):
        if not segment:
            continue
        if HEADER_CITATION.fullmatch(segment):
            citations.append(segment)
        elif i == 0:
            if m := _INSC_AT_END.search(segment):
                citations.append(m[0])
            elif _AIR_WITHOUT_PREFIX.fullmatch(segment):
                citations.append(f"AIR {segment}")
                notes.append(f"first header citation lost 'AIR ': restored {segment!r}")
            else:
                notes.append(f"first header citation truncated: {segment!r}")
        else:
            citations.append(segment)  # kept raw; the caller's citation reader judges it
    return citations, iso, notes


# The CITATION: line writes the same citations in the JUDIS order ("1974 AIR 1389",
# "1975 SCR (1) 173"), with stray link brackets; each form is rewritten to the first-line one.
_CITATION_LINE_FORMS = re.compile(
    r"(?P<insc>\[(?P<iy>\d{4})\] INSC (?P<in>\d+))"
    r"|(?P<ay>\d{4}) AIR (?P<an>\d+)"
    r"|(?P<ry>\d{4}) (?P<rr>SCR|SCC|SCALE)(?P<rs> Supl\.)? \((?P<rv>\d+)\) ?(?P<rn>\d+)"
    r"|(?P<ny>\d{4}) (?P<nr>SCR|SCC|SCALE)(?P<ns> Supl\.)? (?P<nn>\d+)"
    r"|JT (?P<jy>\d{4}) (?:\((?P<jv>\d+)\) ?(?P<jn>\d+)|Supl\. (?P<jsn>\d+))"
    r"|(?P<ky>\d{4}) JT (?:\((?P<kv>\d+)\) ?(?P<kn>\d+)|Supl\. (?P<ksn>\d+))"
)


def parse_citation_line(line: str) -> list[str]:
    """The judgment's citations from a "CITATION:" line, in the first-line spelling."""
    text = line.split(":", 1)[1] if line.startswith("CITATION") else line
    insc = re.findall(r"\[(\d{4})\] INSC (\d+)", text)
    text = re.sub(r"\[?\[\d{4}\] INSC \d+\]?;?", " ", text)
    text = " ".join(text.replace("[", " ").replace("]", " ").replace(";", " ").split())
    out = [f"[{y}] INSC {n}" for y, n in insc]
    for m in _CITATION_LINE_FORMS.finditer(text):
        g = m.groupdict()
        if g["ay"]:
            out.append(f"AIR {g['ay']} SC {g['an']}")
        elif g["ry"]:
            supl = "Suppl." if g["rs"] else ""
            out.append(f"{g['ry']} ({g['rv']}) {supl}{g['rr']} {g['rn']}")
        elif g["ny"]:
            supl = "Suppl." if g["ns"] else ""
            out.append(f"{g['ny']} {supl}{g['nr']} {g['nn']}")
        elif g["jy"] or g["ky"]:
            year = g["jy"] or g["ky"]
            vol, num, supl_num = (g["jv"], g["jn"], g["jsn"]) if g["jy"] else (
                g["kv"], g["kn"], g["ksn"])
            out.append(f"{year} Suppl.JT {supl_num}" if supl_num else f"{year} ({vol}) JT {num}")
    return list(dict.fromkeys(out))


def citation_identity(citation: str) -> str:
    """A comparison key for two spellings of one citation (spaces and case ignored)."""
    return re.sub(r"\s+", "", citation).upper()


# ---------------------------------------------------------------------------------------
# CITATOR INFO

_LINK_JUNK = re.compile(r"\[\[\d{4}\] [A-Za-z]+ [A-Za-z_0-9]+\];\s*")
_CITATOR_ENTRY = re.compile(
    r"(?:(?<![A-Za-z&*])(?P<rel>[A-Z][A-Z&]*|\*)\s+)?"
    r"(?P<year>(?:19|20)\d{2})\s*SC\s*(?P<num>\d+)"
    r"(?:\s*\(\s*(?P<paras>(?:\(\d+\))?[0-9A-Za-z*][0-9A-Za-z,\s*.\-]*?)\s*"
    r"(?:\)|(?=\s+(?:[A-Z][A-Z&]*|\*)\s+(?:19|20)\d{2}\s*SC)|$))?"
)


def parse_citator(line: str) -> list[dict]:
    """Entries of a JUDIS CITATOR INFO line: relation code, later AIR citation, paragraphs.

    "R 1980 SC1042 (2,41) O [1988 SC 584] (1,2)" gives
    [{"relation": "R", "citation": "AIR 1980 SC 1042", "paragraphs": "2,41"}, ...].
    The relation is None where the line lost it and "*" where JUDIS printed a star; link
    brackets and the stray "[[1988] ScotCS CSOH_1];" links are ignored; an entry cut at the
    end of the line ("F 197") is dropped.
    """
    text = _LINK_JUNK.sub(" ", line)
    text = " ".join(text.replace("[", " ").replace("]", " ").split())
    entries = []
    for m in _CITATOR_ENTRY.finditer(text):
        paras = m["paras"]
        if paras is not None:
            paras = re.sub(r"\s*,\s*", ",", paras).strip(", ") or None
        entries.append({"relation": m["rel"], "citation": f"AIR {m['year']} SC {m['num']}",
                        "paragraphs": paras})
    return entries


# ---------------------------------------------------------------------------------------
# The "IN THE SUPREME COURT OF INDIA ..." header of IRLeD current cases

COURT_HEADER = re.compile(
    r"^\s*(?:NON-?\s?REPORTABLE\s+|REPORTABLE\s+)?IN THE SUPREME COURT OF INDIA\b", re.I)
_CASE_NUMBER = re.compile(
    r"(?:CIVIL APPEAL|CRIMINAL APPEAL|SPECIAL LEAVE PETITION|WRIT PETITION|TRANSFER(?:RED)?"
    r" (?:PETITION|CASE)|ORIGINAL SUIT|REVIEW PETITION|CONTEMPT PETITION|APPEAL)"
    r"\s*(?:\([A-Za-z. /]+\)\s*)?(?:NOs?\.?|Nos?\.?)?\s*[\d\-–,/ ]*\s*OF\s+\d{4}",
    re.I,
)
_JUDGMENT_MARK = re.compile(r"\b(?:O R D E R|J U D G (?:E )?M E N T|JUDGE?MENT)\b")
_AUTHOR_AT_START = re.compile(r"((?:Dr\.\s*)?[A-Z][A-Za-z.\s]{1,40}?,?\s*J)\b\.?\s*:?\s*")
_VERSUS = re.compile(r"\s*\\?-?\s*\bversus\b\s*-?\s*", re.I)
_DOT_LEADERS = r"(?:\s|\.{2,}|…|\\|-)*"
_PARTY_ROLE = re.compile(
    rf"{_DOT_LEADERS}\b(?:Appellants?|Petitioners?)\b\s*(?:\(\s*s\s*\))?", re.I)
_RESPONDENT_END = re.compile(
    rf"{_DOT_LEADERS}\b(?:Respondents?)\b|(?:^|\s+)WITH\b"
    r"|\s+\bAND\b\s+[A-Z]+ (?:APPEAL|PETITION)|\s+\bJUDGE?MENT\b", re.I)


def _skip_brackets(text: str) -> str:
    """Text after leading "(Arising out of ...)", "[CC ...]" groups and stray page numbers."""
    text = text.lstrip()
    while text:
        if m := re.match(r"\d{1,2}\s+|ARISING OUT OF .*? OF \d{4}\s*", text, re.I):
            text = text[m.end():]
        elif text[0] in "([":
            close = {"(": ")", "[": "]"}[text[0]]
            depth = 0
            for i, ch in enumerate(text):
                depth += ch == text[0]
                depth -= ch == close
                if depth == 0:
                    text = text[i + 1:].lstrip()
                    break
            else:
                return text
        else:
            break
    return text


_LEADERS = r"(?:\s\.(?=\s|$)|\s|\.{2,}|…|\\|-{1,2}|,)+"


def _clean_party(text: str) -> str | None:
    """A party name without the dot leaders and dashes around it ("Jagdish .....")."""
    text = " ".join(text.split())
    text = re.sub(rf"^{_LEADERS}|{_LEADERS}$", "", text)
    return text or None


def parse_court_header(line: str) -> dict:
    """Case number, parties, judge and leftover body text of a "IN THE SUPREME COURT" line.

    Returns {"case_number", "petitioner", "respondent", "judges", "rest"}; "rest" is body text
    that the conversion ran into the header line ("O R D E R This appeal ...").
    """
    out: dict = {"case_number": None, "petitioner": None, "respondent": None, "judges": [],
                 "rest": ""}
    text = " ".join(line.split())
    if m := _JUDGMENT_MARK.search(text):
        tail = text[m.end():].strip()
        text = text[: m.start()]
        if a := _AUTHOR_AT_START.match(tail):
            out["judges"] = split_judge_names(a[1])
            tail = tail[a.end():]
        out["rest"] = tail.strip()
    start = text.upper().find("JURISDICTION")
    number = _CASE_NUMBER.search(text, max(start, 0))
    if not number:
        return out
    out["case_number"] = " ".join(number[0].split())
    parties = _skip_brackets(text[number.end():])
    versus = _VERSUS.search(parties)
    if not versus:
        return out
    out["petitioner"] = _clean_party(_PARTY_ROLE.sub(" ", parties[: versus.start()]))
    right = parties[versus.end():]
    end = _RESPONDENT_END.search(right)
    if end:
        out["respondent"] = _clean_party(right[: end.start()])
    elif len(right) < 120:
        out["respondent"] = _clean_party(right)
    return out
