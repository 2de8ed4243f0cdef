"""Indexes: per collection a document table, its vectors, its Qdrant collection and a
point-count check; FAISS indexes over sections and judgment chunks."""


import functools
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import dagster as dg
import numpy as np
import pandas as pd

from assets.sources import JUDGMENT_YEARS, STATUTE_SOURCES
from evals.querysets import load_queryset
from nyaya.index import collections as coll
from nyaya.index.build import build_faiss, build_vectors, load_vectors, sync_collection
from nyaya.index.cache import EmbeddingCache, embed_with_cache
from nyaya.index.collections import LEGAL_SECTIONS, LEGAL_SUB_SECTIONS, SC_JUDGMENTS
from nyaya.index.embedders import Embedder, load_embedder
from nyaya.index.store import open_store
from nyaya.provenance import source_fingerprint
from nyaya.retrieval.case_votes import WORDS, index_judgments, judgment_index_dir
from nyaya.retrieval.citing_contexts import contexts_index_dir, index_contexts
from nyaya.settings import Settings
from nyaya.verify.section_index import index_sections, section_index_dir
from pipelines.resources import NyayaSettings

GROUP = "indexes"
CODE_VERSION = source_fingerprint(__name__)
# Concurrency pools (dagster.yaml: one slot each unless raised): under the multiprocess
# executor two embedders at once can exhaust memory, and the embedded Qdrant store has one
# writer per shard, so these steps queue for a slot across runs and processes.
EMBEDDING_POOL = "embedding"
QDRANT_WRITES_POOL = "qdrant_writes"
#: The faiss-* statute configs read the sections' flat and HNSW indexes. No search reads the
#: judgments' FAISS indexes (precedent search is Qdrant's); IVF is their approximate one, as an
#: HNSW graph over 187,669 chunks took a minute of every cold build (benchmarks/
#: bench_indexes.py still compares HNSW there).
FAISS_KINDS = {"legal_sections": ("flat", "hnsw"), "sc_judgments": ("flat", "ivf")}


@functools.cache
def embedder_for(name: str, models_dir: Path, bge_m3_path: Path | None) -> Embedder:
    """One embedder per process: loading the model is the slow part."""
    return load_embedder(name, models_dir, bge_m3_path)


def embedding_cache(settings: Settings, collection: str) -> EmbeddingCache:
    embedder = embedder_for(settings.embedder_of(collection), settings.models_dir,
                            settings.bge_m3_path)
    return EmbeddingCache(settings.embeddings_dir, embedder)


def _documents(frame: pd.DataFrame) -> dg.Output:
    return dg.Output(frame, metadata={"documents": len(frame),
                                      "text_chars": int(frame["text"].str.len().sum())})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION, deps=["judgments"])
def judgment_index(settings: NyayaSettings) -> dg.MaterializeResult:
    """BM25 over every judgment's whole text, by its words and by its word pairs, kept on
    disk: the similar-case votes of the `cases` configs, the precedent relevance judge and
    the `document` precedent configs load them instead of indexing the judgments in every
    process (about 60 s together)."""
    resolved = settings.resolved()
    started = time.perf_counter()
    indexes = index_judgments(resolved.warehouse)
    return dg.MaterializeResult(metadata={
        "judgments": len(indexes[WORDS].doc_ids),
        **{f"{terms.folder}_path": dg.MetadataValue.path(
            str(judgment_index_dir(resolved.warehouse, terms))) for terms in indexes},
        "seconds": round(time.perf_counter() - started, 2)})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION,
          deps=["judgments", "citation_mentions", "law_transition_map", "citation_graph_nodes"])
def citing_contexts_index(settings: NyayaSettings) -> dg.MaterializeResult:
    """BM25 over the passages around every statute citation in the judgments, and around
    every case citation, kept on disk: the `contexts` configs, `nyaya search` and `nyaya serve`
    load the first instead of cutting and indexing some 90,000 passages in every process (about
    15 s), the precedent relevance judge the second (about 2 s)."""
    resolved = settings.resolved()
    started = time.perf_counter()
    statutes, cases = index_contexts(resolved.warehouse)
    return dg.MaterializeResult(metadata={
        "passages": len(statutes.owners), "judgments": len(set(statutes.owners)),
        "sections": len({target for targets in statutes.targets for target in targets}),
        "case_passages": len(cases.owners),
        "cited_judgments": len({target for targets in cases.targets for target in targets}),
        "path": dg.MetadataValue.path(str(contexts_index_dir(resolved.warehouse))),
        "case_path": dg.MetadataValue.path(str(contexts_index_dir(resolved.warehouse, True))),
        "seconds": round(time.perf_counter() - started, 2)})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION, deps=["sections"])
