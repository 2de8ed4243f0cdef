"""Evaluation: runs of each retrieval config over each query set, metrics, and the report; the
loop itself is the evaluation library's (`evals/evaluate.py`)."""


import time
from datetime import UTC, datetime

import dagster as dg
import pandas as pd

from assets.sources import report_partitions
from evals import query_types
from evals.baseline import (
    BASELINES,
    NUMERICS_RULE,
    check_regression,
    failures,
    load_baseline,
    load_numerics,
    load_per_query,
    per_query_path,
)
from evals.compare import fusion_against_branches
from evals.configs import config_names, fused_branches
from evals.dense_training import train as train_encoder
from evals.evaluate import (
    EvaluationError,
    as_per_query,
    compare_to_bm25,
    query_scores,
    run_configs,
    score_runs,
)
from evals.numerics import measure_probes
from evals.querysets import load_queryset
from evals.ranking import train as train_ranker
from evals.relevance import PRECEDENTS, STATUTES, train
from evals.report import markdown_table, speed_table, write_report
from evals.verification import TARGETS as VERIFICATION_TARGETS
from evals.verification import verification_rates as rates_of
from nyaya.index.store import open_store
from nyaya.parallel import available_cores
from nyaya.provenance import source_fingerprint
from nyaya.retrieval.query_analysis import QueryAnalyzer
from nyaya.retrieval.section_encoder import encoder_path
from nyaya.settings import resolve
from nyaya.verify.relevance import RelevanceJudge
from nyaya.verify.statutes import StatuteChecker
from nyaya.verify.trained import model_path, ranker_path
from pipelines.resources import NyayaSettings, output_paths

GROUP = "evaluation"
CODE_VERSION = source_fingerprint(__name__)
ANALYZER_TABLES = ["act_registry", "law_transition_map", "judgments"]


#: One partition per retrieval config (evals/configs/*.yaml): a config can be materialized,
#: compared and backfilled on its own in the UI; `nyaya run` runs them all in one run
#: (single-run backfill), so the indexes and models load once per side, not once per config.
CONFIGS = dg.StaticPartitionsDefinition(config_names())


@dg.asset(group_name=GROUP, code_version=CODE_VERSION, partitions_def=CONFIGS,
          backfill_policy=dg.BackfillPolicy.single_run(),
          deps=["legal_sections_qdrant", "legal_sections_vectors", "legal_sections_documents",
                "legal_sections_faiss", "cross_references", "definitions_index",
                "sc_judgments_qdrant", "sc_judgments_vectors", "entity_index", "judgment_index",
                "citing_contexts_index", "judge_sections_index", "judgment_quarantine",
                "citation_graph_nodes",
                "citation_graph_edges",
                # the development sets are built from the judgments' citations
                "citation_mentions", "judgment_chunks", "section_ranker", "section_encoder",
                *ANALYZER_TABLES])
def retrieval_runs(context: dg.AssetExecutionContext, settings: NyayaSettings) -> dict:
    """Every config of the run's partitions through its side's one search: statute configs
    over legal_sections; precedent configs over sc_judgments, each query set within its
    candidate judgments (AILA's 2,914; IRLeD's 2,000 prior cases)."""
    frames: dict[str, list[pd.DataFrame]] = {}
    try:
        for config_run in run_configs(settings.resolved(), sorted(context.partition_keys),
                                      log=context.log.info, workers=available_cores()):
            frames.setdefault(config_run.config, []).append(config_run.frame())
    except EvaluationError as err:
        raise dg.Failure(str(err)) from err
    runs = {name: pd.concat(parts, ignore_index=True) for name, parts in frames.items()}
    report_partitions(context, runs, {name: {
        "query_sets": ", ".join(sorted(frame["queryset"].unique())),
        "queries": int(frame[["queryset", "qid"]].drop_duplicates().shape[0])}
        for name, frame in runs.items()})
    return runs


@dg.asset(group_name=GROUP, code_version=CODE_VERSION, partitions_def=CONFIGS,
          backfill_policy=dg.BackfillPolicy.single_run())
