"""The hostile-document corpus of issue 23: crafted files (and devices, a pipe) that once made `rulings add`
run for minutes, take gigabytes or end in a traceback, each in every format where its trick applies.

`corpus(folder)` writes them into `folder` and returns the cases; `run(case, db)` runs `rulings add` on one
as a child process and measures it. The hostile-document test asserts on each outcome and
benchmarks/hostile.py prints them as a table.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import threading
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

from support import ROOT

GAME = "hostile"


@dataclass(frozen=True)
class Case:
    """One hostile document: its name, where it is, and what `rulings add` may answer."""

    name: str
    path: Path
    legitimate: bool = False  # odd but a document: may be added (within the bounds) instead of refused
    says: str = "limit"       # what the one line of a refusal says, besides the file (a regular expression)


@dataclass(frozen=True)
class Outcome:
    """How `rulings add` of a case ended: exit status, wall seconds, peak memory (MB) of the command and the
    processes it waited for, and what it wrote on stderr."""

    case: Case
    status: int
    seconds: float
    peak_mb: float
    stderr: str


def _nested_lists(depth: int) -> str:
    return "<html><body>" + "<ul><li>item" * depth + "</li></ul>" * depth + "</body></html>\n"


def _unclosed_tags(count: int) -> str:
    return "<html><body><h1>Rules</h1>" + "<div><span>A unit moves two squares." * count + "\n"


def _billion_laughs() -> str:
    """YAML whose each alias stands for nine of the previous: 9**9 strings once expanded."""
    lines = ['a: &a ["lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol", "lol"]']
    for one, two in zip("abcdefgh", "bcdefghi"):
        lines.append(f"{two}: &{two} [{', '.join([f'*{one}'] * 9)}]")
    return "\n".join(lines) + "\nquestion: Can it?\nanswer: No.\n"


def _deep_json(depth: int) -> str:
    return "[" * depth + "]" * depth + "\n"


def _deep_qa(depth: int) -> str:
    """Q/A data whose last record sits `depth` groups down."""
    record = '{"question": "Can a unit move twice?", "answer": "No."}'
    return ('{"faq": [' + record + ", " + '{"children": [' * depth + record + "]}" * depth + "]}\n")


def _space_run(spaces: int) -> tuple[str, str, str]:
    """A rule with a run of `spaces` spaces in it, as markdown, HTML and text."""
    gap = " " * spaces
    markdown = f"# Rules\n\n## Movement\n\nA unit moves{gap}two squares.\n\nA unit may not move twice.\n"
    html = (f"<html><body><h1>Rules</h1><h2>Movement</h2><p>A unit moves{gap}two squares.</p>"
            "<p>A unit may not move twice.</p></body></html>\n")
    text = f"1. Movement\n1.1 A unit moves{gap}two squares.\n1.2 A unit may not move twice.\n"
    return markdown, html, text


def _inflating_pdf(pages: int, inflated_mb: int) -> bytes:
    """A PDF of `pages` pages sharing one content stream of a few hundred KB that inflates to `inflated_mb`
    MB of text-showing operators, written by hand (a library would take minutes to write it)."""
    operators = b"BT /F1 12 Tf 72 712 Td (A unit moves two squares.) Tj ET\n"
    content = zlib.compress(operators * (inflated_mb * 2**20 // len(operators)), 9)
    first_page = 5
    kids = " ".join(f"{n} 0 R" for n in range(first_page, first_page + pages))
    objects = [b"<< /Type /Catalog /Pages 2 0 R >>",
               f"<< /Type /Pages /Kids [{kids}] /Count {pages} >>".encode(),
               b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
               f"<< /Length {len(content)} /Filter /FlateDecode >>\nstream\n".encode() + content + b"\nendstream"]
    page = (b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> "
            b"/Contents 4 0 R >>")
    objects += [page] * pages
    out, offsets = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n"), []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += f"{number} 0 obj\n".encode() + body + b"\nendobj\n"
    xref = len(out)
    out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
    out += b"".join(f"{offset:010d} 00000 n \n".encode() for offset in offsets)
    out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
    return bytes(out)


def _nul_bytes() -> bytes:
    """A text rulebook with NUL bytes after its first 8 KB (where sniffing for binary files stops)."""
    rules = "".join(f"{n}. Rule {n}: a unit may move {n} squares.\n" for n in range(1, 400)).encode()
    return rules + b"400. Rule 400: a unit\x00 may\x00\x00 move.\n" + b"\x00" * 64 + b"\n401. The last rule.\n"


def corpus(folder: Path) -> list[Case]:
    """Write the hostile documents into `folder` (a FIFO among them) and return every case, devices too."""
    folder.mkdir(parents=True, exist_ok=True)
    texts = {
        "html-nested-lists-200k.html": _nested_lists(200_000),
        "html-nested-lists-20k.html": _nested_lists(20_000),
        "html-unclosed-tags-80k.html": _unclosed_tags(80_000),
        "html-unclosed-tags-200k.html": _unclosed_tags(200_000),
        "markdown-nested-lists-200k.md": "# Rules\n\n" + "- " * 200_000 + "item\n",
        "markdown-nested-quotes-200k.md": "# Rules\n\n" + ">" * 200_000 + " item\n",
        "markdown-unclosed-tags-80k.md": "# Rules\n\n" + _unclosed_tags(80_000),
        "yaml-billion-laughs.yaml": _billion_laughs(),
        "yaml-billion-laughs.txt": _billion_laughs(),
        "yaml-nested-100k.yaml": "question: Can it?\nanswer: " + "[" * 100_000 + "]" * 100_000 + "\n",
        "json-nested-1m.json": _deep_json(1_000_000),
        "json-nested-1m.txt": _deep_json(1_000_000),
        "json-qa-nested-100k.json": _deep_qa(100_000),
        "json-qa-nested-900.json": _deep_qa(900),
        "text-9mb-one-line.txt": "A unit moves two squares. " * (9 * 2**20 // 26),
    }
    markdown, html, text = _space_run(350_000)
    texts |= {"markdown-350k-spaces.md": markdown, "html-350k-spaces.html": html, "text-350k-spaces.txt": text}
    for name, content in texts.items():
        (folder / name).write_text(content, encoding="utf-8")
    (folder / "pdf-2000-pages-inflating-70mb.pdf").write_bytes(_inflating_pdf(2000, 70))
    (folder / "text-nul-bytes-after-8kb.txt").write_bytes(_nul_bytes())
    fifo = folder / "fifo.txt"
    if not fifo.exists():
        os.mkfifo(fifo)
    legitimate = {"markdown-350k-spaces.md", "html-350k-spaces.html", "text-350k-spaces.txt",
                  "text-9mb-one-line.txt", "text-nul-bytes-after-8kb.txt"}
    cases = [Case(name, folder / name, legitimate=name in legitimate)
             for name in [*texts, "pdf-2000-pages-inflating-70mb.pdf", "text-nul-bytes-after-8kb.txt"]]
    devices = [Case(path.name, path, says="not a regular file|too large")
               for path in (Path("/dev/zero"), Path("/dev/urandom"), fifo)]
    return cases + devices


def run(case: Case, db: Path, timeout: float = 300, env: dict | None = None) -> Outcome:
    """`rulings add` of `case` into `db` as a child process: how it ended, how long it took and its peak memory
    (the largest resident set of it and the processes it waited for: `os.wait4`). Killed past `timeout`."""
    command = [sys.executable, "-m", "service.cli", "add", str(case.path), "--game", GAME, "--db", str(db)]
    errors = db.with_suffix(".stderr")
    start = time.monotonic()
    with open(errors, "wb") as stderr:
        child = subprocess.Popen(command, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=stderr,
                                 env={**os.environ, **(env or {})})
        watchdog = threading.Timer(timeout, child.kill)
        watchdog.start()
        try:
            _, status, usage = os.wait4(child.pid, 0)
        finally:
            watchdog.cancel()
    child.returncode = os.waitstatus_to_exitcode(status)  # reaped here: Popen must not wait for it again
    return Outcome(case, child.returncode, time.monotonic() - start, usage.ru_maxrss / 1024,
                   errors.read_text(encoding="utf-8", errors="replace"))


def names_the_file(outcome: Outcome) -> bool:
    """Whether the one line of a refusal names the case's file."""
    return str(outcome.case.path) in outcome.stderr or outcome.case.path.name in outcome.stderr


def says_the_limit(outcome: Outcome) -> bool:
    return re.search(outcome.case.says, outcome.stderr) is not None
