"""The five-validator panel of spec 004, made deterministic: is a case citation real or invented?

The panel runs where the database cannot answer (an AIR or SCC citation of a real case is
usually simply not held), so each validator checks one dimension a fabricated citation tends
to get wrong: the reporter's publication range (authority), the party names (case ecology),
the timeline (temporal reality), what the tables we hold say (legal knowledge) and the
combination (reality synthesis). No LLM is called by default; `run_panel(..., llm=endpoint)`
swaps in the LLM-backed validators of `nyaya.verify.llm` (their `agent` names carry their own
version, and `model` records the endpoint's model), under the same consensus.

Consensus follows spec 004: the majority verdict's agreement count gives the agreement level
(5 unanimous, 4 strong, else split) and confidence = (agreement / 5) ** 2. The spec's
confidence bands (>= 0.8, 0.5-0.79, < 0.5) cannot be met by that formula (4/5 gives 0.64,
3/5 gives 0.36), while its prose and its worked example are consistent with each other, so the
recommendation follows the prose: 4-5 VALID -> CITATION_LIKELY_VALID, 3 VALID ->
CITATION_UNCERTAIN (the example: 3 VALID, 1 INVALID, 1 UNCERTAIN), fewer ->
CITATION_LIKELY_HALLUCINATED. Tier 3 is triggered for any split or any recommendation other
than CITATION_LIKELY_VALID.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING

from nyaya.citations.cases import CaseCitation
from nyaya.citations.reporters import SeriesRange, series_ranges

if TYPE_CHECKING:
    from nyaya.verify.llm import LlmEndpoint

VALID = "VALID"
INVALID = "INVALID"
UNCERTAIN = "UNCERTAIN"

AUTHORITY = "citation_authority_validator_v1"
ECOLOGY = "case_ecology_validator_v1"
TEMPORAL = "temporal_reality_validator_v1"
KNOWLEDGE = "legal_knowledge_validator_v1"
SYNTHESIS = "reality_assessment_expert_v1"
AGENTS = (AUTHORITY, ECOLOGY, TEMPORAL, KNOWLEDGE, SYNTHESIS)
MODEL = "deterministic-rules-v1"

LIKELY_VALID = "CITATION_LIKELY_VALID"
LIKELY_UNCERTAIN = "CITATION_UNCERTAIN"
LIKELY_HALLUCINATED = "CITATION_LIKELY_HALLUCINATED"

SC_FOUNDED = 1950  # the Supreme Court of India sat first on 28 January 1950


#: report series -> publication range (first year, volume and page bands), from the reporter
#: database (nyaya/facts/reporters.yaml)
SERIES = series_ranges()
AIR_COURT_YEARS = {"PC": (1914, 1950), "FC": (1937, 1950)}  # courts that ceased to sit
SCALE_EDGE = 1985  # SCALE's first volumes are in the early 1980s; before 1985 is an edge


@dataclass(frozen=True)
class NeutralRange:
    """Highest INSC number seen for a year, and whether our sources hold (nearly) all of it."""

    max_number: int
    complete: bool


def neutral_ranges(numbers: Iterable[tuple[int, int]],
                   complete_years: Iterable[int] = ()) -> dict[int, NeutralRange]:
    """Per-year INSC maxima from (year, number) pairs, dropping lone outliers.

    A number more than 1.5 times the next highest of its year is a typo in the source
    (the registry holds one 2024 INSC 4354 beside a next highest of 1100), not the range.
    """
    by_year: dict[int, list[int]] = defaultdict(list)
    for year, number in numbers:
        by_year[year].append(number)
    complete = set(complete_years)
    out: dict[int, NeutralRange] = {}
    for year, nums in by_year.items():
        nums.sort()
        while len(nums) > 1 and nums[-1] > 1.5 * nums[-2]:
            nums.pop()
        out[year] = NeutralRange(nums[-1], year in complete)
    return out


@dataclass(frozen=True)
class VolumeRange:
    """How many volumes a reporter printed in a year, as the citations we hold show it."""

    max_volume: int
    citations: int  # distinct citations of that year and reporter it was read from


# A year's volume count is trusted when it rests on this many citations per volume: were
# there one more volume, 15 citations a volume (60 for SCC's four) would all miss it with odds
# of (4/5)^60, about one in a million, if citations spread evenly over a year's volumes.
VOLUME_EVIDENCE = 15
# A volume counts when this share of the year's citations, and two at least, name it.
VOLUME_SHARE = 0.02


def volume_ranges(keys: Iterable[tuple[str, int, int, str]]) -> dict[tuple[str, int], VolumeRange]:
    """Per (reporter, year) the highest volume, from distinct (reporter, year, volume, page)
    citations, where the year has enough of them (VOLUME_EVIDENCE) to tell.

    A volume that one or two citations name is a typo in the text that printed it (the corpus
    has one "(1974) 11 SCC" among 200 citations of 1974, whose SCC had four volumes, and
    two "(1990) 7 SCC" among 220), so a volume counts only when VOLUME_SHARE of the year's
    distinct citations, and two at least, name it.
    """
    pages: dict[tuple[str, int], dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    for reporter, year, volume, page in keys:
        pages[(reporter, year)][volume].add(page)
    out: dict[tuple[str, int], VolumeRange] = {}
    for key, volumes in pages.items():
        total = sum(len(seen) for seen in volumes.values())
        named = [v for v, seen in volumes.items()
                 if len(seen) >= max(2, VOLUME_SHARE * total)]
        if named and total >= VOLUME_EVIDENCE * max(named):
            out[key] = VolumeRange(max(named), total)
    return out


@dataclass(frozen=True)
class Finding:
    """What the tables we hold say about a citation: the legal-knowledge validator's input.

    status: "found" | "name_mismatch" | "ambiguous" | "not_found_where_held" (our source for
    this citation is complete, and it is not there) | "not_held" (we hold no complete source)
    | "wrong_citation" (the party names written are a case we hold, whose own citation in this
    reporter is another) | "names_not_found" (no case we hold, of the years the reporter
    year allows and where our sources are complete, has the party names written) |
    "names_found" (the party names are a case we hold, whose citation in this reporter we do
    not hold: the case exists, its volume and page are unchecked).
    """

    status: str
    detail: str = ""
    decision_year: int | None = None


@dataclass
class Evaluation:
    agent: str
    verdict: str
    reason: str | None = None  # a reason code of spec 004
    detail: str = ""  # what a person reads
    model: str = MODEL  # who judged: these rules, or the LLM endpoint's model

    def to_dict(self, timestamp: str) -> dict:
        row: dict = {"agent": self.agent, "verdict": self.verdict}
        if self.verdict == INVALID:
            row["invalid_reason"] = self.reason
        elif self.verdict == UNCERTAIN:
            row["uncertain_reason"] = self.reason
        if self.detail:
            row["detail"] = self.detail
        row["timestamp"] = timestamp
        row["model"] = self.model
        return row


@dataclass
class Consensus:
    agreement_level: str
    verdict_counts: dict[str, int]
    majority: str
    confidence_score: float
    recommendation: str
    reasoning: str
    tier_3_trigger: bool


@dataclass
class PanelResult:
    evaluations: list[Evaluation]
    consensus: Consensus
    timestamp: str = field(default="")

    @property
    def flags(self) -> list[str]:
        """'agent: reason' for every INVALID verdict: the evidence of fabrication."""
        return [f"{e.agent}: {e.reason}" for e in self.evaluations if e.verdict == INVALID]

    def to_dict(self) -> dict:
        """The `validation` object of spec 004."""
        c = self.consensus
        return {
            "panel_evaluation": [e.to_dict(self.timestamp) for e in self.evaluations],
            "consensus": {
                "agreement_level": c.agreement_level,
                "verdict_counts": dict(c.verdict_counts),
                "confidence_score": c.confidence_score,
                "recommendation": c.recommendation,
                "reasoning": c.reasoning,
            },
            "tier_3_trigger": c.tier_3_trigger,
        }


# --- the five validators -------------------------------------------------------------------


def _series(cite: CaseCitation) -> tuple[str, SeriesRange] | None:
    if cite.reporter == "AIR":
        name = "AIR SC" if cite.court == "SC" else "AIR"
        return name, SERIES[name]
    if cite.reporter in SERIES:
        return cite.reporter, SERIES[cite.reporter]
    return None


def authority(cite: CaseCitation, now_year: int,
              neutral: dict[int, NeutralRange] | None = None,
              volumes: dict[tuple[str, int], VolumeRange] | None = None) -> Evaluation:
    """Could this reporter have printed this volume and page in this year?

    `volumes` (from `volume_ranges`) holds how many volumes a reporter printed in a year where
    the citations we hold are enough to tell: SCC printed four a year until 1993, so
    "(1975) 6 SCC 198" names a volume that never existed."""
    year = cite.year
    if cite.page is None or (year is None and not cite.volume):
        return Evaluation(AUTHORITY, UNCERTAIN, "reporter_edge_case", "no year or page written")
    if year is None:  # "I.L.R. 47 Bom. 578": a series numbered since it began dates its volumes
        found = _series(cite)
        if found is not None and int(cite.page) > found[1].page_max:
            return Evaluation(AUTHORITY, INVALID, "page_unreasonable",
                              f"page {cite.page} is beyond any {found[0]} volume (at most "
                              f"~{found[1].page_max})")
        return Evaluation(AUTHORITY, VALID)
    if year > now_year:
        return Evaluation(AUTHORITY, INVALID, "year_implausible", f"{year} is in the future")
    page = int(cite.page)
    if cite.reporter == "INSC":
        return _neutral_authority(year, page, neutral or {})
    if cite.reporter == "AIR" and cite.court in AIR_COURT_YEARS:
        first, last = AIR_COURT_YEARS[cite.court]
        if not first <= year <= last:
            return Evaluation(AUTHORITY, INVALID, "reporter_court_mismatch",
                              f"AIR {cite.court} reports run {first}-{last}, not {year}")
    found = _series(cite)
    if found is None:
        return Evaluation(AUTHORITY, VALID)  # another reporter: no range we can check
    name, series = found
    if year < series.start:
        return Evaluation(AUTHORITY, INVALID, "reporter_timing_wrong",
                          f"{name} begins in {series.start}; there is no {year} volume")
    if series.sc_only and year < SC_FOUNDED:
        return Evaluation(AUTHORITY, INVALID, "year_implausible",
                          f"the Supreme Court of India did not sit before {SC_FOUNDED}")
    if cite.volume and series.vol_max is not None and series.vol_ok is not None:
        volume = int(cite.volume)
        if volume == 0 or volume > series.vol_max:
            return Evaluation(AUTHORITY, INVALID, "volume_impossible",
                              f"{name} has no volume {volume} in a year")
        seen = (volumes or {}).get((name, year)) if not cite.supplementary else None
        if seen is not None and volume > seen.max_volume:
            return Evaluation(AUTHORITY, INVALID, "volume_impossible",
                              f"{name} printed {seen.max_volume} volumes in {year} (read from "
                              f"the {seen.citations} citations of {year} we hold), no volume "
                              f"{volume}")
        if volume > series.vol_ok:
            return Evaluation(AUTHORITY, UNCERTAIN, "unusual_volume_page",
                              f"volume {volume} is beyond the usual {series.vol_ok} of {name}")
    if page > series.page_max:
        return Evaluation(AUTHORITY, INVALID, "page_unreasonable",
                          f"page {page} is beyond any {name} volume (at most ~{series.page_max})")
    if page > series.page_ok:
        return Evaluation(AUTHORITY, UNCERTAIN, "unusual_volume_page",
                          f"page {page} is high for {name}")
    if name == "SCALE" and year < SCALE_EDGE:
        return Evaluation(AUTHORITY, UNCERTAIN, "timing_questionable",
                          f"{year} is at the start of the SCALE series")
    return Evaluation(AUTHORITY, VALID)


NEUTRAL_COMPLETE_SLACK = 1.25  # a complete year's numbers end near its maximum
NEUTRAL_PARTIAL_SLACK = 2.0  # a year we hold in part may run well past what we saw


def _neutral_authority(year: int, number: int, neutral: dict[int, NeutralRange]) -> Evaluation:
    if year < SC_FOUNDED:
        return Evaluation(AUTHORITY, INVALID, "year_implausible",
                          f"INSC numbers start with the Court in {SC_FOUNDED}")
    held = neutral.get(year)
    if held is None:
        if not neutral:
            return Evaluation(AUTHORITY, VALID)
        top = max(r.max_number for r in neutral.values())
        held = NeutralRange(top, False)
        seen = f"the highest INSC number of any year we hold is {top}"
    else:
        seen = f"the highest {year} INSC number we hold is {held.max_number}"
    slack = NEUTRAL_COMPLETE_SLACK if held.complete else NEUTRAL_PARTIAL_SLACK
    if number > slack * held.max_number:
        return Evaluation(AUTHORITY, INVALID, "page_unreasonable",
                          f"{number} is far beyond range; {seen}")
    if number > held.max_number:
        return Evaluation(AUTHORITY, UNCERTAIN, "unusual_volume_page",
                          f"{number} is beyond range; {seen}")
    return Evaluation(AUTHORITY, VALID)


PLACEHOLDER_WORDS = {"x", "y", "z", "a", "b", "abc", "xyz", "pqr", "doe", "roe", "foo", "bar",
                     "example", "sample", "test", "dummy", "placeholder", "lorem", "ipsum",
                     "plaintiff", "defendant", "petitioner", "respondent", "appellant",
                     "accused", "complainant", "party", "someone", "unknown", "name"}
GENERIC_PARTIES = {"state", "union", "government", "govt", "republic", "india", "the", "of",
                   "and"}
LETTERS = re.compile(r"[A-Za-z]")
WORDS = re.compile(r"[A-Za-z0-9]+")


def ecology(cite: CaseCitation) -> Evaluation:
    """Do the party names look like Indian litigation, not a placeholder or garbage?"""
    pet, resp = cite.petitioner, cite.respondent
    if not cite.case_name and not pet and not resp:
        return Evaluation(ECOLOGY, UNCERTAIN, "characteristics_unclear", "no party names written")
    sides = [s for s in (pet, resp) if s is not None]
    if len(sides) < 2 or any(not LETTERS.search(s) for s in sides):
        return Evaluation(ECOLOGY, INVALID, "party_names_artificial",
                          "a party name is empty or has no letters")
    words = [[w.lower() for w in WORDS.findall(s)] for s in sides]
    if any(len(w) > 25 for w in words):
        return Evaluation(ECOLOGY, INVALID, "party_names_artificial", "a party name is run-on text")
    if all(set(w) <= PLACEHOLDER_WORDS | GENERIC_PARTIES for w in words) and any(
            set(w) & PLACEHOLDER_WORDS for w in words):
        return Evaluation(ECOLOGY, INVALID, "generic_pattern_suspicious",
                          "party names are placeholders (X, ABC, Petitioner, ...)")
    if words[0] == words[1]:
        return Evaluation(ECOLOGY, INVALID, "characteristics_mismatch",
                          "the same party on both sides")
    if any(set(w) <= PLACEHOLDER_WORDS for w in words):
        return Evaluation(ECOLOGY, UNCERTAIN, "names_generic_but_possible",
                          "one party is a placeholder word")
    return Evaluation(ECOLOGY, VALID)


def temporal(cite: CaseCitation, now_year: int, decision_year: int | None = None) -> Evaluation:
    """Is the year possible for the Court, and for the decision it reports?"""
    year = cite.year
    if year is None and cite.volume:
        return Evaluation(TEMPORAL, VALID, detail="no year written; the volume dates it")
    if year is None:
        return Evaluation(TEMPORAL, UNCERTAIN, "timing_unusual_but_possible", "no year written")
    if year > now_year:
        return Evaluation(TEMPORAL, INVALID, "future_dated", f"{year} is after {now_year}")
    found = _series(cite)
    sc = cite.reporter == "INSC" or (found is not None and found[1].sc_only)
    if sc and year < SC_FOUNDED:
        return Evaluation(TEMPORAL, INVALID, "temporal_impossibility",
                          f"the Supreme Court of India did not sit before {SC_FOUNDED}")
    if decision_year is not None:
        if year < decision_year:
            return Evaluation(TEMPORAL, INVALID, "historical_mismatch",
                              f"reported in {year}, before the {decision_year} decision")
        if year > decision_year + 2:
            return Evaluation(TEMPORAL, UNCERTAIN, "timing_unusual_but_possible",
                              f"reported in {year}, {year - decision_year} years after decision")
    return Evaluation(TEMPORAL, VALID)


def knowledge(finding: Finding) -> Evaluation:
    """What the registry and corpus headers say: the deterministic 'legal knowledge'."""
    if finding.status == "found":
        return Evaluation(KNOWLEDGE, VALID, None, finding.detail)
    if finding.status in ("name_mismatch", "wrong_citation"):
        return Evaluation(KNOWLEDGE, INVALID, "implausible_combination", finding.detail)
    if finding.status == "names_not_found":
        return Evaluation(KNOWLEDGE, INVALID, "unknown_authority", finding.detail)
    if finding.status == "names_found":
        return Evaluation(KNOWLEDGE, VALID, None, finding.detail)
    if finding.status == "ambiguous":
        return Evaluation(KNOWLEDGE, UNCERTAIN, "edge_case_authority", finding.detail)
    if finding.status == "not_found_where_held":
        return Evaluation(KNOWLEDGE, INVALID, "unknown_authority", finding.detail)
    return Evaluation(KNOWLEDGE, UNCERTAIN, "unfamiliar_but_possible", finding.detail)


def synthesis(cite: CaseCitation, others: list[Evaluation]) -> Evaluation:
    """Combine: any INVALID is evidence of invention; clean metadata is evidence of reality."""
    invalid = [e for e in others if e.verdict == INVALID]
    if len(invalid) >= 2:
        return Evaluation(SYNTHESIS, INVALID, "fabrication_markers",
                          ", ".join(str(e.reason) for e in invalid))
    if invalid:
        return Evaluation(SYNTHESIS, INVALID, "implausible_synthesis", str(invalid[0].reason))
    by_agent = {e.agent: e for e in others}
    if by_agent[KNOWLEDGE].verdict == VALID:
        return Evaluation(SYNTHESIS, VALID)
    if by_agent[AUTHORITY].verdict == VALID and by_agent[TEMPORAL].verdict == VALID:
        return Evaluation(SYNTHESIS, VALID, None, "metadata consistent though not held")
    return Evaluation(SYNTHESIS, UNCERTAIN, "mixed_signals",
                      ", ".join(str(e.reason) for e in others if e.verdict == UNCERTAIN))


# --- consensus ---------------------------------------------------------------------------


TIE_ORDER = (INVALID, UNCERTAIN, VALID)  # a tie resolves to the more cautious verdict


def consensus(evaluations: list[Evaluation]) -> Consensus:
    """Agreement, confidence = (agreement/5)^2, and the recommendation of spec 004."""
    counts = Counter(e.verdict for e in evaluations)
    verdict_counts = {v: counts.get(v, 0) for v in (VALID, INVALID, UNCERTAIN)}
    top = max(verdict_counts.values())
    majority = next(v for v in TIE_ORDER if verdict_counts[v] == top)
    level = "unanimous" if top == 5 else "strong" if top == 4 else "split"
    confidence = round((top / 5) ** 2, 4)
    valid = verdict_counts[VALID]
    if valid >= 4:
        recommendation = LIKELY_VALID
    elif valid == 3:
        recommendation = LIKELY_UNCERTAIN
    else:
        recommendation = LIKELY_HALLUCINATED
    flagged = [f"{e.agent.removesuffix('_v1')}: {e.reason}" for e in evaluations
               if e.verdict != VALID]
    reasoning = (f"{level.capitalize()} panel ({top}/5 {majority}); "
                 + (f"flags: {'; '.join(flagged)}." if flagged else "no concerns."))
    trigger = level == "split" or recommendation != LIKELY_VALID
    return Consensus(level, verdict_counts, majority, confidence, recommendation, reasoning,
                     trigger)


def run_panel(cite: CaseCitation, finding: Finding,
              neutral: dict[int, NeutralRange] | None = None, now_year: int | None = None,
              timestamp: str | None = None, llm: LlmEndpoint | None = None,
              volumes: dict[tuple[str, int], VolumeRange] | None = None) -> PanelResult:
    """All five validators on one citation, and their consensus.

    With `llm`, the LLM-backed validators judge instead of the rules, on the same inputs; a
    validator whose endpoint fails answers UNCERTAIN, so the panel always completes.
    """
    now = datetime.now(UTC)
    year = now_year if now_year is not None else now.year
    if llm is None:
        evaluations = [
            authority(cite, year, neutral, volumes),
            ecology(cite),
            temporal(cite, year, finding.decision_year),
            knowledge(finding),
        ]
        evaluations.append(synthesis(cite, evaluations))
    else:
        evaluations = llm.panel(cite, year, neutral, finding)
    stamp = timestamp if timestamp is not None else now.strftime("%Y-%m-%dT%H:%M:%SZ")
    return PanelResult(evaluations, consensus(evaluations), stamp)
