"""The HTML page in a real headless Chromium: every table and image loads; a screenshot is kept."""

import shutil

import pytest

from frontierco.leaderboard.build import build, write

CHROMIUM = shutil.which("chromium")
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


@pytest.mark.slow
@pytest.mark.skipif(CHROMIUM is None, reason="Debian chromium is not installed (.ci/run installs it)")
def test_site_renders_in_headless_chromium(board_setup, tmp_path):
    playwright = pytest.importorskip("playwright.sync_api")
    registry, folder = board_setup
    write(folder, build(folder / "runs", registry))
    with playwright.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
        page = browser.new_page()
        page.goto((folder / "site" / "index.html").as_uri())
        images = page.evaluate("Array.from(document.images).map(i => [i.alt, i.complete && i.naturalWidth > 0])")
        tables = page.evaluate("document.querySelectorAll('table').length")
        cells = page.evaluate("Array.from(document.querySelectorAll('table.board td')).map(td => td.textContent)")
        page.screenshot(path=str(tmp_path / "leaderboard.png"), full_page=True)
        browser.close()
    assert len(images) == 3 and all(loaded for _, loaded in images), images
    assert tables == 3  # the index, one collection, and its rows paired with its best classical row
    assert "4.545" in cells and (tmp_path / "leaderboard.png").stat().st_size > 10_000
