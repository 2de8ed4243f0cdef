"""The evaluation loop: config -> query set -> run -> metrics, one home for the evaluation
asset, the evaluation benchmark and a notebook.

`run_configs` searches every query set a config names with its side's one search (statute and
precedent configs never share a list), writes each run as TREC and yields it with its timings;
`score_runs` turns the runs into the metrics table, `compare_to_bm25` into the significance
table. Parameters marked `tuned` are fitted per query set on its training queries, and a tuned
config is scored on the held-out half only.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from evals.baseline import HEADLINE_METRICS, PerQuery
from evals.citation_sets import DEV_SET_SIDES
from evals.compare import baseline_of, compare_scores
from evals.configs import RetrievalConfig, load_config, side_of
from evals.corpus_sets import (
    CANDIDATE_SOURCES,
    absent_aila_statutes,
    load_any_queryset,
    querysets_for,
    tuning_set,
)
from evals.metrics import DEFAULT_METRICS, STATUTE_METRICS, evaluate_groups, per_query_scores
from evals.querysets import QuerySet, unknown_documents
from evals.runner import SIDES, group_tags, run_queryset, statute_side
from evals.runs import write_trec
from evals.splits import HELDOUT, TRAIN, in_split, is_trained, is_tuned
from evals.tuning import fit
from nyaya.index.store import RememberedSearches, open_store
from nyaya.judgments.sources import doc_id_of
from nyaya.parallel import available_cores, map_in_processes
from nyaya.provenance import code_version, tree_fingerprint
from nyaya.retrieval.pipeline import StatuteSearch
from nyaya.settings import Settings
from nyaya.tables import read_table


class EvaluationError(ValueError):
    """A config that cannot be evaluated as asked; the message names the config and set."""


@dataclass(frozen=True)
class ConfigRun:
    """One config over one query set: the ranked run and how it was made."""

    config: str
    config_hash: str
    queryset: QuerySet
    run: pd.DataFrame  # qid, doc_id, rank, score, method
    fitted: dict
    embedder: str
    seconds: float  # searching every query
    median_ms: float

    def frame(self) -> pd.DataFrame:
        """The run with its provenance on every line, as the runs table holds it."""
        queries = len(self.queryset.queries)
        return self.run.assign(
            config=self.config, config_hash=self.config_hash, queryset=self.queryset.name,
            fitted_params=json.dumps(self.fitted, sort_keys=True) if self.fitted else "",
            embedder=self.embedder, search_seconds=round(self.seconds, 3),
            median_ms=round(self.median_ms, 3),
            queries_per_second=round(queries / self.seconds, 1) if self.seconds else 0.0)


def judged_empty_files(settings: Settings) -> set[str]:
    """Doc ids of judgment files quarantined as empty (e.g. IRLeD prior_case_0827)."""
    quarantine = read_table(settings.warehouse / "judgment_quarantine.parquet")
    empty = quarantine[quarantine["reason"] == "empty_file"]["source_file"]
    return {doc_id for doc_id in map(doc_id_of, empty) if doc_id is not None}


def _search(searcher: Callable, name: str, params: dict, resources,
            queryset: QuerySet) -> tuple[Any, dict]:
    """The config's search, and what was fitted for it on `queryset`'s training queries."""
    if not is_tuned(params):
        return searcher(name, params, resources), {}
    if searcher is not StatuteSearch:
        raise EvaluationError(f"config {name}: tuned parameters exist for statute configs only")
    fitted_params, fitted = fit(lambda p: searcher(name, p, resources), params, queryset)
    return searcher(name, fitted_params, resources), fitted


def run_configs(settings: Settings, names: Sequence[str], *, first: int | None = None,
                runs_dir: Path | None = None, log: Callable[[str], None] = print,
                loaded: Callable[[str, float], None] | None = None,
                dev_split: str = HELDOUT, sets: Collection[str] | None = None,
                workers: int = 1) -> Iterator[ConfigRun]:
    """Every query set of each config (or those of them in `sets`) through its side's
    search, one side at a time (its resources loaded once), one set at a time (every config
    of the side on it). Each run is written to
    `runs_dir/<query set>/<config>.trec` (data/runs by default). `first` keeps each set's
    first N queries (quick runs); `loaded` hears (side, seconds) when a side's resources are
    loaded; `dev_split=TRAIN` runs the development sets' training halves instead of their
    held-out queries (choosing a method there; a config that learned from those halves is
    refused). A side none of whose sets is in `sets` loads nothing. With `workers` > 1 the
    sides run at once in worker processes (nyaya.parallel), yielded in the same order."""
    configs = {name: load_config(name) for name in names}
    if sets is not None:
        offered = {name for config in configs.values() for name in querysets_for(
            side_of(config))}
        unknown = sorted(set(sets) - offered)
        if unknown:
            raise EvaluationError(f"no config of {', '.join(names)} runs on query set "
                                  f"{', '.join(unknown)}: they run on "
                                  f"{', '.join(sorted(offered))}")
    learned = sorted(name for name, config in configs.items() if is_trained(config.params))
    if dev_split != HELDOUT and learned:
        raise EvaluationError(f"config {', '.join(learned)} learned from the development sets' "
                              f"training halves: scored there it would be scored on what it "
                              f"learned from")
    runs_dir = settings.data_dir / "runs" if runs_dir is None else runs_dir
    sides = []
    for side in SIDES:
        chosen = {name: config for name, config in configs.items() if side_of(config) == side}
        chosen_sets = [name for name in querysets_for(side) if sets is None or name in sets]
        if chosen and chosen_sets:
            sides.append(SideWork(settings, side, chosen, chosen_sets, first, runs_dir,
                                  dev_split))
    if workers > 1 and len(sides) > 1:
        for side, (seconds, config_runs) in zip(sides, map_in_processes(
                _side_runs, sides, log=log, workers=workers), strict=True):
            if loaded is not None:
                loaded(side.side, seconds)
            yield from config_runs
        return
    for side in sides:
        yield from side.runs(log, loaded)


@dataclass(frozen=True)
class SideWork:
    """One side's share of `run_configs`: its configs over its chosen query sets."""

    settings: Settings
    side: str
    configs: dict[str, RetrievalConfig]
    querysets: list[str]
    first: int | None
    runs_dir: Path
    dev_split: str

    def runs(self, log: Callable[[str], None],
             loaded: Callable[[str, float], None] | None = None) -> Iterator[ConfigRun]:
        settings, side = self.settings, self.side
        searcher, load = SIDES[side]
        precedents = side == "precedents"
        judgments = read_table(settings.table_path("judgments")) if precedents else None
        # judged files the corpus ships empty or lacks: they stay in the qrels (an honest
        # ceiling on recall) and are counted, instead of failing the run
        empty = (judged_empty_files(settings) if precedents else
                 absent_aila_statutes(settings.corpus_root) if side == "aila-statutes"
                 else set())
        if empty:
            log(f"{len(empty)} judged documents are empty or absent files in the corpus: kept "
                f"in the qrels as misses ({', '.join(sorted(empty))})")
        # every config of the side asks the same searches of the same queries: one scan
        # answers them all
        store = RememberedSearches(open_store(settings.qdrant_path, settings.qdrant_url,
                                              settings.qdrant_api_key, read_only=True))
        try:
            started = time.perf_counter()
            resources = load(settings, store)
            if loaded is not None:
                loaded(side, time.perf_counter() - started)
            known = set((resources.judgments if precedents else resources.documents)["doc_id"])
            # one query set at a time, so what its configs share is remembered together
            for queryset_name in self.querysets:
                queryset = first_queries(load_any_queryset(
                    queryset_name, settings.corpus_root, judgments, settings.warehouse,
                    self.dev_split), self.first)
                tuning = tuning_set(queryset, settings.corpus_root, settings.warehouse)
                missing = unknown_documents(queryset, known | empty)
                if missing:
                    raise EvaluationError(f"{queryset_name}: judged documents not "
                                          f"searchable by {next(iter(self.configs))}: "
                                          f"{missing}")
                for name, config in self.configs.items():
                    search, fitted = _search(searcher, name, config.params, resources, tuning)
                    timed = run_queryset(search, queryset, int(config.params["top_k"]),
                                         CANDIDATE_SOURCES.get(queryset_name))
                    write_trec(timed.run, self.runs_dir / queryset_name / f"{name}.trec", name,
                               queryset.queries["qid"].tolist())
                    log(f"{name} on {queryset_name}: {len(queryset.queries)} queries in "
                        f"{timed.seconds:.2f}s, median {timed.median_ms:.2f} ms")
                    yield ConfigRun(name, config.config_hash, queryset, timed.run, fitted,
                                    resources.embedder.name, timed.seconds, timed.median_ms)
        finally:
            store.close()


