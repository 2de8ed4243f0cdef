"""BM25 over any table of (doc_id, text), on bm25s with the legal tokenizer, with optional
RM3 pseudo-relevance feedback."""

from __future__ import annotations

import json
import shutil
from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import bm25s
import numpy as np

from nyaya.retrieval.base import Hit
from nyaya.retrieval.tokenize import tokenize

Analyzer = Callable[[str], list[str]]


@dataclass(frozen=True)
class Feedback:
    """RM3 (Abdul-Jaleel et al. 2004): the `docs` best documents of a first search, weighted
    by their share of its scores, give a term distribution (each term's share of a document's
    tokens); its `terms` heaviest terms join the query, which keeps `original` of the weight."""

    docs: int = 10
    terms: int = 20
    original: float = 0.5

    def __post_init__(self) -> None:
        if self.docs < 1 or self.terms < 1 or not 0.0 <= self.original <= 1.0:
            raise ValueError(f"feedback needs docs >= 1, terms >= 1 and 0 <= original <= 1, "
                             f"got {self}")


class BM25Retriever:
    """Sparse lexical retrieval; ties are broken by doc id so runs are reproducible.

    `analyzer` turns a text into its terms (the legal tokenizer's words by default, or word
    pairs); `analyzed` gives the texts' terms when the caller has them already. Terms found in
    fewer than `min_df` documents are not indexed (most word pairs occur once, and a term only
    one document holds cannot relate two of them)."""

    method = "bm25"

    def __init__(self, doc_ids: Sequence[str], texts: Sequence[str], k1: float = 1.2,
                 b: float = 0.75, *, analyzer: Analyzer = tokenize, min_df: int = 1,
                 analyzed: Sequence[list[str]] | None = None) -> None:
        if len(doc_ids) != len(texts):
            raise ValueError(f"{len(doc_ids)} doc ids but {len(texts)} texts")
        if len(set(doc_ids)) != len(doc_ids):
            raise ValueError("doc ids must be unique")
        terms = analyzed if analyzed is not None else [analyzer(text) for text in texts]
        if len(terms) != len(texts):
            raise ValueError(f"{len(texts)} texts but {len(terms)} analyzed")
        if min_df > 1:
            frequency = Counter(term for document in terms for term in set(document))
            terms = [[term for term in document if frequency[term] >= min_df]
                     for document in terms]
        index = bm25s.BM25(k1=k1, b=b)
        index.index([document or ["<empty>"] for document in terms], show_progress=False)
        self._attach(doc_ids, texts, index, analyzer)

    def _attach(self, doc_ids: Sequence[str], texts: Sequence[str], index: bm25s.BM25,
                analyzer: Analyzer) -> None:
        self.doc_ids = list(doc_ids)
        self.texts = texts  # read again for feedback documents and by the similar-case votes
        self._index = index
        self._vocab = set(index.vocab_dict)
        # documents per term id, for `top_terms`: once per index, not once per query (a
        # word-pair index has millions of terms)
        self._document_frequency = np.diff(index.scores["indptr"])
        self.analyzer = analyzer

    def save(self, folder: Path, stamp: str) -> None:
        """The index (bm25s's arrays and vocabulary) with its doc ids and `stamp` (what it was
        built from), written beside `folder` and renamed into place: a reader never sees half
        an index."""
        building = folder.with_name(f"{folder.name}.building")
        shutil.rmtree(building, ignore_errors=True)
        self._index.save(building, show_progress=False)
        (building / "nyaya.json").write_text(json.dumps({"stamp": stamp,
                                                         "doc_ids": self.doc_ids}))
        shutil.rmtree(folder, ignore_errors=True)
        building.rename(folder)

    @classmethod
    def load(cls, folder: Path, stamp: str, doc_ids: Sequence[str], texts: Sequence[str],
             analyzer: Analyzer = tokenize) -> BM25Retriever | None:
        """The index `save` wrote, if it was built from `stamp` over these `doc_ids`; None
        when there is none, it is stale or it cannot be read (the caller indexes anew)."""
        try:
            meta = json.loads((folder / "nyaya.json").read_text())
            if meta.get("stamp") != stamp or meta.get("doc_ids") != list(doc_ids):
                return None
            index = bm25s.BM25.load(folder, show_progress=False, verbosity=0)
        except (OSError, ValueError, KeyError):
            return None
        if len(texts) != len(doc_ids) or index.scores["num_docs"] != len(doc_ids):
            return None
        retriever = cls.__new__(cls)
        retriever._attach(doc_ids, texts, index, analyzer)
        return retriever

    def top_terms(self, text: str, count: int | None) -> list[str]:
        """The text's `count` distinct terms rarest in the index (fewest documents first, then
        alphabetical; None: all of them): query reduction, the top-IDF terms of a long
        query."""
        frequency = self._document_frequency
        vocab = self._index.vocab_dict
        return sorted({t for t in self.analyzer(text) if t in self._vocab},
                      key=lambda t: (frequency[vocab[t]], t))[:count]

    def search(self, query: str, k: int = 10, *, terms: int | None = None,
               within: np.ndarray | None = None, feedback: Feedback | None = None
               ) -> list[Hit]:
        """The top k documents; `terms` reduces the query to its rarest terms (`top_terms`),
        `within` (a mask over the indexed documents) keeps the search inside a pool,
        `feedback` searches again with the query expanded by RM3."""
        tokens = self._tokens(query, terms)
        if not tokens:
            return []
        scores = self._index.get_scores(tokens)
        if feedback is not None:
            scores = np.where(within, scores, 0.0) if within is not None else scores
            expanded = self.expanded(tokens, scores, self._top(scores, feedback.docs), feedback)
            scores = sum(weight * self._index.get_scores([term])
                         for term, weight in sorted(expanded.items()))
        return self.best(scores, k, within)

    def best(self, scores: np.ndarray, k: int, within: np.ndarray | None = None) -> list[Hit]:
        """The k documents of the best positive `scores` (one per indexed document, in index
        order), inside `within` when given."""
        if within is not None:
            scores = np.where(within, scores, 0.0)
        return [Hit(self.doc_ids[i], float(scores[i]), self.method) for i in self._top(scores, k)]

    def _tokens(self, query: str, terms: int | None) -> list[str]:
        return (self.top_terms(query, terms) if terms else
                [t for t in self.analyzer(query) if t in self._vocab])

    def scores(self, query: str, terms: int | None = None) -> np.ndarray:
        """Every indexed document's score for the query (index order; zeros when no term of
        it is indexed), the query reduced as `search` reduces it."""
        return self.scores_of(self._tokens(query, terms))

    def scores_of(self, terms: Sequence[str]) -> np.ndarray:
        """Every indexed document's score for these terms (index order; zeros for none)."""
        return (self._index.get_scores(list(terms)).astype(float) if terms
                else np.zeros(len(self.doc_ids)))

    def expanded(self, tokens: Sequence[str], scores: np.ndarray, feedback_docs: Sequence[int],
                 feedback: Feedback) -> dict[str, float]:
        """The RM3 query: the query's term distribution and the relevance model of the
        feedback documents (weighted by their first-pass `scores`), mixed `feedback.original`
        to the rest (weights sum to 1)."""
        query = {term: count / len(tokens) for term, count in Counter(tokens).items()}
        model: Counter[str] = Counter()
        total = float(sum(scores[i] for i in feedback_docs))
        for i in feedback_docs:
            words = [t for t in self.analyzer(self.texts[i]) if t in self._vocab]
            if words and total > 0:
                share = float(scores[i]) / total
                for term, count in Counter(words).items():
                    model[term] += share * count / len(words)
        top = sorted(model.items(), key=lambda item: (-item[1], item[0]))[:feedback.terms]
        mass = sum(weight for _, weight in top)
        mixed = {term: feedback.original * weight for term, weight in query.items()}
        for term, weight in top:
            mixed[term] = mixed.get(term, 0.0) + (1 - feedback.original) * weight / mass
        return mixed

    def _top(self, scores: np.ndarray, k: int) -> list[int]:
        """Positions of the k best positive scores, ties by doc id."""
        candidates = np.flatnonzero(scores > 0)
        if len(candidates) > k:
            # Keep every document scoring at least the k-th best, so ties at the cut are
            # settled by doc id below rather than by argpartition's arbitrary order.
            kth = np.partition(scores[candidates], len(candidates) - k)[len(candidates) - k]
            candidates = candidates[scores[candidates] >= kth]
        return sorted(candidates, key=lambda i: (-float(scores[i]), self.doc_ids[i]))[:k]


def feedback_of(config: str, spec: Mapping | None) -> Feedback | None:
    """A config's `prf: {docs, terms, original}` (None when absent), refused by config name."""
    if spec is None:
        return None
    unknown = sorted(set(spec) - {"docs", "terms", "original"}) if isinstance(spec, Mapping) \
        else ["(not a mapping)"]
    if unknown:
        raise ValueError(f"config {config}: prf takes docs, terms and original, got "
                         f"{', '.join(map(str, unknown))}")
    try:
        return Feedback(**spec)
    except ValueError as err:
        raise ValueError(f"config {config}: {err}") from None
