"""Generated rulebooks of a chosen size, for the tests and benchmarks of pages over a big source: markdown with
numbered sections (`## 12. Section 12`), each holding numbered rules (`12.1 …`) that refer to the rule before."""
from __future__ import annotations

import random

# Words of a card game's rules, for rules that read like rules and are not all alike (search and diffs see them).
WORDS = ("attack defend card player turn phase damage resolve ability target discard draw exert ready quest "
         "challenge banish character location item song ink cost lore strength willpower deck hand").split()


def sectioned_rulebook(sections: int, rules: int = 1, seed: int = 0) -> str:
    """A markdown rulebook of `sections` numbered sections, each of `rules` numbered rules of 20-30 words; every
    rule after the first refers to the one before it ("See 11.1.")."""
    pick = random.Random(seed)
    out = [f"# Generated rules of {sections} sections", ""]
    for section in range(1, sections + 1):
        out += [f"## {section}. Section {section}", ""]
        for rule in range(1, rules + 1):
            words = " ".join(pick.choice(WORDS) for _ in range(pick.randint(20, 30)))
            before = f" See {section - 1}.{rules}." if section > 1 and rule == 1 else ""
            out += [f"{section}.{rule} {words.capitalize()}.{before}", ""]
    return "\n".join(out)
