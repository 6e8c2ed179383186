"""The web service: every page and API route, its errors, escaping, and the OpenAPI description."""
import json
import re

import pytest
from click.testing import CliRunner
from markupsafe import escape

from kb.rulings import STATUS_LABELS
from model.citation import line_range
from service.app import BASE_URL, create_app
from service.cli import cli
from service.db import get_db

QUESTION = "Can a reserve army double its magic?"
BEST = "dragon-dice/magic/general/m"


@pytest.fixture(scope="module")
def app(built_db):
    return create_app(built_db, datasette_url="http://datasette.test")


@pytest.fixture
def client(app):
    return app.test_client()


def html(response) -> str:
    return response.get_data(as_text=True)


def line(page: str, number: int) -> str:
    """The markup of one line of a source page."""
    return re.search(rf'<div class="line[^"]*" id="L{number}">.*?</div>', page, re.DOTALL).group(0)


@pytest.mark.parametrize("url", ["/", f"/?q={QUESTION}", f"/r/{BEST}", "/games/dragon-dice",
                                 "/sources/dragon-dice-faq-magic", "/sources/dragon-dice-faq-magic/versions",
                                 "/sources/dragon-dice-faq-magic/diff", "/handbook/wizard-dice", "/r/nope"])
def test_every_page_is_responsive_and_has_a_skip_link(client, url):
    page = html(client.get(url))
    assert '<meta name="viewport" content="width=device-width, initial-scale=1">' in page
    assert '<a class="skip" href="#main">' in page and '<main id="main"' in page
    assert "/static/style.css" in page


def test_ask_page_offers_a_question_box_and_a_game_filter(client):
    page = html(client.get("/"))
    assert '<label for="q">' in page and '<input type="search" id="q" name="q"' in page
    assert '<select id="game" name="game">' in page and '<option value="wizard-dice"' in page


def cited_url(conn, table: str, row_id: str) -> str:
    """The href of a citation of one ruling or example: its source page opened at its exact characters."""
    row = conn.execute(f"select char_start, char_end from {table} where id = ?", [row_id]).fetchone()
    source = row_id.split("/")[0] + "-faq-magic"
    return f'href="/sources/{source}?start={row["char_start"]}&amp;end={row["char_end"]}#cited"'


def test_ask_shows_the_best_ruling_first_with_citation_badge_and_permalink(client, conn):
    page = html(client.get("/", query_string={"q": QUESTION}))
    assert re.findall(r'<article class="ruling" id="([^"]+)"', page)[0] == BEST
    first = page.index('<article class="ruling"')
    article = page[first:page.index("</article>", first)]
    assert "Magic &gt; General Rules" in article and ">Dragon Dice</a>" in article
    assert "lines 119–120" in article
    assert cited_url(conn, "rulings", BEST) in article
    assert f'class="permalink" href="/r/{BEST}"' in article
    assert 'class="badge badge-' in article


def test_ask_with_a_game_filter_only_shows_that_game(client):
    page = html(client.get("/", query_string={"q": "spell damage dice", "game": "wizard-dice"}))
    assert '<option value="wizard-dice" selected>' in page
    assert set(re.findall(r'<article class="ruling" id="([^/]+)/', page)) == {"wizard-dice"}


def test_the_question_is_echoed_escaped(client):
    attack = '<script>alert("x")</script>'
    page = html(client.get("/", query_string={"q": attack}))
    assert "<script>" not in page
    assert "&lt;script&gt;" in page


@pytest.mark.parametrize("url", ["/", f"/r/{BEST}", "/api/games", "/r/nope"])
def test_responses_forbid_inline_and_foreign_scripts_and_sniffing(client, url):
    response = client.get(url)
    headers = response.headers
    assert "script-src 'self';" in headers["Content-Security-Policy"]
    assert "<script>" not in html(response)  # the one script is a file of this server (copy.js)
    assert headers["X-Content-Type-Options"] == "nosniff"


