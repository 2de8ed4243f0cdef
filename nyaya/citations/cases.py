"""Case citations in running text: reporter citations, neutral citations and case names.

Reporter citations ("AIR 1978 SC 597", "(1996) 4 SCC 319", "[1974] INSC 106") get a canonical
`key` that other tables join on, so every written variant of one citation ("1995 (6) SCC 315",
"(1995) 6 SCC 315", "1995 SCC (6) 315") gets the same key. Case names ("Maneka Gandhi v. Union
of India") are found around their "v."/"vs."/"versus" and keyed with `case_name_key`, which
matches party names across sources. IRLeD's "[?CITATION?]" masks are counted (kind "masked").

Short forms cite a case cited before: "ibid" / "id." the citation just before them, "Maneka
Gandhi (supra)" / "Nanavati's case (supra)" the last one whose party names hold the name
written. Each is a copy of that citation (kind, key, names) at its own span (for a supra, from
the name to "(supra)"), with `short_form` saying which form and `antecedent` the span of the
full citation, so that it resolves and is verified as that case. One with nothing to refer to
(no name that fits; no citation in the IBID_WINDOW before an "ibid") has kind "short_form" and
no key.

Keys:
- neutral "{year} INSC {number}"; AIR "AIR {year} {court} {page}" (court "SC" for the IRLeD
  "1974 AIR 1389" form);
- SCC "({year}) {volume} SCC {page}", supplementary "({year}) Supp {volume} SCC {page}";
- SCR "[{year}] {volume} SCR {page}", supplementary "[{year}] Supp {volume} SCR {page}";
- JT "JT {year} ({volume}) SC {page}"; SCALE "({year}) {volume} SCALE {page}";
- SCC OnLine "{year} SCC OnLine {court} {page}"; Indlaw "{year} Indlaw {court} {number}";
- ILR "ILR {volume} {court} {page}" for a volume of the numbering the courts kept until about
  1950, "ILR ({year}) {volume} {court} {page}" after it, "ILR {year} {court} {page}" without a
  volume (the year may be left unwritten before 1950: "I.L.R. 47 Bom. 578");
- other reporters "({year}) {volume} {REPORTER} {page}".
A part that was not written (a volume) is left out together with its space.

Every pattern is anchored on a reporter abbreviation or on the " v" of a case name, and every
look-around is bounded, so adversarial text stays linear.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, islice
from operator import attrgetter
from typing import NamedTuple

from nyaya.citations.reporters import air_courts, anchor, reporter_of
from nyaya.citations.scan import Spans, tokens_before
from nyaya.citations.statutes import roman_value

REPORTER = "reporter"
NEUTRAL = "neutral"
CASE_NAME = "case_name"
MASKED = "masked"
SHORT_FORM = "short_form"  # a short form with no earlier citation to refer to


@dataclass(frozen=True)
class CaseCitation:
    """One case citation; `key` is the canonical form other tables join on."""

    start: int
    end: int
    text: str
    kind: str  # "reporter" | "neutral" | "case_name" | "masked" | "short_form"
    reporter: str | None
    year: int | None
    volume: str | None
    page: str | None
    court: str | None  # AIR court code ("SC", "Bom", ...), Indlaw / SCC OnLine court
    supplementary: bool
    key: str | None
    case_name: str | None
    petitioner: str | None
    respondent: str | None
    short_form: str | None = None  # "supra" | "ibid" | "id.": how a short form was written
    antecedent: tuple[int, int] | None = None  # a short form's full citation: start, end
    # where the full citation starts, its case name ("X v. Y, AIR 1978 SC 597"): the parallel
    # citations written after one name share it, so that they can be checked against each other
    full_start: int | None = None

    @property
    def lii_numbered(self) -> bool:
        """"[1995] INSC 387", in square brackets, is LII of India's number, which IRLeD's
        judgments print; the Court's neutral citation, the registry's, has none. The two
        schemes often give one number to different judgments."""
        return self.reporter == "INSC" and self.text.startswith("[")


# --- reporter citations -------------------------------------------------------------------

_YEAR = r"(?:1[89][0-9]{2}|20[0-4][0-9])"
# Any reporter as printed, from the reporter database (nyaya/facts/reporters.yaml): literal-first
# alternatives, so the scan can skip ahead on the first character
ANCHOR = anchor()
_COURTS = air_courts()
_COURT_RE = "|".join(re.escape(c) for c in sorted(_COURTS, key=len, reverse=True))
AIR_RIGHT = re.compile(
    rf"\s{{0,2}}\(?\s?(?P<year>{_YEAR})\s?\)?\s{{0,2}}(?P<court>{_COURT_RE})(?![A-Za-z&])\.?\s?"
    r"(?:\(\s?(?P<supp>Supp|Suppl)\.?\s?\)\s?)?(?P<page>[0-9]{1,5})(?![0-9])"
)
AIR_AFTER_YEAR = re.compile(
    rf"\s{{0,2}}(?:\(\s?(?P<court>{_COURT_RE})\s?\)\s?|(?P<sc>SC|S\.C\.)\s?)?"
    r"(?P<page>[0-9]{1,5})(?![0-9])"
)
# after "ILR": a year (bracketed or not), a volume (arabic or Roman, bracketed or not), or both,
# then the court and the page: "ILR 30 Cal 539", "I.L.R. (1906) XXXIII Cal. 227", "ILR 1991 Kar.
# 2248", "I.L.R. [1969] 2 Kerala 71"
ILR_RIGHT = re.compile(  # the brackets as the scanned reports misplace them too: "[(1926) I. L.
    # R. 53] Cal. 827", "I.L.R. [[1955] Bom. 680 .]", "I.L.R. [27 Bom. 424.]"
    rf"\s{{0,2}}[\[(]{{0,2}}\s?(?:(?P<year>{_YEAR})\s?[\])]{{0,2}}\s?,?\s?)?"
    r"(?:\(\s?(?P<bvol>[0-9]{1,3})\s?\)|(?P<vol>[0-9]{1,3}|[IVXL]{1,7})(?![0-9A-Za-z]))?"
    rf"\s?[\])]?\s?\(?\s?(?P<court>{_COURT_RE})(?![A-Za-z&])\.?\s?\)?,?\s?"
    r"(?P<page>[0-9]{1,5})(?![0-9])"  # "ILR(P&H) 428"
)
#: an ILR volume numbered since the series began, as every court's was until about 1950: its
#: year is not part of the key ("(1903) ILR 30 Cal 539" and "ILR 30 Cal 539" are one citation)
ILR_CUMULATIVE_BEFORE = 1950
YEAR_BEFORE = re.compile(rf"(?<![0-9])(?P<ob>[\[(])?\s?(?P<year>{_YEAR})\s?[\])]?\s{{0,2}}$")
_SUPP = r"(?i:Supp?l?\.?|Supl\.?|Suppl\.?)"  # "Supp.", "Suppl", and the registry's "SUPP."
LEFT = re.compile(
    rf"(?P<ob>[\[(])?\s?(?<![0-9])(?P<year>{_YEAR})\s?(?P<cb>[\])])?\s?,?\s?"
    rf"(?:(?P<supp1>{_SUPP})\s?,?\s?)?"
    r"(?:\(\s?(?P<vol>[0-9]{1,3})\s?\)|(?P<volb>[0-9]{1,3}))?\s?"
    rf"(?:(?P<supp2>{_SUPP})\s?)?$"
)
RIGHT = re.compile(
    r"\s?(?:\(\s?(?P<vol2>[0-9]{1,3})\s?\)\s?)?"
    rf"(?:(?P<supp3>{_SUPP})\s?)?(?P<page>[0-9]{{1,5}})(?![0-9])"
)
NEUTRAL_RIGHT = re.compile(r"\s{0,2}(?P<page>[0-9]{1,5})(?![0-9])")
COURT_WORD_RIGHT = re.compile(r"\s{1,2}(?P<court>[A-Z][A-Za-z]{1,5})\s{1,2}(?P<page>[0-9]{1,6})"
                              r"(?![0-9])")
JT_RIGHT = re.compile(
    rf"\s{{0,2}}(?P<year>{_YEAR})\s?(?:\(\s?(?P<vol>[0-9]{{1,2}})\s?\)\s?(?:S\.?\s?C\.?\s?)?"
    r"|S\.?\s?C\.?\s?)(?P<page>[0-9]{1,5})(?![0-9])"  # "JT 1986 SC 619": no volume
)
SCC_SERIES = re.compile(r"\s?\(\s?(?P<series>Cri|Crl|Cr|L\s?&\s?S|Tax|Jour)\.?\s?\)")
SCC_ONLINE = re.compile(r"\s{1,2}On[Ll]ine\s{1,2}(?P<court>[A-Z][A-Za-z]{1,5})\s{1,2}"
                        r"(?P<page>[0-9]{1,6})(?![0-9])")
SERIES = {"cri": "Cri", "crl": "Cri", "cr": "Cri", "l&s": "L&S", "ls": "L&S", "tax": "Tax",
          "jour": "Jour"}
#: IRLeD's placeholder for a cited case; the development sets mask citations with it too
MASK_TEXT = "[?CITATION?]"
MASK = re.compile(re.escape(MASK_TEXT))
NON_ALNUM = re.compile(r"[^a-z0-9&]")


@dataclass
class _Reporter:
    start: int
    end: int
    reporter: str
    year: int | None  # only an ILR citation may be written without one
    volume: str | None
    page: str
    court: str | None
    supplementary: bool


def _find_reporters(text: str) -> list[_Reporter]:
    out: list[_Reporter] = []
    last_end = 0
    for m in ANCHOR.finditer(text):
        start = m.start()
        if start < last_end or (start and text[start - 1].isalpha()):
            continue
        found = _reporter_at(text, m)
        if found is not None:
            out.append(found)
            last_end = found.end
    return out


def _reporter_at(text: str, m: re.Match) -> _Reporter | None:
    reporter = reporter_of(m)
    name = reporter.name
    start, end = m.span()
    lo = max(0, start - 32)
    if name == "AIR":
        right = AIR_RIGHT.match(text, end)
        if right:
            return _Reporter(start, right.end(), "AIR", int(right.group("year")), None,
                             right.group("page"), _COURTS[right.group("court")],
                             bool(right.group("supp")))
        left = YEAR_BEFORE.search(text, lo, start)
        after = AIR_AFTER_YEAR.match(text, end)
        if left and after:  # IRLeD "1974 AIR 1389", "1991 AIR(Orissa) 283"
            court = after.group("court")
            return _Reporter(left.start("year"), after.end(), "AIR", int(left.group("year")),
                             None, after.group("page"), _COURTS[court] if court else "SC", False)
        return None
    if name == "ILR":
        return _ilr_at(text, start, end, lo)
    if name in ("INSC", "Indlaw"):
        left = YEAR_BEFORE.search(text, lo, start)
        if not left:
            return None
        start = left.start("ob") if left.group("ob") else left.start("year")
        if name == "INSC":
            right = NEUTRAL_RIGHT.match(text, end)
            if not right:
                return None
            # "[1974] INSC 106" keeps its bracket in the span only when it closes
            return _Reporter(start, right.end(), "INSC", int(left.group("year")), None,
                             right.group("page"), None, False)
        right = COURT_WORD_RIGHT.match(text, end)
        if not right:
            return None
        return _Reporter(left.start("year"), right.end(), "Indlaw", int(left.group("year")),
                         None, right.group("page"), right.group("court"), False)
    if name == "JT":
        right = JT_RIGHT.match(text, end)
        if right:
            return _Reporter(start, right.end(), "JT", int(right.group("year")),
                             right.group("vol"), right.group("page"), "SC", False)
    if name == "SCC":
        online = SCC_ONLINE.match(text, end)
        left = YEAR_BEFORE.search(text, lo, start)
        if online and left:
            return _Reporter(left.start("year"), online.end(), "SCC OnLine",
                             int(left.group("year")), None, online.group("page"),
                             online.group("court"), False)
        series = SCC_SERIES.match(text, end)
        if series:
            name = "SCC (" + SERIES[NON_ALNUM.sub("", series.group("series").lower())] + ")"
            end = series.end()
    right = RIGHT.match(text, end)
    if not right:
        return None
    left = LEFT.search(text, lo, start)
    if not left:
        return None
    if reporter.bracketed_only and not left.group("ob"):
        return None
    volume = left.group("vol") or left.group("volb") or right.group("vol2")
    supp = bool(left.group("supp1") or left.group("supp2") or right.group("supp3"))
    # An opening bracket belongs to the citation only when it is closed: "(1996)", "[2019]".
    begin = left.start("ob") if left.group("ob") and left.group("cb") else left.start("year")
    return _Reporter(begin, right.end(), name, int(left.group("year")),
                     str(int(volume)) if volume else None, right.group("page"),
                     "SC" if name == "JT" else None, supp)


def _ilr_at(text: str, start: int, end: int, lo: int) -> _Reporter | None:
    right = ILR_RIGHT.match(text, end)
    if not right:
        return None
    year = right.group("year")
    volume = right.group("bvol") or right.group("vol")
    left = LEFT.search(text, lo, start)
    if year is None and left:  # "(1903) ILR 30 Cal 539", "1966 (2) ILR (P&H) 428"
        year = left.group("year")
        volume = volume or left.group("vol") or left.group("volb")
        closed = left.group("ob") and left.group("cb")
        start = left.start("ob") if closed else left.start("year")
    number = roman_value(volume) if volume else None  # "XXXIII" as "30" is read
    if year is None and number is None:
        return None
    return _Reporter(start, right.end(), "ILR", int(year) if year else None,
                     str(number) if number is not None else None, right.group("page"),
                     _COURTS[right.group("court")], False)


def _key(r: _Reporter) -> str | None:
    year, vol, page = r.year, r.volume, r.page
    if page.strip("0") == "":
        return None
    vol_part = f" {vol}" if vol else ""
    supp = " Supp" if r.supplementary else ""
    if r.reporter == "AIR":
        return f"AIR {year} {r.court} {page}"
    if r.reporter == "INSC":
        return f"{year} INSC {page}"
    if r.reporter == "Indlaw":
        return f"{year} Indlaw {r.court} {page}"
    if r.reporter == "SCC OnLine":
        return f"{year} SCC OnLine {r.court} {page}"
    if r.reporter == "SCR":
        return f"[{year}]{supp}{vol_part} SCR {page}"
    if r.reporter == "JT":
        return f"JT {year} ({vol}) SC {page}" if vol else f"JT {year} SC {page}"
    if r.reporter == "ILR":
        if vol and (year is None or year < ILR_CUMULATIVE_BEFORE):
            return f"ILR {vol} {r.court} {page}"
        return f"ILR ({year}){vol_part} {r.court} {page}" if vol else f"ILR {year} {r.court} {page}"
    return f"({year}){supp}{vol_part} {r.reporter} {page}"


def _citation(text: str, r: _Reporter) -> CaseCitation:
    kind = NEUTRAL if r.reporter == "INSC" else REPORTER
    end = r.end
    start = r.start
    if r.reporter == "INSC" and text[start] in "[(" and {"[": "]", "(": ")"}[text[start]] \
            not in text[start:end]:
        start += 1  # "(2019 INSC 813)": the bracket closes after the citation
    return CaseCitation(start, end, text[start:end], kind, r.reporter, r.year, r.volume, r.page,
                        r.court, r.supplementary, _key(r), None, None, None)


# --- case names -----------------------------------------------------------------------------

VERSUS = re.compile(r"[vV](?<=\s[vV])(?:s\.?|S\.?|/s\.?|ersus|ERSUS|\.)?(?=\s)")
SUPRA = re.compile(r"\((?:supra|Supra|SUPRA)\)|(?:supra|Supra)(?![A-Za-z])")
IBID = re.compile(r"\((?:ibid|Ibid|IBID)\.?\)|\((?:id|Id)\.\)|(?:ibid|Ibid|IBID)(?![A-Za-z])\.?"
                  r"|(?:id|Id)\.(?![A-Za-z0-9])")
ID_LEAD = re.compile(r"(?:^|[(\[.;:\n\"”]|(?:^|\s)(?:see|See|also))\s{0,3}$")
MAX_SUPRA_WORDS = 6  # words of a party name written before "supra"
# "ibid" refers to the citation just before it; one further back than this is most likely
# about a book or statute cited in between, which the extractor does not see.
IBID_WINDOW = 1000
WORD = re.compile(r"\S+")
SPACE = re.compile(r"\s")
QUOTES = "\"'“”‘’`"
EDGE = QUOTES + "()[],;:"
CONNECTORS = {"of", "and", "&", "the", "for", "@", "alias", "de", "da", "del", "van", "von",
              "bin", "binti", "d/o", "s/o", "w/o", "by", "through", "thr.", "thr", "etc.", "etc",
              "in", "on", "at", "ors.", "ors", "anr.", "anr", "others", "another", "lrs", "lrs.",
              "&ors.", "&anr.", "&ors", "&anr", "(dead)", "(d)", "(deceased)", "to",
              "-", "–", "—"}  # "Iffco – Tokio General Insurance"
# Capitalised words that open a sentence or clause rather than a party name.
LEFT_STOP = {"in", "see", "also", "cf", "cf.", "vide", "but", "following", "relying",
             "referring", "similarly", "thus", "again", "further", "however", "moreover",
             "therefore", "hence", "accordingly", "recently", "earlier", "later", "then", "now",
             "here", "there", "when", "where", "while", "since", "as", "unlike", "like", "per",
             "applying", "citing", "quoting", "distinguishing", "considering", "interpreting",
             "on", "at", "from", "with", "without", "after", "before", "under", "our", "their",
             "his", "her", "it", "its", "we", "they", "he", "she", "i", "a", "an", "this",
             "that", "these", "those", "judgment", "decision", "case", "if", "is", "was",
             "held", "whereas", "both", "same", "cited", "decided", "reported", "approved",
             "overruled", "followed", "so", "yet", "although", "though", "because", "by"}
RIGHT_STOP = {"this", "the", "in", "it", "he", "she", "we", "they", "there", "here", "that",
              "where", "when", "wherein", "which", "who", "whereby", "as", "but", "held",
              "see", "supra", "ibid", "ibid.", "id.", "air", "scc", "scr", "jt", "insc", "indlaw",
              "scale", "a.i.r.", "s.c.c.", "s.c.r.", "itr", "ilr", "i.l.r.", "also", "however",
              "a", "an", "at",
              "para", "paras", "page", "on", "is", "was", "has", "had", "for",
              "reported", "decided", "civil", "criminal", "appeal", "writ", "no.", "nos.", "slp",
              "dated", "judgment", "order"}
ABBREVIATIONS = {"ltd", "pvt", "co", "corpn", "corp", "bros", "govt", "deptt", "dept", "inc",
                 "anr", "ors", "smt", "shri", "sri", "dr", "mr", "mrs", "ms", "st", "jr", "sr",
                 "mfg", "assn", "asstt", "asst", "secy", "commr", "dist", "distt", "admn",
                 "addl", "spl", "nat", "etc", "prop", "engg", "mkt", "regd", "soc", "ind", "ins",
                 "rly", "mun", "mpl", "no", "nos", "thr", "lrs", "kum", "kr", "coop", "transp",
                 "dev", "edn", "agri", "instt", "univ", "hon", "sec", "jt", "dy", "supdt",
                 "collr", "cwt", "cit", "ito", "cst", "stc", "mahant", "sh", "commnr", "mfrs",
                 "opp", "res", "vill", "tah", "teh", "m/s", "s/o", "d/o", "w/o", "rep", "mohd",
                 "cdr", "wg", "lt", "col", "capt", "maj", "brig", "brg", "sqn", "ldr", "flt",
                 "genl", "hon'ble", "hon’ble", "cen", "exc", "cus", "adm", "admr", "mgmt", "mgt",
                 "estt", "insp", "supt", "div", "divl", "regl", "dir", "gen", "hqrs", "assoc",
                 "asso", "instn", "auth", "cttee", "fin", "elec", "tpt", "edu", "educ",
                 "tech", "sci", "med", "hosp", "pharma", "chem", "natl", "intl", "mgr", "inst",
                 "pty",  # "Reckitt Benckiser Australia Pty. Ltd."
                 "infn", "tvl",  # "Govt. Infn. & Tourism Dept.", Tamil "Tvl." of a firm
                 "sou",  # Marathi "Sou." (Saubhagyavati): "Prakash Dubal v. Sou. Meena"
                 # inside the registry's party names ("Hindustan Spinning & Wvg. M. Ltd.")
                 "mis", "co-op", "prof", "asson", "rev", "mst", "thru", "sau", "spg", "tmt",
                 "assti", "inds", "pte", "hsg", "plc", "fed", "fedn", "inv", "comm", "wvg",
                 "const", "acq", "acqn", "adv", "emps", "indus", "indust", "coprn", "princl",
                 "build", "bldg", "bldrs", "fert"}
ROMAN_CONTEXT = {"part", "chapter", "schedule", "order", "article", "form", "appendix", "table",
                 "class", "list", "grade", "standard", "annexure", "section", "volume", "vol.",
                 "book", "title", "division", "phase", "sector", "block", "ward"}
GENERIC_NAMES = {"court", "high", "supreme", "act", "section", "bench", "judgment", "case",
                 "tribunal", "the", "this", "said", "full", "division", "constitution", "state",
                 "learned", "counsel", "judge", "rule", "article", "order", "para", "above"}
MAX_LEFT = 10
MAX_RIGHT = 12
GAP_TO_REPORTER = re.compile(  # a closing quote may end the name; a full stop or a stray
    # second one, before "(" or "," ("and Ors ., 2006", "Ltd .., 2016")
    r"(?:\s?\.{1,2}(?=\s{0,2}[(\[]|[,;]))?[\s,;:(\[\-–—\"'”’]{0,6}"
    r"(?:(?:(?:since\s{1,2})?reported\s{1,2}(?:in|at|as)|in|at|cited\s{1,2}"
    r"(?:in|as))\s{1,2})?[\s,;:(\[\-–—]{0,4}"
)
PARALLEL_GAP = re.compile(r"[\s,;:=&\])(\[]{0,6}")


def _core(tok: str) -> str:
    return tok.strip(EDGE)


def _is_abbreviation(word: str) -> bool:
    bare = word.rstrip(".")
    return ("." in bare or len(bare) <= 2 or bare.lower() in ABBREVIATIONS
            or bare.lower().lstrip("&") in ABBREVIATIONS)


def _sentence_final(tok: str) -> bool:
    """'Maharashtra.' closes a sentence; 'Ltd.', 'U.P.' and 'K.M.' do not."""
    core = tok.rstrip(QUOTES + ")]")
    return core.endswith(".") and not _is_abbreviation(_core(core))


def _capital(word: str) -> bool:
    return bool(word) and (word[0].isupper() or word.lower().startswith("m/s"))


class _Words:
    """The text's words, each found once, block by block as the scans reach them: the party
    scans around every "v." read them by index (re-tokenising a window around each "v." cost
    seconds per MB of dense text, and tokenising all of a long judgment for its few names
    would cost more than it saves)."""

    BLOCK = 1024

    def __init__(self, text: str) -> None:
        self.text = text
        self._blocks: dict[int, tuple[list[int], list[int]]] = {}

    def _block(self, k: int) -> tuple[list[int], list[int]]:
        """Starts and ends of the words that start in block `k` (the last may run past it)."""
        found = self._blocks.get(k)
        if found is None:
            text, lo, hi = self.text, k * self.BLOCK, (k + 1) * self.BLOCK
            if hi < len(text) and not text[hi - 1].isspace():  # let the last word end
                space = SPACE.search(text, hi)
                hi = space.start() if space else len(text)
            spans = [m.span() for m in WORD.finditer(text, lo, hi)]
            if spans and lo > 0 and spans[0][0] == lo and not text[lo - 1].isspace():
                del spans[0]  # the rest of a word that starts in the block before
            found = self._blocks[k] = ([start for start, _ in spans], [end for _, end in spans])
        return found

    def before(self, pos: int, floor: int) -> Iterator[tuple[int, int, str]]:
        """Words ending by `pos`, nearest first, cut at `floor` (a word running across it is
        read from `floor` on, as a scan of text[floor:pos] would read it)."""
        text = self.text
        for k in range(max(pos - 1, 0) // self.BLOCK, -1, -1):
            starts, ends = self._block(k)
            for i in range(bisect_right(ends, pos) - 1, -1, -1):
                end = ends[i]
                if end <= floor:
                    return
                start = starts[i]
                if start < floor:
                    yield floor, end, text[floor:end]
                    return
                yield start, end, text[start:end]
            if k * self.BLOCK <= floor:  # only a word begun in the block before can remain
                starts, ends = self._block(k - 1) if k else ([], [])
                if ends and min(ends[-1], pos) > floor:
                    yield floor, min(ends[-1], pos), text[floor:min(ends[-1], pos)]
                return

    def after(self, pos: int, limit: int) -> Iterator[tuple[int, int, str]]:
        """Words starting at or after `pos`, cut at `limit` likewise."""
        text = self.text
        for k in range(pos // self.BLOCK, (min(len(text), limit) - 1) // self.BLOCK + 1):
            starts, ends = self._block(k)
            for i in range(bisect_left(starts, pos), len(starts)):
                start = starts[i]
                if start >= limit:
                    return
                end = min(ends[i], limit)
                yield start, end, text[start:end]


@lru_cache(maxsize=1 << 16)
def _facts(tok: str) -> tuple[str, str, bool, bool]:
    """A word's core, its lower case, whether it ends a sentence and whether it holds a digit:
    names repeat, so each distinct word is read once."""
    core = tok.strip(EDGE)
    return core, core.lower(), _sentence_final(tok), DIGIT.search(core) is not None


class _LeftWord(NamedTuple):
    """What the petitioner scan needs to know of a word, worked out once per distinct word."""

    low: str  # lower-case core
    held: bool  # a stop word that a name word before it keeps ("Ail Was v.", "(D) By Lrs.")
    stop: bool  # never part of a name: a sentence opener, a digit, a separator
    closes: bool  # ends a clause, so no name runs on to the left of it
    name_like: bool  # capitalised, or a connector ("of", "&", "M/s")
    opens: bool  # an opening bracket or quote: the name starts here
    keeps_held: bool  # a name word that makes a capitalised stop word after it part of the name


@lru_cache(maxsize=1 << 16)
def _left_word(tok: str) -> _LeftWord:
    core, low, final, digit = _facts(tok)
    closes = tok[-1] in ",;:]" or final
    tag = PARTY_TAG.fullmatch(tok) is not None
    return _LeftWord(
        low,
        held=(low in MID_NAME_STOP and core[0].isupper() and not closes) or low == "by",
        # a capital "V." here is an initial ("K. V. Rao"): no separator
        stop=not tag and (not core or low in LEFT_STOP or digit
                          or (low in VERSUS_WORDS and core not in ("V", "V."))),
        closes=closes,
        name_like=bool(core) and (core[0].isupper() or low in CONNECTORS or tag
                                  or low.startswith(("&", "m/s", "@")) or _bracketed(tok)),
        opens=tok[0] in OPENERS and tok[-1] not in ")]" and not (
            tok[0] == "(" and ")" in tok),  # "(DEAD)THROUGH Lrs.": closed within the word
        keeps_held=bool(core) and core[0].isupper() and low not in LEFT_STOP
        and low not in VERSUS_WORDS and low not in GENERIC_NAMES and not digit and not closes)


SHORT_FORM_WORDS = {"supra", "ibid", "id"}
# words a bracket inside a name may hold: "State (Govt. of NCT of Delhi)", "Zee Telefilms Ltd.
# (Now Known As Zee Entertainment Enterprises Ltd.)"
BRACKET_WORDS = 10
# a bracketed tag inside a party's name: a party's letter ("Indian National Congress (I)") or
# an accused's number ("Suresh (A-2)")
PARTY_TAG = re.compile(r"\((?:[A-Z]|[A-Z]-?[0-9]{1,2})\),?")


def _bracketed(tok: str) -> bool:
    """'(dead)', '(India)', '(P)': one bracketed word inside a party's name, whatever its case;
    not '(supra)', '(ibid)' or '(1991)'."""
    inner = tok.rstrip(",;:")
    return (len(inner) > 2 and inner[0] == "(" and inner[-1] == ")"
            and inner[1:-1].isalpha() and inner[1:-1].lower() not in SHORT_FORM_WORDS)


def _left_party(words: _Words, pos: int, floor: int) -> tuple[int, int] | None:
    """Span of the petitioner ending before `pos` (the space before "v."), not before `floor`
    (the end of the case name before it: "A v. B and C v. D")."""
    text = words.text
    taken: list[tuple[int, int, str, str]] = []  # (start, end, token, lower-case core)
    prev_start = pos
    pending = None  # a capitalised stop word ("Ail Was v."): a name word before it keeps it
    number = None  # a unit's number just before "v." ("Income Tax 14 v."): kept the same way
    bracket: list[tuple[int, int, str, str]] | None = None  # "Maharashtra)": read back to "("
    for tok_start, tok_end, tok in words.before(pos, max(floor, pos - 24 * MAX_LEFT)):
        if len(taken) >= MAX_LEFT or (prev_start - tok_end > 1
                                      and "\n\n" in text[tok_end:prev_start]):
            break
        if tok == "." and not taken and pending is None:
            prev_start = tok_start  # "and Anr . v.": a full stop set apart
            continue
        if bracket is None and pending is None and tok[-1] == ")" and "(" not in tok:
            bracket = []  # the last word of a bracket of several: "(South Maharashtra) Ltd."
        if bracket is not None:
            if DIGIT.search(tok) or len(bracket) >= BRACKET_WORDS or (
                    tok[0] == "(" and tok[1:].lower() in SHORT_FORM_WORDS):
                break
            bracket.append((tok_start, tok_end, tok, _core(tok).lower()))
            if tok[0] == "(":
                taken.extend(bracket)
                bracket = None
                prev_start = tok_start
            continue
        word = _left_word(tok)
        if number is not None:
            if not word.keeps_held or word.low not in NUMBERED_UNITS:
                break  # "A. K. Gopalan 571 v.": a report's page in the text, not a party's
            taken.append(number)
            number = None
        elif not taken and pending is None and UNIT_NUMBER.fullmatch(tok):
            number = (tok_start, tok_end, tok, tok.lower())
            prev_start = tok_start
            continue
        if pending is not None:  # "by" only after "(D)" or "Rep.": "Gaya Din (D) By Lrs. v."
            if not (word.low in DECEASED | REPRESENTED if pending[3] == "by"
                    else word.keeps_held):
                break
            taken.append(pending)
            pending = None
        if word.held:
            pending = (tok_start, tok_end, tok, word.low)
            prev_start = tok_start
            continue
        if word.stop or not word.name_like or (taken and word.closes and not all(
                low in ETCS for *_, low in taken)):  # "Madras, Etc. v.": read on over ","
            break
        taken.append((tok_start, tok_end, tok, word.low))
        prev_start = tok_start
        if word.opens:
            break
    _trim_left_edge(taken)
    if not taken:
        return None
    first = taken[-1]
    start = first[0] + (len(first[2]) - len(first[2].lstrip(EDGE)))
    last = taken[0]
    end = last[1] - (len(last[2]) - len(last[2].rstrip(QUOTES + ",;:")))
    return (start, end) if start < end else None


def _trim_left_edge(taken: list[tuple[int, int, str, str]]) -> None:
    """Drop what cannot open a petitioner's name from its start (the end of `taken`): a
    connector, a small word, the rest of a bracket whose "(" went, or a whole bracket, which is
    an aside about what came before ("(Raj Deo Sharma- I) and Raj Deo Sharma (II) v.")."""
    while taken:
        tok = taken[-1][2]
        inner = tok.rstrip(",;:")
        if tok[0] == "(" and (")" not in inner or inner.endswith(")")):  # not "(DEAD)THROUGH"
            closing = next((i for i in range(len(taken) - 1, -1, -1)
                            if taken[i][2].rstrip(",;:").endswith(")")), None)
            if closing is None:
                return  # "(Ram v. Shyam)": the bracket opens the name
            del taken[closing:]
        elif (taken[-1][3] in CONNECTORS or not _capital(tok.strip(EDGE))
              or tok.count(")") > tok.count("(")):
            taken.pop()
        else:
            return


# Stop words that, capitalised between two words of a name, belong to it ("M/S. Ail Was v.",
# "Ram As Singh"), as a sentence opener or a clause's first word ("In", "See", "Following")
# never does.
MID_NAME_STOP = {"as", "on", "at", "our", "their", "his", "her", "it", "its", "a", "an", "is",
                 "was", "both", "same", "like", "here", "there"}
DECEASED = {"d", "dead", "deceased"}  # "(D) By Lrs.": a party died, his heirs stand in
REPRESENTED = {"rep.", "rep", "represented"}  # "Annamalai University Rep. by Registrar v."
ETCS = {"etc", "etc."}


DIGIT = re.compile(r"[0-9]")
# the words a petitioner's number may follow, as the registry's titles print them ("Commissioner
# of Income Tax 14 v.", "Bombay City 1", "Circle 2(1)"); after any other, a number before "v."
# is a report's page or a footnote the text carries
NUMBERED_UNITS = {"tax", "circle", "ward", "range", "city", "zone", "division", "unit",
                  "region", "central", "officer", "bench"}
# a unit's number: two digits at most ("Section 302 v." is no party), a sub-number, or a
# designator ("Range-1", "R1")
UNIT_NUMBER = re.compile(r"[0-9]{1,2}(?:\([0-9]{1,2}\))?|[A-Za-z()]{1,15}-[0-9]{1,3}"
                         r"|[A-Za-z][0-9]{1,2}")
FOOTNOTE = re.compile(r"([^\s()\[\]]+)\([0-9]{1,2}\)[.,;:]?$")
OPENERS = "([" + QUOTES
VERSUS_WORDS = {"v", "v.", "vs", "vs.", "versus", "v/s", "v/s."}
PARTY_TAIL = {"ors.", "anr.", "ors", "anr", "others", "another", "lrs", "lrs.", "&ors.", "&anr.",
              "&ors", "&anr"}
TRAILING_CONNECTORS = CONNECTORS - PARTY_TAIL


# Reporter abbreviations stop a name as printed ("AIR", "S.C.C."), not as words ("Air Cargo").
REPORTER_STOP = {"air", "scc", "scr", "jt", "insc", "indlaw", "scale", "a.i.r.", "s.c.c.",
                 "s.c.r.", "itr", "ilr", "i.l.r."}
# "the" inside a name: "State Represented Through the Inspector of Police", "Rep. by the"; and
# "National Federation of the Blind", though not "of the Court" (`GENERIC_NAMES`)
BEFORE_INNER_THE = {"through", "thr", "thr.", "tr.", "by", "rep.", "represented",
                    "under",  # "Custodian Appointed Under the Special Court"
                    "m/s", "m/s."}  # "M/S. the Britannia Biscuits Co. Ltd."
#: what "Civil" or "Criminal" opens after a name, ending it: "Civil Appeal No. 12"
PROCEEDINGS = {"appeal", "appeals", "appellate", "writ", "misc", "miscellaneous", "revision",
               "petition", "petitions", "original", "suit", "no", "nos", "case", "cases",
               "reference", "side", "application", "jurisdiction", "proceedings", "p"}
CAPITAL_NEXT = re.compile(r"\s{1,2}[A-Z]")


def _stops_right(core: str, low: str, prev: str, text: str, end: int) -> bool:
    """Whether a word after the first of a respondent's name ends the name."""
    if low not in RIGHT_STOP and low.rstrip(".") not in RIGHT_STOP:
        return False
    if len(core.rstrip(".")) == 1 and core[0].isupper():
        return False  # an initial: "Dr. A. Kriplani", not the article
    if low in REPORTER_STOP and not core.isupper():
        return False
    if low in ("at", "for") and prev[:1].isalpha() and CAPITAL_NEXT.match(text, end):
        return False  # "High Court of Manipur at Imphal", "High Court of Judicature for"
    if low in ("civil", "criminal") and _word_after(text, end).lower().strip(
            EDGE + ".") not in PROCEEDINGS:
        return False  # "People's Union for Civil Liberties", not "Civil Appeal No. 12"
    if low != "the" or not CAPITAL_NEXT.match(text, end):
        return True
    return not (prev in BEFORE_INNER_THE or (
        prev == "of" and _word_after(text, end).lower().strip(EDGE) not in GENERIC_NAMES))


