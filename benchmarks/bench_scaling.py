"""Scaling: ingest, embed, index and evaluate at fractions of the corpus; time, memory and
disk per stage, the growth exponent of each, and extrapolations to 10x and 100x the corpus.

    .venv/bin/python benchmarks/bench_scaling.py [--fractions 0.1 0.25 0.5 1.0]
                                                  [--stages ingest embed index evaluate] [--keep]

What is sampled (deterministically: a document is kept when the first 8 bytes of the sha256
of its key, read as a fraction of 2**64, fall below the fraction, so every smaller subset is
part of every larger one):
- statutes: BNS, BNSS and BSA (their India Code folders) always, with the repealed IPC / CrPC /
  IEA files, the Constitution, the chapter tables and every mapping table (the blocking
  section-count checks need them); the other India Code Acts by the hash of their folder name;
- judgments: AILA 2019 case documents by doc id (`AILA:C<n>`), IRLeD 2017 prior cases by doc
  id (`IRLED:prior_case_NNNN`), SC metadata records by the hash of their record text (filtered
  copies of the sc_YYYY files: each holds many records); the query files (AILA's queries and
  statutes, IRLeD's 200 current cases) and the train / dev qrels whole.
Every other corpus file is a symlink into the real corpus, under data/scaling/corpus-<pct>/.

Each fraction gets its own empty data folder (data/scaling/data-<pct>/: warehouse, vectors,
its own empty embedding cache, Qdrant Edge shards, FAISS, runs, Dagster storage) and each stage
runs in a process of its own (wall time and peak RSS from os.wait4; the child's own time
without interpreter start and imports is the `work` figure the exponents are fitted on):
- ingest: `ingest_job` (statute and judgment tables) with its asset checks;
- embed: the four `*_documents` tables (the vectors read them) and the four `*_vectors`;
- index: the four `*_qdrant` collections (with their point-count checks) and the two `*_faiss`;
- evaluate: EVAL_CONFIGS through bench_evaluation.py's loop over the evaluation library
  (evals/runner.py; not the partitioned Dagster assets, whose regression check and
  report are meaningless on a subset): every query of each config's query sets, its TREC run
  written to runs/, every metric of the report. Qrels are kept whole: judged documents that
  were sampled out count as misses (the scores are not comparable across fractions; the
  times are).
Both embedders are `minilm-static` (NYAYA_EMBEDDER and NYAYA_CHUNK_EMBEDDER): the int8
transformer default for the sections would take hours at 100% on this machine.

Disk per stage: what the stage added to the data folder (allocated blocks; the Dagster
storage apart). Results: a table printed here and data/reports/benchmarks/scaling-<date>.csv
(run_all.py's stage / figure / value / unit rows) and .md (the tables below). The data
folders are deleted afterwards unless --keep.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import os
import shutil
import subprocess
import sys
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from itertools import pairwise
from pathlib import Path

from run_all import Figure, write_csv

PROJECT_ROOT = Path(__file__).resolve().parents[1]
DEFAULT_FRACTIONS = (0.1, 0.25, 0.5, 1.0)
STAGES = ("ingest", "embed", "index", "evaluate")
SCALING_EMBEDDER = "minilm-static"
EVAL_CONFIGS = ("bm25-sections", "dense-qdrant", "rrf-dense-sparse",
                "precedents-sparse", "precedents-dense", "precedents-dense-sparse-rrf")
COLLECTIONS = ("legal_sections", "legal_sub_sections", "sc_judgments", "law_transition_context")
FAISS = ("legal_sections", "sc_judgments")
FIGURES_LINE = "scaling figures: "

INDIACODE = "statutes/indiacode"
#: India Code folders always kept: the blocking section-count checks need these codes
KEPT_ACTS = ("the-bharatiya-nyaya-sanhita-2023", "the-bharatiya-nagarik-suraksha-sanhita-2023",
             "the-bharatiya-sakshya-adhiniyam-2023")
AILA_CASEDOCS = "judgments/aila2019/casedocs"
IRLED_PRIOR = "judgments/irled2017/prior_cases"
SC_METADATA = "judgments/sc-metadata"
#: what each stage adds to the data folder, and is measured (dagster/ is the run storage)
DATA_FOLDERS = ("warehouse", "embeddings", "vectors", "qdrant", "faiss", "runs")
TABLE_COUNTS = ("act_registry", "sections", "sub_sections", "judgments", "sc_case_registry",
                "judgment_chunks", "citation_mentions")
#: the items each stage's growth exponent is fitted against
SIZE_OF_STAGE = {"ingest": "corpus_mib", "embed": "vectors", "index": "points",
                 "evaluate": "searchable"}

# ---- the subset ----------------------------------------------------------------------------


def unit_hash(key: str) -> float:
    """A stable number in [0, 1) for a key: sha256, first 8 bytes over 2**64."""
    return int.from_bytes(hashlib.sha256(key.encode("utf-8")).digest()[:8], "big") / 2 ** 64


def sampled(key: str, fraction: float) -> bool:
    return fraction >= 1.0 or unit_hash(key) < fraction


@dataclass
class Kept:
    kept: int = 0
    total: int = 0

    def add(self, keep: bool) -> bool:
        self.total += 1
        self.kept += int(keep)
        return keep


@dataclass
class Subset:
    fraction: float
    root: Path
    counts: dict[str, Kept] = field(default_factory=dict)
    corpus_bytes: int = 0  # of the files the subset holds (symlink targets and copies)

    def describe(self) -> list[str]:
        return [f"{what}: {kept.kept} of {kept.total}" for what, kept in self.counts.items()]


def split_records(text: str) -> tuple[str, list[str]]:
    """An SC metadata file: what comes before its first '### ' heading, and each record (the
    heading and every line up to the next heading), lines kept exactly."""
    pieces = text.split("\n")  # the reader's own line split (not str.splitlines)
    lines = [piece + "\n" for piece in pieces[:-1]] + ([pieces[-1]] if pieces[-1] else [])
    starts = [i for i, line in enumerate(lines) if line.startswith("### ")]
    if not starts:
        return text, []
    head = "".join(lines[:starts[0]])
    bounds = [*starts, len(lines)]
    return head, ["".join(lines[a:b]) for a, b in pairwise(bounds)]


def filter_records(text: str, fraction: float, counter: Kept) -> str:
    head, records = split_records(text)
    return head + "".join(r for r in records if counter.add(sampled("SC:" + r.strip(), fraction)))


def _sample_key(rel: str) -> tuple[str, str] | None:
    """(what, hash key) for a corpus file that is sampled; None for one kept whole."""
    parts = rel.split("/")
    if rel.startswith(INDIACODE + "/") and len(parts) > 3:
        slug = parts[2]
        return None if slug in KEPT_ACTS else ("indiacode Acts (other than BNS/BNSS/BSA)",
                                               f"act:{slug}")
    if rel.startswith(AILA_CASEDOCS + "/") and rel.endswith(".txt"):
        return "AILA 2019 case documents", f"AILA:{Path(rel).stem}"
    if rel.startswith(IRLED_PRIOR + "/") and rel.endswith(".txt"):
        return "IRLeD 2017 prior cases", f"IRLED:{Path(rel).stem}"
    return None


def subset_corpus(source: Path, target: Path, fraction: float) -> Subset:
    """The corpus at `fraction` under `target` (replaced): symlinks to the kept files, filtered
    copies of the SC metadata files."""
    if target.exists():
        shutil.rmtree(target)
    subset = Subset(fraction, target)
    acts_seen: dict[str, bool] = {}
    for path in sorted(p for p in source.rglob("*") if p.is_file()):
        rel = path.relative_to(source).as_posix()
        out = target / rel
        key = _sample_key(rel)
        if key is not None:
            what, hash_key = key
            counter = subset.counts.setdefault(what, Kept())
            if rel.startswith(INDIACODE + "/"):  # an Act counts once, whatever its parts
                slug = rel.split("/")[2]
                if slug not in acts_seen:
                    acts_seen[slug] = counter.add(sampled(hash_key, fraction))
                keep = acts_seen[slug]
            else:
                keep = counter.add(sampled(hash_key, fraction))
            if not keep:
                continue
        out.parent.mkdir(parents=True, exist_ok=True)
        if rel.startswith(SC_METADATA + "/") and rel.endswith(".md"):
            counter = subset.counts.setdefault("SC metadata records", Kept())
            data = path.read_bytes().decode("utf-8", errors="surrogateescape")
            out.write_bytes(filter_records(data, fraction, counter)
                            .encode("utf-8", errors="surrogateescape"))
            subset.corpus_bytes += out.stat().st_size
        else:
            out.symlink_to(path.resolve())
            subset.corpus_bytes += path.stat().st_size
    kept = subset.counts.get("indiacode Acts (other than BNS/BNSS/BSA)")
    if kept is not None:
        subset.counts = {"indiacode Acts (other than BNS/BNSS/BSA)": kept,
                         **{k: v for k, v in subset.counts.items() if v is not kept}}
    return subset


# ---- the growth fit ------------------------------------------------------------------------


@dataclass(frozen=True)
class Growth:
    a: float  # log intercept
    b: float  # exponent: value ~ size ** b
    r2: float

    def at(self, size: float) -> float:
        return math.exp(self.a) * size ** self.b


def fit_growth(sizes: Sequence[float], values: Sequence[float]) -> Growth | None:
    """Least squares of log(value) = a + b log(size); None below two usable points (a size or
    value that is not positive is left out) or when every size is the same."""
    points = [(math.log(s), math.log(v)) for s, v in zip(sizes, values, strict=True)
              if s > 0 and v > 0]
    if len(points) < 2:
        return None
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    if sxx == 0:
        return None
    b = sum((x - mx) * (y - my) for x, y in points) / sxx
    a = my - b * mx
    total = sum((y - my) ** 2 for _, y in points)
    residual = sum((y - a - b * x) ** 2 for x, y in points)
    return Growth(a, b, 1.0 - residual / total if total > 0 else 1.0)


def extrapolate(measured: float, growth: Growth | None, factor: float) -> float | None:
    """The measured value at the largest size times factor ** b (the fitted power law through
    the measured point, not through the fit's intercept)."""
    return None if growth is None else measured * factor ** growth.b


# ---- measuring -----------------------------------------------------------------------------


def disk_bytes(folder: Path) -> int:
    """Allocated bytes under a folder (sparse and preallocated files count what they use)."""
    if not folder.exists():
        return 0
    total = 0
    for root, _dirs, files in os.walk(folder):
        for name in files:
            try:
                total += os.lstat(os.path.join(root, name)).st_blocks * 512
            except FileNotFoundError:
                continue
    return total


def data_usage(data_dir: Path) -> dict[str, int]:
    return {name: disk_bytes(data_dir / name) for name in DATA_FOLDERS}


def stage_env(corpus: Path, data_dir: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items()
           if k not in ("NYAYA_QDRANT_URL", "NYAYA_QDRANT_PATH", "NYAYA_JUDGMENTS_DATASET",
                        "NYAYA_BGE_M3_PATH")}
    env.update(NYAYA_CORPUS=str(corpus), NYAYA_DATA=str(data_dir),
               NYAYA_MODELS=str(PROJECT_ROOT / "data" / "models"),
               NYAYA_EMBEDDER=SCALING_EMBEDDER, NYAYA_CHUNK_EMBEDDER=SCALING_EMBEDDER,
               DAGSTER_HOME=str(PROJECT_ROOT), NYAYA_DAGSTER_STORAGE=str(data_dir / "dagster"),
               HF_HUB_OFFLINE="1", HF_DATASETS_OFFLINE="1",
               NUMBA_CACHE_DIR=os.environ.get("NUMBA_CACHE_DIR",
                                              str(PROJECT_ROOT / "data" / "numba_cache")))
    return env


@dataclass
class StageResult:
    fraction: float
    stage: str
    wall_s: float
    work_s: float
    peak_rss_mib: float
    disk_mib: float
    disk_by_folder: dict[str, float]
    ok: bool
    detail: dict


def run_stage(stage: str, corpus: Path, data_dir: Path, fraction: float,
              log: Path) -> StageResult:
    """One stage in a child process; wall time and peak RSS (ru_maxrss of the child, through
    os.wait4) from here, the stage's own figures from the child's last line."""
    before = data_usage(data_dir)
    command = [sys.executable, str(Path(__file__).resolve()), "--child", stage]
    started = time.perf_counter()
    with log.open("a", encoding="utf-8") as err:
        err.write(f"\n===== {fraction:g} {stage} =====\n")
        err.flush()
        child = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=err, text=True,
                                 env=stage_env(corpus, data_dir), cwd=PROJECT_ROOT)
        out = child.stdout.read() if child.stdout else ""
        _pid, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - started
    after = data_usage(data_dir)
    found = [line for line in out.splitlines() if line.startswith(FIGURES_LINE)]
    detail = json.loads(found[-1][len(FIGURES_LINE):]) if found else {
        "error": f"exit {child.returncode}, no figures (see {log})"}
    added = {k: (after[k] - before[k]) / 2 ** 20 for k in DATA_FOLDERS if after[k] != before[k]}
    return StageResult(fraction, stage, wall, float(detail.get("work_s", wall)),
                       usage.ru_maxrss / 1024, sum(added.values()), added,
                       child.returncode == 0 and bool(detail.get("ok")), detail)


