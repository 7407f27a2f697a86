"""Day 06: decide whether create_react_agent must bind the tools to the model itself.

Lesson:    course/days/day06-bind-tools.md
Notebook:  notebooks/day06_bind_tools.ipynb
Check:     miniagent check day06        Stuck?  miniagent hint day06

Two parts, graded separately:

(1) ``_should_bind_tools``: write the function.
(2) Be the grader: write tests that tell a correct ``_should_bind_tools`` from wrong ones.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from miniagent.models import BaseChatModel
from miniagent.runnables import RunnableBinding, RunnableSequence
from miniagent_course.todo import NotStarted


def _should_bind_tools(model: Any, tools: Sequence[Any], num_builtin: int = 0) -> bool:
    """Must ``create_react_agent`` call ``model.bind_tools(...)`` itself?

    Input:

    * ``model`` -- what the user passed as the agent's model: a chat model (``BaseChatModel``),
      a ``RunnableBinding`` (made by ``bind_tools``, ``bind``, ``with_config``...), a
      ``RunnableSequence`` such as ``model.bind_tools(tools) | parser``, or any other Runnable;
    * ``tools`` -- the tools the agent's ToolNode will run; each has a ``.name``;
    * ``num_builtin`` -- how many provider built-in tools (plain dicts such as
      ``{"type": "mcp", ...}``) the user passed besides them.

    Output:

    * ``True`` when the user bound no tools: nothing is bound, or the binding's ``.kwargs`` hold
      no ``"tools"``;
    * ``False`` when the user bound tools and they fit ``tools``: as many bound tool dicts as
      ``tools`` plus ``num_builtin``, and every tool's name among the bound names. (The agent
      then keeps the user's binding as it is.)

    A sequence is judged by its first step that is a binding or a chat model (the sequence itself
    when it has none). A bound tool dict names its tool OpenAI style,
    ``{"type": "function", "function": {"name": "add", ...}}``, or Anthropic style, with a
    non-empty ``"name"``; the OpenAI shape wins when a dict has both, and a dict with neither
    names nothing.

    Errors: bound tools that do not fit raise ``ValueError`` with exactly one of these texts, the
    count checked first (the numbers and names are examples; upstream writes no full stop between
    "match" and "Got", and the second prints the Python *set* of missing names)::

        Number of tools in the model.bind_tools() and tools passed to create_react_agent must match Got 2 tools, expected 1
        Missing tools '{'mul'}' in the model.bind_tools()

    >>> from miniagent.testing import FakeToolCallingModel
    >>> from miniagent.tools import tool
    >>> @tool
    ... def add(a: int, b: int) -> int:
    ...     "Add two integers."
    ...     return a + b
    >>> _should_bind_tools(FakeToolCallingModel().bind_tools([add]), [add])
    False

    Lesson: "Line by line" and "Edge cases and surprises" on the Day 06 page.
    Upstream: ``langgraph/prebuilt/chat_agent_executor.py:173`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day06): replace the line below with your code (about 30 lines).
    raise NotStarted("day06")


# --- part 2: be the grader ------------------------------------------------------------------
#
# Write test functions, as many as you like, each named test_<what it checks> and taking one
# argument: the function under test (call it `should_bind`). A test calls `should_bind(...)` and
# asserts what a correct _should_bind_tools returns or raises. Build your models with
# miniagent.testing.FakeToolCallingModel (tool_style="openai" or "anthropic") and your tools
# with miniagent.tools.tool. The graders run your tests against a correct function (all must
# pass) and against several plausible wrong ones (together, your tests must catch at least
# seven). Which wrong versions? That is the exercise: think about what someone could get wrong.
#
#     def test_a_bare_model_needs_binding(should_bind):
#         assert should_bind(FakeToolCallingModel(), [add]) is True


def test_my_first_check(should_bind):
    """Your first test: replace the line below with a check (and add more test_ functions)."""
    # TODO(day06): part 2, your tests.
    raise NotStarted("day06")
