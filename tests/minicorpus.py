"""A miniature corpus for the tests, written out to a temporary folder.

The same layout and formats as `../shared/corpus`, with a handful of sections whose wording
follows the Acts (shortened). It lives here as code, not as files, so that nothing in the
repository looks like (or could be mistaken for) a copy of the corpus.
"""

from __future__ import annotations

import json
from pathlib import Path

TEXT_FILES: dict[str, str] = {
    "mappings/iea_bsa.csv": """\
# fixture alignment
iea_section,bsa_section,relation,note,title
65b,63,same,sim=0.859,Admissibility of electronic records
""",
    "mappings/ipc_bns.csv": """\
# fixture crosswalk
ipc_section,bns_section,relation,note
34,3,merge,
302,103,same,
420,318,merge,
498a,85,split,
,358,repeal,
""",
    "statutes/chapters/the-bharatiya-nyaya-sanhita-2023.csv": """\
chapter,chapter_title,first_section,last_section
CHAPTER I,PRELIMINARY,1,3
CHAPTER VI,OF OFFENCES AFFECTING THE HUMAN BODY,100,146
CHAPTER XVII,OF OFFENCES AGAINST PROPERTY,303,334
CHAPTER XVI,OF OFFENCES RELATING TO RELIGION,298,302
""",
    "statutes/indiacode/the-bharatiya-nagarik-suraksha-sanhita-2023/part-001.md": """\
---
title: "The Bharatiya Nagarik Suraksha Sanhita, 2023"
language: en
part: 1
parts: 1
source: "https://www.indiacode.nic.in/handle/123456789/20099"
---
# The Bharatiya Nagarik Suraksha Sanhita, 2023

## Section 173 - Information in cognizable cases.

(1) Every information relating to the commission of a cognizable offence, irrespective of the area where the offence is committed, may be given orally or by electronic communication to an officer in charge of a police station.

## Section 482 - Direction for grant of bail to person apprehending arrest.

(1) When any person has reason to believe that he may be arrested on an accusation of having committed a non-bailable offence, he may apply to the High Court or the Court of Session for a direction under this section.
""",
    "statutes/indiacode/the-bharatiya-nyaya-sanhita-2023/part-001.md": """\
---
title: "The Bharatiya Nyaya Sanhita, 2023"
language: en
part: 1
parts: 2
source: "https://www.indiacode.nic.in/handle/123456789/20062"
---
# The Bharatiya Nyaya Sanhita, 2023

## Section 1 - Short title, commencement and application.

(1) This Act may be called the Bharatiya Nyaya Sanhita, 2023.

(2) It shall come into force on such date^1 as the Central Government may appoint.

### Footnotes

1. 1st July, 2024, vide notification No. S.O. 850(E).

## Section 2 - Definitions.

In this Sanhita, unless the context otherwise requires,---

(1) "act" denotes as well a series of acts as a single act;

(14) "injury" means any harm whatever illegally caused to any person, in body, mind, reputation or property;

## Section 100 - Culpable homicide.

Whoever causes death by doing an act with the intention of causing death commits the offence of culpable homicide.

## Section 101 - Murder.

Except in the cases hereinafter excepted, culpable homicide is murder, if the act by which the death is caused is done with the intention of causing death.

## Section 103 - Punishment for murder.

(1) Whoever commits murder shall be punished with death or imprisonment for life, and shall also be liable to fine.

(2) When a group of five or more persons acting in concert commits murder on the ground of race, caste or community, each member of such group shall be punished with death or with imprisonment for life.
""",
    "statutes/indiacode/the-bharatiya-nyaya-sanhita-2023/part-002.md": """\
---
title: "The Bharatiya Nyaya Sanhita, 2023"
language: en
part: 2
parts: 2
source: "https://www.indiacode.nic.in/handle/123456789/20062"
---
# The Bharatiya Nyaya Sanhita, 2023

## Section 302 - Uttering words, etc., with deliberate intent to wound religious feelings of any person.

Whoever, with the deliberate intention of wounding the religious feelings of any person, utters any word shall be punished with simple imprisonment for a term which may extend to one year, or with fine, or with both.

## Section 318 - Cheating.

(1) Whoever, by deceiving any person, fraudulently or dishonestly induces the person so deceived to deliver any property to any person, is said to "cheat".

(4) Whoever cheats and thereby dishonestly induces the person deceived to deliver any property shall be punished with imprisonment for a term which may extend to seven years, and shall also be liable to fine. This is punishable under section 103 only when death follows.
""",
    "statutes/indiacode/the-bharatiya-sakshya-adhiniyam-2023/part-001.md": """\
---
title: "The Bharatiya Sakshya Adhiniyam, 2023"
language: en
part: 1
parts: 1
source: "https://www.indiacode.nic.in/handle/123456789/20063"
---
# The Bharatiya Sakshya Adhiniyam, 2023

## Section 63 - Admissibility of electronic records.

(1) Notwithstanding anything contained in this Adhiniyam, any information contained in an electronic record shall be deemed to be also a document.
""",
    "statutes/indiacode/the-hindu-marriage-act-1955/part-001.md": """\
---
title: "The Hindu Marriage Act, 1955"
language: en
part: 1
parts: 1
source: "https://www.indiacode.nic.in/handle/123456789/1560"
---
# The Hindu Marriage Act, 1955

## Section 13 - Divorce.

(1) Any marriage solemnized, whether before or after the commencement of this Act, may, on a petition presented by either the husband or the wife, be dissolved by a decree of divorce on the ground that the other party---

(i) has, after the solemnization of the marriage, had voluntary sexual intercourse with any person other than his or her spouse; or

(ia) has, after the solemnization of the marriage, treated the petitioner with cruelty.

## Section 13A - Alternate relief in divorce proceedings.

In any proceeding under this Act, on a petition for dissolution of marriage by a decree of divorce, the court may pass instead a decree for judicial separation.

## Section 29 - [Omitted.].

^1[29. Omitted by Act 68 of 1976.]
""",
}

