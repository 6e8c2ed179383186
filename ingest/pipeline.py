"""From a manifest entry to records: read, clean, segment, then turn blocks into rulings with citations."""
from __future__ import annotations

import bisect
import re
from collections import Counter
from collections.abc import Collection, Sequence
from pathlib import Path

from ingest import clean, formats, furniture, limits, links, parts, refs, shapes, spells, structure, tables, titles
from ingest.classify.declared import declared
from ingest.classify.words import EXAMPLE_LEAD_IN
from ingest.errors import IngestError
from ingest.formats import Document
from ingest.formats.underlines import plain_markup
from ingest.manifest import Manifest, SourceEntry
from ingest.segment import Block, asks, first_sentence, rhetorical, section_slug, slugify
from ingest.shapes import flat
from ingest.text import LineIndex, MappedText
from model import values
from model.records import Citation, CrossRef, Example, Gap, ParsedSource, Ruling

_PATH_SIGNS = str.maketrans("<>", "‹›")  # a heading's angle brackets as a section's path shows them


def select_lines(original: str, lines: tuple[int, int | None] | None) -> tuple[MappedText, str]:
    """The part of the document the entry covers, twice: as a MappedText to parse (offsets into the whole
    file; it keeps the line break ending its last line) and as the text a source page shows (the lines alone,
    starting at offset `doc.offsets[0]` of the file)."""
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


def clean_document(doc: MappedText, original: str, entry: SourceEntry, vocab: Counter,
                   typed: bool = False, spaced: bool = False) -> MappedText:
    """Apply the shared cleaning steps; each is a no-op where its damage is absent (a `typed` text, a Word file's,
    has no words a line's end split to join again; a `spaced` one, markdown's or a page's, no word a space split)."""
    if clean.is_listing(original):
        doc = clean.strip_listing(doc)
    doc = clean.undouble_spaces(clean.unfold_ligatures(clean.soft_hyphens(clean.normalize_spaces(
        clean.canonical_characters(clean.drop_line_numbers(doc))))))
    doc = clean.rejoin_drop_caps(clean.join_lone_bullets(clean.mark_glyph_bullets(clean.drop_symbol_glyphs(doc))),
                                 vocab)
    for pattern in entry.strip:
        doc = doc.sub(declared(pattern, re.MULTILINE), "")
    doc = clean.collapse_doubled_words(doc)
    if typed:
        return doc
    doc = clean.rejoin_broken_words(doc, vocab)
    return doc if spaced else clean.rejoin_split_words(doc, vocab)


