"""Search on every question set at once: the seed games, each real document of ../shared/corpora added as a
user would add it, the in-domain questions no document covers and the off-topic questions; measured with
everything in one database and with one document at a time; with the cost of each `rulings add` and the
fusion weight chosen by leave-one-set-out cross-validation.

    python benchmarks/corpora.py [--db rulings.db] [--keep DIR] [--json]

Together: a copy of --db gets each document the corpus questions cover (the file of ../shared/corpora whose
stem is the question's `doc`), through `rulings add FILE --game GAME --title TITLE` in a new process: the
game is the questions' `game`, the title comes from the file name, nothing else is set per document. Then,
for each mode, per set (each seed game of tests/dev_questions.jsonl, each corpus document, the uncovered
questions, the off-topic questions) and for all answerable questions pooled: n, recall@1, recall@5, MRR,
answered rate, answered precision, the share labelled "not covered" (the uncovered and off-topic sets: their
unanswered rate and the share labelled "not covered"). The game is
never given to the search. Alone: each document is added to its own copy of --db and its questions asked
there (the seed games on --db itself); each uncovered question is asked of the database holding its game,
and the off-topic questions of every one of those databases. Also: wall time and peak memory of each add,
the warm p50/p95 of `kb.search.ask` on the database with everything added, and for
`kb.fusion.LEXICAL_WEIGHT` the weight chosen on the other sets and its MRR on each held-out set
(`cross_validate` of tests/support/tuning.py). Markdown tables (for docs/search.md), or one JSON object with
--json. --keep DIR keeps the database with everything added as DIR/rulings.db.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT), str(ROOT / "tests")]  # the packages, and the helpers in tests/support

from benchmarks.search import warm_latencies  # noqa: E402
from benchmarks.speed import ENV, RULINGS, snapshot  # noqa: E402
from kb.evaluate import first_correct, judge, load_questions, summarise  # noqa: E402
from kb.fusion import LEXICAL_WEIGHT  # noqa: E402
from kb.search import MODES, ask  # noqa: E402
from kb.store import connect  # noqa: E402
from support.documents import question_documents as documents  # noqa: E402
from support.load import percentile  # noqa: E402
from support.tuning import cross_validate  # noqa: E402

SHARED = ROOT.parent / "shared"
OFF_TOPIC = "off-topic"
UNCOVERED = "uncovered"
# 0, 0.1, ..., 1, and the product's own weight, to compare the choice with it
WEIGHTS = tuple(sorted({n / 10 for n in range(11)} | {LEXICAL_WEIGHT}))
K = 10
COLUMNS = ("n", "recall@1", "recall@5", "mrr", "answered_rate", "answered_precision", "not_covered_rate",
           "unanswered_rate", "not_covered_unanswerable")
# "not covered": answerable questions so labelled (false); "unanswered: not covered": the others so labelled (true)
HEADINGS = ("n", "r@1", "r@5", "MRR", "answered", "precision", "not covered", "unanswered", "unanswered: not covered")


def question_sets(corpus_questions: Path) -> dict[str, list[dict]]:
    """Set name → questions: each seed game of the dev questions, then each corpus document."""
    sets: dict[str, list[dict]] = {}
    for item in load_questions(ROOT / "tests" / "dev_questions.jsonl"):
        sets.setdefault(item["game"], []).append(item)
    for item in load_questions(corpus_questions):
        sets.setdefault(item["doc"], []).append(item)
    ids = [item["id"] for questions in sets.values() for item in questions]
    if len(ids) != len(set(ids)):
        raise SystemExit("question ids repeat across the question files")
    return sets


def unanswerable_sets(eval_dir: Path) -> dict[str, list[dict]]:
    """The sets nothing should answer: in-domain questions no document covers (their `expect`-less lines of
    uncovered_dev_questions.jsonl), and questions about no game in the database at all."""
    return {UNCOVERED: load_questions(eval_dir / "uncovered_dev_questions.jsonl"),
            OFF_TOPIC: load_questions(ROOT / "tests" / "offtopic_questions.jsonl")}


def add(file: Path, game: str, db: Path) -> dict:
    """`rulings add` of one document in a new process: wall seconds, peak resident memory, its report."""
    title = file.stem.replace("_", " ").replace("-", " ")
    title = title[:1].upper() + title[1:]
    command = [str(RULINGS), "add", str(file), "--game", game, "--title", title, "--db", str(db)]
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, cwd=ROOT, env=ENV, stdout=out, stderr=err)
        _, status, usage = os.wait4(process.pid, 0)  # wait4: the rusage of this one child
        seconds = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        out.seek(0)
        err.seek(0)
        stdout, stderr = out.read().decode(errors="replace"), err.read().decode(errors="replace")
    figures = {"document": file.name, "game": game, "title": title, "exit": process.returncode,
               "seconds": round(seconds, 2), "peak_mb": round(usage.ru_maxrss / 1024, 1)}
    if process.returncode:
        return {**figures, "error": stderr.strip()[-2000:]}
    try:
        return {**figures, "report": json.loads(stdout)}
    except json.JSONDecodeError:
        return {**figures, "report": stdout.strip()[-2000:]}


def per_set(conn, sets: dict[str, list[dict]], mode: str) -> dict[str, dict]:
    """Set name → figures (`kb.evaluate.summarise`) in `mode`, and "all" (answerable questions pooled) last."""
    first = next(iter(sets.values()))[0]
    ask(conn, first["question"], k=K, mode=mode)  # load the index and model before timing
    outcomes = {name: [judge(conn, item, mode, K) for item in questions] for name, questions in sets.items()}
    figures = {name: summarise(judged) for name, judged in outcomes.items()}
    figures["all"] = summarise([o for judged in outcomes.values() for o in judged if o["answerable"]])
    return figures


def alone(db: Path, work: Path, corpus_questions: Path, corpora: Path) -> dict:
    """Each document in a database of its own (a copy of `db`, the seeds): per mode, its set there; each
    uncovered question asked of the database holding its game; the off-topic questions of every database."""
    sets = question_sets(corpus_questions)
    unanswerable = unanswerable_sets(corpus_questions.parent)
    databases = {None: db}
    for file, game in documents(corpus_questions, corpora):
        print(f"adding {file.name} alone ...", file=sys.stderr)
        target = snapshot(db, work / f"alone-{file.stem}.db")
        add(file, game, target)
        databases[file.stem] = target
    # A game → the documents holding it (a seed game: the seeds' database, None); an uncovered question is
    # asked of each.
    holders: dict[str, set] = {}
    for questions in sets.values():
        for item in questions:
            holders.setdefault(item["game"], set()).add(item.get("doc"))
    modes = {}
    for mode in MODES:
        print(f"measuring {mode}, one document at a time ...", file=sys.stderr)
        judged: dict[str, list[dict]] = {}
        for doc, path in databases.items():
            conn = connect(path)
            if doc is None:  # the seeds' database: the seed games' sets
                own = {name: questions for name, questions in sets.items() if name not in databases}
            else:
                own = {doc: sets[doc]}
            for name, questions in own.items():
                judged[name] = [judge(conn, item, mode, K) for item in questions]
            judged.setdefault(UNCOVERED, []).extend(
                judge(conn, item, mode, K) for item in unanswerable[UNCOVERED] if doc in holders.get(item["game"], {None}))
            judged.setdefault(OFF_TOPIC, []).extend(judge(conn, item, mode, K) for item in unanswerable[OFF_TOPIC])
            conn.close()
        order = list(sets) + [UNCOVERED, OFF_TOPIC]
        figures = {name: summarise(judged[name]) for name in order}
        figures["all"] = summarise([o for name in sets for o in judged[name]])
        modes[mode] = figures
    return modes


def fusion_ranks(conn, item: dict) -> dict[float, int | None]:
    """Weight → rank of the first correct ruling when `kb.search.ask` fuses at that weight."""
    return {weight: first_correct(ask(conn, item["question"], k=K, weight=weight)["results"], item["expect"])
            for weight in WEIGHTS}


def fusion_weight(conn, sets: dict[str, list[dict]]) -> dict:
    """The fusion weight chosen by leave-one-set-out cross-validation on MRR, with every weight's MRR."""
    ranks = {item["id"]: fusion_ranks(conn, item) for questions in sets.values() for item in questions}

    def mrr(weight: float, questions: list[dict]) -> float:
        return round(statistics.mean(1 / r if (r := ranks[q["id"]][weight]) else 0.0 for q in questions), 4)

    chosen = cross_validate(sets, WEIGHTS, mrr)
    return {**asdict(chosen), "mean_held_out": round(chosen.mean_held_out, 4), "product_weight": LEXICAL_WEIGHT}