JSON_FILES: dict[str, list[dict]] = {'mappings/crpc_bnss.json': [{'crpc_section': '154',
                              'bnss_section': '173',
                              'offence': 'FIR',
                              'crpc_title': 'Information in cognizable cases',
                              'bnss_title': 'Information in cognizable cases',
                              'description': '',
                              'key_changes': 'Zero FIR and e-FIR',
                              'category': 'Investigation'},
                             {'crpc_section': '438',
                              'bnss_section': '482',
                              'offence': 'Anticipatory bail',
                              'crpc_title': '',
                              'bnss_title': '',
                              'description': '',
                              'key_changes': '',
                              'category': 'Bail'}],
 'statutes/constitution/indian_constitution.json': [{'part': 1,
                                                     'part_title': 'The union and its '
                                                                   'territory',
                                                     'article': 0,
                                                     'title': 'Preamble',
                                                     'description': 'WE, THE PEOPLE OF INDIA, '
                                                                    'having solemnly resolved '
                                                                    'to constitute India into '
                                                                    'a SOVEREIGN SOCIALIST '
                                                                    'SECULAR DEMOCRATIC '
                                                                    'REPUBLIC.'},
                                                    {'part': 3,
                                                     'part_title': 'Fundamental Rights',
                                                     'article': 21,
                                                     'title': 'Protection of life and personal '
                                                              'liberty',
                                                     'description': 'No person shall be '
                                                                    'deprived of his life or '
                                                                    'personal liberty except '
                                                                    'according to procedure '
                                                                    'established by law.'},
                                                    {'part': 3,
                                                     'part_title': 'Fundamental Rights',
                                                     'article': '21A',
                                                     'title': 'Right to education',
                                                     'description': 'The State shall provide '
                                                                    'free and compulsory '
                                                                    'education to all children '
                                                                    'of the age of six to '
                                                                    'fourteen years.'}],
 'statutes/repealed/crpc-1973/crpc.json': [{'chapter': 12,
                                            'section': 154,
                                            'section_title': 'Information in cognizable cases',
                                            'section_desc': 'Every information relating to the '
                                                            'commission of a cognizable '
                                                            'offence, if given orally to an '
                                                            'officer in charge of a police '
                                                            'station, shall be reduced to '
                                                            'writing.'},
                                           {'chapter': 33,
                                            'section': 438,
                                            'section_title': 'Direction for grant of bail to '
                                                             'person apprehending arrest',
                                            'section_desc': 'Where any person has reason to '
                                                            'believe that he may be arrested '
                                                            'on accusation of having committed '
                                                            'a non-bailable offence, he may '
                                                            'apply to the High Court or the '
                                                            'Court of Session.'}],
 'statutes/repealed/iea-1872/iea.json': [{'chapter': 5,
                                          'section': '65B',
                                          'section_title': 'Admissibility of electronic '
                                                           'records',
                                          'section_desc': 'Notwithstanding anything contained '
                                                          'in this Act, any information '
                                                          'contained in an electronic record '
                                                          'shall be deemed to be also a '
                                                          'document.'}]}

