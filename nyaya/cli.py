"""The `nyaya` command line."""

from __future__ import annotations

import argparse
import functools
import json
import sys
from collections import Counter
from collections.abc import Callable
from datetime import date
from pathlib import Path

from nyaya.lookup import StatuteLookup, read_sections, render_block
from nyaya.settings import Settings, SettingsError
from nyaya.statutes.registry import alias_index_from_rows
from nyaya.tables import read_table

#: a partitioned job's partitions to run, with why (see pipelines.freshness)
Chooser = Callable[[], dict[str, str]]


def load_lookup(settings: Settings) -> StatuteLookup:
    """The exact-lookup index over the built tables in the warehouse."""
    registry = read_table(settings.table_path("act_registry"))
    sections = read_sections(settings.table_path("sections"))
    transitions = read_table(settings.table_path("law_transition_map"))
    return StatuteLookup(
        registry.to_dict("records"),
        sections.to_dict("records"),
        transitions.to_dict("records"),
        alias_index_from_rows(registry.to_dict("records")),
    )


def _lookup(args: argparse.Namespace) -> int:
    try:  # a missing table, or a CorruptTableError / a table without its columns (ValueError)
        lookup = load_lookup(Settings.from_env())
    except (OSError, ValueError) as err:
        print(f"nyaya lookup: {err}", file=sys.stderr)
        return 2
    result = lookup.lookup(" ".join(args.citation))
    if args.json:
        print(json.dumps(result.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(render_block(result))
    return 0 if result.found else 1


def _load_case_verifier(settings: Settings, llm=None):
    """The case verifier when its module and tables exist; else None and why not."""
    try:
        from nyaya.verify.cases import load_case_verifier
    except ImportError:
        return None, "case citations not checked: the case verifier is not available"
    try:
        return load_case_verifier(settings, llm), None
    except FileNotFoundError as err:
        return None, f"case citations not checked: {err}"


def _verify(args: argparse.Namespace) -> int:
    from nyaya.verify.gate import NO_CASE_VERIFIER, render_blocks, verify_text
    from nyaya.verify.model import OVERALL_VERIFIED
    from nyaya.verify.statutes import StatuteChecker

    settings = Settings.from_env()
    try:
        checker = StatuteChecker.from_settings(settings)
        llm = _llm(settings) if args.llm else None
        judge = None
        if args.query:  # the judge's module loads retrieval code: only when it is needed
            from nyaya.verify.relevance import RelevanceJudge

            judge = RelevanceJudge.from_settings(settings)
        text = sys.stdin.read() if args.file == "-" else _read_text(Path(args.file))
    except (OSError, ValueError) as err:
        print(f"nyaya verify: {err}", file=sys.stderr)
        return 2
    case_verifier, why_not = _load_case_verifier(settings, llm)
    report = verify_text(text, checker, as_of=args.as_of, case_verifier=case_verifier,
                         query=args.query, relevance=judge)
    if why_not:  # the specific reason instead of the gate's generic note
        report.notes = [why_not if note == NO_CASE_VERIFIER else note for note in report.notes]
    if llm is not None:
        report.notes.append(f"case panel: LLM validators at {llm.chat_url} (model {llm.model})")
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(render_blocks(report))
    return 0 if report.overall == OVERALL_VERIFIED else 1


def _llm(settings: Settings):
    """The configured LLM endpoint for --llm; a ValueError says what is missing."""
    from nyaya.verify.llm import LlmEndpoint

    endpoint = LlmEndpoint.from_settings(settings)
    if endpoint is None:
        raise ValueError("--llm needs NYAYA_LLM_URL and NYAYA_LLM_MODEL")
    return endpoint


def _read_text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{path}: not UTF-8 text (byte {err.start})") from err


def _verify_segments(args: argparse.Namespace) -> int:
    from nyaya.verify.llm import LlmSegmentJudge
    from nyaya.verify.segments import (
        DEFAULT_THRESHOLD,
        load_evidence_store,
        render_segments,
        verify_segments,
    )

    try:  # SegmentInputError (bad evidence) and a bad threshold are ValueErrors
        evidence = load_evidence_store(Path(args.evidence))
        text = sys.stdin.read() if args.file == "-" else _read_text(Path(args.file))
        threshold = DEFAULT_THRESHOLD if args.threshold is None else args.threshold
        judge = LlmSegmentJudge(_llm(Settings.from_env())) if args.llm else None
        report = verify_segments(text, evidence, threshold=threshold, judge=judge)
    except (OSError, ValueError) as err:
        print(f"nyaya verify-segments: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(render_segments(report))
    return 0 if report.all_verified else 1


def _run(args: argparse.Namespace) -> int:
    """Materialize a job in-process, recorded in the Dagster instance (DAGSTER_HOME): only the
    assets whose code or inputs changed since their last materialization, unless --all."""
    import dagster as dg  # the pipeline is optional for lookups; import it only here

    from pipelines.definitions import defs
    from pipelines.freshness import keys_to_run
    from pipelines.partitions import ASSEMBLING_JOBS, VECTOR_JOBS
    from pipelines.recovery import release_dead_runs

    instance = dg.DagsterInstance.get() if args.persist else dg.DagsterInstance.ephemeral()
    for run_id in release_dead_runs(instance):
        print(f"{args.job}: run {run_id} was killed mid-way: marked failed, its pool slots "
              "freed")
    changes = _sync_and_observe(instance)
    if args.job in changes:  # a parts job alone: the partitions that need it, by range
        return 0 if _run_parts(args, instance, _corpus_choosers(
            instance, {args.job: changes[args.job]})) is not None else 1
    if args.job in VECTOR_JOBS:
        return 0 if _run_parts(args, instance, _vector_choosers(instance, (args.job,))
                               ) is not None else 1
    if (args.job in ASSEMBLING_JOBS
            and _run_parts(args, instance, _corpus_choosers(instance, changes)) is None):
        return 1
    selection = None
    if args.persist and not args.all:
        selection, reasons = keys_to_run(defs, args.job, instance)
        print(f"{args.job}: assets by state: "
              + ", ".join(f"{count} {reason}" for reason, count in sorted(reasons.items())))
    return _run_stages(args, instance, selection)


def _run_stages(args: argparse.Namespace, instance, selection: list | None) -> int:
    """Run the selected assets of the job (all when None). A job that builds document
    tables and reads vectors runs in three steps: what the vector parts read, the vector parts
    that need it, then the rest (with whatever reads the parts just built)."""
    from pipelines.definitions import defs
    from pipelines.partitions import (
        VECTOR_JOBS,
        VECTOR_STAGE_JOBS,
        downstream_of,
        split_at_vector_parts,
        vector_keys,
    )

    job_keys = defs.resolve_job_def(args.job).asset_layer.executable_asset_keys
    keys = sorted(job_keys) if selection is None else selection
    if args.job not in VECTOR_STAGE_JOBS:
        return _execute(args, instance, keys, selection is None)[1]
    graph = defs.resolve_asset_graph()
    before, after = split_at_vector_parts(graph, keys, vector_keys())
    code = 0
    if before:  # a failed non-blocking check still lets the rest run, as in one run
        succeeded, code = _execute(args, instance, before)
        if not succeeded:
            return code or 1
    built = _run_parts(args, instance, _vector_choosers(instance, VECTOR_JOBS))
    if built is None:
        return 1
    rebuilt = {key for name in built
               for key in defs.resolve_job_def(name).asset_layer.executable_asset_keys}
    after = sorted({*after, *(downstream_of(graph, rebuilt) & job_keys)})
    if not after:
        if not before and not built:
            print(f"{args.job}: nothing to do, every asset is fresh")
        return code
    return max(code, _execute(args, instance, after, selection is None and not before)[1])


def _execute(args: argparse.Namespace, instance, keys: list,
             whole: bool = False) -> tuple[bool, int]:
    """One run of the job over `keys` (the whole job when `whole`): in process, or with
    Dagster's multiprocess executor for --processes N. Returns (the run succeeded, exit
    code: 1 also for a failed check)."""
    import dagster as dg

    from pipelines.definitions import defs, run_tags
    from pipelines.recovery import owner_tags

    if not keys:
        print(f"{args.job}: nothing to do, every asset is fresh")
        return True, 0
    selection = None if whole else keys
    if selection is not None:
        print(f"{args.job}: materializing {len(keys)} assets")
    tags = {**run_tags(args.job), **owner_tags()}
    if args.processes > 1:
        # Dagster's multiprocess executor: each step in its own process, up to N at once; the
        # `embedding` and `qdrant_writes` pools (dagster.yaml) still let one such step in
        # at a time. It needs the persistent instance, which the steps share.
        if not args.persist:
            print("nyaya run: --processes needs the persistent instance (drop --no-persist)",
                  file=sys.stderr)
            return False, 2
        recon = dg.build_reconstructable_job("pipelines.definitions", "job_named",
                                             reconstructable_args=(args.job,))
        run_config = {"execution": {"config": {"multiprocess": {
            "max_concurrent": args.processes}}}}
        with dg.execute_job(recon, instance, run_config=run_config, raise_on_error=False,
                            asset_selection=selection, tags=tags) as result:
            return result.success, _run_outcome(args.job, result)
    result = defs.resolve_job_def(args.job).execute_in_process(
        instance=instance, raise_on_error=False, asset_selection=selection, tags=tags)
    return result.success, _run_outcome(args.job, result)


def _sync_and_observe(instance) -> dict:
    """Bring the corpus-keyed partitions in step with the corpus (saying what changed), then
    record the corpus fingerprints. Returns parts job -> its `Sync`."""
    from pipelines.definitions import defs
    from pipelines.freshness import observe_corpus
    from pipelines.partitions import sync_partitions

    settings = defs.resources["settings"].resolved()
    changes = sync_partitions(instance, settings, settings.data_dir / "warehouse")
    for job_name, sync in changes.items():
        if sync.added or sync.removed:
            print(f"{job_name}: {len(sync.added)} partitions added, {len(sync.removed)} "
                  "removed" + (f" ({', '.join(sync.removed)})" if sync.removed else ""))
    observe_corpus(instance, {"settings": defs.resources["settings"]})
    return changes


def _corpus_choosers(instance, changes: dict) -> dict[str, Chooser]:
    """parts job -> its partitions whose source changed or whose part is damaged."""
    from pipelines.definitions import defs
    from pipelines.freshness import partitions_to_run

    warehouse = defs.resources["settings"].resolved().warehouse
    return {name: functools.partial(partitions_to_run, defs.resolve_job_def(name), instance,
                                    sync.fingerprints, warehouse)
            for name, sync in changes.items()}


def _vector_choosers(instance, jobs: tuple[str, ...]) -> dict[str, Chooser]:
    """vectors job -> its partitions whose vector parts are missing, damaged or stale."""
    from pipelines.definitions import defs
    from pipelines.freshness import vector_partitions_to_run

    settings = defs.resources["settings"].resolved()
    return {name: functools.partial(vector_partitions_to_run, defs.resolve_job_def(name),
                                    instance, settings) for name in jobs}


def _run_parts(args: argparse.Namespace, instance,
               choosers: dict[str, Chooser]) -> list[str] | None:
    """Run each partitioned job over the partitions its chooser names (every one with --all
    or --no-persist), one run per contiguous range. Returns the jobs that ran, or None when
    a run failed."""
    from pipelines.definitions import defs
    from pipelines.partitions import materialize_parts
    from pipelines.recovery import owner_tags

    ran = []
    for job_name, choose in choosers.items():
        job = defs.resolve_job_def(job_name)
        partitions = choose() if args.persist and not args.all else None
        if partitions == {}:
            print(f"{job_name}: every partition is fresh")
            continue
        if partitions is None:
            print(f"{job_name}: materializing every partition")
        else:
            why = Counter(partitions.values())
            print(f"{job_name}: materializing {len(partitions)} partitions ("
                  + ", ".join(f"{n} {reason}" for reason, n in sorted(why.items())) + ")")
        chosen = None if partitions is None else list(partitions)
        for result in materialize_parts(job, instance, chosen, tags=owner_tags()):
            if _run_outcome(job_name, result) != 0:
                return None
        ran.append(job_name)
    return ran


def _run_outcome(job: str, result) -> int:
    """Print how the run ended; 0 only when it succeeded and every check passed."""
    failed_checks = [
        evaluation.check_name
        for evaluation in result.get_asset_check_evaluations() if not evaluation.passed
    ]
    print(f"{job}: {'succeeded' if result.success else 'FAILED'}; "
          f"failed checks: {', '.join(failed_checks) or 'none'}")
    return 0 if result.success and not failed_checks else 1


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
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="nyaya", description=__doc__)
    commands = parser.add_subparsers(dest="command", required=True)
    lookup = commands.add_parser(
        "lookup", help="exact lookup of a statute citation: exit 0 when found, 1 when not")
    lookup.add_argument("citation", nargs="+", help='e.g. BNS 103, "s. 302 IPC", "Article 21"')
    lookup.add_argument("--json", action="store_true", help="print a JSON object")
    lookup.set_defaults(handler=_lookup)
    verify = commands.add_parser(
        "verify", help="verify every citation in a text: exit 0 when VERIFIED, 1 otherwise, "
        "2 when the tables are not built")
    verify.add_argument("file", help="a text file, or - for standard input")
    verify.add_argument("--json", action="store_true", help="print a JSON report")
    verify.add_argument("--as-of", type=date.fromisoformat, default=None, metavar="YYYY-MM-DD",
                        help="date of the conduct: IPC/CrPC/IEA cited on or after 2024-07-01 "
                        "are STALE")
    verify.add_argument("--query", default=None,
                        help="the question the text answers; stored in the report for the "
                        "relevance check, which is not implemented yet")
    verify.add_argument("--llm", action="store_true",
                        help="judge case citations we do not hold with the LLM validators at "
                        "NYAYA_LLM_URL (model NYAYA_LLM_MODEL) instead of the rules")
    verify.set_defaults(handler=_verify)
    segments = commands.add_parser(
        "verify-segments", help="check each [E1]-marked segment of a text against an evidence "
        "store (specification 002): exit 0 when every segment is verified, 1 otherwise, 2 on "
        "bad input")
    segments.add_argument("file", help="a text file, or - for standard input")
    segments.add_argument("--evidence", required=True, metavar="EVIDENCE.json",
                          help='a JSON list of {"id": "E1", "claim": ..., "quote_span": ..., '
                          '"source": ...}')
    segments.add_argument("--json", action="store_true", help="print specification 002's JSON")
    segments.add_argument("--threshold", type=float, default=None,
                          help="support score a segment needs (default: the calibrated value)")
    segments.add_argument("--llm", action="store_true",
                          help="let the LLM at NYAYA_LLM_URL (model NYAYA_LLM_MODEL) judge each "
                          "segment instead of the support score")
    segments.set_defaults(handler=_verify_segments)
    run = commands.add_parser("run", help="materialize a job (default: main_job), in-process "
                              "unless --processes")
    run.add_argument("--job", default="main_job")
    run.add_argument("--all", action="store_true",
                     help="materialize every asset of the job, fresh or not")
    run.add_argument("--no-persist", dest="persist", action="store_false",
                     help="use a throwaway Dagster instance instead of DAGSTER_HOME's")
    run.add_argument("--processes", type=int, default=1, metavar="N",
                     help="run steps in up to N processes at once (Dagster's multiprocess "
                     "executor); embedding and Qdrant writes still go one at a time")
    run.set_defaults(handler=_run)
    report = commands.add_parser(
        "report", help="the evaluation job: runs, metrics, regression check and the report in "
        "data/reports/<date>/ and data/reports/latest/ (only what is stale)")
    report.set_defaults(handler=_run, job="evaluation_job", all=False, persist=True,
                        processes=1)
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
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except SettingsError as err:  # the environment every command reads
        print(f"nyaya {args.command}: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
