"""Embedders side by side: speed on real chunks and retrieval quality on the evaluation sets.

    .venv/bin/python benchmarks/bench_embedders.py [--embedders minilm-static,minilm-int8,minilm]

Speed: texts per second on a fixed sample of judgment chunks (length-bucketed, i.e. one call
that FlagEmbedding sorts by length, and for fp32 also unbucketed batches; int8 encodes each
text alone, batch-independent, several side by side over the cores, and also one after the
other, as a query is, for the ratio).
Quality: exact dense search (numpy), nDCG@10 (authored set) or MAP (corpus sets), on
  nyaya-statutes   48 authored queries over the in-force sections,
  aila2019-statutes    AILA 2019 Q1-Q10 over its 197 statute descriptions,
  aila2019-precedents  AILA 2019 Q1-Q10 over its 2,914 judgments,
  irled2017-precedents        IRLeD 2017 current cases 1-100 over the 2,000 prior cases,
with BM25 on the same documents as the reference row. Judgments are scored through their
chunks: `first` embeds only a judgment's first chunk (the truncation policy the
transformers can afford), `max`/`mean` pool every chunk (static tier only, by default).
Vectors go through the content-hash cache in data/embeddings, so a rerun only re-times.
Needs `make run` first (the warehouse tables).
"""

from __future__ import annotations

import argparse
import random
import time

import numpy as np
import pandas as pd

from evals.corpus_sets import aila_statute_documents, load_corpus_set
from evals.metrics import evaluate_run
from evals.querysets import QuerySet, load_queryset
from evals.report import markdown_table
from evals.runner import statute_documents
from evals.runs import rank_frame
from nyaya.index.cache import EmbeddingCache, embed_with_cache
from nyaya.index.embedders import Embedder, load_embedder
from nyaya.retrieval.bm25 import BM25Retriever
from nyaya.retrieval.dense import pool_by_document, top_k
from nyaya.settings import Settings
from nyaya.tables import read_table

# nDCG@10 for the authored statute questions; MAP for the corpus sets, their official measure
# (few relevant documents per query, often ranked below 10).
HEADLINE = {"nyaya-statutes": "ndcg@10", "aila2019-statutes": "map", "aila2019-precedents": "map",
            "irled2017-precedents": "map"}
METRICS = ("ndcg@10", "map")
DEPTH = 100
DEFAULT_EMBEDDERS = ("minilm-static", "minilm-int8", "minilm")
REFERENCE_EMBEDDER = "minilm"  # fp32, what the other two are made from


def score(queryset: QuerySet, hits: dict[str, list]) -> dict[str, float]:
    frame = rank_frame({qid: [(h.doc_id, h.score, h.method) for h in found]
                        for qid, found in hits.items()})
    return evaluate_run(frame, queryset.qrels, METRICS)


def judged(queryset: QuerySet) -> pd.DataFrame:
    return queryset.queries[queryset.queries["qid"].isin(queryset.qrels)]


def load_sets(settings: Settings) -> dict[str, tuple[QuerySet, pd.DataFrame]]:
    """query set -> (set, documents with doc_id, text and, for judgments, chunk rows)."""
    warehouse = settings.warehouse
    sections = read_table(warehouse / "sections.parquet")
    judgments = read_table(warehouse / "judgments.parquet")
    chunks = read_table(warehouse / "judgment_chunks.parquet")[["chunk_id", "doc_id", "text"]]
    corpus = settings.corpus_root
    aila_chunks = chunks[chunks["doc_id"].str.startswith("AILA:C")]
    prior_chunks = chunks[chunks["doc_id"].str.startswith("IRLED:prior_case_")]
    return {
        "nyaya-statutes": (load_queryset("nyaya-statutes"), statute_documents(sections, False)),
        "aila2019-statutes": (load_corpus_set("aila2019-statutes", corpus),
                              aila_statute_documents(corpus)),
        "aila2019-precedents": (load_corpus_set("aila2019-precedents", corpus), aila_chunks),
        "irled2017-precedents": (load_corpus_set("irled2017-precedents", corpus, judgments),
                                 prior_chunks),
    }


