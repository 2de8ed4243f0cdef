"""A plain question in the statutes' words: the concepts of `nyaya/facts/legal_terms.yaml` whose
phrases the question uses add their `law` words to it (a config's `legal_terms: true`).

Why: "he keeps following me after I blocked him" shares no word with the section that answers
it ("Stalking. Any man who follows a woman and contacts ..."), and the packaged MiniLM does not
bridge such gaps reliably. The expansion only adds words; the question's own words stay, so
a question no concept matches is searched exactly as before. A passage of facts (more than
PASSAGE_WORDS words, such as a judgment's) is already in the law's words and is left as it is.

A phrase asks for its concept where the question holds it word for word; a phrase of parts
joined by " + " ("minor + contract") where the question holds every part, anywhere: "Can a
minor enter into a valid contract?" says what "contract with a minor" says, in another order.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from importlib import resources
from pathlib import Path

import yaml

from nyaya.retrieval.base import PASSAGE_WORDS
from nyaya.retrieval.query_analysis import QueryAnalysis, plain_text, terms_in, terms_pattern

FILE = "legal_terms.yaml"
#: what joins the parts of a phrase whose parts may stand anywhere in the question
PART_JOINER = "+"
#: query types that ask about a named provision (its number may be past what the analysis
#: reads: "RTI Act section 8", "167(2) CrPC")
PROVISION_TYPES = ("section_lookup", "old_statute_reference")


class LegalTermsError(ValueError):
    """legal_terms.yaml holds an entry that cannot be used; names the file and the entry."""


@dataclass(frozen=True)
class Concept:
    law: str  # the words added
    asks: tuple[str, ...]  # the phrases that call for them ("a + b": both parts, anywhere)


class LegalTerms:
    """Every concept's phrases in one regex pass, the parts of joined phrases in another; a
    phrase may belong to several concepts."""

    def __init__(self, concepts: list[Concept]) -> None:
        self.concepts = tuple(concepts)
        self._concepts_of: dict[str, list[int]] = {}
        self._joined: list[tuple[frozenset[str], int]] = []
        for index, concept in enumerate(self.concepts):
            for phrase in concept.asks:
                parts = phrase_parts(phrase)
                if len(parts) == 1:
                    self._concepts_of.setdefault(phrase, []).append(index)
                else:
                    self._joined.append((frozenset(parts), index))
        self._pattern = terms_pattern(self._concepts_of)
        self._parts = (terms_pattern({part for parts, _ in self._joined for part in parts})
                       if self._joined else None)

    def matched(self, text: str) -> list[Concept]:
        """The concepts the text asks about, each once, in the order of the file."""
        plain = plain_text(text)
        found = {index for term in terms_in(self._pattern, plain)
                 for index in self._concepts_of[term]}
        if self._parts is not None:
            held = set(terms_in(self._parts, plain))
            found.update(index for parts, index in self._joined if parts <= held)
        return [self.concepts[index] for index in sorted(found)]

    def added(self, text: str) -> list[str]:
        """The law's words of every concept a question asks about; none for a passage."""
        if len(text.split()) > PASSAGE_WORDS:
            return []
        return [concept.law for concept in self.matched(text)]

    def for_question(self, text: str, analysis: QueryAnalysis) -> list[str]:
        """What a question asked in plain words gets (`added`): nothing for one that names a
        provision, which the lookup answers and added words only pull the rest away from
        (docs/retrieval-methods.md)."""
        if (analysis.query_type in PROVISION_TYPES or analysis.sections or analysis.articles
                or analysis.old_code_refs):
            return []
        return self.added(text)

    def expand(self, text: str) -> str:
        """A question, then the law's words it asks about; a passage as it is."""
        return " ".join([text, *self.added(text)])


def phrase_parts(phrase: str) -> list[str]:
    """A phrase's parts: itself alone, or the phrases joined by PART_JOINER."""
    return [" ".join(part.split()) for part in phrase.split(PART_JOINER)]


def parse_legal_terms(data: object, source: str) -> LegalTerms:
    """The concepts of a parsed legal_terms.yaml; LegalTermsError naming `source` and the
    entry for anything malformed (a concept without words, a phrase that is not a string)."""
    entries = data.get("concepts") if isinstance(data, dict) else None
    if not isinstance(entries, list) or not entries:
        raise LegalTermsError(f"{source}: expected a non-empty list under 'concepts'")
    concepts = []
    for number, entry in enumerate(entries, 1):
        law = entry.get("law") if isinstance(entry, dict) else None
        asks = entry.get("asks") if isinstance(entry, dict) else None
        if not isinstance(law, str) or not law.strip():
            raise LegalTermsError(f"{source}: concept {number} ({entry!r}) needs 'law', the "
                                  "words to add")
        if (not isinstance(asks, list) or not asks
                or not all(isinstance(p, str) and p.strip() for p in asks)):
            raise LegalTermsError(f"{source}: concept {number} ({law!r}) needs 'asks', a "
                                  f"non-empty list of phrases, got {asks!r}")
        phrases = []
        for phrase in asks:
            parts = phrase_parts(plain_text(phrase))
            if not all(parts):
                raise LegalTermsError(f"{source}: concept {number} ({law!r}): the phrase "
                                      f"{phrase!r} has an empty part around "
                                      f"'{PART_JOINER}'")
            phrases.append(f" {PART_JOINER} ".join(parts))
        concepts.append(Concept(law.strip(), tuple(phrases)))
    return LegalTerms(concepts)


def load_legal_terms(path: Path | None = None) -> LegalTerms:
    """The shipped concepts, or those of `path`."""
    if path is None:
        return _shipped()
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as err:
        raise LegalTermsError(f"{path}: cannot read: {err}") from err
    return parse_legal_terms(data, str(path))


@functools.cache
def _shipped() -> LegalTerms:
    """Read and compiled once a process: every config that asks shares it."""
    text = resources.files("nyaya.facts").joinpath(FILE).read_text(encoding="utf-8")
    return parse_legal_terms(yaml.safe_load(text), f"nyaya/facts/{FILE}")
