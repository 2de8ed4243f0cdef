"""The one run order: what `nyaya run`, the tests, the scaling benchmark and the sensors follow.

A Dagster job holds one partitions definition, but a run of the main job crosses three: the
corpus-keyed parts (one partition per statute source, per year of judgments), the vectors built
per partition, and the evaluation's retrieval configs. So a job runs in stages, each derived
from the asset graph by `next_stage`:

1. the corpus-partitioned assets whose inputs are all built: the parts job that holds them
   runs over the partitions that need it, one run per contiguous range of them;
2. else every other pending asset that is not downstream of a pending corpus-partitioned one,
   in one run of the job (every retrieval config in it: a single-run backfill).

For the main job that is: statute and judgment parts, the tables up to the documents, the vector
parts, the rest. A corpus-partitioned asset is part of a job's plan when the job reads it and
builds everything it reads (or it reads only the corpus); otherwise it is an input read from
storage, like any asset outside the job.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import datetime

import dagster as dg

from nyaya.index.cache import format_seconds
from nyaya.settings import Settings
from pipelines.freshness import (
    Partition,
    ToRun,
    content_version,
    keep_data_versions,
    keys_to_run,
    observe_corpus,
    owe_downstream,
    owed_downstream,
    partitions_to_run,
    settle_downstream,
    vector_partitions_to_run,
)
from pipelines.partitions import contiguous_ranges, range_tags, sync_partitions
from pipelines.recovery import owner_tags, release_dead_runs
from pipelines.schedules import every_partition
from pipelines.writers import folder_tags, sole_writer

#: partition -> why it is built again; None means every partition
Choice = dict[str, str] | None

#: The Dagster UI lists a job's runs on the job's page by job name and this tag, which names
#: the "<repository>@<code location>" a run was launched from. Dagster sets it only on runs
#: launched from a code location; `nyaya run` executes in process, so it sets it itself, for
#: the location `make dev` serves: `dagster dev -m pipelines.definitions` names the location
#: after the module, and a Definitions object is the repository `__repository__`
#: (tests/test_run_log.py checks both names against Dagster's own).
UI_TAGS = {".dagster/repository": "__repository__@pipelines.definitions"}


def console_config(verbose: bool) -> dict:
    """Run config for Dagster's console logger. At INFO it shows what the assets log (counts,
    the embedding progress with its ETA) and every warning and failure, without the DEBUG line
    Dagster writes for each event (a step started, an output, each partition materialized:
    3,205 lines in a cold `make run`). The event log, and so the UI, still gets every event."""
    return {"loggers": {"console": {"config": {"log_level": "DEBUG" if verbose else "INFO"}}}}


def closing_lines(settings: Settings) -> list[str]:
    """Where to look once a run is over: the latest report, with the time it was written (a run
    without the evaluation leaves an older one), and the UI."""
    latest = settings.data_dir / "reports" / "latest"
    report = latest / "report.html"
    if report.is_file():
        written = datetime.fromtimestamp(report.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        where = f"report: {report} (written {written}; report.md and metrics.csv beside it)"
    else:
        where = f"report: none yet in {latest} (the evaluation job writes it: nyaya report)"
    return [where, "UI: make dev, then http://127.0.0.1:3000 (each job's runs on its page)"]


@dataclass(frozen=True)
class Stage:
    """Assets materialized together: corpus-partitioned ones (`partitions` set) per partition,
    the others in one run."""

    keys: tuple[dg.AssetKey, ...]
    partitions: dg.DynamicPartitionsDefinition | None = None


def _corpus_partitions(graph: dg.AssetGraph, key: dg.AssetKey
                       ) -> dg.DynamicPartitionsDefinition | None:
    partitions = graph.get(key).partitions_def
    return partitions if isinstance(partitions, dg.DynamicPartitionsDefinition) else None


def _upstream(graph: dg.AssetGraph, keys: set[dg.AssetKey]) -> set[dg.AssetKey]:
    """What `keys` read, directly or not (without `keys`)."""
    return (dg.AssetSelection.assets(*keys).upstream().resolve(graph) - keys) if keys else set()


def _downstream(graph: dg.AssetGraph, keys: set[dg.AssetKey]) -> set[dg.AssetKey]:
    """What reads `keys`, directly or not (without `keys`)."""
    return (dg.AssetSelection.assets(*keys).downstream().resolve(graph) - keys
            if keys else set())


def next_stage(graph: dg.AssetGraph, pending: set[dg.AssetKey]) -> Stage:
    """The stage to run next among the pending keys (see the module docstring)."""
    partitioned = {key for key in pending if _corpus_partitions(graph, key)}
    ready = sorted(key for key in partitioned
                   if not _upstream(graph, {key}) & pending)
    if ready:
        first = _corpus_partitions(graph, ready[0])
        return Stage(tuple(key for key in ready if _corpus_partitions(graph, key) is first),
                     first)
    blocked = _downstream(graph, partitioned) | partitioned
    free = sorted(key for key in pending - partitioned
                  if not graph.get(key).execution_set_asset_keys & blocked)
    if not free:
        raise ValueError("no stage can run: the pending assets wait on each other: "
                         + ", ".join(key.to_user_string() for key in sorted(pending)))
    return Stage(tuple(free))


def plan(graph: dg.AssetGraph, keys: Iterable[dg.AssetKey]) -> list[Stage]:
    """Every stage for `keys`, in order, when each stage builds all it holds."""
    pending, stages = set(keys), []
    while pending:
        stages.append(next_stage(graph, pending))
        pending -= set(stages[-1].keys)
    return stages


@dataclass(frozen=True)
class Project:
    """The asset graph and the jobs a plan is made from: a Definitions', or the repository's
    a sensor sees."""

    graph: dg.AssetGraph
    jobs: Mapping[str, dg.JobDefinition]

    @classmethod
    def of(cls, defs: dg.Definitions) -> Project:
        return cls(defs.resolve_asset_graph(),
                   {job.name: defs.resolve_job_def(job.name) for job in defs.jobs})

    @classmethod
    def of_repository(cls, repository: dg.RepositoryDefinition) -> Project:
        return cls(repository.asset_graph, {job.name: job for job in repository.get_all_jobs()
                                            if not job.name.startswith("__")})


def job_plan_keys(project: Project, job_name: str) -> set[dg.AssetKey]:
    """The job's assets plus the corpus-partitioned assets it reads and whose inputs it builds
    (or that read only the corpus)."""
    graph = project.graph
    keys = set(project.jobs[job_name].asset_layer.executable_asset_keys)
    inside = set(keys)
    for key in keys:
        for parent in graph.get(key).parent_keys:
            node = graph.get(parent)
            if (_corpus_partitions(graph, parent) and node.is_materializable
                    and all(p in keys or not graph.get(p).is_materializable
                            for p in node.parent_keys)):
                inside.add(parent)
    return inside


def parts_job(project: Project, stage: Stage) -> str:
    """The job of the project that builds a corpus-partitioned stage's assets."""
    wanted = set(stage.keys)
    for name, job in project.jobs.items():
        if job.partitions_def is stage.partitions and \
                wanted <= set(job.asset_layer.executable_asset_keys):
            return name
    raise ValueError(f"no job builds {sorted(k.to_user_string() for k in wanted)} per "
                     f"{stage.partitions.name}")


