"""Verdicts of the verification gate: one per citation, one overall, each with its reason."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

# statute verdicts
VERIFIED = "VERIFIED"  # exists; `source` says where it was confirmed
NOT_FOUND = "NOT_FOUND"  # remove: never rename, renumber or substitute
FALSE_FRIEND = "FALSE_FRIEND"  # exists, but the text means the old code's section of that number
SIBLING_MEANT = "SIBLING_MEANT"  # exists, but the text describes a neighbour with a near-same title
STALE = "STALE"  # a repealed code cited for conduct on or after its repeal
# omitted or repealed within its Act, or struck down: not law on the conduct's date (today
# when none is given); the reason quotes the note that dropped it
NOT_IN_FORCE = "NOT_IN_FORCE"
# a statute that exists in law but whose text the corpus lacks (nyaya/facts/known_gaps.yaml),
# or a case plausible but in no source we hold: check it before relying on it; not removed as
# invented, but not verified either
UNVERIFIABLE = "UNVERIFIABLE"
# case verdicts
FOUND = "FOUND"
NAME_MISMATCH = "NAME_MISMATCH"  # the citation exists but belongs to another case
AMBIGUOUS = "AMBIGUOUS"
OVERRULED = "OVERRULED"
CASE_NOT_FOUND = "NOT_FOUND"
# not held, but printed with the same names by several independent corpus judgments: the
# Supreme Court relied on it; never VERIFIED (no record of the case was checked)
CORROBORATED = "CORROBORATED"

# relevance of an existing statute citation to the query (nyaya.verify.relevance)
RELEVANT = "RELEVANT"  # answers the query
TANGENTIAL = "TANGENTIAL"  # a supporting provision: survives, with a note
NOT_APPLICABLE = "NOT_APPLICABLE"  # exists, but does not answer the query: remove
# relevance of a found case to the query (nyaya.verify.precedents); TANGENTIAL as above
RELEVANT_PRECEDENT = "RELEVANT_PRECEDENT"
NOT_APPLICABLE_PRECEDENT = "NOT_APPLICABLE_PRECEDENT"  # exists, but is no precedent for it
NOT_JUDGED = "NOT_JUDGED"  # outside what the model was trained for: the reason says why

# where an existing statute citation was confirmed
SOURCE_VECTOR_STORE = "vector store"
SOURCE_CANONICAL_TABLE = "canonical sections table"  # the command does not ask the store

# overall status of a response
OVERALL_VERIFIED = "VERIFIED"
PARTIALLY_VERIFIED = "PARTIALLY_VERIFIED"
PRECEDENT_ONLY = "PRECEDENT_ONLY"
UNVERIFIED = "UNVERIFIED"

# citations with these verdicts survive the gate (a stale or false-friend citation does not:
# it is replaced by nothing, and the verdict names the successor for a person to check), unless
# judged NOT_APPLICABLE to the query: existence is not relevance
SURVIVING = {VERIFIED, FOUND, CORROBORATED}


@dataclass
class CitationVerdict:
    text: str  # the citation as written
    span: tuple[int, int]  # character offsets in the verified text
    kind: str  # "statute" | "case"
    status: str
    reason: str  # a sentence a person can act on, for every status
    act_code: str | None = None
    section_number: str | None = None
    unit: str | None = None
    #: how the statute provision is numbered: "section", "article" (the Constitution's, or a
    #: schedule's in another Act) or "order_rule" (the CPC's Orders)
    numbered_as: str = "section"
    source: str | None = None  # where it was confirmed (statutes and cases)
    successors: list[dict] = field(default_factory=list)  # transition-map rows
    case_key: str | None = None  # canonical reporter key, for cases
    case_name: str | None = None  # as written, for cases
    matched: dict | None = None  # the registry record / judgment it matched, for cases
    relevance: dict | None = None  # Relevance.to_dict() when a query was judged
    # the spans of the same citation written again with the same verdict, reported once
    repeats: list[tuple[int, int]] = field(default_factory=list)

    @property
    def occurrences(self) -> int:
        return 1 + len(self.repeats)

    @property
    def not_applicable(self) -> bool:
        return self.relevance is not None and self.relevance["verdict"] in (
            NOT_APPLICABLE, NOT_APPLICABLE_PRECEDENT)

    @property
    def survives(self) -> bool:
        return self.status in SURVIVING and not self.not_applicable

    def to_dict(self) -> dict:
        row = asdict(self)
        row["span"] = list(self.span)
        row["repeats"] = [list(span) for span in self.repeats]
        row["occurrences"] = self.occurrences
        return row