# ---- the stages, in the child --------------------------------------------------------------


def _table_rows(warehouse: Path, names: Iterable[str]) -> dict[str, int]:
    import pyarrow.parquet as pq

    return {name: pq.read_metadata(warehouse / f"{name}.parquet").num_rows
            for name in names if (warehouse / f"{name}.parquet").exists()}


def _materialize(job_name: str, keys: list[str] | None, vectors: bool = False) -> dict:
    """Run the job's `keys` (all of it when None), then every partition of the vector jobs
    when `vectors`; figures from the runs' materializations."""
    import dagster as dg

    from pipelines.definitions import defs
    from pipelines.stages import StagedRun, materialize_every_stage

    instance = dg.DagsterInstance.get()
    started = time.perf_counter()
    if keys is None:  # the whole job as `nyaya run --all` takes it, parts first
        results = materialize_every_stage(defs, job_name, instance).results
    else:
        results = [defs.resolve_job_def(job_name).execute_in_process(
            instance=instance, raise_on_error=False,
            asset_selection=[dg.AssetKey(key) for key in keys])]
    if vectors:
        vector_jobs = StagedRun(defs, instance)
        for name in ("statute_vectors_job", "judgment_vectors_job"):
            vector_jobs.run(name)
        results.extend(vector_jobs.results)
    work = time.perf_counter() - started
    checks = {f"{e.asset_key.to_user_string()}:{e.check_name}": bool(e.passed)
              for result in results for e in result.get_asset_check_evaluations()}
    metadata = {}
    for result in results:  # a single-run backfill records one event per partition: the last
        for event in result.get_asset_materialization_events():
            meta = event.materialization.metadata
            metadata[event.asset_key.to_user_string()] = {
                k: meta[k].value for k in ("points", "vectors_written", "newly_embedded")
                if k in meta}
    failed = [step.step_key for result in results for step in result.get_step_failure_events()]
    return {"work_s": work, "ok": all(result.success for result in results), "checks": checks,
            "failed_checks": sorted(k for k, v in checks.items() if not v),
            "failed_steps": failed, "materialized": len(metadata), "metadata": metadata}


