"""Config comparison: per-query scores, Holm, win/tie/loss and the paired tests, on hand-made
runs whose every number can be worked out on paper; and agreement with ranx.compare."""

from __future__ import annotations

import itertools
import math
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from ranx import compare

from evals.compare import (
    COLUMNS,
    compare_configs,
    fisher_randomization,
    holm,
    per_query,
    win_tie_loss,
)
from evals.metrics import per_query_scores, to_ranx
from evals.runs import rank_frame, read_trec, write_trec


def run_of(ranked: dict[str, list[str]]) -> pd.DataFrame:
    """Documents in rank order per query, scores falling from 1.0."""
    return rank_frame({qid: [(doc, 1.0 - 0.01 * i, "test") for i, doc in enumerate(docs)]
                       for qid, docs in ranked.items()})


# one relevant document per query: mrr is 1/rank of it, precision@1 whether it is first
QRELS = {"q1": {"a": 1}, "q2": {"b": 1}, "q3": {"c": 1}, "q4": {"d": 1}}
# mrr    1, 1/2, 1/4, 0 (q4 unanswered)    precision@1  1, 0, 0, 0
BASE = run_of({"q1": ["a"], "q2": ["x", "b"], "q3": ["x", "y", "z", "c"]})
# mrr    1, 1, 1/2, 1/4                    precision@1  1, 1, 0, 0
BETTER = run_of({"q1": ["a"], "q2": ["b"], "q3": ["x", "c"], "q4": ["x", "y", "z", "d"]})
# mrr    1/2, 1/2, 1, 0 (q4 answered, miss) precision@1  0, 0, 1, 0
MIXED = run_of({"q1": ["x", "a"], "q2": ["x", "b"], "q3": ["c"], "q4": ["x"]})


def t3_two_sided(t: float) -> float:
    """Two-sided p of Student's t with 3 degrees of freedom, in closed form:
    P(|T| >= t) = 1 - (2/pi) (theta + sin(theta) cos(theta)), theta = atan(t / sqrt(3))."""
    theta = math.atan(abs(t) / math.sqrt(3))
    return 1 - 2 / math.pi * (theta + math.sin(theta) * math.cos(theta))


# --- per_query --------------------------------------------------------------------------------

GRADED = {"q1": {"a": 2, "b": 1}}
NDCG_BA = (1 / math.log2(2) + 2 / math.log2(3)) / (2 / math.log2(2) + 1 / math.log2(3))


@pytest.mark.parametrize(("run", "qrels", "metric", "expected"), [
    (BASE, QRELS, "mrr", {"q1": 1.0, "q2": 0.5, "q3": 0.25, "q4": 0.0}),
    (BETTER, QRELS, "mrr", {"q1": 1.0, "q2": 1.0, "q3": 0.5, "q4": 0.25}),
    (MIXED, QRELS, "mrr", {"q1": 0.5, "q2": 0.5, "q3": 1.0, "q4": 0.0}),
    (BASE, QRELS, "precision@1", {"q1": 1.0, "q2": 0.0, "q3": 0.0, "q4": 0.0}),
    (BETTER, QRELS, "recall@1", {"q1": 1.0, "q2": 1.0, "q3": 0.0, "q4": 0.0}),
    # graded: linear gain (trec_eval's), b then a
    (run_of({"q1": ["b", "a"]}), GRADED, "ndcg@10", {"q1": NDCG_BA}),
    (run_of({"q1": ["a", "b"]}), GRADED, "ndcg@10", {"q1": 1.0}),
    # a query the qrels do not judge is ignored; the judged one it never answers scores 0
    (run_of({"q9": ["a"]}), {"q1": {"a": 1}, "q2": {"a": 1}}, "mrr", {"q1": 0.0, "q2": 0.0}),
    (run_of({"q2": ["a"], "q9": ["a"]}), {"q1": {"a": 1}, "q2": {"a": 1}}, "mrr",
     {"q1": 0.0, "q2": 1.0}),
])
def test_per_query_by_hand(run, qrels, metric, expected):
    scores = per_query(run, qrels, metric)
    assert scores.index.tolist() == sorted(expected)  # every judged query, sorted
    assert scores.name == metric
    assert scores.to_dict() == pytest.approx(expected, abs=1e-12)


