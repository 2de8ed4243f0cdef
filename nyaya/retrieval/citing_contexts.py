"""Statutes through the passages that cite them: each statute citation in a judgment, with the
text around it, is a small document standing for the section it cites; a question is matched
against those passages and every section scores the sum of its best passages' BM25 scores.

A section's own words are the legislature's ("acknowledgment in writing of liability"); the
passages that cite it say what it was applied to ("the letter admitting the debt saved the
suit from limitation"), which is how people ask. Finer than `case_votes`, where a whole
judgment votes for everything it cites. docs/retrieval-methods.md has the development-set
figures that chose the span and the number of passages summed.

A query's own judgment (and its recorded duplicates), passed as `excluded`, never contributes:
on a development query its passages are the answer. Nor does a judgment that prints the query
(`case_votes.JudgmentWords`, checked for the judgments of the best passages), as AILA's
queries were taken from judgments.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from nyaya.retrieval import tokenize as tokenize_module
from nyaya.retrieval.base import Hit, ranked
from nyaya.retrieval.bm25 import BM25Retriever
from nyaya.retrieval.case_votes import (
    JudgmentWords,
    index_stamp,
    judgment_votes,
    question_runs,
    section_successors,
    statute_targets,
)
from nyaya.tables import checksum_path, read_table

#: Characters of judgment text kept on each side of a citation (the citation itself dropped).
SPAN = 600
#: Passages a section's score sums: one passage can match by chance, ten rarely do.
SUMMED = 10
#: Passages looked at per query before they are summed per section.
DEPTH = 500
#: Judgments of the best passages checked for printing the query: a judgment that prints it
#: matches it best, so its passages come first.
CHECKED = 20


@dataclass(frozen=True)
class CitingPassage:
    """The text around one citation group of judgment `owner`, and the sections it cites."""

    owner: str
    start: int
    end: int
    text: str
    targets: frozenset[str]

    @property
    def key(self) -> str:
        return f"{self.owner}@{self.start}-{self.end}"


def citing_passages(mentions: pd.DataFrame, texts: Mapping[str, str],
                    successors: Mapping[str, Collection[str]] | None = None,
                    span: int = SPAN) -> list[CitingPassage]:
    """One passage per citation group (`s. 302/34 IPC` is one passage citing two sections),
    `span` characters each side with the citation cut out, in judgment and offset order; a
    section of a repealed code also stands for what replaced it. Mentions of a judgment
    without text are an error, not a silent gap."""
    statutes = mentions[mentions["mention_type"] == "statute"]
    statutes = statutes.assign(target=statute_targets(statutes))
    statutes = statutes[statutes["target"].notna()]
    groups: dict[tuple[str, int, int], set[str]] = {}
    for doc, start, end, target in zip(statutes["doc_id"], statutes["group_start"],
                                       statutes["group_end"], statutes["target"], strict=True):
        groups.setdefault((doc, int(start), int(end)), set()).update(
            {target, *(successors or {}).get(target, ())})
    return _cut(groups, texts, span, "statute")


def case_citing_passages(mentions: pd.DataFrame, texts: Mapping[str, str],
                         docs_of: Mapping[str, Collection[str]], span: int = SPAN
                         ) -> list[CitingPassage]:
    """`citing_passages` for case citations: each stands for the judgments that print the
    case it resolves to (`docs_of`: a case's node id, as in `resolved_case_ids`, to its
    judgments), the citing judgment itself aside; a citation resolving to no judgment we hold
    stands for nothing and is left out, as is one of the citing judgment's own case."""
    cases = mentions[mentions["mention_type"] == "case"]
    groups: dict[tuple[str, int, int], set[str]] = {}
    for doc, start, end, resolved in zip(cases["doc_id"], cases["group_start"],
                                         cases["group_end"], cases["resolved_case_ids"],
                                         strict=True):
        targets = {held for case in resolved if doc not in docs_of.get(case, ())
                   for held in docs_of.get(case, ())}
        if targets:
            groups.setdefault((doc, int(start), int(end)), set()).update(targets)
    return _cut(groups, texts, span, "case")


