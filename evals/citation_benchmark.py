"""Citation benchmark: labeled citations generated from the warehouse, run through the gate.

Why generated: a hand-written list tests what its author thought of; items drawn from the
tables cover every code, many Acts and every registry year, and stay right when the tables
change. Each item is one sentence, as a model answer would write it, holding one target
citation (its span is kept), the verdict(s) right for it and, for false friends, stale
citations and siblings, the sections the verdict must name. No label is decided by calling
the verifier: labels come from the tables and from the facts stated here (the sibling class
takes only the verifier's two thresholds of what makes titles near the same). `subclass` says
how an item was made (the Act, or curated_act / other_act, for statutes), so misses can be
traced.

Statute classes (sections, act_registry, law_transition_map, sub_sections, ingest_quarantine):
- real_statute: a section that exists, in force or of a repealed code (never one the Supreme
  Court struck down, nyaya/facts/struck_down.yaml), in a form people write
  ("Section 302 IPC", "s. 103(1) BNS" with a real sub-section, "u/s 438 Cr.P.C.",
  "Article 21", "BNS_2023 s.103", "Section 13 of the Hindu Marriage Act, 1955", a curated
  alias such as "NI Act"), with its own title as the context. A repealed code is cited with
  no date or for conduct before its repeal; only Acts with a title no other Act shares.
  Right: VERIFIED.
- nonexistent_section: a lettered number inside an Act's range that has no section
  ("Section 64A BNS"). Only the 2023 codes, which have no inserted sections at all, and the
  IPC, whose source holds every section but 171I (nyaya/facts/known_gaps.yaml; known gaps
  are never used, nor an IPC number with any lettered sibling). The CrPC, IEA and
  Constitution sources lack inserted provisions that exist in law (CrPC 437A, IEA 45A,
  Article 371J), so a missing letter there proves nothing; integer gaps in India Code Acts
  are often repealed or unparsed sections: neither is used. Right: NOT_FOUND.
- past_end: an integer beyond an Act's last numbered section, from the next number to 500
  beyond (at most 999: section numbers are written with three digits). Acts whose ingestion
  quarantined trailing or unsectioned text are left out: their last sections may be missing.
  Right: NOT_FOUND.
- false_friend: a 2023-code number written with the old code's meaning ("murder ... Section
  302 BNS"): transition-map rows where old section N maps elsewhere, the new code has its own
  section N, N is not among the old N's successors, the old title has a content word and the
  two titles share none (citing the new N for the old meaning is then truly wrong). The
  context is the old section's title. Right: FALSE_FRIEND naming exactly the old section's
  successors.
- stale: an IPC / CrPC / IEA section with successors in the map, cited for conduct (`as_of`)
  on or after the repeal date act_registry records (the day itself in about one in five).
  Right: STALE naming exactly its successors.
- sibling_section: a section cited for the meaning of its neighbour with a near-same title
  ("negligent conduct with respect to machinery ... Section 287 BNS": 287 is "... fire or
  combustible matter", 289 "... machinery"): ordered pairs (cited, meant) of sections of one
  Act and chapter (sections.chapter_number; sections without one are never paired) whose
  titles share at least the verifier's SIBLING_SHARED content words and SIBLING_JACCARD of
  them, each title with content words the other lacks (FUNCTION_WORDS such as "been" are not
  content), the meant title's words not all held by a third section of the chapter (the
  sentence would describe both). The context is the meant section's title; no other word of
  the sentence is one only the cited title has. Articles are left out: the rule is for
  sections. Spread like real_statute, no date. Right: SIBLING_MEANT naming exactly the meant
  section.
- not_in_force: a section its Act omitted or repealed (sections.status), of an Act in force,
  cited with no date or for conduct since 2025 and after its note's date of effect, in a
  bare sentence (its title is "Omitted" or "[Repealed.]"); spread like real_statute. Right:
  NOT_IN_FORCE.
- past_last_sub_section: a citable section (as real_statute) whose sub_sections rows number
  it (1) to (m) without a hole, cited with a sub-section 1, 2, 3 or 5 past (m) that its text
  does not print ("Section 103(4) BNS"; 103 has (1) and (2)), with its own title as the
  context; spread like real_statute, no date. Right: UNVERIFIABLE (not in the text held; an
  earlier or later text of the Act may have it, so not NOT_FOUND).
Titles that name other provisions ("... under section 84 ...") are not used as context: they
would put a second citation in the sentence.

Case classes (judgments, sc_case_registry, citation_mentions). A case is a judgment's case_id
or a registry record; only citations held for exactly one case are used as real ones.
- real_case: registry_neutral / registry_scr (a registry record's shortened title with its
  neutral or SCR citation as printed); corpus_header_unnamed (a judgment header citation with
  no name, for a case the tables hold no name for); corpus_cited_by_name (a header citation of
  an unnamed corpus case with the name other judgments cite it by, written the same way in at
  least two of them); text_unheld (an AIR / SCC / SCR / JT / SCALE citation printed in a
  judgment with its case name, held by no source: real because the Supreme Court wrote it).
  Right: FOUND or OVERRULED; UNVERIFIABLE, or CORROBORATED where two or more corpus
  judgments print it so, for text_unheld.
- fabricated_case: invented_name_neutral (invented parties with a neutral number within the
  year's range: NAME_MISMATCH when the number is another case's, the names sharing no
  distinctive word, else NOT_FOUND); invented_name_reporter (invented parties, a plausible
  SCC / AIR citation no source holds); wrong_page (a registry case's own neutral number
  moved by up to 60, or its SCR page moved to an earlier page, or 150-600 pages on so that
  it cannot be a pinpoint into the same judgment; held by no source); impossible_year (SCC
  before 1969, AIR SC before 1950, INSC or SCC of 2040-2049),
  impossible_volume (SCC volume 25-60, SCR volume 35-60 in one year), impossible_page (AIR SC
  page 500 past the most its series runs to, nyaya/facts/reporters.yaml; SCC page 2000+; an
  INSC number three times the year's range), the last three
  with a real registry name or an invented one. Invented names make a pairing fabricated
  whatever the number; a real case has one neutral and one SCR citation, so a moved one is
  not its citation. Right: NOT_FOUND (or NAME_MISMATCH as said).
- name_mismatch: a registry citation written with another registry case's name, sharing no
  distinctive word with any name of the case that holds it. Right: NAME_MISMATCH.
- wrong_pairing: a real name paired with a real citation of another case, the commonest way a
  model invents a precedent, written as printed: registry_full_title (a registry title in
  full, commas, "Etc.", "(D) By Lrs." and "State Of U.P. And Ors." kept, with another
  record's citation); text_printed (a name a corpus judgment prints before a citation, with
  the citation another judgment prints after another case's name); each sharing no
  distinctive word with the case that holds the citation; parallel (a registry title with
  its own neutral citation and, as its parallel citation, the SCR citation of another case
  decided on another day that shares a word of its name, the citation the item targets).
  Right: NAME_MISMATCH.
- name_alone: a registry title in full cited by its names alone, with no citation after it
  to end the name: comma_in_name ("Jarnail Singh v. Secretary, Ministry Of Home Affairs And
  Ors.") and no_comma, each the whole name of one case we hold. Right: FOUND or OVERRULED.
- name_alone_altered: such a title with a comma inside a name, the words after its last comma
  those of another title's ("Jarnail Singh v. Secretary, Southern Railway"), where neither the
  name nor any reading of it up to one of its commas or on into those words is the name of a
  case we hold: nothing written is a held case's name. Right: UNVERIFIABLE.
real_case also holds registry_full_title (a registry title in full with its own citation)
and text_printed (a name and citation as a corpus judgment prints them, held for one named
case): the names written with real citations that the wrong pairings must not be taken for.

`score`, per class: correct = the right status (and, where successors are expected, exactly
that set); recall = correct / n; precision = of the items of the same kind (statute or case)
whose verdict is one of the class's right statuses, the share for which that status is right
(nonexistent_section and past_end share NOT_FOUND, so they share a precision; only
sibling_section expects SIBLING_MEANT, so its precision is the share of every statute
SIBLING_MEANT that falls on its items, naming the right sibling or not: a real citation read
as its neighbour counts against it, a wrong sibling named only against recall); flagged = a
statute verdict other than VERIFIED, a case verdict NOT_FOUND or NAME_MISMATCH. A target
citation the extractor does not find at all (MISSED) counts as flagged for a real item and
as not caught for a wrong one. The targets stand beside each class, then the served system's
protocol: real citations (real_statute, real_case) not flagged >= 90%, wrong ones
(nonexistent_section, past_end, false_friend, sibling_section, not_in_force,
past_last_sub_section, fabricated_case, name_mismatch, wrong_pairing) flagged >= 80%.
"""

