"""The `rulings` command: each subcommand parses its options and calls one library function."""
from __future__ import annotations

import functools
import json
import os
import sqlite3
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import click

from kb.answered import ANSWER, CLOSEST, NOT_COVERED
from kb.layout import plain
from kb.paths import DB_ENV, DEFAULT_DB, DEFAULT_MANIFEST, default_db
from kb.rulings import STATUS_LABELS, grouped, says_nothing
from kb.search import DEFAULT_K, MAX_K, MODES
from model.citation import edition
from model.errors import FileError
from model.kinds import KINDS
from model.values import MAX_VERSION

_db_path_option = click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path),
                               default=DEFAULT_DB, envvar=DB_ENV,
                               help=f"The rulings database; without --db, ${DB_ENV}, else {DEFAULT_DB} in the "
                                    "current directory.")


def db_option(command):
    """--db, and every failure of the command said in one line (`_one_line_failures`): what every command that
    reads or writes the database takes."""
    @functools.wraps(command)
    def guarded(*args, db_path: Path, **kwargs):
        with _one_line_failures(db_path):
            return command(*args, db_path=db_path, **kwargs)
    return _db_path_option(guarded)


def _fail(exc: Exception) -> None:
    raise click.ClickException(str(exc))


class Refused(click.ClickException):
    """Input the command refuses (a document, a manifest, an option's value): one line, exit status 2."""

    exit_code = 2


class Interrupted(click.ClickException):
    exit_code = 130  # as a shell reports a command ended by Ctrl-C


@contextmanager
def _one_line_failures(db_path: Path) -> Iterator[None]:
    """Every way a command on the database at `db_path` can fail, as one line on stderr: refused input (exit 2),
    a damaged database, a write left half done that cannot be rolled back here, or the system's refusal (a file it
    cannot write, no memory left: exit 1), an interruption (130); a bug as an internal error (exit 1). Never a
    traceback."""
    from kb.cache import WriteInterrupted
    from kb.integrity import DatabaseDamaged, damaged
    try:
        yield
    except (click.ClickException, click.exceptions.Abort, click.exceptions.Exit):
        raise  # already said as click says it
    except BrokenPipeError:
        raise  # the reader of the output has gone (`rulings stats | head -1`): no fault of the database
    except (DatabaseDamaged, WriteInterrupted) as exc:
        raise click.ClickException(_line(exc)) from None
    except FileError as exc:
        raise Refused(_line(exc)) from None
    except KeyboardInterrupt:
        raise Interrupted("interrupted") from None
    except sqlite3.Error as exc:
        raise click.ClickException(_line(
            f"{db_path}: the database is damaged ({exc}): restore a copy, or rebuild it with `rulings ingest`"
            if damaged(exc) else f"{db_path}: cannot read or write the database ({exc})")) from None
    except OSError as exc:
        raise click.ClickException(_line(f"{exc.filename or db_path}: {exc.strerror or exc}")) from None
    except MemoryError:
        raise click.ClickException(f"{db_path}: out of memory") from None
    except Exception as exc:  # noqa: BLE001 - a bug: said in one line all the same
        raise click.ClickException(_line(f"internal error (a bug; please report it): {type(exc).__name__}: "
                                         f"{exc}")) from None


def _line(message) -> str:
    """A message as one line."""
    return " ".join(str(message).split())


def _limits(settings: tuple[str, ...]):
    """The reading limits: the environment's (RULINGS_LIMIT_*) with each --limit NAME=VALUE applied."""
    from ingest.limits import from_environment
    pairs = {}
    for setting in settings:
        name, equals, value = setting.partition("=")
        if not equals:
            raise Refused(f"--limit {setting!r}: say NAME=VALUE, e.g. --limit text_mb=40")
        pairs[name] = value
    try:
        return from_environment().with_settings(pairs)
    except ValueError as exc:
        raise Refused(str(exc)) from None


limit_option = click.option("--limit", "limit_settings", multiple=True, metavar="NAME=VALUE",
                            help="Raise (or lower) a limit of reading a document, e.g. --limit text_mb=40 "
                                 "--limit seconds=120; repeatable; also settable as RULINGS_LIMIT_<NAME>. "
                                 "See docs/ingest.md, \"Limits\".")


@contextmanager
def _unread_output_ends_quietly(ctx: click.Context) -> Iterator[None]:
    """A closed stdout (its reader gone) ends the command with exit status 0 and nothing said; stdout then points
    at the null device, so that what is left in its buffer is not flushed into the closed pipe when Python exits
    (which would print a traceback and exit 120)."""
    try:
        yield
    except BrokenPipeError:
        try:
            fileno = sys.stdout.fileno()
        except (AttributeError, OSError, ValueError):  # not a file (a test's capture): nothing is flushed at exit
            fileno = None
        if fileno is not None:
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, fileno)
            os.close(devnull)
        ctx.exit(0)