def judge_sections_index(settings: NyayaSettings) -> dg.MaterializeResult:
    """BM25 over every section's title and text as the relevance judge reads them, kept on
    disk: `nyaya verify --query`, `nyaya search --verify`, the verification rates, the
    relevance model's training and the section ranker load it instead of indexing 37,464
    sections in every process (about 5 s)."""
    resolved = settings.resolved()
    started = time.perf_counter()
    index = index_sections(resolved)
    return dg.MaterializeResult(metadata={
        "sections": len(index.doc_ids),
        "path": dg.MetadataValue.path(str(section_index_dir(resolved.warehouse))),
        "seconds": round(time.perf_counter() - started, 2)})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def legal_sections_documents(sections: pd.DataFrame, act_registry: pd.DataFrame) -> dg.Output:
    """One point per statute section (all statuses; `status` is in the payload)."""
    return _documents(coll.section_documents(sections, act_registry))


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def legal_sub_sections_documents(sub_sections: pd.DataFrame, sections: pd.DataFrame,
                                 act_registry: pd.DataFrame) -> dg.Output:
    """One point per sub-section, clause and proviso, under its section's heading."""
    return _documents(coll.sub_section_documents(sub_sections, sections, act_registry))


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def sc_judgments_documents(judgment_chunks: pd.DataFrame, judgments: pd.DataFrame,
                           domain_tags: pd.DataFrame) -> dg.Output:
    """One point per judgment chunk, with year, source and domain."""
    return _documents(coll.chunk_documents(judgment_chunks, judgments, domain_tags))


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def law_transition_context_documents(law_transition_map: pd.DataFrame,
                                     sections: pd.DataFrame) -> dg.Output:
    """One point per old->new code mapping (IPC->BNS, CrPC->BNSS, IEA->BSA)."""
    return _documents(coll.transition_documents(law_transition_map, sections))


#: the collections whose vectors are built per partition of the corpus (an Act, a year of
#: judgments), so that a backfill or rerun embeds and writes only the parts that changed; the
#: transition context (a few thousand rows from three codes) is one part
VECTOR_PARTITIONS = {
    LEGAL_SECTIONS: STATUTE_SOURCES,
    LEGAL_SUB_SECTIONS: STATUTE_SOURCES,
    SC_JUDGMENTS: JUDGMENT_YEARS,
}


def vectors_asset(definition: coll.CollectionDef) -> dg.AssetsDefinition:
    name = definition.name
    partitions_def = VECTOR_PARTITIONS.get(definition)

    # the embedder is not part of the code version: each part's manifest names the embedder
    # that built it, and freshness compares it with the configured one (pipelines/freshness.py)
    @dg.asset(name=f"{name}_vectors", group_name=GROUP, pool=EMBEDDING_POOL,
              code_version=CODE_VERSION,
              partitions_def=partitions_def,
              backfill_policy=dg.BackfillPolicy.single_run() if partitions_def else None,
              ins={"documents": dg.AssetIn(f"{name}_documents")})
    def _vectors(context: dg.AssetExecutionContext, settings: NyayaSettings,
                 documents: pd.DataFrame) -> dg.MaterializeResult:
        """Dense vectors of the documents, one part per partition of this run, from the
        content-hash cache where possible; intact parts are kept."""
        resolved = settings.resolved()
        partitions = context.partition_keys if partitions_def else None
        cache = embedding_cache(resolved, name)
        result = build_vectors(documents, cache, resolved.vectors_dir, name, partitions,
                               log=context.log.info)
        rate = result.embedded / result.seconds if result.embedded else 0.0
        why = Counter(result.rebuilt.values())
        for partition in partitions or ():  # each partition's own fate; the rest is the run's
            reason = result.rebuilt.get(partition)
            context.add_asset_metadata({"part": f"built ({reason})" if reason else "kept"},
                                       partition_key=partition)
        return dg.MaterializeResult(metadata={
            "embedder": cache.embedder.fingerprint,
            "parts_built": len(result.rebuilt), "parts_kept": result.kept,
            "parts_built_why": ", ".join(f"{n} {reason}" for reason, n in sorted(why.items())),
            "vectors_written": result.vectors, "newly_embedded": result.embedded,
            "seconds": round(result.seconds, 2), "texts_per_second": round(rate, 1)})

    return _vectors


def served_vectors(settings: Settings, name: str,
                   documents: pd.DataFrame) -> tuple[np.ndarray, Embedder]:
    """The collection's vectors in table order, refused unless every part was built from
    these documents by the embedder its queries will use."""
    embedder = embedder_for(settings.embedder_of(name), settings.models_dir,
                            settings.bge_m3_path)
    return load_vectors(settings.vectors_dir, name, documents, embedder.fingerprint), embedder


