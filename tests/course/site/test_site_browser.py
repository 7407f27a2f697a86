"""The browser check (browser_check.js) catches the four defects of issue #25, and the site's fixes
pass it: a fixture page (fixtures/legibility.html) is written twice and checked in Chromium at
1280, 390 and 320 px.

* good.html -- what the site ships: course.css, diagram-fit.js after Mermaid, the drawing marks of
  ``site/hooks.py:mark_drawings`` and titles taken from the headings (``site/hooks.py:headings``);
* bad.html -- each defect put back: no diagram-fit.js (a 14-node left-to-right flowchart shrinks to
  its column), ``text`` blocks wrapping as before, titles as mkdocs-jupyter made them (words in
  `code` dropped), inline code breaking anywhere in a table.

Needs Node.js with ``npm ci`` (playwright-core, mermaid) and Chromium (``.ci/site-check.sh``
installs both and runs this file); skipped without them, unless ``MINIAGENT_REQUIRE_BROWSER=1``.
"""

from __future__ import annotations

import functools
import http.server
import os
import re
import shutil
import subprocess
import threading
from pathlib import Path

import pytest

from miniagent_course.site.hooks import DIAGRAM_FIT_JS, MERMAID_JS, headings, mark_drawings

ROOT = Path(__file__).resolve().parents[3]
HERE = Path(__file__).resolve().parent
CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"

READY = bool(
    shutil.which("node")
    and Path(CHROMIUM).is_file()
    and (ROOT / "node_modules/playwright-core/package.json").is_file()
    and (ROOT / MERMAID_JS).is_file()
)
if not READY and os.environ.get("MINIAGENT_REQUIRE_BROWSER"):  # .ci/site-check.sh: no skipping
    raise RuntimeError("the browser check needs node, `npm ci` and Chromium")
pytestmark = pytest.mark.skipif(
    not READY, reason="needs node, `npm ci` and Chromium (see .ci/site-check.sh)"
)

# The text blocks' rule before issue #25: every `text` block wrapped, drawings included.
OLD_TEXT_CSS = """<style>
  .md-typeset .language-text > pre > code { white-space: pre-wrap; overflow-wrap: anywhere; }
</style>"""


def write_fixture(site: Path) -> None:
    template = (HERE / "fixtures/legibility.html").read_text(encoding="utf-8")
    shutil.copy(ROOT / MERMAID_JS, site / "mermaid.min.js")
    shutil.copy(DIAGRAM_FIT_JS, site / "diagram-fit.js")
    shutil.copy(ROOT / "course/assets/stylesheets/course.css", site / "course.css")

    found = headings(template)
    good = mark_drawings(template)
    good = good.replace("__CSS__", '<link rel="stylesheet" href="course.css">')
    good = good.replace("__FIT__", '<script src="diagram-fit.js"></script>')
    good = good.replace("__TITLE__", found[0]["name"]).replace("__TOC__", found[1]["name"])
    (site / "good.html").write_text(good, encoding="utf-8")

    bad = template.replace("__CSS__", OLD_TEXT_CSS).replace("__FIT__", "")
    bad = bad.replace("__TITLE__", "Day 13 · and middleware").replace("__TOC__", "The hooks: and")
    (site / "bad.html").write_text(bad, encoding="utf-8")


class Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


@pytest.fixture
def served(tmp_path):
    site = tmp_path / "site"
    site.mkdir()
    write_fixture(site)
    handler = functools.partial(Quiet, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield site, f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def test_fixture_headings_keep_code_words():
    found = headings((HERE / "fixtures/legibility.html").read_text(encoding="utf-8"))
    assert found[0] == {
        "level": 1,
        "id": "day-13-create_agent-and-middleware",
        "name": "Day 13 · create_agent and middleware",
    }


@pytest.mark.timeout(300)
def test_browser_check_fails_each_defect_and_passes_the_fixes(served):
    site, base = served
    run = subprocess.run(
        ["node", str(HERE / "browser_check.js"), "--site", str(site), "--base", base,
         "--search", "no", "--chromium", CHROMIUM],
        cwd=ROOT, capture_output=True, text=True, timeout=280,
    )  # fmt: skip
    out = run.stdout + run.stderr
    assert run.returncode == 1, out  # 1: problems found (2 would be a crash of the check)
    problems = re.findall(r"^  - (\S+): (.*)$", run.stdout, re.M)
    assert problems, out
    assert not [p for p in problems if p[0] == "good.html"], out
    bad = [what for page, what in problems if page == "bad.html"]

    def has(pattern: str) -> bool:
        return any(re.search(pattern, what) for what in bad)

    for width in ("1280px", "390px", "320px"):
        assert has(rf"^{width}.* diagram 1 is too small to read"), out
        assert has(rf"^{width}.* drawing \"user ─►.*\" wraps"), out
    for width in ("390px", "320px"):
        assert has(rf"^{width}.* identifier split inside a word"), out
    assert has(r"title lost words: page title \"Day 13 · and middleware"), out
    assert has(r"title lost words: navigation entry .*missing: create_agent"), out
    assert has(r"title lost words: table of contents entry \"The hooks: and\""), out
