"""The evaluation report: Markdown (what the Dagster UI shows), a self-contained HTML page with
the figures of evals/plots.py, and the tables as CSV and Parquet."""

from __future__ import annotations

import html
import re
import shutil
from pathlib import Path

import numpy as np
import pandas as pd

from nyaya.tables import write_table

HEADLINE = ["config", "queryset", "group", "queries", "precision@1", "precision@3", "precision@5",
            "recall@10", "ndcg@10", "mrr", "map", "median_ms"]


#: Columns read to one decimal (rates and latencies), not a metric's four.
ONE_DECIMAL = frozenset({"queries_per_second", "median_ms", "search_seconds"})


def markdown_table(frame: pd.DataFrame) -> str:
    columns = list(frame.columns)
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in frame.itertuples(index=False):
        cells = [_cell(value, column) for column, value in zip(columns, row, strict=True)]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def _p(value: float) -> str:
    return "p < 0.0001" if value < 0.0001 else f"p {value:.4f}"


def answer_lines(metrics: pd.DataFrame, comparison: pd.DataFrame | None) -> list[str]:
    """One sentence per query set: its best untuned config by the set's measure, the gain
    over the set's BM25 and whether that holds after Holm (from the comparison table)."""
    from evals.compare import baseline_of, primary_metric

    overall = metrics[metrics["group"] == "all"]
    if "fitted_params" in overall:  # tuned configs are scored on another (held-out) subset
        overall = overall[overall["fitted_params"].fillna("") == ""]
    lines = []
    for queryset, rows in sorted(overall.groupby("queryset")):
        metric = primary_metric(queryset)
        if metric not in rows:
            continue
        best = rows.sort_values([metric, "config"], ascending=[False, True]).iloc[0]
        head = (f"**{queryset}** ({int(best['queries'])} judged queries): best "
                f"**{best['config']}**, {metric} {best[metric]:.4f}")
        baseline = baseline_of(queryset)
        base = rows[rows["config"] == baseline]
        if baseline is None or base.empty:
            lines.append(head + " (no BM25 run to compare with)")
            continue
        if best["config"] == baseline:
            lines.append(head + ": plain BM25 is the best config")
            continue
        gain = best[metric] - base.iloc[0][metric]
        test = (comparison[(comparison["queryset"] == queryset) &
                           (comparison["scope"] == "all judged") &
                           (comparison["config"] == best["config"]) &
                           (comparison["metric"] == metric)]
                if comparison is not None and not comparison.empty else pd.DataFrame())
        verdict = ("not tested" if test.empty else
                   f"{'significant' if bool(test.iloc[0]['significant']) else 'not significant'}"
                   f" after Holm, {_p(test.iloc[0]['p_holm'])}")
        lines.append(f"{head}, {gain:+.4f} over {baseline} ({verdict})")
    return lines


def speed_table(metrics: pd.DataFrame) -> pd.DataFrame:
    """Per config and query set: median latency of one query and throughput of the whole set
    (every query, judged or not), fastest first."""
    columns = ["config", "queryset", "median_ms", "queries_per_second"]
    overall = metrics[metrics["group"] == "all"]
    return overall[[c for c in columns if c in overall]].sort_values(
        ["median_ms", "config", "queryset"]).reset_index(drop=True)


#: Metric columns the HTML headline shows, in this order, where present; others are ignored
#: there (the full table has every column).
METRICS = ["precision@1", "precision@3", "precision@5", "precision@10", "recall@5", "recall@10",
           "recall@100", "ndcg@10", "mrr", "map", "bpref", "hit_rate@5", "judged@10"]

#: Metrics where the best value per query set is set in bold (judged@10 measures the labels,
#: not the config).
HIGHER_IS_BETTER = frozenset(METRICS) - {"judged@10"}

#: Regression statuses, worst first.
STATUSES = ("regressed", "missing", "improved", "ok")

