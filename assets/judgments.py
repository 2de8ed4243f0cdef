"""Judgment tables: judgments, SC registry, chunks, citations, entity index, graph, domains."""


import dagster as dg
import pandas as pd

from assets.sources import (
    JUDGMENT_YEARS,
    SOURCE_FINGERPRINT,
    judgment_corpus,
    report_partitions,
)
from evals.judgment_quality import domain_accuracy, statute_extraction_scores
from nyaya.judgments import tables, validate
from nyaya.judgments.sources import (
    DATASET,
    UNDATED,
    judgment_years,
    read_judgment_dataset,
    read_judgments,
    year_fingerprints,
    year_key,
)
from nyaya.provenance import source_fingerprint
from nyaya.statutes import frames as statute_frames
from nyaya.tables import Part, PartTables
from pipelines.resources import NyayaSettings

GROUP = "judgments"
CODE_VERSION = source_fingerprint(__name__)


class ChunkingConfig(dg.Config):
    """Token budget per chunk (word and punctuation tokens; 192 fits a 256-WordPiece window)."""

    token_budget: int = tables.DEFAULT_TOKEN_BUDGET


PARTS_GROUP = "judgment_parts"


@dg.asset(group_name=PARTS_GROUP, partitions_def=JUDGMENT_YEARS, code_version=CODE_VERSION,
          backfill_policy=dg.BackfillPolicy.single_run())
def judgment_parts(context: dg.AssetExecutionContext, config: ChunkingConfig,
                   settings: NyayaSettings) -> dict[str, Part]:
    """Read, chunk and find case citations in the judgments of this run's years (tables
    `judgments`, `quarantine`, `chunks`, `case_citations`): a changed judgment redoes its year
    alone. Each part keeps the fingerprint of its year's files."""
    resolved = settings.resolved()
    corpus_root = resolved.require_corpus()
    years = judgment_years(corpus_root)
    # taken before reading, as for the statute parts
    fingerprints = year_fingerprints(corpus_root, years, resolved.judgments_dataset)
    gone = sorted(set(context.partition_keys) - set(fingerprints))
    if gone:
        raise ValueError(f"judgment partitions {gone} are no longer in the corpus at "
                         f"{corpus_root}: `nyaya run` removes them before it runs")
    files = {rel for key in context.partition_keys if key != DATASET for rel in years[key]}
    records, quarantined = read_judgments(corpus_root, only=files)
    by_key: dict[str, tuple[list, list]] = {key: ([], []) for key in context.partition_keys}
    for record in records:
        by_key[year_key(record)][0].append(record)
    if UNDATED in by_key:
        by_key[UNDATED][1].extend(quarantined)
    if DATASET in by_key:
        by_key[DATASET] = read_judgment_dataset(resolved.judgments_dataset)
    context.log.info(f"{len(records)} judgments in {len(by_key)} partitions")
    parts = {key: Part(part, {SOURCE_FINGERPRINT: fingerprints[key],
                              "code_version": CODE_VERSION,
                              "token_budget": str(config.token_budget)})
             for key, part in tables.judgment_parts(by_key, config.token_budget).items()}
    report_partitions(context, parts)
    return parts


@dg.multi_asset(
    group_name=GROUP,
    deps=[judgment_corpus],
    outs={
        "judgments": dg.AssetOut(
            code_version=CODE_VERSION,
            description="One row per judgment file, linked across sources."),
        "sc_case_registry": dg.AssetOut(code_version=CODE_VERSION,
            description="The Supreme Court metadata records, joined to judgments."),
        "judgment_quarantine": dg.AssetOut(
            code_version=CODE_VERSION, description="Judgment input that was not usable."),
    },
)
def judgment_sources(context: dg.AssetExecutionContext, settings: NyayaSettings,
                     judgment_parts: PartTables):
    """Every year's judgments, linked where rows are one case, and the SC metadata."""
    judgments, registry, quarantine = tables.judgment_tables(
        settings.resolved().require_corpus(), judgment_parts["judgments"],
        judgment_parts["quarantine"])
    context.log.info(f"{len(judgments)} judgments, {len(registry)} registry records, "
                     f"{len(quarantine)} quarantined")
    yield dg.Output(judgments, "judgments", metadata=validate.judgment_stats(judgments))
    yield dg.Output(registry, "sc_case_registry", metadata={
        "joined_to_judgments": int(registry["case_id"].notna().sum()),
        "with_neutral_citation": int(registry["neutral_citation"].notna().sum())})
    yield dg.Output(quarantine, "judgment_quarantine", metadata={
        "by_reason": str(quarantine["reason"].value_counts().to_dict())})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def judgment_chunks(judgments: pd.DataFrame, judgment_parts: PartTables) -> dg.Output:
    """Paragraph-aware chunks with stable ids and character offsets into the judgment."""
    frame = tables.chunk_table(judgment_parts["chunks"])
    return dg.Output(frame, metadata={
        "chunks_per_judgment": round(len(frame) / max(len(judgments), 1), 2),
        "max_tokens": int(frame["approx_tokens"].max()) if len(frame) else 0})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION, deps=[judgment_corpus])
def citation_mentions(settings: NyayaSettings, judgments: pd.DataFrame,
                      judgment_chunks: pd.DataFrame, act_registry: pd.DataFrame,
                      sections: pd.DataFrame, sc_case_registry: pd.DataFrame,
                      judgment_parts: PartTables) -> dg.Output:
    """Statute mentions and case citations in judgment text, resolved or kept with a reason."""
    frame = tables.mention_table(judgments, judgment_chunks, act_registry, sections,
                                 sc_case_registry, judgment_parts["case_citations"])
    quality = statute_extraction_scores(settings.resolved().require_corpus(), act_registry,
                                        judgments)
    return dg.Output(frame, metadata={**validate.mention_stats(frame), **quality})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def entity_index(citation_mentions: pd.DataFrame) -> dg.Output:
    """Article / Section / Act -> judgments and chunks."""
    frame = tables.entity_index_table(citation_mentions)
    return dg.Output(frame, metadata={"by_type": str(frame["entity_type"].value_counts()
                                                     .to_dict())})


