"""Datasette over rulings.db: the metadata describes everything, canned queries run, nothing can write; the
same holds for a database file of any name, Datasette's own pages answer, and it starts without the model."""
import asyncio
import html
import json
import os
import re
import shutil
import subprocess
import time
from urllib.request import urlopen

import pytest
import sqlite_utils
from click.testing import CliRunner
from datasette.utils import tilde_encode

from kb.search import ask
from kb.store import connect
from service import datasette_plugin
from service.app import create_app
from service.browse import APP_URL, database_name, datasette, metadata, settings
from service.cli import cli
from service.datasette_plugin import every_word
from service.pages import datasette_url
from service.params import MAX_QUERY
from support.servers import running_server

PLAIN_QUESTION = "can I cast a spell on an army in reserve"
RESERVE = "dragon-dice/magic/general/m"


@pytest.fixture(scope="module")
def ds(built_db):
    return datasette(built_db)


def get(ds, path: str, follow: bool = True, **params):
    """GET a Datasette path through its in-process client, following redirects unless `follow` is false."""
    return asyncio.run(ds.client.get(path, params=params, follow_redirects=follow))


def rows(ds, path: str, **params) -> list[dict]:
    response = get(ds, path + ".json", _shape="array", **params)
    assert response.status_code == 200, response.text
    return response.json()


def test_metadata_describes_every_table_and_column(built_db):
    db = sqlite_utils.Database(built_db)
    described = metadata()["databases"]["rulings"]["tables"]
    shadow = {t for t in db.table_names() if t.startswith("rulings_fts_")}
    for name in set(db.table_names()) - shadow | set(db.view_names()):
        table = described[name]
        assert table["title"] and (table.get("description") or table.get("description_html")), name
        if name != "rulings_fts":
            assert set(table["columns"]) == {c.name for c in db[name].columns}, name
    assert metadata()["source"] and metadata()["license"]


def test_metadata_loads_into_datasette(ds):
    served = get(ds, "/-/metadata.json").json()
    assert served["databases"]["rulings"]["tables"]["rulings"]["fts_table"] == "rulings_fts"
    page = get(ds, "/rulings/rulings").text
    assert "One ruling per row" in page and "column-descriptions" in page


def test_rulings_have_facets_and_full_text_search(ds):
    data = get(ds, "/rulings/rulings.json", _search="reserve army magic").json()
    assert {"game", "source", "kind", "status"} <= set(data["facet_results"])
    assert "dragon-dice/magic/general/m" in [row[0] for row in data["rows"]]
    assert "status" in get(ds, "/rulings/ruling_status.json").json()["facet_results"]


@pytest.mark.parametrize("query", list(metadata()["databases"]["rulings"]["queries"]))
def test_every_canned_query_runs(ds, query):
    assert isinstance(rows(ds, f"/rulings/{query}", q="magic", game="dragon-dice"), list)


def test_canned_queries_answer_what_a_judge_asks(ds):
    by_section = rows(ds, "/rulings/rulings_by_section", game="wizard-dice", _size="max")
    assert by_section and {r["game"] for r in by_section} == {"wizard-dice"}
    assert rows(ds, "/rulings/search", q="reserve army")[0]["link"] == f"{APP_URL}/r/{RESERVE}"
    gaps = rows(ds, "/rulings/source_gaps")
    assert any("Zhakar" in g["description"] for g in gaps)
    assert all(g["link"].startswith(f"{APP_URL}/sources/") for g in gaps)
    untested = rows(ds, "/rulings/untested_rulings", game="", _size="max")
    assert {r["status"] for r in untested} <= {"failed", "not-run", "unlinked"}
    assert all(r["permalink"].startswith(f"{APP_URL}/r/") for r in untested)


def test_links_to_the_web_app_follow_its_url(built_db):
    elsewhere = datasette(built_db, app_url="http://judge.example:5050/")
    found = rows(elsewhere, "/rulings/search", q="reserve army")
    assert found[0]["link"] == f"http://judge.example:5050/r/{RESERVE}"


def test_the_web_apps_row_link_opens_the_ruling_in_datasette(ds, built_db):
    with create_app(built_db).test_request_context():
        url = datasette_url("rulings", "dragon-dice/magic/general/m")
    response = get(ds, url.removeprefix("http://127.0.0.1:8001"))
    assert response.status_code == 200 and "A reserve army magic action may NEVER" in response.text


@pytest.mark.parametrize("sql", ["delete from games", "update rulings set text = ''", "drop table rulings",
                                 "select 1; delete from games", "pragma writable_schema = 1"])