#: Columns of the regression tables, where present.
REGRESSION_COLUMNS = ["config", "queryset", "metric", "expected", "measured", "delta",
                      "tolerance", "status", "queries", "rule", "p_value"]

STYLE = """
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;
  color:#222;max-width:1200px;margin:0 auto;padding:1.5em 2em}
h1{font-size:1.6em;margin:0 0 .3em}
h2{margin-top:1.8em;padding-bottom:.2em;border-bottom:2px solid #eee}
nav a{margin-right:1em}
table{border-collapse:collapse;font-size:13px;margin:.5em 0}
th,td{padding:3px 8px;border-bottom:1px solid #e3e3e3;text-align:left;white-space:nowrap}
th{background:#f3f3f3;position:sticky;top:0}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tbody tr:nth-child(even){background:#fafafa}
td.best{font-weight:700}
.scroll{overflow-x:auto;max-width:100%}
figure{margin:1em 0 2.5em}
figcaption{font-weight:600;margin-bottom:.4em}
figure svg{max-width:100%;height:auto}
.banner{display:inline-block;padding:.3em .8em;border-radius:4px;font-weight:600}
.bad{background:#fdecea;color:#b71c1c}
.good{background:#e8f5e9;color:#1b5e20}
.alert{border-left:5px solid #c62828;background:#fdecea;color:#8e0000;padding:.5em 1em;
  margin:.8em 0}
.warn{border-left:5px solid #ef6c00;background:#fff3e0;padding:.5em 1em;margin:.8em 0}
.alert table,.warn table{background:#fff}
tr.status-regressed td{color:#b71c1c;font-weight:600}
tr.status-improved td{color:#1b5e20}
tr.status-missing td{color:#e65100}
.muted{color:#666}
"""


def _cell(value: object, column: str = "") -> str:
    """One table cell's text: floats to 4 places (rates and latencies to 1), missing values
    as a dash."""
    if value is None or (isinstance(value, float | np.floating) and np.isnan(value)):
        return "–"
    if isinstance(value, float | np.floating):
        return f"{value:.1f}" if column in ONE_DECIMAL else f"{value:.4f}"
    return str(value)


def html_table(frame: pd.DataFrame, table_id: str | None = None,
               bold: frozenset[tuple[int, str]] = frozenset(),
               row_classes: list[str] | None = None) -> str:
    """`frame` as an escaped HTML table; numeric columns right-aligned, the (row position,
    column) cells in `bold` emphasised, `row_classes` one CSS class per row."""
    numeric = {c for c in frame.columns if pd.api.types.is_numeric_dtype(frame[c])}
    head = "".join(f"<th scope='col'>{html.escape(str(c))}</th>" for c in frame.columns)
    body = []
    for i, row in enumerate(frame.itertuples(index=False)):
        cells = []
        for column, value in zip(frame.columns, row, strict=True):
            classes = " ".join(name for name, on in (("num", column in numeric),
                                                     ("best", (i, column) in bold)) if on)
            attribute = f" class='{classes}'" if classes else ""
            cells.append(f"<td{attribute}>{html.escape(_cell(value, str(column)))}</td>")
        attribute = f" class='{html.escape(row_classes[i])}'" if row_classes else ""
        body.append(f"<tr{attribute}>{''.join(cells)}</tr>")
    identity = f" id='{html.escape(table_id)}'" if table_id else ""
    return (f"<table{identity}><thead><tr>{head}</tr></thead>"
            f"<tbody>{''.join(body)}</tbody></table>")


def headline_table(metrics: pd.DataFrame) -> pd.DataFrame:
    """The rows over all queries: config, query set, the known metrics present and the median
    latency; per query set, best nDCG@10 first."""
    overall = metrics[metrics["group"] == "all"] if "group" in metrics else metrics
    columns = [c for c in ["config", "queryset", "queries", *METRICS, "median_ms"]
               if c in overall]
    keys = [c for c in ("queryset", "ndcg@10", "config") if c in overall]
    ascending = [c != "ndcg@10" for c in keys]
    return (overall.sort_values(keys, ascending=ascending, na_position="last")[columns]
            .reset_index(drop=True))


