"""The four search collections and the document table each is built from.

A document table has one row per point: `doc_id`, `point_id` (stable integer from the doc
id), `text` (what is embedded and indexed), `content_hash` (text and payload together, so
a payload change is re-synced too) and the payload columns. The statute and
judgment tables add `partition` (the row's statute source or judgment year), which the
vectors are built and kept by. The vector store and the FAISS indexes are built from these
tables and checked against their row counts.
"""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass

import pandas as pd

from nyaya.index.store import CollectionSpec, point_id
from nyaya.judgments.sources import judgment_partition
from nyaya.statutes.ingest import source_key
from nyaya.tables import records

#: the column naming each row's partition: its statute source, or its judgments' year
PARTITION = "partition"
OFFENCE = re.compile(r"shall\s+be\s+punish(?:ed|able)|\bpunishable\s+with\b", re.IGNORECASE)


@dataclass(frozen=True)
class CollectionDef:
    name: str
    keyword_fields: tuple[str, ...]
    integer_fields: tuple[str, ...] = ()
    float_fields: tuple[str, ...] = ()
    payload_links: bool = False

    def spec(self, dim: int) -> CollectionSpec:
        return CollectionSpec(self.name, dim, keyword_fields=self.keyword_fields,
                              integer_fields=self.integer_fields, float_fields=self.float_fields,
                              payload_links=self.payload_links)


LEGAL_SECTIONS = CollectionDef(
    "legal_sections",
    ("doc_id", "act_code", "section_number", "era", "status", "legal_domain", "applicable_from"),
    ("year",), ("extraction_confidence",),
    # every statute search filters (in force, era): without these links a server's HNSW graph
    # lost recall (dense-qdrant MAP 0.074 to 0.061 on nyaya-statutes); the embedded store has
    # no graph
    payload_links=True)
LEGAL_SUB_SECTIONS = CollectionDef(
    "legal_sub_sections",
    ("doc_id", "section_doc_id", "act_code", "section_number", "unit_key", "era", "status",
     "legal_domain"), ("year",))
SC_JUDGMENTS = CollectionDef(
    "sc_judgments", ("doc_id", "judgment_id", "source", "legal_domain"), ("year",))
LAW_TRANSITION_CONTEXT = CollectionDef(
    "law_transition_context",
    ("doc_id", "old_act_code", "old_section", "new_act_code", "new_section", "relation"))
COLLECTIONS = (LEGAL_SECTIONS, LEGAL_SUB_SECTIONS, SC_JUDGMENTS, LAW_TRANSITION_CONTEXT)


def finish(frame: pd.DataFrame) -> pd.DataFrame:
    """Add point ids and content hashes; sort by doc id; refuse duplicate ids."""
    duplicated = frame["doc_id"][frame["doc_id"].duplicated()].tolist()
    if duplicated:
        raise ValueError(f"duplicate document ids: {duplicated[:5]}")
    frame = frame.sort_values("doc_id", kind="stable").reset_index(drop=True)
    payload_columns = [c for c in frame.columns if c != "text"]
    hashes = []
    for row in records(frame[["text", *payload_columns]]):
        blob = json.dumps(row, sort_keys=True, default=str, ensure_ascii=False)
        hashes.append(hashlib.sha256(blob.encode("utf-8")).hexdigest()[:16])
    frame.insert(1, "point_id", [point_id(doc) for doc in frame["doc_id"]])
    frame.insert(2, "content_hash", hashes)
    return frame


def act_fields(registry: pd.DataFrame) -> pd.DataFrame:
    """The Act's year and applicability, and its source as the partition of its rows."""
    acts = registry[["act_code", "year", "applicable_from"]].copy()
    acts["year"] = acts["year"].astype("Int64")
    acts[PARTITION] = registry["source_path"].map(source_key)
    return acts


def section_documents(sections: pd.DataFrame, registry: pd.DataFrame) -> pd.DataFrame:
    """One point per section: heading and text; `is_offence` where the text prescribes a
    punishment."""
    frame = sections.merge(act_fields(registry), on="act_code", how="left", validate="m:1")
    text = frame["title"].fillna("") + ". " + frame["text"].fillna("")
    return finish(pd.DataFrame({
        "doc_id": frame["doc_id"], "text": text, "act_code": frame["act_code"],
        "section_number": frame["section_number"], "title": frame["title"].fillna(""),
        "status": frame["status"], "era": frame["era"], "legal_domain": frame["legal_domain"],
        "applicable_from": frame["applicable_from"], "year": frame["year"],
        "extraction_confidence": frame["extraction_confidence"].astype(float),
        "is_offence": frame["text"].fillna("").str.contains(OFFENCE),
        PARTITION: frame[PARTITION],
    }))