def test_write_sql_is_refused(ds, built_db, sql):
    before = sqlite_utils.Database(built_db)["games"].count
    response = get(ds, "/rulings.json", sql=sql)
    assert response.status_code == 400 and not response.json()["ok"]
    assert sqlite_utils.Database(built_db)["games"].count == before > 0


def test_the_database_is_opened_read_only_with_its_locks_and_queries_are_time_limited(ds):
    # Mutable to Datasette (opened mode=ro, never immutable=1): an add writes the file in place, which a
    # connection taking no locks would read torn.
    assert ds.get_database("rulings").is_mutable is True
    assert get(ds, "/-/databases.json").json()[0]["is_mutable"]
    assert get(ds, "/-/settings.json").json()["sql_time_limit_ms"] == settings()["sql_time_limit_ms"] <= 5000


def found_ids(found: list[dict]) -> list[str]:
    """The ids of the rulings the search query found, from their links."""
    assert all(row["link"].startswith(f"{APP_URL}/r/") for row in found)
    return [row["link"].removeprefix(f"{APP_URL}/r/") for row in found]


def test_the_search_query_answers_a_plain_words_question_as_the_web_app_does(ds, built_db):
    found = found_ids(rows(ds, "/rulings/search", q=PLAIN_QUESTION, game=""))
    assert RESERVE in found[:3]
    conn = connect(built_db)
    assert found == [r["id"] for r in ask(conn, PLAIN_QUESTION, None)["results"]]
    conn.close()


def test_the_search_query_keeps_to_the_game_asked_and_finds_nothing_for_nothing(ds):
    found = rows(ds, "/rulings/search", q="double magic", game="wizard-dice")
    assert found and {row["game"] for row in found} == {"Wizard Dice"}
    assert rows(ds, "/rulings/search", q="", game="") == []
    assert rows(ds, "/rulings/search", q="   ", game="") == []


def test_the_search_query_gives_the_outcome_then_each_rulings_ref_title_game_source_and_a_link(ds, built_db):
    response = get(ds, "/rulings/search.json", q="reserve army", game="dragon-dice")
    assert response.json()["columns"] == ["outcome", "said", "under", "ref", "title", "game", "source", "text", "link"]
    outcome, said, _, *first = response.json()["rows"][0]
    answer = ask(connect(built_db), "reserve army", "dragon-dice")
    assert (outcome, said or None) == (answer["outcome"], answer["said"])
    assert {row[0] for row in response.json()["rows"][1:]} == {""}, "the outcome is said once, on the first row"
    conn = connect(built_db)
    expected = conn.execute("select r.ref, r.title, s.title from rulings r join sources s on s.id = r.source "
                            "where r.id = ?", (RESERVE,)).fetchone()
    conn.close()
    assert first == [expected[0], expected[1], "Dragon Dice", expected[2], first[4], f"{APP_URL}/r/{RESERVE}"]
    page = get(ds, "/rulings/search", q="reserve army", game="dragon-dice").text
    assert f'<td class="col-ref">{html.escape(expected[0])}</td>' in page
    assert f'<a href="{APP_URL}/r/{RESERVE}">' in page


@pytest.mark.parametrize("query", ["search", "rulings_by_section", "untested_rulings"])
def test_a_querys_game_is_chosen_from_the_games_not_typed(ds, built_db, query):
    games = sqlite_utils.Database(built_db).execute("select slug, name from games order by name").fetchall()
    page = get(ds, f"/rulings/{query}", q="magic", game="wizard-dice").text
    select = re.search(r'<select id="qp\d+" name="game">(.*?)</select>', page).group(1)
    options = re.findall(r'<option value="([^"]*)"( selected)?>([^<]*)</option>', select)
    assert options == [("", "", "All games")] + [(slug, " selected" if slug == "wizard-dice" else "", html.escape(name))
                                                 for slug, name in games]
    assert 'name="game" value=' not in page  # no free-text box for it
    assert re.search(r'<select id="qp\d+" name="game"><option value="" selected>All games',
                     get(ds, f"/rulings/{query}").text)


@pytest.mark.parametrize("query", list(metadata()["databases"]["rulings"]["queries"]))
def test_a_canned_query_shows_its_form_and_hides_its_sql_until_asked(ds, query):
    page = get(ds, f"/rulings/{query}").text
    assert '<pre id="sql-query">' not in page and "_show_sql=1" in page
    title = metadata()["databases"]["rulings"]["queries"][query]["title"]
    assert f"<title>{html.escape(title)}: rulings</title>" in page
    assert '<pre id="sql-query">' in get(ds, f"/rulings/{query}", _show_sql="1").text


