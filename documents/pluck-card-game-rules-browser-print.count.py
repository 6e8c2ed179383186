#!/usr/bin/env python3
"""Count the units of pluck-card-game-rules-browser-print.txt: a browser print of docs/rules.html of
TampaNative4Life/PluckTheCardGame_Original ("Pluck Rules"), printed by headless Chromium WITH its default
header and footer and converted back to text by pdfplumber 0.11.10 (pages joined by a newline).

Every one of the 3 printed pages opens with the running head "11/28/26, 9:49 PM Pluck Rules" (date-time and the
page <title> on one line) and closes with the foot "file:///tmp/print/github/TampaNative4Life/
PluckTheCardGame_Original/docs/rules.html N/3" (URL and page count on one line); the site's navigation bar
("Home Practice Pluck Arena Rules Learn Pluck About") and a button label ("Learn Pluck in 60 Seconds") print as text.
numbered_units = the section headings "1) The Deck" .. "11) Why This Version Works" (a number closed by ")").
glossary_terms = 0 ("Plucks Earned means ...", "Differential means: ..." are inline definitions inside section 7
                 and 10, not a glossary); qa_pairs = 0.
"""
import re, sys
from pathlib import Path

lines = Path(__file__).with_name("pluck-card-game-rules-browser-print.txt").read_text(encoding="utf-8").splitlines()
sections = [(m.group(1), m.group(2)) for l in lines if (m := re.match(r"^(\d+)\) (\S.*)$", l))]
assert [int(n) for n, _ in sections] == list(range(1, len(sections) + 1))
heads = sum(1 for l in lines if re.match(r"^\d\d/\d\d/\d\d, \d+:\d\d [AP]M Pluck Rules$", l))
feet = sum(1 for l in lines if re.match(r"^file:///\S+ \d+/\d+$", l))
print(f"running heads {heads}, running feet {feet}")
print(f"numbered_units {len(sections)}")
print("glossary_terms 0\nqa_pairs 0")
if "-v" in sys.argv:
    print("\n".join(f"{n}) {t}" for n, t in sections))
