#!/usr/bin/env python3
"""Count units of mlb-official-baseball-rules-2023.pdf (Official Baseball Rules, 2023 Edition, Office of the
Commissioner of Baseball; 192 pages: front matter and a 9-page contents, rules 1.00-9.00, General Instructions
to Umpires, Definitions of Terms, Appendices 1-5, Index).

Text comes from pypdf, one page at a time (without pypdf the script reruns itself under ../.venv/bin/python).
Every body page opens with its printed page number and a running head such as "Rule 5.08(b) to 5.09(a)(1)"
(or "Definitions of Terms"), which are skipped. Counted in the rules body (from "1.00–OBJECTIVES OF THE GAME"
to "DEFINITIONS OF TERMS"), per line:
  sections      "5.00–PUTTING THE BALL IN PLAY" (N.00 and an en/em dash)             9
  rules         "5.09 Making an Out"                                                 (N.NN at line start)
  subrules      "(a) Retiring the Batter", "(1)  His fair or foul fly ball ...", "(A) ...", roman "(iv) ..."
                (a parenthesised lower-case letter, number or capital opening a line; pypdf sometimes
                prints "( b)" with a space, which is accepted)
numbered_units = sections + rules + subrules.
Reported, not counted: "Rule 5.09(a)(1) Comment:" paragraphs (they carry the full label of the rule they
comment on), "(Catch) Comment:" / "Catch Comment:" paragraphs, NOTE:, PENALTY: and APPROVED RULING: paragraphs.
glossary_terms = Definitions of Terms entries: a line opening with an optional article (A, An, The, THE, "The
                 pitcher's") and a term in capitals, sometimes quoted ("A BALK is ...", "BATTER-RUNNER is ...",
                 "INTERFERENCE" alone on its line, "OFFICIAL SCORER. See Rule 9.00.", "“SAFE” is ...",
                 "DUGOUT (See definition of BENCH)"); the lettered items inside a definition ("(a) A force
                 double play ...") are not terms.
qa_pairs = 0.
"""
import re, sys
from pathlib import Path

pdf = Path(__file__).with_name("mlb-official-baseball-rules-2023.pdf")
try:
    from pypdf import PdfReader
except ImportError:   # rerun under the project's virtualenv (documents/../.venv), which has pypdf
    import os
    venv = Path(__file__).resolve().parent.parent / ".venv" / "bin" / "python"
    if venv.exists() and not os.environ.get("COUNT_PY_REEXEC"):
        os.environ["COUNT_PY_REEXEC"] = "1"
        os.execv(str(venv), [str(venv), str(Path(__file__).resolve()), *sys.argv[1:]])
    sys.exit("needs pypdf: pip install pypdf")
pages = [p.extract_text() or "" for p in PdfReader(str(pdf)).pages]

def body_lines(page):
    lines = [l.strip() for l in page.split("\n")]
    lines = [l for l in lines if l]
    while lines and (re.fullmatch(r"[0-9ivxl]+", lines[0]) or lines[0].startswith("Rule ")
                     or lines[0] in ("Definitions of Terms", "General Instructions to Umpires")):
        lines.pop(0)   # page number and running head
    return lines

lines = [l for p in pages[12:] for l in body_lines(p)]
start = next(i for i, l in enumerate(lines) if re.match(r"1\.00\s*[–—-]", l))
defs = next(i for i, l in enumerate(lines) if l == "DEFINITIONS OF TERMS")
index = next(i for i, l in enumerate(lines) if i > defs and l.startswith("APPENDI"))
body, glossary = lines[start:defs], lines[defs + 2:index]
SECTION, RULE = r"^(\d)\.00\s*[–—-]\s*\S", r"^(\d\.\d\d)\s+\S"
SUB = r"^\(\s?([a-z]|[ivx]{2,5}|\d{1,2}|[A-Z])\s?\)\s+\S"
sections = [l for l in body if re.match(SECTION, l)]
rules, last = [], 0.0
for l in body:   # rule numbers only grow; "9.02 for every player ..." is a wrapped cross-reference
    if (m := re.match(RULE, l)) and not re.match(SECTION, l) and float(m.group(1)) > last:
        rules.append(l); last = float(m.group(1))
subs = [l for l in body if re.match(SUB, l)]
comments = [l for l in body if re.match(r"^Rule \d\.\d\d\S* Comment", l)]
TERM = (r"^(?:(?:A|An|The|THE)\s+)?(?:pitcher’s\s+)?“?"
        r"([A-Z][A-Z’'\-]+(?:\s+(?:OR|[A-Z][A-Z’'\-]+|\([A-Z]+\)))*)”?(?=$|[\s.,])")
terms = [m.group(1) for l in glossary if (m := re.match(TERM, l)) and m.group(1) not in ("NOTE",)]
print(f"sections {len(sections)}; rules {len(rules)}; subrules {len(subs)}; 'Rule ... Comment' paragraphs (not counted) {len(comments)}")
print(f"numbered_units {len(sections) + len(rules) + len(subs)}")
print(f"glossary_terms {len(terms)}")
print("qa_pairs 0")
if "-v" in sys.argv:
    print("\n".join(sections)); print("\n".join(r[:70] for r in rules)); print("\n".join(s[:70] for s in subs))
    print(terms)
