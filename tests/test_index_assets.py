"""Index assets materialized in-process on the fixture corpus, twice: the second run does no
work, and every collection holds exactly its table's points."""

from __future__ import annotations

import hashlib

import dagster as dg
import numpy as np
import pandas as pd
import pytest
from staged import materialize_staged
from test_verify_relevance import hand_model, hand_precedent_model

from assets import indexes, judgments, statutes
from nyaya.index.build import load_vectors
from nyaya.index.collections import COLLECTIONS
from nyaya.index.sparse import query_vector
from nyaya.index.store import open_store
from nyaya.verify.model import (
    FOUND,
    NOT_APPLICABLE_PRECEDENT,
    NOT_JUDGED,
    PRECEDENT_ONLY,
    RELEVANT_PRECEDENT,
)
from nyaya.verify.trained import model_path
from pipelines.resources import NyayaSettings, project_resources

UPSTREAM = dg.load_assets_from_modules([statutes, judgments])
INDEX_ASSETS = dg.load_assets_from_modules([indexes])
INDEX_CHECKS = dg.load_asset_checks_from_modules([indexes])


def metadata_of(results: list[dg.ExecuteInProcessResult], asset: str) -> dict:
    """The metadata of the asset's (first) materialization in these runs."""
    event = next(event for result in results for event in
                 result.get_asset_materialization_events()
                 if event.asset_key == dg.AssetKey(asset))
    return {key: value.value for key, value in event.materialization.metadata.items()}


@pytest.fixture(scope="module")
def built(fixture_corpus, models_dir, tmp_path_factory):
    """(first build's runs, second build's runs, data dir): the second redoes the indexes."""
    data_dir = tmp_path_factory.mktemp("data")
    resources = project_resources(NyayaSettings(
        corpus_root=str(fixture_corpus), data_dir=str(data_dir), models_dir=str(models_dir)))
    instance = dg.DagsterInstance.ephemeral()
    assets = [*UPSTREAM, *INDEX_ASSETS, *INDEX_CHECKS]
    first: list = []
    second: list = []
    materialize_staged(assets, resources, instance, runs=first, raise_on_error=False)
    materialize_staged(assets, resources, instance, runs=second, raise_on_error=False,
                       only=dg.AssetSelection.groups(indexes.GROUP))
    return first, second, data_dir


def test_both_runs_succeed_and_every_point_count_check_passes(built):
    first, second, _ = built
    for runs in (first, second):
        assert all(result.success for result in runs)
        checks = [check for result in runs for check in result.get_asset_check_evaluations()]
        assert len(checks) == len(COLLECTIONS)
        assert all(check.passed for check in checks), [
            (c.asset_key.to_user_string(), c.metadata) for c in checks if not c.passed]


def test_the_second_run_embeds_and_writes_nothing(built):
    first, second, _ = built
    for definition in COLLECTIONS:
        name = definition.name
        assert metadata_of(first, f"{name}_vectors")["newly_embedded"] > 0
        assert metadata_of(second, f"{name}_vectors")["parts_built"] == 0
        assert metadata_of(second, f"{name}_vectors")["parts_kept"] > 0
        if definition.name != "law_transition_context":  # built per partition: each says so
            assert metadata_of(first, f"{name}_vectors")["part"].startswith("built (")
            assert metadata_of(second, f"{name}_vectors")["part"] == "kept"
        assert metadata_of(second, f"{name}_qdrant")["upserted"] == 0
        assert metadata_of(second, f"{name}_qdrant")["deleted"] == 0
    assert metadata_of(second, "sc_judgments_faiss")["ivf_rebuilt"] is False
    assert metadata_of(second, "legal_sections_faiss")["hnsw_rebuilt"] is False


def test_collections_answer_exact_section_lookups_and_sparse_queries(built):
    _, _, data_dir = built
    sections = pd.read_parquet(data_dir / "warehouse" / "legal_sections_documents.parquet")
    target = sections[sections["is_offence"]].iloc[0]
    store = open_store(data_dir / "qdrant")
    try:
        hits = store.lookup("legal_sections", {"act_code": target["act_code"],
                                               "section_number": target["section_number"]})
        assert [hit.payload["doc_id"] for hit in hits] == [target["doc_id"]]
        assert hits[0].payload["is_offence"] is True
        ids, values = query_vector(target["title"])
        found = store.search_sparse("legal_sections", ids, values, k=5)
        assert target["doc_id"] in [hit.payload["doc_id"] for hit in found]
        vectors = load_vectors(data_dir / "vectors", "legal_sections", sections)
        row = int(np.flatnonzero(sections["doc_id"] == target["doc_id"])[0])
        nearest = store.search_dense("legal_sections", vectors[row], k=1)
        assert nearest[0].payload["doc_id"] == target["doc_id"]
    finally:
        store.close()


