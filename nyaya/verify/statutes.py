"""Statute verdicts: existence, false friends across the 2024 codes, stale repealed codes, and
sections no longer law.

Existence alone cannot catch the commonest hallucination: "BNS 302" cited for murder. BNS 302
exists (it is about wounding religious feelings); the writer meant IPC 302, whose successor is
BNS 103. So a found new-code section is also compared with the old code's section of the same
number against the words around the citation (FALSE_FRIEND), and an old-code section cited for
conduct on or after the new codes' commencement is STALE. A section its Act omitted or repealed,
or the Supreme Court struck down, is NOT_IN_FORCE unless the conduct came before the date the
note that dropped it gives (never once struck down; `nyaya.statutes.omissions`).

What the text held cannot settle is UNVERIFIABLE, never NOT_FOUND, which calls a citation
invented: a sub-section past the last one its section's text numbers, a provision the source
lacks (nyaya/facts/known_gaps.yaml), a section cited with no Act or read as the Act named before
it, which lacks it.

FALSE_FRIEND rule (deterministic, lexical): the context is the citation's sentence, clipped to
CONTEXT_CHARS characters either side and without the citation itself. Each section is described
by its title (weight 2 per word) and the first DESCRIPTION_CHARS characters of its text
(weight 1); words are lower-cased, crudely stemmed, and stop words and statutory boilerplate
("shall", "punished", "imprisonment", "fine", ...) are dropped. A section's score is the sum of
the best weights of the distinct context words it contains. The citation is a false friend when
the other code's same-numbered section scores at least FF_MIN_SCORE, beats the cited one by at
least FF_MARGIN and is at least FF_RATIO times its score (when the sentence quotes its whole
title and no word of the cited one's, beats it at all), and the cited section is not itself the
transition-map successor (or predecessor) of that other section.

SIBLING_MEANT rule: sections of one chapter often share most of their title ("Negligent conduct
with respect to fire or combustible matter", "... to machinery"), so the overlap above cannot
tell them apart. Siblings are sections of the cited one's Act and chapter whose titles share at
least SIBLING_SHARED words and SIBLING_JACCARD of them; what tells two apart is the words one
title has and the other lacks ("fire", "combustible", "matter" against "machinery"). Titles are
compared with the boilerplate words that can alone set two apart (TITLE_WORDS: "Courts of
Judicial Magistrates" and "Special Judicial Magistrates"). The citation describes a sibling when
the context holds none of the cited title's distinguishing words and some of the sibling's
other than TITLE_WORDS (a judgment's "the Court" or "fine" is no sign), weighing at least
SIBLING_DISTINCT by how rare they are among the chapter's titles (log(N / titles holding the
word)), and the sibling's description (as for FALSE_FRIEND) overlaps the sentence by at least
FF_MARGIN more than the cited one's; two siblings that tie are left alone. Tried first: a
sentence that quotes a section's title word for word (QUOTED_TERMS words or more, or two in a
phrase of QUOTED_PHRASE words; of a title longer than QUOTED_WORDS words, its start) describes
it. A section of the chapter whose title is not a part of the cited one's (IPC 405 "Criminal
breach of trust" is named beside 409, which aggravates it) is the one meant when the sentence
quotes it, holds none of the cited title's own words, does not quote the cited title as far
(IPC 241 and 254 share their first twelve words), and the section's description fits the
sentence at least as well; its words need not be rare, nor shared with the cited title
("Abettor present when offence is committed", IPC 114, quoted for 117, "Abetting commission
of offence by the public ..."), and boilerplate counts. A phrase that cites
two sections or more ("sections 286 and 287 BNS", "section 302 read with section 34 IPC") is
not judged: its sentence is the list's. Sections are counted as the extractor parsed them, so
an Act's year ("Section 287 of the Bharatiya Nyaya Sanhita, 2023", "BNS_2023 s.287") or a
sub-section ("Section 287(1)") is no second section.

The reverse check (an IPC/CrPC/IEA number cited with the new code's meaning) is off by default
(`reverse_false_friends`): on 3,000 judgment chunks, which cite the old codes correctly, it
flagged 39 of about 1,150 found citations, mostly inside long lists of sections whose context
describes the neighbours.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, replace
from datetime import date
from functools import lru_cache

from nyaya.citations.statutes import (
    ACT_NOT_NAMED,
    CONTEXT,
    SECTION,
    StatuteMention,
    extract_statute_mentions,
)
from nyaya.lookup import (
    YEAR,
    LookupResult,
    ParsedCitation,
    StatuteLookup,
    UnreadName,
    provision_label,
    read_sections,
    read_untexted,
)
from nyaya.settings import Settings
from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.omissions import STRUCK_DOWN, Omission
from nyaya.statutes.registry import AliasIndex, alias_index_from_rows
from nyaya.tables import read_table, records
from nyaya.verify.absent_acts import (
    SOURCE_JUDGMENTS,
    AbsentAct,
    AbsentActs,
    absent_acts_of,
    unread_name,
)
from nyaya.verify.model import (
    FALSE_FRIEND,
    NOT_FOUND,
    NOT_IN_FORCE,
    SIBLING_MEANT,
    SOURCE_CANONICAL_TABLE,
    SOURCE_VECTOR_STORE,
    STALE,
    UNVERIFIABLE,
    VERIFIED,
    CitationVerdict,
)

# The repealed codes and the 2023 codes that replaced them.
REPEALED_BY = {"IPC_1860": "BNS_2023", "CrPC_1973": "BNSS_2023", "IEA_1872": "BSA_2023"}
REPLACES = {new: old for old, new in REPEALED_BY.items()}
# Used only when the registry records no date: BNS, BNSS and BSA came into force on 1 July 2024
# (Gazette notifications S.O. 850(E), 848(E) and 849(E) of 23 February 2024).
NEW_CODES_COMMENCEMENT = date(2024, 7, 1)

CONTEXT_CHARS = 200
DESCRIPTION_CHARS = 300
TITLE_WEIGHT = 2.0
TEXT_WEIGHT = 1.0
FF_MIN_SCORE = 2.0  # at least one title word, or two text words, of the other section
FF_MARGIN = 2.0
FF_RATIO = 2.0
SIBLING_SHARED = 2
SIBLING_JACCARD = 0.4
SIBLING_DISTINCT = 1.0  # log(N / df): a word in at most a third of the chapter's titles
QUOTED_TERMS = 3  # a title quoted whole names three words or more ("Power to make rules"),
QUOTED_PHRASE = 5  # or two in a phrase of five words or more ("Abettor present when offence is
# committed")
QUOTED_WORDS = 12  # of a longer title, a sentence may quote the first twelve words
PHRASE_WORD = re.compile(r"[a-z0-9]+")

REMOVE = "remove this citation; do not renumber or substitute"

SENTENCE_END = re.compile(r"(?<=[A-Za-z0-9)\]]{3}[.!?])\s+(?=[A-Z\"“‘'(\[])|\n\s*\n")
WORD = re.compile(r"[a-z]{3,}")
SUFFIXES = ("ments", "ment", "ations", "ation", "ions", "ion", "ings", "ing", "edly", "ed", "es",
            "s")
STOP_WORDS = {
    "the", "and", "for", "with", "any", "all", "shall", "may", "which", "who", "whoever", "whom",
    "such", "that", "this", "these", "those", "has", "have", "had", "been", "was", "were", "are",
    "not", "but", "from", "into", "upon", "under", "other", "than", "his", "her", "him", "its",
    "their", "them", "they", "there", "where", "when", "what", "whether", "also", "being", "one",
    "two", "section", "sub", "clause", "act", "code", "sanhita", "adhiniyam", "bharatiya", "nyaya",
    "nagarik", "suraksha", "sakshya", "indian", "penal", "punish", "punished", "punishment",
    "imprisonment", "either", "description", "term", "extend", "year", "fine", "liable", "both",
    "person", "offence", "provided", "said", "same", "case", "cited", "applies", "apply",
    "accused", "court", "held", "law", "per", "read", "viz", "etc", "commit",
}
# Statutory boilerplate and the prose around any citation, no sign of what a sentence is about,
# which can still be all that sets two sibling titles apart ("Courts of Judicial Magistrates",
# "Special Judicial Magistrates"; "Execution of sentence of imprisonment", "... of fine"): the
# sibling rule compares titles with them (_title_terms) but never counts them as a sign that
# the sentence means the sibling. "Punishment" is not one of them: a section that punishes an
# offence is rightly cited in the words of the section that defines it.
TITLE_WORDS = {"imprisonment", "description", "term", "extend", "year", "fine", "accused",
               "court"}


@lru_cache(maxsize=1 << 16)
def _stem(word: str) -> str:
    """Word -> stem, each distinct word once (section texts share most of their words). A
    final "e" goes too, so that "sentence" and "sentences", "Magistrate" and "Magistrates"
    meet ("committees" loses only its "s", to meet "committee"); "witness" keeps its "ss" to
    meet "witnesses"; a final "y" after a consonant is "i"; a noun in "-ion" meets its verb
    ("commutation" and "commute", "direction" and "direct")."""
    stem = word
    for suffix in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 4 and not (
                suffix == "s" and word.endswith("ss")):
            stem = word[: -len(suffix)]
            # "committed" / "committing" -> "commit", as "commits" is
            if suffix in ("ed", "ing", "ings") and stem[-1] == stem[-2] and stem[-1] not in "lsz":
                stem = stem[:-1]
            elif suffix == "es" and stem.endswith("e"):
                return stem
            break
    if len(stem) > 3 and stem.endswith("y") and stem[-2] not in "aeiou":
        return stem[:-1] + "i"  # "penalty" meets "penalties", "copy" meets "copies"
    return stem[:-1] if stem.endswith("e") and len(stem) > 4 else stem


STOP_STEMS = {_stem(word) for word in STOP_WORDS}
TITLE_STEMS = {_stem(word) for word in TITLE_WORDS}
# prose about a provision whose stem is a word of the law's: "the provision governing
# rioting" is not about the Government, as the stem alone would have it
PROSE_WORDS = {"governing", "governs", "governed"}


def _stems(text: str) -> Iterator[str]:
    return (_stem(word) for word in WORD.findall(text.lower()) if word not in PROSE_WORDS)


@lru_cache(maxsize=8192)
def _terms(text: str) -> frozenset[str]:
    return frozenset(stem for stem in _stems(text) if stem not in STOP_STEMS)


@lru_cache(maxsize=8192)
def _title_terms(text: str) -> frozenset[str]:
    """_terms with TITLE_WORDS kept: the words the sibling rule compares titles by."""
    stems = _stems(text)
    return frozenset(stem for stem in stems if stem in TITLE_STEMS or stem not in STOP_STEMS)


def _description(row: dict) -> dict[str, float]:
    """Word -> weight for one section: its title counts double its opening text."""
    weights = dict.fromkeys(_terms(" ".join(str(row.get("text") or "")[:DESCRIPTION_CHARS]
                                            .split())), TEXT_WEIGHT)
    weights.update(dict.fromkeys(_terms(str(row.get("title") or "")), TITLE_WEIGHT))
    return weights


def overlap_score(context: frozenset[str], description: dict[str, float]) -> float:
    """How well the words around a citation describe a section (see the module docstring)."""
    return sum(description.get(term, 0.0) for term in context)


def citation_context(text: str, start: int, end: int) -> str:
    """The citation's sentence, at most CONTEXT_CHARS either side, without the citation."""
    lo, hi = max(0, start - CONTEXT_CHARS), min(len(text), end + CONTEXT_CHARS)
    # one character past each limit, so that the look-ahead can see the next sentence's start
    for m in SENTENCE_END.finditer(text, lo, start + 1):
        lo = m.end()
    after = SENTENCE_END.search(text, end, min(len(text), hi + 1))
    if after:
        hi = after.start()
    return text[lo:start] + " " + text[end:hi]


