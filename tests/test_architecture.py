"""Imports point one way: nyaya <- evals <- assets <- pipelines, with `pipelines.resources` a
leaf that assets may import; no import cycle between the project's modules; the core imports
without Dagster; no private Dagster import outside the one module that has no public API."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import networkx as nx
import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = {"nyaya": 0, "evals": 1, "assets": 2, "pipelines": 3}
#: imported by assets and pipelines alike: the settings resource and the IO manager
LEAVES = {"pipelines.resources": 1.5}
#: staleness and source observation have no public Dagster API (see the module)
PRIVATE_DAGSTER_ALLOWED = {"pipelines.freshness"}


def layer(module: str) -> float | None:
    """The module's layer; a name imported from a module (`a.b.name`) counts as the module."""
    leaf = next((rank for name, rank in LEAVES.items()
                 if module == name or module.startswith(f"{name}.")), None)
    return leaf if leaf is not None else LAYERS.get(module.split(".")[0])


def project_modules() -> dict[str, Path]:
    return {".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__"): path
            for package in LAYERS for path in sorted((ROOT / package).rglob("*.py"))}


def _type_checking_only(tree: ast.Module) -> set[int]:
    """ids of the import nodes under `if TYPE_CHECKING:` (never run)."""
    return {id(node) for block in ast.walk(tree) if isinstance(block, ast.If)
            and getattr(block.test, "id", None) == "TYPE_CHECKING"
            for statement in block.body for node in ast.walk(statement)}


def imports(path: Path) -> list[tuple[str, int, bool]]:
    """(module imported, line, only under TYPE_CHECKING) for every absolute import in the file,
    the ones inside functions included; `from a import b` gives a.b too."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    typing_only = _type_checking_only(tree)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module, *(f"{node.module}.{alias.name}" for alias in node.names)]
        else:
            continue
        found += [(name, node.lineno, id(node) in typing_only) for name in names]
    return found


@pytest.mark.parametrize(("importer", "imported", "upward"), [
    ("nyaya.cli", "evals.querysets", True),
    ("evals.report", "nyaya.tables", False),
    ("assets.indexes", "pipelines.resources", False),  # the leaf
    ("assets.indexes", "pipelines.resources.NyayaSettings", False),
    ("assets.indexes", "pipelines.partitions", True),
    ("pipelines.resources", "assets.sources", True),
    ("pipelines.stages", "assets.sources", False),
])
def test_the_layer_rule(importer, imported, upward):
    assert (layer(imported) > layer(importer)) is upward


def test_no_module_imports_a_higher_layer():
    upward = [f"{module} -> {name} (line {line})"
              for module, path in project_modules().items()
              for name, line, _ in imports(path)
              if layer(name) is not None and layer(name) > layer(module)]
    assert upward == []


def test_no_import_cycle_between_project_modules():
    modules = project_modules()
    graph = nx.DiGraph()
    for module, path in modules.items():
        graph.add_edges_from((module, name) for name, _, typing_only in imports(path)
                             if name in modules and name != module and not typing_only)
    assert list(nx.simple_cycles(graph)) == []


def test_no_private_dagster_import_where_a_public_api_exists():
    private = [f"{module} (line {line})" for module, path in project_modules().items()
               for name, line, _ in imports(path)
               if name.startswith("dagster._") and module not in PRIVATE_DAGSTER_ALLOWED]
    assert private == []


BLOCKER = """
import importlib, importlib.abc, pkgutil, sys

class Refuse(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in {"dagster", "evals", "assets", "pipelines"}:
            raise ImportError(f"{name} is not importable in this test")

sys.meta_path.insert(0, Refuse())
import nyaya
names = [m.name for m in pkgutil.walk_packages(nyaya.__path__, "nyaya.")]
for name in names:
    importlib.import_module(name)
print(len(names))
"""


def test_every_core_module_imports_without_dagster_or_the_layers_above():
    done = subprocess.run([sys.executable, "-c", BLOCKER], cwd=ROOT, capture_output=True,
                          text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert int(done.stdout.split()[-1]) > 50  # every module was walked


INTERACTIVE = """
import sys
import pipelines.cli, evals.search, evals.labeled
print(" ".join(sorted({name.split(".")[0] for name in sys.modules} & {HEAVY})))
"""


def test_the_interactive_commands_import_no_evaluation_or_plotting_library():
    """`nyaya search`, `verify` and `lookup` start in seconds only while ranx (and with it
    scipy.stats), matplotlib and Dagster stay out of their imports: ranx alone cost 2.4 s of
    `nyaya search`'s start (docs/speed.md)."""
    heavy = {"ranx", "matplotlib", "dagster"}
    done = subprocess.run([sys.executable, "-c", INTERACTIVE.replace("{HEAVY}", repr(heavy))],
                          cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == []
