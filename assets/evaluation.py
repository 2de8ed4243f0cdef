"""Evaluation: runs of each retrieval config over each query set, metrics, and the report.
Statute and precedent configs run apart (never one mixed list), through one runs function."""


import json
from collections.abc import Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import dagster as dg
import pandas as pd

from evals import query_types
from evals.configs import configs_for, load_config
from evals.corpus_sets import CANDIDATE_SOURCES, load_any_queryset
from evals.metrics import evaluate_by_tag, evaluate_run
from evals.querysets import QuerySet, load_queryset, unknown_documents
from evals.report import markdown_table, speed_table, write_report
from evals.runner import load_precedent_resources, load_statute_resources, run_queryset
from evals.runs import write_trec
from evals.tuning import HELDOUT, fit, in_split, is_tuned
from nyaya.index.store import open_store
from nyaya.provenance import code_version, source_fingerprint, tree_fingerprint
from nyaya.retrieval.pipeline import StatuteSearch
from nyaya.retrieval.precedents import PrecedentSearch
from nyaya.retrieval.query_analysis import QueryAnalyzer
from nyaya.settings import Settings
from nyaya.tables import read_table
from pipelines.resources import NyayaSettings

GROUP = "evaluation"
CODE_VERSION = source_fingerprint(__name__)
ANALYZER_TABLES = ["act_registry", "law_transition_map", "judgments"]


def _runs(context: dg.AssetExecutionContext, settings: Settings, side: str,
          searcher: Callable, load: Callable, known: Callable) -> dg.Output:
    """A TREC run per (config, query set) in data/runs/<queryset>/<config>.trec."""
    store = open_store(settings.qdrant_path, settings.qdrant_url, settings.qdrant_api_key)
    judgments = read_table(settings.warehouse / "judgments.parquet") if side == "precedents" \
        else None
    # judged files the corpus ships empty: they stay in the qrels (an honest ceiling on
    # recall) and are counted, instead of failing the run
    empty = judged_empty_files(settings) if side == "precedents" else set()
    frames = []
    try:
        resources = load(settings, store)
        for name in configs_for(side):
            config = load_config(name)
            for queryset_name in config.params["querysets"]:
                queryset = load_any_queryset(queryset_name, settings.corpus_root, judgments)
                search, fitted = _search(searcher, name, config.params, resources, queryset)
                missing = unknown_documents(queryset, known(resources) | empty)
                if missing:
                    raise dg.Failure(f"{queryset_name}: judged documents not searchable by "
                                     f"{name}: {missing}")
                timed = run_queryset(search, queryset, int(config.params["top_k"]),
                                     CANDIDATE_SOURCES.get(queryset_name))
                write_trec(timed.run, settings.data_dir / "runs" / queryset_name /
                           f"{name}.trec", name, queryset.queries["qid"].tolist())
                context.log.info(f"{name} on {queryset_name}: {len(queryset.queries)} queries "
                                 f"in {timed.seconds:.2f}s, median {timed.median_ms:.2f} ms")
                frames.append(timed.run.assign(
                    config=name, config_hash=config.config_hash, queryset=queryset_name,
                    fitted_params=json.dumps(fitted, sort_keys=True) if fitted else "",
                    embedder=resources.embedder.name, search_seconds=round(timed.seconds, 3),
                    median_ms=round(timed.median_ms, 3),
                    queries_per_second=round(len(queryset.queries) / timed.seconds, 1)))
    finally:
        store.close()
    runs = pd.concat(frames, ignore_index=True)
    return dg.Output(runs, metadata={"runs": len(frames), "lines": len(runs),
                                     "judged_but_empty_in_corpus": len(empty)})


def _search(searcher: Callable, name: str, params: dict, resources,
            queryset: QuerySet) -> tuple[Any, dict]:
    """The config's search, and what was fitted for it: parameters marked `tuned` are fitted
    here, per query set, on its training queries (evals/tuning.py)."""
    if not is_tuned(params):
        return searcher(name, params, resources), {}
    if searcher is not StatuteSearch:
        raise dg.Failure(f"config {name}: tuned parameters exist for statute configs only")
    fitted_params, fitted = fit(lambda p: searcher(name, p, resources), params, queryset)
    return searcher(name, fitted_params, resources), fitted


def judged_empty_files(settings: Settings) -> set[str]:
    """Doc ids of judgment files quarantined as empty (e.g. IRLeD prior_case_0827)."""
    quarantine = read_table(settings.warehouse / "judgment_quarantine.parquet")
    empty = quarantine[quarantine["reason"] == "empty_file"]["source_file"]
    prefix = {"aila2019": "AILA:", "irled2017": "IRLED:"}
    return {prefix[Path(path).parts[1]] + Path(path).stem for path in empty
            if len(Path(path).parts) > 1 and Path(path).parts[1] in prefix}


@dg.asset(group_name=GROUP, code_version=CODE_VERSION,
          deps=["legal_sections_qdrant", "legal_sections_vectors", "legal_sections_documents",
                "legal_sections_faiss", "cross_references", "definitions_index",
                *ANALYZER_TABLES])
def statute_retrieval_runs(context: dg.AssetExecutionContext,
                           settings: NyayaSettings) -> dg.Output:
    """Every statute config in evals/configs/ through the one statute search."""
    return _runs(context, settings.resolved(), "statutes", StatuteSearch,
                 load_statute_resources, lambda r: set(r.documents["doc_id"]))


@dg.asset(group_name=GROUP, code_version=CODE_VERSION,
          deps=["sc_judgments_qdrant", "sc_judgments_vectors", "entity_index",
                "judgment_quarantine",
                "citation_graph_nodes", "citation_graph_edges", *ANALYZER_TABLES])