from __future__ import annotations

import random
import re
import time
from collections import Counter, defaultdict
from collections.abc import Callable, Container, Iterable
from dataclasses import dataclass
from datetime import date, timedelta
from pathlib import Path

import pandas as pd

from nyaya.citations.cases import NEUTRAL, REPORTER, case_name_key, extract_case_citations
from nyaya.citations.reporters import series_ranges
from nyaya.lookup import untexted_sections
from nyaya.settings import Settings
from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.model import IN_FORCE, OMITTED, REPEALED
from nyaya.statutes.omissions import omission
from nyaya.statutes.registry import known_gaps, struck_down
from nyaya.tables import read_table
from nyaya.verify.cases import load_case_verifier
from nyaya.verify.gate import CaseVerifier, verify_text
from nyaya.verify.model import CitationVerdict
from nyaya.verify.statutes import SIBLING_JACCARD, SIBLING_SHARED, StatuteChecker

STATUTE_CLASSES = ("real_statute", "nonexistent_section", "past_end", "false_friend", "stale",
                   "sibling_section", "not_in_force", "past_last_sub_section")
CASE_CLASSES = ("real_case", "fabricated_case", "name_mismatch", "wrong_pairing", "name_alone",
                "name_alone_altered")
CLASSES = STATUTE_CLASSES + CASE_CLASSES
REAL_CLASSES = ("real_statute", "real_case")
WRONG_CLASSES = ("nonexistent_section", "past_end", "false_friend", "sibling_section",
                 "not_in_force", "past_last_sub_section", "fabricated_case", "name_mismatch",
                 "wrong_pairing")  # the served protocol's fakes
TABLES = {"registry": "act_registry", "sections": "sections", "sub_sections": "sub_sections",
          "transitions": "law_transition_map", "quarantine": "ingest_quarantine",
          "judgments": "judgments", "sc_registry": "sc_case_registry",
          "mentions": "citation_mentions"}
MISSED = "MISSED"  # the extractor found no citation at the target span
SURVIVING_STATUTE = {"VERIFIED"}
FLAGGED_CASE = {"NOT_FOUND", "NAME_MISMATCH"}

# Written forms of the codes, as lawyers and model answers write them (hand-authored facts).
CODE_NAMES = {
    "IPC_1860": ("IPC", "I.P.C.", "Indian Penal Code"),
    "CrPC_1973": ("CrPC", "Cr.P.C.", "Code of Criminal Procedure"),
    "IEA_1872": ("IEA", "Evidence Act", "Indian Evidence Act"),
    "BNS_2023": ("BNS", "Bharatiya Nyaya Sanhita"),
    "BNSS_2023": ("BNSS", "Bharatiya Nagarik Suraksha Sanhita"),
    "BSA_2023": ("BSA", "Bharatiya Sakshya Adhiniyam"),
}
CONSTITUTION = "COI"
CODES = {*CODE_NAMES, CONSTITUTION}  # each gets its own share of the statute items
# Acts whose sources hold every section, so an absent lettered number does not exist (above).
LETTER_COMPLETE = ("BNS_2023", "BNSS_2023", "BSA_2023", "IPC_1860")
TRUNCATION_REASONS = {"trailing_text_not_sectioned", "no_sections_found", "section_body_not_found"}
MAX_WRITTEN_NUMBER = 999
PAST_END_STEPS = (1, 2, 3, 5, 10, 25, 50, 100, 250, 500)
AIR_SC_PAGES = series_ranges()["AIR SC"].page_max  # no AIR SC volume runs further
SUB_SECTION_STEPS = (1, 2, 3, 5)  # how far past a section's last sub-section a citation goes
NUMBERED_UNIT = re.compile(r"\((\d+)\)")  # a sub-section's key after its section: "(2)"
SECTION_KEYWORDS = ("Section {n}", "s. {n}", "u/s {n}", "Sec. {n}")

REAL_TEMPLATES = (
    "Reliance is placed on {cite}, which deals with {meaning}.",
    "On these facts {cite} ({meaning}) applies.",
    "The High Court rightly invoked {cite}, the provision on {meaning}.",
    "The relevant provision is {cite}: {meaning}.",
)
BARE_TEMPLATES = (
    "The offence is punishable under {cite}.",
    "Bail may be sought under {cite} in such cases.",
    "The petitioner can seek relief under {cite}.",
    "The trial court framed the charge under {cite}.",
)
FALSE_FRIEND_TEMPLATES = (
    "For {meaning}, the applicable provision is {cite}.",
    "The law on {meaning} is now found in {cite}.",
    "On {meaning}, the answer relies on {cite}.",
    "The provision governing {meaning} is {cite}.",
)
STALE_TEMPLATES = (
    "For the offence committed on {when}, the charge lies under {cite} ({meaning}).",
    "The FIR registered on {when} invokes {cite}, which deals with {meaning}.",
    "For conduct on {when}, the applicable provision is {cite} on {meaning}.",
)
SIBLING_TEMPLATES = (
    "For {meaning}, {cite} applies.",
    "On {meaning}, the relevant provision is {cite}.",
    "The provision on {meaning} is {cite}.",
    "As to {meaning}, see {cite}.",
)
CASE_TEMPLATES = (
    "In {name}, {cite}, the Supreme Court held that the appeal must fail.",
    "See {name} ({cite}).",
    "The principle was settled in {name}, {cite}.",
    "This Court relied on {name}, {cite}, to allow the petition.",
)
UNNAMED_TEMPLATES = (
    "As held in {cite}, the appeal must fail.",
    "The Supreme Court settled this point in {cite}.",
)
NAME_ALONE_TEMPLATES = (  # a comma or a full stop right after the name, as prose has them
    "As held in {cite}, the appeal must fail.",
    "The rule in {cite} governs this appeal.",
    "The Supreme Court settled this point in {cite}.",
)
VERSUS = (" v. ", " vs. ", " versus ")

# Invented parties: common Indian given names and surnames, and usual respondents.
GIVEN = ("Ramesh", "Suresh", "Anil", "Sunita", "Kavita", "Mahesh", "Prakash", "Lakshmi",
         "Gopal", "Harish", "Meena", "Rajendra", "Savitri", "Dinesh", "Farhan", "Imtiaz",
         "Jaswant", "Kuldeep", "Nirmala", "Pradeep", "Rukmini", "Sanjay", "Tarun", "Usha",
         "Vinod", "Yashpal", "Zubair", "Balwinder", "Chitra", "Devendra")
SURNAME = ("Sharma", "Verma", "Iyer", "Nair", "Reddy", "Yadav", "Chauhan", "Deshmukh",
           "Khan", "Ansari", "Gill", "Sandhu", "Mishra", "Pandey", "Kulkarni", "Menon",
           "Bhattacharya", "Chatterjee", "Rathore", "Solanki", "Pillai", "Naidu", "Tiwari",
           "Saxena", "Qureshi", "Dhillon", "Patnaik", "Hegde", "Kamath", "Bora")
RESPONDENTS = ("State of Uttar Pradesh", "State of Maharashtra", "Union of India",
               "State of Rajasthan", "State of Kerala", "State of Punjab",
               "State of Madhya Pradesh", "State of Bihar", "State of Karnataka",
               "State of Tamil Nadu", "State of Gujarat", "State of Haryana")
# Facts about the reporters: SCC began in 1969; the Court (and AIR SC, SCR) in 1950; a volume
# number up to 8 and a page up to 1000 occur in every recent year of SCC and AIR SC.
SCC_FIRST_YEAR = 1969
SC_FIRST_YEAR = 1950
PLAUSIBLE_VOLUME = 8
PLAUSIBLE_PAGE = 1000
# years no reporter has reached: fixed, so that items do not change with the clock (until 2040;
# citations are read with years up to 2049)
FUTURE_YEARS = range(2040, 2050)

DIGIT = re.compile(r"[0-9]")
YEAR = re.compile(r"(?:18|19|20)[0-9]{2}")
MEANING_WORDS = 16
DANGLING = {"or", "and", "of", "to", "the", "in", "a", "an", "by", "for", "with", "under",
            "etc", "on", "from", "at", "as"}
LEADING_THE = re.compile(r"^The\s+")
BRACKET_SPACE = re.compile(r"\(\s+|\s+\)")
NAME_WORD = re.compile(r"[a-z]{3,}")
GENERIC_NAME_WORDS = {"state", "union", "india", "the", "and", "ors", "anr", "ltd", "pvt",
                      "govt", "government", "through", "its", "secretary", "commissioner",
                      "collector", "officer", "district", "others", "another", "smt", "shri",
                      "dead", "lrs", "etc", "corporation", "company", "limited", "board"}
