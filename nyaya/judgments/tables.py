"""The judgment tables, one function per pipeline stage, frames in and frames out.

Each function here backs one Dagster asset and can be called on its own from a notebook or a
test. Statute mentions are resolved with the act registry's aliases and checked against the
sections table; case citations are resolved against the corpus judgments and the Supreme
Court registry; nothing that fails to resolve is dropped: it keeps a reason.
"""

from __future__ import annotations

import bisect
import dataclasses
from collections import Counter, defaultdict
from collections.abc import Callable, Mapping
from dataclasses import asdict
from pathlib import Path

import pandas as pd

from nyaya.citations.cases import CaseCitation, extract_case_citations
from nyaya.citations.statutes import StatuteMention, extract_statute_mentions
from nyaya.judgments.chunking import DEFAULT_TOKEN_BUDGET, Chunk, chunk_judgment
from nyaya.judgments.domains import CitedProvision, DomainDecision, DomainTagger
from nyaya.judgments.graph import CITATOR_RELATIONS, CITES, pagerank, relation_near
from nyaya.judgments.identity import link_same_cases, match_registry
from nyaya.judgments.resolution import REGISTRY_ONLY, RESOLVED, CaseResolver, citation_key
from nyaya.judgments.sources import JudgmentRecord, read_sc_metadata
from nyaya.parallel import map_in_processes
from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.model import Quarantined
from nyaya.statutes.registry import alias_index_from_rows
from nyaya.tables import from_records_frame, records, records_frame


def _keys(raws: list[str]) -> tuple[list[str], list[str]]:
    """Canonical keys of raw citation strings, and the raws that could not be read."""
    keys, unread = [], []
    for raw in raws:
        key = citation_key(raw)
        if key is None:
            unread.append(raw)
        elif key not in keys:
            keys.append(key)
    return keys, unread


CASE_CITATION_COLUMNS = ["doc_id", *(f.name for f in dataclasses.fields(CaseCitation)),
                         "relation"]


def judgment_part(records: list[JudgmentRecord], quarantined: list[Quarantined],
                  token_budget: int = DEFAULT_TOKEN_BUDGET) -> dict[str, pd.DataFrame]:
    """One partition's tables (`judgments`, `quarantine`, `chunks`, `case_citations`): the
    work that needs one judgment at a time, chunks and case citations (with the relation
    words around them), so a partition of unchanged judgments is not redone."""
    cases = [{"doc_id": record.doc_id, **dataclasses.asdict(c),
              "relation": (relation_near(record.text, c.start, c.end)
                           if c.kind != "masked" else None)}
             for record in records for c in extract_case_citations(record.text)]
    return {
        "judgments": records_frame(records, JudgmentRecord),
        "quarantine": records_frame(quarantined, Quarantined),
        "chunks": records_frame([chunk for record in records for chunk in
                                        chunk_judgment(record.doc_id, record.text,
                                                       token_budget)], Chunk),
        "case_citations": pd.DataFrame(cases, columns=CASE_CITATION_COLUMNS),
    }


def judgment_parts(batches: Mapping[str, tuple[list[JudgmentRecord], list[Quarantined]]],
                   token_budget: int = DEFAULT_TOKEN_BUDGET, workers: int | None = None
                   ) -> dict[str, dict[str, pd.DataFrame]]:
    """`judgment_part` of each partition's (records, quarantined), the partitions spread over
    worker processes (nyaya.parallel), the largest first so the workers end together."""
    largest_first = sorted(batches, key=lambda key: -len(batches[key][0]))
    parts = map_in_processes(_part_of, [(*batches[key], token_budget) for key in largest_first],
                             workers=workers)
    made = dict(zip(largest_first, parts, strict=True))
    return {key: made[key] for key in batches}


def _part_of(batch: tuple[list[JudgmentRecord], list[Quarantined], int],
             _log: Callable[[str], None]) -> dict[str, pd.DataFrame]:
    return judgment_part(*batch)


