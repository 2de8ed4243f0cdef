"""A tokenizer for legal text that keeps identifiers whole.

'304A', '498A', '13(1)(ia)' and roman Order numbers stay single tokens (a section with
sub-section units also yields its bare number), so BM25 can match "section 498A" exactly
instead of matching every '498' and every 'a'.
"""

from __future__ import annotations

import re
from functools import lru_cache
from itertools import pairwise

TOKEN = re.compile(
    r"(?P<ident>\d+[a-z]{0,3}(?:\([0-9a-z]{1,5}\))*)"  # 103, 304a, 13(1)(ia)
    r"|(?P<word>[a-z]+)"
)
STOP_WORDS = frozenset(
    "a an and are as at be been being but by can could did do does for from had has have he her "
    "him his i if in into is it its me my no not of on or our she so such than that the their "
    "them then there these they this those to was we were what when where which who whom why "
    "will with would you your shall s any".split()
)
SUFFIXES = (("ies", "y"), ("ing", ""), ("ed", ""), ("es", ""), ("s", ""))


def stem(word: str) -> str:
    """A light, deterministic suffix stripper (plural and -ing/-ed), enough for statute text."""
    if len(word) <= 4 or word.endswith("ss"):
        return word
    for suffix, replacement in SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= 3:
            return word[: -len(suffix)] + replacement
    return word


@lru_cache(maxsize=1 << 20)
def _word_token(word: str) -> str | None:
    """The token a word becomes, or None for a stop word; cached, since a corpus repeats a
    few hundred thousand words millions of times (stemming was half of indexing time)."""
    return None if word in STOP_WORDS else stem(word)


def tokenize(text: str) -> list[str]:
    tokens: list[str] = []
    append = tokens.append
    for ident, word in TOKEN.findall(text.lower()):
        if ident:
            append(ident)
            if "(" in ident:
                append(ident[: ident.index("(")])
        elif (token := _word_token(word)) is not None:
            append(token)
    return tokens


def pairs_of(tokens: list[str]) -> list[str]:
    """Each two adjacent tokens as one term ("dying declaration", stop words skipped): a
    judgment shares its phrases, and the passages it quotes, with the judgments it cites far
    more than it shares their single words."""
    return [f"{first} {second}" for first, second in pairwise(tokens)]

