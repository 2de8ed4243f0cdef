"""Development sets built from the corpus's own citations (distant supervision, issue 19).

A judgment's citations say what it relied on, so a judgment with its citations masked is a
query whose answers are known without a human judge:

- `cited-statutes` (statutes side): a passage of a judgment, the first chunk that cites an
  in-force section of the corpus, with every statute citation masked; judged on the in-force
  sections the passage cites.
- `cited-aila-statutes` (aila-statutes side): the same passages, judged on AILA's S1-S197,
  mapped to a section of the corpus through their titles (`aila_sections`).
- `cited-precedents` (precedents side): a whole judgment with its case citations masked (the
  IRLeD convention), judged on the judgments it cites that are in the candidate pool.
- `cited-aila-precedents` (precedents side): an AILA case document's opening facts, as long as
  an AILA 2019 precedent query, judged on the AILA documents the whole judgment cites (the
  way AILA made its queries: the facts of a judgment, its citations the answers).
- precedent passages (training the precedent relevance model for short texts, not evaluated
  as retrieval): the first chunk of a judgment that cites a pool judgment, or the words either
  side of that citation, its case citations masked, judged on the pool judgments it cites.

One query per judgment, its qid the judgment's doc id, so `evals.splits.split_of` splits by
judgment: no judgment is on both sides, in any of the three sets. Pure logic over frames of
the warehouse tables; `evals.corpus_sets` loads them. docs/devsets.md has the sizes.
"""

from __future__ import annotations

import functools
import hashlib
import re
from collections.abc import Iterable, Mapping

import numpy as np
import pandas as pd

from evals.querysets import QuerySet
from evals.splits import HELDOUT, TRAIN, split_of
from nyaya.citations.cases import MASK_TEXT as MASK  # the masks retrieval reads
from nyaya.retrieval.case_votes import statute_targets

STATUTES_SET, AILA_SET, PRECEDENTS_SET = "cited-statutes", "cited-aila-statutes", "cited-precedents"
AILA_PRECEDENTS_SET = "cited-aila-precedents"
#: the precedent passages' two forms (training the precedent relevance model only)
PRECEDENT_PASSAGES_SET, PRECEDENT_QUESTIONS_SET = "cited-precedent-passages", \
    "cited-precedent-questions"
DEV_SET_SIDES = {STATUTES_SET: "statutes", AILA_SET: "aila-statutes",
                 PRECEDENTS_SET: "precedents", AILA_PRECEDENTS_SET: "precedents"}
#: Held-out queries each set is evaluated on: every config of the side runs them in CI and in
#: `make run`, so the cut keeps that to about a minute more (docs/devsets.md has the timings).
EVAL_QUERIES = {STATUTES_SET: 50, AILA_SET: 100, PRECEDENTS_SET: 50, AILA_PRECEDENTS_SET: 100}
#: Training queries a tuned config fits its parameters on.
FIT_QUERIES = 20
#: Judgments a query is made from, and the precedent set's candidates. IRLeD's current cases
#: are left out: they are IRLeD's own queries, their citations already masked.
AILA_SOURCE = "aila2019"  # AILA 2019's case documents: the candidates of its precedent task
POOL = (AILA_SOURCE, "irled2017_prior")
#: Words of an AILA-style facts query: AILA 2019's 50 precedent queries run 198-1,023 words,
#: median 529.
FACTS_WORDS = 500
#: The last line of an AILA case document's header (title, court, date, case number, bench).
_HEADER_END = re.compile(r"^The Judgment was delivered by\b.*$\n?", re.MULTILINE)
_HEADER_CHARS = 2000  # where a header ends at the latest
#: Least word overlap (Jaccard) between an AILA description and a same-titled section for the
#: title to map it: a title alone ("Punishment", "Penalties") is often ambiguous.
MIN_OVERLAP = 0.2
#: Words either side of a case citation in a question-sized precedent passage: about 50 words,
#: the length of an authored question.
QUESTION_WINDOW = 25
_TOKEN = re.compile(r"\S+")
#: Most characters between a case's printed names and the citation after them (", [", " (",
#: " reported in ", a parallel citation).
NAME_GAP = 25
_CHARS_PER_WORD = 40  # the most text read either side to find QUESTION_WINDOW words
#: AILA's statutes are those of its 2019 judgments: a section of a later Act is never one (BNS
#: 2023 repeats many IPC titles word for word).
AILA_YEAR = 2019


