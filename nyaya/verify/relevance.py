"""Relevance of a cited section to the question asked: existence is not relevance (issue 6).

Specification 001's "yes-man" failure: asked "My landlord is not returning my security deposit",
the served system cited BSA s.112 (burden of proof, landlord and tenant), TPA s.114 (relief
against forfeiture for non-payment of rent) and ACA s.38 (arbitration deposits). All three exist,
so an existence check passed them; none answers the question. Each (query, section) pair gets
RELEVANT, TANGENTIAL or NOT_APPLICABLE, from one of two sources:

- qrels: a query of a labeled set (the same text after case and whitespace normalization) is
  judged by its graded judgments: grade >= 2 RELEVANT, 1 TANGENTIAL, 0 or not judged at all
  NOT_APPLICABLE (the sets judge every section they consider relevant).
- model: any other query, by a trained model's probability that the section is relevant
  (`RelevanceModel`), against two cuts per kind of query (a question, or a passage of facts).
  Its features (`PairFeatures`), each something a reader can check:
  * lexical: the section's BM25 score (title + text) for the query, divided by the best
    section's, and its rank among all sections;
  * domain: the query's legal domain (the judgment domain tagger's phrase lexicon, and the Acts
    the query names) against the domain of the section's Act: the share of the query's domain
    evidence in the section's domain, or a contradiction when the query belongs only to areas
    unrelated to it (RELATED_DOMAINS);
  * named: the query names the section, or a repealed section whose successor it is;
  * cases: the votes of the judgments most like the query (`nyaya.retrieval.case_votes`): the
    section's share of the top vote, its rank among the voted sections, and its Act's share of
    all votes: a fact pattern shares few words with its section but many with the judgments
    that applied it;
  * the query's length in words.

Training (`evals/relevance.py`, the `relevance_model` asset): distant supervision from the
corpus (passages of `cited-statutes`' training half, judged on the sections they cite) and the
training halves of the question sets (nyaya-statutes, situations, plain-questions); negatives
are what a retrieval or a near miss would cite, when unjudged (the top BM25 sections, the top
voted ones, the neighbours of judged ones). The removal cut of each kind is the highest whose
removals are at least MIN_REMOVAL_PRECISION unjudged, on out-of-fold probabilities of the
training pairs (the gate removes a NOT_APPLICABLE citation, and removing a relevant one
misstates the law); a question's relevant cut is the lowest above which at least
RELEVANT_PRECISION of the pairs are judged RELEVANT (asserting that a section answers the
question is a claim too), a passage's the best macro F1. Two rules stand beside the model
(`ruled_out`): a question whose legal areas are all unrelated to the section's, and which does
not name it, removes it (`contradicted`): the trees, trained mostly on passages, weigh that
little, and it was never wrong on nyaya-statutes; and a question that looks named provisions up
removes a section of any other Act (`PairFeatures.outside_named`). And two keep what a
question's model verdict would remove (`PairFeatures.kept_because`): a section that the law's
words of a concept the question asks about in plain words (`nyaya.retrieval.legal_terms`, the
search default's expansion) rank among their top LAW_WORDS_DEPTH, since the model's lexical
features read the question's own words only ("landlord ... security deposit" against "Rights
and liabilities of lessor and lessee"); and a section the judgments most like the question
cite: the question cut hangs on a few judged pairs and moved with the training data, under
relevant sections such votes backed. Figures on the held-out halves, and what was tried:
docs/verification.md. """

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Protocol

import numpy as np
import pandas as pd

