"""The hostile-document corpus of issue 23: crafted files (and devices, a pipe) that once made `rulings add`
run for minutes, take gigabytes or end in a traceback, each in every format where its trick applies.

`write(folder)` writes them into `folder` and returns the cases; `run(case, db)` runs `rulings add` on one
as a child process and measures it. The hostile-document test asserts on each outcome and
benchmarks/hostile.py prints them as a table.
"""
from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
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


def _spaced(template: str) -> str:
    """`template` with its {gap} a run of 350,000 spaces (inside a rule)."""
    return template.replace("{gap}", " " * 350_000)


def _inflating_pdf(pages: int, inflated_mb: int) -> bytes:
    """A PDF of `pages` pages sharing one content stream of a few hundred KB that inflates to `inflated_mb`
    MB of text-showing operators (under pypdf's caps on one stream), written by hand (fast, unlike a library)."""
    # Long strings: few tokens, so that each page stays within pypdf's own budget of tokens per stream.
    operators = b"BT /F1 12 Tf 72 712 Td (" + b"A unit moves two squares. " * 400 + b") Tj ET\n"
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


_ODT_NS = ('xmlns:office="urn:oasis:names:tc:opendocument:xmlns:office:1.0" '
           'xmlns:text="urn:oasis:names:tc:opendocument:xmlns:text:1.0"')


