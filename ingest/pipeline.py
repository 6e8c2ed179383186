"""From a manifest entry to records: read, clean, segment, then turn blocks into rulings with citations."""
from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

from ingest import clean, links, spells, tables
from ingest.errors import IngestError
from ingest.manifest import Manifest, SourceEntry
from ingest.records import Citation, Example, Gap, ParsedSource, Ruling
from ingest.segment import Block, first_sentence, section_slug, slugify
from ingest.shapes import SHAPES
from ingest.text import LineIndex, MappedText, read_document


def select_lines(original: str, lines: tuple[int, int | None] | None) -> tuple[MappedText, str]:
    """The part of the document the entry covers, twice: as a MappedText to parse (offsets into the whole
    file; it keeps the line break ending its last line) and as the text a source page shows (the lines alone)."""
    if lines is None:
        return MappedText.of(original), original
    index = LineIndex(original)
    total = original.count("\n") + 1
    first, last = lines
    if first > total:
        raise ValueError(f"starts at line {first} but the file has {total} lines")
    start = index.line_start(first)
    if last is None or last >= total:
        return MappedText.of(original[start:], start), original[start:]
    end = index.line_start(last + 1)
    return MappedText.of(original[start:end], start), original[start:end - 1]


def clean_document(doc: MappedText, original: str, entry: SourceEntry, vocab: Counter) -> MappedText:
    """Apply the shared cleaning steps; each is a no-op where its damage is absent."""
    if clean.is_listing(original):
        doc = clean.strip_listing(doc)
    doc = clean.normalize_spaces(doc)
    for pattern in entry.strip:
        doc = doc.sub(re.compile(pattern, re.MULTILINE), "")
    doc = clean.drop_page_footers(doc)
    doc = clean.collapse_doubled_words(doc)
    return clean.rejoin_split_words(doc, vocab)


def parse_source(entry: SourceEntry, folder: Path, *, original: str | None = None,
                 vocab: Counter | None = None) -> ParsedSource:
    """Parse one manifest entry into rulings, examples, tables, gaps, cross-references and spells.

    `original`: the file's decoded text when the caller has read it already (else it is read here);
    `vocab`: the word counts split words are judged against (else the document's own).
    """
    path = folder / entry.file
    if original is None:
        original = read_document(path)
    try:
        doc, selected = select_lines(original, entry.lines)
    except ValueError as exc:
        raise IngestError(str(path), f"source {entry.id}: lines {exc}") from None
    doc = clean_document(doc, original, entry, vocab if vocab is not None else clean.vocabulary(original))
    root = (entry.section,) if entry.section else ()
    doc, blocks, missing = SHAPES[entry.shape](doc, root)
    cite = _Citer(entry.id, original, doc)
    rulings = _rulings(entry, blocks, doc, cite)
    if not rulings:
        raise IngestError(str(path), f"source {entry.id}: no rulings found (shape '{entry.shape}')")
    gaps = [Gap(entry.id, "missing-section", f"promised in the contents but absent: {title}",
                cite.line(offset)) for title, offset in missing]
    for description, at in entry.gaps:
        offset = doc.text.find(at) if at else 0
        if offset < 0:
            raise IngestError(str(path), f"source {entry.id}: the gap located 'at' {at!r} cannot be placed: "
                              "the phrase is not in the document")
        gaps.append(Gap(entry.id, "unstated", description, cite.line(offset)))
    gaps += links.truncation_gaps(entry.id, rulings)
    xrefs, xref_gaps = links.cross_references(rulings)
    gaps += xref_gaps + links.changelog_gaps(rulings)
    first_line = entry.lines[0] if entry.lines else 1
    return ParsedSource(
        rulings=rulings,
        original_text=original,
        selected_text=selected,
        first_line=first_line,
        line_numbers=cite.shown_numbers(first_line, first_line + selected.count("\n")),
        cleaned_text=doc.text,
        tables=tables.extract(entry, doc, rulings, cite),
        gaps=gaps,
        xrefs=xrefs,
        spells=spells.extract(rulings),
    )


def parse_manifest(manifest: Manifest) -> list[tuple[SourceEntry, ParsedSource]]:
    """Parse every source of the manifest, reading each file once; split words are judged against the whole
    corpus' vocabulary."""
    files = dict.fromkeys(entry.file for entry in manifest.sources)  # entries may share a file (`lines`)
    texts = {file: read_document(manifest.folder / file) for file in files}
    vocab = clean.vocabulary(*texts.values())
    return [(entry, parse_source(entry, manifest.folder, original=texts[entry.file], vocab=vocab))
            for entry in manifest.sources]


class _Citer:
    """Citations for spans of the cleaned text, in the document's own line numbers."""

    def __init__(self, source: str, original: str, doc: MappedText):
        self.source = source
        self.doc = doc
        self.lines = LineIndex(original)
        self.listing = clean.is_listing(original)
        self.shown = clean.listing_numbers(original) if self.listing else {}

    def shown_numbers(self, first: int, last: int) -> list[int | None]:
        """The number citations give each file line from `first` to `last`: a web listing's own (None for
        its header lines, which have none), else the file line."""
        if self.listing:
            return [self.shown.get(line) for line in range(first, last + 1)]
        return list(range(first, last + 1))

    def line(self, offset: int) -> int:
        file_line = self.lines.line_of(self.doc.offsets[min(offset, len(self.doc))])
        return self.shown.get(file_line, file_line)

    def __call__(self, pieces: list[tuple[int, int]]) -> Citation:
        char_start, _ = self.doc.original_span(*pieces[0])
        _, char_end = self.doc.original_span(*pieces[-1])
        first, last = self.lines.line_of(char_start), self.lines.line_of(max(char_start, char_end - 1))
        return Citation(self.source, self.shown.get(first, first), self.shown.get(last, last),
                        char_start, char_end, first, last)


def _text(doc: MappedText, pieces: list[tuple[int, int]], separator: str = " ") -> str:
    return separator.join(" ".join(doc.text[s:e].split()) for s, e in pieces)


def _rulings(entry: SourceEntry, blocks: list[Block], doc: MappedText, cite: _Citer) -> list[Ruling]:
    rulings: list[Ruling] = []
    seen: Counter = Counter()
    for position, block in enumerate(blocks):
        if not block.pieces:
            continue
        id_section = block.section if block.id_section is None else block.id_section
        path = "/".join(section_slug(s) for s in id_section if section_slug(s))
        base = f"{entry.game}/{path}/{block.slug or slugify(block.label)}".replace("//", "/")
        text = _text(doc, block.pieces, "\n" if block.kind == "changelog" else " ")
        if not text.strip():  # cleaning can leave a block with nothing but whitespace
            continue
        seen[base] += 1
        ruling_id = base if seen[base] == 1 else f"{base}-{seen[base]}"
        ruling = Ruling(
            id=ruling_id, game=entry.game, source=entry.id, section=" > ".join(block.section),
            label=block.label, title=block.title or first_sentence(text), kind=block.kind, text=text,
            position=position, citation=cite(block.pieces),
        )
        for label, pieces in block.examples:
            if pieces:
                ruling.examples.append(Example(f"{ruling_id}/{label}", ruling_id, label, _text(doc, pieces),
                                               cite(pieces)))
        rulings.append(ruling)
    return rulings
