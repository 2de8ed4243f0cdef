"""Regression baselines: statuses, file errors, the round trip, and the asset check tripping on
a deliberately degraded config."""

from __future__ import annotations

import math

import dagster as dg
import pandas as pd
import pytest

from assets.evaluation import no_metric_regressed, regression_deltas
from evals.baseline import (
    IMPROVED,
    MISSING,
    NEW,
    NOT_COMPARABLE,
    NUMERICS_RULE,
    OK,
    REGRESSED,
    BaselineError,
    check_regression,
    load_baseline,
    load_numerics,
    load_per_query,
    per_query_path,
    write_baseline,
    write_per_query,
)
from evals.numerics import PROBE_TEXTS, PROBE_TOLERANCE, numerics_probe
from nyaya.index.embedders import load_embedder
from pipelines.resources import NyayaSettings

CORPUS = "corpus-fp-1"


def metrics_of(rows: list[tuple[str, str, float]], corpus: str = CORPUS,
               queries: int = 1000) -> pd.DataFrame:
    """`all` rows of (config, embedder, ndcg@10) on one query set of `queries` judged ones."""
    return pd.DataFrame([{"config": c, "queryset": "qs", "group_kind": "all", "group": "all",
                          "queries": queries, "embedder": e, "ndcg@10": v, "map": v / 2,
                          "corpus_fingerprint": corpus} for c, e, v in rows])


@pytest.fixture
def baseline_file(tmp_path):
    path = tmp_path / "baseline.yaml"
    write_baseline(metrics_of([("a", "emb", 0.50), ("b", "emb", 0.30)]), path,
                   metric_names=("ndcg@10",), tolerance=0.02)
    return path


@pytest.mark.parametrize(("measured", "expected_status"), [
    ([("a", "emb", 0.50), ("b", "emb", 0.30)], {"a": OK, "b": OK}),
    ([("a", "emb", 0.485), ("b", "emb", 0.30)], {"a": OK, "b": OK}),  # within 0.02
    ([("a", "emb", 0.47), ("b", "emb", 0.30)], {"a": REGRESSED, "b": OK}),
    ([("a", "emb", 0.53), ("b", "emb", 0.30)], {"a": IMPROVED, "b": OK}),
    ([("a", "emb", 0.50)], {"a": OK, "b": MISSING}),  # a config vanished
    ([("a", "emb", 0.50), ("b", "emb", 0.30), ("c", "emb", 0.1)],
     {"a": OK, "b": OK, "c": NEW}),
    ([("a", "other", 0.10)], {"a": NEW}),  # another embedder: its own baseline, none yet
    # one side of the run shares the baselined embedder, this config ran with another one:
    # neither missing nor compared
    ([("a", "other", 0.10), ("b", "emb", 0.30)], {"a": NEW, "b": OK}),
])
def test_statuses(baseline_file, measured, expected_status):
    deltas = check_regression(metrics_of(measured), load_baseline(baseline_file))
    assert dict(zip(deltas["config"], deltas["status"], strict=True)) == expected_status


def test_no_baseline_file_makes_every_config_new(tmp_path):
    deltas = check_regression(metrics_of([("a", "emb", 0.5)]), load_baseline(tmp_path / "none"))
    assert deltas["status"].tolist() == [NEW]


def test_delta_and_tolerance_are_reported(baseline_file):
    deltas = check_regression(metrics_of([("a", "emb", 0.47), ("b", "emb", 0.30)]),
                              load_baseline(baseline_file)).set_index("config")
    assert deltas.at["a", "delta"] == pytest.approx(-0.03)
    assert deltas.at["a", "tolerance"] == pytest.approx(0.02)
    assert deltas.at["a", "expected"] == pytest.approx(0.5)


@pytest.mark.parametrize(("queries", "tolerance", "status"), [
    (1000, 0.02, REGRESSED),  # the file's tolerance
    (50, 2 / 50, OK),  # two queries' worth on a small set: -0.03 is within it
    (20, 2 / 20, OK),
])
def test_small_sets_get_two_queries_worth_of_tolerance(baseline_file, queries, tolerance,
                                                       status):
    deltas = check_regression(metrics_of([("a", "emb", 0.47), ("b", "emb", 0.3)],
                                         queries=queries), load_baseline(baseline_file))
    row = deltas.set_index("config").loc["a"]
    assert (row["tolerance"], row["status"]) == (pytest.approx(tolerance), status)


