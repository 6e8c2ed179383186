"""What one document yielded, for a user to see at a glance whether it came through (`rulings add` prints it)."""
from __future__ import annotations

from collections import Counter

from ingest.audit import audit
from ingest.classify.checks import CROSS_REFERENCE_LEAD, INNER_NUMBER, OWN_NUMBER, REFERENCE_BEFORE
from ingest.manifest import SourceEntry
from ingest.refs import colliding, ruling_refs
from model.kinds import HEADER_KINDS, TERM_KINDS
from model.records import ParsedSource

_SHORT, _LONG = 40, 4000


def ingest_report(entry: SourceEntry, parsed: ParsedSource) -> dict:
    """What one document yielded, for a user to see at a glance whether it came through: units by kind,
    the headings found, tables, numbering coverage (the share of units the document numbers or names itself,
    rather than ordinals), examples, pages, furniture removed, front matter read, and the suspicious rulings,
    the likeliest wrong cuts first (holding another unit's number, mostly numbers, only a cross-reference,
    very long, very short), the refs that would answer "rule N" for a count where the document numbers
    another unit N (none, unless ref assignment failed its rule), and the structure audit (ingest.audit: the
    cut measured against the document's own lines), with the shapes tried when the first read too little
    of the document's numbering."""
    kinds = Counter(r.kind for r in parsed.rulings)
    suspicious = sorted((item for item in map(_suspicion, parsed.rulings) if item),
                        key=lambda item: _SUSPICIONS.index(item["why"].split(" (")[0]))
    units = [r for r in parsed.rulings if r.kind not in HEADER_KINDS]
    own = sum(r.kind in TERM_KINDS or r.kind not in ("paragraph", "question") and bool(OWN_NUMBER.fullmatch(r.label))
              for r in units)
    skip = 1 if entry.section else 0  # the root every section starts with
    # A subrule's section ends with its rule ("… > 053 Cards refer to themselves…"): a rule, not a heading.
    paths = (r.section.split(" > ")[skip:len(r.section.split(" > ")) - bool(r.parent)] for r in parsed.rulings)
    headings = [part for part in dict.fromkeys(part for path in paths for part in path) if part != "Front Matter"]
    found = parsed.found
    return {
        "source": entry.id, "title": entry.title, "format": found.get("format"), "shape": parsed.shape,
        "rulings": len(parsed.rulings), "kinds": dict(kinds.most_common()),
        "sections": len({r.section for r in parsed.rulings}),
        "headings": len(headings), "heading_titles": headings[:12],
        "tables": len(parsed.tables),
        "numbered": {"units": len(units), "own": own, "share": round(own / len(units), 3) if units else 0.0},
        "examples": sum(len(r.examples) for r in parsed.rulings), "gaps": len(parsed.gaps),
        "pages": found.get("pages", 0),
        "furniture_removed": sum(found.get("furniture", {}).values()),
        "furniture": dict(sorted(found.get("furniture", {}).items(), key=lambda item: -item[1])[:8]),
        "contents_entries": found.get("contents", 0),
        "front_matter": {key: found[key] for key in ("title", "version", "date") if found.get(key)},
        "front_matter_left_out": found.get("left_out", {}),
        "doubt": found.get("doubt"),
        "suspicious": suspicious,
        "colliding_refs": _colliding_refs(parsed.rulings, entry.section),
        "audit": {**audit(parsed.cleaned_text, parsed.rulings, parsed.original_text, title=entry.title,
                          file_name=entry.file, game_name=parsed.found.get("game_name") or ""),
                  "shapes_tried": [{"shape": shape, "share": share} for shape, share in found.get("shapes_tried", ())]},
    }


def _colliding_refs(rulings, root: str) -> list[str]:
    """The refs, within the source, that equal a number the document gives another unit (see
    refs.colliding): the source's labels are what collide, so its refs are made afresh under a bare
    abbreviation."""
    refs = ruling_refs(rulings, _ABBREV, root)
    return [refs[ruling_id] for ruling_id in colliding(rulings, refs, _ABBREV)]


_ABBREV = "_"


# What makes a ruling suspicious, the likeliest wrong cut first.
_SUSPICIONS = ("holds another number", "mostly numbers", "only a cross-reference", "very long", "very short")


def _suspicion(ruling) -> dict | None:
    """Why `ruling` looks wrongly cut, or None (never for a glossary entry read as sending the reader on,
    which is what it is meant to do)."""
    if ruling.kind == "redirect":
        return None
    text = ruling.text
    words = text.split()
    inner = next((m for m in INNER_NUMBER.finditer(text) if not REFERENCE_BEFORE.search(text[:m.start()])), None)
    numeric = sum(all(c.isdecimal() or c in ".,/%-" for c in word) for word in words)
    numbered = ruling.kind == "rule" and bool(ruling.label)
    why = (f"holds another number ({inner.group(1)})" if inner and ruling.kind == "rule"
           else "mostly numbers (a flattened table?)" if len(words) >= 6 and numeric >= 0.6 * len(words)
           # A rule the document numbers may be only a cross-reference ("See rule 708.") or short ("3.8.2.1 on a
           # square"), and a glossary's definition short: only an unnumbered scrap is suspicious so.
           else "only a cross-reference" if CROSS_REFERENCE_LEAD.match(text) and len(words) <= 30 and not numbered
           else "very long" if len(text) > _LONG
           else "very short" if len(text) < _SHORT and not numbered and ruling.kind != "glossary" else None)
    return {"id": ruling.id, "why": why, "chars": len(text)} if why else None