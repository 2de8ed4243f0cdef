"""The evaluation report: Markdown, a self-contained HTML page and metrics tables."""

from __future__ import annotations

import html
import shutil
from pathlib import Path

import pandas as pd

from nyaya.tables import write_table

HEADLINE = ["config", "queryset", "group", "queries", "precision@1", "precision@3", "precision@5",
            "recall@10", "ndcg@10", "mrr", "map", "median_ms"]


def markdown_table(frame: pd.DataFrame) -> str:
    columns = list(frame.columns)
    lines = ["| " + " | ".join(columns) + " |", "|" + "---|" * len(columns)]
    for row in frame.itertuples(index=False):
        cells = [f"{v:.4f}" if isinstance(v, float) else str(v) for v in row]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


def speed_table(metrics: pd.DataFrame) -> pd.DataFrame:
    """Per config and query set: median latency of one query and throughput of the whole set
    (every query, judged or not), fastest first."""
    columns = ["config", "queryset", "median_ms", "queries_per_second"]
    overall = metrics[metrics["group"] == "all"]
    return overall[[c for c in columns if c in overall]].sort_values(
        ["median_ms", "config", "queryset"]).reset_index(drop=True)


def render_markdown(metrics: pd.DataFrame, provenance: dict[str, str],
                    sections: dict[str, pd.DataFrame] | None = None) -> str:
    overall = metrics[metrics["group"] == "all"][[c for c in HEADLINE if c in metrics]]
    by_group = metrics[metrics["group"] != "all"][[c for c in HEADLINE if c in metrics]]
    parts = ["# nyaya evaluation report", "",
             *(f"- **{key}**: {value}" for key, value in provenance.items()), "",
             "## Headline", "", markdown_table(overall), "",
             "## By query type (and the held-out half)", "", markdown_table(by_group), ""]
    for title, table in (sections or {}).items():
        parts += [f"## {title}", "", markdown_table(table), ""]
    return "\n".join(parts)


def render_html(metrics: pd.DataFrame, provenance: dict[str, str],
                sections: dict[str, pd.DataFrame] | None = None) -> str:
    """A page that opens offline: the provenance list, the full metrics table and the extra
    sections."""
    table = metrics.to_html(index=False, float_format=lambda v: f"{v:.4f}", border=0)
    for title, frame in (sections or {}).items():
        table += f"<h2>{html.escape(title)}</h2>" + frame.to_html(
            index=False, float_format=lambda v: f"{v:.4f}", border=0)
    header = "".join(f"<li><b>{html.escape(key)}</b>: {html.escape(value)}</li>"
                     for key, value in provenance.items())
    style = ("body{font-family:sans-serif;margin:2em}table{border-collapse:collapse}"
             "td,th{padding:4px 8px;border-bottom:1px solid #ddd;text-align:right}"
             "td:nth-child(-n+3),th:nth-child(-n+3){text-align:left}")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>nyaya evaluation</title>"
            f"<style>{style}</style></head><body><h1>nyaya evaluation report</h1>"
            f"<ul>{header}</ul><h2>Metrics</h2>{table}</body></html>")


def write_report(metrics: pd.DataFrame, provenance: dict[str, str], reports_dir: Path,
                 date: str, sections: dict[str, pd.DataFrame] | None = None) -> Path:
    """Write data/reports/<date>/ and mirror it to data/reports/latest/; `sections` are titled
    tables after the metrics."""
    folder = reports_dir / date
    folder.mkdir(parents=True, exist_ok=True)
    text = render_markdown(metrics, provenance, sections)
    (folder / "report.md").write_text(text, encoding="utf-8")
    (folder / "report.html").write_text(render_html(metrics, provenance, sections),
                                        encoding="utf-8")
    metrics.to_csv(folder / "metrics.csv", index=False)
    write_table(metrics, folder / "metrics.parquet")
    latest = reports_dir / "latest"
    if latest.exists():
        shutil.rmtree(latest)
    shutil.copytree(folder, latest)
    return folder
