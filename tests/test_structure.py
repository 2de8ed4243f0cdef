"""Clause-level units, cross-references and definitions read from one section's text.

Inputs are short snippets in the two layouts of the corpus: India Code markdown (blank lines
between paragraphs, ``^1`` footnote markers) and the repealed-IPC JSONL (hard-wrapped lines,
``3[...]`` amendment markers).
"""

from __future__ import annotations

import time

import pytest

from nyaya.statutes.structure import (
    DEFINITION_KINDS,
    REFERENCE_TYPES,
    UNIT_KINDS,
    extract_definitions,
    find_cross_references,
    is_definition_section,
    split_units,
)

BNS_1 = """(1) This Act may be called the Bharatiya Nyaya
Sanhita, 2023.

(2) It shall come into force on such date^1
as the Central Government may, by notification in the
Official Gazette, appoint.

(5) The provisions of this Sanhita shall also apply to any offence committed by--

(a) any citizen of India in any place without and beyond India;

(b) any person on any ship or aircraft registered in India wherever it may be;

Explanation.--In this section, the word "offence" includes every act committed outside India which,
if committed in India, would be punishable under this Sanhita.

Illustration.

A, who is a citizen of India, commits a murder in any place without and beyond India.

(6) Nothing in this Sanhita shall affect the provisions of any Act for punishing mutiny."""

BNS_103 = """(1) Whoever commits murder shall be punished with death or
imprisonment for life, and shall also be liable to fine..

(2) When a group of five or more persons acting in concert commits murder on the ground of race,
caste or community, each member of such group shall be punished with death."""

BNS_101 = """Except in the cases hereinafter excepted, culpable homicide is murder,---

(a) if the act by which the death is caused is done with the intention of causing death; or

(b) if the act by which the death is caused is done with the intention of causing such bodily injury
as the offender knows to be likely to cause the death of the person; or

Illustrations.

(a) A shoots Z with the intention of killing him. Z dies in consequence. A commits murder.

(b) A intentionally gives Z a sword-cut sufficient to cause death. Z dies in consequence.

Exception 1.---Culpable homicide is not murder if the offender, whilst deprived of the power of
self-control by grave and sudden provocation, causes the death of the person:

Provided that the provocation is not,---

(a) sought or voluntarily provoked by the offender as an excuse for killing;

(b) given by anything done in obedience to the law.

Explanation.---Whether the provocation was grave and sudden enough is a question of fact.

Exception 2.---Culpable homicide is not murder if the offender exceeds the right of private defence.

Illustration.

Z attempts to horsewhip A. A draws out a pistol and shoots Z dead."""

BNS_2_EXCERPT = """In this Sanhita, unless the context otherwise requires,---

(14) "injury" means any harm whatever illegally caused to any person, in body, mind, reputation
or property;

(15) "illegal" and "legally bound to do".---The word "illegal" is applicable to everything which is
an offence or which is prohibited by law;

(16) "Judge" means a person who is officially designated as a Judge and includes a person,---

(i) who is empowered by law to give, in any legal proceeding, a definitive judgment; or

(ii) who is one of a body or persons empowered by law to give such a judgment.

Illustration.

A Magistrate exercising jurisdiction in respect of a charge is a Judge;

(17) "life" means the life of a human being, unless the contrary appears from the context;"""

# clauses (a) to (h) then (i): the letter, not the roman numeral
CLAUSE_I = "\n\n".join(f"({c}) item {c};" for c in "abcdefghij")

# a clause whose sub-clauses start at (i) after the list-introducing "---"
SUB_CLAUSE_I = """(1) A public servant is--

(a) every commissioned officer;

(b) every Judge;

(c) every officer of a Court;

(d) every assessor;

(e) every arbitrator;

(f) every jailor;

(g) every officer of the Government;

(h) every person---

(i) in the service or pay of the Government;

(ii) in the service or pay of a local authority;

(i) every officer whose duty it is to levy any rate;"""

EARLIER_CLAUSES = "\n\n".join(f"({c}) “term {c}” means thing {c};" for c in "abcdefg")