def parse_source(entry: SourceEntry, folder: Path, *, document: Document | None = None,
                 vocab: Counter | None = None) -> ParsedSource:
    """Parse one manifest entry into rulings, examples, tables, gaps, cross-references and spells.

    `document`: the file as read, when the caller has read it already (else it is read here, in whatever
    format it is: text, markdown, HTML, PDF, Word or Q/A data); `vocab`: the word counts split words are judged
    against (else the document's own). The shape "auto" is the one that explains the document best.
    """
    path = folder / entry.file
    document = document or formats.read(path)
    original = document.original
    read_as = formats.named(document.format)
    if read_as.verbatim:
        try:
            doc, selected = select_lines(original, entry.lines)
            base = doc.offsets[0]  # where the selected text starts in the file
            doc = plain_markup(doc, path.suffix.lower())  # as `formats.read` reads the file
        except ValueError as exc:
            raise IngestError(str(path), f"source {entry.id}: lines {exc}") from None
    elif entry.lines:
        raise IngestError(str(path), f"source {entry.id}: 'lines' selects lines of a text file, not of "
                          f"{document.format}")
    else:
        doc, selected, base = document.text, original, 0
    # Words are judged by the text as read, never the file's markup or scripts ("startsWith" in a page's script
    # would join "starts with").
    doc = clean_document(doc, original, entry, vocab if vocab is not None else clean.vocabulary(document.text.text),
                         typed=read_as.typed, spaced=read_as.spaced)
    # Furniture first: "Page N of M" footers are what numbers the pages; footers it finds no rhythm in go after.
    found = furniture.strip_furniture(doc, document.page_starts or None)
    text = clean.drop_page_footers(found.text)
    text, read_down = tables.read_down(text, found.pages.page_of)
    root = (entry.section,) if entry.section else ()
    chosen = shapes.choose(text, root) if entry.shape == shapes.AUTO else shapes.fit(entry.shape, text, root)
    doc = chosen.doc
    # A heading in capitals is shown in title case, the document's acronyms kept ("Running GM NPCs").
    known = titles.acronyms(doc.text)
    for block in chosen.blocks:
        block.section = tuple(titles.keep_acronyms(part, known) for part in block.section)
        block.title = titles.keep_acronyms(block.title, known)
    # A flattened document has no page breaks left, but may keep its printed page numbers in its sentences.
    pages = found.pages if found.pages.numbers else flat.printed_pages(text) or found.pages
    sheets = document.page_starts if read_as.locator.sheet else None  # the file's own pages, where it has some
    cite = _Citer(entry.id, original, base, doc, pages, sheets)
    located = tables.locate(entry, doc) + tables.place(read_down, doc)
    rulings, related = _rulings(entry, parts.divided(chosen.blocks, doc.text), doc, cite, located)
    if not rulings:
        raise IngestError(str(path), f"source {entry.id}: no rulings found (shape '{chosen.shape}')")
    if len(rulings) > (units := limits.current().units):  # storing them comes after the reading's budget
        raise IngestError(str(path), f"source {entry.id}: {len(rulings):,} rulings, more than the limit of {units:,} "
                          f"units in one document; {limits.how_to_raise('units')}")
    gaps = [Gap(entry.id, "missing-section", f"promised in the contents but absent: {title}",
                cite.line(offset)) for title, offset in chosen.missing]
    for description, at in entry.gaps:
        offset = doc.text.find(at) if at else 0
        if offset < 0:
            raise IngestError(str(path), f"source {entry.id}: the gap located 'at' {at!r} cannot be placed: "
                              "the phrase is not in the document")
        gaps.append(Gap(entry.id, "unstated", description, cite.line(offset)))
    gaps += links.truncation_gaps(entry.id, rulings)
    xrefs, xref_gaps = links.cross_references(rulings, related)
    gaps += xref_gaps + links.changelog_gaps(rulings)
    first_line = entry.lines[0] if entry.lines else 1
    front = _front_matter(document.metadata, found.metadata)
    # The game's name as the document writes it, running heads included (they repeat it on every page).
    game_name = titles.game_name(document.text.text, entry.game)
    # The title as the document writes it, never the file's; a generic one joined with the game's name.
    candidates = [front.pop("title", None), found.metadata.get("title"), titles.self_named(doc.text),
                  titles.named_by_file(entry.file, doc.text)]
    if title := titles.document_title(candidates, doc.text, game_name, found.metadata.get("subtitle"),
                                      titles.filed_name(entry.game), known):
        front["title"] = title
    if game_name:
        front["game_name"] = game_name
    report = {"format": document.format, "pages": len(found.pages.numbers), "furniture": dict(found.removed),
              "contents": len(found.contents) or len(document.metadata.get("contents", ())),
              "doubt": chosen.doubtful, "shapes_tried": chosen.tried}
    return ParsedSource(
        rulings=rulings,
        original_text=original,
        selected_text=selected,
        first_line=first_line,
        line_numbers=cite.shown_numbers(first_line, first_line + selected.count("\n")),
        cleaned_text=doc.text,
        tables=tables.extract(entry, located + tables.marked(doc, located), rulings, cite),
        gaps=gaps,
        xrefs=xrefs,
        spells=spells.extract(rulings),
        shape=chosen.shape,
        found={**front, **report},
        original_file=document.file,
    )


