"""Helpers the tests and the benchmarks share, never shipped in the package: the checkout's own files, our
servers as child processes (`servers`), a bounded HTTP load (`load`), cross-validation of a ranking constant
(`tuning`), documents measured against a reader's facts (`structure_facts`). Tests import it as `support`
(pytest puts tests/ on sys.path); benchmarks put tests/ there first."""
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REPO_DB = ROOT / "rulings.db"  # the committed database
REPO_MANIFEST = ROOT / "sources" / "sources.toml"
CORPORA = ROOT.parent / "shared" / "corpora"  # real documents nobody here wrote, beside the clone (may be absent)
EVAL = ROOT.parent / "shared" / "eval"  # the development questions on them (may be absent)
# The Lorcana comprehensive rules in three editions (CORPORA/<LORCANA_RULES>-<edition>.pdf), oldest first.
LORCANA_RULES = "lorcana-comprehensive-rules"
LORCANA_EDITIONS = ("2024-08-09", "2025-02-28", "2025-10-31")
