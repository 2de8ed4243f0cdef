"""Fingerprints that let numbers from different runs be compared, or refused."""

from __future__ import annotations

import hashlib
import subprocess
from pathlib import Path

from nyaya.settings import PROJECT_ROOT


def tree_fingerprint(root: Path, folders: tuple[str, ...]) -> str:
    """sha256 over the relative paths and bytes of every file under the given folders."""
    digest = hashlib.sha256()
    for folder in folders:
        for path in sorted((root / folder).rglob("*")):
            if path.is_file():
                digest.update(str(path.relative_to(root)).encode())
                digest.update(hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:16]


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
