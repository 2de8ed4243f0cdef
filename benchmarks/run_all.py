"""Every benchmark of the project in one command, printed as one table.

    .venv/bin/python benchmarks/run_all.py [--quick] [--only NAME,...]

One row per figure: stage, figure, value, unit, and where the figure has a peer measured in
the same run (bm25s / rank_bm25, Qdrant Edge / FAISS / qdrant-client local / numpy exact,
ranx / pytrec_eval, each embedder / fp32 MiniLM, each statute config / the fastest one), the
peer, its value and ratio = value / peer_value. The table is also written as CSV to
data/reports/benchmarks/<UTC date>.csv (one file a day: a later run replaces it).

Benchmarks whose figures need a process of their own (a peak RSS, a cold start) run as
children of this one; the rest run here, one after another. The embedders are only timed on a
sample of chunks (bench_embedders.py, which also scores retrieval quality, takes an hour).
`--quick` uses small samples everywhere: a few minutes in all, for smoke runs; stage names
say what was sampled. Needs `make run` first. The machine is shared and figures are wall
clock: compare a figure with its peer in the same run, not across runs.
"""

from __future__ import annotations

import argparse
import csv
import json
import subprocess
import sys
import time
import traceback
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from datetime import UTC, date, datetime
from pathlib import Path

from nyaya.settings import Settings

COLUMNS = ("stage", "figure", "value", "unit", "peer", "peer_value", "ratio")
#: a child process prints its figures on one line after this prefix
FIGURES_LINE = "run_all figures: "


@dataclass(frozen=True)
class Figure:
    """One measured figure and, where it has one, its peer's figure from the same run."""

    stage: str
    figure: str
    value: float
    unit: str
    peer: str = ""
    peer_value: float | None = None

    def __post_init__(self) -> None:
        if bool(self.peer) != (self.peer_value is not None):
            raise ValueError(f"{self.figure}: a peer needs both its name and its value")
        # plain floats, so that numpy scalars serialize and print alike
        object.__setattr__(self, "value", float(self.value))
        if self.peer_value is not None:
            object.__setattr__(self, "peer_value", float(self.peer_value))

    @property
    def ratio(self) -> float | None:
        """value / peer_value; None without a peer, or beside a peer of zero."""
        if self.peer_value is None or self.peer_value == 0:
            return None
        return self.value / self.peer_value

    def row(self) -> dict[str, object]:
        return {**asdict(self), "ratio": self.ratio}


def versus(stage: str, figure: str, unit: str, values: Mapping[str, float],
           peer: str) -> list[Figure]:
    """One figure per contender, `figure: name`, each beside `peer`'s value; the peer's own
    figure (and every figure, when the peer was not measured) stands alone."""
    base = values.get(peer)
    return [Figure(stage, f"{figure}: {name}", value, unit,
                   *(("", None) if name == peer or base is None else (peer, base)))
            for name, value in values.items()]


def format_number(value: float | None) -> str:
    """Three or so significant digits, thousands separated; blank for no value."""
    if value is None:
        return ""
    magnitude = abs(value)
    if magnitude >= 1000:
        return f"{value:,.0f}"
    if magnitude >= 100:
        return f"{value:.1f}"
    if magnitude >= 1 or magnitude == 0:
        return f"{value:.2f}"
    return f"{value:.3g}"


def table_rows(figures: Iterable[Figure]) -> list[list[str]]:
    """The printed cells, COLUMNS in order; a stage is named on its first row only."""
    rows, previous = [], None
    for figure in figures:
        row = figure.row()
        cells = [format_number(row[c]) if c in ("value", "peer_value", "ratio") else str(row[c])
                 for c in COLUMNS]
        if figure.stage == previous:
            cells[0] = ""
        previous = figure.stage
        rows.append(cells)
    return rows


def format_table(figures: Sequence[Figure]) -> str:
    rows = [list(COLUMNS), *table_rows(figures)]
    widths = [max(len(row[i]) for row in rows) for i in range(len(COLUMNS))]
    numeric = {COLUMNS.index(c) for c in ("value", "peer_value", "ratio")}
    return "\n".join("  ".join(cell.rjust(widths[i]) if i in numeric else cell.ljust(widths[i])
                               for i, cell in enumerate(row)).rstrip()
                     for row in rows)