from nyaya.judgments.domains import CitedProvision, DomainTagger
from nyaya.lookup import provision_label
from nyaya.retrieval.bm25 import BM25Retriever
from nyaya.retrieval.case_votes import CaseVotes, section_votes
from nyaya.retrieval.citing_contexts import case_contexts
from nyaya.retrieval.legal_terms import PROVISION_TYPES, LegalTerms, load_legal_terms
from nyaya.retrieval.query_analysis import QueryAnalysis, QueryAnalyzer
from nyaya.retrieval.tokenize import tokenize
from nyaya.settings import Settings
from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.registry import alias_index_from_rows
from nyaya.tables import read_table, records
from nyaya.verify.model import NOT_APPLICABLE, NOT_JUDGED, RELEVANT, TANGENTIAL
from nyaya.verify.precedents import Citers, PrecedentFeatures, PrecedentJudge
from nyaya.verify.section_index import section_texts, sections_bm25
from nyaya.verify.trained import (
    QUESTION,
    SOURCE_MODEL,
    Cuts,
    Relevance,
    RelevanceModel,
    kind_of,
    model_path,
)


class LabeledSet(Protocol):
    """A labeled query set (`evals.querysets.QuerySet`, which the evaluation code passes in):
    its queries (columns qid, query) and graded qrels (qid -> doc id -> grade)."""

    name: str
    queries: pd.DataFrame
    qrels: dict[str, dict[str, int]]


SOURCE_QRELS = "qrels"

MIN_REMOVAL_PRECISION = 0.998  # share of a removal cut's removals that must be unjudged: at 0.99
# a question lost one relevant section in eight (docs/verification.md)
RELEVANT_PRECISION = 0.8  # a question's relevant cut: out of fold, at least this share of what it
# asserts RELEVANT is judged so (the best macro F1 moved with the training data, 2026-12-05)
NEGATIVE_DEPTH = 10  # top BM25 and top voted sections per training query, negatives if unjudged
VOTE_DEPTH = 200  # voted sections a query's features look at (the rest count as not voted)
LAW_WORDS_DEPTH = 10  # a section a concept's law words rank this high the model never removes
#: how a lookup is asked, beside the provision's own words ("what is the BNSS section now
#: corresponding to ...")
LOOKUP_WORDS = frozenset(tokenize("section sections article articles act code new old law under "
                                  "which what is the equivalent corresponding now replaced "
                                  "replace in of"))
SCORES_KEPT = 65_536  # scored pairs a judge remembers (oldest dropped first)
VOTE_TABLES = ("judgments", "citation_mentions", "citation_graph_nodes",
               "citation_graph_edges")  # read when needed
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


@dataclass(frozen=True)
class PairFeatures:
    """What the model sees of one (query, section) pair, kept readable so that a reason can
    say what decided."""

    lexical: float  # BM25 relative to the best section's (1 = the best match)
    lexical_rank: int  # among every section, 1 = the best
    domain: float  # share of the query's domain evidence in the section's domain; -1 contradicts
    named: bool
    vote: float  # the section's votes relative to the top-voted section's (0 = not voted)
    vote_rank: int | None  # among the voted sections, None = not voted
    act_vote: float  # share of all the votes that go to the section's Act
    act_lexical: float  # the best lexical match of any section of its Act
    query_words: int
    query_domains: tuple[str, ...] = ()  # strongest first
    section_domain: str | None = None
    related_to: str | None = None  # the query domain the section's is related to (domain 0)
    law_words_rank: int | None = None  # its best rank for the law's words of what the question
    # asks in plain words (`nyaya.retrieval.legal_terms`), None when they do not match it
    law_words: str | None = None  # those words
    #: the question looks named provisions up (`RelevanceJudge._looked_up`) and the section is
    #: of none of their Acts
    outside_named: bool = False

    NAMES = ("lexical", "log_lexical_rank", "domain_contradicts", "domain_share", "named",
             "vote", "log_vote_rank", "voted", "act_vote", "act_lexical", "query_words")

    def vector(self) -> list[float]:
        """The model's input, in NAMES order."""
        return [self.lexical, math.log1p(self.lexical_rank), float(self.domain < 0),
                max(self.domain, 0.0), float(self.named), self.vote,
                math.log1p(self.vote_rank or 10 * VOTE_DEPTH), float(self.vote_rank is not None),
                self.act_vote, self.act_lexical, float(self.query_words)]

    @property
    def kind(self) -> str:
        return kind_of(self.query_words)

    @property
    def kept_because(self) -> str | None:
        """Why the model may not remove this pair of a question, whatever P(relevant): the law's
        words of what it asks pick the section out, or judgments like it cite the section
        (evidence the trees weigh too little at the bottom of their scores); None when
        neither, or for a passage."""
        if self.kind != QUESTION:
            return None
        if self.law_words_rank is not None and self.law_words_rank <= LAW_WORDS_DEPTH:
            return (f"the law's words for what the query asks, \"{self.law_words}\", rank it "
                    f"{self.law_words_rank}")
        if self.vote_rank is not None:
            return f"judgments like the query cite it (vote rank {self.vote_rank})"
        return None

    @property
    def kept(self) -> bool:
        return self.kept_because is not None