def test_api_search_returns_the_same_json_as_the_cli(client, built_db):
    response = client.get("/api/search", query_string={"q": QUESTION, "k": 3})
    assert response.status_code == 200 and response.mimetype == "application/json"
    cli_answer = json.loads(CliRunner().invoke(cli, ["ask", QUESTION, "--json", "-k", "3", "--db", str(built_db)])
                            .output)
    assert response.get_json() == cli_answer
    assert response.get_json()["results"][0]["id"] == BEST


@pytest.mark.parametrize("params, message", [
    ({}, "'q' (the question) is required"),
    ({"q": "   "}, "'q' (the question) is required"),
    ({"q": "x" * 1001}, "at most 1000 characters"),
    ({"q": "magic", "k": "0"}, "between 1 and 50"),
    ({"q": "magic", "k": "51"}, "between 1 and 50"),
    ({"q": "magic", "k": "lots"}, "whole number"),
    ({"q": "magic", "game": "backgammon"}, "unknown game 'backgammon'"),
])
def test_api_search_rejects_bad_parameters_with_a_json_400(client, params, message):
    response = client.get("/api/search", query_string=params)
    assert response.status_code == 400
    error = response.get_json()["error"]
    assert error["status"] == 400 and message in error["message"]


def test_bad_parameters_on_a_page_give_an_html_400(client):
    response = client.get("/", query_string={"q": "magic", "k": "<b>"})
    assert response.status_code == 400 and response.mimetype == "text/html"
    assert "whole number" in html(response)


def test_ruling_page_shows_text_section_neighbours_examples_and_links(client, conn):
    page = html(client.get("/r/dragon-dice/magic/general/f"))
    assert "All magic which is cast from a single magic action will happen SIMULTANEOUSLY." in page
    assert "In this section: Magic &gt; General Rules" in page
    assert 'rel="prev" href="/r/dragon-dice/magic/general/e"' in page
    assert 'rel="next" href="/r/dragon-dice/magic/general/g"' in page
    example = conn.execute("select id from examples where ruling_id = 'dragon-dice/magic/general/f' and "
                           "text like '%targeted by Hailstorms%'").fetchone()["id"]
    assert "targeted by Hailstorms" in page and cited_url(conn, "examples", example) in page
    assert cited_url(conn, "rulings", "dragon-dice/magic/general/f") in page
    assert 'href="http://datasette.test/rulings/rulings/dragon-dice~2Fmagic~2Fgeneral~2Ff"' in page
    assert "Checked by the engine</h2>" in page and 'class="badge badge-' in page


def test_ruling_page_shows_cross_references_both_ways(client):
    referring = html(client.get("/r/magic-combat-dice/rules/more-than-one-creature-assigned"))
    assert 'href="/r/magic-combat-dice/rules/special-considerations/banding"' in referring
    referred = html(client.get("/r/magic-combat-dice/rules/special-considerations/banding"))
    assert "Referred to by" in referred
    assert 'href="/r/magic-combat-dice/rules/more-than-one-creature-assigned"' in referred


def test_ruling_page_shows_its_tables_and_the_sources_gaps(client):
    page = html(client.get("/r/paths-of-the-lance/new-rules/b/3"))
    assert "Nation activation numbers" in page and "<td>Kothas, Khur, Tarsis, Lemish</td>" in page
    assert "Known gaps in this source" in page and "Optional Rules G. Zhakar" in page


@pytest.mark.slow
def test_every_ruling_page_renders(client, conn):
    for (ruling_id,) in conn.execute("select id from rulings"):
        assert client.get(f"/r/{ruling_id}").status_code == 200, ruling_id


def test_unknown_ids_get_a_404_page_or_json(client):
    page = client.get("/r/dragon-dice/<nope>")
    assert page.status_code == 404 and page.mimetype == "text/html"
    assert "&lt;nope&gt;" in html(page) and "<nope>" not in html(page)
    for url in ["/games/backgammon", "/handbook/backgammon", "/sources/nope", "/no/such/page"]:
        assert client.get(url).status_code == 404, url
    for url in ["/api/rulings/nope", "/api/no/such/route"]:
        response = client.get(url)
        assert response.status_code == 404 and response.get_json()["error"]["status"] == 404


