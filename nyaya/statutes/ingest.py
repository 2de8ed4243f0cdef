"""Read the whole statute corpus into registry entries, sections and quarantined records.

This is the one place that knows the corpus layout (`statutes/indiacode`, `repealed`,
`constitution`, `chapters`); the parsers it calls know only their own formats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from nyaya.provenance import files_fingerprint
from nyaya.statutes.chapters import chapter_of, read_chapters
from nyaya.statutes.indiacode import parse_section_headings, read_act, read_title
from nyaya.statutes.model import CorpusFormatError, Quarantined, SectionRecord
from nyaya.statutes.pagetext import parse_page_text_act
from nyaya.statutes.registry import (
    ActEntry,
    derive_codes,
    domain_for_title,
    era_for,
    load_facts,
    title_year,
)
from nyaya.statutes.structured import read_code_json, read_constitution, read_ipc

INDIACODE = "statutes/indiacode"
CHAPTER_TABLES = "statutes/chapters"
JSON_SOURCES = {
    "repealed:ipc-1860": ("statutes/repealed/ipc-1860/ipc_sections.jsonl", read_ipc),
    "repealed:crpc-1973": ("statutes/repealed/crpc-1973/crpc.json", read_code_json),
    "repealed:iea-1872": ("statutes/repealed/iea-1872/iea.json", read_code_json),
    "constitution": ("statutes/constitution/indian_constitution.json", read_constitution),
}


@dataclass
class StatuteCorpus:
    registry: list[ActEntry]
    sections: list[SectionRecord]
    quarantined: list[Quarantined]


def _title_from_slug(slug: str) -> str:
    words = slug.split("-")
    year = words.pop() if words and re.fullmatch(r"\d{4}", words[-1]) else None
    title = " ".join(words).title()
    return f"{title}, {year}" if year else title


def _indiacode_entry(slug: str, code: str, title: str, source_url: str | None,
                     fact: dict | None, section_format: str) -> ActEntry:
    fact = fact or {}
    year = title_year(title, slug)
    return ActEntry(
        act_code=code, title=title, year=year, status=fact.get("status", "in_force"),
        era=fact.get("era", era_for(year)),
        legal_domain=fact.get("legal_domain", domain_for_title(title)),
        applicable_from=fact.get("applicable_from"), repealed_by=fact.get("repealed_by"),
        repealed_on=fact.get("repealed_on"), source_kind="indiacode",
        source_path=f"{INDIACODE}/{slug}", source_url=source_url,
        section_format=section_format, curated=bool(fact), aliases=list(fact.get("aliases", [])),
    )


def _json_entry(fact: dict, rel: str) -> ActEntry:
    return ActEntry(
        act_code=fact["act_code"], title=fact["title"], year=fact["year"],
        status=fact.get("status", "in_force"), era=fact["era"], legal_domain=fact["legal_domain"],
        applicable_from=fact.get("applicable_from"), repealed_by=fact.get("repealed_by"),
        repealed_on=fact.get("repealed_on"), source_kind=fact["source"].split(":")[0],
        source_path=rel, source_url=fact.get("source_url"), section_format="json", curated=True,
        aliases=list(fact.get("aliases", [])),
    )


def _with_chapters(corpus_root: Path, slug: str, sections: list[SectionRecord]
                   ) -> list[SectionRecord]:
    path = corpus_root / CHAPTER_TABLES / f"{slug}.csv"
    if not path.exists():
        return sections
    chapters = read_chapters(path, str(path.relative_to(corpus_root)))
    out = []
    for record in sections:
        chapter = chapter_of(record.section_number, chapters)
        out.append(replace(record, chapter_number=chapter.number, chapter_title=chapter.title)
                   if chapter else record)
    return out


def source_keys(corpus_root: Path) -> list[str]:
    """One key per statute source, in a stable order: each India Code Act folder (its slug)
    and each JSON code ('repealed.ipc-1860', 'constitution'). These are the partitions that
    ingestion is split into, so that a changed Act is the only one parsed again."""
    slugs = sorted(p.name for p in (corpus_root / INDIACODE).iterdir() if p.is_dir())
    return [*slugs, *(_json_key(source) for source in JSON_SOURCES)]


def _json_key(source: str) -> str:
    return source.replace(":", ".")


def _json_source(key: str) -> str | None:
    return next((source for source in JSON_SOURCES if _json_key(source) == key), None)


def source_key(source_path: str) -> str:
    """The source key (partition) of a registry row's `source_path`."""
    for source, (rel, _) in JSON_SOURCES.items():
        if source_path == rel:
            return _json_key(source)
    folder, _, slug = source_path.rpartition("/")
    if folder != INDIACODE or not slug:
        raise ValueError(f"{source_path!r} is not a statute source path (an India Code Act "
                         f"folder under {INDIACODE}/ or one of the JSON codes)")
    return slug


