"""Relevance of a cited section to the question asked: existence is not relevance (issue 6).

Specification 001's "yes-man" failure: asked "My landlord is not returning my security deposit",
the served system cited BSA s.112 (burden of proof, landlord and tenant), TPA s.114 (relief
against forfeiture for non-payment of rent) and ACA s.38 (arbitration deposits). All three exist,
so an existence check passed them; none answers the question. Each (query, section) pair gets
RELEVANT, TANGENTIAL or NOT_APPLICABLE, from one of two sources:

- qrels: a query of a labeled set (the same text after case and whitespace normalization) is
  judged by its graded judgments: grade >= 2 RELEVANT, 1 TANGENTIAL, 0 or not judged at all
  NOT_APPLICABLE (the sets judge every section they consider relevant).
- score: any other query, by a deterministic score with two calibrated thresholds, RELEVANT at
  >= T_HIGH, TANGENTIAL at >= T_LOW, NOT_APPLICABLE below. The score adds three terms:
  * lexical: the section's BM25 score (title + text, the retrieval tokenizer) for the query,
    divided by the best BM25 score of any section in the table for that query: 1.0 is the best
    lexical match there is, whatever the query's length;
  * domain (weight DOMAIN_WEIGHT): the query's legal domain from the judgment domain tagger
    (`nyaya.judgments.domains`: its phrase lexicon on the query, and the Acts the query names),
    against the domain of the section's Act (Articles by their group). The share of the query's
    domain evidence that falls in the section's domain when there is some; 0 when the section's
    domain is related to one of the query's (RELATED_DOMAINS: a dowry death question and the BNS,
    an OTP fraud and the IT Act, a tenancy notice and the Transfer of Property Act are no
    contradiction) or either side has no domain (general Acts, queries without domain words);
    -1 only when the query belongs to an unrelated area (a tenancy question and an evidence or
    arbitration Act);
  * named (NAMED_BONUS): the query itself names the section, or a repealed section whose
    successor it is ("IPC 302" names BNS 103), read by the retrieval query analyzer.
  No cross-encoder is available offline; the dense embedders were tried as a fourth term and
  separated relevant from retrieved-but-unjudged sections no better than chance (AUC 0.53).

Calibration (`evals/relevance.py`): the judged pairs of the training half of nyaya-statutes
(evals.tuning.split_of), and as negatives what a plain retrieval or a near miss would cite, when
unjudged: each query's top NEGATIVE_DEPTH BM25 sections and the sections next to its judged ones.
T_LOW is the highest cut whose removals are at least MIN_REMOVAL_PRECISION unjudged on those
pairs (the gate removes a NOT_APPLICABLE citation, and removing a relevant one misstates the
law); T_HIGH is the cut at or above it with the best macro F1 of the three classes. On the
real tables that removes only sections whose domain is unrelated to every domain of the query;
the score cannot tell two sections of one related Act apart. The figures on both halves, and
what was tried: docs/verification.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from functools import cached_property, lru_cache
from typing import Protocol

import bm25s
import numpy as np
import pandas as pd

from nyaya.judgments.domains import CitedProvision, DomainTagger
from nyaya.lookup import provision_label
from nyaya.retrieval.query_analysis import QueryAnalyzer
from nyaya.retrieval.tokenize import tokenize
from nyaya.settings import Settings
from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.registry import alias_index_from_rows
from nyaya.tables import read_table, records
from nyaya.verify.model import NOT_APPLICABLE, RELEVANT, TANGENTIAL


class LabeledSet(Protocol):
    """A labeled query set (`evals.querysets.QuerySet`, which the evaluation code passes in):
    its queries (columns qid, query) and graded qrels (qid -> doc id -> grade)."""

    name: str
    queries: pd.DataFrame
    qrels: dict[str, dict[str, int]]


SOURCE_QRELS = "qrels"
SOURCE_SCORE = "score"

DOMAIN_WEIGHT = 2.0  # a domain mismatch (-2) costs more than any lexical match (<= 1) gives
NAMED_BONUS = 3.0  # more than lexical + domain can add, so a named section outranks the rest
MIN_REMOVAL_PRECISION = 0.98  # share of T_LOW's removals that must be unjudged (training pairs)
NEGATIVE_DEPTH = 10  # top BM25 hits per training query that serve as negatives when unjudged
# Areas of law that meet in ordinary questions, so that a section of one answers questions of the
# other: a section in a domain related to one of the query's is no contradiction (domain term 0,
# neither agreement nor mismatch). Written from the subject matter of Indian law (which Acts and
# proceedings a question of each area needs) and checked against the misses of the training half
# only (never the held-out half); no weight is fitted. The relation is symmetric, each pair is
# listed once, and a pair not listed is unrelated (a tenancy question and the Evidence or the
# Arbitration Act: specification 001).
RELATED_DOMAINS: dict[str, tuple[str, ...]] = {
    # offence, its investigation and trial, and proof go together; the special Acts define
    # offences of their own (IT Act, POCSO / Juvenile Justice, cheque dishonour, corruption of
    # public servants and workplace sexual harassment); matrimonial offences (cruelty, dowry
    # death, bigamy) and maintenance under BNSS 144 are family law; Articles 20-22 protect the
    # accused; bank and card frauds are cheating
    "criminal_substantive": ("criminal_procedure", "evidence", "constitutional", "cyber",
                             "child_protection", "family", "negotiable_instruments",
                             "banking_finance", "labour_service"),
    "criminal_procedure": ("evidence", "constitutional", "cyber", "child_protection", "family",
                           "negotiable_instruments"),
    # electronic records; Article 20(3); presumptions of legitimacy, death and dowry death; civil
    # trials are proved under the same Act
    "evidence": ("cyber", "constitutional", "family", "civil_procedure"),
    "constitutional": ("administrative", "labour_service", "environment"),
    # contracts underlie sales and leases of property, consumer and banking transactions,
    # cheques, employment and arbitration agreements
    "civil_contract": ("civil_property", "tenancy", "consumer", "banking_finance",
                       "negotiable_instruments", "labour_service", "arbitration",
                       "civil_procedure"),
    # leases are Chapter V of the Transfer of Property Act; mortgages; builders and buyers;
    # succession, partition, wills and gifts of family property
    "civil_property": ("tenancy", "banking_finance", "consumer", "family", "civil_procedure"),
    # suits, limitation and courts for every civil claim
    "civil_procedure": ("tenancy", "consumer", "arbitration", "negotiable_instruments",
                        "banking_finance", "family"),
    "family": ("child_protection",),  # custody, adoption (Juvenile Justice Act Chapter VIII)
    "banking_finance": ("negotiable_instruments", "cyber", "consumer"),
    "administrative": ("labour_service", "environment", "tax"),
}
_RELATED = frozenset(frozenset((a, b)) for a, others in RELATED_DOMAINS.items() for b in others)
# Calibrated on the real tables by `NYAYA_DATA=data .venv/bin/python -m evals.relevance`;
# the figures of that calibration are in docs/verification.md
T_LOW = -0.5
T_HIGH = 3.3613


@dataclass(frozen=True)
class Relevance:
    """One (query, section) judgment; `reason` says why and what to do."""

    verdict: str  # RELEVANT | TANGENTIAL | NOT_APPLICABLE
    reason: str
    source: str  # "qrels" | "score"
    score: float | None = None  # the calibrated score (source "score" only)

    def to_dict(self) -> dict:
        return asdict(self)


@dataclass(frozen=True)
class ScoreParts:
    """The score's terms, kept apart so that a reason can name the one that decided."""

    lexical: float
    domain: float
    named: bool
    query_domains: tuple[str, ...]  # strongest first
    section_domain: str | None
    related_to: str | None = None  # the query domain the section's is related to (domain 0)

    @property
    def total(self) -> float:
        return round(self.lexical + DOMAIN_WEIGHT * self.domain + NAMED_BONUS * self.named, 4)