class Commands(click.Group):
    """The `rulings` group: arguments are text, so one that is not UTF-8 (bytes a shell passed as they came) is
    refused in one line, never met half-way through a command; a command whose reader stops reading (`| head`)
    ends quietly with exit status 0: the reader took what it wanted, and nothing failed."""

    def invoke(self, ctx: click.Context):
        with _unread_output_ends_quietly(ctx):
            return super().invoke(ctx)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        for arg in args:
            try:
                arg.encode("utf-8")
            except UnicodeEncodeError:
                shown = arg.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
                raise click.UsageError(f"the argument '{shown}' is not UTF-8 text; write it in UTF-8", ctx) \
                    from None
        with _unread_output_ends_quietly(ctx):  # `rulings --help | head -1`
            return super().parse_args(ctx, args)


@click.group(cls=Commands)
def cli():
    """Rules clarifications for tabletop games: ingest, search, verify and serve rulings.

    Every command that reads or writes the database takes --db FILE; without it, the RULINGS_DB environment
    variable names the file, else rulings.db in the current directory.
    """


@cli.command()
@db_option
@click.option("--manifest", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_MANIFEST,
              show_default=True, help="The sources manifest (a relative path is read from the current directory).")
@limit_option
def ingest(db_path: Path, manifest: Path, limit_settings: tuple[str, ...]):
    """Rebuild the database from the sources manifest, atomically.

    Example: rulings ingest --db rulings.db
    """
    limits = _limits(limit_settings)
    from kb.build import build
    counts = build(db_path, manifest, limits)
    click.echo(f"{db_path}: " + ", ".join(f"{n} {table}" for table, n in counts.items()))


@cli.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--game", required=True, help="Game slug, e.g. dragon-dice.")
@click.option("--game-name", default=None, help="The game's name, e.g. \"Magic: The Gathering\" (default for a new "
              "game: the name its document gives it); renames a game already in the database.")
@click.option("--title", default=None, help="Title of the document (default: what its front matter says, with the "
              "game's name when it names none).")
@click.option("--shape", default="auto", show_default=True,
              help="Layout: auto (the one that explains the document best), outline (numbered and decimal "
                   "rules, lettered items, Q:/A:, headed sections, glossaries), blog, glued, doc, flat, "
                   "paragraphs.")
@click.option("--kind", default="rulebook", show_default=True, help=f"What the document is: {', '.join(KINDS)}.")
@click.option("--language", default="en", show_default=True)
@click.option("--abbrev", default="", help="How its rulings' refs start, e.g. \"CR\" for \"CR 702.19b\" "
              "(default: the game's initials, unlike any other source's).")
@click.option("--scope", default="", help="What the document covers, e.g. \"magic\" for a FAQ's part on magic.")
@click.option("--replaces", default=None, help="The source this document is a new edition of (default: the game's "
              "source with the same title, if any).")
@click.option("--as-new", is_flag=True, help="Keep it as a source of its own even if a source has its title.")
@click.option("--json", "as_json", is_flag=True, help="Print the ingest report as JSON.")
@limit_option
@db_option
def add(file: Path, game: str, game_name: str | None, title: str | None, shape: str, kind: str, language: str,
        abbrev: str, scope: str, replaces: str | None, as_new: bool, as_json: bool, limit_settings: tuple[str, ...],
        db_path: Path):
    """Ingest one more document (PDF, Word, markdown, HTML, text or Q/A JSON/YAML) into the database; a new edition
    of a source (the same title in the same game, or --replaces) becomes its current version, filed by date.

    Example: rulings add errata.pdf --game dragon-dice --title "Dragon Dice errata"
    """
    limits = _limits(limit_settings)
    from kb.build import add_document
    report = add_document(db_path, file, game, title, shape=shape, kind=kind, language=language, abbrev=abbrev,
                          scope=scope, replaces=replaces, as_new=as_new, game_name=game_name, limits=limits)
    click.echo(json.dumps(report, ensure_ascii=False, indent=2) if as_json else report_text(report))


@cli.command()
@click.argument("source")
@click.option("--version", default=None, help="Only this edition (`rulings versions SOURCE` lists them).")
@click.option("--json", "as_json", is_flag=True, help="Print what was removed as JSON.")
@db_option
def remove(source: str, version: str | None, as_json: bool, db_path: Path):
    """Remove a source (by its id, as `rulings stats` lists them) and everything that is its own, or one of its
    editions, atomically.

    Example: rulings remove dragon-dice-errata
    """
    from kb.build import remove_source
    try:
        removed = remove_source(db_path, source, version)
    except FileError as exc:
        _fail(exc)
    if as_json:
        click.echo(json.dumps(removed, ensure_ascii=False))
    elif version is None:
        click.echo(f"Removed {removed['title']!r} ({removed['source']}, {removed['game']}): "
                   f"{removed['rulings']} rulings")
    else:
        click.echo(f"Removed version {version} of {source}; current version: {removed['current'] or 'none'}")


