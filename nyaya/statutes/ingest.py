"""Read the whole statute corpus into registry entries, sections and quarantined records.

This is the one place that knows the corpus layout (`statutes/indiacode`, `repealed`,
`constitution`, `chapters`); the parsers it calls know only their own formats.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from nyaya.statutes.chapters import chapter_of, read_chapters
from nyaya.statutes.indiacode import ActDocument, parse_section_headings, read_act
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


def _indiacode_entry(slug: str, code: str, doc: ActDocument | None, fact: dict | None,
                     section_format: str) -> ActEntry:
    fact = fact or {}
    title = doc.title if doc else _title_from_slug(slug)
    year = title_year(title, slug)
    return ActEntry(
        act_code=code, title=title, year=year, status=fact.get("status", "in_force"),
        era=fact.get("era", era_for(year)),
        legal_domain=fact.get("legal_domain", domain_for_title(title)),
        applicable_from=fact.get("applicable_from"), repealed_by=fact.get("repealed_by"),
        repealed_on=fact.get("repealed_on"), source_kind="indiacode",
        source_path=f"{INDIACODE}/{slug}", source_url=doc.source_url if doc else None,
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


def ingest_statutes(corpus_root: Path) -> StatuteCorpus:
    """Every Act, section and quarantined record of the statute corpus, in a stable order."""
    facts = {fact["source"]: fact for fact in load_facts()["acts"]}
    act_dirs = sorted(p for p in (corpus_root / INDIACODE).iterdir() if p.is_dir())
    docs: dict[str, ActDocument | None] = {}
    quarantined: list[Quarantined] = []
    for act_dir in act_dirs:
        try:
            docs[act_dir.name] = read_act(act_dir, corpus_root)
        except CorpusFormatError as err:
            docs[act_dir.name] = None
            quarantined.append(Quarantined(err.path, err.line, None, None, "unreadable_act_file",
                                           err.message))
    curated_codes = {fact["act_code"] for fact in facts.values()}
    uncurated = {slug: (doc.title if doc else _title_from_slug(slug)) for slug, doc in docs.items()
                 if f"indiacode:{slug}" not in facts}
    derived = derive_codes({slug: (title, title_year(title, slug))
                            for slug, title in uncurated.items()}, curated_codes)

    registry: list[ActEntry] = []
    sections: list[SectionRecord] = []
    for slug, doc in docs.items():
        fact = facts.get(f"indiacode:{slug}")
        code = fact["act_code"] if fact else derived[slug]
        if doc is None:
            registry.append(_indiacode_entry(slug, code, None, fact, "unreadable"))
            continue
        if doc.has_section_headings:
            found, bad = parse_section_headings(doc, code)
            section_format = "headings"
        else:
            found, bad = parse_page_text_act(doc.lines, act_code=code)
            section_format = "page_text"
        registry.append(_indiacode_entry(slug, code, doc, fact, section_format))
        sections.extend(_with_chapters(corpus_root, slug, found))
        quarantined.extend(bad)

    for source, (rel, reader) in JSON_SOURCES.items():
        fact = facts[source]
        registry.append(_json_entry(fact, rel))
        try:
            collected = reader(corpus_root, rel, fact["act_code"])
        except CorpusFormatError as err:
            quarantined.append(Quarantined(err.path, err.line, fact["act_code"], None,
                                           "unreadable_source_file", err.message))
            continue
        sections.extend(collected.sections)
        quarantined.extend(collected.quarantined)
    return StatuteCorpus(registry, sections, quarantined)