def test_a_question_is_read_up_to_the_web_apps_limit_on_its_length(ds):
    long_question = ("can I cast a spell on an army in reserve " * 100)[:5 * MAX_QUERY]
    assert rows(ds, "/rulings/search", q=long_question) == rows(ds, "/rulings/search", q=long_question[:MAX_QUERY])
    assert rows(ds, "/_memory", sql="select escape_fts(:q) as q", q=long_question) == \
        [{"q": every_word(long_question[:MAX_QUERY])}]


def fts_ids(db_path, match: str) -> set[str]:
    """The ids of the rulings an FTS5 query matches, straight from the database."""
    return {row[0] for row in sqlite_utils.Database(db_path).execute(
        "select r.id from rulings_fts f join rulings r on r.rowid = f.rowid where rulings_fts match ?", [match])}


def searched(ds, typed: str) -> set[str]:
    return {row["id"] for row in rows(ds, "/rulings/rulings", _search=typed, _size="max")}


def test_table_search_finds_the_rulings_holding_every_word_typed(ds, built_db):
    found = searched(ds, "reserve army magic")
    assert found == fts_ids(built_db, '"reserve" "army" "magic"*') and RESERVE in found
    assert len(found) < len(fts_ids(built_db, '"reserve" OR "army" OR "magic"')) / 10  # not any one of them
    # Stopwords are left out, as the web app leaves them out: a question's content words must all match.
    assert searched(ds, PLAIN_QUESTION) == fts_ids(built_db, '"cast" "spell" "army" "reserve"*')


def test_a_phrase_in_quotes_is_searched_as_a_phrase(ds, built_db):
    phrase = searched(ds, '"double magic"')
    assert phrase == fts_ids(built_db, '"double magic"') and 0 < len(phrase) < len(searched(ds, "double magic"))
    assert searched(ds, '"double magic" reserve') == fts_ids(built_db, '"double magic" "reserve"*')


def test_the_last_word_typed_also_finds_the_words_it_begins(ds):
    assert any(found.startswith("dragon-dice/magic/earth/stoneskin") for found in searched(ds, "stonesk"))
    assert searched(ds, '"stonesk"') == set()  # in quotes, a whole word


@pytest.mark.parametrize("typed, query", [("deathtouch trample", '"deathtouch" "trample"*'),
                                          ("the of a", '""'), ("army in", '"army"'), ("army OR", '"army"'),
                                          ('"unbalanced', '"unbalanced"'), ("NEAR(", '"near"*'), ("*", '""'),
                                          ('"army magic" reserve', '"army magic" "reserve"*'),
                                          ('reserve "in the army"', '"reserve" "in the army"')])
def test_what_is_typed_becomes_words_and_phrases_never_fts_syntax(ds, typed, query):
    assert every_word(typed) == query
    assert get(ds, "/rulings/rulings.json", _search=typed).status_code == 200, typed


@pytest.mark.parametrize("table, facets", [("rulings", {"game", "source", "kind", "status"}),
                                           ("ruling_status", {"status", "game"})])
def test_tables_are_faceted_by_default(ds, table, facets):
    assert facets <= set(get(ds, f"/rulings/{table}.json").json()["facet_results"])


def test_a_rulings_title_links_to_its_page_in_the_web_app(built_db):
    elsewhere = datasette(built_db, app_url="http://judge.example:5050")
    row_page = get(elsewhere, "/rulings/rulings/dragon-dice~2Fmagic~2Fgeneral~2Fm").text
    assert '<a href="http://judge.example:5050/r/dragon-dice/magic/general/m"' in row_page
    table_page = get(elsewhere, "/rulings/rulings", game="dragon-dice").text
    assert table_page.count('href="http://judge.example:5050/r/dragon-dice/') >= 20
    assert 'href="http://judge.example:5050/sources/dragon-dice-faq-magic"' in get(elsewhere, "/rulings/sources").text


def test_a_row_page_reads_down_the_page_with_each_columns_name(ds):
    page = get(ds, "/rulings/rulings/dragon-dice~2Fmagic~2Fgeneral~2Fm").text
    assert 'td:nth-of-type(7):before { content: "text"; }' in page
    assert "body.row .rows-and-columns td { max-width" in page


def test_column_descriptions_fold_away_on_table_pages_only(ds):
    assert "What each column means" in get(ds, "/rulings/rulings").text
    assert "What each column means" not in get(ds, "/rulings/rulings/dragon-dice~2Fmagic~2Fgeneral~2Fm").text