@dataclass(frozen=True)
class _QueryView:
    """What one query contributes, computed once and reused for every section it is asked
    about."""

    lexical: np.ndarray  # per section row, relative to the best row
    rank: np.ndarray  # per section row, 1 = the best lexical match
    order: np.ndarray  # the section rows, best lexical match first (ties in table order)
    act_lexical: dict[str, float]  # act -> its best section's lexical match
    evidence: Counter  # domain -> evidence
    named: frozenset[tuple[str, str]]
    votes: dict[tuple[str, str], float]  # section -> votes relative to the top, best first
    act_votes: dict[str, float]  # act -> share of all votes
    words: int
    law_words: tuple[str, ...]  # what the question asks in the law's words, one per concept
    #: the Acts of the provisions a question looks up (`RelevanceJudge._looked_up`); empty for
    #: any other query
    looked_up: frozenset[str] = frozenset()


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
    """Judges (query, section) pairs from labeled sets' qrels, else by the trained model.
    `votes` builds the judgments' votes for sections when the model first needs them (about
    25 s on the corpus); a query that is not labeled needs the `model`. `precedents` builds
    the precedent judge (`nyaya.verify.precedents`) over those votes, for `judge_case`. The
    sections' BM25 index is loaded from `warehouse`'s data folder when it was kept there for
    these sections (`index_sections`)."""

    def __init__(self, sections: list[dict], registry: list[dict], transitions: list[dict],
                 labeled: Iterable[LabeledSet] = (), *, model: RelevanceModel | None = None,
                 votes: Callable[[], CaseVotes] | None = None,
                 precedents: Callable[[CaseVotes | None], Any] | None = None,
                 warehouse: Path | None = None, legal_terms: LegalTerms | None = None) -> None:
        self.model, self._votes_of, self._precedents_of = model, votes, precedents
        self.legal_terms = legal_terms or load_legal_terms()
        self._warehouse = warehouse
        self.keys = [(str(row["act_code"]), normalize_section_number(str(row["section_number"])))
                     for row in sections]
        self.row_of = {key: i for i, key in enumerate(self.keys)}
        self._acts = pd.Series([act for act, _ in self.keys])
        self._texts = section_texts(sections)
        self.analyzer = QueryAnalyzer(alias_index_from_rows(registry), transitions, [])
        self.tagger = DomainTagger({str(row["act_code"]): row.get("legal_domain")
                                    for row in registry})
        #: the words naming each Act (title, code, aliases), which a lookup adds to its words
        self._act_words = {str(row["act_code"]): frozenset(tokenize(" ".join([
            str(row["title"]), str(row["act_code"]).split("_")[0],
            *(() if row.get("aliases") is None else map(str, row["aliases"]))])))
            for row in registry}
        self.labeled: dict[str, _Labeled] = {}
        for queryset in labeled:
            for qid, query in zip(queryset.queries["qid"], queryset.queries["query"],
                                  strict=True):
                grades = {doc_key(doc): grade for doc, grade in
                          queryset.qrels.get(qid, {}).items()}
                self.labeled.setdefault(normalize_query(query),
                                        _Labeled(queryset.name, qid, grades))
        # a response's citations share one query: its rows and votes are computed once; and
        # answers to one question (configs compared, a user retrying) cite the same sections
        self._view = lru_cache(maxsize=256)(self._query_view)
        self._law_word_ranks = lru_cache(maxsize=64)(self._matched_ranks)
        # (query, act, section) -> what `scored` returns; insertion order, oldest first
        self._scores: dict[tuple[str, str, str], tuple[PairFeatures, float, bool]] = {}

    @classmethod
    def from_settings(cls, settings: Settings, labeled: Iterable[LabeledSet] = ()
                      ) -> RelevanceJudge:
        """Build from the warehouse tables and the trained models (sections and precedents),
        judging the queries of the `labeled` sets by their qrels; FileNotFoundError when the
        tables or the models are not built."""
        model = RelevanceModel.load(model_path(settings), PairFeatures.NAMES)
        precedent_model = RelevanceModel.load(model_path(settings, "precedents"),
                                              PrecedentFeatures.NAMES)
        for table in VOTE_TABLES:  # read when the first vote is asked for: checked now
            if not settings.table_path(table).is_file():
                raise FileNotFoundError(f"{settings.table_path(table)} is not built: build the "
                                        "tables first (make run)")
        return cls(*judge_tables(settings), labeled, model=model,
                   votes=lambda: section_votes(settings.warehouse),
                   precedents=lambda votes: PrecedentJudge(
                       votes, judgment_citers(settings), case_contexts(settings.warehouse),
                       precedent_model), warehouse=settings.warehouse)

    def _trained(self) -> RelevanceModel:
        if self.model is None:
            raise ValueError("this judge has no relevance model: it judges labeled queries "
                             "only")
        return self.model

    @cached_property
    def votes(self) -> CaseVotes | None:
        return self._votes_of() if self._votes_of else None

    @cached_property
    def precedents(self) -> Any:
        """The precedent judge, or None when this judge was built without one."""
        return self._precedents_of(self.votes) if self._precedents_of else None

    def judge_case(self, query: str, doc_ids: Collection[str], case: str) -> Relevance:
        """A found case's relevance to the query (`doc_ids`: the judgments that hold its
        text); NOT_JUDGED when this judge has no precedent judge."""
        if self.precedents is None:
            return Relevance(NOT_JUDGED, f"{case}: relevance not judged: no precedent model "
                             "was loaded.", SOURCE_MODEL)
        return self.precedents.judge(query, doc_ids, case)

    @cached_property
    def lexical_index(self) -> BM25Retriever:
        """BM25 over the sections (doc ids: their rows), loaded or built on the first
        model-path judgment: a labeled query never needs it."""
        return sections_bm25(tuple(self._texts), self._warehouse)

    def _ranks(self, text: str) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Every section's BM25 for `text` relative to the best, each section's rank (1 = the
        best, ties in table order) and the rows best first."""
        scores = self.lexical_index.scores(text)
        best = scores.max(initial=0.0)
        lexical = scores / best if best > 0 else scores
        order = np.argsort(-lexical, kind="stable")
        rank = np.empty(len(lexical), dtype=int)
        rank[order] = np.arange(1, len(lexical) + 1)
        return lexical, rank, order

    def _matched_ranks(self, text: str) -> np.ndarray:
        """Each section's rank for `text`, 0 where it does not match at all."""
        lexical, rank, _ = self._ranks(text)
        return np.where(lexical > 0, rank, 0).astype(np.int32)

    def _query_view(self, query: str, excluded: frozenset[str] = frozenset()) -> _QueryView:
        lexical, rank, order = self._ranks(query)
        act_lexical = pd.Series(lexical).groupby(self._acts).max().to_dict()
        analysis = self.analyzer.analyze(query)
        named = frozenset((ref.act_code, normalize_section_number(ref.section))
                          for ref in analysis.sections)
        cited = [CitedProvision(act, section, self._kind(act), None) for act, section in named]
        cited += [CitedProvision(act, None, "section", None) for act in analysis.acts
                  if act not in {a for a, _ in named}]
        phrases = (phrase for _, phrase in self.tagger.phrase_hits(query))
        evidence = self.tagger.phrase_scores(phrases) + self.tagger.statute_scores(cited)
        hits = self.votes.search(query, VOTE_DEPTH, excluded=excluded) if self.votes else []
        top = hits[0].score if hits else 1.0
        votes = {doc_key(hit.doc_id): hit.score / top for hit in hits}
        act_votes: Counter = Counter()
        for hit in hits:
            act_votes[doc_key(hit.doc_id)[0]] += hit.score
        total = sum(act_votes.values()) or 1.0
        looked_up = self._looked_up(query, analysis)
        return _QueryView(lexical, rank, order, act_lexical, evidence, named, votes,
                          {act: value / total for act, value in act_votes.items()},
                          len(query.split()),
                          tuple(self.legal_terms.for_question(query, analysis)),
                          looked_up)

    def _looked_up(self, query: str, analysis: QueryAnalysis) -> frozenset[str]:
        """The Acts of the provisions a question looks up (an old-code number's and its
        successors', the Constitution for Articles); empty when it asks anything else. A
        question looks provisions up when the analysis types it so, or when every word it has
        beside the citation is in the named provisions' own titles and texts ("Article 14
        equality before law"); "I am charged under BNS section 103, can I get bail?" is not."""
        provisions = ({(ref.act_code, normalize_section_number(ref.section))
                       for ref in analysis.sections}
                      | {(act, normalize_section_number(number))
                         for act, number in analysis.old_code_refs}
                      | {(self.analyzer.constitution, normalize_section_number(number))
                         for number in analysis.articles})
        acts = frozenset(act for act, _ in provisions)
        if not provisions or analysis.query_type in PROVISION_TYPES:
            return acts
        own = set(tokenize(" ".join(self._texts[self.row_of[key]] for key in provisions
                                    if key in self.row_of)))
        beside = LOOKUP_WORDS.union(*(self._act_words.get(act, ()) for act in acts))
        asked = [word for word in tokenize(query)
                 if word not in beside and not any(ch.isdigit() for ch in word)]
        return acts if all(word in own for word in asked) else frozenset()

    def _law_words_match(self, view: _QueryView, row: int | None
                         ) -> tuple[int | None, str | None]:
        """The section's best rank for any one concept's law words the question asks for
        (each concept a short query of its own), and those words; (None, None) when none
        matches it."""
        best: tuple[int | None, str | None] = (None, None)
        if row is None:
            return best
        for words in view.law_words:
            rank = int(self._law_word_ranks(words)[row])
            if rank and (best[0] is None or rank < best[0]):
                best = (rank, words)
        return best

    def _kind(self, act_code: str) -> str:
        return "article" if act_code == self.analyzer.constitution else "section"

    def features(self, query: str, act_code: str, section_number: str,
                 excluded: Iterable[str] = ()) -> PairFeatures:
        """What the model sees of one pair (labeled or not: training reads labeled ones);
        `excluded` judgments never vote (a development query's own judgment)."""
        view = self._view(query, frozenset(excluded))
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
        voted = list(view.votes)
        law_words_rank, law_words = self._law_words_match(view, row)
        return PairFeatures(
            lexical=round(float(view.lexical[row]), 4) if row is not None else 0.0,
            lexical_rank=int(view.rank[row]) if row is not None else len(self.keys) + 1,
            domain=round(domain, 4), named=key in view.named,
            vote=round(view.votes.get(key, 0.0), 4),
            vote_rank=voted.index(key) + 1 if key in view.votes else None,
            act_vote=round(view.act_votes.get(key[0], 0.0), 4),
            act_lexical=round(float(view.act_lexical.get(key[0], 0.0)), 4),
            query_words=view.words, query_domains=ranked, section_domain=section_domain,
            related_to=related_to, law_words_rank=law_words_rank, law_words=law_words,
            outside_named=(kind_of(view.words) == QUESTION and bool(view.looked_up)
                           and act_code not in view.looked_up))

    def judge(self, query: str, act_code: str, section_number: str) -> Relevance:
        """RELEVANT / TANGENTIAL / NOT_APPLICABLE for one cited section, with the reason."""
        labeled = self.labeled.get(normalize_query(query))
        if labeled is not None:
            cited = provision_label(act_code, section_number)
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
        return self._judge_by_model(query, act_code, section_number)

    def scored(self, query: str, act_code: str, section_number: str
               ) -> tuple[PairFeatures, float, bool]:
        """What the model's verdict is made of: the pair's features, P(relevant), and whether
        the rule beside the model removes it whatever the probability."""
        pair = (query, act_code, section_number)
        if pair not in self._scores:
            self._score([pair])
        return self._scores[pair]

    def prepare(self, pairs: Iterable[tuple[str, str, str]]) -> None:
        """Score the (query, act, section) pairs the model will be asked about in one batch:
        many answers judged together (every config's answers to a query set) then predict
        once, not once per answer, which costs milliseconds each."""
        self._score([pair for pair in dict.fromkeys(pairs) if pair not in self._scores
                     and normalize_query(pair[0]) not in self.labeled])

    def _score(self, pairs: list[tuple[str, str, str]]) -> None:
        if not pairs:
            return
        features = [self.features(*pair) for pair in pairs]
        rows = pd.DataFrame([parts.vector() for parts in features], columns=PairFeatures.NAMES)
        rows["outside_named"] = [parts.outside_named for parts in features]
        probabilities = self._trained().probabilities(rows)
        removed = ruled_out(rows, [parts.kind for parts in features])
        for pair, parts, probability, remove in zip(pairs, features, probabilities, removed,
                                                    strict=True):
            self._scores[pair] = (parts, round(float(probability), 4), bool(remove))
        while len(self._scores) > SCORES_KEPT:
            del self._scores[next(iter(self._scores))]

    def _judge_by_model(self, query: str, act_code: str, section_number: str) -> Relevance:
        features, probability, contradiction = self.scored(query, act_code, section_number)
        return self._from_model(provision_label(act_code, section_number), features,
                                probability, self._trained().cuts[features.kind],
                                contradiction)

    def _from_model(self, cited: str, parts: PairFeatures, probability: float, cuts: Cuts,
                    contradiction: bool) -> Relevance:
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
        cases = (f"cases like the query cite it (vote rank {parts.vote_rank})"
                 if parts.vote_rank else "no case like the query cites it")
        terms = (f"{'named in the query; ' if parts.named else ''}{domain}; lexical match "
                 f"{parts.lexical:g} (rank {parts.lexical_rank:,}); {cases}")
        said = f"P(relevant) {probability:g}"
        if contradiction and parts.outside_named:
            return Relevance(NOT_APPLICABLE, f"{cited} exists but does not answer the query: "
                             f"the query looks up the provisions it names, and {cited} is of "
                             f"none of their Acts ({said}): remove this citation.",
                             SOURCE_MODEL, probability)
        if contradiction:
            return Relevance(NOT_APPLICABLE, f"{cited} exists but does not answer the query: "
                             f"{terms} ({said}; a question of an unrelated area that does not "
                             "name the section): remove this citation.", SOURCE_MODEL,
                             probability)
        verdict = cuts.verdict(probability)
        if verdict == NOT_APPLICABLE and parts.kept:
            return Relevance(TANGENTIAL, f"{cited}: {terms} ({said} < {cuts.low:g}, but "
                             f"{parts.kept_because}): keep it only as a supporting provision; "
                             "a person should check that it applies.", SOURCE_MODEL,
                             probability)
        if verdict == RELEVANT:
            return Relevance(RELEVANT, f"{cited}: {terms} ({said} >= {cuts.high:g}).",
                             SOURCE_MODEL, probability)
        if verdict == TANGENTIAL:
            return Relevance(TANGENTIAL, f"{cited}: {terms} ({said}, between {cuts.low:g} and "
                             f"{cuts.high:g}): keep it only as a supporting provision; a person "
                             "should check that it applies.", SOURCE_MODEL, probability)
        return Relevance(NOT_APPLICABLE, f"{cited} exists but does not answer the query: {terms} "
                         f"({said} < {cuts.low:g}): remove this citation.", SOURCE_MODEL,
                         probability)

    def top_sections(self, query: str, k: int, excluded: Iterable[str] = ()
                     ) -> list[tuple[str, str]]:
        """The k best lexical matches (ties by table order): what a plain retrieval surfaces
        (`excluded` only shares the query's view with `features`)."""
        view = self._view(query, frozenset(excluded))
        return [self.keys[i] for i in view.order[:k] if view.lexical[i] > 0]

    def top_voted(self, query: str, k: int, excluded: Iterable[str] = ()
                  ) -> list[tuple[str, str]]:
        """The k sections the judgments most like the query vote for most: what a retrieval
        through similar cases surfaces."""
        return [key for key in self._view(query, frozenset(excluded)).votes
                if key in self.row_of][:k]

    def neighbours(self, act_code: str, section_number: str) -> list[tuple[str, str]]:
        """The sections before and after one in its Act (table order): the near misses."""
        row = self.row_of.get((act_code, normalize_section_number(section_number)))
        if row is None:
            return []
        return [self.keys[i] for i in (row - 1, row + 1)
                if 0 <= i < len(self.keys) and self.keys[i][0] == act_code]


