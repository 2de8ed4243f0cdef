"""Bad input across the loaders and entry points: each case names the file or record and what
is wrong, or becomes a quarantined row with its reason; nothing is dropped silently.

Every case carries `bad_input(area, kind)` (counted in the terminal summary; the inventory:
`pytest --collect-only -q -m bad_input`). A new case whose error is not clear yet (a traceback, no
file named, input accepted silently) is marked `xfail(strict=True)` with the place the code
should change: it starts failing the day the code is fixed, and the mark comes off then.
"""

from __future__ import annotations

import io
import json
import sys
import types
from pathlib import Path

import pandas as pd
import pytest
from test_verify_relevance import write_statute_tables

from evals.baseline import BaselineError, load_baseline
from evals.configs import load_config
from evals.corpus_sets import (
    aila_queries,
    aila_statute_documents,
    load_corpus_set,
    read_qrels,
)
from evals.querysets import QuerySetError, load_queryset
from evals.runs import TrecRunError, read_trec
from nyaya import cli
from nyaya.index.embedders import EMBEDDERS, EmbedderError, load_embedder
from nyaya.judgments.sources import read_judgment_dataset, read_sc_metadata
from nyaya.settings import Settings, SettingsError
from nyaya.statutes.chapters import read_chapters
from nyaya.statutes.indiacode import read_act
from nyaya.statutes.model import CorpusFormatError
from nyaya.statutes.structured import read_code_json, read_constitution, read_ipc
from nyaya.statutes.transitions import read_mapping
from nyaya.tables import CorruptTableError, read_table, write_table
from pipelines.cli import main


def bad(area: str, kind: str, *values):
    """One table row: its values, marked with its bad-input kind."""
    return pytest.param(*values, marks=pytest.mark.bad_input(area, kind),
                        id=kind.replace(" ", "-"))