def _cut(groups: Mapping[tuple[str, int, int], set[str]], texts: Mapping[str, str], span: int,
         kind: str) -> list[CitingPassage]:
    missing = sorted({doc for doc, _, _ in groups} - set(texts))
    if missing:
        raise ValueError(f"citation_mentions: {len(missing)} judgments with {kind} "
                         f"mentions have no text ({missing[0]} first)")
    return [CitingPassage(doc, start, end,
                          texts[doc][max(0, start - span):start] + " " + texts[doc][end:end + span],
                          frozenset(groups[doc, start, end]))
            for doc, start, end in sorted(groups)]


class CitingContexts:
    """Passages around statute citations, indexed for BM25; row i cites `targets[i]` and
    comes from judgment `owners[i]`."""

    method = "contexts"

    def __init__(self, index: BM25Retriever, targets: list[frozenset[str]],
                 owners: list[str], words: JudgmentWords) -> None:
        if not len(index.doc_ids) == len(targets) == len(owners):
            raise ValueError(f"{len(index.doc_ids)} passages indexed but {len(targets)} target "
                             f"sets and {len(owners)} owners")
        self.index, self.targets, self.owners, self.words = index, targets, owners, words

    @classmethod
    def from_mentions(cls, mentions: pd.DataFrame, texts: Mapping[str, str],
                      successors: Mapping[str, Collection[str]] | None = None,
                      span: int = SPAN, words: JudgmentWords | None = None,
                      indexer: Callable[[list[str], list[str]], BM25Retriever] = BM25Retriever,
                      ) -> CitingContexts:
        """The passages of `citing_passages`, indexed (`over`)."""
        return cls.over(citing_passages(mentions, texts, successors, span), texts, words,
                        indexer)

    @classmethod
    def over(cls, passages: list[CitingPassage], texts: Mapping[str, str],
             words: JudgmentWords | None = None,
             indexer: Callable[[list[str], list[str]], BM25Retriever] = BM25Retriever,
             ) -> CitingContexts:
        """`passages` indexed. `words` checks whether a judgment prints a query (shared with
        the votes over the same `texts`); `indexer` turns passage ids and texts into their BM25
        index (or loads the one kept on disk)."""
        index = indexer([passage.key for passage in passages],
                        [passage.text for passage in passages])
        return cls(index, [passage.targets for passage in passages],
                   [passage.owner for passage in passages], words or JudgmentWords(texts))

    def retargeted(self, targets_of: Mapping[str, Collection[str]]) -> CitingContexts:
        """The same passages (and index) standing for another scheme's ids: each section id
        becomes the ids `targets_of` maps it to (AILA's statutes S1-S197); a passage that
        maps to none stays, standing for nothing."""
        return CitingContexts(self.index, [
            frozenset(target for section in targets for target in targets_of.get(section, ()))
            for targets in self.targets], self.owners, self.words)

    def search(self, text: str, k: int, excluded: Collection[str] = (),
               keep: Callable[[str], bool] | None = None, summed: int = SUMMED,
               terms: int | None = None) -> list[Hit]:
        """The top-k sections (those `keep` allows), each scoring the sum of its `summed` best
        passages' scores among the `DEPTH` best, passages of `excluded` judgments left out;
        with `terms`, by the text's rarest terms only (a whole judgment's). Ties in passage
        score go by passage order, ties in section score by doc id."""
        scores = self.index.scores(text, terms)
        depth = min(DEPTH, int(np.count_nonzero(scores)))
        if depth == 0:
            return []
        top = np.argpartition(-scores, depth - 1)[:depth]
        top = top[np.lexsort((top, -scores[top]))]
        left_out = set(excluded) | self._printing(text, top)
        found: dict[str, list[float]] = {}
        for row in top:
            if self.owners[row] in left_out:
                continue
            for target in self.targets[row]:
                if keep is None or keep(target):
                    kept = found.setdefault(target, [])
                    if len(kept) < summed:
                        kept.append(float(scores[row]))
        return ranked(Hit(target, sum(values), self.method)
                      for target, values in found.items())[:k]

    def _printing(self, text: str, rows: np.ndarray) -> set[str]:
        """The judgments among the first `CHECKED` owners of `rows` that print the query."""
        runs = question_runs(text)
        if not runs:
            return set()
        owners = list(dict.fromkeys(self.owners[row] for row in rows))[:CHECKED]
        return {owner for owner in owners if self.words.prints(runs, owner)}


def contexts_index_dir(warehouse: Path, cases: bool = False) -> Path:
    """Where the `citing_contexts_index` asset keeps the passages' BM25 index: of the statute
    citations, or with `cases` of the case citations."""
    return warehouse.parent / "bm25" / ("case_contexts" if cases else "citing_contexts")