class _RightWord(NamedTuple):
    """What the respondent scan needs to know of a word, worked out once per distinct word."""

    core: str
    low: str  # lower-case core
    footnote: str | None  # the name word of "India(1)", a footnote mark after it
    versus: bool  # "v.", "vs.": the next name's (a capital "V." is an initial)
    ends_scan: bool  # no name word: a digit, "supra", no core
    may_stop: bool  # a word `_stops_right` may stop at, in context
    capital: bool  # capitalised, or "M/s"
    name_like: bool  # capitalised, or a connector ("of", "&", "@")
    depth: int  # brackets it opens, less those it closes
    closes: bool  # ends a clause, a quotation or a sentence: the name ends with it


@lru_cache(maxsize=1 << 16)
def _right_word(tok: str) -> _RightWord:
    core, low, final, digit = _facts(tok)
    footnote = FOOTNOTE.match(tok) if ")" in tok and "(" in tok[1:] else None
    capital = bool(core) and (core[0].isupper() or low.startswith("m/s"))
    return _RightWord(
        core, low,
        footnote=footnote.group(1) if footnote and _capital(footnote.group(1)) else None,
        versus=low in VERSUS_WORDS and core not in ("V", "V."),
        ends_scan=not core or (digit and not PARTY_TAG.fullmatch(tok))
        or low in ("supra", "ibid", "citation", "citator"),
        may_stop=low in RIGHT_STOP or low.rstrip(".") in RIGHT_STOP,
        capital=capital,
        name_like=bool(core) and (capital or low in CONNECTORS or low[0] in "&@"),
        depth=tok.count("(") - tok.count(")"),
        closes=tok[-1] in ",;:]" or tok[-1] in QUOTES or final)


