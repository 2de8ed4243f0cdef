# ruff: noqa: E501  (fixture texts keep one paragraph a line, as the corpus files do)
"""A miniature judgments tree (`judgments/` of the corpus), written out for the tests.

Same layout and header formats as `../shared/corpus/judgments`, with short invented texts:
AILA case documents, IRLeD prior and current cases and two SC metadata files, covering the
header variants found in the real data and the kinds of damage the readers must quarantine.
Fixed facts other tests can rely on:

- AILA:C1 and IRLED:prior_case_0001 are the same judgment (12 August 1996, same opening
  paragraph); its neutral citation [1996] INSC 912 is in sc_1996_searchable.md as
  "1996 INSC 912".
- IRLED:prior_case_0002 is Maneka Gandhi v. Union of India, AIR 1978 SC 597, (1978) 1 SCC
  248; IRLED:prior_case_0003 has a CITATOR INFO entry "O" (overruled by) AIR 1978 SC 597.
- IRLED:current_case_0002 is [2013] INSC 130, also in sc_2013_searchable.md.
- Damaged: AILA C7 (empty), C8 (binary), C9 (header only), C11 (undecodable bytes),
  prior_case_0005 (empty), prior_case_0006 (header only); AILA C6 is cp1252 and is kept.
"""

from __future__ import annotations

from pathlib import Path

AILA = "judgments/aila2019/casedocs"
PRIOR = "judgments/irled2017/prior_cases"
CURRENT = "judgments/irled2017/current_cases"
META = "judgments/sc-metadata"

SAME_CASE_PARAGRAPH = (
    "The appellant was convicted by the Sessions Judge, Jaipur under Section 302 read with "
    "Section 34 IPC for the death of his neighbour after a quarrel over a boundary wall, and "
    "the High Court of Rajasthan dismissed his appeal. The only question is whether the "
    "dying declaration recorded by the Tahsildar could be acted upon without corroboration."
)

