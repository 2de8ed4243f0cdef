"""Query-type accuracy of the deterministic query analyzer against a labeled query set.

The hand-written development set (`evals/querysets/query-types-dev`) is what the analyzer's
rules were tuned on; `nyaya-statutes` (`evals.querysets.load_queryset`) is held out for it.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from evals.querysets import QUERYSETS
from nyaya.retrieval.query_analysis import QUERY_TYPES, QueryAnalyzer

DEV_QUERIES = QUERYSETS / "query-types-dev" / "queries.jsonl"


@dataclass(frozen=True)
class QueryTypeScore:
    accuracy: float
    count: int
    per_type: dict[str, tuple[int, int]]  # gold type -> (correct, total)
    confusion: pd.DataFrame  # rows gold type, columns predicted type


def query_type_accuracy(analyzer: QueryAnalyzer, queries: pd.DataFrame) -> QueryTypeScore:
    """Share of queries whose predicted `query_type` equals the gold tag."""
    gold = queries["query_type"].tolist()
    predicted = [analyzer.analyze(q).query_type for q in queries["query"]]
    correct = [g == p for g, p in zip(gold, predicted, strict=True)]
    per_type = {t: (sum(c for g, c in zip(gold, correct, strict=True) if g == t),
                    gold.count(t)) for t in QUERY_TYPES if t in gold}
    labels = [t for t in QUERY_TYPES if t in gold or t in predicted]
    confusion = (pd.crosstab(pd.Series(gold, name="gold"), pd.Series(predicted, name="predicted"))
                 .reindex(index=labels, columns=labels, fill_value=0))
    return QueryTypeScore(sum(correct) / len(gold) if gold else 0.0, len(gold), per_type,
                          confusion)


def load_dev_queries(path: Path = DEV_QUERIES) -> pd.DataFrame:
    """The hand-written development set: qid, query, query_type, sections, years, judges,
    case_names."""
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()
            if line.strip()]
    return pd.DataFrame(rows)
