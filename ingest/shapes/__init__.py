"""Source shapes: each turns a cleaned document into blocks. `SHAPES[name](doc, root)` returns
(doc, blocks, missing), where doc may be further cleaned and missing lists (title, offset) of sections a
table of contents promises but the body lacks. Without a shape given, `choose` measures which explains a
document best."""
from dataclasses import dataclass, replace

from ingest import audit
from ingest.shapes import flat, outline, prose


def _outline(doc, root):
    return doc, outline.parse_outline(doc, root), []


def _blog(doc, root):
    doc, units, _title = prose.blog_units(doc)
    return doc, prose.assemble(doc, units, root), []


def _glued(doc, root):
    doc, units = prose.glued_units(doc)
    return doc, prose.assemble(doc, units, root), []


def _doc(doc, root):
    doc, units = prose.doc_units(doc)
    return doc, prose.assemble(doc, units, root), []


SHAPES = {
    "outline": _outline,
    "blog": _blog,
    "glued": _glued,
    "doc": _doc,
    "flat": flat.parse_flat,
    "paragraphs": flat.parse_paragraphs,
}

AUTO = "auto"
# Kinds of block that are units a segmenter recognised.
_UNIT_KINDS = frozenset({"rule", "clarification", "question", "glossary", "house-rule", "example-of-play"})
# A document this long is expected to hold more than one unit; one unit holding most of it means the shape
# failed to find the units.
_LONG_DOCUMENT = 3000


@dataclass(frozen=True)
class Fit:
    """How well a shape explains a document: what it yielded and the measures behind its score."""

    shape: str
    doc: object
    blocks: list
    missing: list
    coverage: float     # share of the document's words inside recognised units
    largest: float      # share of the document's words in its largest block
    units: int
    words: int          # the document's words inside blocks
    # The shapes tried because the chosen one read too little of the document's numbering: each shape's share
    # of the numbered lines read (audit.numbering), the kept shape first; empty when none were tried.
    tried: tuple[tuple[str, float], ...] = ()

    @property
    def score(self) -> float:
        """Coverage, discounted when one block swallows the document (units were not found)."""
        return self.coverage * (1.0 - max(0.0, self.largest - 0.25))

    @property
    def doubtful(self) -> str | None:
        """Why this result looks wrong, in words, or None."""
        if len(self.doc.text) >= _LONG_DOCUMENT and len(self.blocks) <= 1:
            return f"one ruling from a document of {self.words} words"
        if self.coverage < 0.5:
            return f"only {self.coverage:.0%} of the text is inside recognised rules or questions"
        if len(self.doc.text) >= _LONG_DOCUMENT and self.largest > 0.5:
            return f"one ruling holds {self.largest:.0%} of the text"
        return None


def fit(shape: str, doc, root) -> Fit:
    """Segment `doc` with `shape` and measure the result."""
    doc, blocks, missing = SHAPES[shape](doc, root)
    sizes = [sum(len(doc.text[s:e].split()) for s, e in b.pieces) for b in blocks]
    total = sum(sizes) or 1
    # A paragraph under a heading of the document's own is a unit too (a headed section); before any heading
    # it is what the shape could not place.
    units = [size for size, b in zip(sizes, blocks, strict=True)
             if b.kind in _UNIT_KINDS or b.kind == "paragraph" and len(b.section) > len(root)]
    return Fit(shape, doc, blocks, missing, sum(units) / total, max(sizes, default=0) / total, len(units),
               sum(sizes))


def choose(doc, root, fallbacks: tuple[str, ...] = ("doc", "blog", "glued")) -> Fit:
    """The shape that explains the document best. The outline reads the structure every format has
    (headings, numbered and decimal rules, lettered items, Q/A, glossaries) and is kept unless its result
    looks wrong; then the prose shapes are measured too and the one with the most text inside recognised
    units, with no unit swallowing the rest, wins. When the winner reads too little of the numbering the
    document prints (the structure audit), every other shape is tried and one that reads clearly more is
    kept instead. `flat` and `paragraphs` are for documents a manifest describes (a book flattened onto
    one line, house-rule notes)."""
    fits = {"outline": fit("outline", doc, root)}
    if fits["outline"].doubtful is not None:
        fits.update((shape, fit(shape, doc, root)) for shape in fallbacks)
    chosen = max(fits.values(), key=lambda found: found.score) if len(fits) > 1 else fits["outline"]
    read = _numbering(chosen)
    if read["lines"] < audit.MIN_LINES or read["share"] >= audit.READ_FLOOR:
        return chosen
    shares = {chosen.shape: read["share"]}
    for shape in SHAPES:
        if shape not in shares and shape not in _COUNTING:
            fits[shape] = fits.get(shape) or fit(shape, doc, root)
            shares[shape] = _numbering(fits[shape])["share"]
    best = max(shares, key=shares.get)
    clear = shares[best] >= max(shares[chosen.shape] + _CLEAR_GAIN, _MOST) and fits[best].doubtful is None
    kept = best if clear else chosen.shape
    tried = ((kept, shares[kept]), *((shape, share) for shape, share in shares.items() if shape != kept))
    return replace(fits[kept], tried=tried)


# Shapes whose units are labelled by their count, never by what the document prints: their labels would pass for
# its numbering ("4" for the paragraph over "## 1. What is a Hand?"), so they never compete on it.
_COUNTING = frozenset({"paragraphs"})
# How much more of the numbering another shape must read to replace the chosen one, and how much at least:
# a shape that still misses most numbered lines is no better reading.
_CLEAR_GAIN, _MOST = 0.2, 0.5


def _numbering(found: Fit) -> dict:
    return audit.numbering(found.doc.text, audit.as_units(found.doc.text, found.blocks))
