#!/usr/bin/env python3
"""Count units of carnevale-faq-errata-1.3.md (the Carnevale Companion site's Jekyll/kramdown page
"FAQ & Errata", "Official Carnevale FAQ & Errata v1.3", TTCombat's Carnevale).

Layout: YAML front matter (title, description, toc); "## Current Edition" version list; "## Frequently Asked
Questions" with topic headings "### Basics" .. "### Magic": each question is a plain paragraph followed by
a kramdown attribute line "{: .entry-title}", each answer paragraph by "{: .entry-note}" (an answer may have
several such paragraphs, or an italic "*e.g. ...*" example with no attribute line); one question in Combat
is a bold paragraph "**Can I use a Counter command ... guarding.**" (ending in a stop, not "?") with no
attribute lines; one question appears
twice ("Can you move around an enemy in base contact ...?"). "## Errata": "### Rulebook - 2018 Version"
with "#### Page 153 - Successes, ..." entries, then "### Rules (all rulebook versions)" and "### Special Rules
(all rulebook versions)" with bold-term entries ("**Grapple**"). "## Version 2.2 Changelog" (bullets per
topic), "## Balance Changes" (per faction, "Smuggler" + "{: .entry-title}" then change notes).

numbered_units = 0 (the errata headings cite rulebook pages, "Page 153 - ...", which are not unit labels).
glossary_terms = 0.
qa_pairs       = questions in "## Frequently Asked Questions": "{: .entry-title}" paragraphs plus the bold
                 question paragraph; the repeated question counts twice (it is printed twice).
Also reported: errata entries ("#### Page ..." headings and bold-term paragraphs under the two
"(all rulebook versions)" headings) and Balance Changes entries ("{: .entry-title}" after "## Balance Changes").
"""
import re, sys
from pathlib import Path

text = Path(__file__).with_name("carnevale-faq-errata-1.3.md").read_text(encoding="utf-8")
faq = text[text.index("## Frequently Asked Questions"):text.index("## Errata")]
errata = text[text.index("## Errata"):text.index("## Version 2.2 Changelog")]
balance = text[text.index("## Balance Changes"):]
titled = re.findall(r"^(.+)\n\{: \.entry-title\}", faq, re.M)
bold_q = re.findall(r"^\*\*((?:Can|Do|Does|Is|How|What|If|When|Are)\b.+)\*\*$", faq, re.M)   # not "**Success**"
questions = titled + bold_q
pages = re.findall(r"^#### (Page .+)$", errata, re.M)
bold_terms = re.findall(r"^\*\*([^*]+)\*\*$", errata, re.M)
changes = re.findall(r"^(.+)\n\{: \.entry-title\}", balance, re.M)
print(f"numbered_units 0")
print(f"glossary_terms 0")
print(f"qa_pairs {len(questions)} ({len(titled)} with {{: .entry-title}}, {len(bold_q)} bold; "
      f"{len(questions) - len(set(questions))} printed twice)")
print(f"errata entries (not counted) {len(pages) + len(bold_terms)}: {pages + bold_terms}")
print(f"balance-change entries (not counted) {len(changes)}")
if "-v" in sys.argv:
    print("\n".join(questions))
