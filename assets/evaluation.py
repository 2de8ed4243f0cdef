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
from evals.baseline import check_regression, failures, load_baseline
from evals.compare import compare_configs
from evals.configs import config_names, configs_for, load_config
from evals.corpus_sets import CANDIDATE_SOURCES, absent_aila_statutes, load_any_queryset
from evals.metrics import DEFAULT_METRICS, STATUTE_METRICS, evaluate_groups
from evals.querysets import QuerySet, load_queryset, unknown_documents
from evals.report import markdown_table, speed_table, write_report
from evals.runner import SIDES, group_tags, run_queryset, statute_side
from evals.runs import write_trec
from evals.tuning import HELDOUT, fit, in_split, is_tuned
from evals.verification import TARGETS as VERIFICATION_TARGETS
from evals.verification import verification_rates as rates_of
from nyaya.index.store import open_store
from nyaya.provenance import code_version, source_fingerprint, tree_fingerprint
from nyaya.retrieval.pipeline import StatuteSearch
from nyaya.retrieval.query_analysis import QueryAnalyzer
from nyaya.settings import Settings
from nyaya.tables import read_table
from nyaya.verify.relevance import RelevanceJudge
from nyaya.verify.statutes import StatuteChecker
from pipelines.resources import NyayaSettings

GROUP = "evaluation"
CODE_VERSION = source_fingerprint(__name__)
ANALYZER_TABLES = ["act_registry", "law_transition_map", "judgments"]


#: One partition per retrieval config (evals/configs/*.yaml): a config can be materialized,
#: compared and backfilled on its own in the UI; `nyaya run` runs them all in one run
#: (single-run backfill), so the indexes and models load once per side, not once per config.
CONFIGS = dg.StaticPartitionsDefinition(config_names())


def _runs(context: dg.AssetExecutionContext, settings: Settings) -> dict[str, pd.DataFrame]:
    """The configs of this run's partitions, statutes and precedents apart (never one mixed
    list): a TREC run per (config, query set) in data/runs/<queryset>/<config>.trec."""
    runs: dict[str, pd.DataFrame] = {}
    names = sorted(context.partition_keys)
    for side, (searcher, load) in SIDES.items():
        chosen = [name for name in configs_for(side) if name in names]
        if chosen:
            runs |= _side_runs(context, settings, side, chosen, searcher, load)
    return runs


def _side_runs(context: dg.AssetExecutionContext, settings: Settings, side: str,
               names: list[str], searcher: Callable, load: Callable) -> dict[str, pd.DataFrame]:
    store = open_store(settings.qdrant_path, settings.qdrant_url, settings.qdrant_api_key)
    precedents = side == "precedents"
    judgments = read_table(settings.warehouse / "judgments.parquet") if precedents else None
    # judged files the corpus ships empty or lacks: they stay in the qrels (an honest ceiling
    # on recall) and are counted, instead of failing the run
    empty = (judged_empty_files(settings) if precedents else
             absent_aila_statutes(settings.corpus_root) if side == "aila-statutes" else set())
    if empty:
        context.log.info(f"{len(empty)} judged documents are empty or absent files in the "
                         f"corpus: kept in the qrels as misses ({', '.join(sorted(empty))})")
    runs = {}
    try:
        resources = load(settings, store)
        known = set((resources.judgments if precedents else resources.documents)["doc_id"])
        for name in names:
            config = load_config(name)
            frames = []
            for queryset_name in config.params["querysets"]:
                queryset = load_any_queryset(queryset_name, settings.corpus_root, judgments)
                search, fitted = _search(searcher, name, config.params, resources, queryset)
                missing = unknown_documents(queryset, known | empty)
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
            runs[name] = pd.concat(frames, ignore_index=True)
    finally:
        store.close()
    return runs


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


@dg.asset(group_name=GROUP, code_version=CODE_VERSION, partitions_def=CONFIGS,
          backfill_policy=dg.BackfillPolicy.single_run(),
          deps=["legal_sections_qdrant", "legal_sections_vectors", "legal_sections_documents",
                "legal_sections_faiss", "cross_references", "definitions_index",
                "sc_judgments_qdrant", "sc_judgments_vectors", "entity_index",
                "judgment_quarantine", "citation_graph_nodes", "citation_graph_edges",
                *ANALYZER_TABLES])
