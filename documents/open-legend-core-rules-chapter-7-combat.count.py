#!/usr/bin/env python3
"""Count the units of open-legend-core-rules-chapter-7-combat.md ("Chapter 7: Combat" of the Open Legend RPG
core rules, markdown source as in openlegend/core-rules in 2017, before the site moved to MDX).

Layout: ATX headings at all six levels, the first with closing hashes ("# Chapter 7: Combat #"); sidebars and
worked examples are blockquotes that carry their own headings ("> #### Combat on a Grid", "> ###### Always");
empty tables written as raw HTML ("<div class="table-no-body"></div>") followed by pipe tables; "<br><br>" spacers.
numbered_units = items of the three ordered lists (under "#### Make a Damaging Attack", "#### Make a Bane Attack",
                 "#### Invoke a Boon"). The source writes "1." before EVERY item (markdown renumbers them
                 1, 2, 3 when rendered); each item opens with a bold run-in step name
                 ("1. **Choose your target.** The range of ..."). Headings are unnumbered and not counted.
glossary_terms = 0, qa_pairs = 0 ("### Why Succeed on a Failed Roll?" and "> #### Twist or Failure?" are headings).
"""
import re, sys
from pathlib import Path

lines = Path(__file__).with_name("open-legend-core-rules-chapter-7-combat.md").read_text(encoding="utf-8").splitlines()
heading_re = re.compile(r"^(>\s*)?(#{1,6})\s+(.*?)\s*#*\s*$")
item_re = re.compile(r"^(\d+)\. \*\*(.+?)\*\*")
headings, quoted, items = [], 0, []
current = None
for l in lines:
    if m := heading_re.match(l):
        headings.append((bool(m.group(1)), len(m.group(2)), m.group(3)))
        quoted += bool(m.group(1))
        if not m.group(1):
            current = m.group(3)
        continue
    if m := item_re.match(l):
        items.append((current, m.group(1), m.group(2)))
        assert m.group(1) == "1", l  # every item is written "1."
print(f"headings (not counted) {len(headings)}, of them inside blockquotes {quoted}")
lists = {}
for parent, _, step in items:
    lists.setdefault(parent, []).append(step)
for parent, steps in lists.items():
    print(f"  {parent}: " + "; ".join(f"{i}. {s}" for i, s in enumerate(steps, 1)))
print(f"numbered_units {len(items)}")
print("glossary_terms 0\nqa_pairs 0")
if "-v" in sys.argv:
    print("\n".join(f"{'> ' if q else ''}{'#' * n} {h}" for q, n, h in headings))
