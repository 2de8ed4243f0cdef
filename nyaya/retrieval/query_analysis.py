"""Deterministic query analysis: which provisions, Acts, years, judges and cases a query names,
and which of six query types it is (the types that pick retrieval weights downstream).

No model and no network: the QueryAnalyst of specification 001 (s.2.1, s.8.1-8.2) classified
queries with an LLM; this reads them with the project's own citation extractors
(`nyaya.citations.statutes`, `nyaya.citations.cases`), the transition map (old code -> new
code) and the keyword lexicons below, and says in `reasons` why it chose the type.

The types (specification 001, s.5.1 and s.8.2):
- old_statute_reference: names a repealed-code provision (IPC/CrPC/IEA), or asks for the new
  equivalent of a repealed code; checked first, because the old number must be normalized.
- section_lookup: names a provision in force and asks what it says (or names little else).
- procedural / criminal_offence / civil_conceptual: by topic, from the lexicons.
- default: none of these (a case name, a judge, a year on their own).

Entities follow specification 003, s.6.5-6.7: articles and sections (entity search), years
(date search), judges (bench search) and case names (BM25 boost).
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path

import pyarrow.parquet as pq

from nyaya.citations.cases import CASE_NAME, CaseCitation, extract_case_citations
from nyaya.citations.statutes import (
    ARTICLE,
    EXPLICIT,
    SECTION,
    StatuteMention,
    _Document,  # the module has no public "Acts named in a text"; its scanner is the one to use
    _prepared,
    extract_statute_mentions,
)
from nyaya.lookup import StatuteLookup
from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.registry import AliasIndex, alias_index_from_rows, normalize_alias
from nyaya.tables import read_table

QUERY_TYPES = ("section_lookup", "criminal_offence", "civil_conceptual", "procedural",
               "old_statute_reference", "default")

# --- lexicons -----------------------------------------------------------------------------
# Each topic has strong terms (weight 2: names of offences, procedures, civil institutions)
# and weak ones (weight 1: words that lean to a topic without naming one). Terms match whole
# words of the lower-cased query with hyphens read as spaces; terms of four letters or more
# also match with -s/-es/-ed/-ing ("arrested", "thefts").

# Offences: the section headings of the Bharatiya Nyaya Sanhita 2023 (Chapters IV-XIX, as in
# data/warehouse/sections.parquet) in the words people use for them, plus the offences of the
# special criminal Acts in the registry (NI Act s.138, NDPS, POCSO, PC Act, IT Act).
CRIMINAL_TERMS = (
    "murder", "culpable homicide", "homicide", "attempt to murder", "theft", "steal", "stole",
    "stolen", "robbery", "dacoity", "extortion", "snatching", "chain snatching", "cheating",
    "cheat", "forgery", "counterfeit", "criminal breach of trust", "misappropriation",
    "embezzlement", "rape", "marital rape", "gang rape", "sexual assault", "outraging modesty",
    "modesty of a woman", "stalking", "voyeurism", "dowry", "dowry death", "dowry harassment",
    "kidnapping", "kidnap", "abduction", "ransom", "hurt", "grievous hurt", "assault",
    "acid attack", "criminal intimidation", "threat to kill", "trespass",
    "house breaking", "housebreaking", "burglary", "mischief", "rioting", "riot",
    "unlawful assembly", "sedition", "treason", "waging war", "terrorism", "terrorist act",
    "organised crime", "organized crime", "mob lynching", "lynching", "abetment",
    "abetment of suicide", "attempt to commit suicide", "suicide", "criminal conspiracy",
    "conspiracy", "bribery", "bribe", "corruption", "cheque bounce", "cheque bouncing",
    "dishonour of cheque", "bounced cheque", "drug trafficking", "narcotics", "ganja",
    "child pornography", "obscene", "obscenity", "hacking", "hacked", "identity theft",
    "cyber crime", "cybercrime", "online fraud", "sextortion", "bigamy", "adultery",
    "hit and run", "rash and negligent", "death by negligence", "drunk driving",
    "false evidence", "perjury", "receiving stolen property", "criminal force",
    "wrongful confinement", "wrongful restraint", "human trafficking", "trafficking",
    "infanticide", "foeticide", "miscarriage", "insulting modesty", "eve teasing",
    "sexual harassment", "unnatural offence", "mens rea", "actus reus", "manslaughter",
    "molestation", "molest", "blackmail", "honour killing", "sex determination",
    "smuggling", "money laundering", "impersonation", "personation", "fake currency",
    "counterfeit currency", "poisoning", "arson", "gambling", "betting", "bonded labour",
    "animal cruelty", "cruelty to animals", "poaching", "rash driving", "drunken driving",
    "false promise of marriage", "deceitful means", "capital punishment", "death sentence",
    "thief", "robber", "dacoit", "murdered", "killing", "illegal arms", "firearm",
)
CRIMINAL_WEAK = (
    "offence", "offense", "crime", "criminal", "punishment", "punish", "punished",
    "punishable", "sentence", "sentenced", "imprisonment", "jail", "penalty",
    "ingredients", "convicted", "culprit", "victim", "fraud", "defamation", "killed", "kill",
    "death penalty", "life imprisonment",
)

# Procedure: the chapter titles of the Bharatiya Nagarik Suraksha Sanhita 2023, the Code of
# Civil Procedure 1908, the Limitation Act 1963 and the Bharatiya Sakshya Adhiniyam 2023
# (evidence procedure), in the words citizens and police use ("FIR", "charge sheet").
PROCEDURAL_TERMS = (
    "bail", "anticipatory bail", "default bail", "regular bail", "interim bail", "bail bond",
    "fir", "first information report", "zero fir", "e fir", "arrest", "arrested", "remand",
    "police custody", "judicial custody", "charge sheet", "chargesheet", "final report",
    "investigation", "investigate", "summons", "summon", "warrant", "non bailable warrant",
    "appeal", "revision", "review petition", "limitation", "limitation period",
    "period of limitation", "time limit", "condonation of delay", "cognizance", "cognizable",
    "non cognizable", "bailable", "non bailable", "compoundable", "compounding", "quash",
    "quashing", "inherent powers", "plea bargaining", "trial", "summary trial",
    "framing of charge", "discharge", "acquittal", "witness", "cross examination",
    "examination in chief", "hostile witness", "confession", "admissible", "admissibility",
    "inadmissible", "dying declaration", "burden of proof", "onus of proof",
    "electronic evidence", "electronic record", "search and seizure", "search warrant",
    "seizure", "magistrate", "sessions court", "jurisdiction", "transfer petition",
    "legal notice", "plaint", "written statement", "caveat", "temporary injunction",
    "injunction", "stay order", "ex parte", "decree", "execution of decree", "court fee",
    "vakalatnama", "affidavit", "certified copy", "legal aid", "lok adalat", "writ petition",
    "petition", "hearing", "adjournment", "procedure", "procedural", "police station",
    "register a complaint", "lodge a complaint", "file a complaint", "file a case",
    "summons case", "warrant case", "proclaimed offender", "look out circular",
    "inquest", "post mortem", "medical examination", "statement to police",
    "statement of witness", "evidentiary value", "evidence", "bail application", "surety",
    "personal bond", "parole", "furlough", "remission", "probation", "detention",
    "closure report", "protest petition", "further investigation", "prosecution",
    "public prosecutor", "prosecutor", "private complaint", "complaint case", "proclamation",
    "attachment", "forfeiture", "civil suit", "suit", "plaintiff", "defendant", "second appeal",
    "execution petition", "pleadings", "issues framed", "documentary evidence",
    "oral evidence", "secondary evidence", "presumption", "estoppel", "expert opinion",
    "hearsay", "test identification parade", "identification parade", "panchnama",
    "recovery memo", "call records", "cctv footage", "relevancy", "police complaint",
    "complaint to police", "handcuff", "handcuffing", "police remand",
)
PROCEDURAL_WEAK = (
    "how to", "how do i", "how can i", "how is", "steps", "step by step", "process", "file",
    "filing", "lodge", "apply", "application", "complaint", "police", "deadline",
    "within how many days", "how many days", "where to", "serve", "served", "register",
)

# Civil concepts: the curated civil Acts of the registry (Indian Contract Act, Specific Relief
# Act, Transfer of Property Act, Hindu Marriage and Succession Acts, Consumer Protection Act,
# Delhi Rent Control Act, Domestic Violence Act) and Part III-IV of the Constitution.
CIVIL_TERMS = (
    "contract", "agreement", "oral agreement", "breach of contract", "consideration",
    "offer and acceptance", "specific performance", "damages", "void", "voidable",
    "indemnity", "guarantee", "bailment", "pledge", "partnership", "property",
    "immovable property", "ancestral property", "coparcener", "coparcenary", "partition",
    "succession", "inheritance", "inherit", "intestate", "heir", "legal heir", "a will",
    "the will", "wills", "will deed", "probate", "testament", "gift deed", "sale deed",
    "registration", "lease", "tenant", "tenancy", "landlord", "rent", "eviction", "evict",
    "security deposit", "mortgage", "easement", "possession", "adverse possession",
    "ownership", "encroachment", "marriage", "divorce", "mutual consent", "alimony",
    "maintenance", "custody of a child", "custody of child", "child custody",
    "guardianship", "adoption", "live in", "live in relationship", "domestic violence",
    "restitution of conjugal rights", "consumer", "deficiency in service", "defective",
    "refund", "warranty", "insurance claim", "fundamental right", "fundamental rights",
    "right to life", "personal liberty", "right to privacy", "privacy", "equality",
    "equal protection", "discrimination", "freedom of speech", "free speech", "speech",
    "freedom of religion", "reservation", "basic structure", "directive principles",
    "federalism", "separation of powers", "judicial review", "constitutional amendment",
    "citizenship", "right to information", "rti", "tort", "negligence", "nuisance",
    "employment", "wages", "gratuity", "provident fund", "copyright", "trademark", "patent",
    "arbitration", "arbitral award", "trust property", "daughters", "daughter", "widow",
    "husband and wife", "spouse", "salary", "employer", "marry", "married", "remarry",
    "remarriage", "talaq", "triple talaq", "nikah", "mehr", "iddat", "personal law",
    "uniform civil code", "same sex marriage", "judicial separation", "annulment", "nullity",
    "stridhan", "streedhan", "self acquired", "joint family", "huf", "karta", "mutation",
    "land records", "builder", "flat", "apartment", "rera", "housing society", "loan",
    "insurance", "unfair trade practice", "medical negligence", "motor accident",
    "accident claim", "intellectual property", "shareholder", "insolvency", "bankruptcy",
    "company law", "preamble", "secularism", "secular", "habeas corpus", "mandamus",
    "certiorari", "right to equality", "right to freedom", "untouchability", "minority rights",
    "right to education", "pollution", "environment", "right to vote", "election",
    "freedom of press", "euthanasia", "right to die", "transgender", "gender identity",
    "fundamental duties", "federal", "president's rule", "emergency provisions", "aadhaar",
    "data protection",
)
CIVIL_WEAK = (
    "right", "rights", "entitled", "entitlement", "claim", "valid", "validity",
    "legally binding", "binding", "liable", "liability", "owner", "share", "constitution",
    "constitutional", "compensation", "civil", "family", "wife", "husband", "child",
    "employee", "land", "house", "tax", "writ", "recovery", "bank",
)

# Lookup cues: the question is about what a named provision says (specification 001, s.5.1
# "Section number lookup"; "BNS 103").
LOOKUP_CUES = (
    "say", "says", "said", "provide", "provides", "provided", "prescribe", "prescribes",
    "prescribed", "contain", "contains", "content", "contents", "text", "wording", "read",
    "reads", "read out", "deal with", "deals with", "define", "defines", "definition",
    "explain", "explanation", "meaning", "mean", "means", "describe", "summarise",
    "summarize", "summary", "about", "tell me", "details", "scope", "quote", "full text",
    "punishment under", "penalty under", "punishable under", "interpret", "interpretation",
)
# Asks for the new-code equivalent of a repealed code (specification 001, s.2.1 "Contains
# Old Statutes? -> StatuteNormalizationTool").
EQUIVALENCE_CUES = (
    "equivalent", "corresponding", "correspond", "corresponds", "replaced", "replace",
    "replaces", "replacement", "successor", "counterpart", "new section", "new law",
    "new code", "new provision", "new criminal law", "new criminal laws", "now", "renumbered",
    "mapped", "instead of", "different from", "difference between", "compare", "comparison",
    "changed", "still applicable", "still valid", "old",
)
# Words that carry no topic: what is left of a query after its citations and these is what
# it asks besides the provision ("Section 103 BNS" leaves nothing: a lookup).
FILLER_WORDS = frozenset((
    "a", "an", "the", "of", "in", "on", "for", "to", "under", "and", "or", "with", "by", "as",
    "is", "are", "was", "were", "be", "what", "which", "who", "whom", "how", "does", "do",
    "did", "can", "could", "should", "would", "will", "please", "me", "my", "i", "it", "this",
    "that", "there", "section", "sections", "sec", "article", "articles", "act", "code",
    "india", "indian", "law", "laws", "provision", "provisions", "s", "ss", "u", "bare",
))

# Judges: words of the bench column that are titles or not names, and surnames that many
# people share (or that are ordinary words), which count only with "Justice"/"J." beside them.
NOT_JUDGE_WORDS = frozenset((
    "dr", "ii", "iii", "kr", "mr", "mrs", "ms", "justice", "chief", "the", "and", "state",
    "union", "india", "court", "supreme", "high", "bench", "law", "hon", "ble", "honble",
))
COMMON_SURNAMES = frozenset((
    "agarwal", "agrawal", "ahmad", "ahmed", "anand", "banerjee", "bhargava", "bhushan",
    "chatterjee", "chauhan", "dayal", "desai", "fathima", "ganguly", "goswami", "gowda",
    "gupta", "hasan", "islam", "jeevan", "joseph", "kabir", "kapur", "khanna", "kuldip",
    "kumar", "lalit", "mahajan", "majumdar", "manohar", "mathew", "mathur", "menon", "mishra",
    "misra", "mohan", "mukherjee", "mukherjea", "natarajan", "pandian", "pathak", "patil",
    "prasad", "ramana", "ranganath", "rangnath", "reddi", "reddy", "saghir", "sarkar",
    "sethi", "sharma", "shetty", "singh", "sinha", "srinivasan", "sujata", "thakur",
    "thomas", "uddin", "verma", "hedge", "heode", "panta", "eqbal", "ghose", "beevi",
    "aiyar", "gandhi", "bharati",
))
MIN_BARE_SURNAME = 5

YEAR = re.compile(r"(?<![0-9A-Za-z_])(18[6-9][0-9]|19[0-9]{2}|20[0-2][0-9]|2030)(?![0-9])")
ACT_WORD_AFTER = re.compile(r"\s{0,2}(?:Act|Code|Sanhita|Adhiniyam|Ordinance)\b", re.IGNORECASE)
ACT_WORD_BEFORE = re.compile(r"\b(?:Act|Code|Sanhita|Adhiniyam|Ordinance)\s{0,2},?\s{0,2}"
                             r"(?:of\s{1,2})?\(?$", re.IGNORECASE)
GAP_TO_YEAR = re.compile(r"[\s,]{0,3}(?:of\s{1,2})?\(?$")
WORD = re.compile(r"[a-z0-9]+")
CASED_TOKEN = re.compile(r"(?<![0-9A-Za-z])[A-Za-z][A-Za-z.]*")
HEAD_WORDS = ("act", "code", "sanhita", "adhiniyam", "constitution")
NAME_CONNECTORS = frozenset(("of", "and", "the", "for", "from", "to", "in", "on", "by",
                             "with", "a", "an", "against", "relating"))
# Words an Act's name does not run on to the left through ("under the ...", "section 3 of").
NAME_STOP = FILLER_WORDS - NAME_CONNECTORS - {"indian", "india", "law", "laws"}
# "302 IPC", "438 CrPC": a number, then an Act acronym (the extractor reads "IPC 302").
NUMBER_THEN_ACRONYM = re.compile(
    r"(?<![\w./(])(?P<num>[0-9]{1,3}[A-Z]{0,2})(?![\w(])[ \t]{1,2}(?:of[ \t]{1,2}(?:the[ \t])?)?"
    r"(?P<act>[A-Z][A-Za-z.]{1,8})(?![\w])(?!\s{1,2}(?:sections?|provisions?|offences?|cases?))")
TITLE = re.compile(
    r"\b(?:(?:Hon'?ble|Mr\.?|Mrs\.?|Ms\.?|Dr\.?)\s{1,2})*(?:Chief\s{1,2})?Justices?\s{1,2}|"
    r"\bCJI\s{1,2}|\bC\.J\.I\.\s{1,2}", re.IGNORECASE)
TITLE_AFTER = re.compile(r",?\s{1,2}(?:J|CJ|CJI|C\.J\.|C\.J\.I\.|J\.)(?:\.|(?![A-Za-z]))")
NAME_TOKEN = re.compile(r"(?:[A-Z]\.\s?){1,3}|[A-Z][A-Za-z]+(?:'s|’s)?")
MAX_NAME_TOKENS = 5


@dataclass(frozen=True)
class SectionRef:
    """One named provision, after old-code numbers are mapped to their successors."""

    act_code: str
    section: str
    text: str
    span: tuple[int, int]
    normalized_from: tuple[str, str] | None
    relation: str | None


@dataclass(frozen=True)
class QueryAnalysis:
    """What a query names and which type it is, with the reasons for the type."""

    query: str
    query_type: str
    sections: tuple[SectionRef, ...]
    old_code_refs: tuple[tuple[str, str], ...]
    articles: tuple[str, ...]
    acts: tuple[str, ...]
    years: tuple[int, ...]
    judges: tuple[str, ...]
    case_names: tuple[str, ...]
    reasons: tuple[str, ...]


class _Lexicon:
    """Strong and weak terms of one topic, matched in one regex pass."""

    def __init__(self, strong: Iterable[str], weak: Iterable[str]) -> None:
        self.weight = {term: 1 for term in weak} | {term: 2 for term in strong}
        self.pattern = terms_pattern(self.weight)

    def hits(self, text: str) -> tuple[int, list[str]]:
        """(score, distinct terms found): each term counts once."""
        found = list(dict.fromkeys(terms_in(self.pattern, text)))
        return sum(self.weight[t] for t in found), found


def terms_pattern(terms: Iterable[str]) -> re.Pattern:
    """Whole-word alternation; group 1 is a long term (inflections allowed), group 2 a short
    one ("fir" must not match "fired")."""
    ordered = sorted(terms, key=len, reverse=True)
    long = "|".join(re.escape(t) for t in ordered if len(t) >= 4)
    short = "|".join(re.escape(t) for t in ordered if len(t) < 4) or "(?!)"
    return re.compile(rf"\b(?:({long})(?:s|es|ed|ing)?|({short}))\b")


def terms_in(pattern: re.Pattern, text: str) -> list[str]:
    """The terms a `terms_pattern` finds in `text`, as listed (not as inflected), in order."""
    return [match.group(1) or match.group(2) for match in pattern.finditer(text)]


def plain_text(text: str) -> str:
    """Lower case, hyphens and apostrophes as spaces: what the lexicons are matched against."""
    return re.sub(r"[-‐–—’'/]", " ", text.lower())


LEXICONS = {
    "procedural": _Lexicon(PROCEDURAL_TERMS, PROCEDURAL_WEAK),
    "criminal_offence": _Lexicon(CRIMINAL_TERMS, CRIMINAL_WEAK),
    "civil_conceptual": _Lexicon(CIVIL_TERMS, CIVIL_WEAK),
}
TOPIC_ORDER = ("procedural", "criminal_offence", "civil_conceptual")  # order breaks ties
LOOKUP_PATTERN = terms_pattern(LOOKUP_CUES)
EQUIVALENCE_PATTERN = terms_pattern(EQUIVALENCE_CUES)


@functools.lru_cache(maxsize=65536)
def _name_key(word: str) -> str:
    return re.sub(r"[^a-z]", "", word.lower())


#: `normalize_alias` for single words: a whole judgment repeats its words thousands of times
_alias_key = functools.lru_cache(maxsize=65536)(normalize_alias)


def judge_keys(bench_names: Iterable[str]) -> tuple[frozenset[str], frozenset[str]]:
    """(every name word or two-word name of a judge, the surnames that may match bare).

    Bench entries come as 'CHANDRACHUD, Y.V.', 'Y.V. Chandrachud', 'Dr. Arijit Pasayat' or
    'KRISHNA IYER': the surname is what precedes a comma, else the last word.
    """
    names: set[str] = set()
    surnames: set[str] = set()
    for entry in bench_names:
        for part_no, part in enumerate(entry.split(",")):
            words = [w for w in (_name_key(t) for t in re.findall(r"[A-Za-z]+(?![.A-Za-z])",
                                                                   part))
                     if len(w) >= 3 and w not in NOT_JUDGE_WORDS]
            names.update(words)
            names.update(a + b for a, b in pairwise(words))
            if part_no == 0 and words:
                picked = words if "," in entry else words[-1:]
                if len(words) >= 2 and "," not in entry and words[-1] not in COMMON_SURNAMES:
                    picked = [*picked, words[-2] + words[-1]]  # "Krishna Iyer", "Ruma Pal"
                surnames.update(w for w in picked if len(w) >= MIN_BARE_SURNAME
                                and w not in COMMON_SURNAMES)
    return frozenset(names), frozenset(surnames)


def _blanked(text: str, spans: list[tuple[int, int]]) -> str:
    """`text` with every character inside a span replaced by a space (the length kept)."""
    chars = list(text)
    for start, end in spans:
        start, end = max(start, 0), min(end, len(chars))
        if end > start:
            chars[start:end] = " " * (end - start)
    return "".join(chars)


class QueryAnalyzer:
    """Reads queries against the act registry's aliases, the transition map and the bench
    names of the judgments table; `analyze` is pure and deterministic."""

    def __init__(self, aliases: AliasIndex, transitions: list[dict],
                 judge_names: Iterable[str]) -> None:
        self.aliases = aliases
        # Successors merged one per target section, as the exact lookup names them.
        rows = [{"source_table": None, **row} for row in transitions]
        self.successors = StatuteLookup([], [], rows, aliases).successors
        self.repealed_codes = frozenset(str(r["old_act_code"]) for r in transitions
                                        if isinstance(r.get("old_act_code"), str))
        self.successor_codes = {str(r["old_act_code"]): str(r["new_act_code"])
                                for r in transitions
                                if isinstance(r.get("old_act_code"), str)
                                and isinstance(r.get("new_act_code"), str)}
        self.repealed_sections = {
            (r["old_act_code"], normalize_section_number(r["old_section"])): r["relation"]
            for r in transitions if isinstance(r.get("old_section"), str)
            and not isinstance(r.get("new_section"), str)}
        self.acronyms = frozenset(k for k in aliases.by_alias if k.isalpha() and 3 <= len(k) <= 6)
        self.constitution = aliases.resolve("Constitution")
        self.judge_names, self.bare_surnames = judge_keys(judge_names)

    @classmethod
    def from_warehouse(cls, warehouse: Path) -> QueryAnalyzer:
        """Built from act_registry, law_transition_map and the `judges` column of judgments."""
        registry = read_table(warehouse / "act_registry.parquet")
        transitions = read_table(warehouse / "law_transition_map.parquet")
        judgments = warehouse / "judgments.parquet"
        if not judgments.exists():
            raise FileNotFoundError(f"{judgments} does not exist: build the tables first")
        benches = pq.read_table(judgments, columns=["judges"]).column("judges").to_pylist()
        return cls(alias_index_from_rows(registry.to_dict("records")),
                   transitions.to_dict("records"),
                   sorted({name for bench in benches if bench for name in bench if name}))

    # --- entities ---------------------------------------------------------------------------
    def _cased(self, query: str) -> str:
        """The query with Act names cased as the extractor expects ('ipc' -> 'IPC', 'hindu
        marriage act' -> 'Hindu Marriage Act'); same length, so spans carry over."""
        tokens = list(CASED_TOKEN.finditer(query))
        words = [m.group() for m in tokens]  # once: a whole judgment has thousands
        out = list(query)
        heads = [i for i, word in enumerate(words) if word.lower().rstrip(".") in HEAD_WORDS]
        to_title: set[int] = set()
        for i in heads:
            to_title.add(i)
            for j in range(i - 1, max(-1, i - 7), -1):
                low = words[j].lower()
                if low in NAME_STOP or _name_key(low) in self.acronyms:
                    break
                to_title.add(j)
            if words[i].lower().rstrip(".") in ("code", "constitution"):
                to_title.update(range(i + 1, min(len(tokens), i + 4)))
        for i, (m, word) in enumerate(zip(tokens, words, strict=True)):
            if not word.islower():
                continue
            if _alias_key(word) in self.acronyms:
                cased = word.upper()
                cased = "Cr" + cased[2:] if cased.startswith("CR") else cased
            elif i in to_title and word not in NAME_CONNECTORS:
                cased = word[0].upper() + word[1:]
            else:
                continue
            out[m.start():m.end()] = cased
        return "".join(out)

    def _mentions(self, cased: str) -> list[StatuteMention]:
        """The extractor's mentions, plus '302 IPC' (number before the acronym)."""
        mentions = extract_statute_mentions(cased, self.aliases)
        taken = [(m.group_start, m.group_end) for m in mentions]
        for m in NUMBER_THEN_ACRONYM.finditer(cased):
            if any(s < m.end() and m.start() < e for s, e in taken):
                continue
            act = m.group("act")
            code = self.aliases.by_alias.get(normalize_alias(act))
            if code is None or sum(c.isupper() for c in act) < 2 or len(act.rstrip(".")) > 6:
                continue
            mentions.append(StatuteMention(  # the extractor's own record, so one path follows
                m.start("num"), m.end("num"), m.start(), m.end(), m.group(), SECTION, code,
                normalize_section_number(m.group("num")), None, act, EXPLICIT, None))
        return sorted(mentions, key=lambda x: (x.start, x.end))

    def _section_refs(self, query: str, mentions: list[StatuteMention]
                      ) -> tuple[list[SectionRef], list[tuple[str, str]]]:
        """SectionRefs (repealed-code ones replaced by their successors) and the old refs."""
        refs: list[SectionRef] = []
        old: list[tuple[str, str]] = []
        for m in mentions:
            if m.act_code is None or m.section is None:
                continue
            span = (m.group_start, m.group_end)
            text = query[span[0]:span[1]]
            if m.act_code not in self.repealed_codes:
                refs.append(SectionRef(m.act_code, m.section, text, span, None, None))
                continue
            key = (m.act_code, normalize_section_number(m.section))
            old.append((m.act_code, m.section))
            links = self.successors.get(key, [])
            refs.extend(SectionRef(link["act_code"], link["section_number"], text, span,
                                   (m.act_code, m.section), link["relation"])
                        for link in links)
            if not links:  # repealed without successor (IPC 377, 497): kept as written
                refs.append(SectionRef(m.act_code, m.section, text, span, None,
                                       self.repealed_sections.get(key)))
        seen: set[tuple[str, str, tuple[str, str] | None]] = set()
        unique = []
        for ref in refs:  # "IPC 302 and BNS 103" keeps both: one says where it came from
            key = (ref.act_code, ref.section, ref.normalized_from)
            if key not in seen:
                seen.add(key)
                unique.append(ref)
        return unique, list(dict.fromkeys(old))

    def _years(self, query: str, act_spans: list[tuple[int, int]],
               cited: list[tuple[int, int]]) -> list[int]:
        """Years for date search: not an Act's year ('Act, 1955', 'BNS 2023', 'the 1986 Act')
        and not inside a report citation ('(1980) 3 SCC 625')."""
        years = []
        for m in YEAR.finditer(query):
            start, end = m.span()
            if any(s <= start and end <= e for s, e in [*act_spans, *cited]):
                continue
            before = query[max(0, start - 40):start]
            gap = GAP_TO_YEAR.search(before)
            after_act = gap is not None and any(e == start - len(gap.group()) for _, e in act_spans)
            if after_act or ACT_WORD_BEFORE.search(before) or ACT_WORD_AFTER.match(query, end):
                continue
            years.append(int(m.group()))
        return list(dict.fromkeys(years))

    def _judges(self, query: str, excluded: list[tuple[int, int]]) -> list[str]:
        """Known judges: after 'Justice'/'CJI', before 'J.', or a distinctive surname alone;
        never inside a case name or an Act's name (`excluded`)."""
        found: list[tuple[int, str]] = []
        taken: list[tuple[int, int]] = list(excluded)
        for m in TITLE.finditer(query):
            name = self._name_after(query, m.end())
            if name:
                found.append((name[0], query[name[0]:name[1]]))
                taken.append(name)
        for m in TITLE_AFTER.finditer(query):
            name = self._name_before(query, m.start())
            if name and not any(s < name[1] and name[0] < e for s, e in taken):
                found.append((name[0], query[name[0]:name[1]]))
                taken.append(name)
        tokens = list(re.finditer(r"[A-Z][A-Za-z]+", query))
        for i, tok in enumerate(tokens):
            pair = tokens[i + 1] if i + 1 < len(tokens) else None
            if pair and query[tok.end():pair.start()] == " " and (
                    _name_key(tok.group() + pair.group()) in self.bare_surnames):
                span = (tok.start(), pair.end())
            elif _name_key(tok.group()) in self.bare_surnames:
                span = tok.span()
            else:
                continue
            # after the surname test: a whole judgment has thousands of capitalised words
            if any(s <= tok.start() < e for s, e in taken):
                continue
            found.append((span[0], query[span[0]:span[1]]))
            taken.append(span)
        return list(dict.fromkeys(name for _, name in sorted(found)))

    def _name_after(self, query: str, pos: int) -> tuple[int, int] | None:
        """The judge's name right after 'Justice': initials, then known name words."""
        start, end, known_end = None, pos, None
        for _ in range(MAX_NAME_TOKENS):
            m = NAME_TOKEN.match(query, end)
            if not m:
                break
            word = re.sub(r"(?:'s|’s)$", "", m.group()).strip()
            if "." not in word:
                if _name_key(word) not in self.judge_names:
                    break
                known_end = m.start() + len(word)
            start = m.start() if start is None else start
            end = m.end()
            while end < len(query) and query[end] == " ":
                end += 1
        if start is None or known_end is None:
            return None
        return start, known_end

    def _name_before(self, query: str, pos: int) -> tuple[int, int] | None:
        """The judge's name ending before 'J.': one or two known name words."""
        words = list(re.finditer(r"[A-Z][A-Za-z]+", query[max(0, pos - 40):pos]))
        offset = max(0, pos - 40)
        if not words or offset + words[-1].end() != pos:
            return None
        last = words[-1]
        if len(words) >= 2 and query[offset + words[-2].end():offset + last.start()] == " " \
                and _name_key(words[-2].group() + last.group()) in self.judge_names:
            return offset + words[-2].start(), pos
        if _name_key(last.group()) in self.judge_names:
            return offset + last.start(), pos
        return None

    @staticmethod
    def _case_names(query: str, citations: list[CaseCitation]
                    ) -> list[tuple[tuple[int, int], str]]:
        """'X v. Y' names, also those the extractor gave to a reporter citation after them."""
        found = []
        for c in citations:
            if c.kind == CASE_NAME and c.petitioner and c.respondent:
                found.append(((c.start, c.end), c.text.rstrip(".?!,;: ")))
            elif c.kind != CASE_NAME and c.case_name:
                start = query.rfind(c.case_name, 0, c.start)
                if start >= 0:
                    found.append(((start, start + len(c.case_name)), c.case_name))
        return found

    # --- type -------------------------------------------------------------------------------
    def _query_type(self, masked: str, mentions: list[StatuteMention], refs: list[SectionRef],
                    old: list[tuple[str, str]], acts: list[str]) -> tuple[str, list[str]]:
        """The type and why; `masked` is the query with its citations and names blanked."""
        plain = plain_text(masked)
        if old:
            mapped = "; ".join(
                f"{a} s.{s} -> " + (", ".join(f"{r.act_code} s.{r.section} ({r.relation})"
                                              for r in refs if r.normalized_from == (a, s))
                                    or "no successor")
                for a, s in old)
            return "old_statute_reference", [f"names repealed-code provision {mapped}"]
        old_acts = [a for a in acts if a in self.repealed_codes]
        if old_acts:
            cue = EQUIVALENCE_PATTERN.search(plain)
            if cue:
                return "old_statute_reference", [
                    f"names repealed code {', '.join(old_acts)} and asks for its equivalent "
                    f"('{cue.group()}')"]
            if any(self.successor_codes.get(a) in acts for a in old_acts):
                pairs = ", ".join(f"{a} and {self.successor_codes[a]}" for a in old_acts)
                return "old_statute_reference", [f"names repealed code and successor: {pairs}"]
        named = [m for m in mentions if m.section is not None]
        provisions = "; ".join(dict.fromkeys(
            f"{r.act_code} art.{r.section}" if r.act_code == self.constitution
            else f"{r.act_code} s.{r.section}" for r in refs))
        if named and not provisions:
            provisions = "section " + ", ".join(m.section or "" for m in named) + " (no Act)"
        scores = {topic: LEXICONS[topic].hits(plain) for topic in TOPIC_ORDER}
        if named:
            cue = LOOKUP_PATTERN.search(plain)
            rest = [w for w in WORD.findall(plain) if w not in FILLER_WORDS]
            if cue:
                return "section_lookup", [f"names {provisions}",
                                          f"asks what it says ('{cue.group()}')"]
            if len(rest) <= 1:
                return "section_lookup", [f"names {provisions}",
                                          f"little else in the query ({' '.join(rest) or '-'})"]
        best = max(TOPIC_ORDER, key=lambda t: (scores[t][0], -TOPIC_ORDER.index(t)))
        if scores[best][0] > 0:
            reasons = [f"{t} terms: {', '.join(scores[t][1])} (score {scores[t][0]})"
                       for t in TOPIC_ORDER if scores[t][0]]
            if named:
                reasons.insert(0, f"names {provisions} inside a {best} question")
            return best, reasons
        if named:
            return "section_lookup", [f"names {provisions}", "no topic terms besides it"]
        return "default", ["no provision named and no topic terms"]

    def analyze(self, query: str) -> QueryAnalysis:
        """Entities and query type of one query."""
        cased = self._cased(query)
        mentions = self._mentions(cased)
        refs, old = self._section_refs(query, mentions)
        events = _Document(cased, _prepared(self.aliases)).events
        act_spans = [(e.pos, e.end) for e in events]
        acts = list(dict.fromkeys(
            code for _, code in sorted(
                [(e.pos, e.code) for e in events if e.code]
                + [(m.group_start, m.act_code) for m in mentions
                   if m.act_code and m.resolution == "explicit"])))
        citations = extract_case_citations(query)
        cases = self._case_names(query, citations)
        case_spans = [span for span, _ in cases]
        cited = [(c.start, c.end) for c in citations if c.kind != CASE_NAME]
        spans = [(m.group_start, m.group_end) for m in mentions] + act_spans + case_spans + cited
        masked = _blanked(query, spans)
        query_type, reasons = self._query_type(masked, mentions, refs, old, acts)
        return QueryAnalysis(
            query=query,
            query_type=query_type,
            sections=tuple(refs),
            old_code_refs=tuple(old),
            articles=tuple(dict.fromkeys(m.section for m in mentions
                                         if m.kind == ARTICLE
                                         and m.act_code == self.constitution
                                         and m.section)),
            acts=tuple(acts),
            years=tuple(self._years(query, act_spans + [
                (m.group_start, m.group_end) for m in mentions], cited)),
            judges=tuple(self._judges(query, case_spans + act_spans)),
            case_names=tuple(dict.fromkeys(name for _, name in cases)),
            reasons=tuple(reasons),
        )

