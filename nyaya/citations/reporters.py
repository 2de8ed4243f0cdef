"""The reporter database (`nyaya/facts/reporters.yaml`) and what is compiled from it: the verbose
anchor expression the case-citation extractor scans for, a named group per reporter; the
publication ranges the citation panel checks; the AIR court codes.

The extractor dispatches on the reporter found (`reporter_of`), as eyecite dispatches on the
reporter its database-built expressions found, so adding a reporter is a data change."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache, lru_cache
from importlib import resources

import yaml


@dataclass(frozen=True)
class SeriesRange:
    """Publication range of a report series: first year, and volume/page bands.

    Within `*_ok` is ordinary; up to `*_max` is unusual; beyond is impossible."""

    start: int
    vol_ok: int | None
    vol_max: int | None
    page_ok: int
    page_max: int
    sc_only: bool = True


@dataclass(frozen=True)
class Reporter:
    name: str
    full_name: str
    written: tuple[str, ...]
    supreme_court_only: bool
    bracketed_only: bool
    series: dict[str, SeriesRange]


class ReporterDataError(ValueError):
    """reporters.yaml holds an entry that cannot be used; names the entry."""


def _series(reporter: str, name: str, entry: dict, default_sc: bool) -> SeriesRange:
    try:
        volumes = entry.get("volumes") or (None, None)
        page_ok, page_max = entry["pages"]
        return SeriesRange(int(entry["first_year"]), volumes[0], volumes[1], int(page_ok),
                           int(page_max), bool(entry.get("supreme_court_only", default_sc)))
    except (KeyError, TypeError, ValueError) as err:
        raise ReporterDataError(f"reporters.yaml: {reporter}, series {name}: {err!r} (needs "
                                "first_year and pages: [ordinary, largest])") from err


@cache
def _data() -> dict:
    text = resources.files("nyaya.facts").joinpath("reporters.yaml").read_text(encoding="utf-8")
    return yaml.safe_load(text)


@cache
def reporters() -> tuple[Reporter, ...]:
    """Every reporter, in the order the extractor tries them."""
    out = []
    for entry in _data()["reporters"]:
        name = entry.get("name")
        written = entry.get("written") or []
        if not name or not written:
            raise ReporterDataError(f"reporters.yaml: entry {entry!r} needs a name and the "
                                    "forms it is written in")
        sc_only = bool(entry.get("supreme_court_only", False))
        out.append(Reporter(name, entry.get("full_name", name), tuple(written), sc_only,
                            bool(entry.get("bracketed_only", False)),
                            {series: _series(name, series, value, sc_only)
                             for series, value in (entry.get("series") or {}).items()}))
    return tuple(out)


@cache
def anchor() -> re.Pattern:
    """Any reporter as printed, not inside a longer word: one verbose expression, a line per
    reporter with its forms and a comment naming it. The groups do not capture: a capturing
    group per reporter stops the engine from skipping ahead on the forms' first characters
    (measured 100 times slower on judgment text); `reporter_of` names the reporter instead."""
    lines = ["(?:"]
    for index, reporter in enumerate(reporters()):
        lines.append(f"  {'|' if index else ' '} (?: {' | '.join(reporter.written)} )"
                     f"  # {reporter.name}: {reporter.full_name}")
    lines.append(r")(?![A-Za-z])  # not the start of a longer word")
    return re.compile("\n".join(lines), re.VERBOSE)


@cache
def _forms() -> tuple[tuple[re.Pattern, Reporter], ...]:
    return tuple((re.compile("|".join(reporter.written)), reporter) for reporter in reporters())


@lru_cache(maxsize=4096)
def _reporter_written(written: str) -> Reporter:
    return next(reporter for form, reporter in _forms() if form.fullmatch(written))


def reporter_of(match: re.Match) -> Reporter:
    """The reporter an `anchor()` match found: the first, in the file's order, one of whose
    forms is the text matched (as the alternation tries them)."""
    return _reporter_written(match.group())


@cache
def series_ranges() -> dict[str, SeriesRange]:
    """Report series -> its publication range ("SCC (Cri)", "AIR SC" and "AIR" apart)."""
    return {name: value for reporter in reporters() for name, value in reporter.series.items()}


@cache
def supreme_court_reporters() -> frozenset[str]:
    """The reporters and series that report the Supreme Court of India alone."""
    return frozenset({reporter.name for reporter in reporters()
                      if reporter.supreme_court_only}
                     | {name for name, value in series_ranges().items() if value.sc_only})


@cache
def air_courts() -> dict[str, str]:
    """An AIR court as printed -> its code ("Bombay" -> "Bom")."""
    return dict(_data()["air_courts"])