def merged(spans: Iterable[tuple[int, int]]) -> list[tuple[int, int]]:
    """The spans sorted, overlapping or touching ones joined."""
    out: list[tuple[int, int]] = []
    for start, end in sorted(spans):
        if out and start <= out[-1][1]:
            out[-1] = (out[-1][0], max(out[-1][1], end))
        else:
            out.append((start, end))
    return out


def mask_spans(text: str, spans: Iterable[tuple[int, int]], offset: int = 0) -> str:
    """`text` (which starts at `offset` of its judgment) with each citation span, in judgment
    offsets and clipped to the text, replaced by one MASK."""
    parts, at = [], 0
    for start, end in merged((max(s - offset, 0), min(e - offset, len(text)))
                             for s, e in spans if e > offset and s < offset + len(text)):
        parts += [text[at:start], MASK]
        at = end
    return "".join([*parts, text[at:]])


def _words(text: str) -> set[str]:
    return set(re.findall(r"[a-z0-9]+", text.lower()))


def _overlap(words: set[str], text: str) -> float:
    other = _words(text)
    return len(words & other) / (len(words | other) or 1)


def aila_sections(aila: pd.DataFrame, sections: pd.DataFrame) -> dict[str, str]:
    """AILA statute id -> the corpus section it is: among the sections whose title has the
    AILA title's words (as a set: case, punctuation and order aside) and whose Act is of
    AILA_YEAR or before or has no year, the one whose text shares most words with the AILA
    description, if at least MIN_OVERLAP. `aila` has doc_id, title, text; `sections` doc_id,
    title, text, year (any status: most AILA statutes are IPC sections)."""
    sections = sections[~(sections["year"] > AILA_YEAR)]
    by_title = sections.assign(key=sections["title"].fillna("").map(
        lambda title: " ".join(sorted(_words(title)))))
    candidates = by_title.groupby("key").indices  # key -> positions, no frame per title
    found = {}
    for doc_id, title, text in zip(aila["doc_id"], aila["title"], aila["text"], strict=True):
        positions = candidates.get(" ".join(sorted(_words(title))))
        if positions is None:
            continue
        rows = by_title.iloc[positions]
        overlap = rows["text"].fillna("").map(functools.partial(_overlap, _words(text)))
        if overlap.max() >= MIN_OVERLAP:
            found[doc_id] = rows.at[overlap.idxmax(), "doc_id"]
    return found


def passage_queries(mentions: pd.DataFrame, chunks: pd.DataFrame, texts: Mapping[str, str],
                    judged: Mapping[str, Iterable[str]]) -> pd.DataFrame:
    """One passage per judgment: its first chunk (chunk_id, ordinal, start, end) that cites a
    section `judged` maps (section doc id -> judged doc ids), every statute citation in it
    masked; judgments outside `texts` (doc id -> text) are left out. Rows: qid (the
    judgment), query, judged (the doc ids its citations map to)."""
    statutes = mentions[(mentions["mention_type"] == "statute")
                        & mentions["doc_id"].isin(list(texts))]
    statutes = statutes.assign(section_doc=statute_targets(statutes))
    cited = statutes.loc[statutes["section_doc"].isin(list(judged)), ["doc_id", "chunk_id"]]
    first = (cited.merge(chunks[["chunk_id", "ordinal", "start", "end"]], on="chunk_id")
             .sort_values(["doc_id", "ordinal"]).drop_duplicates("doc_id"))
    # each judgment's mentions as plain arrays: a frame per judgment costs seconds
    statutes = statutes.sort_values("doc_id", kind="stable")
    doc_ids = statutes["doc_id"].to_numpy()
    starts, ends = statutes["group_start"].to_numpy(), statutes["group_end"].to_numpy()
    sections = statutes["section_doc"].to_numpy()
    rows = []
    for doc_id, start, end in zip(first["doc_id"], first["start"], first["end"], strict=True):
        lo, hi = np.searchsorted(doc_ids, doc_id, "left"), np.searchsorted(doc_ids, doc_id,
                                                                            "right")
        inside = lo + np.flatnonzero((ends[lo:hi] > start) & (starts[lo:hi] < end))
        targets = {target for section in sections[inside] if isinstance(section, str)
                   for target in judged.get(section, ())}
        rows.append({"qid": doc_id, "query": mask_spans(texts[doc_id][start:end], zip(
            starts[inside], ends[inside], strict=True), start), "judged": sorted(targets)})
    return pd.DataFrame(rows, columns=["qid", "query", "judged"])


