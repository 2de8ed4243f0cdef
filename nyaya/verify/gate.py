"""The gate: every citation's verdict, one overall status, and the blocks and JSON users see.

Overall status (issue 6, specification 000 s.8): VERIFIED when every citation survives and a
statute checked against its text is among them; PARTIALLY_VERIFIED when some such statute
survives but not everything does; PRECEDENT_ONLY when none does but a case citation, or a
statute of an Act the corpus lacks that its judgments corroborate, survives, an answer that
cites cases alone included (specification 001, ADR-003: the statutory gap is disclosed);
UNVERIFIED when nothing survives or nothing was cited (the cannot-verify message).

Given the query and a relevance judge, every VERIFIED statute citation is also judged against the
query (`nyaya.verify.relevance`): existence is not relevance. A NOT_APPLICABLE one no longer
survives (it exists, but must be removed); a TANGENTIAL one survives with a note. Every FOUND
case is judged the same way (`nyaya.verify.precedents`): NOT_APPLICABLE_PRECEDENT does not
survive, and NOT_JUDGED (outside what the model was trained for) says why and changes nothing.
Without a query the verdicts and the output are those of the existence checks alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import date
from typing import TYPE_CHECKING

from nyaya.lookup import provision_label
from nyaya.verify.model import (
    CORROBORATED,
    FALSE_FRIEND,
    FOUND,
    NOT_FOUND,
    NOT_JUDGED,
    OVERALL_VERIFIED,
    PARTIALLY_VERIFIED,
    PRECEDENT_ONLY,
    SIBLING_MEANT,
    STALE,
    UNVERIFIED,
    VERIFIED,
    CitationVerdict,
)
from nyaya.verify.statutes import StatuteChecker, verify_statutes

if TYPE_CHECKING:  # the judge's module loads retrieval code; the gate needs only its type
    from nyaya.verify.relevance import RelevanceJudge

CaseVerifier = Callable[[str], list[CitationVerdict]]

CANNOT_VERIFY = (
    "I cannot verify this answer: none of its legal citations could be confirmed against the "
    "statute tables or the Supreme Court registry. Do not rely on it; consult the official text "
    "of the law or a qualified advocate.")
MESSAGES = {
    OVERALL_VERIFIED: "Every citation was verified.",
    PARTIALLY_VERIFIED: ("Some citations could not be verified and must be removed before this "
                         "answer is shown; the rest were verified."),
    PRECEDENT_ONLY: (
        "No statutory provision in this answer could be verified; it rests on Supreme Court "
        "precedent only. Statutory gap: check the current statutory position (BNS, BNSS and BSA "
        "replaced IPC, CrPC and IEA from 2024-07-01) and whether the precedent is still good "
        "law before relying on it."),
    UNVERIFIED: CANNOT_VERIFY,
}
NO_CASE_VERIFIER = "case citations were not checked (no case verifier available)"
#: The longest text verified at once: twice the longest judgment in the corpus (981,442
#: characters). 20 MB of text took 3.5 GB to verify and printed 466 MB; split longer input.
MAX_TEXT_CHARS = 2_000_000


class TextTooLong(ValueError):
    """A text longer than MAX_TEXT_CHARS; the message gives both lengths."""


def check_length(text: str, where: str | None = None) -> None:
    """TextTooLong when `text` is over MAX_TEXT_CHARS (`where`: the file it came from)."""
    if len(text) > MAX_TEXT_CHARS:
        raise TextTooLong(f"{f'{where}:' if where else 'the text is'} {len(text):,} characters; "
                          f"at most {MAX_TEXT_CHARS:,} are verified at once (twice the longest "
                          "judgment): split it")
REMOVE = "ACTION REQUIRED: Remove this citation from the response."


@dataclass
class VerificationReport:
    """Verdicts in text order, the overall status and the message that goes with it."""

    verdicts: list[CitationVerdict]
    overall: str
    message: str
    query: str | None = None  # the question the text answers; statutes are judged against it
    as_of: date | None = None
    cases_checked: bool = False
    notes: list[str] = field(default_factory=list)

    @property
    def counts(self) -> dict[str, int]:
        """Distinct citations (`total`), every time one is written (`mentions`), survivors
        and distinct citations per kind and status."""
        counts = Counter(f"{v.kind}:{v.status}" for v in self.verdicts)
        return {"total": len(self.verdicts),
                "mentions": sum(v.occurrences for v in self.verdicts),
                "surviving": sum(v.survives for v in self.verdicts), **dict(sorted(counts.items()))}

    def to_dict(self) -> dict:
        return {"overall": self.overall, "message": self.message, "query": self.query,
                "as_of": self.as_of.isoformat() if self.as_of else None,
                "cases_checked": self.cases_checked, "notes": list(self.notes),
                "counts": self.counts, "citations": [v.to_dict() for v in self.verdicts]}


def overall_status(verdicts: list[CitationVerdict]) -> str:
    """The response's status from its citations' verdicts (see the module docstring)."""
    if any(v.survives and v.status != CORROBORATED for v in verdicts if v.kind == "statute"):
        return (OVERALL_VERIFIED if all(v.survives for v in verdicts)
                else PARTIALLY_VERIFIED)
    if any(v.survives for v in verdicts):  # cases, or statutes the judgments corroborate
        return PRECEDENT_ONLY
    return UNVERIFIED


def verify_text(text: str, checker: StatuteChecker, *, as_of: date | None = None,
                case_verifier: CaseVerifier | None = None, query: str | None = None,
                indexed: Callable[[str, str], bool] | None = None,
                relevance: RelevanceJudge | None = None) -> VerificationReport:
    """Verify every statute (and, given `case_verifier`, every case) citation in `text`; given
    `query` and `relevance`, judge each VERIFIED statute citation's relevance to the query.
    A citation written again with the same verdict is one verdict with its `repeats`."""
    check_length(text)
    verdicts = verify_statutes(text, checker, as_of=as_of, indexed=indexed)
    notes = []
    if query and relevance is not None:
        for verdict in verdicts:
            if verdict.status == VERIFIED:
                verdict.relevance = relevance.judge(query, verdict.act_code or "",
                                                    verdict.section_number or "").to_dict()
        removed = sum(v.not_applicable for v in verdicts)
        if removed:
            notes.append(f"{removed} statute citation(s) exist but do not apply to the query "
                         "(relevance NOT_APPLICABLE) and must be removed")
    if case_verifier is None:
        notes.append(NO_CASE_VERIFIER)
    else:
        cases = case_verifier(text)
        if query and relevance is not None:
            notes += _judge_cases(cases, query, relevance)
        verdicts += cases
    verdicts.sort(key=lambda v: (v.span[0], v.span[1]))
    return _report(collapse_repeats(verdicts), query, as_of, case_verifier is not None, notes)


def judge_cases(cases: list[CitationVerdict], query: str, relevance: RelevanceJudge
                ) -> VerificationReport:
    """The gate over case verdicts alone (the judgments a search found, each a FOUND case
    with its doc ids in `matched`), every one judged against the query."""
    return _report(cases, query, None, True, _judge_cases(cases, query, relevance))


def _report(verdicts: list[CitationVerdict], query: str | None, as_of: date | None,
            cases_checked: bool, notes: list[str]) -> VerificationReport:
    """The overall status and message of `verdicts`, with the notes already written."""
    overall = overall_status(verdicts)
    message = MESSAGES[overall]
    corroborated = Counter(v.kind for v in verdicts if v.status == CORROBORATED)
    if corroborated["case"]:
        message += (f" {corroborated['case']} case citation(s) of them are corroborated "
                    "(printed with the same names by several corpus judgments), not checked "
                    "against a record of the case.")
    if corroborated["statute"]:
        message += (f" {corroborated['statute']} statute citation(s) of them are of Acts the "
                    "corpus does not hold, corroborated (the same section cited by several "
                    "corpus judgments), not checked against the Act's text.")
    if not verdicts:
        message = "No citation was found to verify. " + CANNOT_VERIFY
    return VerificationReport(verdicts, overall, message, query, as_of, cases_checked, notes)


def _judge_cases(cases: list[CitationVerdict], query: str, relevance: RelevanceJudge
                 ) -> list[str]:
    """Each FOUND case's relevance to the query, and the notes saying what came of it."""
    for verdict in cases:
        if verdict.status == FOUND and verdict.matched:
            verdict.relevance = relevance.judge_case(
                query, verdict.matched.get("doc_ids") or [],
                verdict.matched.get("case_name") or verdict.text).to_dict()
    notes = []
    removed = sum(v.not_applicable for v in cases)
    if removed:
        notes.append(f"{removed} case citation(s) exist but are no precedent for the query "
                     "(relevance NOT_APPLICABLE_PRECEDENT) and must be removed")
    unjudged = sum((v.relevance or {}).get("verdict") == NOT_JUDGED for v in cases)
    if unjudged:
        notes.append(f"the relevance of {unjudged} case citation(s) to the query was not judged "
                     "(each says why)")
    return notes


