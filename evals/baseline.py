"""Regression baselines: expected scores with tolerances, checked against every night's metrics.

Like pyserini's regression YAMLs, `evals/baselines/regression.yaml` lists, per (config, query
set, embedder), the expected value of a few headline metrics measured on the real corpus. A
measured value more than `tolerance` below its expectation is a regression; above it, an
improvement (update the file: `nyaya baseline`).

How far a mean over n queries may move by chance depends on the set: on AILA's 10 judged queries
one query is 0.1 of the mean. Where the baseline also kept each query's score (`per_query.json`
beside it, written by `nyaya baseline`), a drop is a regression only when the paired t-test of
tonight's scores against those says it is not chance (one-sided p < 0.05) and it exceeds
`tolerance`; a few queries reshuffled by an approximate index pass, the same queries all
falling does not, however small the set. Without them, the floor is two queries' worth (2 / n).

Rows are matched on the embedder too, and refused when the corpus fingerprint differs, or when
the embedder's numerics probe (`evals.numerics`, kept per embedder under `numerics:`) differs
from tonight's: numbers from another embedder, another corpus or other vectors are not
comparable, and are reported as such instead of passing or failing silently.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
import pandas as pd
import yaml

from evals.inputs import read_yaml
from evals.numerics import probes_agree
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
PAIRED_ALPHA = 0.05
PAIRED_RULE = "paired t-test p < 0.05 and delta beyond tolerance"
NUMERICS_RULE = "other vectors than the baseline's: the embedder's numerics probe differs"
FLIPS_RULE = "delta beyond max(tolerance, 2 / queries)"
#: query scores per (config, queryset, embedder, metric): {qid: score}
PerQuery = dict[tuple[str, str, str, str], dict[str, float]]
METRICS_COLUMNS = [*KEY, "group", "corpus_fingerprint"]  # what write_baseline reads
COLUMNS = [*KEY, "metric", "expected", "measured", "delta", "tolerance", "status", "queries",
           "rule", "p_value"]


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


def load_numerics(path: Path = BASELINES) -> dict[str, list[float]]:
    """The numerics probe kept for each embedder (`evals.numerics`); none without a file."""
    if not path.exists():
        return {}
    data = _mapping(read_yaml(path, BaselineError) or {}, str(path),
                    "a mapping with 'tolerance' and 'expected'")
    numerics = _mapping(data.get("numerics") or {}, f"{path}: numerics",
                        "a mapping of embedder names to lists of numbers")
    probes = {}
    for embedder, probe in numerics.items():
        if not isinstance(probe, list) or not probe:
            raise BaselineError(f"{path}: numerics of {embedder} must be a non-empty list of "
                                f"numbers, not {probe!r}")
        probes[embedder] = [_number(value, f"{path}: numerics of {embedder}")
                            for value in probe]
    return probes


def _status(delta: float, tolerance: float) -> str:
    if delta < -tolerance:
        return REGRESSED
    return IMPROVED if delta > tolerance else OK


def per_query_path(baseline: Path) -> Path:
    return baseline.with_name(f"{baseline.stem}.per_query.json")


def load_per_query(path: Path) -> PerQuery:
    """The baseline's query scores (none when the file is absent)."""
    if not path.exists():
        return {}
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        return {(entry["config"], entry["queryset"], entry["embedder"], entry["metric"]):
                {str(qid): float(score) for qid, score in entry["scores"].items()}
                for entry in data}
    except (ValueError, KeyError, TypeError, AttributeError) as err:
        raise BaselineError(f"{path}: not a list of {{config, queryset, embedder, metric, "
                            f"scores}} entries: {err}") from err


def write_per_query(scores: pd.DataFrame, path: Path, forget: pd.DataFrame | None = None) -> int:
    """Replace the (config, queryset, embedder) entries of `scores` (long rows: KEY, metric,
    qid, value) in the file, and drop those of `forget` (KEY rows), keeping the others;
    returns the entries written."""
    replaced = set(scores[KEY].itertuples(index=False, name=None))
    if forget is not None:
        replaced |= set(forget[KEY].itertuples(index=False, name=None))
    kept = {key: value for key, value in load_per_query(path).items()
            if key[:3] not in replaced}
    for key, rows in scores.groupby([*KEY, "metric"]):
        kept[key] = {str(q): round(float(v), 4) for q, v in zip(rows["qid"], rows["value"],
                                                                  strict=True)}
    entries = [{"config": c, "queryset": q, "embedder": e, "metric": m, "scores": s}
               for (c, q, e, m), s in sorted(kept.items())]
    path.write_text(json.dumps(entries, separators=(",", ":")) + "\n", encoding="utf-8")
    return scores[KEY].drop_duplicates().shape[0]


