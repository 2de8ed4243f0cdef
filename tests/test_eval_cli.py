"""`nyaya eval` through its entry point: runs against a TREC qrels file or a query set, per
query (trec_eval -q), runs compared against the first, and every bad input an exit 2 that names
the file and, where there is one, the line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from evals.compare import COLUMNS
from evals.querysets import load_queryset
from evals.runner import group_tags
from pipelines.cli import main

# q1 judges a and c relevant, b not; q2 judges d. Both qrels forms (0 and Q0) are TREC's.
QRELS = "q1 0 a 1\nq1 0 b 0\nq1 0 c 2\nq2 Q0 d 1\n"
# base: q1 ranks a, x, c (AP = (1/1 + 2/3) / 2 = 5/6, P@1 = 1, RR = 1); q2 ranks z, d
# (AP = 1/2, P@1 = 0, RR = 1/2); q9 is not judged, so not scored
BASE = ("q1 Q0 a 1 3.0 base\nq1 Q0 x 2 2.0 base\nq1 Q0 c 3 1.0 base\n"
        "q2 Q0 z 1 5.0 base\nq2 Q0 d 2 4.0 base\nq9 Q0 a 1 1.0 base\n")
# better: every relevant document first (AP = P@1 = RR = 1 on both queries)
BETTER = "q1 Q0 c 1 3.0 better\nq1 Q0 a 2 2.0 better\nq2 Q0 d 1 4.0 better\n"


def write(folder: Path, name: str, text: str) -> str:
    path = folder / name
    path.write_text(text, encoding="utf-8")
    return str(path)


def run_eval(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["eval", *argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize(("qrels", "run", "metrics", "expected", "unanswered"), [
    (QRELS, BASE, "map,precision@1,mrr,precision@3",
     {"map": (5 / 6 + 1 / 2) / 2, "precision@1": 1 / 2, "mrr": (1 + 1 / 2) / 2,
      "precision@3": (2 / 3 + 1 / 3) / 2}, 0),
    (QRELS, BETTER, "map,precision@1,mrr", {"map": 1.0, "precision@1": 1.0, "mrr": 1.0}, 0),
    # q3 judged but not in the run: it scores 0 and counts in the mean
    (QRELS + "q3 0 e 1\n", BASE, "map,precision@1",
     {"map": (5 / 6 + 1 / 2 + 0) / 3, "precision@1": 1 / 3}, 1),
    # judged@2 is ours: q1's top 2 holds one judged document, q2's one
    (QRELS, BASE, "judged@2", {"judged@2": (1 / 2 + 1 / 2) / 2}, 0),
])
def test_one_run_against_a_qrels_file_by_hand(tmp_path, capsys, qrels, run, metrics, expected,
                                              unanswered):
    code, out, _ = run_eval(capsys, write(tmp_path, "run.trec", run), "--qrels",
                            write(tmp_path, "qrels.txt", qrels), "--metrics", metrics, "--json")
    assert code == 0
    report = json.loads(out)
    assert report["judged_queries"] == len({line.split()[0] for line in qrels.splitlines()})
    (summary,) = report["runs"]
    assert summary["unanswered"] == unanswered
    assert summary["unjudged"] == (1 if "q9" in run else 0)
    overall = summary["rows"][0]
    assert (overall["group_kind"], overall["group"]) == ("all", "all")
    assert {name: overall[name] for name in expected} == pytest.approx(expected)


def test_text_output_says_what_was_and_was_not_scored(tmp_path, capsys):
    code, out, err = run_eval(capsys, write(tmp_path, "base.trec", BASE), "--qrels",
                              write(tmp_path, "qrels.txt", QRELS), "--metrics", "map")
    assert (code, err) == (0, "")
    assert ("2 judged queries, 0 without a line in the run (scored 0), 1 of its queries not "
            "judged (not scored)") in out
    assert "| all | all | 2 | 0.6667 |" in out


def test_per_query_rows_are_trec_eval_q(tmp_path, capsys):
    qrels = write(tmp_path, "qrels.txt", QRELS)
    base = write(tmp_path, "base.trec", BASE)
    code, out, _ = run_eval(capsys, base, "--qrels", qrels, "--metrics", "map,judged@2",
                            "--per-query", "--json")
    assert code == 0
    rows = [(r["run"], r["qid"], r["metric"], r["value"]) for r in json.loads(out)["per_query"]]
    assert rows == [
        ("base", "q1", "map", pytest.approx(5 / 6)), ("base", "q2", "map", 0.5),
        ("base", "all", "map", pytest.approx(2 / 3)),
        ("base", "q1", "judged@2", 0.5), ("base", "q2", "judged@2", 0.5),
        ("base", "all", "judged@2", 0.5)]
    code, out, _ = run_eval(capsys, base, "--qrels", qrels, "--metrics", "map", "--per-query")
    assert code == 0
    assert "| run | qid | metric | value |" in out
    assert "| base | q1 | map | 0.8333 |" in out and "| base | all | map | 0.6667 |" in out


def test_two_runs_are_compared_against_the_first(tmp_path, capsys):
    qrels = write(tmp_path, "qrels.txt", QRELS)
    runs = [write(tmp_path, "base.trec", BASE), write(tmp_path, "better.trec", BETTER)]
    code, out, _ = run_eval(capsys, *runs, "--qrels", qrels, "--metrics", "map,mrr,judged@2")
    assert code == 0
    table = out[out.index("against base (the first run)"):]
    assert "| config | baseline | metric |" in table and "p_holm" in table
    assert "| better | base | map | 2 |" in table and "| better | base | mrr | 2 |" in table
    assert "not tested (no per-query ranx score): judged@2" in table
    code, out, _ = run_eval(capsys, *runs, "--qrels", qrels, "--metrics", "map,mrr", "--json")
    comparison = json.loads(out)["comparison"]
    assert [(row["config"], row["baseline"], row["metric"]) for row in comparison] == [
        ("better", "base", "map"), ("better", "base", "mrr")]
    assert set(comparison[0]) == set(COLUMNS)
    assert comparison[0]["delta"] == pytest.approx(1 - 2 / 3)
    assert (comparison[0]["wins"], comparison[0]["ties"], comparison[0]["losses"]) == (2, 0, 0)
    assert comparison[0]["p_holm"] >= comparison[0]["p_value"]


def test_runs_sharing_a_stem_are_named_by_their_paths(tmp_path, capsys):
    qrels = write(tmp_path, "qrels.txt", QRELS)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    first, second = write(tmp_path / "a", "run.trec", BASE), write(tmp_path / "b", "run.trec",
                                                                    BETTER)
    code, out, _ = run_eval(capsys, first, second, "--qrels", qrels, "--metrics", "map",
                            "--json")
    assert code == 0
    report = json.loads(out)
    assert [run["name"] for run in report["runs"]] == [first, second]
    assert report["comparison"][0]["config"] == second


@pytest.mark.parametrize(("runs", "per_query", "keys"), [
    ([BASE], False, {"qrels", "judged_queries", "runs"}),
    ([BASE], True, {"qrels", "judged_queries", "runs", "per_query"}),
    ([BASE, BETTER], False, {"qrels", "judged_queries", "runs", "comparison"}),
    ([BASE, BETTER], True, {"qrels", "judged_queries", "runs", "per_query", "comparison"}),
])
def test_json_shape(tmp_path, capsys, runs, per_query, keys):
    paths = [write(tmp_path, f"run{i}.trec", text) for i, text in enumerate(runs)]
    code, out, _ = run_eval(capsys, *paths, "--qrels", write(tmp_path, "qrels.txt", QRELS),
                            "--metrics", "map,precision@1", "--json",
                            *(["--per-query"] if per_query else []))
    assert code == 0
    report = json.loads(out)
    assert set(report) == keys
    assert report["qrels"] == str(tmp_path / "qrels.txt") and report["judged_queries"] == 2
    assert [set(run) for run in report["runs"]] == [
        {"run", "name", "unanswered", "unjudged", "rows"}] * len(runs)
    assert set(report["runs"][0]["rows"][0]) == {"group_kind", "group", "queries", "map",
                                                 "precision@1"}
    if per_query:
        assert len(report["per_query"]) == len(runs) * 2 * 3  # 2 metrics x (2 queries + all)
        assert set(report["per_query"][0]) == {"run", "qid", "metric", "value"}
    if len(runs) > 1:
        assert len(report["comparison"]) == 2  # one row per metric


@pytest.mark.parametrize(("qrels", "runs", "extra", "message"), [
    pytest.param("q1 0 a 1\nq1 0 b\n", [BASE], [], "qrels.txt:2: expected 'qid 0 doc_id grade'",
                 marks=pytest.mark.bad_input("CLI", "eval qrels line without a grade")),
    pytest.param("q1 0 a 1\nq1 0 a 2\n", [BASE], [], "qrels.txt:2: qid q1 judges a again",
                 marks=pytest.mark.bad_input("CLI", "eval qrels judging a document twice")),
    pytest.param("", [BASE], [], "qrels.txt: no judgments",
                 marks=pytest.mark.bad_input("CLI", "eval empty qrels file")),
    pytest.param(QRELS, ["q1 Q0 a 1 3.0\n"], [], "run0.trec:1: expected 6 columns",
                 marks=pytest.mark.bad_input("CLI", "eval run line of five columns")),
    pytest.param(QRELS, [BASE], ["--by", "query_type"], "qrels.txt: a qrels file has no query "
                 "tags", marks=pytest.mark.bad_input("CLI", "eval --by with --qrels")),
    pytest.param(QRELS, [BASE], ["--metrics", "map,ndcg@ten"], "the cutoff after '@'",
                 marks=pytest.mark.bad_input("CLI", "eval metric with a bad cutoff")),
    pytest.param(QRELS, [BASE, "q7 Q0 a 1 1.0 t\n"], [], "answers none of the 2 judged",
                 marks=pytest.mark.bad_input("CLI", "eval comparison of a run of other qids")),
])
def test_bad_input_is_exit_2_naming_the_file(tmp_path, capsys, qrels, runs, extra, message):
    paths = [write(tmp_path, f"run{i}.trec", text) for i, text in enumerate(runs)]
    code, out, err = run_eval(capsys, *paths, "--qrels", write(tmp_path, "qrels.txt", qrels),
                              *extra)
    assert code == 2
    assert err.startswith("nyaya eval: ") and message in err, err
    assert "Traceback" not in err and out == ""


@pytest.mark.bad_input("CLI", "eval of a run file that does not exist")
def test_a_missing_run_file_is_named(tmp_path, capsys):
    code, _, err = run_eval(capsys, str(tmp_path / "gone.trec"), "--qrels",
                            write(tmp_path, "qrels.txt", QRELS))
    assert code == 2
    assert err == f"nyaya eval: {tmp_path / 'gone.trec'}: No such file or directory\n"


@pytest.mark.bad_input("CLI", "eval of the same run twice")
def test_the_same_run_twice_is_refused(tmp_path, capsys):
    run = write(tmp_path, "base.trec", BASE)
    code, _, err = run_eval(capsys, run, run, "--qrels", write(tmp_path, "qrels.txt", QRELS))
    assert (code, err) == (2, f"nyaya eval: {run}: given twice\n")


@pytest.mark.parametrize("judged", [
    pytest.param([], marks=pytest.mark.bad_input("CLI", "eval with neither --qrels nor "
                                                 "--queryset")),
    pytest.param(["--qrels", "q.txt", "--queryset", "transition"],
                 marks=pytest.mark.bad_input("CLI", "eval with both --qrels and --queryset")),
])
def test_exactly_one_of_qrels_and_queryset(capsys, judged):
    with pytest.raises(SystemExit) as exit_info:
        main(["eval", "run.trec", *judged])
    assert exit_info.value.code == 2
    assert "--qrels" in capsys.readouterr().err


QUERY_ROWS = [
    '{"qid": "P1", "query": "murder", "query_type": "criminal_offence", "domain": "crim"}',
    '{"qid": "P2", "query": "rent", "domain": "tenancy"}',
    '{"qid": "P3", "query": "bail", "query_type": "procedural", "domain": null}',
]


def plain_set(root: Path, rows: list[str]) -> Path:
    (root / "plain").mkdir()
    (root / "plain" / "queries.jsonl").write_text("\n".join(rows) + "\n", encoding="utf-8")
    (root / "plain" / "qrels.txt").write_text("P1 0 a 1\nP2 0 b 1\nP3 0 c 1\n",
                                              encoding="utf-8")
    return root


@pytest.mark.parametrize(("rows", "query_type", "domain"), [
    # no tags at all: a set of plain questions and their judgments
    (['{"qid": "P1", "query": "murder"}', '{"qid": "P2", "query": "rent"}',
      '{"qid": "P3", "query": "bail"}'], {}, {}),
    # some queries tagged: the others have no value, never "nan"
    (QUERY_ROWS, {"P1": "criminal_offence", "P3": "procedural"},
     {"P1": "crim", "P2": "tenancy"}),
])
def test_query_type_and_domain_are_optional(tmp_path, rows, query_type, domain):
    queryset = load_queryset("plain", root=plain_set(tmp_path, rows))
    assert queryset.queries["qid"].tolist() == ["P1", "P2", "P3"]
    assert queryset.tags("query_type") == query_type
    assert queryset.tags("domain") == domain
    # the report breaks down by a tag only where the queries carry more than one value of it
    expected = {kind for kind, tags in (("query_type", query_type), ("domain", domain))
                if len(set(tags.values())) > 1}
    assert set(group_tags(queryset)) == expected | {"split"}


@pytest.fixture
def plain_queryset(tmp_path, monkeypatch):
    """`--queryset plain` reads the partly tagged set under tmp_path."""
    root = plain_set(tmp_path, [*QUERY_ROWS[:2], '{"qid": "P3", "query": "bail"}'])
    monkeypatch.setattr("evals.corpus_sets.load_any_queryset",
                        lambda name, corpus_root, judgments=None, warehouse=None:
                        load_queryset(name, root))
    return tmp_path


def test_by_puts_a_query_without_the_tag_under_untagged(plain_queryset, capsys):
    run = write(plain_queryset, "run.trec", "P1 Q0 a 1 1.0 t\nP2 Q0 x 1 1.0 t\n")
    code, out, _ = run_eval(capsys, run, "--queryset", "plain", "--metrics", "precision@1",
                            "--by", "query_type", "--json")
    assert code == 0
    rows = [(r["group_kind"], r["group"], r["queries"], r["precision@1"])
            for r in json.loads(out)["runs"][0]["rows"]]
    assert rows == [("all", "all", 3, pytest.approx(1 / 3)),
                    ("query_type", "criminal_offence", 1, 1.0),
                    ("query_type", "untagged", 2, 0.0)]


@pytest.mark.bad_input("CLI", "eval --by a tag the query set does not have")
def test_by_a_tag_the_set_lacks_is_refused(plain_queryset, capsys):
    (plain_queryset / "plain" / "queries.jsonl").write_text(
        '{"qid": "P1", "query": "murder"}\n{"qid": "P2", "query": "rent"}\n'
        '{"qid": "P3", "query": "bail"}\n', encoding="utf-8")
    run = write(plain_queryset, "run.trec", "P1 Q0 a 1 1.0 t\n")
    code, _, err = run_eval(capsys, run, "--queryset", "plain", "--by", "domain")
    assert code == 2
    assert err == ("nyaya eval: plain: no query of the set has a 'domain' field, so --by domain "
                   "has nothing to break the metrics down by\n")