BNSS_2_EXCERPT = f"""(1) In this Sanhita, unless the context otherwise requires,—

{EARLIER_CLAUSES}

(h) “complaint” means any allegation made orally or in writing to a Magistrate.

Explanation.—A report made by a police officer shall be deemed to be a complaint;

(i) “electronic communication” means the communication of any written information;

(j) “High Court” means,—

(i) in relation to any State, the High Court for that State;

(ii) in relation to a Union territory, that High Court;

(k) “inquiry” means every inquiry, other than a trial, conducted under this Sanhita;

(2) Words and expressions used herein and not defined shall have the meanings assigned."""

BSA_2_EXCERPT = """(1) In this Adhiniyam, unless the context otherwise requires,--

(a) "Court" includes all Judges and Magistrates;

(b) "conclusive proof" means proof that may not be disproved;

(c) "disproved" in relation to a fact, means that the Court believes it does not exist;

(d) "document" means any matter expressed upon any substance and includes electronic records.

Illustrations.

(i) A writing is a document.

(ii) A map or plan is a document.

(e) "evidence" means and includes--

(i) all statements which the Court permits to be made before it by witnesses;

(ii) all documents produced for the inspection of the Court;"""

PROVISOS = """(1) Every police officer may arrest without warrant any person.

(2) No arrest shall be made in case of an offence punishable with imprisonment for less than
three years:

Provided that the officer shall record the reasons in writing:

Provided further that no woman shall be arrested after sunset.

(3) The police officer shall inform the arrested person of the grounds of arrest."""

# the proviso follows clause (a) and clause (b) comes next: it qualifies (a)
PROVISO_OF_CLAUSE = """(a) the expressions "custom" and "usage" signify any rule of long standing:

Provided that the rule is certain and not unreasonable;

(b) "district court" means the principal civil court of original jurisdiction;"""

EXPLANATIONS = """Whoever voluntarily causes hurt shall be punished.

Explanation 1.---A person is said to cause hurt when he causes bodily pain.

Explanation II.--It is immaterial whether the pain is lasting."""

SUB_SECTION_EXCEPTION = """(1) Whoever, having a husband or wife living, marries again shall be
punished.

(a) with imprisonment; and

(b) with fine.

Exception.---This sub-section does not extend to any person whose marriage has been declared void.

(2) Whoever commits the offence under sub-section (1) shall be punished with imprisonment."""

INSERTED_LABELS = """(1) First.

(2) Second.

(2A) Inserted after second.

(3) Third, namely:--

(a) alpha;

(aa) inserted alpha;

(b) beta."""

IPC_4 = """9[4. Extension of Code to extra-territorial offences.—The provisions of this Code
apply also to any offence committed by—
10[(1) any citizen of India in any place without and beyond India;
(2) any person on any ship or aircraft registered in India wherever it may be.]
12[Explanation.—In this section—
(a) the word “offence” includes every act committed outside India;
(b) the expression “computer resource” shall have the meaning assigned to it in clause (k) of
sub-section (1) of section 2 of the Information Technology Act, 2000 (21 of 2000).]"""

# "(8) of section 127" starts a wrapped line but is a reference, not sub-section (8)
WRAPPED_REFERENCE = """(7) The offence under sub-sections (7) and
(8) of section 127 is cognizable.

(8) Whoever attempts shall be punished."""

INLINE_LABELS = """(a) "custom" signifies any rule of long standing;

(b) "district court" means the principal civil court;

(c) "full blood" means descent by the same wife;

(d) "uterine blood" means descent by different husbands;

(e) "prescribed" means prescribed by rules;

(f) (i) "sapinda relationship" extends as far as the third generation;

(ii) two persons are said to be sapindas of each other if one is a lineal ascendant;

(g) "degrees of prohibited relationship" means the following."""


# clause (iv) was omitted by amendment; the Explanation of (iii) ends where (v) begins
OMITTED_CLAUSE = """(1) A marriage may be dissolved on the ground that the other party--

(i) has had voluntary sexual intercourse with any person other than his or her spouse; or

(ii) has ceased to be a Hindu by conversion to another religion; or

(iii) has been incurably of unsound mind.

Explanation.--In this clause,--

(a) the expression "mental disorder" means mental illness;

(b) the expression "psychopathic disorder" means a persistent disorder of mind;

(v) has been suffering from venereal disease in a communicable form; or

(vi) has renounced the world by entering any religious order."""