def test_faiss_indexes_record_their_recall_against_exact_search(built):
    """Each approximate index says its recall@10 against the flat one; the judgments get no
    HNSW graph (no search reads one)."""
    first, _, data_dir = built
    assert 0.0 <= metadata_of(first, "legal_sections_faiss")["hnsw_recall@10"] <= 1.0
    assert 0.0 <= metadata_of(first, "sc_judgments_faiss")["ivf_recall@10"] <= 1.0
    for name, kinds in indexes.FAISS_KINDS.items():
        for kind in kinds:
            assert (data_dir / "faiss" / f"{name}.{kind}.faiss").exists()
            assert (data_dir / "faiss" / f"{name}.{kind}.json").exists()
    assert not (data_dir / "faiss" / "sc_judgments.hnsw.faiss").exists()


def file_digests(folder, pattern: str) -> dict[str, str]:
    return {str(path.relative_to(folder)): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.glob(pattern)) if path.is_file()}


def test_the_same_inputs_give_byte_identical_tables_vectors_and_index_metadata(
        built, fixture_corpus, models_dir, tmp_path):
    """A second build from scratch, in another folder with its own cache and instance."""
    _, _, data_dir = built
    other = tmp_path / "data"
    resources = project_resources(NyayaSettings(
        corpus_root=str(fixture_corpus), data_dir=str(other), models_dir=str(models_dir)))
    assert materialize_staged([*UPSTREAM, *INDEX_ASSETS], resources).success
    for folder, pattern in (("warehouse", "*.parquet"), ("vectors", "*/*"), ("faiss", "*")):
        first, second = file_digests(data_dir / folder, pattern), file_digests(other / folder,
                                                                              pattern)
        assert first, folder
        assert first == second, folder


def test_integer_payload_filters_match_after_the_parquet_round_trip(built):
    """Years come back from Parquet as floats; the store must hold ints, or a year filter
    silently matches nothing."""
    _, _, data_dir = built
    chunks = pd.read_parquet(data_dir / "warehouse" / "sc_judgments_documents.parquet")
    year = int(chunks["year"].dropna().iloc[0])
    store = open_store(data_dir / "qdrant")
    try:
        vectors = load_vectors(data_dir / "vectors", "sc_judgments", chunks)
        hits = store.search_dense("sc_judgments", vectors[0], k=50, where={"year": [year]})
    finally:
        store.close()
    assert hits
    assert {hit.payload["year"] for hit in hits} == {year}
    assert len(hits) == min(50, int((chunks["year"] == year).sum()))


def _fixture_settings(data_dir):
    from nyaya.settings import Settings

    settings = Settings.from_env()
    return NyayaSettings(data_dir=str(data_dir), models_dir=str(settings.models_dir),
                         corpus_root=str(settings.corpus_root)).resolved()


@pytest.fixture(scope="module")
def title_queries(built):
    """Twelve questions that are fixture sections' titles, each judged on its section."""
    from evals.querysets import QuerySet
    from evals.splits import TRAIN, split_of

    _, _, data_dir = built
    documents = pd.read_parquet(data_dir / "warehouse" / "legal_sections_documents.parquet")
    sample = documents[documents["title"].str.len() > 10].head(12)
    queries = pd.DataFrame({"qid": [f"F{i:02d}" for i in range(len(sample))],
                            "query": sample["title"].tolist(), "query_type": "default",
                            "domain": "criminal"})
    assert TRAIN in {split_of(qid) for qid in queries["qid"]}
    return QuerySet("fixture", queries, {qid: {doc: 2} for qid, doc in
                                         zip(queries["qid"], sample["doc_id"], strict=True)})


@pytest.fixture(scope="module")
def section_ranker(built, title_queries):
    """The section ranker trained on the title questions over the fixture indexes (the
    section_ranker asset trains on the real corpus's), saved where a reranking config loads
    it; (model, training pairs)."""
    from evals.configs import load_config
    from evals.ranking import RERANKING_CONFIG, fit_ranker, ranking_pairs
    from evals.relevance import judged_queries
    from evals.runner import load_statute_resources
    from nyaya.retrieval.pipeline import StatuteSearch
    from nyaya.verify.relevance import RelevanceJudge, judge_tables
    from nyaya.verify.trained import ranker_path

    _, _, data_dir = built
    settings = _fixture_settings(data_dir)
    store = open_store(data_dir / "qdrant")
    try:
        resources = load_statute_resources(settings, store)
        search = StatuteSearch(RERANKING_CONFIG, load_config(RERANKING_CONFIG).params,
                               resources)
        judge = RelevanceJudge(*judge_tables(settings), votes=lambda: resources.votes)
        pairs = ranking_pairs(search, judge, judged_queries(title_queries), log=lambda _: None)
    finally:
        store.close()
    model = fit_ranker(pairs)
    model.save(ranker_path(settings))
    return model, pairs


