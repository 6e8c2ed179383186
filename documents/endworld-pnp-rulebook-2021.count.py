#!/usr/bin/env python3
"""Count the numbered units of endworld-pnp-rulebook-2021.pdf ("Endworld PnP" by Maric, a pen-and-paper RPG
rulebook; LaTeX report class with hyperref, pdfTeX-1.40.22, 43 pages).

Text comes from pypdf's extract_text() page by page (the reader the project uses; run it with a Python that has pypdf, e.g.
/work/main/.venv/bin/python); without pypdf, poppler's `pdftotext` is tried (its text may differ: the counts
were made with pypdf 7.1.1). Pages 3-5 are the "Contents" (chapters "2 Character Creation 9" without leaders, sections
"2.1 Step 1 - Categories . . . . 9" with dot leaders, down to "6.2.1.3.1 RROM . . . 26"); the body starts at
"Chapter 1" / "The EndWorld" on page 7. Body pages carry running heads: even pages "10 CHAPTER 2. CHARACTER
CREATION" (page number first), odd pages "4.4. ABILITY SKILLS 15" (section number WITH a trailing stop, page
number last) -- these are not counted.
Counted (body only):
  numbered headings  "2.1 Step 1 - Categories", "2.2.1 Abilities", "4.4.4.1 Defense", "6.2.1.3.1 RROM"
                     (2 to 5 dotted parts, no trailing stop)
  enumerate items    "1. Resistance describes how ...", "2. mastery", "4. Requirement: Shield" ... (a number and a
                     stop, restarting at 1 in every list)
numbered_units = numbered headings + enumerate items.
Not counted: the 9 chapter openers ("Chapter 2" over "Character Creation"), the running heads, "- Your Mech"
dash items, table rows that open with a bare number ("3 6 d 4 d 3 d ...").
"""
import re, subprocess, sys
from pathlib import Path

pdf = Path(__file__).with_name("endworld-pnp-rulebook-2021.pdf")
try:
    from pypdf import PdfReader
    pages = [page.extract_text() for page in PdfReader(pdf).pages]
except ImportError:
    pages = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout.split("\f")
lines = "\n".join(pages[6:]).splitlines()  # body: from page 7 ("Chapter 1") on
head_re = re.compile(r"^(\d+(?:\.\d+){1,4}) (\S.*)$")
item_re = re.compile(r"^(\d+)\. (\S.*)$")
running_re = re.compile(r"^(\d+ CHAPTER \d+\. .*|\d+(?:\.\d+)+\. [A-Z0-9 ,.\-]+ \d+)$")
chapters = sum(1 for l in lines if re.fullmatch(r"Chapter \d+", l))
running = sum(1 for l in lines if running_re.match(l))
heads, items, problems = [], [], []
prev_item = 0
for l in lines:
    if running_re.match(l):
        continue
    if m := head_re.match(l):
        heads.append(m.group(1)); prev_item = 0
    elif m := item_re.match(l):
        n = int(m.group(1))
        if n != prev_item + 1 and n != 1:
            problems.append(l)
        items.append((heads[-1] if heads else "", n, m.group(2)[:40])); prev_item = n
depth = {}
for h in heads:
    depth[h.count(".") + 1] = depth.get(h.count(".") + 1, 0) + 1
print(f"chapter openers (not counted) {chapters}; running heads (not counted) {running}")
print(f"numbered headings {len(heads)} by parts {dict(sorted(depth.items()))}")
print(f"enumerate items {len(items)}  (out of sequence: {problems})")
print(f"numbered_units {len(heads) + len(items)}")
print("glossary_terms 0\nqa_pairs 0")
if "-v" in sys.argv:
    print("\n".join(heads)); print("\n".join(f"{h} {n}. {t}" for h, n, t in items))