NESTED_DEFINITION = """(28) "public servant" means a person falling under any of the descriptions,
namely:---

(a) every commissioned officer in the Army, Navy or Air Force;

Explanation.---

(a) persons falling under any of the descriptions made in this clause are public servants;

(b) "election" means an election for the purpose of selecting members of any legislative body.

(29) "reason to believe".---A person is said to have "reason to believe" a thing, if he has
sufficient cause to believe that thing but not otherwise;"""


def _keys(text: str, section: str) -> list[tuple[str, str, str]]:
    return [
        (row["unit_key"], row["unit_kind"], row["parent_key"])
        for row in split_units("BNS", section, text)
    ]


@pytest.mark.parametrize(
    ("section", "text", "expected"),
    [
        pytest.param(
            "1",
            BNS_1,
            [
                ("1(1)", "sub_section", "1"),
                ("1(2)", "sub_section", "1"),
                ("1(5)", "sub_section", "1"),
                ("1(5)(a)", "clause", "1(5)"),
                ("1(5)(b)", "clause", "1(5)"),
                # "In this section": the run after clause (b) hangs off the section
                ("1 Explanation", "explanation", "1"),
                ("1 Illustration 1", "illustration", "1"),
                ("1(6)", "sub_section", "1"),
            ],
            id="bns-1-subsections-explanation-illustration",
        ),
        pytest.param(
            "103",
            BNS_103,
            [("103(1)", "sub_section", "103"), ("103(2)", "sub_section", "103")],
            id="bns-103",
        ),
        pytest.param(
            "101",
            BNS_101,
            [
                ("101(a)", "clause", "101"),
                ("101(b)", "clause", "101"),
                ("101 Illustration (a)", "illustration", "101"),
                ("101 Illustration (b)", "illustration", "101"),
                ("101 Exception 1", "exception", "101"),
                ("101 Exception 1 Proviso 1", "proviso", "101 Exception 1"),
                ("101 Exception 1 Explanation", "explanation", "101 Exception 1"),
                ("101 Exception 2", "exception", "101"),
                ("101 Exception 2 Illustration 1", "illustration", "101 Exception 2"),
            ],
            id="bns-101-exceptions-own-their-illustrations",
        ),
        pytest.param(
            "2",
            BNS_2_EXCERPT,
            [
                ("2(14)", "sub_section", "2"),
                ("2(15)", "sub_section", "2"),
                ("2(16)", "sub_section", "2"),
                ("2(16)(i)", "clause", "2(16)"),
                ("2(16)(ii)", "clause", "2(16)"),
                ("2(16) Illustration 1", "illustration", "2(16)"),
                ("2(17)", "sub_section", "2"),
            ],
            id="bns-2-numbered-definitions",
        ),
        pytest.param(
            "9",
            CLAUSE_I,
            [(f"9({c})", "clause", "9") for c in "abcdefghij"],
            id="i-after-h-is-a-clause",
        ),
        pytest.param(
            "2",
            SUB_CLAUSE_I,
            [
                ("2(1)", "sub_section", "2"),
                *[(f"2(1)({c})", "clause", "2(1)") for c in "abcdefgh"],
                ("2(1)(h)(i)", "sub_clause", "2(1)(h)"),
                ("2(1)(h)(ii)", "sub_clause", "2(1)(h)"),
                ("2(1)(i)", "clause", "2(1)"),
            ],
            id="i-after-list-intro-is-a-sub-clause",
        ),
        pytest.param(
            "2",
            BNSS_2_EXCERPT,
            [
                ("2(1)", "sub_section", "2"),
                *[(f"2(1)({c})", "clause", "2(1)") for c in "abcdefgh"],
                ("2(1)(h) Explanation", "explanation", "2(1)(h)"),
                ("2(1)(i)", "clause", "2(1)"),
                ("2(1)(j)", "clause", "2(1)"),
                ("2(1)(j)(i)", "sub_clause", "2(1)(j)"),
                ("2(1)(j)(ii)", "sub_clause", "2(1)(j)"),
                ("2(1)(k)", "clause", "2(1)"),
                ("2(2)", "sub_section", "2"),
            ],
            id="bnss-2-explanation-of-a-clause",
        ),
        pytest.param(
            "2",
            BSA_2_EXCERPT,
            [
                ("2(1)", "sub_section", "2"),
                *[(f"2(1)({c})", "clause", "2(1)") for c in "abcd"],
                ("2(1)(d) Illustration (i)", "illustration", "2(1)(d)"),
                ("2(1)(d) Illustration (ii)", "illustration", "2(1)(d)"),
                ("2(1)(e)", "clause", "2(1)"),
                ("2(1)(e)(i)", "sub_clause", "2(1)(e)"),
                ("2(1)(e)(ii)", "sub_clause", "2(1)(e)"),
            ],
            id="bsa-2-roman-illustrations-then-next-clause",
        ),
        pytest.param(
            "35",
            PROVISOS,
            [
                ("35(1)", "sub_section", "35"),
                ("35(2)", "sub_section", "35"),
                ("35(2) Proviso 1", "proviso", "35(2)"),
                ("35(2) Proviso 2", "proviso", "35(2)"),
                ("35(3)", "sub_section", "35"),
            ],
            id="provisos-numbered-under-sub-section",
        ),
        pytest.param(
            "3",
            PROVISO_OF_CLAUSE,
            [
                ("3(a)", "clause", "3"),
                ("3(a) Proviso 1", "proviso", "3(a)"),
                ("3(b)", "clause", "3"),
            ],
            id="proviso-before-next-clause-qualifies-the-clause",
        ),
        pytest.param(
            "115",
            EXPLANATIONS,
            [
                ("115 Explanation 1", "explanation", "115"),
                ("115 Explanation 2", "explanation", "115"),  # roman II read as 2
            ],
            id="numbered-explanations-under-section",
        ),
        pytest.param(
            "82",
            SUB_SECTION_EXCEPTION,
            [
                ("82(1)", "sub_section", "82"),
                ("82(1)(a)", "clause", "82(1)"),
                ("82(1)(b)", "clause", "82(1)"),
                ("82(1) Exception", "exception", "82(1)"),
                ("82(2)", "sub_section", "82"),
            ],
            id="exception-inside-a-sub-section",
        ),
        pytest.param(
            "7",
            INSERTED_LABELS,
            [
                ("7(1)", "sub_section", "7"),
                ("7(2)", "sub_section", "7"),
                ("7(2A)", "sub_section", "7"),
                ("7(3)", "sub_section", "7"),
                ("7(3)(a)", "clause", "7(3)"),
                ("7(3)(aa)", "clause", "7(3)"),
                ("7(3)(b)", "clause", "7(3)"),
            ],
            id="inserted-labels",
        ),
        pytest.param(
            "4",
            IPC_4,
            [
                ("4(1)", "sub_section", "4"),
                ("4(2)", "sub_section", "4"),
                ("4 Explanation", "explanation", "4"),
            ],
            id="ipc-wrapped-lines-and-amendment-markers",
        ),
        pytest.param(
            "2",
            WRAPPED_REFERENCE,
            [("2(7)", "sub_section", "2"), ("2(8)", "sub_section", "2")],
            id="wrapped-reference-is-not-a-unit",
        ),
        pytest.param(
            "3",
            INLINE_LABELS,
            [
                *[(f"3({c})", "clause", "3") for c in "abcdef"],
                ("3(f)(i)", "sub_clause", "3(f)"),
                ("3(f)(ii)", "sub_clause", "3(f)"),
                ("3(g)", "clause", "3"),
            ],
            id="clause-and-sub-clause-on-one-line",
        ),
        pytest.param(
            "13",
            OMITTED_CLAUSE,
            [
                ("13(1)", "sub_section", "13"),
                ("13(1)(i)", "clause", "13(1)"),
                ("13(1)(ii)", "clause", "13(1)"),
                ("13(1)(iii)", "clause", "13(1)"),
                ("13(1)(iii) Explanation", "explanation", "13(1)(iii)"),
                ("13(1)(v)", "clause", "13(1)"),
                ("13(1)(vi)", "clause", "13(1)"),
            ],
            id="omitted-roman-clause-and-items-inside-explanation",
        ),
        pytest.param(
            "376",
            "376. Punishment for rape.—(1) Whoever, except in the cases provided for in "
            "sub-section (2), \ncommits rape, shall be punished. \n(2) Whoever,— \n(a) being "
            "a police officer, commits rape; \n(b) being a public servant, commits rape.",
            [
                ("376(1)", "sub_section", "376"),
                ("376(2)", "sub_section", "376"),
                ("376(2)(a)", "clause", "376(2)"),
                ("376(2)(b)", "clause", "376(2)"),
            ],
            id="ipc-heading-runs-into-sub-section-1",
        ),
        pytest.param(
            "104",
            "Whoever, being under sentence of imprisonment for life, commits murder, shall be "
            "punished with death (see section 103).",
            [],
            id="no-structure-no-rows",
        ),
    ],
)
def test_split_units_keys(section: str, text: str, expected: list[tuple[str, str, str]]) -> None:
    assert _keys(text, section) == expected