def _best_cells(table: pd.DataFrame) -> frozenset[tuple[int, str]]:
    """(row, column) of the best value of each metric within each query set, where the configs
    differ."""
    groups = table.groupby("queryset").groups.values() if "queryset" in table else [table.index]
    best = set()
    for rows in groups:
        if len(rows) < 2:
            continue
        for column in (c for c in table.columns if c in HIGHER_IS_BETTER):
            values = table.loc[rows, column].astype(float)
            if values.nunique() > 1:  # not when every config ties (say, all 0)
                best |= {(int(i), column) for i in values.index[values == values.max()]}
    return frozenset(best)


def _status_counts(regression: pd.DataFrame) -> str:
    counts = regression["status"].astype(str).value_counts() if "status" in regression else {}
    parts = [f"{counts[s]} {s}" for s in STATUSES if s in counts]
    parts += [f"{n} {s}" for s, n in sorted(counts.items()) if s not in STATUSES]
    total = f"{len(regression)} check" + ("" if len(regression) == 1 else "s")
    return f"{', '.join(parts)} of {total}" if parts else total


def _with_status(regression: pd.DataFrame, status: str) -> pd.DataFrame:
    if "status" not in regression:
        return regression.iloc[0:0]
    rows = regression[regression["status"] == status]
    keys = [c for c in ("config", "queryset", "metric") if c in rows]
    return rows.sort_values(keys)[[c for c in REGRESSION_COLUMNS if c in rows]] if keys \
        else rows


def tolerance_lines(regression: pd.DataFrame) -> list[str]:
    """Per query set, what counts as a regression there: its size, the rule and the
    tolerances (a 10-query set cannot be held to what a 158-query set is)."""
    if "rule" not in regression:
        return []
    compared = regression.dropna(subset=["rule"])
    lines = []
    for queryset, rows in compared.groupby("queryset"):
        low, high = rows["tolerance"].min(), rows["tolerance"].max()
        span = f"{low:.4f}" if low == high else f"{low:.4f}-{high:.4f}"
        lines.append(f"{queryset} ({int(rows['queries'].max())} judged queries): "
                     f"{' / '.join(sorted(rows['rule'].unique()))}; tolerance {span}")
    return lines


def regression_markdown(regression: pd.DataFrame) -> str:
    """A short Markdown section: the regressed metrics (or that there are none), counts, and
    each set's tolerance."""
    regressed = _with_status(regression, "regressed")
    missing = _with_status(regression, "missing")
    lines = ["## Regression", ""]
    if regressed.empty:
        lines += [f"No regressed metrics ({_status_counts(regression)}).", ""]
    else:
        lines += [f"**{len(regressed)} regressed** ({_status_counts(regression)}):", "",
                  markdown_table(regressed), ""]
    if not missing.empty:
        lines += [f"{len(missing)} expected metric(s) not measured:", "",
                  markdown_table(missing), ""]
    tolerances = tolerance_lines(regression)
    if tolerances:
        lines += ["What counts as a regression, per query set:", "",
                  *(f"- {line}" for line in tolerances), ""]
    return "\n".join(lines)


