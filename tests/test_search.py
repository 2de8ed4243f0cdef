"""`nyaya search` and the `Searcher` behind it and `nyaya serve`: snippets, topics files,
config choice, and a search over the fixture corpus's built indexes."""

from __future__ import annotations

from datetime import date
from pathlib import Path

import pytest

from evals.search import DEFAULT_CONFIGS, SearchError, read_topics, snippet

LONG = ("Punishment for theft. Whoever commits theft shall be punished with imprisonment "
        "of either description for a term which may extend to three years, or with fine, "
        "or with both. " * 3 + "In the case of a second conviction for murder the court may "
        "impose a higher fine.. (2) Nothing here applies to a minor.")


@pytest.mark.parametrize(("text", "question", "expected_start", "contains"), [
    ("Short text.", "anything", "Short text.", "Short text."),
    (LONG, "second conviction", "…", "second conviction"),
    (LONG, "zzz unrelated", "Punishment for theft.", "Punishment"),
    (LONG, "the of a", "Punishment for theft.", "Punishment"),  # short words never anchor
])
def test_snippet_shows_the_question_s_words(text: str, question: str, expected_start: str,
                                            contains: str) -> None:
    shown = snippet(text, question, width=120)
    assert shown.startswith(expected_start)
    assert contains in shown
    assert len(shown) <= 122  # the width and its ellipses


def test_snippet_reads_doubled_stops_as_one() -> None:
    assert "fine. (2)" in snippet(LONG, "higher fine", width=120)


@pytest.mark.parametrize(("name", "content", "error"), [
    ("t.tsv", "q1\tmurder\nq2 without tab\n", r"t.tsv:2: expected 'qid<TAB>question'"),
    ("t.tsv", "q1\tmurder\nq1\ttheft\n", r"t.tsv:2: qid q1 again \(first on line 1\)"),
    ("t.jsonl", '{"qid": "a", "query": "x"}\n{"qid": "b"}\n', r"t.jsonl:2: expected an object"),
    ("t.jsonl", '{"qid": "a", "query": "x", "as_of": "2024-13-01"}\n', r"t.jsonl:1: as_of"),
    ("t.jsonl", "not json\n", r"t.jsonl:1: invalid JSON"),
    ("t.tsv", "\n\n", r"t.tsv: no questions"),
])
def test_topics_files_are_refused_by_line(tmp_path: Path, name: str, content: str,
                                          error: str) -> None:
    path = tmp_path / name
    path.write_text(content, encoding="utf-8")
    with pytest.raises(SearchError, match=error):
        read_topics(path)


def test_topics_read_both_forms(tmp_path: Path) -> None:
    tsv = tmp_path / "t.tsv"
    tsv.write_text("q1\tpunishment for murder\n\nq2\tbail\n", encoding="utf-8")
    jsonl = tmp_path / "t.jsonl"
    jsonl.write_text('{"qid": 7, "query": "theft", "as_of": "2025-01-01"}\n', encoding="utf-8")
    assert read_topics(tsv)[["qid", "query"]].values.tolist() == [
        ["q1", "punishment for murder"], ["q2", "bail"]]
    row = read_topics(jsonl).iloc[0]
    assert (row["qid"], row["as_of"]) == ("7", date(2025, 1, 1))


def test_default_configs_exist_for_their_side() -> None:
    from evals.configs import configs_for

    for side, name in DEFAULT_CONFIGS.items():
        assert name in configs_for(side)