@pytest.mark.parametrize(
    ("text", "section", "unit_key", "starts", "ends"),
    [
        # a unit's text includes its children and stops before its next sibling
        (BNS_1, "1", "1(5)", "(5) The provisions", "wherever it may be;"),
        (BNS_1, "1", "1(5)(b)", "(b) any person", "wherever it may be;"),
        (BNS_1, "1", "1 Explanation", "Explanation.--In this section", "under this Sanhita."),
        (BNS_1, "1", "1 Illustration 1", "A, who is a citizen", "without and beyond India."),
        (BNS_101, "101", "101 Exception 1", "Exception 1.---", "is a question of fact."),
        (BNS_101, "101", "101 Exception 1 Proviso 1", "Provided that", "obedience to the law."),
        (BNS_2_EXCERPT, "2", "2(16)", '(16) "Judge"', "in respect of a charge is a Judge;"),
        (IPC_4, "4", "4(2)", "(2) any person", "wherever it may be.]"),
        (PROVISOS, "35", "35(2)", "(2) No arrest", "arrested after sunset."),
    ],
)
def test_split_units_text_spans(
    text: str, section: str, unit_key: str, starts: str, ends: str
) -> None:
    rows = {row["unit_key"]: row for row in split_units("BNS", section, text)}
    unit_text = rows[unit_key]["text"]
    assert unit_text.startswith(starts)
    assert unit_text.endswith(ends)