def _cell(value) -> str:
    if value is None:
        return "–"
    return str(value) if isinstance(value, int) else f"{value:.3f}"


def markdown(report: dict) -> str:
    """The report as Markdown: adds, a table per mode, latency, the fusion weight's cross-validation."""
    lines = ["### Adding the documents", "", "| document | game | exit | seconds | peak MB |", "|---|---|---|---|---|"]
    lines += [f"| {a['document']} | {a['game']} | {a['exit']} | {a['seconds']:.1f} | {a['peak_mb']:.0f} |"
              for a in report["adds"]]
    lines += [f"\n`{a['document']}` failed: {a['error'].splitlines()[-1] if a['error'] else ''}"
              for a in report["adds"] if a["exit"]]
    for where, title in (("modes", "everything in one database"), ("alone", "one document at a time")):
        for mode, figures in report[where].items():
            lines += ["", f"### {mode}, {title}", "", "| set | " + " | ".join(HEADINGS) + " |",
                      "|---" * (len(HEADINGS) + 1) + "|"]
            lines += [f"| {name} | " + " | ".join(_cell(row[c]) for c in COLUMNS) + " |" for name, row in figures.items()]
    latency = report["latency"]
    lines += ["", f"Warm `kb.search.ask` with everything added: p50 {latency['p50_ms']:.2f} ms, "
              f"p95 {latency['p95_ms']:.2f} ms ({latency['queries']} queries)."]
    fusion = report["fusion_weight"]
    # A report read back from --json has its weights as strings.
    fusion = {**fusion, "scores": {float(w): row for w, row in fusion["scores"].items()}}
    lines += ["", "### Fusion weight (LEXICAL_WEIGHT), leave one set out", "",
              f"| held-out set | chosen on the others | held-out MRR | MRR at {fusion['product_weight']} |",
              "|---|---|---|---|"]
    lines += [f"| {name} | {fusion['chosen'][name]:g} | {score:.3f} | "
              f"{fusion['scores'][fusion['product_weight']][name]:.3f} |" for name, score in fusion["held_out"].items()]
    at_product = fusion["scores"][fusion["product_weight"]]
    product = statistics.mean(at_product.values())
    # The weights are replayed outside `ask`: at the product's weight they must give `ask`'s own MRR.
    astray = [name for name, mrr in at_product.items() if mrr != report["modes"]["hybrid"][name]["mrr"]]
    lines += ["", f"Mean held-out MRR {fusion['mean_held_out']:.3f} (at {fusion['product_weight']}: {product:.3f}); "
              f"best weight on all sets together: {fusion['best']:g}. Replay of `ask` at "
              f"{fusion['product_weight']}: " + (f"differs from it on {', '.join(astray)}." if astray else "same MRR."),
              "",
              "| weight | " + " | ".join(fusion["held_out"]) + " | mean |", "|---" * (len(fusion["held_out"]) + 2) + "|"]
    for weight, row in fusion["scores"].items():
        lines.append(f"| {weight:g} | " + " | ".join(f"{s:.3f}" for s in row.values())
                     + f" | {statistics.mean(row.values()):.3f} |")
    return "\n".join(lines)


