"""Every real document the project develops against, and each read once per test run.

`every_document` lists them, each read as `rulings add FILE --game G` reads it: the seeds (sources/, through their
manifest), ../shared/corpora and its structure/ folder (when ../shared is beside the clone), and documents/
(collected for issue 42, each with a facts file); the invariants test and benchmarks/invariants.py use it.
`document` and `parsed` read and parse a file once per process for every test module that asks about it: a PDF
takes seconds to read (the Netrunner rules 20 s), and the same few are asked about by many modules; `reading_once`
does the same for every other reader of a real document in a test run (`rulings add`, `read_document`). Where a
run shares a folder of reads (`share_reads`, which tests/conftest.py sets up for the run), a document is read once
per run rather than once per process: the two workers of `make test`, and the forked reader of an add, which would
otherwise read it again and lose what it read. What they return is shared: read it, never change it. Never
shipped."""
from __future__ import annotations

import fcntl
import hashlib
import os
import pickle
import tomllib
from collections.abc import Iterator
from functools import cache
from pathlib import Path
from typing import NamedTuple

from support import CORPORA, REPO_MANIFEST, ROOT

from ingest import formats
from ingest.manifest import SourceEntry, source_entry
from ingest.pipeline import parse_source
from model.records import ParsedSource

COLLECTED = ROOT / "documents"
REAL = (CORPORA.resolve(), COLLECTED)  # folders of real documents: read-only, never changed during a run
_QUESTION_DOCUMENTS = ROOT / "training" / "questions" / "documents.toml"
_SUFFIXES = (".txt", ".md", ".pdf", ".html", ".htm")


class Document(NamedTuple):
    """One document: a name (its file's stem, or the seed's source id), the file, and its game."""

    name: str
    file: Path
    game: str


def _game_of_facts(facts: Path) -> str:
    return tomllib.loads(facts.read_text(encoding="utf-8"))["game"]


def every_document() -> list[Document]:
    """The documents of ../shared/corpora (with its structure/ folder) and documents/, each once, by name.
    A corpus document's game is the one the question corpus gives it; a document with a facts file takes the
    facts' game."""
    found: dict[str, Document] = {}
    if CORPORA.is_dir():
        listed = tomllib.loads(_QUESTION_DOCUMENTS.read_text(encoding="utf-8"))["document"]
        for entry in listed:
            if "file" in entry:
                file = CORPORA / entry["file"]
                found[file.stem] = Document(file.stem, file, entry["game"])
        # Other editions of a listed document (the Lorcana rules as three PDFs) are of its game: its first word.
        for file in sorted(CORPORA.iterdir()):
            if file.suffix in _SUFFIXES and file.stem not in found and file.stem.upper() != "README":
                found[file.stem] = Document(file.stem, file, file.stem.split("-")[0])
    for folder in (CORPORA / "structure", COLLECTED):
        if folder.is_dir():
            for facts in sorted(folder.glob("*.facts.toml")):
                name = facts.name.removesuffix(".facts.toml")
                files = [p for p in sorted(folder.glob(f"{name}.*")) if p.suffix in _SUFFIXES]
                if files:
                    found[name] = Document(name, files[0], _game_of_facts(facts))
    return sorted(found.values())


def facts_of(document: Document) -> Path | None:
    """The facts file beside the document, if it has one."""
    facts = document.file.with_name(f"{document.name}.facts.toml")
    return facts if facts.is_file() else None


def seeds() -> Iterator[tuple]:
    """The committed sources as the manifest reads them: (entry, parsed) each."""
    from ingest.manifest import load_manifest
    from ingest.pipeline import parse_manifest
    return iter(parse_manifest(load_manifest(REPO_MANIFEST)))


def entry(name: str, shape: str = "auto") -> SourceEntry:
    """The manifest entry of file `name` as `rulings add FILE --game test` makes it (its shape found by measuring
    unless given)."""
    return source_entry({"id": "doc", "file": name, "game": "test", "title": name, "kind": "rulebook",
                         "language": "en", "shape": shape, "section": name})


def document(path: Path) -> formats.Document:
    """The file as `formats.read` reads it, once per process."""
    return _once(Path(path).resolve())


def parsed(path: Path, shape: str = "auto") -> ParsedSource:
    """The file parsed as `rulings add FILE --game test` parses it (`entry`), once per process."""
    return _parsed(Path(path).resolve(), shape)


def reading_once(path: Path, limits=None) -> formats.Document:
    """`formats.read`, but each real document (a file under REAL) read once per process, as `document` reads it;
    tests/conftest.py puts it in formats.read's place for the run. A reader in a forked child (the one
    kb.build.add_document starts) finds what this process read before the fork; what it reads itself is lost with
    the child."""
    resolved = Path(path).resolve()
    if any(resolved.is_relative_to(folder) for folder in REAL):
        return _once(resolved, limits)
    return _read(path, limits)


_read = formats.read  # the reader itself, whatever takes its place
_READ: dict[Path, formats.Document] = {}


def _once(path: Path, limits=None) -> formats.Document:
    if path not in _READ:
        _READ[path] = _read_shared(path, limits)
    return _READ[path]


SHARED_READS = "RULINGS_TEST_SHARED_READS"  # the folder the processes of one test run keep their reads in


def share_reads(folder: Path) -> None:
    """Have this process, and every process it starts from now on, keep what it reads of a real document in
    `folder` and read there what another has read."""
    os.environ[SHARED_READS] = str(folder)


def _read_shared(path: Path, limits=None) -> formats.Document:
    """The document read by whichever process of the run first asked for it (in the shared folder, under a lock,
    so a second asker waits for the first rather than reading it too); read here without a shared folder."""
    folder = os.environ.get(SHARED_READS)
    if not folder:
        return _read(path, limits)
    stat = path.stat()
    key = hashlib.sha256(f"{path}\0{stat.st_size}\0{stat.st_mtime_ns}".encode()).hexdigest()[:32]
    kept = Path(folder) / f"{key}.pickle"
    with open(Path(folder) / f"{key}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if kept.exists():
            return pickle.loads(kept.read_bytes())
        document = _read(path, limits)  # a refusal is raised, not kept: the next asker is refused in turn
        temp = kept.with_suffix(f".{os.getpid()}.tmp")
        temp.write_bytes(pickle.dumps(document, pickle.HIGHEST_PROTOCOL))
        temp.replace(kept)
        return document


@cache
def _parsed(path: Path, shape: str) -> ParsedSource:
    return parse_source(entry(path.name, shape), path.parent, document=_once(path))


def question_documents(corpus_questions: Path, corpora: Path = CORPORA) -> list[tuple[Path, str]]:
    """(file, game) of each document a file of corpus questions covers: the file of `corpora` whose stem is a
    question's `doc`. Used by benchmarks/corpora.py."""
    from kb.evaluate import load_questions
    games: dict[str, set[str]] = {}
    for item in load_questions(corpus_questions):
        games.setdefault(item["doc"], set()).add(item["game"])
    found = []
    for doc, game in games.items():
        files = [path for path in corpora.iterdir() if path.stem == doc]
        if len(files) != 1 or len(game) != 1:
            raise SystemExit(f"{doc}: needs one file in {corpora} (found {len(files)}) and one game ({game})")
        found.append((files[0], game.pop()))
    return found
