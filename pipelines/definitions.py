"""The one Definitions object: every asset, check, job, schedule, sensor and resource."""

from __future__ import annotations

import dagster as dg

from assets import evaluation, indexes, judgments, sources, statutes
from pipelines.resources import NyayaSettings, project_resources
from pipelines.schedules import every_partition, nightly_evaluation
from pipelines.sensors import corpus_change_sensor, ingest_after_parts
from pipelines.writers import folder_tags

#: every job's runs name their data folder: the run queue lets one in at a time per folder
WRITER = folder_tags(NyayaSettings().resolved().data_dir)
all_assets = dg.load_assets_from_modules([sources, statutes, judgments, indexes, evaluation])
all_checks = dg.load_asset_checks_from_modules([statutes, judgments, indexes, evaluation])

#: the statute parts (per source) and judgment parts (per year) run in jobs of their own: a
#: job holds one partitions definition, and the evaluation's is the retrieval configs
PARTS = dg.AssetSelection.groups(statutes.PARTS_GROUP, judgments.PARTS_GROUP)
statute_parts_job = dg.define_asset_job(
    "statute_parts_job", tags=WRITER, selection=dg.AssetSelection.groups(statutes.PARTS_GROUP),
    description="Parse the statute sources of its partitions, one Act or JSON code each.")
judgment_parts_job = dg.define_asset_job(
    "judgment_parts_job", tags=WRITER, selection=dg.AssetSelection.groups(judgments.PARTS_GROUP),
    description="Read, chunk and find case citations in the judgments of its years.")
#: the vectors built per statute source and per year: they read the whole document tables,
#: so `nyaya run` runs these jobs between the document tables and what reads the vectors
VECTOR_PARTS = dg.AssetSelection.assets(*(f"{definition.name}_vectors"
                                          for definition in indexes.VECTOR_PARTITIONS))


def _vectors_job(name: str, partitions: dg.DynamicPartitionsDefinition,
                 what: str) -> dg.UnresolvedAssetJobDefinition:
    return dg.define_asset_job(
        name, description=f"Embed the documents of {what}.", tags=WRITER,
        selection=dg.AssetSelection.assets(*(
            f"{definition.name}_vectors"
            for definition, keyed in indexes.VECTOR_PARTITIONS.items() if keyed is partitions)))


statute_vectors_job = _vectors_job("statute_vectors_job", sources.STATUTE_SOURCES,
                                   "its statute sources (sections, sub-sections)")
judgment_vectors_job = _vectors_job("judgment_vectors_job", sources.JUDGMENT_YEARS,
                                    "its years of judgments (chunks)")
main_job = dg.define_asset_job(
    "main_job", tags=WRITER, selection=dg.AssetSelection.all() - PARTS - VECTOR_PARTS,
    description="Corpus to report: ingest, tables, indexes, checks, runs, metrics and the report.")
ingest_job = dg.define_asset_job(
    "ingest_job", tags=WRITER, selection=dg.AssetSelection.groups(statutes.GROUP, judgments.GROUP),
    description="Statute and judgment tables only (what the corpus sensor starts).")
index_job = dg.define_asset_job(
    "index_job", tags=WRITER, selection=dg.AssetSelection.groups(indexes.GROUP) - VECTOR_PARTS,
    description="Document tables, vectors, Qdrant collections and FAISS indexes.")
evaluation_job = dg.define_asset_job(
    "evaluation_job", tags=WRITER, selection=dg.AssetSelection.groups(evaluation.GROUP),
    description="Runs, metrics and report over the current tables (the nightly schedule).")

defs = dg.Definitions(
    assets=all_assets,
    asset_checks=all_checks,
    jobs=[statute_parts_job, judgment_parts_job, statute_vectors_job, judgment_vectors_job,
          main_job, ingest_job, index_job, evaluation_job],
    schedules=[nightly_evaluation(evaluation_job, evaluation.CONFIGS)],
    sensors=[corpus_change_sensor([statute_parts_job, judgment_parts_job], ingest_job),
             ingest_after_parts([statute_parts_job, judgment_parts_job], ingest_job)],
    resources=project_resources(),
)


def run_tags(job_name: str) -> dict[str, str]:
    """What a run of the job needs to cover all of it: every config partition, if it has any."""
    return every_partition(defs.resolve_job_def(job_name).partitions_def)


def job_named(name: str) -> dg.JobDefinition:
    """The job, resolved: what a multiprocess run rebuilds in every step's process."""
    return defs.resolve_job_def(name)