def retrieval_runs(context: dg.AssetExecutionContext, settings: NyayaSettings) -> dict:
    """Every config of the run's partitions through its side's one search: statute configs
    over legal_sections; precedent configs over sc_judgments, each query set within its
    candidate judgments (AILA's 2,914; IRLeD's 2,000 prior cases)."""
    runs = _runs(context, settings.resolved())
    context.add_output_metadata({"configs": len(runs),
                                 "lines": sum(len(frame) for frame in runs.values())})
    return runs


def _metrics(settings: Settings, runs: pd.DataFrame) -> pd.DataFrame:
    """ranx metrics per run: overall, by query type, domain and split, with provenance on
    every row (corpus fingerprint, code version, config hash, embedder, date, timings)."""
    fingerprint = tree_fingerprint(settings.corpus_root, ("statutes", "mappings", "judgments"))
    version = code_version()
    evaluated_at = datetime.now(UTC).isoformat(timespec="seconds")
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
        table = evaluate_groups(run, qrels, group_tags(queryset),
                                STATUTE_METRICS if statute_side(config) else DEFAULT_METRICS)
        first = run.iloc[0]
        rows.append(table.assign(config=config, queryset=queryset_name,
                                 config_hash=first["config_hash"],
                                 fitted_params=first["fitted_params"],
                                 corpus_fingerprint=fingerprint, code_version=version,
                                 evaluated_at=evaluated_at, embedder=first["embedder"],
                                 search_seconds=first["search_seconds"],
                                 median_ms=first["median_ms"],
                                 queries_per_second=first["queries_per_second"]))
    metrics = pd.concat(rows, ignore_index=True)
    lead = ["config", "queryset", "group_kind", "group", "queries"]
    return metrics[lead + [c for c in metrics.columns if c not in lead]]


@dg.asset(group_name=GROUP, code_version=CODE_VERSION, partitions_def=CONFIGS,
          backfill_policy=dg.BackfillPolicy.single_run())
def retrieval_metrics(context: dg.AssetExecutionContext, settings: NyayaSettings,
                      retrieval_runs: pd.DataFrame) -> dict:
    """ranx metrics of each config's runs (precedent sets: judged queries only, AILA Q1-10
    and IRLeD dev)."""
    metrics = _metrics(settings.resolved(), retrieval_runs)
    headline = metrics[metrics["group"] == "all"][["config", "queryset", "queries",
                                                   "precision@3", "ndcg@10", "map", "mrr",
                                                   "median_ms"]]
    context.add_output_metadata({"headline": dg.MetadataValue.md(markdown_table(headline))})
    return {name: frame.reset_index(drop=True) for name, frame in metrics.groupby("config")}


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


@dg.asset(group_name=GROUP, code_version=CODE_VERSION, deps=["sections", "act_registry",
                                                            "law_transition_map"])
def verification_rates(settings: NyayaSettings, retrieval_runs: pd.DataFrame) -> dg.Output:
    """The gate over what each statute config would pass to a user (its top 5 sections per
    nyaya-statutes question): overall-status rates and false positives per query
    (evals/verification.py), beside the served system's targets."""
    resolved = settings.resolved()
    table = rates_of(retrieval_runs, load_queryset("nyaya-statutes"),
                     StatuteChecker.from_settings(resolved),
                     RelevanceJudge.from_settings(resolved, querysets=()))
    return dg.Output(table, metadata={"targets": dg.MetadataValue.json(VERIFICATION_TARGETS),
                                      "table": dg.MetadataValue.md(markdown_table(table))})


#: The reference each query set's configs are tested against: plain BM25 on every side.
COMPARISON_BASELINES = {"nyaya-statutes": "bm25-sections", "transition": "bm25-sections",
                        "aila2019-statutes": "aila-statutes-bm25",
                        "aila2019-precedents": "precedents-sparse",
                        "irled2017-precedents": "precedents-sparse"}


