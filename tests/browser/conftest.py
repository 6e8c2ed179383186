"""Fixtures of the browser tests: the web app and Datasette over the session's database, and a page of
headless Debian chromium (tests/browser/harness.py)."""
import pytest
from harness import launch, servers


@pytest.fixture(scope="module")
def urls(built_db):
    """(web app URL, Datasette URL) of both servers over the session's database, for one test module."""
    with servers(built_db) as found:
        yield found


@pytest.fixture(scope="module")
def page():
    """One 1100 × 900 page, shared by a module's tests."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = launch(playwright)
        context = chromium.new_context(viewport={"width": 1100, "height": 900})
        context.set_default_timeout(30_000)
        yield context.new_page()
        chromium.close()