def _front_matter(declared: dict, read: dict) -> dict:
    """Title, version and date: what the format declares (a PDF's or HTML page's title), else what the front
    matter says; the date as ISO `YYYY-MM-DD` when it could be read."""
    merged = {key: declared.get(key) or read.get(key) for key in ("title", "version", "date")}
    if declared.get("title") and (read.get("title") or "").startswith(declared["title"]):
        merged["title"] = read["title"]  # the cover says more ("… Rules of Ultimate 2025-2028") than the file
    if read.get("date_iso") and merged["date"] == read.get("date"):
        merged["date"] = read["date_iso"]
    left_out = {}
    if merged["date"]:
        merged["date"], left_out["date"] = _stored_date(str(merged["date"])), merged["date"]
    if merged["version"]:
        merged["version"], left_out["version"] = values.version(merged["version"]), merged["version"]
    left_out = {key: value for key, value in left_out.items() if not merged[key]}
    return {key: value for key, value in merged.items() if value} | ({"left_out": left_out} if left_out else {})


def _stored_date(written: str) -> str | None:
    """A front matter's date as it is stored (`model.values.stored_date`): as written, the day of a timestamp
    ("2024-08-09T10:00:00Z"), or read as a date is written ("June 9, 2024"); None when it is no date ("next
    tuesday"), so that it never decides which edition is in force."""
    written = " ".join(written.split())
    # A timestamp's day: its first ten characters, before "T" or a space and the time.
    day = written[:10] if written[10:11] in ("T", " ") and written[11:12].isdecimal() else ""
    return (values.stored_date(written) or values.stored_date(day)
            or values.stored_date(furniture.read_date(written).get("date_iso", "")))


def parse_manifest(manifest: Manifest) -> list[tuple[SourceEntry, ParsedSource]]:
    """Parse every source of the manifest, reading each file once; split words are judged against the whole
    corpus' vocabulary (their texts as read)."""
    files = dict.fromkeys(entry.file for entry in manifest.sources)  # entries may share a file (`lines`)
    documents = {file: formats.read(manifest.folder / file) for file in files}
    vocab = clean.vocabulary(*(document.text.text for document in documents.values()))
    return [(entry, parse_source(entry, manifest.folder, document=documents[entry.file], vocab=vocab))
            for entry in manifest.sources]


def assign_refs(parsed: list[tuple[SourceEntry, ParsedSource]], game_names: dict[str, str], where: str,
                taken_abbrevs: Collection[str] = (), taken_refs: Collection[str] = ()) -> dict[str, str]:
    """Give every ruling of `parsed` its ref, unique beside `taken_refs` (those already in the database), and
    return each source's abbreviation (unique beside `taken_abbrevs`). IngestError, naming `where` (the
    manifest or document), on an abbreviation asked for that another source has."""
    try:
        abbrevs = refs.assign_abbrevs([{"id": entry.id, "kind": entry.kind, "abbrev": entry.abbrev,
                                        "game_name": game_names.get(entry.game, entry.game), "game": entry.game}
                                       for entry, _ in parsed], taken_abbrevs)
    except ValueError as exc:
        raise IngestError(where, f"field 'abbrev': {exc}") from None
    used = list(taken_refs)
    for entry, source in parsed:
        found = refs.ruling_refs(source.rulings, abbrevs[entry.id], entry.section, used)
        for ruling in source.rulings:
            ruling.ref = found[ruling.id]
        used += found.values()
    return abbrevs


def link_names(parsed: list[tuple[SourceEntry, ParsedSource]], known: Sequence = (),
               known_spans: dict[str, list[tuple[int, int]]] | None = None) -> list[CrossRef]:
    """Links from rulings' texts to the rulings of their game that the names they use designate (spells,
    items, units, keywords: `links.name_references`). `known` are rulings already stored (with id, game,
    title, text, kind) and `known_spans` their texts' linked spans: then only links from or to a ruling of
    `parsed` are returned."""
    new = [ruling for _, source in parsed for ruling in source.rulings]
    taken = dict(known_spans or {})
    for _, source in parsed:
        for xref in source.xrefs:
            if xref.start is not None:
                taken.setdefault(xref.from_id, []).append((xref.start, xref.end))
    among = {ruling.id for ruling in new} if known else None
    found = []
    for game in dict.fromkeys(ruling.game for ruling in new):
        rulings = [r for r in (*known, *new) if r.game == game]
        found += links.name_references(rulings, links.name_targets(rulings), taken, among)
    return found


