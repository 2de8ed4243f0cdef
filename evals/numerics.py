"""Whether two builds of one embedder give the same vectors: a probe kept with the baseline.

A regression baseline's scores hold for the vectors they were measured on. The same code,
corpus and embedder name gave other minilm-int8 section vectors on another machine
(2026-12-02: every sparse and static-vector config matched the baseline to four decimals, half
of the configs reading the int8 vectors moved, four beyond tolerance), so the check failed on a
build nobody had changed. The probe is the similarity of a few sentences encoded the way the
index encodes (one batch) against the same sentences encoded the way a query is (one at a
time): two builds whose probes differ do not give comparable scores, and the check says so
(`not_comparable`) instead of failing or passing. (That day's cause: batched int8 vectors
depended on their batch neighbours; int8 now encodes each text alone. The probe stays:
another machine, library or model can still change the vectors.)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import numpy as np

from nyaya.index.embedders import Embedder, EmbedderError, load_embedder
from nyaya.settings import Settings

PROBE_TEXTS = (
    "Whoever commits murder shall be punished with death or imprisonment for life.",
    "The landlord may recover possession of the premises let to the tenant for his own use.",
    "Every person arrested shall be produced before the nearest Magistrate within twenty-four "
    "hours of such arrest.",
    "A cheque returned by the bank unpaid because the amount of money standing to the credit "
    "of that account is insufficient.",
    "The Court may grant a temporary injunction to restrain the defendant from alienating the "
    "property in dispute.",
    "Information relating to the commission of a cognizable offence given orally to an officer "
    "in charge of a police station.",
)
#: Digits kept of each similarity, and how far two probes may differ and still agree: well
#: above a float32 summation order (1e-7), well below what moved the rankings.
PROBE_DIGITS = 5
PROBE_TOLERANCE = 2e-4


def numerics_probe(embedder: Embedder) -> list[float]:
    """The similarity of each probe sentence as a query (one text per call) to each as a
    document (all in one call), row by row."""
    documents = embedder.encode(list(PROBE_TEXTS))
    queries = np.vstack([embedder.encode([text]) for text in PROBE_TEXTS])
    return [round(float(value), PROBE_DIGITS) for value in (queries @ documents.T).ravel()]


def probes_agree(now: Sequence[float], then: Sequence[float]) -> bool:
    return len(now) == len(then) and bool(
        np.max(np.abs(np.asarray(now) - np.asarray(then)), initial=0.0) <= PROBE_TOLERANCE)


def measure_probes(settings: Settings, embedders: Iterable[str]) -> dict[str, list[float]]:
    """The probe of each named embedder this machine can build; a name it cannot (unknown,
    or its model not on disk) is left out and its scores are compared as before."""
    probes = {}
    for name in sorted(set(embedders)):
        try:
            embedder = load_embedder(name, settings.models_dir, settings.bge_m3_path)
        except (EmbedderError, OSError):
            continue
        probes[name] = numerics_probe(embedder)
    return probes
