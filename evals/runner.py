"""Run retrieval configs over query sets: one code path for every config."""

from __future__ import annotations

import time
from dataclasses import dataclass
from datetime import date
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from evals.citation_sets import aila_sections
from evals.configs import load_config, side_of
from evals.corpus_sets import aila_statute_documents
from evals.querysets import TAG_FIELDS, QuerySet
from evals.runs import rank_frame
from evals.splits import split_of
from nyaya.index.build import load_vectors, vectors_embedders
from nyaya.index.embedders import load_embedder
from nyaya.index.lookups import CitationGraph, EntityIndex
from nyaya.index.store import VectorStore
from nyaya.retrieval.case_votes import CaseVotes, judgment_pairs, judgment_votes, section_votes
from nyaya.retrieval.chunks import COLLECTION as PRECEDENTS
from nyaya.retrieval.citing_contexts import section_contexts
from nyaya.retrieval.documents import DocumentResources, DocumentSearch
from nyaya.retrieval.pipeline import COLLECTION, StatuteResources, StatuteSearch
from nyaya.retrieval.postprocess import CrossReferences, Definitions
from nyaya.retrieval.precedents import PrecedentResources, PrecedentSearch
from nyaya.retrieval.query_analysis import QueryAnalyzer
from nyaya.retrieval.section_encoder import SectionEncoder, encoder_path
from nyaya.settings import Settings
from nyaya.statutes.model import IN_FORCE
from nyaya.tables import read_table
from nyaya.verify.ranker import SectionRanker


def statute_documents(sections: pd.DataFrame, include_repealed: bool) -> pd.DataFrame:
    """The searchable statute sections: in force (and repealed codes only when asked)."""
    keep = sections["status"] == IN_FORCE
    if include_repealed:
        keep |= sections["status"] == "repealed"
    docs = sections[keep]
    text = docs["title"].fillna("") + ". " + docs["text"].fillna("")
    return pd.DataFrame({"doc_id": docs["doc_id"], "text": text}).reset_index(drop=True)


def load_statute_resources(settings: Settings, store: VectorStore) -> StatuteResources:
    """Everything a statute search reads, from the built tables, vectors and store."""
    warehouse = settings.warehouse
    documents = read_table(warehouse / "legal_sections_documents.parquet")
    embedder = load_embedder(settings.embedder_of(COLLECTION), settings.models_dir,
                             settings.bge_m3_path)
    return StatuteResources(
        store=store,
        embedder=embedder,
        analyzer=QueryAnalyzer.from_warehouse(warehouse),
        documents=documents,
        vectors=load_vectors(settings.vectors_dir, COLLECTION, documents,
                             embedder.fingerprint),
        cross_references=CrossReferences.from_table(
            read_table(warehouse / "cross_references.parquet")),
        definitions=Definitions.from_table(read_table(warehouse / "definitions_index.parquet")),
        faiss_dir=settings.faiss_dir,
        case_votes=lambda: section_votes(warehouse),
        citing_contexts=lambda: section_contexts(warehouse),
        ranker=lambda resources: SectionRanker.from_settings(settings, resources),
        section_encoder=lambda: SectionEncoder.load(encoder_path(settings),
                                                    documents["doc_id"].tolist()))


def load_precedent_resources(settings: Settings, store: VectorStore) -> PrecedentResources:
    """Everything a precedent search reads: the chunk embedder, entity index, graph."""
    warehouse = settings.warehouse
    embedder = load_embedder(settings.embedder_of(PRECEDENTS), settings.models_dir,
                             settings.bge_m3_path)
    built_by = vectors_embedders(settings.vectors_dir, PRECEDENTS)
    if built_by != {embedder.fingerprint}:
        raise ValueError(f"{PRECEDENTS} vectors were built by "
                         f"{', '.join(sorted(built_by)) or 'nothing'}, queries would use "
                         f"{embedder.fingerprint}; rebuild them or set the embedder")
    return PrecedentResources(
        store=store, embedder=embedder, analyzer=QueryAnalyzer.from_warehouse(warehouse),
        entities=EntityIndex.load(warehouse), graph=CitationGraph.load(warehouse),
        judgments=pq.read_table(warehouse / "judgments.parquet",
                                columns=["doc_id", "source", "judges"]).to_pandas(),
        whole_judgments=lambda: judgment_votes(warehouse).judgments,
        judgment_pairs=lambda: judgment_pairs(warehouse))


