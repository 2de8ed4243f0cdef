"""Config against config: per-query scores, paired significance tests, Holm, win/tie/loss.

A mean nDCG that is 0.02 higher over 48 queries is as likely noise as progress. This module
answers "is config X really better than the baseline?" the way ranx.compare does (the same
per-query scores, the same paired tests), but one row per (config, metric) against a single
baseline, with p-values corrected for how many comparisons the table makes (Holm), and with
the per-query win/tie/loss counts that show whether a gain is broad or a few queries' worth.
Runs are frames (qid, doc_id, rank, score): the pipeline's own, or its TREC files read back
with `evals.runs.read_trec`.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import pandas as pd
from ranx.statistical_tests import paired_student_t_test

from evals.metrics import per_query_scores

QrelsLike = Mapping[str, Mapping[str, int]]

TESTS = ("student", "fisher")
#: The reference each set's configs are tested against: plain BM25 of the set's side.
SIDE_BASELINES = {"statutes": "bm25-sections", "aila-statutes": "aila-statutes-bm25",
                  "precedents": "precedents-sparse"}
#: The measure a set is read by: its track's official one (AILA 2019 and IRLeD 2017 ranked by
#: MAP), nDCG@10 for the graded statute questions.
OFFICIAL_METRIC = {"aila2019-statutes": "map", "aila2019-precedents": "map",
                   "irled2017-precedents": "map"}


def primary_metric(queryset: str) -> str:
    return OFFICIAL_METRIC.get(queryset, "ndcg@10")


def baseline_of(queryset: str) -> str | None:
    """The BM25 config of the set's side (None for a set of no known side)."""
    from evals.corpus_sets import CORPUS_SET_SIDES
    from evals.querysets import QuerySetError, queryset_names, queryset_side

    if queryset in CORPUS_SET_SIDES:
        return SIDE_BASELINES[CORPUS_SET_SIDES[queryset]]
    try:
        side = queryset_side(queryset) if queryset in queryset_names() else None
    except QuerySetError:
        return None
    return SIDE_BASELINES.get(side) if side else None
COLUMNS = ["config", "baseline", "metric", "queries", "mean", "baseline_mean", "delta",
           "p_value", "p_holm", "significant", "wins", "ties", "losses"]


def per_query(run: pd.DataFrame, qrels: QrelsLike, metric: str) -> pd.Series:
    """One metric per judged query (index qid, sorted); an unanswered judged query scores 0."""
    return per_query_scores(run, qrels, [metric])[metric].rename(metric)


def holm(p_values: Mapping[str, float]) -> dict[str, float]:
    """Holm-Bonferroni adjusted p-values (step-down, monotone, capped at 1), same keys.

    Testing 50 (config, metric) pairs at 0.05 finds about 2.5 "significant" gains by chance;
    Holm controls the family-wise error like Bonferroni but rejects more. The i-th smallest of
    m p-values becomes max over j <= i of (m - j + 1) * p_(j), capped at 1."""
    for key, p in p_values.items():
        if not 0 <= p <= 1:  # also catches NaN
            raise ValueError(f"p-value of {key!r} is {p}, not in [0, 1]")
    ordered = sorted(p_values, key=lambda key: (p_values[key], key))
    m = len(ordered)
    adjusted: dict[str, float] = {}
    running = 0.0
    for i, key in enumerate(ordered):
        running = max(running, min(1.0, (m - i) * p_values[key]))
        adjusted[key] = running
    return {key: adjusted[key] for key in p_values}