def _right_party(words: _Words, pos: int, title: bool) -> tuple[int, int] | None:
    """Span of the respondent starting after `pos`.

    In a title line (`title`: the name opens its line) the respondent ends with the line.
    """
    text = words.text
    taken: list[tuple[int, int, str, str]] = []  # (start, end, token, lower-case core)
    prev_end = pos
    depth = 0
    for tok_start, tok_end, tok in words.after(pos, pos + 24 * MAX_RIGHT):
        if len(taken) >= MAX_RIGHT or (tok_start - prev_end > 1 and (
                "\n\n" in text[prev_end:tok_start]
                or (title and "\n" in text[prev_end:tok_start]))) or (
                title and text[prev_end:tok_start] == "\n"):
            break
        word = _right_word(tok)
        if word.footnote is not None:  # "Union of India(1)"
            taken.append((tok_start, tok_start + len(word.footnote), word.footnote,
                          word.footnote.lower()))
            break
        if word.versus:  # "A v. B and C v. D": give "C"
            # back to the next name; a capital "V." is an initial ("v. V. Gopalan")
            joins = [i for i, t in enumerate(taken) if t[3] in ("and", "&") and (
                i + 1 == len(taken) or taken[i + 1][3] not in PARTY_TAIL)]
            del taken[joins[-1] if joins else max(len(taken) - 1, 0):]
            break
        if tok == "." and taken and taken[-1][3] in CONNECTORS and CAPITAL_NEXT.match(
                text, tok_end):
            continue  # "Central Excise and . Customs": a stray full stop
        if word.ends_scan:
            break
        if taken and word.may_stop and _stops_right(word.core, word.low, taken[-1][3], text,
                                                    tok_end):
            break
        if not word.name_like or (not taken and not word.capital and word.low != "the"):
            break
        depth += word.depth
        taken.append((tok_start, tok_end, tok, word.low))
        prev_end = tok_end
        if depth < 0:  # closes a bracket opened before the name: "(X v. Y)"
            break
        if word.closes and not _possessive(tok, text, tok_end):
            break
    while taken and (taken[-1][3] in TRAILING_CONNECTORS
                     or not (_capital(taken[-1][2].strip(EDGE)) or taken[-1][3] in CONNECTORS)):
        taken.pop()
    if not taken:
        return None
    first = taken[0]
    start = first[0] + (len(first[2]) - len(first[2].lstrip(QUOTES + "([")))
    last = taken[-1]
    trimmed = last[2].rstrip(QUOTES + ",;:]")
    if trimmed.endswith(")"):
        opened = sum(t[2].count("(") for t in taken)
        closed = sum(t[2].count(")") for t in taken)
        while trimmed.endswith(")") and closed > opened:
            trimmed = trimmed[:-1]
            closed -= 1
    if trimmed.endswith(".") and _sentence_final(trimmed):
        trimmed = trimmed[:-1]
    end = last[0] + len(trimmed)
    return (start, end) if start < end else None


