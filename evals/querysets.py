"""Labeled query sets in `evals/querysets/<name>/`: queries.jsonl and TREC qrels.txt."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from evals.inputs import read_text

QUERYSETS = Path(__file__).resolve().parent / "querysets"
REQUIRED_FIELDS = ("qid", "query")
SETTINGS_FILE = "queryset.yaml"
SIDES = ("statutes", "precedents", "aila-statutes")  # as evals.runner.SIDES
#: Tags a query may carry (the transition set alone has direction): optional, per query and
#: per set, so a set of plain questions and their judgments loads as it is.
TAG_FIELDS = ("query_type", "domain", "direction")


class QuerySetError(ValueError):
    """A query set file that is malformed; names the file and line."""


@dataclass(frozen=True)
class QuerySet:
    name: str
    queries: pd.DataFrame  # one row per query: qid, query and any tags (query_type, ...)
    qrels: dict[str, dict[str, int]]  # qid -> doc_id -> grade

    def tags(self, field: str) -> dict[str, str]:
        """qid -> the query's `field`, for the queries that have one: tags are optional, and a
        query without one is left out (a breakdown puts it under 'untagged', never 'nan'); an
        empty dict where no query has the field."""
        if field not in self.queries:
            return {}
        return {qid: str(value) for qid, value in
                zip(self.queries["qid"], self.queries[field], strict=True)
                if not pd.isna(value) and value != ""}


def read_qrels_lines(path: Path, form: str, doc_prefix: str = ""
                     ) -> Iterator[tuple[int, str, str, int]]:
    """(line, qid, doc_id, grade) of a TREC qrels file whose lines read `form`; a (qid, doc_id)
    judged twice is refused, since its second grade would silently replace the first."""
    first: dict[tuple[str, str], int] = {}
    for number, line in enumerate(read_text(path, QuerySetError).splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 4 or not parts[3].lstrip("-").isdigit():
            raise QuerySetError(f"{path}:{number}: expected {form!r}")
        qid, doc_id = parts[0], doc_prefix + parts[2]
        if (qid, doc_id) in first:
            raise QuerySetError(f"{path}:{number}: qid {qid} judges {doc_id} again (first on "
                                f"line {first[qid, doc_id]}): one grade per query and document")
        first[qid, doc_id] = number
        yield number, qid, doc_id, int(parts[3])


def _query_rows(path: Path) -> list[dict]:
    """The queries of a queries.jsonl, each line an object with the required fields."""
    rows = []
    for number, line in enumerate(read_text(path, QuerySetError).splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise QuerySetError(f"{path}:{number}: invalid JSON: {err.msg}") from err
        if not isinstance(row, dict):
            raise QuerySetError(f"{path}:{number}: expected a JSON object, got "
                                f"{type(row).__name__}")
        missing = [f for f in REQUIRED_FIELDS if not row.get(f)]
        if missing:
            raise QuerySetError(f"{path}:{number}: missing {', '.join(missing)}")
        rows.append(row)
    if not rows:
        raise QuerySetError(f"{path}: no queries")
    return rows


def queryset_names(root: Path = QUERYSETS) -> list[str]:
    """The authored sets: each folder of `root` that holds a queries.jsonl."""
    return sorted(path.parent.name for path in root.glob("*/queries.jsonl"))


def queryset_side(name: str, root: Path = QUERYSETS) -> str:
    """The side an authored set's qrels judge: `side:` in its optional `queryset.yaml`
    (statutes, precedents or aila-statutes), statutes without one."""
    path = root / name / SETTINGS_FILE
    if not path.is_file():
        return "statutes"
    from evals.inputs import read_yaml

    settings = read_yaml(path)
    side = settings.get("side") if isinstance(settings, dict) else None
    if side not in SIDES:
        raise QuerySetError(f"{path}: 'side' must be one of {', '.join(SIDES)}, got {side!r}")
    return side


def judged_sets(side: str, root: Path = QUERYSETS) -> list[str]:
    """The authored sets of one side that have judgments (a qrels.txt beside the queries):
    each is evaluated with every config of that side, with no config naming it."""
    return [name for name in queryset_names(root)
            if (root / name / "qrels.txt").is_file() and queryset_side(name, root) == side]


def load_queryset(name: str, root: Path = QUERYSETS) -> QuerySet:
    """An authored set by its name: a folder of `root`, never a path (a name with a separator
    or `..` would read files outside it)."""
    if Path(name).name != name or name in (".", "..") or not (root / name).is_dir():
        raise QuerySetError(f"unknown query set {name!r}: a name, one of "
                            f"{', '.join(queryset_names(root)) or '(none)'} (in {root})")
    folder = root / name
    queries_path, qrels_path = folder / "queries.jsonl", folder / "qrels.txt"
    queries = pd.DataFrame(_query_rows(queries_path))
    dup = queries["qid"][queries["qid"].duplicated()].tolist()
    if dup:
        raise QuerySetError(f"{queries_path}: duplicate qids {dup}")
    qrels: dict[str, dict[str, int]] = {}
    known = set(queries["qid"])
    for number, qid, doc_id, grade in read_qrels_lines(qrels_path, "qid 0 doc_id grade"):
        if qid not in known:
            raise QuerySetError(f"{qrels_path}:{number}: qid {qid} is not in {queries_path.name}")
        qrels.setdefault(qid, {})[doc_id] = grade
    return QuerySet(name, queries, qrels)


def unknown_documents(queryset: QuerySet, doc_ids: set[str]) -> list[tuple[str, str]]:
    """Judged documents that do not exist in the corpus: a judgment that cannot be met."""
    return sorted((qid, doc) for qid, docs in queryset.qrels.items() for doc in docs
                  if doc not in doc_ids)
