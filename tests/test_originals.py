"""Back to the original: a source's document is served read-only as it came, a PDF's citations name the page
printed on it and link to that page of the file, text citations name lines, and the citation a judge copies
names the game, the source, its edition and the page or lines."""
import html
import io
import re

import pytest
from pypdf import PdfReader

from kb.store import connect
from service.app import create_app
from support import CORPORA, LORCANA_EDITIONS, LORCANA_RULES

FIRST, _, LAST = LORCANA_EDITIONS
CHALLENGE = "Lorcana 4.3.6.1"  # printed page 8 of the 2025-10-31 PDF, its 11th page (three pages of front matter)
PDF_LINK = re.compile(r'<a class="original" href="([^"#]+)#page=(\d+)">')
OPENS = f"/sources/{LORCANA_RULES}/original?version={LAST}"  # a citation opens the edition it cites
def needs_corpora(test):
    """A test of the real documents of ../shared/corpora (marked corpus), skipped when they are not there."""
    skip = pytest.mark.skipif(not CORPORA.is_dir(), reason=f"{CORPORA} is not beside the clone")
    return pytest.mark.corpus(skip(test))


@pytest.fixture(scope="module")
def lorcana(editions_db):
    return create_app(editions_db, datasette_url="http://datasette.test").test_client()


@pytest.fixture(scope="module")
def seeds(built_db):
    return create_app(built_db, datasette_url="http://datasette.test").test_client()


@pytest.fixture(scope="module")
def db(editions_db):
    connection = connect(editions_db)
    yield connection
    connection.close()


def _ruling(db, ref: str) -> dict:
    return dict(db.execute("select * from rulings where ref = ?", [ref]).fetchone())


@needs_corpora
def test_a_pdf_is_served_as_it_came_read_only(lorcana):
    response = lorcana.get(f"/sources/{LORCANA_RULES}/original")
    assert response.status_code == 200 and response.mimetype == "application/pdf"
    assert response.data == (CORPORA / f"{LORCANA_RULES}-{LAST}.pdf").read_bytes()
    assert "inline" in response.headers["Content-Disposition"]
    assert "default-src 'none'" in response.headers["Content-Security-Policy"]
    assert lorcana.post(f"/sources/{LORCANA_RULES}/original").status_code == 405


@needs_corpora
def test_each_edition_keeps_its_own_file(lorcana):
    response = lorcana.get(f"/sources/{LORCANA_RULES}/original", query_string={"version": FIRST})
    assert response.data == (CORPORA / f"{LORCANA_RULES}-{FIRST}.pdf").read_bytes()
    assert lorcana.get(f"/sources/{LORCANA_RULES}/original", query_string={"version": "1999"}).status_code == 404


@needs_corpora
def test_a_pdf_citation_names_the_printed_page_and_opens_that_page_of_the_file(lorcana, db):
    row = _ruling(db, CHALLENGE)
    assert (row["page"], row["pdf_page"]) == (8, 11)
    assert row["citation"].endswith(", page 8") and "line" not in row["citation"]
    page = lorcana.get(f"/r/{row['id']}").get_data(as_text=True)
    url, number = PDF_LINK.search(page).groups()
    assert (html.unescape(url), number) == (OPENS, "11")
    opened = PdfReader(io.BytesIO(lorcana.get(html.unescape(url)).data)).pages[int(number) - 1].extract_text()
    assert opened.split("\n")[0] == "8"  # the number printed on the page
    assert " ".join(row["text"].split())[:60] in " ".join(opened.split())


@needs_corpora
def test_every_pdf_ruling_starts_on_the_page_it_cites(db, editions_db):
    reader = PdfReader(CORPORA / f"{LORCANA_RULES}-{LAST}.pdf")
    texts = [" ".join(page.extract_text().split()) for page in reader.pages]
    rows = db.execute("select ref, text, pdf_page from rulings where source = ? and kind != 'title'",
                      [LORCANA_RULES]).fetchall()
    misplaced = [row["ref"] for row in rows
                 if " ".join(row["text"].split())[:40] not in texts[row["pdf_page"] - 1]
                 and " ".join(row["text"].split())[:40] not in texts[row["pdf_page"] - 1] + " " + texts[row["pdf_page"]]]
    assert len(rows) > 400 and len(misplaced) <= len(rows) // 50, misplaced[:10]


@needs_corpora
def test_the_copied_citation_names_game_source_edition_and_page(lorcana, db):
    row = _ruling(db, CHALLENGE)
    found = lorcana.get(f"/api/rulings/{row['id']}").get_json()["citation"]
    # The document calls itself "COMPREHENSIVE RULES": its title names the game as the document does.
    assert found["full"].startswith(f"{CHALLENGE} — Disney Lorcana Comprehensive Rules, ")
    assert f", {LAST}, " in found["full"] and found["full"].endswith(", page 8")
    assert (found["page"], found["page_end"], found["pdf_page"], found["original"]) == (8, 8, 11, True)
    page = lorcana.get(f"/r/{row['id']}").get_data(as_text=True)
    assert f'data-cite="{html.escape(found["full"])}"' in page


@needs_corpora
def test_search_results_link_pdf_citations_to_their_page(lorcana):
    page = lorcana.get("/", query_string={"q": "rule 4.3.6.1", "game": "lorcana"}).get_data(as_text=True)
    assert (OPENS, "11") in [(html.unescape(url), n) for url, n in PDF_LINK.findall(page)]


@needs_corpora
def test_an_answer_as_of_an_earlier_date_opens_the_pdf_of_that_edition_at_its_page(lorcana):
    answer = lorcana.get("/api/search", query_string={"q": "rule 4.3.6.1", "game": "lorcana",
                                                      "as_of": FIRST}).get_json()
    cited = answer["results"][0]["citation"]
    assert cited["version"] == FIRST and cited["original"] and cited["pdf_page"]
    # The API gives the link itself: the file of the edition cited, opened at its page.
    path, page = cited["original_url"].split("#page=")
    assert int(page) == cited["pdf_page"]
    response = lorcana.get(path)
    assert response.data == (CORPORA / f"{LORCANA_RULES}-{FIRST}.pdf").read_bytes()
    opened = PdfReader(io.BytesIO(response.data)).pages[cited["pdf_page"] - 1].extract_text()
    assert " ".join(answer["results"][0]["text"].split())[:50] in " ".join(opened.split())


def test_a_text_source_is_served_as_plain_text_that_never_runs(seeds, conn):
    response = seeds.get("/sources/dragon-dice-faq-magic/original")
    assert response.mimetype == "text/plain" and response.mimetype_params["charset"] == "utf-8"
    original = conn.execute("select original_text from sources where id = 'dragon-dice-faq-magic'").fetchone()[0]
    assert response.get_data(as_text=True) == original
    assert "sandbox" in response.headers["Content-Security-Policy"]
    assert response.headers["X-Content-Type-Options"] == "nosniff"
    assert seeds.get("/sources/no-such-source/original").status_code == 404


def test_text_citations_name_lines_and_link_no_pdf(seeds, conn):
    row = conn.execute("select id, citation from rulings where ref = 'DD Magic A'").fetchone()
    assert row["citation"].endswith("lines 26–31")
    page = seeds.get(f"/r/{row['id']}").get_data(as_text=True)
    assert not PDF_LINK.search(page)
    assert seeds.get(f"/api/rulings/{row['id']}").get_json()["citation"]["original_url"] is None
    assert 'href="/sources/dragon-dice-faq-magic/original"' in seeds.get("/sources/dragon-dice-faq-magic").get_data(
        as_text=True)