@dataclass(frozen=True)
class _QueryView:
    """What one query contributes, computed once and reused for every section it is asked
    about."""

    lexical: np.ndarray  # per section row, relative to the best row
    evidence: Counter  # domain -> evidence
    named: frozenset[tuple[str, str]]


def domains_related(a: str, b: str) -> bool:
    """Whether two different domains are related areas of law (RELATED_DOMAINS)."""
    return frozenset((a, b)) in _RELATED


def normalize_query(query: str) -> str:
    """A labeled query matches whatever differs from it only in case and spacing."""
    return " ".join(query.lower().split())


@dataclass(frozen=True)
class _Labeled:
    name: str
    qid: str
    grades: dict[tuple[str, str], int]


class RelevanceJudge:
    """Judges (query, section) pairs from labeled sets' qrels, else from the calibrated score."""

    def __init__(self, sections: list[dict], registry: list[dict], transitions: list[dict],
                 labeled: Iterable[LabeledSet] = (), *, t_low: float = T_LOW,
                 t_high: float = T_HIGH) -> None:
        if t_low > t_high:
            raise ValueError(f"t_low {t_low} is above t_high {t_high}")
        self.t_low, self.t_high = t_low, t_high
        self.keys = [(str(row["act_code"]), normalize_section_number(str(row["section_number"])))
                     for row in sections]
        self.row_of = {key: i for i, key in enumerate(self.keys)}
        self._texts = [f"{row.get('title') or ''} {row.get('text') or ''}" for row in sections]
        self.analyzer = QueryAnalyzer(alias_index_from_rows(registry), transitions, [])
        self.tagger = DomainTagger({str(row["act_code"]): row.get("legal_domain")
                                    for row in registry})
        self.labeled: dict[str, _Labeled] = {}
        for queryset in labeled:
            for qid, query in zip(queryset.queries["qid"], queryset.queries["query"],
                                  strict=True):
                grades = {doc_key(doc): grade for doc, grade in
                          queryset.qrels.get(qid, {}).items()}
                self.labeled.setdefault(normalize_query(query),
                                        _Labeled(queryset.name, qid, grades))
        # a response's citations share one query: its BM25 row and analysis are computed once
        self._view = lru_cache(maxsize=256)(self._query_view)

    @classmethod
    def from_settings(cls, settings: Settings, labeled: Iterable[LabeledSet] = ()
                      ) -> RelevanceJudge:
        """Build from the warehouse tables, judging the queries of the `labeled` sets by their
        qrels; FileNotFoundError when the tables are not built."""
        sections = read_table(settings.table_path("sections"))
        registry = records(read_table(settings.table_path("act_registry")))
        transitions = records(read_table(settings.table_path("law_transition_map")))
        columns = ["act_code", "section_number", "title", "text"]
        return cls(records(sections[columns]), registry, transitions, labeled)

    @cached_property
    def _bm25(self) -> tuple[bm25s.BM25, frozenset[str]]:
        """Built on the first score-path judgment (seconds on the full table): a labeled query
        never needs it."""
        index = bm25s.BM25(k1=1.2, b=0.75)
        index.index([tokenize(text) or ["<empty>"] for text in self._texts], show_progress=False)
        return index, frozenset(index.vocab_dict)

    def _query_view(self, query: str) -> _QueryView:
        index, vocab = self._bm25
        tokens = [token for token in tokenize(query) if token in vocab]
        scores = (index.get_scores(tokens) if tokens else np.zeros(len(self.keys))).astype(float)
        best = scores.max(initial=0.0)
        analysis = self.analyzer.analyze(query)
        named = frozenset((ref.act_code, normalize_section_number(ref.section))
                          for ref in analysis.sections)
        cited = [CitedProvision(act, section, self._kind(act), None) for act, section in named]
        cited += [CitedProvision(act, None, "section", None) for act in analysis.acts
                  if act not in {a for a, _ in named}]
        phrases = (phrase for _, phrase in self.tagger.phrase_hits(query))
        evidence = self.tagger.phrase_scores(phrases) + self.tagger.statute_scores(cited)
        return _QueryView(scores / best if best > 0 else scores, evidence, named)

    def _kind(self, act_code: str) -> str:
        return "article" if act_code == self.analyzer.constitution else "section"

    def score(self, query: str, act_code: str, section_number: str) -> ScoreParts:
        """The score's terms for one pair (labeled or not: calibration scores labeled ones)."""
        view = self._view(query)
        key = (act_code, normalize_section_number(section_number))
        row = self.row_of.get(key)
        section_domain = self.tagger.provision_domain(
            CitedProvision(act_code, key[1], self._kind(act_code), None))
        total = sum(view.evidence.values())
        ranked = tuple(d for d, v in sorted(view.evidence.items(), key=lambda kv: (-kv[1], kv[0]))
                       if v > 0)
        related_to = None
        if not total or section_domain is None:
            domain = 0.0
        elif view.evidence[section_domain] > 0:
            domain = view.evidence[section_domain] / total
        else:  # a contradiction only when no domain of the query is related to the section's
            related_to = next((d for d in ranked if domains_related(d, section_domain)), None)
            domain = 0.0 if related_to else -1.0
        return ScoreParts(round(float(view.lexical[row]), 4) if row is not None else 0.0,
                          round(domain, 4), key in view.named, ranked, section_domain, related_to)

    def judge(self, query: str, act_code: str, section_number: str) -> Relevance:
        """RELEVANT / TANGENTIAL / NOT_APPLICABLE for one cited section, with the reason."""
        cited = provision_label(act_code, section_number)
        labeled = self.labeled.get(normalize_query(query))
        if labeled is not None:
            grade = labeled.grades.get((act_code, normalize_section_number(section_number)))
            where = f"labeled query {labeled.qid} of {labeled.name}"
            if grade is None:
                return Relevance(NOT_APPLICABLE, f"{cited} is not judged relevant for {where} "
                                 "(unjudged sections are not relevant): remove this citation.",
                                 SOURCE_QRELS)
            verdict = RELEVANT if grade >= 2 else TANGENTIAL if grade == 1 else NOT_APPLICABLE
            action = {RELEVANT: "it answers the query directly",
                      TANGENTIAL: "a supporting provision; it does not answer the query alone",
                      NOT_APPLICABLE: "remove this citation"}[verdict]
            return Relevance(verdict, f"{cited} is judged grade {grade} for {where}: {action}.",
                             SOURCE_QRELS)
        parts = self.score(query, act_code, section_number)
        return self._from_score(cited, parts)

    def _from_score(self, cited: str, parts: ScoreParts) -> Relevance:
        score = parts.total
        query_domain = parts.query_domains[0] if parts.query_domains else None
        if parts.domain < 0:
            domain = (f"the query is about {query_domain} but {cited} belongs to the "
                      f"{parts.section_domain} domain")
        elif parts.domain > 0:
            domain = f"domain {parts.section_domain} matches the query"
        elif parts.related_to:
            domain = (f"the query is about {parts.related_to} and {cited} belongs to the related "
                      f"{parts.section_domain} domain (no contradiction)")
        else:
            domain = "no domain to compare"
        terms = (f"{'named in the query; ' if parts.named else ''}{domain}; lexical match "
                 f"{parts.lexical:g} (1 = the best-matching section)")
        if score >= self.t_high:
            return Relevance(RELEVANT, f"{cited}: {terms} (score {score:g} >= {self.t_high:g}).",
                             SOURCE_SCORE, score)
        if score >= self.t_low:
            return Relevance(TANGENTIAL, f"{cited}: {terms} (score {score:g}, between "
                             f"{self.t_low:g} and {self.t_high:g}): keep it only as a supporting "
                             "provision; a person should check that it applies.",
                             SOURCE_SCORE, score)
        return Relevance(NOT_APPLICABLE, f"{cited} exists but does not answer the query: {terms} "
                         f"(score {score:g} < {self.t_low:g}): remove this citation.",
                         SOURCE_SCORE, score)

    def top_sections(self, query: str, k: int) -> list[tuple[str, str]]:
        """The k best lexical matches (ties by table order): what a plain retrieval surfaces."""
        lexical = self._view(query).lexical
        return [self.keys[i] for i in np.argsort(-lexical, kind="stable")[:k] if lexical[i] > 0]

    def neighbours(self, act_code: str, section_number: str) -> list[tuple[str, str]]:
        """The sections before and after one in its Act (table order): the near misses."""
        row = self.row_of.get((act_code, normalize_section_number(section_number)))
        if row is None:
            return []
        return [self.keys[i] for i in (row - 1, row + 1)
                if 0 <= i < len(self.keys) and self.keys[i][0] == act_code]


def doc_key(doc_id: str) -> tuple[str, str]:
    act, _, section = doc_id.partition(":")
    return act, normalize_section_number(section)
