"""The evaluation library's commands: search (a question, or a topics file, through a
retrieval config), eval (TREC runs against qrels or a query set) and baseline."""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING

import pandas as pd

from nyaya.settings import Settings
from nyaya.tables import read_table

if TYPE_CHECKING:
    from evals.querysets import QuerySet


class _BadInput(ValueError):
    """An eval input that cannot be scored: `<file>: <what is wrong>`, printed as it is."""


def _run_names(paths: list[str]) -> dict[str, str]:
    """Path -> the run's name in the tables: its file stem, or the path as given where two runs
    share a stem (a comparison must never pit a run against one of the same name)."""
    repeated = sorted({path for path in paths if paths.count(path) > 1})
    if repeated:
        raise _BadInput(f"{repeated[0]}: given twice")
    stems = Counter(Path(path).stem for path in paths)
    return {path: Path(path).stem if stems[Path(path).stem] == 1 else path for path in paths}


def _judgments(args: argparse.Namespace
               ) -> tuple[str, dict[str, dict[str, int]], QuerySet | None]:
    """(what the runs are scored on, its qrels, the query set or None): a TREC qrels file has
    judgments but no query tags; a named set has both."""
    from evals.corpus_sets import CORPUS_SETS, load_any_queryset
    from evals.querysets import read_qrels_lines

    if args.qrels:
        qrels: dict[str, dict[str, int]] = {}
        for _, qid, doc_id, grade in read_qrels_lines(Path(args.qrels), "qid 0 doc_id grade"):
            qrels.setdefault(qid, {})[doc_id] = grade
        if not qrels:
            raise _BadInput(f"{args.qrels}: no judgments")
        return args.qrels, qrels, None
    settings = Settings.from_env()
    judgments = (read_table(settings.table_path("judgments"))
                 if args.queryset in CORPUS_SETS else None)
    queryset = load_any_queryset(args.queryset, settings.corpus_root, judgments,
                                 settings.warehouse)
    return args.queryset, queryset.qrels, queryset


def per_query_table(run: pd.DataFrame, qrels: dict[str, dict[str, int]],
                    metrics: tuple[str, ...]) -> pd.DataFrame:
    """Long rows (qid, metric, value) as `trec_eval -q` prints them: per metric, each judged
    query (an unanswered one scores 0), then its mean as qid 'all', the figure the metrics
    table reports; a mean gain is read against the queries that carry it."""
    from evals.metrics import per_query_scores

    scores = per_query_scores(run, qrels, metrics)
    scores.loc["all"] = scores.mean()
    return scores.reset_index().melt(id_vars="qid", var_name="metric", value_name="value")


def _comparison(frames: dict[str, pd.DataFrame], qrels: dict[str, dict[str, int]],
                metrics: tuple[str, ...]) -> tuple[pd.DataFrame, list[str]]:
    """Every run against the first (the baseline), paired Student t-test, Holm across the
    table; with the metrics left out of the tests (ours, `own_metric`: judged@k and
    repealed@k describe a run's coverage, not its quality, and bpref is the tracks' figure)."""
    from evals.compare import compare_configs
    from evals.metrics import own_metric

    tested = [m for m in metrics if not own_metric(m)]
    left_out = [m for m in metrics if own_metric(m)]
    if not tested:
        return pd.DataFrame(), left_out
    return compare_configs(frames, qrels, next(iter(frames)), tested), left_out


@dataclass(frozen=True)
class _Inputs:
    source: str  # the qrels file or query set the runs are scored on
    qrels: dict[str, dict[str, int]]
    queryset: QuerySet | None  # None for a qrels file: no query tags
    runs: dict[str, pd.DataFrame]  # by name (_run_names), in the order given
    paths: dict[str, str]  # name -> the path as given
    tags: dict[str, dict[str, str]]  # --by kind -> qid -> tag


