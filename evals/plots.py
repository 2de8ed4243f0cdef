"""Figures of the evaluation report, each an inline SVG string (or None: nothing to draw).

Plain functions over the report's frames, no Dagster, so they can be called from a notebook or
a test. Figures are built with matplotlib's object API (`Figure`, never pyplot): nothing is
registered in pyplot's global figure manager, so nothing has to be closed or can leak between
calls, whatever backend the process picked, and no display is needed.

The same input gives the same bytes: rcParams are reset to matplotlib's defaults plus a fixed
style, `svg.hashsalt` is fixed and the SVG carries no date or creator metadata. Text is written
as <text> elements (`svg.fonttype: none`), so labels are searchable, selectable and small, and
every element id is prefixed with the figure's name, so several figures can share one HTML
page without id clashes. Bars, lines, cells and segments carry ids such as `fig-metrics-bar-3`
so tests (and readers of the page source) can count them.
"""

from __future__ import annotations

import io
import re
from collections.abc import Iterator
from contextlib import contextmanager

import matplotlib
import matplotlib.style
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Patch

#: How metric columns are labelled in figures.
METRIC_LABELS = {"ndcg@10": "nDCG@10", "map": "MAP", "mrr": "MRR", "bpref": "bpref"}

#: Rate columns of the verification table, in stacking order, with legend label and colour.
VERIFICATION_RATES = {
    "verified_rate": ("verified", "#2ca02c"),
    "partially_verified_rate": ("partially verified", "#bcbd22"),
    "precedent_only_rate": ("precedent only", "#1f77b4"),
    "unverified_rate": ("unverified", "#d62728"),
}

#: Regression statuses: colour and sort order (worst first).
STATUS_COLOURS = {"regressed": "#d62728", "missing": "#ff7f0e", "improved": "#2ca02c",
                  "ok": "#9e9e9e"}

#: Group names that are not query types when the metrics carry no `group_kind` column.
SPLIT_GROUPS = ("all", "heldout")

#: Most bars in the regression figure; the rest are in the report's regression table.
MAX_REGRESSION_BARS = 60
TOP_CONFIGS = 6  # lines per precision panel, besides the set's BM25

REGRESSION_TITLE = "Regression: measured minus expected per config and metric"

_STYLE = {
    "svg.hashsalt": "nyaya-report",
    "svg.fonttype": "none",
    "font.size": 8,
    "axes.titlesize": 9,
    "axes.titleweight": "bold",
    "axes.spines.top": False,
    "axes.spines.right": False,
    "legend.fontsize": 7,
    "legend.frameon": False,
}
_NO_METADATA = {"Date": None, "Creator": None, "Format": None, "Type": None}
_WIDTH = 7.5  # inches: 720 CSS pixels


@contextmanager
def _style() -> Iterator[None]:
    """matplotlib's defaults plus ours, whatever a matplotlibrc or a caller changed."""
    with matplotlib.style.context("default"), matplotlib.rc_context(_STYLE):
        yield


def _svg(fig: Figure, prefix: str) -> str:
    """The figure as an <svg> element to inline: no XML prolog or DTD, ids prefixed."""
    buffer = io.StringIO()
    fig.savefig(buffer, format="svg", metadata=_NO_METADATA)
    text = buffer.getvalue()
    text = text[text.index("<svg"):].strip()
    text = re.sub(r'\bid="([^"]*)"', lambda m: f'id="{prefix}-{m.group(1)}"', text)
    return re.sub(r'(url\(#|href="#)', lambda m: f"{m.group(1)}{prefix}-", text)


def _overall(metrics: pd.DataFrame) -> pd.DataFrame:
    """The rows over all queries of a query set, one per (config, queryset)."""
    rows = metrics[metrics["group"] == "all"] if "group" in metrics else metrics
    return rows.drop_duplicates(["config", "queryset"], keep="last")