def render_markdown(metrics: pd.DataFrame, provenance: dict[str, str],
                    sections: dict[str, pd.DataFrame] | None = None, *,
                    regression: pd.DataFrame | None = None,
                    comparison: pd.DataFrame | None = None) -> str:
    """The Markdown report (what the Dagster UI shows): the answer per query set, provenance,
    regressions when a baseline was compared, then the headline and per-group tables and the
    extra sections."""
    overall = metrics[metrics["group"] == "all"][[c for c in HEADLINE if c in metrics]]
    by_group = metrics[metrics["group"] != "all"][[c for c in HEADLINE if c in metrics]]
    parts = ["# nyaya evaluation report", "",
             *(f"- {line}" for line in answer_lines(metrics, comparison)), "",
             *(f"- **{key}**: {value}" for key, value in provenance.items()), ""]
    if regression is not None:
        parts += [regression_markdown(regression)]
    parts += ["## Headline", "", markdown_table(overall), "",
              "## By query type (and the held-out half)", "", markdown_table(by_group), ""]
    for title, table in (sections or {}).items():
        parts += [f"## {title}", "", markdown_table(table), ""]
    return "\n".join(parts)


def _figure(title: str, svg: str, identity: str) -> str:
    return (f"<figure id='{identity}'><figcaption>{html.escape(title)}</figcaption>"
            f"{svg}</figure>")


def _regression_html(regression: pd.DataFrame | None, figure: tuple[str, str] | None) -> str:
    """The regression section's body: regressed metrics in red, or a line saying there are
    none; missing ones in amber; the delta figure; every check folded away."""
    if regression is None:
        return "<p class='muted'>No regression baseline was compared in this run.</p>"
    regressed = _with_status(regression, "regressed")
    missing = _with_status(regression, "missing")
    counts = html.escape(_status_counts(regression))
    if regressed.empty:
        parts = [f"<p class='banner good' id='regression-none'>No regressed metrics "
                 f"({counts}).</p>"]
    else:
        noun = "metric" if len(regressed) == 1 else "metrics"
        parts = [f"<div class='alert' id='regressed'><p><strong>{len(regressed)} regressed "
                 f"{noun}</strong> ({counts}):</p>"
                 + html_table(regressed, "regressed-table",
                              row_classes=["status-regressed"] * len(regressed))
                 + "</div>"]
    if not missing.empty:
        parts.append(f"<div class='warn'><p>{len(missing)} expected metric(s) not measured:</p>"
                     + html_table(missing, row_classes=["status-missing"] * len(missing))
                     + "</div>")
    tolerances = tolerance_lines(regression)
    if tolerances:
        parts.append("<p>What counts as a regression, per query set:</p><ul id='tolerances'>"
                     + "".join(f"<li>{html.escape(line)}</li>" for line in tolerances)
                     + "</ul>")
    if figure is not None:
        parts.append(_figure(*figure, "figure-regression"))
    if not regression.empty:
        table = regression[[c for c in REGRESSION_COLUMNS if c in regression]]
        classes = [f"status-{s}" if s in STATUSES else "status-other"
                   for s in (regression["status"].astype(str) if "status" in regression
                             else [""] * len(regression))]
        parts.append(f"<details><summary>All {len(regression)} checks</summary>"
                     + html_table(table, "regression-table", row_classes=classes)
                     + "</details>")
    return "".join(parts)


