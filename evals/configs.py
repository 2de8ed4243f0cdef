"""Retrieval configurations: versioned YAML files in `evals/configs/`, hashed for provenance."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from evals.inputs import read_yaml

CONFIGS = Path(__file__).resolve().parent / "configs"
#: Configs measured and not kept among the defaults, each with its reason and figures in its
#: comments: loadable by name (`nyaya search --config`, `python -m evals.evaluate`), never
#: evaluated by `make run`.
TRIED = CONFIGS / "tried"


@dataclass(frozen=True)
class RetrievalConfig:
    name: str
    params: dict

    @property
    def config_hash(self) -> str:
        canonical = json.dumps(self.params, sort_keys=True, separators=(",", ":"))
        return hashlib.sha256(canonical.encode()).hexdigest()[:12]


def load_config(name: str, root: Path = CONFIGS) -> RetrievalConfig:
    path = root / f"{name}.yaml"
    if root == CONFIGS and not path.exists() and (TRIED / f"{name}.yaml").exists():
        path = TRIED / f"{name}.yaml"
    params = read_yaml(path)
    if not isinstance(params, dict) or params.get("name") != name:
        raise ValueError(f"{path}: 'name' must be {name!r}")
    if "querysets" in params:
        raise ValueError(f"{path}: 'querysets' is no longer read: a config is evaluated on "
                         f"every judged set of its side ({params.get('side', 'statutes')}); "
                         "remove the key")
    return RetrievalConfig(name, params)


def side_of(config: RetrievalConfig) -> str:
    """statutes (the default), precedents or aila-statutes."""
    return config.params.get("side", "statutes")


def config_names(root: Path = CONFIGS) -> list[str]:
    return sorted(path.stem for path in root.glob("*.yaml"))


def configs_for(side: str, root: Path = CONFIGS) -> list[str]:
    """The configs of one side: `statutes` (the default), `precedents` or `aila-statutes`."""
    return [name for name in config_names(root) if side_of(load_config(name, root)) == side]


def fused_branches(root: Path = CONFIGS) -> dict[str, dict[str, str]]:
    """Every fused config of the defaults -> {retriever: the config that runs it alone}, side
    by side (`evals.compare.branches_of`)."""
    from evals.compare import branches_of

    by_side: dict[str, dict[str, list[str]]] = {}
    for name in config_names(root):
        config = load_config(name, root)
        by_side.setdefault(side_of(config), {})[name] = list(config.params.get("retrievers",
                                                                                []))
    return {fused: parts for retrievers in by_side.values()
            for fused, parts in branches_of(retrievers).items()}
