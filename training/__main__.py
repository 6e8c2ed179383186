"""Reproduce the trained models: `python -m training library|pairs|train|encoder`.

    python -m training library [--corpora ../shared/corpora] [--out build/training/library.db]
    python -m training pairs [--library ...] [--out build/training/pairs.jsonl]
    python -m training train [--library ...] [--out build/training/model] [--exclude GAME ...]
    python -m training encoder [--library build/training/questions-vectors.db] [--out build/training/encoder]
                               [--ship]

`library` ingests the project's sources and every document of the corpora into one database; `pairs` writes the
pairs mined from it (each with its kind, game and source: their provenance); `train` fine-tunes the packaged
model on them with a fixed seed and exports it to ONNX (fp32 and int8) beside the weights.

`encoder` trains the question encoder that ships (`training.encoder`) on every answerable question of the question
corpus (training/questions; the held-out ones never), against a library of the corpus's documents with vectors
(`python -m training.questions library --vectors --out build/training/questions-vectors.db`), and exports it to
ONNX; `--ship` puts its int8 export and its training record in kb/encoder/, where search reads it.
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
    parser.add_argument("step", choices=("library", "pairs", "train", "encoder"))
    parser.add_argument("--corpora", type=Path, default=SHARED / "corpora")
    parser.add_argument("--questions", type=Path, default=SHARED / "eval" / "corpora_dev_questions.jsonl",
                        help="read for the games of the documents they cover, never for their questions")
    parser.add_argument("--library", type=Path, default=BUILD / "library.db")
    parser.add_argument("--out", type=Path)
    parser.add_argument("--exclude", action="append", default=[], help="a game left out of training")
    parser.add_argument("--ship", action="store_true", help="encoder: install the export in kb/encoder/")
    args = parser.parse_args(argv)
    if args.step == "encoder":
        from training.encoder import ship
        library = args.library if args.library != BUILD / "library.db" else BUILD / "questions-vectors.db"
        if not library.is_file():
            parser.error(f"{library}: no library with vectors there; build it with `python -m training.questions "
                         f"library --vectors --out {library}`")
        print(json.dumps(ship(library, args.out or BUILD / "encoder", install=args.ship,
                              log=lambda m: print(m, file=sys.stderr))))
        return

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