def test_per_query_scores_is_one_column_per_metric_in_the_given_order():
    frame = per_query_scores(BASE, QRELS, ["precision@1", "mrr", "precision@1"])
    assert frame.columns.tolist() == ["precision@1", "mrr"]
    assert frame.index.tolist() == ["q1", "q2", "q3", "q4"]
    assert frame["mrr"].tolist() == pytest.approx([1.0, 0.5, 0.25, 0.0])


def test_per_query_keeps_the_run_order_of_tied_scores():
    # equal scores: rank decides (ties pre-broken), so "b" at rank 2 gives mrr 1/2
    run = pd.DataFrame({"qid": ["q1", "q1"], "doc_id": ["z", "b"], "rank": [1, 2],
                        "score": [1.0, 1.0]})
    assert per_query(run, {"q1": {"b": 1}}, "mrr")["q1"] == pytest.approx(0.5)


# --- holm -------------------------------------------------------------------------------------

# dyadic p-values: every product below is exact in binary floating point, so == is fair
@pytest.mark.parametrize(("p_values", "expected"), [
    ({}, {}),
    ({"only": 1 / 4}, {"only": 1 / 4}),
    # sorted a, c, b: 3 * 1/64, 2 * 1/32 = 4/64, 1 * 1/16 = 4/64
    ({"a": 1 / 64, "b": 1 / 16, "c": 1 / 32}, {"a": 3 / 64, "b": 1 / 16, "c": 1 / 16}),
    # monotone: 2 * 5/64 = 10/64 < 3 * 1/16 = 12/64 is raised to 12/64
    ({"a": 1 / 16, "b": 5 / 64, "c": 1 / 2}, {"a": 3 / 16, "b": 3 / 16, "c": 1 / 2}),
    # equal p-values get equal adjusted values whatever their order
    ({"y": 1 / 8, "x": 1 / 8}, {"y": 1 / 4, "x": 1 / 4}),
    # capped at 1
    ({"a": 1 / 2, "b": 3 / 4}, {"a": 1.0, "b": 1.0}),
    ({"a": 0.0, "b": 1 / 4}, {"a": 0.0, "b": 1 / 4}),
    # m = 5: 5/256, 4 * 2/256 = 8/256 -> 5/256 < 8/256, 3 * 3/256 = 9/256, 2 * 4/256 = 8/256
    # -> 9/256, then 1 * 1/2
    ({"e": 1 / 2, "d": 1 / 64, "c": 3 / 256, "b": 1 / 128, "a": 1 / 256},
     {"e": 1 / 2, "d": 9 / 256, "c": 9 / 256, "b": 8 / 256, "a": 5 / 256}),
])
def test_holm_exact(p_values, expected):
    adjusted = holm(p_values)
    assert adjusted == expected
    assert list(adjusted) == list(p_values)  # the caller's key order


@pytest.mark.parametrize("bad", [1.5, -0.01, math.nan])
def test_holm_rejects_what_is_not_a_p_value(bad):
    with pytest.raises(ValueError, match="'b'"):
        holm({"a": 0.1, "b": bad})


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(st.text(min_size=1, max_size=3),
                       st.floats(min_value=0, max_value=1), max_size=12))
def test_holm_bounds_and_order(p_values):
    adjusted = holm(p_values)
    m = len(p_values)
    for key, p in p_values.items():
        assert p <= adjusted[key] <= min(1.0, m * p) + 1e-15
    ordered = sorted(p_values, key=p_values.get)
    assert all(adjusted[a] <= adjusted[b] for a, b in itertools.pairwise(ordered))


# --- win / tie / loss -------------------------------------------------------------------------

@pytest.mark.parametrize(("a", "b", "epsilon", "expected"), [
    ([1.0, 0.5, 0.0, 0.3], [0.5, 0.5, 1.0, 0.3], 1e-9, (1, 2, 1)),
    ([0.3], [0.3 + 1e-12], 1e-9, (0, 1, 0)),  # within epsilon: a tie
    ([0.3], [0.3 + 1e-12], 0.0, (0, 0, 1)),  # exact comparison: a loss
    ([0.5, 0.5], [0.4, 0.45], 0.06, (1, 1, 0)),
    ([], [], 1e-9, (0, 0, 0)),
])
def test_win_tie_loss_by_hand(a, b, epsilon, expected):
    qids = [f"q{i}" for i in range(len(a))]
    assert win_tie_loss(pd.Series(a, index=qids, dtype=float),
                        pd.Series(b, index=qids, dtype=float), epsilon) == expected


