"""Fixtures of the browser tests: the web app and Datasette over the session's databases, and headless Debian
chromium (tests/browser/harness.py). The servers start once per session and database; chromium once per module
(Playwright's event loop must not outlive the module: other tests run asyncio themselves), where each module or
test opens its pages in a context of its own (its storage, permissions and clipboard grants its own)."""
import pytest
from harness import launch, servers


@pytest.fixture(scope="session")
def seeds_urls(built_db):
    """(web app URL, Datasette URL) of both servers over the seeds' database, read-only."""
    with servers(built_db, "seeds") as found:
        yield found


@pytest.fixture(scope="session")
def editions_urls(editions_db):
    """(web app URL, Datasette URL) of both servers over the database with three editions of the Lorcana rules."""
    with servers(editions_db, "editions") as found:
        yield found


@pytest.fixture(scope="module")
def urls(seeds_urls):
    """The servers a module's tests use: over the seeds' database unless the module says otherwise."""
    return seeds_urls


@pytest.fixture(scope="module")
def browser():
    """Headless chromium, launched once per module."""
    from playwright.sync_api import sync_playwright

    from playwright.sync_api import expect

    # An expectation waits as long as an action does: a long rulebook loading and scrolling to its anchor on a busy
    # machine takes more than expect's own 5 s (CI once read a heading out of view before the page had scrolled).
    expect.set_options(timeout=30_000)
    with sync_playwright() as playwright:
        chromium = launch(playwright)
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def page(browser):
    """One 1100 × 900 page, shared by a module's tests."""
    context = browser.new_context(viewport={"width": 1100, "height": 900})
    context.set_default_timeout(30_000)
    yield context.new_page()
    context.close()
