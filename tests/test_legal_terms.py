"""Plain words in the statutes' words (nyaya/retrieval/legal_terms.py): which phrases call
for which concepts, and what a question becomes."""

import pytest

from nyaya.retrieval.base import PASSAGE_WORDS
from nyaya.retrieval.legal_terms import load_legal_terms, parse_legal_terms

CONCEPTS = {"concepts": [
    {"law": "stalking follows contacts", "asks": ["keeps following", "blocked him"]},
    {"law": "voyeurism captures image", "asks": ["hidden camera", "changing clothes"]},
    {"law": "domestic violence", "asks": ["beats me", "in-laws"]},
    {"law": "cruelty husband", "asks": ["beats me"]},
    {"law": "information cognizable", "asks": ["fir"]},
    {"law": "child in conflict with law", "asks": ["17 year old"]},
    {"law": "talaq void", "asks": ["won't divorce"]},
    {"law": "competent to contract", "asks": ["contract with a minor", "minor + contract"]},
]}


@pytest.mark.parametrize(("question", "added"), [
    ("He keeps following me after I blocked him",  # two phrases, one concept, added once
     ["stalking follows contacts"]),
    ("He KEPT a hidden camera", ["voyeurism captures image"]),  # any case
    ("Hidden cameras in the trial room", ["voyeurism captures image"]),  # inflected
    ("My husband beats me", ["domestic violence", "cruelty husband"]),  # one phrase, two concepts
    ("My in-laws beats me", ["domestic violence", "cruelty husband"]),  # hyphen as a space
    ("My 17-year-old son was arrested", ["child in conflict with law"]),
    ("He won’t divorce me", ["talaq void"]),  # a typographic apostrophe as a space
    ("The police refused my FIR", ["information cognizable"]),
    ("He was fired from his job", []),  # a short phrase matches whole words only
    ("He keeps followingly polite", []),  # an inflection, not any continuation
    ("What does section 103 of the BNS say?", []),
    # a joined phrase: every part, anywhere, inflected alike
    ("Can a minor enter into a valid contract?", ["competent to contract"]),
    ("Are contracts signed by minors binding?", ["competent to contract"]),
    ("I made a contract with a minor", ["competent to contract"]),
    ("The minor repairs were never done", []),  # one part alone
    ("The contract was breached", []),
])
def test_a_question_gets_the_law_words_of_what_it_asks(question, added):
    terms = parse_legal_terms(CONCEPTS, "table")
    assert terms.expand(question) == " ".join([question, *added])
    assert [concept.law for concept in terms.matched(question)] == added


def test_a_passage_of_facts_is_left_as_it_is():
    """Beyond PASSAGE_WORDS words the text is a passage, in the law's words already."""
    terms = parse_legal_terms(CONCEPTS, "table")
    passage = " ".join(["he keeps following her"] * (PASSAGE_WORDS // 4 + 1))
    assert len(passage.split()) > PASSAGE_WORDS
    assert terms.expand(passage) == passage
    question = " ".join(passage.split()[:PASSAGE_WORDS])
    assert terms.expand(question) == question + " stalking follows contacts"


@pytest.mark.parametrize(("question", "law_words"), [
    ("My ex keeps following me to college even after I blocked him", "stalking"),
    ("A colleague secretly recorded me in the washroom", "voyeurism"),
    ("Someone gave me a cheque and it bounced", "dishonour of cheque"),
    ("My landlord wants me to vacate the flat", "bona fide requirement"),
    ("Can WhatsApp screenshots be used as evidence in court?", "electronic records"),
    ("The police are refusing to register my FIR", "information in cognizable cases"),
    ("I filed an RTI and got no reply", "public information officer"),
    ("My brothers refuse to give me my share in the family property", "suit for partition"),
    ("The court passed an ex parte decree and I never received the summons",
     "ex parte decree set aside"),
    ("Can I get a stay order to stop construction on the disputed land?", "temporary injunction"),
    ("The bank auctioned my house after I missed my EMIs", "enforcement of security interest"),
    ("I was injured at work in a factory accident", "in the course of employment"),
    ("The police took no action on my complaint", "magistrate empowered to take cognizance"),
])
def test_the_shipped_concepts_read_common_plain_questions(question, law_words):
    assert law_words in load_legal_terms().expand(question)


def test_a_company_that_cannot_pay_its_debts_is_asked_about_insolvency():
    """Since 15-11-2016 inability to pay debts is no ground for winding up under the Companies
    Act's s.271 (its footnote in the corpus): such a question gets the Insolvency and
    Bankruptcy Code's words, never the omitted ground's."""
    expanded = load_legal_terms().expand("Can a company be wound up if it cannot pay its debts?")
    assert "corporate insolvency resolution process" in expanded
    assert "liquidation" in expanded
    assert "unable to pay its debts" not in expanded


def test_the_shipped_file_leaves_questions_in_the_law_s_words_alone():
    terms = load_legal_terms()
    for question in ("What is the punishment for murder under section 103 BNS?",
                     "What does Article 21 of the Constitution say?",
                     "Which section of the BNSS replaced section 154 CrPC?"):
        assert terms.expand(question) == question
    assert len(terms.concepts) >= 170
    assert all(phrase == phrase.lower() for concept in terms.concepts for phrase in concept.asks)