@pytest.mark.parametrize(
    ("text", "section", "expected"),
    [
        (BNS_1, "1", {"1(1)": 1, "1(2)": 2, "1(5)": 3, "1(5)(b)": 2, "1(6)": 6}),
        (BNS_101, "101", {"101 Exception 2": 6, "101 Exception 1 Explanation": 2}),
    ],
)
def test_split_units_ordinal_counts_siblings(
    text: str, section: str, expected: dict[str, int]
) -> None:
    ordinals = {row["unit_key"]: row["ordinal"] for row in split_units("BNS", section, text)}
    assert {key: ordinals[key] for key in expected} == expected


@pytest.mark.parametrize("text", [BNS_1, BNS_101, BNS_2_EXCERPT, IPC_4, BSA_2_EXCERPT])
def test_split_units_rows_are_well_formed(text: str) -> None:
    rows = split_units("BNS", "9", text)
    keys = [row["unit_key"] for row in rows]
    assert rows
    assert len(keys) == len(set(keys))
    for row in rows:
        assert set(row) == {
            "act_code",
            "section_number",
            "unit_key",
            "unit_kind",
            "parent_key",
            "ordinal",
            "text",
        }
        assert row["unit_kind"] in UNIT_KINDS
        assert row["parent_key"] == "9" or row["parent_key"] in keys
        assert row["text"] and row["text"] in text


def test_split_units_repeated_label_gets_distinct_key() -> None:
    text = "Whoever does it.\n\nExplanation.---One.\n\nExplanation.---Two."
    keys = [row["unit_key"] for row in split_units("BNS", "5", text)]
    assert keys == ["5 Explanation", "5 Explanation #2"]


# --------------------------------------------------------------------------------------------
# cross-references

ACTS = {
    "General Clauses Act, 1897": "GCA",
    "Information Technology Act, 2000": "ITA",
    "Indian Penal Code": "IPC",
    "Code of Criminal Procedure, 1973": "CRPC",
    "Bharatiya Nagarik Suraksha Sanhita, 2023": "BNSS",
    "Public Gambling Act, 1867": "PGA",
}