def judgment_tables(corpus_root: Path, parsed_judgments: pd.DataFrame,
                    parsed_quarantine: pd.DataFrame
                    ) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """(judgments, sc_case_registry, judgment_quarantine): the parts' judgments linked across
    sources into cases and to the SC registry, which is read here (its duplicate records span
    years, so it is not split)."""
    records = sorted(from_records_frame(parsed_judgments, JudgmentRecord),
                     key=lambda r: r.doc_id)
    quarantined = sorted(from_records_frame(parsed_quarantine, Quarantined),
                         key=lambda q: (q.source_file, q.source_line or 0))
    sc_records, sc_quarantined = read_sc_metadata(corpus_root)
    rows = []
    for record in records:
        row = asdict(record)
        row["citation_keys"], unread = _keys(record.header_citations)
        row["parse_notes"] = [*record.parse_notes,
                              *(f"header citation not understood: {raw}" for raw in unread)]
        rows.append(row)
    case_ids = link_same_cases(rows)
    members: dict[str, list[str]] = defaultdict(list)
    for doc_id, case_id in case_ids.items():
        members[case_id].append(doc_id)

    registry_rows = []
    for rec in sc_records:
        row = asdict(rec)
        row["citation_keys"], _ = _keys([c for c in (rec.neutral_citation, rec.scr_citation)
                                         if c])
        registry_rows.append(row)
    by_key: dict[str, list[str]] = defaultdict(list)
    by_date: dict[str, list[dict]] = defaultdict(list)
    records = {row["record_id"]: row for row in registry_rows}
    for row in registry_rows:
        for key in row["citation_keys"]:
            by_key[key].append(row["record_id"])
        if row["decision_date"]:
            by_date[row["decision_date"]].append(row)

    record_docs: dict[str, list[str]] = defaultdict(list)
    for row in rows:
        row["case_id"] = case_ids[row["doc_id"]]
        row["same_case_as"] = sorted(d for d in members[row["case_id"]] if d != row["doc_id"])
        row["sc_record_id"], row["sc_match"] = match_registry(row, by_key, by_date,
                                                              records)
        if row["sc_record_id"]:
            record_docs[row["sc_record_id"]].append(row["doc_id"])
        row["text_chars"] = len(row["text"])
    for row in registry_rows:
        docs = sorted(record_docs.get(row["record_id"], []))
        row["judgment_doc_ids"] = docs
        row["case_id"] = case_ids[docs[0]] if docs else None

    judgments = pd.DataFrame(rows).sort_values("doc_id").reset_index(drop=True)
    registry = pd.DataFrame(registry_rows).sort_values("record_id").reset_index(drop=True)
    quarantine = pd.DataFrame([q.to_row() for q in [*quarantined, *sc_quarantined]],
                              columns=["source_file", "source_line", "act_code",
                                       "section_number", "reason", "detail", "excerpt"])
    quarantine = quarantine.drop(columns=["act_code", "section_number"])
    return judgments, registry, quarantine.sort_values(["source_file", "source_line"],
                                                       na_position="first")


def chunk_table(parsed_chunks: pd.DataFrame) -> pd.DataFrame:
    """The parts' chunks in judgment order."""
    return parsed_chunks.sort_values(["doc_id", "ordinal"], kind="mergesort").reset_index(
        drop=True)


class _ChunkLocator:
    """Which chunk of a judgment holds a character offset (chunks are sorted, gap-free)."""

    def __init__(self, chunks: pd.DataFrame) -> None:
        self.starts: dict[str, list[int]] = defaultdict(list)
        self.ids: dict[str, list[str]] = defaultdict(list)
        for doc_id, start, chunk_id in zip(chunks["doc_id"], chunks["start"],
                                           chunks["chunk_id"], strict=True):
            self.starts[doc_id].append(start)
            self.ids[doc_id].append(chunk_id)

    def chunk_at(self, doc_id: str, offset: int) -> str | None:
        starts = self.starts.get(doc_id)
        if not starts:
            return None
        i = bisect.bisect_right(starts, offset) - 1
        return self.ids[doc_id][max(i, 0)]