def _side_runs(work: SideWork, log: Callable[[str], None]) -> tuple[float, list[ConfigRun]]:
    """A side's runs in a worker process, with the seconds its resources took to load."""
    seconds = []
    runs = list(work.runs(log, lambda _side, took: seconds.append(took)))
    return seconds[0], runs


def first_queries(queryset: QuerySet, count: int | None) -> QuerySet:
    """The set cut to its first `count` queries and their qrels (all of it for None)."""
    if count is None:
        return queryset
    queries = queryset.queries.head(count)
    kept = set(queries["qid"])
    return QuerySet(queryset.name, queries,
                    {qid: grades for qid, grades in queryset.qrels.items() if qid in kept})


def held_out(queryset_name: str, qids: Iterable[str]) -> list[str]:
    """The held-out queries among a set's `qids`, sorted: all of a development set's (it is
    the held-out half, split by judgment), the held-out half by qid of any other set's."""
    return sorted(qids) if queryset_name in DEV_SET_SIDES else in_split(qids, HELDOUT)


def held_out_qrels(queryset: QuerySet) -> dict[str, dict[str, int]]:
    """The set's held-out judgments (`held_out`)."""
    return {qid: queryset.qrels[qid] for qid in held_out(queryset.name, queryset.qrels)}


def scored_qrels(config: str, queryset: QuerySet) -> dict[str, dict[str, int]]:
    """The judgments a config is scored on: the held-out ones for a config that learned from
    training queries (never what it was fitted on), all of them otherwise."""
    if is_trained(load_config(config).params):
        return held_out_qrels(queryset)
    return queryset.qrels