class _Citer:
    """Citations for spans of the cleaned text: the document's own line numbers, the page, and characters of
    the text the source shows (the file from offset `base`)."""

    def __init__(self, source: str, original: str, base: int, doc: MappedText, pages: furniture.PageMap,
                 sheets: list[int] | None = None):
        self.source = source
        self.base = base
        self.doc = doc
        self.pages = pages
        self.sheets = sheets  # where the file's pages 2, 3, ... start in `original`, to cite the file's own pages
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
        # The span holds every character the pieces came from: markup a reader adds (a table row's closing
        # "|") maps to where its construct starts, so the last character need not come last in the original.
        spans = [self.doc.original_span(start, end) for start, end in pieces]
        char_start = min(start for start, _ in spans)
        char_end = max(max(self.doc.offsets[start:end], default=span[1] - 1) + 1
                       for (start, end), span in zip(pieces, spans, strict=True))
        first, last = self.lines.line_of(char_start), self.lines.line_of(max(char_start, char_end - 1))
        page, page_end = self.pages.page_of(char_start), self.pages.page_of(max(char_start, char_end - 1))
        return Citation(self.source, self.shown.get(first, first), self.shown.get(last, last),
                        char_start - self.base, char_end - self.base, first, last, page,
                        page_end if page is not None and page_end is not None and page_end > page else page,
                        None if self.sheets is None else bisect.bisect_right(self.sheets, char_start) + 1)


def _text(doc: MappedText, pieces: list[tuple[int, int]], lines: bool = False,
          located: list[tables.Found] = ()) -> str:
    """The stored text of the pieces: one flow (structure.flow), or with `lines` one line per piece; a
    declared table inside a piece stands as its rows, not as the run-on text a flattening left."""
    passages = []
    for start, end in pieces:
        parts, pos = [], start
        for table in located:
            if start <= table.start and table.end <= end:
                parts += [doc.text[pos:table.start], "\n\n" + table.markup() + "\n\n"]
                pos = table.end
        passages.append("".join(parts) + doc.text[pos:end])
    if lines:
        return "\n".join(structure.flow(passage) for passage in passages)
    return structure.flow("\n\n".join(passages))  # a piece ends a paragraph