def qdrant_asset(definition: coll.CollectionDef) -> dg.AssetsDefinition:
    name = definition.name

    @dg.asset(name=f"{name}_qdrant", group_name=GROUP, code_version=CODE_VERSION,
              pool=QDRANT_WRITES_POOL, deps=[f"{name}_vectors"],
              ins={"documents": dg.AssetIn(f"{name}_documents")})
    def _qdrant(context: dg.AssetExecutionContext, settings: NyayaSettings,
                documents: pd.DataFrame) -> dg.MaterializeResult:
        """The Qdrant collection: named dense + BM25 sparse vectors, payload indexes; only new
        or changed points are written."""
        resolved = settings.resolved()
        vectors, embedder = served_vectors(resolved, name, documents)
        store = open_store(resolved.qdrant_path, resolved.qdrant_url, resolved.qdrant_api_key)
        try:
            result = sync_collection(store, definition, documents, vectors,
                                     embedder.fingerprint, log=context.log.info)
        finally:
            store.close()
        return dg.MaterializeResult(metadata={
            "backend": store.backend, "points": result.count, "upserted": result.upserted,
            "deleted": result.deleted, "unchanged": result.unchanged,
            "seconds": round(result.seconds, 2)})

    return _qdrant


def point_count_check(definition: coll.CollectionDef) -> dg.AssetChecksDefinition:
    name = definition.name

    @dg.asset_check(name="point_count_matches_documents", asset=f"{name}_qdrant",
                    blocking=True, additional_ins={"documents": dg.AssetIn(f"{name}_documents")})
    def _check(settings: NyayaSettings, documents: pd.DataFrame) -> dg.AssetCheckResult:
        """The store holds exactly the table's points (the served system's store and database
        disagreed on section counts)."""
        resolved = settings.resolved()
        store = open_store(resolved.qdrant_path, resolved.qdrant_url, resolved.qdrant_api_key)
        try:
            stored = store.ids(name)
        finally:
            store.close()
        wanted = set(documents["point_id"].astype("int64").tolist())
        missing, extra = len(wanted - stored), len(stored - wanted)
        return dg.AssetCheckResult(passed=bool(not missing and not extra), metadata={
            "documents": len(documents), "points": len(stored), "missing": missing,
            "extra": extra})

    return _check


def recall_queries(cache: EmbeddingCache) -> np.ndarray:
    """Real queries to measure approximate recall with: the authored legal questions."""
    return embed_with_cache(load_queryset("nyaya-statutes").queries["query"].tolist(), cache)


def faiss_asset(name: str) -> dg.AssetsDefinition:
    kinds = FAISS_KINDS[name]

    @dg.asset(name=f"{name}_faiss", group_name=GROUP, code_version=CODE_VERSION,
              deps=[f"{name}_vectors"],
              ins={"documents": dg.AssetIn(f"{name}_documents")})
    def _faiss(context: dg.AssetExecutionContext, settings: NyayaSettings,
               documents: pd.DataFrame) -> dg.MaterializeResult:
        """Persisted FAISS indexes (exact flat and approximate), each with its recall@10
        against flat on real queries."""
        resolved = settings.resolved()
        vectors, embedder = served_vectors(resolved, name, documents)
        queries = recall_queries(embedding_cache(resolved, name))
        metadata: dict = {"vectors": len(vectors), "queries_for_recall": len(queries)}
        for kind in kinds:
            result = build_faiss(kind, vectors, documents["doc_id"].tolist(),
                                 embedder.fingerprint, resolved.faiss_dir,
                                 f"{name}.{kind}", queries)
            context.log.info(f"{name}.{kind}: {'built' if result.rebuilt else 'unchanged'} "
                             f"in {result.seconds:.1f}s, recall@10 {result.recall_at_10}")
            metadata[f"{kind}_seconds"] = round(result.seconds, 2)
            metadata[f"{kind}_rebuilt"] = result.rebuilt
            if result.recall_at_10 is not None:
                metadata[f"{kind}_recall@10"] = round(result.recall_at_10, 4)
        return dg.MaterializeResult(metadata=metadata)

    return _faiss


def _each(factory: Callable) -> list:
    return [factory(definition) for definition in coll.COLLECTIONS]


vector_assets = _each(vectors_asset)
qdrant_assets = _each(qdrant_asset)
point_count_checks = _each(point_count_check)
faiss_assets = [faiss_asset(name) for name in FAISS_KINDS]
