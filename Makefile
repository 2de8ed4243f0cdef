# Common tasks. `make run` and `make test` are the README's two commands.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

export DAGSTER_HOME := $(CURDIR)
export NYAYA_DAGSTER_STORAGE := $(CURDIR)/data/dagster
export NUMBA_CACHE_DIR := $(CURDIR)/data/numba_cache
export HF_HUB_OFFLINE := 1
export HF_DATASETS_OFFLINE := 1

.PHONY: setup run test test-fast lint docs bench bench-all bench-quick bench-scaling bench-embedders bench-serve faults dev serve clean lookup

setup: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	# the CPU wheel on disk first: anything that asks for plain torch would pull a CUDA build
	$(BIN)/python -m pip install --quiet torch==2.13.0
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: setup  ## materialize every asset (with checks) and write the evaluation report
	mkdir -p $(NYAYA_DAGSTER_STORAGE) $(NUMBA_CACHE_DIR)
	$(BIN)/nyaya run

test: setup  ## lint, then the whole test suite (fails when no test ran)
	mkdir -p $(NUMBA_CACHE_DIR)
	$(BIN)/ruff check .
	$(BIN)/python tests/suite.py

lint: setup  ## ruff over the whole tree
	$(BIN)/ruff check .

test-fast: setup  ## ruff, then pure-logic and fixture-corpus tests (no real corpus)
	mkdir -p $(NUMBA_CACHE_DIR)
	$(BIN)/ruff check .
	$(BIN)/pytest -m "not corpus"

docs: setup  ## regenerate docs/results.md from evals/baselines/regression.yaml
	$(BIN)/python -m evals.results_page

bench: setup  ## speed benchmarks that print figures
	$(BIN)/python benchmarks/bench_statutes.py
	$(BIN)/python benchmarks/bench_judgments.py
	$(BIN)/python benchmarks/bench_verify.py
	$(BIN)/python benchmarks/bench_indexes.py
	$(BIN)/python benchmarks/bench_retrieval.py
	$(BIN)/python benchmarks/bench_citations.py
	$(BIN)/python benchmarks/bench_evaluation.py
	$(BIN)/python benchmarks/bench_bm25.py
	$(BIN)/python benchmarks/bench_metrics.py

bench-serve: setup  ## nyaya serve under 4 concurrent local clients: requests/s, p50/p99 (about 2 min)
	$(BIN)/python benchmarks/bench_serve.py

faults: setup  ## inject faults into a copy of data/ (built by make run): each found, repaired or refused, nothing lost (about 15 min)
	$(BIN)/python benchmarks/bench_faults.py

bench-all: setup  ## every benchmark in one table + data/reports/benchmarks/<date>.csv (about 15 min)
	$(BIN)/python benchmarks/run_all.py

bench-quick: setup  ## the same with small samples (about 3 min)
	$(BIN)/python benchmarks/run_all.py --quick

bench-scaling: setup  ## ingest, embed, index, evaluate at 10/25/50/100% of the corpus (about 35 min)
	$(BIN)/python benchmarks/bench_scaling.py --fractions 0.1 0.25 0.5 1.0

bench-embedders: setup  ## speed and retrieval quality per embedder (about an hour with fp32 MiniLM)
	$(BIN)/python benchmarks/bench_embedders.py

dev: setup  ## the Dagster UI on http://127.0.0.1:3000
	mkdir -p $(NYAYA_DAGSTER_STORAGE)
	$(BIN)/dagster dev -m pipelines.definitions

serve: setup  ## lookup, verify and search as HTTP JSON on http://127.0.0.1:8765
	$(BIN)/nyaya serve

clean:  ## generated tables, indexes, runs and the Dagster instance (keeps the models and caches)
	rm -rf data/warehouse data/runs data/reports data/dagster data/vectors data/faiss data/qdrant
