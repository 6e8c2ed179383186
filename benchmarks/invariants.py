"""The invariants every cut keeps (ingest.invariants, issue 42), on every real document the project has: the
seeds, ../shared/corpora with its structure/ folder, and documents/. Each document is added alone, as
`rulings add FILE --game G` adds it, to a copy of --db (without vectors: structure only), and its audit read.
Where the document has a facts file, it is measured against its facts too (tests/support/structure_facts), and
the row says whether the audit's verdict agrees: "good" on a document whose facts fail is a disagreement.

    python benchmarks/invariants.py [--db rulings.db] [--only NAME]

Prints one Markdown table (a row per document, a column per invariant: the units breaking it), then the
examples behind each count, then the disagreements.
"""
from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

from support import REPO_DB  # noqa: E402
from support.documents import every_document, facts_of, seeds  # noqa: E402
from support.structure_facts import load_facts, measure, targets  # noqa: E402

from ingest.invariants import NAMES  # noqa: E402


def audited(document, base: Path, folder: Path) -> tuple[dict, dict | None]:
    """The document's audit as `rulings add` reports it, and, where it has facts, which targets it meets."""
    import shutil

    from ingest.limits import from_environment
    from kb.build import add_document
    from training.corpus import READ_SECONDS, without_vectors
    db = folder / f"{document.name}.db"
    shutil.copy(base, db)
    with without_vectors():
        report = add_document(db, document.file, document.game, limits=replace(from_environment(),
                                                                               seconds=READ_SECONDS))
    facts = facts_of(document)
    met = targets(measure(db, load_facts(facts))) if facts else None
    db.unlink()
    return report["audit"], met


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--db", type=Path, default=REPO_DB, help="the database each document is added to a copy of")
    parser.add_argument("--only", default="", help="only documents whose name holds this")
    args = parser.parse_args()
    rows, examples, disagreements = [], [], []
    from ingest.report import ingest_report
    for entry, parsed in seeds():
        if args.only in entry.id:
            rows.append((entry.id, ingest_report(entry, parsed)["audit"], None))
    with tempfile.TemporaryDirectory() as folder:
        for document in every_document():
            if args.only in document.name:
                audit, met = audited(document, args.db, Path(folder))
                rows.append((document.name, audit, met))
                print(f"read {document.name}", file=sys.stderr, flush=True)
    print("| document | verdict | " + " | ".join(NAMES) + " | facts |")
    print("|---|---|" + "---|" * len(NAMES) + "---|")
    for name, audit, met in rows:
        counts = {i["name"]: i for i in audit["invariants"]}
        good = audit["verdict"] == "good"
        facts = "–" if met is None else "all met" if all(met.values()) else \
            "fail: " + ", ".join(k for k, v in met.items() if not v)
        print(f"| {name} | {'good' if good else 'poor'} | "
              + " | ".join(str(counts[n]["count"] or "") for n in NAMES) + f" | {facts} |")
        examples += [f"- {name} {n}: {', '.join(counts[n]['examples'][:3])}" for n in NAMES if counts[n]["count"]]
        if good and met is not None and not all(met.values()):
            disagreements.append(name)
    print("\n" + "\n".join(examples))
    print(f"\nThe audit says good where the facts fail: {', '.join(disagreements) or 'never'}.")


if __name__ == "__main__":
    main()
