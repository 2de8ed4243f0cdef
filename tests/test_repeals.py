"""Acts the corpus's own Acts repeal (nyaya/statutes/repeals.py): read from repeal sections."""

from __future__ import annotations

import pytest

from nyaya.statutes.registry import normalize_alias
from nyaya.statutes.repeals import repealed_acts

TITLES = {"CSS_2020": "The Code on Social Security, 2020", "X_2000": "The Example Act, 2000"}


def _repeals(text: str, title: str = "Repeal and savings", act: str = "CSS_2020") -> list[str]:
    found = repealed_acts([{"act_code": act, "section_number": "164", "title": title,
                            "text": text}], TITLES)
    return sorted(repeal.name for repeal in found.values())


@pytest.mark.parametrize(("text", "names"), [
    # a numbered list, names with apostrophes and brackets, broken over lines
    ("(1) The following enactments are hereby repealed, namely:—\n\n1. The Employee's "
     "Compensation Act, 1923 (8 of 1923);\n\n2. The Employees' State Insurance Act, 1948 (34 of "
     "1948);\n\n(2) Notwithstanding such repeal, anything done under the General Clauses Act, "
     "1897 (10 of 1897) shall be deemed done.",
     ["Employee's Compensation Act, 1923", "Employees' State Insurance Act, 1948"]),
    ("(1) The Payment of Wages Act, 1936 (4 of 1936), the Minimum Wages\nAct, 1948 (11 of 1948) "
     "and the Equal Remuneration Act, 1976 (25 of 1976) are hereby repealed.",
     ["Equal Remuneration Act, 1976", "Minimum Wages Act, 1948", "Payment of Wages Act, 1936"]),
    # "sub-section (2) of section 1" inside the first sub-section does not end it
    ("(1) The following enactments shall stand repealed on and from the dates the notification "
     "referred to in sub-section (2) of section 1 is issued, namely:---\n(a) The Factories Act, "
     "1948 (63 of 1948);\n(h) The Contract Labour (Regulation and Abolition) Act, 1970 (37 of "
     "1970);\n(2) Every Inspector shall be deemed appointed.",
     ["Contract Labour (Regulation and Abolition) Act, 1970", "Factories Act, 1948"]),
    # "by" inside a name, before a capital; not "in India by the ..."
    ("(1) The Indian Carriage of Goods by Sea Act, 1925 (26 of 1925) is hereby repealed.",
     ["Indian Carriage of Goods by Sea Act, 1925"]),
    # a part of an Act repealed is not the Act
    ("(1) Sections 3 to 33 of the Cardamom Act, 1965 (42 of 1965) are hereby repealed.", []),
    ("(1) Part IX of the Prisoners Act, 1900 (3 of 1900) is hereby repealed.", []),
    # nothing said to be repealed in the first part, or the section itself repealed
    ("(1) Nothing in the Example Act, 1999 (1 of 1999) shall apply.", []),
    ("[Repeals].—Rep. by the Repealing and Amending Act, 1960 (58 of 1960), s. 2.", []),
])
def test_the_acts_a_repeal_section_names(text, names):
    assert _repeals(text) == names


def test_only_sections_titled_as_a_repeal_are_read():
    text = "(1) The Factories Act, 1948 (63 of 1948) is hereby repealed."
    assert _repeals(text, title="Repeal of certain enactments") == ["Factories Act, 1948"]
    assert _repeals(text, title="Definitions") == []
    assert _repeals(text, title="[Repealed.]") == []


def test_a_repeal_names_the_act_and_section_that_made_it():
    found = repealed_acts([{"act_code": "CSS_2020", "section_number": "164",
                            "title": "Repeal and savings",
                            "text": "(1) The Maternity Benefit Act, 1961 (53 of 1961) is hereby "
                                    "repealed."}], TITLES)
    repeal = found[(normalize_alias("the Maternity Benefit Act"), "1961")]
    assert (repeal.by_act, repeal.by_title, repeal.by_section) == (
        "CSS_2020", "Code on Social Security, 2020", "164")
    assert repeal.describe().startswith("the Code on Social Security, 2020 repealed it "
                                        "(CSS_2020 s.164)")
