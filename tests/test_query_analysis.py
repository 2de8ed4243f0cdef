"""The deterministic query analyzer: types, normalized sections, years, judges, case names.

Built from the real warehouse tables (act_registry, law_transition_map, judgments) of the
session's main run on the real corpus. One test needs no warehouse (small in-memory tables).
"""

from __future__ import annotations

import pytest

from evals.query_types import load_dev_queries, query_type_accuracy
from nyaya.retrieval.query_analysis import QUERY_TYPES, QueryAnalyzer, judge_keys
from nyaya.statutes.registry import AliasIndex


@pytest.fixture(scope="module")
def analyzer(main_run) -> QueryAnalyzer:
    data_dir, _ = main_run
    return QueryAnalyzer.from_warehouse(data_dir / "warehouse")


@pytest.mark.parametrize(("query", "expected"), [
    ("BNS 103", "section_lookup"),
    ("What does Section 103 of the Bharatiya Nyaya Sanhita say?", "section_lookup"),
    ("what does section 85 of bns deal with", "section_lookup"),
    ("Explain Article 21 of the Constitution", "section_lookup"),
    ("What does Order 39 Rule 1 CPC provide?", "section_lookup"),
    ("IPC 302", "old_statute_reference"),
    ("Section 438 CrPC anticipatory bail", "old_statute_reference"),
    ("punishment under section 376 ipc", "old_statute_reference"),
    ("What replaced 154 CrPC for registering an FIR?", "old_statute_reference"),
    ("How is the Bharatiya Nyaya Sanhita different from the Indian Penal Code?",
     "old_statute_reference"),
    ("Difference between culpable homicide and murder", "criminal_offence"),
    ("What punishment does the BNS prescribe for dowry death?", "criminal_offence"),
    ("What does the Indian Penal Code say about adultery?", "criminal_offence"),
    ("How to file an FIR if the police refuse to register it?", "procedural"),
    ("Which court has jurisdiction over a cheque bounce case?", "procedural"),
    ("How to file a writ petition in the Supreme Court under Article 32?", "procedural"),
    ("Do daughters have equal rights in ancestral property?", "civil_conceptual"),
    # a provision named inside a conceptual question is not a lookup
    ("Can a Hindu wife claim maintenance after divorce by mutual consent under Section 13B of "
     "the Hindu Marriage Act?", "civil_conceptual"),
    ("Does Article 19 protect hate speech?", "civil_conceptual"),
    ("Kesavananda Bharati v. State of Kerala", "default"),
    ("Supreme Court judgments from 1978", "default"),
    ("Justice delayed is justice denied", "default"),
])
def test_query_type(analyzer, query, expected):
    analysis = analyzer.analyze(query)
    assert analysis.query_type == expected, analysis.reasons
    assert analysis.reasons


@pytest.mark.parametrize(("query", "expected"), [
    ("BNS 103", [("BNS_2023", "103", None)]),
    ("Section 438 CrPC", [("BNSS_2023", "482", ("CrPC_1973", "438"))]),
    ("cr.p.c. 438", [("BNSS_2023", "482", ("CrPC_1973", "438"))]),
    ("what is the new section for 420 ipc in bns", [("BNS_2023", "318", ("IPC_1860", "420"))]),
    ("Which section of BNS replaced Section 498A IPC?",
     [("BNS_2023", "85", ("IPC_1860", "498A")), ("BNS_2023", "86", ("IPC_1860", "498A"))]),
    ("Sections 302/34 IPC",
     [("BNS_2023", "103", ("IPC_1860", "302")), ("BNS_2023", "3", ("IPC_1860", "34"))]),
    ("indian evidence act section 65b", [("BSA_2023", "63", ("IEA_1872", "65B"))]),
    # repealed without a successor: kept as written
    ("Is Section 377 IPC still valid?", [("IPC_1860", "377", None)]),
    ("section 13b hma mutual consent", [("HMA_1955", "13B", None)]),
    ("Explain article 21 and 14", [("COI", "21", None), ("COI", "14", None)]),
    ("What does section 302 say?", []),  # no Act named: nothing is guessed
])
def test_sections_after_normalization(analyzer, query, expected):
    analysis = analyzer.analyze(query)
    assert [(s.act_code, s.section, s.normalized_from) for s in analysis.sections] == expected
    for ref in analysis.sections:
        assert query[ref.span[0]:ref.span[1]] == ref.text


