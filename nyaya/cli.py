"""The commands of the core: lookup, verify and verify-segments (no Dagster, no evaluation
library); `pipelines/cli.py` assembles the `nyaya` command from each layer's commands."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

from nyaya.lookup import StatuteLookup, read_sections, read_untexted, render_block
from nyaya.settings import Settings
from nyaya.statutes.registry import alias_index_from_rows
from nyaya.tables import read_table
from nyaya.verify.absent_acts import absent_acts_of
from nyaya.verify.model import VERIFIED


def load_lookup(settings: Settings) -> StatuteLookup:
    """The exact-lookup index over the built tables in the warehouse."""
    registry = read_table(settings.table_path("act_registry"))
    sections = read_sections(settings.table_path("sections"))
    transitions = read_table(settings.table_path("law_transition_map"))
    aliases = alias_index_from_rows(registry.to_dict("records"))
    return StatuteLookup(
        registry.to_dict("records"),
        sections.to_dict("records"),
        transitions.to_dict("records"),
        aliases,
        read_untexted(settings.table_path("ingest_quarantine")),
        absent_acts_of(settings, aliases),
    )


def _lookup(args: argparse.Namespace) -> int:
    try:  # a missing table, or a CorruptTableError / a table without its columns (ValueError)
        lookup = load_lookup(Settings.from_env())
    except (OSError, ValueError) as err:
        print(f"nyaya lookup: {err}", file=sys.stderr)
        return 2
    results = [found for citation in citations_of(args.citation)
               for found in lookup.lookup_all(citation)]
    if args.json:
        found = [result.to_dict() for result in results]
        print(json.dumps(found[0] if len(found) == 1 else found, ensure_ascii=False, indent=2))
    else:
        print("\n\n".join(render_block(result) for result in results))
    return 0 if all(result.status == VERIFIED for result in results) else 1


def citations_of(words: list[str]) -> list[str]:
    """The citations on a lookup's command line: several when each was quoted as a whole
    (`"BNS 103" "IPC 302"`), else the words are one citation (`BNS 103`)."""
    if len(words) > 1 and all(len(word.split()) > 1 for word in words):
        return words
    return [" ".join(words)]


def _load_case_verifier(settings: Settings, llm=None):
    """The case verifier when its module and tables exist; else None and why not."""
    try:
        from nyaya.verify.cases import load_case_verifier
    except ImportError:
        return None, "case citations not checked: the case verifier is not available"
    try:
        return load_case_verifier(settings, llm), None
    except FileNotFoundError as err:
        return None, f"case citations not checked: {err}"


@dataclass
class Verifier:
    """What `verify` reads, loaded once: the statute checker, the case verifier (or why there
    is none), the relevance judge and the LLM panel when asked for. `nyaya verify` uses it for
    one text, `nyaya serve` for every request."""

    checker: Any
    case_verifier: Any
    why_not: str | None
    judge: Any
    llm: Any = None

    @classmethod
    def load(cls, settings: Settings, judge: Callable[[Settings], object] | None = None,
             llm: bool = False) -> Verifier:
        """OSError / ValueError when a table is missing or damaged, or --llm is not set up."""
        from nyaya.verify.statutes import StatuteChecker

        checker = StatuteChecker.from_settings(settings)
        endpoint = _llm(settings) if llm else None
        case_verifier, why_not = _load_case_verifier(settings, endpoint)
        return cls(checker, case_verifier, why_not, judge(settings) if judge else None,
                   endpoint)

    def report(self, text: str, as_of: date | None = None, query: str | None = None):
        """The gate's report on `text`; relevance is judged only for a query."""
        from nyaya.verify.gate import NO_CASE_VERIFIER, verify_text

        report = verify_text(text, self.checker, as_of=as_of, case_verifier=self.case_verifier,
                             query=query, relevance=self.judge if query else None)
        if self.why_not:  # the specific reason instead of the gate's generic note
            report.notes = [self.why_not if note == NO_CASE_VERIFIER else note
                            for note in report.notes]
        if self.llm is not None:
            report.notes.append(f"case panel: LLM validators at {self.llm.chat_url} "
                                f"(model {self.llm.model})")
        return report


def _verify(args: argparse.Namespace) -> int:
    from nyaya.verify.gate import check_length, render_blocks
    from nyaya.verify.model import OVERALL_VERIFIED

    settings = Settings.from_env()
    try:  # the text first: one too long is refused before seconds of loading
        text = _read_text(args.file)
        check_length(text, "standard input" if args.file == "-" else args.file)
        verifier = Verifier.load(settings, args.relevance_judge if args.query else None,
                                 args.llm)
    except (OSError, ValueError) as err:
        print(f"nyaya verify: {err}", file=sys.stderr)
        return 2
    report = verifier.report(text, args.as_of, args.query)
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(render_blocks(report))
    return 0 if report.overall == OVERALL_VERIFIED else 1


