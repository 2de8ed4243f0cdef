"""Case citations against the cases we hold: found, misattributed, overruled, or invented.

We hold the SC registry (INSC neutral and SCR citations, 1990-2025) and the reporter
citations printed in ~2,000 corpus judgment headers. An AIR or SCC citation of a real case is
usually simply not held, so "not found" alone would flag real law as fabricated: a citation we
cannot find goes to the deterministic five-validator panel (`nyaya.verify.panel`), and only one
the panel finds evidence of invention in is NOT_FOUND; the rest are UNVERIFIABLE.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from difflib import SequenceMatcher

from nyaya.citations.cases import (
    SHORT_FORM,
    CaseCitation,
    case_name_key,
    extract_case_citations,
)
from nyaya.judgments.identity import jaccard, name_tokens
from nyaya.tables import read_table, records
from nyaya.verify import panel
from nyaya.verify.llm import LLM_FAILED, LlmEndpoint
from nyaya.verify.model import (
    AMBIGUOUS,
    CASE_NOT_FOUND,
    FOUND,
    NAME_MISMATCH,
    OVERRULED,
    CitationVerdict,
)

UNVERIFIABLE = "UNVERIFIABLE"  # plausible, but in no source we hold: check before relying on it
SOURCE_CORPUS = "corpus judgment"
SOURCE_REGISTRY = "SC registry"
HELD = "registry: INSC/SCR 1990–2025; corpus headers"

# Party names beside a citation belong to its case when at least half of the shorter name's
# distinctive words (not "state", "union", "india", ...) are in the other. Writers shorten
# names ("Kesavananda Bharati v. State of Kerala" for "His Holiness Kesavananda Bharati
# Sripadagalvaru v. State of Kerala": 1.0), so containment, not Jaccard; a name sharing only
# "State of Kerala" has no distinctive word in common (0.0). Measured on the warehouse:
# corpus judgment names against their own registry titles vs. against random titles.
NAME_MATCH = 0.5
TOKEN_FUZZ = 0.8  # "TIRUMALA TRIUPATI" is "Tirumala Tirupati": registry titles carry typos
GENERIC_TOKENS = {"v", "state", "union", "india", "of", "the", "and", "govt", "government",
                  "ors", "anr", "ltd", "pvt", "co", "corpn", "through", "its", "secretary",
                  "commissioner", "collector", "officer", "district", "m", "s", "mr", "smt",
                  "dead", "lrs", "by", "etc", "u", "p", "up"}
# A year's INSC numbers are held when the registry has this share of them (1990-2013: ~100%;
# 2014 on: 50-80%), so a missing number of such a year is evidence of invention.
NEUTRAL_COMPLETE = 0.9


def name_similarity(written: str, recorded: str) -> float:
    """Share of the shorter name's distinctive words found (fuzzily) in the other."""
    a, b = name_tokens(written), name_tokens(recorded)
    da = {t for t in a if t not in GENERIC_TOKENS and len(t) > 1}
    db = {t for t in b if t not in GENERIC_TOKENS and len(t) > 1}
    if not da or not db:
        return jaccard(a, b)
    short, long_ = (da, db) if len(da) <= len(db) else (db, da)
    hits = sum(1 for t in short if t in long_ or (len(t) >= 4 and any(
        SequenceMatcher(None, t, u).ratio() >= TOKEN_FUZZ for u in long_)))
    return hits / len(short)


def _listed(value: Iterable[str] | None) -> list[str]:
    """A list column as a list: Parquet gives numpy arrays, whose truth value is an error."""
    return [] if value is None else list(value)


@dataclass
class Case:
    """One case as we hold it: a corpus case (its judgments) and/or a registry record."""

    case_id: str
    names: list[str]
    decision_date: str | None
    keys: set[str]
    record_ids: set[str]
    doc_ids: set[str]

    @property
    def name(self) -> str:
        return self.names[0] if self.names else "(unnamed case)"

    @property
    def year(self) -> int | None:
        return int(self.decision_date[:4]) if self.decision_date else None

    def matched(self) -> dict:
        return {"id": self.case_id, "case_name": self.name, "decision_date": self.decision_date,
                "citations": sorted(self.keys), "record_ids": sorted(self.record_ids),
                "doc_ids": sorted(self.doc_ids)}

    def label(self) -> str:
        cites = ", ".join(sorted(self.keys)[:2])
        return f"{self.name} ({self.decision_date or 'undated'}; {cites or self.case_id})"