def precedent_retrieval_runs(context: dg.AssetExecutionContext,
                             settings: NyayaSettings) -> dg.Output:
    """Every precedent config through the one precedent search, each query set within its
    candidate judgments (AILA's 2,914; IRLeD's 2,000 prior cases)."""
    return _runs(context, settings.resolved(), "precedents", PrecedentSearch,
                 load_precedent_resources, lambda r: set(r.judgments["doc_id"]))


def _metrics(settings: Settings, runs: pd.DataFrame) -> dg.Output:
    """ranx metrics per run, overall and by query type, with provenance on every row."""
    fingerprint = tree_fingerprint(settings.corpus_root, ("statutes", "mappings", "judgments"))
    version = code_version()
    judgments = read_table(settings.warehouse / "judgments.parquet")
    querysets: dict[str, QuerySet] = {}
    rows = []
    for (config, queryset_name), run in runs.groupby(["config", "queryset"]):
        if queryset_name not in querysets:
            querysets[queryset_name] = load_any_queryset(queryset_name, settings.corpus_root,
                                                         judgments)
        queryset = querysets[queryset_name]
        qrels = queryset.qrels
        if is_tuned(load_config(config).params):  # never scored on what it was fitted on
            qrels = {qid: qrels[qid] for qid in in_split(qrels, HELDOUT)}
        heldout = {qid: qrels[qid] for qid in in_split(qrels, HELDOUT)}
        table = evaluate_by_tag(run, qrels, queryset.tags("query_type"))
        if heldout:
            table = pd.concat([table, pd.DataFrame([{"group": HELDOUT, "queries": len(heldout),
                                                     **evaluate_run(run, heldout)}])],
                              ignore_index=True)
        first = run.iloc[0]
        rows.append(table.assign(config=config, queryset=queryset_name,
                                 config_hash=first["config_hash"],
                                 fitted_params=first["fitted_params"],
                                 corpus_fingerprint=fingerprint, code_version=version,
                                 embedder=first["embedder"],
                                 search_seconds=first["search_seconds"],
                                 median_ms=first["median_ms"],
                                 queries_per_second=first["queries_per_second"]))
    metrics = pd.concat(rows, ignore_index=True)
    lead = ["config", "queryset", "group", "queries"]
    metrics = metrics[lead + [c for c in metrics.columns if c not in lead]]
    headline = metrics[metrics["group"] == "all"][["config", "queryset", "queries",
                                                   "precision@3", "ndcg@10", "map", "mrr",
                                                   "median_ms"]]
    return dg.Output(metrics, metadata={"headline": dg.MetadataValue.md(markdown_table(headline))})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def statute_retrieval_metrics(settings: NyayaSettings,
                              statute_retrieval_runs: pd.DataFrame) -> dg.Output:
    """Metrics of the statute runs."""
    return _metrics(settings.resolved(), statute_retrieval_runs)


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def precedent_retrieval_metrics(settings: NyayaSettings,
                                precedent_retrieval_runs: pd.DataFrame) -> dg.Output:
    """Metrics of the precedent runs (judged queries only: AILA Q1-10, IRLeD dev)."""
    return _metrics(settings.resolved(), precedent_retrieval_runs)


@dg.asset(group_name=GROUP, code_version=CODE_VERSION, deps=ANALYZER_TABLES)
def query_type_accuracy(settings: NyayaSettings) -> dg.Output:
    """The query analyzer's query_type against the labels: on the development set its rules
    were written on, and on nyaya-statutes, held out for it."""
    analyzer = QueryAnalyzer.from_warehouse(settings.resolved().warehouse)
    rows = []
    for name, queries, role in (
            ("query-types-dev", query_types.load_dev_queries(), "development"),
            ("nyaya-statutes", load_queryset("nyaya-statutes").queries, "held out")):
        score = query_types.query_type_accuracy(analyzer, queries)
        totals = {"all": (round(score.accuracy * score.count), score.count), **score.per_type}
        rows += [{"queryset": name, "role": role, "query_type": kind, "correct": correct,
                  "total": total, "accuracy": correct / total}
                 for kind, (correct, total) in totals.items()]
    table = pd.DataFrame(rows)
    held_out = table.query("role == 'held out' and query_type == 'all'").iloc[0]
    return dg.Output(table, metadata={
        "held_out_accuracy": float(held_out["accuracy"]),
        "table": dg.MetadataValue.md(markdown_table(table))})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def evaluation_report(context: dg.AssetExecutionContext, settings: NyayaSettings,
                      statute_retrieval_metrics: pd.DataFrame,
                      precedent_retrieval_metrics: pd.DataFrame,
                      query_type_accuracy: pd.DataFrame) -> dg.MaterializeResult:
    """data/reports/<date>/ and data/reports/latest/: report.md, report.html, metrics tables."""
    resolved = settings.resolved()
    now = datetime.now(UTC)
    metrics = pd.concat([statute_retrieval_metrics, precedent_retrieval_metrics],
                        ignore_index=True)
    first = metrics.iloc[0]
    provenance = {
        "generated": now.strftime("%Y-%m-%d %H:%M UTC"),
        "corpus": f"{resolved.corpus_root} (fingerprint {first['corpus_fingerprint']})",
        "code version": str(first["code_version"]),
        "configs": ", ".join(sorted(metrics["config"].unique())),
    }
    folder = write_report(metrics, provenance, resolved.data_dir / "reports",
                          now.strftime("%Y-%m-%d"),
                          {"Speed: one query (median) and the whole set": speed_table(metrics),
                           "Query-type accuracy of the query analyzer": query_type_accuracy})
    context.log.info(f"report written to {folder}")
    return dg.MaterializeResult(metadata={"path": dg.MetadataValue.path(str(folder)),
                                          "report": dg.MetadataValue.md(
                                              (folder / "report.md").read_text())})
