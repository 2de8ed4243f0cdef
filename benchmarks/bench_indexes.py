"""Index builds and query latency, peers side by side on the same vectors.

    .venv/bin/python benchmarks/bench_indexes.py [--queries 200] [--local-subset 10000]
                                                 [--documents N]

Needs `make run` first (document tables, vectors and the Qdrant Edge collections under data/).
For legal_sections and sc_judgments it prints, per engine: build seconds, median and p95
query milliseconds (one query at a time, search only; each collection's embedder's time per
query is printed once), recall@10 against exact search, and the ratio of each median to
numpy's. Qdrant Edge is also rebuilt from scratch into a temporary folder to time the bulk
load. qdrant-client's local mode is measured on a subset only (it is far too slow for the
whole corpus), beside numpy on the same subset. Peak RSS is printed for this build process
and for a separate query-only process that opens the store and answers queries.
`--documents N` keeps only each collection's first N documents, for quick runs: every engine
is then built on those and Qdrant Edge is queried in the shard just bulk-loaded, not the
pipeline's.
"""

from __future__ import annotations

import argparse
import json
import random
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
from benchlib import latencies, peak_rss_mib

from evals.querysets import load_queryset
from nyaya.index import faiss_index
from nyaya.index.build import load_vectors, sync_collection
from nyaya.index.collections import LEGAL_SECTIONS, SC_JUDGMENTS, CollectionDef
from nyaya.index.embedders import Embedder, load_embedder
from nyaya.index.sparse import query_vector
from nyaya.index.store import EdgeStore, ServerStore, VectorStore, open_store
from nyaya.settings import Settings
from nyaya.tables import read_table

K = 10
#: the Edge rows that answer another question than numpy's exact dense top k
EDGE_SPARSE, EDGE_HYBRID = "qdrant-edge sparse (BM25)", "qdrant-edge hybrid (RRF)"


def query_texts(settings: Settings, count: int) -> list[str]:
    """The authored questions, then chunk openings as stand-ins for longer queries."""
    texts = load_queryset("nyaya-statutes").queries["query"].tolist()
    chunks = read_table(settings.warehouse / "judgment_chunks.parquet")["text"].tolist()
    texts += [chunk[:300] for chunk in random.Random(11).sample(chunks, max(count - len(texts), 0))]
    return texts[:count]


#: the precision each column is printed with
ROUNDING = {"build_s": 1, "median_ms": 3, "p95_ms": 3, "recall@10": 4}


def row(engine: str, collection: str, build_s: float | None, times: np.ndarray,
        recall: float | None) -> dict:
    return {"collection": collection, "engine": engine, "build_s": build_s,
            "median_ms": float(np.median(times)), "p95_ms": float(np.percentile(times, 95)),
            "recall@10": recall}


def exact_top(vectors: np.ndarray, queries: np.ndarray) -> np.ndarray:
    return np.argsort(-(queries @ vectors.T), axis=1, kind="stable")[:, :K]


