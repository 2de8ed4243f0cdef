"""Validations behind the statute asset checks: each returns (passed, summary, details)."""

from __future__ import annotations

from pathlib import Path

import pandas as pd

from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.model import IN_FORCE

# Section counts of the Acts as enacted. BNS 358, BNSS 531, BSA 170: the Acts as published
# in the Gazette of India (Acts 45, 46 and 47 of 2023). IPC: 511 numbered sections plus
# lettered ones; the corpus copy holds 585 (171I missing). CrPC: 484 numbered sections plus
# lettered ones; the corpus copy holds 525 (ss.105 and 265 missing). IEA: 167 numbered
# sections plus lettered ones (184 in the corpus). Constitution: 395 articles as adopted,
# about 470 with inserted ones (465 in the corpus, Art. 320 missing).
OFFICIAL_COUNTS: dict[str, tuple[str, int]] = {
    "BNS_2023": ("==", 358),
    "BNSS_2023": ("==", 531),
    "BSA_2023": ("==", 170),
    "IPC_1860": (">=", 575),
    "CrPC_1973": (">=", 520),
    "IEA_1872": (">=", 167),
    "COI": (">=", 460),
}

Result = tuple[bool, str, dict]


def official_counts(sections: pd.DataFrame) -> Result:
    counts = sections["act_code"].value_counts()
    details, failed = {}, []
    for act, (op, expected) in OFFICIAL_COUNTS.items():
        got = int(counts.get(act, 0))
        ok = got == expected if op == "==" else got >= expected
        details[act] = f"{got} (expected {op} {expected})"
        if not ok:
            failed.append(act)
    summary = "all official counts met" if not failed else f"wrong counts: {', '.join(failed)}"
    return not failed, summary, details


def unique_sections(sections: pd.DataFrame) -> Result:
    dup = sections[sections.duplicated(["act_code", "section_key"], keep=False)]
    keys = sorted(set(zip(dup["act_code"], dup["section_number"], strict=True)))[:20]
    return dup.empty, f"{len(dup)} rows share an (act_code, section_number)", {
        "examples": ", ".join(f"{a} s.{s}" for a, s in keys)}


def in_force_have_text(sections: pd.DataFrame) -> Result:
    empty = sections[(sections["status"] == IN_FORCE) & (sections["text"].str.strip() == "")]
    return empty.empty, f"{len(empty)} in-force sections have no text", {
        "examples": ", ".join(empty["doc_id"].head(20))}


def registry_covers_corpus(registry: pd.DataFrame, corpus_root: Path) -> Result:
    folders = {f"statutes/indiacode/{p.name}" for p in (corpus_root / "statutes/indiacode")
               .iterdir() if p.is_dir()}
    missing = sorted(folders - set(registry["source_path"]))
    dup_codes = sorted(registry.loc[registry["act_code"].duplicated(), "act_code"])
    ok = not missing and not dup_codes
    summary = f"{len(missing)} corpus folders without an entry; {len(dup_codes)} duplicate codes"
    return ok, summary, {
        "folders": len(folders), "missing": ", ".join(missing[:20]),
        "duplicate_codes": ", ".join(dup_codes[:20])}


def mappings_resolve(transitions: pd.DataFrame, gaps: dict[tuple[str, str], str]) -> Result:
    """Every row resolves, except rows naming a section listed as absent from the corpus."""
    bad = transitions[~transitions["resolves"]]

    def explained(row) -> bool:
        sides = [(row.old_act_code, row.old_section), (row.new_act_code, row.new_section)]
        missing = [(act, normalize_section_number(sec)) for act, sec in sides
                   if isinstance(sec, str) and f"{act} s.{sec} not in" in row.resolution_problem]
        return bool(missing) and all(side in gaps for side in missing)

    known = [explained(row) for row in bad.itertuples()]
    unexplained = bad[[not k for k in known]]
    summary = (f"{len(unexplained)} of {len(transitions)} mapping rows do not resolve "
               f"({sum(known)} more name sections the corpus is known to lack)")
    return unexplained.empty, summary, {
        "by_table": str(unexplained["source_table"].value_counts().to_dict()),
        "unexplained": "; ".join(unexplained["resolution_problem"].head(10).astype(str)),
        "known_gaps": "; ".join(bad[known]["resolution_problem"].astype(str))}