def run(db: Path, work: Path, corpus_questions: Path, corpora: Path) -> dict:
    """Copy `db` into `work`, add the documents, measure, together and alone; returns the report."""
    target = snapshot(db, work / "rulings.db")
    adds = []
    for file, game in documents(corpus_questions, corpora):
        print(f"adding {file.name} ...", file=sys.stderr)
        adds.append(add(file, game, target))
    conn = connect(target)
    sets = question_sets(corpus_questions)
    every_set = {**sets, **unanswerable_sets(corpus_questions.parent)}
    modes = {}
    for mode in MODES:
        print(f"measuring {mode} ...", file=sys.stderr)
        modes[mode] = per_set(conn, every_set, mode)
    every = [item for questions in every_set.values() for item in questions]
    times = warm_latencies(conn, every, repeat=3)
    latency = {"queries": len(times), "p50_ms": round(statistics.median(times), 2),
               "p95_ms": round(percentile(times, 95), 2)}
    print("cross-validating the fusion weight ...", file=sys.stderr)
    weight = fusion_weight(conn, sets)
    conn.close()
    return {"adds": adds, "modes": modes, "alone": alone(db, work, corpus_questions, corpora), "latency": latency,
            "fusion_weight": weight}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--db", type=Path, default=ROOT / "rulings.db", help="the database to start from")
    parser.add_argument("--keep", type=Path, help="build in this folder and keep its rulings.db")
    parser.add_argument("--questions", type=Path, default=SHARED / "eval" / "corpora_dev_questions.jsonl")
    parser.add_argument("--corpora", type=Path, default=SHARED / "corpora")
    parser.add_argument("--json", action="store_true", help="print one JSON object instead of Markdown")
    args = parser.parse_args()
    if args.keep and (args.keep / "rulings.db").exists():
        raise SystemExit(f"{args.keep / 'rulings.db'} exists; --keep needs a folder without one")
    with tempfile.TemporaryDirectory() as scratch:
        report = run(args.db, args.keep or Path(scratch), args.questions, args.corpora)
    print(json.dumps(report, indent=2) if args.json else markdown(report))


if __name__ == "__main__":
    main()
