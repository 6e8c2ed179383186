#!/usr/bin/env python3
"""Count the units of primordial-waters-rules-2023-browser-print.md: a browser print of the Org-mode HTML export
"Primordial Waters" (rules.html of LukasZumvorde/Songs-of-Maya, the game's earlier name), printed by headless
Chromium WITH its default header and footer and converted back to markdown by pymupdf4llm 1.28.2.

Every one of the 14 printed pages leaves a running head ("Primordial Waters" / "11/28/26, 9:49 PM") and foot
("file:///tmp/print/github/LukasZumvorde/Songs-of-Maya/rules.html" / "N/14") inside the markdown.
numbered_units = numbered section headings of the body (from "## **1. Introduction**" on), written
                 "## **1. Introduction**" / "### **2.9. Items and Equipment**": 8 chapters + 44 sections.
                 Section 2.2 ("Aspects") lost its heading in the print: the HTML floats a table beside it and the
                 conversion put the heading into a table cell as "**22 At**" / "**.. specs**"; it is not counted.
                 The Table of Contents (run together into <u>...</u> paragraphs) is not counted.
glossary_terms = bold-term entries "**Friend of Nature** (7): You can talk ..." in "4.1. List of Traits" (16) and
                 "4.2. List of Items" (9, "Sword" twice); the NPC stat lines of 4.3 ("**Goblin** ( CP) Ph:2, ...")
                 are not definitions and are not counted.
qa_pairs = 0.
"""
import re, sys
from pathlib import Path

text = Path(__file__).with_name("primordial-waters-rules-2023-browser-print.md").read_text(encoding="utf-8")
lines = text.splitlines()
start = next(i for i, l in enumerate(lines) if l.startswith("## **1. Introduction**"))
heads = [(m.group(1), m.group(2).strip()) for l in lines[start:]
         if (m := re.match(r"^#{1,6} \*\*(\d+(?:\.\d+)*)\.\s*(.*?)\*\*\s*$", l))]
labels = [h for h, _ in heads]
missing = [f"{c}.{s}" for c in range(1, 9) for s in range(1, 10)
           if f"{c}.{s}" not in labels and any(l.startswith(f"{c}.") and int(l.split(".")[1]) > s for l in labels)]
chapters = sum(1 for l in labels if "." not in l)
def entries(title):
    a = next(i for i, l in enumerate(lines) if l.startswith(f"### **{title}"))
    b = next(i for i in range(a + 1, len(lines)) if lines[i].startswith("#"))
    return [m.group(1) for l in lines[a:b] if (m := re.match(r"^\*\*([^*]+)\*\* \((\d+)\):", l))]
traits, items = entries("4.1. List of Traits"), entries("4.2. List of Items")
heads_run = sum(1 for l in lines if re.match(r"^\d{2}/\d{2}/\d{2}, \d+:\d\d [AP]M\s*$", l))
feet = sum(1 for l in lines if re.match(r"^\d+/14\s*$", l))
print(f"running heads (date line) {heads_run}, page feet 'N/14' {feet}")
print(f"chapters {chapters}  sections {len(labels) - chapters}  missing section headings {missing}")
print(f"numbered_units {len(labels)}")
print(f"glossary_terms {len(traits) + len(items)} (traits {len(traits)}, items {len(items)})")
print("qa_pairs 0")
if "-v" in sys.argv:
    print("\n".join(f"{h} {t}" for h, t in heads)); print(traits); print(items)
