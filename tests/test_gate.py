"""Which requests pass the gate that keeps threads free for light ones (service/gate.py): with its one slot taken,
a heavy request is told to come back (503, Retry-After) and a light one is still answered. Term pages and searches
with a long question are heavy (issue 44); a question as people ask one is light."""
import pytest

from service.app import create_app
from service.gate import HEAVY, LONG_QUESTION, SEARCHES, Gate

LONG = "Can a reserve army double its magic " * 10  # 360 characters


@pytest.fixture
def full(built_db):
    """A test client of an app whose gate has one slot, taken, and no room to wait."""
    app = create_app(built_db)
    gate = app.extensions["gate"] = Gate(slots=1, waiting=0, wait=0)
    assert gate.enter()
    yield app.test_client()
    gate.leave()


@pytest.mark.parametrize("url", [f"/?q={LONG}", f"/api/search?q={LONG}", "/terms/dragon-dice/magic",
                                 "/api/terms/dragon-dice/magic", "/rules/dragon-dice-faq-magic"])
def test_a_heavy_request_is_refused_with_retry_after_while_the_gate_is_full(full, url):
    assert len(LONG.strip()) > LONG_QUESTION
    response = full.get(url)
    assert response.status_code == 503 and response.headers["Retry-After"]


@pytest.mark.parametrize("url", ["/?q=Can a reserve army double its magic?", "/api/search?q=reserve army magic",
                                 f"/api/search?q={'magic ' * (LONG_QUESTION // 6)}", "/api/games",
                                 "/r/paths-of-the-lance/new-rules/b/2"])
def test_a_light_request_is_answered_while_the_gate_is_full(full, url):
    assert full.get(url).status_code == 200


def test_every_gated_endpoint_is_a_route_of_the_app(built_db):
    endpoints = {rule.endpoint for rule in create_app(built_db).url_map.iter_rules()}
    assert HEAVY | SEARCHES <= endpoints
