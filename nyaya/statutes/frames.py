"""Turn parsed records into the pipeline's tables (pandas frames in a stable order)."""

from __future__ import annotations

import re

import pandas as pd

from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.model import IN_FORCE, Quarantined, SectionRecord
from nyaya.statutes.registry import ActEntry, AliasIndex
from nyaya.statutes.structure import (
    extract_definitions,
    find_cross_references,
    is_definition_section,
    split_units,
)
from nyaya.statutes.transitions import MAPPING_TABLES, TRANSITION_COLUMNS, resolution_problems

REVIEW_CONFIDENCE = 0.7
QUARANTINE_COLUMNS = ("source_file", "source_line", "act_code", "section_number", "reason",
                      "detail", "excerpt")


def section_sort_key(number: str) -> tuple[int, str]:
    """Numeric order for section numbers: 2 < 10 < 10A < 11; 'Preamble' first."""
    match = re.match(r"(\d+)(.*)", number)
    return (int(match[1]), match[2].upper()) if match else (-1, number)


def _in_section_order(frame: pd.DataFrame) -> pd.DataFrame:
    keys = frame["section_number"].map(section_sort_key)
    frame = frame.assign(_n=keys.map(lambda k: k[0]), _s=keys.map(lambda k: k[1]))
    return frame.sort_values(["act_code", "_n", "_s"], kind="mergesort").drop(
        columns=["_n", "_s"]).reset_index(drop=True)


def registry_frame(entries: list[ActEntry]) -> pd.DataFrame:
    frame = pd.DataFrame([entry.to_row() for entry in entries])
    return frame.sort_values("act_code", kind="mergesort").reset_index(drop=True)


def sections_frame(sections: list[SectionRecord], registry: pd.DataFrame) -> pd.DataFrame:
    frame = pd.DataFrame([record.to_row() for record in sections])
    frame.insert(2, "section_key", frame["section_number"].map(normalize_section_number))
    era = dict(zip(registry["act_code"], registry["era"], strict=True))
    domain = dict(zip(registry["act_code"], registry["legal_domain"], strict=True))
    frame["era"] = frame["act_code"].map(era)
    frame["legal_domain"] = frame["act_code"].map(domain)
    frame["doc_id"] = frame["act_code"] + ":" + frame["section_number"]
    return _in_section_order(frame)


def quarantine_frame(records: list[Quarantined]) -> pd.DataFrame:
    frame = pd.DataFrame([r.to_row() for r in records], columns=list(QUARANTINE_COLUMNS))
    frame["source_line"] = frame["source_line"].astype("Int64")
    return frame.sort_values(["source_file", "source_line", "reason"], kind="mergesort",
                             na_position="first").reset_index(drop=True)


def _sections(frame: pd.DataFrame) -> list[dict]:
    return frame[["act_code", "section_number", "title", "text"]].to_dict("records")


def sub_sections_frame(sections: pd.DataFrame) -> pd.DataFrame:
    rows = [unit for s in _sections(sections)
            for unit in split_units(s["act_code"], s["section_number"], s["text"])]
    columns = ["act_code", "section_number", "unit_key", "unit_kind", "parent_key", "ordinal",
               "text"]
    return pd.DataFrame(rows, columns=columns)


def cross_references_frame(sections: pd.DataFrame, aliases: AliasIndex) -> pd.DataFrame:
    rows = [ref for s in _sections(sections)
            for ref in find_cross_references(s["act_code"], s["section_number"], s["text"],
                                             aliases.resolve)]
    columns = ["source_act_code", "source_section", "target_act_code", "target_section",
               "target_unit", "reference_type", "span_start", "span_end", "context"]
    frame = pd.DataFrame(rows, columns=columns)
    known = set(zip(sections["act_code"], sections["section_key"], strict=True))
    frame["target_exists"] = [
        (act, normalize_section_number(sec or "")) in known
        for act, sec in zip(frame["target_act_code"], frame["target_section"], strict=True)
    ]
    return frame


def definitions_frame(sections: pd.DataFrame) -> pd.DataFrame:
    rows = [d for s in _sections(sections) if is_definition_section(s["title"])
            for d in extract_definitions(s["act_code"], s["section_number"], s["text"])]
    columns = ["act_code", "section_number", "unit_key", "term", "definition_kind",
               "definition_text"]
    frame = pd.DataFrame(rows, columns=columns)
    return frame.sort_values(["act_code", "term", "unit_key"], kind="mergesort").reset_index(
        drop=True)


def transition_frame(rows: list[dict], sections: pd.DataFrame) -> pd.DataFrame:
    known = set(zip(sections["act_code"], sections["section_key"], strict=True))
    frame = pd.DataFrame(rows, columns=list(TRANSITION_COLUMNS))
    problems = [resolution_problems(row, known) for row in rows]
    frame["resolves"] = [not p for p in problems]
    frame["resolution_problem"] = ["; ".join(p) or None for p in problems]
    return frame


def review_queue_frame(sections: pd.DataFrame, quarantine: pd.DataFrame,
                       transitions: pd.DataFrame,
                       judgment_quarantine: pd.DataFrame | None = None) -> pd.DataFrame:
    """Everything a person should look at, one row each, with the reason: statute and
    judgment input that was quarantined included."""
    where = ["act_code", "section_number", "source_file", "source_line"]
    low = sections[sections["extraction_confidence"] < REVIEW_CONFIDENCE]
    empty = sections[(sections["status"] == IN_FORCE) & (sections["text"].str.strip() == "")]
    mappings = transitions.assign(
        act_code=transitions["old_act_code"], section_number=transitions["old_section"],
        source_file=[MAPPING_TABLES[table][0] for table in transitions["source_table"]])
    unresolved = mappings[~mappings["resolves"]]
    disagreeing = mappings[mappings["disagreement"]]
    frame = pd.concat([
        low[where].assign(issue="low_extraction_confidence", detail=[
            f"confidence {c:.2f} < {REVIEW_CONFIDENCE}" for c in low["extraction_confidence"]]),
        empty[where].assign(issue="empty_text", detail="in-force section with no text"),
        *(frame.reindex(columns=where).assign(issue="quarantined:" + frame["reason"],
                                              detail=frame["detail"])
          for frame in (quarantine, judgment_quarantine) if frame is not None and len(frame)),
        unresolved[where].assign(issue="mapping_unresolved",
                                 detail=unresolved["resolution_problem"]),
        disagreeing[where].assign(issue="mapping_disagreement",
                                  detail=disagreeing["disagreement_detail"]),
    ], ignore_index=True)
    frame["source_line"] = frame["source_line"].astype("Int64")
    return frame.sort_values(["issue", "source_file", "source_line"], kind="mergesort",
                             na_position="first").reset_index(drop=True)
