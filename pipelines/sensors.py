"""Start ingestion when the corpus changes (compared by content fingerprint)."""

from __future__ import annotations

import dagster as dg

from nyaya.provenance import tree_fingerprint
from nyaya.settings import Settings

WATCHED = ("statutes", "mappings", "judgments")


def corpus_change_sensor(job: dg.UnresolvedAssetJobDefinition) -> dg.SensorDefinition:
    @dg.sensor(name="corpus_change_sensor", job=job, minimum_interval_seconds=300)
    def _sensor(context: dg.SensorEvaluationContext):
        corpus = Settings.from_env().corpus_root
        if not (corpus / "statutes").is_dir():
            return dg.SkipReason(f"no corpus at {corpus}")
        fingerprint = tree_fingerprint(corpus, WATCHED)
        if fingerprint == context.cursor:
            return dg.SkipReason(f"corpus unchanged ({fingerprint})")
        context.update_cursor(fingerprint)
        return dg.RunRequest(run_key=fingerprint, tags={"corpus_fingerprint": fingerprint})

    return _sensor
