"""Statutes through similar cases: the judgments most like a question vote for what they cite.

A fact pattern shares few words with the section it falls under ("he struck her with an
iron rod" against "voluntarily causing hurt by dangerous weapons"), but many with the
judgments that applied that section. So the judgments nearest the question (BM25 over their
whole text) each vote for the statutes they cite, a vote weighing the judgment's BM25 score;
docs/retrieval-methods.md has the development-set figures that chose this.

A judgment that prints the question itself is where the question came from, not a similar
case: its citations are the answer. AILA 2019 took its queries from judgments, some of which
the corpus holds; such a judgment never votes (`prints_query`), nor does any judgment the
caller excludes (a development query's own judgment and its recorded duplicates). The
check samples the question's 8-word runs and looks each up in the judgment's words.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import re
from collections import Counter
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

import pandas as pd

from nyaya.retrieval import tokenize as tokenize_module
from nyaya.retrieval.base import Hit, ranked
from nyaya.retrieval.bm25 import BM25Retriever
from nyaya.retrieval.tokenize import pairs_of, tokenize
from nyaya.tables import checksum_path, read_table

WORD = re.compile(r"[a-z0-9]+")
#: Word runs compared between a question and a judgment: 8 words rarely repeat by chance.
SHINGLE = 8
#: Share of the question's word runs a judgment must print to be the question's source. The
#: AILA queries whose judgment the corpus holds share 0.67-0.90 of their runs with it, other
#: judgments near 0.
SOURCE_SHARE = 0.5
#: Judgments that vote, by default.
VOTERS = 20


#: Word runs of the question looked for in a judgment, spread evenly over the question.
SAMPLED_RUNS = 32


def words_of(text: str) -> str:
    """The text's words (lower case, letters and digits), space-separated and space-ended,
    so that a run of them is found by plain substring search."""
    return f" {' '.join(WORD.findall(text.lower()))} "


def question_runs(text: str, size: int = SHINGLE, sampled: int = SAMPLED_RUNS
                  ) -> tuple[str, ...]:
    """At most `sampled` of the text's runs of `size` consecutive words, evenly spread (none
    for a text shorter than `size` words), each as `words_of` writes it."""
    words = WORD.findall(text.lower())
    starts = range(len(words) - size + 1)
    step = max(1, len(starts) / sampled) if starts else 1
    return tuple(f" {' '.join(words[int(i * step):int(i * step) + size])} "
                 for i in range(min(sampled, len(starts))))


def prints_query(runs: tuple[str, ...], words: str, share: float = SOURCE_SHARE) -> bool:
    """Whether a judgment (its `words_of`) holds at least `share` of the question's `runs`;
    stops as soon as the answer is known (each run is a scan of the whole judgment)."""
    needed = share * len(runs)
    found = missed = 0
    for run in runs:
        if run in words:
            found += 1
            if found >= needed:
                return True
        else:
            missed += 1
            if len(runs) - missed < needed:
                return False
    return bool(runs) and found >= needed


class JudgmentWords:
    """Whether a judgment prints a question, each judgment's `words_of` computed the first time
    it is checked and kept: the similar-case votes and the citing passages check the same
    judgments."""

    def __init__(self, texts: Mapping[str, str]) -> None:
        self.texts = texts
        self._words: dict[str, str] = {}

    def prints(self, runs: tuple[str, ...], doc_id: str) -> bool:
        """`prints_query` of the question's `runs` in judgment `doc_id`."""
        if doc_id not in self._words:
            self._words[doc_id] = words_of(self.texts[doc_id])
        return prints_query(runs, self._words[doc_id])


class NearestJudgments(Protocol):
    """What finds the judgments nearest a text, best first (BM25 over their whole texts by
    default)."""

    def search(self, text: str, k: int) -> list[Hit]: ...


