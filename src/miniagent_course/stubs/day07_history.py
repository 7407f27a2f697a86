"""Day 07: refuse a chat history in which a tool call has no answer, before the model sees it.

Lesson:    course/days/day07-history.md
Notebook:  notebooks/day07_history.ipynb
Check:     miniagent check day07        Stuck?  miniagent hint day07
"""

from __future__ import annotations

from collections.abc import Sequence

from miniagent.errors import ErrorCode, create_error_message
from miniagent.messages import AIMessage, BaseMessage, ToolMessage
from miniagent_course.todo import NotStarted


def _validate_chat_history(messages: Sequence[BaseMessage]) -> None:
    """Raise ``ValueError`` if a tool call in ``messages`` has no ``ToolMessage``; else return None.

    A tool call is the dict ``{"name", "args", "id", "type"}`` in an ``AIMessage``'s
    ``tool_calls``. It is *answered* when some ``ToolMessage`` in ``messages`` has
    ``tool_call_id`` equal to the call's ``"id"``.

    * Look at the tool calls of **every** ``AIMessage`` in the list, not only the last one.
    * A ``ToolMessage`` **anywhere** in the list answers a call: before it, after it, far away.
      Do not check the order.
    * ``invalid_tool_calls`` (calls whose arguments could not be parsed) are not checked.
    * A ``ToolMessage`` that answers no call is not an error.

    When calls are unanswered, raise ``ValueError`` with exactly this text, where ``<calls>`` is
    the list of the **first three** unanswered tool-call dicts, in history order, as Python
    prints a list (``f"{calls}"``):

        Found AIMessages with tool_calls that do not have a corresponding ToolMessage. Here are the first few of those tool calls: <calls>.

        Every tool call (LLM requesting to call a tool) in the message history MUST have a corresponding ToolMessage (result of a tool invocation to return to the LLM) - this is required by most LLM providers.
        For troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CHAT_HISTORY

    (The first line ends with ``.``, then one empty line. ``create_error_message(message=...,
    error_code=ErrorCode.INVALID_CHAT_HISTORY)`` appends the last line for you.)

    >>> call = {"name": "add", "args": {"a": 1}, "id": "call_1"}
    >>> _validate_chat_history([AIMessage("", tool_calls=[call]), ToolMessage("2", tool_call_id="call_1")])
    >>> _validate_chat_history([AIMessage("", tool_calls=[call])])
    Traceback (most recent call last):
    ValueError: Found AIMessages with tool_calls that do not have a corresponding ToolMessage. ...

    Upstream: ``langgraph/prebuilt/chat_agent_executor.py:243`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day07): replace the line below with your code (about fifteen lines).
    raise NotStarted("day07")
