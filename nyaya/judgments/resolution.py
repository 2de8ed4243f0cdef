"""Resolving a case citation to the cases we hold: corpus judgments first, then the registry.

A reporter citation resolves by its canonical key: the corpus knows the keys printed in
judgment headers, the Supreme Court registry knows neutral (INSC) and SCR citations. A case
name resolves by its normalized party names. Every outcome carries a reason a person can act
on; an unresolvable citation is reported, never dropped.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass

from nyaya.citations.cases import CaseCitation, case_name_key, parse_case_citation
from nyaya.judgments.identity import SAME_NAME_JACCARD, jaccard, name_tokens

RESOLVED = "resolved"  # one corpus case (and the registry record, when it has one)
REGISTRY_ONLY = "registry_only"  # in the Supreme Court registry, not among corpus judgments
AMBIGUOUS = "ambiguous"
UNRESOLVED = "unresolved"
MASKED = "masked"
REGISTRY_REPORTERS = {"INSC", "SCR"}


@dataclass(frozen=True)
class CaseResolution:
    status: str
    case_ids: tuple[str, ...]
    registry_ids: tuple[str, ...]
    reason: str | None


def citation_key(raw: str) -> str | None:
    parsed = parse_case_citation(raw)
    return parsed.key if parsed else None


class CaseResolver:
    """Look-ups from citation keys and party names to case ids and registry record ids."""

    def __init__(self, judgments: list[dict], registry: list[dict]) -> None:
        self.key_cases: dict[str, set[str]] = defaultdict(set)
        self.name_cases: dict[str, set[str]] = defaultdict(set)
        for row in judgments:
            for key in row["citation_keys"]:
                self.key_cases[key].add(row["case_id"])
            if row["case_name"]:
                self.name_cases[case_name_key(row["case_name"])].add(row["case_id"])
        self.key_records: dict[str, set[str]] = defaultdict(set)
        self.name_records: dict[str, set[str]] = defaultdict(set)
        self.record_case: dict[str, str] = {}
        self.record_names: dict[str, frozenset[str]] = {}
        for rec in registry:
            self.record_names[rec["record_id"]] = name_tokens(rec["title"])
            for key in rec["citation_keys"]:
                self.key_records[key].add(rec["record_id"])
            self.name_records[case_name_key(rec["title"])].add(rec["record_id"])
            if rec.get("case_id"):
                self.record_case[rec["record_id"]] = rec["case_id"]

    def resolve(self, cite: CaseCitation) -> CaseResolution:
        if cite.kind == "masked":
            return CaseResolution(MASKED, (), (), "citation masked in the source ([?CITATION?])")
        if cite.kind == "case_name":
            key = case_name_key(cite.case_name or cite.text)
            return self._decide(self.name_cases.get(key, set()),
                                self.name_records.get(key, set()),
                                "no judgment or registry record has these party names")
        if cite.key is None:
            return CaseResolution(UNRESOLVED, (), (), "citation could not be normalized")
        why = "not printed in any corpus judgment header"
        if cite.reporter not in REGISTRY_REPORTERS:
            why += f"; the registry holds INSC and SCR citations only, not {cite.reporter}"
        else:
            why += " and not in the registry"
        records = self.key_records.get(cite.key, set())
        if cite.lii_numbered and records:
            # the registry numbers by the Court's scheme: the same number is its record only
            # when the names written with it are the record's
            written = name_tokens(cite.case_name)
            records = {r for r in records
                       if jaccard(written, self.record_names[r]) >= SAME_NAME_JACCARD}
            why = ("LII of India's number, not printed in any corpus judgment header; the "
                   "registry's record of that number is of other names"
                   if cite.case_name else "LII of India's number, not printed in any corpus "
                   "judgment header; the registry holds the Court's numbering, and no names "
                   "are written with it to tell whether its record of that number is meant")
        return self._decide(self.key_cases.get(cite.key, set()), records, why)

    def _decide(self, cases: set[str], records: set[str], why: str) -> CaseResolution:
        cases = cases | {self.record_case[r] for r in records if r in self.record_case}
        if len(cases) > 1:
            return CaseResolution(AMBIGUOUS, tuple(sorted(cases)), tuple(sorted(records)),
                                  f"matches {len(cases)} corpus cases")
        if cases:
            return CaseResolution(RESOLVED, tuple(cases), tuple(sorted(records)), None)
        if len(records) > 1:
            return CaseResolution(AMBIGUOUS, (), tuple(sorted(records)),
                                  f"matches {len(records)} registry records")
        if records:
            return CaseResolution(REGISTRY_ONLY, (), tuple(records), None)
        return CaseResolution(UNRESOLVED, (), (), why)
