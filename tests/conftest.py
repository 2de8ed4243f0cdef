"""Shared fixtures, the `corpus` mark on every test that needs the real corpus, a guard that
fails a session in which no test passed, and the count of bad-input kinds tested (the
`bad_input(area, kind)` marker), printed in the terminal summary."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from minicorpus import write_fixture_corpus
from minijudgments import write_judgment_fixtures

from nyaya.settings import Settings

_passed = 0
#: nodeid -> the (area, kind) pairs of its bad_input markers, for every collected test
_bad_inputs: dict[str, list[tuple[str, str]]] = {}
#: nodeids whose bad input is a known unclear error (marked xfail): not counted as tested
_bad_inputs_xfail: set[str] = set()
#: nodeids of bad-input tests that ran and passed in this session
_bad_inputs_passed: set[str] = set()


@pytest.fixture(scope="session")
def fixture_corpus(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The miniature test corpus (tests/minicorpus.py and tests/minijudgments.py)."""
    return write_judgment_fixtures(write_fixture_corpus(tmp_path_factory.mktemp("corpus")))


@pytest.fixture(scope="session")
def models_dir() -> Path:
    """Derived models (the distilled static embedder): data/models, shared with `make run`
    so the distillation runs once per machine."""
    return Settings.from_env().models_dir


#: The sections embedder of the real-corpus run: the fast static tier, because the int8 default
#: adds ~9 minutes of CPU embedding to the test command (`make run` exercises it).
TEST_EMBEDDER = "minilm-static"
#: the authored sets of questions in plain words, with their sizes
PLAIN_WORD_SETS = {"plain-questions": 64, "situations": 61}


@pytest.fixture(scope="session")
def real_corpus() -> Path:
    """The shared corpus (NYAYA_CORPUS or ../shared/corpus); CI always has it."""
    corpus = Settings.from_env().corpus_root
    if not (corpus / "statutes").is_dir():
        if os.environ.get("CI"):
            pytest.fail(f"CI must have the corpus at {corpus}")
        pytest.skip(f"no corpus at {corpus}")
    return corpus


@pytest.fixture(scope="session")
def main_run(real_corpus: Path, tmp_path_factory: pytest.TempPathFactory):
    """The main job materialized once on the real corpus: (data dir, execution result)."""
    import dagster as dg

    from pipelines.definitions import defs
    from pipelines.resources import NyayaSettings, project_resources
    from pipelines.stages import materialize_every_stage, with_resources

    data_dir = tmp_path_factory.mktemp("data")
    settings = NyayaSettings(corpus_root=str(real_corpus), data_dir=str(data_dir),
                             embedder=TEST_EMBEDDER, models_dir=str(Settings.from_env().models_dir))
    resources = project_resources(settings)
    staged = materialize_every_stage(with_resources(defs, resources), "main_job",
                                     dg.DagsterInstance.ephemeral())
    return data_dir, JobRuns(staged.results)


class JobRuns:
    """The runs one job was materialized in (parts, the assets up to the document tables,
    vector parts, the rest), read as one run."""

    def __init__(self, results: list) -> None:
        self.results = results

    @property
    def success(self) -> bool:
        return all(result.success for result in self.results)

    def get_asset_check_evaluations(self) -> list:
        return [check for result in self.results
                for check in result.get_asset_check_evaluations()]

    def asset_materializations_for_node(self, node: str) -> list:
        return [materialization for result in self.results
                for materialization in result.asset_materializations_for_node(node)]


def _bad_input_kind(mark: pytest.Mark, nodeid: str) -> tuple[str, str]:
    args = [*mark.args, *(mark.kwargs[key] for key in ("area", "kind") if key in mark.kwargs)]
    if len(args) != 2 or not all(isinstance(arg, str) and arg.strip() for arg in args):
        raise pytest.UsageError(f"{nodeid}: bad_input takes two non-empty strings (area, kind), "
                                f"got {mark.args!r} {mark.kwargs!r}")
    return args[0].strip(), args[1].strip()


#: a test that asks for one of these needs the real corpus: marked `corpus` (make test-fast
#: deselects them)
CORPUS_FIXTURES = {"real_corpus", "main_run"}


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if CORPUS_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.corpus)


def pytest_collection_finish(session: pytest.Session) -> None:
    for item in session.items:  # after -m / -k deselection
        kinds = [_bad_input_kind(mark, item.nodeid) for mark in item.iter_markers("bad_input")]
        if kinds:
            _bad_inputs[item.nodeid] = kinds
            if item.get_closest_marker("xfail") is not None:
                _bad_inputs_xfail.add(item.nodeid)


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    global _passed
    if report.when == "call" and report.passed:
        _passed += 1
        if report.nodeid in _bad_inputs and not hasattr(report, "wasxfail"):
            _bad_inputs_passed.add(report.nodeid)


def _bad_input_counts(nodeids: set[str] | list[str]) -> dict[str, set[str]]:
    by_area: dict[str, set[str]] = {}
    for nodeid in nodeids:
        for area, kind in _bad_inputs[nodeid]:
            by_area.setdefault(area, set()).add(kind)
    return by_area


def pytest_terminal_summary(terminalreporter, exitstatus: int, config: pytest.Config) -> None:
    """`bad-input kinds tested: N across M areas`: distinct (area, kind) among the bad-input
    tests that passed (collected, not xfail, under --collect-only); known unclear errors (xfail)
    are listed apart. The inventory without running anything:
    `pytest --collect-only -q -m bad_input`."""
    if not _bad_inputs:
        return
    collect_only = config.option.collectonly
    counted = (set(_bad_inputs) - _bad_inputs_xfail) if collect_only else _bad_inputs_passed
    by_area = _bad_input_counts(counted)
    kinds = sum(len(k) for k in by_area.values())
    verb = "collected" if collect_only else "tested"
    write = terminalreporter.write_line
    terminalreporter.write_sep("-", "bad input")
    write(f"bad-input kinds {verb}: {kinds} across {len(by_area)} areas")
    for area in sorted(by_area):
        write(f"  {area}: {len(by_area[area])}")
    unclear = _bad_input_counts(_bad_inputs_xfail)
    if unclear:
        write(f"known unclear errors (xfail, not counted): "
              f"{sum(len(k) for k in unclear.values())}")
        for area in sorted(unclear):
            write(f"  {area}: {', '.join(sorted(unclear[area]))}")


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    if session.config.option.collectonly:
        return  # listing tests (the bad-input inventory, say) executes none by design
    if exitstatus == 0 and _passed == 0:
        print("\nno test passed: failing the session so an empty run cannot look green")
        session.exitstatus = 1
