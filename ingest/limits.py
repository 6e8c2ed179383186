"""How much reading one document may take, and how to raise it for a legitimately huge rulebook.

Every reader stays within these limits and refuses past them with an `IngestError` naming the file and the
limit, so a crafted document ends in bounded time and memory with a clear answer. Each limit is settable by
an environment variable `RULINGS_LIMIT_<NAME>` (e.g. `RULINGS_LIMIT_TEXT_MB=40`) or, for one command,
`rulings add --limit text_mb=40`. The readers see the limits in force through `current()`.
"""
from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, fields, replace

ENV_PREFIX = "RULINGS_LIMIT_"


@dataclass(frozen=True)
class Limits:
    """The budget of reading one document (see docs/ingest.md, "Limits")."""

    text_mb: float = 10          # size of a text, markdown, HTML or Q/A file
    pdf_mb: float = 100          # size of a PDF file (read into memory whole)
    inflated_mb: float = 300     # bytes a PDF's compressed streams may inflate to, all pages together
    depth: int = 200             # nesting of lists, tags, JSON or YAML values
    elements: int = 2_000_000    # HTML elements, markdown tokens, JSON or YAML values in one document
    aliases: int = 10_000        # YAML aliases expanded
    # Rulings one document may give: ten times the largest real rulebook's (1,939), and what `rulings add` stores
    # within a minute (storing 80,000 took 40 s more than reading them).
    units: int = 20_000
    # Memory the reading may take beyond what the command holds when it starts reading (`rulings add`: ~50 MB),
    # so that the command stays under 1 GB.
    memory_mb: float = 960
    # Time to read a document, plus `seconds_per_mb` for each MB of it. The real rulebooks of ../shared/corpora
    # read in a fifth of theirs or less (a 0.6 MB PDF: 1.7-3 s of 17 s, on a busy machine), and a 10 MB
    # document's 45 s leave a hostile one room to be refused within a minute.
    seconds: float = 15
    seconds_per_mb: float = 3

    def time_for(self, size_bytes: int) -> float:
        """The seconds a document of `size_bytes` may take to read."""
        return self.seconds + self.seconds_per_mb * size_bytes / 2**20

    def with_settings(self, settings: dict[str, str], origin: str = "--limit") -> "Limits":
        """These limits with `settings` ({name: value as text}) applied; ValueError names a bad one."""
        known = {f.name: f.type for f in fields(self)}
        changes = {}
        for name, text in settings.items():
            key = name.strip().lower()
            if key not in known:
                raise ValueError(f"{origin}: unknown limit {name!r} (known: {', '.join(known)})")
            try:
                value = (int if known[key] == "int" else float)(text)
            except ValueError:
                raise ValueError(f"{origin}: limit {key} must be a number, not {text!r}") from None
            if not value > 0:
                raise ValueError(f"{origin}: limit {key} must be positive, not {text!r}")
            changes[key] = value
        return replace(self, **changes)


def how_to_raise(name: str) -> str:
    """How a message refusing a document past limit `name` tells the user to raise it."""
    return f"raise it with --limit {name}=... or {ENV_PREFIX}{name.upper()}"


def from_environment(environ: dict[str, str] | None = None) -> Limits:
    """The default limits with every `RULINGS_LIMIT_<NAME>` variable of `environ` (default os.environ) applied."""
    environ = os.environ if environ is None else environ
    settings = {key[len(ENV_PREFIX):]: value for key, value in environ.items() if key.startswith(ENV_PREFIX)}
    return Limits().with_settings(settings, origin=f"environment ({ENV_PREFIX}*)")


_applied: ContextVar[Limits | None] = ContextVar("limits", default=None)


def current() -> Limits:
    """The limits in force: those `applied` sets around this reading, else the environment's."""
    return _applied.get() or from_environment()


@contextmanager
def applied(limits: Limits) -> Iterator[Limits]:
    """Make `limits` the ones `current` gives (to the readers) while the block runs."""
    token = _applied.set(limits)
    try:
        yield limits
    finally:
        _applied.reset(token)
