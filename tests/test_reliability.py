"""Reliability: damaged files are detected and rebuilt (or refused with a clear error), and a
run killed mid-embedding or mid-index-write resumes on rerun without losing or duplicating
work. Two processes on one Edge shard: tests/test_store.py::
test_edge_single_owner_across_processes."""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
from pathlib import Path

import dagster as dg
import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from test_index_logic import DEMO, collection_documents, documents, unit_vectors

from nyaya.index import faiss_index
from nyaya.index.build import build_faiss, build_vectors, load_vectors, sync_collection
from nyaya.index.cache import CacheError, EmbeddingCache, embed_with_cache, text_hash
from nyaya.index.embedders import Embedder, load_embedder
from nyaya.index.store import EdgeStore
from nyaya.tables import CorruptTableError, checksum_path, read_table, write_table
from pipelines.freshness import (
    ToRun,
    content_version,
    keys_to_run,
    owe_downstream,
    owed_downstream,
)
from pipelines.resources import NyayaSettings, project_resources
from pipelines.stages import StagedRun

WORDS = ("court section act offence punishment appeal accused evidence witness property "
         "contract tenant landlord bail custody murder theft cheating forgery dowry cruelty "
         "divorce maintenance adoption arbitration company director tax customs election "
         "article right equality liberty speech land acquisition compensation").split()


@pytest.fixture(scope="module")
def embedder(models_dir: Path) -> Embedder:
    return load_embedder("minilm-static", models_dir)


def varied_texts(count: int, seed: int = 0) -> list[str]:
    """Distinct legal-sounding texts of 8-30 words."""
    rng = np.random.default_rng(seed)
    return [" ".join(rng.choice(WORDS, size=rng.integers(8, 30))) + f" {n}"
            for n in range(count)]