def metrics_of(config: str, queryset: QuerySet, run: pd.DataFrame) -> pd.DataFrame:
    """ranx metrics of one run: overall, by query type, domain and split."""
    return evaluate_groups(run, scored_qrels(config, queryset), group_tags(queryset),
                           STATUTE_METRICS if statute_side(config) else DEFAULT_METRICS)


def _querysets(settings: Settings, names: Sequence[str]) -> dict[str, QuerySet]:
    judgments = read_table(settings.table_path("judgments"))
    return {name: load_any_queryset(name, settings.corpus_root, judgments, settings.warehouse)
            for name in names}


def score_runs(settings: Settings, runs: pd.DataFrame,
               querysets: Mapping[str, QuerySet] | None = None) -> pd.DataFrame:
    """The metrics table of a runs table (`ConfigRun.frame` rows), with provenance on every
    row: corpus fingerprint, code version, config hash, embedder, date, timings. The runs are
    scored on `querysets` (the sets as evaluated, loaded again when not given)."""
    fingerprint = tree_fingerprint(settings.corpus_root, ("statutes", "mappings", "judgments"))
    version = code_version()
    evaluated_at = datetime.now(UTC).isoformat(timespec="seconds")
    if querysets is None:
        querysets = _querysets(settings, sorted(runs["queryset"].unique()))
    rows = []
    for (config, queryset_name), run in runs.groupby(["config", "queryset"]):
        first = run.iloc[0]
        rows.append(metrics_of(config, querysets[queryset_name], run).assign(
            config=config, queryset=queryset_name, config_hash=first["config_hash"],
            fitted_params=first["fitted_params"], corpus_fingerprint=fingerprint,
            code_version=version, evaluated_at=evaluated_at, embedder=first["embedder"],
            search_seconds=first["search_seconds"], median_ms=first["median_ms"],
            queries_per_second=first["queries_per_second"]))
    metrics = pd.concat(rows, ignore_index=True)
    lead = ["config", "queryset", "group_kind", "group", "queries"]
    return metrics[lead + [c for c in metrics.columns if c not in lead]]


def query_scores(settings: Settings, runs: pd.DataFrame,
                 metrics: Sequence[str] = HEADLINE_METRICS) -> pd.DataFrame:
    """Each run's score on each query it is scored on (long rows: config, queryset, embedder,
    metric, qid, value): what the regression check pairs night against night."""
    return scores_by_query(_querysets(settings, sorted(runs["queryset"].unique())), runs,
                           metrics)