def test_win_tie_loss_pairs_by_qid_not_position():
    a = pd.Series([1.0, 0.0], index=["q1", "q2"])
    b = pd.Series([1.0, 0.0], index=["q2", "q1"])  # q1: 1 vs 0, q2: 0 vs 1
    assert win_tie_loss(a, b) == (1, 0, 1)


def test_win_tie_loss_refuses_different_queries():
    with pytest.raises(ValueError, match="only in a"):
        win_tie_loss(pd.Series([1.0], index=["q1"]), pd.Series([1.0], index=["q2"]))


# --- compare_configs --------------------------------------------------------------------------

# differences from BASE per query:
#  better mrr (0, 1/2, 1/4, 1/4): mean 1/4, sd 1/sqrt(24), t = sqrt(6)
#  mixed  mrr (-1/2, 0, 3/4, 0): mean 1/16, sd sqrt(17)/8, t = 1/sqrt(17)
#  better precision@1 (0, 1, 0, 0): mean 1/4, sd 1/2, t = 1
#  mixed  precision@1 (-1, 0, 1, 0): mean 0, t = 0
P_BETTER_MRR = t3_two_sided(math.sqrt(6))
P_MIXED_MRR = t3_two_sided(1 / math.sqrt(17))
P_BETTER_P1 = t3_two_sided(1.0)
HAND_ROWS = [
    # config, metric, mean, baseline mean, delta, p, p_holm, wins, ties, losses
    ("better", "mrr", 11 / 16, 7 / 16, 1 / 4, P_BETTER_MRR, 4 * P_BETTER_MRR, 3, 1, 0),
    ("mixed", "mrr", 1 / 2, 7 / 16, 1 / 16, P_MIXED_MRR, 1.0, 1, 2, 1),
    ("better", "precision@1", 1 / 2, 1 / 4, 1 / 4, P_BETTER_P1, 1.0, 1, 3, 0),
    ("mixed", "precision@1", 1 / 4, 1 / 4, 0.0, 1.0, 1.0, 1, 2, 1),
]


def test_closed_form_p_values_are_what_they_should_be():
    # the hand values themselves: 2/3 - sqrt(3)/(2 pi) for t = 1; ordering for Holm
    assert pytest.approx(2 / 3 - math.sqrt(3) / (2 * math.pi)) == P_BETTER_P1
    assert 4 * P_BETTER_MRR < 1 < 3 * P_BETTER_P1
    assert P_BETTER_MRR < P_BETTER_P1 < P_MIXED_MRR < 1


@pytest.mark.parametrize(("alpha", "significant"), [(0.05, [False] * 4),
                                                     (0.5, [True, False, False, False])])
def test_compare_configs_by_hand(alpha, significant):
    table = compare_configs({"mixed": MIXED, "base": BASE, "better": BETTER}, QRELS, "base",
                            metrics=("mrr", "precision@1"), alpha=alpha)
    assert table.columns.tolist() == COLUMNS
    assert table[["config", "metric"]].values.tolist() == [[r[0], r[1]] for r in HAND_ROWS]
    assert (table["baseline"] == "base").all() and (table["queries"] == 4).all()
    for column, index in (("mean", 2), ("baseline_mean", 3), ("delta", 4), ("p_value", 5),
                          ("p_holm", 6)):
        assert table[column].tolist() == pytest.approx([r[index] for r in HAND_ROWS],
                                                       rel=1e-9, abs=1e-12), column
    assert table[["wins", "ties", "losses"]].values.tolist() == [list(r[7:]) for r in HAND_ROWS]
    assert table["significant"].tolist() == significant


def test_fisher_is_seeded_and_near_the_exact_permutation_p():
    # better mrr: 2 of the 8 sign patterns of (1/2, 1/4, 1/4) reach |sum| >= 1: exact p = 1/4
    table = compare_configs({"base": BASE, "better": BETTER}, QRELS, "base", metrics=("mrr",),
                            test="fisher", n_permutations=20000, seed=7)
    again = compare_configs({"base": BASE, "better": BETTER}, QRELS, "base", metrics=("mrr",),
                            test="fisher", n_permutations=20000, seed=7)
    assert table["p_value"].iloc[0] == again["p_value"].iloc[0]
    assert table["p_value"].iloc[0] == pytest.approx(0.25, abs=0.02)