def _phrase(text: str) -> str:
    """Text as its lower-cased words, one space apart and one space either side: a title is
    quoted in a sentence when its phrase is part of the sentence's."""
    return f" {' '.join(PHRASE_WORD.findall(text.lower()))} "


def _quoted(title: str) -> str:
    """What of a title a sentence quoting it must hold: its words up to QUOTED_WORDS (a long
    title is often cut), without a closing "etc"."""
    words = PHRASE_WORD.findall(title.lower())[:QUOTED_WORDS]
    return " ".join(words[:-1] if words[-1:] == ["etc"] else words)


@dataclass(frozen=True)
class _Sibling:
    row: dict
    quoted: bool  # the sentence quotes its whole title (else: its rare words)
    near: bool  # its title shares SIBLING_SHARED words with the cited one's


@dataclass(frozen=True)
class _FalseFriend:
    other_act: str
    other_row: dict
    score: float
    cited_score: float
    links: list[dict]


class StatuteChecker:
    """Exact lookup plus the facts verdicts need: titles, the transition map, commencement."""

    def __init__(self, registry: list[dict], sections: list[dict], transitions: list[dict],
                 aliases: AliasIndex | None = None, *, reverse_false_friends: bool = False,
                 untexted: dict[tuple[str, str], str] | None = None,
                 absent_acts: Callable[[], AbsentActs] | None = None) -> None:
        """`absent_acts`: the lookup's (`StatuteLookup`)."""
        self.reverse_false_friends = reverse_false_friends
        self.aliases = aliases or alias_index_from_rows(registry)
        self.lookup = StatuteLookup(registry, sections, transitions, self.aliases, untexted,
                                    absent_acts)
        # The false-friend test compares a cited section of the six codes with its namesake
        # in the other code: their descriptions are made once, here, not on first citation.
        codes = set(REPLACES) | set(REPEALED_BY)
        self._descriptions: dict[tuple[str, str], dict[str, float]] = {
            key: _description(row) for key, row in self.lookup.sections.items()
            if key[0] in codes}
        self.commencement: dict[str, tuple[date, str]] = {
            old: self._commencement(old, new) for old, new in REPEALED_BY.items()}
        self._chapters: dict[tuple[str, str], list[tuple[str, str]]] = {}
        for key, row in self.lookup.sections.items():
            chapter = row.get("chapter_number")
            if isinstance(chapter, str) and chapter:
                self._chapters.setdefault((key[0], chapter), []).append(key)
        self._titles: dict[tuple[str, str], dict[tuple[str, str], frozenset[str]]] = {}
        self._weights: dict[tuple[str, str], dict[str, float]] = {}
        self._siblings: dict[tuple[str, str], tuple[frozenset[str], list]] = {}
        self._quotable: dict[tuple[str, str], list[tuple[tuple[str, str], str,
                                                         frozenset[str], frozenset[str]]]] = {}

    def _commencement(self, old: str, new: str) -> tuple[date, str]:
        """When citing `old` became stale, and where that date came from."""
        for code, column in ((old, "repealed_on"), (new, "applicable_from")):
            value = self.lookup.acts.get(code, {}).get(column)
            if isinstance(value, str) and value:
                return date.fromisoformat(value[:10]), f"act_registry {code}.{column}"
        return NEW_CODES_COMMENCEMENT, "notified commencement of the 2023 codes"

    @classmethod
    def from_settings(cls, settings: Settings) -> StatuteChecker:
        """Build from the warehouse tables; FileNotFoundError when the statute tables are not
        built. The judgments' citations of Acts the corpus lacks are read when first needed."""
        registry = records(read_table(settings.table_path("act_registry")))
        sections = records(read_sections(settings.table_path("sections")))
        transitions = records(read_table(settings.table_path("law_transition_map")))
        aliases = alias_index_from_rows(registry)
        return cls(registry, sections, transitions, aliases,
                   untexted=read_untexted(settings.table_path("ingest_quarantine")),
                   absent_acts=absent_acts_of(settings, aliases))

    def warm(self) -> None:
        """Load now what the first citation needing it would (`StatuteLookup.warm`), and
        compare the titles of the six codes' sections with their chapters' (the sibling
        checks), which most citations name: a server's first answers should not pay for it."""
        self.lookup.warm()
        codes = set(REPLACES) | set(REPEALED_BY)
        for chapter, keys in self._chapters.items():
            if chapter[0] in codes:
                self._title_weights(chapter)
                for own in keys:
                    own_title, _ = self._siblings_of(own, chapter)
                    self._quotable_near(own, own_title, chapter)

    def section_row(self, act_code: str, section: str) -> dict | None:
        return self.lookup.sections.get((act_code, normalize_section_number(section)))

    def _description_of(self, key: tuple[str, str]) -> dict[str, float]:
        """A section's description: made at load for the six codes, else once when first
        needed (stemming section text on every citation was a tenth of verification time)."""
        found = self._descriptions.get(key)
        if found is None:
            found = self._descriptions[key] = _description(self.lookup.sections.get(key) or {})
        return found

    def verdict(self, text: str, mention: StatuteMention, *, as_of: date | None = None,
                indexed: Callable[[str, str], bool] | None = None,
                listed: bool | None = None) -> CitationVerdict:
        """The verdict for one mention found in `text`. `listed`: whether the mention's phrase
        cites other sections too (`cites_several`); None: the phrase is parsed again to tell."""
        verdict = CitationVerdict(
            text=text[mention.group_start:mention.group_end],
            span=(mention.group_start, mention.group_end), kind="statute", status=NOT_FOUND,
            reason="", act_code=mention.act_code, section_number=mention.section,
            unit=mention.unit, numbered_as=mention.kind)
        if mention.section is None:  # a short form ("the said section") with no antecedent
            verdict.reason = (f"'{verdict.text}' cannot be verified: {mention.problem}; cite "
                              f"the provision by its number.")
            return verdict
        if mention.act_code is None:
            name = self.lookup.read_name(unread_name(mention.problem))
            if name.held is None:
                return self._unread_act_verdict(verdict, mention, name)
            found = self.verdict(text, replace(mention, act_code=name.held, problem=None),
                                 as_of=as_of, indexed=indexed, listed=listed)
            found.reason += name.reading_note(self.lookup.acts[name.held]["title"])
            return found
        result = self.lookup.resolve(ParsedCitation(
            verdict.text, mention.act_code, mention.section, mention.unit, None, mention.kind,
            dated=bool(mention.act_text and YEAR.search(mention.act_text)),
            named_as=mention.act_text))
        if result.namesake is not None:  # "Section 44AD of the IT Act": the Income-tax Act's
            found = self.verdict(text, replace(mention, act_code=result.act_code),
                                 as_of=as_of, indexed=indexed, listed=listed)
            found.reason += f" {result.namesake}"
            return found
        if not result.found:
            if result.unit_unheld:
                verdict.status = UNVERIFIABLE
                verdict.reason = f"{result.unit_unheld}: check it before relying on it."
                verdict.matched = _matched(result)
                return verdict
            if result.known_gap:
                return self._known_gap_verdict(verdict, mention, result, as_of)
            if result.older_act is not None:
                verdict.status = UNVERIFIABLE
                verdict.reason = f"{result.reason}; check it before relying on it."
                verdict.matched = {"act_title": result.older_act.name, "citing_section": list(
                    result.older_act.citing(mention.section, mention.kind))}
                verdict.source = SOURCE_JUDGMENTS
                return verdict
            if (mention.resolution == CONTEXT and mention.act_text is None
                    and mention.kind == SECTION):
                # a bare number read as the Act last named: another Act may be meant (a bare
                # Article is the Constitution's by convention, not by what came before)
                verdict.status = UNVERIFIABLE
                verdict.reason = (
                    f"{result.reason}; written without its Act, it was read as "
                    f"{mention.act_code}'s, the Act named before it, and may be another's "
                    f"({self.lookup.held_in(mention.section)}): name its Act to verify it.")
                return verdict
            verdict.reason = f"{result.reason}: it does not exist there; {REMOVE}."
            return verdict
        verdict.section_number = result.section_number
        verdict.matched = _matched(result)
        friend = self._false_friend(text, mention, result)
        if friend:
            return self._false_friend_verdict(verdict, result, friend)
        label = provision_label(mention.act_code, result.section_number, mention.unit)
        gone = result.omission
        # that a section is no longer law is read from its source; that another was meant, from
        # the sentence's words: the facts go first
        if gone is not None and not gone.in_force_on(as_of):
            if self._stale(verdict, label, result, as_of):
                return verdict
            verdict.status = NOT_IN_FORCE
            verdict.reason = _not_in_force(label, gone, as_of)
            return verdict
        sibling = self._sibling_meant(text, mention, result, listed)
        if sibling is not None:
            return self._sibling_verdict(verdict, result, sibling)
        if self._stale(verdict, label, result, as_of):
            return verdict
        verdict.status = VERIFIED
        verdict.source = (SOURCE_VECTOR_STORE if indexed and indexed(
            mention.act_code, result.section_number) else SOURCE_CANONICAL_TABLE)
        verdict.reason = f"{label} exists: {result.title} (source: {verdict.source})."
        if gone is not None:
            verdict.reason += f" It was in force on {as_of}: {gone.describe()}."
        elif result.section_status and result.section_status != "in_force":
            verdict.reason += f" Section status: {result.section_status}."
        if mention.act_code in REPEALED_BY:
            cutoff, _ = self.commencement[mention.act_code]
            when = (f"it applies to conduct before {cutoff}" if as_of is None
                    else f"in force on {as_of}")
            verdict.reason += (f" Repealed code: {when}; successor: "
                               f"{_names(result.successors) or 'none recorded'}.")
        return verdict

    def _unread_act_verdict(self, verdict: CitationVerdict, mention: StatuteMention,
                            name: UnreadName) -> CitationVerdict:
        """A citation of an Act the registry does not know: judged by the corpus judgments
        that cite it when they are enough (`nyaya.verify.absent_acts`), UNVERIFIABLE when an
        Act of the corpus repeals it, when it may be initials or a shortened name
        (`UnreadName.unsure`), when it amends an Act the corpus holds or is a State's, or when
        it names no Act at all (`StatuteLookup.unnamed`), else NOT_FOUND."""
        if name.absent is not None:
            verdict = _absent_act_verdict(verdict, name.absent)
            verdict.reason = name.repeal_note(verdict.reason)
            return verdict
        if name.repealed is not None:
            verdict.status = UNVERIFIABLE
            verdict.reason = name.repealed_reason()
            repeal = name.repealed
            verdict.matched = {"act_title": repeal.name,
                               "repealed_by": f"{repeal.by_act} s.{repeal.by_section}"}
            return verdict
        if name.candidates:
            verdict.status = UNVERIFIABLE
            verdict.reason = f"{name.unsure()}; check it before relying on it."
            verdict.matched = ({"initials_of": list(name.initials_of)} if name.initials_of
                               else {"ending_of": list(name.ending_of)})
            return verdict
        if name.unheld_reason():  # an amending Act, or a State's
            verdict.status = UNVERIFIABLE
            verdict.reason = f"{name.unheld_reason()}; check it before relying on it."
            return verdict
        if mention.problem in (None, ACT_NOT_NAMED):  # a number with no Act: none to doubt
            verdict.status = UNVERIFIABLE
            verdict.reason = (f"{self.lookup.unnamed(mention.section)}; check it before "
                              "relying on it.")
            return verdict
        verdict.reason = (f"The Act of section {mention.section} could not be identified "
                          f"({mention.problem}), so it cannot be verified: {REMOVE}.")
        return verdict

    def _known_gap_verdict(self, verdict: CitationVerdict, mention: StatuteMention,
                           result: LookupResult, as_of: date | None) -> CitationVerdict:
        """A section that exists, or existed, in law but not in the corpus: NOT_IN_FORCE when
        it was dropped before the conduct's date (today when none is given), STALE when its
        repealed code's rule says so, else UNVERIFIABLE; never NOT_FOUND (it is not invented)."""
        label = provision_label(mention.act_code, mention.section, mention.unit, mention.kind)
        gone = result.omission
        if gone is not None and not gone.in_force_on(as_of):
            verdict.status = NOT_IN_FORCE
            verdict.reason = _not_in_force(label, gone, as_of)
        elif gone is not None:
            verdict.status = UNVERIFIABLE
            verdict.reason = (f"{label} was law on {as_of} ({gone.describe()}), but the corpus "
                              f"lacks its text ({result.known_gap}), so it cannot be verified "
                              "here: check it against the official text before relying on it.")
        elif not self._stale(verdict, label, result, as_of):
            verdict.status = UNVERIFIABLE
            verdict.reason = (f"{label} exists in law, but the corpus lacks its text "
                              f"({result.known_gap}), so it cannot be verified here: check it "
                              "against the official text before relying on it.")
        return verdict

    def _stale(self, verdict: CitationVerdict, label: str, result: LookupResult,
               as_of: date | None) -> bool:
        """Make the verdict STALE, naming the successors, when it cites a repealed code for
        conduct on or after its repeal; whether it did. A repealed code's section is given
        its successors either way."""
        if result.act_code not in REPEALED_BY:
            return False
        verdict.successors = list(result.successors)
        cutoff, origin = self.commencement[result.act_code]
        if as_of is None or as_of < cutoff:
            return False
        successors = _names(result.successors) or "none recorded in the transition map"
        title = f" ({result.title})" if result.title else ""
        verdict.status = STALE
        verdict.reason = (f"{label}{title} belongs to a code repealed on {cutoff} ({origin}); "
                          f"for conduct on {as_of} cite its successor: {successors}. A person "
                          "must check the successor before citing it.")
        return True

    def _false_friend(self, text: str, mention: StatuteMention,
                      result: LookupResult) -> _FalseFriend | None:
        other_act = REPLACES.get(mention.act_code) or (
            REPEALED_BY.get(mention.act_code) if self.reverse_false_friends else None)
        if other_act is None or mention.kind != "section":
            return None
        other_row = self.section_row(other_act, result.section_number)
        if other_row is None:
            return None
        own = (mention.act_code, normalize_section_number(result.section_number))
        other = (other_act, normalize_section_number(other_row["section_number"]))
        # The other section's meaning carried over to the cited one: never a false friend.
        mapped = self.lookup.successors.get(other, []) + self.lookup.predecessors.get(other, [])
        if any((link["act_code"], normalize_section_number(link["section_number"])) == own
               for link in mapped):
            return None
        sentence = citation_context(text, mention.group_start, mention.group_end)
        context = _terms(sentence)
        if not context:
            return None
        score = overlap_score(context, self._description_of(other))
        cited_score = overlap_score(context, self._description_of(own))
        if score < FF_MIN_SCORE or score <= cited_score:
            return None
        # short of the margin, the other section's title quoted whole, none of the cited
        # title's words there, is enough ("The provision governing affray is Sec. 159 BNS")
        if (score - cited_score < FF_MARGIN or score < FF_RATIO * cited_score) and not (
                _phrase(str(other_row.get("title") or "")) in _phrase(sentence)
                and not _terms(str(result.title or "")) & context):
            return None
        # New code cited with the old meaning: the old section's successors are the fix.
        # Old code cited with the new meaning: the new section's predecessors are the fix.
        links = (self.lookup.successors if mention.act_code in REPLACES
                 else self.lookup.predecessors).get(other, [])
        return _FalseFriend(other_act, other_row, score, cited_score, list(links))

    def _chapter_titles(self, chapter: tuple[str, str]) -> dict[tuple[str, str], frozenset[str]]:
        """Each section of the chapter -> its title's words (`_title_terms`), once per chapter."""
        found = self._titles.get(chapter)
        if found is None:
            found = self._titles[chapter] = {
                key: _title_terms(str(self.lookup.sections[key].get("title") or ""))
                for key in self._chapters.get(chapter, [])}
        return found

    def _title_weights(self, chapter: tuple[str, str]) -> dict[str, float]:
        """Title word -> log(N / titles of the chapter holding it), once per chapter."""
        found = self._weights.get(chapter)
        if found is None:
            titles = self._chapter_titles(chapter).values()
            counts: dict[str, int] = {}
            for terms in titles:
                for term in terms:
                    counts[term] = counts.get(term, 0) + 1
            found = self._weights[chapter] = {term: math.log(len(titles) / count)
                                              for term, count in counts.items()}
        return found

    def _siblings_of(self, own: tuple[str, str], chapter: tuple[str, str]
                     ) -> tuple[frozenset[str], list[tuple[tuple[str, str], frozenset[str]]]]:
        """A section's title words and its siblings with theirs, once per section: the gate
        asks for the same sections over and over."""
        found = self._siblings.get(own)
        if found is None:
            titles = self._chapter_titles(chapter)
            own_title = titles.get(own, frozenset())
            siblings = [(key, title) for key, title in titles.items()
                        if key != own and len(title & own_title) >= SIBLING_SHARED
                        and len(title & own_title) / len(title | own_title) >= SIBLING_JACCARD]
            found = self._siblings[own] = (own_title, siblings)
        return found

    def _sibling_meant(self, text: str, mention: StatuteMention, result: LookupResult,
                       listed: bool | None) -> _Sibling | None:
        """The sibling section the words around the citation describe instead of the cited
        one (the module docstring's SIBLING_MEANT rule), or None."""
        if mention.kind != "section" or not result.chapter_number:
            return None
        own = (mention.act_code, normalize_section_number(result.section_number))
        chapter = (mention.act_code, str(result.chapter_number))
        own_title, siblings = self._siblings_of(own, chapter)
        quotable = self._quotable_near(own, own_title, chapter)
        if not siblings and not quotable:
            return None
        if listed is None:  # called without the document's mentions: parse the phrase alone
            listed = bool(cites_several(extract_statute_mentions(mention.text, self.aliases)))
        if listed:
            return None  # in a list ("sections 396, 397, 450"), the sentence is the list's
        sentence = citation_context(text, mention.group_start, mention.group_end)
        context = _title_terms(sentence)
        # the sibling's whole description (title and opening text) fits the sentence as well
        # when its title is quoted, else clearly better: a judge's paraphrase of the cited
        # section is not flagged
        key = self._quoted_sibling(sentence, context, quotable, str(result.title or ""))
        if key is not None and self._fits_better(sentence, own, own_title, chapter, key, 0.0):
            near = len(self._chapter_titles(chapter)[key] & own_title) >= SIBLING_SHARED
            return _Sibling(self.lookup.sections[key], quoted=True, near=near)
        key = self._distinct_sibling(own_title, siblings, context, chapter)
        if key is not None and self._fits_better(sentence, own, own_title, chapter, key,
                                                 FF_MARGIN):
            return _Sibling(self.lookup.sections[key], quoted=False, near=True)
        return None

    def _fits_better(self, sentence: str, own: tuple[str, str], own_title: frozenset[str],
                     chapter: tuple[str, str], key: tuple[str, str], margin: float) -> bool:
        """Whether the sibling's description overlaps the sentence by `margin` more than the
        cited section's, read with its definitions (`_defined_description`)."""
        words = _terms(sentence)
        return overlap_score(words, self._description_of(key)) >= overlap_score(
            words, self._defined_description(
                own, own_title - self._chapter_titles(chapter)[key], chapter)) + margin

    def _distinct_sibling(self, own_title: frozenset[str], siblings: list, context: frozenset[str],
                          chapter: tuple[str, str]) -> tuple[str, str] | None:
        """The sibling whose rare title words the sentence holds, none of the cited title's
        own being there; None when none weighs SIBLING_DISTINCT or two tie."""
        weights = self._title_weights(chapter)
        scored = []
        for key, title in siblings:
            own_distinct, sibling_distinct = own_title - title, title - own_title
            signs = sibling_distinct & context - TITLE_STEMS
            if own_distinct and not own_distinct & context and signs:
                scored.append((sum(weights.get(term, 0.0) for term in signs), key))
        scored.sort(reverse=True)
        if not scored or scored[0][0] < SIBLING_DISTINCT or (
                len(scored) > 1 and scored[1][0] == scored[0][0]):
            return None
        return scored[0][1]

    def _quoted_sibling(self, sentence: str, context: frozenset[str],
                        quotable: list[tuple[tuple[str, str], str, frozenset[str],
                                             frozenset[str]]],
                        own_title: str) -> tuple[str, str] | None:
        """The section of `quotable` (`_quotable_near`) whose title the sentence quotes word
        for word (whole, or its first QUOTED_WORDS words), no word that sets the cited title
        (`own_title`) apart being in the sentence; None when none, when two are quoted as
        long, or when the cited title is quoted as far (IPC 241 and 254 differ past their
        first twelve words). Boilerplate words count here ("Courts of Judicial Magistrates"
        against "Subordination of ..."), and the title's words need not be rare: quoted, a
        title is what the sentence is about."""
        phrase = None
        found = []
        for key, quoted, words, own_distinct in quotable:
            if not words <= context or own_distinct & context:
                continue
            phrase = phrase or _phrase(sentence)
            if quoted in phrase:
                found.append((len(words), key))
        found.sort(reverse=True)
        if not found or (len(found) > 1 and found[1][0] == found[0][0]):
            return None
        own = _quoted(own_title)
        if own and f" {own} " in phrase:
            return None
        return found[0][1]

    def _quotable_near(self, own: tuple[str, str], own_title: frozenset[str],
                       chapter: tuple[str, str]
                       ) -> list[tuple[tuple[str, str], str, frozenset[str], frozenset[str]]]:
        """The sections of the chapter a sentence may quote instead of the cited one, once per
        section: a title whose quoted part (`_quoted`) has QUOTED_TERMS words or more (two in
        a phrase of QUOTED_PHRASE words will do), not a part of the cited one's (a title inside
        the cited one's, "Criminal breach of trust" in IPC 409's, is the offence 409
        aggravates, rightly named beside it); each with that part, its words and the words
        that set the cited title apart from it."""
        found = self._quotable.get(own)
        if found is None:
            found = self._quotable[own] = []
            for key, title in self._chapter_titles(chapter).items():
                if key == own or title <= own_title:
                    continue
                quoted = _quoted(str(self.lookup.sections[key].get("title") or ""))
                words = _title_terms(quoted)
                long_enough = len(words) >= QUOTED_TERMS or (
                    len(words) == 2 and quoted.count(" ") + 1 >= QUOTED_PHRASE)
                if long_enough and own_title - title:
                    found.append((key, _phrase(quoted), words, own_title - title))
        return found

    def _defined_description(self, own: tuple[str, str], own_distinct: frozenset[str],
                             chapter: tuple[str, str]) -> dict[str, float]:
        """The cited section's description with the description of every section of its
        chapter whose title is made of the words that set the cited title apart from the
        sibling's (IPC 146 "Rioting" for 148 "Rioting, armed with deadly weapon" against 144
        "Joining unlawful assembly armed with deadly weapon"): a sentence may describe the
        offence a title names in its definition's words ("an unlawful assembly armed with
        deadly weapons" under s.148)."""
        description = dict(self._description_of(own))
        for key, title in self._chapter_titles(chapter).items():
            if key != own and title and title <= own_distinct:
                for term in self._description_of(key):
                    description.setdefault(term, TEXT_WEIGHT)
        return description

    def _sibling_verdict(self, verdict: CitationVerdict, result: LookupResult,
                         found: _Sibling) -> CitationVerdict:
        sibling = found.row
        cited = provision_label(verdict.act_code, result.section_number, None)
        meant = provision_label(verdict.act_code, sibling["section_number"], None)
        verdict.status = SIBLING_MEANT
        verdict.successors = [{"act_code": verdict.act_code,
                               "section_number": sibling["section_number"],
                               "relation": "sibling in the same chapter"}]
        signs = (f"the sentence quotes {meant}'s title" if found.quoted
                 else f"{meant}'s are")
        alike = "with a near-same title" if found.near else "of another title"
        verdict.reason = (
            f"{cited} exists ({result.title}), but the text describes {meant} "
            f"({sibling.get('title')}), a section of its chapter {alike}: "
            f"none of the words that set {cited}'s title apart is in the sentence, and "
            f"{signs}. Remove this citation; a person must check {meant} before citing it.")
        return verdict

    def _false_friend_verdict(self, verdict: CitationVerdict, result: LookupResult,
                              friend: _FalseFriend) -> CitationVerdict:
        cited = provision_label(verdict.act_code, result.section_number, None)
        other = provision_label(friend.other_act, friend.other_row["section_number"], None)
        verdict.status = FALSE_FRIEND
        verdict.successors = friend.links
        scores = f"context overlap {friend.score:g} vs {friend.cited_score:g}"
        if verdict.act_code in REPLACES:
            fix = (f"the correct successor of {other} is {_names(friend.links)}" if friend.links
                   else f"the transition map names no successor of {other}")
        else:
            fix = (f"that meaning is {other} in the new code and "
                   f"{_names(friend.links)} in the old one" if friend.links
                   else f"the transition map names no predecessor of {other}")
        verdict.reason = (
            f"{cited} exists ({result.title}), but the text describes {other} "
            f"({friend.other_row.get('title')}) of the same number ({scores}); {fix}. "
            "Remove this citation; a person must check the section named before citing it.")
        return verdict


