"""Regression baselines: expected scores with tolerances, checked against every night's metrics.

Like pyserini's regression YAMLs, `evals/baselines/regression.yaml` lists, per (config, query
set, embedder), the expected value of a few headline metrics measured on the real corpus. A
measured value more than `tolerance` (or two queries' worth, 2 / n, on a set of n judged queries,
whichever is larger) below its expectation is a regression; above it, an improvement (update
the file: `nyaya baseline`). Rows are matched on the embedder too,
and refused when the corpus fingerprint differs: numbers from another embedder or another corpus
are not comparable, and are reported as such instead of passing or failing silently.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pandas as pd
import yaml

from evals.inputs import read_yaml
from nyaya.tables import read_table

BASELINES = Path(__file__).resolve().parent / "baselines" / "regression.yaml"
HEADLINE_METRICS = ("ndcg@10", "map", "precision@3", "mrr")
DEFAULT_TOLERANCE = 0.01
#: The noise floor of a metric averaged over n queries: two queries' worth (2 / n). Dense
#: search in Qdrant is approximate (HNSW), and two builds of the same vectors differ in a few
#: rankings: on the 48 transition questions that moved fused configs by up to 0.025 between the
#: CI build and another. A real regression (a broken retriever) moves them by far more.
QUERY_FLIPS = 2.0
OK, REGRESSED, IMPROVED, MISSING, NEW, NOT_COMPARABLE = (
    "ok", "regressed", "improved", "missing", "new", "not_comparable")
FAILING = (REGRESSED, MISSING)
KEY = ["config", "queryset", "embedder"]
METRICS_COLUMNS = [*KEY, "group", "corpus_fingerprint"]  # what write_baseline reads
COLUMNS = [*KEY, "metric", "expected", "measured", "delta", "tolerance", "status"]


class BaselineError(ValueError):
    """A baseline file that cannot be used; names the file and entry."""


def _number(value: object, where: str) -> float:
    """A score or tolerance: YAML's `true` is an int to Python, and no measurement."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise BaselineError(f"{where} must be a number, not {value!r}")
    return float(value)


def _mapping(value: object, where: str, what: str) -> dict:
    if not isinstance(value, dict):
        raise BaselineError(f"{where}: expected {what}, got {type(value).__name__}")
    return value


def load_baseline(path: Path = BASELINES) -> pd.DataFrame:
    """One row per (config, queryset, embedder, metric): expected, tolerance, corpus. No file
    is an empty baseline: every config is then `new`, and the check says none was compared."""
    if not path.exists():
        return pd.DataFrame(columns=[*KEY, "corpus", "metric", "expected", "tolerance"])
    data = _mapping(read_yaml(path, BaselineError) or {}, str(path),
                    "a mapping with 'tolerance' and 'expected'")
    default = _number(data.get("tolerance", DEFAULT_TOLERANCE), f"{path}: tolerance")
    expected_entries = data.get("expected") or []
    if not isinstance(expected_entries, list):
        raise BaselineError(f"{path}: 'expected' must be a list of entries, got "
                            f"{type(expected_entries).__name__}")
    rows = []
    for number, entry in enumerate(expected_entries, 1):
        where = f"{path}: entry {number}"
        entry = _mapping(entry, where, "a mapping with config, queryset, embedder, corpus, "
                         "scores")
        missing = [key for key in (*KEY, "corpus", "scores") if key not in entry]
        if missing:
            raise BaselineError(f"{where}: missing {', '.join(missing)}")
        where = f"{where} ({entry['config']})"
        scores = _mapping(entry["scores"], where, "'scores' to map metric names to numbers")
        tolerances = _mapping(entry.get("tolerance", {}), where,
                              "'tolerance' to map metric names to numbers")
        for metric, expected in scores.items():
            rows.append({**{key: entry[key] for key in KEY}, "corpus": entry["corpus"],
                         "metric": metric, "expected": _number(expected, f"{where}: {metric}"),
                         "tolerance": _number(tolerances.get(metric, default),
                                              f"{where}: tolerance of {metric}")})
    frame = pd.DataFrame(rows, columns=[*KEY, "corpus", "metric", "expected", "tolerance"])
    duplicated = frame[frame.duplicated([*KEY, "metric"])]
    if len(duplicated):
        first = duplicated.iloc[0]
        raise BaselineError(f"{path}: {first['config']} on {first['queryset']} "
                            f"({first['embedder']}) has {first['metric']} twice")
    return frame


def _status(delta: float, tolerance: float) -> str:
    if delta < -tolerance:
        return REGRESSED
    return IMPROVED if delta > tolerance else OK