def paired_p(now: dict[str, float], then: dict[str, float]) -> float:
    """One-sided p that tonight's scores are not below the baseline's, query by query (a
    query the run no longer scores counts 0)."""
    from scipy.stats import ttest_rel

    qids = sorted(then)
    before = np.array([then[q] for q in qids])
    after = np.array([now.get(q, 0.0) for q in qids])
    if np.allclose(after - before, (after - before).mean()):  # constant: no variance to test
        return 0.0 if (after - before).mean() < 0 else 1.0
    return float(ttest_rel(after, before, alternative="less").pvalue)


def check_regression(metrics: pd.DataFrame, baseline: pd.DataFrame,
                     tonight: PerQuery | None = None, kept: PerQuery | None = None,
                     probes: Mapping[str, Sequence[float]] | None = None,
                     kept_probes: Mapping[str, Sequence[float]] | None = None
                     ) -> pd.DataFrame:
    """Every baselined metric of the measured embedders, against the `all` rows of `metrics`.

    With query scores for an entry from the baseline (`kept`) and tonight (`tonight`), a drop
    must also pass the paired test (module docstring); otherwise the 2 / n floor applies.
    Statuses: ok / regressed / improved; `missing` for a baselined config that was not measured
    on its query set at all (a config that vanished is a failure, not a pass); `new` for a
    measured (config, queryset, embedder) with no baseline yet; `not_comparable` when the corpus
    fingerprint differs from the baseline's, or when tonight's numerics probe of the embedder
    (`probes`) differs from the one kept with the baseline (`kept_probes`). Entries of an
    embedder setup the run did not use are not compared.
    """
    overall = metrics[metrics["group"] == "all"]
    measured = {tuple(row[k] for k in KEY): row for _, row in overall.iterrows()}
    embedders = set(overall["embedder"])
    ran = {key[:2] for key in measured}
    other_vectors = {name for name, probe in (kept_probes or {}).items()
                     if name in (probes or {}) and not probes_agree(probes[name], probe)}
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
        queries = int(row["queries"])
        pair = (*key, expected["metric"])
        if pair in (kept or {}) and pair in (tonight or {}):
            tolerance, rule = expected["tolerance"], PAIRED_RULE
            p_value = paired_p(tonight[pair], kept[pair])
            status = _status(delta, tolerance)
            if status == REGRESSED and p_value >= PAIRED_ALPHA:
                status = OK  # a reshuffle, not a drop
        else:
            tolerance, rule = max(expected["tolerance"], QUERY_FLIPS / max(queries, 1)), FLIPS_RULE
            p_value, status = float("nan"), _status(delta, tolerance)
        if row.get("corpus_fingerprint") != expected["corpus"]:
            status = NOT_COMPARABLE
        elif key[2] in other_vectors:
            status, rule = NOT_COMPARABLE, NUMERICS_RULE
        rows.append({**base, "tolerance": tolerance, "measured": value, "delta": delta,
                     "status": status, "queries": queries, "rule": rule, "p_value": p_value})
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
                   tolerance: float = DEFAULT_TOLERANCE,
                   probes: Mapping[str, Sequence[float]] | None = None) -> int:
    """Write these metrics' entries into the file, replacing those with the same (config,
    queryset, embedder) and keeping the rest (another embedder's, or a config that was not run:
    it stays `missing` until someone removes it on purpose); returns the entries written.
    The numerics probe of each embedder written is replaced by `probes`' (dropped without
    one: it described the vectors of the entries replaced)."""
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
    written = {entry["embedder"] for entry in fresh}
    numerics = {name: probe for name, probe in (existing.get("numerics") or {}).items()
                if name not in written}
    numerics.update({name: list(probe) for name, probe in (probes or {}).items()
                     if name in written})
    document = {"tolerance": existing.get("tolerance", tolerance), "expected": entries}
    if numerics:
        document["numerics"] = dict(sorted(numerics.items()))
    body = yaml.safe_dump(document, sort_keys=False, width=100)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(header + body, encoding="utf-8")
    return len(fresh)
