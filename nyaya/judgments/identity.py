"""Which rows are the same case: across judgment sources, and against the SC registry.

Nothing is merged away: every source keeps its own doc_id, and rows judged to be one case
share a `case_id` and list each other in `same_case_as`. Two rows are one case when they
share a reporter citation, or when they carry the same decision date and their texts share
most of their word 5-grams (the sources reformat headers, not judgments).
"""

from __future__ import annotations

import re
import zlib
from collections import defaultdict
from collections.abc import Iterable

from nyaya.citations.cases import case_name_key

SHINGLE_WORDS = 5
SAME_TEXT_CONTAINMENT = 0.5
SAME_NAME_JACCARD = 0.5
_WORD = re.compile(r"[a-z0-9]+")


class _UnionFind:
    def __init__(self, items: Iterable[str]) -> None:
        self.parent = {item: item for item in items}

    def find(self, item: str) -> str:
        while self.parent[item] != item:
            self.parent[item] = self.parent[self.parent[item]]
            item = self.parent[item]
        return item

    def union(self, a: str, b: str) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            # the smaller id becomes the root, so case ids do not depend on input order
            self.parent[max(ra, rb)] = min(ra, rb)


def shingles(text: str, words: int = SHINGLE_WORDS) -> set[int]:
    tokens = _WORD.findall(text.lower())
    return {zlib.crc32(" ".join(tokens[i:i + words]).encode())
            for i in range(max(0, len(tokens) - words + 1))}


def containment(a: set[int], b: set[int]) -> float:
    if not a or not b:
        return 0.0
    return len(a & b) / min(len(a), len(b))


def name_tokens(name: str | None) -> frozenset[str]:
    return frozenset(case_name_key(name).split()) if name else frozenset()


def jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    return len(a & b) / len(a | b) if a and b else 0.0


def link_same_cases(rows: list[dict]) -> dict[str, str]:
    """doc_id -> case_id for judgment rows with doc_id, decision_date, text, citation_keys.

    The case_id is the smallest doc_id of the group, prefixed "CASE:".
    """
    groups = _UnionFind(row["doc_id"] for row in rows)
    by_key: dict[str, str] = {}
    for row in rows:
        for key in row["citation_keys"]:
            if key in by_key:
                groups.union(by_key[key], row["doc_id"])
            else:
                by_key[key] = row["doc_id"]
    by_date: dict[str, list[dict]] = defaultdict(list)
    for row in rows:
        if row["decision_date"]:
            by_date[row["decision_date"]].append(row)
    for same_day in by_date.values():
        sources = {row["source"] for row in same_day}
        if len(same_day) < 2 or len(sources) < 2:
            continue
        grams = {row["doc_id"]: shingles(row["text"]) for row in same_day}
        for i, a in enumerate(same_day):
            for b in same_day[i + 1:]:
                if a["source"] == b["source"]:
                    continue
                if containment(grams[a["doc_id"]], grams[b["doc_id"]]) >= SAME_TEXT_CONTAINMENT:
                    groups.union(a["doc_id"], b["doc_id"])
    return {row["doc_id"]: "CASE:" + groups.find(row["doc_id"]) for row in rows}


def match_registry(judgment: dict, by_key: dict[str, list[str]],
                   by_date: dict[str, list[dict]],
                   records: dict[str, dict]) -> tuple[str | None, str | None]:
    """(registry record_id, how) for one judgment row, or (None, None).

    A shared neutral or SCR citation decides, unless the two hold different SCR citations or
    different decision dates: an IRLeD header's "[1992] INSC 36" is LII of India's number,
    which the Court's scheme may give to another judgment of that year (the header's "1992
    (1) SCR 565" against the record's "[1992] 1 SCR 530", or another day). Failing that, the
    same decision date and party names that mostly agree (word Jaccard of the normalized
    names). `records`: record_id -> the record's citation_keys and decision_date.
    """
    own_scr = {key for key in judgment["citation_keys"] if " SCR " in key}
    date = judgment["decision_date"]
    for key in judgment["citation_keys"]:
        hits = by_key.get(key, [])
        if len(hits) == 1:
            record = records[hits[0]]
            record_scr = {k for k in record["citation_keys"] if " SCR " in k}
            if own_scr and record_scr and not own_scr & record_scr:
                continue
            if date and record["decision_date"] and date != record["decision_date"]:
                continue
            return hits[0], "citation"
    names = name_tokens(judgment["case_name"])
    if not date or not names:
        return None, None
    scored = sorted(((jaccard(names, name_tokens(rec["title"])), rec["record_id"])
                     for rec in by_date.get(date, [])), reverse=True)
    if scored and scored[0][0] >= SAME_NAME_JACCARD and (
            len(scored) == 1 or scored[1][0] < scored[0][0]):
        return scored[0][1], "date_and_name"
    return None, None
