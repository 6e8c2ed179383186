"""The `rulings` command: each subcommand parses its options and calls one library function."""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from kb.build import DEFAULT_DB, DEFAULT_MANIFEST

db_option = click.option("--db", "db_path", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_DB,
                         show_default=True, help="The rulings database.")


def _fail(exc: Exception) -> None:
    raise click.ClickException(str(exc))


@click.group()
def cli():
    """Rules clarifications for tabletop games: ingest, search, verify and serve rulings."""


@cli.command()
@db_option
@click.option("--manifest", type=click.Path(dir_okay=False, path_type=Path), default=DEFAULT_MANIFEST,
              show_default=True, help="The sources manifest.")
def ingest(db_path: Path, manifest: Path):
    """Rebuild the database from the sources manifest, atomically.

    Example: rulings ingest --db rulings.db
    """
    from ingest.errors import IngestError
    from kb.build import build
    try:
        counts = build(db_path, manifest)
    except IngestError as exc:
        _fail(exc)
    click.echo(f"{db_path}: " + ", ".join(f"{n} {table}" for table, n in counts.items()))


@cli.command()
@click.argument("file", type=click.Path(path_type=Path))
@click.option("--game", required=True, help="Game slug, e.g. dragon-dice.")
@click.option("--title", required=True, help="Title of the document.")
@click.option("--shape", default="outline", show_default=True,
              help="Layout: outline (lettered/numbered/decimal items, Q:/A:, headed sections), blog, glued, "
                   "doc, flat, paragraphs.")
@click.option("--kind", default="rulebook", show_default=True, help="official-faq, designer-clarifications, "
              "variant-rules, rulebook or house-rules.")
@click.option("--language", default="en", show_default=True)
@db_option
def add(file: Path, game: str, title: str, shape: str, kind: str, language: str, db_path: Path):
    """Ingest one more document into the database.

    Example: rulings add errata.txt --game dragon-dice --title "Dragon Dice errata"
    """
    from ingest.errors import IngestError
    from kb.build import add_document
    try:
        result = add_document(db_path, file, game, title, shape=shape, kind=kind, language=language)
    except IngestError as exc:
        _fail(exc)
    click.echo(json.dumps(result))


@cli.command()
@click.argument("question")
@click.option("--game", default=None, help="Only this game's rulings.")
@click.option("-k", "k", default=5, show_default=True, type=click.IntRange(1, 50), help="How many rulings.")
@click.option("--json", "as_json", is_flag=True, help="Print JSON.")
@db_option
def ask(question: str, game: str | None, k: int, as_json: bool, db_path: Path):
    """Answer a rules question with the rulings that settle it.

    Example: rulings ask "Can a reserve army double its magic?"
    """
    from kb.search import ask as answer
    from kb.store import DatabaseMissing, connect
    try:
        conn = connect(db_path)
    except DatabaseMissing as exc:
        _fail(exc)
    result = answer(conn, question, game, k)
    if as_json:
        click.echo(json.dumps(result, ensure_ascii=False, indent=2))
        return
    if not result["answered"]:
        click.echo("No ruling in the knowledge base answers this question.")
        sys.exit(1)
    best, *others = result["results"]
    click.echo(f"{best['title']}  [{best['id']}]")
    click.echo(f"  {best['citation']['text']} — {best['citation']['section']}")
    click.echo()
    click.echo(click.wrap_text(best["text"], 100, initial_indent="  ", subsequent_indent="  "))
    for example in best["examples"]:
        click.echo(click.wrap_text("Example: " + example, 100, initial_indent="  ", subsequent_indent="    "))
    if others:
        click.echo("\nAlso relevant:")
        for other in others:
            click.echo(f"  - {other['title'][:70]}  [{other['id']}] ({other['citation']['text']})")


@cli.command()
@click.option("--json", "as_json", is_flag=True, help="Print the full JSON summary.")
@db_option
def verify(as_json: bool, db_path: Path):
    """Run every executable example through the engine; record and summarise the results.

    Example: rulings verify --json
    """
    from kb.verify import verify as run_all
    if not Path(db_path).exists():
        _fail(FileNotFoundError(f"{db_path}: database not found; run `rulings ingest` first"))
    summary = run_all(db_path)
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
    """Print, per source, the rulings, examples, tables and gaps it yielded (a Markdown table).

    Example: rulings stats
    """
    from kb.report import markdown_table, source_summary
    from kb.store import DatabaseMissing, connect
    try:
        conn = connect(db_path)
    except DatabaseMissing as exc:
        _fail(exc)
    click.echo(markdown_table(source_summary(conn)))


def _require_db(db_path: Path) -> None:
    if not Path(db_path).exists():
        _fail(FileNotFoundError(f"{db_path}: database not found; run `rulings ingest` first"))


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=5000, show_default=True, type=click.IntRange(1, 65535))
@click.option("--datasette-url", default="http://127.0.0.1:8001", show_default=True,
              help="Where `rulings browse` runs; pages link their rows there.")
@db_option
def serve(host: str, port: int, datasette_url: str, db_path: Path):
    """Serve the web pages and JSON API with waitress.

    Example: rulings serve --port 5000
    """
    import waitress

    from service.app import create_app
    _require_db(db_path)
    click.echo(f"rulings: http://{host}:{port}/ (database {db_path})")
    waitress.serve(create_app(db_path, datasette_url), host=host, port=port, threads=8)


@cli.command()
@click.option("--host", default="127.0.0.1", show_default=True)
@click.option("--port", default=8001, show_default=True, type=click.IntRange(1, 65535))
@click.option("--app-url", default="http://127.0.0.1:5000", show_default=True,
              help="Where `rulings serve` runs; ruling rows link their permalinks there.")
@db_option
def browse(host: str, port: int, app_url: str, db_path: Path):
    """Browse the database in Datasette: immutable, read-only, with titles, facets and canned queries.

    Example: rulings browse --port 8001
    """
    from service.browse import serve as serve_datasette
    _require_db(db_path)
    click.echo(f"datasette: http://{host}:{port}/ (database {db_path}, read-only)")
    serve_datasette(db_path, host, port, app_url)


def main():
    cli()


if __name__ == "__main__":
    main()