def _possessive(tok: str, text: str, end: int) -> bool:
    """A plural's apostrophe inside a party's name, not a closing quote: "Employees' Union",
    "Retirees’ Welfare Association"."""
    return len(tok) > 3 and tok[-1] in "'’" and tok[-2] in "sS" and bool(
        CAPITAL_NEXT.match(text, end))


def _case_names(words: _Words, reporter_ends: list[int]) -> list[CaseCitation]:
    """Names around each "v.", every test made as soon as what it reads is known, so dense
    text that is not a name ("K. V. Rao", "Court v. ...") costs as little scanning as can be
    (`words` are read only around a "v." worth reading around). A petitioner never reaches
    back over a reporter citation (`reporter_ends`, sorted): "(1990) 2 SCC 14 v." is a page,
    not a party's number."""
    text = words.text
    out: list[CaseCitation] = []
    last_end = 0
    for m in VERSUS.finditer(text):
        vs_start, vs_end = m.span()
        if vs_start < last_end:
            continue
        i = bisect_right(reporter_ends, vs_start) - 1
        floor = max(last_end, reporter_ends[i]) if i >= 0 else last_end
        # A capital "V." is a party separator only in an all-capitals title on one line, not
        # an initial ("RAMASWAMI, V.", "K. V. Rao") or a numeral ("Part V of").
        capital = m.group() in ("V", "V.")
        if capital and (text[vs_end:vs_end + 1] != " " or text[vs_end + 1:vs_end + 2] in "(["):
            continue
        # the cheap tests first: "v. v. v.", "the v. the", "K. V. Rao" end here
        before = _word_before(text, vs_start - 1, floor)
        if not _could_be_party(before, True) or (capital and before.upper() != before):
            continue
        after = _word_after(text, vs_end)
        if not _could_be_party(after, False) or (capital and after.upper() != after):
            continue
        left = _left_party(words, vs_start - 1, floor)
        if left is None:
            continue
        pet = text[left[0]:left[1]]
        pet_core = _core(pet).lower()
        if (capital and not _roman_petitioner_ok(pet)) or (
                pet_core in GENERIC_NAMES and pet_core != "state"):
            continue  # "Court v. ...", not "State v. Bachan Singh"
        title = left[0] == 0 or text[left[0] - 1] == "\n"
        right = _right_party(words, vs_end, title)
        if right is None:
            continue
        resp = text[right[0]:right[1]]
        resp_core = _core(resp).lower()
        if (capital and resp.upper() != resp) or (
                resp_core in GENERIC_NAMES and (resp_core != "state" or pet_core == "state")):
            continue  # "... v. Court", "State v. State", not "Bachan Singh v. State"
        name = text[left[0]:right[1]]
        out.append(CaseCitation(left[0], right[1], name, CASE_NAME, None, None, None, None, None,
                                False, case_name_key(name), name, pet, resp))
        last_end = right[1]
    return out


