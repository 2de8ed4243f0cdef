"""The old-code -> new-code transition map (IPC->BNS, CrPC->BNSS, IEA->BSA).

Rows from every mapping table are kept with their source; where the two IPC->BNS tables
name different BNS sections for one IPC section, both rows are flagged, never resolved
silently.
"""

from __future__ import annotations

import ast
import csv
import io
import json
import re
from collections import defaultdict
from pathlib import Path

from nyaya.statutes.indiacode import normalize_section_number, read_text
from nyaya.statutes.model import CorpusFormatError, Quarantined
from nyaya.statutes.structured import load_list

SECTION_AT_START = re.compile(r"^\s*(\d+[A-Za-z]{0,3})\b\s*(.*)$")
REPEAL_TARGET = re.compile(r"^\s*repealed\b", re.IGNORECASE)
NEW_SOURCE = re.compile(r"^\s*new\s*$", re.IGNORECASE)

MAPPING_TABLES = {
    "ipc_bns_csv": ("mappings/ipc_bns.csv", "IPC_1860", "BNS_2023"),
    "ipc_bns_jsonl": ("mappings/ipc_bns_with_text.jsonl", "IPC_1860", "BNS_2023"),
    "crpc_bnss_json": ("mappings/crpc_bnss.json", "CrPC_1973", "BNSS_2023"),
    "iea_bsa_csv": ("mappings/iea_bsa.csv", "IEA_1872", "BSA_2023"),
}
TRANSITION_COLUMNS = (
    "old_act_code", "old_section", "new_act_code", "new_section", "new_unit", "relation",
    "source_table", "source_line", "note", "disagreement", "disagreement_detail",
)


def split_target(raw: str) -> tuple[str | None, str | None]:
    """'318(4)' -> ('318', '318(4)'); '180 Explanation' -> ('180', '180 Explanation')."""
    match = SECTION_AT_START.match(raw or "")
    if not match:
        return None, None
    section = match.group(1).upper()
    rest = match.group(2).strip()
    return section, f"{section}{'' if rest.startswith('(') else ' '}{rest}" if rest else None


def _row(table: str, line: int, old: str | None, new_raw: str, relation: str, note: str) -> dict:
    _, old_act, new_act = MAPPING_TABLES[table]
    if REPEAL_TARGET.match(new_raw or ""):
        new_section, new_unit, relation = None, None, "repeal"
    else:
        new_section, new_unit = split_target(new_raw)
    return {
        "old_act_code": old_act, "old_section": old.upper() if old else None,
        "new_act_code": new_act if new_section else None, "new_section": new_section,
        "new_unit": new_unit, "relation": relation or None, "source_table": table,
        "source_line": line, "note": note or None, "disagreement": False,
        "disagreement_detail": None,
    }


def _csv_rows(text: str, rel: str, old_col: str, new_col: str) -> list[tuple[int, dict]]:
    lines = text.splitlines()
    body = [(n, line) for n, line in enumerate(lines, start=1) if not line.startswith("#")]
    if not body:
        raise CorpusFormatError(rel, None, "no header row")
    reader = csv.DictReader(io.StringIO("\n".join(line for _, line in body)))
    columns = reader.fieldnames or []
    if old_col not in columns or new_col not in columns:
        raise CorpusFormatError(rel, body[0][0], f"header lacks {old_col!r} and {new_col!r}")
    return [(body[i + 1][0], row) for i, row in enumerate(reader)]


def _object(value: object, rel: str, line: int, what: str) -> dict:
    """A mapping record must be an object: `.get` on anything else fails without the file."""
    if not isinstance(value, dict):
        raise CorpusFormatError(rel, line, f"{what}: expected an object, got "
                                f"{type(value).__name__}")
    return value


