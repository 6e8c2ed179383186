"""Source shapes: each turns a cleaned document into blocks. `SHAPES[name](doc, root)` returns
(doc, blocks, missing), where doc may be further cleaned and missing lists (title, offset) of sections a
table of contents promises but the body lacks."""
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
