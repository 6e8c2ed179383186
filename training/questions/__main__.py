"""The question corpus's commands: `python -m training.questions library|dump|check`.

    python -m training.questions library [--vectors] [--out build/training/questions.db]
    python -m training.questions dump --out DIR
    python -m training.questions check [FILE ...]      (default: every file of the corpus)

`library` ingests the corpus's documents (documents.toml) into one database; `dump` writes each document's
rulings as text; `check` holds each question file to its kind's rules and prints, per file and for the
corpus, the word overlap of questions with their answers beside the reference questions' (../shared/eval).
Exit 1 when a file has errors.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from training.questions import (HERE, KINDS, Library, QuestionFileError, build_library, check_file,
                                distribution, dump, reference_overlaps)

ROOT = HERE.parent.parent
SHARED = ROOT.parent / "shared"
LIBRARY = ROOT / "build" / "training" / "questions.db"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.questions", description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("library", "dump", "check"))
    parser.add_argument("files", nargs="*", type=Path)
    parser.add_argument("--library", type=Path, default=LIBRARY)
    parser.add_argument("--corpora", type=Path, default=SHARED / "corpora")
    parser.add_argument("--eval", type=Path, default=SHARED / "eval", help="the reference questions")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--vectors", action="store_true", help="embed the passages (to search the library)")
    args = parser.parse_args(argv)

    if args.step == "library":
        build_library(ROOT / "rulings.db", args.out or args.library, args.corpora, args.vectors)
        return 0
    if not args.library.is_file():
        parser.error(f"{args.library}: no library there; build it with `python -m training.questions library`")
    from kb.store import connect
    library = Library(connect(args.library))
    if args.step == "dump":
        if not args.out:
            parser.error("dump needs --out DIR")
        print(f"{len(dump(library, args.out))} documents → {args.out}", file=sys.stderr)
        return 0
    files = args.files or sorted(p for kind in KINDS for p in (HERE / kind).glob("*.jsonl"))
    reference = distribution(reference_overlaps(library, args.eval))
    failed, pooled = False, []
    for path in files:
        try:
            report = check_file(library, path)
        except QuestionFileError as error:
            print(f"ERROR {error}")
            failed = True
            continue
        failed |= bool(report["errors"])
        pooled += report["overlaps"]
        for line in report["errors"]:
            print(f"ERROR {path.name}: {line}")
        for line in report["warnings"]:
            print(f"warning {path.name}: {line}")
        print(f"{path}: {report['n']} {report['kind']} questions, {len(report['errors'])} errors, "
              f"{len(report['warnings'])} warnings; overlap median {report['overlap_median']} "
              f"(target: at most {reference.get('median')}); styles {json.dumps(report['styles'])}")
    if pooled:
        print(f"overlap with the answering ruling: these files {json.dumps(distribution(pooled))}; "
              f"reference questions {json.dumps(reference)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
