"""Counts behind mtg-comprehensive-rules-2022-04-29.facts.toml, read from the document itself
(../shared/corpora/mtg-comprehensive-rules-2022-04-29.txt, beside the clone):

    python benchmarks/structure_facts/mtg-comprehensive-rules-2022-04-29.count.py [-v] [FILE]

The body starts at the second "1. Game Concepts" (the first is the contents list) and the glossary at the
second "Glossary" line; "Credits" ends it. Numbered units: the rule sections "100. General" (3 digits), the
rules "100.1." and the subrules "100.1a" at line starts; the nine chapter headings "1. Game Concepts" are
not counted. Glossary terms: each blank-line-separated block of the glossary, its first line the term.
"""
import re
import sys
from pathlib import Path

DEFAULT = Path(__file__).resolve().parents[3] / "shared" / "corpora" / "mtg-comprehensive-rules-2022-04-29.txt"
SECTION = re.compile(r"^(\d{3})\. \S")  # not "119.1d." nor "606.5", rules set flush left
RULE = re.compile(r"^\s*(\d{3}\.\d+)\.?\s+\S")  # "606.5 If …" lost its period
SUBRULE = re.compile(r"^\s*(\d{3}\.\d+[a-z])\.?\s+\S")  # "119.1d." has one


def main(argv: list[str]) -> None:
    verbose = "-v" in argv
    file = Path(next((a for a in argv if a != "-v"), DEFAULT))
    lines = file.read_text(encoding="utf-8-sig").splitlines()
    body = [n for n, line in enumerate(lines) if line == "1. Game Concepts"][1]
    glossary = [n for n, line in enumerate(lines) if line == "Glossary"][1]
    credits = [n for n, line in enumerate(lines) if line == "Credits"][1]
    counts = {}
    for name, pattern in (("sections", SECTION), ("rules", RULE), ("subrules", SUBRULE)):
        labels = [m.group(1) for line in lines[body:glossary] if (m := pattern.match(line))]
        assert len(labels) == len(set(labels)), f"a {name[:-1]} label repeats"
        counts[name] = len(labels)
    blocks = re.split(r"\n\s*\n", "\n".join(lines[glossary + 1:credits]).strip())
    terms = [block.split("\n", 1)[0] for block in blocks]
    print(f"numbered_units = {sum(counts.values())}  # {counts}")
    print(f"glossary_terms = {len(terms)}")
    if verbose:
        print("first terms:", terms[:5], "…", "last:", terms[-3:])
        print("terms from Encounter on:", len(terms) - terms.index("Encounter"))


if __name__ == "__main__":
    main(sys.argv[1:])