def _odt(content: bytes | None = None, inflated_mb: int = 0) -> bytes:
    """An OpenDocument text whose content.xml is `content`, or the opening of one padded with spaces that inflate
    to `inflated_mb` MB (a few hundred KB in the file)."""
    import io
    import zipfile
    data = io.BytesIO()
    with zipfile.ZipFile(data, "w", compression=zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(zipfile.ZipInfo("mimetype"), "application/vnd.oasis.opendocument.text")
        with archive.open("content.xml", "w") as part:
            part.write(content or f"<office:document-content {_ODT_NS}>".encode())
            for _ in range(inflated_mb):
                part.write(b" " * 2**20)
    return data.getvalue()


def _odt_laughs() -> bytes:
    """content.xml whose entities each stand for ten of the previous: 10**9 "lol"s once expanded."""
    entities = '<!ENTITY l0 "lol">' + "".join(f'<!ENTITY l{n} "{f"&l{n - 1};" * 10}">' for n in range(1, 10))
    return _odt(f'<?xml version="1.0"?><!DOCTYPE d [{entities}]><office:document-content {_ODT_NS}><office:body>'
                f'<office:text><text:p>&l9;</text:p></office:text></office:body></office:document-content>'.encode())


def _with_a_rule(markdown: str) -> str:
    return "# Rules\n\n## Movement\n\nA unit moves two squares.\n\n" + markdown


# Every crafted document: its file name (saying the trick and the format) and how to write it.
_DOCUMENTS = {
    "html-nested-lists-200k.html": lambda: _nested_lists(200_000),
    "html-nested-lists-20k.html": lambda: _nested_lists(20_000),
    "html-unclosed-tags-80k.html": lambda: _unclosed_tags(80_000),
    "html-unclosed-tags-200k.html": lambda: _unclosed_tags(200_000),
    "markdown-nested-lists-200k.md": lambda: _with_a_rule("- " * 200_000 + "item\n"),
    "markdown-nested-quotes-200k.md": lambda: _with_a_rule(">" * 200_000 + " item\n"),
    "markdown-unclosed-tags-80k.md": lambda: _with_a_rule(_unclosed_tags(80_000)),
    "yaml-billion-laughs.yaml": _billion_laughs,
    "yaml-billion-laughs.txt": _billion_laughs,
    "yaml-nested-100k.yaml": lambda: "question: Can it?\nanswer: " + "[" * 100_000 + "]" * 100_000 + "\n",
    "json-nested-1m.json": lambda: _deep_json(1_000_000),
    "json-nested-1m.txt": lambda: _deep_json(1_000_000),
    "json-qa-nested-100k.json": lambda: _deep_qa(100_000),
    "json-qa-nested-900.json": lambda: _deep_qa(900),
    "markdown-350k-spaces.md": lambda: _spaced("# Rules\n\n## Movement\n\nA unit moves{gap}two squares.\n\n"
                                               "A unit may not move twice.\n"),
    "html-350k-spaces.html": lambda: _spaced("<html><body><h1>Rules</h1><h2>Movement</h2><p>A unit moves{gap}two "
                                             "squares.</p><p>A unit may not move twice.</p></body></html>\n"),
    "text-350k-spaces.txt": lambda: _spaced("1. Movement\n1.1 A unit moves{gap}two squares.\n"
                                            "1.2 A unit may not move twice.\n"),
    "text-9mb-one-line.txt": lambda: "A unit moves two squares. " * (9 * 2**20 // 26),
    "text-nul-bytes-after-8kb.txt": _nul_bytes,
    "pdf-2000-pages-inflating-70mb.pdf": lambda: _inflating_pdf(2000, 70),
    "odt-inflating-400mb.odt": lambda: _odt(inflated_mb=400),
    "odt-billion-laughs.odt": _odt_laughs,
    "rtf-nested-groups-200k.rtf": lambda: "{\\rtf1 " + "{" * 200_000 + "Roll." + "}" * 200_001,
}
# Odd but documents, which may be added: markdown-it stops nesting at its own depth and reads the rest as
# text; a long run of spaces, one long line or stray NULs spoil no rule.
_LEGITIMATE = {"markdown-nested-lists-200k.md", "markdown-nested-quotes-200k.md", "markdown-350k-spaces.md",
               "html-350k-spaces.html", "text-350k-spaces.txt", "text-9mb-one-line.txt",
               "text-nul-bytes-after-8kb.txt"}
FIFO = "fifo.txt"  # a named pipe no one writes to
DEVICES = (Path("/dev/zero"), Path("/dev/urandom"))


# What a refusal says when it is for what the document holds rather than for a limit of ingest.limits.
_SAYS = {"text-nul-bytes-after-8kb.txt": "limit|NUL|binary", "odt-billion-laughs.odt": "entities",
         "text-9mb-one-line.txt": r"limit|more than [\d,]+ characters"}


def cases(folder: Path) -> list[Case]:
    """Every case, its documents in `folder` (`write` puts them there)."""
    return ([Case(name, folder / name, legitimate=name in _LEGITIMATE, says=_SAYS.get(name, "limit"))
             for name in _DOCUMENTS]
            + [Case(path.name, path, says="not a regular file|too large") for path in (*DEVICES, folder / FIFO)])


def write(folder: Path) -> list[Case]:
    """Write the hostile documents (and the FIFO) into `folder`; returns `cases(folder)`."""
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in _DOCUMENTS.items():
        made = content()
        (folder / name).write_bytes(made if isinstance(made, bytes) else made.encode("utf-8"))
    if not (folder / FIFO).exists():
        os.mkfifo(folder / FIFO)
    return cases(folder)


# A process's peak memory (ru_maxrss) starts at the high-water mark of the process it was forked from, so a
# test process of hundreds of MB would count in every command it runs: a small Python forks the command,
# waits for it and writes the largest resident set of it and its descendants (wait4) to the file it is given.
_MEASURE = """import os, sys
pid = os.fork()
if pid == 0:
    os.execv(sys.argv[2], sys.argv[2:])
_, status, usage = os.wait4(pid, 0)
with open(sys.argv[1], "w") as out:
    out.write(str(usage.ru_maxrss))
code = os.waitstatus_to_exitcode(status)
sys.exit(code if code >= 0 else 128 - code)
"""


def run(case: Case, db: Path, timeout: float = 300, env: dict | None = None) -> Outcome:
    """`rulings add` of `case` into `db` as a child process: how it ended, how long it took and its peak memory
    (the largest resident set of it and the process reading the document). Killed past `timeout`."""
    command = [sys.executable, "-m", "service.cli", "add", str(case.path), "--game", GAME, "--db", str(db)]
    errors, peak = db.with_suffix(".stderr"), db.with_suffix(".peak")
    peak.unlink(missing_ok=True)
    start = time.monotonic()
    with open(errors, "wb") as stderr:
        child = subprocess.Popen([sys.executable, "-I", "-S", "-c", _MEASURE, str(peak), *command], cwd=ROOT,
                                 stdout=subprocess.DEVNULL, stderr=stderr, env={**os.environ, **(env or {})},
                                 start_new_session=True)
        try:
            status = child.wait(timeout)
        except subprocess.TimeoutExpired:
            os.killpg(child.pid, signal.SIGKILL)
            status = child.wait()
    return Outcome(case, status, time.monotonic() - start, int(peak.read_text() or 0) / 1024 if peak.exists() else 0,
                   errors.read_text(encoding="utf-8", errors="replace"))


def names_the_file(outcome: Outcome) -> bool:
    """Whether the one line of a refusal names the case's file."""
    return str(outcome.case.path) in outcome.stderr or outcome.case.path.name in outcome.stderr


def says_the_limit(outcome: Outcome) -> bool:
    return re.search(outcome.case.says, outcome.stderr) is not None
