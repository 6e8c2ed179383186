#!/usr/bin/env python3
"""Count units of pathfinder-acg-wrath-of-the-righteous-rules-questions.md (an English copy of Paizo's FAQ
"Rules Questions" for the Pathfinder Adventure Card Game: Wrath of the Righteous, as posted on paizo.com
in 2015, kept in minyk/Pathfinder-ACG-FAQ-KO before it was translated into Korean).

Layout: "# Rules Questions"; each entry is a heading "## <question>" (one is a statement: "## I have some
questions about temporarily closing locations."), the answer paragraph(s), an erratum paragraph opening
"Resolution:" (amending the rulebook: "On page 7 of the rulebook ... change "..." to "..."", or "should
read"; sometimes "Resolution:" stands alone and the amendments follow as paragraphs), sometimes a "Note:
This resolution was incorporated into PDF Edition 1.0 of the rulebook." paragraph, and a
"posted Sep 21, 2015 | back to top" footer (the web page's link text).

numbered_units = 0; glossary_terms = 0.
qa_pairs = "## " entry headings. Also reported: "Resolution:" (errata) paragraphs.
"""
import re, sys
from pathlib import Path

text = Path(__file__).with_name("pathfinder-acg-wrath-of-the-righteous-rules-questions.md").read_text(encoding="utf-8")
questions = re.findall(r"^## (.+)$", text, re.M)
resolutions = re.findall(r"^Resolution:", text, re.M)
print("numbered_units 0")
print("glossary_terms 0")
print(f"qa_pairs {len(questions)}")
print(f"'Resolution:' errata paragraphs (not counted) {len(resolutions)}")
if "-v" in sys.argv:
    print("\n".join(questions))
