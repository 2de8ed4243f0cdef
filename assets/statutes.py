"""Statute tables: registry, sections, sub-sections, transition map, references, review queue."""


import dagster as dg
import pandas as pd

from assets.sources import (
    SOURCE_FINGERPRINT,
    STATUTE_SOURCES,
    report_partitions,
    statute_corpus,
)
from nyaya.provenance import source_fingerprint
from nyaya.statutes import frames, validate
from nyaya.statutes.ingest import act_codes, parse_source, source_fingerprints
from nyaya.statutes.model import Quarantined, SectionRecord
from nyaya.statutes.registry import ActEntry, alias_index_from_rows, known_gaps
from nyaya.statutes.transitions import build_transition_map
from nyaya.tables import Part, PartTables, from_records_frame, records_frame
from pipelines.resources import NyayaSettings

GROUP = "statutes"
CODE_VERSION = source_fingerprint(__name__)


PARTS_GROUP = "statute_parts"
#: the part's table -> the records it holds
PARSED = {"acts": ActEntry, "sections": SectionRecord, "quarantine": Quarantined}


@dg.asset(group_name=PARTS_GROUP, partitions_def=STATUTE_SOURCES, code_version=CODE_VERSION,
          backfill_policy=dg.BackfillPolicy.single_run())
def statute_parts(context: dg.AssetExecutionContext, settings: NyayaSettings) -> dict[str, Part]:
    """Parse the statute sources of this run's partitions, one Act (or JSON code) each, into
    its registry entry, sections and quarantined input: a changed Act is parsed again alone,
    and a backfill runs every partition in one process. Each part keeps the fingerprint of
    the source it was parsed from."""
    corpus_root = settings.resolved().require_corpus()
    codes = act_codes(corpus_root)
    gone = sorted(set(context.partition_keys) - set(codes))
    if gone:
        raise ValueError(f"statute sources {gone} are partitions but no longer in the corpus "
                         f"at {corpus_root}: `nyaya run` removes them before it runs")
    # taken before parsing: a file changed meanwhile leaves an older fingerprint, so the next
    # run parses again instead of trusting parts newer than their record
    fingerprints = source_fingerprints(corpus_root, codes)
    parts = {}
    for key in context.partition_keys:
        parsed = parse_source(corpus_root, key, codes[key])
        records = {"acts": parsed.registry, "sections": parsed.sections,
                   "quarantine": parsed.quarantined}
        parts[key] = Part({name: records_frame(records[name], kind)
                           for name, kind in PARSED.items()},
                          {SOURCE_FINGERPRINT: fingerprints[key], "code_version": CODE_VERSION,
                           "act_code": codes[key]})
    context.log.info(f"{len(parts)} statute sources parsed")
    report_partitions(context, parts)
    return parts


@dg.multi_asset(
    group_name=GROUP,
    deps=[statute_corpus],
    outs={
        "act_registry": dg.AssetOut(
            code_version=CODE_VERSION, description="One row per Act from every source."),
        "sections": dg.AssetOut(
            code_version=CODE_VERSION, description="One row per section (per Article for COI)."),
        "ingest_quarantine": dg.AssetOut(
            code_version=CODE_VERSION, description="Input that could not become a record."),
    },
)
def statute_tables(context: dg.AssetExecutionContext, statute_parts: PartTables):
    """Assemble every source's parsed records into the registry, sections and quarantine."""
    parsed = {name: from_records_frame(statute_parts[name], kind)
              for name, kind in PARSED.items()}
    registry = frames.registry_frame(parsed["acts"])
    sections = frames.sections_frame(parsed["sections"], registry)
    quarantine = frames.quarantine_frame(parsed["quarantine"])
    context.log.info(f"{len(registry)} Acts, {len(sections)} sections, "
                     f"{len(quarantine)} quarantined records")
    per_reason = quarantine["reason"].value_counts().to_dict()
    yield dg.Output(registry, "act_registry", metadata={
        "curated": int(registry["curated"].sum()),
        "by_format": str(registry["section_format"].value_counts().to_dict())})
    yield dg.Output(sections, "sections", metadata={
        "acts_with_sections": int(sections["act_code"].nunique()),
        "below_full_confidence": int((sections["extraction_confidence"] < 1.0).sum())})
    yield dg.Output(quarantine, "ingest_quarantine", metadata={"by_reason": str(per_reason)})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION, deps=[statute_corpus])
