"""Day 07: refuse a chat history in which a tool call has no answer, before the model sees it.

Lesson:    course/days/day07-history.md
Notebook:  notebooks/day07_history.ipynb
Check:     miniagent check day07        Stuck?  miniagent hint day07

Two parts, graded separately:

(1) ``_validate_chat_history``: write the function.
(2) Be the grader: write tests that tell a correct ``_validate_chat_history`` from wrong ones.
"""

from __future__ import annotations

from collections.abc import Sequence

from miniagent.errors import ErrorCode, create_error_message
from miniagent.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from miniagent_course.todo import NotStarted


def _validate_chat_history(messages: Sequence[BaseMessage]) -> None:
    """Raise ``ValueError`` if some tool call in ``messages`` has no ``ToolMessage``; else return None.

    Input: ``messages``, any sequence of messages (a list, a tuple); it is left unchanged.

    Output: ``None`` when every tool call is answered. A tool call is a dict
    ``{"name", "args", "id", "type"}`` in the ``tool_calls`` of any ``AIMessage`` of the sequence
    (a subclass of ``AIMessage`` is one too); it is *answered* when a ``ToolMessage`` anywhere in
    ``messages`` has that ``"id"`` as its ``tool_call_id``. Where the answer stands,
    ``invalid_tool_calls``, and ``ToolMessage``s that answer no call are not checked (the lesson,
    "Edge cases and surprises").

    Error: when some calls are unanswered, ``ValueError`` with exactly this text, where
    ``<calls>`` is the list of the first three unanswered call dicts, in history order, as Python
    prints a list::

        Found AIMessages with tool_calls that do not have a corresponding ToolMessage. Here are the first few of those tool calls: <calls>.

        Every tool call (LLM requesting to call a tool) in the message history MUST have a corresponding ToolMessage (result of a tool invocation to return to the LLM) - this is required by most LLM providers.
        For troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CHAT_HISTORY

    (The first line ends with ``.``, then one empty line; the last line is the one
    ``create_error_message`` adds for ``ErrorCode.INVALID_CHAT_HISTORY``.)

    >>> call = {"name": "add", "args": {"a": 1}, "id": "call_1"}
    >>> _validate_chat_history([AIMessage("", tool_calls=[call])])
    Traceback (most recent call last):
    ValueError: Found AIMessages with tool_calls that do not have a corresponding ToolMessage. ...

    Upstream: ``langgraph/prebuilt/chat_agent_executor.py:243`` (langgraph-prebuilt 1.1.3).
    """
    # TODO(day07): replace the line below with your code.
    raise NotStarted("day07")


# --- part 2: be the grader ------------------------------------------------------------------
#
# Write test functions, as many as you like, each named test_<what it checks> and taking one
# argument: the function under test (call it `validate`). A test calls `validate(...)` with a
# history and asserts what a correct _validate_chat_history does: return None, or raise the
# ValueError (`with pytest.raises(ValueError) as caught:` after `import pytest`; the text is
# `str(caught.value)`). The graders run your tests against a correct function (all must pass) and
# against several plausible wrong ones (together, your tests must catch at least six). Which
# wrong versions? That is the exercise: think about what someone could get wrong.
#
#     def test_an_answered_call_passes(validate):
#         call = {"name": "add", "args": {"a": 1}, "id": "call_1"}
#         history = [AIMessage("", tool_calls=[call]), ToolMessage("2", tool_call_id="call_1")]
#         assert validate(history) is None


def test_my_first_check(validate):
    """Your first test: replace the line below with a check (and add more test_ functions)."""
    # TODO(day07): part 2, your tests.
    raise NotStarted("day07")