def write(path: Path, content: str | bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(content, bytes):
        path.write_bytes(content)
    else:
        path.write_text(content, encoding="utf-8")
    return path


# --- statute corpus: JSON sources, Act folders ----------------------------------------------

COI = "statutes/constitution/indian_constitution.json"
IPC = "statutes/repealed/ipc-1860/ipc_sections.jsonl"
CRPC = "statutes/repealed/crpc-1973/crpc.json"


@pytest.mark.parametrize(("rel", "content", "reader", "line", "message"), [
    bad("statute corpus", "constitution JSON not a list", COI, '{"article": 1}',
        read_constitution, 1, "expected a JSON list of articles"),
    bad("statute corpus", "repealed code JSON not a list", CRPC, '{"section": 1}',
        read_code_json, 1, "expected a JSON list of sections"),
    bad("statute corpus", "repealed code JSON source missing", CRPC, None, read_code_json,
        None, "file is missing"),
    bad("statute corpus", "blank JSON source file", COI, "  \n", read_constitution, None,
        "file is empty"),
    bad("statute corpus", "repealed JSONL not valid UTF-8", IPC,
        b'{"section_number": "1", "section_title": "Caf\xe9"}\n', read_ipc, 1,
        "not valid UTF-8"),
])
def test_unreadable_json_source_names_file_and_line(tmp_path, rel, content, reader, line,
                                                    message):
    if content is not None:
        write(tmp_path / rel, content)
    with pytest.raises(CorpusFormatError) as caught:
        reader(tmp_path, rel, "X_2000")
    assert (caught.value.path, caught.value.line) == (rel, line)
    assert message in caught.value.message and rel in str(caught.value)


@pytest.mark.parametrize(("rel", "records", "reader", "expected"), [
    bad("statute corpus", "constitution record without article", COI,
        [{"article": 1, "title": "Name", "description": "India"},
         {"title": "No number", "description": "x"}],
        read_constitution, [(2, "bad_record", "record 2: missing field(s): article")]),
    bad("statute corpus", "constitution record not an object", COI,
        [{"article": 1, "title": "Name", "description": "India"}, "Article 2"],
        read_constitution, [(2, "bad_record", "record 2: expected an object, got str")]),
    bad("statute corpus", "duplicate article number", COI,
        [{"article": 1, "title": "Name", "description": "India"},
         {"article": "1", "title": "Again", "description": "Bharat"}],
        read_constitution, [(2, "duplicate_section_number", "section 1 repeats record 1")]),
    bad("statute corpus", "repealed JSONL record without text", IPC,
        [{"section_number": "1", "section_title": "Title", "full_text": "1. Title.—x"},
         {"section_number": "2", "section_title": "Extent"}],
        read_ipc, [(2, "bad_record", "missing field(s): full_text")]),
    bad("statute corpus", "repealed JSONL record not an object", IPC,
        [{"section_number": "1", "section_title": "Title", "full_text": "1. Title.—x"}, [2]],
        read_ipc, [(2, "bad_record", "expected an object, got list")]),
])
def test_bad_json_records_are_quarantined_with_record_and_reason(tmp_path, rel, records, reader,
                                                                 expected):
    text = ("".join(json.dumps(r) + "\n" for r in records) if rel.endswith(".jsonl")
            else json.dumps(records))
    write(tmp_path / rel, text)
    out = reader(tmp_path, rel, "X_2000")
    assert len(out.sections) == 1  # the good record is kept
    assert [(q.source_line, q.reason) for q in out.quarantined] == [e[:2] for e in expected]
    for q, (_, _, detail) in zip(out.quarantined, expected, strict=True):
        assert q.source_file == rel and detail in q.detail


@pytest.mark.bad_input("statute corpus", "act folder without part files")
def test_act_folder_without_part_files_is_named(tmp_path):
    folder = tmp_path / "statutes" / "indiacode" / "the-empty-act-2001"
    write(folder / "notes.txt", "not a part file")
    with pytest.raises(CorpusFormatError, match=r"no part-NNN\.md files") as caught:
        read_act(folder, tmp_path)
    assert caught.value.path == "statutes/indiacode/the-empty-act-2001"


CHAPTERS = "chapter,chapter_title,first_section,last_section\n"


@pytest.mark.parametrize(("content", "line", "message"), [
    bad("statute corpus", "chapters CSV with wrong columns", "chapter,title,from,to\nI,A,1,2\n",
        1, "expected columns chapter,chapter_title,first_section,last_section"),
    bad("statute corpus", "chapters CSV non-numeric range", CHAPTERS + "I,Preliminary,one,3\n",
        2, "section range is not numeric"),
    bad("statute corpus", "chapters CSV row missing a column", CHAPTERS + "I,Preliminary,1\n",
        2, "section range is not numeric"),
    bad("statute corpus", "chapters CSV range reversed", CHAPTERS + "I,Preliminary,1,3\n"
        "II,Offences,9,4\n", 3, "first_section 9 > last_section 4"),
    bad("statute corpus", "empty chapters CSV", "", None, "file is empty"),
])
def test_bad_chapters_csv_names_file_and_line(tmp_path, content, line, message):
    rel = "statutes/chapters/bns.csv"
    path = write(tmp_path / rel, content)
    with pytest.raises(CorpusFormatError) as caught:
        read_chapters(path, rel)
    assert (caught.value.path, caught.value.line) == (rel, line)
    assert message in caught.value.message


# --- mappings -----------------------------------------------------------------------------

@pytest.mark.parametrize(("table", "rel", "content", "line", "message"), [
    bad("mappings", "mapping CSV with only comments", "ipc_bns_csv", "mappings/ipc_bns.csv",
        "# IPC to BNS\n", None, "no header row"),
    bad("mappings", "mapping CSV header lacks section columns", "iea_bsa_csv",
        "mappings/iea_bsa.csv", "# IEA to BSA\niea,bsa\n1,1\n", 2,
        "header lacks 'iea_section' and 'bsa_section'"),
    bad("mappings", "mapping table missing", "iea_bsa_csv", "mappings/iea_bsa.csv", None, None,
        "file is missing"),
    bad("mappings", "mapping JSONL record not literal", "ipc_bns_jsonl",
        "mappings/ipc_bns_with_text.jsonl", '{"response": "{\'IPC Section\': "}\n', 1,
        "unreadable mapping record"),
    bad("mappings", "mapping JSONL record without response", "ipc_bns_jsonl",
        "mappings/ipc_bns_with_text.jsonl", '{"prompt": "x"}\n', 1,
        "unreadable mapping record: 'response'"),
    bad("mappings", "mapping JSON truncated", "crpc_bnss_json", "mappings/crpc_bnss.json",
        '[{"crpc_section": "1",\n', 2, "invalid JSON"),
    bad("mappings", "mapping JSONL response not an object", "ipc_bns_jsonl",
        "mappings/ipc_bns_with_text.jsonl", '{"response": "[302, 103]"}\n', 1,
        "mapping record's response: expected an object, got list"),
    bad("mappings", "mapping JSON not a list", "crpc_bnss_json", "mappings/crpc_bnss.json",
        '{"crpc_section": "1", "bnss_section": "1"}', 1,
        "expected a JSON list of mapping records"),
    bad("mappings", "mapping JSON record not an object", "crpc_bnss_json",
        "mappings/crpc_bnss.json", '[{"crpc_section": "1", "bnss_section": "1"}, "2"]', 2,
        "record 2: expected an object, got str"),
])
def test_bad_mapping_table_names_file_and_line(tmp_path, table, rel, content, line, message):
    if content is not None:
        write(tmp_path / rel, content)
    with pytest.raises(CorpusFormatError) as caught:
        read_mapping(tmp_path, table)
    assert (caught.value.path, caught.value.line) == (rel, line)
    assert message in caught.value.message


@pytest.mark.bad_input("mappings", "old-side section not a number")
def test_mapping_row_without_a_section_number_is_quarantined(tmp_path):
    write(tmp_path / "mappings" / "ipc_bns.csv",
          "ipc_section,bns_section,relation\n302,103,same\nsee note,104,same\n")
    rows, quarantined = read_mapping(tmp_path, "ipc_bns_csv")
    assert [r["old_section"] for r in rows] == ["302"]
    assert [(q.source_file, q.source_line, q.reason) for q in quarantined] == [
        ("mappings/ipc_bns.csv", 3, "bad_mapping_row")]
    assert "'see note' is not a section number" in quarantined[0].detail


# --- judgment corpus: SC registry, datasets -------------------------------------------------

@pytest.mark.parametrize(("content", "reason", "line", "detail"), [
    bad("judgment corpus", "sc-metadata field before any record",
        "# SC 2000\n- **Date**: 2000-01-01\n", "orphan_field", 2,
        "sc_2000.md:2 has a field line before any '### ' record heading"),
    bad("judgment corpus", "sc-metadata stray line", "### A versus B\nstray words\n",
        "unreadable_line", 2, "sc_2000.md:2 is neither a record heading"),
    bad("judgment corpus", "sc-metadata record heading without title",
        "### \n- **Date**: 2000-01-02\n", "no_title", 1,
        "sc_2000.md:1 is a record heading without a title"),
    bad("judgment corpus", "sc-metadata file binary", b"\x00\x01\x02\x03" * 50,
        "binary_content", None, "sc_2000.md"),
])
def test_bad_sc_metadata_is_quarantined_with_file_and_line(tmp_path, content, reason, line,
                                                           detail):
    write(tmp_path / "judgments" / "sc-metadata" / "sc_2000.md", content)
    _, quarantined = read_sc_metadata(tmp_path)
    assert [(q.reason, q.source_line) for q in quarantined] == [(reason, line)]
    assert quarantined[0].source_file == "judgments/sc-metadata/sc_2000.md"
    assert detail in quarantined[0].detail


@pytest.fixture
def hf_cache(tmp_path, monkeypatch):
    datasets = pytest.importorskip("datasets")
    monkeypatch.setattr(datasets.config, "HF_DATASETS_CACHE", tmp_path / "hf-cache")
    return tmp_path


@pytest.mark.parametrize(("name", "content", "error", "message"), [
    bad("judgment corpus", "dataset file of unsupported type", "judgments.xml", "<j/>",
        ValueError, "judgments.xml: unsupported file type '.xml'"),
    bad("judgment corpus", "dataset file missing", "absent.jsonl", None, FileNotFoundError,
        "absent.jsonl"),
    bad("judgment corpus", "dataset JSONL malformed", "broken.jsonl",
        '{"doc_id": "a", "text": "x"\n', ValueError, "broken.jsonl: not readable as json: "
        "JSON parse error"),
])
def test_bad_judgment_dataset_names_the_file(hf_cache, name, content, error, message):
    path = hf_cache / name
    if content is not None:
        write(path, content)
    with pytest.raises(error) as caught:
        read_judgment_dataset(str(path))
    assert message in str(caught.value)


@pytest.mark.bad_input("judgment corpus", "dataset row without doc_id")
def test_dataset_row_without_id_is_quarantined(hf_cache):
    path = write(hf_cache / "judgments.jsonl", "".join(json.dumps(row) + "\n" for row in [
        {"doc_id": "a", "text": "Appeal allowed."}, {"doc_id": "", "text": "No id here."}]))
    records, quarantined = read_judgment_dataset(str(path))
    assert [r.doc_id for r in records] == ["DATASET:a"]
    assert [(q.reason, q.source_line) for q in quarantined] == [("missing_doc_id", 2)]
    assert f"{path} row 2 has no doc_id" in quarantined[0].detail


# --- query sets and qrels -------------------------------------------------------------------

QUERY = '{"qid": "Q1", "query": "x", "query_type": "t", "domain": "d"}\n'


@pytest.mark.parametrize(("queries", "qrels", "error", "message"), [
    bad("query sets", "duplicate query id", QUERY + QUERY.replace('"x"', '"y"'), "",
        QuerySetError, "queries.jsonl: duplicate qids ['Q1']"),
    bad("query sets", "queries file missing", None, "", FileNotFoundError, "queries.jsonl"),
    bad("qrels", "qrels file missing", QUERY, None, FileNotFoundError, "qrels.txt"),
    bad("qrels", "non-integer grade", QUERY, "Q1 0 BNS_2023:103 1.5\n", QuerySetError,
        "qrels.txt:1: expected 'qid 0 doc_id grade'"),
    bad("query sets", "empty queries file", "", "", QuerySetError,
        "queries.jsonl: no queries"),
    bad("query sets", "query line not an object", '["Q1", "x"]\n', "", QuerySetError,
        "queries.jsonl:1: expected a JSON object, got list"),
    bad("query sets", "queries file not UTF-8", QUERY.replace("x", "caf\xe9").encode("latin-1"),
        "", QuerySetError, "queries.jsonl:1: not valid UTF-8"),
    bad("qrels", "duplicate judgment line", QUERY, "Q1 0 A 1\nQ1 0 A 2\n", QuerySetError,
        "qrels.txt:2: qid Q1 judges A again (first on line 1)"),
])
def test_bad_queryset_names_file_and_problem(tmp_path, queries, qrels, error, message):
    folder = tmp_path / "bad"
    folder.mkdir()
    if queries is not None:
        write(folder / "queries.jsonl", queries)
    if qrels is not None:
        write(folder / "qrels.txt", qrels)
    with pytest.raises(error) as caught:
        load_queryset("bad", root=tmp_path)
    assert message in str(caught.value) and str(folder) in str(caught.value)


AILA = "judgments/aila2019"


def _aila_qrels(root: Path) -> dict[str, dict[str, int]]:
    return read_qrels(root / AILA / "qrels" / "statutes.train.txt", "AILA:")


@pytest.mark.parametrize(("rel", "content", "load", "error", "message"), [
    bad("query sets", "AILA query line without '||'", f"{AILA}/Query_doc.txt",
        "AILA_Q1 the facts of the case\n", aila_queries, QuerySetError,
        "Query_doc.txt:1: expected 'AILA_Q<n>||<text>'"),
    bad("query sets", "AILA statute without Title line", f"{AILA}/statutes/S1.txt",
        "Desc: a statute\n", aila_statute_documents, QuerySetError, "S1.txt: no 'Title:' line"),
    bad("query sets", "AILA queries file missing", None, None, aila_queries, FileNotFoundError,
        "Query_doc.txt"),
    bad("qrels", "corpus qrels line without grade", f"{AILA}/qrels/statutes.train.txt",
        "AILA_Q1 Q0 S1\n", _aila_qrels, QuerySetError,
        "statutes.train.txt:1: expected 'qid Q0 doc_id grade'"),
    bad("qrels", "corpus qrels judged twice", f"{AILA}/qrels/statutes.train.txt",
        "AILA_Q1 Q0 S1 1\nAILA_Q1 Q0 S1 0\n", _aila_qrels, QuerySetError,
        "statutes.train.txt:2: qid AILA_Q1 judges AILA:S1 again (first on line 1)"),
])
def test_bad_corpus_query_set_files_name_file_and_line(tmp_path, rel, content, load, error,
                                                       message):
    if rel is not None:
        write(tmp_path / rel, content)
    with pytest.raises(error) as caught:
        load(tmp_path)
    assert message in str(caught.value)


@pytest.mark.parametrize(("name", "judgments", "message"), [
    bad("query sets", "unknown corpus query set", "aila2020-statutes", None,
        "unknown corpus query set 'aila2020-statutes'; choose one of"),
    bad("query sets", "IRLeD set without judgments table", "irled2017-precedents", None,
        "irled2017-precedents needs the judgments table"),
    bad("query sets", "development set without the warehouse", "cited-precedents", None,
        "cited-precedents is built from the warehouse tables"),
])
def test_corpus_set_names_what_is_missing(tmp_path, name, judgments, message):
    with pytest.raises(ValueError, match=message):
        load_corpus_set(name, tmp_path, judgments)


# --- retrieval configs ----------------------------------------------------------------------

@pytest.mark.parametrize(("name", "content", "error", "message"), [
    bad("retrieval configs", "config name differs from file name", "rrf", "name: bm25\n",
        ValueError, "rrf.yaml: 'name' must be 'rrf'"),
    bad("retrieval configs", "config not a mapping", "rrf", "- dense\n- sparse\n", ValueError,
        "rrf.yaml: 'name' must be 'rrf'"),
    bad("retrieval configs", "empty config file", "rrf", "", ValueError, "rrf.yaml"),
    bad("retrieval configs", "config file missing", "rrf", None, FileNotFoundError, "rrf.yaml"),
    bad("retrieval configs", "config not valid YAML", "rrf", "name: rrf\nretrievers: [dense\n",
        ValueError, "rrf.yaml:3: not valid YAML: expected ',' or ']'"),
])
def test_bad_config_file_names_the_file(tmp_path, name, content, error, message):
    if content is not None:
        write(tmp_path / f"{name}.yaml", content)
    with pytest.raises(error) as caught:
        load_config(name, tmp_path)
    assert message in str(caught.value)


@pytest.mark.parametrize(("content", "message"), [
    bad("legal terms", "no concepts", "concepts: []\n",
        "terms.yaml: expected a non-empty list under 'concepts'"),
    bad("legal terms", "not a mapping", "- law: theft\n",
        "terms.yaml: expected a non-empty list under 'concepts'"),
    bad("legal terms", "concept without law words", "concepts:\n- asks: [stole]\n",
        "terms.yaml: concept 1 ({'asks': ['stole']}) needs 'law', the words to add"),
    bad("legal terms", "phrases not a list",
        "concepts:\n- {law: theft, asks: [stole]}\n- {law: bail, asks: jail}\n",
        "terms.yaml: concept 2 ('bail') needs 'asks', a non-empty list of phrases, got 'jail'"),
    bad("legal terms", "an empty phrase", "concepts:\n- {law: theft, asks: [stole, '']}\n",
        "terms.yaml: concept 1 ('theft') needs 'asks', a non-empty list of phrases"),
    bad("legal terms", "a joined phrase with an empty part",
        "concepts:\n- {law: contract, asks: ['minor + ']}\n",
        "terms.yaml: concept 1 ('contract'): the phrase 'minor + ' has an empty part around '+'"),
    bad("legal terms", "not valid YAML", "concepts: [\n", "terms.yaml: cannot read"),
])
def test_bad_legal_terms_file_names_the_file_and_concept(tmp_path, content, message):
    from nyaya.retrieval.legal_terms import LegalTermsError, load_legal_terms

    with pytest.raises(LegalTermsError) as caught:
        load_legal_terms(write(tmp_path / "terms.yaml", content))
    assert message in str(caught.value)


def _statute_search(params):
    from nyaya.retrieval.pipeline import StatuteSearch

    documents = pd.DataFrame({"doc_id": ["BNS_2023:103"], "status": ["in_force"]})
    return StatuteSearch("cfg", params, types.SimpleNamespace(documents=documents, ranker=None))


def _precedent_search(params):
    from nyaya.retrieval.precedents import PrecedentSearch

    return PrecedentSearch("cfg", params, None)


def _document_search(params):
    from nyaya.retrieval.documents import DocumentSearch

    return DocumentSearch("cfg", params, None)


def _weights(params):
    from nyaya.retrieval.pipeline import _weights_for

    return _weights_for(params["fusion"], "procedural")


@pytest.mark.parametrize(("make", "params", "message"), [
    bad("retrieval configs", "unknown statute retriever", _statute_search,
        {"retrievers": ["splade"]}, "config cfg: unknown retriever 'splade'"),
    bad("retrieval configs", "unknown precedent retriever", _precedent_search,
        {"retrievers": ["dense", "citations"]},
        "config cfg: unknown precedent retrievers ['citations']"),
    bad("retrieval configs", "no chunk to score a judgment by", _precedent_search,
        {"retrievers": ["sparse"], "chunks_summed": 0},
        "config cfg: chunks_summed must be 1 or more, not 0"),
    bad("retrieval configs", "unknown key of the document retriever", _precedent_search,
        {"retrievers": ["document"], "document": {"terms": 200, "bigrams": 100}},
        "config cfg: document takes terms, pairs and masked_citations, got"),
    bad("retrieval configs", "document retriever's terms not a count", _precedent_search,
        {"retrievers": ["document"], "document": {"terms": 0}},
        "config cfg: document: {terms} must be a whole number of 1 or more"),
    bad("retrieval configs", "word pairs not a mapping", _precedent_search,
        {"retrievers": ["document"], "document": {"pairs": 2}},
        "config cfg: document: {pairs} takes terms and weight, got 2"),
    bad("retrieval configs", "word pairs' terms not a count", _precedent_search,
        {"retrievers": ["document"], "document": {"pairs": {"terms": "all"}}},
        "config cfg: document: {pairs: {terms}} must be a whole number of 1 or more"),
    bad("retrieval configs", "word pairs weighing nothing", _precedent_search,
        {"retrievers": ["document"], "document": {"pairs": {"weight": 0}}},
        "config cfg: document: {pairs: {weight}} must be a positive number, not 0"),
    bad("retrieval configs", "masked citations' window not given", _precedent_search,
        {"retrievers": ["document"], "document": {"masked_citations": {"weight": 8}}},
        "config cfg: document: {masked_citations} needs words, how many words either side"),
    bad("retrieval configs", "masked citations' window not a count", _precedent_search,
        {"retrievers": ["document"], "document": {"masked_citations": {"words": 0.5}}},
        "config cfg: document: {masked_citations: {words}} must be a whole number of 1 or "
        "more, not 0.5"),
    bad("retrieval configs", "masked citations with an unknown key", _precedent_search,
        {"retrievers": ["document"], "document": {"masked_citations": {"terms": 100}}},
        "config cfg: document: {masked_citations} takes words and weight, got {'terms': 100}"),
    bad("retrieval configs", "masked citations weighing less than nothing", _precedent_search,
        {"retrievers": ["document"],
         "document": {"masked_citations": {"words": 50, "weight": -1}}},
        "config cfg: document: {masked_citations: {weight}} must be a positive number, not -1"),
    bad("retrieval configs", "unknown document retriever", _document_search,
        {"retrievers": ["bm25"]},
        "config cfg: retrievers must be some of ('dense', 'sparse', 'cases', 'contexts'), got "
        "['bm25']"),
    bad("retrieval configs", "document config without retrievers", _document_search, {},
        "config cfg: retrievers must be some of"),
    bad("retrieval configs", "two retrievers without fusion", _document_search,
        {"retrievers": ["dense", "sparse"]}, "config cfg: two retrievers need fusion"),
    bad("retrieval configs", "unknown weight table", _weights,
        {"fusion": {"weights_by_query_type": "spec999"}}, "unknown weight table 'spec999'"),
    bad("retrieval configs", "statute config without retrievers", _statute_search, {},
        "config cfg: no retrievers"),
    bad("retrieval configs", "precedent config without retrievers", _precedent_search, {},
        "config cfg: no retrievers"),
    bad("retrieval configs", "rerank not a mapping", _statute_search,
        {"retrievers": ["cases"], "rerank": True},
        "config cfg: 'rerank' must be a mapping such as {depth: 100}, got True"),
    bad("retrieval configs", "rerank without a trained ranker", _statute_search,
        {"retrievers": ["cases"], "rerank": {"depth": 50}},
        "config cfg reranks, but these resources have no trained section ranker"),
    bad("retrieval configs", "legal terms not a switch", _statute_search,
        {"retrievers": ["cases"], "legal_terms": "yes"},
        "config cfg: 'legal_terms' must be true or false, got 'yes'"),
    bad("retrieval configs", "retrievers not a list", _statute_search,
        {"retrievers": "dense"}, "config cfg: no retrievers: 'retrievers' must be a non-empty "
        "list of retriever names, got 'dense'"),
])
def test_bad_config_content_names_config_and_key(make, params, message):
    from nyaya.retrieval.pipeline import ConfigError

    with pytest.raises(ConfigError) as caught:
        make(params)
    assert message in str(caught.value)


# --- TREC runs ------------------------------------------------------------------------------

@pytest.mark.parametrize(("content", "error", "message"), [
    bad("TREC runs", "run file missing", None, FileNotFoundError, "run.trec"),
    bad("TREC runs", "run file not UTF-8", b"q1 Q0 a 1 1.0 t\nq1 Q0 caf\xe9 2 0.5 t\n",
        TrecRunError, "run.trec:2: not valid UTF-8"),
    bad("TREC runs", "score not finite", "q1 Q0 a 1 nan t\nq1 Q0 b 2 1.0 t\n", TrecRunError,
        "run.trec:1: score 'nan' is not a finite number"),
    bad("TREC runs", "score infinite", "q1 Q0 a 1 1.0 t\nq1 Q0 b 2 -inf t\n", TrecRunError,
        "run.trec:2: score '-inf' is not a finite number"),
    bad("TREC runs", "rank not a number", "q1 Q0 a 1 1.0 t\nq1 Q0 b two 0.5 t\n", TrecRunError,
        "run.trec:2: rank 'two' is not a whole number"),
])
def test_bad_trec_run_names_the_file(tmp_path, content, error, message):
    path = tmp_path / "run.trec"
    if content is not None:
        write(path, content)
    with pytest.raises(error) as caught:
        read_trec(path)
    assert message in str(caught.value)


# --- the regression baseline ----------------------------------------------------------------

ENTRY = "{config: a, queryset: q, embedder: e, corpus: c, scores: {map: 0.5}}"


@pytest.mark.parametrize(("text", "message"), [
    bad("baseline YAML", "metric listed twice for one config", f"expected:\n  - {ENTRY}\n"
        f"  - {ENTRY}\n", "a on q (e) has map twice"),
    bad("baseline YAML", "entry not a mapping", "expected:\n  - just a config name\n",
        "entry 1: expected a mapping with config, queryset, embedder, corpus, scores, got str"),
    bad("baseline YAML", "top level not a mapping", f"- {ENTRY}\n",
        "expected a mapping with 'tolerance' and 'expected', got list"),
    bad("baseline YAML", "expected not a list", f"expected:\n  a: {ENTRY}\n",
        "'expected' must be a list of entries, got dict"),
    bad("baseline YAML", "scores not a mapping",
        "expected:\n  - {config: a, queryset: q, embedder: e, corpus: c, scores: [0.5]}\n",
        "entry 1 (a): expected 'scores' to map metric names to numbers, got list"),
    bad("baseline YAML", "default tolerance not a number", f"tolerance: high\nexpected:\n"
        f"  - {ENTRY}\n", "tolerance must be a number, not 'high'"),
    bad("baseline YAML", "metric tolerance not a number", "expected:\n  - {config: a, "
        "queryset: q, embedder: e, corpus: c, scores: {map: 0.5}, tolerance: {map: wide}}\n",
        "entry 1 (a): tolerance of map must be a number, not 'wide'"),
    bad("baseline YAML", "score a boolean", "expected:\n  - {config: a, queryset: q, "
        "embedder: e, corpus: c, scores: {map: true}}\n",
        "entry 1 (a): map must be a number, not True"),
])
def test_bad_baseline_names_file_and_entry(tmp_path, text, message):
    path = write(tmp_path / "regression.yaml", text)
    with pytest.raises(BaselineError) as caught:
        load_baseline(path)
    assert message in str(caught.value) and str(path) in str(caught.value)


# --- Parquet tables ---------------------------------------------------------------------------

@pytest.mark.parametrize(("damage", "error", "message"), [
    bad("Parquet tables", "table missing", "missing", FileNotFoundError,
        "does not exist: build the tables first"),
    bad("Parquet tables", "table bytes differ from checksum", "flip", CorruptTableError,
        "does not match sections.parquet.sha256"),
    bad("Parquet tables", "table not Parquet", "garbage", CorruptTableError,
        "unreadable Parquet"),
])
def test_bad_table_is_named(tmp_path, damage, error, message):
    path = tmp_path / "warehouse" / "sections.parquet"
    if damage != "missing":
        write_table(pd.DataFrame({"act_code": ["BNS_2023"], "section_number": ["103"]}), path)
    if damage == "flip":
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 0xFF
        path.write_bytes(bytes(data))
    elif damage == "garbage":
        path.with_name(path.name + ".sha256").unlink()
        path.write_bytes(b"not a parquet file")
    with pytest.raises(error) as caught:
        read_table(path)
    assert message in str(caught.value) and str(path) in str(caught.value)


# --- settings and environment -----------------------------------------------------------------

@pytest.mark.bad_input("settings/env", "unknown embedder name")
def test_unknown_embedder_names_the_choices(tmp_path):
    with pytest.raises(EmbedderError, match=r"unknown embedder 'minilm-huge'; choose one of"):
        load_embedder("minilm-huge", tmp_path)


@pytest.mark.parametrize("variable", [
    bad("settings/env", "unknown embedder in NYAYA_EMBEDDER", "NYAYA_EMBEDDER"),
    bad("settings/env", "unknown embedder in NYAYA_CHUNK_EMBEDDER", "NYAYA_CHUNK_EMBEDDER"),
])
def test_unknown_embedder_from_the_environment_fails_early_naming_the_variable(
        monkeypatch, variable):
    """Refused when the settings are read, not when embedding starts: the message names the
    variable to fix and the names it may take."""
    monkeypatch.setenv(variable, "minilm-huge")
    with pytest.raises(SettingsError) as caught:
        Settings.from_env()
    assert str(caught.value) == (f"{variable}='minilm-huge' is not an embedder; choose one of "
                                 f"{sorted(EMBEDDERS)}")


@pytest.mark.bad_input("CLI", "command run with an unknown embedder in the environment")
def test_cli_names_a_bad_environment_variable(monkeypatch, capsys):
    monkeypatch.setenv("NYAYA_EMBEDDER", "minilm-huge")
    assert main(["verify", "answer.txt"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("nyaya verify: NYAYA_EMBEDDER='minilm-huge' is not an "
                                   "embedder; choose one of")


@pytest.mark.parametrize("make", [
    bad("settings/env", "corpus folder missing", lambda root: root / "nowhere"),
    bad("settings/env", "corpus folder without statutes", lambda root: root),
])
def test_missing_corpus_names_the_folder_and_the_variable(tmp_path, monkeypatch, make):
    corpus = make(tmp_path)
    monkeypatch.setenv("NYAYA_CORPUS", str(corpus))
    with pytest.raises(FileNotFoundError) as caught:
        Settings.from_env().require_corpus()
    assert f"corpus not found at {corpus}" in str(caught.value)
    assert "set NYAYA_CORPUS" in str(caught.value)


# --- labels -----------------------------------------------------------------------------------

@pytest.mark.bad_input("labels", "label file not valid YAML")
def test_unparsable_label_file_is_named(tmp_path, monkeypatch):
    from evals import judgment_quality

    write(tmp_path / "labels" / "statute_mentions.yaml", "regions: [\n  {doc_id: AILA:C1\n")
    monkeypatch.setattr(judgment_quality.resources, "files", lambda package: tmp_path)
    judgment_quality.load_labels.cache_clear()
    try:
        with pytest.raises(ValueError, match=r"statute_mentions\.yaml:3: not valid YAML: "
                           r"expected ',' or '}'"):
            judgment_quality.load_labels("statute_mentions.yaml")
    finally:
        judgment_quality.load_labels.cache_clear()


# --- the CLI ----------------------------------------------------------------------------------

@pytest.fixture
def no_tables(tmp_path, monkeypatch):
    monkeypatch.setenv("NYAYA_DATA", str(tmp_path / "data"))
    return tmp_path


@pytest.fixture
def tables(no_tables, monkeypatch):
    """The three statute tables of test_verify_relevance, enough for lookup and verify."""
    write_statute_tables(no_tables / "data" / "warehouse")
    monkeypatch.setattr(cli, "_load_case_verifier",
                        lambda settings, llm=None: (None, "cases skipped"))
    return no_tables


def _statutes_run(root: Path) -> str:
    queryset = load_queryset("nyaya-statutes")
    return str(write(root / "ok.trec", f"{sorted(queryset.qrels)[0]} Q0 BNS_2023:103 1 1.0 t\n"))


@pytest.mark.parametrize(("args", "message"), [
    bad("CLI", "lookup before the tables are built", ["lookup", "BNS", "103"],
        "nyaya lookup: {root}/data/warehouse/act_registry.parquet does not exist"),
    bad("CLI", "eval of a missing run file", ["eval", "{root}/none.trec", "--queryset",
                                              "nyaya-statutes"], "{root}/none.trec"),
    bad("CLI", "eval against an unknown query set", ["eval", "RUN", "--queryset", "nosuch"],
        "nyaya eval: unknown query set 'nosuch': a name, one of nyaya-statutes"),
    bad("CLI", "eval query set named by a path out of the sets' folder",
        ["eval", "RUN", "--queryset", "../../../../tmp"], "unknown query set '../../../../tmp'"),
    bad("CLI", "eval query set named by an absolute path",
        ["eval", "RUN", "--queryset", "{root}"], "unknown query set '{root}'"),
    bad("CLI", "eval of a corpus set before the tables are built",
        ["eval", "RUN", "--queryset", "aila2019-statutes"], "judgments.parquet does not exist"),
    bad("CLI", "eval with an unknown metric", ["eval", "RUN", "--queryset", "nyaya-statutes",
                                               "--metrics", "mrr,bogus"],
        "Metric bogus not supported"),
    bad("CLI", "baseline from a missing metrics table",
        ["baseline", "--metrics", "{root}/none.parquet"],
        "nyaya baseline: no metrics table at {root}/none.parquet"),
    bad("CLI", "eval with a metric cutoff not a number",
        ["eval", "RUN", "--queryset", "nyaya-statutes", "--metrics", "ndcg@ten"],
        "metric 'ndcg@ten': the cutoff after '@' must be a whole number, got 'ten'"),
    bad("CLI", "baseline from a file that is not Parquet",
        ["baseline", "--metrics", "{root}/metrics.parquet", "--output", "{root}/b.yaml"],
        "{root}/metrics.parquet: not a readable Parquet table"),
    bad("CLI", "baseline from a table without its columns",
        ["baseline", "--metrics", "{root}/columns.parquet", "--output", "{root}/b.yaml"],
        "{root}/columns.parquet: not a metrics table: lacks column(s) queryset, embedder, "
        "group, corpus_fingerprint"),
])
def test_cli_bad_input_exits_2_with_a_named_problem(no_tables, capsys, args, message):
    root = str(no_tables)
    write(no_tables / "metrics.parquet", "not parquet")
    pd.DataFrame({"config": ["a"]}).to_parquet(no_tables / "columns.parquet")
    run = _statutes_run(no_tables) if "RUN" in args else ""
    argv = [run if arg == "RUN" else arg.format(root=root) for arg in args]
    assert main(argv) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("nyaya ") and message.format(root=root) in captured.err
    assert captured.out == ""


@pytest.mark.parametrize(("args", "message"), [
    bad("CLI", "no command", [], "the following arguments are required: command"),
    bad("CLI", "as-of not a date", ["verify", "a.txt", "--as-of", "2024-13-01"],
        "argument --as-of: invalid fromisoformat value: '2024-13-01'"),
    bad("CLI", "threshold not a number", ["verify-segments", "a.txt", "--evidence", "e.json",
                                          "--threshold", "high"],
        "argument --threshold: invalid float value: 'high'"),
    bad("CLI", "eval breakdown by an unknown tag", ["eval", "r.trec", "--queryset", "x",
                                                    "--by", "judge"],
        "argument --by: invalid choice: 'judge'"),
])
def test_cli_bad_arguments_exit_2_with_usage(capsys, args, message):
    with pytest.raises(SystemExit) as exited:
        main(args)
    assert exited.value.code == 2
    assert message in capsys.readouterr().err


@pytest.mark.parametrize(("make", "message"), [
    bad("CLI", "verify of a missing file", lambda root: root / "missing.txt",
        "No such file or directory: '{file}'"),
    bad("CLI", "verify of a file not UTF-8",
        lambda root: write(root / "answer.txt", b"Section 302 IPC caf\xe9\n"),
        "{file}: not UTF-8 text (byte 19)"),
    bad("CLI", "verify of standard input not UTF-8", lambda root: "-",
        "standard input: not UTF-8 text (byte 19)"),
])
def test_verify_cli_names_an_unreadable_input(tables, capsys, monkeypatch, make, message):
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(b"Section 302 IPC caf\xe9\n")))
    file = make(tables)
    assert main(["verify", str(file)]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith("nyaya verify: ")
    assert message.format(file=file) in captured.err and captured.out == ""


@pytest.mark.parametrize(("damage", "problem"), [
    bad("Parquet tables", "lookup on a corrupted table", "corrupt",
        "does not match sections.parquet.sha256"),
    bad("Parquet tables", "lookup on a table without its columns", "columns",
        "lacks column(s) section_number, title, text"),
])
def test_lookup_cli_names_a_damaged_table(tables, capsys, damage, problem):
    path = tables / "data" / "warehouse" / "sections.parquet"
    if damage == "corrupt":
        path.write_bytes(b"garbage")
    else:
        write_table(pd.DataFrame({"act_code": ["BNS_2023"]}), path)
    assert main(["lookup", "BNS", "103"]) == 2
    captured = capsys.readouterr()
    assert captured.err.startswith(f"nyaya lookup: {path}") and problem in captured.err
