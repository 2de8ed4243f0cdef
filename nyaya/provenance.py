"""Fingerprints that let numbers from different runs be compared, or refused."""

from __future__ import annotations

import ast
import hashlib
import subprocess
from pathlib import Path

from nyaya.settings import PROJECT_ROOT


def files_fingerprint(root: Path, paths: list[Path], salt: str = "") -> str:
    """sha256 over `salt` and each path's name relative to `root` and its bytes (a path that
    is not a file counts by its name alone)."""
    digest = hashlib.sha256(salt.encode())
    for path in paths:
        digest.update(str(path.relative_to(root)).encode())
        if path.is_file():
            digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


def tree_fingerprint(root: Path, folders: tuple[str, ...]) -> str:
    """sha256 over the relative paths and bytes of every file under the given folders."""
    return files_fingerprint(root, [path for folder in folders
                                    for path in sorted((root / folder).rglob("*"))
                                    if path.is_file()])


def dataset_fingerprint(dataset: str) -> str:
    """A local datasets file or folder by content; a hub id (served from the offline cache)
    by its name."""
    path = Path(dataset)
    if path.is_dir():
        return tree_fingerprint(path.parent, (path.name,))
    if path.is_file():
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return dataset


def code_version() -> str:
    """The git commit of the checkout (with '+dirty' for uncommitted changes), if any."""
    try:
        sha = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=PROJECT_ROOT,
                             capture_output=True, text=True, check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"],
                               cwd=PROJECT_ROOT, capture_output=True, text=True,
                               check=True).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return f"{sha}+dirty" if dirty else sha


PROJECT_PACKAGES = ("nyaya", "assets", "evals", "pipelines")
DATA_SUFFIXES = {".yaml", ".yml", ".json", ".jsonl", ".tsv", ".csv", ".txt"}


def _module_file(name: str, root: Path, packages: tuple[str, ...]) -> Path | None:
    """The source file of a project module, or None for anything outside the project."""
    if name.split(".")[0] not in packages:
        return None
    base = root.joinpath(*name.split("."))
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


def _read_module(path: Path, package: str) -> tuple[set[str], set[str]]:
    """Every module a file imports, relative imports resolved against its package, and every
    string literal it holds (the names of the data files it may open)."""
    names: set[str] = set()
    literals: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            parts = package.split(".")
            stem = ".".join(parts[: len(parts) - node.level + 1]) if node.level else ""
            module = ".".join(part for part in (stem, node.module or "") if part)
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Constant) and isinstance(node.value, str):
            literals.add(node.value)
    return names, literals


def source_fingerprint(module: str, root: Path = PROJECT_ROOT,
                       packages: tuple[str, ...] = PROJECT_PACKAGES) -> str:
    """sha256 over the source of a project module and of every project module it imports,
    transitively, plus the data files (facts, query sets, configs, labels) it may read: those
    under the packages it imports as packages, and any project data file that one of those
    modules names ("acts.yaml", read through `resources.files("nyaya.facts")`, from a folder
    that is no package and so is imported by nobody).

    Used as a Dagster code version: an asset is stale exactly when code or facts it runs on
    changed, and stays fresh when unrelated code changed."""
    seen: dict[str, Path] = {}
    named: set[str] = set()
    pending = [module]
    while pending:
        name = pending.pop()
        path = _module_file(name, root, packages)
        if path is None or name in seen:
            continue
        seen[name] = path
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        imported, literals = _read_module(path, package)
        pending.extend(imported)
        named |= literals
    files = set(seen.values())
    for package_init in [p for p in seen.values() if p.name == "__init__.py"]:
        files.update(_data_files(package_init.parent))
    files.update(path for package in packages for path in _data_files(root / package)
                 if path.name in named)
    digest = hashlib.sha256()
    for path in sorted(files):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def _data_files(folder: Path) -> list[Path]:
    return [p for p in folder.rglob("*") if p.suffix in DATA_SUFFIXES and p.is_file()]
