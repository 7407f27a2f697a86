"""Diagrams come from code: every graph a lesson draws builds, and where a lesson shows the
upstream graph beside ours, the two drawings are the same graph."""

from __future__ import annotations

import inspect

import pytest

from miniagent_course.site import diagrams as site_diagrams
from miniagent_course.site.fences import mermaid_of, theme_neutral

MINI = sorted(
    name
    for name, fn in vars(site_diagrams).items()
    if inspect.isfunction(fn) and fn.__module__ == site_diagrams.__name__
    and not name.startswith(("upstream_", "_", "get_"))
)  # fmt: skip


@pytest.mark.parametrize("name", MINI)
def test_every_lesson_graph_draws(name):
    text = mermaid_of(f"miniagent_course.site.diagrams:{name}")
    assert "graph TD;" in text and "__start__" in text


@pytest.mark.parametrize("name", [n for n in MINI if hasattr(site_diagrams, f"upstream_{n}")])
def test_miniagent_draws_the_same_graph_as_upstream(name):
    pytest.importorskip("langgraph.prebuilt")
    ours = mermaid_of(f"miniagent_course.site.diagrams:{name}")
    theirs = mermaid_of(f"miniagent_course.site.diagrams:upstream_{name}")
    assert ours == theirs


def test_react_agent_topology():
    text = mermaid_of("miniagent_course.site.diagrams:react_agent")
    edges = {
        line.strip().rstrip(";") for line in text.splitlines() if "-->" in line or "-.->" in line
    }
    assert edges == {
        "__start__ --> agent",
        "agent -.-> __end__",
        "agent -.-> tools",
        "tools --> agent",
    }
    assert "fill:" not in theme_neutral(text) and "tools --> agent;" in theme_neutral(text)
