"""Query sets that ship with the corpus: AILA 2019 (precedents, statutes) and IRLeD 2017.

Only the judgments released with the corpus are read: AILA_Q1-Q10 (`*.train.txt`) and IRLeD
current_case_0001-0100 (`qrels.dev.txt`). Queries without released judgments are kept in
`queries` (runs must cover them) but have no qrels, so they are never scored or tuned on.
Document ids are the warehouse's: `AILA:C12`, `AILA:S90`, `IRLED:prior_case_0895`.
"""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from evals.querysets import (
    QuerySet,
    QuerySetError,
    judged_sets,
    load_queryset,
    queryset_names,
    read_qrels_lines,
)

#: The corpus's sets and the side each is judged on.
CORPUS_SET_SIDES = {"aila2019-precedents": "precedents", "aila2019-statutes": "aila-statutes",
                    "irled2017-precedents": "precedents"}
CORPUS_SETS = tuple(CORPUS_SET_SIDES)
# the judgment sources each precedent set is judged over: its candidates, and only those
CANDIDATE_SOURCES = {"aila2019-precedents": ("aila2019",),
                     "irled2017-precedents": ("irled2017_prior",)}


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
    """The 197 AILA statute descriptions (S1-S197): `Title:` and `Desc:` lines."""
    rows = []
    for path in sorted((corpus_root / "judgments" / "aila2019" / "statutes").glob("S*.txt")):
        text = path.read_text(encoding="utf-8", errors="replace")
        fields = {key: value.strip() for key, _, value in
                  (line.partition(":") for line in text.splitlines() if ":" in line)}
        if "Title" not in fields:
            raise QuerySetError(f"{path}: no 'Title:' line")
        body = text.split("Desc:", 1)[-1].strip()
        rows.append({"doc_id": f"AILA:{path.stem}", "text": f"{fields['Title']}. {body}"})
    return pd.DataFrame(rows)


def absent_aila_statutes(corpus_root: Path) -> set[str]:
    """Statutes the released qrels judge but the corpus has no file for (S58, judged relevant
    for AILA_Q2, is one: the corpus holds 197 of S1-S200). They stay in the qrels, as misses:
    an honest ceiling on recall, counted in the run's log rather than failing it."""
    held = set(aila_statute_documents(corpus_root)["doc_id"])
    qrels = read_qrels(corpus_root / "judgments" / "aila2019" / "qrels" / "statutes.train.txt",
                       "AILA:")
    return {doc for docs in qrels.values() for doc in docs} - held


def load_corpus_set(name: str, corpus_root: Path,
                    judgments: pd.DataFrame | None = None) -> QuerySet:
    """A corpus query set; `irled2017-precedents` takes its query texts from the judgments table."""
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


def load_any_queryset(name: str, corpus_root: Path,
                      judgments: pd.DataFrame | None = None) -> QuerySet:
    """An authored set from evals/querysets/, or a corpus set by its name."""
    if name in CORPUS_SETS:
        return load_corpus_set(name, corpus_root, judgments)
    authored = queryset_names()
    if name not in authored:
        raise QuerySetError(f"unknown query set {name!r}: a name, one of "
                            f"{', '.join([*authored, *CORPUS_SETS])}")
    return load_queryset(name)