def verify_statutes(text: str, checker: StatuteChecker, *, as_of: date | None = None,
                    indexed: Callable[[str, str], bool] | None = None) -> list[CitationVerdict]:
    """One verdict per statute mention in `text`, in order; `indexed(act, section)` says whether
    the vector store holds a section (None: everything is confirmed from the canonical table).

    A short form ("the said section") gets its antecedent's verdict: judged by the words around
    it, a false-friend check could contradict the verdict on the provision it repeats."""
    verdicts: list[CitationVerdict] = []
    by_span: dict[tuple[int, int, str | None], CitationVerdict] = {}
    mentions = extract_statute_mentions(text, checker.aliases)
    lists = cites_several(mentions)
    for mention in mentions:
        antecedent = (by_span.get((*mention.antecedent, mention.section))
                      if mention.antecedent else None)
        if antecedent is None or antecedent.unit != mention.unit:  # "sub-section (2) of it"
            verdict = checker.verdict(text, mention, as_of=as_of, indexed=indexed,
                                      listed=(mention.group_start, mention.group_end) in lists)
            by_span[(mention.start, mention.end, mention.section)] = verdict
        else:
            written = text[mention.group_start:mention.group_end]
            verdict = replace(antecedent, text=written, span=(mention.group_start,
                                                              mention.group_end),
                              reason=f"'{written}' refers to {antecedent.text}: "
                              f"{antecedent.reason}", successors=list(antecedent.successors))
        verdicts.append(verdict)
    return verdicts