def comparisons(settings: Settings, runs: pd.DataFrame) -> pd.DataFrame:
    """Per query set, every config against its BM25 baseline: paired t-test on nDCG@10 and
    MAP with Holm across the set's comparisons, and win/tie/loss per query. Tuned configs are
    compared on the held-out queries they are scored on, in a table of their own."""
    judgments = read_table(settings.warehouse / "judgments.parquet")
    tables = []
    for queryset_name, group in runs.groupby("queryset"):
        baseline = COMPARISON_BASELINES.get(queryset_name)
        by_config = {name: frame for name, frame in group.groupby("config")}
        if baseline not in by_config or len(by_config) < 2:
            continue
        qrels = load_any_queryset(queryset_name, settings.corpus_root, judgments).qrels
        tuned = {name for name in by_config if is_tuned(load_config(name).params)}
        plain = {name: frame for name, frame in by_config.items() if name not in tuned}
        held = {name: frame for name, frame in by_config.items()
                if name in tuned or name == baseline}
        for subset, scope, judged in (
                (plain, "all judged", qrels),
                (held, "held out", {q: qrels[q] for q in in_split(qrels, HELDOUT)})):
            if len(subset) > 1 and judged:
                tables.append(compare_configs(subset, judged, baseline).assign(
                    queryset=queryset_name, scope=scope))
    table = pd.concat(tables, ignore_index=True)
    lead = ["queryset", "scope", "config", "baseline", "metric"]
    return table[lead + [c for c in table.columns if c not in lead]]


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def config_comparison(settings: NyayaSettings, retrieval_runs: pd.DataFrame) -> dg.Output:
    """Is a config really better than BM25? Paired tests with Holm correction and per-query
    win/tie/loss, per query set (evals/compare.py)."""
    table = comparisons(settings.resolved(), retrieval_runs)
    significant = table[table["significant"]]
    return dg.Output(table, metadata={
        "significant": len(significant),
        "table": dg.MetadataValue.md(markdown_table(significant) if len(significant)
                                     else "no difference is significant after Holm")})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def regression_deltas(settings: NyayaSettings, retrieval_metrics: pd.DataFrame) -> dg.Output:
    """Each config's headline metrics against the regression baseline (evals/baseline.py):
    ok / regressed / improved / missing / new / not_comparable, with the delta."""
    path = settings.baseline_file()
    deltas = check_regression(retrieval_metrics, load_baseline(path))
    counts = deltas["status"].value_counts().to_dict()
    return dg.Output(deltas, metadata={"baseline": dg.MetadataValue.path(str(path)),
                                       **{status: int(n) for status, n in counts.items()}})


@dg.asset_check(asset=regression_deltas, description="No baselined metric fell beyond its "
                "tolerance and no baselined config is missing (evals/baselines/).")
def no_metric_regressed(regression_deltas: pd.DataFrame) -> dg.AssetCheckResult:
    failed = failures(regression_deltas)
    return dg.AssetCheckResult(
        passed=failed.empty, severity=dg.AssetCheckSeverity.ERROR,
        metadata={"failed": len(failed), "compared": int(
            regression_deltas["status"].isin(["ok", "regressed", "improved"]).sum()),
            "table": dg.MetadataValue.md(markdown_table(failed) if len(failed) else "none")})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def evaluation_report(context: dg.AssetExecutionContext, settings: NyayaSettings,
                      retrieval_metrics: pd.DataFrame,
                      query_type_accuracy: pd.DataFrame,
                      verification_rates: pd.DataFrame,
                      regression_deltas: pd.DataFrame,
                      config_comparison: pd.DataFrame) -> dg.MaterializeResult:
    """data/reports/<date>/ and data/reports/latest/: report.md, report.html, metrics tables."""
    resolved = settings.resolved()
    now = datetime.now(UTC)
    metrics = retrieval_metrics
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
                           "Query-type accuracy of the query analyzer": query_type_accuracy,
                           "Verification of each config's top 5 (targets: "
                           + ", ".join(f"{k} {v}" for k, v in VERIFICATION_TARGETS.items())
                           + ")": verification_rates,
                           "Significance against BM25 (paired t-test, Holm-corrected within "
                           "each query set; win / tie / loss per query)": config_comparison},
                          verification=verification_rates, regression=regression_deltas)
    context.log.info(f"report written to {folder}")
    return dg.MaterializeResult(metadata={"path": dg.MetadataValue.path(str(folder)),
                                          "report": dg.MetadataValue.md(
                                              (folder / "report.md").read_text())})
