"""BM25 engines side by side: bm25s (what nyaya uses) against rank_bm25, on the same sections.

    .venv/bin/python benchmarks/bench_bm25.py [--documents N] [--queries N] [--repeat 3]

Needs `make run` first (legal_sections_documents). Both engines get the same token lists
(nyaya's legal tokenizer, run once and not timed) and the same k1 and b; bm25s scores with
its default Lucene variant, as nyaya.retrieval.bm25 does, and rank_bm25 with BM25Okapi, so
the rankings differ a little: the top-10 overlap says by how much. Figures: index build
seconds (best of --repeat), and the median and p95 milliseconds of one query (scores for
every document, then the top 10) over the nyaya-statutes questions.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass

import bm25s
import numpy as np
import pandas as pd
from benchlib import latencies
from rank_bm25 import BM25Okapi

from evals.querysets import load_queryset
from nyaya.retrieval.tokenize import tokenize
from nyaya.settings import Settings
from nyaya.tables import read_table

K = 10
K1, B = 1.2, 0.75  # nyaya.retrieval.bm25's defaults
ENGINES = ("bm25s", "rank_bm25")


@dataclass(frozen=True)
class EngineFigures:
    engine: str
    build_s: float
    median_ms: float
    p95_ms: float


@dataclass(frozen=True)
class BM25Figures:
    documents: int
    queries: int
    engines: dict[str, EngineFigures]
    top10_overlap: float  # mean share of rank_bm25's top 10 that bm25s also returns


def section_tokens(settings: Settings, limit: int | None) -> list[list[str]]:
    """The in-force sections the statute BM25 retriever searches, tokenized as it does."""
    documents = read_table(settings.table_path("legal_sections_documents"))
    texts = documents.loc[documents["status"] == "in_force", "text"].tolist()[:limit]
    return [tokenize(text) or ["<empty>"] for text in texts]


def _build(engine: str, corpus: list[list[str]]) -> object:
    if engine == "bm25s":
        index = bm25s.BM25(k1=K1, b=B)
        index.index(corpus, show_progress=False)
        return index
    return BM25Okapi(corpus, k1=K1, b=B)


def _top(index: object, tokens: list[str]) -> np.ndarray:
    scores = index.get_scores(tokens)
    return np.argpartition(-scores, K)[:K]


def _best_of(repeat: int, build: Callable[[], object]) -> tuple[object, float]:
    """The index from the last of `repeat` builds, and the fastest build's seconds."""
    best, index = float("inf"), None
    for _ in range(repeat):
        started = time.perf_counter()
        index = build()
        best = min(best, time.perf_counter() - started)
    return index, best


def measure(settings: Settings, documents: int | None = None, queries: int | None = None,
            repeat: int = 3) -> BM25Figures:
    """Build both engines on the same tokens and time the same queries through each."""
    corpus = section_tokens(settings, documents)
    vocab = {token for tokens in corpus for token in tokens}
    texts = load_queryset("nyaya-statutes").queries["query"].tolist()[:queries]
    # as BM25Retriever.search does: unknown tokens dropped (bm25s refuses them), and a
    # question left with none is not searched
    asked = [tokens for tokens in ([t for t in tokenize(text) if t in vocab] for text in texts)
             if tokens]
    figures, tops = {}, {}
    for engine in ENGINES:
        index, build_s = _best_of(repeat, lambda e=engine: _build(e, corpus))
        _top(index, asked[0])  # warm: bm25s builds its score arrays lazily
        times = latencies(lambda i, index=index: _top(index, asked[i]), len(asked))
        tops[engine] = [set(_top(index, tokens).tolist()) for tokens in asked]
        figures[engine] = EngineFigures(engine, build_s, float(np.median(times)),
                                        float(np.percentile(times, 95)))
    overlap = np.mean([len(ours & theirs) / K
                       for ours, theirs in zip(tops["bm25s"], tops["rank_bm25"], strict=True)])
    return BM25Figures(len(corpus), len(asked), figures, float(overlap))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--documents", type=int, default=None, help="first N sections only")
    parser.add_argument("--queries", type=int, default=None, help="first N questions only")
    parser.add_argument("--repeat", type=int, default=3, help="builds per engine (best kept)")
    args = parser.parse_args()
    result = measure(Settings.from_env(), args.documents, args.queries, args.repeat)
    table = pd.DataFrame([vars(figures) for figures in result.engines.values()])
    table["x_bm25s"] = (table["median_ms"] / result.engines["bm25s"].median_ms).round(2)
    print(f"{result.documents} in-force sections, {result.queries} nyaya-statutes questions, "
          f"k={K}, k1={K1}, b={B}; top-10 overlap {result.top10_overlap:.3f}")
    print(table.round(3).to_string(index=False))


if __name__ == "__main__":
    main()
