"""The evaluation report's HTML page and figures: pure checks on small hand-made frames, and one
check of the written page in a real headless Chromium."""

from __future__ import annotations

import os
import re
import subprocess
from pathlib import Path

import matplotlib
import pandas as pd
import pytest

from evals import plots
from evals.report import render_html, render_markdown, write_report

CONFIGS = ["alpha", "beta", "gamma"]
QUERYSETS = ["qs-a", "qs-b"]
QUERY_TYPES = ["criminal_offence", "procedural"]
METRICS = ["precision@1", "precision@3", "precision@5", "precision@10", "recall@10", "ndcg@10",
           "mrr", "map", "hit_rate@5"]


def make_metrics(columns: list[str] = METRICS, configs: list[str] = CONFIGS,
                 groups: tuple[str, ...] = ("all", *QUERY_TYPES, "heldout")) -> pd.DataFrame:
    """One row per (config, queryset, group), distinct values, provenance columns as in a run."""
    rows = []
    for c, config in enumerate(configs):
        for q, queryset in enumerate(QUERYSETS):
            for g, group in enumerate(groups):
                row = {"config": config, "queryset": queryset, "group": group, "queries": 10}
                row |= {column: round(0.1 + 0.2 * c + 0.05 * q + 0.02 * g + 0.01 * m, 4)
                        for m, column in enumerate(columns)}
                row |= {"config_hash": f"h{c}", "code_version": "v1", "median_ms": 5.0 + c,
                        "queries_per_second": 100.0}
                rows.append(row)
    return pd.DataFrame(rows)


def make_verification(configs: list[str] = CONFIGS) -> pd.DataFrame:
    return pd.DataFrame([
        {"config": config, "queryset": "qs-a", "queries": 10, "k": 5,
         "verified_rate": 0.5 + 0.1 * i, "partially_verified_rate": 0.3 - 0.1 * i,
         "precedent_only_rate": 0.1, "unverified_rate": 0.1, "false_positives_per_query": 2.0}
        for i, config in enumerate(configs)])


def make_regression(statuses: tuple[str, ...] = ("ok", "regressed", "improved", "missing", "ok")
                    ) -> pd.DataFrame:
    rows = []
    for i, status in enumerate(statuses):
        delta = {"ok": 0.001, "regressed": -0.05, "improved": 0.04, "missing": None}[status]
        regressed = status == "regressed"  # always alpha's MRR, the others ndcg@10 or map
        rows.append({"config": "alpha" if regressed else CONFIGS[i % len(CONFIGS)],
                     "queryset": "qs-a",
                     "metric": "mrr" if regressed else ["ndcg@10", "map"][i % 2],
                     "expected": 0.3, "measured": None if delta is None else 0.3 + delta,
                     "delta": delta, "tolerance": 0.02, "status": status})
    return pd.DataFrame(rows)


def count(svg: str, prefix: str) -> int:
    """How many elements carry an id `<prefix>-<n>` (bars, lines, cells the plots tag)."""
    return len(re.findall(rf'id="{re.escape(prefix)}-\d+"', svg))


def texts(svg: str) -> list[str]:
    """The text of the SVG's <text> elements (labels, ticks, annotations)."""
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def section(page: str, identity: str) -> str:
    """The inside of <section id=identity> (sections are not nested)."""
    match = re.search(rf"<section id=['\"]{identity}['\"]>(.*?)</section>", page, re.S)
    assert match, f"no section {identity}"
    return match.group(1)


@pytest.mark.parametrize(("draw", "prefix", "expected", "labels"), [
    # 3 configs x 2 query sets x (nDCG@10, MAP)
    (lambda: plots.metric_bars(make_metrics()), "fig-metrics-bar", 12,
     [*CONFIGS, *QUERYSETS, "nDCG@10", "MAP"]),
    # 3 configs x 2 query sets x 2 query types; 'all' and 'heldout' are not query types
    (lambda: plots.query_type_heatmap(make_metrics()), "fig-query-types-cell", 12,
     [*CONFIGS, *QUERY_TYPES]),
    # one line per config and query set, a tick per k
    (lambda: plots.precision_curves(make_metrics()), "fig-precision-line", 6,
     [*CONFIGS, "P@1", "P@3", "P@5", "P@10"]),
    # 3 configs x 4 rates
    (lambda: plots.verification_bars(make_verification()), "fig-verification-segment", 12,
     [*CONFIGS, "verified", "partially verified", "precedent only", "unverified"]),
    # one bar per check
    (lambda: plots.regression_deltas(make_regression()), "fig-regression-bar", 5,
     ["alpha · mrr", "regressed", "improved", "missing", "± tolerance"]),
])
def test_plot_draws_one_mark_per_value(draw, prefix, expected, labels):
    svg = draw()
    assert svg.startswith("<svg") and svg.endswith("</svg>")
    assert count(svg, prefix) == expected
    found = texts(svg)
    for label in labels:
        assert label in found, f"{label!r} not a text of the figure"


