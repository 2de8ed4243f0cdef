"""Evaluation: runs of each retrieval config over each query set, metrics, and the report."""


import time
from datetime import UTC, datetime

import dagster as dg
import pandas as pd

from evals.configs import load_config
from evals.metrics import evaluate_by_tag
from evals.querysets import load_queryset, unknown_documents
from evals.report import markdown_table, write_report
from evals.runner import build_retriever, run_queryset
from evals.runs import write_trec
from nyaya.provenance import code_version, tree_fingerprint
from pipelines.resources import NyayaSettings

GROUP = "evaluation"
STATUTE_CONFIGS = ("bm25-sections",)


@dg.asset(group_name=GROUP)
def statute_retrieval_runs(context: dg.AssetExecutionContext, settings: NyayaSettings,
                           sections: pd.DataFrame) -> dg.Output:
    """A TREC run per (config, query set) in data/runs/<queryset>/<config>.trec."""
    data_dir = settings.resolved().data_dir
    frames = []
    for name in STATUTE_CONFIGS:
        config = load_config(name)
        started = time.perf_counter()
        retriever = build_retriever(config, sections)
        built = time.perf_counter() - started
        for queryset_name in config.params["querysets"]:
            queryset = load_queryset(queryset_name)
            missing = unknown_documents(queryset, set(sections["doc_id"]))
            if missing:
                raise dg.Failure(f"{queryset_name}: judged documents not in sections: {missing}")
            started = time.perf_counter()
            run = run_queryset(retriever, queryset, int(config.params["top_k"]))
            seconds = time.perf_counter() - started
            write_trec(run, data_dir / "runs" / queryset_name / f"{name}.trec", name,
                       queryset.queries["qid"].tolist())
            context.log.info(f"{name} on {queryset_name}: index {built:.1f}s, "
                             f"{len(queryset.queries)} queries in {seconds:.2f}s")
            frames.append(run.assign(config=name, config_hash=config.config_hash,
                                     queryset=queryset_name, index_seconds=round(built, 3),
                                     search_seconds=round(seconds, 3)))
    runs = pd.concat(frames, ignore_index=True)
    return dg.Output(runs, metadata={"runs": len(frames), "lines": len(runs)})


@dg.asset(group_name=GROUP)
def statute_retrieval_metrics(settings: NyayaSettings,
                              statute_retrieval_runs: pd.DataFrame) -> dg.Output:
    """ranx metrics per run, overall and by query type, with provenance on every row."""
    resolved = settings.resolved()
    fingerprint = tree_fingerprint(resolved.corpus_root, ("statutes", "mappings"))
    version = code_version()
    rows = []
    for (config, queryset_name), run in statute_retrieval_runs.groupby(["config", "queryset"]):
        queryset = load_queryset(queryset_name)
        table = evaluate_by_tag(run, queryset.qrels, queryset.tags("query_type"))
        rows.append(table.assign(config=config, queryset=queryset_name,
                                 config_hash=run["config_hash"].iloc[0],
                                 corpus_fingerprint=fingerprint, code_version=version,
                                 embedder="none", search_seconds=run["search_seconds"].iloc[0]))
    metrics = pd.concat(rows, ignore_index=True)
    lead = ["config", "queryset", "group", "queries"]
    metrics = metrics[lead + [c for c in metrics.columns if c not in lead]]
    headline = metrics[metrics["group"] == "all"][["config", "queryset", "queries",
                                                   "precision@3", "ndcg@10", "mrr"]]
    return dg.Output(metrics, metadata={"headline": dg.MetadataValue.md(markdown_table(headline))})


@dg.asset(group_name=GROUP)
def evaluation_report(context: dg.AssetExecutionContext, settings: NyayaSettings,
                      statute_retrieval_metrics: pd.DataFrame) -> dg.MaterializeResult:
    """data/reports/<date>/ and data/reports/latest/: report.md, report.html, metrics tables."""
    resolved = settings.resolved()
    now = datetime.now(UTC)
    first = statute_retrieval_metrics.iloc[0]
    provenance = {
        "generated": now.strftime("%Y-%m-%d %H:%M UTC"),
        "corpus": f"{resolved.corpus_root} (fingerprint {first['corpus_fingerprint']})",
        "code version": str(first["code_version"]),
        "configs": ", ".join(sorted(statute_retrieval_metrics["config"].unique())),
    }
    folder = write_report(statute_retrieval_metrics, provenance, resolved.data_dir / "reports",
                          now.strftime("%Y-%m-%d"))
    context.log.info(f"report written to {folder}")
    return dg.MaterializeResult(metadata={"path": dg.MetadataValue.path(str(folder)),
                                          "report": dg.MetadataValue.md(
                                              (folder / "report.md").read_text())})