def test_another_corpus_is_not_comparable(baseline_file):
    deltas = check_regression(metrics_of([("a", "emb", 0.1), ("b", "emb", 0.1)], "fp-2"),
                              load_baseline(baseline_file))
    assert set(deltas["status"]) == {NOT_COMPARABLE}


PROBE = [1.0, 0.25, 0.25, 1.0]


@pytest.mark.parametrize(("tonight", "status_a", "rule_a"), [
    (None, REGRESSED, "delta beyond max(tolerance, 2 / queries)"),  # no probe measured
    (PROBE, REGRESSED, "delta beyond max(tolerance, 2 / queries)"),  # the same vectors
    ([1.0, 0.25 + PROBE_TOLERANCE / 2, 0.25, 1.0], REGRESSED,
     "delta beyond max(tolerance, 2 / queries)"),  # float noise
    ([1.0, 0.26, 0.25, 1.0], NOT_COMPARABLE, NUMERICS_RULE),  # other vectors
    ([1.0, 0.25], NOT_COMPARABLE, NUMERICS_RULE),  # another probe altogether
])
def test_scores_from_other_vectors_are_not_comparable(baseline_file, tonight, status_a,
                                                      rule_a):
    """Only the embedder whose probe moved is set aside; the other is still judged."""
    write_baseline(metrics_of([("a", "emb", 0.50), ("b", "other", 0.30)]), baseline_file,
                   metric_names=("ndcg@10",), probes={"emb": PROBE, "other": PROBE})
    deltas = check_regression(
        metrics_of([("a", "emb", 0.40), ("b", "other", 0.20)]), load_baseline(baseline_file),
        probes={"emb": tonight, "other": PROBE} if tonight else {},
        kept_probes=load_numerics(baseline_file)).set_index("config")
    assert (deltas.at["a", "status"], deltas.at["a", "rule"]) == (status_a, rule_a)
    assert deltas.at["b", "status"] == REGRESSED


def test_a_rewrite_replaces_the_probe_of_the_embedder_written_only(baseline_file):
    write_baseline(metrics_of([("a", "emb", 0.5), ("b", "other", 0.3)]), baseline_file,
                   metric_names=("ndcg@10",), probes={"emb": PROBE, "other": PROBE})
    write_baseline(metrics_of([("a", "emb", 0.6)]), baseline_file, metric_names=("ndcg@10",),
                   probes={"emb": [0.5], "unused": [0.1]})
    assert load_numerics(baseline_file) == {"emb": [0.5], "other": PROBE}
    write_baseline(metrics_of([("a", "emb", 0.6)]), baseline_file, metric_names=("ndcg@10",))
    assert load_numerics(baseline_file) == {"other": PROBE}  # the old probe went with its scores


@pytest.mark.parametrize("numerics", [
    pytest.param("numerics: {emb: [1.0, x]}\n", marks=pytest.mark.bad_input(
        "baseline YAML", "numerics probe value not a number")),
    pytest.param("numerics: {emb: 0.5}\n", marks=pytest.mark.bad_input(
        "baseline YAML", "numerics probe not a list")),
])
def test_a_bad_numerics_probe_names_the_file_and_embedder(tmp_path, numerics):
    path = tmp_path / "bad.yaml"
    path.write_text("expected: []\n" + numerics)
    with pytest.raises(BaselineError, match="numerics of emb") as err:
        load_numerics(path)
    assert str(path) in str(err.value)


def test_the_probe_reads_the_index_and_the_query_paths(models_dir):
    """Each sentence against each: as a query, as a document; the static model encodes a
    text the same either way, and the same twice."""
    embedder = load_embedder("minilm-static", models_dir)
    probe = numerics_probe(embedder)
    n = len(PROBE_TEXTS)
    assert len(probe) == n * n and probe == numerics_probe(embedder)
    assert all(probe[i * n + i] == pytest.approx(1.0, abs=1e-4) for i in range(n))
    assert max(probe[i * n + j] for i in range(n) for j in range(n) if i != j) < 0.99


def test_a_hand_set_tolerance_survives_a_rewrite(baseline_file):
    text = baseline_file.read_text().replace(
        "  scores:\n    ndcg@10: 0.5", "  tolerance: {ndcg@10: 0.05}\n  scores:\n    ndcg@10: 0.5")
    baseline_file.write_text(text)
    write_baseline(metrics_of([("a", "emb", 0.46), ("b", "emb", 0.3)]), baseline_file,
                   metric_names=("ndcg@10",))
    tolerances = load_baseline(baseline_file).set_index("config")["tolerance"]
    assert tolerances["a"] == 0.05 and tolerances["b"] == 0.02