def collapse_repeats(verdicts: list[CitationVerdict]) -> list[CitationVerdict]:
    """The first of each citation written more than once with one verdict, carrying the
    spans of the rest: a text that repeats a citation 10,000 times gets one block, not
    10,000. Written the same but judged differently (a false friend in one sentence only)
    stays apart."""
    first: dict[tuple, CitationVerdict] = {}
    kept = []
    for verdict in verdicts:
        relevance = (verdict.relevance or {}).get("verdict")
        key = (verdict.kind, " ".join(verdict.text.split()), verdict.status, verdict.reason,
               verdict.act_code, verdict.section_number, verdict.unit, verdict.case_key,
               relevance)
        if key in first:
            first[key].repeats.append(verdict.span)
        else:
            first[key] = verdict
            kept.append(verdict)
    return kept


def render_blocks(report: VerificationReport) -> str:
    """Human blocks in the layout of specification 000 s.6-7, one per citation."""
    head = [f"OVERALL: {report.overall}", report.message, *(f"Note: {n}" for n in report.notes)]
    return "\n\n".join(["\n".join(head), *(render_verdict(v) + _repeated(v)
                                             for v in report.verdicts)])


def _repeated(verdict: CitationVerdict, shown: int = 5) -> str:
    if not verdict.repeats:
        return ""
    starts = [str(span[0]) for span in [verdict.span, *verdict.repeats][:shown]]
    more = f" and {verdict.occurrences - shown:,} more" if verdict.occurrences > shown else ""
    return f"\nWritten {verdict.occurrences:,} times (at characters {', '.join(starts)}{more})"