def contexts_index_stamp(warehouse: Path, cases: bool = False) -> str:
    """What the passages' index is built from: the judgments and their mentions (and for the
    case citations the graph's nodes, which tie a case to the judgments printing it), and the
    code that cuts and tokenizes the passages (this module and the tokenizer)."""
    tables = ("judgments", "citation_mentions", *(("citation_graph_nodes",) if cases else ()))
    return index_stamp(warehouse, tables, (__file__, tokenize_module.__file__))


def index_contexts(warehouse: Path) -> tuple[CitingContexts, CitingContexts]:
    """Cut and index the corpus's citing passages, of statute citations (about 15 s) and of
    case citations (about 2 s), and keep each index in its `contexts_index_dir`, for every
    later process to load."""
    judgments = read_table(warehouse / "judgments.parquet")
    texts = dict(zip(judgments["doc_id"], judgments["text"], strict=True))
    mentions = read_table(warehouse / "citation_mentions.parquet")
    statutes = CitingContexts.from_mentions(mentions, texts, section_successors(warehouse))
    cases = CitingContexts.over(case_citing_passages(mentions, texts, _case_docs(warehouse)),
                                texts)
    for contexts, of_cases in ((statutes, False), (cases, True)):
        contexts.index.save(contexts_index_dir(warehouse, of_cases),
                            contexts_index_stamp(warehouse, of_cases))
    return statutes, cases


def section_contexts(warehouse: Path) -> CitingContexts:
    """The corpus's citing passages for its sections, once per content of the tables they are
    read from; the judgments' texts are shared with `judgment_votes`. The index is the one
    `index_contexts` kept when it matches, else built here (about 15 s; not kept)."""
    return _section_contexts(warehouse, _tables_stamp(
        warehouse, ("judgments", "citation_mentions", "law_transition_map")))


@functools.lru_cache(maxsize=1)
def _section_contexts(warehouse: Path, stamp: tuple[str, ...]) -> CitingContexts:
    votes = judgment_votes(warehouse)
    return CitingContexts.from_mentions(
        read_table(warehouse / "citation_mentions.parquet"), votes.texts,
        section_successors(warehouse), words=votes.words, indexer=_kept_or_new(warehouse))


def case_contexts(warehouse: Path) -> CitingContexts:
    """The corpus's citing passages for its judgments: what the judgments citing a case say
    around the citation, standing for the judgments that print that case. Once per content of
    the tables read; the texts are shared with `judgment_votes`. The index is the one
    `index_contexts` kept when it matches, else built here (about 2 s; not kept)."""
    return _case_contexts(warehouse, _tables_stamp(
        warehouse, ("judgments", "citation_mentions", "citation_graph_nodes")))


def _tables_stamp(warehouse: Path, tables: tuple[str, ...]) -> tuple[str, ...]:
    """The checksums of the warehouse `tables`: what a cached build is keyed on."""
    return tuple(checksum_path(warehouse / f"{table}.parquet").read_text() for table in tables)


@functools.lru_cache(maxsize=1)
def _case_contexts(warehouse: Path, stamp: tuple[str, ...]) -> CitingContexts:
    votes = judgment_votes(warehouse)
    return CitingContexts.over(case_citing_passages(
        read_table(warehouse / "citation_mentions.parquet"), votes.texts, _case_docs(warehouse)),
        votes.texts, votes.words, indexer=_kept_or_new(warehouse, cases=True))


def _kept_or_new(warehouse: Path, cases: bool = False
                 ) -> Callable[[list[str], list[str]], BM25Retriever]:
    """An indexer of passages: the index `index_contexts` kept (of the case citations with
    `cases`) when it is of these passages, else one built here (not kept)."""
    folder, stamp = contexts_index_dir(warehouse, cases), contexts_index_stamp(warehouse, cases)
    return lambda ids, passages: (BM25Retriever.load(folder, stamp, ids, passages)
                                  or BM25Retriever(ids, passages))


def _case_docs(warehouse: Path) -> dict[str, list[str]]:
    """A case's node id -> the judgments that print it, from the citation graph's nodes."""
    nodes = read_table(warehouse / "citation_graph_nodes.parquet", ["node_id", "doc_ids"])
    return {node: list(docs) for node, docs in zip(nodes["node_id"], nodes["doc_ids"],
                                                   strict=True) if docs is not None}