def test_heatmap_annotates_cells_and_leaves_splits_out():
    svg = plots.query_type_heatmap(make_metrics())
    found = texts(svg)
    assert "heldout" not in found and "all" not in found
    # alpha, qs-a, criminal_offence: 0.1 + 0.02 * 1 + 0.01 * ndcg's column index 5
    assert "0.17" in found


def test_heatmap_uses_group_kind_when_present():
    metrics = make_metrics(groups=("all", "criminal_offence", "delhi-hc", "heldout"))
    metrics["group_kind"] = metrics["group"].map(
        {"all": "all", "criminal_offence": "query_type", "delhi-hc": "domain",
         "heldout": "split"})
    svg = plots.query_type_heatmap(metrics)
    assert "criminal_offence" in texts(svg) and "delhi-hc" not in texts(svg)
    assert count(svg, "fig-query-types-cell") == 6


def test_regression_figure_puts_regressions_first_and_caps_bars():
    regression = make_regression(("ok",) * 8 + ("regressed",))
    svg = plots.regression_deltas(regression, limit=4)
    assert count(svg, "fig-regression-bar") == 4
    tick_labels = [t for t in texts(svg) if " · " in t]
    assert tick_labels[0] == "alpha · mrr"  # the regressed check, though it came last
    assert "4 of 9 checks" in " ".join(texts(svg))


@pytest.mark.parametrize(("draw", "why"), [
    (lambda: plots.metric_bars(make_metrics().iloc[0:0]), "no rows"),
    (lambda: plots.metric_bars(make_metrics(["mrr"])), "neither nDCG@10 nor MAP"),
    (lambda: plots.query_type_heatmap(make_metrics(groups=("all", "heldout"))),
     "no query-type rows"),
    (lambda: plots.query_type_heatmap(make_metrics(["map"])), "no nDCG@10"),
    (lambda: plots.precision_curves(make_metrics(["ndcg@10", "map"])), "no precision@k"),
    (lambda: plots.verification_bars(None), "no verification"),
    (lambda: plots.verification_bars(make_verification().iloc[0:0]), "empty verification"),
    (lambda: plots.regression_deltas(None), "no regression"),
    (lambda: plots.regression_deltas(make_regression().iloc[0:0]), "empty regression"),
])
def test_plot_of_nothing_is_none(draw, why):
    assert draw() is None, why


def test_figures_collects_only_what_can_be_drawn():
    assert plots.figures(make_metrics().iloc[0:0]) == {}
    assert len(plots.figures(make_metrics())) == 3
    everything = plots.figures(make_metrics(), make_verification(), make_regression())
    assert len(everything) == 5 and plots.REGRESSION_TITLE in everything
    assert next(iter(everything)) == "nDCG@10 and MAP per config"


def test_same_input_gives_identical_svg_whatever_the_global_rc():
    args = (make_metrics(), make_verification(), make_regression())
    first = plots.figures(*args)
    with matplotlib.rc_context({"font.size": 20, "svg.hashsalt": None, "lines.linewidth": 4}):
        second = plots.figures(*args)
    assert first == second
    for svg in first.values():
        assert "<dc:date>" not in svg and "<metadata>" not in svg


def test_svg_ids_are_unique_across_figures():
    ids = [i for svg in plots.figures(make_metrics(), make_verification(),
                                      make_regression()).values()
           for i in re.findall(r'\bid="([^"]+)"', svg)]
    assert ids and len(ids) == len(set(ids))


def test_html_escapes_hostile_text():
    hostile = "<script>alert(1)</script>"
    metrics = make_metrics(configs=[hostile, "beta"])
    metrics.loc[0, "queryset"] = "q&<a>"
    page = render_html(metrics, {"corpus": "<b>bold</b>", "<i>key</i>": "x"},
                       {"<em>title</em>": pd.DataFrame({"<th>": ["<td>"]})},
                       verification=make_verification([hostile]),
                       regression=make_regression())
    assert "<script" not in page.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    for raw in ("<b>bold", "<i>key", "<em>title", "<th>", "<td><td>", "q&<a>"):
        assert raw not in page
    assert "&lt;b&gt;bold&lt;/b&gt;" in page and "q&amp;&lt;a&gt;" in page