def mention_table(judgments: pd.DataFrame, chunks: pd.DataFrame, act_registry: pd.DataFrame,
                  sections: pd.DataFrame, sc_registry: pd.DataFrame,
                  case_citations: pd.DataFrame) -> pd.DataFrame:
    """Every statute mention and case citation in judgment text, resolved where possible.
    Statute mentions are found here (they need the act registry's aliases); case citations
    arrive already found by the parts and are resolved against every judgment and the SC
    registry."""
    aliases = alias_index_from_rows(act_registry.to_dict("records"))
    act_years = dict(zip(act_registry["act_code"], act_registry["year"], strict=True))
    known_sections = set(zip(sections["act_code"], sections["section_key"], strict=True))
    resolver = CaseResolver(records(judgments), records(sc_registry))
    locate = _ChunkLocator(chunks)
    rows: list[dict] = []
    case_of = dict(zip(judgments["doc_id"], judgments["case_id"], strict=True))
    for doc in records(judgments[["doc_id", "case_id", "year", "text"]]):
        for m in extract_statute_mentions(doc["text"], aliases):
            rows.append(_statute_row(doc, m, act_years, known_sections,
                                     locate.chunk_at(doc["doc_id"], m.start)))
    found = case_citations.drop(columns=["doc_id", "relation"])
    for doc_id, relation, c in zip(case_citations["doc_id"], case_citations["relation"],
                                   from_records_frame(found, CaseCitation), strict=True):
        res = resolver.resolve(c)
        self_cite = res.status == RESOLVED and res.case_ids == (case_of[doc_id],)
        rows.append({
            "mention_id": f"{doc_id}@{c.start}-{c.end}:case",
            "doc_id": doc_id, "chunk_id": locate.chunk_at(doc_id, c.start),
            "mention_type": "case", "kind": c.kind, "start": c.start, "end": c.end,
            "group_start": c.start, "group_end": c.end, "text": c.text,
            "reporter": c.reporter, "citation_key": c.key, "case_name": c.case_name,
            "resolution": "self_citation" if self_cite else res.status,
            "resolved_case_ids": list(res.case_ids),
            "resolved_registry_ids": list(res.registry_ids),
            "relation": None if pd.isna(relation) else relation,
            "reason": res.reason,
        })
    frame = pd.DataFrame(rows, columns=MENTION_COLUMNS)
    return frame.sort_values(["doc_id", "start", "mention_type", "end"]).reset_index(drop=True)


MENTION_COLUMNS = ["mention_id", "doc_id", "chunk_id", "mention_type", "kind", "start", "end",
                   "group_start", "group_end", "text", "act_code", "section", "unit",
                   "act_text", "section_in_corpus", "reporter", "citation_key", "case_name",
                   "resolution", "resolved_case_ids", "resolved_registry_ids", "relation",
                   "reason"]


def _statute_row(doc: dict, m: StatuteMention, act_years: dict[str, int | None],
                 known_sections: set[tuple[str, str]], chunk_id: str | None) -> dict:
    act_code, resolution, reason = resolve_in_time(m.act_code, m.resolution, m.problem,
                                                   act_years, doc["year"])
    section = m.section
    in_corpus = None
    if act_code and section and m.kind != "order_rule":
        in_corpus = (act_code, normalize_section_number(section)) in known_sections
        if not in_corpus and reason is None:
            reason = f"{act_code} has no {m.kind} {section} in the corpus"
    return {
        "mention_id": f"{doc['doc_id']}@{m.start}-{m.end}:statute",
        "doc_id": doc["doc_id"], "chunk_id": chunk_id, "mention_type": "statute",
        "kind": m.kind, "start": m.start, "end": m.end, "group_start": m.group_start,
        "group_end": m.group_end, "text": m.text, "act_code": act_code, "section": section,
        "unit": m.unit, "act_text": m.act_text, "section_in_corpus": in_corpus,
        "resolution": resolution, "resolved_case_ids": [], "resolved_registry_ids": [],
        "reason": reason,
    }


def resolve_in_time(act_code: str | None, resolution: str, reason: str | None,
                    act_years: dict[str, int | None],
                    year: int | None) -> tuple[str | None, str, str | None]:
    """Undo a resolution to an Act younger than the judgment that cites it.

    "The Code" in a 1960 judgment is the CrPC of 1898, not of 1973: say so, don't guess.
    """
    act_year = act_years.get(act_code or "")
    if act_code and act_year and year and not pd.isna(act_year) and not pd.isna(year) \
            and act_year > year:
        return None, "unresolved", (
            f"resolved to {act_code} ({int(act_year)}), which postdates the judgment "
            f"({int(year)}): an earlier Act of that name is meant")
    return act_code, resolution, reason


