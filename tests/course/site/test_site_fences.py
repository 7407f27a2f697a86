"""The build-time directives (`upstream`, `mini`, `graph-of`, `exercise`, `mermaid`), rendered
with the superfences configuration of the real mkdocs.yml."""

from __future__ import annotations

import logging
import re
from pathlib import Path

import pytest

markdown = pytest.importorskip("markdown")
pytest.importorskip("pymdownx")
pytest.importorskip("mkdocs")

from miniagent_course.site import fences as site_fences  # noqa: E402
from miniagent_course.site import upstream as site_upstream  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def fences() -> list[dict]:
    from mkdocs.config import load_config

    config = load_config(str(ROOT / "mkdocs.yml"))
    return config.mdx_configs["pymdownx.superfences"]["custom_fences"]


@pytest.fixture
def render(fences, monkeypatch):
    monkeypatch.setattr(site_fences.STATE, "project_dir", ROOT)
    monkeypatch.setattr(site_fences.STATE, "mermaid_available", True)

    def render(text: str) -> str:
        md = markdown.Markdown(
            extensions=["admonition", "attr_list", "pymdownx.highlight", "pymdownx.superfences"],
            extension_configs={
                "pymdownx.highlight": {"anchor_linenums": True},
                "pymdownx.superfences": {"custom_fences": fences},
            },
        )
        return md.convert(text)

    return render


def line_numbers(html: str) -> list[int]:
    return [int(n) for n in re.findall(r'<a href="#__codelineno-\d+-(\d+)">', html)]


needs_upstream = pytest.mark.skipif(
    site_upstream._dist_files("langgraph-prebuilt") is None, reason="needs the upstream extra"
)


@needs_upstream
def test_upstream_block_has_real_line_numbers_and_caption(render):
    html = render("```upstream\nlanggraph/prebuilt/chat_agent_executor.py:_get_state_value\n```\n")
    assert line_numbers(html) == [129, 130, 131, 132, 133, 134]
    assert "langgraph-prebuilt 1.1.3 · langgraph/prebuilt/chat_agent_executor.py:129" in html
    assert "ma-upstream" in html and "isinstance" in html


@needs_upstream
def test_upstream_options_select_highlight_and_annotate(render):
    spec = "langgraph/prebuilt/chat_agent_executor.py:create_react_agent.call_model"
    html = render(f'```upstream lines="661-663" hl="662" annotate="663"\n{spec}\n```\n')
    assert line_numbers(html) == [661, 662, 663]
    assert html.count('class="hll"') == 1
    assert "# (1)!" in html
    assert "\n    def call_model" not in html  # nested function dedented
    assert "chat_agent_executor.py:661</span>" in html
    part = render(f'```upstream lines="665-667"\n{spec}\n```\n')
    assert line_numbers(part) == [665, 666, 667]
    assert "chat_agent_executor.py:665-667 (in create_react_agent.call_model, l.661)" in part


@needs_upstream
def test_a_broken_upstream_block_fails_the_strict_build(render, caplog):
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.miniagent"):
        html = render("```upstream\nlanggraph/prebuilt/chat_agent_executor.py:nope\n```\n")
    assert "admonition failure" in html and "no symbol" in html
    assert any("no symbol 'nope'" in r.getMessage() for r in caplog.records)


def test_without_the_upstream_extra_the_page_says_how_to_install(render, monkeypatch, caplog):
    monkeypatch.setattr(site_upstream, "_dist_files", lambda dist: None)
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.miniagent"):
        html = render(
            "```upstream\nlanggraph/prebuilt/chat_agent_executor.py:_get_state_value\n```\n"
        )
    assert "admonition warning" in html and 'pip install -e ".[upstream]"' in html
    assert not caplog.records  # an install hint, not a warning: the strict build passes


def test_mini_block_shows_a_snippet_section_with_real_line_numbers(render):
    path = ROOT / "src/miniagent/prebuilt/chat_agent_executor.py"
    lines = path.read_text(encoding="utf-8").splitlines()
    start = lines.index("# --8<-- [start:get_state_value]") + 2  # first line after the marker
    html = render("```mini\nsrc/miniagent/prebuilt/chat_agent_executor.py:get_state_value\n```\n")
    assert line_numbers(html)[0] == start
    assert f"miniagent · src/miniagent/prebuilt/chat_agent_executor.py:{start}" in html
    assert "--8&lt;--" not in html  # the markers themselves are not shown


def test_graph_of_draws_the_graph_the_code_builds(render):
    html = render("```graph-of\nminiagent_course.site.diagrams:react_agent\n```\n")
    assert '<pre class="mermaid"><code>' in html
    assert "agent -.-&gt; tools;" in html and "tools --&gt; agent;" in html
    assert "fill:#" not in html  # theme-neutral: node colours follow light/dark
    assert "miniagent_course.site.diagrams:react_agent" in html  # the caption names the source


def test_graph_of_a_broken_function_fails(render, caplog):
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.miniagent"):
        html = render("```graph-of\nminiagent_course.site.diagrams:no_such_graph\n```\n")
    assert "admonition failure" in html
    assert any("AttributeError" in r.getMessage() for r in caplog.records)


def test_without_node_diagrams_are_text_with_a_note(render, monkeypatch):
    monkeypatch.setattr(site_fences.STATE, "mermaid_available", False)
    html = render("```mermaid\ngraph TD;\n  a --> b;\n```\n")
    assert 'class="mermaid"' not in html  # Material would fetch Mermaid from a CDN for it
    assert "ma-diagram-text" in html and "npm ci" in html


def test_exercise_box_comes_from_course_toml(render):
    from miniagent_course.grading.course import load_course

    exercise = load_course(ROOT).exercise("day00")
    html = render("```exercise\nday00\n```\n")
    assert exercise.file in html and "miniagent check day00" in html
    assert "miniagent hint day00" in html
    assert html.count("<details") == len(exercise.hints) >= 2
    assert "<strong>be the grader</strong>" in html and "**" not in html  # the kind, in bold


def test_theme_neutral_keeps_everything_but_fill_colours():
    text = "graph TD;\n\ta --> b;\n\tclassDef default fill:#f2f0ff,line-height:1.2\n\tclassDef last fill:#bfb6fc"
    assert (
        site_fences.theme_neutral(text)
        == "graph TD;\n\ta --> b;\n\tclassDef default line-height:1.2"
    )