@cli.command()
@click.argument("source", required=False)
@click.option("--json", "as_json", is_flag=True, help="Print a JSON list of the versions.")
@db_option
def versions(source: str | None, as_json: bool, db_path: Path):
    """List a source's versions (editions), oldest first, with what each changed; without SOURCE, the sources.

    Example: rulings versions lorcana-comprehensive-rules
    """
    from kb.editions import UnknownEdition
    from kb.editions import versions as editions
    if source is None:
        click.echo(source_listing(_connect(db_path)))
        return
    try:
        listed = editions(_connect(db_path), source)
    except UnknownEdition as exc:
        _fail(exc)
    if as_json:
        click.echo(json.dumps(listed, ensure_ascii=False, indent=2))
        return
    for one in listed:
        counts = ("first version" if one["added"] is None else
                  f"{one['changed']} changed, {one['added']} added, {one['removed']} removed, {one['moved']} moved")
        mark = "  (current)" if one["current"] else ""
        click.echo(f"{one['version']}  effective {one['effective'] or 'unknown'}  {one['rulings']} "
                   f"rulings  {counts}{mark}")


@cli.command()
@click.argument("source", required=False)
@click.option("--from", "since", default=None, help="The earlier version (default: the one before --to).")
@click.option("--to", "until", default=None, help="The later version (default: the current one).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: from, to, added, removed, changed.")
@db_option
def diff(source: str | None, since: str | None, until: str | None, as_json: bool, db_path: Path):
    """List the rules added, removed and changed between two versions of a source, by section, changed ones
    word by word ([-removed-] {+added+}); without SOURCE, the sources and their versions.

    Example: rulings diff lorcana-comprehensive-rules --from 2024-08-09
    """
    from kb.editions import UnknownEdition
    from kb.editions import by_section
    from kb.editions import diff as compare
    if source is None:
        click.echo(source_listing(_connect(db_path)))
        return
    try:
        conn = _connect(db_path)
        found = compare(conn, source, since, until)
    except UnknownEdition as exc:
        _fail(exc)
    click.echo(json.dumps(found, ensure_ascii=False, indent=2) if as_json
               else diff_text(found, by_section(conn, found)))


def source_listing(conn: sqlite3.Connection) -> str:
    """The sources a judge can ask `versions` or `diff` about: each id with its game, title and versions, those
    with several versions first."""
    rows = conn.execute("select s.id, s.game, s.title, group_concat(v.version, ', ') from sources s "
                        "left join source_versions v on v.source = s.id group by s.id "
                        "order by count(v.version) > 1 desc, s.game, s.id").fetchall()
    return "Sources (give one: rulings versions SOURCE, rulings diff SOURCE):\n" + "\n".join(
        f"  {sid}  [{game}] {title}: versions {listed or '-'}" for sid, game, title, listed in rows)


class GameOption(click.Option):
    """--game: a game's slug or name, or an unambiguous near spelling of one; its help lists the games of the
    default database."""

    def get_help_record(self, ctx):
        names, help_text = super().get_help_record(ctx)
        found = ", ".join(game["slug"] for game in _games(default_db())) or "none (no database yet)"
        return names, f"{help_text} Games: {found}."


def _resolve_game(conn: sqlite3.Connection, value: str | None) -> str | None:
    """The slug of the game --game names; a usage error (exit 2) listing the games when it names none or several."""
    from engine.names import UnknownName, resolve
    from kb.store import games
    if value is None:
        return None
    try:
        return resolve(value, _game_aliases(games(conn)), "game")
    except UnknownName as exc:
        raise click.BadParameter(str(exc), param_hint="'--game'") from None


@cli.command()
@click.argument("question")
@click.option("--game", cls=GameOption, default=None, help="Search only this game's rulings: its slug or name.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON: subject, changes.")
@db_option
def changes(question: str, game: str | None, as_json: bool, db_path: Path):
    """What changed about a subject between editions: "What changed about X?", "Is X new?", "Errata for X".
    Each ruling about it that changed, was added or moved, with its earlier and its current text.

    Example: rulings changes "What changed about the number of ink types in a deck?" --game lorcana
    """
    from kb.changes import changes_about
    from kb.search import ask
    conn = _connect(db_path)
    found = changes_about(conn, question, _resolve_game(conn, game), ask)
    if as_json:
        click.echo(json.dumps(found, ensure_ascii=False, indent=2))
        return
    if not found["changes"]:
        click.echo(f"Nothing about {found['subject']} changed between editions.")
    for change in found["changes"]:
        click.echo("\n".join(_change_lines(change)))