def _word_before(text: str, pos: int, floor: int) -> str:
    lo = max(floor, pos - 40, 0)
    k = max(text.rfind(" ", lo, pos), text.rfind("\n", lo, pos), lo - 1)
    if text[k + 1:pos] == "." and k > lo:  # "and Anr . v.": the word before the full stop
        pos, lo = k, max(floor, k - 40, 0)
        k = max(text.rfind(" ", lo, pos), text.rfind("\n", lo, pos), lo - 1)
    return text[k + 1:pos]


def _word_after(text: str, pos: int) -> str:
    hi = min(len(text), pos + 41)
    start = pos + 1
    ends = [i for i in (text.find(" ", start, hi), text.find("\n", start, hi)) if i >= 0]
    return text[start:min(ends) if ends else hi]


@lru_cache(maxsize=1 << 16)
def _could_be_party(word: str, left: bool) -> bool:
    if PARTY_TAG.fullmatch(word):
        return True
    core = _core(word)
    if not core:
        return False
    low = core.lower()
    if (low in VERSUS_WORDS and core not in ("V", "V.")) or (
            left and low in LEFT_STOP and not (low in MID_NAME_STOP and core[0].isupper())):
        return False  # a capital "V." may be an initial, "Was" a word of a name
    return (core[0].isupper() or low.startswith(("m/s", "&", "@")) or low in CONNECTORS
            or (left and word.rstrip(",;:")[-1:] == ")" and core.isalpha()
                and low not in SHORT_FORM_WORDS)  # "Ram Lal (since deceased) v."
            or (left and UNIT_NUMBER.fullmatch(word) is not None))  # "Income Tax 14 v."


