"""Day 03: the ReAct loop by hand -- call the model, run its tools, feed the results back.

Lesson:    course/days/day03-react-loop.md
Notebook:  notebooks/day03_react_loop.ipynb
Check:     miniagent check day03        Stuck?  miniagent hint day03

Two parts, graded separately:

(1) ``run_loop``: the loop ``create_react_agent`` builds as a graph, written as a plain loop.
(2) Predict: ``predictions`` says how the *default* ``create_react_agent`` ends each of the
    day's scripts, before you run them in the notebook. The graders run the agent.

Once it passes, ``miniagent mine`` runs your loop on the day's scripts too.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from miniagent.graph.message import add_messages
from miniagent.messages import AIMessage, BaseMessage, ToolMessage
from miniagent.prebuilt.tool_node import INVALID_TOOL_NAME_ERROR_TEMPLATE, TOOL_CALL_ERROR_TEMPLATE
from miniagent_course.todo import NotStarted


def run_loop(
    model: Any, tools: Sequence[Any], messages: Sequence[Any], max_steps: int
) -> list[BaseMessage]:
    """Run the ReAct loop and return the whole conversation: the input, then every new message.

    Input:

    * ``model`` -- a chat model; ``tools`` -- a non-empty list of tools (``@tool``);
    * ``messages`` -- the conversation so far, as messages or as anything ``add_messages``
      accepts (``("user", "2 + 3?")``); the caller's list is left unchanged;
    * ``max_steps`` -- the most model calls the run may make (1 or more).

    Output: a list of messages, the same (compared with ``miniagent.testing.message_trace``, which
    names random ids ``<id-1>``, ...) as what the default agent with error handling returns::

        create_react_agent(model, ToolNode(tools, handle_tool_errors=True)).invoke(
            {"messages": messages}, {"recursion_limit": 2 * max_steps})["messages"]

    So: every message has an id; the model, bound to the tools, saw the whole conversation at each
    call; each reply that calls tools is followed by one ``ToolMessage`` per call, in call order,
    with the call's id as ``tool_call_id``; the list ends with a reply without tool calls, or, when
    the ``max_steps``-th reply still calls tools, with ``AIMessage(id=<that reply's id>,
    content="Sorry, need more steps to process this request.")`` in that reply's place.

    Errors: none escape. A failed call is a ``ToolMessage`` with ``status="error"``, the call's
    ``name`` and one of these texts:

    * the tool raised (any ``Exception``): ``TOOL_CALL_ERROR_TEMPLATE`` with ``error=repr(error)``,
      e.g. ``Error: ValueError('cannot use 7')\\n Please fix your mistakes.``;
    * no tool of that name (nothing runs): ``INVALID_TOOL_NAME_ERROR_TEMPLATE`` with
      ``requested_tool`` the name and ``available_tools`` the tools' names joined by ``", "``,
      e.g. ``Error: multiply is not a valid tool, try one of [add, fail].``

    >>> from miniagent.testing import ScriptedChatModel
    >>> from miniagent.tools import tool
    >>> @tool
    ... def add(a: int, b: int) -> int:
    ...     "Add two integers."
    ...     return a + b
    >>> call = {"name": "add", "args": {"a": 2, "b": 3}, "id": "c1"}
    >>> model = ScriptedChatModel([AIMessage("", tool_calls=[call]), AIMessage("5")])
    >>> [(m.type, m.content) for m in run_loop(model, [add], [("user", "2 + 3?")], 5)]
    [('human', '2 + 3?'), ('ai', ''), ('tool', '5'), ('ai', '5')]

    The graders' tools take valid arguments (``ToolNode`` words an argument error its own way: the
    lesson, *Edge cases*).
    """
    # TODO(day03): write the loop here.
    raise NotStarted("day03")


def predictions() -> dict[str, str]:
    """Your prediction of how the **default** agent ends each script of the lesson's table.

    The agent is ``create_react_agent(model, [add, profile, fail, search])`` -- a plain list of
    tools, so its ``ToolNode`` handles errors the default way -- run with
    ``{"recursion_limit": 2 * max_steps}``. The scripts (the lesson, *Part 2*, and the notebook's
    last section list them): ``one_call``, ``parallel_calls``, ``two_rounds``, ``tool_raises``,
    ``raises_beside_a_good_call``, ``tool_exception``, ``unknown_tool``, ``endless_calls``,
    ``answer_at_the_cap`` and ``bad_arguments``.

    For each, give the messages ``invoke`` returns as their types in order, separated by one
    space: ``"human"``, ``"ai"``, ``"tool"``, and ``"tool-error"`` for a ``ToolMessage`` with
    ``status="error"``; or, when ``invoke`` raises, ``"raises <the exception's class name>"``.
    Its shape (placeholders, not answers): ``{"one_call": "human ai", "tool_raises": "raises
    KeyError", ...}``. The graders run the agent on each script and compare, one at a time.

    Sealed: a table with an entry missing (or not of this form) is not graded; it says only how
    many entries are filled. Your first complete table is recorded as your first try before any
    real outcome is shown: that run (``pytest``, ``miniagent check`` or the notebook's table
    cell) says only which rows are wrong, and later runs show what the real run gives.
    """
    # TODO(day03): replace the line below with `return {"one_call": "...", ...}`.
    raise NotStarted("day03")
