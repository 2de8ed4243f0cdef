"""Query sets that ship with the corpus: AILA 2019 (precedents, statutes) and IRLeD 2017.

Only the judgments released with the corpus are read: AILA_Q1-Q10 (`*.train.txt`) and IRLeD
current_case_0001-0100 (`qrels.dev.txt`). Queries without released judgments are kept in
`queries` (runs must cover them) but have no qrels, so they are never scored or tuned on.
Document ids are the warehouse's: `AILA:C12`, `AILA:S90`, `IRLED:prior_case_0895`.

The development sets built from the corpus's own citations (`evals.citation_sets`) are corpus
sets too: their held-out half is evaluated, their training half is what tuning fits on.
"""

from __future__ import annotations

import functools
from pathlib import Path

import pandas as pd
import pyarrow.parquet as pq

from evals.citation_sets import (
    AILA_PRECEDENTS_SET,
    AILA_SET,
    AILA_SOURCE,
    DEV_SET_SIDES,
    EVAL_QUERIES,
    FIT_QUERIES,
    POOL,
    PRECEDENT_PASSAGES_SET,
    PRECEDENT_QUESTIONS_SET,
    PRECEDENTS_SET,
    QUESTION_WINDOW,
    STATUTES_SET,
    aila_sections,
    dev_set,
    duplicates_of,
    facts_queries,
    passage_queries,
    precedent_passages,
    precedent_queries,
    with_judgment,
)
from evals.querysets import (
    QuerySet,
    QuerySetError,
    judged_sets,
    load_queryset,
    queryset_names,
    read_qrels_lines,
)
from evals.splits import HELDOUT, TRAIN
from nyaya.provenance import tree_fingerprint
from nyaya.statutes.model import IN_FORCE
from nyaya.tables import checksum_path, read_table, verify_table

#: The corpus's sets and the side each is judged on.
CORPUS_SET_SIDES = {"aila2019-precedents": "precedents", "aila2019-statutes": "aila-statutes",
                    "irled2017-precedents": "precedents", **DEV_SET_SIDES}
CORPUS_SETS = tuple(CORPUS_SET_SIDES)
# the judgment sources each precedent set is judged over: its candidates, and only those
CANDIDATE_SOURCES = {"aila2019-precedents": (AILA_SOURCE,),
                     "irled2017-precedents": ("irled2017_prior",), PRECEDENTS_SET: POOL,
                     AILA_PRECEDENTS_SET: (AILA_SOURCE,)}
#: The warehouse tables the development sets are built from.
DEV_TABLES = ("citation_mentions", "judgment_chunks", "judgments", "legal_sections_documents")


def read_qrels(path: Path, doc_prefix: str) -> dict[str, dict[str, int]]:
    qrels: dict[str, dict[str, int]] = {}
    for _, qid, doc_id, grade in read_qrels_lines(path, "qid Q0 doc_id grade", doc_prefix):
        qrels.setdefault(qid, {})[doc_id] = grade
    return qrels


def aila_queries(corpus_root: Path) -> pd.DataFrame:
    path = corpus_root / "judgments" / "aila2019" / "Query_doc.txt"
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip():
            continue
        qid, sep, text = line.partition("||")
        if not sep or not text.strip():
            raise QuerySetError(f"{path}:{number}: expected 'AILA_Q<n>||<text>'")
        rows.append({"qid": qid.strip(), "query": text.strip(), "query_type": "facts",
                     "domain": "unknown"})
    return pd.DataFrame(rows)