def _inputs(args: argparse.Namespace) -> _Inputs:
    """Everything eval reads, checked before anything is scored: run names, what the runs are
    scored on, the runs and the tags of --by. Raises ValueError (`<file>: <what is wrong>`)
    or OSError."""
    from evals.runs import read_trec

    if args.by and args.qrels:
        raise _BadInput(f"{args.qrels}: a qrels file has no query tags to break the metrics "
                        f"down by (--by {' '.join(args.by)}); use --queryset")
    names = _run_names(args.runs)
    source, qrels, queryset = _judgments(args)
    frames = {names[path]: read_trec(Path(path)) for path in args.runs}
    tags: dict[str, dict[str, str]] = {}
    for kind in args.by:
        tags[kind] = queryset.tags(kind)
        if not tags[kind]:
            raise _BadInput(f"{source}: no query of the set has a {kind!r} field, so --by "
                            f"{kind} has nothing to break the metrics down by")
    if queryset is not None:
        for path in args.runs:
            strangers = sorted(set(frames[names[path]]["qid"]) - set(queryset.queries["qid"]))
            if strangers:
                raise _BadInput(f"{path}: {len(strangers)} query ids are not in {source} "
                                f"(e.g. {', '.join(strangers[:3])}): a run of another set?")
    return _Inputs(source, qrels, queryset, frames, {names[path]: path for path in args.runs},
                   tags)


def _eval(args: argparse.Namespace) -> int:
    """TREC runs against a qrels file or a query set, as trec_eval and ranx score them: each
    run's metrics (overall and by group), per query if asked, and the runs after the first
    compared against it with paired tests."""
    from evals.metrics import DEFAULT_METRICS, evaluate_groups
    from evals.report import markdown_table

    metrics = tuple(args.metrics.split(",")) if args.metrics else DEFAULT_METRICS
    try:
        given = _inputs(args)
    except OSError as err:
        print(f"nyaya eval: {err.filename}: {err.strerror}" if err.filename else
              f"nyaya eval: {err}", file=sys.stderr)
        return 2
    except ValueError as err:  # _BadInput, TrecRunError, QuerySetError: file and line named
        print(f"nyaya eval: {err}", file=sys.stderr)
        return 2
    qrels, runs = given.qrels, given.runs
    try:
        tables = {name: evaluate_groups(run, qrels, given.tags, metrics)
                  for name, run in runs.items()}
    except (KeyError, ValueError) as err:
        print(f"nyaya eval: --metrics {','.join(metrics)}: {err}", file=sys.stderr)
        return 2
    per_query = (pd.concat([per_query_table(run, qrels, metrics).assign(run=name)
                            for name, run in runs.items()], ignore_index=True)
                 [["run", "qid", "metric", "value"]] if args.per_query else None)
    try:
        comparison, untested = (_comparison(runs, qrels, metrics) if len(runs) > 1
                                else (None, []))
    except ValueError as err:  # a run that answers none of the judged queries
        print(f"nyaya eval: {err}", file=sys.stderr)
        return 2
    summaries = [{"run": given.paths[name], "name": name,
                  "unanswered": len(set(qrels) - set(run["qid"])),
                  "unjudged": len(set(run["qid"]) - set(qrels)),
                  "rows": tables[name].to_dict("records")} for name, run in runs.items()]
    if args.json:
        report = {"qrels" if given.queryset is None else "queryset": given.source,
                  "judged_queries": len(qrels), "runs": summaries}
        if per_query is not None:
            report["per_query"] = per_query.to_dict("records")
        if comparison is not None:
            report["comparison"] = comparison.to_dict("records")
        print(json.dumps(report, indent=2))
        return 0
    for summary in summaries:
        unjudged = (f", {summary['unjudged']} of its queries not judged (not scored)"
                    if given.queryset is None else "")
        print(f"{summary['run']} on {given.source}: {len(qrels)} judged queries, "
              f"{summary['unanswered']} without a line in the run (scored 0){unjudged}\n")
        print(markdown_table(tables[summary["name"]]) + "\n")
    if per_query is not None:
        print("per query (as trec_eval -q):\n")
        print(markdown_table(per_query) + "\n")
    if comparison is not None:
        untested_note = (f"; not tested (no per-query ranx score): {', '.join(untested)}"
                         if untested else "")
        print(f"against {summaries[0]['name']} (the first run): paired Student t-test, "
              f"Holm-corrected over the table's {len(comparison)} tests{untested_note}\n")
        if not comparison.empty:
            print(markdown_table(comparison) + "\n")
    return 0


