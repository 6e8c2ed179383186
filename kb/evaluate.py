"""Measuring search: recall@1, recall@5, MRR and latency over a JSON-lines file of questions.

Each line is `{"id", "question", "expect": [phrases]}` (and optionally "game", which is not given to the
search: questions must find their game themselves). A result is correct when its text or one of its
examples, whitespace-normalised and case-folded, contains any expected phrase.
"""
from __future__ import annotations

import json
import sqlite3
import statistics
import time
from pathlib import Path

from kb.search import ask


class EvalFileError(ValueError):
    """The questions file is missing or has a malformed line (the message names file and line)."""


def _normal(text: str) -> str:
    return " ".join(text.casefold().split())


def load_questions(path: Path) -> list[dict]:
    """The questions of a JSON-lines file; EvalFileError names the file and line of a bad entry."""
    try:
        lines = Path(path).read_text(encoding="utf-8").splitlines()
    except (FileNotFoundError, UnicodeDecodeError) as exc:
        raise EvalFileError(f"{path}: cannot read questions ({exc})") from None
    questions = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EvalFileError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(item, dict) or not isinstance(item.get("question"), str) or not item["question"].strip():
            raise EvalFileError(f"{path}:{number}: needs a non-empty 'question'")
        expect = item.get("expect")
        if not isinstance(expect, list) or not expect or not all(isinstance(p, str) and p.strip() for p in expect):
            raise EvalFileError(f"{path}:{number}: 'expect' must be a non-empty list of phrases")
        questions.append(item)
    if not questions:
        raise EvalFileError(f"{path}: no questions")
    return questions


def is_correct(result: dict, expect: list[str]) -> bool:
    """Does the ruling (its text or an example) contain one of the expected phrases?"""
    haystacks = [_normal(result["text"])] + [_normal(e) for e in result["examples"]]
    return any(_normal(phrase) in hay for phrase in expect for hay in haystacks)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def evaluate(conn: sqlite3.Connection, questions: list[dict], mode: str = "hybrid", k: int = 10) -> dict:
    """`{"n", "recall@1", "recall@5", "mrr", "p50_ms", "p95_ms", "misses"}` of `mode` over `questions`.

    MRR counts the first correct ruling within the top `k`. The first question is run once before
    timing so that loading the index and the model does not count as a query's latency.
    """
    ask(conn, questions[0]["question"], k=k, mode=mode)
    ranks, times, misses = [], [], []
    for item in questions:
        start = time.perf_counter()
        answer = ask(conn, item["question"], k=k, mode=mode)
        times.append((time.perf_counter() - start) * 1000)
        rank = next((n for n, r in enumerate(answer["results"], start=1) if is_correct(r, item["expect"])), None)
        ranks.append(rank)
        if rank != 1:
            misses.append({"id": item.get("id"), "rank": rank,
                           "got": answer["results"][0]["id"] if answer["results"] else None})
    n = len(questions)
    return {
        "n": n,
        "recall@1": round(sum(1 for r in ranks if r == 1) / n, 4),
        "recall@5": round(sum(1 for r in ranks if r and r <= 5) / n, 4),
        "mrr": round(sum(1 / r for r in ranks if r) / n, 4),
        "p50_ms": round(statistics.median(times), 2),
        "p95_ms": round(_percentile(times, 0.95), 2),
        "misses": misses,
    }