def bench_collection(settings: Settings, definition: CollectionDef, queries: np.ndarray,
                     sparse: list, local_subset: int, limit: int | None = None) -> list[dict]:
    name = definition.name
    documents = read_table(settings.warehouse / f"{name}_documents.parquet")
    vectors = load_vectors(settings.vectors_dir, name, documents)
    if limit is not None:
        documents, vectors = documents.iloc[:limit], vectors[:limit]
        name = f"{name}[:{len(documents)}]"
    n = len(queries)
    exact = exact_top(vectors, queries)
    numpy_times = latencies(lambda i: np.argpartition(-(vectors @ queries[i]), K)[:K], n)
    rows = [row("numpy exact", name, 0.0, numpy_times, 1.0)]
    for kind in ("flat", "hnsw", "ivf"):
        started = time.perf_counter()
        index, _ = faiss_index.build(kind, vectors)
        built = time.perf_counter() - started
        times = latencies(lambda i, index=index: index.search(queries[i:i + 1], K), n)
        _, approx = index.search(queries, K)
        rows.append(row(f"faiss {kind}", name, built, times,
                        faiss_index.recall_at_k(exact, approx)))
    if limit is None:  # the pipeline's store, then a bulk load timed on its own
        store = open_store(settings.qdrant_path, settings.qdrant_url, settings.qdrant_api_key)
        try:
            rows.extend(edge_query_rows(store, definition.name, name, documents, queries,
                                        sparse, exact))
        finally:
            store.close()
        with tempfile.TemporaryDirectory() as folder:
            store, built = bulk_load(Path(folder), definition, documents, vectors)
            store.close()
        rows.append(bulk_load_row(name, built))
    else:  # the subset exists only in the shard just loaded
        with tempfile.TemporaryDirectory() as folder:
            store, built = bulk_load(Path(folder), definition, documents, vectors)
            try:
                rows.append(bulk_load_row(name, built))
                rows.extend(edge_query_rows(store, definition.name, name, documents, queries,
                                            sparse, exact))
            finally:
                store.close()
    rows.extend(local_mode(definition, documents, vectors, queries, local_subset))
    return rows


def edge_query_rows(store: VectorStore, collection: str, label: str, documents: pd.DataFrame,
                    queries: np.ndarray, sparse: list, exact: np.ndarray) -> list[dict]:
    """Dense (with recall against exact search), sparse and hybrid latency in one store."""
    n = len(queries)
    id_row = {int(pid): i for i, pid in enumerate(documents["point_id"])}
    found = [[id_row[h.id] for h in store.search_dense(collection, queries[i], K)]
             for i in range(n)]
    return [row("qdrant-edge dense", label, None,
                latencies(lambda i: store.search_dense(collection, queries[i], K), n),
                faiss_index.recall_at_k(exact, np.array(found))),
            row(EDGE_SPARSE, label, None,
                latencies(lambda i: store.search_sparse(collection, *sparse[i], K), n), None),
            row(EDGE_HYBRID, label, None,
                latencies(lambda i: store.hybrid(collection, queries[i], sparse[i], K), n),
                None)]


def bulk_load(folder: Path, definition: CollectionDef, documents: pd.DataFrame,
              vectors: np.ndarray) -> tuple[EdgeStore, float]:
    """A fresh Edge shard in `folder` holding the documents, open, and the seconds its load
    and optimize took."""
    store = EdgeStore(folder)
    try:
        started = time.perf_counter()
        sync_collection(store, definition, documents, vectors, "bench")
        return store, time.perf_counter() - started
    except BaseException:
        store.close()
        raise


def bulk_load_row(label: str, seconds: float) -> dict:
    return {"collection": label, "engine": "qdrant-edge bulk load + optimize",
            "build_s": seconds}


def local_mode(definition: CollectionDef, documents: pd.DataFrame, vectors: np.ndarray,
               queries: np.ndarray, subset: int) -> list[dict]:
    """qdrant-client local mode against numpy, both on the first `subset` documents."""
    from qdrant_client import QdrantClient

    documents, vectors = documents.iloc[:subset], vectors[:subset]
    label = f"{definition.name}[:{subset}]"
    store = ServerStore(QdrantClient(location=":memory:"))
    started = time.perf_counter()
    sync_collection(store, definition, documents, vectors, "bench")
    built = time.perf_counter() - started
    n = min(len(queries), 50)
    local_times = latencies(lambda i: store.search_dense(definition.name, queries[i], K), n)
    numpy_times = latencies(lambda i: np.argpartition(-(vectors @ queries[i]), K)[:K], n)
    store.close()
    return [row("qdrant-client local", label, built, local_times, None),
            row("numpy exact", label, 0.0, numpy_times, 1.0)]


def embedder_for(settings: Settings, collection: str) -> Embedder:
    return load_embedder(settings.embedder_of(collection), settings.models_dir,
                         settings.bge_m3_path)