TEXT_FILES: dict[str, str] = {
    # --- AILA 2019 -------------------------------------------------------------------
    f"{AILA}/C1.txt": f"""\
Ramesh Chandra v State Of Rajasthan
Supreme Court of India

12 August 1996
Criminal Appeal No. 455 of 1995
The Judgment was delivered by : A. B. Rao, J.
1.  {SAME_CASE_PARAGRAPH}
2.  A dying declaration made before a Magistrate stands on a high footing. In Maneka Gandhi v. Union of India (AIR 1978 SC 597) this Court read Article 21 of the Constitution as requiring a procedure that is fair, just and reasonable, and the same standard guides the appreciation of such evidence.
3.  The appeal fails and is dismissed.
""",
    f"{AILA}/C2.txt": """\
State Of Kerala v Joseph Thomas And Others
Status:
 Positive or Neutral Judicial Treatment
Supreme Court of India

3 March 1987
Criminal Appeal No. 210 of
1985
The Order of the Court was as follows :
Special leave granted.
1.  The High Court acquitted the respondents of the charge under Section 304 Part II of the Indian Penal Code on the ground that the medical evidence did not fix the time of death. We have read the evidence of the doctor and find that the High Court overlooked it.
2.  The matter is remitted to the High Court for a fresh decision on the merits.
""",
    f"{AILA}/C3.txt": """\
Lakshmi Devi vs. Union Of India
Supreme Court of India

21 November 2003
Writ Petition (Civil) No. 88 of 2002
The Judgment was delivered by : Hon'ble Justice C. D. Menon and Hon'ble Justice E. F. Iyer
1.  The petitioner, a widow, claims family pension under the Central Civil Services (Pension) Rules. She relies on Article 14 and Article 21 of the Constitution and on the reasoning in Maneka Gandhi v. Union of India, (1978) 1 SCC 248.
2.  The respondents shall decide her representation within eight weeks. The writ petition is disposed of.
""",
    f"{AILA}/C4.txt": """\
Harbans Singh Versus State Of Punjab
Supreme Court of India

9 July 2009
The Judgment was delivered by: G. H. Sharma, J.
1. The appellant challenges an order refusing him anticipatory bail under Section 438 of the Code of Criminal Procedure, 1973 in a case registered under Section 420 IPC.
2. Liberty is the rule; the gravity of the accusation and the likelihood of the accused fleeing are the tests. The appeal is allowed and interim protection is made absolute.
""",
    f"{AILA}/C5.txt": """\
Sunita Bai v Mohan Lal
Supreme Court of India

26 Sep 1979
Civil Appeal No. 1201 of 1978
Heard counsel for the parties.
1.  The suit for possession was decreed by the trial court and the first appellate court, and the High Court reversed the decree in second appeal on a question of fact. That is not permissible under Section 100 of the Code of Civil Procedure, 1908.
2.  The decree of the trial court is restored.
""",
    f"{AILA}/C9.txt": """\
Gopal Das v State Of Bihar
Supreme Court of India

14 May 1991
Criminal Appeal No. 61 of 1990
The Judgment was delivered by : A. B. Rao, J.
1.  The
""",
    f"{AILA}/C10.txt": """\
Om Prakash v Municipal Board, Agra
Supreme Court of India

31 February 1990
Civil Appeal No. 77 of 1989
The Judgment was delivered by : J. K. Verma, J.
1.  The respondent Board levied a tax on the appellant's premises without notice. Levy of a tax without the authority of law offends Article 265 of the Constitution; the demand notice is quashed and the amounts collected shall be refunded within three months.
""",
    # --- IRLeD 2017 prior cases -------------------------------------------------------
    f"{PRIOR}/prior_case_0001.txt": f"""\
 ANR [1996] INSC 912; AIR 1996 SC 2890; 1996 (5) SCC 400; 1996 (6) JT 155 (12 August 1996)
12/08/1996 RAO, A.B. (J) RAO, A.B. (J) MENON, C.D. (J)
CITATION: 1996 AIR 2890 1996 SCC (5) [400 JT 1996] (6) 155 1996 SCALE (4)512
Indian Penal Code, 1860, s. 302 read with s. 34 - Dying declaration recorded by an executive officer - Corroboration - When required.
{SAME_CASE_PARAGRAPH}
A dying declaration made before a Magistrate stands on a high footing; Maneka Gandhi v. Union of India, AIR 1978 SC 597 referred to. The appeal is dismissed.
""",
    f"{PRIOR}/prior_case_0002.txt": """\
 SCR 621; [1978] INSC 16; AIR 1978 SC 597; 1978 (2) SCR 621; 1978 (1) SCC 248 (25 January 1978)
25/01/1978 BEG, M. HAMEEDULLAH (CJ) BEG, M. HAMEEDULLAH (CJ) CHANDRACHUD, Y.V.
BHAGWATI, P.N.
KRISHNAIYER, V.R.
CITATION: 1978 AIR 597 1978 SCR (2) 621 1978 SCC (1) 248
CITATOR INFO :
R 1979 SC 478 (12) F [1980 SC 1579] (4,9) RF 1981 SC 746 (3)
Constitution of India, 1950, Arts. 14, 19 and 21 - Passport impounded without a hearing - Procedure established by law must be fair, just and reasonable.
The petitioner's passport was impounded in the interests of the general public and no reasons were given. The Court held that Article 21 of the Constitution is not satisfied by any procedure prescribed by a law: it must be right, just and fair and not arbitrary, and it must meet Article 14 as well.
""",
    f"{PRIOR}/prior_case_0003.txt": """\
 1975 SC 1404; 1975 (3) SCR 91 (10 March 1975)
SOMNATH, K.P. SOMNATH, K.P. VARADAN, R.
CITATION: 1975 AIR 1404 1975 SCR (3) 91
CITATOR INFO :
O [1978 SC 597] (5,7) R 1980 SC1042 (3) RF [[1985] ScotCS CSOH_1]; [1985 SC 11] (2, [4) E&R 1988] SC 90
Passport Rules - Impounding of passport - Whether the holder is entitled to be heard before the order.
The Court held that the impounding of a passport is an executive act for which no prior hearing is required, and that Article 21 of the Constitution guards only against action without the authority of a law.
""",
    f"{PRIOR}/prior_case_0004.txt": """\
 October 1999)
K. Rao, S. Menon
RAO, J.
The appellant was convicted under Section 7 of the Prevention of Corruption Act, 1988 for accepting a bribe of Rs. 500. The trap witness turned hostile and the recovery rests on the word of the complainant alone. Following the rule of prudence, we set aside the conviction.
""",
    f"{PRIOR}/prior_case_0006.txt": """\
 1987 SC 1010; 1987 (2) SCR 77 (6 May 1987)
MENON, C.D.
CITATION: 1987 AIR 1010 1987 SCR (2) 77
Land Acquisition Act, 1894, s. 23.
""",
    f"{PRIOR}/prior_case_0007.txt": """\
 May 1950)
05/05/1950 IYER, T.K. (J) IYER, T.K. (J) BOSE, R.N.
CITATION: 1950 AIR 169 [[1950] INSC 11]; [1950 SCR 453 ]
Constitution of India, Art. 136 - Special leave to appeal - Exceptional circumstances required.
Special leave under Article 136 of the Constitution is granted only where grave injustice has been done; once granted, the appellant may argue only the points on which leave was given and not reopen every finding of fact.
""",
    # --- SC metadata ------------------------------------------------------------------
    f"{META}/sc_1996_searchable.md": """\
# Supreme Court Judgments Index - 1996

### RAMESH CHANDRA versus STATE OF RAJASTHAN
- **Date**: 12-08-1996
- **Parties**: RAMESH CHANDRA vs STATE OF RAJASTHAN
- **Identification**: Case ID: 1996 INSC 912 | Citation: [1996] SUPP. 4 S.C.R. 210
- **Summary**: This is a Supreme Court of India judgment delivered on 12-08-1996.

### MOHAN DAS  versus UNION OF INDIA AND ORS.
- **Date**: 02-09-1996
- **Parties**: MOHAN DAS vs UNION OF INDIA AND ORS.
- **Identification**: Case ID:  | Citation: [1996] 3 S.C.R. 100
- **Summary**: This is a Supreme Court of India judgment delivered on 02-09-1996.

### RAMESH CHANDRA versus STATE OF RAJASTHAN
- **Date**: 12-08-1996
- **Parties**: RAMESH CHANDRA vs STATE OF RAJASTHAN
- **Identification**: Case ID: 1996 INSC 912 | Citation: [1996] SUPP. 4 S.C.R. 210
- **Summary**: This is a Supreme Court of India judgment delivered on 12-08-1996.
""",
    f"{META}/sc_2013_searchable.md": """\
# Supreme Court Judgments Index - 2013

### HARDEV SINGH versus PARAMJIT KAUR & ORS.
- **Date**: 07-01-2013
- **Parties**: HARDEV SINGH vs PARAMJIT KAUR & ORS.
- **Identification**: Case ID: 2013 INSC 130 | Citation: [2013] 1 S.C.R. 901
- **Summary**: This is a Supreme Court of India judgment delivered on 07-01-2013.

### IN RE: CONDITIONS IN CHILDREN'S HOMES versus
- **Date**: 15-03-2013
- **Parties**:  vs\u0020
- **Identification**: Case ID: 2013 INSC 201 | Citation: [2013] 4 S.C.R. 33
- **Summary**: This is a Supreme Court of India judgment delivered on 15-03-2013.

### ANIL KUMAR versus STATE OF U.P.
- **Date**: 28-05-2013
- **Parties**: ANIL KUMAR vs STATE OF U.P.
- **Identification**: Case ID: 2013 INSC 413 | Citation: [2013] 6 S.C.R. 561
- **Summary**: This is a Supreme Court of India judgment delivered on 28-05-2013.

### BALWANT GIRI versus STATE OF U.P.
- **Date**: 31-02-2013
- **Parties**: BALWANT GIRI vs STATE OF U.P.
- **Identification**: Case ID: 2013 INSC 413 | Citation: [2013] 6 S.C.R. 545
- **Summary**: This is a Supreme Court of India judgment delivered on 31-02-2013.
""",
}