def entity_index_table(mentions: pd.DataFrame) -> pd.DataFrame:
    """Article / Section / Act -> judgments and chunks, one row per entity."""
    statutes = mentions[(mentions["mention_type"] == "statute") & mentions["act_code"].notna()]
    provisions = statutes[statutes["section"].notna()]
    keyed = pd.concat([
        provisions.assign(entity_id=provisions["act_code"] + ":" + provisions["section"],
                          entity_type=provisions["kind"]),
        statutes.assign(entity_id=statutes["act_code"], entity_type="act", section=None),
    ])
    rows = [{"entity_id": entity_id, "entity_type": entity_type,
             "act_code": group["act_code"].iloc[0], "section": group["section"].iloc[0],
             "doc_ids": sorted(set(group["doc_id"])),
             "chunk_ids": sorted(set(group["chunk_id"].dropna())),
             "mention_count": len(group)}
            for (entity_id, entity_type), group in keyed.groupby(["entity_id", "entity_type"],
                                                                  sort=True)]
    return pd.DataFrame(rows).sort_values("entity_id").reset_index(drop=True)


def graph_tables(judgments: pd.DataFrame, mentions: pd.DataFrame,
                 sc_registry: pd.DataFrame) -> tuple[pd.DataFrame, pd.DataFrame, dict]:
    """(nodes, edges, stats): cases as nodes with PageRank, citations and citator as edges."""
    edges: Counter = Counter()
    case_of = dict(zip(judgments["doc_id"], judgments["case_id"], strict=True))
    registry_nodes: set[str] = set()
    cases = mentions[(mentions["mention_type"] == "case")
                     & mentions["resolution"].isin([RESOLVED, REGISTRY_ONLY])]
    for doc_id, status, case_ids, record_ids, relation in zip(
            cases["doc_id"], cases["resolution"], cases["resolved_case_ids"],
            cases["resolved_registry_ids"], cases["relation"], strict=True):
        target = case_ids[0] if status == RESOLVED else record_ids[0]
        if status == REGISTRY_ONLY:
            registry_nodes.add(target)
        edges[(case_of[doc_id], target, "case", relation, "text")] += 1
    statutes = mentions[(mentions["mention_type"] == "statute")
                        & (mentions["section_in_corpus"] == True)]  # noqa: E712 (nullable)
    for doc_id, act_code, section in zip(statutes["doc_id"], statutes["act_code"],
                                         statutes["section"], strict=True):
        target = f"{act_code}:{normalize_section_number(section)}"
        edges[(case_of[doc_id], target, "section", CITES, "text")] += 1
    citator_total = citator_resolved = 0
    key_cases = defaultdict(set)
    for case_id, keys in zip(judgments["case_id"], judgments["citation_keys"], strict=True):
        for key in keys:
            key_cases[key].add(case_id)
    for case_id, entries in zip(judgments["case_id"], judgments["citator"], strict=True):
        for entry in entries:
            citator_total += 1
            citing = key_cases.get(citation_key(entry["citation"]) or "", set())
            if len(citing) == 1 and (source := next(iter(citing))) != case_id:
                citator_resolved += 1
                relation = CITATOR_RELATIONS.get(entry["relation"], CITES)
                edges[(source, case_id, "case", relation, "citator")] += 1
    edge_rows = [{"source_id": s, "target_id": t, "target_type": tt, "relation": r,
                  "origin": o, "mention_count": n}
                 for (s, t, tt, r, o), n in sorted(edges.items()) if s != t]
    edge_frame = pd.DataFrame(edge_rows, columns=["source_id", "target_id", "target_type",
                                                  "relation", "origin", "mention_count"])
    node_rows = []
    for case_id, group in judgments.groupby("case_id", sort=True):
        first = group.iloc[0]
        node_rows.append({"node_id": case_id, "node_type": "judgment",
                          "doc_ids": sorted(group["doc_id"]), "sc_record_id": next(
                              (r for r in group["sc_record_id"] if pd.notna(r)), None),
                          "case_name": next((n for n in group["case_name"] if pd.notna(n)), None),
                          "decision_date": first["decision_date"]})
    titles = sc_registry.set_index("record_id")
    for record_id in sorted(registry_nodes):
        node_rows.append({"node_id": record_id, "node_type": "registry_case", "doc_ids": [],
                          "sc_record_id": record_id,
                          "case_name": titles.at[record_id, "title"],
                          "decision_date": titles.at[record_id, "decision_date"]})
    nodes = pd.DataFrame(node_rows)
    ranks = pagerank(nodes["node_id"].tolist(), edge_frame)
    nodes["pagerank"] = nodes["node_id"].map(ranks)
    overruled = set(edge_frame.loc[edge_frame["relation"] == "overrules", "target_id"])
    nodes["overruled"] = nodes["node_id"].isin(overruled)
    stats = {"citator_entries": citator_total, "citator_entries_resolved": citator_resolved}
    return nodes, edge_frame, stats