def test_game_page_lists_sources_sections_and_rulings(client):
    page = html(client.get("/games/paths-of-the-lance"))
    assert 'href="/sources/paths-of-the-lance-rules"' in page
    assert 'href="/handbook/paths-of-the-lance"' in page and 'href="/calc/paths-of-the-lance"' in page
    assert 'href="/r/paths-of-the-lance/new-rules/b/3"' in page


@pytest.mark.slow
def test_every_citation_opens_at_a_line_that_starts_the_ruling(client, conn):
    pages = {}  # each source's page rendered once, not once per ruling
    for row in conn.execute("select id, source, line_start, text from rulings"):
        if row["source"] not in pages:
            pages[row["source"]] = html(client.get(f"/sources/{row['source']}"))
        page = pages[row["source"]]
        assert re.findall(r"\w+", row["text"])[0] in line(page, row["line_start"]), row["id"]
        assert f'id="r-{row["id"]}"' in page


def test_source_page_highlights_the_cited_lines(client):
    page = html(client.get("/sources/dragon-dice-faq-magic", query_string={"lines": "119-120"}))
    assert 'class="line cited"' in line(page, 119) and 'class="line cited"' in line(page, 120)
    assert "cited" not in line(page, 118) and "cited" not in line(page, 121)
    assert "A reserve army magic action may NEVER" in line(page, 119)


@pytest.mark.parametrize("lines", ["abc", "5-2", "1-2-3"])
def test_source_page_rejects_bad_line_ranges(client, lines):
    assert client.get("/sources/dragon-dice-faq-magic", query_string={"lines": lines}).status_code == 400


def test_handbook_has_every_ruling_with_ref_and_citation_and_print_css(client, conn):
    page = html(client.get("/handbook/dragon-dice"))
    for ruling_id, ref, citation, kind in conn.execute("select id, ref, citation, kind from rulings "
                                                       "where game = 'dragon-dice'"):
        assert f'id="{ruling_id}"' in page
        if kind not in ("title", "front-matter", "changelog"):
            assert f"<code>{ref}</code> · {escape(citation)}" in page
    css = client.get("/static/style.css").get_data(as_text=True)
    assert "@media print" in css and "@page" in css


def test_citations_name_the_source_and_its_page_where_it_has_pages_else_the_lines_with_an_en_dash(conn):
    assert (line_range(12, 12), line_range(26, 31)) == ("line 12", "lines 26–31")
    for row in conn.execute("select r.citation, r.line_start, r.line_end, r.page, r.page_end, s.title from rulings r "
                            "join sources s on s.id = r.source"):
        if row["page"] is None:
            assert row["citation"] == f"{row['title']}, {line_range(row['line_start'], row['line_end'])}"
        else:
            pages = f"page {row['page']}" if row["page_end"] == row["page"] else \
                f"pages {row['page']}–{row['page_end']}"
            assert row["citation"] == f"{row['title']}, {pages}"
    assert conn.execute("select citation from rulings where id = 'wizard-dice/rules/list-of-basic-spells/fireball'"
                        ).fetchone()[0] == "Wizard Dice, page 3"


def test_every_status_the_database_reports_has_a_badge_and_a_terminal_label(client, conn):
    reported = {status for (status,) in conn.execute("select distinct status from ruling_status")}
    assert reported <= set(STATUS_LABELS["badge"]) == set(STATUS_LABELS["cli"])
    page = html(client.get(f"/r/{BEST}"))
    status = conn.execute("select status from ruling_status where ruling_id = ?", [BEST]).fetchone()[0]
    assert f'<span class="badge badge-{status}">{STATUS_LABELS["badge"][status]}' in page


