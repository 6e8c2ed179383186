"""One answer on every surface: the web page, the JSON API, `rulings ask` and Datasette's "Search rulings" query
show every development question the same answer, asked without a game as a shared link asks it: the same outcome
in the same words, the same rulings in the same order, in the same rule families. Each surface is read as a judge
reads it (the page's HTML, the command's text, the query's rows), not from the object they share.

They are asked of the library the browser tests serve (`editions_db`: the seeds and the three editions of the Lorcana
comprehensive rules, vectors and all): the questions on its games are answered, the others are closest or not
covered there, so every outcome and every kind of group is compared. (A library of all seven documents the corpus
questions are about took 3.5 minutes to embed, a third of the suite, for no case this one lacks.)"""
from __future__ import annotations

import asyncio
import html
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest
from click.testing import CliRunner

from service.app import create_app
from service.browse import APP_URL, datasette
from service.cli import cli
from support import EVAL

TESTS = Path(__file__).resolve().parent
QUESTION_FILES = (TESTS / "dev_questions.jsonl", TESTS / "uncovered_questions.jsonl", TESTS / "offtopic_questions.jsonl",
                  EVAL / "dev_questions.jsonl", EVAL / "corpora_dev_questions.jsonl",
                  EVAL / "uncovered_dev_questions.jsonl")
LABELS = {"Closest rulings — check them": "closest", "Not covered": "not-covered"}


def development_questions() -> list[str]:
    """Every development question, in file order (261 when ../shared/eval is beside the clone)."""
    return [json.loads(line)["question"] for path in QUESTION_FILES if path.exists()
            for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


class ResultsPage(HTMLParser):
    """The answer on the web page: its outcome (the results section's class), its claim (the outcome note) and its
    groups, each top-level item of a results list with the rulings (articles) inside it."""

    def __init__(self):
        super().__init__()
        self.outcome, self.said, self.groups = None, None, []
        self.depth, self.list_depth, self.note = 0, None, None

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        classes = (attrs.get("class") or "").split()
        if tag == "section" and "results" in classes:
            self.outcome = next(c.removeprefix("outcome-") for c in classes if c.startswith("outcome-"))
        elif tag == "p" and "outcome-note" in classes:
            self.note = ""
        elif tag == "ol" and "results" in classes:
            self.list_depth = self.depth
        elif tag == "li" and self.list_depth is not None and self.depth == self.list_depth + 1:
            self.groups.append([])
        elif tag == "article" and "ruling" in classes and self.list_depth is not None:
            self.groups[-1].append(attrs["id"])
        if tag not in ("br", "input", "img", "meta", "link"):
            self.depth += 1

    def handle_endtag(self, tag):
        if tag not in ("br", "input", "img", "meta", "link"):
            self.depth -= 1
        if tag == "ol" and self.depth == self.list_depth:
            self.list_depth = None
        elif tag == "p" and self.note is not None:
            self.said, self.note = self.note, None

    def handle_data(self, data):
        if self.note is not None:
            self.note += data


def on_the_web(client, question: str) -> dict:
    page = ResultsPage()
    page.feed(client.get("/", query_string={"q": question}).get_data(as_text=True))
    said = page.said and page.said.removesuffix(" Try other words or another game.")
    return {"outcome": page.outcome, "said": said, "groups": page.groups}


def from_the_api(client, question: str) -> dict:
    answer = client.get("/api/search", query_string={"q": question}).get_json()
    return {"outcome": answer["outcome"], "said": answer["said"], "groups": [g["ids"] for g in answer["groups"]]}


RULING = re.compile(r"  \[([^\]]+)\](?: \(|$)")


def on_the_command_line(db: Path, question: str) -> dict:
    """`rulings ask`'s text: its first line names the outcome and says its claim; the first ruling, in full, leads
    the first group with the others under its parent rule ("Also under"); after "Also relevant" or "The next
    closest", a ruling alone or a family's heading at two spaces, a family's members at four."""
    run = CliRunner().invoke(cli, ["ask", question, "--db", str(db)])
    assert run.exit_code in (0, 1), run.output
    lines = run.output.splitlines()
    label, _, said = lines[0].partition(". ")
    outcome = LABELS.get(label, "answer")
    groups, part = [], "before"
    for line in lines:
        found = RULING.search(line)
        if part == "before" and found and not line.startswith("Under "):
            groups, part = [[found.group(1)]], "first"
        elif line.startswith("Also under "):
            part = "family"
        elif line in ("Also relevant:", "The next closest:"):
            part = "rest"
        elif part == "family" and found:
            groups[0].append(found.group(1))
        elif part == "rest" and re.match(r"  [-*] ", line):
            groups.append([found.group(1)])
        elif part == "rest" and re.match(r"  \S", line):  # a family's heading: its members follow
            groups.append([])
        elif part == "rest" and found:
            groups[-1].append(found.group(1))
    return {"outcome": outcome, "said": said if outcome != "answer" else None, "groups": groups}


def in_datasette(ds, question: str) -> dict:
    """The "Search rulings" query's rows: the outcome and its claim on the first row; a family's members are the
    consecutive rows under one parent rule (`under`)."""
    rows = asyncio.run(ds.client.get("/rulings/search.json", params={"q": question, "game": "", "k": "",
                                                                     "_shape": "array"})).json()
    groups, under = [], None
    for row in rows:
        ruling_id = row["link"].removeprefix(f"{APP_URL}/r/")
        if row["under"] and row["under"] == under:
            groups[-1].append(ruling_id)
        else:
            groups.append([ruling_id])
        under = row["under"]
    return {"outcome": rows[0]["outcome"], "said": rows[0]["said"] or None, "groups": groups}


@pytest.fixture(scope="module")
def surfaces(editions_db):
    client, ds = create_app(editions_db).test_client(), datasette(editions_db)
    return {"web": lambda q: on_the_web(client, q), "api": lambda q: from_the_api(client, q),
            "cli": lambda q: on_the_command_line(editions_db, q), "datasette": lambda q: in_datasette(ds, q)}


def test_every_development_question_gets_one_answer_on_all_four_surfaces(surfaces):
    questions = development_questions()
    assert len(questions) == 261
    differ, outcomes, families = [], set(), 0
    for question in questions:
        shown = {name: read(question) for name, read in surfaces.items()}
        if any(found != shown["api"] for found in shown.values()):
            differ.append((question, shown))
        outcomes.add(shown["api"]["outcome"])
        families += any(len(group) > 1 for group in shown["api"]["groups"])
    assert not differ, f"{len(differ)} of {len(questions)} questions differ, e.g. {html.unescape(str(differ[0]))}"
    assert outcomes == {"answer", "closest", "not-covered"} and families  # every case compared
