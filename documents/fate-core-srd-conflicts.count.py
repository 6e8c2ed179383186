#!/usr/bin/env python3
"""Count the units of fate-core-srd-conflicts.md (the "Conflicts" page of the Fate Core SRD as converted to
markdown by brunobord/fate-srd-markdown from fate-srd.com's HTML).

Layout: YAML front matter (title: "Conflicts"), a stray "Fate Core" line, then "#  Conflicts" and ATX headings
down to level 4; prose hard-wrapped near 78 columns; worked examples as blockquotes whose paragraphs are
separated by lines holding a lone ">" and whose later lines carry no ">" (lazy continuation); inline HTML
(<span class="aspect">Heavy Crates</span>, "&amp;" in a heading); links split across lines; "  * " bullets,
some with a bold run-in term ("**Disarming**: You knock ...").
numbered_units = the items of the only numbered list, "1.) Fate deliberately ..." .. "5.) The social contract
                 ...", quoted from Leonard Balsera under "### Further Clarification on Conceding vs getting
                 Taken Out". The headings are unnumbered and not counted.
glossary_terms = 0 (bold run-in bullets such as "**Disarming**:" are examples of advantages, not definitions);
qa_pairs = 0 ("### What Skill Do I Use For Recovery?" is a sidebar heading phrased as a question).
"""
import re, sys
from pathlib import Path

text = Path(__file__).with_name("fate-core-srd-conflicts.md").read_text(encoding="utf-8")
lines = text.splitlines()
headings = [(len(m.group(1)), m.group(2).strip()) for l in lines if (m := re.match(r"^(#{1,6})\s+(.*)$", l))]
items = [m.group(1) for l in lines if (m := re.match(r"^(\d+)\.\) \S", l))]
assert items == [str(n) for n in range(1, len(items) + 1)], items
bullets = sum(1 for l in lines if re.match(r"^\s*\* \S", l))
run_in = sum(1 for l in lines if re.match(r"^\s*\* \*\*[^*]+\*\*:", l))
quote_breaks = sum(1 for l in lines if l.strip() == ">")
print(f"headings (not counted) {len(headings)}")
print(f"bullets {bullets} (with a bold run-in term {run_in}); lone '>' lines {quote_breaks}")
print(f"numbered_units {len(items)}")
print("glossary_terms 0\nqa_pairs 0")
if "-v" in sys.argv:
    print("\n".join(f"{'#' * n} {h}" for n, h in headings))
    print("\n".join(f"{n}.)" for n in items))
