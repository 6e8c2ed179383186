"""The question corpus: rules questions written as players and judges ask them at a table, over the real
documents of `documents.toml`, and the checker that holds every question to what it claims.

Four kinds of file, one folder each, JSON lines:
- `answerable/<doc>.jsonl`: `{"id", "doc", "game", "question", "expect": [phrases], "style"}`; `expect` phrases
  are copied from the ruling that settles the question (a result is right when its text holds one, as
  `kb.evaluate.is_correct` judges), `style` one of STYLES;
- `heldout/<doc>.jsonl`: the same, on a document kept out of all training and of every choice of a constant
  (the Magic comprehensive rules): evaluation only;
- `uncovered/<doc>.jsonl`: `{"id", "doc", "game", "question", "why"}`, in-domain questions the document does
  not answer;
- `offtopic/<name>.jsonl`: `{"id", "question"}`, questions about no game of the library.

The checker (`check`) reads each answerable phrase in the rulings of its document as ingest cut them (a
library built from `documents.toml`, `build_library`), counts how many rulings hold it, and measures how easy a
question is: the share of its content words that the ruling answering it uses (as full-text search matches
words, stemmed), reported against the reference questions of ../shared/eval. The corpus must be no easier.
"""
from __future__ import annotations

import json
import sqlite3
import statistics
import tomllib
from collections import Counter
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
KINDS = ("answerable", "heldout", "uncovered", "offtopic")
STYLES = ("situation", "keyword", "can-i", "what-if", "definition")
FIELDS = {
    "answerable": {"id", "doc", "game", "question", "expect", "style"},
    "heldout": {"id", "doc", "game", "question", "expect", "style"},
    "uncovered": {"id", "doc", "game", "question", "why"},
    "offtopic": {"id", "question"},
}
# A phrase held by more rulings than this does not say which one settles the question.
MAX_HOLDERS = 3


class QuestionFileError(ValueError):
    """A question file is unreadable or malformed (the message names the file and line)."""


@dataclass(frozen=True)
class Document:
    """A document of the corpus: its `doc` id, its game, and where it comes from (a source of the project's own
    database, or a file of ../shared/corpora)."""
    doc: str
    game: str
    source: str | None = None
    file: str | None = None
    heldout: bool = False


def documents(path: Path = HERE / "documents.toml") -> list[Document]:
    """The documents the corpus asks about, as `documents.toml` lists them."""
    return [Document(**entry) for entry in tomllib.loads(path.read_text(encoding="utf-8"))["document"]]


def kind_of(path: Path) -> str:
    """A question file's kind: the name of the folder it sits in (one of KINDS)."""
    kind = Path(path).resolve().parent.name
    if kind not in KINDS:
        raise QuestionFileError(f"{path}: a question file sits in one of {', '.join(KINDS)}/, not {kind}/")
    return kind


def load(path: Path) -> list[dict]:
    """The questions of one file, each checked for its kind's fields; QuestionFileError names file and line."""
    kind, known = kind_of(path), {d.doc: d for d in documents()}
    found = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip():
            continue
        where = f"{path}:{number}"
        try:
            item = json.loads(line)
        except json.JSONDecodeError as exc:
            raise QuestionFileError(f"{where}: not JSON ({exc.msg})") from None
        if not isinstance(item, dict):
            raise QuestionFileError(f"{where}: not a JSON object")
        missing, extra = FIELDS[kind] - set(item), set(item) - FIELDS[kind]
        if missing or extra:
            raise QuestionFileError(f"{where}: {kind} questions have exactly {', '.join(sorted(FIELDS[kind]))}"
                                    + (f"; missing {', '.join(sorted(missing))}" if missing else "")
                                    + (f"; unknown {', '.join(sorted(extra))}" if extra else ""))
        if not isinstance(item["question"], str) or not item["question"].strip():
            raise QuestionFileError(f"{where}: 'question' must be non-empty text")
        if "doc" in item:
            if item["doc"] not in known:
                raise QuestionFileError(f"{where}: doc {item['doc']!r} is not in documents.toml")
            if item["game"] != known[item["doc"]].game:
                raise QuestionFileError(f"{where}: {item['doc']} is a {known[item['doc']].game} document, "
                                        f"not {item['game']}")
            if known[item["doc"]].heldout != (kind == "heldout") and kind != "uncovered":
                raise QuestionFileError(f"{where}: questions on {item['doc']} belong in "
                                        f"{'heldout' if known[item['doc']].heldout else 'answerable'}/")
        if "expect" in item and (not isinstance(item["expect"], list) or not item["expect"]
                                 or not all(isinstance(p, str) and p.strip() for p in item["expect"])):
            raise QuestionFileError(f"{where}: 'expect' must be a non-empty list of phrases")
        if "style" in item and item["style"] not in STYLES:
            raise QuestionFileError(f"{where}: style {item['style']!r} is not one of {', '.join(STYLES)}")
        found.append(item)
    return found