@pytest.fixture(scope="module")
def section_encoder(built, title_queries):
    """The section encoder trained on the title questions over the fixture sections (the
    section_encoder asset trains on the real corpus's), saved where a `dense-trained` config
    loads it."""
    from evals.dense_training import distilled_static, train_model, training_pairs
    from evals.relevance import judged_queries
    from nyaya.retrieval.section_encoder import SectionEncoder, encoder_path, section_texts

    _, _, data_dir = built
    settings = _fixture_settings(data_dir)
    documents = pd.read_parquet(data_dir / "warehouse" / "legal_sections_documents.parquet")
    sections = dict(zip(documents["doc_id"], section_texts(documents), strict=True))
    queries, texts = training_pairs(judged_queries(title_queries), sections)
    encoder = SectionEncoder.encoding(train_model(distilled_static(settings), queries, texts),
                                      documents)
    encoder.save(encoder_path(settings))
    return encoder


def test_the_section_ranker_learns_from_the_fused_candidates(built, section_ranker,
                                                             title_queries):
    """Every title question's candidates are its fused top 100, each with the ranker's
    features; its own section is among them when in force (the config searches those), the
    only positive; and the trained model scores each question's section above the median of
    its candidates."""
    from nyaya.verify.ranker import RANK_FEATURES

    _, _, data_dir = built
    documents = pd.read_parquet(data_dir / "warehouse" / "legal_sections_documents.parquet")
    in_force = set(documents.loc[documents["status"] == "in_force", "doc_id"])
    model, pairs = section_ranker
    assert set(RANK_FEATURES) <= set(pairs.columns)
    assert pairs.groupby("qid")["rank"].max().le(100).all()
    judged = pairs[pairs["grade"] >= 1]
    searchable = sorted(qid for qid, docs in title_queries.qrels.items() if set(docs) <= in_force)
    assert len(searchable) >= 8 and sorted(judged["qid"]) == searchable
    assert all(title_queries.qrels[qid] == {doc: 2} for qid, doc in
               zip(judged["qid"], judged["doc_id"], strict=True))
    scores = pairs.assign(score=model.scores(pairs))
    median = scores.groupby("qid")["score"].median()
    positives = scores[scores["grade"] >= 1]
    assert (positives["score"] > positives["qid"].map(median)).all()
    assert model.figures["training_queries"] == {"fixture": len(title_queries.qrels)}


def test_the_ranker_cross_fit_measures_each_question_with_a_ranker_that_never_saw_it(
        built, title_queries, monkeypatch):
    """`python -m evals.ranking --cross-fit` on the title questions: each fold's questions are
    reranked by a ranker trained on the other folds' only, every question is measured once per
    order and setting of `legal_terms`, and the per-kind rows cover the tagged questions."""
    import evals.ranking as ranking
    from evals.relevance import judged_queries
    from evals.runner import load_statute_resources
    from evals.splits import CROSS_FIT_FOLDS, cross_fit_fold
    from nyaya.verify.relevance import RelevanceJudge, judge_tables

    trained_on = []
    fit = ranking.fit_ranker
    monkeypatch.setattr(ranking, "fit_ranker",
                        lambda pairs: trained_on.append(set(pairs["qid"])) or fit(pairs))
    _, _, data_dir = built
    settings = _fixture_settings(data_dir)
    queries = judged_queries(title_queries)
    kinds = {qid: "even" if int(qid[1:]) % 2 == 0 else "odd" for qid in title_queries.qrels}
    store = open_store(data_dir / "qdrant")
    try:
        resources = load_statute_resources(settings, store)
        judge = RelevanceJudge(*judge_tables(settings), votes=lambda: resources.votes)
        table = ranking.cross_fit(resources, judge, queries, {"kind": kinds}, log=lambda _: None)
    finally:
        store.close()
    folds = [{qid for qid in title_queries.qrels if cross_fit_fold(qid) == k}
             for k in range(CROSS_FIT_FOLDS)]
    assert all(folds) and len(trained_on) == 2 * CROSS_FIT_FOLDS
    for k, qids in enumerate(trained_on):
        assert qids == set(title_queries.qrels) - folds[k % CROSS_FIT_FOLDS]
    assert sorted(map(tuple, table[["legal_terms", "order"]].drop_duplicates().to_numpy())) == [
        (False, "fused"), (False, "ranker"), (True, "fused"), (True, "ranker")]
    assert set(table["set"]) == {"fixture"}
    counts = table.groupby(["legal_terms", "order", "group"])["queries"].first()
    assert (counts.xs("all", level="group") == len(queries)).all()
    assert (counts.xs("even", level="group") == 6).all()
    assert table[["map", "ndcg@10"]].stack().between(0, 1).all()


