"""Day 01, solved with a position map built in a loop, both sides coerced by one helper, and the
REMOVE_ALL markers collected in a comprehension (the last one wins). The predictions are a
literal table of ``(type, content)`` tuples."""

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


@_add_messages_wrapper  # given: add_messages(format=...) and the error for a missing side
def add_messages(
    left: Messages,
    right: Messages,
    *,
    format: Literal["langchain-openai"] | None = None,
) -> Messages:
    """The contract is the stub's docstring (exercises/day01_messages.py)."""
    if not isinstance(left, list):
        left = [left]
    if not isinstance(right, list):
        right = [right]
    left, right = _as_messages(left), _as_messages(right)
    for message in (*left, *right):
        if message.id is None:
            message.id = str(uuid.uuid4())

    markers = [
        i
        for i, m in enumerate(right)
        if isinstance(m, RemoveMessage) and m.id == REMOVE_ALL_MESSAGES
    ]
    if markers:
        return right[markers[-1] + 1 :]

    history = list(left)
    where = {}
    for position, message in enumerate(history):
        where[message.id] = position  # the last one wins
    doomed = set()
    for message in right:
        position = where.get(message.id)
        if position is None:
            if isinstance(message, RemoveMessage):
                raise ValueError(
                    f"Attempting to delete a message with an ID that doesn't exist ('{message.id}')"
                )
            where[message.id] = len(history)
            history.append(message)
        elif isinstance(message, RemoveMessage):
            doomed.add(message.id)
        else:
            doomed.discard(message.id)
            history[position] = message
    history = [m for m in history if m.id not in doomed]

    if format == "langchain-openai":
        return _format_messages(history)
    if format:
        raise ValueError(f"Unrecognized {format=}. Expected one of 'langchain-openai', None.")
    return history


def _as_messages(values: list) -> list[BaseMessage]:
    """Message-likes -> messages; a chunk -> the whole message it belongs to."""
    return [message_chunk_to_message(m) for m in convert_to_messages(values)]


def predictions() -> dict[str, list[tuple[str, str]] | str]:
    question, draft = ("human", "2 + 3?"), ("ai", "let me add")
    return {
        "append_one": [question, draft, ("tool", "5")],
        "same_id_replaces": [question, ("ai", "2 + 3 = 5")],
        "no_id_appends": [question, draft, draft],
        "same_id_other_type": [question, ("tool", "5")],
        "remove_one": [question],
        "remove_unknown": "ValueError",
        "add_then_remove": [question, draft],
        "remove_then_add": [question, ("ai", "again")],
        "remove_all": [("human", "fresh")],
        "remove_all_tail": [("human", "a"), ("remove", "")],
        "dicts_tuples_strs": [("human", "hi"), ("ai", "hello"), ("human", "bye")],
        "one_tuple": [("human", "hi")],
        "tuple_of_messages": "NotImplementedError",
        "tool_dict_without_call_id": "KeyError",
        "unanswered_call_is_fine": [("ai", ""), ("human", "hello?")],
        "chunk": [question, draft, ("ai", "2 + 3")],
    }