CONTENT_WORD = re.compile(r"[a-z]{4,}")
TITLE_STOP = {"with", "from", "that", "this", "which", "other", "under", "such", "where",
              "when", "shall", "section", "sections", "code", "person", "persons", "offence",
              "offences", "punishment", "certain", "cases", "case", "etc", "into", "upon",
              "whom", "them", "their", "being", "made", "matters", "provisions"}
# Words of four letters or more that say nothing of a section's subject, so neither tie two
# titles together nor tell them apart ("Procedure when bond has been forfeited").
FUNCTION_WORDS = {"been", "have", "having", "does", "done", "were", "will", "would", "should",
                  "could", "than", "then", "there", "here", "they", "what", "whose", "whether",
                  "while", "whilst", "unless", "only", "another", "also", "same",
                  "said", "some", "each", "more", "most", "very", "thereof", "therein",
                  "thereto", "thereunder"}
SIBLING_STOP = TITLE_STOP | FUNCTION_WORDS
LOWER_WORDS = {"of", "and", "the", "for", "in", "by", "to", "at", "on"}
PARTY_TAIL = re.compile(r"(?:\s*(?:&|AND)?\s*(?:ORS|ANR|ETC|OTHERS|ANOTHER)\.?)+\s*$",
                        re.IGNORECASE)
NAMED = re.compile(r"^(?P<pet>[A-Z][^\n]{1,80}?)(?: v\.? | vs\.? | versus )"
                   r"(?P<resp>[A-Z][^\n]{1,80})$")


@dataclass
class _Tables:
    """The warehouse tables, with the indexes the generators share."""

    registry: pd.DataFrame
    sections: pd.DataFrame
    sub_sections: pd.DataFrame
    transitions: pd.DataFrame
    quarantine: pd.DataFrame
    judgments: pd.DataFrame
    sc_registry: pd.DataFrame
    mentions: pd.DataFrame

    def __post_init__(self) -> None:
        self.titles = {(a, normalize_section_number(n)): t for a, n, t in zip(
            self.sections["act_code"], self.sections["section_number"],
            self.sections["title"], strict=True)}
        self.acts = {row["act_code"]: row for row in self.registry.to_dict("records")}
        self.repealed_by = {code: row["repealed_by"] for code, row in self.acts.items()
                            if isinstance(row.get("repealed_by"), str)}
        self.repealed_on = {code: date.fromisoformat(self.acts[code]["repealed_on"][:10])
                            for code in self.repealed_by}
        self.successors: dict[tuple[str, str], set[tuple[str, str]]] = defaultdict(set)
        for row in self.transitions.to_dict("records"):
            if isinstance(row.get("old_section"), str) and isinstance(row.get("new_section"), str):
                self.successors[(row["old_act_code"], normalize_section_number(
                    row["old_section"]))].add((row["new_act_code"], row["new_section"]))
        self.truncated_acts = set(self.quarantine.loc[
            self.quarantine["reason"].isin(TRUNCATION_REASONS), "act_code"].dropna())
        # sections the source names without a readable text: they exist in law (UNVERIFIABLE)
        self.untexted = set(untexted_sections(self.quarantine))
        self.shared_act_titles = {k for k, c in Counter(self.registry["title"].str.lower()
                                                        ).items() if c > 1}
        self._index_cases()

    def statute_group(self, act: str) -> str | None:
        """The group a cited Act's items are spread in: each code its own, else curated_act or
        other_act; None for an Act whose title another Act shares (a citation by title would
        be ambiguous)."""
        if act in CODES:
            return act
        if str(self.acts[act]["title"]).lower() in self.shared_act_titles:
            return None
        return "curated_act" if self.acts[act].get("curated") else "other_act"

    def _index_cases(self) -> None:
        """Cases as the tables identify them: a judgment's case_id, else a registry record."""
        self.case_names: dict[str, list[str]] = defaultdict(list)
        self.key_cases: dict[str, set[str]] = defaultdict(set)
        self.scr_of: dict[str, str] = {}  # a record's neutral citation -> its one SCR key
        for row in self.judgments.to_dict("records"):
            case = _text(row.get("case_id")) or f"CASE:{row['doc_id']}"
            if isinstance(row.get("case_name"), str):
                self.case_names[case].append(row["case_name"])
            self._add_keys(case, row.get("citation_keys"))
        for row in self.sc_registry.to_dict("records"):
            case = _text(row.get("case_id")) or row["record_id"]
            if isinstance(row.get("title"), str):
                self.case_names[case].append(row["title"])
            self._add_keys(case, row.get("citation_keys"))
            keys = row.get("citation_keys")
            scr = [k for k in ([] if keys is None else keys) if " SCR " in k]
            if _text(row.get("neutral_citation")) and len(scr) == 1:
                self.scr_of[row["neutral_citation"]] = scr[0]

    def _add_keys(self, case: str, keys: Iterable[str] | None) -> None:
        for key in [] if keys is None else list(keys):
            self.key_cases[key].add(case)

    def held(self, key: str) -> bool:
        """Whether any source holds this canonical citation key."""
        return key in self.key_cases

    def unique(self, key: str) -> bool:
        """Whether exactly one case holds it (a real item must not be ambiguous)."""
        return len(self.key_cases.get(key, ())) == 1

    def neutral_numbers(self) -> dict[int, set[int]]:
        """The INSC numbers held (registry and judgment headers), per year."""
        numbers: dict[int, set[int]] = defaultdict(set)
        for key in self.key_cases:
            year, _, number = key.partition(" INSC ")
            if number.isdigit() and year.isdigit():
                numbers[int(year)].add(int(number))
        return numbers


def _text(value: object) -> str | None:
    """A string cell, or None for a missing one (pandas gives NaN, which is truthy)."""
    return value if isinstance(value, str) and value else None


def load_tables(warehouse: Path) -> _Tables:
    """The tables the generator reads; FileNotFoundError names the first one missing."""
    return _Tables(**{field: read_table(warehouse / f"{name}.parquet")
                      for field, name in TABLES.items()})


# --- small helpers ----------------------------------------------------------------------------


def _spread(rng: random.Random, groups: dict[str, list], n: int) -> list:
    """n items drawn round-robin across shuffled groups, so no one Act or source dominates."""
    pools = {name: rng.sample(items, len(items)) for name, items in sorted(groups.items())
             if items}
    out: list = []
    while len(out) < n and any(pools.values()):
        for name in sorted(pools):
            if pools[name] and len(out) < n:
                out.append(pools[name].pop())
    return out


def _meaning(title: str) -> str | None:
    """A section title as running text (lower-cased first letter, at most MEANING_WORDS words,
    no dangling 'or'); None for a title naming other provisions ("... under section 84 of
    ..."), which would put a second citation in the sentence."""
    if DIGIT.search(str(title)):
        return None
    words = str(title).split()[:MEANING_WORDS]
    while words and words[-1].lower().strip(".,;:") in DANGLING:
        words.pop()
    text = " ".join(words).rstrip(".,;:-— ")
    return text[:1].lower() + text[1:] if text[1:2].islower() else text


def _content(title: str, stop: set[str] = TITLE_STOP) -> set[str]:
    """Content words of a title, cut to five letters so that 'murder' meets 'murders'."""
    return {w[:5] for w in CONTENT_WORD.findall(str(title).lower()) if w not in stop}


def _distinctive(name: str) -> set[str]:
    return {w for w in NAME_WORD.findall(name.lower()) if w not in GENERIC_NAME_WORDS}


def _titled(words: str) -> str:
    out = []
    for i, word in enumerate(words.split()):
        low = word.lower()
        if i and low in LOWER_WORDS:
            out.append(low)
        else:  # "SINGH" -> "Singh", "COMMR." -> "Commr.", "(INDIA)" -> "(India)"; initials
            # ("N.R.", "M/S.") stay
            bare = word.strip(".,;:()")
            lead = len(word) - len(word.lstrip("("))
            out.append(word[:lead] + word[lead:].capitalize()
                       if bare.isalpha() and bare.isupper() and len(bare) > 1 else word)
    return " ".join(out)


def short_case_name(title: str, rng: random.Random) -> str | None:
    """A registry title as a writer shortens it: each party up to its first comma or bracket,
    without '& Ors.' or a leading 'The', title-cased; None when a party is empty or long."""
    pet, sep, resp = title.partition(" versus ")
    if not sep:
        return None
    parties = []
    for party in (pet, resp):
        party = re.split(r"[,(\[]", party, maxsplit=1)[0]
        party = PARTY_TAIL.sub("", party).strip(" &-")
        party = re.sub(r"^THE\s+", "", party, flags=re.IGNORECASE)
        if not 1 <= len(party.split()) <= 7 or not NAME_WORD.search(party.lower()):
            return None
        parties.append(_titled(party))
    return parties[0] + rng.choice(VERSUS) + parties[1]