def sub_section_documents(sub_sections: pd.DataFrame, sections: pd.DataFrame,
                          registry: pd.DataFrame) -> pd.DataFrame:
    """One point per sub-section, clause or proviso, prefixed by its section's heading."""
    parents = sections[["act_code", "section_number", "doc_id", "title", "status", "era",
                        "legal_domain"]].rename(columns={"doc_id": "section_doc_id"})
    frame = sub_sections.merge(parents, on=["act_code", "section_number"], how="left",
                               validate="m:1")
    orphans = frame[frame["section_doc_id"].isna()]
    if len(orphans):
        first = orphans.iloc[0]
        raise ValueError(f"{len(orphans)} sub-sections have no section, e.g. "
                         f"{first['act_code']} {first['unit_key']}")
    frame = frame.merge(act_fields(registry), on="act_code", how="left", validate="m:1")
    return finish(pd.DataFrame({
        "doc_id": frame["section_doc_id"] + "/" + frame["unit_key"],
        "text": frame["title"].fillna("") + ". " + frame["text"].fillna(""),
        "section_doc_id": frame["section_doc_id"], "act_code": frame["act_code"],
        "section_number": frame["section_number"], "unit_key": frame["unit_key"],
        "unit_kind": frame["unit_kind"], "status": frame["status"], "era": frame["era"],
        "legal_domain": frame["legal_domain"], "year": frame["year"],
        PARTITION: frame[PARTITION],
    }))


def chunk_documents(chunks: pd.DataFrame, judgments: pd.DataFrame,
                    domain_tags: pd.DataFrame) -> pd.DataFrame:
    """One point per judgment chunk, with its judgment's year, source and the chunk's domain."""
    meta = judgments[["doc_id", "source", "case_name", "year"]].rename(
        columns={"doc_id": "judgment_id"})
    domains = domain_tags[domain_tags["unit_type"] == "chunk"][["unit_id", "legal_domain"]]
    frame = (chunks.rename(columns={"doc_id": "judgment_id", "chunk_id": "doc_id"})
             .merge(meta, on="judgment_id", how="left", validate="m:1")
             .merge(domains.rename(columns={"unit_id": "doc_id"}), on="doc_id", how="left",
                    validate="1:1"))
    return finish(pd.DataFrame({
        "doc_id": frame["doc_id"], "text": frame["text"], "judgment_id": frame["judgment_id"],
        "ordinal": frame["ordinal"].astype(int), "source": frame["source"],
        "case_name": frame["case_name"].fillna(""), "year": frame["year"].astype("Int64"),
        "legal_domain": frame["legal_domain"].fillna("unknown"),
        PARTITION: [judgment_partition(source, None if pd.isna(year) else int(year))
                    for source, year in zip(frame["source"], frame["year"], strict=True)],
    }))


def transition_documents(transitions: pd.DataFrame, sections: pd.DataFrame) -> pd.DataFrame:
    """One point per old->new code mapping row, worded so an old-code query finds it."""
    titles = sections.set_index("doc_id")["title"].to_dict()
    rows = []
    for row in records(transitions):
        old = f"{row['old_act_code']}:{row['old_section']}"
        new = f"{row['new_act_code']}:{row['new_section']}" if row["new_section"] else None
        unit = f"({row['new_unit']})" if row["new_unit"] else ""
        text = (f"{row['old_act_code']} section {row['old_section']} "
                f"({titles.get(old, 'untitled')}) -> "
                + (f"{row['new_act_code']} section {row['new_section']}{unit} "
                   f"({titles.get(new, 'untitled')})" if new else "no successor")
                + f"; relation: {row['relation']}" + (f"; {row['note']}" if row["note"] else ""))
        rows.append({
            "doc_id": f"{old}->{new or 'none'}{unit}@{row['source_table']}:{row['source_line']}",
            "text": text, "old_act_code": row["old_act_code"], "old_section": row["old_section"],
            "new_act_code": row["new_act_code"] or "", "new_section": row["new_section"] or "",
            "new_unit": row["new_unit"] or "", "relation": row["relation"],
            "source_table": row["source_table"],
        })
    return finish(pd.DataFrame(rows))