def test_html_refers_to_nothing_outside_the_page():
    page = render_html(make_metrics(), {"corpus": "x"}, verification=make_verification(),
                       regression=make_regression())
    assert not re.search(r"<(script|link|img|iframe|object)\b", page, re.I)
    assert not re.search(r"\bsrc\s*=", page, re.I)
    # in-page anchors and SVG references, and the colour bar's inline PNG
    refs = re.findall(r'href=["\']([^"\']*)', page)
    assert refs and all(ref.startswith(("#", "data:image/png;base64,")) for ref in refs)
    assert set(re.findall(r"url\((.)", page)) <= {"#"}
    assert "@import" not in page


@pytest.mark.parametrize(("statuses", "expected", "absent"), [
    (("ok", "regressed", "improved"), ["regressed-table", "status-regressed",
                                        "1 regressed metric", "alpha", "mrr"],
     ["No regressed metrics"]),
    (("ok", "improved", "missing"), ["No regressed metrics", "1 missing, 1 improved, 1 ok",
                                     "not measured"], ["regressed-table"]),
    (None, ["No regression baseline"], ["regressed-table", "No regressed metrics"]),
])
def test_regression_section(statuses, expected, absent):
    regression = None if statuses is None else make_regression(statuses)
    page = render_html(make_metrics(), {"corpus": "x"}, regression=regression)
    body = section(page, "regression")
    for text in expected:
        assert text in body
    for text in absent:
        assert text not in body
    if statuses and "regressed" in statuses:  # the regressed row sits in the red table
        table = re.search(r"<table id='regressed-table'>(.*?)</table>", body, re.S).group(1)
        assert "<td>alpha</td>" in table and "<td>mrr</td>" in table
        assert "banner bad" in page.split("<section")[0]


def test_markdown_regression_section():
    text = render_markdown(make_metrics(), {"corpus": "x"}, regression=make_regression())
    assert "## Regression" in text and "**1 regressed**" in text
    assert "| alpha | qs-a | mrr | 0.3000 | 0.2500 | -0.0500 | 0.0200 | regressed |" in text
    assert text.index("## Regression") < text.index("## Headline")
    calm = render_markdown(make_metrics(), {"corpus": "x"}, regression=make_regression(("ok",)))
    assert "No regressed metrics (1 ok of 1 check)." in calm
    assert "## Regression" not in render_markdown(make_metrics(), {"corpus": "x"})


@pytest.mark.parametrize(("columns", "figures_drawn", "headline_has", "headline_lacks"), [
    (["ndcg@10"], 2, ["ndcg@10"], ["map", "precision@1"]),
    (["map", "precision@5"], 2, ["map", "precision@5"], ["ndcg@10"]),
    (["weird@7"], 0, ["config"], ["weird@7"]),
    ([*METRICS, "recall@5", "recall@100", "judged@10", "bpref"], 3,
     ["bpref", "recall@100", "judged@10"], []),
])
def test_missing_or_unknown_metric_columns_do_not_crash(columns, figures_drawn, headline_has,
                                                        headline_lacks):
    metrics = make_metrics(columns)
    assert len(plots.figures(metrics)) == figures_drawn
    page = render_html(metrics, {"corpus": "x"})
    headline = section(page, "headline")
    for column in headline_has:
        assert f">{column}</th>" in headline
    for column in headline_lacks:
        assert f">{column}</th>" not in headline
    for column in columns:  # the full table keeps every column, known or not
        assert f">{column}</th>" in section(page, "metrics")
    assert page.count("<svg") == figures_drawn


def test_headline_puts_best_first_and_in_bold():
    page = render_html(make_metrics(), {"corpus": "x"})
    headline = re.search(r"<table id='headline-table'>(.*?)</table>", page, re.S).group(1)
    rows = re.findall(r"<tr>(.*?)</tr>", headline.split("<tbody>")[1])
    assert len(rows) == len(CONFIGS) * len(QUERYSETS)  # group 'all' only
    assert rows[0].startswith("<td>gamma</td><td>qs-a</td>")  # highest nDCG@10 of qs-a
    assert "class='num best'" in rows[0] and "class='num best'" not in rows[1]