def test_every_config_runs_through_its_search_on_the_fixture_indexes(built, title_queries,
                                                                     section_ranker,
                                                                     section_encoder):
    """Each config file, statutes and precedents, through the one search of its side on the
    fixture corpus's indexes: answers only with known documents, the same way twice; tuned
    ones are fitted first on a small query set whose answers are the sections' own titles,
    reranking ones use the ranker trained on it and `dense-trained` ones the encoder."""
    from evals.configs import configs_for, load_config
    from evals.runner import load_precedent_resources, load_statute_resources
    from evals.splits import is_tuned
    from evals.tuning import fit
    from nyaya.retrieval.pipeline import StatuteSearch
    from nyaya.retrieval.precedents import PrecedentSearch

    _, _, data_dir = built
    settings = _fixture_settings(data_dir)
    documents = pd.read_parquet(data_dir / "warehouse" / "legal_sections_documents.parquet")
    queries = title_queries.queries
    store = open_store(data_dir / "qdrant")
    try:
        statute = load_statute_resources(settings, store)
        precedent = load_precedent_resources(settings, store)
        judgments = set(precedent.judgments["doc_id"])
        chunks = pd.read_parquet(data_dir / "warehouse" / "judgment_chunks.parquet")
        # precedent questions: the opening words of a few fixture judgment chunks
        facts = [" ".join(text.split()[:12]) for text in chunks["text"].head(3)]
        # a statute question in a judgment's words: the citing passages (`contexts`) answer
        # those (here IPC 302's, standing for BNS 103 that replaced it; paraphrased, as a
        # judgment printing the question never counts); a section's title words seldom stand
        # beside its citations
        in_words = "a neighbour died after a quarrel about the boundary wall"
        for side, search_of, known, texts in (
                ("statutes", lambda n, p: StatuteSearch(n, p, statute), set(documents["doc_id"]),
                 [*queries["query"].head(3), in_words]),
                ("precedents", lambda n, p: PrecedentSearch(n, p, precedent), judgments, facts)):
            for name in configs_for(side):
                params = load_config(name).params
                if is_tuned(params):
                    params, fitted = fit(lambda p, n=name, s=search_of: s(n, p), params,
                                         title_queries)
                    assert fitted, name
                search = search_of(name, params)
                only_contexts = params["retrievers"] == ["contexts"]
                for text in texts:
                    hits = search.search(text, 5)
                    assert {hit.doc_id for hit in hits} <= known, (name, text)
                    assert hits or (only_contexts and text != in_words), (name, text)
                    if only_contexts and text == in_words:
                        assert hits[0].doc_id == "BNS_2023:103", hits
                    assert [h.doc_id for h in search.search(text, 5)] == [
                        h.doc_id for h in hits], name
                    if params.get("rerank") is not None:
                        assert all(hit.method.endswith("+ltr") or hit.method ==
                                   "section-lookup" for hit in hits), hits
    finally:
        store.close()


def test_plain_words_find_the_section_through_the_law_s_words(built):
    """BM25 over the fixture sections, with and without `legal_terms`: no word of the question
    is in BSA 63, and "whatsapp" and "screenshots" call for the law's "electronic records";
    a question that names a provision is searched as asked."""
    from evals.runner import load_statute_resources
    from nyaya.retrieval.pipeline import StatuteSearch

    _, _, data_dir = built
    store = open_store(data_dir / "qdrant")
    try:
        resources = load_statute_resources(_fixture_settings(data_dir), store)
        plain, terms = (StatuteSearch("bm25", {"retrievers": ["bm25"], "legal_terms": on},
                                      resources) for on in (False, True))
        question = "Can WhatsApp screenshots be shown to the judge?"
        assert "BSA_2023:63" not in [hit.doc_id for hit in plain.search(question, 5)]
        assert terms.search(question, 5)[0].doc_id == "BSA_2023:63"
        named = "What does section 63 of the BSA say about WhatsApp screenshots?"
        assert terms.query(named).text == named
        assert terms.search(named, 5) == plain.search(named, 5)
    finally:
        store.close()


@pytest.fixture(scope="module")
def fixture_settings(built, monkeypatch_module):
    """The environment of a user whose data folder is the fixture build."""
    from nyaya.settings import Settings

    _, _, data_dir = built
    models = Settings.from_env().models_dir
    monkeypatch_module.setenv("NYAYA_DATA", str(data_dir))
    monkeypatch_module.setenv("NYAYA_MODELS", str(models))
    monkeypatch_module.delenv("NYAYA_QDRANT_PATH", raising=False)
    monkeypatch_module.delenv("NYAYA_QDRANT_URL", raising=False)
    return Settings.from_env()