def _change_lines(change: dict) -> list[str]:
    """One change of `kb.changes.changes_about` as a judge reads it: the ref, what happened in which edition,
    the text before (unless added) and now."""
    if change["change"] == "added":
        return [f"{change['ref']}: added in {change['version']}", f"  {change['now']}"]
    was = f" (was {change['earlier_ref']})" if change["earlier_ref"] != change["ref"] else ""
    return [f"{change['ref']}{was}: {change['change']} in {change['version']}",
            f"  before ({change['earlier_version']}): {change['earlier']}", f"  now: {change['now']}"]


def diff_text(found: dict, sections: list[dict]) -> str:
    """A diff as a judge reads it: counts, then section by section in rulebook order (`sections`:
    kb.editions.by_section) each rule added (+), removed (-), moved (> old number → new, "text unchanged" or
    its words) or changed (~), words as [-removed-] {+added+}."""
    lines = [f"{found['source']} {found['from']} → {found['to']}: {len(found['added'])} added, "
             f"{len(found['removed'])} removed, {len(found['moved'])} moved, {len(found['changed'])} changed"]
    marks = {"added": "+", "removed": "-", "moved": ">", "changed": "~"}
    for section in sections:
        lines += ["", section["title"] or "(no section)"]
        for entry in section["entries"]:
            words = entry["text"] if entry.get("diff") is None else " ".join(
                run["text"] if run["op"] == "same" else f"[-{run['text']}-]" if run["op"] == "removed" else
                f"{{+{run['text']}+}}" for run in entry["diff"])
            ref = f"{entry['from_ref']} → {entry['ref']}" if entry["change"] == "moved" else entry["ref"]
            unchanged = " (text unchanged)" if entry["change"] == "moved" and entry["diff"] is None else ""
            lines.append(f"  {marks[entry['change']]} {ref}{unchanged}  {words}")
    return "\n".join(lines)


@cli.command()
@db_option
def migrate(db_path: Path):
    """Upgrade the database to this release's schema, atomically (read commands do it too when they can).

    Example: rulings migrate --db old.db
    """
    from kb.integrity import check
    _exists(db_path)
    check(db_path)
    reached = _upgrade(db_path)
    click.echo(f"{db_path}: schema version {reached[-1]}" if reached else f"{db_path}: already up to date")


def report_text(report: dict) -> str:
    """The ingest report as a judge reads it: what came through (for a new edition of a source, what changed),
    and what to check."""
    edition = report.get("edition")
    if edition and edition.get("unchanged"):
        return (f"{report['title']!r} is already in the database as version {edition['version']} of "
                f"{edition['source']}: nothing changed")
    front = ", ".join(f"{key} {value}" for key, value in report["front_matter"].items()) or "none found"
    numbered = report["numbered"]
    lines = [edition_text(edition)] if edition else []
    lines += [f"Added {report['title']!r} as {report['source']} ({report['format']}, shape {report['shape']}):",
             f"  {report['rulings']} rulings (" + ", ".join(f"{n} {kind}" for kind, n in report["kinds"].items())
             + f") in {report['sections']} sections, {report['examples']} examples, {report['gaps']} gaps",
             f"  headings: {report['headings']} ({', '.join(report['heading_titles'][:6]) or 'none'}"
             f"{', ...' if report['headings'] > 6 else ''}); tables: {report['tables']}; numbered by the "
             f"document: {numbered['own']} of {numbered['units']} units ({numbered['share']:.0%})",
             f"  pages: {report['pages'] or 'none marked'}; furniture removed: {report['furniture_removed']} "
             f"lines; contents entries read as structure: {report['contents_entries']}",
             f"  front matter: {front}"]
    lines += [f"  left out: its {key} {value!r}, which is no {key} ("
              + ("a date is a calendar date, e.g. 2024-08-09 or June 2024" if key == "date" else
                 f"one line of at most {MAX_VERSION} characters") + ")"
              for key, value in report.get("front_matter_left_out", {}).items()]
    lines += audit_text(report["audit"])
    if report["colliding_refs"]:
        lines.append(f"  WARNING: {len(report['colliding_refs'])} refs are another unit's number: "
                     + ", ".join(report["colliding_refs"][:5]))
    if report["doubt"]:
        lines.append(f"  WARNING: this looks wrong: {report['doubt']}; try another --shape")
    if report["suspicious"]:
        lines.append(f"  check {len(report['suspicious'])} suspicious rulings:")
        lines += [f"    {item['id']}: {item['why']}" for item in report["suspicious"][:10]]
        if len(report["suspicious"]) > 10:
            lines.append(f"    ... and {len(report['suspicious']) - 10} more (--json lists them all)")
    return "\n".join(lines)


