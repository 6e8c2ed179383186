#!/usr/bin/env python3
"""Count the numbered units of xd-hra-pravidla-2021.pdf ("XD–Hra / Pravidla hry", the rules of a Czech
summer-camp social deduction game, LaTeX article class, LuaTeX-1.10.0, 4 pages).

Text comes from pypdf's extract_text() page by page (the reader the project uses; run it with a Python that has pypdf, e.g.
/work/main/.venv/bin/python); without pypdf, poppler's `pdftotext` is tried (its text may differ: the counts
were made with pypdf 7.1.1). Layout: page 1 = title + "Obsah" (contents): sections "1 Úvod 2" without leaders,
subsections "2.1 Cíl hry . . . . 2" with dot leaders. Every page opens with the running head set in Tengwar,
which reads back as glyph soup ("@ F JF ]@ F"), and closes with a bare page number.
Counted (body only, from the second "1 Úvod" on):
  subsections  "3.1 Smrt"                  (heading line: a dotted number + title)
  list items   "1. Schopností:" / "2. Předmětem:" (enumerate level 1, under 3.1)
               "(a) Řekne, co je za postavu ..."  (enumerate level 2, restarting under each item)
numbered_units = subsections + list items.
Not counted: the 5 sections "1 Úvod" .. "5 Předměty" (a bare number), bullets "•", the run-in \\paragraph
headings ("Změnitelná pravidla.", "Středozemě.", "Temná armáda.", "Neutrální.").
"""
import re, subprocess, sys
from pathlib import Path

pdf = Path(__file__).with_name("xd-hra-pravidla-2021.pdf")
try:
    from pypdf import PdfReader
    pages = [page.extract_text() for page in PdfReader(pdf).pages]
except ImportError:
    pages = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout.split("\f")
lines = "\n".join(pages).splitlines()
start = [i for i, l in enumerate(lines) if l.strip() == "1 Úvod"][0]  # the body heading (contents has "1 Úvod 2")
body = lines[start:]
section_re = re.compile(r"^(\d) (\S.*)$")
sub_re = re.compile(r"^(\d\.\d) (\S.*)$")
item_re = re.compile(r"^(\d)\. (\S.*)$")
letter_re = re.compile(r"^\(([a-z])\) (\S.*)$")
sections, labels = [], []
sub = item = None
for l in body:
    if m := sub_re.match(l):
        sub, item = m.group(1), None; labels.append(sub)
    elif m := section_re.match(l):
        if not l.strip().isdigit():
            sections.append(l)
    elif m := item_re.match(l):
        item = m.group(1); labels.append(f"{sub} {item}.")
    elif (m := letter_re.match(l)) and item:
        labels.append(f"{sub} {item}. ({m.group(1)})")
print(f"sections (not counted) {len(sections)}: {sections}")
subs = [l for l in labels if " " not in l]
print(f"subsections {len(subs)}  list items {len(labels) - len(subs)}")
print(f"numbered_units {len(labels)}")
print("glossary_terms 0\nqa_pairs 0")
if "-v" in sys.argv:
    print("\n".join(labels))