def parts_jobs_before(project: Project, job_name: str) -> list[str]:
    """The parts jobs a run of the job starts with (corpus-partitioned stages whose inputs are
    the corpus only), in the plan's order: what the corpus sensor requests."""
    jobs = []
    for stage in plan(project.graph, job_plan_keys(project, job_name)):
        if stage.partitions is None:
            break
        jobs.append(parts_job(project, stage))
    return jobs


def run_outcome(job: str, result, echo: Callable[[str], None] = print) -> int:
    """Say how the run ended; 0 only when it succeeded and every check passed."""
    failed_checks = [evaluation.check_name for evaluation in
                     result.get_asset_check_evaluations() if not evaluation.passed]
    echo(f"{job}: {'succeeded' if result.success else 'FAILED'}; "
         f"failed checks: {', '.join(failed_checks) or 'none'}")
    return 0 if result.success and not failed_checks else 1


@dataclass
class StagedRun:
    """A job run in its stages over one instance: every run's result is kept in `results`.

    `select` says what of the job to build (None: all of it); it is asked when the first
    unpartitioned stage is reached, so that it sees the parts built before. `choose` names a
    parts job's partitions to build, with why (None: every partition).

    What reads a rebuilt output is built again only when the output's content changed
    (`freshness.content_version` before and after): a part or table repaired byte-identical
    costs its own rebuild, not its downstream's. Until that downstream is built, the data
    folder records it as owed.

    A stage's lines start with its number, of the stages planned by then (fewer once `select`
    finds less to do), and the time since the run began. Dagster's console shows the assets'
    own lines only, unless `verbose` (see `console_config`)."""

    defs: dg.Definitions
    instance: dg.DagsterInstance
    tags: dict[str, str] = field(default_factory=dict)
    processes: int = 1
    echo: Callable[[str], None] = print
    verbose: bool = False
    results: list = field(default_factory=list)
    _stage: str = field(default="", init=False, repr=False)
    _started: float = field(default=0.0, init=False, repr=False)

    def _say(self, line: str) -> None:
        """A line of the stage running now."""
        self.echo(f"[{self._stage} {format_seconds(time.perf_counter() - self._started)}] "
                  f"{line}")

    @property
    def _settings(self) -> Settings:
        return self.defs.resources["settings"].resolved()

    def _run_tags(self) -> dict[str, str]:
        """Every run's tags: the UI's (see `UI_TAGS`), the data folder's (one writer at a
        time: `pipelines.writers`), then the caller's."""
        return {**UI_TAGS, **folder_tags(self._settings.data_dir), **self.tags}

    def _partitions(self, key: dg.AssetKey, chosen: Iterable[str] | None) -> list[Partition]:
        """The asset's partitions that a build of `chosen` (None: all) writes."""
        partitions = self.defs.resolve_asset_graph().get(key).partitions_def
        if partitions is None:
            return [None]
        return list(chosen) if chosen is not None else partitions.get_partition_keys(
            dynamic_partitions_store=self.instance)

    def _unchanged(self, before: Mapping[dg.AssetKey, str | None],
                   partitions: Iterable[str] | None = None) -> set[dg.AssetKey]:
        """The keys rebuilt with the content they had `before` (unknown counts as changed);
        each gets back the data versions it had (see `keep_data_versions`): a side effect
        that belongs to the same judgment, so it is made here once."""
        same = {key for key, content in before.items() if content is not None
                and content_version(self._settings, key, partitions) == content}
        for key in same:
            keep_data_versions(self.instance, key, self._partitions(key, partitions))
        return same

    def run(self, job_name: str, select: Callable[[], ToRun | None] | None = None,
            choose: Callable[[str], Choice] | None = None) -> int:
        """Run the job's stages; the exit code: 0, or 1 when a run failed or a check did not
        pass (the stages after a failed check still run, as in one run)."""
        project = Project.of(self.defs)
        graph = project.graph
        done: set[dg.AssetKey] = set()  # in a stage that succeeded
        self._started = time.perf_counter()
        code = self._stages(project, job_name, select, choose, done)
        # what was rebuilt is owed no more (after a crash the record stays, to be safe)
        data_dir = self._settings.data_dir
        settle_downstream(data_dir, done | (owed_downstream(data_dir)
                                            - graph.get_all_asset_keys()))
        return code

    def _stages(self, project: Project, job_name: str, select: Callable[[], ToRun | None] | None,
                choose: Callable[[str], Choice] | None, done: set[dg.AssetKey]) -> int:
        """`run`'s loop; adds the keys of each stage that succeeds to `done`."""
        graph = project.graph
        job_keys = set(project.jobs[job_name].asset_layer.executable_asset_keys)
        pending = job_plan_keys(project, job_name)
        partitioned = {key for key in pending if _corpus_partitions(graph, key)}
        rebuilt: set[dg.AssetKey] = set()  # downstream of the partitions built: to build
        repairs: dict[dg.AssetKey, str | None] = {}  # rebuilt alone: their content before
        started: set[dg.AssetKey] = set()  # in a stage begun
        selected, code, did_work, number = select is None, 0, False, 0

        data_dir = self._settings.data_dir

        def owe(rebuilding: set[dg.AssetKey]) -> set[dg.AssetKey]:
            """Record what reads `rebuilding` as owed before it is rebuilt (a run killed in
            between leaves the record); returns what owed was recorded before."""
            owed = owed_downstream(data_dir)
            owe_downstream(data_dir, _downstream(graph, rebuilding))
            return owed

        def release(kept: set[dg.AssetKey], changed: set[dg.AssetKey],
                    owed: set[dg.AssetKey]) -> set[dg.AssetKey]:
            """Forget what only the outputs rebuilt with the same content made owed; what
            reads the changed ones, of this job and not yet begun, is to build."""
            settle_downstream(data_dir, _downstream(graph, kept)
                              - _downstream(graph, changed) - owed)
            self._say_kept(kept, graph, job_keys)
            return _downstream(graph, changed) & job_keys - started

        while pending:
            stage = next_stage(graph, pending)
            if stage.partitions is None and not selected:
                selected = True
                chosen = select()
                if chosen is not None:
                    repairs = dict(chosen.repairs)  # popped as each is rebuilt
                    pending = (pending & (partitioned | rebuilt)) | set(chosen.keys)
                    continue
            number += 1
            self._stage = f"{number}/{number - 1 + len(plan(graph, pending))}"
            pending -= set(stage.keys)
            started |= set(stage.keys)
            if stage.partitions is None:
                repaired = {key: repairs.pop(key) for key in stage.keys if key in repairs}
                owed = owe(set(repaired)) if repaired else set()
                succeeded, outcome = self._assets(project.jobs[job_name], stage.keys,
                                                  whole=set(stage.keys) == job_keys)
                did_work, code = True, max(code, outcome)
                if not succeeded:
                    return outcome or 1
                done |= set(stage.keys)
                kept = self._unchanged(repaired)
                pending |= release(kept, set(repaired) - kept, owed)
                continue
            job = project.jobs[parts_job(project, stage)]
            partitions = choose(job.name) if choose else None
            before = None if partitions is None else {
                key: content_version(self._settings, key, partitions) for key in stage.keys}
            owed = owe(set(stage.keys)) if partitions != {} else set()
            built = self._parts(job, partitions)
            if built is None:
                return 1
            done |= set(stage.keys)
            if built:
                did_work = True
                kept = set() if before is None else self._unchanged(before, partitions)
                downstream = release(kept, set(stage.keys) - kept, owed)
                rebuilt |= downstream
                pending |= downstream
        if not did_work:
            self.echo(f"{job_name}: nothing to do, every asset is fresh")
        return code

    def _say_kept(self, kept: set[dg.AssetKey], graph: dg.AssetGraph,
                  job_keys: set[dg.AssetKey]) -> None:
        """Say which rebuilt outputs came out as they were, sparing what reads them."""
        if not kept:
            return
        spared = len(_downstream(graph, kept) & job_keys)
        self._say(f"{', '.join(sorted(key.to_user_string() for key in kept))}: rebuilt with "
                  "the same content" + (f"; the {spared} assets of the job that read "
                                        f"{'it' if len(kept) == 1 else 'them'} are not rebuilt"
                                        if spared else ""))

    def _parts(self, job: dg.JobDefinition, partitions: Choice) -> bool | None:
        """Run a parts job over `partitions` (None: every one): whether it built any, or None
        when a run failed."""
        job_name = job.name
        if partitions == {}:
            self._say(f"{job_name}: every partition is fresh")
            return False
        if partitions is None:
            self._say(f"{job_name}: materializing every partition")
        else:
            why = Counter(partitions.values())
            self._say(f"{job_name}: materializing {len(partitions)} partitions ("
                      + ", ".join(f"{n} {reason}" for reason, n in sorted(why.items())) + ")")
        keys = job.partitions_def.get_partition_keys(dynamic_partitions_store=self.instance)
        for first, last in contiguous_ranges(keys, set(keys if partitions is None
                                                       else partitions)):
            result = job.execute_in_process(instance=self.instance, raise_on_error=False,
                                            run_config=console_config(self.verbose),
                                            tags={**self._run_tags(), **range_tags(first, last)})
            self.results.append(result)
            if run_outcome(job_name, result, self._say) != 0:
                return None
        return True

    def _assets(self, job: dg.JobDefinition, keys: tuple[dg.AssetKey, ...],
                whole: bool) -> tuple[bool, int]:
        """One run of the job over `keys` (the whole job when `whole`): in process, or with
        Dagster's multiprocess executor when `processes` > 1. (the run succeeded, exit code)"""
        job_name = job.name
        self._say(f"{job_name}: materializing {len(keys)} assets")
        selection = None if whole else list(keys)
        tags = {**every_partition(job.partitions_def), **self._run_tags()}
        if self.processes > 1:
            # each step in its own process, up to N at once; the `embedding` and
            # `qdrant_writes` pools (dagster.yaml) still let one such step in at a time
            recon = dg.build_reconstructable_job("pipelines.definitions", "job_named",
                                                 reconstructable_args=(job_name,))
            run_config = {"execution": {"config": {"multiprocess": {
                "max_concurrent": self.processes}}}, **console_config(self.verbose)}
            with dg.execute_job(recon, self.instance, run_config=run_config,
                                raise_on_error=False, asset_selection=selection,
                                tags=tags) as result:
                self.results.append(result)
                return result.success, run_outcome(job_name, result, self._say)
        result = job.execute_in_process(instance=self.instance, raise_on_error=False,
                                        run_config=console_config(self.verbose),
                                        asset_selection=selection, tags=tags)
        self.results.append(result)
        return result.success, run_outcome(job_name, result, self._say)


