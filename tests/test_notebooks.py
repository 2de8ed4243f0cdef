"""The notebooks: executed end to end on the pipeline's output (each ends in assertions), and
kept in git with their outputs stripped."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
EXPECTED = ("config_comparison.ipynb", "failure_analysis.ipynb")
CELL_TIMEOUT = 300  # seconds per cell


def test_notebooks_are_saved_without_outputs():
    found = sorted(path.name for path in NOTEBOOKS.glob("*.ipynb"))
    assert set(EXPECTED) <= set(found), found
    for name in found:
        notebook = json.loads((NOTEBOOKS / name).read_text(encoding="utf-8"))
        assert notebook["nbformat"] == 4, name
        assert notebook["metadata"]["kernelspec"]["name"] == "python3", name
        code = [cell for cell in notebook["cells"] if cell["cell_type"] == "code"]
        assert code, f"{name} has no code cells"
        for number, cell in enumerate(code, 1):
            assert cell.get("outputs") == [], f"{name}: code cell {number} has outputs"
            assert cell.get("execution_count") is None, f"{name}: code cell {number} was run"
        last = "".join(code[-1]["source"])
        assert "assert " in last, f"{name} must end with its checks"


@pytest.mark.corpus
@pytest.mark.parametrize("name", EXPECTED)
def test_notebook_runs_on_the_pipeline_output(main_run, name, monkeypatch, tmp_path):
    import nbformat
    from nbclient import NotebookClient

    data_dir, _ = main_run
    assert (data_dir / "reports" / "latest" / "metrics.parquet").is_file()
    monkeypatch.setenv("NYAYA_DATA", str(data_dir))  # the kernel inherits the environment
    notebook = nbformat.read(NOTEBOOKS / name, as_version=4)
    client = NotebookClient(notebook, kernel_name="python3", timeout=CELL_TIMEOUT,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    try:
        client.execute()  # a failing cell, its final assertions included, raises here
    finally:
        nbformat.write(notebook, tmp_path / name)  # the executed copy, never the original
    printed = "".join(output.get("text", "") for cell in notebook.cells
                      for output in cell.get("outputs", []) if output.output_type == "stream")
    assert "all checks passed" in printed
    assert f"data: {data_dir}" in printed  # it read the run's data dir, not the default one
