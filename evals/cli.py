"""The evaluation library's commands: eval (any TREC run against a query set) and baseline."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from nyaya.settings import Settings
from nyaya.tables import read_table


def _eval(args: argparse.Namespace) -> int:
    """Any TREC run against any query set: the metrics table, overall and by group."""
    from evals.corpus_sets import CORPUS_SETS, load_any_queryset
    from evals.metrics import DEFAULT_METRICS, evaluate_groups
    from evals.querysets import QuerySetError
    from evals.report import markdown_table
    from evals.runs import TrecRunError, read_trec

    settings = Settings.from_env()
    try:
        run = read_trec(Path(args.run))
        judgments = (read_table(settings.table_path("judgments"))
                     if args.queryset in CORPUS_SETS else None)
        queryset = load_any_queryset(args.queryset, settings.corpus_root, judgments)
    except (OSError, TrecRunError, QuerySetError, ValueError) as err:
        print(f"nyaya eval: {err}", file=sys.stderr)
        return 2
    strangers = sorted(set(run["qid"]) - set(queryset.queries["qid"]))
    if strangers:
        print(f"nyaya eval: {args.run}: {len(strangers)} query ids are not in "
              f"{args.queryset} (e.g. {', '.join(strangers[:3])}): a run of another set?",
              file=sys.stderr)
        return 2
    metrics = tuple(args.metrics.split(",")) if args.metrics else DEFAULT_METRICS
    tags = {kind: queryset.tags(kind) for kind in args.by}
    try:
        table = evaluate_groups(run, queryset.qrels, tags, metrics)
    except (KeyError, ValueError) as err:
        print(f"nyaya eval: {err}", file=sys.stderr)
        return 2
    unanswered = len(set(queryset.qrels) - set(run["qid"]))
    if args.json:
        print(json.dumps({"run": args.run, "queryset": args.queryset,
                          "judged_queries": len(queryset.qrels), "unanswered": unanswered,
                          "rows": table.to_dict("records")}, indent=2))
    else:
        print(f"{args.run} on {args.queryset}: {len(queryset.qrels)} judged queries, "
              f"{unanswered} without a line in the run (scored 0)\n")
        print(markdown_table(table))
    return 0


def _baseline(args: argparse.Namespace) -> int:
    """Write the regression baseline from a metrics table (the latest report's by default)."""
    from evals.baseline import BASELINES, read_metrics, write_baseline

    source = Path(args.metrics) if args.metrics else (
        Settings.from_env().data_dir / "reports" / "latest" / "metrics.parquet")
    if not source.exists():
        print(f"nyaya baseline: no metrics table at {source}; run the evaluation first",
              file=sys.stderr)
        return 2
    target = Path(args.output) if args.output else BASELINES
    try:  # BaselineError (the existing baseline file) is a ValueError too
        count = write_baseline(read_metrics(source), target, tolerance=args.tolerance)
    except (OSError, ValueError) as err:
        print(f"nyaya baseline: {err}", file=sys.stderr)
        return 2
    print(f"{target}: {count} entries written from {source}")
    if target == BASELINES:  # the published results are the baseline's
        from evals.results_page import main as write_page

        return write_page([])
    return 0


def add_commands(commands: argparse._SubParsersAction) -> None:
    """eval and baseline."""
    evaluate = commands.add_parser(
        "eval", help="evaluate a TREC run file against a query set: exit 0, or 2 on bad input")
    evaluate.add_argument("run", help="a six-column TREC run")
    evaluate.add_argument("--queryset", required=True,
                          help="nyaya-statutes, transition, aila2019-statutes, "
                          "aila2019-precedents or irled2017-precedents")
    evaluate.add_argument("--metrics", default=None,
                          help="comma-separated ranx names (default: the report's)")
    evaluate.add_argument("--by", nargs="*", default=[], choices=["query_type", "domain"],
                          help="also break the metrics down by these query tags")
    evaluate.add_argument("--json", action="store_true")
    evaluate.set_defaults(handler=_eval)
    baseline = commands.add_parser(
        "baseline", help="write evals/baselines/regression.yaml from a metrics table")
    baseline.add_argument("--metrics", default=None,
                          help="metrics.parquet (default: data/reports/latest/metrics.parquet)")
    baseline.add_argument("--output", default=None, help="baseline YAML to write")
    baseline.add_argument("--tolerance", type=float, default=0.01,
                          help="default absolute tolerance for a new file")
    baseline.set_defaults(handler=_baseline)