def test_write_report_writes_and_mirrors_tables(tmp_path):
    folder = write_report(make_metrics(), {"corpus": "x"}, tmp_path, "2026-01-02",
                          {"Extra": pd.DataFrame({"a": [1]})},
                          verification=make_verification(), regression=make_regression())
    names = {"report.md", "report.html", "metrics.csv", "metrics.parquet",
             "metrics.parquet.sha256", "verification.csv", "regression.csv"}
    assert {p.name for p in folder.iterdir()} == names
    assert {p.name for p in (tmp_path / "latest").iterdir()} == names
    assert pd.read_csv(folder / "regression.csv")["status"].tolist() == \
        make_regression()["status"].tolist()
    # the five-argument form (assets/evaluation.py) still works and leaves no stale copies
    write_report(make_metrics(), {"corpus": "x"}, tmp_path, "2026-01-02")
    assert not (tmp_path / "latest" / "regression.csv").exists()
    assert not (folder / "verification.csv").exists()
    assert "No regression baseline" in (folder / "report.html").read_text(encoding="utf-8")


# --- the page in a real browser -------------------------------------------------------------

CHROMIUM = Path("/usr/bin/chromium")
#: Without the background-networking flags Chromium waits on the closed network.
CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                  "--no-first-run", "--disable-background-networking",
                  "--disable-component-update", "--disable-sync", "--disable-dev-shm-usage",
                  "--hide-scrollbars"]
WINDOW = (1280, 2000)


@pytest.fixture
def chromium() -> Path:
    """Debian's Chromium; skipped where it is not installed, a failure on CI (which installs
    it)."""
    if CHROMIUM.is_file():
        return CHROMIUM
    if os.environ.get("CI"):
        pytest.fail(f"CI must have Chromium at {CHROMIUM} (apt-get install -y chromium)")
    pytest.skip(f"no Chromium at {CHROMIUM}: `apt-get install -y chromium` to run the browser "
                "check of report.html")


def browse(chromium: Path, page: Path, workdir: Path) -> tuple[str, Path]:
    """Load `page` in headless Chromium: the DOM after load, and a screenshot of the window."""
    shot = workdir / "screenshot.png"
    command = [str(chromium), *CHROMIUM_FLAGS, f"--user-data-dir={workdir / 'profile'}",
               f"--window-size={WINDOW[0]},{WINDOW[1]}", f"--screenshot={shot}",
               "--dump-dom", page.as_uri()]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout, shot


def test_report_page_in_headless_chromium(chromium, tmp_path):
    hostile = "<script>document.title='pwned'</script>"
    metrics = make_metrics(configs=[*CONFIGS, hostile])
    verification, regression = make_verification(), make_regression()
    write_report(metrics, {"corpus": "fixture"}, tmp_path / "reports", "2026-01-03",
                 {"Speed": metrics[["config", "median_ms"]].head(2)},
                 verification=verification, regression=regression)
    dom, shot = browse(chromium, tmp_path / "reports" / "latest" / "report.html", tmp_path)

    assert "<title>nyaya evaluation report</title>" in dom  # the hostile config did not run
    assert not re.search(r"<script\b", dom)
    answers = re.search(r'<ul class="answers" id="answers">(.*?)</ul>', dom, re.S)
    assert answers, "the report does not open with its answers"
    assert len(re.findall(r"<li>", answers.group(1))) == len(QUERYSETS)  # one per query set
    headline = re.search(r'<table id="headline-table">(.*?)</table>', dom, re.S)
    assert headline, "no headline table in the DOM"
    assert len(re.findall(r"<tr>", headline.group(1))) == 1 + len(metrics.query("group == 'all'"))
    drawn = plots.figures(metrics, verification, regression)
    assert len(drawn) == 5
    assert len(re.findall(r"<svg\b", dom)) == len(drawn)
    assert len(re.findall(r"<svg\b", section(dom, "figures"))) == len(drawn) - 1
    body = section(dom, "regression")
    assert "1 regressed metric" in body and "<svg" in body
    assert re.search(r'<table id="regressed-table">.*<td>alpha</td>.*<td>mrr</td>', body, re.S)
    assert "<h2>Speed</h2>" in dom

    assert shot.is_file(), "no screenshot written"
    try:
        from PIL import Image
    except ImportError:
        assert shot.stat().st_size > 20_000  # a blank 1280x2000 PNG is a few kB
        return
    with Image.open(shot) as image:
        assert image.size == WINDOW
        colours = image.convert("RGB").getcolors(maxcolors=1 << 20)
    assert len(colours) > 50, "the screenshot is (nearly) blank"
    # the red banner of the regression (#fdecea) is painted near the top
    assert any(abs(r - 0xFD) <= 3 and abs(g - 0xEC) <= 3 and abs(b - 0xEA) <= 3
               for _, (r, g, b) in colours)