def domain_table(judgments: pd.DataFrame, chunks: pd.DataFrame, mentions: pd.DataFrame,
                 sections: pd.DataFrame, act_registry: pd.DataFrame) -> pd.DataFrame:
    """A legal_domain for every section, every judgment and every judgment chunk."""
    curated = dict(zip(act_registry["act_code"], act_registry["curated"], strict=True))
    act_domains = dict(zip(act_registry["act_code"], act_registry["legal_domain"], strict=True))
    tagger = DomainTagger(act_domains)
    rows = []
    for doc_id, act_code, domain, text in zip(sections["doc_id"], sections["act_code"],
                                              sections["legal_domain"], sections["text"],
                                              strict=True):
        if domain != "general":
            method = "act_mapping" if curated[act_code] else "act_title_lexicon"
            rows.append(_tag_row("section", doc_id, doc_id, DomainDecision(
                domain, method, 0.95 if curated[act_code] else 0.75, 0.0, None)))
            continue
        own = tagger.decide(Counter(), tagger.phrase_scores(p for _, p in
                                                             tagger.phrase_hits(text)))
        rows.append(_tag_row("section", doc_id, doc_id, own if own.domain else DomainDecision(
            "general", "act_mapping", 0.5, own.evidence, None)))

    statutes = mentions[mentions["mention_type"] == "statute"]
    cited_by_doc: dict[str, list[tuple[int, CitedProvision]]] = defaultdict(list)
    for row in records(statutes[["doc_id", "start", "act_code", "section", "kind", "act_text"]]):
        cited_by_doc[row["doc_id"]].append((row["start"], CitedProvision(
            row["act_code"], row["section"], row["kind"], row["act_text"])))
    for cited in cited_by_doc.values():
        cited.sort(key=lambda item: item[0])
    chunks_by_doc = {doc_id: group for doc_id, group in chunks.groupby("doc_id", sort=False)}
    for doc_id, text in zip(judgments["doc_id"], judgments["text"], strict=True):
        cited = cited_by_doc.get(doc_id, [])
        hits = tagger.phrase_hits(text)
        judgment = tagger.decide(tagger.statute_scores(c for _, c in cited),
                                 tagger.phrase_scores(p for _, p in hits))
        rows.append(_tag_row("judgment", doc_id, doc_id, judgment))
        doc_chunks = chunks_by_doc.get(doc_id)
        if doc_chunks is None:
            continue
        cited_at = [s for s, _ in cited]
        hits_at = [s for s, _ in hits]
        for chunk_id, start, end in zip(doc_chunks["chunk_id"], doc_chunks["start"],
                                        doc_chunks["end"], strict=True):
            statute = tagger.statute_scores(
                c for _, c in cited[bisect.bisect_left(cited_at, start):
                                    bisect.bisect_left(cited_at, end)])
            phrases = tagger.phrase_scores(
                p for _, p in hits[bisect.bisect_left(hits_at, start):
                                   bisect.bisect_left(hits_at, end)])
            rows.append(_tag_row("chunk", chunk_id, doc_id,
                                 tagger.tag_chunk(statute, phrases, judgment)))
    return pd.DataFrame(rows)


def _tag_row(unit_type: str, unit_id: str, doc_id: str, decision: DomainDecision) -> dict:
    return {"unit_type": unit_type, "unit_id": unit_id, "doc_id": doc_id,
            "legal_domain": decision.domain, "method": decision.method,
            "confidence": decision.confidence, "evidence": decision.evidence,
            "runner_up": decision.runner_up}


class EntityIndex:
    """Constant-time lookups over the `entity_index` table: 'IPC_1860:302', 'COI:21', 'CPC_1908'."""

    def __init__(self, frame: pd.DataFrame) -> None:
        self._rows = {row["entity_id"]: row for row in records(frame)}

    def judgments(self, entity_id: str) -> list[str]:
        row = self._rows.get(entity_id)
        return list(row["doc_ids"]) if row else []

    def chunks(self, entity_id: str) -> list[str]:
        row = self._rows.get(entity_id)
        return list(row["chunk_ids"]) if row else []
