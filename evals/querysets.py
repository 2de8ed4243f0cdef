"""Labeled query sets in `evals/querysets/<name>/`: queries.jsonl and TREC qrels.txt."""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

QUERYSETS = Path(__file__).resolve().parent / "querysets"
REQUIRED_FIELDS = ("qid", "query", "query_type", "domain")


class QuerySetError(ValueError):
    """A query set file that is malformed; names the file and line."""


@dataclass(frozen=True)
class QuerySet:
    name: str
    queries: pd.DataFrame  # one row per query: qid, query, query_type, domain, ...
    qrels: dict[str, dict[str, int]]  # qid -> doc_id -> grade

    def tags(self, field: str) -> dict[str, str]:
        return dict(zip(self.queries["qid"], self.queries[field], strict=True))


def load_queryset(name: str, root: Path = QUERYSETS) -> QuerySet:
    folder = root / name
    queries_path, qrels_path = folder / "queries.jsonl", folder / "qrels.txt"
    rows = []
    for number, line in enumerate(queries_path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            row = json.loads(line)
        except json.JSONDecodeError as err:
            raise QuerySetError(f"{queries_path}:{number}: invalid JSON: {err.msg}") from err
        missing = [f for f in REQUIRED_FIELDS if not row.get(f)]
        if missing:
            raise QuerySetError(f"{queries_path}:{number}: missing {', '.join(missing)}")
        rows.append(row)
    queries = pd.DataFrame(rows)
    dup = queries["qid"][queries["qid"].duplicated()].tolist()
    if dup:
        raise QuerySetError(f"{queries_path}: duplicate qids {dup}")
    qrels: dict[str, dict[str, int]] = {}
    known = set(queries["qid"])
    for number, line in enumerate(qrels_path.read_text(encoding="utf-8").splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 4 or not parts[3].lstrip("-").isdigit():
            raise QuerySetError(f"{qrels_path}:{number}: expected 'qid 0 doc_id grade'")
        qid, _, doc_id, grade = parts
        if qid not in known:
            raise QuerySetError(f"{qrels_path}:{number}: qid {qid} is not in {queries_path.name}")
        qrels.setdefault(qid, {})[doc_id] = int(grade)
    return QuerySet(name, queries, qrels)


def unknown_documents(queryset: QuerySet, doc_ids: set[str]) -> list[tuple[str, str]]:
    """Judged documents that do not exist in the corpus: a judgment that cannot be met."""
    return sorted((qid, doc) for qid, docs in queryset.qrels.items() for doc in docs
                  if doc not in doc_ids)
