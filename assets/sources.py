"""The corpus as observable source assets: their data version is a content fingerprint, so
Dagster marks every table built from them stale exactly when the files change."""

from collections.abc import Mapping

import dagster as dg
import pandas as pd

from nyaya.provenance import dataset_fingerprint, tree_fingerprint
from nyaya.tables import Part
from pipelines.resources import NyayaSettings

GROUP = "sources"

#: One partition per statute source (an India Code Act folder or a JSON code): the keys are the
#: corpus's, so they are dynamic; `pipelines.partitions.sync_partitions` keeps them in step, and
#: `pipelines.freshness.partitions_to_run` compares each source's fingerprint with the one in
#: its part files' footers.
STATUTE_SOURCES = dg.DynamicPartitionsDefinition(name="statute_sources")
#: One partition per year of decision of the corpus judgments, plus 'undated' (and 'dataset'
#: for the optional Hugging Face dataset); kept in step the same way.
JUDGMENT_YEARS = dg.DynamicPartitionsDefinition(name="judgment_years")
#: the provenance key under which a part's files keep their source's fingerprint (what they
#: were built from)
SOURCE_FINGERPRINT = "source_fingerprint"


@dg.observable_source_asset(
    group_name=GROUP,
    description="Statute texts and the old->new code mapping tables under the corpus root, "
    "observed by content fingerprint.")
def statute_corpus(settings: NyayaSettings) -> dg.DataVersion:
    """The fingerprint of statutes/ and mappings/ (the UI shows the description above)."""
    corpus = settings.resolved().require_corpus()
    return dg.DataVersion(tree_fingerprint(corpus, ("statutes", "mappings")))


@dg.observable_source_asset(
    group_name=GROUP,
    description="Judgment texts, their metadata and relevance files, plus the optional extra "
    "dataset, observed by content fingerprint.")
def judgment_corpus(settings: NyayaSettings) -> dg.DataVersion:
    """The fingerprint of judgments/ and the extra dataset (the UI shows the description
    above)."""
    resolved = settings.resolved()
    corpus = resolved.require_corpus()
    fingerprint = tree_fingerprint(corpus, ("judgments",))
    if resolved.judgments_dataset:
        fingerprint += "+" + dataset_fingerprint(resolved.judgments_dataset)
    return dg.DataVersion(fingerprint)


def report_partitions(context: dg.AssetExecutionContext,
                      outputs: Mapping[str, Part | pd.DataFrame],
                      extra: Mapping[str, Mapping] | None = None) -> None:
    """Each partition's own figures on its own materialization (a run over many partitions
    records one event per partition; figures of the whole run would repeat on each): its rows,
    per table for a part, and any `extra` figures of that partition."""
    for key, value in outputs.items():
        if isinstance(value, Part):
            figures = {"dagster/row_count": sum(len(frame) for frame in value.tables.values()),
                       **{f"{name}_rows": len(frame) for name, frame in value.tables.items()}}
        else:
            figures = {"dagster/row_count": len(value)}
        context.add_asset_metadata({**figures, **(extra or {}).get(key, {})}, partition_key=key)