def _overall(rows: list[tuple[str, str, float, float]]) -> pd.DataFrame:
    return pd.DataFrame([{"config": config, "queryset": queryset, "group_kind": "all",
                          "group": "all", "queries": 10, "ndcg@10": ndcg, "map": map_,
                          "fitted_params": ""} for config, queryset, ndcg, map_ in rows])


@pytest.mark.parametrize(("rows", "comparison", "expected"), [
    ([("bm25-sections", "nyaya-statutes", 0.25, 0.2), ("role-citizen", "nyaya-statutes", 0.5,
                                                        0.4)],
     [("nyaya-statutes", "role-citizen", "ndcg@10", True, 0.00001)],
     "**nyaya-statutes** (10 judged queries): best **role-citizen**, ndcg@10 0.5000, +0.2500 "
     "over bm25-sections (significant after Holm, p < 0.0001)"),
    ([("aila-statutes-bm25", "aila2019-statutes", 0.3, 0.08),
      ("aila-statutes-dense", "aila2019-statutes", 0.2, 0.12)],  # read by MAP, its measure
     [("aila2019-statutes", "aila-statutes-dense", "map", False, 0.42)],
     "best **aila-statutes-dense**, map 0.1200, +0.0400 over aila-statutes-bm25 (not "
     "significant after Holm, p 0.4200)"),
    ([("precedents-sparse", "irled2017-precedents", 0.5, 0.41),
      ("kg-citerag", "irled2017-precedents", 0.2, 0.14)], [],
     "best **precedents-sparse**, map 0.4100: plain BM25 is the best config"),
    ([("role-police", "transition", 0.9, 0.9)], [],
     "best **role-police**, ndcg@10 0.9000 (no BM25 run to compare with)"),
])
def test_the_report_opens_with_one_answer_per_query_set(rows, comparison, expected):
    from evals.report import answer_lines

    table = pd.DataFrame([{"queryset": q, "scope": "all judged", "config": c, "metric": m,
                           "significant": s, "p_holm": p} for q, c, m, s, p in comparison],
                         columns=["queryset", "scope", "config", "metric", "significant",
                                  "p_holm"])
    (line,) = answer_lines(_overall(rows), table)
    assert expected in line


def test_a_tuned_config_is_not_the_answer():
    from evals.report import answer_lines

    metrics = _overall([("bm25-sections", "nyaya-statutes", 0.25, 0.2),
                        ("wsum-tuned", "nyaya-statutes", 0.9, 0.9)])
    metrics.loc[1, "fitted_params"] = '{"c": 1}'  # scored on the held-out half only
    assert "plain BM25 is the best config" in answer_lines(metrics, None)[0]


@pytest.mark.parametrize(("row", "expected"), [
    ({"verified_rate": 0.8, "unverified_rate": 0.05, "false_positives_per_query": 0.0,
      "precision@3_criminal": 0.95, "precision@3_civil": 0.7}, "none"),
    ({"verified_rate": 0.69, "false_positives_per_query": 4.06,
      "precision@3_criminal": float("nan")},
     "verified_rate 0.69 (target >= 0.70); false_positives_per_query 4.06 (target <= 0.1)"),
])
def test_missed_targets_are_named_with_their_figures(row, expected):
    from evals.verification import missed_targets

    assert missed_targets(row) == expected


def test_the_precision_figure_keeps_the_best_configs_and_bm25():
    from evals.plots import top_configs

    frame = pd.DataFrame({"config": [f"c{i:02d}" for i in range(20)] + ["bm25-sections"],
                          "ndcg@10": [i / 100 for i in range(20)] + [0.001]})
    kept = top_configs(frame, "nyaya-statutes", count=3)
    assert kept["config"].tolist() == ["c19", "c18", "c17", "bm25-sections"]


def test_rates_and_latencies_read_to_one_decimal():
    from evals.report import markdown_table

    table = markdown_table(pd.DataFrame({"config": ["a"], "queries_per_second": [871.8],
                                         "map": [0.12345], "p": [float("nan")]}))
    assert table.splitlines()[-1] == "| a | 871.8 | 0.1235 | – |"