@pytest.mark.parametrize("url", [f"/?q={QUESTION}", f"/r/{BEST}", f"/api/rulings/{BEST}", "/games/dragon-dice",
                                 "/handbook/dragon-dice"])
def test_a_request_reads_statuses_and_examples_once(built_db, url):
    app = create_app(built_db)
    statements = []
    app.before_request(lambda: get_db().set_trace_callback(statements.append))
    assert app.test_client().get(url).status_code == 200
    assert sum("from ruling_status" in sql for sql in statements) == 1
    assert sum("from examples" in sql and "'source'" in sql for sql in statements) == 1


def test_api_ruling_and_games(client):
    ruling = client.get(f"/api/rulings/{BEST}").get_json()
    assert ruling["id"] == BEST and ruling["line_start"] == 119
    assert ruling["status"]["status"] in {"passed", "failed", "not-run", "not-executable", "unlinked"}
    assert ruling["url"].endswith(f"/r/{BEST}")
    games = client.get("/api/games").get_json()
    assert {"dragon-dice", "wizard-dice", "paths-of-the-lance"} <= {g["slug"] for g in games}


def test_openapi_describes_every_api_route(app, client):
    spec = client.get("/api/openapi.json").get_json()
    assert spec["openapi"].startswith("3.") and spec["info"]["title"]
    described = {re.sub(r"\{[^}]+\}", "{}", path) for path in spec["paths"]}
    routes = {re.sub(r"<[^>]+>", "{}", rule.rule.removeprefix("/api"))
              for rule in app.url_map.iter_rules() if rule.rule.startswith("/api/")}
    assert routes == described
    for path in spec["paths"].values():
        for operation in path.values():
            assert operation["responses"] and operation["summary"]
    refs = re.findall(r'"\$ref": "#/components/(\w+)/(\w+)"', json.dumps(spec))
    assert all(name in spec["components"][kind] for kind, name in refs)


def test_an_unexpected_error_is_a_plain_500_without_traceback(built_db):
    app = create_app(built_db)

    def boom():
        raise RuntimeError("secret internals")
    app.add_url_rule("/boom", view_func=boom)
    app.add_url_rule("/api/boom", endpoint="api_boom", view_func=boom)
    client = app.test_client()
    page = client.get("/boom")
    assert page.status_code == 500 and "Internal Server Error" in html(page)
    api = client.get("/api/boom")
    assert api.status_code == 500 and api.get_json()["error"]["status"] == 500
    for response in (page, api):
        assert "Traceback" not in html(response) and "secret internals" not in html(response)


def test_a_missing_database_is_a_503_naming_the_fix(tmp_path):
    response = create_app(tmp_path / "missing.db").test_client().get("/api/games")
    assert response.status_code == 503 and "rulings ingest" in response.get_json()["error"]["message"]


@pytest.mark.parametrize("command", ["serve", "browse"])
def test_servers_refuse_to_start_without_a_database(tmp_path, command):
    result = CliRunner().invoke(cli, [command, "--db", str(tmp_path / "missing.db")])
    assert result.exit_code != 0 and "rulings ingest" in result.output