def test_ipc_302_becomes_bns_103(analyzer):
    analysis = analyzer.analyze("IPC 302")
    (ref,) = analysis.sections
    assert (ref.act_code, ref.section, ref.text, ref.span) == ("BNS_2023", "103", "IPC 302",
                                                               (0, 7))
    assert ref.normalized_from == ("IPC_1860", "302")
    assert ref.relation == "same"
    assert analysis.old_code_refs == (("IPC_1860", "302"),)
    assert analysis.acts == ("IPC_1860",)


def test_articles_and_acts(analyzer):
    analysis = analyzer.analyze("Does Article 19 of the Constitution override the Hindu "
                                "Marriage Act, 1955?")
    assert analysis.articles == ("19",)
    assert analysis.acts == ("COI", "HMA_1955")
    assert analysis.years == ()


@pytest.mark.parametrize(("query", "expected"), [
    ("Supreme Court judgments from 1978", (1978,)),
    ("Which judgments did Pasayat write between 2005 and 2008?", (2005, 2008)),
    ("Text of Section 13B of the Hindu Marriage Act, 1955", ()),
    ("Bharatiya Nyaya Sanhita, 2023 theft", ()),
    ("BNS 2023 theft", ()),
    ("Find judgments citing AIR 1978 SC 597", ()),
    ("Minerva Mills v. Union of India (1980) 3 SCC 625", ()),
    ("Has the Consumer Protection Act 2019 replaced the 1986 Act?", ()),
    ("Hindu Succession Act 1956 section 6 amended in 2005", (2005,)),
    ("Bench strength in Indra Sawhney versus Union of India (1992)", (1992,)),
    ("cases of 1850 and 2031", ()),  # outside 1860..2030
])
def test_years(analyzer, query, expected):
    assert analyzer.analyze(query).years == expected


@pytest.mark.parametrize(("query", "expected"), [
    ("Cases decided by Justice D.Y. Chandrachud in 2018", ("D.Y. Chandrachud",)),
    ("Judgments authored by Krishna Iyer J.", ("Krishna Iyer",)),
    ("Opinions of Justice Bhagwati and Justice Pathak", ("Bhagwati", "Pathak")),
    ("Hon'ble Justice Arijit Pasayat", ("Arijit Pasayat",)),
    ("CJI Gogoi Ayodhya verdict", ("Gogoi",)),
    ("Which judgments did Pasayat write?", ("Pasayat",)),
    ("Justice Verma Committee report", ("Verma",)),
    # common words and common surnames never match on their own
    ("State of Punjab v. Union of India", ()),
    ("Union of India and State powers", ()),
    ("Justice delayed is justice denied", ()),
    ("Imam salary dispute", ()),
    ("Singh was arrested for theft", ()),
])
def test_judges(analyzer, query, expected):
    assert analyzer.analyze(query).judges == expected


@pytest.mark.parametrize(("query", "expected"), [
    ("What did the court hold in Kesavananda Bharati v. State of Kerala?",
     ("Kesavananda Bharati v. State of Kerala",)),
    ("Maneka Gandhi vs Union of India summary", ("Maneka Gandhi vs Union of India",)),
    ("Indra Sawhney versus Union of India", ("Indra Sawhney versus Union of India",)),
    ("Minerva Mills v. Union of India (1980) 3 SCC 625", ("Minerva Mills v. Union of India",)),
    ("Is theft by a servant punishable?", ()),
])
def test_case_names(analyzer, query, expected):
    assert analyzer.analyze(query).case_names == expected