def duplicates_of(judgments: pd.DataFrame) -> dict[str, set[str]]:
    """doc id -> itself and the judgments the table records as the same case."""
    same = {doc: {doc} for doc in judgments["doc_id"]}
    for doc, others in zip(judgments["doc_id"], judgments["same_case_as"], strict=True):
        for other in others:
            same[doc].add(other)
            same.setdefault(other, {other}).add(doc)
    return same


def case_citation_spans(found: pd.DataFrame, text: str) -> list[tuple[int, int]]:
    """Each case citation's span in `text`, widened to the party names printed just before it:
    a reporter citation's mention spans the reporter only, and its names would tell a query
    which case it cites (IRLeD masks them too)."""
    spans = []
    for start, end, name in zip(found["group_start"], found["group_end"], found["case_name"],
                                strict=True):
        if isinstance(name, str) and name:
            at = text.rfind(name, max(0, start - len(name) - NAME_GAP), start)
            start = at if at >= 0 else start
        spans.append((int(start), int(end)))
    return spans


def precedent_queries(mentions: pd.DataFrame, judgments: pd.DataFrame) -> pd.DataFrame:
    """One query per pool judgment that cites another pool judgment: its text with every case
    citation masked. Rows: qid, query, judged (the cited pool judgments and their duplicates,
    never the judgment's own case: `with_judgment` excludes that from its ranking). `judgments`
    has doc_id, source, same_case_as, text."""
    pool = set(judgments.loc[judgments["source"].isin(POOL), "doc_id"])
    same = duplicates_of(judgments)
    cases = mentions[(mentions["mention_type"] == "case") & mentions["doc_id"].isin(pool)]
    texts = dict(zip(judgments["doc_id"], judgments["text"], strict=True))
    rows = []
    for doc_id, found in cases.groupby("doc_id"):
        excluded = same[doc_id]
        cited = {dup for ids in found["resolved_case_ids"] for case in ids
                 for dup in same.get(case.removeprefix("CASE:"), ())} & pool
        if cited - excluded:
            rows.append({"qid": doc_id, "query": mask_spans(
                texts[doc_id], case_citation_spans(found, texts[doc_id])),
                "judged": sorted(cited - excluded)})
    return pd.DataFrame(rows, columns=["qid", "query", "judged"])


def facts_queries(precedents: pd.DataFrame, mentions: pd.DataFrame, judgments: pd.DataFrame,
                  words: int = FACTS_WORDS) -> pd.DataFrame:
    """AILA-style precedent queries: each AILA case document's first `words` words after its
    header, every citation in them masked (AILA replaced Acts and sections with placeholders),
    judged on the AILA documents the whole judgment cites (`precedents`' judged, from
    `precedent_queries`). AILA's task ranks its own documents only, and its queries are a
    judgment's facts, not the whole text."""
    aila = set(judgments.loc[judgments["source"] == AILA_SOURCE, "doc_id"])
    texts = dict(zip(judgments["doc_id"], judgments["text"], strict=True))
    cited = {qid: [doc for doc in judged if doc in aila]
             for qid, judged in zip(precedents["qid"], precedents["judged"], strict=True)
             if qid in aila}
    found = dict(tuple(mentions[mentions["doc_id"].isin(cited)].groupby("doc_id")))
    rows = []
    for qid, judged in cited.items():
        if not judged:
            continue
        text, own = texts[qid], found[qid]
        cases = own["mention_type"] == "case"
        spans = case_citation_spans(own[cases], text) + list(zip(
            own.loc[~cases, "group_start"], own.loc[~cases, "group_end"], strict=True))
        header = _HEADER_END.search(text, 0, _HEADER_CHARS)
        start = header.end() if header else 0
        body = mask_spans(text[start:], spans, start)
        rows.append({"qid": qid, "query": " ".join(body.split()[:words]), "judged": judged})
    return pd.DataFrame(rows, columns=["qid", "query", "judged"])


