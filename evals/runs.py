"""TREC runs: every query of the set gets its lines; ties broken by doc id, deterministically."""

from __future__ import annotations

import math
from pathlib import Path

import pandas as pd

from evals.inputs import read_text

RUN_COLUMNS = ["qid", "doc_id", "rank", "score", "method"]


def rank_frame(hits: dict[str, list[tuple[str, float, str]]]) -> pd.DataFrame:
    """qid -> [(doc_id, score, method)] as a frame ranked by score, then doc id."""
    rows = []
    for qid in sorted(hits):
        ordered = sorted(hits[qid], key=lambda hit: (-hit[1], hit[0]))
        rows.extend({"qid": qid, "doc_id": doc, "rank": rank, "score": score, "method": method}
                    for rank, (doc, score, method) in enumerate(ordered, start=1))
    return pd.DataFrame(rows, columns=RUN_COLUMNS)


def strictly_decreasing(frame: pd.DataFrame, step: float = 1e-6) -> pd.DataFrame:
    """Scores that strictly decrease with rank, so a tool re-sorting by score keeps our order.

    ranx and trec_eval break score ties differently; nudging each tied score just below its
    predecessor (by `step`, the printed precision) removes the ambiguity without reordering.
    """
    out = frame.sort_values(["qid", "rank"], kind="mergesort").reset_index(drop=True)
    scores, previous_qid, previous = [], None, 0.0
    # plain lists: iterating Arrow-backed columns element by element costs a microsecond each
    for qid, score in zip(out["qid"].tolist(), out["score"].tolist(), strict=True):
        score = round(float(score), 6)
        if qid == previous_qid and score > previous - step:
            score = round(previous - step, 6)
        scores.append(score)
        previous_qid, previous = qid, score
    out["score"] = scores
    return out


def write_trec(frame: pd.DataFrame, path: Path, tag: str, all_qids: list[str]) -> None:
    """Six-column TREC run; a query with no hits is recorded in a comment-free sidecar."""
    path.parent.mkdir(parents=True, exist_ok=True)
    ranked = strictly_decreasing(frame)
    lines = [f"{qid} Q0 {doc_id} {rank} {score:.6f} {tag}" for qid, doc_id, rank, score in zip(
        *(ranked[column].tolist() for column in ("qid", "doc_id", "rank", "score")), strict=True)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    empty = sorted(set(all_qids) - set(frame["qid"].tolist()))
    path.with_suffix(".empty.txt").write_text("\n".join(empty) + ("\n" if empty else ""),
                                              encoding="utf-8")


class TrecRunError(ValueError):
    """A TREC run file that cannot be read; names the file and line."""


def read_trec(path: Path) -> pd.DataFrame:
    """A six-column TREC run (`qid Q0 doc_id rank score tag`) as a frame ranked per query by
    score, then doc id (as `rank_frame` orders ours), whatever rank column the file carries."""
    rows = []
    seen: set[tuple[str, str]] = set()
    for number, line in enumerate(read_text(path, TrecRunError).splitlines(), 1):
        parts = line.split()
        if not parts:
            continue
        if len(parts) != 6:
            raise TrecRunError(f"{path}:{number}: expected 6 columns "
                               f"'qid Q0 doc_id rank score tag', got {len(parts)}")
        qid, _, doc_id, rank, score, tag = parts
        if not rank.isdigit():  # the rank is not used (ties are broken by doc id), but a
            # file whose ranks are not numbers is not the TREC run it claims to be
            raise TrecRunError(f"{path}:{number}: rank {rank!r} is not a whole number")
        try:
            value = float(score)
        except ValueError:
            raise TrecRunError(f"{path}:{number}: score {score!r} is not a number") from None
        if not math.isfinite(value):  # nan and inf sort arbitrarily against real scores
            raise TrecRunError(f"{path}:{number}: score {score!r} is not a finite number")
        if (qid, doc_id) in seen:
            raise TrecRunError(f"{path}:{number}: {doc_id} listed twice for query {qid}")
        seen.add((qid, doc_id))
        rows.append((qid, doc_id, value, tag))
    if not rows:
        raise TrecRunError(f"{path}: no run lines")
    hits: dict[str, list[tuple[str, float, str]]] = {}
    for qid, doc_id, value, tag in rows:
        hits.setdefault(qid, []).append((doc_id, value, tag))
    return rank_frame(hits)
