"""A day fits an evening: every day page's core path is at most 1,800 words of prose, and the time
it states comes from the method in page_budget.py (course/index.md tells learners the method)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from page_budget import (  # this folder is on sys.path: pytest's rootdir-relative import
    CORE_HAN_MAX,
    CORE_WORDS_MAX,
    core_han,
    code_lines,
    core_words,
    day_pages,
    page_minutes,
    reading_minutes,
    stated_minutes,
)

ROOT = Path(__file__).resolve().parents[3]


def _page(body: str) -> str:
    return f'<html><nav>menu words here</nav><article class="md-content__inner md-typeset">{body}</article></html>'


def test_prose_counts_and_code_and_collapsed_blocks_do_not():
    html = _page(
        "<p>one two <code>hidden_name</code> three</p>"
        '<div class="highlight"><pre><code>x = 1\ny = 2\n</code></pre></div>'
        '<details class="note"><summary>Going deeper: four</summary><p>not counted at all</p>'
        '<details open="open"><summary>inner</summary><p>nor this</p></details></details>'
        '<details class="tip" open="open"><summary>five</summary><p>six seven</p></details>'
        '<h2 id="x">eight<a class="headerlink" href="#x">&para;</a></h2>'
    )
    # "Going deeper: four" is the summary line of a collapsed block: it is read
    assert core_words(html) == 10
    assert code_lines(html) == 2


def test_code_lines_count_the_first_tab_and_skip_line_numbers_and_diagrams():
    block = '<div class="highlight"><table><tr><td class="linenos"><div class="linenodiv"><pre>1\n2\n3\n</pre></div></td><td><pre><code>a\nb\nc\n</code></pre></td></tr></table></div>'
    html = _page(
        f'<div class="tabbed-set"><div class="tabbed-content"><div class="tabbed-block">{block}</div>'
        f'<div class="tabbed-block">{block}<p>same code</p></div></div></div>'
        '<pre class="mermaid"><code>flowchart LR\nA --&gt; B\n</code></pre>'
    )
    assert code_lines(html) == 3
    assert core_words(html) == 2  # a second tab's prose still counts: it is not collapsed


def test_a_diagram_counts_nothing_even_as_its_text_fallback():
    fallback = (
        '<div class="ma-diagram"><div class="admonition info"><p class="admonition-title">Diagram'
        " shown as text</p><p>The bundled renderer is missing.</p></div>"
        '<pre class="ma-diagram-text"><code>graph TD;\nA --&gt; B\n</code></pre></div>'
    )
    html = _page(f"<p>one two</p>{fallback}")
    assert (core_words(html), code_lines(html)) == (2, 0)


def test_the_method_rounds_reading_up_to_five_minutes():
    assert reading_minutes(0, 0) == 5
    assert reading_minutes(1000, 0) == 5  # 5.0 minutes
    assert reading_minutes(1001, 0) == 10
    assert reading_minutes(1800, 100) == 20  # 9 + 10 minutes
    html = _page("<p>about 35 minutes: reading 5, notebook and exercise 30</p>")
    assert stated_minutes(html) == (35, 5, 30)
    assert page_minutes(html, 30) == 35


@pytest.fixture(scope="module")
def days(built_site) -> dict[str, str]:
    pages = day_pages(built_site)
    lessons = sorted(p.stem for p in (ROOT / "course/days").glob("day*.md") if "." not in p.stem)
    # (a translated twin, day00-welcome.zh.md, is built into zh/days/: its budget is in 汉字)
    assert [Path(name).stem for name in pages] == lessons
    return pages


@pytest.mark.timeout(600)  # the first use builds the site
def test_every_day_page_core_path_fits_the_budget(days):
    over = {name: core_words(html) for name, html in days.items()}
    over = {name: words for name, words in over.items() if words > CORE_WORDS_MAX}
    assert not over, (
        f"core path over {CORE_WORDS_MAX} words (move detail into '??? note \"Going deeper: ...\"'"
        f" blocks; `python tests/course/site/page_budget.py SITE` lists every page): {over}"
    )


@pytest.mark.timeout(600)
def test_every_chinese_day_page_core_path_fits_its_budget_in_han(built_site, days):
    chinese = day_pages(built_site / "zh")
    assert sorted(chinese) == sorted(days)  # every day page has its built twin
    sizes = {name: core_han(html) for name, html in chinese.items()}
    over = {name: han for name, han in sizes.items() if han > CORE_HAN_MAX}
    assert not over, f"core path over {CORE_HAN_MAX} 汉字 (the Chinese edition's budget): {over}"
    assert min(sizes.values()) > 1000  # counted: 汉字 on the core path, not zero


def test_han_are_counted_on_the_core_path_only():
    html = _page("<p>中文 words 汉字。</p><details><summary>深入</summary><p>不算这些字</p></details>")
    assert core_han(html) == 6  # 中文, 汉字, and the visible summary line 深入


@pytest.mark.timeout(600)
def test_every_day_page_states_the_time_the_method_gives(days):
    wrong = []
    for name, html in days.items():
        stated = stated_minutes(html)
        if stated is None:
            wrong.append(f"{name}: no 'about N minutes: reading R, notebook and exercise W'")
            continue
        total, reading, work = stated
        method = page_minutes(html, work)
        if (total, reading) != (method, method - work):
            wrong.append(
                f"{name}: states {total} ({reading} + {work}), the method gives {method}"
                f" ({method - work} + {work})"
            )
    assert not wrong, "\n".join(wrong)


def test_the_method_is_told_to_learners():
    said = re.sub(r"\s+", " ", (ROOT / "course/index.md").read_text(encoding="utf-8"))
    for fact in ("200 words a minute", "10 lines a minute", "1,800 words", "Going deeper"):
        assert fact in said, f"course/index.md (How the course works) does not say {fact!r}"