@dataclass
class CaseCheck:
    verdict: CitationVerdict
    validation: panel.PanelResult | None  # the panel's evaluation, for citations not found


class CaseVerifier:
    """Verdicts for case citations from the judgments, the SC registry and the citation graph."""

    def __init__(self, judgments: Iterable[dict], registry: Iterable[dict],
                 nodes: Iterable[dict] = (), edges: Iterable[dict] = (),
                 now_year: int | None = None, llm: LlmEndpoint | None = None) -> None:
        self.now_year = now_year
        self.llm = llm  # the panel's LLM validators instead of its rules, when given
        self.cases: dict[str, Case] = {}
        record_case: dict[str, str] = {}
        for row in judgments:
            case = self._case(row.get("case_id") or f"CASE:{row['doc_id']}")
            if row.get("case_name"):
                case.names.append(row["case_name"])
            case.decision_date = case.decision_date or row.get("decision_date")
            case.keys.update(_listed(row.get("citation_keys")))
            case.doc_ids.add(row["doc_id"])
        neutral_pairs: list[tuple[int, int]] = []
        for rec in registry:
            cid = rec.get("case_id") or rec["record_id"]
            record_case[rec["record_id"]] = cid
            case = self._case(cid)
            if rec.get("title"):
                case.names.append(rec["title"])
            case.decision_date = case.decision_date or rec.get("decision_date")
            case.keys.update(_listed(rec.get("citation_keys")))
            case.record_ids.add(rec["record_id"])
        self.by_key: dict[str, set[str]] = defaultdict(set)
        self.by_name: dict[str, set[str]] = defaultdict(set)
        for case in self.cases.values():
            for name in case.names:
                self.by_name[case_name_key(name)].add(case.case_id)
            for key in case.keys:
                self.by_key[key].add(case.case_id)
                year, _, number = key.partition(" INSC ")
                if number.isdigit() and year.isdigit():
                    neutral_pairs.append((int(year), int(number)))
        registry_years: dict[int, set[int]] = defaultdict(set)
        for case in self.cases.values():
            if case.record_ids:
                for key in case.keys:
                    year, _, number = key.partition(" INSC ")
                    if number.isdigit() and year.isdigit():
                        registry_years[int(year)].add(int(number))
        ranges = panel.neutral_ranges(neutral_pairs)
        self.neutral = {
            year: panel.NeutralRange(r.max_number, len(registry_years.get(year, ()))
                                     >= NEUTRAL_COMPLETE * r.max_number)
            for year, r in ranges.items()}
        self.neutral_held = {y: len(n) for y, n in registry_years.items()}
        self.node_name = {n["node_id"]: n.get("case_name") for n in nodes}
        self.overruled_by: dict[str, set[str]] = defaultdict(set)
        for edge in edges:
            if edge.get("relation") == "overrules":
                target = record_case.get(edge["target_id"], edge["target_id"])
                self.overruled_by[target].add(edge["source_id"])
        for node in nodes:
            if node.get("overruled"):
                self.overruled_by.setdefault(record_case.get(node["node_id"], node["node_id"]),
                                             set())

    def _case(self, case_id: str) -> Case:
        if case_id not in self.cases:
            self.cases[case_id] = Case(case_id, [], None, set(), set(), set())
        return self.cases[case_id]

    @classmethod
    def from_tables(cls, settings, llm: LlmEndpoint | None = None) -> CaseVerifier:
        """Built from the warehouse Parquet tables."""
        def rows(name: str) -> list[dict]:
            return records(read_table(settings.table_path(name)))
        return cls(rows("judgments"), rows("sc_case_registry"), rows("citation_graph_nodes"),
                   rows("citation_graph_edges"), llm=llm)

    # --- checking ------------------------------------------------------------------------

    def verify(self, text: str) -> list[CitationVerdict]:
        """One verdict per case citation in `text`; masked citations are skipped."""
        return [check.verdict for check in self.check_text(text)]

    def check_text(self, text: str) -> list[CaseCheck]:
        """A short form ("ibid", "X (supra)") gets the check of the citation it refers to."""
        cites = [c for c in extract_case_citations(text) if c.kind != "masked"]
        checks: list[CaseCheck] = []
        by_span: dict[tuple[int, int], CaseCheck] = {}
        for cite in attach_adjacent_names(text, cites):
            antecedent = by_span.get(cite.antecedent) if cite.antecedent else None
            if antecedent is None:
                check = by_span[(cite.start, cite.end)] = self.check(cite)
            else:
                check = _short_form_check(cite, antecedent)
            checks.append(check)
        return checks

    def check(self, cite: CaseCitation) -> CaseCheck:
        if cite.kind == SHORT_FORM:
            return CaseCheck(self._verdict(
                cite, UNVERIFIABLE, f"'{cite.text}' is a short form, and no case is cited "
                "before it in this text for it to refer to: cite the case in full"), None)
        if cite.kind == "case_name":
            return CaseCheck(self._check_name(cite), None)
        ids = self.by_key.get(cite.key, set()) if cite.key else set()
        cases = [self.cases[i] for i in sorted(ids)]
        written = cite.case_name
        if written and len(cases) > 1:  # the written names pick the closest case(s)
            scores = {c.case_id: self._similarity(written, c) for c in cases}
            best = max(scores.values())
            if best >= NAME_MATCH:
                cases = [c for c in cases if scores[c.case_id] == best]
        if len(cases) > 1:
            return CaseCheck(self._verdict(
                cite, AMBIGUOUS, f"{cite.key} matches {len(cases)} cases: "
                + "; ".join(c.label() for c in cases)), None)
        if cases:
            case = cases[0]
            # a held case with no recorded name (IRLeD prior-case headers are cut before the
            # title) cannot contradict the name written with it
            if written and case.names and self._similarity(written, case) < NAME_MATCH:
                return CaseCheck(self._verdict(
                    cite, NAME_MISMATCH, f"{cite.key} is the citation of {case.label()}, not of "
                    f"'{written}'; cite that case or find the right citation for this one",
                    case), None)
            found = self._found(cite, case)
            if written and not case.names:
                found.reason += f"; the name '{written}' could not be checked (none recorded)"
            return CaseCheck(found, None)
        return self._not_found(cite)

    def _similarity(self, written: str, case: Case) -> float:
        return max((name_similarity(written, n) for n in case.names), default=0.0)

    def _found(self, cite: CaseCitation, case: Case) -> CitationVerdict:
        source = SOURCE_CORPUS if case.doc_ids else SOURCE_REGISTRY
        if case.case_id in self.overruled_by:
            by = sorted(self.overruled_by[case.case_id])
            names = "; ".join(f"{self.node_name.get(b) or b} ({b})" for b in by)
            reason = (f"{case.label()} was overruled by {names}" if names
                      else f"{case.label()} is marked overruled in the citation graph")
            return self._verdict(cite, OVERRULED, reason + "; it is not good law", case, source)
        return self._verdict(cite, FOUND, f"{cite.key or cite.text} is {case.label()}, "
                             f"confirmed in the {source}", case, source)

    def _check_name(self, cite: CaseCitation) -> CitationVerdict:
        written = cite.case_name or cite.text
        cases = [self.cases[i] for i in sorted(self.by_name.get(case_name_key(written), ()))]
        if len(cases) == 1:
            return self._found(cite, cases[0])
        if cases:
            return self._verdict(cite, AMBIGUOUS, f"'{written}' names {len(cases)} cases: "
                                 + "; ".join(c.label() for c in cases[:5]))
        return self._verdict(cite, UNVERIFIABLE, f"'{written}' is cited by name only, and no "
                             f"case in the sources we hold ({HELD}) has these party names")

    def _not_found(self, cite: CaseCitation) -> CaseCheck:
        if cite.key is None:
            return CaseCheck(self._verdict(cite, CASE_NOT_FOUND,
                                           f"'{cite.text}' is not a well-formed citation"), None)
        finding = panel.Finding("not_held", f"{cite.key} is not in the sources we hold ({HELD})")
        held = self.neutral.get(cite.year or 0)
        if cite.reporter == "INSC" and held is not None and held.complete:
            finding = panel.Finding(
                "not_found_where_held",
                f"{cite.key} is not in the SC registry, which holds "
                f"{self.neutral_held.get(cite.year or 0, 0)} of the {held.max_number} "
                f"neutral citations of {cite.year}")
        result = panel.run_panel(cite, finding, self.neutral, self.now_year, llm=self.llm)
        c = result.consensus
        summary = (f"panel {c.verdict_counts['VALID']}/5 VALID, {c.recommendation}"
                   + (f" ({'; '.join(result.flags)})" if result.flags else ""))
        failed = [e for e in result.evaluations if e.reason == LLM_FAILED]
        if failed and not result.flags:  # an outage is not evidence of fabrication
            return CaseCheck(self._verdict(
                cite, UNVERIFIABLE, f"{finding.detail}; panel incomplete: {len(failed)} of 5 "
                f"LLM validators failed ({failed[0].detail}): confirm it in the reporter"),
                result)
        # only an INVALID finding is evidence of invention: for a citation we do not hold,
        # the knowledge validator is UNCERTAIN and synthesis echoes any UNCERTAIN, so one
        # unusual volume or page alone would otherwise read as "likely hallucinated"
        if result.flags:
            return CaseCheck(self._verdict(
                cite, CASE_NOT_FOUND, f"{finding.detail}; likely fabricated: {summary}; remove "
                "it, do not substitute another case"), result)
        return CaseCheck(self._verdict(
            cite, UNVERIFIABLE, f"{finding.detail}; it is plausible ({summary}) but unchecked: "
            "confirm it in the reporter before relying on it"), result)

    def _verdict(self, cite: CaseCitation, status: str, reason: str, case: Case | None = None,
                 source: str | None = None) -> CitationVerdict:
        return CitationVerdict(text=cite.text, span=(cite.start, cite.end), kind="case",
                               status=status, reason=reason, source=source,
                               case_key=cite.key, case_name=cite.case_name,
                               matched=case.matched() if case else None)