class CaseVotes:
    """Targets (statute ids of any scheme) ranked by the votes of the judgments nearest a
    question. `cites` maps a judgment to the targets it cites; a judgment citing none never
    votes but still counts among the nearest."""

    method = "cases"

    def __init__(self, judgments: BM25Retriever, texts: Mapping[str, str],
                 cites: Mapping[str, Collection[str]]) -> None:
        missing = [doc for doc in judgments.doc_ids if doc not in texts]
        if missing:
            raise ValueError(f"no text for {len(missing)} indexed judgments, {missing[0]} first")
        self.judgments, self.texts, self.cites = judgments, texts, cites
        self.words = JudgmentWords(texts)
        # the configs of a run, and the relevance judge after them, ask for the same voters
        self._voters = functools.lru_cache(maxsize=2048)(self._find_voters)

    @classmethod
    def over(cls, doc_ids: Sequence[str], texts: Sequence[str],
             cites: Mapping[str, Collection[str]]) -> CaseVotes:
        """Index the judgments' whole texts (about 18 s for the corpus's 5,108)."""
        return cls(BM25Retriever(doc_ids, texts), dict(zip(doc_ids, texts, strict=True)), cites)

    def with_cites(self, cites: Mapping[str, Collection[str]]) -> CaseVotes:
        """The same index (and voters found so far) voting for another scheme's targets."""
        other = CaseVotes(self.judgments, self.texts, cites)
        other.words, other._voters = self.words, self._voters
        return other

    def found_by(self, nearest: NearestJudgments) -> CaseVotes:
        """The same votes, the voters found by `nearest` instead of BM25 over whole judgments
        (`nyaya.retrieval.chunks.SummedChunks`: by their best chunks)."""
        other = copy.copy(self)
        other.judgments = nearest
        other._voters = functools.lru_cache(maxsize=2048)(other._find_voters)
        return other

    @functools.cached_property
    def _citing(self) -> Counter[str]:
        return Counter(target for targets in self.cites.values() for target in set(targets))

    def cited_by(self, target: str, excluded: Collection[str] = ()) -> int:
        """How many judgments cite `target`, the excluded ones (a development query's own)
        not counted: how often the law is applied, a prior no question's words carry."""
        return self._citing[target] - sum(target in self.cites.get(judgment, ())
                                           for judgment in excluded)

    def voters(self, text: str, count: int = VOTERS, excluded: Collection[str] = ()
               ) -> list[Hit]:
        """The `count` judgments nearest the question, best first, without the excluded
        ones and those that print the question."""
        return list(self._voters(text, count, frozenset(excluded)))

    def _find_voters(self, text: str, count: int, excluded: frozenset[str]) -> tuple[Hit, ...]:
        runs = question_runs(text)
        depth = 2 * count + len(excluded)
        while True:
            nearest = self.judgments.search(text, depth)
            found = []
            for hit in nearest:
                if hit.doc_id in excluded:
                    continue
                if self.words.prints(runs, hit.doc_id):
                    continue
                found.append(hit)
                if len(found) == count:
                    return tuple(found)
            if len(nearest) < depth:  # every judgment sharing a term was looked at
                return tuple(found)
            depth *= 2

    def search(self, text: str, k: int, count: int = VOTERS, excluded: Collection[str] = (),
               keep: Callable[[str], bool] | None = None) -> list[Hit]:
        """The top-k targets (those `keep` allows): each scores the summed BM25 scores of the
        voters citing it."""
        votes: dict[str, float] = {}
        for voter in self.voters(text, count, excluded):
            for target in self.cites.get(voter.doc_id, ()):
                if keep is None or keep(target):
                    votes[target] = votes.get(target, 0.0) + voter.score
        return ranked(Hit(target, score, self.method) for target, score in votes.items())[:k]


def statute_targets(mentions: pd.DataFrame) -> pd.Series:
    """The section doc id (`act_code:section`) of each statute mention, NaN where unresolved."""
    return mentions["act_code"].str.cat(mentions["section"], sep=":")


#: what `cited_sections` reads of citation_mentions
MENTION_COLUMNS = ["doc_id", "mention_type", "act_code", "section"]


def cited_sections(mentions: pd.DataFrame) -> dict[str, set[str]]:
    """judgment doc id -> the section doc ids (`act_code:section`) its statute mentions
    resolve to, in any status: what a judgment votes for."""
    statutes = mentions[mentions["mention_type"] == "statute"]
    cited: dict[str, set[str]] = {}
    for doc_id, section in zip(statutes["doc_id"], statute_targets(statutes), strict=True):
        if isinstance(section, str):
            cited.setdefault(doc_id, set()).add(section)
    return cited


@dataclass(frozen=True)
class JudgmentTerms:
    """What a whole-judgment BM25 index counts: its folder under `bm25/`, the terms a text's
    tokens make (`combine`; None: the tokens themselves), and how many judgments must hold a
    term for it to be indexed."""

    folder: str
    combine: Callable[[list[str]], list[str]] | None = None
    min_df: int = 1

    def of_tokens(self, tokens: list[str]) -> list[str]:
        return tokens if self.combine is None else self.combine(tokens)

    def analyzer(self, text: str) -> list[str]:
        return self.of_tokens(tokenize(text))


WORDS = JudgmentTerms("judgments")
#: A word pair only one judgment holds relates it to no other; two thirds of the pairs are
#: such (3.2 million of the corpus's distinct pairs, 1.1 million in two judgments or more).
PAIRS = JudgmentTerms("judgment_pairs", pairs_of, min_df=2)
JUDGMENT_TERMS = (WORDS, PAIRS)


def judgment_index_dir(warehouse: Path, terms: JudgmentTerms = WORDS) -> Path:
    """Where the `judgment_index` asset keeps the judgments' BM25 index of `terms`."""
    return warehouse.parent / "bm25" / terms.folder