def _roman_petitioner_ok(pet: str) -> bool:
    """Before a capital 'V', an all-capitals petitioner not ending in a comma or in a word that
    takes a numeral ('Part V of')."""
    words = pet.split()
    return bool(words) and words[-1].lower() not in ROMAN_CONTEXT and not pet.endswith(",") \
        and pet.upper() == pet


class _ShortRef(NamedTuple):
    """A short form as written, before it is matched to the citation it refers to."""

    start: int
    end: int
    form: str  # "supra" | "ibid" | "id."
    name: str | None  # the party name written before "supra"


def _supra_refs(text: str, taken: list[tuple[int, int]]) -> list[_ShortRef]:
    """'Maneka Gandhi (supra)', "Nanavati's case (supra)": short names cited earlier."""
    out = []
    covered = iter(sorted(taken))
    span = next(covered, None)
    for m in SUPRA.finditer(text):
        pos = m.start()
        while span is not None and span[1] < pos - 4:
            span = next(covered, None)
        if span is not None and span[0] <= pos <= span[1] + 4:
            continue
        end = pos
        while end > 0 and text[end - 1] in " ,":
            end -= 1
        tokens = tokens_before(text, end, max(0, end - 160), WORD)
        first = next(tokens, None)
        if first is None:
            continue
        if first[2].lower().strip(",") != "case":  # "Nanavati's case (supra)"
            tokens = chain([first], tokens)
        words: list[tuple[int, int, str]] = []
        for tok in islice(tokens, MAX_SUPRA_WORDS):
            core = _core(tok[2])
            low = core.lower()
            if (not core or any(c.isdigit() for c in core) or low in LEFT_STOP
                    or (words and (tok[2].endswith((",", ";", ":")) or _sentence_final(tok[2])))):
                break
            if _capital(core) or (low in CONNECTORS and words):
                words.append(tok)
                continue
            break
        while words and _core(words[-1][2]).lower() in CONNECTORS:
            words.pop()
        if not words:
            continue
        start = words[-1][0] + (len(words[-1][2]) - len(words[-1][2].lstrip(EDGE)))
        last = words[0][2]
        stop = words[0][1] - (len(last) - len(last.rstrip(EDGE)))
        name = text[start:stop]
        if name.endswith(("'s", "’s")):
            name = name[:-2]
        if not name or all(w.lower().strip(EDGE) in GENERIC_NAMES for w in name.split()):
            continue
        out.append(_ShortRef(start, m.end(), "supra", name))
    return out


