"""Where the test command's time goes: the main job built from nothing as the real-corpus
tests build it (the `main_run` fixture: minilm-static everywhere), then each Dagster step's
time and each config's search time, longest first. docs/speed.md keeps the figures.

    .venv/bin/python benchmarks/bench_main_job.py [--data /tmp/main-job] [--top 30]

About 20 minutes on the 2-core machine. The data folder must not exist yet, or be empty.
"""

from __future__ import annotations

import argparse
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import dagster as dg

from nyaya.settings import Settings
from pipelines.definitions import defs
from pipelines.resources import NyayaSettings, project_resources
from pipelines.stages import materialize_every_stage, with_resources

SEARCHED = re.compile(r"(?P<config>\S+) on (?P<set>\S+): \d+ queries in (?P<seconds>[\d.]+)s")
TEST_EMBEDDER = "minilm-static"  # as tests/conftest.py's TEST_EMBEDDER


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--data", type=Path, default=Path("/tmp/nyaya-main-job"))
    parser.add_argument("--top", type=int, default=30, help="rows of each table")
    args = parser.parse_args(argv)
    if args.data.exists() and any(args.data.iterdir()):
        parser.error(f"{args.data} is not empty: the job must build from nothing")
    args.data.mkdir(parents=True, exist_ok=True)
    env = Settings.from_env()
    settings = NyayaSettings(corpus_root=str(env.corpus_root), data_dir=str(args.data),
                             embedder=TEST_EMBEDDER, models_dir=str(env.models_dir))
    instance = dg.DagsterInstance.ephemeral()
    started = time.perf_counter()
    staged = materialize_every_stage(with_resources(defs, project_resources(settings)),
                                     "main_job", instance)
    total = time.perf_counter() - started
    steps, searches = [], []
    for run in instance.get_runs():
        steps += [(stat.end_time - stat.start_time, stat.step_key)
                  for stat in instance.get_run_step_stats(run.run_id)
                  if stat.start_time and stat.end_time]
        for event in instance.all_logs(run.run_id):
            found = SEARCHED.search(event.user_message or "")
            if found:
                searches.append((float(found["seconds"]), found["config"], found["set"]))
    failed = [f"{check.asset_key.to_user_string()}:{check.check_name}"
              for result in staged.results for check in result.get_asset_check_evaluations()
              if not check.passed]
    outcome = "succeeded" if all(result.success for result in staged.results) else "FAILED"
    print(f"main job: {total:.0f} s, {outcome}; failed checks: {', '.join(failed) or 'none'}")
    print(f"\nsteps ({sum(s for s, _ in steps):.0f} s in all), longest first:")
    for seconds, step in sorted(steps, reverse=True)[:args.top]:
        print(f"  {seconds:7.1f} s  {step}")
    print(f"\nsearching ({sum(s for s, *_ in searches):.0f} s in all), longest first:")
    for seconds, config, queryset in sorted(searches, reverse=True)[:args.top]:
        print(f"  {seconds:7.1f} s  {config} on {queryset}")
    return 0 if not failed else 1


if __name__ == "__main__":
    raise SystemExit(main())
