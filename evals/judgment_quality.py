"""Quality of the judgment tables against hand labels in `evals/labels/`.

Statute-mention extraction is scored on regions of judgments labeled exhaustively by reading
(precision: of the mentions found inside a region, how many match a label; recall: of the
labels, how many were found), both for finding the mention (span overlap) and for resolving
it (same act_code and section too). Domain tags are scored on hand-labeled judgments, strictly
(the primary domain) and leniently (the primary or a labeled secondary domain).
"""

from __future__ import annotations

import zlib
from functools import cache
from importlib import resources
from pathlib import Path

import pandas as pd

from evals.inputs import read_yaml
from nyaya.citations.statutes import extract_statute_mentions
from nyaya.judgments.tables import resolve_in_time
from nyaya.statutes.indiacode import normalize_section_number
from nyaya.statutes.registry import alias_index_from_rows


@cache
def load_labels(name: str) -> dict:
    """A label file of evals/labels/; a YAML error names the file."""
    return read_yaml(resources.files("evals").joinpath("labels", name))


def _same_provision(label: dict, act_code: str | None, section: str | None) -> bool:
    if label.get("act_code") != act_code:
        return False
    if label.get("section") is None or section is None:
        return label.get("section") == section
    return normalize_section_number(str(label["section"])) == normalize_section_number(section)


def statute_extraction_scores(corpus_root: Path, act_registry: pd.DataFrame,
                              judgments: pd.DataFrame) -> dict:
    """Precision and recall of statute mentions on the labeled regions present in the corpus."""
    labels = load_labels("statute_mentions.yaml")["regions"]
    aliases = alias_index_from_rows(act_registry.to_dict("records"))
    act_years = dict(zip(act_registry["act_code"], act_registry["year"], strict=True))
    years = dict(zip(judgments["doc_id"], judgments["year"], strict=True))
    counts = dict.fromkeys(("labels", "found", "span_tp", "full_tp", "span_fp", "full_fp"), 0)
    regions = 0
    for region in labels:
        path = corpus_root / region["source_file"]
        if not path.exists():
            continue
        regions += 1
        text = path.read_text(encoding="utf-8")
        found = [m for m in extract_statute_mentions(text, aliases)
                 if region["start"] <= m.start < region["end"]]
        unmatched = list(region["mentions"])
        counts["labels"] += len(unmatched)
        counts["found"] += len(found)
        for m in found:
            act_code, _, _ = resolve_in_time(m.act_code, m.resolution, m.problem, act_years,
                                             years.get(region["doc_id"]))
            overlapping = [lab for lab in unmatched
                           if lab["start"] < m.end and m.start < lab["end"]]
            if not overlapping:
                counts["span_fp"] += 1
                counts["full_fp"] += 1
                continue
            counts["span_tp"] += 1
            exact = [lab for lab in overlapping if _same_provision(lab, act_code, m.section)]
            if exact:
                counts["full_tp"] += 1
                unmatched.remove(exact[0])
            else:
                counts["full_fp"] += 1
                unmatched.remove(overlapping[0])
    if not counts["labels"]:
        return {"extraction_labeled_regions": 0}
    return {
        "extraction_labeled_regions": regions,
        "extraction_labeled_mentions": counts["labels"],
        "extraction_found_mentions": counts["found"],
        "detection_precision": round(counts["span_tp"] / max(counts["found"], 1), 4),
        "detection_recall": round(counts["span_tp"] / counts["labels"], 4),
        "resolution_precision": round(counts["full_tp"] / max(counts["found"], 1), 4),
        "resolution_recall": round(counts["full_tp"] / counts["labels"], 4),
    }


def domain_accuracy(tags: pd.DataFrame) -> dict:
    """Strict and lenient accuracy of judgment-level domains on the labeled judgments."""
    labeled = load_labels("judgment_domains.yaml")["judgments"]
    predicted = dict(zip(tags.loc[tags["unit_type"] == "judgment", "unit_id"],
                         tags.loc[tags["unit_type"] == "judgment", "legal_domain"], strict=True))
    present = [row for row in labeled if row["doc_id"] in predicted]
    if not present:
        return {"domain_labeled_judgments": 0}
    def accuracy(rows: list[dict], lenient: bool) -> float:
        hits = sum(predicted[row["doc_id"]] in
                   ({row["domain"], *row.get("also", [])} if lenient else {row["domain"]})
                   for row in rows)
        return round(hits / len(rows), 4) if rows else 0.0

    # Tagger changes are compared on the even half only; the odd half checks they generalize.
    heldout = [row for row in present if zlib.crc32(row["doc_id"].encode()) % 2 == 1]
    return {"domain_labeled_judgments": len(present),
            "domain_accuracy_strict": accuracy(present, lenient=False),
            "domain_accuracy_lenient": accuracy(present, lenient=True),
            "domain_heldout_judgments": len(heldout),
            "domain_accuracy_strict_heldout": accuracy(heldout, lenient=False)}