def _evaluate(names: Sequence[str]) -> dict:
    """The configs through the evaluation benchmark's loop, each run written under runs/."""
    from bench_evaluation import measure

    from nyaya.settings import Settings

    settings = Settings.from_env()
    started = time.perf_counter()
    result = measure(settings, names, runs_dir=settings.data_dir / "runs")
    load_s = sum(s for what, s in result.cold.items() if what.startswith("load "))
    return {"work_s": time.perf_counter() - started, "ok": True, "load_s": load_s,
            "runs": [{k: row[k] for k in ("config", "queryset", "queries", "median_ms")}
                     for row in result.rows], "queries": result.queries}


def child(stage: str) -> dict:
    from nyaya.settings import Settings

    if stage == "ingest":
        figures = _materialize("ingest_job", None)
    elif stage == "embed":
        figures = _materialize("index_job", [*(f"{c}_documents" for c in COLLECTIONS),
                                             "law_transition_context_vectors"], vectors=True)
    elif stage == "index":
        figures = _materialize("index_job", [*(f"{c}_qdrant" for c in COLLECTIONS),
                                             *(f"{c}_faiss" for c in FAISS)])
    else:
        figures = _evaluate(EVAL_CONFIGS)
    warehouse = Settings.from_env().warehouse
    figures["rows"] = _table_rows(warehouse, [*TABLE_COUNTS,
                                              *(f"{c}_documents" for c in COLLECTIONS)])
    if stage == "evaluate":
        import pyarrow.compute as pc
        import pyarrow.parquet as pq

        sections = pq.read_table(warehouse / "legal_sections_documents.parquet",
                                 columns=["status"])
        figures["rows"]["in_force_sections"] = int(pc.sum(
            pc.equal(sections["status"], "in_force")).as_py() or 0)
    return figures