def retrieval_metrics(context: dg.AssetExecutionContext, settings: NyayaSettings,
                      retrieval_runs: pd.DataFrame) -> dict:
    """ranx metrics of each config's runs (precedent sets: judged queries only, AILA Q1-10
    and IRLeD dev)."""
    metrics = score_runs(settings.resolved(), retrieval_runs)
    headline = metrics[metrics["group"] == "all"][["config", "queryset", "queries",
                                                   "precision@3", "ndcg@10", "map", "mrr",
                                                   "median_ms"]]
    by_config = {name: frame.reset_index(drop=True) for name, frame in metrics.groupby("config")}
    report_partitions(context, by_config, {name: {"headline": dg.MetadataValue.md(
        markdown_table(headline[headline["config"] == name]))} for name in by_config})
    return by_config


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


@dg.asset(group_name=GROUP, code_version=CODE_VERSION,
          deps=["sections", "act_registry", "law_transition_map", "judgments",
                "citation_mentions", "judgment_chunks", "legal_sections_documents",
                "citation_graph_nodes", "citation_graph_edges", "judgment_index",
                "judge_sections_index"])
def relevance_model(context: dg.AssetExecutionContext,
                    settings: NyayaSettings) -> dg.MaterializeResult:
    """The relevance judge's two models, for sections and for precedents, trained on the
    training halves of the development sets and the question sets (evals/relevance.py), with their
    removal figures on the held-out halves."""
    resolved = settings.resolved()
    started = time.monotonic()
    metadata: dict = {}
    for name, model in zip((STATUTES, PRECEDENTS), train(resolved, available_cores()),
                           strict=True):
        path = model_path(resolved, name)
        model.save(path)
        metadata[f"{name}_path"] = dg.MetadataValue.path(str(path))
        metadata[f"{name}_cuts"] = dg.MetadataValue.json(
            {kind: vars(cuts) for kind, cuts in model.cuts.items()})
        metadata[f"{name}_held_out"] = dg.MetadataValue.json(model.figures["held_out"])
        metadata.update({f"{name}_{queryset}_{figure}": value
                         for queryset, figures in model.figures["held_out"].items()
                         for figure, value in figures.items()
                         if figure in ("not_applicable_precision", "not_applicable_recall",
                                       "relevant_removed_per_query")})
    context.log.info(f"relevance models trained in {time.monotonic() - started:.0f}s")
    return dg.MaterializeResult(metadata=metadata)


@dg.asset(group_name=GROUP, code_version=CODE_VERSION,
          deps=["legal_sections_qdrant", "legal_sections_vectors", "legal_sections_documents",
                "cross_references", "definitions_index", "sections", "judgments",
                "citation_mentions", "judgment_chunks", "citation_graph_nodes",
                "citation_graph_edges", "judgment_index", "judge_sections_index",
                "citing_contexts_index", *ANALYZER_TABLES])
def section_ranker(context: dg.AssetExecutionContext,
                   settings: NyayaSettings) -> dg.MaterializeResult:
    """The section ranker a reranking config uses (lookup-cases-ltr), trained on the fused
    candidates of the training halves of the question sets and cited-statutes
    (evals/ranking.py)."""
    resolved = settings.resolved()
    store = open_store(resolved.qdrant_path, resolved.qdrant_url, resolved.qdrant_api_key,
                       read_only=True)
    try:
        model = train_ranker(resolved, store, log=context.log.info)
    finally:
        store.close()
    path = ranker_path(resolved)
    model.save(path)
    context.log.info(f"section ranker trained in {model.figures['seconds']:.0f}s")
    return dg.MaterializeResult(metadata={"path": dg.MetadataValue.path(str(path)),
                                          "figures": dg.MetadataValue.json(model.figures)})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION,
          deps=["sections", "act_registry", "law_transition_map", "judgments",
                "citation_mentions", "judgment_chunks", "legal_sections_documents"])