def audit_text(audit: dict) -> list[str]:
    """The structure audit as report lines: its figures when good; when poor, each problem with examples and
    what the document was cut as instead, and the shapes tried."""
    numbered, glossary = audit["numbered"], audit["glossary"]
    figures = (f"read {numbered['read']:,} of {numbered['lines']:,} numbered lines ({numbered['share']:.0%}); "
               f"{audit['long']} long units, {audit['ordinals']} ordinal refs, {audit['colliding']} colliding refs; "
               f"glossary {glossary['entries']} entries for {glossary['pairs']} term/definition pairs")
    if not audit["problems"]:
        lines = [f"  structure audit: good: {figures}"]
    else:
        lines = [f"  structure audit: POOR ({figures})"]
        lines += ["    " + problem["what"]
                  + (f" (e.g. {', '.join(problem['examples'][:3])})" if problem["examples"] else "")
                  + (f": {problem['instead']}" if problem.get("instead") else "") for problem in audit["problems"]]
    if audit["shapes_tried"]:
        kept, *others = audit["shapes_tried"]
        lines.append(f"    shape {kept['shape']} read {kept['share']:.0%} of the numbered lines; "
                     + "; ".join(f"{other['shape']} {other['share']:.0%}" for other in others)
                     + f"; kept {kept['shape']}")
    return lines


def edition_text(edition: dict) -> str:
    """"Version 2025-10-31 of lorcana-comprehensive-rules (current): 14 rules changed, 6 added, 2 removed since
    2025-02-28"."""
    where = "current" if edition["current"] else "filed among its editions; the current one stays"
    head = f"Version {edition['version']} of {edition['source']} ({where})"
    if not edition["compared_with"]:
        return f"{head}: its oldest edition"
    return (f"{head}: {edition['changed']} rules changed, {edition['added']} added, {edition['removed']} removed, "
            f"{edition['moved']} moved since {edition['compared_with']}")


mode_option = click.option("--mode", default="hybrid", show_default=True, type=click.Choice(MODES),
                           help="Ranking: full text and meaning fused, full text only, or meaning only.")


def _require_db(db_path: Path) -> None:
    """Fail unless the database exists and passes SQLite's quick integrity check (a damaged file would
    otherwise answer from the pages it can still read and say nothing is wrong); one of an older schema is
    migrated first (said on stderr)."""
    from kb.integrity import check
    _exists(db_path)
    check(db_path)
    reached = _upgrade(db_path)
    if reached:
        click.echo(f"{db_path}: upgraded to schema version {reached[-1]}", err=True)


def _exists(db_path: Path) -> None:
    from kb.store import DatabaseMissing, require
    try:
        require(db_path)
    except DatabaseMissing as exc:
        _fail(exc)


def _upgrade(db_path: Path) -> list[int]:
    from kb.store import up_to_date
    try:
        if up_to_date(db_path):
            return []
        from kb.migrations import upgrade
        return upgrade(db_path)
    except (FileError, sqlite3.DatabaseError) as exc:
        _fail(exc)


def _connect(db_path: Path):
    from kb.store import connect
    _require_db(db_path)
    return connect(db_path)


def _status(result: dict) -> str:
    text = STATUS_LABELS["cli"].get(result.get("status"), result.get("status") or "")
    return f"{text}: {result['status_reason']}" if result.get("status_reason") else text


def _games(db_path: Path) -> list[dict]:
    """The games of a database (none when it is missing or cannot be read: a command says why)."""
    from kb.store import connect, games
    if not Path(db_path).exists():
        return []
    try:
        conn = connect(db_path)
        try:
            return games(conn)
        finally:
            conn.close()
    except (sqlite3.Error, FileError):
        return []


def _question(ctx: click.Context, param: click.Parameter, value: str) -> str:
    if not value.strip():
        raise click.BadParameter("the question is empty: ask something, e.g. \"Can a reserve army double its "
                                 "magic?\"", ctx, param)
    return value.strip()


@cli.command()
@click.argument("question", callback=_question)
@click.option("--game", cls=GameOption, default=None,
              help="Only this game's rulings: its slug or name.")
@click.option("-k", "k", default=DEFAULT_K, show_default=True, type=click.IntRange(1, MAX_K), help="How many rulings.")
@click.option("--as-of", "as_of", default=None, metavar="YYYY-MM-DD",
              help="Answer from the editions in force on that date (default: the current ones).")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@mode_option
@db_option
def ask(question: str, game: str | None, k: int, as_of: str | None, as_json: bool, mode: str, db_path: Path):
    """Answer a rules question with the rulings that settle it.

    Says "Answer" (no label: the ruling), "Closest rulings — check them" or "Not covered", each with the first
    ruling's full text; exits 1 only when not covered.

    Example: rulings ask "Can a reserve army double its magic?"
    """
    from kb.asof import BadDate
    from kb.onnx_embedder import warm_up
    if mode != "fts":
        warm_up()  # the model loads while the database is checked and read
    from kb.search import ask as answer
    conn = _connect(db_path)
    try:
        result = answer(conn, question, _resolve_game(conn, game), k, mode, as_of=as_of)
    except BadDate as exc:
        raise click.BadParameter(str(exc), param_hint="'--as-of'") from None
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    click.echo(outcome_text(result))
    if result["outcome"] == NOT_COVERED:
        sys.exit(1)


