"""The `nyaya` command line: each layer's commands (the core's lookup and verify, the evaluation
library's eval and baseline) and the pipeline's own, run and report.

Dagster is imported only by the commands that drive it, so a lookup starts without it."""

from __future__ import annotations

import argparse
import sys

from evals import cli as evals_cli
from nyaya import cli as core_cli
from nyaya.settings import Settings, SettingsError


def _run(args: argparse.Namespace) -> int:
    """Materialize a job in process, recorded in the Dagster instance (DAGSTER_HOME): only the
    partitions and assets whose code or inputs changed since they were built, unless --all."""
    import dagster as dg

    from pipelines import definitions
    from pipelines.stages import run_job

    if args.processes > 1 and not args.persist:
        # the multiprocess executor's steps share the persistent instance
        print("nyaya run: --processes needs the persistent instance (drop --no-persist)",
              file=sys.stderr)
        return 2
    instance = dg.DagsterInstance.get() if args.persist else dg.DagsterInstance.ephemeral()
    return run_job(definitions.defs, args.job, instance,
                   fresh_only=args.persist and not args.all, processes=args.processes)


def _labeled_judge(settings: Settings):
    """The relevance judge that answers the labeled sets' queries from their qrels."""
    from evals.relevance import labeled_judge

    return labeled_judge(settings)


def _add_commands(commands: argparse._SubParsersAction) -> None:
    """run and report."""
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


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="nyaya", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    core_cli.add_commands(commands, judge=_labeled_judge)
    _add_commands(commands)
    evals_cli.add_commands(commands)
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except SettingsError as err:  # the environment every command reads
        print(f"nyaya {args.command}: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
