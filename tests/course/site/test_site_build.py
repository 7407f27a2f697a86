"""`mkdocs build --strict` of the real course, with and without Node.js, and what the pages hold.

Both builds run in one test, one after the other: they share mkdocs-jupyter's notebook cache.
The browser check (.ci/site-check.sh) then loads the pages; this test reads the HTML.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mkdocs")
pytest.importorskip("material")
pytest.importorskip("mkdocs_jupyter")

from miniagent_course.site.hooks import (  # noqa: E402
    EXTERNAL_LOAD,
    MERMAID_JS,
    SHIM_JS,
    jieba_terms,
)
from miniagent_course.site.upstream import _dist_files  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
LESSON = "days/day00-welcome.html"


def build(site_dir: Path, **env: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site_dir)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1", **env},
        timeout=240,
    )


def pages(site: Path) -> dict[str, str]:
    return {
        p.relative_to(site).as_posix(): p.read_text(encoding="utf-8")
        for p in site.rglob("*.html")
        if "assets" not in p.relative_to(site).parts
    }


def check_common(site: Path, html: dict[str, str], chinese: bool = True) -> None:
    """What every build must have, with or without Node.js (the Chinese edition: the full build's,
    checked once; the plain build is English only, as ``MINIAGENT_SITE_EDITIONS=en`` builds it)."""
    for name, text in html.items():
        assert not EXTERNAL_LOAD.search(text), f"{name} loads from another host"
        assert "iframe-worker/shim" not in text, f"{name} references the CDN shim"
    lesson = html[LESSON]
    if _dist_files("langgraph-prebuilt") is not None:
        assert "langgraph-prebuilt 1.1.3 · langgraph/prebuilt/chat_agent_executor.py:129" in lesson
        assert re.search(r'href="#__codelineno-\d+-129"', lesson)
    assert "miniagent · src/miniagent/prebuilt/chat_agent_executor.py:" in lesson
    assert "Exercise day00" in lesson
    # notebooks: executed at build time, listed in the nav
    notebook_pages = [n for n in html if n.startswith("notebooks/day")]
    assert notebook_pages, "no notebook page"
    for name in notebook_pages:
        assert "jp-OutputArea-output" in html[name], f"{name} has no executed output"
    assert 'href="notebooks/day00_welcome.html"' in html["index.html"]
    # offline search: the index is inlined as a script (file://) and has the lessons' words
    assert (site / "search/search_index.js").is_file()
    index = json.loads((site / "search/search_index.json").read_text(encoding="utf-8"))
    assert any("adapter" in d["text"] and d["location"].startswith(LESSON) for d in index["docs"])
    # the course map links the day that exists, and only that one
    assert 'href "days/day00-welcome.html"' in html["map.html"]
    assert 'href="days/day00-welcome.html"' in html["map.html"]
    if chinese:
        check_chinese(site, html)
    else:
        assert not (site / "zh").exists()


SWITCH = re.compile(r'<a href="([^"]*)" hreflang="(en|zh)" class="md-select__link">')
PRE = re.compile(r"<pre>(.*?)</pre>", re.S)


def check_chinese(site: Path, html: dict[str, str]) -> None:
    """The Chinese edition (mkdocs.zh.yml, built into zh/ by the same build): a twin of every
    page, a language switch on every page that leads to the page's twin, translated pages and
    navigation, notebook outputs taken from the English run, and search that cuts Chinese."""
    english = {n for n in html if not n.startswith("zh/")}
    assert {n.removeprefix("zh/") for n in html if n.startswith("zh/")} == english
    for name, text in html.items():
        links = dict((lang, href) for href, lang in SWITCH.findall(text))
        assert set(links) == {"en", "zh"}, f"{name}: no language switch"
        for lang, href in links.items():
            target = (site / name).parent / href
            page = name.removeprefix("zh/").replace("404.html", "index.html")  # 404: the homes
            twin = page if lang == "en" else "zh/" + page
            assert target.resolve() == (site / twin).resolve(), f"{name}: {lang} -> {href}"
    zh_lesson = html["zh/" + LESSON]
    assert '<html lang="zh"' in zh_lesson and "痛点" in zh_lesson
    assert "练习 day00" in zh_lesson  # the exercise box speaks Chinese (kit.toml [zh])
    if _dist_files("langgraph-prebuilt") is not None:  # citations unchanged
        assert "langgraph/prebuilt/chat_agent_executor.py:129" in zh_lesson
    assert "课程地图" in html["zh/index.html"] and "热身：一个值，任何状态" in html["zh/index.html"]
    assert (
        'href="days/day00-welcome.html"' in html["zh/map.html"]
        and "怎样读这门课" in html["zh/map.html"]
    )
    # the twin notebook: its own prose, and the English run's code and outputs, block for block
    book = "notebooks/day00_welcome.html"
    assert "两种形状，一个读取函数" in html["zh/" + book]
    assert PRE.findall(html["zh/" + book]) == PRE.findall(html[book])
    for name in [n for n in html if n.startswith("zh/notebooks/day")]:
        assert "jp-OutputArea-output" in html[name], f"{name} has no executed output"
    # search: jieba cut the Chinese at build time, so a Chinese word is a term of its page
    index = json.loads((site / "zh/search/search_index.json").read_text(encoding="utf-8"))
    assert index["config"]["lang"] == ["en", "zh"]
    words = re.compile(index["config"]["separator"])
    hits = {d["location"].split("#")[0] for d in index["docs"] if "插头" in words.split(d["text"])}
    assert hits == {LESSON}, hits
    check_terms_whole(index)


def _cuts(field: str) -> tuple[str, set[int]]:
    """``field`` without jieba's cuts (zero-width spaces), and where they were in it."""
    plain, cuts = "", set()
    for char in field:
        if char == "\u200b":
            cuts.add(len(plain))
        else:
            plain += char
    return plain, cuts