def render_html(metrics: pd.DataFrame, provenance: dict[str, str],
                sections: dict[str, pd.DataFrame] | None = None, *,
                verification: pd.DataFrame | None = None,
                regression: pd.DataFrame | None = None,
                comparison: pd.DataFrame | None = None) -> str:
    """A self-contained page that opens offline (inline CSS and SVG, no scripts, no external
    URLs): provenance, headline table, figures, regressions, the extra sections and every
    metric. All text is escaped."""
    from evals.plots import REGRESSION_TITLE, figures  # matplotlib: only when a page is drawn

    drawn = figures(metrics, verification, regression)
    regression_figure = ((REGRESSION_TITLE, drawn.pop(REGRESSION_TITLE))
                         if REGRESSION_TITLE in drawn else None)
    headline = headline_table(metrics)
    header = "".join(f"<li><b>{html.escape(str(key))}</b>: {html.escape(str(value))}</li>"
                     for key, value in provenance.items())
    answers = "".join(
        "<li>" + re.sub(r"\*\*(.+?)\*\*", r"<b>\1</b>", html.escape(line)) + "</li>"
        for line in answer_lines(metrics, comparison))
    banner = ""
    if regression is not None:
        regressed = len(_with_status(regression, "regressed"))
        banner = (f"<p><a class='banner bad' href='#regression'>{regressed} regressed "
                  f"metric{'' if regressed == 1 else 's'}</a></p>" if regressed else
                  "<p><a class='banner good' href='#regression'>No regressed metrics</a></p>")
    extra = list((sections or {}).items())
    nav = "".join(f"<a href='#{target}'>{html.escape(label)}</a>" for target, label in [
        ("headline", "Headline"), ("figures", "Figures"), ("regression", "Regression"),
        *((f"section-{i}", title) for i, (title, _) in enumerate(extra)),
        ("metrics", "All metrics")])
    figures_html = "".join(_figure(title, svg, f"figure-{i}")
                           for i, (title, svg) in enumerate(drawn.items())) or \
        "<p class='muted'>Nothing to plot: no metric columns the figures know.</p>"
    body = [
        "<header><h1>nyaya evaluation report</h1>",
        f"<ul class='answers' id='answers'>{answers}</ul>",
        f"<ul class='provenance'>{header}</ul>{banner}<nav>{nav}</nav></header>",
        "<section id='headline'><h2>Headline</h2><p class='muted'>All queries of each query "
        "set; per query set the best config by nDCG@10 first, the best value of each metric in "
        "bold.</p><div class='scroll'>",
        html_table(headline, "headline-table", bold=_best_cells(headline)), "</div></section>",
        f"<section id='figures'><h2>Figures</h2>{figures_html}</section>",
        f"<section id='regression'><h2>Regression</h2>"
        f"{_regression_html(regression, regression_figure)}</section>",
        *(f"<section id='section-{i}'><h2>{html.escape(title)}</h2><div class='scroll'>"
          f"{html_table(frame)}</div></section>" for i, (title, frame) in enumerate(extra)),
        "<section id='metrics'><h2>All metrics</h2><div class='scroll'>",
        html_table(metrics, "metrics-table"), "</div></section>",
    ]
    return ("<!doctype html><html lang='en'><head><meta charset='utf-8'>"
            "<meta name='viewport' content='width=device-width, initial-scale=1'>"
            f"<title>nyaya evaluation report</title><style>{STYLE}</style></head><body>"
            + "".join(body) + "</body></html>\n")


def write_report(metrics: pd.DataFrame, provenance: dict[str, str], reports_dir: Path,
                 date: str, sections: dict[str, pd.DataFrame] | None = None, *,
                 verification: pd.DataFrame | None = None,
                 regression: pd.DataFrame | None = None,
                 comparison: pd.DataFrame | None = None) -> Path:
    """Write data/reports/<date>/ and mirror it to data/reports/latest/; `sections` are titled
    tables after the metrics. verification.csv and regression.csv are written when given (and
    removed when not, so a rerun on the same day leaves no stale copy)."""
    folder = reports_dir / date
    folder.mkdir(parents=True, exist_ok=True)
    text = render_markdown(metrics, provenance, sections, regression=regression,
                           comparison=comparison)
    (folder / "report.md").write_text(text, encoding="utf-8")
    page = render_html(metrics, provenance, sections, verification=verification,
                       regression=regression, comparison=comparison)
    (folder / "report.html").write_text(page, encoding="utf-8")
    metrics.to_csv(folder / "metrics.csv", index=False)
    write_table(metrics, folder / "metrics.parquet")
    for name, frame in (("verification.csv", verification), ("regression.csv", regression)):
        if frame is None:
            (folder / name).unlink(missing_ok=True)
        else:
            frame.to_csv(folder / name, index=False)
    latest = reports_dir / "latest"
    if latest.exists():
        shutil.rmtree(latest)
    shutil.copytree(folder, latest)
    return folder