def csv_path(data_dir: Path, day: date) -> Path:
    return data_dir / "reports" / "benchmarks" / f"{day.isoformat()}.csv"


def write_csv(figures: Iterable[Figure], path: Path) -> Path:
    """Every figure at full precision (a float's shortest exact form); no value, no cell."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("w", newline="", encoding="utf-8") as out:
        writer = csv.DictWriter(out, fieldnames=COLUMNS)
        writer.writeheader()
        for figure in figures:
            writer.writerow({k: "" if v is None else v for k, v in figure.row().items()})
    return path


# ---- what each benchmark measures in the suite, and how much of it ----


@dataclass(frozen=True)
class Sizes:
    """How much each benchmark measures; None means all of it."""

    statute_lookup_rounds: int
    judgments_processed: int | None  # chunked and extracted (all are read)
    embedder_texts: int
    index_queries: int
    index_documents: int | None  # per collection
    local_mode_documents: int
    bm25_documents: int | None
    bm25_queries: int | None
    retrieval_queries: int | None
    retrieval_repeat: int
    retrieval_configs: tuple[str, ...] | None
    extraction_repeats: int
    extraction_adversarial: bool
    verification_answers: int | None
    citation_items_per_class: int
    metric_runs_per_set: int | None
    metric_repeat: int
    evaluation_configs: tuple[str, ...] | None  # None: bench_evaluation.TWELVE
    evaluation_queries: int | None  # per query set


FULL = Sizes(statute_lookup_rounds=5, judgments_processed=None, embedder_texts=512,
             index_queries=200, index_documents=None, local_mode_documents=10_000,
             bm25_documents=None, bm25_queries=None, retrieval_queries=None,
             retrieval_repeat=3, retrieval_configs=None, extraction_repeats=3,
             extraction_adversarial=True, verification_answers=None,
             citation_items_per_class=70, metric_runs_per_set=None, metric_repeat=3,
             evaluation_configs=None, evaluation_queries=None)
QUICK = Sizes(statute_lookup_rounds=1, judgments_processed=300, embedder_texts=64,
              index_queries=20, index_documents=5_000, local_mode_documents=1_000,
              bm25_documents=5_000, bm25_queries=20, retrieval_queries=12, retrieval_repeat=1,
              retrieval_configs=("bm25-sections", "dense-qdrant", "qdrant-hybrid",
                                 "faiss-hnsw-bm25-rrf", "rrf-mmr"),
              extraction_repeats=1, extraction_adversarial=False, verification_answers=100,
              citation_items_per_class=10, metric_runs_per_set=1, metric_repeat=1,
              evaluation_configs=("bm25-sections", "aila-statutes-rrf", "precedents-sparse"),
              evaluation_queries=30)


def _settings() -> Settings:
    return Settings.from_env()


def statute_figures(sizes: Sizes) -> list[Figure]:
    import bench_statutes

    result = bench_statutes.measure(_settings().require_corpus(), sizes.statute_lookup_rounds)
    stage = "statute ingestion"
    figures = [Figure(stage, f"step: {name}", seconds, "s")
               for name, seconds in result.step_seconds.items()]
    figures += [Figure(stage, f"whole corpus to every table ({result.acts} Acts, "
                              f"{result.sections} sections)", result.total_s, "s"),
                Figure(stage, "peak RSS", result.peak_rss_mib, "MiB")]
    lookups = (f"statute lookup ({result.citations_per_round} mixed citations x "
               f"{result.rounds} rounds)")
    return [*figures,
            Figure(lookups, "parse + resolve", result.lookups_per_s, "citations/s"),
            Figure(lookups, "resolve only (pre-parsed)", result.resolve_per_s, "citations/s")]


def judgment_figures(sizes: Sizes) -> list[Figure]:
    import bench_judgments

    result = bench_judgments.measure(_settings(), sizes.judgments_processed)
    stage = "judgment ingestion"
    if result.processed < result.judgments:
        stage += f" (all {result.judgments} read; {result.processed} chunked + extracted)"
    read_s = result.step_seconds[bench_judgments.READ_STEP]
    return [*(Figure(stage, f"step: {name}", seconds, "s")
              for name, seconds in result.step_seconds.items()),
            Figure(stage, "total", result.total_s, "s"),
            Figure(stage, "chunk + extract, per judgment",
                   (result.total_s - read_s) * 1000 / result.processed, "ms"),
            Figure(stage, "peak RSS", result.peak_rss_mib, "MiB")]


def embedder_figures(sizes: Sizes) -> list[Figure]:
    import bench_embedders

    settings = _settings()
    sample = bench_embedders.speed_sample(settings, sizes.embedder_texts)
    rows = [bench_embedders.speed_row(settings, name, sample)[0]
            for name in bench_embedders.DEFAULT_EMBEDDERS]
    stage = (f"embedding (timed sample: {len(sample)} judgment chunks per embedder; "
             "quality not scored)")
    figures = [Figure(stage, f"load: {row['embedder']}", row["load_s"], "s") for row in rows]
    figures += versus(stage, "length-bucketed", "texts/s",
                      {row["embedder"]: row["texts/s bucketed"] for row in rows},
                      bench_embedders.REFERENCE_EMBEDDER)
    return figures + [Figure(stage, f"unbucketed batches: {row['embedder']}",
                             row["texts/s unbucketed"], "texts/s",
                             f"{row['embedder']} bucketed", row["texts/s bucketed"])
                      for row in rows if "texts/s unbucketed" in row]


def index_figures(sizes: Sizes) -> list[Figure]:
    import bench_indexes

    settings = _settings()
    texts = bench_indexes.query_texts(settings, sizes.index_queries)
    result = bench_indexes.measure(settings, texts, sizes.local_mode_documents,
                                   sizes.index_documents)
    served = bench_indexes.run_query_process(texts)
    searches = f"vector search, one query at a time ({len(texts)} queries, k={bench_indexes.K})"
    timed = [row for row in result.rows if row.get("median_ms") is not None]
    medians, p95s, recalls = [], [], []
    for collection in dict.fromkeys(row["collection"] for row in timed):
        rows = [row for row in timed if row["collection"] == collection]
        # every engine but Edge's sparse and hybrid answers numpy's question, the dense top k
        dense = {row["engine"]: row["median_ms"] for row in rows
                 if row["engine"] not in (bench_indexes.EDGE_SPARSE, bench_indexes.EDGE_HYBRID)}
        medians += versus(f"{searches}, median", collection, "ms", dense, "numpy exact")
        medians += [Figure(f"{searches}, median", f"{collection}: {row['engine']}",
                           row["median_ms"], "ms") for row in rows if row["engine"] not in dense]
        p95s += [Figure(f"{searches}, p95", f"{collection}: {row['engine']}", row["p95_ms"],
                        "ms") for row in rows]
        recalls += [Figure(f"{searches}, recall@10 against exact",
                           f"{collection}: {row['engine']}", row["recall@10"], "recall")
                    for row in rows
                    if row["recall@10"] is not None and row["engine"] != "numpy exact"]
    processes = "index build and query processes"
    return [*(Figure("query embedding", f"{e.collection}: {e.embedder} ({e.dims} dims)",
                     e.ms_per_query, "ms/query") for e in result.embedding),
            *(Figure("index builds", f"{row['collection']}: {row['engine']}", row["build_s"],
                     "s") for row in result.rows
              if row["build_s"] is not None and row["engine"] != "numpy exact"),
            *medians, *p95s, *recalls,
            Figure(processes, "build process (vectors in memory, FAISS builds, Edge loads): "
                              "peak RSS", result.build_rss_mib, "MiB"),
            Figure(processes, "query-only process: embed + a statute and a judgment hybrid",
                   served["median_ms_embed_plus_two_hybrid"], "ms/query"),
            Figure(processes, "query-only process: first query", served["first_query_ms"],
                   "ms"),
            Figure(processes, "query-only process: peak RSS", served["peak_rss_mib"], "MiB")]


def bm25_figures(sizes: Sizes) -> list[Figure]:
    import bench_bm25

    result = bench_bm25.measure(_settings(), sizes.bm25_documents, sizes.bm25_queries)
    stage = (f"BM25 engines ({result.documents} in-force sections, {result.queries} "
             "questions, same tokens)")
    engines = result.engines.values()
    return [*versus(stage, "index build", "s", {e.engine: e.build_s for e in engines},
                    "rank_bm25"),
            *versus(stage, "query median", "ms", {e.engine: e.median_ms for e in engines},
                    "rank_bm25"),
            *versus(stage, "query p95", "ms", {e.engine: e.p95_ms for e in engines},
                    "rank_bm25"),
            Figure(stage, "top-10 overlap, bm25s with rank_bm25", result.top10_overlap,
                   "share")]


def retrieval_figures(sizes: Sizes) -> list[Figure]:
    import bench_retrieval

    result = bench_retrieval.measure(_settings(), sizes.retrieval_repeat,
                                     list(sizes.retrieval_configs)
                                     if sizes.retrieval_configs else None,
                                     sizes.retrieval_queries)
    stage = (f"statute question end to end ({result.queries} nyaya-statutes questions, "
             f"best of {result.repeat}, embedder {result.embedder})")
    rows = sorted(result.rows, key=lambda row: row["median_ms"])
    medians = {row["config"]: row["median_ms"] for row in rows}
    return [*versus(f"{stage}, median", "config", "ms", medians, rows[0]["config"]),
            *(Figure(f"{stage}, p95", f"config: {row['config']}", row["p95_ms"], "ms")
              for row in rows)]


def verify_figures(sizes: Sizes) -> list[Figure]:
    import bench_verify

    settings = _settings()
    extraction = bench_verify.measure_extraction(settings, sizes.extraction_repeats,
                                                 sizes.extraction_adversarial)
    verification = bench_verify.measure_verification(settings, sizes.verification_answers)
    stage = f"citation extraction (best of {extraction.repeats}, per MB of text)"
    figures = [Figure(stage, f"{kind}: {row.text}", seconds, "s/MB")
               for row in extraction.texts
               for kind, seconds in (("statute mentions", row.statutes_s_per_mb),
                                     ("case citations", row.cases_s_per_mb))]
    verified = (f"verification ({verification.answers} answers, {verification.citations} "
                "citations)")
    return [*figures,
            Figure(verified, "throughput, first pass", verification.citations_per_s,
                   "citations/s"),
            Figure(verified, "throughput, warm", verification.warm_citations_per_s,
                   "citations/s"),
            Figure(verified, "verifier tables load", verification.load_s, "s")]


def citation_figures(sizes: Sizes) -> list[Figure]:
    import bench_citations

    result = bench_citations.measure(_settings(), per_class=sizes.citation_items_per_class)
    items = len(result.items)
    stage = f"citation benchmark ({items} labelled items, {result.citations} citations)"
    return [Figure(stage, "verification throughput", result.citations / result.verify_s,
                   "citations/s"),
            Figure(stage, "per item", result.verify_s * 1000 / items, "ms"),
            Figure(stage, "items built", result.build_s, "s"),
            Figure(stage, "verifier tables load", result.load_s, "s")]


def metric_figures(sizes: Sizes) -> list[Figure]:
    import bench_metrics

    result = bench_metrics.measure(_settings(), sizes.metric_runs_per_set, sizes.metric_repeat)
    stage = (f"metrics on real runs ({result.runs} runs, {result.queries} judged queries, "
             f"{len(bench_metrics.MEASURES)} measures)")
    return [*versus(stage, f"warm, best of {sizes.metric_repeat}", "s", result.warm_s,
                    "pytrec_eval"),
            *versus(stage, "first pass in a fresh process", "s", result.first_pass_s,
                    "pytrec_eval"),
            Figure(stage, "largest |ranx - pytrec_eval| of any mean", result.max_difference,
                   "abs")]


def evaluation_figures(sizes: Sizes) -> list[Figure]:
    import bench_evaluation

    names = list(sizes.evaluation_configs or bench_evaluation.TWELVE)
    result = bench_evaluation.measure(_settings(), names, sizes.evaluation_queries)
    sampled = "" if sizes.evaluation_queries is None else (
        f", first {sizes.evaluation_queries} of each set")
    stage = (f"evaluation, warm ({len(names)} configs, {len(result.rows)} (config, query set) "
             f"runs, {result.queries} queries{sampled})")
    per_config: dict[str, float] = {}
    for row in result.rows:
        per_config[row["config"]] = (per_config.get(row["config"], 0.0) + row["search_s"]
                                     + row["metrics_s"])
    return [Figure(stage, "total (search + every metric of the report)", result.warm_s, "s"),
            Figure(stage, "of which metrics", sum(row["metrics_s"] for row in result.rows), "s"),
            *(Figure(stage, f"config: {name}", seconds, "s")
              for name, seconds in per_config.items()),
            *(Figure("evaluation, cold start (once per process)", what, seconds, "s")
              for what, seconds in result.cold.items())]


@dataclass(frozen=True)
class Benchmark:
    name: str
    measure: Callable[[Sizes], list[Figure]]
    own_process: bool = False  # a peak RSS or a cold start that must be this process's own


BENCHMARKS = (
    Benchmark("statutes", statute_figures, own_process=True),
    Benchmark("judgments", judgment_figures, own_process=True),
    Benchmark("verify", verify_figures),
    Benchmark("citations", citation_figures),
    Benchmark("embedders", embedder_figures),
    Benchmark("indexes", index_figures, own_process=True),
    Benchmark("bm25", bm25_figures),
    Benchmark("retrieval", retrieval_figures),
    Benchmark("metrics", metric_figures, own_process=True),
    Benchmark("evaluation", evaluation_figures, own_process=True),
)


def select_benchmarks(only: str | None) -> list[Benchmark]:
    """The benchmarks named in a comma-separated list (in suite order), or all of them."""
    if not only:
        return list(BENCHMARKS)
    wanted = {name.strip() for name in only.split(",") if name.strip()}
    known = {benchmark.name for benchmark in BENCHMARKS}
    unknown = sorted(wanted - known)
    if unknown or not wanted:
        raise ValueError(f"unknown benchmark name(s): {', '.join(unknown) or '(none given)'}; "
                         f"choose from {', '.join(b.name for b in BENCHMARKS)}")
    return [benchmark for benchmark in BENCHMARKS if benchmark.name in wanted]


def run_in_child(benchmark: Benchmark, quick: bool) -> list[Figure]:
    """The benchmark in a fresh interpreter; its figures come back on one stdout line."""
    command = [sys.executable, str(Path(__file__).resolve()), "--child", benchmark.name,
               *(["--quick"] if quick else [])]
    done = subprocess.run(command, stdout=subprocess.PIPE, text=True, check=False)
    lines = done.stdout.splitlines()
    for line in lines:
        if not line.startswith(FIGURES_LINE):
            print(line, file=sys.stderr)
    if done.returncode != 0:
        raise RuntimeError(f"its process exited with {done.returncode} (stderr above)")
    found = [line for line in lines if line.startswith(FIGURES_LINE)]
    if not found:
        raise RuntimeError("its process printed no figures")
    return [Figure(**row) for row in json.loads(found[-1][len(FIGURES_LINE):])]


def run_suite(benchmarks: Sequence[Benchmark], quick: bool
              ) -> tuple[list[Figure], dict[str, str]]:
    """Every benchmark's figures, then each one's wall time; and the failures, by name (a
    failed benchmark does not stop the others)."""
    sizes = QUICK if quick else FULL
    figures, walls, failures = [], [], {}
    for number, benchmark in enumerate(benchmarks, 1):
        where = "own process" if benchmark.own_process else "in process"
        print(f"[{number}/{len(benchmarks)}] {benchmark.name} ({where})", file=sys.stderr,
              flush=True)
        started = time.perf_counter()
        try:
            found = (run_in_child(benchmark, quick) if benchmark.own_process
                     else benchmark.measure(sizes))
        except Exception as err:
            traceback.print_exc()
            failures[benchmark.name] = f"{type(err).__name__}: {err}"
            continue
        figures += found
        walls.append(Figure("suite: wall time per benchmark (loading included)", benchmark.name,
                            time.perf_counter() - started, "s"))
    return figures + walls, failures


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true",
                        help="small samples everywhere (a few minutes in all)")
    parser.add_argument("--only", metavar="NAME,...",
                        help=f"run only these: {', '.join(b.name for b in BENCHMARKS)}")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    try:
        args.benchmarks = select_benchmarks(args.child or args.only)
    except ValueError as err:
        parser.error(str(err))
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        figures = args.benchmarks[0].measure(QUICK if args.quick else FULL)
        print(FIGURES_LINE + json.dumps([asdict(figure) for figure in figures]), flush=True)
        return 0
    figures, failures = run_suite(args.benchmarks, args.quick)
    print(format_table(figures))
    path = write_csv(figures, csv_path(_settings().data_dir, datetime.now(UTC).date()))
    print(f"\n{len(figures)} figures{' (--quick)' if args.quick else ''}; written to {path}")
    for name, error in failures.items():
        print(f"FAILED {name}: {error}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