def _statute_cite(rng: random.Random, t: _Tables, act: str, number: str,
                  unit: str = "") -> str:
    """One written form of a statute citation."""
    if act == CONSTITUTION:
        return rng.choice(("Article {n}", "Article {n} of the Constitution",
                           "Art. {n} of the Constitution of India")).format(n=number + unit)
    keyword = rng.choice(SECTION_KEYWORDS).format(n=number + unit)
    aliases = t.acts[act].get("aliases")
    names = CODE_NAMES.get(act) or tuple(a for a in ([] if aliases is None else aliases)
                                         if " " in a)  # "NI Act", not a bare "NIA"
    form = rng.randrange(4)
    if form == 0 and act in CODE_NAMES:
        return f"{act} s.{number}{unit}"
    if form == 1 or not names:
        return f"{keyword} of the {_written_title(t.acts[act]['title'])}"
    name = rng.choice(names)
    # abbreviations follow the number ("Section 302 IPC"); names take "of the"
    return f"{keyword} {name}" if " " not in name else f"{keyword} of the {name}"


def _written_title(title: str) -> str:
    """An Act's title as people write it: no leading 'The', no space inside brackets (the
    registry holds "The Commission of Sati (Prevention ) Act, 1987")."""
    return BRACKET_SPACE.sub(lambda m: m.group().strip(), LEADING_THE.sub("", title))


def _item(cls: str, sub: str, kind: str, template: str, cite: str, **fields) -> dict:
    """An item whose text is `template` with `cite` in place; the citation's span is kept."""
    before, _, after = template.partition("{cite}")
    head = before.format(**fields.get("slots", {}))
    if cite.startswith("u/s"):  # "punishable u/s 302 IPC", never "under u/s" or "in u/s"
        if head.endswith("under "):
            head = head[:-len("under ")]
        else:
            cite = "s." + cite[len("u/s"):]
    text = head + cite + after.format(**fields.get("slots", {}))
    row = {"class": cls, "subclass": sub, "kind": kind, "text": text,
           "cite_start": len(head), "cite_end": len(head) + len(cite), "citation": cite,
           "as_of": None, "expected": "", "expected_successors": "", "act_code": None,
           "section_number": None, "case_key": None, "source": ""}
    row.update({k: v for k, v in fields.items() if k != "slots"})
    return row


def _links(links: Iterable[tuple[str, str]]) -> str:
    return "|".join(sorted(f"{act} s.{section}" for act, section in links))


# --- statute classes ----------------------------------------------------------------------


def _citable(sections: pd.DataFrame) -> pd.DataFrame:
    """Sections a real citation may name with its title as the context: not omitted, not the
    Preamble, with a title that names no other provision."""
    return sections[(sections["status"] != "omitted") & sections["title"].notna()
                    & (sections["section_number"] != "Preamble")
                    & ~sections["title"].str.contains(DIGIT, na=True)]


def _law(t: _Tables, rows: pd.DataFrame) -> pd.DataFrame:
    """The rows that cite the law: a section its Act repealed, or the Court struck down
    (nyaya/facts/struck_down.yaml), is no citation of the law (NOT_IN_FORCE); a repealed
    code's sections are, for conduct before its repeal."""
    voided = struck_down()
    law = (rows["status"] == IN_FORCE) | rows["act_code"].isin(t.repealed_by)
    kept = [(act, normalize_section_number(number)) not in voided
            for act, number in zip(rows["act_code"], rows["section_number"], strict=True)]
    return rows[law & pd.Series(kept, index=rows.index, dtype=bool)]


def _real_statutes(t: _Tables, rng: random.Random, n: int) -> list[dict]:
    rows = _law(t, _citable(t.sections))
    units: dict[tuple[str, str], list[str]] = defaultdict(list)
    subs = t.sub_sections[t.sub_sections["unit_kind"] == "sub_section"]
    for act, number, key in zip(subs["act_code"], subs["section_number"], subs["unit_key"],
                                strict=True):
        if key.startswith(number):
            units[(act, number)].append(key[len(number):])
    groups: dict[str, list] = defaultdict(list)
    for row in rows[["act_code", "section_number", "title"]].itertuples(index=False):
        group = t.statute_group(row.act_code)
        if group:
            groups[group].append(row)
    out = []
    for group, row in _spread(rng, {g: [(g, r) for r in rows] for g, rows in groups.items()}, n):
        act, number = row.act_code, row.section_number
        unit = rng.choice(units[(act, number)]) if units.get((act, number)) and \
            rng.random() < 0.25 else ""
        as_of = None
        if act in t.repealed_by and rng.random() < 0.5:
            as_of = t.repealed_on[act] - timedelta(days=rng.randrange(1, 3000))
        elif act in t.repealed_by.values() and rng.random() < 0.5:
            as_of = date(2024, 7, 1) + timedelta(days=rng.randrange(0, 500))
        cite = _statute_cite(rng, t, act, number, unit)
        out.append(_item("real_statute", group, "statute",
                         rng.choice(REAL_TEMPLATES), cite, slots={"meaning": _meaning(row.title)},
                         as_of=as_of.isoformat() if as_of else None, expected="VERIFIED",
                         act_code=act, section_number=number,
                         source=f"sections {act} s.{number}"))
    return out


def _nonexistent(t: _Tables, rng: random.Random, n: int) -> list[dict]:
    gaps = known_gaps()
    lettered = {(a, re.match(r"\d+", s).group()) for a, s in t.titles
                if re.fullmatch(r"\d+[A-Z]+", s)}
    groups: dict[str, list] = defaultdict(list)
    for act, key in t.titles:
        if act not in LETTER_COMPLETE or not key.isdigit():
            continue
        if act == "IPC_1860" and (act, key) in lettered:
            continue  # a family like 376A-376E: a missing letter there is too close to law
        for letter in "AB":
            number = key + letter
            if (act, number) not in t.titles and (act, number) not in gaps and (
                    act, number) not in t.untexted:
                groups[act].append((act, number))
    out = []
    for act, number in _spread(rng, groups, n):
        out.append(_item("nonexistent_section", act, "statute", rng.choice(BARE_TEMPLATES),
                         _statute_cite(rng, t, act, number), expected="NOT_FOUND",
                         act_code=act, section_number=number,
                         source=f"{act} has no section {number}"))
    return out


def _past_end(t: _Tables, rng: random.Random, n: int) -> list[dict]:
    last: dict[str, int] = {}
    for act, key in [*t.titles, *t.untexted]:
        if key.isdigit():
            last[act] = max(last.get(act, 0), int(key))
    groups: dict[str, list] = defaultdict(list)
    for act, end in sorted(last.items()):
        if act in t.truncated_acts or end >= MAX_WRITTEN_NUMBER:
            continue
        if act in CODES:  # several numbers each, from the first past the end to far beyond
            groups[act] += [(act, act, end, number) for number in sorted(
                {min(end + step, MAX_WRITTEN_NUMBER) for step in PAST_END_STEPS})]
        else:
            group = "curated_act" if t.acts[act].get("curated") else "other_act"
            step = rng.choice(PAST_END_STEPS)
            groups[group].append((group, act, end, min(end + step, MAX_WRITTEN_NUMBER)))
    out = []
    for group, act, end, number in _spread(rng, groups, n):
        number = str(number)
        out.append(_item("past_end", group, "statute",
                         rng.choice(BARE_TEMPLATES), _statute_cite(rng, t, act, number),
                         expected="NOT_FOUND", act_code=act, section_number=number,
                         source=f"{act} ends at {end}"))
    return out


def _false_friends(t: _Tables, rng: random.Random, n: int) -> list[dict]:
    groups: dict[str, list] = defaultdict(list)
    for (old, key), links in sorted(t.successors.items()):
        new = t.repealed_by.get(old)
        if new is None or (old, key) not in t.titles or (new, key) not in t.titles:
            continue
        if any(normalize_section_number(s) == key for a, s in links if a == new):
            continue
        meaning, other = t.titles[(old, key)], t.titles[(new, key)]
        if _meaning(meaning) is None or not _content(meaning) \
                or _content(meaning) & _content(other):
            continue
        groups[old].append((old, new, key, links))
    out = []
    for old, new, key, links in _spread(rng, groups, n):
        out.append(_item("false_friend", new, "statute", rng.choice(FALSE_FRIEND_TEMPLATES),
                         _statute_cite(rng, t, new, key),
                         slots={"meaning": _meaning(t.titles[(old, key)])},
                         expected="FALSE_FRIEND", expected_successors=_links(links),
                         act_code=new, section_number=key,
                         source=f"{old} s.{key} -> {_links(links)}; {new} s.{key} is "
                                f"'{t.titles[(new, key)]}'"))
    return out


