"""Day 06: decide whether create_react_agent must bind the tools to the model itself.

Lesson:    course/days/day06-bind-tools.md
Notebook:  notebooks/day06_bind_tools.ipynb
Check:     miniagent check day06        Stuck?  miniagent hint day06
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from miniagent.models import BaseChatModel
from miniagent.runnables import RunnableBinding, RunnableSequence
from miniagent_course.todo import NotStarted


def _should_bind_tools(model: Any, tools: Sequence[Any], num_builtin: int = 0) -> bool:
    """Return True if ``create_react_agent`` must call ``model.bind_tools(...)`` itself.

    ``tools`` are the tools the agent's ToolNode will run (each has a ``.name``);
    ``num_builtin`` is how many provider built-in tools (plain dicts such as
    ``{"type": "mcp", ...}``) the caller passed besides them.

    * A ``RunnableSequence`` (e.g. ``model.bind_tools(tools) | parser``) is judged by its
      *first* step that is a ``RunnableBinding`` or a ``BaseChatModel``; with no such step,
      the sequence itself is judged.
    * Not a ``RunnableBinding`` (a bare chat model): True.
    * A binding without a ``"tools"`` key in its ``.kwargs`` (e.g. ``model.bind(stop=[...])``):
      True.
    * Otherwise the user bound tools already; check them and return False. ``bound_tools =
      model.kwargs["tools"]`` is a list of dicts, built-ins included. If ``len(tools)`` differs
      from ``len(bound_tools) - num_builtin``, raise ``ValueError`` with exactly this text
      (upstream really writes no full stop between "match" and "Got"):

          Number of tools in the model.bind_tools() and tools passed to create_react_agent must match Got 2 tools, expected 1

    * Each bound dict has a name in one of two shapes: OpenAI style
      ``{"type": "function", "function": {"name": "add", ...}}``, or Anthropic style
      ``{"name": "add", ...}`` (a dict whose ``"name"`` is present and non-empty). Any other
      dict, such as ``{"type": "mcp", ...}``, has no name: skip it. If some of the tools'
      names are not among the bound names, raise ``ValueError`` with the *set* of missing
      names formatted inside the text, exactly:

          Missing tools '{'mul'}' in the model.bind_tools()

    * Everything matches: return False, so the user's binding (with its ``tool_choice`` and
      other settings) is used as it is.

    Upstream: ``langgraph/prebuilt/chat_agent_executor.py:173`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day06): replace the line below with your code (about 30 lines).
    raise NotStarted("day06")