@pytest.fixture(scope="module")
def monkeypatch_module():
    with pytest.MonkeyPatch.context() as patch:
        yield patch


def _section(settings, offence: bool = True) -> dict:
    sections = pd.read_parquet(settings.warehouse / "legal_sections_documents.parquet")
    return sections[sections["is_offence"] == offence].iloc[0].to_dict()


def test_search_answers_a_question_through_the_command_line(fixture_settings, section_ranker,
                                                          capsys):
    """`nyaya search` through its entry point: the section whose title is the question comes
    first with its act and snippet, --verify gives it the gate's verdict, and it runs while a
    writer holds the store (the search reads a copy taken before)."""
    import json

    from pipelines.cli import main

    target = _section(fixture_settings)
    # --verify judges relevance by the trained models: refused, by name, until they are built
    assert main(["search", target["title"], "-k", "3", "--verify"]) == 2
    assert "no relevance model at" in capsys.readouterr().err
    models = [model_path(fixture_settings), model_path(fixture_settings, "precedents")]
    hand_model().save(models[0])  # the fixture corpus is too small to train them on
    hand_precedent_model().save(models[1])
    try:
        code = main(["search", target["title"], "-k", "3", "--json", "--verify"])
        answer = json.loads(capsys.readouterr().out)
        # judgments found are judged precedents for the question, or not, each with why: a
        # long question (a judgment's first 80 words, so that it is found first) and a short one
        # (its first 8)
        texts = pd.read_parquet(fixture_settings.warehouse / "judgments.parquet")["text"]
        long_question, short_question = (" ".join(texts.iloc[0].split()[:n]) for n in (80, 8))
        judgments = {}
        for question in (long_question, short_question):
            assert main(["search", question, "--side", "precedents", "-k", "3", "--json",
                         "--verify"]) == 0
            judgments[question] = json.loads(capsys.readouterr().out)
    finally:
        for path in models:
            path.unlink()
    assert code == 0 and answer["side"] == "statutes" and answer["config"] == "lookup-cases-ltr"
    first = answer["results"][0]
    assert first["doc_id"] == target["doc_id"] and first["section"] == target["section_number"]
    assert first["act"] and first["snippet"] and first["methods"]
    assert first["verification"]["status"] == "VERIFIED"
    assert answer["verification"]["overall"] in ("VERIFIED", "PARTIALLY_VERIFIED")
    # a section's title is in the law's words already
    assert not [note for note in answer["notes"] if "law's words" in note]
    facts = judgments[long_question]
    verdicts = [result["verification"] for result in facts["results"]]
    assert verdicts[0]["relevance"] == RELEVANT_PRECEDENT  # its best text match
    for result, verdict in zip(facts["results"], verdicts, strict=True):
        assert verdict["status"] == FOUND and verdict["reason"].startswith(
            f"{result['case_name'] or result['doc_id']}: ")
        assert verdict["survives"] == (verdict["relevance"] != NOT_APPLICABLE_PRECEDENT)
    assert facts["verification"]["overall"] == PRECEDENT_ONLY
    assert facts["verification"]["counts"]["total"] == len(verdicts)
    # the hand model has cuts for long texts only: a short question's judgments are not
    # judged, say why, and survive
    short = judgments[short_question]["results"]
    assert short and all(r["verification"]["relevance"] == NOT_JUDGED
                         and "was not trained on texts of" in r["verification"]["reason"]
                         and r["verification"]["survives"] for r in short)
    code = main(["search", target["title"], "--config", "bm25-sections", "-k", "2"])
    shown = capsys.readouterr().out
    assert code == 0 and target["doc_id"] in shown and "bm25-sections" in shown
    # a question in plain words says which of the law's words were added to it
    assert main(["search", "Can WhatsApp screenshots be shown to the judge?", "-k", "1"]) == 0
    shown = capsys.readouterr().out
    assert ("note: searched with the law's words for what it asks: admissibility of electronic "
            "records certificate computer output evidence") in shown
    assert "BSA_2023:63" in shown


@pytest.mark.parametrize(("argv", "error"), [
    (["search", "theft", "--config", "nope"], "unknown config 'nope': one of"),
    (["search", "theft", "--side", "precedents", "--config", "bm25-sections"],
     "unknown config 'bm25-sections' for precedents"),
    (["search", "theft", "--config", "wsum-tuned"], "fitted per query set"),
    (["search", "   "], "the question is empty"),
    (["search", "theft", "-k", "0"], "k must be between 1 and 1000"),
    (["search", "theft", "--side", "aila-statutes", "--verify"], "which no gate checks"),
    (["search", "--topics", "missing.tsv", "--output", "x.trec"], "missing.tsv"),
    (["search"], "a question, or --topics"),
    (["search", "theft", "--topics", "t.tsv"], "a question or --topics, not both"),
])
def test_search_refuses_bad_requests_by_name(fixture_settings, capsys, argv, error):
    from pipelines.cli import main

    assert main(argv) == 2
    assert error in capsys.readouterr().err