def section_encoder(context: dg.AssetExecutionContext,
                    settings: NyayaSettings) -> dg.MaterializeResult:
    """The dense encoder the `dense-trained` configs search with: the distilled static model
    trained on the training halves of cited-statutes and the question sets
    (evals/dense_training.py), kept with every section's vector."""
    resolved = settings.resolved()
    encoder = train_encoder(resolved, log=context.log.info)
    path = encoder_path(resolved)
    encoder.save(path)
    return dg.MaterializeResult(metadata={"path": dg.MetadataValue.path(str(path)),
                                          "sections": len(encoder.doc_ids),
                                          "figures": dg.MetadataValue.json(encoder.figures)})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION,
          deps=["sections", "act_registry", "law_transition_map", "relevance_model",
                "judge_sections_index"])
def verification_rates(settings: NyayaSettings, retrieval_runs: pd.DataFrame) -> dg.Output:
    """The gate over what each statute config would pass to a user (its top 5 sections per
    nyaya-statutes question): overall-status rates, and false positives and relevant sections
    removed per held-out query (evals/verification.py), beside the served system's targets."""
    resolved = settings.resolved()
    table = rates_of(retrieval_runs, load_queryset("nyaya-statutes"),
                     StatuteChecker.from_settings(resolved),
                     RelevanceJudge.from_settings(resolved))
    return dg.Output(table, metadata={"targets": dg.MetadataValue.json(VERIFICATION_TARGETS),
                                      "table": dg.MetadataValue.md(markdown_table(table))})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def run_query_scores(settings: NyayaSettings, retrieval_runs: pd.DataFrame) -> dg.Output:
    """Each run's headline metrics on each query it is scored on (config, queryset, embedder,
    metric, qid, value): computed once, read by the comparison with BM25 and the regression
    check, since turning a run into ranx's typed dictionaries is most of a scoring's cost."""
    table = query_scores(settings.resolved(), retrieval_runs)
    return dg.Output(table, metadata={"rows": len(table),
                                      "runs": int(table.groupby(["config", "queryset"]).ngroups)})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def config_comparison(run_query_scores: pd.DataFrame) -> dg.Output:
    """Is a config really better than BM25? Paired tests with Holm correction and per-query
    win/tie/loss, per query set (evals/compare.py)."""
    table = compare_to_bm25(run_query_scores)
    significant = table[table["significant"]]
    return dg.Output(table, metadata={
        "significant": len(significant),
        "table": dg.MetadataValue.md(markdown_table(significant) if len(significant)
                                     else "no difference is significant after Holm")})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def regression_deltas(settings: NyayaSettings, retrieval_metrics: pd.DataFrame,
                      run_query_scores: pd.DataFrame) -> dg.Output:
    """Each config's headline metrics against the regression baseline (evals/baseline.py):
    ok / regressed / improved / missing / new / not_comparable, with the delta; a drop is
    tested query by query where the baseline kept its query scores, and nothing is compared
    for an embedder whose vectors are not the baseline's (evals/numerics.py)."""
    path = resolve(settings.baseline_path) if settings.baseline_path else BASELINES
    resolved = settings.resolved()
    kept = load_per_query(per_query_path(path))
    tonight = as_per_query(run_query_scores) if kept else {}
    kept_probes = load_numerics(path)
    probes = measure_probes(resolved, set(retrieval_metrics["embedder"]) & set(kept_probes))
    deltas = check_regression(retrieval_metrics, load_baseline(path), tonight, kept,
                              probes, kept_probes)
    counts = deltas["status"].value_counts().to_dict()
    other = sorted(deltas.loc[deltas["rule"] == NUMERICS_RULE, "embedder"].unique())
    return dg.Output(deltas, metadata={
        "baseline": dg.MetadataValue.path(str(path)),
        "other vectors": ", ".join(other) or "none",
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
    """`data/reports/<date>/` and `data/reports/latest/`: report.md, report.html, metrics
    tables."""
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
                           "each query set; win / tie / loss per query)": config_comparison,
                           "Fusion against its best branch (each set's measure; a fusion "
                           "that subtracts is dropped from the defaults, or its config file "
                           "says why it stays)": fusion_against_branches(
                               metrics, fused_branches())},
                          verification=verification_rates, regression=regression_deltas,
                          comparison=config_comparison)
    context.log.info(f"report written to {folder}")
    return dg.MaterializeResult(metadata={**output_paths(folder, resolved.data_dir),
                                          "report": dg.MetadataValue.md(
                                              (folder / "report.md").read_text())})