@pytest.mark.parametrize("n", [3, 5, 8])
def test_fisher_randomization_matches_full_enumeration(n):
    rng = np.random.default_rng(n)
    control, treatment = rng.random(n).round(2), rng.random(n).round(2)
    diff = control - treatment
    flips = [abs(np.mean(np.array(signs) * diff)) for signs in
             itertools.product((-1, 1), repeat=n)]
    exact = np.mean(np.array(flips) >= abs(diff.mean()) - 1e-12)
    assert fisher_randomization(control, treatment, 40000, seed=1) == \
        pytest.approx(exact, abs=0.015)


def test_identical_runs_have_p_one_under_both_tests():
    for test in ("student", "fisher"):
        table = compare_configs({"base": BASE, "copy": BASE.copy()}, QRELS, "base", test=test)
        assert table["p_value"].tolist() == [1.0, 1.0], test
        assert table[["wins", "ties", "losses"]].values.tolist() == [[0, 4, 0]] * 2


def test_a_single_judged_query_is_no_evidence():
    qrels = {"q1": {"a": 1}}
    for test in ("student", "fisher"):
        runs = {"base": run_of({"q1": ["x", "a"]}), "other": run_of({"q1": ["a"]})}
        table = compare_configs(runs, qrels, "base", metrics=("mrr",), test=test)
        assert table[["delta", "p_value", "wins"]].values.tolist() == [[0.5, 1.0, 1]], test


def test_only_the_baseline_gives_an_empty_table():
    table = compare_configs({"base": BASE}, QRELS, "base")
    assert table.empty and table.columns.tolist() == COLUMNS


def random_runs(seed: int, queries: int = 15, docs: int = 40) -> tuple[dict, dict]:
    """Graded qrels and three runs of random rankings; q00 unanswered by one run, and each
    run answers an unjudged query too."""
    rng = np.random.default_rng(seed)
    pool = [f"d{i:02d}" for i in range(docs)]
    qrels = {f"q{i:02d}": {str(doc): int(rng.integers(1, 3))
                           for doc in rng.choice(pool, size=int(rng.integers(1, 5)),
                                                 replace=False)}
             for i in range(queries)}
    runs = {}
    for name in ("base", "alpha", "beta"):
        ranked = {qid: [str(d) for d in rng.choice(pool, size=20, replace=False)]
                  for qid in [*qrels, "unjudged"]}
        if name == "alpha":
            del ranked["q00"]
        runs[name] = run_of(ranked)
    return qrels, runs


@pytest.mark.parametrize("seed", [0, 1])
def test_p_values_means_and_counts_match_ranx_compare(seed):
    qrels, runs = random_runs(seed)
    metrics = ["ndcg@10", "map", "mrr", "precision@5"]
    ranx_qrels, _ = to_ranx(runs["base"], qrels)
    ranx_runs = []
    for name, frame in runs.items():
        _, run = to_ranx(frame, qrels)
        run.name = name
        ranx_runs.append(run)
    report = compare(ranx_qrels, ranx_runs, metrics, stat_test="student", make_comparable=True)
    table = compare_configs(runs, qrels, "base", metrics=metrics)
    assert len(table) == 2 * len(metrics)
    for row in table.itertuples():
        theirs = report.comparisons[row.config, "base"][row.metric]["p_value"]
        assert row.p_value == pytest.approx(float(theirs), rel=1e-12), row
        assert row.mean == pytest.approx(report.results[row.config][row.metric], rel=1e-12)
        assert row.baseline_mean == pytest.approx(report.results["base"][row.metric], rel=1e-12)
        counts = report.win_tie_loss[(row.config, "base")][row.metric]
        assert (row.wins, row.ties, row.losses) == (counts["W"], counts["T"], counts["L"])
    assert table["p_value"].min() < 1  # the runs differ: a real test, not the p = 1 shortcut


# --- errors -----------------------------------------------------------------------------------

@pytest.mark.bad_input("run comparison", "baseline config not among the runs")
def test_missing_baseline_is_named():
    with pytest.raises(ValueError, match=r"'bm25'.*better, mixed"):
        compare_configs({"better": BETTER, "mixed": MIXED}, QRELS, "bm25")


