"""What words look like in running text: a word, a hyphenated or broken word, a doubled one, stray spaces and
control characters, glyphs a conversion left, names and acronyms in a title, a spell's type and use (`ingest.clean`,
`text`, `titles`, `spells`, `editions` read words by these)."""
from __future__ import annotations

import re

# What a unit says, as words: case and punctuation aside ("challenges." is "challenges" followed by more).
WORD_CHARS = re.compile(r"\w+")