def check_terms_whole(index: dict) -> None:
    """jieba kept every term of the terms table (text/terms.zh.toml) as one word wherever the
    Chinese index holds it: no cut (a zero-width space) inside an occurrence, unless it overlaps
    another term kept whole (超步数: 超步 and 步数 cannot both be one word)."""
    terms = jieba_terms("zh")
    tokens: set[str] = set()
    for doc in index["docs"]:
        for field in (doc["title"], doc["text"]):
            plain, cuts = _cuts(field)
            tokens.update(field.split("\u200b"))
            found = [m.span() for term in terms for m in re.finditer(term, plain)]
            whole = [(a, b) for a, b in found if not cuts & set(range(a + 1, b))]
            for a, b in set(found) - set(whole):
                overlaps = any(a < d and c < b for c, d in whole)
                assert overlaps, f"{doc['location']}: {plain[a:b]} cut in {field[:80]!r}"
    assert {"超步", "中间件", "工具调用"} <= tokens


@pytest.mark.timeout(600)
def test_strict_build_with_and_without_node(tmp_path):
    # As a learner without Node.js gets it: diagrams as text, and still nothing from outside.
    plain = build(tmp_path / "plain", MINIAGENT_SITE_WITHOUT_NODE="1", MINIAGENT_SITE_EDITIONS="en")
    assert plain.returncode == 0, plain.stdout + plain.stderr
    html = pages(tmp_path / "plain")
    check_common(tmp_path / "plain", html, chinese=False)
    assert not any('class="mermaid"' in text for text in html.values())
    assert "ma-diagram-text" in html[LESSON] and "npm ci" in html[LESSON]
    assert not (tmp_path / "plain/assets/vendor/mermaid.min.js").exists()
    assert "diagram-fit.js" not in html[LESSON]

    if not (ROOT / MERMAID_JS).is_file() or not (ROOT / SHIM_JS).is_file():
        pytest.skip("npm assets not installed (run `npm ci`): only the build without Node ran")
    full = build(tmp_path / "full")
    assert full.returncode == 0, full.stdout + full.stderr
    # the notebooks ran side by side into mkdocs-jupyter's own cache entries: the plugin rendered
    # none itself, and the second build (same cache) ran none again
    for run in (plain, full):
        assert "Cache miss, writing" not in run.stdout + run.stderr
    assert "miniagent: notebooks: executing" not in full.stdout + full.stderr
    html = pages(tmp_path / "full")
    check_common(tmp_path / "full", html)
    assert (tmp_path / "full/assets/vendor/mermaid.min.js").is_file()
    assert 'src="../assets/vendor/mermaid.min.js"' in html[LESSON]
    assert 'src="../assets/vendor/iframe-worker-shim.js"' in html[LESSON]
    # diagram-fit.js wraps mermaid.render, so it comes right after Mermaid
    fit = html[LESSON].index('src="../assets/vendor/diagram-fit.js"')
    assert html[LESSON].index('src="../assets/vendor/mermaid.min.js"') < fit
    assert html[LESSON].count('<pre class="mermaid">') == 2  # LangGraph and miniagent diagrams
    assert "agent -.-&gt; tools;" in html[LESSON]
    assert html["map.html"].count('<pre class="mermaid">') == 1