JSONL_FILES: dict[str, list[dict]] = {'mappings/ipc_bns_with_text.jsonl': [{'prompts': 'fixture',
                                       'response': "{'IPC Section': '302', 'IPC Heading': "
                                                   "'Punishment for murder', 'IPC "
                                                   "Descriptions': '', 'BNS Section': '103', "
                                                   "'BNS Heading': 'Punishment for murder', "
                                                   "'BNS description': ''}"},
                                      {'prompts': 'fixture',
                                       'response': "{'IPC Section': '420', 'IPC Heading': "
                                                   "'Cheating', 'IPC Descriptions': '', 'BNS "
                                                   "Section': '318(4)', 'BNS Heading': "
                                                   "'Cheating', 'BNS description': ''}"},
                                      {'prompts': 'fixture',
                                       'response': "{'IPC Section': '498A', 'IPC Heading': "
                                                   "'Cruelty defined', 'IPC Descriptions': '', "
                                                   "'BNS Section': '86', 'BNS Heading': "
                                                   "'Cruelty defined', 'BNS description': ''}"},
                                      {'prompts': 'fixture',
                                       'response': "{'IPC Section': '171I', 'IPC Heading': "
                                                   "'Failure to keep election accounts', 'IPC "
                                                   "Descriptions': '', 'BNS Section': '177', "
                                                   "'BNS Heading': 'Failure to keep election "
                                                   "accounts', 'BNS description': ''}"}],
 'statutes/repealed/ipc-1860/ipc_sections.jsonl': [{'id': 'IPC_34',
                                                    'act': 'IPC',
                                                    'section_number': '34',
                                                    'section_title': 'Acts done by several '
                                                                     'persons in furtherance '
                                                                     'of common intention',
                                                    'chapter_number': 'II',
                                                    'chapter_title': 'GENERAL EXPLANATIONS',
                                                    'full_text': '1[34. Acts done by several '
                                                                 'persons in furtherance of '
                                                                 'common intention.—When a '
                                                                 'criminal act is done by '
                                                                 'several persons in '
                                                                 'furtherance of the common '
                                                                 'intention of all, each of '
                                                                 'such persons is liable for '
                                                                 'that act in the same manner '
                                                                 'as if it were done by him '
                                                                 'alone.]'},
                                                   {'id': 'IPC_302',
                                                    'act': 'IPC',
                                                    'section_number': '302',
                                                    'section_title': 'Punishment for murder',
                                                    'chapter_number': 'XVI',
                                                    'chapter_title': 'OF OFFENCES AFFECTING '
                                                                     'THE HUMAN BODY',
                                                    'full_text': '302. Punishment for '
                                                                 'murder.—Whoever commits '
                                                                 'murder shall be punished '
                                                                 'with death, or '
                                                                 '1[imprisonment for life], '
                                                                 'and shall also be liable to '
                                                                 'fine.'},
                                                   {'id': 'IPC_420',
                                                    'act': 'IPC',
                                                    'section_number': '420',
                                                    'section_title': 'Cheating and dishonestly '
                                                                     'inducing delivery of '
                                                                     'property',
                                                    'chapter_number': 'XVII',
                                                    'chapter_title': 'OF OFFENCES AGAINST '
                                                                     'PROPERTY',
                                                    'full_text': '420. Cheating and '
                                                                 'dishonestly inducing '
                                                                 'delivery of '
                                                                 'property.—Whoever cheats and '
                                                                 'thereby dishonestly induces '
                                                                 'the person deceived to '
                                                                 'deliver any property to any '
                                                                 'person shall be punished '
                                                                 'with imprisonment of either '
                                                                 'description for a term which '
                                                                 'may extend to seven years.'},
                                                   {'id': 'IPC_498A',
                                                    'act': 'IPC',
                                                    'section_number': '498A',
                                                    'section_title': 'Husband or relative of '
                                                                     'husband of a woman '
                                                                     'subjecting her to '
                                                                     'cruelty',
                                                    'chapter_number': 'XXA',
                                                    'chapter_title': 'OF CRUELTY BY HUSBAND OR '
                                                                     'RELATIVES OF HUSBAND',
                                                    'full_text': '498A. Husband or relative of '
                                                                 'husband of a woman '
                                                                 'subjecting her to '
                                                                 'cruelty.—Whoever, being the '
                                                                 'husband or the relative of '
                                                                 'the husband of a woman, '
                                                                 'subjects such woman to '
                                                                 'cruelty shall be punished '
                                                                 'with imprisonment for a term '
                                                                 'which may extend to three '
                                                                 'years.'}]}


def write_fixture_corpus(root: Path) -> Path:
    """Write the miniature corpus under `root` and return it."""
    for rel, text in TEXT_FILES.items():
        _write(root / rel, text)
    for rel, records in JSON_FILES.items():
        _write(root / rel, json.dumps(records, indent=1))
    for rel, records in JSONL_FILES.items():
        _write(root / rel, "".join(json.dumps(record) + "\n" for record in records))
    return root


def _write(path: Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
