"""Ask the built indexes a question, as a person or another program would.

One config of one side answers: statute sections (act, section, title, a snippet) or
judgments (case name, year, the passage that ranked it). A `Searcher` loads each side's
tables, models and store once and keeps them, so `nyaya search` pays the loading once per
command and `nyaya serve` once per process. The store is opened read-only (a private copy,
see `nyaya.index.store.EdgeStore`), so searching never waits for, or blocks, a run.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field, replace
from datetime import date
from pathlib import Path
from typing import Any

import pandas as pd
import pyarrow.parquet as pq

from evals.configs import RetrievalConfig, configs_for, load_config, side_of
from evals.inputs import read_text
from evals.runner import SIDES
from evals.runs import rank_frame
from evals.splits import is_tuned
from nyaya.index.store import VectorStore, open_store
from nyaya.lookup import DOUBLED_STOP, cited_as
from nyaya.retrieval.base import Hit
from nyaya.retrieval.precedents import PrecedentSearch
from nyaya.settings import Settings
from nyaya.tables import read_table
from nyaya.verify.gate import judge_cases, verify_text
from nyaya.verify.model import FOUND, CitationVerdict
from nyaya.verify.statutes import StatuteChecker

#: What a side answers with when no config is named: its best config on the held-out halves
#: of its development sets (docs/results.md; docs/retrieval-methods.md says why where it is not
#: the top row). For statutes a trained one, the section ranker: above every untrained config
#: on each held-out half and in the cross-fit inside the training halves (2026-12-06).
DEFAULT_CONFIGS = {"statutes": "lookup-cases-ltr", "precedents": "precedents-masked-contexts",
                   "aila-statutes": "aila-statutes-cases-chunks"}
SNIPPET_CHARS = 240
MAX_K = 1000
_WORD = re.compile(r"[a-z0-9]+")


class SearchError(ValueError):
    """A question, config or topics file that cannot be searched; the message says why."""


def check_k(k: int) -> int:
    """`k` results per question, if it is one of 1-MAX_K; else SearchError."""
    if not 1 <= k <= MAX_K:
        raise SearchError(f"k must be between 1 and {MAX_K}, got {k}")
    return k


@dataclass(frozen=True)
class Result:
    """One ranked hit as it is shown: its fields depend on the side."""

    rank: int
    doc_id: str
    score: float
    methods: tuple[str, ...]
    fields: dict[str, Any]
    verification: dict | None = None

    def to_dict(self) -> dict:
        out = {"rank": self.rank, "doc_id": self.doc_id, "score": round(self.score, 6),
               "methods": list(self.methods), **self.fields}
        if self.verification is not None:
            out["verification"] = self.verification
        return out


@dataclass(frozen=True)
class Answer:
    question: str
    side: str
    config: str
    k: int
    as_of: date | None
    results: list[Result]
    verification: dict | None = None  # the gate's overall verdict on the results, --verify
    notes: list[str] = field(default_factory=list)

    def to_dict(self) -> dict:
        return {"q": self.question, "side": self.side, "config": self.config, "k": self.k,
                "as_of": self.as_of.isoformat() if self.as_of else None,
                "results": [result.to_dict() for result in self.results],
                **({"verification": self.verification} if self.verification else {}),
                "notes": list(self.notes)}


def snippet(text: str, question: str, width: int = SNIPPET_CHARS) -> str:
    """The `width` characters of `text` around its first word that the question also uses
    (the longest such word, so "murder" beats "the"); the start when none is shared."""
    text = DOUBLED_STOP.sub(".", " ".join(str(text).split()))
    if len(text) <= width:
        return text
    words = sorted(set(_WORD.findall(question.lower())), key=lambda w: (-len(w), w))
    lowered = text.lower()
    at = next((m.start() for word in words if len(word) > 3 for m in
               [re.search(rf"\b{re.escape(word)}", lowered)] if m), 0)
    start = max(0, min(at - width // 4, len(text) - width))
    if start:  # begin on a word
        start = text.find(" ", start) + 1 or start
    piece = text[start:start + width].rsplit(" ", 1)[0]
    return ("…" if start else "") + piece + "…"


def read_topics(path: Path) -> pd.DataFrame:
    """Questions from a file: JSONL objects with `qid` and `query` (and an optional `as_of`
    date), or TSV lines `qid<TAB>query` (pyserini's topics). Bad lines name file and line."""
    rows, seen = [], {}
    jsonl = path.suffix in (".jsonl", ".json")
    for number, line in enumerate(read_text(path, SearchError).splitlines(), 1):
        if not line.strip():
            continue
        if jsonl:
            try:
                row = json.loads(line)
            except json.JSONDecodeError as err:
                raise SearchError(f"{path}:{number}: invalid JSON: {err.msg}") from err
            if not isinstance(row, dict) or not str(row.get("qid", "")).strip() or \
                    not str(row.get("query", "")).strip():
                raise SearchError(f"{path}:{number}: expected an object with 'qid' and 'query'")
            qid, query, as_of = str(row["qid"]).strip(), str(row["query"]), row.get("as_of")
        else:
            qid, tab, query = line.partition("\t")
            if not tab or not qid.strip() or not query.strip():
                raise SearchError(f"{path}:{number}: expected 'qid<TAB>question'")
            qid, as_of = qid.strip(), None
        if qid in seen:
            raise SearchError(f"{path}:{number}: qid {qid} again (first on line {seen[qid]})")
        seen[qid] = number
        if as_of is not None:
            try:
                as_of = date.fromisoformat(str(as_of))
            except ValueError as err:
                raise SearchError(f"{path}:{number}: as_of {as_of!r} is not a "
                                  "YYYY-MM-DD date") from err
        rows.append({"qid": qid, "query": query.strip(), "as_of": as_of})
    if not rows:
        raise SearchError(f"{path}: no questions")
    return pd.DataFrame(rows)


class Searcher:
    """Configs of every side over the built warehouse, each side loaded on first use."""

    def __init__(self, settings: Settings,
                 relevance: Callable[[Settings], Any] | None = None,
                 checker: StatuteChecker | None = None) -> None:
        """`relevance` builds the judge that `verify=True` asks about each section or
        judgment; `checker` is the statute checker to verify with (one is built on first need
        otherwise): a server shares its verifier's rather than hold the tables twice."""
        self.settings = settings
        self._relevance_of = relevance
        self._store: VectorStore | None = None
        self._loaded: dict[str, Any] = {}
        self._searches: dict[str, Any] = {}
        self._details: dict[str, Any] = {}
        self._checker, self._judge = checker, None

    def config(self, name: str | None, side: str | None = None) -> RetrievalConfig:
        """The named config (else the side's default), refused with the valid names when it
        does not exist, serves another side, or is fitted per query set."""
        side = side or (None if name else "statutes")
        if side is not None and side not in SIDES:
            raise SearchError(f"unknown side {side!r}: one of {', '.join(SIDES)}")
        name = name or DEFAULT_CONFIGS[side]
        valid = configs_for(side) if side else sorted(
            n for s in SIDES for n in configs_for(s))
        if name not in valid:
            raise SearchError(f"unknown config {name!r}"
                              f"{f' for {side}' if side else ''}: one of {', '.join(valid)}")
        config = load_config(name)
        if is_tuned(config.params):
            raise SearchError(f"config {name} has parameters fitted per query set; search "
                              "with an untuned config")
        return config

    def _search(self, config: RetrievalConfig) -> Any:
        if config.name not in self._searches:
            side = side_of(config)
            searcher, load = SIDES[side]
            if side not in self._loaded:
                if self._store is None:
                    settings = self.settings
                    self._store = open_store(settings.qdrant_path, settings.qdrant_url,
                                             settings.qdrant_api_key, read_only=True)
                self._loaded[side] = load(self.settings, self._store)
            self._searches[config.name] = searcher(config.name, config.params,
                                                   self._loaded[side])
        return self._searches[config.name]

    def hits(self, config: RetrievalConfig, question: str, k: int,
             as_of: date | None = None) -> list[Hit]:
        """The config's top k for one question (precedents over every judgment held)."""
        search = self._search(config)
        if isinstance(search, PrecedentSearch):
            return search.search(question, k)
        return search.search(question, k, as_of=as_of)

    def search(self, question: str, side: str | None = None, config: str | None = None,
               k: int = 10, as_of: date | None = None, verify: bool = False) -> Answer:
        """One question through one config, its hits with what a reader needs."""
        question = question.strip() if isinstance(question, str) else ""
        if not question:
            raise SearchError("the question is empty")
        check_k(k)
        chosen = self.config(config, side)
        side = side_of(chosen)
        if verify and side not in ("statutes", "precedents"):
            raise SearchError(f"--verify judges statute sections and precedents; the {side} "
                              "side ranks AILA's statute descriptions, which no gate checks")
        search = self._search(chosen)
        notes = []
        if isinstance(search, PrecedentSearch):
            results = self._judgments(search.evidence(question, k), question)
        else:
            hits = search.search(question, k, as_of=as_of)
            results = self._sections(hits, question, side)
            added = search.law_words(question)
            if added:
                notes.append("searched with the law's words for what it asks: "
                             + " ".join(added))
        answer = Answer(question, side, chosen.name, k, as_of, results, notes=notes)
        if not verify:
            return answer
        return self._verified(answer) if side == "statutes" else self._judged(answer)

    def run(self, topics: pd.DataFrame, config: RetrievalConfig, k: int) -> pd.DataFrame:
        """Every question of a topics frame through one config: a run frame for TREC."""
        found = {}
        for qid, query, as_of in zip(topics["qid"], topics["query"], topics["as_of"],
                                     strict=True):
            found[qid] = [(hit.doc_id, hit.score, hit.method)
                          for hit in self.hits(config, query, k, as_of or None)]
        return rank_frame(found)

    def close(self) -> None:
        if self._store is not None:
            self._store.close()
            self._store = None

    # ------------------------------------------------------------------ what a reader sees
    def _sections(self, hits: Iterable[Hit], question: str, side: str) -> list[Result]:
        rows = self._detail(side)
        results = []
        for rank, hit in enumerate(hits, 1):
            row = rows.get(hit.doc_id, {})
            fields = ({"act_code": row.get("act_code"), "act": row.get("act"),
                       "section": row.get("section_number"), "title": row.get("title"),
                       "status": row.get("status")} if side == "statutes" else {})
            fields["snippet"] = snippet(row.get("text", ""), question)
            results.append(Result(rank, hit.doc_id, hit.score, tuple(hit.method.split("+")),
                                  fields))
        return results

    def _judgments(self, evidence: Iterable[Any], question: str) -> list[Result]:
        cases, passages = self._detail("precedents")
        results = []
        for rank, found in enumerate(evidence, 1):
            case = cases.get(found.judgment_id, {})
            best = found.chunks[0].doc_id if found.chunks else None
            results.append(Result(rank, found.judgment_id, found.score,
                                  tuple(found.method.split("+")), {
                                      "case_name": case.get("case_name"),
                                      "year": case.get("year"), "court": case.get("court"),
                                      "decision_date": case.get("decision_date"),
                                      "passage_id": best,
                                      "passage": snippet(passages(best), question,
                                                         2 * SNIPPET_CHARS) if best else None}))
        return results

    def _detail(self, side: str) -> Any:
        """Per side, what results are shown with, read once."""
        if side in self._details:
            return self._details[side]
        warehouse = self.settings.warehouse
        if side == "statutes":  # the documents its search loaded, with the Acts' titles
            documents = self._loaded[side].documents
            acts = read_table(warehouse / "act_registry.parquet")
            titles = dict(zip(acts["act_code"], acts["title"], strict=True))
            frame = documents[["doc_id", "act_code", "section_number", "title", "status",
                               "text"]].assign(act=documents["act_code"].map(titles))
            detail: Any = {row["doc_id"]: row for row in frame.to_dict("records")}
        elif side == "precedents":
            cases = pq.read_table(warehouse / "judgments.parquet", columns=[
                "doc_id", "case_name", "year", "court", "decision_date"]).to_pandas()
            cases["year"] = pd.to_numeric(cases["year"], errors="coerce").astype("Int64")
            shown = {row["doc_id"]: {key: (None if pd.isna(value) else
                                           int(value) if key == "year" else value)
                                     for key, value in row.items()}
                     for row in cases.to_dict("records")}
            chunks = pq.read_table(warehouse / "sc_judgments_documents.parquet",
                                   columns=["doc_id", "text"])
            at = {doc: i for i, doc in enumerate(chunks.column("doc_id").to_pylist())}
            texts = chunks.column("text")
            detail = (shown, lambda doc: texts[at[doc]].as_py() if doc in at else "")
        else:
            documents = self._loaded[side].documents
            detail = {row["doc_id"]: row for row in documents.to_dict("records")}
        self._details[side] = detail
        return detail

    def _verified(self, answer: Answer) -> Answer:
        """The gate over the sections found, cited as an answer would cite them, judged
        against the question; each result carries its verdict."""
        if self._checker is None:
            self._checker = StatuteChecker.from_settings(self.settings)
        text = ". ".join(cited_as(result.doc_id) for result in answer.results)
        report = verify_text(text, self._checker, as_of=answer.as_of, query=answer.question,
                             relevance=self._relevance_judge())
        verdicts = {f"{v.act_code}:{v.section_number}": v for v in report.verdicts}
        results = []
        for result in answer.results:
            verdict = verdicts.get(result.doc_id)
            results.append(Result(
                result.rank, result.doc_id, result.score, result.methods, result.fields,
                None if verdict is None else {
                    "status": verdict.status, "survives": verdict.survives,
                    "relevance": (verdict.relevance or {}).get("verdict"),
                    "reason": verdict.reason}))
        return Answer(answer.question, answer.side, answer.config, answer.k, answer.as_of,
                      results, {"overall": report.overall, "message": report.message,
                                "counts": report.counts}, [*answer.notes, *report.notes])

    def _judged(self, answer: Answer) -> Answer:
        """Each judgment found judged a precedent for the question or not, by the gate as it
        judges a case an answer cites (specification 001's precedent assessment): one judged
        NOT_APPLICABLE_PRECEDENT does not survive, and an answer of judgments rests on
        precedent only."""
        cases = [CitationVerdict(
            text=result.doc_id, span=(result.rank, result.rank), kind="case", status=FOUND,
            reason="a judgment the corpus holds", case_name=result.fields.get("case_name"),
            matched={"doc_ids": [result.doc_id], "case_name": result.fields.get("case_name")})
            for result in answer.results]
        report = judge_cases(cases, answer.question, self._relevance_judge())
        results = [replace(result, verification={
            "status": verdict.status, "survives": verdict.survives,
            "relevance": verdict.relevance["verdict"], "reason": verdict.relevance["reason"]})
            for result, verdict in zip(answer.results, report.verdicts, strict=True)]
        return replace(answer, results=results, verification={
            "overall": report.overall, "message": report.message, "counts": report.counts},
            notes=[*answer.notes, *report.notes])

    def _relevance_judge(self) -> Any:
        if self._judge is None:
            from nyaya.verify.relevance import RelevanceJudge

            self._judge = (self._relevance_of or RelevanceJudge.from_settings)(self.settings)
        return self._judge


def render_answer(answer: Answer) -> str:
    """The answer as a person reads it: one block per result, best first."""
    when = f", as of {answer.as_of.isoformat()}" if answer.as_of else ""
    lines = [f"{answer.side}: {len(answer.results)} results for {answer.question!r} "
             f"(config {answer.config}, k {answer.k}{when})"]
    if answer.verification:
        lines.append(f"verification: {answer.verification['overall']}: "
                     f"{answer.verification['message']}")
    for result in answer.results:
        fields = result.fields
        methods = "+".join(result.methods)
        if answer.side == "statutes":
            head = (f"{result.rank:>3}. {fields['act_code']} s.{fields['section']}: "
                    f"{fields['title']}  ({fields['act']})")
        elif answer.side == "precedents":
            year = f", {fields['year']}" if fields.get("year") else ""
            head = f"{result.rank:>3}. {fields['case_name'] or result.doc_id}{year}"
        else:
            head = f"{result.rank:>3}. {result.doc_id}"
        lines += ["", head, f"     {result.doc_id} · score {result.score:.4f} · found by "
                  f"{methods}"]
        if result.verification:
            verdict = result.verification
            relevance = f", relevance {verdict['relevance']}" if verdict["relevance"] else ""
            lines.append(f"     verification: {verdict['status']}{relevance}")
        text = fields.get("passage") if answer.side == "precedents" else fields.get("snippet")
        if text:
            lines.append(f"     {text}")
    lines += [f"note: {note}" for note in answer.notes]
    return "\n".join(lines)
