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

    ``model`` is a chat model, ``tools`` a non-empty list of tools (``@tool``), ``messages`` the
    conversation so far, as messages or as anything ``add_messages`` accepts (``("user",
    "2 + 3?")``), and ``max_steps`` (1 or more) the most model calls the loop may make. Do not
    change the caller's list.

    The contract: for every script the graders run, your list has the same messages as

        create_react_agent(model, ToolNode(tools, handle_tool_errors=True)).invoke(
            {"messages": messages}, {"recursion_limit": 2 * max_steps})["messages"]

    compared with ``miniagent.testing.message_trace`` (random ids replaced by ``<id-1>``, ...).
    Spelled out:

    * **The model** sees the whole conversation at every call, bound to the tools
      (``model.bind_tools(tools)``, as the agent binds them). Its reply goes into the history.
    * **The history** grows the way the graph's state grows: through ``add_messages``, which
      turns tuples into messages and gives each message that has no id a fresh one.
    * **A reply without tool calls** is the answer: return the history.
    * **A reply with tool calls**: answer *every* call, in the order of ``tool_calls``, with one
      ``ToolMessage`` whose ``tool_call_id`` is the call's ``id``; then call the model again.

      - a known tool: the ``ToolMessage`` the tool returns when you invoke it with the whole
        call, ``tool.invoke({**call, "type": "tool_call"})`` (it carries the id and the name,
        and writes a result that is not a string as JSON);
      - a tool that raises (any ``Exception``): do not let it escape. Feed it back as
        ``ToolMessage(TOOL_CALL_ERROR_TEMPLATE.format(error=repr(error)), name=call["name"],
        tool_call_id=call["id"], status="error")`` -- the text reads ``Error: ValueError('cannot
        use 7')\\n Please fix your mistakes.``;
      - a name that is not one of ``tools``: no tool runs; the ``ToolMessage`` is
        ``INVALID_TOOL_NAME_ERROR_TEMPLATE.format(requested_tool=<the name>, available_tools=
        <the tools' names joined by ", ">)``, that is ``Error: multiply is not a valid tool,
        try one of [add, fail].``, with ``name=<the name>`` and ``status="error"``.
    * **The cap.** If the reply of the ``max_steps``-th call still asks for tools, no tool runs:
      it is replaced by ``AIMessage(id=<the reply's id>, content="Sorry, need more steps to
      process this request.")``, which ends the loop. An answer on that call is kept.

    The graders' tools take valid arguments (``ToolNode`` words an argument error its own way:
    the lesson, *Edge cases*).
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
    """
    # TODO(day03): replace the line below with `return {"one_call": "...", ...}`.
    raise NotStarted("day03")