def _ibid_refs(text: str, spans: Iterable[tuple[int, int]]) -> list[_ShortRef]:
    """'Ibid., para 12', '(ibid)', 'Id. at 45', '(id.)', outside the citation `spans`.

    "id." counts only in brackets or where a sentence, clause or "see" opens before it, so
    that "the user id." is no citation; "paid." and "valid." fail the word boundary.
    """
    taken = Spans(spans)
    out = []
    for m in IBID.finditer(text):
        start, end = m.span()
        bracketed = text[start] == "("
        if not bracketed and start and (text[start - 1].isalnum() or text[start - 1] in
                                        "._-/@'’"):
            continue
        form = "id." if m.group().lstrip("(").lower().startswith("id") else "ibid"
        if form == "id." and not bracketed and not ID_LEAD.search(text, max(0, start - 12),
                                                                   start):
            continue
        if taken.overlaps(start, end):
            continue  # inside a citation: "ibid" as a party's word
        out.append(_ShortRef(start, end, form, None))
    return out


def _resolve_short_forms(text: str, full: list[CaseCitation],
                         refs: list[_ShortRef]) -> list[CaseCitation]:
    """One citation per short form: a copy of the citation it refers to, at its own span."""
    out: list[CaseCitation] = []
    parties: tuple[dict, dict] = ({}, {})  # petitioner / respondent word runs -> last citation
    last: CaseCitation | None = None  # the citation just before: what "ibid" refers to
    prev_name = None
    i = 0
    for ref in sorted(refs):
        while i < len(full) and full[i].start < ref.start:
            cite = last = full[i]
            # Parallel citations share a name: the first of them stands for the case.
            if cite.case_name and cite.case_name != prev_name:
                _index_parties(cite, parties)
            prev_name = cite.case_name
            i += 1
        if ref.form == "supra":
            words = tuple(_party_key(ref.name or "").split())
            target = parties[0].get(words) or parties[1].get(words)
        else:
            target = last if last is not None and last.end >= ref.start - IBID_WINDOW else None
        written = text[ref.start:ref.end]
        if target is None or target.kind == SHORT_FORM:
            name = ref.name or (target.case_name if target else None)
            last = CaseCitation(ref.start, ref.end, written, SHORT_FORM, None, None, None, None,
                                None, False, None, name, name, None, ref.form, None)
        else:
            last = _referring(target, ref, written)
        out.append(last)
    return out


def _referring(t: CaseCitation, ref: _ShortRef, written: str) -> CaseCitation:
    """`t` at the short form's span: dataclasses.replace would take twice as long, which
    counts in text dense with short forms."""
    return CaseCitation(ref.start, ref.end, written, t.kind, t.reporter, t.year, t.volume, t.page,
                        t.court, t.supplementary, t.key, t.case_name, t.petitioner, t.respondent,
                        ref.form, t.antecedent or (t.start, t.end))


def _index_parties(cite: CaseCitation, parties: tuple[dict, dict]) -> None:
    """Every run of words of each party's name, as a supra name could write it."""
    for index, party in zip(parties, (cite.petitioner, cite.respondent), strict=True):
        words = _party_key(party or "").split()
        for a in range(len(words)):
            for b in range(a + 1, min(len(words), a + MAX_SUPRA_WORDS) + 1):
                index[tuple(words[a:b])] = cite


# --- putting it together ------------------------------------------------------------------

def _attach_names(words: _Words, names: list[CaseCitation],
                  reporters: list[CaseCitation]) -> tuple[list[CaseCitation], list[CaseCitation]]:
    """Give 'X v. Y, AIR 1978 SC 597' (and its parallel citations) the name X v. Y, read up to
    the citation: a full citation is one unit, its names checked against the case it cites.

    The name scan stops at a comma or at "Etc.", which end a name cited alone; before a
    citation the name runs on over them ("Jarnail Singh v. Secretary, Ministry Of Home Affairs
    And Ors., 1992 INSC 327"), and its petitioner back over a comma inside its description
    ("Special Land Acquisition Officer, Kheda And Anr. Etc. v. ..."): `_runs_on`,
    `_reaches_left`."""
    if not names or not reporters:
        return names, reporters
    text = words.text
    starts = [c.start for c in reporters]
    count = len(starts)
    out_reporters = list(reporters)
    kept: list[CaseCitation] = []
    previous = 0  # where the name or citation before this name ends: a name never crosses it
    for name in names:
        j = bisect_left(starts, name.start) - 1
        floor = max(previous, reporters[j].end if j >= 0 else 0)
        previous = name.end
        end: int | None = name.end
        # the first citation at or after the name, found once: within the gap it is the name's
        # citation; further on, up to RUN_ON_CHARS, it may be, when the name runs on to it
        i: int | None = bisect_left(starts, end)
        first = starts[i] if i < count else -1
        if first < 0 or first > end + RUN_ON_CHARS:
            i = None
        elif first > end + GAP_REACH or first > GAP_TO_REPORTER.match(text, end).end():
            end = _runs_on(words, end, first)
        if i is None or end is None or out_reporters[i].case_name:
            kept.append(name)
            continue
        start = _reaches_left(words, name.start, floor)
        written = text[start:end]
        petitioner = text[start:name.start + len(name.petitioner or "")]
        respondent = text[name.end - len(name.respondent or ""):end]
        while i is not None and not out_reporters[i].case_name:
            out_reporters[i] = _named(out_reporters[i], written, petitioner, respondent, start)
            end = out_reporters[i].end
            i = _reporter_within(starts, end, PARALLEL_GAP.match(text, end).end())
    return kept, out_reporters


def _named(t: CaseCitation, name: str, petitioner: str, respondent: str,
           full_start: int) -> CaseCitation:
    """`t` with its full citation's names: dataclasses.replace, or even the frozen class's own
    __init__ (a guarded set per field), takes several times as long as copying its fields."""
    named = object.__new__(CaseCitation)
    named.__dict__.update(t.__dict__, case_name=name, petitioner=petitioner,
                          respondent=respondent, full_start=full_start)
    return named


# the longest text GAP_TO_REPORTER can match: a citation starting further on is not reached
GAP_REACH = 3 + 6 + len("since") + 2 + len("reported") + 2 + 2 + 2 + 4


RUN_ON_CHARS = 24 * MAX_RIGHT  # how far after a name's scan a citation may still be its
# ", Ministry ...", " Etc.", and ". & Ors." after a full stop ("Union of India. & Ors.", as
# the registry prints some titles)
RUN_ON_START = re.compile(r"(?:,|\.(?=\s{1,2}(?:&|and)\s{1,2}(?:Ors|Anr|Others|Another)\b))?"
                          r"\s{1,2}(?=\S)")
#: a number inside a party's description, after a word of it: "Circle 1", "Ward No. 12",
#: "Ward 1(2)", "1st Circle", and designators the registry's titles print ("Income Tax C-1",
#: "Commissioner of Income Tax-4", "Range-1", "R1"); never a year (four digits) or a page
#: after a comma
NAME_NUMBER = re.compile(r"(?:[A-Za-z()]{1,15}-)?\d{1,3}(?:\(\d{1,2}\))?|[A-Za-z]\d{1,2}"
                         r"|(?i:\d?(?:1st|2nd|3rd|[04-9]th)|1[1-3]th)")  # not OCR's "7nd"