def _stale(t: _Tables, rng: random.Random, n: int) -> list[dict]:
    groups: dict[str, list] = defaultdict(list)
    for (old, key), links in sorted(t.successors.items()):
        if old in t.repealed_by and (old, key) in t.titles and links \
                and _meaning(t.titles[(old, key)]):
            groups[old].append((old, key, links))
    out = []
    for old, key, links in _spread(rng, groups, n):
        # the commencement day itself in one item of five: the boundary is STALE too
        as_of = t.repealed_on[old] + timedelta(
            days=0 if rng.random() < 0.2 else rng.randrange(1, 540))
        out.append(_item("stale", old, "statute", rng.choice(STALE_TEMPLATES),
                         _statute_cite(rng, t, old, key),
                         slots={"meaning": _meaning(t.titles[(old, key)]),
                                "when": f"{as_of.day} {as_of:%B %Y}"},
                         as_of=as_of.isoformat(), expected="STALE",
                         expected_successors=_links(links), act_code=old, section_number=key,
                         source=f"{old} repealed on {t.repealed_on[old]}; successors "
                                f"{_links(links)}"))
    return out


def _not_in_force(t: _Tables, rng: random.Random, n: int) -> list[dict]:
    groups: dict[str, list] = defaultdict(list)
    for act, number, status, text, notes in zip(
            t.sections["act_code"], t.sections["section_number"], t.sections["status"],
            t.sections["text"], t.sections["footnotes"], strict=True):
        group = t.statute_group(act)
        if status in (OMITTED, REPEALED) and act not in t.repealed_by and group:
            gone = omission(status, text, notes, number)
            since = date.fromisoformat(gone.effective) if gone and gone.effective else None
            groups[group].append((group, act, number, status, since))
    out = []
    for group, act, number, status, since in _spread(rng, groups, n):
        # no date (today), or conduct since 2025 and after the date its note gives (the Waqf
        # Act's s.40 went in April 2025)
        start = max(date(2025, 1, 1), since + timedelta(days=1) if since else date.min)
        as_of = None if rng.random() < 0.5 else start + timedelta(days=rng.randrange(0, 540))
        out.append(_item("not_in_force", group, "statute", rng.choice(BARE_TEMPLATES),
                         _statute_cite(rng, t, act, number),
                         as_of=as_of.isoformat() if as_of else None, expected="NOT_IN_FORCE",
                         act_code=act, section_number=number,
                         source=f"sections {act} s.{number}: {status} in an Act in force"))
    return out


def _past_last_sub_section(t: _Tables, rng: random.Random, n: int) -> list[dict]:
    numbered: dict[tuple[str, str], set[int]] = defaultdict(set)
    subs = t.sub_sections[t.sub_sections["unit_kind"] == "sub_section"]
    for act, number, key, parent in zip(subs["act_code"], subs["section_number"],
                                        subs["unit_key"], subs["parent_key"], strict=True):
        inner = NUMBERED_UNIT.fullmatch(key[len(number):]) if parent == number else None
        if inner:
            numbered[(act, number)].add(int(inner[1]))
    rows = _law(t, _citable(t.sections))
    groups: dict[str, list] = defaultdict(list)
    for row in rows[["act_code", "section_number", "title", "text"]].itertuples(index=False):
        units, group = numbered.get((row.act_code, row.section_number)), t.statute_group(
            row.act_code)
        if not units or not group or units != set(range(1, max(units) + 1)):
            continue  # a hole: the rows may have missed a sub-section the text has
        cited = max(units) + rng.choice(SUB_SECTION_STEPS)
        if f"({cited})" not in str(row.text):
            groups[group].append((group, row, max(units), cited))
    out = []
    for group, row, last, cited in _spread(rng, groups, n):
        out.append(_item("past_last_sub_section", group, "statute", rng.choice(REAL_TEMPLATES),
                         _statute_cite(rng, t, row.act_code, row.section_number, f"({cited})"),
                         slots={"meaning": _meaning(row.title)}, expected="UNVERIFIABLE",
                         act_code=row.act_code, section_number=row.section_number,
                         source=f"sub_sections {row.act_code} s.{row.section_number}: (1) to "
                                f"({last})"))
    return out


@dataclass(frozen=True)
class SiblingPair:
    """A section cited (`cited`) for the meaning of its near-same-titled neighbour (`meant`)."""

    act: str
    chapter: str
    cited: str  # section numbers as the sections table holds them
    meant: str
    cited_title: str
    meant_title: str
    cited_only: frozenset[str]  # content words of the cited title that the meant one lacks

    @property
    def meaning(self) -> str:
        return _meaning(self.meant_title) or ""


def sibling_pairs(sections: pd.DataFrame) -> list[SiblingPair]:
    """Ordered pairs of citable sections of one Act and chapter whose titles share at least
    SIBLING_SHARED content words and SIBLING_JACCARD of them, each with content words the other
    lacks, the meant one's written meaning holding some of its own; left out when another
    section of the chapter has every content word of the meant one's title (the sentence
    would describe it as well). Sections without a chapter are never paired."""
    chaptered = sections[[isinstance(c, str) and bool(c) for c in sections["chapter_number"]]]
    citable = set(_citable(chaptered).index)
    members: dict[tuple[str, str], list[tuple[int, str, str, set[str]]]] = defaultdict(list)
    for index, act, number, title, chapter in zip(
            chaptered.index, chaptered["act_code"], chaptered["section_number"],
            chaptered["title"], chaptered["chapter_number"], strict=True):
        members[(act, chapter)].append((index, number, str(title), _content(
            title, SIBLING_STOP) if isinstance(title, str) else set()))
    out = []
    for (act, chapter), rows in sorted(members.items()):
        for i, cited, cited_title, own in rows:
            for j, meant, meant_title, words in rows:
                if i == j or i not in citable or j not in citable:
                    continue
                shared = own & words
                if len(shared) < SIBLING_SHARED or len(shared) < SIBLING_JACCARD * len(own | words):
                    continue
                if not own - words or not _content(_meaning(meant_title), SIBLING_STOP) \
                        & (words - own):
                    continue
                if any(k != j and words <= other for k, _, _, other in rows):
                    continue
                out.append(SiblingPair(act, chapter, cited, meant, cited_title, meant_title,
                                       frozenset(own - words)))
    return out


def _sibling_templates(pair: SiblingPair) -> list[str]:
    """The sentence forms holding no word that only the cited section's title has."""
    return [template for template in SIBLING_TEMPLATES
            if not _content(template.format(meaning="", cite=""), SIBLING_STOP)
            & pair.cited_only]


def _sibling_sections(t: _Tables, rng: random.Random, n: int) -> list[dict]:
    groups: dict[str, list] = defaultdict(list)
    for pair in sibling_pairs(t.sections):
        group = t.statute_group(pair.act)
        if group and pair.act != CONSTITUTION and _sibling_templates(pair):
            groups[group].append((group, pair))
    out = []
    for group, pair in _spread(rng, groups, n):
        out.append(_item("sibling_section", group, "statute",
                         rng.choice(_sibling_templates(pair)),
                         _statute_cite(rng, t, pair.act, pair.cited),
                         slots={"meaning": pair.meaning}, expected="SIBLING_MEANT",
                         expected_successors=_links([(pair.act, pair.meant)]),
                         act_code=pair.act, section_number=pair.cited,
                         source=f"{pair.act} chapter {pair.chapter}: s.{pair.cited} is "
                                f"'{pair.cited_title}'; s.{pair.meant} is '{pair.meant_title}'"))
    return out


# --- case classes -------------------------------------------------------------------------


def _registry_cases(t: _Tables, rng: random.Random) -> list[tuple[str, str, str]]:
    """(short name, citation as printed, key) for registry citations held for one case only."""
    out = []
    rows = t.sc_registry.sort_values("record_id")
    for row in rows[["title", "neutral_citation", "scr_citation", "citation_keys"]].itertuples(
            index=False):
        name = short_case_name(str(row.title), rng)
        keys = [] if row.citation_keys is None else list(row.citation_keys)
        scr = [k for k in keys if " SCR " in k]
        printed = [(row.neutral_citation, row.neutral_citation)]
        printed += [(row.scr_citation, scr[0])] if len(scr) == 1 else []
        out += [(name, written, key) for written, key in printed
                if name and isinstance(written, str) and key in keys and t.unique(key)]
    return out


def _invented_name(rng: random.Random) -> str:
    pet = f"{rng.choice(GIVEN)} {rng.choice(SURNAME)}"
    resp = rng.choice(RESPONDENTS) if rng.random() < 0.7 else \
        f"{rng.choice(GIVEN)} {rng.choice(SURNAME)}"
    return pet + rng.choice(VERSUS) + resp