def source_files(corpus_root: Path, key: str) -> list[Path]:
    """The files whose bytes decide one source's records: an Act's part files and its chapter
    table, or a JSON code's file."""
    source = _json_source(key)
    if source:
        return [corpus_root / JSON_SOURCES[source][0]]
    chapters = corpus_root / CHAPTER_TABLES / f"{key}.csv"
    act_files = sorted(p for p in (corpus_root / INDIACODE / key).rglob("*") if p.is_file())
    return [*act_files, *([chapters] if chapters.exists() else [])]


def act_codes(corpus_root: Path) -> dict[str, str]:
    """source key -> act_code. Curated Acts have theirs in the facts; the others derive one
    from their titles, and a title shared by two Acts changes both codes, so this is decided
    over every source at once (from the front matter only, which is cheap)."""
    facts = {fact["source"]: fact for fact in load_facts()["acts"]}
    curated_codes = {fact["act_code"] for fact in facts.values()}
    codes = {_json_key(source): facts[source]["act_code"] for source in JSON_SOURCES}
    uncurated: dict[str, tuple[str, int | None]] = {}
    for key in source_keys(corpus_root):
        if key in codes:
            continue
        fact = facts.get(f"indiacode:{key}")
        if fact:
            codes[key] = fact["act_code"]
        else:
            title = _act_title(corpus_root, key)
            uncurated[key] = (title, title_year(title, key))
    return {**codes, **derive_codes(uncurated, curated_codes)}


def _act_title(corpus_root: Path, slug: str) -> str:
    return read_title(corpus_root / INDIACODE / slug, corpus_root) or _title_from_slug(slug)


def source_fingerprints(corpus_root: Path, codes: dict[str, str] | None = None
                        ) -> dict[str, str]:
    """source key -> sha256 over its act code and its files' names and bytes: a source whose
    fingerprint is unchanged parses to the same records. `codes`: `act_codes` when the caller
    has them already."""
    codes = act_codes(corpus_root) if codes is None else codes
    return {key: files_fingerprint(corpus_root, source_files(corpus_root, key), salt=code)
            for key, code in codes.items()}


def parse_source(corpus_root: Path, key: str, act_code: str) -> StatuteCorpus:
    """One source's registry entry, sections and quarantined records."""
    facts = {fact["source"]: fact for fact in load_facts()["acts"]}
    source = _json_source(key)
    if source:
        rel, reader = JSON_SOURCES[source]
        entry = _json_entry(facts[source], rel)
        try:
            collected = reader(corpus_root, rel, act_code)
        except CorpusFormatError as err:
            return StatuteCorpus([entry], [], [Quarantined(
                err.path, err.line, act_code, None, "unreadable_source_file", err.message)])
        return StatuteCorpus([entry], collected.sections, collected.quarantined)
    fact = facts.get(f"indiacode:{key}")
    try:
        doc = read_act(corpus_root / INDIACODE / key, corpus_root)
    except CorpusFormatError as err:
        entry = _indiacode_entry(key, act_code, _act_title(corpus_root, key), None, fact,
                                 "unreadable")
        return StatuteCorpus([entry], [], [Quarantined(
            err.path, err.line, None, None, "unreadable_act_file", err.message)])
    if doc.has_section_headings:
        found, bad = parse_section_headings(doc, act_code)
        section_format = "headings"
    else:
        found, bad = parse_page_text_act(doc.lines, act_code=act_code)
        section_format = "page_text"
    entry = _indiacode_entry(key, act_code, doc.title, doc.source_url, fact, section_format)
    return StatuteCorpus([entry], _with_chapters(corpus_root, key, found), bad)


def combine(parts: list[StatuteCorpus]) -> StatuteCorpus:
    return StatuteCorpus([e for p in parts for e in p.registry],
                         [s for p in parts for s in p.sections],
                         [q for p in parts for q in p.quarantined])


def ingest_statutes(corpus_root: Path) -> StatuteCorpus:
    """Every Act, section and quarantined record of the statute corpus, in a stable order."""
    codes = act_codes(corpus_root)
    return combine([parse_source(corpus_root, key, codes[key])
                    for key in source_keys(corpus_root)])