def scores_by_query(querysets: Mapping[str, QuerySet], runs: pd.DataFrame,
                    metrics: Sequence[str] = HEADLINE_METRICS) -> pd.DataFrame:
    """`query_scores` over loaded query sets."""
    frames = []
    for (config, queryset_name, embedder), run in runs.groupby(
            ["config", "queryset", "embedder"]):
        qrels = scored_qrels(config, querysets[queryset_name])
        if not qrels:
            continue
        scores = per_query_scores(run, qrels, list(metrics))
        frames.append(scores.reset_index().melt(id_vars="qid", var_name="metric",
                                                value_name="value").assign(
            config=config, queryset=queryset_name, embedder=embedder))
    return pd.concat(frames, ignore_index=True) if frames else pd.DataFrame(
        columns=["qid", "metric", "value", "config", "queryset", "embedder"])


def as_per_query(scores: pd.DataFrame) -> PerQuery:
    return {key: dict(zip(rows["qid"], rows["value"], strict=True))
            for key, rows in scores.groupby(["config", "queryset", "embedder", "metric"])}


def compare_to_bm25(scores: pd.DataFrame) -> pd.DataFrame:
    """Per query set, every config against its BM25 baseline: paired t-test on nDCG@10 and
    MAP with Holm across the set's comparisons, and win/tie/loss per query. Trained configs
    are compared on the held-out queries they are scored on, in a table of their own.
    `scores`: `query_scores`' rows, each run on the queries it is scored on."""
    tables = []
    for queryset_name, group in scores.groupby("queryset"):
        baseline = baseline_of(queryset_name)
        by_config = {name: frame.pivot(index="qid", columns="metric", values="value")
                     for name, frame in group.groupby("config")}
        if baseline not in by_config or len(by_config) < 2:
            continue
        trained = {name for name in by_config if is_trained(load_config(name).params)}
        plain = {name: table for name, table in by_config.items() if name not in trained}
        held = {name: table for name, table in by_config.items() if name in trained}
        held_qids = held_out(queryset_name, by_config[baseline].index)
        held[baseline] = by_config[baseline].loc[held_qids]
        for subset, scope in ((plain, "all judged"), (held, "held out")):
            if len(subset) > 1 and len(subset[baseline]):
                tables.append(compare_scores(subset, baseline).assign(
                    queryset=queryset_name, scope=scope))
    table = pd.concat(tables, ignore_index=True)
    # the verdict first: a wide table scrolls, and "significant" must not scroll away
    lead = ["queryset", "scope", "config", "baseline", "metric", "delta", "significant",
            "p_holm"]
    return table[lead + [c for c in table.columns if c not in lead]]


def main(argv: Sequence[str] | None = None) -> int:
    """`python -m evals.evaluate CONFIG...`: the named configs (defaults or `evals/configs/
    tried/`) over every set of their side, on the built data; MAP and nDCG@10 per set, over
    all scored queries and per half. Runs go to `<data>/runs-tried/`, not the pipeline's;
    `--training` puts the development sets' training halves in place of their held-out
    queries."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m evals.evaluate", description=main.__doc__)
    parser.add_argument("configs", nargs="+", metavar="CONFIG")
    parser.add_argument("--first", type=int, default=None, metavar="N",
                        help="each set's first N queries only (a quick look)")
    parser.add_argument("--set", action="append", dest="sets", metavar="NAME",
                        help="only this query set (repeatable; every set of the configs' "
                             "sides by default)")
    parser.add_argument("--training", action="store_true",
                        help="the development sets' whole training halves instead of their "
                             "held-out queries: where a method is chosen (runs go to "
                             "<data>/runs-training/)")
    parser.add_argument("--workers", type=int, default=available_cores(), metavar="N",
                        help="worker processes for the configs' sides (statutes, "
                             "precedents, AILA statutes) at once; default: every core")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    try:
        config_runs = list(run_configs(
            settings, args.configs, first=args.first, sets=args.sets, workers=args.workers,
            dev_split=TRAIN if args.training else HELDOUT,
            runs_dir=settings.data_dir / ("runs-training" if args.training else "runs-tried")))
    except EvaluationError as err:
        print(f"python -m evals.evaluate: {err}", file=sys.stderr)
        return 2
    runs = pd.concat([run.frame() for run in config_runs])
    metrics = score_runs(settings, runs, {run.queryset.name: run.queryset
                                          for run in config_runs})
    shown = metrics[metrics["group_kind"].isin(["all", "split"])]
    table = shown.pivot_table(index=["queryset", "config"], columns="group",
                              values=["map", "ndcg@10"]).round(4)
    print(table.to_string())
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