def test_search_writes_a_run_per_config_for_a_topics_file(fixture_settings, tmp_path, capsys):
    from evals.runs import read_trec
    from pipelines.cli import main

    target = _section(fixture_settings)
    topics = tmp_path / "topics.tsv"
    topics.write_text(f"T1\t{target['title']}\nT2\tpunishment\n", encoding="utf-8")
    single = tmp_path / "one.trec"
    assert main(["search", "--topics", str(topics), "--config", "bm25-sections",
                 "--output", str(single), "-k", "5"]) == 0
    run = read_trec(single)
    assert set(run["qid"]) == {"T1", "T2"} and run.groupby("qid").size().max() <= 5
    assert run[run["qid"] == "T1"].iloc[0]["doc_id"] == target["doc_id"]
    folder = tmp_path / "runs"
    assert main(["search", "--topics", str(topics), "--configs", "bm25-sections,role-police",
                 "--output", str(folder)]) == 0
    assert sorted(path.name for path in folder.glob("*.trec")) == [
        "bm25-sections.trec", "role-police.trec"]
    assert "2 questions" in capsys.readouterr().err


def test_serve_answers_over_http(fixture_settings, section_ranker):
    """`nyaya serve`'s endpoints through a real HTTP client: the same JSON as the commands'
    --json, and a clear 4xx for each kind of bad request."""
    import http.client
    import json
    import threading

    from pipelines.serve import MAX_BODY, Service, make_server

    service = Service(fixture_settings)
    server = make_server(service, port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    target = _section(fixture_settings)

    def ask(method: str, path: str, body: bytes | None = None, headers=None):
        connection = http.client.HTTPConnection("127.0.0.1", server.server_address[1],
                                                timeout=60)
        connection.request(method, path, body, headers or {})
        response = connection.getresponse()
        answer = json.loads(response.read())
        connection.close()
        return response.status, answer

    def post(path: str, payload) -> tuple[int, dict]:
        return ask("POST", path, json.dumps(payload).encode(),
                   {"Content-Type": "application/json"})

    citation = f"{target['act_code']} s.{target['section_number']}"
    try:
        assert ask("GET", "/health")[1]["status"] == "ok"
        status, found = post("/lookup", {"citation": citation})
        assert status == 200 and found["status"] == "VERIFIED"
        assert found["section_number"] == target["section_number"]
        # a text naming two provisions: a list, as `nyaya lookup --json` prints
        status, listed = post("/lookup", {"citation": f"{citation} and {citation}"})
        assert status == 200 and [r["section_number"] for r in listed] == [
            target["section_number"]] * 2
        status, report = post("/verify", {"text": f"As held under {citation}.",
                                          "as_of": "2025-01-01"})
        assert status == 200 and report["citations"][0]["status"] == "VERIFIED"
        status, answer = post("/search", {"q": target["title"], "k": 3})
        assert status == 200 and answer["results"][0]["doc_id"] == target["doc_id"]
        # a verified search would use the verifier's checker: the tables are held once
        assert service.searcher._checker is service.verifier.checker
        for request, expected, error in (
                (("GET", "/nope"), 404, "no endpoint /nope"),
                (("GET", "/search"), 405, "use POST"),
                (("POST", "/lookup", b"{not json", {"Content-Length": "9"}), 400, "not JSON"),
                (("POST", "/lookup", b"[1]", {"Content-Length": "3"}), 400, "a JSON object"),
                (("POST", "/lookup", b"\xff{}", {"Content-Length": "3"}), 400, "not UTF-8"),
                (("POST", "/lookup", b"{}", {"Content-Length": "2"}), 400, "missing field"),
                (("POST", "/search", b'{"q": "x", "k": "3"}', None), 400, "'k' must be int"),
                (("POST", "/verify", b'{"text": "x", "as_of": "May"}', None), 400, "as_of"),
                (("POST", "/search", b'{"q": "x", "config": "nope"}', None), 400,
                 "unknown config"),
                (("POST", "/verify", b"x" * (MAX_BODY + 1), None), 413, "at most")):
            status, answer = ask(*request)
            assert (status, error in answer["error"]) == (expected, True), (request[:2], answer)
    finally:
        server.shutdown()
        service.close()


def test_unpartitioned_tables_show_their_first_rows_in_the_ui(built):
    """Quarantine and review tables carry sample rows (the UI shows them as a table), one line
    and at most 80 characters a cell; a partition's materialization does not."""
    first, _, _ = built
    shown = 0
    for asset in ("judgment_quarantine", "ingest_quarantine", "human_review_queue", "sections"):
        metadata = metadata_of(first, asset)
        rows = metadata["dagster/row_count"]
        if not rows:
            continue
        records = metadata["sample_rows"].records
        assert len(records) == min(5, rows)
        assert all(len(value) <= 80 and "\n" not in value for record in records
                   for value in record.data.values() if isinstance(value, str))
        shown += 1
    assert shown >= 2
    assert "sample_rows" not in metadata_of(first, "statute_parts")


def test_judgments_found_by_their_summed_chunks_in_the_store(built):
    """`SummedChunks` over the fixture's judgment chunks: the judgment a chunk is from is
    found by that chunk's text, each judgment's score is at least its best chunk's (the sum of
    positive BM25 scores), and one chunk summed ranks judgments as their best chunks do."""
    from nyaya.retrieval.chunks import COLLECTION, SummedChunks, judgments_of

    _, _, data_dir = built
    chunks = pd.read_parquet(data_dir / "warehouse" / "judgment_chunks.parquet")
    store = open_store(data_dir / "qdrant")
    try:
        for text, own in zip(chunks["text"].head(3), chunks["doc_id"].head(3), strict=True):
            summed = SummedChunks(store).search(text, 5)
            by_best = SummedChunks(store, 1).search(text, 50)
            best = {hit.doc_id: hit.score for hit in by_best}
            assert own in [hit.doc_id for hit in summed], own
            assert set(chunks["doc_id"]) >= {hit.doc_id for hit in summed}
            assert all(hit.score >= best[hit.doc_id] - 1e-6 for hit in summed)
            assert [hit.score for hit in summed] == sorted((h.score for h in summed),
                                                           reverse=True)
            hits = store.search_sparse(COLLECTION, *query_vector(text), 250)
            assert [hit.doc_id for hit in by_best] == [
                hit.doc_id for hit in judgments_of(hits, "cases")][:50]
    finally:
        store.close()


def test_an_excluded_judgment_never_seeds_the_graph_expansion(built, monkeypatch):
    """A development query is a judgment with its citations masked: its own judgment ranks
    first, and its graph neighbours are the answers, so it must not seed the expansion."""
    from evals.configs import load_config
    from evals.runner import load_precedent_resources
    from nyaya.retrieval import precedents
    from nyaya.settings import Settings

    seeded: list[tuple[str, ...]] = []

    class RecordingExpansion(precedents.GraphExpansion):
        def search(self, query, k):
            seeded.append(query.seeds)
            return super().search(query, k)

    monkeypatch.setattr(precedents, "GraphExpansion", RecordingExpansion)
    _, _, data_dir = built
    settings = NyayaSettings(data_dir=str(data_dir),
                             models_dir=str(Settings.from_env().models_dir)).resolved()
    chunks = pd.read_parquet(data_dir / "warehouse" / "judgment_chunks.parquet")
    text, own = chunks["text"].iloc[0], chunks["doc_id"].iloc[0]
    store = open_store(data_dir / "qdrant")
    try:
        search = precedents.PrecedentSearch("kg-citerag", load_config("kg-citerag").params,
                                             load_precedent_resources(settings, store))
        search.search(text, 5)
        search.search(text, 5, excluded={own})
    finally:
        store.close()
    assert own in seeded[0] and own not in seeded[1]
    assert len(seeded[1]) == len(seeded[0])


@pytest.mark.parametrize("by", ["words", "pairs"])
def test_the_judgment_index_is_kept_for_the_current_table(built, by):
    """What the `cases` configs, the precedent judge and the `document` configs load instead
    of indexing again, by words and by word pairs."""
    from nyaya.retrieval.bm25 import BM25Retriever
    from nyaya.retrieval.case_votes import (
        PAIRS,
        WORDS,
        judgment_index_dir,
        judgment_index_stamp,
    )
    from nyaya.tables import read_table

    terms = {"words": WORDS, "pairs": PAIRS}[by]
    first, _, data_dir = built
    warehouse = data_dir / "warehouse"
    judgments = read_table(warehouse / "judgments.parquet")
    assert metadata_of(first, "judgment_index")["judgments"] == len(judgments)
    ids, texts = judgments["doc_id"].tolist(), judgments["text"].tolist()
    loaded = BM25Retriever.load(judgment_index_dir(warehouse, terms),
                                judgment_index_stamp(warehouse, terms), ids, texts,
                                terms.analyzer)
    assert loaded is not None
    fresh = BM25Retriever(ids, texts, analyzer=terms.analyzer, min_df=terms.min_df)
    query = " ".join(judgments["text"].iloc[0].split()[:40])
    assert loaded.search(query, 5) == fresh.search(query, 5) and fresh.search(query, 5)


def load_only(what: str) -> type:
    """A BM25Retriever that loads a kept index but fails the test if it indexes `what`."""
    from nyaya.retrieval.bm25 import BM25Retriever

    class LoadOnly(BM25Retriever):
        def __init__(self, *args, **kwargs) -> None:
            raise AssertionError(f"{what} were indexed again")

    return LoadOnly


def test_the_judges_section_index_is_kept_and_loaded_instead_of_rebuilt(built, monkeypatch):
    """The relevance judge loads the sections' index the asset kept, and it scores as a fresh
    one does; a judge that finds it never indexes the sections itself, and a stale one (the
    sections changed) is indexed anew."""
    from nyaya.verify import section_index
    from nyaya.verify.relevance import RelevanceJudge, judge_tables
    from nyaya.verify.section_index import section_index_dir

    first, _, data_dir = built
    settings = _fixture_settings(data_dir)
    tables = judge_tables(settings)
    kept = metadata_of(first, "judge_sections_index")
    assert kept["sections"] == len(tables[0]) > 0
    assert (section_index_dir(settings.warehouse) / "nyaya.json").is_file()
    fresh = RelevanceJudge(*tables).lexical_index  # no warehouse: indexed here

    section_index.sections_bm25.cache_clear()
    monkeypatch.setattr(section_index, "BM25Retriever", load_only("the sections"))
    try:
        loaded = RelevanceJudge(*tables, warehouse=settings.warehouse).lexical_index
        changed = [{**tables[0][0], "text": "a changed text"}, *tables[0][1:]]
        with pytest.raises(AssertionError, match="indexed again"):
            _ = RelevanceJudge(changed, *tables[1:], warehouse=settings.warehouse).lexical_index
    finally:
        section_index.sections_bm25.cache_clear()
    query = "whoever commits murder shall be punished with death"
    assert loaded.scores(query).tolist() == fresh.scores(query).tolist()
    assert fresh.scores(query).max() > 0


def test_the_citing_passages_index_is_kept_and_loaded_instead_of_rebuilt(built, monkeypatch):
    """The `contexts` configs load the passages' index the asset kept, and it answers as a
    fresh one does; a process that finds it never indexes the passages itself."""
    from nyaya.retrieval import citing_contexts
    from nyaya.retrieval.case_votes import section_successors
    from nyaya.retrieval.citing_contexts import (
        CitingContexts,
        case_citing_passages,
        case_contexts,
        contexts_index_dir,
        section_contexts,
    )
    from nyaya.tables import read_table

    first, _, data_dir = built
    warehouse = data_dir / "warehouse"
    kept = metadata_of(first, "citing_contexts_index")
    assert kept["passages"] > 0 and (contexts_index_dir(warehouse) / "nyaya.json").is_file()
    judgments = read_table(warehouse / "judgments.parquet")
    fresh = CitingContexts.from_mentions(  # indexed here, nothing written
        read_table(warehouse / "citation_mentions.parquet"),
        dict(zip(judgments["doc_id"], judgments["text"], strict=True)),
        section_successors(warehouse))

    citing_contexts._section_contexts.cache_clear()
    monkeypatch.setattr(citing_contexts, "BM25Retriever", load_only("the passages"))
    try:
        loaded = section_contexts(warehouse)
    finally:
        citing_contexts._section_contexts.cache_clear()
    assert len(loaded.owners) == kept["passages"] == len(fresh.owners)
    query = "the accused caused the death of the deceased with a knife"
    assert loaded.search(query, 5) == fresh.search(query, 5) and fresh.search(query, 5)
    # the passages around case citations, which the precedent relevance judge reads
    assert (contexts_index_dir(warehouse, cases=True) / "nyaya.json").is_file()
    citing_contexts._case_contexts.cache_clear()
    try:
        cases = case_contexts(warehouse)
    finally:
        citing_contexts._case_contexts.cache_clear()
    assert len(cases.owners) == kept["case_passages"] > 0
    texts = dict(zip(judgments["doc_id"], judgments["text"], strict=True))
    fresh_cases = CitingContexts.over(case_citing_passages(  # indexed here, nothing written
        read_table(warehouse / "citation_mentions.parquet"), texts,
        citing_contexts._case_docs(warehouse)), texts)
    found = [fresh_cases.search(words, 5) for words in (query, "appeal dismissed evidence")]
    assert [cases.search(words, 5) for words in (query, "appeal dismissed evidence")] == found
    assert any(found)