def _search(args: argparse.Namespace) -> int:
    """A question through one config (pyserini's search, for one question); or a topics file
    through one config or several, each written as a TREC run."""
    from evals.search import Searcher
    from nyaya.index.embedders import quiet_model_loading

    if bool(args.question) == bool(args.topics):
        print("nyaya search: " + ("a question or --topics, not both" if args.question else
                                  "a question, or --topics FILE with --output"),
              file=sys.stderr)
        return 2
    quiet_model_loading()
    question = " ".join(args.question)
    searcher = Searcher(Settings.from_env(), args.relevance_judge)
    try:
        if args.topics:
            return _search_topics(args, searcher)
        answer = searcher.search(question, side=args.side, config=args.config,
                                 k=10 if args.k is None else args.k, as_of=args.as_of,
                                 verify=args.verify)
    except (OSError, ValueError) as err:  # SearchError; a missing or damaged table
        print(f"nyaya search: {err}", file=sys.stderr)
        return 2
    finally:
        searcher.close()
    if args.json:
        print(json.dumps(answer.to_dict(), ensure_ascii=False, indent=2))
    else:
        from evals.search import render_answer

        print(render_answer(answer))
    return 0


def _search_topics(args: argparse.Namespace, searcher) -> int:
    """Every question of --topics through each config: --output is the run file for one
    config, the folder of `<config>.trec` files for --configs."""
    from evals.runs import write_trec
    from evals.search import SearchError, check_k, read_topics

    if not args.output:
        raise SearchError("--topics needs --output (a run file, or a folder with --configs)")
    names = args.configs.split(",") if args.configs else [args.config]
    configs = [searcher.config(name, args.side) for name in names]
    topics = read_topics(Path(args.topics))
    output = Path(args.output)
    for config in configs:
        target = output / f"{config.name}.trec" if args.configs else output
        k = check_k(int(config.params["top_k"]) if args.k is None else args.k)
        run = searcher.run(topics, config, k)
        write_trec(run, target, config.name, topics["qid"].tolist())
        print(f"{config.name}: {len(topics)} questions -> {target}", file=sys.stderr)
    return 0


def _write_query_scores(target: Path, source: Path, metrics: pd.DataFrame) -> str:
    """Keep each run's query scores beside the baseline, so the check can test a drop query by
    query: those of the runs table of the data folder whose report `source` is
    (<data>/reports/<run>/metrics.parquet; another build's, with --metrics). Without that table
    the entries' old query scores are forgotten, not left to pair with new expectations.
    Says what it wrote."""
    from evals.baseline import KEY, per_query_path, write_per_query
    from evals.evaluate import query_scores

    source = source.resolve()
    data_dir = source.parents[2] if len(source.parents) > 2 else source.parent
    parts = sorted((data_dir / "warehouse" / "retrieval_runs").glob("*.parquet"))
    if not parts:
        write_per_query(pd.DataFrame(columns=[*KEY, "metric", "qid", "value"]),
                        per_query_path(target), forget=metrics[KEY])
        return (f"no runs table in {data_dir / 'warehouse'}: the query scores of these "
                "entries are not kept, and the check falls back to the tolerance for them")
    runs = pd.concat([read_table(part) for part in parts], ignore_index=True)
    settings = replace(Settings.from_env(), data_dir=data_dir)
    written = write_per_query(query_scores(settings, runs), per_query_path(target))
    return f"query scores of {written} runs of {data_dir} in {per_query_path(target)}"