def index_stamp(warehouse: Path, tables: Sequence[str], code: Sequence[str]) -> str:
    """What a kept BM25 index is built from: its tables' contents and the source files that
    cut and tokenize its texts; a change in either makes the kept index stale."""
    digest = hashlib.sha256(b"".join(Path(file).read_bytes() for file in code)).hexdigest()
    return ":".join([*(checksum_path(warehouse / f"{table}.parquet").read_text().strip()
                       for table in tables), digest[:16]])


def judgment_index_stamp(warehouse: Path, terms: JudgmentTerms = WORDS) -> str:
    """What the judgments' index of `terms` is built from: the judgments table, the
    tokenizer and the least number of judgments a term is indexed in."""
    return f"{index_stamp(warehouse, ('judgments',), (tokenize_module.__file__,))}:" \
           f"{terms.min_df}"


def index_judgments(warehouse: Path) -> dict[JudgmentTerms, BM25Retriever]:
    """Index every judgment's whole text by each of JUDGMENT_TERMS and keep each index in
    `judgment_index_dir`, for every later process to load. The texts are tokenized once for
    all of them (17 s of the corpus's 5,108 judgments)."""
    judgments = read_table(warehouse / "judgments.parquet", ["doc_id", "text"])
    doc_ids, texts = judgments["doc_id"].tolist(), judgments["text"].tolist()
    tokens = [tokenize(text) for text in texts]
    indexes = {}
    for terms in JUDGMENT_TERMS:
        index = BM25Retriever(doc_ids, texts, analyzer=terms.analyzer, min_df=terms.min_df,
                              analyzed=[terms.of_tokens(each) for each in tokens])
        index.save(judgment_index_dir(warehouse, terms), judgment_index_stamp(warehouse, terms))
        indexes[terms] = index
    return indexes


def load_judgment_index(warehouse: Path, terms: JudgmentTerms, doc_ids: Sequence[str],
                        texts: Sequence[str]) -> BM25Retriever:
    """The index `index_judgments` kept when it matches the judgments table (`doc_ids`,
    `texts`), else one built here (not kept)."""
    return (BM25Retriever.load(judgment_index_dir(warehouse, terms),
                               judgment_index_stamp(warehouse, terms), doc_ids, texts,
                               terms.analyzer)
            or BM25Retriever(doc_ids, texts, analyzer=terms.analyzer, min_df=terms.min_df))


def judgment_votes(warehouse: Path) -> CaseVotes:
    """Every judgment's whole text indexed for `cases` voting, with the sections each cites:
    loaded once per content of the tables it reads, shared by the sides."""
    stamp = tuple(checksum_path(warehouse / f"{table}.parquet").read_text()
                  for table in ("judgments", "citation_mentions"))
    return _judgment_votes(warehouse, stamp)


def judgment_pairs(warehouse: Path) -> BM25Retriever:
    """Every judgment's whole text indexed by its word pairs (`PAIRS`), loaded once per
    content of the judgments table; it shares the texts of `judgment_votes`' index, which a
    search by pairs reads beside it."""
    return _judgment_pairs(warehouse, checksum_path(warehouse / "judgments.parquet").read_text())


@functools.lru_cache(maxsize=1)
def _judgment_pairs(warehouse: Path, stamp: str) -> BM25Retriever:
    words = judgment_votes(warehouse).judgments
    return load_judgment_index(warehouse, PAIRS, words.doc_ids, words.texts)


@functools.lru_cache(maxsize=1)
def _judgment_votes(warehouse: Path, stamp: tuple[str, ...]) -> CaseVotes:
    judgments = read_table(warehouse / "judgments.parquet", ["doc_id", "text"])
    doc_ids, texts = judgments["doc_id"].tolist(), judgments["text"].tolist()
    return CaseVotes(load_judgment_index(warehouse, WORDS, doc_ids, texts),
                     dict(zip(doc_ids, texts, strict=True)),
                     cited_sections(read_table(warehouse / "citation_mentions.parquet",
                                               MENTION_COLUMNS)))


def section_successors(warehouse: Path) -> dict[str, set[str]]:
    """Section doc id of a repealed code -> the new-code sections that replaced it
    (law_transition_map): IPC 302 -> {BNS 103}."""
    successors: dict[str, set[str]] = {}
    transitions = read_table(warehouse / "law_transition_map.parquet")
    for old_act, old, new_act, new in zip(transitions["old_act_code"], transitions["old_section"],
                                          transitions["new_act_code"],
                                          transitions["new_section"], strict=True):
        if isinstance(new, str) and new:
            successors.setdefault(f"{old_act}:{old}", set()).add(f"{new_act}:{new}")
    return successors


def section_votes(warehouse: Path) -> CaseVotes:
    """`judgment_votes` for the corpus's sections: a judgment citing a section of a repealed
    code votes for it and for what replaced it (law_transition_map), so a judgment under IPC
    302 speaks for BNS 103 too."""
    votes = judgment_votes(warehouse)
    successors = section_successors(warehouse)
    return votes.with_cites({judgment: sections.union(*(successors.get(section, ())
                                                        for section in sections))
                             for judgment, sections in votes.cites.items()})