def stale_partitions(defs: dg.Definitions, instance: dg.DagsterInstance,
                     changes: dict) -> Callable[[str], Choice]:
    """A parts job -> its partitions to build: for a corpus parts job those whose source changed
    or whose part is damaged (`changes`: the sync's fingerprints), for a vectors job those whose
    vector parts are missing, damaged or stale."""
    settings = defs.resources["settings"].resolved()

    def choose(job_name: str) -> Choice:
        job = defs.resolve_job_def(job_name)
        if job_name in changes:
            return partitions_to_run(job, instance, changes[job_name].fingerprints,
                                     settings.warehouse)
        return vector_partitions_to_run(job, instance, settings)

    return choose


def sync_and_observe(defs: dg.Definitions, instance: dg.DagsterInstance,
                     echo: Callable[[str], None] = print, verbose: bool = False) -> dict:
    """Bring the corpus-keyed partitions in step with the corpus (saying what changed), then
    record the corpus fingerprints. Returns parts job -> its `Sync`."""
    settings = defs.resources["settings"].resolved()
    changes = sync_partitions(instance, settings, settings.warehouse)
    for job_name, sync in changes.items():
        if sync.added or sync.removed:
            echo(f"{job_name}: {len(sync.added)} partitions added, {len(sync.removed)} "
                 "removed" + (f" ({', '.join(sync.removed)})" if sync.removed else ""))
    observe_corpus(instance, {"settings": defs.resources["settings"]},
                   run_config=console_config(verbose))
    return changes