def law_transition_map(settings: NyayaSettings, sections: pd.DataFrame) -> dg.Output:
    """IPC->BNS, CrPC->BNSS, IEA->BSA rows from every mapping table, disagreements flagged."""
    rows, quarantined = build_transition_map(settings.resolved().require_corpus())
    frame = frames.transition_frame(rows, sections)
    return dg.Output(frame, metadata={
        "by_table": str(frame["source_table"].value_counts().to_dict()),
        "disagreements": int(frame["disagreement"].sum()),
        "unresolved": int((~frame["resolves"]).sum()),
        "quarantined_rows": len(quarantined)})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def sub_sections(sections: pd.DataFrame) -> dg.Output:
    """Sub-section, clause, proviso, explanation and illustration units."""
    frame = frames.sub_sections_frame(sections)
    return dg.Output(frame, metadata={"by_kind": str(frame["unit_kind"].value_counts().to_dict())})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def cross_references(sections: pd.DataFrame, act_registry: pd.DataFrame) -> dg.Output:
    """References between sections found in their text, typed by the words around them."""
    frame = frames.cross_references_frame(
        sections, alias_index_from_rows(act_registry.to_dict("records")))
    return dg.Output(frame, metadata={
        "by_type": str(frame["reference_type"].value_counts().to_dict()),
        "target_exists_share": float(frame["target_exists"].mean()) if len(frame) else 0.0})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def definitions_index(sections: pd.DataFrame) -> dg.Output:
    """Defined terms -> (act, section, clause) from the definition sections."""
    frame = frames.definitions_frame(sections)
    return dg.Output(frame, metadata={"acts": int(frame["act_code"].nunique())})


def _check(result: validate.Result) -> dg.AssetCheckResult:
    passed, summary, details = result
    return dg.AssetCheckResult(passed=passed, description=summary,
                               metadata={k: str(v) for k, v in details.items()})


@dg.asset_check(asset="sections", blocking=True)
def sections_match_official_counts(sections: pd.DataFrame) -> dg.AssetCheckResult:
    """BNS 358, BNSS 531, BSA 170 sections; IPC, CrPC, IEA and COI at least their floors."""
    return _check(validate.official_counts(sections))


@dg.asset_check(asset="sections", blocking=True)
def sections_are_unique(sections: pd.DataFrame) -> dg.AssetCheckResult:
    """No two rows share (act_code, section_number)."""
    return _check(validate.unique_sections(sections))


@dg.asset_check(asset="sections", blocking=True)
def in_force_sections_have_text(sections: pd.DataFrame) -> dg.AssetCheckResult:
    """An in-force section with empty text would be retrieved and verified as nothing."""
    return _check(validate.in_force_have_text(sections))


@dg.asset_check(asset="act_registry", blocking=True)
def registry_covers_corpus(settings: NyayaSettings,
                           act_registry: pd.DataFrame) -> dg.AssetCheckResult:
    """Every Act folder in the corpus has exactly one registry entry and code."""
    return _check(validate.registry_covers_corpus(act_registry,
                                                  settings.resolved().require_corpus()))


@dg.asset_check(asset="law_transition_map")
def mapping_rows_resolve(law_transition_map: pd.DataFrame) -> dg.AssetCheckResult:
    """Every mapping row lands on existing sections on both sides (known corpus gaps listed)."""
    return _check(validate.mappings_resolve(law_transition_map, known_gaps()))