def corpus(root: Path = HERE) -> dict[str, list[dict]]:
    """Kind → every question of that kind in the corpus; QuestionFileError for a bad file or an id used twice."""
    found: dict[str, list[dict]] = {kind: [] for kind in KINDS}
    seen: dict[str, Path] = {}
    for kind in KINDS:
        for path in sorted((root / kind).glob("*.jsonl")):
            for item in load(path):
                if item["id"] in seen:
                    raise QuestionFileError(f"{path}: id {item['id']!r} is used again (first in {seen[item['id']]})")
                seen[item["id"]] = path
                found[kind].append(item)
    return found


def _normal(text: str) -> str:
    return " ".join(text.casefold().split())


class Library:
    """The rulings of the corpus's documents as ingest cut them, read from a library database: each document's
    rulings, the full-text index to measure overlap with, and which rulings hold a phrase."""

    def __init__(self, conn: sqlite3.Connection):
        self.conn = conn
        sources = dict(conn.execute("select doc, source from question_documents"))
        self.rulings: dict[str, list[tuple[str, int, str]]] = {doc: [] for doc in sources}
        rows = conn.execute("select source, id, rowid, text, coalesce(examples_text, '') from rulings "
                            "where kind not in ('title', 'redirect')")
        by_source = {source: doc for doc, source in sources.items()}
        self.by_game: dict[str, list[tuple[str, int, str]]] = {}
        games = {d.doc: d.game for d in documents()}
        for source, rid, rowid, text, examples in rows:
            if source in by_source:
                doc = by_source[source]
                entry = (rid, rowid, _normal(f"{text} {examples}"))
                self.rulings[doc].append(entry)
                self.by_game.setdefault(games[doc], []).append(entry)

    def holders(self, phrase: str, doc: str | None = None, game: str | None = None) -> list[tuple[str, int]]:
        """(ruling id, rowid) of the rulings of `doc` (else of `game`) whose text or examples hold `phrase`."""
        phrase = _normal(phrase)
        pool = self.rulings.get(doc, []) if doc else self.by_game.get(game or "", [])
        return [(rid, rowid) for rid, rowid, text in pool if phrase in text]

    def overlap(self, question: str, rowid: int) -> float:
        """The share of the question's content words that the ruling (by rowid) uses, as full text matches them
        (stemmed, in its title, section, text or examples); 0 for a question without content words."""
        from kb.query import content_terms

        terms = content_terms(question)
        if not terms:
            return 0.0
        sql = "select count(*) from rulings_fts where rulings_fts match ? and rowid = ?"
        return sum(1 for t in terms if self.conn.execute(sql, [f'"{t}"', rowid]).fetchone()[0]) / len(terms)

    def answer_overlap(self, item: dict) -> float | None:
        """How easy an answerable question is: the overlap with the ruling that answers it (the best of those
        holding an expected phrase); None when no ruling holds one."""
        rows = {rowid for phrase in item["expect"]
                for _, rowid in self.holders(phrase, item.get("doc"), item.get("game"))}
        return max((self.overlap(item["question"], rowid) for rowid in rows), default=None)


