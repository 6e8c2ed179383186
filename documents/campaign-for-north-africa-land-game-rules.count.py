#!/usr/bin/env python3
"""Count units of campaign-for-north-africa-land-game-rules.txt (a full-text dump of SPI's The Campaign for
North Africa, 1979: Land Game, Air Game and Logistics Game rules, scenarios, Addenda, charts and tables,
192 "=== PAGE N ===" pages; from jbeaumont/north-africa-wargame-journal, data/rules/cna_rules.txt).

The text is an OCR/PDF extraction: two-column pages interleave, words are split one per line where the
source was justified ("Flying \\nBoat \\nBasins"), hyphenated words are broken ("form- \\native"), and
brackets are misread: a case label "[8.31]" also appears as "{8.31]", "(3.36]" or "{10.13}".

SPI Case System: Major Sections "[8.0] LAND MOVEMENT", Primary Cases "[8.3] TERRAIN EFFECTS ON MOVEMENT",
Secondary Cases "[8.31] Units expend ...". Chart and table titles use the same labels ("[8.37] TERRAIN
EFFECTS CHART", "[4.46c] GERMAN UNIT CHARACTERISTICS CHART").

numbered_units = case/section/chart labels opening a line: an opening "[", "{" or "(", a number N.N..N.NNN
                 with an optional letter ("4.44A"), a closing "]", "}" or ")" — but not "(N.N)" in round
                 brackets, which is a wrapped cross-reference "(14.0)," — after at most three stray
                 non-letter characters (". [8.77]", "| [17.6]", "6 [19.5]", "_ [52.7]").
                 Minus the worked example "[6.53]" in "How the Section and Case Numbers Work" (page 1).
                 Repeats are counted each time: the ADDENDA (page 45) re-use case numbers for errata
                 ("[12.46] (clarification) Trucks do not receive terrain benefits."), and charts printed
                 both in the rules and on the chart sheets.
glossary_terms = [3.1] DEFINITIONS OF TERMS entries: a line opening with a capitalised term of at most eight
                 words followed by ":" (or OCR ";"), up to [3.2]. A term split over two lines by the
                 justification ("Combined \\nArms Attack:", "Engineering \\nCapability;") is found by its last line.
qa_pairs = 0.
"""
import re, sys
from collections import Counter
from pathlib import Path

text = Path(__file__).with_name("campaign-for-north-africa-land-game-rules.txt").read_text(encoding="utf-8")
lines = text.split("\n")
LABEL = re.compile(r"^([^A-Za-z\[\{\(]{0,3})([\[\{\(])\s?(\d{1,2})\s?[.,:]\s?(\d{1,3}[A-Za-z]?)\s?([\]\}\)])")
labels, kinds = [], Counter()
for n, line in enumerate(lines, 1):
    m = LABEL.match(line)
    if not m or (m.group(2) == "(" and m.group(5) == ")"):
        continue
    label = f"{m.group(3)}.{m.group(4)}"
    if label == "6.53" and n < 100:   # the worked example on page 1, not a case
        continue
    labels.append((n, label, line.strip()))
    kinds[m.group(2) + m.group(5)] += 1
stripped = [l.strip() for l in lines]
addenda_at, counter_at = stripped.index("ADDENDA") + 1, stripped.index("COUNTER ADDENDA") + 1
addenda = [l for l in labels if addenda_at <= l[0] < counter_at]
start = next(i for i, l in enumerate(lines) if l.startswith("[3.1] DEFINITIONS OF TERMS"))
end = next(i for i, l in enumerate(lines) if l.startswith("[3.2] UNIT DIFFERENTIATION"))
terms = [m.group(1).strip() for l in lines[start + 1:end]
         if (m := re.match(r"^([A-Z][\w’'\-/()., ]{0,60}?)\s*[:;](?:\s|$)", l)) and len(m.group(1).split()) <= 8]
print(f"labels {len(labels)} (brackets {dict(kinds)}); of them ADDENDA errata entries {len(addenda)}; "
      f"distinct labels {len({l[1] for l in labels})}")
print(f"numbered_units {len(labels)}")
print(f"glossary_terms {len(terms)}: {terms}")
print("qa_pairs 0")
if "-v" in sys.argv:
    print("\n".join(f"{n}: {line[:70]}" for n, _, line in labels))