def run_job(defs: dg.Definitions, job_name: str, instance: dg.DagsterInstance, *,
            fresh_only: bool = True, processes: int = 1,
            echo: Callable[[str], None] = print, verbose: bool = False) -> int:
    """What `nyaya run` does: release the pool slots of killed runs, sync the partitions with
    the corpus, then the job's stages; with `fresh_only`, only the partitions and assets
    whose code or inputs changed or whose outputs are missing or damaged. `verbose` puts
    Dagster's DEBUG event stream on the console."""
    for run_id in release_dead_runs(instance):
        echo(f"{job_name}: run {run_id} was killed mid-way: marked failed, its pool slots freed")
    data_dir = defs.resources["settings"].resolved().data_dir
    with sole_writer(data_dir, f"nyaya run --job {job_name}", instance):
        return _run_stages(defs, job_name, instance, fresh_only, processes, echo, verbose)


def _run_stages(defs: dg.Definitions, job_name: str, instance: dg.DagsterInstance,
                fresh_only: bool, processes: int, echo: Callable[[str], None],
                verbose: bool) -> int:
    changes = sync_and_observe(defs, instance, echo, verbose)
    select = choose = None
    if fresh_only:
        choose = stale_partitions(defs, instance, changes)

        def select() -> ToRun:
            chosen = keys_to_run(defs, job_name, instance)
            echo(f"{job_name}: assets by state: " + ", ".join(
                f"{count} {reason}" for reason, count in sorted(chosen.reasons.items())))
            return chosen

    runner = StagedRun(defs, instance, tags=owner_tags(), processes=processes, echo=echo,
                       verbose=verbose)
    return runner.run(job_name, select, choose)


def materialize_every_stage(defs: dg.Definitions, job_name: str,
                            instance: dg.DagsterInstance) -> StagedRun:
    """Every asset and partition of the job, as `nyaya run --all` builds them (the tests'
    real-corpus run and the scaling benchmark)."""
    sync_partitions(instance, defs.resources["settings"].resolved())
    runner = StagedRun(defs, instance)
    runner.run(job_name)
    return runner


def with_resources(defs: dg.Definitions, resources: dict) -> dg.Definitions:
    """The same definitions over other resources (a test's data folder and corpus)."""
    return dg.Definitions(assets=defs.assets, asset_checks=defs.asset_checks, jobs=defs.jobs,
                          schedules=defs.schedules, sensors=defs.sensors, resources=resources)