def _refs(text: str, section: str = "100") -> list[tuple]:
    return [
        (row["target_act_code"], row["target_section"], row["target_unit"], row["reference_type"])
        for row in find_cross_references("BNS", section, text, ACTS.get)
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        pytest.param(
            "Except in the cases provided for in section 105, culpable homicide is murder.",
            [("BNS", "105", None, "exception_reference")],
            id="except",
        ),
        pytest.param(
            "Whoever, save as provided in section 35, causes hurt shall be punished.",
            [("BNS", "35", None, "exception_reference")],
            id="save-as",
        ),
        pytest.param(
            "Nothing in section 12 shall apply to a child.",
            [("BNS", "12", None, "exception_reference")],
            id="nothing-in",
        ),
        pytest.param(
            "Subject to the provisions of section 20, the Court may try the offence.",
            [("BNS", "20", None, "subject_to")],
            id="subject-to",
        ),
        pytest.param(
            "Notwithstanding anything contained in section 8, the fine shall be paid.",
            [("BNS", "8", None, "subject_to")],
            id="notwithstanding",
        ),
        pytest.param(
            '"transgender" shall have the meaning assigned to it in clause (k) of section 2 of '
            "the Information Technology Act, 2000 (21 of 2000);",
            [("ITA", "2", "(k)", "definition_import")],
            id="meaning-assigned-other-act",
        ),
        pytest.param(
            "a public servant within the meaning of section 2, who commits the act.",
            [("BNS", "2", None, "definition_import")],
            id="within-the-meaning",
        ),
        pytest.param(
            "Whoever commits an offence punishable under section 103 shall be tried.",
            [("BNS", "103", None, "punishment_table")],
            id="punishable-under",
        ),
        pytest.param(
            "An officer acting under section 6 of the General Clauses Act, 1897 (10 of 1897) "
            "may do so.",
            [("GCA", "6", None, "cross_act_reference")],
            id="named-act",
        ),
        pytest.param(
            "The Magistrate may proceed under section 193 of the Bharatiya Nagarik Suraksha "
            "Sanhita, 2023.",
            [("BNSS", "193", None, "cross_act_reference")],
            id="named-sanhita",
        ),
        pytest.param(
            "A case under section 154 of the Code of Criminal Procedure, 1973 is pending.",
            [("CRPC", "154", None, "cross_act_reference")],
            id="code-of-criminal-procedure",
        ),
        pytest.param(
            "punishable under section 302 of the Indian Penal Code (45 of 1860).",
            [("IPC", "302", None, "punishment_table")],
            id="ipc-by-number-punishment-wins",
        ),
        pytest.param(
            "defined in clause (31) of section 3 of the Unknown Things Act, 1999 (1 of 1999).",
            [(None, "3", "(31)", "cross_act_reference")],
            id="unresolved-act-kept",
        ),
        pytest.param(
            "the Public Gambling Act, 1867, not being an offence under section 3 of that Act;",
            [("PGA", "3", None, "cross_act_reference")],
            id="that-act-is-the-last-named",
        ),
        pytest.param(
            "The offence is tried under the Indian Penal Code (45 of 1860).",
            [],
            id="act-without-section-is-not-a-reference",
        ),
        pytest.param(
            "words and expressions used but not defined in this Sanhita and defined in the "
            "Information Technology Act, 2000 shall have the meanings respectively assigned.",
            [],
            id="definition-import-without-section",
        ),
        pytest.param(
            "as provided in sections 3 and 4, the offence is complete.",
            [("BNS", "3", None, "other"), ("BNS", "4", None, "other")],
            id="sections-and",
        ),
        pytest.param(
            "punishable under sections 303 to 305.",
            [("BNS", n, None, "punishment_table") for n in ("303", "304", "305")],
            id="range-expanded",
        ),
        pytest.param(
            "see sections 10 to 90.",
            [("BNS", "10", None, "other"), ("BNS", "90", None, "other")],
            id="range-over-30-not-expanded",
        ),
        pytest.param(
            "in sub-section (2) of section 8 the word offence is used.",
            [("BNS", "8", "(2)", "other")],
            id="sub-section-of-section",
        ),
        pytest.param(
            "referred to in clause (a) of sub-section (1) of section 2 of this Sanhita.",
            [("BNS", "2", "(1)(a)", "other")],
            id="clause-of-sub-section-of-section",
        ),
        pytest.param(
            "sub-sections (7) and (8) of section 127, 222, 230",
            [
                ("BNS", "127", "(7)", "other"),
                ("BNS", "127", "(8)", "other"),
                ("BNS", "222", None, "other"),
                ("BNS", "230", None, "other"),
            ],
            id="unit-list-then-section-list",
        ),
        pytest.param(
            "Whoever contravenes sub-section (1) shall be punished.",
            [("BNS", "100", "(1)", "other")],
            id="bare-sub-section-is-this-section",
        ),
        pytest.param(
            "He is guilty of an offence under this section.",
            [("BNS", "100", None, "other")],
            id="this-section",
        ),
        pytest.param(
            "as in Section 2(1)(a), s. 5 and ss. 7, 8.",
            [
                ("BNS", "2", "(1)(a)", "other"),
                ("BNS", "5", None, "other"),
                ("BNS", "7", None, "other"),
                ("BNS", "8", None, "other"),
            ],
            id="capitals-suffix-and-abbreviations",
        ),
        pytest.param(
            "This offence is punishable. The provisions of section 9 apply.",
            [("BNS", "9", None, "other")],
            id="cue-in-previous-sentence-ignored",
        ),
    ],
)
def test_find_cross_references(text: str, expected: list[tuple]) -> None:
    assert _refs(text) == expected