class TestCalculators:
    """The /calc pages and API, generated from the engine's calculator declarations."""

    def test_calc_page_has_a_typed_form_per_calculator(self, client):
        from engine.calculators import describe
        for game, calculators in describe().items():
            page = html(client.get(f"/calc/{game}"))
            for name in calculators:
                assert f'<input type="hidden" name="calc" value="{name}">' in page
        page = html(client.get("/calc/paths-of-the-lance"))
        assert '<select id="winter-movement-kind" name="kind"' in page and '<option value="fleet">' in page
        assert re.search(r'<input type="checkbox" id="winter-movement-winter" name="winter" value="true"[^>]*checked',
                         page)
        assert re.search(r'<input type="number" id="leader-escape-roll" name="roll"[^>]*min="1" max="6"', page)

    def test_calc_page_answers_in_words_with_the_deciding_rulings(self, client):
        page = html(client.get("/calc/dungeon-twister", query_string={"calc": "bridge", "strength": "3",
                                                                      "bonus": "2"}))
        assert ('<p class="answer">The bridge holds: a strength-3 character may cross; only the printed strength '
                "counts (bonuses don&#39;t count).</p>") in page
        assert ('<a href="/r/dungeon-twister/clarifications/the-small-bridge"><span class="ref">DT The Small Bridge'
                '</span></a>') in page
        assert "may_move_onto" not in page

    def test_an_unticked_checkbox_is_no_and_a_ticked_one_yes(self, client):
        args = [("calc", "winter-movement"), ("kind", "fleet"), ("movement", "7"), ("winter", "false")]
        assert "moves its full 7 outside winter" in html(client.get("/calc/paths-of-the-lance", query_string=args))
        ticked = html(client.get("/calc/paths-of-the-lance", query_string=args + [("winter", "true")]))
        assert "moves 2 in winter" in ticked

    def test_calc_api_answers_with_facts_words_and_rulings(self, client):
        answer = client.get("/api/calc/paths-of-the-lance/victory", query_string={"points": "14"}).get_json()
        assert answer["result"] == {"level": "major"} and answer["inputs"] == {"points": 14}
        assert answer["answer"].startswith("14 points is a major victory")
        assert answer["rulings"] == [{"id": "paths-of-the-lance/new-rules/g", "ref": answer["rulings"][0]["ref"],
                                      "title": answer["rulings"][0]["title"],
                                      "url": f"{BASE_URL}/r/paths-of-the-lance/new-rules/g"}]
        assert answer["rulings"][0]["title"]

    def test_calc_api_describes_a_games_calculators(self, client):
        described = client.get("/api/calc/dragon dice").get_json()
        assert list(described) == ["saves", "magic-points", "black-magic"]
        assert described["saves"]["params"]["rolled"] == {
            "label": "Rolled", "type": "integer", "required": True, "default": None, "min": 0, "max": 500,
            "choices": None, "count": None, "length": None, "help": "save results the army rolled"}
        assert client.get("/api/calc/backgammon").status_code == 404

    def test_the_openapi_carries_the_calculator_declarations(self, client):
        from engine.calculators import describe
        operation = client.get("/api/openapi.json").get_json()["paths"]["/calc/{game}/{calc}"]["get"]
        assert operation["x-calculators"] == describe()

    def test_an_impossible_value_is_a_400_naming_the_parameter_and_what_is_allowed(self, client):
        bad = client.get("/api/calc/dungeon-twister/combat", query_string={
            "attacker_strengths": "3", "defender_strengths": "2", "attacker_card": "9", "defender_card": "1"})
        assert bad.status_code == 400
        assert "parameter 'attacker_card'" in bad.get_json()["error"]["message"]
        assert "from 0 to 6" in bad.get_json()["error"]["message"]
        page = client.get("/calc/dragon-dice", query_string={"calc": "saves", "rolled": "x"})
        assert page.status_code == 400 and "parameter &#39;rolled&#39;" in html(page)

    def test_unknown_calculators_are_404_in_the_api_and_400_in_the_form_with_a_hint(self, client):
        old = client.get("/api/calc/wizard-dice/set_aside", query_string={"spell_dice": "2"})
        assert old.status_code == 404 and "use 'set-aside'" in old.get_json()["error"]["message"]
        assert client.get("/api/calc/dragon-dice/nope").status_code == 404
        assert client.get("/calc/dragon-dice", query_string={"calc": "nope"}).status_code == 400
        assert client.get("/calc/backgammon").status_code == 404

    def test_a_ruling_page_lists_the_calculators_it_decides(self, client):
        page = html(client.get("/r/dungeon-twister/clarifications/the-small-bridge"))
        assert '<a href="/calc/dungeon-twister#calc-bridge">bridge</a>' in page
        assert "<h2>Calculators</h2>" not in html(client.get("/r/dragon-dice/magic/general/a"))
