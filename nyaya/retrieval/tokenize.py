"""A tokenizer for legal text that keeps identifiers whole.

'304A', '498A', '13(1)(ia)' and roman Order numbers stay single tokens (a section with
sub-section units also yields its bare number), so BM25 can match "section 498A" exactly
instead of matching every '498' and every 'a'.
"""

from __future__ import annotations

import re

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


def tokenize(text: str) -> list[str]:
    tokens: list[str] = []
    for match in TOKEN.finditer(text.lower()):
        ident, word = match.group("ident"), match.group("word")
        if ident:
            tokens.append(ident)
            if "(" in ident:
                tokens.append(ident[: ident.index("(")])
        elif word not in STOP_WORDS:
            tokens.append(stem(word))
    return tokens