def test_cross_reference_rows_carry_span_context_and_resolver_input() -> None:
    asked: list[str] = []
    text = (
        "First sentence here. An officer acting under section 6 of the General Clauses Act, "
        "1897 (10 of 1897) may do so."
    )

    def resolve(name: str) -> str | None:
        asked.append(name)
        return "GCA"

    (row,) = find_cross_references("BNS", "4", text, resolve)
    assert asked == ["General Clauses Act, 1897"]
    assert text[row["span_start"] : row["span_end"]] == (
        "section 6 of the General Clauses Act, 1897 (10 of 1897)"
    )
    assert row["source_act_code"] == "BNS"
    assert row["source_section"] == "4"
    assert row["reference_type"] in REFERENCE_TYPES
    assert row["context"].startswith("An officer acting under section 6")
    assert "First sentence" not in row["context"]


def test_cross_reference_context_is_bounded() -> None:
    text = "word " * 200 + "under section 5 " + "word " * 200
    (row,) = find_cross_references("BNS", "1", text, ACTS.get)
    assert len(row["context"]) <= 200
    assert "section 5" in row["context"]


# --------------------------------------------------------------------------------------------
# definitions


@pytest.mark.parametrize(
    ("section", "text", "expected"),
    [
        pytest.param(
            "2",
            BNS_2_EXCERPT,
            [
                ("2(14)", "injury", "means"),
                ("2(15)", "illegal", "means"),
                ("2(15)", "legally bound to do", "means"),
                ("2(16)", "judge", "means_and_includes"),
                ("2(17)", "life", "means"),
            ],
            id="bns-2-numbered-and-heading-style",
        ),
        pytest.param(
            "2",
            BNSS_2_EXCERPT,
            [
                *[(f"2(1)({c})", f"term {c}", "means") for c in "abcdefg"],
                ("2(1)(h)", "complaint", "means"),
                ("2(1)(i)", "electronic communication", "means"),
                ("2(1)(j)", "high court", "means"),
                ("2(1)(k)", "inquiry", "means"),
            ],
            id="bnss-2-curly-quotes",
        ),
        pytest.param(
            "2",
            BSA_2_EXCERPT,
            [
                ("2(1)(a)", "court", "includes"),
                ("2(1)(b)", "conclusive proof", "means"),
                ("2(1)(c)", "disproved", "means"),
                ("2(1)(d)", "document", "means_and_includes"),
                ("2(1)(e)", "evidence", "means_and_includes"),
            ],
            id="bsa-2-means-and-includes",
        ),
        pytest.param(
            "2",
            '(a) "court" includes all Judges and Magistrates;\n\n'
            "(b) ‘bail bond’, in relation to an accused, means an undertaking with surety;",
            [("2(a)", "court", "includes"), ("2(b)", "bail bond", "means")],
            id="lettered-single-curly-and-qualifier",
        ),
        pytest.param(
            "11",
            "The word “person” includes any Company or Association or body of persons, whether "
            "incorporated or not.",
            [("11", "person", "includes")],
            id="ipc-style-the-word",
        ),
        pytest.param(
            "2",
            "(a) “bailable offence” means an offence shown as bailable; and “non-bailable "
            "offence” means any other offence;",
            [("2(a)", "bailable offence", "means"), ("2(a)", "non-bailable offence", "means")],
            id="two-terms-in-one-clause",
        ),
        pytest.param(
            "2",
            NESTED_DEFINITION,
            [
                ("2(28)", "public servant", "means"),
                ("2(28) Explanation", "election", "means"),
                ("2(29)", "reason to believe", "means"),
            ],
            id="definition-inside-an-explanation",
        ),
        pytest.param(
            "3",
            '"immoveable property" does not include standing timber;',
            [],
            id="negative-definition-not-read-as-includes",
        ),
    ],
)
def test_extract_definitions(section: str, text: str, expected: list[tuple[str, str, str]]) -> None:
    rows = extract_definitions("BNS", section, text)
    assert [(r["unit_key"], r["term"], r["definition_kind"]) for r in rows] == expected
    assert all(r["definition_kind"] in DEFINITION_KINDS for r in rows)