def test_write_replaces_same_key_keeps_the_rest_and_rounds(baseline_file):
    write_baseline(metrics_of([("a", "emb2", 0.123456), ("b", "emb", 0.25)]), baseline_file,
                   metric_names=("ndcg@10", "map"))
    baseline = load_baseline(baseline_file)
    assert sorted(set(baseline["embedder"])) == ["emb", "emb2"]
    expected = baseline.set_index(["config", "embedder", "metric"])["expected"]
    assert expected[("a", "emb", "ndcg@10")] == 0.5  # kept
    assert expected[("b", "emb", "ndcg@10")] == 0.25  # replaced
    row = baseline.query("embedder == 'emb2' and metric == 'map'").iloc[0]
    assert row["expected"] == 0.0617 and row["tolerance"] == 0.02  # the file's tolerance kept


@pytest.mark.parametrize(("text", "message"), [
    pytest.param("expected:\n  - {config: a, queryset: q, embedder: e, corpus: c}\n",
                 "missing scores",
                 marks=pytest.mark.bad_input("baseline YAML", "entry without scores")),
    pytest.param("expected:\n  - {config: a, queryset: q, embedder: e, scores: {map: 1}}\n",
                 "missing corpus",
                 marks=pytest.mark.bad_input("baseline YAML", "entry without corpus")),
    pytest.param("expected:\n  - {config: a, queryset: q, embedder: e, corpus: c, "
                 "scores: {map: x}}\n", "map must be a number",
                 marks=pytest.mark.bad_input("baseline YAML", "score not a number")),
    pytest.param("expected: [\n", "not valid YAML",
                 marks=pytest.mark.bad_input("baseline YAML", "baseline not valid YAML")),
])
def test_bad_baseline_files_name_the_entry(tmp_path, text, message):
    path = tmp_path / "bad.yaml"
    path.write_text(text)
    with pytest.raises(BaselineError, match=message) as err:
        load_baseline(path)
    assert str(path) in str(err.value)


def test_the_asset_check_trips_on_a_degraded_config(baseline_file):
    """regression_deltas and its check materialized in-process: a healthy run passes, a
    config degraded beyond tolerance fails the check and is named in its metadata."""

    def materialize(metrics: pd.DataFrame) -> dg.ExecuteInProcessResult:
        @dg.asset(name="retrieval_metrics")
        def upstream() -> pd.DataFrame:
            return metrics

        @dg.asset(name="run_query_scores")
        def scores() -> pd.DataFrame:  # read only where the baseline kept query scores
            return pd.DataFrame()

        return dg.materialize(
            [upstream, scores, regression_deltas, no_metric_regressed],
            resources={"settings": NyayaSettings(baseline_path=str(baseline_file)),
                       "io_manager": dg.mem_io_manager})

    healthy = materialize(metrics_of([("a", "emb", 0.5), ("b", "emb", 0.3)]))
    assert [c.passed for c in healthy.get_asset_check_evaluations()] == [True]
    degraded = materialize(metrics_of([("a", "emb", 0.5), ("b", "emb", 0.1)]))
    [evaluation] = degraded.get_asset_check_evaluations()
    assert not evaluation.passed and evaluation.metadata["failed"].value == 1
    assert "| b |" in evaluation.metadata["table"].value
    deltas = degraded.output_for_node("regression_deltas")
    assert deltas.set_index("config").at["b", "status"] == REGRESSED
    assert not math.isnan(deltas.set_index("config").at["b", "delta"])


def test_the_results_page_is_the_baselines():
    """docs/results.md is generated from the baseline: a baseline rewritten without the page
    (or the page edited by hand) fails here."""
    from evals.results_page import main

    assert main(["--check"]) == 0


def test_the_results_page_sorts_each_set_by_ndcg():
    import pandas as pd

    from evals.results_page import render

    baseline = pd.DataFrame([
        {"config": config, "queryset": "s", "embedder": "minilm-static", "corpus": "c",
         "metric": metric, "expected": value, "tolerance": 0.01}
        for config, ndcg in (("low", 0.1), ("high", 0.5))
        for metric, value in (("ndcg@10", ndcg), ("map", ndcg / 2))])
    page = render(baseline)
    assert page.index("| high | 0.5000 | 0.2500 |") < page.index("| low | 0.1000 | 0.0500 |")
    assert "## minilm-static: the real-corpus tests" in page and "fingerprint c" in page