def _panels(frame: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """One panel per query set, sorted by name (one unnamed panel without the column)."""
    if "queryset" not in frame:
        return [("", frame)]
    return [(str(name), part) for name, part in frame.groupby("queryset", sort=True)]


def _label(column: str) -> str:
    return METRIC_LABELS.get(column, column)


def _precision_columns(metrics: pd.DataFrame) -> list[tuple[int, str]]:
    """(k, column) of the precision@k columns present, by k."""
    found = [(int(m.group(1)), column) for column in metrics.columns
             if (m := re.fullmatch(r"precision@(\d+)", str(column)))]
    return sorted(found)


def metric_bars(metrics: pd.DataFrame, columns: tuple[str, ...] = ("ndcg@10", "map")
                ) -> str | None:
    """nDCG@10 and MAP of every config over all queries, one panel per query set, best config
    on top: the comparison the report is read for. Uses whichever of `columns` exist."""
    columns = tuple(c for c in columns if c in metrics)
    overall = _overall(metrics) if "config" in metrics else metrics.iloc[0:0]
    if not columns or overall.empty:
        return None
    panels = [(name, frame.sort_values([columns[0], "config"], ascending=[True, False],
                                       na_position="first"))
              for name, frame in _panels(overall)]
    peak = np.nanmax(overall[list(columns)].to_numpy(dtype=float), initial=0.0)
    rows = sum(len(frame) for _, frame in panels)
    colours = ("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd")
    with _style():
        fig = Figure(figsize=(_WIDTH, 0.9 * len(panels) + 0.34 * rows * len(columns) / 2 + 0.4),
                     layout="constrained")
        axes = fig.subplots(len(panels), 1, squeeze=False,
                            height_ratios=[len(frame) + 2 for _, frame in panels])[:, 0]
        height = 0.8 / len(columns)
        count = 0
        for ax, (queryset, frame) in zip(axes, panels, strict=True):
            ys = np.arange(len(frame))
            for i, column in enumerate(columns):
                values = frame[column].to_numpy(dtype=float)
                offset = ((len(columns) - 1) / 2 - i) * height
                bars = ax.barh(ys + offset, np.nan_to_num(values), height=height,
                               color=colours[i % len(colours)], label=_label(column))
                for bar in bars:
                    bar.set_gid(f"bar-{count}")
                    count += 1
                ax.bar_label(bars, labels=[f"{v:.3f}" if np.isfinite(v) else "n/a"
                                           for v in values], padding=2, fontsize=6)
            ax.set_yticks(ys, labels=frame["config"].astype(str))
            ax.set_xlim(0, peak * 1.15 if peak > 0 else 1.0)
            ax.set_ylim(-0.6, len(frame) - 0.4)
            ax.xaxis.grid(True, color="#e5e5e5")
            ax.set_axisbelow(True)
            ax.set_title(queryset, loc="left")
        axes[0].legend(loc="lower right")
        return _svg(fig, "fig-metrics")


def _query_type_rows(metrics: pd.DataFrame) -> pd.DataFrame:
    """The per-query-type rows: `group_kind == 'query_type'`, or without that column every
    group that is not a split."""
    if "group_kind" in metrics:
        return metrics[metrics["group_kind"] == "query_type"]
    return metrics[~metrics["group"].isin(SPLIT_GROUPS)]


def query_type_heatmap(metrics: pd.DataFrame, metric: str = "ndcg@10") -> str | None:
    """`metric` per config (rows) and query type (columns), one panel per query set, cells
    annotated: shows which kinds of question each config is good or bad at."""
    if metric not in metrics or "group" not in metrics or "config" not in metrics:
        return None
    rows = _query_type_rows(metrics).drop_duplicates(
        [c for c in ("config", "queryset", "group") if c in metrics], keep="last")
    if rows.empty:
        return None
    panels = []
    for queryset, frame in _panels(rows):
        table = frame.pivot(index="config", columns="group", values=metric).astype(float)
        order = table.mean(axis=1, skipna=True).fillna(-1.0)
        table = table.loc[sorted(table.index, key=lambda c: (-order[c], str(c)))]
        panels.append((queryset, table))
    peak = max(float(np.nanmax(t.to_numpy(), initial=0.0)) for _, t in panels)
    vmax = peak if peak > 0 else 1.0
    cmap = matplotlib.colormaps["viridis"].with_extremes(bad="#eeeeee")
    heights = [len(t) + 3 for _, t in panels]
    with _style():
        fig = Figure(figsize=(_WIDTH, 0.22 * sum(heights) + 0.4), layout="constrained")
        axes = fig.subplots(len(panels), 1, squeeze=False, height_ratios=heights)[:, 0]
        mesh = None
        count = 0
        for index, (ax, (queryset, table)) in enumerate(zip(axes, panels, strict=True)):
            values = np.ma.masked_invalid(table.to_numpy())
            mesh = ax.pcolormesh(values, cmap=cmap, vmin=0.0, vmax=vmax, edgecolors="white",
                                 linewidth=0.6)
            mesh.set_gid(f"mesh-{index}")
            for (i, j), value in np.ndenumerate(table.to_numpy()):
                if not np.isfinite(value):
                    continue
                colour = "black" if value / vmax > 0.6 else "white"
                text = ax.text(j + 0.5, i + 0.5, f"{value:.2f}", ha="center", va="center",
                               color=colour, fontsize=7)
                text.set_gid(f"cell-{count}")
                count += 1
            ax.set_xticks(np.arange(table.shape[1]) + 0.5,
                          labels=[str(c) for c in table.columns], rotation=20, ha="right")
            ax.set_yticks(np.arange(table.shape[0]) + 0.5,
                          labels=[str(c) for c in table.index])
            ax.invert_yaxis()
            ax.tick_params(length=0)
            for spine in ax.spines.values():
                spine.set_visible(False)
            ax.set_title(queryset, loc="left")
        fig.colorbar(mesh, ax=list(axes), label=_label(metric), shrink=0.6, aspect=30)
        return _svg(fig, "fig-query-types")


def top_configs(frame: pd.DataFrame, queryset: str, count: int = TOP_CONFIGS) -> pd.DataFrame:
    """A set's `count` best configs by its measure, and its BM25 baseline whatever its rank:
    24 lines in one panel cannot be told apart."""
    from evals.compare import baseline_of, primary_metric

    metric = primary_metric(queryset)
    if metric not in frame:
        return frame.sort_values("config")
    ranked = frame.sort_values([metric, "config"], ascending=[False, True])
    keep = set(ranked["config"].head(count)) | {baseline_of(queryset)}
    return ranked[ranked["config"].isin(keep)]


def precision_curves(metrics: pd.DataFrame) -> str | None:
    """Precision at each k present (1, 3, 5, 10) of each set's best configs and its BM25, one
    panel per query set: how fast precision falls as the result list grows."""
    ks = _precision_columns(metrics)
    overall = _overall(metrics) if "config" in metrics else metrics.iloc[0:0]
    if not ks or overall.empty:
        return None
    panels = [(name, top_configs(frame, name)) for name, frame in _panels(overall)]
    cmap = matplotlib.colormaps["tab20"]
    markers = ("o", "s", "^", "D", "v")
    styles = ("-", "--", ":")
    x = [k for k, _ in ks]
    heights = [max(2.4, 0.13 * len(frame) / (2 if len(frame) > 12 else 1) + 0.9)
               for _, frame in panels]
    with _style():
        fig = Figure(figsize=(_WIDTH, sum(heights) + 0.3), layout="constrained")
        axes = fig.subplots(len(panels), 1, squeeze=False, height_ratios=heights)[:, 0]
        count = 0
        for ax, (queryset, frame) in zip(axes, panels, strict=True):
            values = frame[[c for _, c in ks]].to_numpy(dtype=float)
            for i, config in enumerate(frame["config"].astype(str)):
                (line,) = ax.plot(x, values[i], color=cmap(i % 20),
                                  marker=markers[i % len(markers)],
                                  linestyle=styles[(i // 20) % len(styles)], markersize=3.5,
                                  linewidth=1.2, label=config)
                line.set_gid(f"line-{count}")
                count += 1
            ax.set_xticks(x, labels=[f"P@{k}" for k in x])
            ax.set_ylim(bottom=0)
            ax.set_ylabel("precision")
            ax.yaxis.grid(True, color="#e5e5e5")
            ax.set_title(queryset, loc="left")
            ax.legend(loc="center left", bbox_to_anchor=(1.01, 0.5),
                      ncols=2 if len(frame) > 12 else 1)
        return _svg(fig, "fig-precision")


def verification_bars(verification: pd.DataFrame | None) -> str | None:
    """Per config the share of its top-k hits that verified, partially verified, only matched a
    precedent or did not verify, stacked to 1: how much of what a config returns can be trusted.
    """
    if verification is None or verification.empty or "config" not in verification:
        return None
    rates = [c for c in VERIFICATION_RATES if c in verification]
    if not rates:
        return None
    frame = verification.drop_duplicates(
        [c for c in ("config", "queryset") if c in verification], keep="last")
    panels = [(name, part.sort_values([rates[0], "config"], ascending=[True, False],
                                      na_position="first"))
              for name, part in _panels(frame)]
    heights = [len(part) + 2 for _, part in panels]
    with _style():
        fig = Figure(figsize=(_WIDTH, 0.24 * sum(heights) + 0.6), layout="constrained")
        axes = fig.subplots(len(panels), 1, squeeze=False, height_ratios=heights)[:, 0]
        count = 0
        for ax, (queryset, part) in zip(axes, panels, strict=True):
            ys = np.arange(len(part))
            left = np.zeros(len(part))
            for column in rates:
                label, colour = VERIFICATION_RATES[column]
                values = np.nan_to_num(part[column].to_numpy(dtype=float))
                bars = ax.barh(ys, values, left=left, color=colour, height=0.75, label=label)
                for bar in bars:
                    bar.set_gid(f"segment-{count}")
                    count += 1
                left += values
            ax.set_yticks(ys, labels=part["config"].astype(str))
            ax.set_xlim(0, max(1.0, float(left.max(initial=0.0))))
            ax.set_ylim(-0.6, len(part) - 0.4)
            ks = sorted(part["k"].dropna().unique()) if "k" in part else []
            suffix = f" (top {', '.join(str(int(k)) for k in ks)})" if ks else ""
            ax.set_title(f"{queryset}{suffix}".strip(), loc="left")
        handles = [Patch(color=VERIFICATION_RATES[c][1], label=VERIFICATION_RATES[c][0])
                   for c in rates]
        fig.legend(handles=handles, loc="outside upper center", ncols=len(handles))
        return _svg(fig, "fig-verification")


def regression_deltas(regression: pd.DataFrame | None,
                      limit: int = MAX_REGRESSION_BARS) -> str | None:
    """Measured minus expected per config and metric, coloured by status, with the tolerance
    as whiskers around zero: a bar past its whisker is a real change. Not-ok checks first, then
    the largest changes, at most `limit` bars."""
    needed = {"config", "metric", "delta", "status"}
    if regression is None or regression.empty or not needed <= set(regression.columns):
        return None
    order = {status: i for i, status in enumerate(STATUS_COLOURS)}
    frame = regression.assign(
        _severity=regression["status"].map(order).fillna(len(order)),
        _size=regression["delta"].astype(float).abs().fillna(0.0),
    ).sort_values(["_severity", "_size", "config", "metric"],
                  ascending=[True, False, True, True])
    shown = frame.head(limit)
    several = "queryset" in frame and frame["queryset"].nunique() > 1
    labels = [" · ".join(str(p) for p in ((r.config, r.queryset, r.metric) if several
                                           else (r.config, r.metric)))
              for r in shown.itertuples(index=False)]
    deltas = shown["delta"].to_numpy(dtype=float)
    statuses = shown["status"].astype(str).tolist()
    tolerances = (shown["tolerance"].to_numpy(dtype=float) if "tolerance" in shown
                  else np.full(len(shown), np.nan))
    ys = np.arange(len(shown))
    with _style():
        fig = Figure(figsize=(_WIDTH, 0.2 * len(shown) + 1.1), layout="constrained")
        ax = fig.subplots()
        colours = [STATUS_COLOURS.get(s, "#555555") for s in statuses]
        bars = ax.barh(ys, np.nan_to_num(deltas), color=colours, height=0.7)
        for i, bar in enumerate(bars):
            bar.set_gid(f"bar-{i}")
        for y, delta, status in zip(ys, deltas, statuses, strict=True):
            if not np.isfinite(delta):
                ax.text(0, y, f" {status}", va="center", ha="left", fontsize=6.5,
                        color=STATUS_COLOURS.get(status, "#555555"))
        finite = np.isfinite(tolerances)
        if finite.any():
            bounds = np.abs(tolerances[finite])
            ax.plot(np.concatenate([-bounds, bounds]), np.concatenate([ys[finite]] * 2),
                    linestyle="none", marker="|", markersize=7, color="#333333", zorder=3)
        ax.axvline(0, color="black", linewidth=0.8)
        ax.set_yticks(ys, labels=labels)
        ax.set_ylim(len(shown) - 0.4, -0.6)
        ax.set_xlabel("delta (measured − expected)")
        ax.xaxis.grid(True, color="#e5e5e5")
        ax.set_axisbelow(True)
        span = np.nanmax(np.abs(np.concatenate([deltas, tolerances])), initial=0.0)
        ax.set_xlim(-span * 1.2 if span > 0 else -0.01, span * 1.2 if span > 0 else 0.01)
        title = (f"{len(shown)} of {len(frame)} checks: not-ok first, then the largest changes"
                 if len(shown) < len(frame) else f"{len(frame)} checks")
        ax.set_title(title, loc="left")
        handles = [Patch(color=STATUS_COLOURS[s], label=s) for s in STATUS_COLOURS
                   if s in statuses]
        if finite.any():
            handles.append(Line2D([], [], color="#333333", marker="|", markersize=7,
                                  linestyle="none", label="± tolerance"))
        fig.legend(handles=handles, loc="outside upper center", ncols=len(handles))
        return _svg(fig, "fig-regression")


def figures(metrics: pd.DataFrame, verification: pd.DataFrame | None = None,
            regression: pd.DataFrame | None = None) -> dict[str, str]:
    """Title -> SVG of every figure there is something to draw for, in reading order (the
    regression figure last, under REGRESSION_TITLE)."""
    metric_columns = [c for c in ("ndcg@10", "map") if c in metrics]
    ks = [k for k, _ in _precision_columns(metrics)]
    drawn = {
        " and ".join(_label(c) for c in metric_columns) + " per config": metric_bars(metrics),
        "nDCG@10 per query type": query_type_heatmap(metrics),
        "Precision at " + ", ".join(str(k) for k in ks) + f": each set's {TOP_CONFIGS} best "
        "configs by its measure, and its BM25": precision_curves(metrics),
        "Verification status of each config's top hits": verification_bars(verification),
        REGRESSION_TITLE: regression_deltas(regression),
    }
    return {title: svg for title, svg in drawn.items() if svg is not None}