@pytest.mark.parametrize(
    ("text", "term", "starts", "ends"),
    [
        (BNS_2_EXCERPT, "injury", '"injury" means any harm', "reputation or property"),
        (BNS_2_EXCERPT, "judge", '"Judge" means a person', "in respect of a charge is a Judge"),
        (BNS_2_EXCERPT, "life", '"life" means the life', "appears from the context"),
        # a term defined inside the unit's Explanation does not cut the unit's own definition
        (NESTED_DEFINITION, "public servant", '"public servant" means', "legislative body."),
        (NESTED_DEFINITION, "election", '"election" means', "legislative body."),
        (
            '"registered" means registered under the law; "instrument",\nmeans a '
            'non-testamentary instrument;\n\n^1["attested" means attested by two witnesses;]',
            "instrument",
            '"instrument", means',
            "non-testamentary instrument",
        ),
    ],
)
def test_definition_text_runs_to_next_numbered_clause(
    text: str, term: str, starts: str, ends: str
) -> None:
    rows = {r["term"]: r for r in extract_definitions("BNS", "2", text)}
    assert rows[term]["definition_text"].startswith(starts)
    assert rows[term]["definition_text"].endswith(ends)


@pytest.mark.parametrize(
    ("title", "expected"),
    [
        ("Definitions.", True),
        ("Definitions", True),
        ("Interpretation", True),
        ("Interpretation-clause.", True),
        ("Definition of “appropriate Government”", True),
        ("Interpretation of evidence to accused or his advocate.", False),
        ("Punishment for murder.", False),
        ("Local law defined.", False),
    ],
)
def test_is_definition_section(title: str, expected: bool) -> None:
    assert is_definition_section(title) is expected


# --------------------------------------------------------------------------------------------
# linear time on hostile input


@pytest.mark.parametrize(
    "text",
    [
        "(" * 200_000,
        "section " * 25_000,
        "Section Section " * 12_500,
        "(\n" * 100_000,
        '"a" means ' * 20_000,
        "section 5 of that Act " * 9_000,
        "\nExplanation." * 20_000,
        "sub-section (1) of " * 10_000,
    ],
    ids=["parens", "section", "Section", "paren-lines", "terms", "that-act", "expl", "chain"],
)
def test_hostile_input_does_not_backtrack(text: str) -> None:
    """A guard against catastrophic regex backtracking, not a speed target: on these ~200k
    characters a quadratic pattern takes minutes; linear ones take about a second on a loaded
    2-core machine, so the bound is loose enough never to flake. CPU time, not the wall clock:
    the suite runs this beside the real-corpus job at the lowest priority (tests/suite.py)."""
    started = time.thread_time()
    split_units("BNS", "1", text)
    find_cross_references("BNS", "1", text, lambda name: None)
    extract_definitions("BNS", "1", text)
    assert time.thread_time() - started < 15.0
