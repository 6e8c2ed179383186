"""An id no ruling has any more redirects to its ruling's current id (`ruling_redirects`), in one step however many
times it was renamed, and never in a loop: redirects that go round, or end at an id no ruling has, are a 404."""
import shutil
import sqlite3
from itertools import pairwise

import pytest

from kb.editions import MAX_REDIRECTS, redirected
from kb.store import connect
from service.app import create_app

RULING = "paths-of-the-lance/new-rules/b/2"


@pytest.fixture(scope="module")
def db(built_db, tmp_path_factory):
    """A copy of the seeds' database whose redirects hold a chain to a ruling, a loop, a chain into the loop, a
    dead end and a chain longer than MAX_REDIRECTS."""
    path = tmp_path_factory.mktemp("redirects") / "rulings.db"
    shutil.copy(built_db, path)
    conn = sqlite3.connect(path)
    long = [f"old/long/{n}" for n in range(MAX_REDIRECTS + 2)]
    conn.executemany("insert into ruling_redirects (old_id, new_id) values (?, ?)", [
        ("old/first", "old/second"), ("old/second", RULING),
        ("old/loop/a", "old/loop/b"), ("old/loop/b", "old/loop/a"), ("old/into-loop", "old/loop/a"),
        ("old/self", "old/self"), ("old/dead", "old/nowhere"),
        *pairwise(long), (long[-1], RULING)])
    conn.commit()
    conn.close()
    return path


@pytest.fixture(scope="module")
def client(db):
    return create_app(db).test_client()


def test_an_id_renamed_twice_redirects_to_the_current_one_in_one_step(db, client):
    assert redirected(connect(db), "old/first") == RULING
    for prefix in ("/r/", "/api/rulings/"):
        moved = client.get(prefix + "old/first")
        assert moved.status_code == 301 and moved.headers["Location"].endswith(prefix + RULING)


@pytest.mark.parametrize("old_id", ["old/loop/a", "old/into-loop", "old/self", "old/dead", "old/long/0"])
def test_redirects_that_loop_dead_end_or_run_too_long_are_a_404_not_a_redirect(db, client, old_id):
    assert redirected(connect(db), old_id) is None
    for prefix in ("/r/", "/api/rulings/"):
        response = client.get(prefix + old_id)
        assert response.status_code == 404 and old_id in response.get_data(as_text=True)