# What `rulings ask` calls each outcome (kb.answered); the outcome's claim follows it in the answer's own words.
OUTCOME_LABELS = {ANSWER: None, CLOSEST: "Closest rulings — check them", NOT_COVERED: "Not covered"}


def outcome_text(result: dict) -> str:
    """What `rulings ask` prints (`result` from `kb.search.ask`, shown as it is: its rulings in its order, in its
    `groups`): the outcome and its claim (`said`; none for an answer), each recorded gap the question names, then
    the first ruling in full, with its citation and (beside an answer) its verification status, then the other
    rulings a line each."""
    label = OUTCOME_LABELS[result["outcome"]]
    lines = [f"{label}. {result['said']}"] if label else []
    lines += [line for change in result.get("changes", []) for line in _change_lines(change)] + \
        ([""] if result.get("changes") else [])
    lines += [f"Recorded gap in {gap['source_title']}: {gap['description']} (line {gap['line']})"
              for gap in result["gaps"]]
    if not result["groups"]:
        return "\n".join(lines)
    answered = result["outcome"] == ANSWER
    (first, *rest), best = grouped(result), result["results"][0]
    if lines:
        lines += ["", "Nearest rulings, for reference:" if result["outcome"] == NOT_COVERED else "Closest first:"]
    if first["heading"] and first["heading"]["id"] != best["id"]:  # the parent rule as the best heads itself
        lines.append(f"Under {_family_heading(first)}")
    lines.append(f"{best['ref']}  {best['title']}  [{best['id']}]")
    lines.append(f"  {best['citation']['text']} — {best['citation']['section']} ({_provenance(best['citation'])})")
    if answered and not says_nothing(best["status"], best["game"]):
        lines.append(f"  [{_status(best)}]")
    lines += ["", plain(best["text"])]
    lines += [plain("Example: " + example) for example in best["examples"]]
    lines += [f"Also reprinted in {p['section'].rsplit(' > ', 1)[-1]} ({p['ref']})" for p in best.get("reprints", [])]
    if first["heading"] and len(first["results"]) > 1:
        lines.append(f"\nAlso under {first['heading']['label'] or first['heading']['title']}:")
        lines += [f"  - {_listed(other, answered)}" for other in first["results"][1:]]
    if rest:
        lines.append("\nAlso relevant:" if answered else "\nThe next closest:")
        lines += [line for group in rest for line in _group_lines(group, answered)]
    return "\n".join(lines)


def _listed(result: dict, with_status: bool = True) -> str:
    """A ruling on one line of a list: ref, title, id, citation, the source's kind and (beside an answer) its
    verification status."""
    shown = with_status and not says_nothing(result["status"], result["game"])
    status = f"; {STATUS_LABELS['cli'].get(result['status'], result['status'])}" if shown else ""
    return (f"{result['ref']}  {result['title'][:70]}  [{result['id']}] ({result['citation']['text']}{status}) "
            f"· {_provenance(result['citation'])}")


def _provenance(citation: dict) -> str:
    """What kind of source a ruling comes from, what it covers and which edition: "official-faq, covers: magic,
    v1.44 of 1996-03-01"."""
    named = edition(citation.get("version") or "", citation.get("effective") or "")
    return citation["kind"] + (f", covers: {citation['scope']}" if citation["scope"] else "") + \
        (f", {named}" if named else "")


def _family_heading(group: dict) -> str:
    """A family's parent rule as its heading: number and title, and its id when it is a ruling not listed under it."""
    heading = group["heading"]
    listed = heading["id"] is None or heading["id"] in group["ids"]
    return f"{heading['label']} {heading['title']}".strip() + ("" if listed else f"  [{heading['id']}]")


def _group_lines(group: dict, with_status: bool = True) -> list[str]:
    """The lines listing one group of results: a ruling alone on one line; a family under its parent rule's
    heading (the parent itself when it is the best), its best member first and marked `*`."""
    if group["heading"] is None:
        return [f"  - {_listed(group['results'][0], with_status)}"]
    best, *others = group["results"]
    if best["id"] == group["heading"]["id"]:  # the parent rule, the best, heads its family: not listed twice
        return [f"  * {_listed(best, with_status)}"] + [f"    - {_listed(other, with_status)}" for other in others]
    return [f"  {_family_heading(group)}", f"    * {_listed(best, with_status)}"] + \
        [f"    - {_listed(other, with_status)}" for other in others]


