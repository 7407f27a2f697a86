"""Graphs the lessons draw. Each function returns a compiled graph; a lesson shows it with

    ```graph-of
    miniagent_course.site.diagrams:react_agent
    ```

and the site renders ``get_graph().draw_mermaid()`` of it at build time, so a diagram is always
the topology the code really builds. ``upstream_*`` functions build the same thing with the real
packages (they need the ``upstream`` extra; without it the page shows how to install it).

These are the graphs of the engine's own pages. A day's graph lives in its kit, and its page names
it the same way (``miniagent_course.kits.day03.cases:loop_diagram``): the site imports it by that
name, as data, so nothing here imports a day.
"""

from __future__ import annotations

import warnings
from typing import Any


def get_weather(city: str) -> str:
    """Get the weather for a city."""
    return f"It is always sunny in {city}."


def react_agent() -> Any:
    """miniagent's ``create_react_agent`` with one tool: ``agent`` and ``tools`` in a loop."""
    from miniagent.prebuilt import create_react_agent
    from miniagent.testing import FakeToolCallingModel

    return create_react_agent(FakeToolCallingModel(), [get_weather])


def upstream_react_agent() -> Any:
    """The same agent built by ``langgraph.prebuilt.create_react_agent`` (langgraph-prebuilt 1.1.3)."""
    from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    from langgraph.prebuilt import create_react_agent

    class FakeModel(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> FakeModel:
            return self  # the diagram only needs the graph, never a reply

    with warnings.catch_warnings():  # create_react_agent is deprecated in favour of create_agent
        warnings.simplefilter("ignore")
        return create_react_agent(FakeModel(messages=iter([])), [get_weather])
