"""Citations a judge can follow: every ruling's `start`/`end` hold exactly that ruling in its source's original
text (as stored, and as every reader gets it), pages where the document marks them, and a source page that
highlights just that span."""
from __future__ import annotations

import re

import pytest

from kb.rulings import details, results, ruling
from service.app import create_app

FLAT = "paths-of-the-lance-rules"


def test_every_ruling_and_example_span_holds_its_text_in_the_stored_original(conn, span_fault):
    originals = dict(conn.execute("select id, original_text from sources"))
    rows = conn.execute("select r.id, r.source, r.char_start, r.char_end, r.text from rulings r union all "
                        "select e.id, r.source, e.char_start, e.char_end, e.text from examples e "
                        "join rulings r on r.id = e.ruling_id where e.kind = 'source'").fetchall()
    assert len(rows) > 150
    faults = {row["id"]: span_fault(originals[row["source"]], row["char_start"], row["char_end"], row["text"])
              for row in rows}
    assert {key: why for key, why in faults.items() if why} == {}


def test_a_flattened_book_cites_each_ruling_by_a_short_span_not_the_whole_line(conn):
    length = len(conn.execute("select original_text from sources where id = ?", [FLAT]).fetchone()[0])
    spans = conn.execute("select id, char_start, char_end, line_start, line_end from rulings where source = ?",
                         [FLAT]).fetchall()
    assert {(row["line_start"], row["line_end"]) for row in spans} == {(6, 6)}  # the book is one line
    assert all(row["char_end"] - row["char_start"] < length / 5 for row in spans)
    starts = [row["char_start"] for row in spans]
    assert len(set(starts)) == len(starts)  # no two rulings marked at one place


def test_a_span_never_reaches_into_the_next_ruling(conn):
    for (source,) in conn.execute("select id from sources"):
        spans = conn.execute("select id, char_start, char_end from rulings where source = ? order by position",
                             [source]).fetchall()
        for before, after in zip(spans, spans[1:]):
            assert before["char_end"] <= after["char_start"] or after["char_start"] < before["char_start"], \
                (before["id"], after["id"])


def test_wizard_dice_page_of_n_footers_give_every_ruling_its_page(conn):
    pages = dict(conn.execute("select id, page from rulings where source = 'wizard-dice-rules'"))
    assert None not in pages.values()
    assert pages["wizard-dice/rules/introduction"] == 1
    assert pages["wizard-dice/rules/counter-spells/shield"] == 1  # line 3, before the "Page 1 of 4" footer
    assert pages["wizard-dice/rules/list-of-basic-spells/fireball"] == 3  # after "Page 2 of 4"
    assert pages["wizard-dice/rules/example-of-play"] == 4


def test_documents_without_page_marks_cite_no_page(conn):
    assert conn.execute("select count(*) from rulings where page is not null and source in "
                        "('dragon-dice-faq-magic', 'dungeon-twister-clarifications')").fetchone()[0] == 0


def test_a_flattened_book_cites_the_pages_its_glued_page_numbers_mark(conn):
    pages = {row["ref"]: (row["page"], row["page_end"], row["citation"].rsplit(", ", 1)[-1]) for row in
             conn.execute("select ref, page, page_end, citation from rulings where source = ?", [FLAT])}
    assert None not in {page for page, _, _ in pages.values()}
    # Before "...from the game). 1 Assault points": page 1 ends.
    assert pages["PotL New Sequence of Play 1"] == (1, 1, "page 1")
    assert pages["PotL Using The Event Cards"] == (1, 2, "pages 1–2")  # the section runs over that page number
    assert pages["PotL A"] == (2, 3, "pages 2–3")  # the contents put Highlords on page 2
    assert pages["PotL B.1"] == (3, 3, "page 3")   # ... and Activating Neutral Nations on page 3
    assert pages["PotL Optional C.5"] == (5, 5, "page 5")  # after the last number (4), before the last page (6)


def test_every_reader_gets_start_end_and_page_in_the_citation(conn):
    ruling_id = "wizard-dice/rules/list-of-basic-spells/fireball"
    stored = conn.execute("select char_start, char_end, page from rulings where id = ?", [ruling_id]).fetchone()
    expected = {"start": stored["char_start"], "end": stored["char_end"], "page": 3}
    for cite in (results(conn, [(ruling_id, 1.0)])[0]["citation"], ruling(conn, ruling_id)["citation"],
                 details(conn, ruling_id)["cite"]):
        assert {key: cite[key] for key in expected} == expected
    example = details(conn, "dragon-dice/magic/general/f")["source_examples"][0]["citation"]
    assert {"start", "end", "page"} <= set(example)


@pytest.fixture(scope="module")
def client(built_db):
    return create_app(built_db, datasette_url="http://datasette.test").test_client()


def test_the_api_and_ask_json_carry_the_span(client, conn):
    found = client.get("/api/rulings/paths-of-the-lance/new-rules/a").get_json()["citation"]
    original = conn.execute("select original_text from sources where id = ?", [FLAT]).fetchone()[0]
    assert original[found["start"]:found["end"]].startswith("The Highlord player starts out with only Ariakas.")
    assert (found["page"], found["page_end"], found["pdf_page"]) == (2, 3, None)
    answer = client.get("/api/search", query_string={"q": "fireball five of a kind"}).get_json()
    assert all({"start", "end", "page"} <= set(result["citation"]) for result in answer["results"])


def test_the_source_page_highlights_just_the_cited_span_and_marks_each_ruling_where_it_starts(client, conn):
    row = conn.execute("select char_start, char_end, text from rulings where id = 'paths-of-the-lance/new-rules/a'"
                       ).fetchone()
    page = client.get(f"/sources/{FLAT}", query_string={"start": row["char_start"], "end": row["char_end"]}
                      ).get_data(as_text=True)
    marked = re.findall(r"<mark[^>]*>(.*?)</mark>", page, re.DOTALL)
    assert len(marked) == 1 and page.count('id="cited"') == 1
    assert marked[0].startswith("The Highlord player starts out") and len(marked[0]) == row["char_end"] - row["char_start"]
    # Each ruling's marker stands just before its first words, not piled up at the top of the line.
    assert re.search(r'id="r-paths-of-the-lance/new-rules/a"[^>]*>[^<]*</a><mark id="cited">The Highlord', page)


def test_a_listing_header_is_folded_away_as_web_page_chrome(client):
    page = client.get("/sources/dragon-dice-faq-magic").get_data(as_text=True)
    chrome = page[page.index('<details class="chrome">'):page.index("</details>", page.index('class="chrome"'))]
    assert "CD-ROM" in chrome and "CD-ROM" not in page[page.index('aria-label="Source text"'):]


@pytest.mark.parametrize("query", [{"start": "x", "end": "5"}, {"start": "5"}, {"start": "9", "end": "5"},
                                   {"start": "0", "end": "99999999"}])
def test_the_source_page_rejects_a_bad_span_naming_the_parameter(client, query):
    response = client.get(f"/sources/{FLAT}", query_string=query)
    assert response.status_code == 400
    assert re.search(r"parameters? &#39;(start|end)&#39;", response.get_data(as_text=True))