def check_regression(metrics: pd.DataFrame, baseline: pd.DataFrame) -> pd.DataFrame:
    """Every baselined metric of the measured embedders, against the `all` rows of `metrics`.

    Statuses: ok / regressed / improved; `missing` for a baselined config that was not measured
    on its query set at all (a config that vanished is a failure, not a pass); `new` for a
    measured (config, queryset, embedder) with no baseline yet; `not_comparable` when the corpus
    fingerprint differs from the baseline's. Entries of an embedder setup the run did not use
    are not compared.
    """
    overall = metrics[metrics["group"] == "all"]
    measured = {tuple(row[k] for k in KEY): row for _, row in overall.iterrows()}
    embedders = set(overall["embedder"])
    ran = {key[:2] for key in measured}
    rows = []
    for _, expected in baseline[baseline["embedder"].isin(embedders)].iterrows():
        key = tuple(expected[k] for k in KEY)
        row = measured.get(key)
        if row is None and key[:2] in ran:
            continue  # run with another embedder tonight: that setup's entries apply
        base = {**dict(zip(KEY, key, strict=True)), "metric": expected["metric"],
                "expected": expected["expected"], "tolerance": expected["tolerance"]}
        if row is None or expected["metric"] not in row or pd.isna(row[expected["metric"]]):
            rows.append({**base, "measured": float("nan"), "delta": float("nan"),
                         "status": MISSING})
            continue
        value = float(row[expected["metric"]])
        delta = value - expected["expected"]
        tolerance = max(expected["tolerance"], QUERY_FLIPS / max(int(row["queries"]), 1))
        status = (NOT_COMPARABLE if row.get("corpus_fingerprint") != expected["corpus"]
                  else _status(delta, tolerance))
        rows.append({**base, "tolerance": tolerance, "measured": value, "delta": delta,
                     "status": status})
    baselined = {tuple(k) for k in baseline[KEY].itertuples(index=False)}
    for key in sorted(set(measured) - baselined):
        rows.append({**dict(zip(KEY, key, strict=True)), "metric": "", "expected": float("nan"),
                     "measured": float("nan"), "delta": float("nan"), "tolerance": float("nan"),
                     "status": NEW})
    return pd.DataFrame(rows, columns=COLUMNS).sort_values(
        [*KEY, "metric"], ignore_index=True)


def failures(deltas: pd.DataFrame) -> pd.DataFrame:
    return deltas[deltas["status"].isin(FAILING)]


def read_metrics(path: Path) -> pd.DataFrame:
    """A metrics table for `write_baseline`, refused with the file named when it is not
    Parquet or lacks a column the baseline is keyed on."""
    try:  # checked against its checksum too, as every table the pipeline wrote
        metrics = read_table(path)
    except (OSError, ValueError) as err:
        raise ValueError(f"{path}: not a readable Parquet table: {err}") from err
    missing = [column for column in METRICS_COLUMNS if column not in metrics.columns]
    if missing:
        raise ValueError(f"{path}: not a metrics table: lacks column(s) {', '.join(missing)}")
    return metrics


def write_baseline(metrics: pd.DataFrame, path: Path = BASELINES,
                   metric_names: Sequence[str] = HEADLINE_METRICS,
                   tolerance: float = DEFAULT_TOLERANCE) -> int:
    """Write these metrics' entries into the file, replacing those with the same (config,
    queryset, embedder) and keeping the rest (another embedder's, or a config that was not run:
    it stays `missing` until someone removes it on purpose); returns the entries written."""
    existing = read_yaml(path, BaselineError) if path.exists() else None
    existing = existing or {}
    overall = metrics[metrics["group"] == "all"].sort_values(KEY)
    fresh = [{"config": row["config"], "queryset": row["queryset"], "embedder": row["embedder"],
              "corpus": row["corpus_fingerprint"],
              "scores": {name: round(float(row[name]), 4) for name in metric_names
                         if name in row and not pd.isna(row[name])}}
             for _, row in overall.iterrows()]
    previous = {tuple(entry[k] for k in KEY): entry for entry in existing.get("expected") or []}
    for entry in fresh:  # a tolerance set by hand for an entry survives its rewrite
        overrides = previous.get(tuple(entry[k] for k in KEY), {}).get("tolerance")
        if overrides:
            entry["tolerance"] = overrides
    replaced = {tuple(entry[k] for k in KEY) for entry in fresh}
    kept = [entry for key, entry in previous.items() if key not in replaced]
    entries = sorted(kept + fresh, key=lambda e: (e["embedder"], e["queryset"], e["config"]))
    comments = [line for line in (path.read_text(encoding="utf-8").splitlines(keepends=True)
                                  if path.exists() else []) if line.startswith("#")]
    header = "".join(comments) or (
        "# Expected scores on the real corpus (nyaya baseline after a run).\n"
        "# A metric more than `tolerance` below its expectation fails the\n"
        "# `no_metric_regressed` check; entries are per embedder and corpus fingerprint.\n")
    body = yaml.safe_dump({"tolerance": existing.get("tolerance", tolerance),
                           "expected": entries}, sort_keys=False, width=100)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(header + body, encoding="utf-8")
    return len(fresh)
