#!/usr/bin/env python3
"""Count units of bwf-laws-of-badminton-2019.md (a markdown copy of the BWF Statutes Section 4.1,
"LAWS OF BADMINTON", in force 2019-05-31, from the hikariNTU/badminton site).

The laws are markdown: each Law is a heading "## 9. SERVICE"; its clauses are markdown ordered
lists, nested by indentation (spaces in most laws, TABs in some, both mixed in Laws 11, 13, 14, 16,
17), so the printed label of Law 9.1.3.1 is only "1." under "3." under "1." under "## 9. SERVICE".

numbered_units = the 17 law headings "## N. TITLE"
               + every ordered-list item line "<indent>N. text" after the first law heading
                 (any depth; a struck-out item "6. ~~...~~" still counts, but the struck-out
                 fake label "~~7.~~" in Law 9.1 does not, since the line opens with "~~")
               + the 2 literal dotted labels "1.1" / "1.2" under Law 1 item "1." (BWF's 1.1.1, 1.1.2)
glossary_terms = rows of the DEFINITIONS table ("| Player | Any person playing Badminton. |").
qa_pairs       = 0.
"""
import re, sys
from pathlib import Path

text = Path(__file__).with_name("bwf-laws-of-badminton-2019.md").read_text(encoding="utf-8")
lines = text.split("\n")
first_law = next(i for i, l in enumerate(lines) if re.match(r"## \d+\. ", l))
appendix = next(i for i, l in enumerate(lines) if l.startswith("## APPENDIX"))
laws = [l for l in lines if re.match(r"## \d+\. ", l)]
items = [l for l in lines[first_law:appendix] if re.match(r"^[ \t]*\d+\.[ \t]", l)]
dotted = [l for l in lines[first_law:appendix] if re.match(r"^[ \t]*\d+\.\d+[ \t]", l)]
defs = lines[lines.index("## DEFINITIONS"):first_law]
terms = [m.group(1).strip() for l in defs if (m := re.match(r"^\|\s*([^|]+?)\s*\|", l))]
terms = [t for t in terms if t != "Terms" and not set(t) <= set("- ")]
print(f"law headings {len(laws)}; list items {len(items)}; dotted items {len(dotted)}")
print(f"numbered_units {len(laws) + len(items) + len(dotted)}")
print(f"glossary_terms {len(terms)}: {terms}")
print("qa_pairs 0")
if "-v" in sys.argv:
    print("\n".join(laws)); print("\n".join(l.rstrip()[:90] for l in items + dotted))
