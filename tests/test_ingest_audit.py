"""The structure audit (ingest/audit.py): the cut measured against the document's own lines, on small
documents in several numbering styles and on real ones of ../shared/corpora (skipped when absent)."""
from __future__ import annotations

import re
import time
from dataclasses import replace
from pathlib import Path

import pytest

from ingest import audit, shapes
from ingest.refs import ruling_refs
from ingest.report import ingest_report
from service.cli import report_text
from model.records import Citation, Ruling
from support import CORPORA, documents

STRUCTURE = CORPORA / "structure"


def _entry(name: str, shape: str = "auto"):
    return documents.entry(name, shape)


def parsed(path: Path, shape: str = "auto"):
    """The file parsed as `rulings add FILE --game test` parses it (once a run)."""
    return documents.parsed(path, shape)


def audited(path: Path, shape: str = "auto") -> dict:
    source = parsed(path, shape)
    return audit.audit(source.cleaned_text, source.rulings, source.original_text)


def _write(tmp_path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def _sentence(n: int) -> str:
    return f"Players resolve effect number {n} in the order the active player chooses, then continue."


@pytest.mark.parametrize(("line", "parts"), [
    ("1.4.6. The active player draws.", ("1", "4", "6")),
    ("- **1-2-1.** The active player draws.", ("1", "2", "1")),
    ("  - 9f12c The active player draws.", ("9", "f", "12", "c")),
    ("Rule 7.4 (b) The active player draws.", ("7", "4", "b")),
    ("### 702.11b Hexproof", ("702", "11", "b")),
    ("(b) The active player draws.", ("b",)),
    ("iv. The active player draws.", ("iv",)),
    ("3.A.1.a. Sideline players should not offer their perspective.", ("3", "a", "1", "a")),
    ("B1.A.2. The first two fouls are warnings.", ("b", "1", "a", "2")),
    ("3.) You have to justify a concession.", ("3",)),
])
def test_a_label_is_read_whatever_joins_its_parts(line, parts):
    assert audit.key(audit.label_of(line)) == parts


def test_labels_joined_differently_are_the_same_label():
    assert audit.key("1-2-1.") == audit.key("1.2.1") == ("1", "2", "1")
    assert audit.key("Rule 7.4 (b)") == audit.key("7.4b")


@pytest.mark.parametrize("line", ["12", "1st Player", "12 cards", "section 3.1", "| 1.2 | 3 |",
                                  "1.6 Starting the Game ........ 12", "1.6 Starting the Game 12"])
def test_pages_counts_contents_and_table_rows_are_not_numbered_lines(line):
    assert audit.numbered_lines(line) == []


def test_an_faqs_question_and_answer_marks_are_no_numbering_but_a_lettered_lists_a_is():
    # An FAQ whose questions open "**Q. …**" and answers "A. …": 70 of 70 "numbered lines" unread, the verdict poor.
    faq = "\n".join(f"**Q. Can the agent do thing {n}?**\nA. Yes, thing {n}." for n in range(4))
    assert audit.numbered_lines(faq) == []
    lettered = "A. Adjourned games\nB. Rapidplay\nC. Blitz\n"
    assert [label for _, label, _ in audit.numbered_lines(lettered)] == ["A.", "B.", "C."]


STYLES = {"dotted": "{c}.{n}.", "hyphenated": "- **{c}-{n}.**", "compact": "- {c}f{n}", "worded": "Rule {c}.{n} (b)"}


def _numbered_document(style: str, chapters: int = 3, rules: int = 8) -> tuple[str, list[tuple[str, str]]]:
    """A document numbered in `style` under "# Chapter N" headings, and (label, text) of each rule."""
    lines, units = [], []
    for chapter in range(1, chapters + 1):
        lines += [f"# Chapter {chapter}", ""]
        for n in range(1, rules + 1):
            label = style.format(c=chapter, n=n)
            lines += [f"{label} {_sentence(n)}", ""]
            units.append((label.strip("-* ").rstrip("."), _sentence(n)))
    return "\n".join(lines), units


def _rulings(units: list[tuple[str, str]], kind: str) -> list[Ruling]:
    """Rulings cut at `units` as `kind`: "rule" keeps each label (its parts joined by dots, as a ref writes
    them), "paragraph" counts them."""
    citation = Citation("doc", 1, 1, 0, 1, 1, 1)
    return [Ruling(f"doc/{n}", "test", "doc", "Rules", ".".join(audit.key(label)) if kind == "rule" else str(n),
                   text[:20], text, kind, n, citation) for n, (label, text) in enumerate(units, start=1)]


@pytest.mark.parametrize("style", STYLES)
def test_a_cut_that_keeps_the_documents_labels_audits_good_whatever_its_numbering(style):
    text, units = _numbered_document(STYLES[style])
    found = audit.audit(text, _rulings(units, "rule"))
    # "# Chapter 1" is numbered too: read as the number its rules "1.1" ... "1.8" carry.
    assert found["numbered"] == {"lines": 27, "read": 27, "share": 1.0, "missed": [],
                                  "headings": 0, "headings_read": 0}
    assert found["verdict"] == "good"


@pytest.mark.parametrize("style", STYLES)
def test_a_cut_that_counts_what_the_document_numbers_audits_poor_and_names_the_lines(style):
    text, units = _numbered_document(STYLES[style])
    found = audit.audit(text, _rulings(units, "paragraph"))
    assert found["numbered"]["read"] == 0
    assert found["verdict"].startswith("poor: could not read the numbering of 27 of 27 numbered lines")
    assert found["problems"][0]["examples"][1] == f"line 3 {text.split(chr(10))[2][:60]!r}"
    assert "24 of 24 units have ordinal refs where the document numbers its units" in found["verdict"]


def test_a_dotted_document_read_by_the_outline_audits_good(tmp_path):
    text, _ = _numbered_document(STYLES["dotted"])
    path = _write(tmp_path, "rules.md", text)
    found = audit.audit(parsed(path).cleaned_text, parsed(path).rulings)
    assert found["numbered"]["share"] == 1.0 and found["verdict"] == "good"


def test_a_document_whose_numbering_is_not_read_audits_poor_and_names_its_lines(tmp_path):
    # Labels on lines of their own over their text, as a PDF dump leaves them, cut as paragraphs by `paragraphs`.
    lines = []
    for n in range(1, 31):
        lines += [f"1.{n}.", _sentence(n), ""]
    path = _write(tmp_path, "rules.txt", "\n".join(lines))
    source = parsed(path, "paragraphs")
    found = audit.audit(source.cleaned_text, source.rulings)
    assert found["verdict"].startswith("poor: could not read the numbering of")
    assert found["numbered"]["missed"][0] == {"line": 1, "text": "1.1."}
    assert "line 1 '1.1.'" in found["problems"][0]["examples"]


def test_a_glossary_is_audited_against_the_pairs_the_document_shows(tmp_path):
    terms = "\n\n".join(f"Term{chr(65 + n)}\nA definition of the term in plain words {n}." for n in range(12))
    text = f"# Rules\n\n1.1. {_sentence(1)}\n\n# Glossary\n\n{terms}\n"
    assert audit.glossary_pairs(text) == 12
    assert audit.glossary_pairs(text.replace("# Glossary", "# Notes")) == 0


def test_a_glossary_run_into_one_paragraph_is_audited_against_the_pairs_the_file_shows(tmp_path):
    # A hard-wrapped dump saved as markdown: its key terms index, "Term—definition" a line each, wrapped onto lines
    # that hold only a reference ("(4.1.1)"), is one markdown paragraph, so the cleaned text shows one pair.
    terms = "\n".join(f"Term{chr(65 + n)}—A definition of the term in plain\nwords. ({n}.1.1)" for n in range(12))
    text = f"# Rules\n\n1.1 {_sentence(1)}\n\n## KEY TERMS INDEX\n\n{terms}\n"
    assert audit.glossary_pairs(text) == 12
    path = _write(tmp_path, "rules.md", text)
    from ingest.changeset import read_document
    entry, parsed = read_document(path, "test")
    found = audit.audit(parsed.cleaned_text, parsed.rulings, parsed.original_text, title=entry.title,
                        file_name=entry.file)
    assert found["glossary"]["pairs"] == 12 and found["verdict"].startswith("poor")
    assert audit.glossary_pairs(parsed.cleaned_text) < 12


def test_the_audit_is_linear_in_the_documents_size():
    hostile = (("- " * 5000 + "1" * 3000 + ".a" * 2000 + "\n") * 20 + "**" * 20000 + "\n" + "1." * 20000
               + "\n1. " + ". " * 50000 + "\n1.1 Title" + " 1" * 50000)
    start = time.monotonic()
    audit.numbered_lines(hostile)
    audit.glossary_pairs("# Glossary\n" + hostile)
    assert time.monotonic() - start < 2


def needs_corpora(test):
    """A test of the real documents of ../shared/corpora (marked corpus), skipped when they are not there."""
    skip = pytest.mark.skipif(not STRUCTURE.is_dir(), reason=f"{STRUCTURE} is not beside the clone")
    return pytest.mark.corpus(skip(test))


@needs_corpora
def test_the_netrunner_pdf_reads_its_labels_alone_and_its_contents_and_front_scraps_are_gone():
    # The PDF sets each label on a line of its own over its text ("1.4.6." then "A Corp deck must…"): read so
    # since the label grammar (3% of its numbered lines before). Its contents pages have no dot leaders and no
    # page numbers, only labels over titles the body prints again: the audit said "good" while 148 of their
    # lines were rulings; they go since issue 42. Its summary of changes' links stay on their printed lines, and a
    # bullet's wrapped lines stay with it, since issue 42 too (169 scraps before, "email", ".", "section 9.1.3.").
    found = audited(STRUCTURE / "netrunner-comprehensive-rules-1.4.pdf")
    assert found["numbered"]["lines"] > 1500 and found["numbered"]["share"] >= 0.9
    assert not [i["name"] for i in found["invariants"] if i["count"]]
    assert found["verdict"].startswith("good")
    assert parsed(STRUCTURE / "netrunner-comprehensive-rules-1.4.pdf").found["shapes_tried"] == ()


@needs_corpora
def test_a_poorly_read_document_audits_poor_and_names_its_numbered_lines():
    # Warhammer's framework steps are bold markdown headings five levels deep ("##### 1.1 Deploy Phase
    # Begins") that the cut reads as titles of glossary parts: 70% of its numbered lines carry their label.
    found = audited(STRUCTURE / "warhammer-40000-conquest-rules-reference.md")
    numbered = found["numbered"]
    assert numbered["lines"] > 100 and numbered["share"] < 0.8
    assert found["verdict"].startswith("poor:")
    assert "could not read the numbering of" in found["verdict"]
    assert numbered["missed"] and all(item["line"] > 0 and audit.label_of(item["text"]) for item in numbered["missed"])


@needs_corpora
def test_a_poorly_read_document_keeps_its_shape_when_no_other_reads_its_numbering_and_says_so():
    name = "warhammer-40000-conquest-rules-reference.md"
    source = parsed(STRUCTURE / name)
    tried = dict(source.found["shapes_tried"])
    # every shape that reads numbering; never one whose labels are its own counts, which would pass for it
    assert set(tried) == set(shapes.SHAPES) - {"paragraphs"}
    assert source.shape == source.found["shapes_tried"][0][0] == "outline"
    text = report_text(ingest_report(_entry(name), source))
    assert "structure audit: POOR" in text
    assert "shape outline read 70% of the numbered lines;" in text and "kept outline" in text
    assert "the rulings are mostly glossary" in text


@pytest.mark.corpus
@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not beside the clone")
@pytest.mark.parametrize("name, broken", [
    # Read without its game's name, Magic's front matter keeps its contents' last entry ("Glossary") as a line.
    ("mtg-comprehensive-rules-2022-04-29.txt", {"contents"}),
    # "Challenging/Challenged Player" clips to the ref of "…Character" ("challenging…"): which printing it is tells
    # them apart ("#2" after the clipped term), no longer its place in the source.
    ("lorcana-comprehensive-rules-2025-10-31.pdf", set())])
def test_the_comprehensive_rulebooks_read_their_numbering_and_break_only_the_invariants_named(name, broken):
    found = audited(CORPORA / name)
    assert {i["name"] for i in found["invariants"] if i["count"]} == broken
    assert all(i["count"] == 1 for i in found["invariants"] if i["name"] in broken)
    assert found["numbered"]["share"] >= 0.95
    assert found["colliding"] == found["long"] == 0 and found["ordinals"] <= 3
    source = parsed(CORPORA / name)
    assert source.found["shapes_tried"] == ()  # read well enough: no other shape was tried
    report = ingest_report(_entry(name), source)
    verdict, said = ("poor: 1 ", "POOR") if broken else ("good", "good")
    assert report["audit"]["verdict"].startswith(verdict) and report["audit"]["shapes_tried"] == []
    assert f"  structure audit: {said}" in report_text(report)


@pytest.mark.corpus
@pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not beside the clone")
def test_the_mtg_glossary_entries_match_the_pairs_it_shows():
    glossary = audited(CORPORA / "mtg-comprehensive-rules-2022-04-29.txt")["glossary"]
    assert abs(glossary["entries"] - glossary["pairs"]) <= 0.05 * glossary["pairs"]


def _numbered_parts(tmp_path) -> Path:
    parts = [("The Deck", "Start with a standard deck of cards and remove the jokers before dealing."),
             ("Pick Dealer", "Each player draws one card and the lowest card deals the first hand."),
             ("Seat Targets", "Every hand has three seat quotas that the players must try to meet."),
             ("Scoring", "A player who misses the quota for the seat takes one point against.")]
    body = "\n\n".join(f"{n}) {title}\n{text}" for n, (title, text) in enumerate(parts, start=1))
    return _write(tmp_path, "card-game.txt", f"Card Game Rules\n\n{body}\n")


def test_numbered_headings_are_cited_by_their_numbers(tmp_path):
    source = parsed(_numbered_parts(tmp_path))
    refs = ruling_refs(list(source.rulings), "CG")
    assert [refs[r.id] for r in source.rulings] == ["CG 1", "CG 2", "CG 3", "CG 4"]
    assert audit.audit(source.cleaned_text, source.rulings, source.original_text)["verdict"] == "good"


def test_numbered_headings_cited_only_by_their_titles_make_the_cut_poor(tmp_path):
    # Too few numbered lines to judge a numbering scheme, but each heads a part the document cites by its number
    # ("1) The Deck"): a cut naming the parts only by their titles loses what a judge would cite.
    source = parsed(_numbered_parts(tmp_path))
    untitled = [replace(r, section=re.sub(r" > \d+[.)]? ", " > ", r.section)) for r in source.rulings]
    found = audit.audit(source.cleaned_text, untitled, source.original_text)
    assert found["numbered"]["headings"] == 4 and found["numbered"]["headings_read"] == 0
    assert found["verdict"] == "poor: cited 4 of 4 numbered headings without their number"

def test_a_numbered_step_is_no_heading():
    assert not audit._numbered_heading("1. Draw two cards.", "1.")
    assert audit._numbered_heading("1) The Deck", "1)")
    assert audit._numbered_heading("## 3. Scoring", "3.")


def test_an_faq_of_numbered_question_headings_is_read_as_questions_cited_by_their_numbers(tmp_path):
    from ingest.changeset import read_document
    faq = "# Quarry Frequently Asked Questions\n\n## Table of Contents\n\n*The official FAQ.*\n\n" + "".join(
        f"## {n}. What happens if a player passes {n} times (i.e. in a row)?\n\nThe player loses {n} stones.\n\n"
        f"Example: with {n} passes, {n} stones go.\n\n" for n in range(1, 13))
    (tmp_path / "quarry-faq.md").write_text(faq, encoding="utf-8")
    entry, source = read_document(tmp_path / "quarry-faq.md", "quarry")
    assert source.shape == "outline"
    questions = [r for r in source.rulings if r.kind == "question"]
    assert len(questions) == 12 and all("Table of Contents" not in r.section for r in questions)
    refs = ruling_refs(source.rulings, "Q", entry.id)
    assert [refs[r.id] for r in questions[:3]] == ["Q 1", "Q 2", "Q 3"]
