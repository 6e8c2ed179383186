#!/usr/bin/env python3
"""Count units of usa-ultimate-official-rules-2024-2025.md (a markdown conversion of USA Ultimate's
"2024-2025 Official Rules of Ultimate", from trevorki/ultimate-rules-rag).

Layout: "## 1 Introduction" .. "## 15 The Marker" (no stop after the number), then "## 16. The Receiver" ..
"## 20. Etiquette" (with a stop), then "## Appendix A: ..." .. "## Appendix F: ...". Rules are paragraphs
opening with dotted alphanumeric labels: "1.A.", "1.B.1.", "2.G.4.a.", "9.B.6.d.2.2." (up to 6 parts);
appendix rules "B1.", "B1.A.", "B1.A.1.", "E2.C.1.". Annotations are in [[double brackets]] (sometimes
unbalanced). Some rules are glued onto the line of their parent ("6.C.1. ... total. 6.C.1.a. If the soft
cap ...", "9.A.1. ... to 9.A.1.a. receive ...; or 9.A.1.b. which end zone ...").

numbered_units = 20 numbered section headings
               + rule labels opening a line
               + glued labels: a label inside a line, after whitespace, followed by text, that extends
                 the label the line opens with (a child: "6.C.1.a." inside the "6.C.1." line);
                 cross-references ("see 3.F", "in accordance with 8.A.2.") are not children and are
                 not counted.
glossary_terms = Section 3 Definitions entries "3.X. Term: definition" and the roles "3.Q.n. Term: ..."
                 (a label, then a short term of at most five words, then a colon).
qa_pairs       = 0.
"""
import re, sys
from pathlib import Path

text = Path(__file__).with_name("usa-ultimate-official-rules-2024-2025.md").read_text(encoding="utf-8")
LABEL = r"(?:[A-F]\d+|\d+)\.(?:[A-Za-z0-9]+\.)*"
heads = re.findall(r"^## (\d+)\.? \S.*$", text, re.M)
opening, glued, terms = [], [], []
section = None
for line in text.split("\n"):
    if m := re.match(r"## (\d+)\.? ", line):
        section = m.group(1)
    elif line.startswith("## "):
        section = None
    m = re.match(rf"^({LABEL})(?=\s)", line)
    if not m:
        continue
    own = m.group(1)
    opening.append(own)
    for g in re.finditer(rf"(?<=\s)({LABEL})(?=\s+\w)", line[m.end():]):
        if g.group(1).startswith(own) and g.group(1) != own:
            glued.append(g.group(1))
    if section == "3" and (t := re.match(rf"^{re.escape(own)}\s+([^:.\[]{{1,60}}):", line)) and len(t.group(1).split()) <= 5:
        terms.append(t.group(1))
print(f"section headings {len(heads)}; line-opening labels {len(opening)}; glued labels {len(glued)}: {glued}")
print(f"numbered_units {len(heads) + len(opening) + len(glued)}")
print(f"glossary_terms {len(terms)}: {terms}")
print("qa_pairs 0")
if "-v" in sys.argv:
    print("\n".join(opening))
