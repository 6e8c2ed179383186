#!/usr/bin/env python3
"""Count the units of struggle-rules-2015-browser-print.txt: a browser print of rulebook.html of
eli173/struggle-rules ("Struggle Rules", a tex4ht HTML conversion of the LaTeX rulebook of Struggle, a two-player
abstract game on a cut-down Chinese checkers board), printed by headless Chromium WITH its default header and
footer and converted back to text by pypdf 7.1.1 (extract_text() per page, pages joined by a newline).

pypdf returns Chromium's head and foot at the END of each page's text: "11/28/26, 9:49 PM Struggle Rules" and then
"ﬁle:///tmp/print/github/eli173/struggle-rules/rulebook.html N/3" (with the "ﬁ" ligature), so a page's running
head follows its own last line instead of opening the next page. Ligatures survive ("diﬀerent", "modiﬁed");
no-break spaces (U+00A0) stand on otherwise empty lines where the SVG board diagrams were ("SVG-Viewer needed.").
The heading "Movement and Capture" lost its M already in the HTML ("&#x00A0;ovement and Capture").
Structure (from the HTML): title; section "Struggle (Working Title)" with 5 subsections; section "Special Rules"
with 2 named special rules (Torus, Nonagression Pact).
numbered_units = 0 (no numbering; "(1) ... or (2) ..." are inline enumerations inside sentences).
glossary_terms = 0; qa_pairs = 0.
"""
import re, sys
from pathlib import Path

text = Path(__file__).with_name("struggle-rules-2015-browser-print.txt").read_text(encoding="utf-8")
lines = text.splitlines()
headings = ["Struggle (Working Title)", "Overview and Objective", "Board and Setup", "\u00a0ovement and Capture",
            "The White Piece and Zapping", "Special Rules", "Torus", "Nonagression Pact"]
found = {h: sum(1 for l in lines if l == h) for h in headings}
heads = sum(1 for l in lines if re.match(r"^\d\d/\d\d/\d\d, \d+:\d\d [AP]M Struggle Rules$", l))
feet = sum(1 for l in lines if re.match(r"^\ufb01le:///\S+ \d/3$", l))
ligatures = len(re.findall("[\ufb00-\ufb06]", text))
print(f"headings found {found}")
print(f"running heads {heads}, running feet {feet}, ligature characters {ligatures}, 'SVG-Viewer needed.' {text.count('SVG-Viewer needed.')}")
print("numbered_units 0\nglossary_terms 0\nqa_pairs 0")