@pytest.mark.bad_input("run comparison", "run answering no judged query")
def test_run_with_no_judged_query_is_named():
    stray = run_of({"q9": ["a"]})
    with pytest.raises(ValueError, match="'stray' answers none of the 4 judged"):
        compare_configs({"base": BASE, "stray": stray}, QRELS, "base")


@pytest.mark.parametrize(("kwargs", "message"), [
    ({"test": "tukey"}, "unknown test 'tukey'"),
    ({"alpha": 0.0}, "alpha"),
    ({"metrics": ()}, "no metrics"),
])
def test_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        compare_configs({"base": BASE, "better": BETTER}, QRELS, "base", **kwargs)


@pytest.mark.bad_input("run comparison", "no judged queries")
def test_empty_qrels_are_refused():
    with pytest.raises(ValueError, match="no judged queries"):
        compare_configs({"base": BASE}, {}, "base")


@pytest.mark.bad_input("run comparison", "run frame without rank and score")
def test_missing_columns_are_named():
    with pytest.raises(ValueError, match=r"'bare' lacks columns \['rank', 'score'\]"):
        compare_configs({"base": BASE, "bare": BASE[["qid", "doc_id"]]}, QRELS, "base")


# --- with the pipeline's TREC files ---------------------------------------------------------

def test_runs_read_back_from_trec_files_compare_like_the_frames(tmp_path: Path):
    frames = {"base": BASE, "better": BETTER, "mixed": MIXED}
    for name, frame in frames.items():
        write_trec(frame, tmp_path / f"{name}.trec", name, sorted(QRELS))
    read = {name: read_trec(tmp_path / f"{name}.trec") for name in frames}
    metrics = ("mrr", "precision@1")
    expected = compare_configs(frames, QRELS, "base", metrics=metrics)
    pd.testing.assert_frame_equal(compare_configs(read, QRELS, "base", metrics=metrics),
                                  expected)
    assert expected["p_value"].tolist() == pytest.approx([r[5] for r in HAND_ROWS])


@pytest.mark.parametrize(("retrievers", "expected"), [
    ({"a": ["dense"], "b": ["sparse"], "ab": ["dense", "sparse"]},
     {"ab": {"dense": "a", "sparse": "b"}}),
    ({"b": ["sparse"], "bc": ["sparse", "cases"]}, {"bc": {"sparse": "b", "cases": ""}}),
    ({"a": ["dense"], "b": ["sparse"]}, {}),
    ({"h": ["qdrant-hybrid"]}, {}),  # fusion inside one retriever is not a config's fusion
])
def test_a_fused_config_s_branches_are_the_single_retriever_configs(retrievers, expected):
    from evals.compare import branches_of

    assert branches_of(retrievers) == expected


def _metrics(rows):
    return pd.DataFrame([{"queryset": s, "config": c, "group": "all", "ndcg@10": v, "map": v,
                          "fitted_params": f} for s, c, v, f in rows])


@pytest.mark.parametrize(("rows", "expected"), [
    # at least as good as the best branch: adds; the branch compared is the best one
    ([("q", "ab", 0.5, ""), ("q", "a", 0.5, ""), ("q", "b", 0.3, "")],
     [("q", "ab", "a", 0.0, "adds")]),
    ([("q", "ab", 0.4, ""), ("q", "a", 0.2, ""), ("q", "b", 0.45, "")],
     [("q", "ab", "b", -0.05, "subtracts")]),
    # a set where no branch ran, or a tuned fusion, is not compared
    ([("q", "ab", 0.4, "")], []),
    ([("q", "ab", 0.4, '{"w": 1}'), ("q", "a", 0.2, "")], []),
    # AILA is read by MAP, the official measure
    ([("aila2019-statutes", "ab", 0.1, ""), ("aila2019-statutes", "a", 0.2, "")],
     [("aila2019-statutes", "ab", "a", -0.1, "subtracts")]),
])
def test_fusion_is_compared_with_its_best_branch(rows, expected):
    from evals.compare import fusion_against_branches

    table = fusion_against_branches(_metrics(rows), {"ab": {"dense": "a", "sparse": "b"}})
    assert [(r.queryset, r.config, r.best_branch, r.delta, r.verdict)
            for r in table.itertuples()] == [(q, c, b, pytest.approx(d), v)
                                             for q, c, b, d, v in expected]
