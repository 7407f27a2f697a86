"""Day 01, solved without an index: each update searches the ids of the history so far (from the
end, so the last duplicate is the one replaced), and the REMOVE_ALL marker is found walking back.
The predictions are built from the shared history, each message a ``[type, content]`` list."""

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
    sides = []
    for side in (left, right):
        items = side if isinstance(side, list) else [side]
        messages = []
        for item in convert_to_messages(items):
            message = message_chunk_to_message(item)
            if message.id is None:
                message.id = str(uuid.uuid4())
            messages.append(message)
        sides.append(messages)
    history, update = sides

    for i in range(len(update) - 1, -1, -1):
        m = update[i]
        if isinstance(m, RemoveMessage) and m.id == REMOVE_ALL_MESSAGES:
            return update[i + 1 :]

    merged = history[:]
    removals = []
    for m in update:
        ids = [x.id for x in merged]
        if m.id not in ids:
            if m.type == "remove":
                raise ValueError(
                    f"Attempting to delete a message with an ID that doesn't exist ('{m.id}')"
                )
            merged.append(m)
            continue
        last = len(ids) - 1 - ids[::-1].index(m.id)
        if m.type == "remove":
            removals.append(m.id)
        else:
            removals = [r for r in removals if r != m.id]
            merged[last] = m
    merged = [x for x in merged if x.id not in set(removals)]

    if format is None:
        return merged
    if format == "langchain-openai":
        return _format_messages(merged)
    raise ValueError(f"Unrecognized {format=}. Expected one of 'langchain-openai', None.")


def predictions() -> dict[str, list[tuple[str, str]] | str]:
    # Messages written as [type, content] lists: the graders compare them as tuples.
    chat = [["human", "2 + 3?"], ["ai", "let me add"]]
    after_chat = {  # what follows the kept history, case by case
        "append_one": [["tool", "5"]],
        "no_id_appends": [["ai", "let me add"]],
        "add_then_remove": [],
        "chunk": [["ai", "2 + 3"]],
    }
    table: dict[str, list | str] = {case: chat + tail for case, tail in after_chat.items()}
    kept_question = {  # the AI message with id "2" replaced (or removed)
        "same_id_replaces": [["ai", "2 + 3 = 5"]],
        "same_id_other_type": [["tool", "5"]],
        "remove_one": [],
        "remove_then_add": [["ai", "again"]],
    }
    table.update({case: chat[:1] + tail for case, tail in kept_question.items()})
    table.update(
        remove_all=[["human", "fresh"]],
        remove_all_tail=[["human", "a"], ["remove", ""]],
        dicts_tuples_strs=[["human", "hi"], ["ai", "hello"], ["human", "bye"]],
        one_tuple=[["human", "hi"]],
        unanswered_call_is_fine=[["ai", ""], ["human", "hello?"]],
    )
    raised = {
        "remove_unknown": ValueError,
        "tuple_of_messages": NotImplementedError,
        "tool_dict_without_call_id": KeyError,
    }
    table.update({case: error.__name__ for case, error in raised.items()})
    return table