@cli.command("eval")
@click.argument("file", type=click.Path(dir_okay=False, path_type=Path))
@mode_option
@click.option("-k", "k", default=10, show_default=True, type=click.IntRange(1, MAX_K), help="Results per question.")
@click.option("--json", "as_json", is_flag=True, help="Print the figures (and misses) as JSON.")
@db_option
def evaluate(file: Path, mode: str, k: int, as_json: bool, db_path: Path):
    """Measure search on a JSON-lines file of {"id", "question", "expect": [phrases]}.

    A file whose questions have no "expect" is an off-topic set: each should be left unanswered (ideally "not
    covered").

    Example: rulings eval tests/dev_questions.jsonl --mode fts
    """
    from kb.evaluate import EvalFileError, load_questions
    from kb.evaluate import evaluate as run_eval
    try:
        questions = load_questions(file)
    except EvalFileError as exc:
        _fail(exc)
    figures = run_eval(_connect(db_path), questions, mode, k)
    if as_json:
        click.echo(json.dumps(figures, indent=2))
        return
    click.echo(json.dumps({key: value for key, value in figures.items() if key != "misses"}))
    for miss in figures["misses"]:
        if not miss["answerable"]:
            click.echo(f"  {miss['id']}: answered with {miss['got']}, though nothing should answer it")
            continue
        found = f"at rank {miss['rank']}" if miss["rank"] else f"not in the top {k}"
        click.echo(f"  {miss['id']}: correct ruling {found}, first was {miss['got']}, said: {miss['outcome']}")


@cli.command(context_settings={"ignore_unknown_options": True})
@click.argument("game", required=False)
@click.argument("calc", required=False)
@click.argument("params", nargs=-1)
@click.option("--json", "as_json", is_flag=True, help="Print JSON: the answer's facts, words and rulings, or the "
              "calculators' declarations.")
@click.option("--markdown", is_flag=True, help="Print every calculator as docs/engine.md's reference section.")
@db_option
def calc(game: str | None, calc: str | None, params: tuple[str, ...], as_json: bool, markdown: bool, db_path: Path):
    """Run a judge's calculator with key=value parameters, or list a game's calculators (GAME alone) or every
    game's (no argument).

    Example: rulings calc dragon-dice saves rolled=7 frosted=true stoneskins=3
    """
    from engine.calculators import CalcError, describe, games, reference_markdown, run, shown
    if markdown:
        click.echo(reference_markdown())
        return
    try:
        slugs = [_calculator_game(game, db_path)] if game else list(games())
        if calc is None:
            listed = {slug: describe()[slug] for slug in slugs}
            click.echo(json.dumps(listed if game is None else listed[slugs[0]], ensure_ascii=False, indent=2)
                       if as_json else calculator_listing(listed))
            return
        values = {}
        for param in params:
            key, sep, value = param.partition("=")
            if not sep or not key:
                raise CalcError(f"parameter {shown(param)} must look like key=value")
            values[key] = value
        answer = run(slugs[0], calc, values)
    except CalcError as exc:
        raise Refused(_line(exc)) from None
    if as_json:
        click.echo(json.dumps(answer, ensure_ascii=False))
        return
    click.echo(answer["answer"])
    refs = _refs(db_path, answer["rulings"])
    click.echo("Decided by: " + ", ".join(refs.get(ruling_id, ruling_id) for ruling_id in answer["rulings"]))


def _calculator_game(game: str, db_path: Path) -> str:
    """The slug of the game `game` names among the games with calculators; a game of the database without any
    is refused saying so, with the games that have them (not as an unknown game)."""
    from engine.calculators import CalcError, find_game, games
    try:
        return find_game(game)
    except CalcError:
        stored = _stored_game(game, db_path)
        if stored is None:
            raise
        raise CalcError(f"{stored['name']} ({stored['slug']}) is in the database, but the rules engine has no "
                        f"calculators for it; games with calculators: {', '.join(games())}") from None


def _stored_game(game: str, db_path: Path) -> dict | None:
    """The game of the database that `game` names as --game would (`_game_aliases`: slug, name or a near
    spelling), if the database exists and one does."""
    from engine.names import UnknownName, resolve
    from kb.store import games
    if not Path(db_path).exists():
        return None
    conn = _connect(db_path)
    try:
        known = games(conn)
        slug = resolve(game, _game_aliases(known), "game")
    except UnknownName:
        return None
    finally:
        conn.close()
    return next(g for g in known if g["slug"] == slug)


def _game_aliases(known: list[dict]) -> dict[str, str]:
    """What a user may call each of the database's games (`kb.store.games`): its slug or its name → its slug."""
    return {**{g["slug"]: g["slug"] for g in known}, **{g["name"]: g["slug"] for g in known}}


def _refs(db_path: Path, ruling_ids: list[str]) -> dict[str, str]:
    """Ruling id -> its ref in the database (none without a database: the ids are shown then)."""
    from kb.store import connect
    if not Path(db_path).exists() or not ruling_ids:
        return {}
    conn = connect(db_path)
    try:
        return dict(conn.execute(f"select id, ref from rulings where id in ({','.join('?' * len(ruling_ids))})",
                                 ruling_ids).fetchall())
    finally:
        conn.close()


