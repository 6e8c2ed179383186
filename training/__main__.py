"""Reproduce the retrieval model from the documents: `python -m training library|pairs|train`.

    python -m training library [--corpora ../shared/corpora] [--out build/training/library.db]
    python -m training pairs [--library ...] [--out build/training/pairs.jsonl]
    python -m training train [--library ...] [--out build/training/model] [--exclude GAME ...]

`library` ingests the project's sources and every document of the corpora into one database; `pairs` writes the
pairs mined from it (each with its kind, game and source: their provenance); `train` fine-tunes the packaged
model on them with a fixed seed and exports it to ONNX (fp32 and int8) beside the weights.
"""
from __future__ import annotations

import argparse
import json
import sys
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SHARED = ROOT.parent / "shared"
BUILD = ROOT / "build" / "training"


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m training", description=__doc__.splitlines()[0])
    parser.add_argument("step", choices=("library", "pairs", "train"))
    parser.add_argument("--corpora", type=Path, default=SHARED / "corpora")
    parser.add_argument("--questions", type=Path, default=SHARED / "eval" / "corpora_dev_questions.jsonl",
                        help="read for the games of the documents they cover, never for their questions")
    parser.add_argument("--library", type=Path, default=BUILD / "library.db")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--exclude", action="append", default=[], help="a game left out of training")
    args = parser.parse_args(argv)

    from kb.store import connect
    from training.pairs import mine
    if args.step == "library":
        from training.corpus import build, library
        build(ROOT / "rulings.db", args.out or args.library, library(args.corpora, args.questions))
        return
    if not args.library.is_file():
        parser.error(f"{args.library}: no training library there; build it with `python -m training library`")
    conn = connect(args.library)
    pairs = mine(conn, exclude_games=frozenset(args.exclude))
    conn.close()
    if args.step == "pairs":
        out = args.out or BUILD / "pairs.jsonl"
        out.parent.mkdir(parents=True, exist_ok=True)
        out.write_text("".join(json.dumps(asdict(p)) + "\n" for p in pairs))
        print(f"{len(pairs)} pairs → {out}", file=sys.stderr)
        return
    from kb.onnx_embedder import model_dir
    from training.model import export_quantized
    from training.train import train
    out = args.out or BUILD / "model"
    print(json.dumps(train(pairs, model_dir(), out, log=lambda m: print(m, file=sys.stderr))))
    print(json.dumps({str(k): str(v) for k, v in export_quantized(out).items()}))


if __name__ == "__main__":
    main()