def _rulings(entry: SourceEntry, blocks: list[Block], doc: MappedText, cite: _Citer,
             located: list[tables.Found]) -> tuple[list[Ruling], dict[str, list[str]]]:
    """The rulings of the blocks, and for each ruling id the cross-reference lines attached to it."""
    rulings: list[Ruling] = []
    related: dict[str, list[str]] = {}
    kept = []
    for position, block in enumerate(blocks):
        if not block.pieces:
            continue
        text = _text(doc, block.pieces, block.kind == "changelog", located)
        # cleaning can leave a block with nothing but whitespace; a paragraph of one glyph is a picture's ("↓",
        # an icon font's "C" beside a heading), and one of a number alone a page's ("12"): no text of the rules
        if not text.strip() or block.kind in ("paragraph", "title", "front-matter") and (
                sum(c.isalnum() for c in text) < 2 or text.strip().isdigit()):
            continue
        id_section = block.section if block.id_section is None else block.id_section
        path = "/".join(section_slug(s) for s in id_section if section_slug(s))
        kept.append((position, block, text, f"{entry.game}/{path}/{block.slug or slugify(block.label)}"
                     .replace("//", "/")))
    ids = _unique_ids([base for *_, base in kept])
    asked = rhetorical([(block.section, block.kind, text) for _, block, text, _ in kept])
    by_label: dict[str, str] = {}
    printed: set[str] = set()  # the rule numbers the document printed so far
    owners: dict[str, str] = {}  # label -> the latest other unit (a glossary entry) so labelled
    rulings_by_id: dict[str, Ruling] = {}
    headings: dict[str, tuple[str, ...]] = {}  # ruling id -> the headings it stands under
    for at, ((position, block, text, _), ruling_id) in enumerate(zip(kept, ids, strict=True)):
        # A rule number the document printed already is a restatement (an update summary reprints the rules
        # it changed): kept and searchable, but the first statement stays the rule of that number.
        own_number = block.kind == "rule" and _prints_number(doc, block)
        kind = "restated" if own_number and block.label in printed else block.kind
        # A short front-matter line is the document's title, version, date or credits: never an answer.
        if kind == "front-matter" and len(text.split()) < _TITLE_WORDS:
            kind = "title"
        # A glossary entry that only sends the reader elsewhere ('See "Conditions" on page 9.') answers nothing:
        # its term leads to its target.
        if kind == "glossary" and links.only_reference(text):
            kind = "redirect"
        # A paragraph that asks and answers is a question, whatever layout set it ("How does X work? Roll…"),
        # counted as questions are ("q7"): a paragraph's count is no number the document prints. One asking alone
        # among prose asks the reader (`rhetorical`).
        label = block.label
        if kind in ("paragraph", "clarification") and asks(text) and at not in asked:
            kind = "question"
            label = f"q{label}" if block.kind == "paragraph" and label.isdigit() else label
        elif kind == "question" and at in asked:
            kind = "paragraph"
        parent = by_label.get(block.parent or "") or owners.get(block.parent or "")
        # A rule is a subrule only of a rule under its own headings: Appendix II's step "1.1" is not a part of the
        # glossary's step "1" that an entry printed pages before.
        if parent and block.section[:len(headings[parent])] != headings[parent]:
            parent = None
        # " > " parts a section's path: a heading's own angle brackets ("History < subject > (Wis)") are shown as
        # guillemets, so that its whole name stays one part of it
        section = " > ".join(part.translate(_PATH_SIGNS) if ">" in part else part for part in block.section)
        if parent and rulings_by_id[parent].kind == "rule":
            # A subrule is read in the light of its rule: "... > 702.11 Hexproof" is part of its section.
            section += f" > {rulings_by_id[parent].label} {rulings_by_id[parent].title}"
        ruling = Ruling(
            id=ruling_id, game=entry.game, source=entry.id, section=section,
            label=label, title=block.title or first_sentence(text), kind=kind, text=text,
            position=position, citation=cite(block.pieces), parent=parent,
        )
        rulings_by_id[ruling_id] = ruling
        headings[ruling_id] = block.section
        if block.kind == "rule":
            # A subrule's parent is the latest rule of its number before it (a constitution numbers each article's
            # sections afresh: Article V's "2.1" is not Article III's), never a restatement of one.
            if kind != "restated" or block.label not in by_label:
                by_label[block.label] = ruling_id
        else:
            owners[block.label] = ruling_id
        if own_number:
            printed.add(block.label)
        if block.related:
            related[ruling_id] = [doc.text[start:end] for start, end in block.related]
        for label, pieces in block.examples:
            if pieces:
                text = EXAMPLE_LEAD_IN.sub("", _text(doc, pieces, located=located), count=1)  # readers print their own "Example:"
                ruling.examples.append(Example(f"{ruling_id}/{label}", ruling_id, label, text, cite(pieces)))
        rulings.append(ruling)
    return rulings, related


def _prints_number(doc: MappedText, block: Block) -> bool:
    """Does the document print the rule's label whole before its text ("4.3.2 Each player…"), a number of
    its own hierarchical numbering? A list's item number ("3." in a list of steps, "B.3" made of the heading
    "B." and the item "3.") counts only within its list: the same number in another list is no restatement."""
    if "." not in block.label.strip("."):
        return False
    line_start = doc.text.rfind("\n", 0, block.start) + 1
    before = doc.text[line_start:block.start].rstrip(" .):\t")
    return before.lower().endswith(block.label.lower()) and not before[:-len(block.label)].strip(" (")


_TITLE_WORDS = 15


def _unique_ids(bases: list[str]) -> list[str]:
    """Each base as it is the first time, then `base-2`, `base-3`...: skipping any suffixed id that is another
    block's own base, so ids are unique by construction."""
    taken = set(bases)
    used: set[str] = set()
    last: dict[str, int] = {}  # the suffix each base got last: a number below it is taken already
    ids = []
    for base in bases:
        n = last.get(base, 1)
        candidate = base if n == 1 else f"{base}-{n}"
        while candidate in used or (n > 1 and candidate in taken):
            n += 1
            candidate = f"{base}-{n}"
        last[base] = n
        used.add(candidate)
        ids.append(candidate)
    return ids
