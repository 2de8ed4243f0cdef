"""What India Code says of a section no longer law: the note, its kind and its date."""

from __future__ import annotations

from datetime import date

import pytest

from nyaya.statutes.omissions import STRUCK_DOWN, Omission, omission, stub_status

STRUCK_66A = ("1. Section 66A has been struck down by Supreme Court's Order dated 24th March, "
              "2015 in the Shreya Singhal vs. Union of India,\nAIR 2015 SC. 1523.")
AMENDMENT_STRUCK = ("1. Ins. by Act 49 of 2005, s. 30 (w.e.f. 28-12-2005). This amendment has "
                    "been struck down by the\nSupreme Court's order dated 25th September, 2014.")


@pytest.mark.parametrize(("status", "text", "footnotes", "number", "kind", "note", "effective"), [
    ("in_force", "Whoever commits murder ...", "", "103", None, None, None),
    ("repealed", "[Power to delegate.] Rep. by s. 42, ibid. (w.e.f. 26-2-1987).", "", "31",
     "repealed", "[Power to delegate.] Rep. by s. 42, ibid. (w.e.f. 26-2-1987).", "1987-02-26"),
    # page text splits words and numbers
    ("omitted", "Omit ted by Act 70 of 1993, s. 8\n( w.e.f. 26 - 12 - 19 93 ).", "", "46",
     "omitted", "Omit ted by Act 70 of 1993, s. 8 ( w.e.f. 26 - 12 - 19 93 ).", "1993-12-26"),
    # a misprinted year is no date
    ("omitted", "[Field punishment.] Omitted by Act 37 of 1992, s. 2 (w.e.f. 6-9-192).", "",
     "76", "omitted", "[Field punishment.] Omitted by Act 37 of 1992, s. 2 (w.e.f. 6-9-192).",
     None),
    ("repealed", "[Rep. by the State of Bombay, with effect from the 27th May, 1950 by Bom. 28 "
     "of 1947.]", "", "32", "repealed",
     "[Rep. by the State of Bombay, with effect from the 27th May, 1950 by Bom. 28 of 1947.]",
     "1950-05-27"),
    ("repealed", "Rep. by the U.P. Act, 1901 (3 of 1901).", "", "24", "repealed",
     "Rep. by the U.P. Act, 1901 (3 of 1901).", None),
    ("repealed", "", "", "28", "repealed", None, None),
    # the section itself struck down: its old text stays, the footnote says so
    ("omitted", "^1\n[66A. Punishment for sending offensive messages ...", STRUCK_66A, "66A",
     STRUCK_DOWN, "Section 66A has been struck down by Supreme Court's Order dated 24th "
     "March, 2015 in the Shreya Singhal vs. Union of India, AIR 2015 SC. 1523.", "2015-03-24"),
    # an amendment struck down is not the section struck down
    ("omitted", "[Heading.] Omitted by s. 30, ibid. (w.e.f. 28-12-2005).", AMENDMENT_STRUCK,
     "130B", "omitted", "[Heading.] Omitted by s. 30, ibid. (w.e.f. 28-12-2005).", "2005-12-28"),
    # the note far into a long old text is read from its first word
    ("omitted", "x " * 100 + "Omitted by Act 4 of 1988 (w.e.f. 1-4-1988).", "", "7A", "omitted",
     "Omitted by Act 4 of 1988 (w.e.f. 1-4-1988).", "1988-04-01"),
])
def test_omission(status, text, footnotes, number, kind, note, effective):
    found = omission(status, text, footnotes, number)
    if kind is None:
        assert found is None
    else:
        assert found == Omission(kind, note, effective)


@pytest.mark.parametrize(("gone", "when", "in_force"), [
    (Omission("omitted", "n", "2005-09-09"), None, False),  # today: no longer law
    (Omission("omitted", "n", "2005-09-09"), date(2005, 9, 8), True),
    (Omission("omitted", "n", "2005-09-09"), date(2005, 9, 9), False),  # the day it took effect
    (Omission("repealed", "n", None), date(1900, 1, 1), False),  # no date: never verified
    (Omission(STRUCK_DOWN, "n", "2015-03-24"), date(2010, 1, 1), False),  # void from the start
])
def test_in_force_on(gone, when, in_force):
    assert gone.in_force_on(when) is in_force


def test_describe_names_the_kind_the_date_and_the_note():
    assert Omission("omitted", "Omitted by s. 5, ibid. (w.e.f. 9-9-2005).",
                    "2005-09-09").describe() == \
        "omitted from 2005-09-09 (Omitted by s. 5, ibid. (w.e.f. 9-9-2005))"
    assert Omission(STRUCK_DOWN, "Struck down.", "2015-03-24").describe() == \
        "struck down (Struck down)"
    assert "prints no note" in Omission("repealed", None, None).describe()


@pytest.mark.parametrize(("text", "status"), [
    ("[Power to delegate.] Rep. by s. 42, ibid. (w.e.f. 26-2-1987).", "repealed"),
    ("Rep.by the A. O. 1937.", "repealed"),
    ("Omitted by The Tribunals Reforms Act, 2021 (33 of 2021), s. 19 (w.e.f. 4-4-2021).",
     "omitted"),
    ("2A. [Construction of references to any law.]--Omitted by the Reorganization Order.",
     "omitted"),
    ("^1[^253H. [Vacancies.] Omitted by s. 171, ibid. (w.e.f. 26-5-2017).] .", "omitted"),
    ("The Board shall keep accounts.", None),
    ("Whoever contravenes this Act shall be punished. The words were omitted by Act 5 of 1990.",
     None),
    ("x " * 200 + "[Heading.] Omitted by s. 3.", None),  # more than the note
])
def test_stub_status(text, status):
    assert stub_status(text) == status