def _case_item(cls: str, sub: str, rng: random.Random, name: str | None, cite: str, key: str,
               expected: str, source: str) -> dict:
    template = rng.choice(CASE_TEMPLATES if name else UNNAMED_TEMPLATES)
    return _item(cls, sub, "case", template, cite, slots={"name": name or ""},
                 expected=expected, case_key=key, source=source)


def _real_cases(t: _Tables, rng: random.Random, n: int, registry: list) -> list[dict]:
    groups: dict[str, list] = defaultdict(list)
    for name, written, key in registry:
        sub = "registry_neutral" if " INSC " in key else "registry_scr"
        groups[sub].append((sub, name, written, key, "FOUND|OVERRULED", "sc_case_registry"))
    cited_as = _names_from_citing_judgments(t)
    for row in t.judgments.sort_values("doc_id").itertuples(index=False):
        keys = [k for k in ([] if row.citation_keys is None else row.citation_keys)
                if t.unique(k) and " INSC " not in k]
        case = _text(row.case_id) or f"CASE:{row.doc_id}"
        if not keys:
            continue
        key = rng.choice(keys)  # a header key is written as printed: its canonical form
        if not t.case_names.get(case):
            groups["corpus_header_unnamed"].append((
                "corpus_header_unnamed", None, key, key, "FOUND|OVERRULED",
                f"judgments {row.doc_id}"))
        if case in cited_as:
            groups["corpus_cited_by_name"].append((
                "corpus_cited_by_name", cited_as[case], key, key, "FOUND|OVERRULED",
                f"judgments {row.doc_id}; the name other judgments cite it by"))
    for row in _unheld_text_citations(t):
        groups["text_unheld"].append(("text_unheld", row["case_name"], row["text"],
                                      row["citation_key"], "UNVERIFIABLE|CORROBORATED",
                                      f"citation_mentions {row['mention_id']}"))
    for sub, pairs in (("registry_full_title", _registry_titles(t)),
                       ("text_printed", _printed_pairs(t, rng, n))):
        groups[sub] += [(sub, p.name, p.written, p.key, "FOUND|OVERRULED", p.source)
                        for p in pairs]
    return [_case_item("real_case", sub, rng, name, written, key, expected, source)
            for sub, name, written, key, expected, source in _spread(rng, groups, n)]


def _names_from_citing_judgments(t: _Tables) -> dict[str, str]:
    """case_id -> the name other judgments cite it by, when two or more of them agree."""
    m = t.mentions
    m = m[(m["mention_type"] == "case") & (m["kind"] != "case_name")
          & (m["resolution"] == "resolved") & m["case_name"].notna()]
    votes: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    written: dict[str, str] = {}
    for case_ids, name, doc in zip(m["resolved_case_ids"], m["case_name"], m["doc_id"],
                                   strict=True):
        ids = list(case_ids) if case_ids is not None else []
        name = " ".join(str(name).split())
        if len(ids) != 1 or not NAMED.match(name) or any(c.isdigit() for c in name):
            continue
        key = case_name_key(name)
        votes[ids[0]][key].add(doc)
        written.setdefault(key, name)
    out = {}
    for case, by_key in sorted(votes.items()):
        key, docs = max(sorted(by_key.items()), key=lambda kv: len(kv[1]))
        if len(docs) >= 2:
            out[case] = written[key]
    return out


def _unheld_text_citations(t: _Tables) -> list[dict]:
    """Reporter citations with a name beside them, printed in judgments, held by no source.

    A Supreme Court reporter year before the series began ("(1935) 2 SCR 1049" for 1955) is
    a typo in the judgment, not a real citation: such rows are left out."""
    m = t.mentions
    m = m[(m["mention_type"] == "case") & (m["kind"] == "reporter")
          & m["reporter"].isin(["AIR", "SCC", "SCR", "JT", "SCALE"]) & m["case_name"].notna()
          & (m["resolution"] == "unresolved")].sort_values("mention_id")
    out = []
    for row in m[["mention_id", "text", "citation_key", "case_name", "reporter"]].to_dict(
            "records"):
        name = " ".join(str(row["case_name"]).split())
        match = NAMED.match(name)
        year = int(YEAR.search(row["citation_key"]).group())
        first = SCC_FIRST_YEAR if row["reporter"] == "SCC" else SC_FIRST_YEAR
        if t.held(row["citation_key"]) or not match or any(c.isdigit() for c in name) or any(
                len(side.split()) > 10 or not NAME_WORD.search(side.lower())
                for side in match.group("pet", "resp")) or (
                year < first and (row["reporter"] != "AIR" or " SC " in row["citation_key"])):
            continue
        out.append({**row, "text": " ".join(row["text"].split()), "case_name": name})
    return out


def _fabricated_cases(t: _Tables, rng: random.Random, n: int, registry: list) -> list[dict]:
    numbers = {y: sorted(nums) for y, nums in t.neutral_numbers().items()}
    # a year's usual top number, ignoring typos like the registry's lone 2024 INSC 4354
    top = {y: nums[int(0.98 * (len(nums) - 1))] for y, nums in numbers.items()}
    years = sorted(y for y, nums in numbers.items() if len(nums) > 50)
    last_year = max(numbers)
    real_names = sorted({name for name, _, _ in registry})

    def unheld(make: Callable[[], str]) -> str | None:
        for _ in range(200):
            key = make()
            if not t.held(key):
                return key
        return None

    def named(key: str | None, why: str, name: str | None = None) -> tuple | None:
        if key is None:
            return None
        name = name or (rng.choice(real_names) if rng.random() < 0.5 else _invented_name(rng))
        return name, key, "NOT_FOUND", why

    def invented_neutral() -> tuple | None:
        year = rng.choice(years)
        key = f"{year} INSC {rng.randint(1, top[year])}"
        name = _invented_name(rng)
        if not t.held(key):
            return name, key, "NOT_FOUND", "invented parties; number not in the registry"
        if not t.unique(key):
            return None
        (case,) = t.key_cases[key]
        if _distinctive(name) & set().union(*map(_distinctive, t.case_names[case])):
            return None  # the invented name resembles the real one: not a clean label
        return name, key, "NAME_MISMATCH", f"invented parties; {key} is {case}'s"

    def invented_reporter() -> tuple | None:
        year = rng.randint(1975, last_year - 1)
        key = unheld(lambda: rng.choice((
            f"({year}) {rng.randint(1, PLAUSIBLE_VOLUME)} SCC {rng.randint(1, PLAUSIBLE_PAGE)}",
            f"AIR {year} SC {rng.randint(1, 2 * PLAUSIBLE_PAGE)}")))
        return named(key, "invented parties; citation held by no source", _invented_name(rng))

    def wrong_page() -> tuple | None:
        name, written, key = rng.choice(registry)
        head, _, page = key.rpartition(" ")  # "2019 INSC" / "[1995] 1 SCR", and the page
        changed = unheld(lambda: f"{head} {_other_page(rng, int(page), ' INSC' in key)}")
        return named(changed, f"its own citation is {written}", name)

    def impossible_year() -> tuple | None:
        future = rng.choice(FUTURE_YEARS)
        return named(unheld(lambda: rng.choice((
            f"({rng.randint(1955, SCC_FIRST_YEAR - 1)}) {rng.randint(1, 4)} SCC "
            f"{rng.randint(1, PLAUSIBLE_PAGE)}",
            f"AIR {rng.randint(1935, SC_FIRST_YEAR - 1)} SC {rng.randint(1, PLAUSIBLE_PAGE)}",
            f"{future} INSC {rng.randint(1, PLAUSIBLE_PAGE)}",
            f"({future}) {rng.randint(1, PLAUSIBLE_VOLUME)} SCC {rng.randint(1, PLAUSIBLE_PAGE)}",
        ))), "the reporter has no volume of that year")

    def impossible_volume() -> tuple | None:
        year = rng.randint(1975, last_year - 1)
        return named(unheld(lambda: rng.choice((
            f"({year}) {rng.randint(25, 60)} SCC {rng.randint(1, PLAUSIBLE_PAGE)}",
            f"[{max(year, 1990)}] {rng.randint(35, 60)} SCR {rng.randint(1, PLAUSIBLE_PAGE)}",
        ))), "the reporter never had that many volumes in a year")

    def impossible_page() -> tuple | None:
        year = rng.choice(years)
        return named(unheld(lambda: rng.choice((
            f"AIR {rng.randint(1955, 2010)} SC {rng.randint(AIR_SC_PAGES + 500, 9999)}",
            f"({max(year, 1975)}) {rng.randint(1, PLAUSIBLE_VOLUME)} SCC "
            f"{rng.randint(2000, 9999)}",
            f"{year} INSC {3 * top[year] + rng.randint(1, 900)}",
        ))), "no volume of the reporter runs to that page")

    makers = {"invented_name_neutral": invented_neutral,
              "invented_name_reporter": invented_reporter, "wrong_page": wrong_page,
              "impossible_year": impossible_year, "impossible_volume": impossible_volume,
              "impossible_page": impossible_page}
    out: list[dict] = []
    for i, (sub, make) in enumerate(makers.items()):
        quota = n // len(makers) + (i < n % len(makers))
        made: set[str] = set()
        for _ in range(50 * quota):
            if len(made) >= quota:
                break
            got = make()
            if got and got[1] not in made:
                name, key, expected, why = got
                made.add(key)
                out.append(_case_item("fabricated_case", sub, rng, name, key, key, expected,
                                      why))
    return out