# Datasette names a database after its file: the configuration written for rulings.db applies to any other.
@pytest.fixture(scope="module", params=["other.db", "rulings 2024.db"])
def renamed(request, built_db, tmp_path_factory):
    """(Datasette, the name it serves it under) over a copy of the test database under another file name."""
    path = tmp_path_factory.mktemp("renamed") / request.param
    shutil.copy(built_db, path)
    return datasette(path), database_name(path)


def test_a_database_under_another_name_keeps_its_descriptions_facets_and_canned_queries(renamed):
    ds, name = renamed
    route = "/" + tilde_encode(name)
    assert name != "rulings" and list(get(ds, "/-/metadata.json").json()["databases"]) == [name]
    page = get(ds, f"{route}/rulings").text
    assert "One ruling per row" in page and "column-descriptions" in page
    assert {"game", "source", "kind", "status"} <= set(get(ds, f"{route}/rulings.json").json()["facet_results"])
    listed = {query["name"] for query in get(ds, f"{route}.json").json()["queries"]}
    assert listed == set(metadata()["databases"]["rulings"]["queries"])
    assert rows(ds, f"{route}/search", q="reserve army", game="")[0]["link"] == f"{APP_URL}/r/{RESERVE}"


def test_the_home_page_links_to_the_database_it_serves(renamed):
    ds, name = renamed
    links = {link for link in re.findall(r'href="(/[^"]*)"', get(ds, "/").text) if not link.startswith("/-/")}
    assert f"/{tilde_encode(name)}/rulings" in links and not any(link.startswith("/rulings/") for link in links)
    assert {link: get(ds, html.unescape(link)).status_code for link in links} == dict.fromkeys(links, 200)


def test_plugins_and_memory_queries_answer(ds):
    plugins = {plugin["name"]: plugin["hooks"] for plugin in get(ds, "/-/plugins.json").json()}
    assert {"prepare_connection", "startup"} <= set(plugins[datasette_plugin.__name__])
    assert rows(ds, "/_memory", sql="select 6 * 7 as answer") == [{"answer": 42}]
    assert rows(ds, "/_memory", sql="select escape_fts('army OR') as q") == [{"q": every_word("army OR")}]
    # Plain-words search needs a database of rulings: the in-memory one has no such function.
    assert get(ds, "/_memory.json", sql="select rulings_search('army')").status_code == 400


@pytest.mark.parametrize("path", ["/-/versions", "/-/versions.json", "/-/threads", "/-/threads.json",
                                  "/-/allow-debug", "/-/messages", "/-/patterns", "/-/permissions"])
def test_datasettes_debug_pages_are_not_served(ds, path):
    response = get(ds, path)
    assert response.status_code == 404
    assert "sqlite" not in response.text.lower() and "threads" not in response.text


@pytest.mark.parametrize("database", ["rulings", "_memory"])
@pytest.mark.parametrize("sql", ["select * from pragma_database_list", "select file from pragma_database_list()",
                                 "select group_concat(file) as f from main.pragma_database_list",
                                 'select * from "pragma_database_list"'])
def test_no_absolute_path_is_visible_through_sql(ds, built_db, database, sql):
    response = get(ds, f"/{database}.json", sql=sql)
    assert response.status_code == 200, response.text
    assert str(built_db.parent) not in response.text and "/" not in json.dumps(response.json()["rows"])
    assert rows(ds, "/rulings", sql="select name from pragma_database_list") == [{"name": "main"}]


def test_the_rulings_database_page_still_lists_its_tables(ds):
    page = get(ds, "/rulings")  # Datasette reads `PRAGMA database_list` itself here
    assert page.status_code == 200 and 'href="/rulings/rulings"' in page.text


def test_the_question_model_is_loaded_before_datasette_answers(built_db):
    from kb.onnx_embedder import embedder

    embedder.cache_clear()
    fresh = datasette(built_db)
    asyncio.run(fresh.invoke_startup())  # what `rulings browse` does before it listens
    assert embedder.cache_info().currsize == 1


def test_browse_starts_without_the_model_and_says_plain_words_search_is_unavailable(built_db, tmp_path):
    db, log = tmp_path / "other.db", tmp_path / "browse.log"
    shutil.copy(built_db, db)
    env = {**os.environ, "RULINGS_ONNX_MODEL": str(tmp_path / "never-exported.onnx")}
    with running_server(db, ("browse",), log, env=env) as (port, _):
        base = f"http://127.0.0.1:{port}"
        assert json.load(urlopen(f"{base}/-/metadata.json"))["title"] == "Rulings"
        found = json.load(urlopen(f"{base}/other/rulings.json?_shape=array&_search=reserve+army+magic"))
        assert RESERVE in [row["id"] for row in found]
        deadline = time.monotonic() + 30
        while "rulings_search" not in log.read_text() and time.monotonic() < deadline:
            time.sleep(0.1)
    said = log.read_text()
    assert "plain-words search (rulings_search" in said and "is unavailable" in said and "export-model" in said