# IRLeD current cases are CRLF files in the corpus; written with "\r\n" here too.
CRLF_FILES: dict[str, str] = {
    f"{CURRENT}/current_case_0001.txt": """\
**Judgement**
IN THE SUPREME COURT OF INDIA CIVIL APPELLATE JURISDICTION CIVIL APPEAL NO. 1144 OF 2010 [Arising out of SLP (C) No. 2020 of 2009] State of Gujarat & Ors. ... Appellants Versus Kishan Lal ... Respondent
Dalip Singh, J.
1\\. Leave granted.
2\\. The respondent was dismissed from service without an inquiry. The High Court held that the dismissal offended Article 311 of the Constitution. Relying on [?CITATION?], the State contends that an inquiry was not reasonably practicable.
3\\. We find no merit in the appeal. The order of the High Court is upheld and the appeal is dismissed with no order as to costs.
.....................J.
(Dalip Singh) New Delhi;
March 1, 2010.
""",
    f"{CURRENT}/current_case_0002.txt": """\
##  HARDEV SINGH v. PARAMJIT KAUR & ORS. [2013] INSC 130 (7 January 2013)
**Judgement**
IN THE SUPREME COURT OF INDIA CIVIL APPELLATE JURISDICTION CIVIL APPEAL NO. 102 OF 2013 Hardev Singh ... Appellant Versus Paramjit Kaur & others ...Respondents
Neha Misra, J.
Leave granted.
2\\. The plaintiff sued for partition of ancestral land and the will relied on by the defendants was found to be forged. The High Court dismissed the second appeal as not maintainable under Section 100 of the Code of Civil Procedure, 1908, which was an error; see [?CITATION?].
3\\. The matter is remitted to the High Court.
""",
    f"{CURRENT}/current_case_0003.txt": """\
G.S. Rao, J.
1\\. The appellant was convicted under Section 304B IPC for the dowry death of his wife within seven years of marriage. The presumption under Section 113B of the Indian Evidence Act, 1872 arises only when cruelty soon before death is proved, as held in [?CITATION?].
2\\. The evidence of cruelty is vague and the conviction cannot stand. The appeal is allowed.
""",
    f"{CURRENT}/current_case_0004.txt": """\
Appeal (crl.) 804 of 2001
A. Rao & B. Menon
B. MENON, J.
The appellants were found guilty under the Terrorist and Disruptive Activities (Prevention) Act, 1987 on the strength of confessions recorded by a police officer. The safeguards laid down in [?CITATION?] were not observed, and the confessions cannot be the sole basis of the conviction. The appeal is allowed.
""",
}