# a name cited alone ends before these ("X v. Y Etc."); one read up to its citation keeps them
NAME_TAIL = frozenset({"etc", "etc.", "(d)", "(dead)", "(deceased)"})


def _runs_on(words: _Words, start: int, stop: int) -> int | None:
    """Where a name whose scan stopped at `start` ends when it runs on, in words a party's
    description has (capitalised, connectors, "Etc.", "(D) By Lrs."; commas between them),
    up to the citation at `stop`; None when another word comes between."""
    text = words.text
    lead = RUN_ON_START.match(text, start)
    if lead is None:
        return None
    end, prev = start, ""
    for n, (tok_start, tok_end, tok) in enumerate(words.after(lead.end(), stop)):
        word = _run_on_word(tok)
        if n >= MAX_RIGHT:
            break
        if word.digit:  # a party's number ("Income Tax Circle 1"), never a year or a page
            joined = prev or (n == 0 and "," not in lead.group())  # right after a name's word
            if not (joined and NAME_NUMBER.fullmatch(tok.rstrip(","))):
                break
            end, prev = tok_start + len(tok.rstrip(",")), tok
            continue
        if word.low:
            if not word.name_like or (word.may_stop and _stops_right(
                    word.core, word.low, prev, text, tok_end)):
                break
            if word.kept >= 0:
                end = tok_start + word.kept
            prev = word.low
        if word.closes:
            break
    reach = GAP_TO_REPORTER.match(text, end).end()
    return end if end > start and reach >= stop else None


class _RunOnWord(NamedTuple):
    """What `_runs_on` needs to know of a word, worked out once per distinct word."""

    core: str
    low: str  # lower-case core: empty when the word has none (a stray ".")
    digit: bool  # holds a digit: the run ends before it
    name_like: bool  # capitalised, a connector, "(dead)"
    may_stop: bool  # a word `_stops_right` may stop at, in context
    kept: int  # how much of the word the name keeps (quotes, a comma, a full stop trimmed), or
    # -1 when it takes the word only if one after it is kept ("of", "and")
    closes: bool  # ends a sentence or clause: the run ends with it


@lru_cache(maxsize=1 << 16)
def _run_on_word(tok: str) -> _RunOnWord:
    core, low, final, digit = _facts(tok)
    bare = tok.lower().rstrip(",")  # "(dead)", whose core is "dead"
    trimmed = tok.rstrip(QUOTES + ",;:")
    if final and trimmed.endswith("."):
        trimmed = trimmed[:-1]
    return _RunOnWord(
        core, low, digit,
        name_like=bool(core) and (_capital(core) or low in CONNECTORS or bare in CONNECTORS
                                  or low[0] in "&@"),
        may_stop=low in RIGHT_STOP or low.rstrip(".") in RIGHT_STOP,
        kept=len(trimmed) if low not in TRAILING_CONNECTORS or bare in NAME_TAIL else -1,
        closes=final or tok[-1] in ";:")


def _reaches_left(words: _Words, start: int, floor: int) -> int:
    """Where a petitioner starts whose scan stopped at a comma inside its description
    ("Special Land Acquisition Officer, Kheda"): back over capitalised words and connectors
    to a word no name has, never before `floor` (the end of the name or citation before it);
    `start` when none is before the comma, or when a word of the run is one a party name is
    not ("Court", "Bench": "The Full Bench, X v. Y")."""
    tokens = words.before(start, max(floor, start - 24 * MAX_LEFT))
    first = next(tokens, None)
    if first is None or not first[2].endswith(","):
        return start
    begin = start
    for n, (tok_start, _, tok) in enumerate(chain((first,), tokens)):
        word = _left_word(tok)
        if (n >= MAX_LEFT or word.stop or word.held or not word.name_like or word.low == "the"
                or (word.closes and not tok.endswith(","))):
            break
        if word.low in GENERIC_NAMES and word.low != "state":
            return start
        if _capital(tok.lstrip(EDGE)):
            begin = tok_start + len(tok) - len(tok.lstrip(EDGE))
        if word.opens:
            break
    return begin


def _reporter_within(starts: list[int], lo: int, hi: int) -> int | None:
    """Index of the first reporter citation starting in [lo, hi]."""
    i = bisect_left(starts, lo)
    return i if i < len(starts) and starts[i] <= hi else None


_SPAN = attrgetter("start", "end")  # the order citations are given in


def extract_case_citations(text: str) -> list[CaseCitation]:
    """Every case citation in `text`, in order of appearance."""
    if not text:
        return []
    reporters = [_citation(text, r) for r in _find_reporters(text)]
    masks = [CaseCitation(m.start(), m.end(), m.group(), MASKED, None, None, None, None, None,
                          False, None, None, None, None) for m in MASK.finditer(text)]
    words = _Words(text)
    names, reporters = _attach_names(words, _case_names(words, sorted(r.end for r in reporters)),
                                     reporters)
    full = sorted([*reporters, *masks, *names], key=_SPAN)
    refs = _supra_refs(text, [(c.start, c.end) for c in chain(names, reporters)])
    refs += _ibid_refs(text, [(c.start, c.end) for c in chain(full, refs)])
    if not refs:
        return full
    return sorted([*full, *_resolve_short_forms(text, full, refs)],
                  key=_SPAN)


def parse_case_citation(raw: str) -> CaseCitation | None:
    """One citation string (a judgment header's 'AIR 1974 SC 1389'), or None if unreadable."""
    found = extract_case_citations(raw)
    for kind in (NEUTRAL, REPORTER, MASKED, CASE_NAME):
        for citation in found:
            if citation.kind == kind:
                return citation
    return None


HONORIFICS = {"smt", "shri", "sri", "shrimati", "dr", "mr", "mrs", "ms", "kumari", "km", "kum",
              "late", "the", "thiru", "tmt", "sh", "m/s", "messrs"}
TAIL = {"ors", "others", "anr", "another", "etc", "and", "other", "or", "lrs", "&"}
# Longest separator first, so the initial in "K. V. Rao vs. State" is not taken for "v.".
SPLITS = [re.compile(p, re.IGNORECASE) for p in
          (r"\sversus\s", r"\svs\.?\s", r"\sv/s\.?\s", r"\sv\.?\s")]
MESSRS = re.compile(r"\bm\s?/\s?s\b\.?", re.IGNORECASE)  # "M/s.", a firm's prefix
CANON_WORDS = {"limited": "ltd", "private": "pvt", "corporation": "corpn", "company": "co",
               "government": "govt", "brothers": "bros"}


@lru_cache(maxsize=8192)
def case_name_key(name: str) -> str:
    """Key for matching a case name across sources: honorifics, '& Ors.', case and
    punctuation dropped, and 'v'/'vs'/'versus' unified ('maneka gandhi v union of india')."""
    text = " " + MESSRS.sub(" ", name).strip() + " "
    sides = [text]
    for split in SPLITS:
        sides = split.split(text, maxsplit=1)
        if len(sides) == 2:
            break
    keys = [_party_key(side) for side in sides]
    return " v ".join(keys)


def party_key(party: str) -> str:
    """One party's part of `case_name_key`: `party_key(a) + " v " + party_key(b)` is the key of
    "a v. b"."""
    return _party_key(MESSRS.sub(" ", party))


def key_words(text: str) -> list[str]:
    """The words of a party's key before its closing "& Ors." goes."""
    return _words(MESSRS.sub(" ", text))


def _party_key(party: str) -> str:
    words = _words(party)
    while words and words[-1] in TAIL:
        words.pop()
    return " ".join(words)


def _words(text: str) -> list[str]:
    """Honorifics, case and punctuation dropped, "Limited" as "ltd"."""
    words = re.sub(r"[^a-z0-9]+", " ", text.lower().replace("&", " and ")).split()
    return [CANON_WORDS.get(w, w) for w in words if w not in HONORIFICS]
