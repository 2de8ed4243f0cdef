"""Every query set as a Hugging Face `datasets` DatasetDict: corpus, queries and qrels.

The same three tables BEIR-style tools expect, so a researcher can take a set into any
`datasets`-based evaluation (`dataset["queries"]`, `save_to_disk`, `to_pandas`) without our code.
Built locally from the warehouse and the corpus: nothing is fetched from a hub.
"""

from __future__ import annotations

import datasets
import pandas as pd

from evals.corpus_sets import (
    CANDIDATE_SOURCES,
    CORPUS_SET_SIDES,
    CORPUS_SETS,
    aila_statute_documents,
    load_any_queryset,
)
from evals.querysets import QuerySet
from evals.runner import statute_documents
from nyaya.settings import Settings
from nyaya.tables import read_table

QUERY_FIELDS = ("qid", "query", "query_type", "domain")


def as_dataset_dict(queryset: QuerySet, corpus: pd.DataFrame) -> datasets.DatasetDict:
    """`corpus` (doc_id, text), `queries` (qid, query, query_type, domain, and any other field
    the set has, as strings, a list of ids such as `excluded` as a list of strings) and
    `qrels` (qid, doc_id, grade), judged queries only."""
    queries = queryset.queries.astype({
        column: str for column in queryset.queries.columns if column not in QUERY_FIELDS
        and not queryset.queries[column].map(lambda value: isinstance(value, list)).all()})
    qrels = pd.DataFrame([(qid, doc, grade) for qid, docs in sorted(queryset.qrels.items())
                          for doc, grade in sorted(docs.items())],
                         columns=["qid", "doc_id", "grade"])
    return datasets.DatasetDict({
        "corpus": datasets.Dataset.from_pandas(corpus[["doc_id", "text"]], preserve_index=False),
        "queries": datasets.Dataset.from_pandas(queries, preserve_index=False),
        "qrels": datasets.Dataset.from_pandas(qrels, preserve_index=False)})


def corpus_of(name: str, settings: Settings) -> pd.DataFrame:
    """The documents a set's runs rank: in-force sections for the authored statute sets,
    AILA's statute descriptions, or the precedent set's candidate judgments."""
    if CORPUS_SET_SIDES.get(name) == "aila-statutes":
        return aila_statute_documents(settings.corpus_root)
    if name in CANDIDATE_SOURCES:
        judgments = read_table(settings.table_path("judgments"))
        return judgments[judgments["source"].isin(CANDIDATE_SOURCES[name])]
    return statute_documents(read_table(settings.table_path("legal_sections_documents")), False)


def load_dataset(name: str, settings: Settings | None = None) -> datasets.DatasetDict:
    """A query set by name (`nyaya-statutes`, `transition`, `aila2019-statutes`,
    `aila2019-precedents`, `irled2017-precedents`, the `cited-*` development sets) as a
    DatasetDict."""
    settings = settings or Settings.from_env()
    # only the corpus sets need the judgments table (IRLeD's query texts)
    judgments = read_table(settings.table_path("judgments")) if name in CORPUS_SETS else None
    return as_dataset_dict(load_any_queryset(name, settings.corpus_root, judgments,
                                             settings.warehouse), corpus_of(name, settings))