# AILA C6: a cp1252 file (en dashes and curly quotes as single bytes); it must be kept.
CP1252_FILE = (
    f"{AILA}/C6.txt",
    "Narayan Rao v State Of Maharashtra\nSupreme Court of India\n\n4 April 2001\n"
    "Criminal Appeal No. 92 of 2000\nThe Judgment was delivered by : K. L. Joshi, J.\n"
    "1.  The appellant \u2013 a bank clerk \u2013 was convicted under Section 409 IPC for "
    "criminal breach of trust. The \u2018missing\u2019 amount was traced to a clerical error "
    "in the cash book, and the prosecution did not prove entrustment or dishonest "
    "misappropriation beyond reasonable doubt. The conviction is set aside.\n",
)


def write_judgment_fixtures(root: Path) -> Path:
    """Write the miniature judgments tree under root/judgments; return root (the corpus)."""
    root = Path(root)
    for rel, text in TEXT_FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    for rel, text in CRLF_FILES.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    rel, text = CP1252_FILE
    (root / rel).write_bytes(text.encode("cp1252"))
    (root / AILA / "C7.txt").write_bytes(b"")
    (root / AILA / "C8.txt").write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR" + bytes(range(256)))
    # Bytes that are neither UTF-8 nor cp1252 (0x81, 0x8d are undefined there): garbage.
    (root / AILA / "C11.txt").write_bytes(b"Case\n" + b"\x81\x8d\xc3\x28\x90\xfe" * 60)
    (root / PRIOR / "prior_case_0005.txt").write_bytes(b"")
    return root