def test_the_rulings_table_opens_on_the_columns_a_reader_needs_every_column_one_click_away(ds):
    bare = get(ds, "/rulings/rulings", follow=False)
    assert bare.status_code == 302
    assert bare.headers["location"] == "/rulings/rulings?_col=ref&_col=title&_col=game&_col=source&_col=text"
    shown = get(ds, "/rulings/rulings.json", _col=["ref", "title", "game", "source", "text"])
    assert shown.json()["columns"] == ["id", "ref", "title", "game", "source", "text"]
    page = get(ds, "/rulings/rulings", _col=["ref", "title", "game", "source", "text"]).text
    assert 'href="/rulings/rulings?_sort=id"' in page
    every = get(ds, "/rulings/rulings.json", _sort="id").json()["columns"]
    assert {"line_start", "char_start", "pdf_page"} <= set(every)


def test_the_search_query_shows_as_many_rulings_as_k_says_and_refuses_another_k(ds):
    assert len(rows(ds, "/rulings/search", q=PLAIN_QUESTION, game="", k="")) == 5
    assert len(rows(ds, "/rulings/search", q=PLAIN_QUESTION, game="", k="2")) == 2
    refused = get(ds, "/rulings/search.json", q=PLAIN_QUESTION, game="", k="lots")
    assert refused.status_code == 400


def test_statuses_show_in_the_web_apps_words_where_json_keeps_the_stored_value(ds):
    page = get(ds, "/rulings/ruling_status").text
    facet = page[page.index('id="facet-status"'):]
    facet = facet[:facet.index("</ul>")]
    assert ">Not checked</a>" in facet and ">Not checkable</a>" in facet and ">unlinked<" not in facet
    assert "?status=unlinked" in facet  # its link still filters by the stored value
    assert '<span title="stored as unlinked">Not checked</span>' in get(ds, "/rulings/ruling_status",
                                                                        status="unlinked").text
    values = {found["value"] for found in get(ds, "/rulings/ruling_status.json").json()["facet_results"]["status"]
              ["results"]}
    assert "unlinked" in values
    assert "Not checked</span>" in get(ds, "/rulings/untested_rulings", game="").text  # a query's column too


def test_the_plain_csv_link_downloads_a_file(ds):
    page = get(ds, "/rulings/rulings", _col=["ref", "title"]).text
    link = html.unescape(re.search(r'<a href="([^"]+\.csv[^"]*)">CSV</a>', page).group(1))
    assert "_dl" not in link
    response = get(ds, link.removeprefix("http://127.0.0.1:8001"))
    assert response.status_code == 200 and response.text.startswith("id,")
    assert response.headers["content-type"] == "text/csv; charset=utf-8"
    assert response.headers["content-disposition"] == 'attachment; filename="rulings.csv"'
    query = get(ds, "/rulings/search.csv", q="reserve army", game="")
    assert query.headers["content-disposition"] == 'attachment; filename="search.csv"'
    assert get(ds, "/rulings/rulings.csv", _sort="nope").headers.get("content-disposition") is None  # an error


@pytest.fixture
def immutable_old_database(built_db, tmp_path):
    """A copy of the test database marked with the schema before this one, made immutable (chattr +i); skipped
    where files cannot be made immutable (not root)."""
    from model import schema
    path = tmp_path / "old.db"
    shutil.copy(built_db, path)
    conn = sqlite_utils.Database(path).conn
    schema.set_version(conn, schema.SCHEMA_VERSION - 1)
    conn.commit()
    conn.close()
    if subprocess.run(["chattr", "+i", str(path)], capture_output=True, check=False).returncode:
        pytest.skip("chattr +i is not allowed here")
    yield path
    subprocess.run(["chattr", "-i", str(path)], check=True)


def test_an_immutable_database_that_needs_upgrading_is_named_in_the_error(immutable_old_database):
    result = CliRunner().invoke(cli, ["browse", "--db", str(immutable_old_database)])
    assert result.exit_code == 1
    assert f"Error: {immutable_old_database}: cannot be replaced" in result.output and ".tmp" not in result.output
    assert sorted(p.name for p in immutable_old_database.parent.iterdir()) == ["old.db"]
