"""Values checked where they enter: a date from a document is a date or is left out (the report says so), a
version is one short line, a file name and a version never break a response header, and a manifest's fields
are refused with the field named."""
import json
import shutil
import sqlite3

import pytest
from click.testing import CliRunner

from ingest.errors import InvalidEntry
from ingest.manifest import source_entry
from model import values
from service.app import create_app
from service.cli import cli

QA = [{"question": "Can a scout move twice?", "answer": "No, a scout moves once per turn like any unit."},
      {"question": "Does a fort block sight?", "answer": "Yes, forts block line of sight for every unit."}]


@pytest.fixture
def db(built_db, tmp_path):
    copy = tmp_path / "rulings.db"
    shutil.copy(built_db, copy)
    return copy


def add_qa(db, name: str, **front) -> dict:
    """Add a Q/A JSON document with the given top-level fields; its ingest report."""
    path = db.parent / name
    path.write_text(json.dumps({"title": "Skirmish FAQ", **front, "faq": QA}), encoding="utf-8")
    result = CliRunner().invoke(cli, ["add", str(path), "--game", "skirmish", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    return json.loads(result.output)


def source_row(db, source: str) -> dict:
    conn = sqlite3.connect(db)
    conn.row_factory = sqlite3.Row
    try:
        return dict(conn.execute("select * from sources where id = ?", [source]).fetchone())
    finally:
        conn.close()


def test_a_date_that_is_no_date_is_left_out_and_the_report_says_so(db):
    report = add_qa(db, "faq.json", version="1.0", date="next tuesday")
    assert report["front_matter_left_out"] == {"date": "next tuesday"}
    assert source_row(db, report["source"])["date"] == ""
    text = CliRunner().invoke(cli, ["add", str(db.parent / "faq.json"), "--game", "skirmish", "--db", str(db),
                                    "--as-new"]).output
    assert "left out: its date 'next tuesday', which is no date" in text


def test_a_source_without_a_date_is_still_in_force_as_of_any_date(db):
    add_qa(db, "faq.json", date="next tuesday")
    result = CliRunner().invoke(cli, ["ask", "Can a scout move twice?", "--game", "skirmish", "--as-of",
                                      "2020-01-01", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    assert "a scout moves once per turn" in json.loads(result.output)["results"][0]["text"]


@pytest.mark.parametrize("written, stored", [
    ("2024-08-09", "2024-08-09"), ("2024-08-09T10:30:00Z", "2024-08-09"), ("June 9, 2024", "2024-06-09"),
    ("9 June 2024", "2024-06-09"), ("June 2024", "2024-06"), ("2024", "2024"),
])
def test_a_written_date_is_stored_as_iso(db, written, stored):
    report = add_qa(db, "faq.json", date=written)
    assert source_row(db, report["source"])["date"] == stored
    assert not report["front_matter_left_out"]


def test_a_calendar_date_that_does_not_exist_is_no_date():
    assert values.stored_date("2025-02-30") is None and not values.is_day("2025-02-30")
    assert values.is_day("2024-02-29") and not values.is_day("2024-2-29")
    assert values.stored_date("\uff12\uff10\uff12\uff15-01-01") is None  # fullwidth digits are no date here


def test_a_version_is_kept_as_one_line_and_a_sentence_is_left_out(db):
    report = add_qa(db, "faq.json", version='2.2 \u2013 June\n"beta"')
    assert source_row(db, report["source"])["version"] == '2.2 \u2013 June "beta"'
    report = add_qa(db, "long.json", version="v" * 200)
    assert report["front_matter_left_out"] == {"version": "v" * 200}


@pytest.mark.parametrize("version", ['1.0 "beta"', "2.2 \u2013 June", "\u7248 3"])
def test_the_original_of_a_source_whose_version_no_header_can_carry_is_served(db, version):
    report = add_qa(db, "faq.json", version=version)
    response = create_app(db).test_client().get(f"/sources/{report['source']}/original")
    assert response.status_code == 200
    assert b"Can a scout move twice?" in response.data
    assert response.headers["X-Content-Type-Options"] == "nosniff"  # our headers, not waitress's own page
    etag = response.headers["ETag"]
    assert etag.isascii() and etag.count('"') == 2
    again = create_app(db).test_client().get(f"/sources/{report['source']}/original",
                                               headers={"If-None-Match": etag})
    assert again.status_code == 304


def test_a_file_name_with_a_newline_or_quote_is_cleaned_for_the_header(db):
    name = 'skirmish\n"faq".json'
    report = add_qa(db, name, version="1")
    response = create_app(db).test_client().get(f"/sources/{report['source']}/original")
    assert response.status_code == 200
    disposition = response.headers["Content-Disposition"]
    assert "\n" not in disposition and "skirmish 'faq'.json" in disposition


@pytest.mark.parametrize("name, cleaned", [
    ("../../etc/passwd", "passwd"), ("a\r\nSet-Cookie: x=1.pdf", "a Set-Cookie: x=1.pdf"),
    ('say "hi".txt', "say 'hi'.txt"), ("\u202erules.pdf", "rules.pdf"), ("", "document"),
    ("x" * 300 + ".pdf", "x" * 196 + ".pdf"),
])
def test_file_names_are_cleaned_for_headers(name, cleaned):
    assert values.file_name(name) == cleaned


@pytest.mark.parametrize("field, value, message", [
    ("date", "next tuesday", "field 'date' must be a calendar date"),
    ("date", "2025-02-30", "field 'date' must be a calendar date"),
    ("version", "1.0\nbeta", "field 'version' must be one line"),
    ("version", "v" * 81, "field 'version' must be one line"),
])
def test_a_manifest_field_that_is_no_date_or_version_is_refused_by_name(field, value, message):
    fields = {"id": "faq", "file": "faq.txt", "game": "skirmish", "title": "FAQ", "kind": "official-faq",
              "language": "en", "shape": "auto", field: value}
    with pytest.raises(InvalidEntry, match=message) as refused:
        source_entry(fields)
    assert refused.value.field == field
