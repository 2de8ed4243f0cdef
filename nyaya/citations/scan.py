"""Reading text backwards from a position, and overlap tests: shared by both extractors."""

from __future__ import annotations

import re
from bisect import bisect_left
from collections.abc import Iterable, Iterator
from itertools import accumulate


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


class Spans:
    """Spans of text (in any order, overlapping or not), for overlap tests in O(log n): a
    linear scan per candidate would make dense text quadratic."""

    def __init__(self, spans: Iterable[tuple[int, int]]) -> None:
        ordered = sorted(spans)
        self.starts = [start for start, _ in ordered]
        self.reach = list(accumulate((end for _, end in ordered), max))  # furthest end so far

    def overlaps(self, start: int, end: int) -> bool:
        """Whether [start, end) overlaps any span."""
        i = bisect_left(self.starts, end)
        return bool(i) and self.reach[i - 1] > start