def _short_form_check(cite: CaseCitation, antecedent: CaseCheck) -> CaseCheck:
    """The antecedent's verdict, at the short form's own text and span."""
    full = antecedent.verdict
    verdict = replace(full, text=cite.text, span=(cite.start, cite.end),
                      reason=f"'{cite.text}' refers to {full.text}: {full.reason}")
    return CaseCheck(verdict, antecedent.validation)


NAME_GAP = re.compile(r"[\s,;:]{0,4}")


def attach_adjacent_names(text: str, cites: list[CaseCitation]) -> list[CaseCitation]:
    """Give a reporter citation the case name written right before it ("X v. Y, 2019 INSC 5").

    The extractor leaves some names unattached (long or odd party names); a citation checked
    without its names could not be caught as another case's citation (NAME_MISMATCH).
    """
    out: list[CaseCitation] = []
    for cite in sorted(cites, key=lambda c: c.start):
        prev = out[-1] if out else None
        if (prev is not None and prev.kind == "case_name" and cite.kind != "case_name"
                and cite.case_name is None and prev.end <= cite.start
                and NAME_GAP.fullmatch(text, prev.end, cite.start)):
            out[-1] = replace(cite, case_name=prev.case_name or prev.text,
                              petitioner=prev.petitioner, respondent=prev.respondent)
        else:
            out.append(cite)
    return out


def load_case_verifier(settings, llm: LlmEndpoint | None = None
                       ) -> Callable[[str], list[CitationVerdict]]:
    """A function verifying every case citation in a text against the warehouse tables."""
    return CaseVerifier.from_tables(settings, llm).verify
