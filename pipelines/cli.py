"""The `nyaya` command line: each layer's commands (the core's lookup and verify, the evaluation
library's eval and baseline) and the pipeline's own, run and report.

Dagster is imported only by the commands that drive it, so a lookup starts without it."""

from __future__ import annotations

import argparse
import sys
import time

from evals import cli as evals_cli
from nyaya import cli as core_cli
from nyaya.settings import Settings, SettingsError


def _run(args: argparse.Namespace) -> int:
    """Materialize a job in process, recorded in the Dagster instance (DAGSTER_HOME): only the
    partitions and assets whose code or inputs changed since they were built, unless --all.
    Without --verbose it prints a line or two per stage and the assets' own progress, not
    Dagster's DEBUG stream nor notices a user can do nothing about; then where to look."""
    import warnings

    import dagster as dg

    if not args.verbose:  # the assets' decorators give these when imported, just below
        for notice in (dg.BetaWarning, dg.PreviewWarning, dg.SupersessionWarning):
            warnings.filterwarnings("ignore", category=notice)

    from nyaya.index.embedders import quiet_model_loading
    from pipelines import definitions
    from pipelines.stages import closing_lines, run_job
    from pipelines.writers import DataFolderBusy

    if args.processes > 1 and not args.persist:
        # the multiprocess executor's steps share the persistent instance
        print("nyaya run: --processes needs the persistent instance (drop --no-persist)",
              file=sys.stderr)
        return 2
    if not args.verbose:
        quiet_model_loading()
    instance = dg.DagsterInstance.get() if args.persist else dg.DagsterInstance.ephemeral()
    try:
        code = run_job(definitions.defs, args.job, instance,
                       fresh_only=args.persist and not args.all, processes=args.processes,
                       verbose=args.verbose)
    except DataFolderBusy as err:
        print(f"nyaya {args.command}: {err}", file=sys.stderr)
        return 2
    # on stderr, with Dagster's log: stdout ends with the run's outcome, which callers read
    for line in closing_lines(definitions.defs.resources["settings"].resolved()):
        print(line, file=sys.stderr)
    return code


def _labeled_judge(settings: Settings):
    """The relevance judge that answers the labeled sets' queries from their qrels."""
    from evals.labeled import labeled_judge

    return labeled_judge(settings)


def _serve(args: argparse.Namespace) -> int:
    """Load once, then answer lookup, verify and search over HTTP until interrupted."""
    from nyaya.index.embedders import quiet_model_loading
    from pipelines.serve import Service, make_server

    quiet_model_loading()
    started = time.perf_counter()
    try:
        service = Service(Settings.from_env(), _labeled_judge)
        if not args.lazy:
            service.warm()
        server = make_server(service, args.host, args.port)
    except (OSError, ValueError) as err:  # a table not built, a port in use
        print(f"nyaya serve: {err}", file=sys.stderr)
        return 2
    host, port = server.server_address[:2]
    print(f"nyaya serve: ready in {time.perf_counter() - started:.1f} s at "
          f"http://{host}:{port} (GET /health; POST /lookup, /verify, /search); Ctrl-C stops",
          file=sys.stderr, flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        service.close()
    return 0


def _add_commands(commands: argparse._SubParsersAction) -> None:
    """run, report and serve."""
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
    serve = commands.add_parser(
        "serve", help="answer lookup, verify and search as HTTP JSON, everything loaded once")
    serve.add_argument("--host", default="127.0.0.1",
                       help="address to listen on (default 127.0.0.1: this machine only)")
    serve.add_argument("--port", type=int, default=8765, help="port (default 8765; 0: any)")
    serve.add_argument("--lazy", action="store_true",
                       help="load each side's search, and what verification reads on first "
                            "need, on its first request, not at start")
    serve.set_defaults(handler=_serve)
    for parser in (run, report):
        parser.add_argument("-v", "--verbose", action="store_true",
                            help="also Dagster's DEBUG event stream (every step, output and "
                            "partition) and the libraries' notices")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="nyaya", description=__doc__.split("\n\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)
    core_cli.add_commands(commands, judge=_labeled_judge)
    _add_commands(commands)
    evals_cli.add_commands(commands, judge=_labeled_judge)
    args = parser.parse_args(argv)
    try:
        return args.handler(args)
    except SettingsError as err:  # the environment every command reads
        print(f"nyaya {args.command}: {err}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