def load_aila_statute_resources(settings: Settings, store: VectorStore) -> DocumentResources:
    """AILA 2019's 197 statute descriptions in memory, embedded by the sections embedder, and
    (for a config that asks) the judgments voting for them, found in `store`'s judgment
    chunks where a config asks."""
    documents = aila_statute_documents(settings.corpus_root)
    return DocumentResources(documents, load_embedder(settings.embedder_of(COLLECTION),
                                                      settings.models_dir, settings.bge_m3_path),
                             lambda: aila_statute_votes(settings.warehouse, documents),
                             lambda: section_contexts(settings.warehouse).retargeted(
                                 aila_statutes_of(settings.warehouse, documents)), store)


def aila_statutes_of(warehouse: Path, documents: pd.DataFrame) -> dict[str, list[str]]:
    """Section doc id -> the AILA statutes (S ids) it is (`aila_sections`)."""
    statutes_of: dict[str, list[str]] = {}
    for statute, section in aila_sections(documents, read_table(
            warehouse / "legal_sections_documents.parquet")).items():
        statutes_of.setdefault(section, []).append(statute)
    return statutes_of


def aila_statute_votes(warehouse: Path, documents: pd.DataFrame) -> CaseVotes:
    """`judgment_votes` for AILA's statutes: a judgment votes for the S ids its cited
    sections map to (`aila_sections`)."""
    votes = judgment_votes(warehouse)
    statutes_of = aila_statutes_of(warehouse, documents)
    cites = {judgment: {statute for section in sections for statute in statutes_of.get(
        section, ())} for judgment, sections in votes.cites.items()}
    return votes.with_cites({doc: ids for doc, ids in cites.items() if ids})


#: Each config side's search and the loader of what it reads; the sides never share one list.
SIDES = {"statutes": (StatuteSearch, load_statute_resources),
         "precedents": (PrecedentSearch, load_precedent_resources),
         "aila-statutes": (DocumentSearch, load_aila_statute_resources)}


def statute_side(config: str) -> bool:
    return side_of(load_config(config)) == "statutes"


def group_tags(queryset: QuerySet) -> dict[str, dict[str, str]]:
    """The groups a set's metrics are broken down by: query type, domain and (the transition
    set's) direction where the set's queries carry more than one value (tags are optional),
    and the train / held-out split."""
    present = {kind: queryset.tags(kind) for kind in TAG_FIELDS}
    tags = {kind: values for kind, values in present.items() if len(set(values.values())) > 1}
    return tags | {"split": {qid: split_of(qid) for qid in queryset.queries["qid"]}}


@dataclass(frozen=True)
class TimedRun:
    run: pd.DataFrame  # qid, doc_id, rank, score, method
    seconds: float
    median_ms: float


def run_queryset(search: StatuteSearch | PrecedentSearch | DocumentSearch, queryset: QuerySet,
                 top_k: int, sources: tuple[str, ...] | None = None) -> TimedRun:
    """Every query of the set through one config; per-query latency kept for the report.
    Precedent searches stay within the set's candidate `sources`, and a query's `excluded`
    documents (a judgment asked for its own precedents: itself) are never ranked for it, nor
    vote for its statutes."""
    hits, times = {}, []
    queries = queryset.queries
    dates = queries["as_of"] if "as_of" in queries else pd.Series([None] * len(queries))
    excluded = (queries["excluded"] if "excluded" in queries
                else pd.Series([()] * len(queries)))
    for qid, query, as_of, never in zip(queries["qid"], queries["query"], dates, excluded,
                                        strict=True):
        when = date.fromisoformat(as_of) if isinstance(as_of, str) and as_of else None
        depth = top_k + len(never)
        started = time.perf_counter()
        found = (search.search(query, depth, sources=sources, excluded=never)
                 if isinstance(search, PrecedentSearch) else
                 search.search(query, depth, as_of=when, excluded=never))
        times.append(time.perf_counter() - started)
        hits[qid] = [(hit.doc_id, hit.score, hit.method) for hit in found
                     if hit.doc_id not in never][:top_k]
    series = pd.Series(times)
    return TimedRun(rank_frame(hits), float(series.sum()), float(series.median() * 1000))
