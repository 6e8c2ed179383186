"""Reading a large Word FAQ: seconds and paragraphs per second of `ingest.formats.read` on a .docx.

    python benchmarks/docx_reader.py [--sections 100]

Builds with python-docx a league FAQ of `--sections` Heading 1 sections, each of ten bold questions over their
answers, five numbered rules (List Number) and two bullets (List Bullet), then reads it three times and prints
the best time (a busy machine only slows a run down).
"""
from __future__ import annotations

import argparse
import sys
import tempfile
import time
from pathlib import Path

import docx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from ingest.formats import read  # noqa: E402


def faq(path: Path, sections: int) -> Path:
    """A Word FAQ of `sections` sections."""
    document = docx.Document()
    document.add_paragraph("Harbor Lights League FAQ", style="Title")
    for section in range(1, sections + 1):
        document.add_heading(f"Section {section}", level=1)
        for question in range(1, 11):
            document.add_paragraph().add_run(f"Q: Can a ship in zone {section}.{question} move through a storm?").bold = True
            document.add_paragraph(f"A: No. It stops in the sea zone before the storm, as rule {section}.{question} says.")
        for rule in range(1, 6):
            document.add_paragraph(f"Rule {rule} of section {section}: each player draws a card.", style="List Number")
        for bullet in range(1, 3):
            document.add_paragraph(f"A note {bullet} on section {section}.", style="List Bullet")
    document.save(path)
    return path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sections", type=int, default=100)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = faq(Path(folder) / "faq.docx", args.sections)
        best = float("inf")
        for _ in range(3):
            start = time.perf_counter()
            document = read(path)
            best = min(best, time.perf_counter() - start)
        paragraphs = document.original.count("\n")
        print(f"{path.stat().st_size / 1024:.0f} KB, {paragraphs:,} paragraphs: read in {best:.2f} s "
              f"({paragraphs / best:,.0f} paragraphs/s)")


if __name__ == "__main__":
    main()
