"""Day 01: merge a node's new messages into the conversation, the way the agent's state does.

Lesson:    course/days/day01-messages.md
Notebook:  notebooks/day01_messages.ipynb
Check:     miniagent check day01        Stuck?  miniagent hint day01

Two parts, graded separately:

(1) ``add_messages``: write the reducer of the ``messages`` key. The graders compare it with
    miniagent's on hundreds of generated histories, then make it the reducer of a real agent.
(2) ``predictions``: before you run the notebook's table, predict what ``add_messages`` returns
    for sixteen (left, right) pairs, or which error it raises. The graders run the real one.
"""

from __future__ import annotations

import uuid  # noqa: F401  (you will need it)
from typing import Literal

from miniagent.graph.message import (  # noqa: F401
    Messages,
    _add_messages_wrapper,
    _format_messages,
)
from miniagent.messages import (  # noqa: F401
    REMOVE_ALL_MESSAGES,
    AIMessage,
    AIMessageChunk,
    BaseMessage,
    HumanMessage,
    RemoveMessage,
    ToolMessage,
    convert_to_messages,
    message_chunk_to_message,
)
from miniagent_course.todo import NotStarted


@_add_messages_wrapper  # given: add_messages(format=...) and the error for a missing side
def add_messages(
    left: Messages,
    right: Messages,
    *,
    format: Literal["langchain-openai"] | None = None,
) -> Messages:
    """Merge ``right`` (a node's update) into ``left`` (the history) and return the new history.

    Input:

    * ``left``, ``right`` -- each one message-like value or a ``list`` of them. Only a ``list`` is
      a list: a tuple is *one* message-like value (``("user", "hi")`` is one message). A
      message-like value is a message, a ``str``, a ``(role, content)`` pair or a
      ``{"role": ..., "content": ...}`` dict.
    * ``format`` -- ``None`` or ``"langchain-openai"``.

    Output: a new list of messages; the ``left`` list itself is never changed.

    * Each message-like value is a message in the result: a message is the very same object, a
      chunk (``AIMessageChunk``) is a whole ``AIMessage``, anything else is converted.
    * Every message of either side whose ``id`` was ``None`` has a fresh uuid4 string as its id,
      set on the caller's message object itself.
    * A message whose id is not in the history yet is appended. One whose id is there replaces
      that message, at its position: only the id counts, not the type or the content. (If a
      hand-made ``left`` holds an id twice, the last of them is replaced.)
    * ``RemoveMessage(id=...)`` deletes the message with that id, once the whole update is merged:
      a message added and removed in the same update is gone; one removed and then sent again is
      kept, the later one, at the old position.
    * After a ``RemoveMessage(id=REMOVE_ALL_MESSAGES)`` in ``right``, the result is everything in
      ``right`` after the *last* such marker, as it stands there; the history is dropped.
    * ``format="langchain-openai"``: the merged messages passed through ``_format_messages``
      (given; miniagent does not implement it, so it raises).

    Errors, with exactly these texts:

    * a ``RemoveMessage`` whose id is neither in the history nor earlier in the update:
      ``ValueError(f"Attempting to delete a message with an ID that doesn't exist ('{id}')")``;
    * any other ``format``, once the merge is done:
      ``ValueError(f"Unrecognized {format=}. Expected one of 'langchain-openai', None.")``;
    * a value that is not message-like: the error ``convert_to_messages`` raises for it,
      unchanged.

    >>> update = [("ai", "hello"), HumanMessage("hey", id="1")]
    >>> [(m.type, m.content) for m in add_messages([HumanMessage("hi", id="1")], update)]
    [('human', 'hey'), ('ai', 'hello')]

    Upstream: ``langgraph/graph/message.py:65`` (langgraph 1.2.24).
    """
    # TODO(day01): replace the line below with your code.
    raise NotStarted("day01")


def predictions() -> dict[str, list[tuple[str, str]] | str]:
    """Your prediction, for each (left, right) pair below, of what ``add_messages(left, right)``
    returns: the messages as ``(type, content)`` pairs, such as ``[("human", "2 + 3?")]``, or,
    if it raises, the name of the exception's class, such as ``"ValueError"``.

    ``chat`` is the history most cases start from (``[]`` is an empty one)::

        call = {"name": "add", "args": {"a": 2, "b": 3}, "id": "call_1"}
        chat = [HumanMessage("2 + 3?", id="1"), AIMessage("let me add", id="2", tool_calls=[call])]

    The pairs, by case name, as ``left`` ⟵ ``right``::

        "append_one":                chat ⟵ ToolMessage("5", id="3", tool_call_id="call_1")
        "same_id_replaces":          chat ⟵ [AIMessage("2 + 3 = 5", id="2")]
        "no_id_appends":             chat ⟵ [AIMessage("let me add", tool_calls=[call])]
        "same_id_other_type":        chat ⟵ [ToolMessage("5", id="2", tool_call_id="call_1")]
        "remove_one":                chat ⟵ [RemoveMessage(id="2")]
        "remove_unknown":            chat ⟵ [RemoveMessage(id="9")]
        "add_then_remove":           chat ⟵ [AIMessage("draft", id="7"), RemoveMessage(id="7")]
        "remove_then_add":           chat ⟵ [RemoveMessage(id="2"), AIMessage("again", id="2")]
        "remove_all":                chat ⟵ [RemoveMessage(id=REMOVE_ALL_MESSAGES),
                                             HumanMessage("fresh")]
        "remove_all_tail":           chat ⟵ [RemoveMessage(id=REMOVE_ALL_MESSAGES),
                                             HumanMessage("a", id="x"), RemoveMessage(id="x")]
        "dicts_tuples_strs":         [] ⟵ [{"role": "user", "content": "hi"},
                                           ("assistant", "hello"), "bye"]
        "one_tuple":                 [] ⟵ ("user", "hi")
        "tuple_of_messages":         [] ⟵ (HumanMessage("a"), HumanMessage("b"), HumanMessage("c"))
        "tool_dict_without_call_id": [] ⟵ [{"role": "tool", "content": "5"}]
        "unanswered_call_is_fine":   [] ⟵ [AIMessage("", tool_calls=[call]), HumanMessage("hello?")]
        "chunk":                     chat ⟵ AIMessageChunk("2 + 3", id="4")

    Return a literal table with one entry per case. Its shape (the values are placeholders, not
    answers): ``{"append_one": [("human", "?")], "same_id_replaces": "KeyError", ...}``.
    Work it out from the lesson: the graders run the real ``add_messages`` on every pair.

    Sealed: a table with an entry missing (or not of this form) is not graded; it says only how
    many entries are filled. Your first complete table is recorded as your first try before any
    real outcome is shown: that run (``pytest``, ``miniagent check`` or the notebook's table
    cell) says only which rows are wrong, and later runs show what the real run gives.
    """
    # TODO(day01): replace the line below with `return {"append_one": [...], ..., "chunk": ...}`.
    raise NotStarted("day01")