def win_tie_loss(a: pd.Series, b: pd.Series, epsilon: float = 1e-9) -> tuple[int, int, int]:
    """Queries where `a` beats `b`, ties it (within epsilon), and loses to it: a mean gain
    carried by three queries reads differently from one spread over thirty. Both series are
    indexed by qid and must hold the same queries."""
    if epsilon < 0:
        raise ValueError(f"epsilon must be >= 0, got {epsilon}")
    if set(a.index) != set(b.index):
        only_a, only_b = sorted(set(a.index) - set(b.index)), sorted(set(b.index) - set(a.index))
        raise ValueError(f"the two series hold different queries: only in a {only_a[:5]}, "
                         f"only in b {only_b[:5]}")
    diff = a.to_numpy(dtype=float) - b.reindex(a.index).to_numpy(dtype=float)
    if np.isnan(diff).any():
        raise ValueError("per-query scores contain NaN")
    wins, losses = int((diff > epsilon).sum()), int((diff < -epsilon).sum())
    return wins, len(diff) - wins - losses, losses


def fisher_randomization(control: np.ndarray, treatment: np.ndarray,
                         n_permutations: int = 1000, seed: int = 42) -> float:
    """Two-sided paired randomization test, as ranx's: the share of random swaps of each
    query's pair whose |mean difference| is at least the observed one. Our own, seeded with a
    numpy Generator, because ranx's numba version seeds only the calling thread and gives a
    different p-value from run to run with more than one thread."""
    diff = np.asarray(control, dtype=float) - np.asarray(treatment, dtype=float)
    observed = abs(diff.mean())
    signs = np.random.default_rng(seed).choice((-1.0, 1.0), size=(n_permutations, len(diff)))
    permuted = np.abs((signs * diff).mean(axis=1))
    return float((permuted >= observed - 1e-12).mean())  # 1e-12: the observed swap counts too


def _p_value(control: np.ndarray, treatment: np.ndarray, test: str, n_permutations: int,
             seed: int) -> float:
    if np.array_equal(control, treatment) or len(control) < 2:
        return 1.0  # nothing differs, or one query: no evidence (t would be 0/0 or undefined)
    if test == "student":
        p_value, _ = paired_student_t_test(control, treatment)
        return float(p_value)
    return fisher_randomization(control, treatment, n_permutations, seed)


def compare_configs(runs: Mapping[str, pd.DataFrame], qrels: QrelsLike, baseline: str,
                    metrics: Sequence[str] = ("ndcg@10", "map"), test: str = "student",
                    alpha: float = 0.05, *, n_permutations: int = 1000,
                    seed: int = 42) -> pd.DataFrame:
    """Each config against `baseline` over the judged queries: means, delta, a paired test
    per (config, metric), Holm across every row of the table, and win/tie/loss per query.

    `test` is "student" (ranx's two-sided paired t-test: the p-values ranx.compare reports)
    or "fisher" (paired randomization test, seeded). Rows are ordered by metric as given, then
    config name. A config scored on different queries than the baseline (a tuned one scored
    on held-out queries only) must be compared with `qrels` restricted to those queries."""
    if not qrels:
        raise ValueError("no judged queries in qrels: nothing to compare on")
    metrics = _checked(metrics, test, alpha, baseline, runs)
    for name, run in runs.items():
        missing = {"qid", "doc_id", "rank", "score"} - set(run.columns)
        if missing:
            raise ValueError(f"run of config {name!r} lacks columns {sorted(missing)}")
        if not run["qid"].isin(list(qrels)).any():
            raise ValueError(f"run of config {name!r} answers none of the {len(qrels)} judged "
                             "queries: wrong query set, or qids that do not match the qrels")
    return compare_scores({name: per_query_scores(run, qrels, metrics)
                           for name, run in runs.items()}, baseline, metrics, test, alpha,
                          n_permutations=n_permutations, seed=seed)


