"""The corpus as observable source assets: their data version is a content fingerprint, so
Dagster marks every table built from them stale exactly when the files change."""

import hashlib
from pathlib import Path

import dagster as dg

from nyaya.provenance import tree_fingerprint
from pipelines.resources import NyayaSettings

GROUP = "sources"

#: One partition per statute source (an India Code Act folder or a JSON code): the keys are the
#: corpus's, so they are dynamic; `pipelines.partitions.sync_partitions` keeps them in step, and
#: `pipelines.freshness.partitions_to_run` compares each source's fingerprint with the one its
#: partition was parsed from (one query for all partitions, where Dagster's per-partition
#: staleness costs ~16 ms each, 40 s for the corpus).
STATUTE_SOURCES = dg.DynamicPartitionsDefinition(name="statute_sources")


@dg.observable_source_asset(group_name=GROUP)
def statute_corpus(settings: NyayaSettings) -> dg.DataVersion:
    """Statute texts and the old->new code mapping tables under the corpus root."""
    corpus = settings.resolved().require_corpus()
    return dg.DataVersion(tree_fingerprint(corpus, ("statutes", "mappings")))


@dg.observable_source_asset(group_name=GROUP)
def judgment_corpus(settings: NyayaSettings) -> dg.DataVersion:
    """Judgment texts, their metadata and relevance files, plus the optional extra dataset."""
    resolved = settings.resolved()
    corpus = resolved.require_corpus()
    fingerprint = tree_fingerprint(corpus, ("judgments",))
    if resolved.judgments_dataset:
        fingerprint += "+" + dataset_fingerprint(resolved.judgments_dataset)
    return dg.DataVersion(fingerprint)


def dataset_fingerprint(dataset: str) -> str:
    """A local datasets file or folder by content; a hub id (served from the offline cache)
    by its name."""
    path = Path(dataset)
    if path.is_dir():
        return tree_fingerprint(path.parent, (path.name,))
    if path.is_file():
        return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
    return dataset