# ---- the report ----------------------------------------------------------------------------


def sizes_of(subset: Subset, rows: dict[str, int]) -> dict[str, float]:
    documents = sum(rows.get(f"{c}_documents", 0) for c in COLLECTIONS)
    return {"corpus_mib": subset.corpus_bytes / 2 ** 20, "vectors": documents,
            "points": documents,
            "searchable": rows.get("in_force_sections", 0) + rows.get("sc_judgments_documents", 0)}


SIZE_WORDS = {"corpus_mib": "MiB of corpus files read", "vectors": "vectors embedded (4 "
              "collections)", "points": "points indexed (4 collections)",
              "searchable": "documents searched (in-force sections + judgment chunks)"}


def markdown(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [[str(c) for c in header], *[[_cell(c) for c in row] for row in rows]]
    lines = ["| " + " | ".join(cells[0]) + " |", "|" + "---|" * len(header)]
    return "\n".join([*lines[:2], *("| " + " | ".join(row) + " |" for row in cells[1:])])


def plain(header: Sequence[str], rows: Sequence[Sequence[object]]) -> str:
    cells = [[str(c) for c in header], *[[_cell(c) for c in row] for row in rows]]
    widths = [max(len(row[i]) for row in cells) for i in range(len(header))]
    return "\n".join("  ".join(c.ljust(widths[i]) if i < 2 else c.rjust(widths[i])
                               for i, c in enumerate(row)).rstrip() for row in cells)


def _cell(value: object) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if abs(value) >= 1000:
            return f"{value:,.0f}"
        return f"{value:.2f}" if abs(value) >= 1 or value == 0 else f"{value:.3g}"
    if isinstance(value, int):
        return f"{value:,}"
    return str(value)


ASSUMPTIONS = """\
Assumptions of the extrapolation (10x and 100x the 100% corpus):
- A bigger corpus is more of the same mix: Acts and judgments of the same lengths in the same
  proportions, so every stage's items grow by the same factor; the query sets stay the same
  size (the evaluate stage searches more documents, not more queries).
- Each figure follows the power law fitted on the measured fractions (4 points over about a
  decade of size), drawn through the measured 100% point: value x factor**b. Fixed costs
  (model loading, Dagster start-up) flatten b at small sizes, so b under-states the marginal
  growth; super-linear steps (HNSW and IVF builds, Qdrant segment optimization, PageRank) may
  steepen beyond the measured range. Treat the 100x figures as orders of magnitude.
- Same 2-core machine and software: minilm-static for every collection, Qdrant Edge embedded
  in the process, FAISS flat / HNSW / IVF, BM25 in memory (bm25s), sqlite Dagster storage.
- Memory: every stage holds whole tables in pandas (judgment texts, chunks, mentions) and, in
  index and evaluate, all vectors of a collection (FAISS flat and the numpy exact search keep
  them in RAM; BM25 keeps its matrix in RAM), so RSS grows about linearly with the corpus
  beyond the fixed interpreter and model footprint.
What has to change beyond one such machine (23 GiB RAM, 2 cores): stream the tables
(parsing and embedding are already partitioned by Act and by year; the tables they are
assembled into and the document tables are still whole DataFrames: assemble in Parquet row
groups instead); a Qdrant server with sharded, replicated collections
(NYAYA_QDRANT_URL) instead of Edge shards in the build process; FAISS IVF-PQ or the engine's
HNSW instead of flat and numpy exact search; BM25 in the engine (Qdrant's sparse vectors)
instead of bm25s in memory; embedding on accelerators or many workers (the transformer tier
is ~60x slower than minilm-static here); Dagster on PostgreSQL with a multi-process or
Kubernetes run launcher (pipelines/deploy/)."""


def report(results: list[StageResult], subsets: dict[float, Subset],
           rows_of: dict[float, dict[str, int]], ram_mib: float | None) -> tuple[str, str,
                                                                                   list[Figure]]:
    """The printed text, the Markdown and the CSV figures."""
    stage_header = ("fraction", "stage", "wall s", "work s", "peak RSS MiB", "disk MiB",
                    "size", "status")
    stage_rows, figures = [], []
    for r in results:
        size = sizes_of(subsets[r.fraction], rows_of.get(r.fraction, {}))[SIZE_OF_STAGE[r.stage]]
        failed = r.detail.get("failed_checks") or []
        status = "ok" if r.ok and not failed else (
            f"failed checks: {', '.join(failed)}" if r.ok else
            f"FAILED {r.detail.get('error') or r.detail.get('failed_steps') or ''}")
        stage_rows.append((f"{r.fraction:g}", r.stage, r.wall_s, r.work_s, r.peak_rss_mib,
                           r.disk_mib, size, status))
        where = f"scaling {r.fraction:g}: {r.stage}"
        figures += [Figure(where, "wall time (process)", r.wall_s, "s"),
                    Figure(where, "work time (in the process, imports apart)", r.work_s, "s"),
                    Figure(where, "peak RSS", r.peak_rss_mib, "MiB"),
                    Figure(where, "disk added", r.disk_mib, "MiB"),
                    Figure(where, SIZE_WORDS[SIZE_OF_STAGE[r.stage]], size, "items")]
    count_header = ("fraction", "corpus MiB", "Acts", "sections", "sub-sections", "judgments",
                    "SC records", "chunks", "mentions", "points")
    count_rows = []
    for fraction, subset in subsets.items():
        rows = rows_of.get(fraction, {})
        count_rows.append((f"{fraction:g}", subset.corpus_bytes / 2 ** 20,
                           *(rows.get(n) for n in TABLE_COUNTS),
                           sum(rows.get(f"{c}_documents", 0) for c in COLLECTIONS) or None))
    growth_header = ("stage", "size", "b time", "R2", "b RSS", "b disk", "100% s",
                     "10x s", "100x s", "10x RSS MiB", "100x RSS MiB", "10x disk MiB",
                     "100x disk MiB")
    growth_rows, warnings = [], []
    for stage in STAGES:
        done = [r for r in results if r.stage == stage and r.ok]
        if not done:
            continue
        sizes = [sizes_of(subsets[r.fraction], rows_of.get(r.fraction, {}))[SIZE_OF_STAGE[stage]]
                 for r in done]
        top = done[sizes.index(max(sizes))]
        fits = {what: fit_growth(sizes, [getattr(r, what) for r in done])
                for what in ("work_s", "peak_rss_mib", "disk_mib")}
        row: list[object] = [stage, SIZE_OF_STAGE[stage]]
        row += [None if fits["work_s"] is None else round(fits["work_s"].b, 2),
                None if fits["work_s"] is None else round(fits["work_s"].r2, 3),
                None if fits["peak_rss_mib"] is None else round(fits["peak_rss_mib"].b, 2),
                None if fits["disk_mib"] is None else round(fits["disk_mib"].b, 2),
                top.work_s]
        extra = {}
        for what in ("work_s", "peak_rss_mib", "disk_mib"):
            for factor in (10, 100):
                extra[(what, factor)] = extrapolate(getattr(top, what), fits[what], factor)
        row += [extra[("work_s", 10)], extra[("work_s", 100)], extra[("peak_rss_mib", 10)],
                extra[("peak_rss_mib", 100)], extra[("disk_mib", 10)], extra[("disk_mib", 100)]]
        growth_rows.append(row)
        if fits["work_s"] is not None:
            figures.append(Figure(f"scaling growth: {stage}",
                                  f"exponent b of work time against {SIZE_OF_STAGE[stage]}",
                                  fits["work_s"].b, "b"))
        for (what, factor), value in extra.items():
            if value is not None:
                unit = {"work_s": "s", "peak_rss_mib": "MiB", "disk_mib": "MiB"}[what]
                figures.append(Figure(f"scaling extrapolation: {stage}",
                                      f"{what} at {factor}x the corpus", value, unit))
            if what == "peak_rss_mib" and value and ram_mib and value > ram_mib:
                warnings.append(f"{stage} at {factor}x: extrapolated peak RSS {value:,.0f} MiB "
                                f"exceeds this machine's {ram_mib:,.0f} MiB")
    sampled_lines = [f"- {f:g}: " + "; ".join(s.describe()) for f, s in subsets.items()]
    failures = [f"- {r.fraction:g} {r.stage}: {r.detail.get('error') or r.detail}"
                for r in results if not r.ok]
    checks = sorted({c for r in results for c in r.detail.get("checks", {})})
    evaluated = next((r.detail for r in results if r.stage == "evaluate" and r.ok), None)
    eval_line = ("evaluate: " + ", ".join(EVAL_CONFIGS) + (
        f" ({len(evaluated['runs'])} (config, query set) runs, {evaluated['queries']} queries, "
        "through benchmarks/bench_evaluation.py's loop)" if evaluated else ""))
    notes = [f"embedders: {SCALING_EMBEDDER} for sections and chunks (NYAYA_EMBEDDER, "
             "NYAYA_CHUNK_EMBEDDER); each fraction from an empty data folder and embedding cache",
             eval_line,
             f"asset checks run (none excluded): {len(checks)}",
             "size per stage: " + "; ".join(f"{s} = {SIZE_WORDS[SIZE_OF_STAGE[s]]}"
                                             for s in STAGES),
             "work s: the stage inside its process (imports and interpreter start apart); "
             "exponents are fitted on it. peak RSS: ru_maxrss of the stage's process (wait4). "
             "disk: allocated bytes the stage added to the data folder (Dagster storage apart)"]
    text = "\n\n".join([
        "Sampled (kept of total):\n" + "\n".join(sampled_lines),
        plain(count_header, count_rows), plain(stage_header, stage_rows),
        plain(growth_header, growth_rows), "\n".join(notes), ASSUMPTIONS,
        *(["Warnings:\n" + "\n".join(warnings)] if warnings else []),
        *(["FAILED:\n" + "\n".join(failures)] if failures else [])])
    md = "\n\n".join([
        f"# Scaling benchmark ({datetime.now(UTC).isoformat(timespec='seconds')})",
        "Sampled (kept of total):\n\n" + "\n".join(sampled_lines),
        "## Items per fraction\n\n" + markdown(count_header, count_rows),
        "## Stages\n\n" + markdown(stage_header, stage_rows),
        "Disk added per folder: " + "; ".join(
            f"{r.fraction:g} {r.stage}: " + ", ".join(f"{k} {v:.1f}"
                                                      for k, v in r.disk_by_folder.items())
            for r in results),
        "## Growth and extrapolation\n\n" + markdown(growth_header, growth_rows),
        "\n".join(f"- {n}" for n in notes), ASSUMPTIONS,
        *(["Warnings:\n\n" + "\n".join(f"- {w}" for w in warnings)] if warnings else []),
        *(["FAILED:\n\n" + "\n".join(failures)] if failures else [])])
    return text, md, figures


def machine_ram_mib() -> float | None:
    meminfo = Path("/proc/meminfo")
    if not meminfo.exists():
        return None
    for line in meminfo.read_text().splitlines():
        if line.startswith("MemTotal:"):
            return int(line.split()[1]) / 1024
    return None


# ---- the command ---------------------------------------------------------------------------


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--fractions", type=float, nargs="+", default=list(DEFAULT_FRACTIONS))
    parser.add_argument("--stages", nargs="+", choices=STAGES, default=list(STAGES),
                        help="a stage needs the ones before it (earlier stages are run too)")
    parser.add_argument("--keep", action="store_true",
                        help="keep data/scaling/data-<pct>/ (deleted afterwards by default)")
    parser.add_argument("--child", choices=STAGES, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if any(not 0 < f <= 1 for f in args.fractions):
        parser.error("fractions must be in (0, 1]")
    last = max(STAGES.index(s) for s in args.stages)
    args.stages = list(STAGES[:last + 1])
    return args


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    if args.child:
        print(FIGURES_LINE + json.dumps(child(args.child), default=str), flush=True)
        return 0
    from nyaya.settings import Settings

    settings = Settings.from_env()
    corpus = settings.require_corpus()
    base = settings.data_dir / "scaling"
    log = Path(os.environ.get("BENCH_SCALING_LOG", base / "stages.log"))
    base.mkdir(parents=True, exist_ok=True)
    results: list[StageResult] = []
    subsets: dict[float, Subset] = {}
    rows_of: dict[float, dict[str, int]] = {}
    started = time.perf_counter()
    for fraction in sorted(set(args.fractions)):
        pct = f"{fraction * 100:g}"
        subset = subset_corpus(corpus, base / f"corpus-{pct}", fraction)
        subsets[fraction] = subset
        print(f"[{fraction:g}] corpus subset: {'; '.join(subset.describe())}", flush=True)
        data_dir = base / f"data-{pct}"
        if data_dir.exists():
            shutil.rmtree(data_dir)
        data_dir.mkdir(parents=True)
        for stage in args.stages:
            result = run_stage(stage, subset.root, data_dir, fraction, log)
            results.append(result)
            rows_of.setdefault(fraction, {}).update(result.detail.get("rows", {}))
            failed = ", ".join(result.detail.get("failed_checks") or [])
            print(f"[{fraction:g}] {stage}: wall {result.wall_s:.1f}s, work "
                  f"{result.work_s:.1f}s, peak RSS {result.peak_rss_mib:,.0f} MiB, disk "
                  f"{result.disk_mib:,.1f} MiB, {'ok' if result.ok else 'FAILED'}"
                  f"{'; failed checks: ' + failed if failed else ''}", flush=True)
            if not result.ok:
                break
        if not args.keep:
            shutil.rmtree(data_dir, ignore_errors=True)
    text, md, figures = report(results, subsets, rows_of, machine_ram_mib())
    print("\n" + text)
    day = datetime.now(UTC).date().isoformat()
    out = settings.data_dir / "reports" / "benchmarks"
    write_csv(figures, out / f"scaling-{day}.csv")
    (out / f"scaling-{day}.md").write_text(md + "\n", encoding="utf-8")
    print(f"\nwall time {time.perf_counter() - started:.0f} s; written to "
          f"{out / f'scaling-{day}.csv'} and .md; stage logs in {log}")
    return 0 if all(r.ok for r in results) else 1


if __name__ == "__main__":
    sys.exit(main())
