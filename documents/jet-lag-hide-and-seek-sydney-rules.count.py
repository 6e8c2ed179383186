#!/usr/bin/env python3
"""Count the numbered units of jet-lag-hide-and-seek-sydney-rules.pdf ("Jet Lag: The Game / Hide and Seek
Sydney Rules", LaTeX scrartcl + scrjura, pdfTeX-1.40.25, 14 pages).

Text comes from pypdf's extract_text() page by page (the reader the project uses; run it with a Python that has pypdf, e.g.
/work/main/.venv/bin/python); without pypdf, poppler's `pdftotext` is tried (its text may differ: the counts
were made with pypdf 7.1.1). Layout: page 1 holds the title block and a "Contents" list of the 8 clauses with dot
leaders ("1 Game Boundaries . . . . 1"); the body repeats each clause heading without leaders and numbers every
paragraph and list item with the full dotted path:
  paragraphs  "1.1 This version of Hide and Seek ..."          (two parts, scrjura \\Clause paragraphs)
  items       "1.1.1 All non-bus transport stations ..."       (three parts, enumerate level 1)
  subitems    "6.8.1.1 If you ask another question while ..."  (four parts, enumerate level 2)
numbered_units = paragraphs + items + subitems, each checked to follow its predecessor as numbering does.
Not counted: the 8 clause headings "1 Game Boundaries" .. "8 Hider Deck and Curses" (a bare number, in the
contents and again in the body), the bare page numbers that close each page, "Table 1: Distribution of cards in
the hider deck" and its rows ("3m Time Bonus Time Bonus 25").
"""
import re, subprocess, sys
from pathlib import Path

pdf = Path(__file__).with_name("jet-lag-hide-and-seek-sydney-rules.pdf")
try:
    from pypdf import PdfReader
    text = "\n".join(page.extract_text() for page in PdfReader(pdf).pages)
except ImportError:
    text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout

lines = text.splitlines()
clause_re = re.compile(r"^(\d) ([A-Z][A-Za-z ]+?)(?: \.(?: \.)+ \d+)?$")
label_re = re.compile(r"^(\d+(?:\.\d+){1,3}) \S")
clauses, labels, problems = [], [], []
prev = None
for line in lines:
    if m := clause_re.match(line):
        clauses.append(line)
        continue
    if m := label_re.match(line):
        parts = tuple(int(x) for x in m.group(1).split("."))
        ok = prev is None or any(
            parts == prev[:k] + (prev[k] + 1,) for k in range(len(prev))) or parts == prev + (1,) or (
            len(parts) == 2 and parts[1] == 1 and parts[0] == prev[0] + 1)
        if not ok:
            problems.append(f"{m.group(1)} after {'.'.join(map(str, prev))}")
        labels.append(m.group(1)); prev = parts
depth = {n: sum(1 for l in labels if l.count(".") == n - 1) for n in (2, 3, 4)}
print(f"clause headings (not counted, contents + body) {len(clauses)}")
print(f"paragraphs {depth[2]}  items {depth[3]}  subitems {depth[4]}")
print(f"numbered_units {len(labels)}")
print(f"out-of-sequence labels {len(problems)} {problems}")
print("glossary_terms 0\nqa_pairs 0")
if "-v" in sys.argv:
    print("\n".join(labels))