def _ten_queries(scores: list[float]) -> dict[str, float]:
    return {f"q{i}": score for i, score in enumerate(scores)}


@pytest.mark.parametrize(("tonight", "kept", "status", "rule"), [
    # every one of 10 queries 0.19 lower: within the 2 / n floor (0.2); a regression paired
    (_ten_queries([0.31] * 10), None, OK, "delta beyond max(tolerance, 2 / queries)"),
    (_ten_queries([0.31] * 10), _ten_queries([0.5] * 10), REGRESSED, "paired t-test"),
    # two queries swapped places and one fell: the mean is 0.05 lower, but that is chance
    (_ten_queries([1.0, 0.0, 0.0] + [0.5] * 7), _ten_queries([0.0, 1.0, 0.5] + [0.5] * 7), OK,
     "paired t-test"),
])
def test_a_small_set_is_judged_query_by_query(tmp_path, tonight, kept, status, rule):
    path = tmp_path / "baseline.yaml"
    mean = sum(tonight.values()) / 10
    write_baseline(metrics_of([("a", "emb", 0.50)], queries=10), path,
                   metric_names=("ndcg@10",), tolerance=0.02)
    key = ("a", "qs", "emb", "ndcg@10")
    deltas = check_regression(metrics_of([("a", "emb", mean)], queries=10), load_baseline(path),
                              {key: tonight}, {key: kept} if kept else None)
    row = deltas.iloc[0]
    assert (row["status"], row["rule"].startswith(rule)) == (status, True), row.to_dict()
    assert row["queries"] == 10


def test_query_scores_are_kept_beside_the_baseline(tmp_path):
    path = tmp_path / "regression.per_query.json"
    rows = pd.DataFrame({"config": "a", "queryset": "qs", "embedder": "emb",
                         "metric": "ndcg@10", "qid": ["q1", "q2"], "value": [0.123456, 1.0]})
    assert write_per_query(rows, path) == 1
    assert write_per_query(rows.assign(config="b", value=[0.5, 0.5]), path) == 1
    assert write_per_query(rows.assign(value=[0.0, 0.0]), path) == 1  # replaces a's entry
    kept = load_per_query(path)
    assert kept == {("a", "qs", "emb", "ndcg@10"): {"q1": 0.0, "q2": 0.0},
                    ("b", "qs", "emb", "ndcg@10"): {"q1": 0.5, "q2": 0.5}}
    forget = pd.DataFrame({"config": ["b"], "queryset": ["qs"], "embedder": ["emb"]})
    assert write_per_query(rows.iloc[:0], path, forget=forget) == 0
    assert set(load_per_query(path)) == {("a", "qs", "emb", "ndcg@10")}
    path.write_text('[{"config": "a"}]')
    with pytest.raises(BaselineError, match=r"regression\.per_query\.json: not a list"):
        load_per_query(path)


def test_the_baseline_command_keeps_the_query_scores_of_the_build_it_reads(tmp_path, capsys):
    """`nyaya baseline --metrics` of another build's report: its entries' query scores come
    from that build's runs table, never from the default data folder's; a build without one
    has its entries' old query scores forgotten (the check then uses the tolerance), and the
    other entries keep theirs."""
    from pipelines.cli import main

    report = tmp_path / "other-build" / "reports" / "latest"
    report.mkdir(parents=True)
    metrics_of([("a", "emb", 0.5)]).to_parquet(report / "metrics.parquet")
    target = tmp_path / "b.yaml"
    stale = pd.DataFrame({"config": ["a", "z"], "queryset": "qs", "embedder": "emb",
                          "metric": "ndcg@10", "qid": "q1", "value": 0.9})
    write_per_query(stale, per_query_path(target))
    assert main(["baseline", "--metrics", str(report / "metrics.parquet"),
                 "--output", str(target)]) == 0
    said = capsys.readouterr().out
    assert f"no runs table in {tmp_path / 'other-build' / 'warehouse'}" in said
    assert set(load_per_query(per_query_path(target))) == {("z", "qs", "emb", "ndcg@10")}
