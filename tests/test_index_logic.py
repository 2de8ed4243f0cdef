"""Index building blocks: sparse vectors, embedders, the embedding cache, FAISS, pooling."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from nyaya.index import embedders, faiss_index
from nyaya.index.build import (
    build_faiss,
    build_vectors,
    documents_digest,
    load_vectors,
    sync_collection,
)
from nyaya.index.cache import CacheError, EmbeddingCache, embed_with_cache, text_hash
from nyaya.index.collections import CollectionDef, finish
from nyaya.index.embedders import (
    EmbedderError,
    FlagEmbedder,
    check_bge_m3,
    embedder_fingerprint,
    load_embedder,
    packaged_minilm_path,
)
from nyaya.index.sparse import TermCounts, query_vector, term_id
from nyaya.index.store import EdgeStore
from nyaya.retrieval.dense import ExactDenseRetriever, pool_by_document
from nyaya.retrieval.tokenize import tokenize

DEMO = CollectionDef("demo", ("doc_id",))


def collection_documents(texts: dict[str, str]) -> pd.DataFrame:
    return finish(pd.DataFrame({"doc_id": list(texts), "text": list(texts.values())}))


@pytest.fixture(scope="session")
def static_embedder(models_dir):
    return load_embedder("minilm-static", models_dir)


# --- sparse -----------------------------------------------------------------------------

@pytest.mark.parametrize("text, token", [
    ("section 498A of the IPC", "498a"),
    ("u/s 304A", "304a"),
    ("Section 13(1)(ia) of the Hindu Marriage Act", "13(1)(ia)"),
    ("Section 13(1)(ia) of the Hindu Marriage Act", "13"),
])
def test_query_vectors_keep_legal_identifiers_whole(text, token):
    ids, weights = query_vector(text)
    assert term_id(token) in ids
    assert weights == [1.0] * len(ids)
    assert ids == sorted(ids)


@pytest.mark.parametrize("text, tokens", [
    ("The accused persons were punished u/s 304A", ["accus", "person", "punish", "u", "304a"]),
    ("Section 13(1)(ia) of the Act", ["section", "13(1)(ia)", "13", "act"]),
    ("glass classes passes", ["glass", "class", "pass"]),
    ("parties duties", ["party", "duty"]),
    ("", []),
])
def test_tokens_and_their_count_agree(text, tokens):
    """The length that the BM25 average length reads is the tokenizer's, and the counts
    add up to it."""
    assert tokenize(text) == tokens
    terms = TermCounts.of(text)
    assert terms.length == len(tokens) == int(terms.counts.sum())
    assert list(terms.ids) == sorted({term_id(token) for token in tokens})


def test_bm25_document_weights_follow_the_formula():
    # "murder murder punish": tf(murder)=2, length 3; avg length 3 -> norm = k1 = 1.2
    ids, weights = TermCounts.of("murder murder punish").vector(avg_len=3.0, k1=1.2, b=0.75)
    by_id = dict(zip(ids, weights, strict=True))
    assert by_id[term_id("murder")] == pytest.approx(2 * 2.2 / (2 + 1.2), abs=1e-6)
    assert by_id[term_id("punish")] == pytest.approx(1 * 2.2 / (1 + 1.2), abs=1e-6)
    # a longer document than average gets lower term weights
    _, long_weights = TermCounts.of("murder murder punish").vector(avg_len=1.5)
    assert max(long_weights) < max(weights)


# --- embedders ----------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["minilm-static", "minilm-int8", "minilm"])
def test_the_fingerprint_known_without_loading_is_the_loaded_embedders(name, models_dir):
    """What the vectors' freshness check compares, without the seconds a model load takes
    (loaded first: on a fresh clone the static model is distilled by that load)."""
    loaded = load_embedder(name, models_dir).fingerprint
    assert embedder_fingerprint(name, models_dir) == loaded


def test_a_static_model_not_distilled_yet_has_no_fingerprint(tmp_path, models_dir):
    assert embedder_fingerprint("minilm-static", tmp_path) is None
    assert embedder_fingerprint("minilm-static", models_dir).startswith("minilm-static-256-")


@pytest.mark.bad_input("settings/env", "bge-m3 folder without lexical head")
@pytest.mark.bad_input("settings/env", "bge-m3 path not a folder")
@pytest.mark.bad_input("settings/env", "bge-m3 weights not configured")
def test_bge_m3_without_its_lexical_head_is_refused(tmp_path):
    with pytest.raises(EmbedderError, match=r"sparse_linear\.pt"):
        check_bge_m3(tmp_path)
    with pytest.raises(EmbedderError, match="not a folder"):
        check_bge_m3(tmp_path / "absent")
    with pytest.raises(EmbedderError, match="NYAYA_BGE_M3_PATH"):
        load_embedder("bge-m3", tmp_path)


@pytest.mark.bad_input("settings/env", "unknown embedder name")
def test_unknown_embedder_names_the_choices(tmp_path):
    with pytest.raises(EmbedderError, match="minilm-static"):
        load_embedder("minilm-large", tmp_path)


def test_minilm_uses_mean_pooling_not_cls():
    """FlagEmbedding's default CLS pooling is wrong for this model: compare with a manual
    mean over the token states."""
    import torch
    from transformers import AutoModel, AutoTokenizer

    path = packaged_minilm_path()
    texts = ["Punishment for murder.", "Whoever commits theft shall be punished."]
    ours = FlagEmbedder(path).encode(texts)
    tokenizer, model = AutoTokenizer.from_pretrained(path), AutoModel.from_pretrained(path)
    batch = tokenizer(texts, padding=True, return_tensors="pt")
    with torch.no_grad():
        states = model(**batch).last_hidden_state
    mask = batch["attention_mask"].unsqueeze(-1).float()
    mean = torch.nn.functional.normalize((states * mask).sum(1) / mask.sum(1), dim=-1).numpy()
    cls = torch.nn.functional.normalize(states[:, 0], dim=-1).numpy()
    assert np.allclose(ours, mean, atol=1e-5)
    assert not np.allclose(ours, cls, atol=1e-2)


def test_static_embedder_gives_unit_vectors_and_similar_texts_are_closer(static_embedder):
    vectors = static_embedder.encode(["punishment for murder", "murder punishment",
                                      "registration of antiquities"])
    assert vectors.shape == (3, static_embedder.dim)
    assert np.allclose(np.linalg.norm(vectors, axis=1), 1.0, atol=1e-5)
    assert vectors[0] @ vectors[1] > vectors[0] @ vectors[2]


# --- cache --------------------------------------------------------------------------------

def test_cache_embeds_each_distinct_text_once_and_persists(tmp_path, static_embedder):
    texts = ["theft", "murder", "theft", "cheating"]
    cache = EmbeddingCache(tmp_path, static_embedder)
    first = embed_with_cache(texts, cache, batch_size=2)
    assert len(cache) == 3
    assert np.array_equal(first[0], first[2])
    parts = sorted(cache.folder.glob("part-*.parquet"))
    assert len(parts) == 2  # two batches of new texts, each its own part
    reopened = EmbeddingCache(tmp_path, static_embedder)
    messages: list[str] = []
    again = embed_with_cache([*texts, "dacoity"], reopened, log=messages.append)
    assert np.array_equal(again[:4], first)
    assert len(reopened) == 4
    assert "1 distinct new texts to embed" in messages[0]
    assert np.allclose(again, static_embedder.encode([*texts, "dacoity"]), atol=1e-6)


def test_cache_compaction_keeps_every_vector(tmp_path, static_embedder, monkeypatch):
    monkeypatch.setattr("nyaya.index.cache.COMPACT_AFTER_PARTS", 3)
    cache = EmbeddingCache(tmp_path, static_embedder)
    texts = [f"section {n} of the act" for n in range(7)]
    vectors = embed_with_cache(texts, cache, batch_size=2)
    assert len(list(cache.folder.glob("part-*.parquet"))) <= 2
    reopened = EmbeddingCache(tmp_path, static_embedder)
    assert np.array_equal(reopened.vectors([text_hash(t) for t in texts]), vectors)


@pytest.mark.bad_input("indexes", "damaged embedding cache part")
def test_a_damaged_cache_part_is_named(tmp_path, static_embedder):
    cache = EmbeddingCache(tmp_path, static_embedder)
    embed_with_cache(["theft"], cache)
    part = next(cache.folder.glob("part-*.parquet"))
    part.write_bytes(b"not parquet")
    with pytest.raises(CacheError, match=part.name):
        EmbeddingCache(tmp_path, static_embedder)


# --- vectors manifest ----------------------------------------------------------------------

def documents(texts: dict[str, str]) -> pd.DataFrame:
    return pd.DataFrame({"doc_id": list(texts), "text": list(texts.values()),
                         "content_hash": [text_hash(t)[:16] for t in texts.values()]})


def test_vectors_are_reused_when_nothing_changed_and_only_new_texts_embedded(
        tmp_path, static_embedder):
    cache = EmbeddingCache(tmp_path / "cache", static_embedder)
    docs = documents({"a": "theft", "b": "murder", "c": "cheating"})
    first = build_vectors(docs, cache, tmp_path / "vectors", "demo")
    assert (first.rebuilt, first.kept, first.embedded) == ({"all": "missing"}, 0, 3)
    second = build_vectors(docs, cache, tmp_path / "vectors", "demo")
    assert (second.rebuilt, second.kept, second.embedded) == ({}, 1, 0)
    changed = documents({"a": "theft", "b": "culpable homicide", "c": "cheating"})
    third = build_vectors(changed, cache, tmp_path / "vectors", "demo")
    assert (third.rebuilt, third.embedded) == ({"all": "documents changed"}, 1)
    assert load_vectors(tmp_path / "vectors", "demo", changed).shape == (3, static_embedder.dim)
    with pytest.raises(ValueError, match="other documents"):
        load_vectors(tmp_path / "vectors", "demo", docs)
    with pytest.raises(ValueError, match="queries would be embedded by minilm-int8"):
        load_vectors(tmp_path / "vectors", "demo", changed, "minilm-int8")
    assert documents_digest(docs) != documents_digest(changed)


def partitioned(texts: dict[str, str], partitions: dict[str, str]) -> pd.DataFrame:
    frame = documents(texts)
    frame["partition"] = [partitions[doc] for doc in frame["doc_id"]]
    return frame


def test_a_changed_partition_is_the_only_part_built_again_and_parts_load_in_table_order(
        tmp_path, static_embedder):
    """Documents interleaved across partitions: each part holds its own rows, and the loaded
    matrix is in table order, row for row what embedding the table whole gives."""
    cache = EmbeddingCache(tmp_path / "cache", static_embedder)
    folder = tmp_path / "vectors"
    where = {"a": "IPC", "b": "CrPC", "c": "IPC", "d": "CrPC", "e": "BNS"}
    docs = partitioned({"a": "theft", "b": "arrest", "c": "murder", "d": "bail", "e": "snatching"},
                       where)
    first = build_vectors(docs, cache, folder, "demo")
    assert first.rebuilt == {"BNS": "missing", "CrPC": "missing", "IPC": "missing"}
    assert np.array_equal(load_vectors(folder, "demo", docs), static_embedder.encode(
        docs["text"].tolist()))
    assert np.load(folder / "demo" / "CrPC.npy").shape == (2, static_embedder.dim)
    changed = partitioned({"a": "theft", "b": "arrest without warrant", "c": "murder",
                           "d": "bail", "e": "snatching"}, where)
    again = build_vectors(changed, cache, folder, "demo")
    assert (again.rebuilt, again.kept, again.vectors, again.embedded) == (
        {"CrPC": "documents changed"}, 2, 2, 1)
    assert np.array_equal(load_vectors(folder, "demo", changed), static_embedder.encode(
        changed["text"].tolist()))
    only = build_vectors(docs, cache, folder, "demo", partitions=["IPC"])
    assert (only.rebuilt, only.kept) == ({}, 1)  # IPC is intact; CrPC is left as it is
    with pytest.raises(ValueError, match=r"CrPC\.npy: built from other documents"):
        load_vectors(folder, "demo", docs)
    (folder / "demo" / "BNS.json").unlink()
    with pytest.raises(ValueError, match=r"BNS\.npy: no vectors.*materialize demo_vectors"):
        load_vectors(folder, "demo", changed)
    assert build_vectors(changed, cache, folder, "demo").rebuilt == {"BNS": "missing"}


def test_collection_sync_rewrites_vectors_of_another_embedder_and_recreates_on_new_size(
        tmp_path):
    """Same documents, other embedder: every point is rewritten, never kept stale."""
    docs = collection_documents({"a": "theft", "b": "murder"})
    store = EdgeStore(tmp_path / "qdrant")
    try:
        first = sync_collection(store, DEMO, docs, unit_vectors(2, 8), "embedder-one")
        again = sync_collection(store, DEMO, docs, unit_vectors(2, 8), "embedder-one")
        other = sync_collection(store, DEMO, docs, unit_vectors(2, 8, seed=4), "embedder-two")
        resized = sync_collection(store, DEMO, docs, unit_vectors(2, 12), "embedder-three")
    finally:
        store.close()
    assert [(r.upserted, r.unchanged) for r in (first, again, other, resized)] == [
        (2, 0), (0, 2), (2, 0), (2, 0)]
    assert resized.count == 2


# --- FAISS --------------------------------------------------------------------------------

def unit_vectors(count: int, dim: int = 16, seed: int = 3) -> np.ndarray:
    matrix = np.random.default_rng(seed).normal(size=(count, dim)).astype(np.float32)
    return matrix / np.linalg.norm(matrix, axis=1, keepdims=True)


@pytest.mark.parametrize("kind, floor", [("flat", 1.0), ("hnsw", 0.95), ("ivf", 0.5)])
def test_faiss_indexes_persist_with_metadata_and_recall_is_measured(tmp_path, kind, floor):
    vectors, queries = unit_vectors(2000), unit_vectors(50, seed=4)
    ids = [f"d{n}" for n in range(2000)]
    result = build_faiss(kind, vectors, ids, "test-embedder", tmp_path, f"demo.{kind}", queries)
    assert result.rebuilt and result.meta.count == 2000
    assert (result.recall_at_10 or 1.0) >= floor
    again = build_faiss(kind, vectors, ids, "test-embedder", tmp_path, f"demo.{kind}", queries)
    assert not again.rebuilt
    index, meta = faiss_index.load(tmp_path, f"demo.{kind}")
    assert index.ntotal == 2000 and meta.kind == kind
    if kind == "flat":
        _, rows = faiss_index.search(index, queries[:1], 1)
        assert rows[0, 0] == int(np.argmax(vectors @ queries[0]))


@pytest.mark.bad_input("indexes", "stale FAISS index")
@pytest.mark.bad_input("indexes", "corrupted FAISS index file")
def test_a_corrupted_or_stale_faiss_index_is_refused(tmp_path):
    vectors = unit_vectors(100)
    ids = [f"d{n}" for n in range(100)]
    result = build_faiss("flat", vectors, ids, "e", tmp_path, "demo.flat")
    with pytest.raises(faiss_index.FaissIndexError, match="stale"):
        faiss_index.load(tmp_path, "demo.flat",
                         faiss_index.IndexMeta(**{**result.meta.__dict__, "count": 99}))
    path = tmp_path / "demo.flat.faiss"
    data = bytearray(path.read_bytes())
    data[-5] ^= 0xFF
    path.write_bytes(bytes(data))
    with pytest.raises(faiss_index.FaissIndexError, match="corrupted"):
        faiss_index.load(tmp_path, "demo.flat")
    with pytest.raises(ValueError, match="unknown FAISS index kind"):
        faiss_index.build("lsh", vectors)


# --- dense search and pooling -------------------------------------------------------------

def test_exact_dense_search_breaks_ties_by_doc_id():
    vectors = np.array([[1, 0], [1, 0], [0, 1]], dtype=np.float32)
    hits = ExactDenseRetriever(["b", "a", "c"], vectors).search_vector(np.array([1, 0]), k=2)
    assert [h.doc_id for h in hits] == ["a", "b"]


@pytest.mark.parametrize("pooling, expected", [
    ("max", [0.9, 0.5]), ("mean", [0.6, 0.4]), ("first", [0.3, 0.5]),
])
def test_chunk_scores_pool_into_document_scores(pooling, expected):
    names, scores = pool_by_document(np.array([0.3, 0.9, 0.5, 0.3]), ["x", "x", "y", "y"],
                                     pooling)
    assert names == ["x", "y"]
    assert np.allclose(scores, expected)


def test_pooling_refuses_interleaved_chunks():
    with pytest.raises(ValueError, match="contiguous"):
        pool_by_document(np.array([1.0, 2.0, 3.0]), ["x", "y", "x"])


@pytest.mark.parametrize("int8", [False, True])
def test_a_texts_vector_does_not_depend_on_the_texts_beside_it(int8):
    """A section's vector is the same whichever sections share its call (a cold build, an
    incremental one and another machine's batches) and the same as that text as a query.
    Batched int8 failed this: dynamic quantization scales a whole padded batch at once."""
    embedder = FlagEmbedder(packaged_minilm_path(), int8=int8)
    text = "Whoever commits murder shall be punished with death or imprisonment for life."
    neighbours = (["IPC 302"],
                  ["Every person arrested shall be produced before the nearest Magistrate "
                   "within twenty-four hours of such arrest, excluding the time necessary for "
                   "the journey from the place of arrest to the Court of the Magistrate. " * 3],
                  ["A cheque returned unpaid.", "Temporary injunction.", "Caveat."])
    alone = embedder.encode([text])[0]
    for others in neighbours:
        for batch in ([text, *others], [*others, text]):
            vector = embedder.encode(batch)[batch.index(text)]
            assert np.allclose(vector, alone, atol=1e-6), (int8, others[0][:20])


def test_int8_texts_encoded_side_by_side_are_those_encoded_one_by_one(monkeypatch):
    """int8 encodes several texts at once, one per core on one thread each: the vectors are
    those of one text at a time on the process's threads (to the last bit on this project's
    machine), and the process gets its thread count back."""
    import torch

    embedder = FlagEmbedder(packaged_minilm_path(), int8=True)
    texts = ["IPC 302", "Temporary injunction.", "Every person arrested shall be produced "
             "before the nearest Magistrate within twenty-four hours of such arrest. " * 6,
             "A cheque returned unpaid for insufficiency of funds.", "Caveat."]
    one_by_one = np.vstack([embedder.encode([text]) for text in texts])
    threads = torch.get_num_threads()
    monkeypatch.setattr(embedders, "available_cores", lambda: 2)
    assert np.allclose(embedder.encode(texts), one_by_one, atol=1e-6, rtol=0)
    assert torch.get_num_threads() == threads


@pytest.mark.parametrize("int8", [False, True])
def test_one_query_is_embedded_as_a_batch_would_embed_it(int8):
    """The single-text fast path (queries) gives FlagEmbedding's vector for that text."""
    embedder = FlagEmbedder(packaged_minilm_path(), int8=int8)
    for text in ("IPC 302", "What is the punishment for cheating under the Bharatiya Nyaya "
                 "Sanhita when property is delivered?"):
        alone = embedder.encode([text])
        batched = embedder._model.encode([text], max_length=embedder.max_tokens)
        assert alone.shape == (1, embedder.dim)
        assert np.allclose(alone, np.atleast_2d(batched), atol=1e-6)