def aila_statute_documents(corpus_root: Path) -> pd.DataFrame:
    """The 197 AILA statute descriptions (S1-S197): `Title:` and `Desc:` lines (doc_id, text,
    and the title alone, which maps a statute to its section)."""
    rows = []
    for path in sorted((corpus_root / "judgments" / "aila2019" / "statutes").glob("S*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        fields = {key: value.strip() for key, _, value in
                  (line.partition(":") for line in text.splitlines() if ":" in line)}
        if "Title" not in fields:
            raise QuerySetError(f"{path}: no 'Title:' line")
        body = text.split("Desc:", 1)[-1].strip()
        rows.append({"doc_id": f"AILA:{path.stem}", "text": f"{fields['Title']}. {body}",
                     "title": fields["Title"]})
    return pd.DataFrame(rows, columns=["doc_id", "text", "title"])


def absent_aila_statutes(corpus_root: Path) -> set[str]:
    """Statutes the released qrels judge but the corpus has no file for (S58, judged relevant
    for AILA_Q2, is one: the corpus holds 197 of S1-S200). They stay in the qrels, as misses:
    an honest ceiling on recall, counted in the run's log rather than failing it."""
    held = set(aila_statute_documents(corpus_root)["doc_id"])
    qrels = read_qrels(corpus_root / "judgments" / "aila2019" / "qrels" / "statutes.train.txt",
                       "AILA:")
    return {doc for docs in qrels.values() for doc in docs} - held


def _citation_tables(warehouse: Path) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The mentions, the chunks' places and the judgments that citation queries are cut from."""
    mentions = read_table(warehouse / "citation_mentions.parquet")
    verify_table(warehouse / "judgment_chunks.parquet")  # four columns of it, checked whole
    chunks = pq.read_table(warehouse / "judgment_chunks.parquet",
                           columns=["chunk_id", "ordinal", "start", "end"]).to_pandas()
    judgments = read_table(warehouse / "judgments.parquet")[
        ["doc_id", "source", "same_case_as", "text"]]
    return mentions, chunks, judgments


def precedent_passage_queries(warehouse: Path) -> dict[str, pd.DataFrame]:
    """The precedent passages of every pool judgment, both halves, as chunks and as
    question-sized windows (`evals.citation_sets.precedent_passages`): what the precedent
    relevance model learns short texts from."""
    mentions, chunks, judgments = _citation_tables(warehouse)
    same = duplicates_of(judgments)
    return {name: with_judgment(precedent_passages(mentions, chunks, judgments, window), same)
            for name, window in ((PRECEDENT_PASSAGES_SET, None),
                                 (PRECEDENT_QUESTIONS_SET, QUESTION_WINDOW))}


def dev_queries(warehouse: Path, corpus_root: Path) -> dict[str, pd.DataFrame]:
    """Every judgment's query in each development set, both halves (`evals.citation_sets`),
    built once per content of the warehouse tables (their sidecar checksums) and of AILA's
    statutes: every config of a side loads the set."""
    stamp = tuple(checksum_path(warehouse / f"{table}.parquet").read_text()
                  for table in DEV_TABLES)
    return _built_dev_queries(warehouse, corpus_root, stamp, tree_fingerprint(
        corpus_root / "judgments" / "aila2019", ("statutes",)))


@functools.lru_cache(maxsize=1)
def _built_dev_queries(warehouse: Path, corpus_root: Path, tables: tuple[str, ...],
                       statutes: str) -> dict[str, pd.DataFrame]:
    """`dev_queries`, cached on the content of what it reads (`tables`, `statutes`)."""
    mentions, chunks, judgments = _citation_tables(warehouse)
    sections = read_table(warehouse / "legal_sections_documents.parquet")
    pool = judgments[judgments["source"].isin(POOL)]
    texts = dict(zip(pool["doc_id"], pool["text"], strict=True))
    in_force = sections.loc[sections["status"] == IN_FORCE, "doc_id"]
    aila = {}
    for statute, section in aila_sections(aila_statute_documents(corpus_root), sections).items():
        aila.setdefault(section, []).append(statute)
    same = duplicates_of(judgments)
    precedents = precedent_queries(mentions, judgments)
    return {STATUTES_SET: with_judgment(passage_queries(
                mentions, chunks, texts, {d: [d] for d in in_force}), same),
            AILA_SET: with_judgment(passage_queries(mentions, chunks, texts, aila), same),
            PRECEDENTS_SET: with_judgment(precedents, same),
            AILA_PRECEDENTS_SET: with_judgment(facts_queries(precedents, mentions, judgments),
                                               same)}


def load_dev_set(name: str, corpus_root: Path, warehouse: Path, split: str = HELDOUT,
                 count: int | None = None) -> QuerySet:
    """A development set's half: the held-out half cut to EVAL_QUERIES by default (what every
    config of its side is evaluated on). `split=TRAIN, count=None` gives all the training
    pairs, for learning; no held-out judgment is among them."""
    count = EVAL_QUERIES[name] if split == HELDOUT and count is None else count
    return dev_set(name, dev_queries(warehouse, corpus_root)[name], split, count)


def tuning_set(queryset: QuerySet, corpus_root: Path, warehouse: Path) -> QuerySet:
    """What a tuned config fits on (`evals.tuning` takes a set's training qids): a development
    set's training half, FIT_QUERIES of it, since its evaluated set is the held-out half alone;
    any other set itself."""
    if queryset.name not in DEV_SET_SIDES:
        return queryset
    return load_dev_set(queryset.name, corpus_root, warehouse, TRAIN, FIT_QUERIES)


def load_corpus_set(name: str, corpus_root: Path, judgments: pd.DataFrame | None = None,
                    warehouse: Path | None = None, dev_split: str = HELDOUT) -> QuerySet:
    """A corpus query set; `irled2017-precedents` takes its query texts from the judgments table,
    the development sets are built from the `warehouse` tables (their evaluated held-out
    queries, or with `dev_split=TRAIN` their whole training half, where choices are made)."""
    if name in DEV_SET_SIDES:
        if warehouse is None:
            raise ValueError(f"{name} is built from the warehouse tables: give their folder")
        return load_dev_set(name, corpus_root, warehouse, dev_split)
    aila = corpus_root / "judgments" / "aila2019"
    if name == "aila2019-precedents":
        return QuerySet(name, aila_queries(corpus_root),
                        read_qrels(aila / "qrels" / "priorcases.train.txt", "AILA:"))
    if name == "aila2019-statutes":
        return QuerySet(name, aila_queries(corpus_root),
                        read_qrels(aila / "qrels" / "statutes.train.txt", "AILA:"))
    if name == "irled2017-precedents":
        if judgments is None:
            raise ValueError("irled2017-precedents needs the judgments table for its query texts")
        current = judgments[judgments["source"] == "irled2017_current"]
        queries = pd.DataFrame({"qid": current["doc_id"].str.removeprefix("IRLED:"),
                                "query": current["text"], "query_type": "judgment",
                                "domain": "unknown"}).sort_values("qid", ignore_index=True)
        qrels = read_qrels(corpus_root / "judgments" / "irled2017" / "qrels.dev.txt", "IRLED:")
        return QuerySet(name, queries, qrels)
    raise ValueError(f"unknown corpus query set {name!r}; choose one of {CORPUS_SETS}")


def querysets_for(side: str) -> list[str]:
    """Every judged set a config of `side` is evaluated on: the authored folders of that side
    (`evals.querysets.judged_sets`) and the corpus's."""
    return sorted([*judged_sets(side), *(name for name, of in CORPUS_SET_SIDES.items()
                                         if of == side)])


def load_any_queryset(name: str, corpus_root: Path, judgments: pd.DataFrame | None = None,
                      warehouse: Path | None = None, dev_split: str = HELDOUT) -> QuerySet:
    """An authored set from evals/querysets/, or a corpus set by its name (`dev_split`: which
    half of a development set, `load_corpus_set`)."""
    if name in CORPUS_SETS:
        return load_corpus_set(name, corpus_root, judgments, warehouse, dev_split)
    authored = queryset_names()
    if name not in authored:
        raise QuerySetError(f"unknown query set {name!r}: a name, one of "
                            f"{', '.join([*authored, *CORPUS_SETS])}")
    return load_queryset(name)


def dev_set_sizes(corpus_root: Path, warehouse: Path) -> pd.DataFrame:
    """Per development set and half: queries (judgments), judged pairs, and the queries and
    pairs evaluated or fitted on: the figures docs/devsets.md reports."""
    rows = []
    for name, queries in dev_queries(warehouse, corpus_root).items():
        for split, used in ((TRAIN, FIT_QUERIES), (HELDOUT, EVAL_QUERIES[name])):
            every, cut = (dev_set(name, queries, split, count) for count in (None, used))
            rows.append({"set": name, "split": split, "queries": len(every.qrels),
                         "pairs": sum(map(len, every.qrels.values())),
                         "used": len(cut.qrels), "used_pairs": sum(map(len, cut.qrels.values()))})
    return pd.DataFrame(rows)


if __name__ == "__main__":
    from nyaya.settings import Settings

    settings = Settings.from_env()
    print(dev_set_sizes(settings.corpus_root, settings.warehouse).to_string(index=False))