def ruled_out(features: pd.DataFrame, kinds: Sequence[str]) -> np.ndarray:
    """Per row of features (PairFeatures.NAMES and `outside_named`): removed whatever the model
    says, by either rule beside it: a question of an unrelated area (`contradicted`), or a
    question that looks named provisions up asked about a section of another Act (judged
    sections of such questions on nyaya-statutes' training half are all of the named
    provisions' Acts or their successors'; docs/verification.md)."""
    return contradicted(features, kinds) | features["outside_named"].to_numpy(dtype=bool)


def contradicted(features: pd.DataFrame, kinds: Sequence[str]) -> np.ndarray:
    """Per row of features (PairFeatures.NAMES) and its query's kind: a question whose every
    legal area is unrelated to the section's, and which does not name it. Such a section is
    removed whatever the model says: on nyaya-statutes no judged section was ever removed so,
    on either half, while the trees, trained mostly on passages, weigh the contradiction little
    (docs/verification.md)."""
    return ((features["domain_contradicts"] > 0) & (features["named"] == 0)
            & (np.asarray(kinds) == QUESTION)).to_numpy()


def judgment_citers(settings: Settings) -> Citers:
    """Who cites each judgment, from the warehouse's citation graph."""
    return Citers.from_graph(read_table(settings.table_path("citation_graph_nodes")),
                             read_table(settings.table_path("citation_graph_edges")))


def judge_tables(settings: Settings) -> tuple[list[dict], list[dict], list[dict]]:
    """The sections (the columns the judge reads), the Act registry and the transition map;
    FileNotFoundError when they are not built."""
    sections = read_table(settings.table_path("sections"),
                          ["act_code", "section_number", "title", "text"])
    return (records(sections), records(read_table(settings.table_path("act_registry"))),
            records(read_table(settings.table_path("law_transition_map"))))


def doc_key(doc_id: str) -> tuple[str, str]:
    act, _, section = doc_id.partition(":")
    return act, normalize_section_number(section)