def test_dev_set_entities(analyzer):
    """Sections, years, judges and case names of every hand-written dev query."""
    wrong = []
    for row in load_dev_queries().itertuples():
        got = analyzer.analyze(row.query)
        found = ([f"{s.act_code}:{s.section}" for s in got.sections], list(got.years),
                 list(got.judges), list(got.case_names))
        if found != (row.sections, row.years, row.judges, row.case_names):
            wrong.append((row.qid, found))
    assert not wrong


def test_dev_set_accuracy(analyzer):
    # Measured 1.00 (119/119) on the dev set the rules were tuned on; margin for small edits.
    dev = load_dev_queries()
    score = query_type_accuracy(analyzer, dev)
    assert score.accuracy >= 0.95
    assert score.count == len(dev) == sum(total for _, total in score.per_type.values())
    assert set(score.per_type) == set(QUERY_TYPES)
    assert int(score.confusion.to_numpy().trace()) == sum(c for c, _ in score.per_type.values())


def test_judge_keys_from_bench_names():
    names, bare = judge_keys(["CHANDRACHUD, Y.V.", "Kuldip Singh", "V. R. Krishna Iyer",
                              "Dr. Arijit Pasayat", "KULDIP SINGH, B.L. HANSARIA"])
    assert {"chandrachud", "kuldip", "singh", "krishnaiyer", "pasayat", "hansaria"} <= names
    assert {"chandrachud", "krishnaiyer", "pasayat"} <= bare
    assert not {"singh", "dr", "kuldipsingh", "hansaria"} & bare


def test_analyzer_from_small_tables():
    """The constructor takes plain transition dicts (no source_table) and any bench names."""
    aliases = AliasIndex({"ipc": "IPC_1860", "indianpenalcode": "IPC_1860",
                          "bns": "BNS_2023", "bharatiyanyayasanhita": "BNS_2023"}, {})
    transitions = [
        {"old_act_code": "IPC_1860", "old_section": "302", "new_act_code": "BNS_2023",
         "new_section": "103", "new_unit": None, "relation": "same", "resolves": True,
         "disagreement": False},
        {"old_act_code": "IPC_1860", "old_section": "377", "new_act_code": None,
         "new_section": None, "new_unit": None, "relation": "repeal", "resolves": True,
         "disagreement": False},
    ]
    analyzer = QueryAnalyzer(aliases, transitions, ["CHANDRACHUD, Y.V."])
    murder = analyzer.analyze("Section 302 of the Indian Penal Code, per Chandrachud J.")
    assert [(s.act_code, s.section, s.normalized_from, s.relation) for s in murder.sections] == [
        ("BNS_2023", "103", ("IPC_1860", "302"), "same")]
    assert murder.query_type == "old_statute_reference"
    assert murder.judges == ("Chandrachud",)
    repealed = analyzer.analyze("ipc 377")
    assert [(s.act_code, s.section, s.relation) for s in repealed.sections] == [
        ("IPC_1860", "377", "repeal")]
    assert analyzer.analyze("BNS 103").query_type == "section_lookup"


@pytest.mark.parametrize("spans", [
    [], [(0, 3)], [(2, 5), (4, 9)], [(5, 5)], [(7, 3)], [(-2, 2)], [(8, 40)], [(0, 11)],
    [(1, 2), (1, 2), (9, 10)],
])
def test_blanking_spans_matches_the_character_by_character_rule(spans):
    """Masking a whole judgment (IRLeD queries) was quadratic; the fast form must blank
    exactly the characters inside some span and keep the length."""
    from nyaya.retrieval.query_analysis import _blanked

    text = "IPC 302 and"
    expected = "".join(" " if any(s <= i < e for s, e in spans) else ch
                       for i, ch in enumerate(text))
    assert _blanked(text, spans) == expected