@dg.multi_asset(
    group_name=GROUP,
    outs={"citation_graph_nodes": dg.AssetOut(
            code_version=CODE_VERSION, description="Cases, with PageRank."),
          "citation_graph_edges": dg.AssetOut(code_version=CODE_VERSION,
              description="Case->case and case->section edges with their relation.")},
)
def citation_graph(judgments: pd.DataFrame, citation_mentions: pd.DataFrame,
                   sc_case_registry: pd.DataFrame):
    """Who cites, follows, distinguishes or overrules whom; loadable into networkx."""
    nodes, edges, stats = tables.graph_tables(judgments, citation_mentions, sc_case_registry)
    yield dg.Output(nodes, "citation_graph_nodes", metadata={
        "by_type": str(nodes["node_type"].value_counts().to_dict()),
        "overruled": int(nodes["overruled"].sum())})
    yield dg.Output(edges, "citation_graph_edges", metadata={
        "by_relation": str(edges.groupby(["target_type", "relation"]).size().to_dict()),
        **stats})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def domain_tags(judgments: pd.DataFrame, judgment_chunks: pd.DataFrame,
                citation_mentions: pd.DataFrame, sections: pd.DataFrame,
                act_registry: pd.DataFrame) -> dg.Output:
    """A legal_domain for every section, judgment and chunk, with method and confidence."""
    frame = tables.domain_table(judgments, judgment_chunks, citation_mentions, sections,
                                act_registry)
    return dg.Output(frame, metadata={**validate.domain_stats(frame),
                                      **domain_accuracy(frame)})


@dg.asset(group_name=GROUP, code_version=CODE_VERSION)
def human_review_queue(sections: pd.DataFrame, ingest_quarantine: pd.DataFrame,
                       law_transition_map: pd.DataFrame,
                       judgment_quarantine: pd.DataFrame) -> dg.Output:
    """Low-confidence sections, quarantined statute and judgment input and failed
    validations, each with a reason: the one list a person works through."""
    frame = statute_frames.review_queue_frame(sections, ingest_quarantine, law_transition_map,
                                              judgment_quarantine)
    return dg.Output(frame, metadata={"by_issue": str(frame["issue"].value_counts().to_dict())})


def _check(result: validate.Result) -> dg.AssetCheckResult:
    passed, summary, details = result
    return dg.AssetCheckResult(passed=bool(passed), description=summary,
                               metadata={k: str(v) for k, v in details.items()})


@dg.asset_check(asset="judgments", blocking=True,
                additional_ins={"judgment_quarantine": dg.AssetIn("judgment_quarantine")})
def judgments_per_source(settings: NyayaSettings, judgments: pd.DataFrame,
                         judgment_quarantine: pd.DataFrame) -> dg.AssetCheckResult:
    """Every corpus file is a judgment row or a quarantine row: 2,914 + 2,000 + 200."""
    return _check(validate.counts_per_source(judgments, judgment_quarantine,
                                             settings.resolved().require_corpus()))


@dg.asset_check(asset="judgments", blocking=True)
def judgments_have_text(judgments: pd.DataFrame) -> dg.AssetCheckResult:
    """No judgment row with empty text (damaged files are quarantined instead)."""
    return _check(validate.no_empty_text(judgments))


@dg.asset_check(asset="judgments")
def decision_dates_parse(judgments: pd.DataFrame) -> dg.AssetCheckResult:
    """Share of judgments with a decision date, per source, above its floor."""
    return _check(validate.date_parse_rate(judgments))


@dg.asset_check(asset="sc_case_registry", blocking=True,
                additional_ins={"judgment_quarantine": dg.AssetIn("judgment_quarantine")})
def registry_complete(sc_case_registry: pd.DataFrame,
                      judgment_quarantine: pd.DataFrame) -> dg.AssetCheckResult:
    """28,881 metadata records, read or quarantined; record ids unique."""
    return _check(validate.registry_complete(sc_case_registry, judgment_quarantine))


@dg.asset_check(asset="citation_mentions",
                additional_ins={"judgments": dg.AssetIn("judgments")})
def citations_parse(judgments: pd.DataFrame,
                    citation_mentions: pd.DataFrame) -> dg.AssetCheckResult:
    """Header citations understood and statute mentions resolved above their floors."""
    return _check(validate.citation_parse_rates(judgments, citation_mentions))


@dg.asset_check(asset="citation_graph_edges", blocking=True,
                additional_ins={"citation_graph_nodes": dg.AssetIn("citation_graph_nodes"),
                                "sections": dg.AssetIn("sections")})
def graph_has_no_dangling_edges(citation_graph_nodes: pd.DataFrame,
                                citation_graph_edges: pd.DataFrame,
                                sections: pd.DataFrame) -> dg.AssetCheckResult:
    """Every edge ends at a node of the graph or at a section of the sections table."""
    return _check(validate.no_dangling_edges(citation_graph_nodes, citation_graph_edges,
                                             sections))


@dg.asset_check(asset="domain_tags")
def domain_coverage(domain_tags: pd.DataFrame) -> dg.AssetCheckResult:
    """At least 95% of judgment chunks carry a domain (the served system managed 5%)."""
    return _check(validate.domain_coverage(domain_tags))