def query_process(settings: Settings, texts: list[str]) -> dict:
    """Runs in its own process, as a served query process would: load the embedder, open the
    store, embed each query (once per collection's embedder) and run a statute and a judgment
    hybrid search; report the median
    milliseconds per query (first query, which pages the store in, reported apart) and the
    peak RSS."""
    embedders = {name: embedder_for(settings, name)
                 for name in (LEGAL_SECTIONS.name, SC_JUDGMENTS.name)}
    store = open_store(settings.qdrant_path, settings.qdrant_url, settings.qdrant_api_key)

    def answer(i: int) -> None:
        sparse = query_vector(texts[i])
        for collection, embedder in embedders.items():
            store.hybrid(collection, embedder.encode([texts[i]])[0], sparse, K)

    started = time.perf_counter()
    answer(0)
    first_ms = (time.perf_counter() - started) * 1000
    times = latencies(answer, len(texts))
    store.close()
    return {"queries": len(texts), "first_query_ms": round(first_ms, 2),
            "median_ms_embed_plus_two_hybrid": round(float(np.median(times)), 3),
            "peak_rss_mib": round(peak_rss_mib(), 1)}


@dataclass(frozen=True)
class QueryEmbedding:
    collection: str
    embedder: str
    dims: int
    ms_per_query: float


@dataclass(frozen=True)
class IndexFigures:
    queries: int
    embedding: list[QueryEmbedding]
    rows: list[dict]  # one per (collection, engine): build_s, median_ms, p95_ms, recall@10
    build_rss_mib: float


def measure(settings: Settings, texts: list[str], local_subset: int,
            limit: int | None = None) -> IndexFigures:
    """Every engine on both collections (the first `limit` documents of each when given)."""
    sparse = [query_vector(text) for text in texts]
    rows, embedding = [], []
    for definition in (LEGAL_SECTIONS, SC_JUDGMENTS):
        embedder = embedder_for(settings, definition.name)
        started = time.perf_counter()
        queries = np.stack([embedder.encode([text])[0] for text in texts])
        embed_ms = (time.perf_counter() - started) * 1000 / len(texts)
        embedding.append(QueryEmbedding(definition.name, embedder.name, embedder.dim, embed_ms))
        rows.extend(bench_collection(settings, definition, queries, sparse, local_subset, limit))
    return IndexFigures(len(texts), embedding, rows, peak_rss_mib())


def results_table(rows: list[dict]) -> pd.DataFrame:
    """The rows, rounded for print, with each median over numpy's on the same collection
    (x_numpy)."""
    table = pd.DataFrame(rows).round(ROUNDING)
    for _collection, group in table.groupby("collection", sort=False):
        base = group.loc[group["engine"] == "numpy exact", "median_ms"]
        if len(base):
            table.loc[group.index, "x_numpy"] = (group["median_ms"] / base.iloc[0]).round(3)
    return table


def run_query_process(texts: list[str]) -> dict:
    """query_process in a child of its own, so its peak RSS is its own."""
    child = subprocess.run([sys.executable, __file__, "--query-process"], input=json.dumps(texts),
                           capture_output=True, text=True, check=True)
    return json.loads(child.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=200)
    parser.add_argument("--local-subset", type=int, default=10000)
    parser.add_argument("--documents", type=int, default=None,
                        help="first N documents of each collection only (default: all)")
    parser.add_argument("--query-process", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    settings = Settings.from_env()
    if args.query_process:
        texts = json.loads(sys.stdin.read())
        print(json.dumps(query_process(settings, texts)))
        return
    texts = query_texts(settings, args.queries)
    result = measure(settings, texts, args.local_subset, args.documents)
    print("; ".join(f"{e.collection}: {e.embedder} ({e.dims} dims), "
                    f"{e.ms_per_query:.2f} ms per query to embed" for e in result.embedding)
          + f"; {result.queries} queries, k={K}")
    print(results_table(result.rows).to_string(index=False))
    print(f"peak RSS of this build process: {result.build_rss_mib:.0f} MiB")
    print("query-only process:", json.dumps(run_query_process(texts)))


if __name__ == "__main__":
    main()