def flip_middle_byte(path: Path) -> None:
    data = bytearray(path.read_bytes())
    data[len(data) // 2] ^= 0xFF
    path.write_bytes(bytes(data))


def run_until(script: str, args: list[str], done_at: int) -> subprocess.Popen:
    """Run `script` in a child that prints `<label>: <verb> <done>/<total>` lines; SIGKILL it
    once `done` reaches `done_at`. Fails if the child finished (or died) before that, so
    the kill is never vacuous."""
    child = subprocess.Popen([sys.executable, "-c", script, *args], stdout=subprocess.PIPE,
                             text=True)
    assert child.stdout is not None
    try:
        for line in child.stdout:
            progress = re.match(r"\S+: \w+ (\d+)/(\d+)", line)
            if progress and int(progress[1]) >= done_at:
                assert int(progress[1]) < int(progress[2]), "too small a workload to stop"
                child.send_signal(signal.SIGKILL)
                break
    finally:
        child.wait(timeout=60)
    assert child.returncode == -signal.SIGKILL, f"child exited {child.returncode} unkilled"
    return child


# --- Parquet tables -----------------------------------------------------------------------

@pytest.mark.bad_input("Parquet tables", "table bytes differ from checksum")
def test_a_table_with_flipped_bytes_is_refused_by_name(tmp_path: Path) -> None:
    path = tmp_path / "warehouse" / "sections.parquet"
    frame = pd.DataFrame({"doc_id": [f"d{n}" for n in range(500)], "n": range(500)})
    write_table(frame, path)
    pd.testing.assert_frame_equal(read_table(path), frame)
    flip_middle_byte(path)
    with pytest.raises(CorruptTableError, match=r"sections\.parquet: sha256 .* does not match"
                                                r".*materialize sections again"):
        read_table(path)


@pytest.mark.bad_input("Parquet tables", "truncated table")
def test_a_truncated_table_is_refused_with_or_without_its_checksum(tmp_path: Path) -> None:
    path = tmp_path / "warehouse" / "runs" / "bm25.parquet"
    write_table(pd.DataFrame({"query": ["q1", "q2"], "rank": [1, 2]}), path)
    path.write_bytes(path.read_bytes()[:-40])
    with pytest.raises(CorruptTableError, match=r"bm25\.parquet: .*materialize runs again"):
        read_table(path)
    checksum_path(path).unlink()  # no sidecar: the damaged footer is still caught
    with pytest.raises(CorruptTableError, match="unreadable Parquet"):
        read_table(path)


def test_some_columns_are_read_as_written_and_a_missing_one_is_named(tmp_path: Path) -> None:
    path = tmp_path / "warehouse" / "judgments.parquet"
    frame = pd.DataFrame({"doc_id": ["a", "b"], "text": ["long", None], "year": [1990, 2001]})
    write_table(frame, path)
    pd.testing.assert_frame_equal(read_table(path, ["year", "doc_id"]), frame[["year", "doc_id"]])
    with pytest.raises(KeyError, match=r"judgments\.parquet has no column case_id, title"):
        read_table(path, ["doc_id", "title", "case_id"])
    flip_middle_byte(path)  # the checksum is verified however few columns are read
    with pytest.raises(CorruptTableError, match="does not match"):
        read_table(path, ["doc_id"])


@pytest.mark.parametrize("columns", [None, ["x"]])  # the whole table, or some columns
def test_page_checksums_catch_damage_without_the_sidecar(tmp_path: Path, columns) -> None:
    path = tmp_path / "t.parquet"
    write_table(pd.DataFrame({"x": np.arange(20_000)}), path)
    checksum_path(path).unlink()
    flip_middle_byte(path)
    with pytest.raises(CorruptTableError, match="unreadable Parquet"):
        read_table(path, columns)


def test_a_table_written_before_checksums_still_reads(tmp_path: Path) -> None:
    path = tmp_path / "legacy.parquet"
    frame = pd.DataFrame({"doc_id": ["a", "b"], "text": ["theft", None]})
    pq.write_table(pa.Table.from_pandas(frame, preserve_index=False), path)
    pd.testing.assert_frame_equal(read_table(path), frame)


def test_checksummed_tables_stay_byte_identical(tmp_path: Path) -> None:
    frame = pd.DataFrame({"doc_id": ["a", "b", "c"], "score": [0.5, 0.25, 0.125]})
    write_table(frame, tmp_path / "one.parquet")
    write_table(frame, tmp_path / "two.parquet")
    assert (tmp_path / "one.parquet").read_bytes() == (tmp_path / "two.parquet").read_bytes()
    assert checksum_path(tmp_path / "one.parquet").read_text() == \
        checksum_path(tmp_path / "two.parquet").read_text()


# code versions, as every asset of the project has: a rebuild from the same code and inputs
# then gets the same data version
@dg.asset(code_version="1")
def upstream_table() -> pd.DataFrame:
    return pd.DataFrame({"doc_id": [f"d{n}" for n in range(300)], "n": range(300)})


@dg.asset(code_version="1")
def downstream_table(upstream_table: pd.DataFrame) -> pd.DataFrame:
    return upstream_table.assign(double=upstream_table["n"] * 2)


def two_tables(tmp_path: Path) -> tuple[dg.Definitions, dg.DagsterInstance]:
    resources = project_resources(NyayaSettings(data_dir=str(tmp_path)))
    defs = dg.Definitions(assets=[upstream_table, downstream_table], resources=resources,
                          jobs=[dg.define_asset_job("job", selection=dg.AssetSelection.all())])
    instance = dg.DagsterInstance.ephemeral()
    assert defs.resolve_job_def("job").execute_in_process(instance=instance).success
    return defs, instance


def staged_run(defs: dg.Definitions, instance: dg.DagsterInstance) -> list[str]:
    """`nyaya run`'s stages over the job, fresh ones left out; the lines it said."""
    said: list[str] = []
    runner = StagedRun(defs, instance, echo=said.append)
    assert runner.run("job", select=lambda: keys_to_run(defs, "job", instance)) == 0
    return said


def materializations(instance: dg.DagsterInstance, name: str) -> int:
    return len(instance.fetch_materializations(dg.AssetKey(name), limit=100).records)


def fresh(defs: dg.Definitions, instance: dg.DagsterInstance) -> bool:
    return keys_to_run(defs, "job", instance) == ToRun([], {"fresh": 2}, {})


def test_a_run_rebuilds_a_corrupted_table_alone_when_its_content_comes_back_the_same(
        tmp_path: Path) -> None:
    defs, instance = two_tables(tmp_path)
    assert fresh(defs, instance)
    table = tmp_path / "warehouse" / "upstream_table.parquet"
    flip_middle_byte(table)
    loaded = defs.resolve_job_def("job").execute_in_process(
        instance=instance, raise_on_error=False,
        asset_selection=[dg.AssetKey("downstream_table")])
    assert not loaded.success
    error = loaded.get_step_failure_events()[0].event_specific_data.error
    assert "CorruptTableError" in error.cause.cls_name
    assert "upstream_table.parquet: sha256" in error.cause.message
    chosen = keys_to_run(defs, "job", instance)
    assert chosen.keys == [dg.AssetKey("upstream_table")]
    assert chosen.reasons == {"output corrupted": 1, "fresh": 1}
    assert chosen.repairs == {dg.AssetKey("upstream_table"): content_version(
        defs.resources["settings"].resolved(), dg.AssetKey("upstream_table"))}
    said = staged_run(defs, instance)
    assert any("upstream_table: rebuilt with the same content; the 1 assets of the job that "
               "read it are not rebuilt" in line for line in said)
    assert (materializations(instance, "upstream_table"),
            materializations(instance, "downstream_table")) == (2, 1)
    assert len(read_table(table)) == 300
    assert fresh(defs, instance)
    assert owed_downstream(tmp_path) == set()


def test_a_repair_that_changes_the_content_rebuilds_what_reads_it(tmp_path: Path) -> None:
    defs, instance = two_tables(tmp_path)
    table = tmp_path / "warehouse" / "upstream_table.parquet"
    table.unlink()
    checksum_path(table).write_text("0" * 64 + "\n")  # the content it held was another
    said = staged_run(defs, instance)
    assert not any("same content" in line for line in said)
    assert (materializations(instance, "upstream_table"),
            materializations(instance, "downstream_table")) == (2, 2)
    assert fresh(defs, instance)
    assert owed_downstream(tmp_path) == set()


@pytest.mark.bad_input("data folder", "unreadable record of owed rebuilds")
@pytest.mark.parametrize("written", ["{not json", '{"a": 1}', "[1, 2]"])
def test_an_unreadable_record_of_owed_rebuilds_is_named(tmp_path: Path, written: str) -> None:
    defs, instance = two_tables(tmp_path)
    (tmp_path / ".downstream-owed.json").write_text(written)
    with pytest.raises(ValueError, match=r"\.downstream-owed\.json: not a JSON list of asset "
                                         r"names .* run `nyaya run --all`"):
        keys_to_run(defs, "job", instance)


def test_readers_owed_by_an_interrupted_run_are_rebuilt_by_the_next(tmp_path: Path) -> None:
    defs, instance = two_tables(tmp_path)
    owe_downstream(tmp_path, [dg.AssetKey("downstream_table")])  # a run killed before it
    chosen = keys_to_run(defs, "job", instance)
    assert chosen.keys == [dg.AssetKey("downstream_table")]
    assert chosen.reasons == {"input changed, not rebuilt yet": 1, "fresh": 1}
    staged_run(defs, instance)
    assert materializations(instance, "downstream_table") == 2
    assert owed_downstream(tmp_path) == set()
    assert fresh(defs, instance)


# --- vectors, cache parts, FAISS ----------------------------------------------------------

@pytest.mark.bad_input("indexes", "corrupted vectors file")
def test_a_corrupted_vectors_file_is_recreated_from_the_cache(
        tmp_path: Path, embedder: Embedder) -> None:
    cache = EmbeddingCache(tmp_path / "cache", embedder)
    docs = documents({"a": "theft", "b": "murder", "c": "cheating"})
    folder = tmp_path / "vectors"
    build_vectors(docs, cache, folder, "demo")
    original = load_vectors(folder, "demo", docs)
    matrix = folder / "demo" / "all.npy"
    flip_middle_byte(matrix)
    with pytest.raises(ValueError, match=r"demo/all\.npy: .*corrupted"):
        load_vectors(folder, "demo", docs)
    messages: list[str] = []
    rebuilt = build_vectors(docs, cache, folder, "demo", log=messages.append)
    assert (rebuilt.rebuilt, rebuilt.embedded) == ({"all": "output corrupted"}, 0)
    assert any("all.npy" in m and "corrupted" in m for m in messages)
    assert np.array_equal(load_vectors(folder, "demo", docs), original)
    matrix.write_bytes(matrix.read_bytes()[:100])  # truncated: unreadable, same outcome
    assert build_vectors(docs, cache, folder, "demo").embedded == 0
    assert np.array_equal(load_vectors(folder, "demo", docs), original)


@pytest.mark.bad_input("indexes", "embedding cache part with altered vectors")
def test_a_cache_part_with_wrong_vectors_is_refused_by_name(
        tmp_path: Path, embedder: Embedder) -> None:
    """A part that still decodes but whose floats changed is caught by its checksum."""
    cache = EmbeddingCache(tmp_path, embedder)
    embed_with_cache(["theft", "murder"], cache)
    part = next(cache.folder.glob("part-*.parquet"))
    table = pq.read_table(part)
    changed = table.set_column(1, "vector", table.column("vector").take([1, 0]))
    pq.write_table(changed, part)  # same schema and checksum metadata, vectors swapped
    with pytest.raises(CacheError, match=rf"{part.name}: .*corrupted"):
        EmbeddingCache(tmp_path, embedder)


def test_an_interrupted_compaction_loses_nothing(tmp_path: Path, embedder: Embedder) -> None:
    """Compaction writes the merged part before removing the old ones, so a kill in between
    leaves repeated hashes (same vectors), never missing ones."""
    cache = EmbeddingCache(tmp_path, embedder)
    texts = varied_texts(6)
    vectors = embed_with_cache(texts, cache, batch_size=2)
    old_parts = {part.name: part.read_bytes() for part in cache.folder.glob("part-*.parquet")}
    cache.compact()
    assert len(list(cache.folder.glob("part-*.parquet"))) == 1
    for name, data in old_parts.items():  # the state a kill before the removals leaves
        (cache.folder / name).write_bytes(data)
    reopened = EmbeddingCache(tmp_path, embedder)
    assert len(reopened) == 6
    assert np.array_equal(reopened.vectors([text_hash(t) for t in texts]), vectors)


def test_two_writers_compacting_one_cache_keep_each_others_vectors(
        tmp_path: Path, embedder: Embedder) -> None:
    """Two runs share a cache folder (the multiprocess executor runs steps side by side):
    each one's compaction must leave the other's new part, and their merged parts must not
    overwrite each other (both start from the same first part)."""
    embed_with_cache(["theft"], EmbeddingCache(tmp_path, embedder))
    one, two = EmbeddingCache(tmp_path, embedder), EmbeddingCache(tmp_path, embedder)
    embed_with_cache(["murder"], one)
    embed_with_cache(["dacoity"], two)
    one.compact()
    two.compact()
    reopened = EmbeddingCache(tmp_path, embedder)
    assert all(text_hash(t) in reopened for t in ("theft", "murder", "dacoity"))


@pytest.mark.bad_input("indexes", "corrupted FAISS index file")
def test_a_corrupted_faiss_index_is_refused_on_load_and_rebuilt_by_the_build(
        tmp_path: Path) -> None:
    vectors, ids = unit_vectors(300), [f"d{n}" for n in range(300)]
    first = build_faiss("hnsw", vectors, ids, "e", tmp_path, "demo.hnsw")
    assert first.rebuilt
    flip_middle_byte(tmp_path / "demo.hnsw.faiss")
    with pytest.raises(faiss_index.FaissIndexError, match=r"demo\.hnsw\.faiss: sha256 .*"
                                                          r"corrupted"):
        faiss_index.load(tmp_path, "demo.hnsw")
    again = build_faiss("hnsw", vectors, ids, "e", tmp_path, "demo.hnsw")
    assert again.rebuilt
    assert again.meta.file_sha256 == first.meta.file_sha256  # the same deterministic index
    index, _ = faiss_index.load(tmp_path, "demo.hnsw")
    _, rows = faiss_index.search(index, vectors[7:8], 1)
    assert rows[0, 0] == 7
    assert not build_faiss("hnsw", vectors, ids, "e", tmp_path, "demo.hnsw").rebuilt


# --- killed runs --------------------------------------------------------------------------

EMBED_CHILD = """
import json, sys
from pathlib import Path
from nyaya.index.cache import EmbeddingCache, embed_with_cache
from nyaya.index.embedders import load_embedder
texts = json.loads(Path(sys.argv[1]).read_text())
cache = EmbeddingCache(Path(sys.argv[2]), load_embedder("minilm-static", Path(sys.argv[3])))
embed_with_cache(texts, cache, batch_size=20, log=lambda line: print(line, flush=True))
"""


def test_a_run_killed_mid_embedding_resumes_from_its_finished_batches(
        tmp_path: Path, embedder: Embedder, models_dir: Path) -> None:
    texts = varied_texts(6000)
    source = tmp_path / "texts.json"
    source.write_text(json.dumps(texts))
    root = tmp_path / "cache"
    run_until(EMBED_CHILD, [str(source), str(root), str(models_dir)], done_at=1000)
    cache = EmbeddingCache(root, embedder)
    kept = len(cache)
    assert 1000 <= kept < len(texts)
    messages: list[str] = []
    resumed = embed_with_cache(texts, cache, batch_size=500, log=messages.append)
    assert f"{kept} found in the" in messages[0]
    assert f"{len(texts) - kept} distinct new texts to embed" in messages[0]
    clean = embed_with_cache(texts, EmbeddingCache(tmp_path / "clean", embedder),
                             batch_size=2048)
    assert np.allclose(resumed, clean, atol=1e-6)
    rows: dict[str, list[np.ndarray]] = {}
    for part in sorted(cache.folder.glob("part-*.parquet")):
        table = pq.read_table(part)
        flat = table.column("vector").combine_chunks().flatten().to_numpy()
        for key, vector in zip(table.column("text_hash").to_pylist(),
                               flat.reshape(-1, embedder.dim), strict=True):
            rows.setdefault(key, []).append(vector)
    assert set(rows) == {text_hash(t) for t in texts}
    # a hash is on disk twice only if the kill fell inside a compaction, with equal vectors
    assert all(np.array_equal(v, copies[0]) for copies in rows.values() for v in copies)


SYNC_CHILD = """
import sys
from pathlib import Path
import numpy as np
import nyaya.index.build as build
from nyaya.index.collections import CollectionDef
from nyaya.index.store import EdgeStore
from nyaya.tables import read_table
build.SYNC_BATCH = 100
store = EdgeStore(Path(sys.argv[3]))
build.sync_collection(store, CollectionDef("demo", ("doc_id",)), read_table(Path(sys.argv[1])),
                      np.load(sys.argv[2]), "e", log=lambda line: print(line, flush=True))
store.close()
"""


def test_a_sync_killed_mid_write_resumes_to_exactly_the_documents(tmp_path: Path) -> None:
    docs = collection_documents({f"d{n:05d}": text for n, text in
                                 enumerate(varied_texts(4000, seed=1))})
    vectors = unit_vectors(len(docs), dim=16)
    write_table(docs, tmp_path / "docs.parquet")
    np.save(tmp_path / "vectors.npy", vectors)
    root = tmp_path / "qdrant"
    run_until(SYNC_CHILD, [str(tmp_path / "docs.parquet"), str(tmp_path / "vectors.npy"),
                           str(root)], done_at=1000)
    store = EdgeStore(root)  # the dead child's lock is gone with it
    try:
        resumed = sync_collection(store, DEMO, docs, vectors, "e")
        assert resumed.upserted <= len(docs) - 1000  # what the child wrote was kept
        assert store.ids("demo") == set(docs["point_id"].astype("int64"))
        assert resumed.count == len(docs)
        hits = store.search_dense("demo", vectors[1234], 1)
        assert hits[0].payload["doc_id"] == docs["doc_id"][1234]
        assert sync_collection(store, DEMO, docs, vectors, "e").upserted == 0
    finally:
        store.close()
