#!/usr/bin/env python3
"""Count units of fire-in-the-lake-rules.md (a text dump of the GMT Games Fire in the Lake (COIN Series
Volume IV) rule book, sections 1.0-7.0 and the Key Terms Index, kept as a markdown file with two headings).

Layout: "# Fire in the Lake Game Rules", "## 1.0 INTRODUCTION" (the only numbered markdown heading); the
other major sections are plain lines "2.0 SEQUENCE OF PLAY" .. "7.0 VICTORY"; rules "1.3 The Map" are title
lines; sub-rules open with a run-in title "1.3.1 Map Spaces. Map spaces include ..." (one is printed
"4.1.1. Accompanying Operations."). The PDF's line breaks are kept; "DESIGN NOTE:", "EXAMPLE:",
"PROCEDURE:", "NOTE:" and "•" bullets run inside rules; "4.3.2 Transport." is glued onto the end of the
truncated design-note line before it. "## KEY TERMS INDEX": "Term—definition. (rule refs)", wrapped.

numbered_units = labels N.N / N.N.N opening a line (with "## " for 1.0) before the index, plus the glued
                 "4.3.2"; the index's wrapped reference line "6.4.1 for example)" is not a label.
glossary_terms = Key Terms Index entries: a line opening with a term of at most 45 characters and an em
                 dash "—".
qa_pairs = 0.
"""
import re, sys
from pathlib import Path

text = Path(__file__).with_name("fire-in-the-lake-rules.md").read_text(encoding="utf-8")
rules, index = text.split("## KEY TERMS INDEX")
LABEL = r"\d+\.\d+(?:\.\d+)?\.?"
opening = re.findall(rf"^(?:## )?({LABEL})\s+\S", rules, re.M)
glued = [m.group(1) for m in re.finditer(rf"(?<=\S )({LABEL}) [A-Z][a-z]+\. ", rules)]
terms = re.findall(r"^([^\s—][^—\n]{0,45})—", index, re.M)
print(f"labels opening a line {len(opening)}; glued {glued}")
print(f"numbered_units {len(opening) + len(glued)}")
print(f"glossary_terms {len(terms)}")
print("qa_pairs 0")
if "-v" in sys.argv:
    print(" ".join(opening)); print(" | ".join(terms))