def _llm(settings: Settings):
    """The configured LLM endpoint for --llm; a ValueError says what is missing."""
    from nyaya.verify.llm import LlmEndpoint

    endpoint = LlmEndpoint.from_settings(settings)
    if endpoint is None:
        raise ValueError("--llm needs NYAYA_LLM_URL and NYAYA_LLM_MODEL")
    return endpoint


def _read_text(file: str) -> str:
    """The text of a file, or of standard input for "-": UTF-8, refused with the offset of
    the first bad byte (a replaced byte could hide a section number)."""
    where = "standard input" if file == "-" else file
    data = sys.stdin.buffer.read() if file == "-" else Path(file).read_bytes()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise ValueError(f"{where}: not UTF-8 text (byte {err.start})") from err


def _verify_segments(args: argparse.Namespace) -> int:
    from nyaya.verify.llm import LlmSegmentJudge
    from nyaya.verify.segments import (
        DEFAULT_THRESHOLD,
        load_evidence_store,
        render_segments,
        verify_segments,
    )

    try:  # SegmentInputError (bad evidence) and a bad threshold are ValueErrors
        evidence = load_evidence_store(Path(args.evidence))
        text = _read_text(args.file)
        threshold = DEFAULT_THRESHOLD if args.threshold is None else args.threshold
        judge = LlmSegmentJudge(_llm(Settings.from_env())) if args.llm else None
        report = verify_segments(text, evidence, threshold=threshold, judge=judge)
    except (OSError, ValueError) as err:
        print(f"nyaya verify-segments: {err}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_dict(), ensure_ascii=False, indent=2))
    else:
        print(render_segments(report))
    return 0 if report.all_verified else 1


def relevance_judge(settings: Settings):
    """The relevance judge by its trained model alone, no qrels (its module loads retrieval
    code: imported only when a query is given)."""
    from nyaya.verify.relevance import RelevanceJudge

    return RelevanceJudge.from_settings(settings)


def add_commands(commands: argparse._SubParsersAction,
                 judge: Callable[[Settings], object] = relevance_judge) -> None:
    """lookup, verify and verify-segments; `verify --query` judges relevance with `judge`
    (the top layer passes one that also knows the labeled sets' qrels)."""
    lookup = commands.add_parser(
        "lookup", help="exact lookup of statute citations: exit 0 when every one is found, 1 "
        "when not")
    lookup.add_argument("citation", nargs="+",
                        help='one citation (BNS 103, "s. 302 IPC", Article 21), or several, each '
                        'quoted: "BNS 103" "IPC 302" "Art 21"')
    lookup.add_argument("--json", action="store_true", help="print a JSON object")
    lookup.set_defaults(handler=_lookup)
    verify = commands.add_parser(
        "verify", help="verify every citation in a text: exit 0 when VERIFIED, 1 otherwise, "
        "2 when the tables are not built")
    verify.add_argument("file", help="a text file, or - for standard input")
    verify.add_argument("--json", action="store_true", help="print a JSON report")
    verify.add_argument("--as-of", type=date.fromisoformat, default=None, metavar="YYYY-MM-DD",
                        help="date of the conduct: IPC/CrPC/IEA cited on or after 2024-07-01 "
                        "are STALE")
    verify.add_argument("--query", default=None,
                        help="the question the text answers: each cited section is also judged "
                        "RELEVANT, TANGENTIAL or NOT_APPLICABLE to it")
    verify.add_argument("--llm", action="store_true",
                        help="judge case citations we do not hold with the LLM validators at "
                        "NYAYA_LLM_URL (model NYAYA_LLM_MODEL) instead of the rules")
    verify.set_defaults(handler=_verify, relevance_judge=judge)
    segments = commands.add_parser(
        "verify-segments", help="check each [E1]-marked segment of a text against an evidence "
        "store (the segment-verification specification): exit 0 when every segment is "
        "verified, 1 otherwise, 2 on bad input")
    segments.add_argument("file", help="a text file, or - for standard input")
    segments.add_argument("--evidence", required=True, metavar="EVIDENCE.json",
                          help='a JSON list of {"id": "E1", "claim": ..., "quote_span": ..., '
                          '"source": ...}')
    segments.add_argument("--json", action="store_true",
                          help="print the segment-verification specification's JSON layout")
    segments.add_argument("--threshold", type=float, default=None,
                          help="support score a segment needs (default: the calibrated value)")
    segments.add_argument("--llm", action="store_true",
                          help="let the LLM at NYAYA_LLM_URL (model NYAYA_LLM_MODEL) judge each "
                          "segment instead of the support score")
    segments.set_defaults(handler=_verify_segments)