def _window(text: str, start: int, end: int, words: int) -> tuple[int, int]:
    """The character span of `words` words before `start` to `words` words after `end`."""
    head = text[max(0, start - _CHARS_PER_WORD * words):start]
    starts = [m.start() for m in _TOKEN.finditer(head)][-words:]
    tail = text[end:end + _CHARS_PER_WORD * words]
    ends = [m.end() for m in _TOKEN.finditer(tail)][:words]
    return start - len(head) + (starts[0] if starts else len(head)), end + (ends[-1] if ends
                                                                             else 0)


def precedent_passages(mentions: pd.DataFrame, chunks: pd.DataFrame, judgments: pd.DataFrame,
                       window: int | None = None) -> pd.DataFrame:
    """One passage per pool judgment that cites another pool judgment: the first chunk
    (chunk_id, start, end) holding such a citation, or with `window` the words either side of
    that citation; every case citation in it masked. Rows: qid, query, judged (the pool
    judgments its citations resolve to, with duplicates, never its own case)."""
    pool = set(judgments.loc[judgments["source"].isin(POOL), "doc_id"])
    same = duplicates_of(judgments)
    texts = dict(zip(judgments["doc_id"], judgments["text"], strict=True))
    cases = mentions[(mentions["mention_type"] == "case") & mentions["doc_id"].isin(pool)]
    cases = cases.merge(chunks[["chunk_id", "start", "end"]].rename(
        columns={"start": "chunk_start", "end": "chunk_end"}), on="chunk_id")
    rows = []
    for doc_id, found in cases.sort_values(["doc_id", "group_start"]).groupby("doc_id"):
        others = pool - same[doc_id]  # once per judgment, not once per citation in it
        cited = [{dup for case in ids for dup in same.get(case.removeprefix("CASE:"), ())}
                 & others for ids in found["resolved_case_ids"]]
        first = next((i for i, docs in enumerate(cited) if docs), None)
        if first is None:
            continue
        row = found.iloc[first]
        [(start, end)] = case_citation_spans(found.iloc[[first]], texts[doc_id])
        lo, hi = ((row["chunk_start"], row["chunk_end"]) if window is None else
                  _window(texts[doc_id], start, end, window))
        inside = ((found["group_end"] > lo) & (found["group_start"] < hi)).to_numpy()
        rows.append({"qid": doc_id, "query": mask_spans(
            texts[doc_id][lo:hi], case_citation_spans(found[inside], texts[doc_id]), lo),
            "judged": sorted(set().union(*(docs for docs, keep in zip(cited, inside,
                                                                        strict=True) if keep)))})
    return pd.DataFrame(rows, columns=["qid", "query", "judged"])


def with_judgment(queries: pd.DataFrame, duplicates: Mapping[str, set[str]]) -> pd.DataFrame:
    """The queries with the judgment each stands for: the first id of the query's case (an
    AILA document and the IRLeD prior case printing the same judgment are one), what the
    halves are split on, so that one case never lands in both; and with what is `excluded`
    for each: its case's judgments, never ranked for it nor voting for its statutes."""
    cases = [duplicates.get(qid, {qid}) for qid in queries["qid"]]
    return queries.assign(judgment=list(map(min, cases)), excluded=list(map(sorted, cases)))


def dev_set(name: str, queries: pd.DataFrame, split: str, count: int | None) -> QuerySet:
    """One half of a development set (`evals.splits` TRAIN or HELDOUT, by the query's
    `judgment`: see `with_judgment`), cut to its first `count` queries in an order hashed from
    the qid (stable when judgments are added; all for None). Every judged document has grade
    1."""
    if split not in (TRAIN, HELDOUT):
        raise ValueError(f"{name}: no half {split!r}; the halves are {TRAIN} and {HELDOUT}")
    half = queries[[split_of(judgment) == split for judgment in queries["judgment"]]]
    order = sorted(half.index, key=lambda i: hashlib.sha256(half.at[i, "qid"].encode()).digest())
    chosen = half.loc[order[:count]].reset_index(drop=True)
    tagged = chosen.drop(columns=["judged", "judgment"]).assign(
        query_type="judgment" if name == PRECEDENTS_SET else "facts", domain="unknown")
    return QuerySet(name, tagged, {qid: dict.fromkeys(docs, 1) for qid, docs in
                                   zip(chosen["qid"], chosen["judged"], strict=True)})