def read_mapping(corpus_root: Path, table: str) -> tuple[list[dict], list[Quarantined]]:
    """Rows of one mapping table; rows without an old-side section are quarantined."""
    rel, old_act, _ = MAPPING_TABLES[table]
    raw: list[tuple[int, str | None, str, str, str]] = []
    if table == "crpc_bnss_json":
        # a JSON list has no line per record: the line is the 1-based record index
        for index, item in enumerate(load_list(corpus_root, rel, "mapping records"), start=1):
            record = _object(item, rel, index, f"record {index}")
            raw.append((index, record.get("crpc_section", ""), record.get("bnss_section", ""),
                        "unspecified", record.get("key_changes", "")))
    elif table == "ipc_bns_jsonl":
        for line, payload in enumerate(read_text(corpus_root / rel, rel).splitlines(), start=1):
            if not payload.strip():
                continue
            try:
                literal = ast.literal_eval(json.loads(payload)["response"])
            except (ValueError, SyntaxError, KeyError, TypeError) as err:
                raise CorpusFormatError(rel, line, f"unreadable mapping record: {err}") from err
            response = _object(literal, rel, line, "mapping record's response")
            raw.append((line, response.get("IPC Section", "").strip(),
                        response.get("BNS Section", "").strip(), "unspecified",
                        response.get("BNS Heading", "")))
    else:
        old_col, new_col = ("ipc_section", "bns_section") if table == "ipc_bns_csv" else (
            "iea_section", "bsa_section")
        for line, row in _csv_rows(read_text(corpus_root / rel, rel), rel, old_col, new_col):
            raw.append((line, row[old_col], row[new_col], row.get("relation", ""),
                        row.get("note", "")))
    rows, quarantined = [], []
    for line, old, new, relation, note in raw:
        old = (old or "").strip()
        if NEW_SOURCE.match(old) or not old:
            # A new-code section with no old counterpart ('new'), or BNS 358 repealing IPC.
            rows.append(_row(table, line, None, new, relation or "new", note))
            continue
        # 'Sections 41D / 303' style: one row per old section named.
        olds = [m.group(0) for m in re.finditer(r"\d+[A-Za-z]{0,3}", old)]
        if not olds:
            quarantined.append(Quarantined(rel, line, old_act, old or None, "bad_mapping_row",
                                           f"old-side section {old!r} is not a section number",
                                           f"{old} -> {new}"))
            continue
        for old_section in olds:
            rows.append(_row(table, line, old_section, new, relation, note))
    return rows, quarantined


def flag_ipc_disagreements(rows: list[dict]) -> None:
    """Mark IPC rows whose two source tables name different BNS sections (in place)."""
    targets: dict[str, dict[str, set[str]]] = defaultdict(lambda: defaultdict(set))
    for row in rows:
        if row["old_act_code"] == "IPC_1860" and row["old_section"]:
            targets[row["old_section"]][row["source_table"]].add(row["new_section"] or "repeal")
    for row in rows:
        by_table = targets.get(row["old_section"] or "", {})
        if row["old_act_code"] != "IPC_1860" or len(by_table) < 2:
            continue
        csv_side, jsonl_side = by_table.get("ipc_bns_csv", set()), by_table.get("ipc_bns_jsonl",
                                                                               set())
        if csv_side != jsonl_side:
            row["disagreement"] = True
            row["disagreement_detail"] = (
                f"ipc_bns.csv says {', '.join(sorted(csv_side))}; "
                f"ipc_bns_with_text.jsonl says {', '.join(sorted(jsonl_side))}")


def build_transition_map(corpus_root: Path) -> tuple[list[dict], list[Quarantined]]:
    rows: list[dict] = []
    quarantined: list[Quarantined] = []
    for table in MAPPING_TABLES:
        table_rows, table_bad = read_mapping(corpus_root, table)
        rows.extend(table_rows)
        quarantined.extend(table_bad)
    flag_ipc_disagreements(rows)
    return rows, quarantined


def resolution_problems(row: dict, known: set[tuple[str, str]]) -> list[str]:
    """Why a mapping row does not land on existing sections (empty when it does)."""
    problems = []
    if row["old_section"] and (row["old_act_code"],
                               normalize_section_number(row["old_section"])) not in known:
        problems.append(f"{row['old_act_code']} s.{row['old_section']} not in sections")
    if row["new_section"] and (row["new_act_code"],
                               normalize_section_number(row["new_section"])) not in known:
        problems.append(f"{row['new_act_code']} s.{row['new_section']} not in sections")
    return problems
