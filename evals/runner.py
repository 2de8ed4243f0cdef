"""Run a retrieval config over a query set: one code path for every config."""

from __future__ import annotations

import pandas as pd

from evals.configs import RetrievalConfig
from evals.querysets import QuerySet
from evals.runs import rank_frame
from nyaya.retrieval.bm25 import BM25Retriever
from nyaya.statutes.model import IN_FORCE


def statute_documents(sections: pd.DataFrame, include_repealed: bool) -> pd.DataFrame:
    """The searchable statute sections: in force (and repealed codes only when asked)."""
    keep = sections["status"] == IN_FORCE
    if include_repealed:
        keep |= sections["status"] == "repealed"
    docs = sections[keep]
    text = docs["title"].fillna("") + ". " + docs["text"].fillna("")
    return pd.DataFrame({"doc_id": docs["doc_id"], "text": text}).reset_index(drop=True)


def build_retriever(config: RetrievalConfig, sections: pd.DataFrame) -> BM25Retriever:
    params = config.params
    if params["retriever"] != "bm25" or params["collection"] != "sections":
        raise ValueError(f"config {config.name}: retriever {params['retriever']!r} over "
                         f"{params['collection']!r} is not available yet")
    docs = statute_documents(sections, bool(params.get("include_repealed", False)))
    return BM25Retriever(docs["doc_id"].tolist(), docs["text"].tolist(),
                         k1=float(params.get("k1", 1.2)), b=float(params.get("b", 0.75)))


def run_queryset(retriever: BM25Retriever, queryset: QuerySet, top_k: int) -> pd.DataFrame:
    hits = {}
    for qid, query in zip(queryset.queries["qid"], queryset.queries["query"], strict=True):
        hits[qid] = [(hit.doc_id, hit.score, hit.method) for hit in retriever.search(query, top_k)]
    return rank_frame(hits)