def render_verdict(verdict: CitationVerdict) -> str:
    """One citation's block: what was checked, the verdict with its reason, what to do."""
    if verdict.kind != "statute":
        return _case_block(verdict)
    info = verdict.matched or {}
    cited = provision_label(verdict.act_code or info.get("act_title"), verdict.section_number,
                           verdict.unit, verdict.numbered_as)
    if verdict.status == CORROBORATED:  # an Act the corpus lacks, cited by its judgments
        return "\n".join([f"CITATION CORROBORATED: {cited} (as written: {verdict.text!r})",
                          f"Status: CORROBORATED — {verdict.reason}",
                          f"Source: {verdict.source}",
                          "Check it against the official text of the Act before relying on "
                          "it."])
    if verdict.not_applicable:
        return "\n".join([
            f"CITATION NOT APPLICABLE: {cited} (as written: {verdict.text!r})",
            f"Status: VERIFIED (source: {verdict.source}), relevance NOT_APPLICABLE — "
            f"{_relevance(verdict)}",
            f"Section: {verdict.section_number} — {info.get('title')}",
            "It exists, but it does not answer the query.", REMOVE])
    if verdict.status == VERIFIED:
        lines = [f"CITATION VERIFIED: {cited}", f"Status: VERIFIED (source: {verdict.source})"]
        if verdict.relevance:
            lines.append(f"Relevance: {verdict.relevance['verdict']} — {_relevance(verdict)}")
        lines += ["", f"Section: {verdict.section_number} — {info.get('title')}",
                  f"Act: {info.get('act_title')} ({verdict.act_code})",
                  f"Era: {info.get('era')} | Applicable from: "
                  f"{info.get('applicable_from') or 'not recorded'}"]
        if info.get("chapter_number"):
            lines.append(f"Chapter: {info['chapter_number']} — "
                         f"{info.get('chapter_title') or ''}".rstrip(" —"))
        lines += [f"Successor: {_link(link)}" for link in verdict.successors]
        lines.append(f"Note: {verdict.reason}")
        if info.get("text_preview"):
            lines.append(f"Text (preview): {info['text_preview']}")
        return "\n".join(lines)
    lines = [f"CITATION NOT VERIFIED: {cited} (as written: {verdict.text!r})",
             f"Status: {verdict.status} — {verdict.reason}"]
    if verdict.status in (FALSE_FRIEND, SIBLING_MEANT):
        lines += [f"Section meant: {_link(link)}" for link in verdict.successors]
    elif verdict.status == STALE:
        lines += [f"Successor: {_link(link)}" for link in verdict.successors]
    elif verdict.status == NOT_FOUND:
        lines.append("Do not renumber or substitute another section for it.")
    lines.append(REMOVE)
    return "\n".join(lines)


def _relevance(verdict: CitationVerdict) -> str:
    relevance = verdict.relevance or {}
    return f"{relevance.get('reason')} (source: {relevance.get('source')})"


def _case_block(verdict: CitationVerdict) -> str:
    head = ("CASE CITATION CORROBORATED" if verdict.status == CORROBORATED else
            "CASE CITATION NOT APPLICABLE" if verdict.not_applicable else
            "CASE CITATION VERIFIED" if verdict.survives else "CASE CITATION NOT VERIFIED")
    lines = [f"{head}: {verdict.text}", f"Status: {verdict.status} — {verdict.reason}"]
    if verdict.relevance:
        lines.append(f"Relevance: {verdict.relevance['verdict']} — {_relevance(verdict)}")
    if verdict.source:
        lines.append(f"Source: {verdict.source}")
    if not verdict.survives:
        lines.append(REMOVE)
    return "\n".join(lines)


def _link(link: dict) -> str:
    units = f" [{', '.join(link['units'])}]" if link.get("units") else ""
    relation = link.get("relation") or "unspecified"
    flag = " (mapping tables disagree)" if link.get("disagreement") else ""
    return f"{provision_label(link['act_code'], link['section_number'])}{units} ({relation}){flag}"
