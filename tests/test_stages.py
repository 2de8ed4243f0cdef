"""The one run order (`pipelines/stages.py`): stages derived from the asset graph, on a toy graph
and on the project's jobs."""

from __future__ import annotations

import dagster as dg
import pytest

from pipelines.definitions import defs
from pipelines.stages import (
    Project,
    Stage,
    job_plan_keys,
    next_stage,
    parts_job,
    parts_jobs_before,
    plan,
)

SOURCES = dg.DynamicPartitionsDefinition(name="toy_sources")
YEARS = dg.DynamicPartitionsDefinition(name="toy_years")
CONFIGS = dg.StaticPartitionsDefinition(["bm25", "dense"])


@dg.asset(partitions_def=SOURCES)
def parts() -> None: ...


@dg.asset(partitions_def=YEARS)
def year_parts() -> None: ...


@dg.asset(deps=[parts])
def tables() -> None: ...


@dg.asset(deps=[tables])
def documents() -> None: ...


@dg.asset(deps=[tables])
def graph_edges() -> None: ...


@dg.asset(partitions_def=SOURCES, deps=[documents])
def vectors() -> None: ...


@dg.asset(deps=[vectors, year_parts])
def index() -> None: ...


@dg.asset(partitions_def=CONFIGS, deps=[index, graph_edges])
def runs() -> None: ...


@dg.multi_asset(specs=[dg.AssetSpec("left", deps=[tables]), dg.AssetSpec("right", deps=[index])])
def pair():
    return None, None


TOY = dg.Definitions(assets=[parts, year_parts, tables, documents, graph_edges, vectors, index,
                             runs, pair]).resolve_asset_graph()


def names(stages: list[Stage]) -> list[tuple[str | None, list[str]]]:
    return [(stage.partitions.name if stage.partitions else None,
             [key.to_user_string() for key in stage.keys]) for stage in stages]


@pytest.mark.parametrize(("keys", "expected"), [
    # corpus partitions first, then what does not wait on the vectors, the vectors, the rest
    (["parts", "year_parts", "tables", "documents", "graph_edges", "vectors", "index", "runs"],
     [("toy_sources", ["parts"]), ("toy_years", ["year_parts"]),
      (None, ["documents", "graph_edges", "tables"]), ("toy_sources", ["vectors"]),
      (None, ["index", "runs"])]),
    # no partitioned asset pending: one run
    (["tables", "documents", "runs"], [(None, ["documents", "runs", "tables"])]),
    # a multi-asset runs whole: `left` waits with `right` for the vectors
    (["tables", "documents", "vectors", "index", "left", "right"],
     [(None, ["documents", "tables"]), ("toy_sources", ["vectors"]),
      (None, ["index", "left", "right"])]),
    # the vectors alone: nothing they read is pending
    (["vectors"], [("toy_sources", ["vectors"])]),
    ([], []),
])
def test_stages_follow_the_graph(keys, expected):
    assert names(plan(TOY, [dg.AssetKey(key) for key in keys])) == expected


def test_a_stage_that_cannot_start_is_refused_by_name():
    """Never an empty run: with nothing that can start, the planner raises."""
    with pytest.raises(ValueError, match="no stage can run"):
        next_stage(TOY, set())


@pytest.mark.parametrize(("job", "expected"), [
    ("main_job", [
        "statute_parts_job", "judgment_parts_job", None,
        "statute_vectors_job", "judgment_vectors_job", None]),
    ("ingest_job", ["statute_parts_job", "judgment_parts_job", None]),
    ("index_job", [None, "statute_vectors_job", "judgment_vectors_job", None]),
    ("evaluation_job", [None]),  # the vectors are read from storage: it builds no documents
    ("statute_parts_job", ["statute_parts_job"]),
    ("judgment_vectors_job", ["judgment_vectors_job"]),
])
def test_each_job_of_the_project_runs_in_the_stages_nyaya_run_takes(job, expected):
    project = Project.of(defs)
    stages = plan(project.graph, job_plan_keys(project, job))
    jobs = [parts_job(project, stage) if stage.partitions else None for stage in stages]
    assert sorted(jobs, key=str) == sorted(expected, key=str)
    kinds = [job is None for job in jobs]
    assert kinds == [job is None for job in expected]
    built = {key for stage in stages for key in stage.keys}
    assert set(defs.resolve_job_def(job).asset_layer.executable_asset_keys) <= built


def test_the_corpus_sensor_requests_the_parts_jobs_the_ingest_job_starts_with():
    project = Project.of_repository(defs.get_repository_def())
    assert sorted(parts_jobs_before(project, "ingest_job")) == ["judgment_parts_job",
                                                               "statute_parts_job"]
    assert parts_jobs_before(project, "index_job") == []  # it starts with the documents