def compare_scores(scores: Mapping[str, pd.DataFrame], baseline: str,
                   metrics: Sequence[str] = ("ndcg@10", "map"), test: str = "student",
                   alpha: float = 0.05, *, n_permutations: int = 1000,
                   seed: int = 42) -> pd.DataFrame:
    """`compare_configs` over per-query scores already computed (config -> a table indexed by
    qid with a column per metric, every config on the baseline's queries): the pipeline
    scores each run once and reads these tests and its regression check from that one
    table."""
    metrics = _checked(metrics, test, alpha, baseline, scores)
    base = scores[baseline]
    rows = []
    for metric in metrics:
        for name in sorted(scores):
            if name == baseline:
                continue
            ours, theirs = scores[name][metric], base[metric]
            wins, ties, losses = win_tie_loss(ours, theirs)
            rows.append({
                "config": name, "baseline": baseline, "metric": metric, "queries": len(ours),
                "mean": float(ours.mean()), "baseline_mean": float(theirs.mean()),
                "delta": float(ours.mean() - theirs.mean()),
                "p_value": _p_value(theirs.to_numpy(), ours.to_numpy(), test, n_permutations,
                                    seed),
                "wins": wins, "ties": ties, "losses": losses})
    table = pd.DataFrame(rows, columns=[c for c in COLUMNS if c not in ("p_holm",
                                                                        "significant")])
    adjusted = holm({f"{row.config}\t{row.metric}": row.p_value for row in table.itertuples()})
    table["p_holm"] = [adjusted[f"{c}\t{m}"] for c, m in zip(table["config"], table["metric"],
                                                              strict=True)]
    table["significant"] = table["p_holm"] < alpha
    return table[COLUMNS].astype({"queries": "int64", "wins": "int64", "ties": "int64",
                                  "losses": "int64", "significant": bool})


def _checked(metrics: Sequence[str], test: str, alpha: float, baseline: str,
             configs: Mapping[str, object]) -> list[str]:
    """The metrics without repeats, once the test, alpha and baseline are known good."""
    if test not in TESTS:
        raise ValueError(f"unknown test {test!r}; choose one of {TESTS}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be in (0, 1), got {alpha}")
    metrics = list(dict.fromkeys(metrics))
    if not metrics:
        raise ValueError("no metrics asked for")
    if baseline not in configs:
        raise ValueError(f"baseline config {baseline!r} is not among the runs "
                         f"({', '.join(sorted(configs)) or 'none'})")
    return metrics


def branches_of(retrievers: Mapping[str, Sequence[str]]) -> dict[str, dict[str, str]]:
    """fused config -> {retriever: the config that is that retriever alone}, for every config
    of two or more retrievers (`retrievers`: config -> its retrievers, one side's). A
    retriever no single-retriever config runs maps to "" (no branch to compare)."""
    alone = {names[0]: config for config, names in sorted(retrievers.items())
             if len(names) == 1}
    return {config: {name: alone.get(name, "") for name in names}
            for config, names in sorted(retrievers.items()) if len(names) > 1}


def fusion_against_branches(metrics: pd.DataFrame, branches: Mapping[str, Mapping[str, str]]
                            ) -> pd.DataFrame:
    """Per query set and fused config: its score by the set's measure against its best
    single-retriever branch. A fusion earns its place only where it is at least as good as
    that branch (`adds`); `subtracts` marks one to drop. Tuned configs and sets a config or
    its branches did not run are left out."""
    overall = metrics[metrics["group"] == "all"]
    if "fitted_params" in overall:
        overall = overall[overall["fitted_params"].fillna("") == ""]
    rows = []
    for queryset, found in sorted(overall.groupby("queryset")):
        metric = primary_metric(queryset)
        score = dict(zip(found["config"], found[metric], strict=True))
        for config, parts in branches.items():
            measured = {name: score[branch] for name, branch in parts.items() if branch in score}
            if config not in score or not measured:
                continue
            best = max(sorted(measured), key=measured.__getitem__)
            delta = float(score[config]) - float(measured[best])
            rows.append({"queryset": queryset, "config": config, "metric": metric,
                         "fused": round(float(score[config]), 4), "best_branch": parts[best],
                         "branch": round(float(measured[best]), 4), "delta": round(delta, 4),
                         "verdict": "adds" if delta >= 0 else "subtracts",
                         "no_branch_config": ", ".join(sorted(
                             name for name, branch in parts.items() if not branch))})
    return pd.DataFrame(rows, columns=["queryset", "config", "metric", "fused", "best_branch",
                                       "branch", "delta", "verdict", "no_branch_config"])