def _other_page(rng: random.Random, page: int, neutral: bool) -> int:
    """Another number for a citation. A reporter page after the first may be a pinpoint into
    the same judgment ("[1993] 2 SCR 17, 35"), so a changed page is an earlier one, or one far
    beyond any judgment's length; a neutral number has no pinpoints."""
    if neutral:
        return max(1, page + rng.choice((-1, 1)) * rng.randint(1, 60))
    return rng.randint(1, page - 1) if page > 20 else page + rng.randint(150, 600)


def _name_mismatches(t: _Tables, rng: random.Random, n: int, registry: list) -> list[dict]:
    out: list[dict] = []
    pool = rng.sample(registry, len(registry))
    cases_of = t.key_cases
    for name, written, key in pool:
        if len(out) >= n:
            break
        (case,) = cases_of[key]
        own = set().union(*(_distinctive(x) for x in t.case_names[case])) | _distinctive(name)
        for _ in range(20):
            other, _, other_key = rng.choice(pool)
            theirs = _distinctive(other)
            if theirs and not theirs & own and cases_of[other_key] != cases_of[key]:
                out.append(_case_item("name_mismatch", "registry_" + (
                    "neutral" if " INSC " in key else "scr"), rng, other, written, key,
                    "NAME_MISMATCH", f"{written} is '{name}'; name of {other_key}"))
                break
    return out


@dataclass(frozen=True)
class _Pair:
    """A case name written with a citation held for one case, and where it comes from."""

    name: str
    written: str  # the citation as written
    key: str
    case: str
    date: str | None
    source: str


def full_case_name(title: str) -> str:
    """A registry title in full as a writer copies it: title-cased, " v. " for " versus "."""
    return _titled(title).replace(" versus ", " v. ")


def _registry_titles(t: _Tables) -> list[_Pair]:
    """Registry titles in full with their neutral citation, held for one case only."""
    out = []
    rows = t.sc_registry.sort_values("record_id")
    for row in rows[["title", "neutral_citation", "case_id", "record_id", "decision_date"]
                    ].itertuples(index=False):
        title, neutral = _text(row.title), _text(row.neutral_citation)
        if title and neutral and " versus " in title and t.unique(neutral):
            out.append(_Pair(full_case_name(title), neutral, neutral,
                             _text(row.case_id) or row.record_id, _text(row.decision_date),
                             f"sc_case_registry {row.record_id}"))
    return out


def _printed_pairs(t: _Tables, rng: random.Random, n: int) -> list[_Pair]:
    """Up to `n` names printed before a citation in corpus judgments (read with the
    extractor, the first of parallel citations), held for one case that has a name; from
    judgments in a seeded order, one pair per citation."""
    out: list[_Pair] = []
    seen: set[str] = set()
    texts = t.judgments.sort_values("doc_id")
    if "text" not in texts:
        return out
    for doc, text in rng.sample(list(zip(texts["doc_id"], texts["text"], strict=True)),
                                len(texts)):
        for cite in extract_case_citations(text) if isinstance(text, str) else []:
            name = " ".join((cite.case_name or "").split())
            if (cite.kind not in (NEUTRAL, REPORTER) or not cite.key or cite.key in seen
                    or cite.full_start is None or not NAMED.match(name)
                    or not t.unique(cite.key)):
                continue
            seen.add(cite.key)
            (case,) = t.key_cases[cite.key]
            if t.case_names.get(case):
                out.append(_Pair(name, " ".join(cite.text.split()), cite.key, case, None,
                                 f"judgments {doc}@{cite.start}"))
        if len(out) >= n:
            break
    return out[:n]


def _wrong_pairings(t: _Tables, rng: random.Random, n: int) -> list[dict]:
    """Real names with another case's real citation (module doc), a third of each kind."""
    titles = _registry_titles(t)
    made = {"registry_full_title": _swapped(t, rng, titles, n),
            "text_printed": _swapped(t, rng, _printed_pairs(t, rng, 2 * n), n),
            "parallel": _parallels(rng, titles, t, n)}
    groups = {sub: [(sub, *item) for item in items] for sub, items in made.items()}
    return [_case_item("wrong_pairing", sub, rng, name, written, key, "NAME_MISMATCH", why)
            for sub, name, written, key, why in _spread(rng, groups, n)]


def _swapped(t: _Tables, rng: random.Random, pairs: list[_Pair], n: int) -> list[tuple]:
    """Each pair's citation written with another pair's name, sharing no distinctive word with
    any name of the case that holds the citation."""
    out: list[tuple] = []
    pool = rng.sample(pairs, len(pairs))
    for pair in pool:
        if len(out) >= n:
            break
        own = set().union(*map(_distinctive, t.case_names[pair.case])) | _distinctive(pair.name)
        for _ in range(20):
            other = rng.choice(pool)
            theirs = _distinctive(other.name)
            if theirs and not theirs & own and other.case != pair.case:
                out.append((other.name, pair.written, pair.key,
                            f"{pair.written} is '{pair.name}'; name from {other.source}"))
                break
    return out


def _parallels(rng: random.Random, titles: list[_Pair], t: _Tables, n: int) -> list[tuple]:
    """A title with its own neutral citation, then another case's SCR citation as its
    parallel: a case decided on another day that shares a distinctive word of the name."""
    by_word: dict[str, list[_Pair]] = defaultdict(list)
    for pair in titles:
        for word in _distinctive(pair.name):
            by_word[word].append(pair)
    out: list[tuple] = []
    for pair in rng.sample(titles, len(titles)):
        if len(out) >= n:
            break
        words = sorted(_distinctive(pair.name))
        if not words:
            continue
        others = [o for o in by_word[rng.choice(words)] if o.case != pair.case and o.date
                  and pair.date and o.date != pair.date and t.unique(t.scr_of.get(o.key, ""))]
        if others:
            other = rng.choice(others)
            key = t.scr_of[other.key]
            out.append((f"{pair.name}, {pair.written}", key, key,
                        f"{key} is '{other.name}', decided {other.date}; {pair.written} is "
                        f"'{pair.name}', decided {pair.date}"))
    return out


def _name_holders(t: _Tables) -> dict[str, set[str]]:
    """The cases that hold each name key, every name of every case written in full."""
    holders: dict[str, set[str]] = defaultdict(set)
    for case, names in t.case_names.items():
        for name in names:
            holders[case_name_key(full_case_name(name))].add(case)
    return holders


def _names_alone(t: _Tables, rng: random.Random, n: int,
                 holders: dict[str, set[str]]) -> list[dict]:
    """Registry titles in full cited by name alone (module doc), half of them with a comma
    inside a party's name; only names whose key no other case we hold has."""
    groups: dict[str, list] = defaultdict(list)
    for pair in _registry_titles(t):
        if holders[case_name_key(pair.name)] == {pair.case}:
            sub = "comma_in_name" if "," in pair.name else "no_comma"
            groups[sub].append((sub, pair))
    return [_item("name_alone", sub, "case", rng.choice(NAME_ALONE_TEMPLATES), pair.name,
                  expected="FOUND|OVERRULED", case_key=case_name_key(pair.name),
                  source=pair.source)
            for sub, pair in _spread(rng, groups, n)]


def _names_altered(t: _Tables, rng: random.Random, n: int,
                   held: Container[str]) -> list[dict]:
    """Registry titles with a comma inside a party's name, cited by name alone with the words
    after that comma taken from another title (module doc): no case we hold has the name."""
    titles = [pair for pair in _registry_titles(t) if "," in pair.name]
    out: list[dict] = []
    for pair in rng.sample(titles, len(titles)):
        if len(out) >= n:
            break
        head, _, _ = pair.name.rpartition(",")
        other = rng.choice(titles)
        tail = other.name.rpartition(",")[2]
        name = f"{head},{tail}"
        readings = [f"{head},{' '.join(tail.split()[:k])}" for k in range(len(tail.split()) + 1)]
        readings += [name[:i] for i, char in enumerate(name) if char == ","]  # cut at a comma
        if (" v. " not in head or " v. " in tail or other.case == pair.case
                or any(case_name_key(reading) in held for reading in readings)):
            continue  # the name, or some reading of it, is a case we hold
        out.append(_item("name_alone_altered", "comma_in_name", "case",
                         rng.choice(NAME_ALONE_TEMPLATES), name, expected="UNVERIFIABLE",
                         case_key=case_name_key(name),
                         source=f"{pair.source}, the end of {other.source}"))
    return out