def calculator_listing(described: dict[str, dict]) -> str:
    """Games' calculators as a judge reads them: each with its description, then its parameters."""
    lines = []
    for game, calculators in described.items():
        lines.append(f"{game}:")
        for name, calculator in calculators.items():
            lines.append(f"  {name}: {calculator['description']}")
            for param, p in calculator["params"].items():
                low, high = ("" if n is None else n for n in (p["min"], p["max"]))
                bounds = f" {low}..{high}" if (low, high) != ("", "") else ""
                choices = f" one of {', '.join(p['choices'])}" if p["choices"] else ""
                need = "required" if p["required"] else f"default {json.dumps(p['default'])}"
                lines.append(f"    {param} ({p['type']}{bounds}{choices}; {need}): {p['help']}")
    return "\n".join(lines)


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the full JSON summary.")
@db_option
def verify(as_json: bool, db_path: Path):
    """Run every executable example through the engine; record and summarise the results.

    Example: rulings verify --json
    """
    from kb.verify import verify as run_all
    _require_db(db_path)
    try:
        summary = run_all(db_path)
    except FileError as exc:
        _fail(exc)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        click.echo(f"{summary['passed']}/{summary['examples']} examples pass; {summary['linked']}/"
                   f"{summary['rulings']} rulings linked to a passing test")
        for item in summary["unlinked"]:
            click.echo(f"  unlinked {item['id']}: {item['reason']}")
    if summary["failed"]:
        sys.exit(1)


@cli.command("export-model")
def export_model():
    """Export the packaged embedding model to ONNX for fast query embedding (once per environment).

    Example: rulings export-model
    """
    from kb.onnx_embedder import export
    click.echo(f"exported {export()}")


@cli.command()
@db_option
def stats(db_path: Path):
    """Print, per source, what it yielded, and per game, how many rulings the engine proves (Markdown tables).

    Example: rulings stats
    """
    from kb.report import engine_summary, markdown_table, source_summary
    conn = _connect(db_path)
    click.echo(markdown_table(source_summary(conn)))
    click.echo()
    click.echo(markdown_table(engine_summary(conn)))


APP_URL_ENV, DATASETTE_URL_ENV = "RULINGS_BASE_URL", "RULINGS_DATASETTE_URL"


def _server_options(port: int, own_env: str, url_flag: str, url_env: str, url: str, url_help: str):
    """--host, --port, this server's --base-url, the other server's URL and --db: what both servers take."""
    def decorate(command):
        for option in reversed([
                click.option("--host", default="127.0.0.1", show_default=True),
                click.option("--port", default=port, show_default=True, type=click.IntRange(1, 65535)),
                click.option("--base-url", envvar=own_env,
                             help=f"Where clients reach this server (the start of the URLs it writes); without it, "
                                  f"${own_env}, else http://HOST:PORT. Never taken from a request's Host."),
                click.option(url_flag, envvar=url_env, default=url, show_default=True,
                             help=f"{url_help} Without it, ${url_env}."),
                db_option]):
            command = option(command)
        return command
    return decorate


def _base_url(base_url: str | None, host: str, port: int) -> str:
    """The configured base URL, else this server's own address."""
    return base_url or f"http://{f'[{host}]' if ':' in host else host}:{port}"


@cli.command()
@_server_options(5000, APP_URL_ENV, "--datasette-url", DATASETTE_URL_ENV, "http://127.0.0.1:8001",
                 "Where `rulings browse` runs; pages link their rows there.")
def serve(host: str, port: int, base_url: str | None, datasette_url: str, db_path: Path):
    """Serve the web pages and JSON API with waitress.

    Example: rulings serve --port 5000 --base-url https://rulings.example.org
    """
    import waitress

    from service.app import create_app
    from service.gate import THREADS
    _require_db(db_path)
    base_url = _base_url(base_url, host, port)
    click.echo(f"rulings: http://{host}:{port}/ (database {db_path}; URLs in answers start {base_url})")
    waitress.serve(create_app(db_path, datasette_url, base_url), host=host, port=port, threads=THREADS)


@cli.command()
@_server_options(8001, DATASETTE_URL_ENV, "--app-url", APP_URL_ENV, "http://127.0.0.1:5000",
                 "Where `rulings serve` runs; ruling rows link their permalinks there.")
def browse(host: str, port: int, base_url: str | None, app_url: str, db_path: Path):
    """Browse the database in Datasette: read-only, with titles, facets and canned queries.

    Example: rulings browse --port 8001
    """
    from service.browse import serve as serve_datasette
    _require_db(db_path)
    click.echo(f"datasette: http://{host}:{port}/ (database {db_path}, read-only)")
    serve_datasette(db_path, host, port, app_url, _base_url(base_url, host, port))


def main():
    cli()


if __name__ == "__main__":
    main()