def reference_overlaps(library: Library, eval_dir: Path) -> list[float]:
    """The overlaps of the reference questions of `eval_dir` (../shared/eval): the seed questions and the corpus
    questions whose answers the library holds."""
    found = []
    for name in ("dev_questions.jsonl", "corpora_dev_questions.jsonl"):
        path = eval_dir / name
        if path.is_file():
            for line in path.read_text(encoding="utf-8").splitlines():
                if line.strip():
                    value = library.answer_overlap(json.loads(line))
                    if value is not None:
                        found.append(value)
    return found


def check_file(library: Library, path: Path) -> dict:
    """One file checked: `{"file", "kind", "n", "errors": [...], "warnings": [...], "overlap_median",
    "styles"}`. An error is a question that cannot be measured (a phrase no ruling of its document holds, a
    question asked twice); a warning one that measures loosely (a phrase more than MAX_HOLDERS rulings hold)."""
    kind = kind_of(path)
    items = load(path)
    errors, warnings, overlaps = [], [], []
    asked = Counter(_normal(item["question"]) for item in items)
    errors += [f"asked twice: {question!r}" for question, n in asked.items() if n > 1]
    for item in items:
        for phrase in item.get("expect", []):
            held = library.holders(phrase, item["doc"])
            if not held:
                errors.append(f"{item['id']}: no ruling of {item['doc']} holds {phrase!r}")
            elif len(held) > MAX_HOLDERS:
                warnings.append(f"{item['id']}: {len(held)} rulings hold {phrase!r}; choose a more distinctive phrase")
        if "expect" in item and (value := library.answer_overlap(item)) is not None:
            overlaps.append(value)
    return {"file": str(path), "kind": kind, "n": len(items), "errors": errors, "warnings": warnings,
            "overlap_median": round(statistics.median(overlaps), 3) if overlaps else None,
            "overlaps": overlaps, "styles": dict(Counter(item.get("style", "") for item in items))}


def distribution(values: list[float]) -> dict:
    """Quartiles and mean of overlaps, rounded."""
    if not values:
        return {"n": 0}
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    return {"n": len(values), "mean": round(statistics.mean(values), 3), "q1": round(q[0], 3),
            "median": round(q[1], 3), "q3": round(q[2], 3)}


def build_library(base: Path, target: Path, corpora: Path, vectors: bool = False) -> Path:
    """A copy of database `base` (the project's rulings.db: the seed sources) at `target` with every document of
    `documents.toml` that comes from `corpora` added under its game, and table `question_documents` (doc →
    source id) to find each document's rulings by; `target`. With `vectors`, the passages are embedded as
    search embeds them (to search the library), else zero (to read its rulings only)."""
    from training.corpus import build

    listed = documents()
    files = [(corpora / d.file, d.game) for d in listed if d.file]
    reports = build(base, target, files, vectors=vectors)
    sources = {d.doc: d.source for d in listed if d.source}
    sources.update({d.doc: reports[corpora / d.file]["source"] for d in listed if d.file
                    and corpora / d.file in reports})
    conn = sqlite3.connect(target)
    with conn:
        conn.execute("drop table if exists question_documents")
        conn.execute("create table question_documents (doc text primary key, source text not null)")
        conn.executemany("insert into question_documents values (?, ?)", sorted(sources.items()))
    conn.close()
    return target


def dump(library: Library, out: Path) -> list[Path]:
    """Each document's rulings as text, for the people writing questions: `=== ref | id | section`, then the
    ruling's text, one block a ruling, in `out/<doc>.txt`."""
    out.mkdir(parents=True, exist_ok=True)
    written = []
    sources = dict(library.conn.execute("select doc, source from question_documents"))
    for doc, source in sources.items():
        rows = library.conn.execute("select ref, id, section, text from rulings where source = ? "
                                    "order by position", [source])
        path = out / f"{doc}.txt"
        path.write_text("".join(f"=== {ref} | {rid} | {section}\n{text}\n\n" for ref, rid, section, text in rows),
                        encoding="utf-8")
        written.append(path)
    return written