def cites_several(mentions: list[StatuteMention]) -> set[tuple[int, int]]:
    """The phrases (group_start, group_end) among `mentions` that cite two sections or more:
    "Sections 286 and 287 BNS", "Sections 286 to 288", "Section 302 read with Section 34 IPC".
    Sections as the extractor parsed them (Act and number), so neither an Act's year
    ("Section 287 of the Bharatiya Nyaya Sanhita, 2023", "BNS_2023 s.287") nor a sub-section
    ("Section 287(1)") makes a phrase a list, nor one section named twice in it."""
    cited: dict[tuple[int, int], set[tuple[str | None, str | None]]] = {}
    for mention in mentions:
        cited.setdefault((mention.group_start, mention.group_end), set()).add(
            (mention.act_code, mention.section))
    return {span for span, sections in cited.items() if len(sections) > 1}


def _not_in_force(label: str, gone: Omission, as_of: date | None) -> str:
    """Why a section its Act dropped, or the Court struck down, is not verified for the
    conduct's date (today when none is given)."""
    if gone.kind == STRUCK_DOWN:
        return (f"{label} is not law: it was {gone.describe()}. A section struck down is "
                "void, for conduct on any date: do not cite it as law.")
    if gone.effective is None:
        return (f"{label} is no longer law: {gone.describe()}. When it stopped being law is "
                "not recorded, so it cannot be verified for any date.")
    if as_of is not None:
        return (f"{label} was {gone.describe()}, so it was not law on {as_of}. A person must "
                "check what, if anything, replaced it.")
    return (f"{label} is no longer law: {gone.describe()}. It applies only to conduct before "
            f"{gone.effective}: give the date of the conduct to verify it for such conduct.")


def _names(links: list[dict]) -> str:
    return ", ".join(provision_label(link["act_code"], link["section_number"])
                     + (f" ({link['relation']})" if link.get("relation") not in (
                         None, "unspecified") else "")
                     for link in links)


def _absent_act_verdict(verdict: CitationVerdict, act: AbsentAct) -> CitationVerdict:
    """A section of an Act the corpus lacks but its judgments cite (`AbsentAct.judged`)."""
    section, kind = verdict.section_number or "", verdict.numbered_as
    verdict.status, verdict.reason = act.judged(section, kind)
    verdict.matched = {"act_title": act.name, "citing_judgments": len(act.judgments),
                       "citing_section": list(act.citing(section, kind))}
    verdict.source = SOURCE_JUDGMENTS
    return verdict


def _matched(result: LookupResult) -> dict:
    """What the block renderer shows of the section that was found."""
    return {"title": result.title, "act_title": result.act_title, "era": result.era,
            "applicable_from": result.applicable_from, "chapter_number": result.chapter_number,
            "chapter_title": result.chapter_title, "section_status": result.section_status,
            "text_preview": result.text_preview}
