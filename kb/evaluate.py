"""Measuring search: recall@1, recall@5, MRR, how often it answers and how often an answer is right, latency.

Questions come from a JSON-lines file, one `{"id", "question", "expect": [phrases]}` a line (and optionally
"game", which is not given to the search: questions must find their game themselves). A result is correct
when its text or one of its examples, whitespace-normalised and case-folded, contains any expected phrase.
A question without `expect` is one nothing in the knowledge base should answer (an off-topic set): it
counts towards `unanswered_rate` only. A file holds one kind or the other, so a forgotten `expect` is an
error rather than a silently off-topic question.
"""
from __future__ import annotations

import json
import sqlite3
import statistics
import time
from collections.abc import Callable
from pathlib import Path

from kb.answered import NOT_COVERED
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
    questions, first_line = [], None
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise EvalFileError(f"{path}:{number}: not JSON ({exc.msg})") from None
        if not isinstance(item, dict) or not isinstance(item.get("question"), str) or not item["question"].strip():
            raise EvalFileError(f"{path}:{number}: needs a non-empty 'question'")
        if "expect" in item:
            expect = item["expect"]
            if not isinstance(expect, list) or not expect or not all(isinstance(p, str) and p.strip() for p in expect):
                raise EvalFileError(f"{path}:{number}: 'expect' must be a non-empty list of phrases")
        if questions and ("expect" in item) != ("expect" in questions[0]):
            here, there = ("given", "missing") if "expect" in item else ("missing", "given")
            raise EvalFileError(f"{path}:{number}: 'expect' {here} here but {there} on line {first_line}: "
                                "every question of a file has expected phrases, or none has (off-topic)")
        first_line = first_line or number
        questions.append(item)
    if not questions:
        raise EvalFileError(f"{path}: no questions")
    return questions


def is_correct(result: dict, expect: list[str]) -> bool:
    """Does the ruling (its text or an example) contain one of the expected phrases?"""
    haystacks = [_normal(result["text"])] + [_normal(e) for e in result["examples"]]
    return any(_normal(phrase) in hay for phrase in expect for hay in haystacks)


def first_correct(results: list[dict], expect: list[str]) -> int | None:
    """The 1-based rank of the first correct result, or None when none is."""
    return next((n for n, r in enumerate(results, start=1) if is_correct(r, expect)), None)


def _percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]


def judge(conn: sqlite3.Connection, item: dict, mode: str = "hybrid", k: int = 10) -> dict:
    """One question asked and judged: `{"id", "answerable", "rank", "outcome", "answered", "got", "ms"}`.

    `answerable` is whether the question has `expect`; `rank` is that of the first correct ruling within
    the top `k` (None when none is, and always for an off-topic question); `got` is the first ruling's id.
    """
    start = time.perf_counter()
    answer = ask(conn, item["question"], k=k, mode=mode)
    ms = (time.perf_counter() - start) * 1000
    answerable = "expect" in item
    return {"id": item.get("id"), "answerable": answerable,
            "rank": first_correct(answer["results"], item["expect"]) if answerable else None,
            "outcome": answer["outcome"], "answered": answer["answered"], "got": answer["results"][0]["id"] if answer["results"] else None,
            "ms": ms}


def _share(items: list[dict], test: Callable[[dict], bool]) -> float | None:
    return round(sum(1 for item in items if test(item)) / len(items), 4) if items else None


def summarise(outcomes: list[dict]) -> dict:
    """The figures of judged questions (see `evaluate`); a rate with nothing to count is None."""
    answerable = [o for o in outcomes if o["answerable"]]
    answered = [o for o in answerable if o["answered"]]
    times = [o["ms"] for o in outcomes]
    return {
        "n": len(outcomes),
        "recall@1": _share(answerable, lambda o: o["rank"] == 1),
        "recall@5": _share(answerable, lambda o: o["rank"] is not None and o["rank"] <= 5),
        "mrr": round(sum(1 / o["rank"] for o in answerable if o["rank"]) / len(answerable), 4)
        if answerable else None,
        "answered_rate": _share(answerable, lambda o: o["answered"]),
        "answered_precision": _share(answered, lambda o: o["rank"] == 1),
        "unanswered_rate": _share([o for o in outcomes if not o["answerable"]], lambda o: not o["answered"]),
        # Answerable questions told the documents don't cover them (false), and unanswerable ones (true).
        "not_covered_rate": _share(answerable, lambda o: o["outcome"] == NOT_COVERED),
        "not_covered_unanswerable": _share([o for o in outcomes if not o["answerable"]],
                                           lambda o: o["outcome"] == NOT_COVERED),
        "p50_ms": round(statistics.median(times), 2) if times else None,
        "p95_ms": round(_percentile(times, 0.95), 2) if times else None,
        # A miss: an answerable question whose first ruling is not right, or an off-topic one answered.
        "misses": [{key: o[key] for key in ("id", "answerable", "rank", "outcome", "answered", "got")}
                   for o in outcomes if (o["rank"] != 1 if o["answerable"] else o["answered"])],
    }


def evaluate(conn: sqlite3.Connection, questions: list[dict], mode: str = "hybrid", k: int = 10) -> dict:
    """The figures of `mode` over `questions`: `{"n", "recall@1", "recall@5", "mrr", "answered_rate",
    "answered_precision", "not_covered_rate", "unanswered_rate", "not_covered_unanswerable", "p50_ms", "p95_ms",
    "misses"}`.

    Recall, MRR and the answered figures count the questions with `expect`: `answered_rate` is the share
    marked answered, `answered_precision` the share of those whose first ruling is right (None when none is
    answered). `not_covered_rate` is the share labelled "not covered" (wrongly: they are covered).
    `unanswered_rate` is the share of questions without `expect` left unanswered, `not_covered_unanswerable` the
    share of those labelled "not covered" (None when there are none). MRR counts the first correct ruling within the top `k`. The first question is run once
    before timing so that loading the index and the model does not count as a query's latency.
    """
    ask(conn, questions[0]["question"], k=k, mode=mode)
    return summarise([judge(conn, item, mode, k) for item in questions])
