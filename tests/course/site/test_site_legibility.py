"""What site/hooks.py does to every page's HTML so it reads well (issue #25): drawings are marked so
they scroll instead of wrapping, inline code gets break points between names, notebook titles and
tables of contents come from the rendered headings (with their words in `code`). The browser
check (test_site_browser.py) shows the effect in Chromium."""

from __future__ import annotations

import markdown

from miniagent_course.site.fences import drawing_format
from miniagent_course.site.hooks import (
    headings,
    mark_drawings,
    soft_breaks,
    toc_tokens,
    without_unused_mermaid,
)


def test_a_block_with_box_drawing_characters_is_a_drawing():
    page = (
        '<div class="language-text highlight"><pre><span></span><code>a ─► b\n  └─ c</code></pre></div>'
        '<pre class="x"><code>│</code></pre>'
        "<pre><code>plain text</code></pre>"
        '<pre class="mermaid"><code>a ─ b</code></pre>'
    )
    out = mark_drawings(page)
    assert '<pre class="ma-drawing"><span></span><code>a ─► b' in out
    assert '<pre class="ma-drawing x">' in out
    assert "<pre><code>plain text</code></pre>" in out
    assert '<pre class="mermaid">' in out  # diagrams are left to Mermaid
    assert mark_drawings(out) == out


def test_the_drawing_fence_is_a_text_block_marked_as_a_drawing():
    md = markdown.Markdown(
        extensions=["pymdownx.highlight", "pymdownx.superfences"],
        extension_configs={
            "pymdownx.superfences": {
                "custom_fences": [{"name": "drawing", "class": "drawing", "format": drawing_format}]
            }
        },
    )
    out = md.convert("```drawing\n+--+\n|  |  ->\n+--+\n```")
    assert 'ma-drawing highlight"><pre>' in out
    assert "|  |  -&gt;" in out


def test_inline_code_breaks_between_names_only():
    out = soft_breaks(
        "<p><code>before_agent</code> <code>ModelCallLimitMiddleware(run_limit=4)</code> "
        "<code>langchain/agents/factory.py:1216</code> <code>_get_prompt_runnable</code> "
        "<code>qwen2.5</code> <code>{name}.after_model</code> <code>x=&quot;end&quot;</code></p>"
        "<pre><code>keep_this.as_is</code></pre><script>var a = '<code>a_b</code>';</script>"
        "<table><tr><td><code>before_agent</code></td></tr></table>"
        '<table class="ma-exercise"><tr><td><code>exercises/day13_x.py</code></td></tr></table>'
    )
    assert "<code>before_<wbr>agent</code>" in out
    assert "<code>ModelCallLimitMiddleware(<wbr>run_<wbr>limit=<wbr>4)</code>" in out
    assert "<code>langchain/<wbr>agents/<wbr>factory.<wbr>py:<wbr>1216</code>" in out
    assert "<code>_get_<wbr>prompt_<wbr>runnable</code>" in out  # not after the leading "_"
    assert "<code>qwen2.5</code>" in out  # nor inside a number
    assert "<code>{name}.<wbr>after_<wbr>model</code>" in out
    assert "<code>x=<wbr>&quot;end&quot;</code>" in out  # never inside an entity
    assert "<pre><code>keep_this.as_is</code></pre>" in out
    assert "'<code>a_b</code>'" in out
    assert "<td><code>before_agent</code></td>" in out  # a table scrolls instead (course.css)
    assert "<td><code>exercises/<wbr>day13_<wbr>x.<wbr>py</code></td>" in out  # but not this one


def test_notebook_headings_keep_their_code_words_and_ids():
    page = (
        '<h1 id="day-11-toolnode-and-tools_condition">Day 11 · <code>ToolNode</code> and '
        '<code>tools_condition</code><a class="anchor-link" href="#x">¶</a></h1>'
        '<h2 id="a">1. What <code>messages</code> &amp; more</h2><h3 id="b">deep</h3>'
        '<h2 id="c">7. <code>Command</code>, and v1</h2><h2>no id</h2>'
    )
    flat = headings(page)
    assert [(h["level"], h["id"], h["name"]) for h in flat] == [
        (1, "day-11-toolnode-and-tools_condition", "Day 11 · ToolNode and tools_condition"),
        (2, "a", "1. What messages & more"),
        (3, "b", "deep"),
        (2, "c", "7. Command, and v1"),
    ]
    (top,) = toc_tokens(flat)
    assert [c["id"] for c in top["children"]] == ["a", "c"]
    assert top["children"][0]["children"][0]["id"] == "b"


def test_only_a_page_with_a_diagram_loads_mermaid():
    scripts = (
        '<script src="../assets/vendor/mermaid.min.js"></script>'
        '<script src="../assets/vendor/diagram-fit.js"></script>'
    )
    prose = f"<p>draw_mermaid() returns the text of a Mermaid diagram</p>{scripts}"
    assert (
        without_unused_mermaid(prose)
        == "<p>draw_mermaid() returns the text of a Mermaid diagram</p>"
    )
    for diagram in ('<pre class="mermaid">graph TD</pre>', '<div class="x mermaid">..</div>'):
        assert without_unused_mermaid(diagram + scripts) == diagram + scripts
