"""Retake the README screenshots, docs/ask.png and docs/ruling.png, from the real servers over rulings.db.

Usage: .venv/bin/python tests/browser/docs_screenshots.py
"""
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests/, for the harness's `support`
from harness import ROOT, launch, servers  # noqa: E402
from playwright.sync_api import sync_playwright  # noqa: E402

from support import REPO_DB  # noqa: E402

QUESTION = "Can a reserve army double its magic?"


def main() -> None:
    docs = ROOT / "docs"
    docs.mkdir(exist_ok=True)
    with servers(REPO_DB) as (app_url, _), sync_playwright() as playwright:
        browser = launch(playwright)
        page = browser.new_page(viewport={"width": 960, "height": 760})
        page.goto(app_url + "/")
        page.fill("#q", QUESTION)
        page.press("#q", "Enter")
        page.locator("article.ruling").first.wait_for()
        page.screenshot(path=docs / "ask.png")
        page.locator("article.ruling a.permalink").first.click()
        page.locator("h1").wait_for()
        page.screenshot(path=docs / "ruling.png")
        browser.close()
    print(f"wrote {docs / 'ask.png'} and {docs / 'ruling.png'}")


if __name__ == "__main__":
    main()