# --- building, running, scoring -----------------------------------------------------------


def build_items(warehouse: Path, seed: int = 0, per_class: int = 70) -> pd.DataFrame:
    """Labeled items, `per_class` of each wrong class and twice that of each real class (so
    that a 2% false-flag rate is more than one item), deterministic for a seed."""
    t = load_tables(warehouse)
    rng = random.Random(seed)
    registry = _registry_cases(t, rng)
    statutes = (_real_statutes(t, rng, 2 * per_class) + _nonexistent(t, rng, per_class)
                + _past_end(t, rng, per_class) + _false_friends(t, rng, per_class)
                + _stale(t, rng, per_class))
    cases = (_real_cases(t, rng, 2 * per_class, registry)
             + _fabricated_cases(t, rng, per_class, registry)
             + _name_mismatches(t, rng, per_class, registry)
             + _wrong_pairings(t, rng, per_class))
    holders = _name_holders(t)
    # drawn last, in the order the classes were added, so that each new class left every
    # earlier item as it was
    items = (statutes + _sibling_sections(t, rng, per_class) + cases
             + _not_in_force(t, rng, per_class) + _past_last_sub_section(t, rng, per_class)
             + _names_alone(t, rng, per_class, holders)
             + _names_altered(t, rng, per_class, holders))
    frame = pd.DataFrame(items)
    frame.insert(0, "id", [f"{row['class']}-{i:04d}" for i, row in enumerate(items)])
    return frame


def verify_items(items: pd.DataFrame, checker: StatuteChecker,
                 case_verifier: CaseVerifier) -> pd.DataFrame:
    """Run every item through the gate; one row per item with its target citation's verdict
    (status MISSED when none), the number of citations found and the seconds it took."""
    rows = []
    for item in items.to_dict("records"):
        as_of = date.fromisoformat(item["as_of"]) if _text(item["as_of"]) else None
        started = time.perf_counter()
        report = verify_text(item["text"], checker, as_of=as_of, case_verifier=case_verifier)
        seconds = time.perf_counter() - started
        target = _target_verdict(report.verdicts, item)
        rows.append({
            "id": item["id"], "status": target.status if target else MISSED,
            "reason": target.reason if target else "no citation found at the target span",
            "successors": _links((link["act_code"], link["section_number"])
                                 for link in target.successors) if target else "",
            "verdict_text": target.text if target else "", "citations": len(report.verdicts),
            "overall": report.overall, "seconds": seconds})
    return pd.DataFrame(rows)


def _target_verdict(verdicts: list[CitationVerdict], item: dict) -> CitationVerdict | None:
    """The verdict of the item's citation: same kind, overlapping its span (most overlap)."""
    lo, hi = item["cite_start"], item["cite_end"]
    best, best_overlap = None, 0
    for verdict in verdicts:
        overlap = min(hi, verdict.span[1]) - max(lo, verdict.span[0])
        keyed = item["kind"] == "statute" or verdict.case_key is not None
        if verdict.kind == item["kind"] and keyed and overlap > best_overlap:
            best, best_overlap = verdict, overlap
    return best


def run_benchmark(settings: Settings, seed: int = 0, per_class: int = 70
                  ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """Build the items from the warehouse, verify them with the real gate, score them."""
    items = build_items(settings.warehouse, seed, per_class)
    verdicts = verify_items(items, StatuteChecker.from_settings(settings),
                            load_case_verifier(settings))
    return items, verdicts, score(items, verdicts)


def judged(items: pd.DataFrame, verdicts: pd.DataFrame) -> pd.DataFrame:
    """Items joined with their verdicts, with `correct` and `flagged` per item (module doc)."""
    frame = items.merge(verdicts[["id", "status", "successors"]], on="id", how="left",
                        validate="one_to_one")
    frame["status"] = frame["status"].fillna(MISSED)
    expected = frame["expected"].str.split("|")
    frame["status_right"] = [s in e for s, e in zip(frame["status"], expected, strict=True)]
    frame["correct"] = frame["status_right"] & (
        (frame["expected_successors"] == "")
        | (frame["expected_successors"] == frame["successors"].fillna("")))
    real = frame["class"].isin(REAL_CLASSES)
    marked = [s not in SURVIVING_STATUTE if k == "statute" else s in FLAGGED_CASE
              for s, k in zip(frame["status"], frame["kind"], strict=True)]
    missed = frame["status"] == MISSED
    frame["flagged"] = (pd.Series(marked, index=frame.index) & ~missed) | (real & missed)
    return frame


TARGETS = {  # class -> (measure, comparison, threshold, what the issue asks)
    "real_statute": ("flagged", "==", 0, "no real statute citation removed"),
    "nonexistent_section": ("recall", "==", 1.0, "every non-existent section caught"),
    "past_end": ("recall", "==", 1.0, "every number past an Act's end caught"),
    "false_friend": ("recall", ">=", 0.95, ">= 95% flagged with the right successor"),
    "not_in_force": ("recall", "==", 1.0, "every section no longer law caught"),
    "real_case": ("flagged_rate", "<=", 0.02, "<= 2% of real case citations flagged"),
    "fabricated_case": ("recall", ">=", 0.95, ">= 95% of fabricated case citations caught"),
}
SERVED = (("served: real not INVALID", REAL_CLASSES, ">=", 0.90),
          ("served: fakes caught", WRONG_CLASSES, ">=", 0.80))


def score(items: pd.DataFrame, verdicts: pd.DataFrame) -> pd.DataFrame:
    """Per class: n, correct, recall, precision, flagged, and the issue's target beside them;
    then the served system's protocol (real not INVALID >= 90%, fakes caught >= 80%)."""
    frame = judged(items, verdicts)
    rows = []
    for cls in CLASSES:
        mine = frame[frame["class"] == cls]
        if mine.empty:
            continue
        statuses = set("|".join(mine["expected"]).split("|"))
        same_kind = frame[(frame["kind"] == mine["kind"].iloc[0])
                          & frame["status"].isin(statuses)]
        row = {"class": cls, "n": len(mine), "correct": int(mine["correct"].sum()),
               "recall": mine["correct"].mean(),
               "precision": same_kind["status_right"].mean() if len(same_kind) else float("nan"),
               "flagged": int(mine["flagged"].sum()), "flagged_rate": mine["flagged"].mean(),
               "missed": int((mine["status"] == MISSED).sum())}
        rows.append(_with_target(row, *TARGETS.get(cls, (None, None, None, ""))))
    for name, classes, op, threshold in SERVED:
        mine = frame[frame["class"].isin(classes)]
        real = classes == REAL_CLASSES
        value = 1 - mine["flagged"].mean() if real else mine["flagged"].mean()
        rows.append({"class": name, "n": len(mine), "correct": int(
            (~mine["flagged"] if real else mine["flagged"]).sum()), "recall": value,
            "precision": float("nan"), "flagged": int(mine["flagged"].sum()),
            "flagged_rate": mine["flagged"].mean(), "missed": int(
                (mine["status"] == MISSED).sum()), "target": f"{op} {threshold:g}",
            "value": value, "met": _compare(value, op, threshold)})
    return pd.DataFrame(rows)


def _with_target(row: dict, measure: str | None, op: str | None, threshold: float | None,
                 _what: str) -> dict:
    if measure is None:
        return {**row, "target": "", "value": float("nan"), "met": None}
    value = row[measure]
    return {**row, "target": f"{measure} {op} {threshold:g}", "value": value,
            "met": _compare(value, op, threshold)}


def _compare(value: float, op: str, threshold: float) -> bool:
    return bool({"==": value == threshold, ">=": value >= threshold,
                 "<=": value <= threshold}[op])


def by_subclass(items: pd.DataFrame, verdicts: pd.DataFrame) -> pd.DataFrame:
    """Counts of verdicts per class and subclass: where the misses are."""
    frame = judged(items, verdicts)
    table = frame.groupby(["class", "subclass"]).agg(
        n=("id", "size"), correct=("correct", "sum"), flagged=("flagged", "sum"),
        statuses=("status", lambda s: ", ".join(f"{k} {v}" for k, v in sorted(
            Counter(s).items()))))
    return table.reset_index()
