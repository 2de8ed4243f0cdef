"""Reading text backwards from a position, shared by both extractors."""

from __future__ import annotations

import re
from collections.abc import Iterator


def tokens_before(text: str, end: int, floor: int,
                  token: re.Pattern) -> Iterator[tuple[int, int, str]]:
    """`token` matches before `end` (not before `floor`), nearest first, read in small chunks
    so that a caller stopping after one word pays for one word."""
    hi = end
    step = 16
    while hi > floor:
        lo = max(floor, hi - step)
        step = 64
        if lo > floor:  # start the chunk at a space so no token is cut in two
            space = text.rfind(" ", floor, lo + 1)
            lo = space + 1 if space >= 0 else floor
        for m in reversed(list(token.finditer(text, lo, hi))):
            yield m.start(), m.end(), m.group()
        hi = lo