def bm25_row(sets: dict) -> dict[str, float]:
    row = {}
    for name, (queryset, docs) in sets.items():
        if "chunk_id" in docs:  # BM25 over whole judgments
            docs = docs.groupby("doc_id", sort=True)["text"].agg(" ".join).reset_index()
        retriever = BM25Retriever(docs["doc_id"].tolist(), docs["text"].tolist())
        queries = judged(queryset)
        hits = {q: retriever.search(text, DEPTH) for q, text in zip(queries["qid"],
                                                                    queries["query"], strict=True)}
        row[name] = score(queryset, hits)[HEADLINE[name]]
    return row


def dense_scores(cache: EmbeddingCache, sets: dict, poolings: tuple[str, ...],
                 log) -> dict[str, float]:
    row = {}
    for name, (queryset, docs) in sets.items():
        queries = judged(queryset)
        query_vectors = embed_with_cache(queries["query"].tolist(), cache, log=log,
                                         label=f"{name} queries")
        is_chunked = "chunk_id" in docs
        for pooling in poolings if is_chunked else ("",):
            subset = docs.groupby("doc_id", sort=False).head(1) if pooling == "first" else docs
            vectors = embed_with_cache(subset["text"].tolist(), cache, log=log,
                                       label=f"{name} documents")
            hits = {}
            for qid, query in zip(queries["qid"], query_vectors, strict=True):
                scores = vectors @ query
                if is_chunked:
                    ids, scores = pool_by_document(scores, subset["doc_id"].tolist(), pooling)
                else:
                    ids = subset["doc_id"].tolist()
                hits[qid] = top_k(scores, ids, DEPTH, "dense")
            row[f"{name}/{pooling}" if pooling else name] = score(queryset, hits)[HEADLINE[name]]
    return row


def speed(embedder: Embedder, texts: list[str], bucketed: bool, size: int | None = None
          ) -> float:
    """Texts per second: one call for all (`bucketed`), else calls of `size` texts (the
    embedder's batch size by default)."""
    started = time.perf_counter()
    if bucketed:
        embedder.encode(texts)
    else:
        size = size or getattr(embedder, "batch_size", 32)
        for start in range(0, len(texts), size):
            embedder.encode(texts[start:start + size])
    return len(texts) / (time.perf_counter() - started)


def speed_sample(settings: Settings, size: int) -> list[str]:
    """A fixed random sample of real judgment chunks, the same for every embedder."""
    chunk_texts = read_table(settings.warehouse / "judgment_chunks.parquet")["text"].tolist()
    return random.Random(7).sample(chunk_texts, size)


def speed_row(settings: Settings, name: str, sample: list[str]) -> tuple[dict, Embedder]:
    """Load one embedder (timed) and time it on the sample; fp32 also unbucketed (the static
    tier has no batches to sort), int8 also one text per call."""
    started = time.perf_counter()
    embedder = load_embedder(name, settings.data_dir / "models")
    loaded = time.perf_counter() - started
    row = {"embedder": name, "dim": embedder.dim, "load_s": round(loaded, 1),
           "texts/s bucketed": round(speed(embedder, sample, True), 1)}
    if name == "minilm":
        row["texts/s unbucketed"] = round(speed(embedder, sample, False), 1)
    if name == "minilm-int8":
        row["texts/s one per call"] = round(speed(embedder, sample, False, 1), 1)
    return row, embedder


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--embedders", default=",".join(DEFAULT_EMBEDDERS))
    parser.add_argument("--sample", type=int, default=512, help="chunks timed per embedder")
    parser.add_argument("--static-poolings", default="first,max,mean")
    args = parser.parse_args()
    settings = Settings.from_env()
    sets = load_sets(settings)
    sample = speed_sample(settings, args.sample)
    rows = [{"embedder": "bm25 (reference)", **bm25_row(sets)}]
    for name in args.embedders.split(","):
        row, embedder = speed_row(settings, name, sample)
        poolings = tuple(args.static_poolings.split(",")) if name == "minilm-static" else ("first",)
        cache = EmbeddingCache(settings.data_dir / "embeddings", embedder)
        row.update(dense_scores(cache, sets, poolings, log=lambda m: print("  ", m, flush=True)))
        rows.append(row)
        print(pd.DataFrame([row]).to_string(index=False), flush=True)
    table = pd.DataFrame(rows)
    print("\nnyaya-statutes: nDCG@10; AILA and IRLeD: MAP@100. Dense: exact search; judgments "
          "by first chunk / best chunk / mean of chunks")
    print(markdown_table(table.round(3)))


if __name__ == "__main__":
    np.set_printoptions(precision=3)
    main()