def _baseline(args: argparse.Namespace) -> int:
    """Write the regression baseline from a metrics table (the latest report's by default)."""
    from evals.baseline import BASELINES, read_metrics, write_baseline
    from evals.numerics import measure_probes

    source = Path(args.metrics) if args.metrics else (
        Settings.from_env().data_dir / "reports" / "latest" / "metrics.parquet")
    if not source.exists():
        print(f"nyaya baseline: no metrics table at {source}; run the evaluation first",
              file=sys.stderr)
        return 2
    target = Path(args.output) if args.output else BASELINES
    try:  # BaselineError (the existing baseline file) is a ValueError too
        metrics = read_metrics(source)
        count = write_baseline(metrics, target, tolerance=args.tolerance,
                               probes=measure_probes(Settings.from_env(), metrics["embedder"]))
        kept = _write_query_scores(target, source, metrics)
    except (OSError, ValueError) as err:
        print(f"nyaya baseline: {err}", file=sys.stderr)
        return 2
    print(f"{target}: {count} entries written from {source}; {kept}")
    if target == BASELINES:  # the published results are the baseline's
        from evals.results_page import main as write_page

        return write_page([])
    return 0


def add_commands(commands: argparse._SubParsersAction,
                 judge: Callable[[Settings], object] | None = None) -> None:
    """search, eval and baseline; `search --verify` judges relevance with `judge`. Nothing
    of the evaluation library is imported here: every command of the CLI would wait for it
    (about 3 s)."""
    search = commands.add_parser(
        "search", help="ranked statute sections or judgments for a question, or a TREC run "
        "for a topics file: exit 0, or 2 on bad input")
    search.add_argument("question", nargs="*", help="the question (quoted or not)")
    search.add_argument("--side", choices=["statutes", "precedents", "aila-statutes"],
                        default=None, help="what to search (default: statutes, or the "
                        "config's side)")
    search.add_argument("--config", default=None,
                        help="a config of evals/configs (default: the side's best, "
                        "docs/retrieval.md)")
    search.add_argument("-k", type=int, default=None,
                        help="results per question (default 10; with --topics the "
                        "config's top_k)")
    search.add_argument("--as-of", type=date.fromisoformat, default=None, metavar="YYYY-MM-DD",
                        help="date of the conduct: the new codes' sections for conduct on or "
                        "after 2024-07-01")
    search.add_argument("--verify", action="store_true",
                        help="run the verification gate on the sections found, judged against "
                        "the question")
    search.add_argument("--json", action="store_true", help="print a JSON object")
    search.add_argument("--topics", metavar="FILE",
                        help="questions as JSONL (qid, query, as_of) or TSV (qid<TAB>query)")
    search.add_argument("--configs", metavar="A,B",
                        help="with --topics: one run per config, in the --output folder")
    search.add_argument("--output", metavar="PATH", help="with --topics: the TREC run file "
                        "(a folder with --configs)")
    search.set_defaults(handler=_search, relevance_judge=judge)
    evaluate = commands.add_parser(
        "eval", help="evaluate TREC runs against a qrels file or a query set, and compare "
        "them: exit 0, or 2 on bad input")
    evaluate.add_argument("runs", nargs="+", metavar="RUN",
                          help="six-column TREC runs; the first is the comparison's baseline")
    judged = evaluate.add_mutually_exclusive_group(required=True)
    judged.add_argument("--qrels", metavar="FILE",
                        help="a TREC qrels file ('qid 0 doc_id grade'); no query tags")
    judged.add_argument("--queryset", metavar="NAME",
                        help="nyaya-statutes, transition, aila2019-statutes, "
                        "aila2019-precedents or irled2017-precedents")
    evaluate.add_argument("--metrics", default=None,
                          help="comma-separated ranx names (default: the report's)")
    evaluate.add_argument("--by", nargs="*", default=[], choices=["query_type", "domain"],
                          help="also break the metrics down by these query tags "
                          "(--queryset only)")
    evaluate.add_argument("--per-query", action="store_true",
                          help="every metric per judged query, then 'all' (trec_eval -q)")
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
