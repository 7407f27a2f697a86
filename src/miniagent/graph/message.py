"""The ``add_messages`` reducer: how a graph's ``messages`` channel grows.

Mirrors ``langgraph/graph/message.py`` (langgraph 1.2.24). A node returns new messages; the
graph merges them into the history with ``add_messages(history, new)``: append by default,
replace a message that has the same id, delete on ``RemoveMessage``.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from functools import partial
from typing import Annotated, Any, Literal, cast

from typing_extensions import TypedDict

from miniagent.messages import (
    REMOVE_ALL_MESSAGES,
    AnyMessage,
    BaseMessage,
    BaseMessageChunk,
    MessageLikeRepresentation,
    RemoveMessage,
    convert_to_messages,
    message_chunk_to_message,
)

__all__ = ["add_messages", "MessagesState", "REMOVE_ALL_MESSAGES"]

Messages = list[MessageLikeRepresentation] | MessageLikeRepresentation


def _add_messages_wrapper(func: Callable) -> Callable[[Messages, Messages], Messages]:
    """Allow ``add_messages(format=...)`` to return a reducer (langgraph/graph/message.py:45)."""

    def _add_messages(
        left: Messages | None = None, right: Messages | None = None, **kwargs: Any
    ) -> Messages | Callable[[Messages, Messages], Messages]:
        if left is not None and right is not None:
            return func(left, right, **kwargs)
        elif left is not None or right is not None:
            msg = (
                f"Must specify non-null arguments for both 'left' and 'right'. Only "
                f"received: '{'left' if left else 'right'}'."  # upstream tests truthiness
            )
            raise ValueError(msg)
        else:
            return partial(func, **kwargs)

    _add_messages.__doc__ = func.__doc__
    return cast(Callable[[Messages, Messages], Messages], _add_messages)


# --8<-- [start:add_messages]
@_add_messages_wrapper
def add_messages(
    left: Messages,
    right: Messages,
    *,
    format: Literal["langchain-openai"] | None = None,
) -> Messages:
    """Merge ``right`` into ``left`` by message id (langgraph/graph/message.py:65).

    New ids are appended; a known id replaces that message in place; ``RemoveMessage(id)``
    deletes it (after all other updates); ``RemoveMessage(REMOVE_ALL_MESSAGES)`` drops
    everything before it. Messages without an id get a uuid4 -- by mutation, so the caller's
    message objects see it too. ``left`` itself is never changed.
    """
    remove_all_idx = None
    # coerce to list
    if not isinstance(left, list):
        left = [left]
    if not isinstance(right, list):
        right = [right]
    # coerce to message
    left = _coerce_to_messages(left)
    right = _coerce_to_messages(right)
    # assign missing ids
    for m in left:
        if m.id is None:
            m.id = str(uuid.uuid4())
    for idx, m in enumerate(right):
        if m.id is None:
            m.id = str(uuid.uuid4())
        if isinstance(m, RemoveMessage) and m.id == REMOVE_ALL_MESSAGES:
            remove_all_idx = idx

    if remove_all_idx is not None:
        return right[remove_all_idx + 1 :]

    # merge
    merged = left.copy()
    merged_by_id = {m.id: i for i, m in enumerate(merged)}
    ids_to_remove = set()
    for m in right:
        if (existing_idx := merged_by_id.get(m.id)) is not None:
            if isinstance(m, RemoveMessage):
                ids_to_remove.add(m.id)
            else:
                ids_to_remove.discard(m.id)
                merged[existing_idx] = m
        else:
            if isinstance(m, RemoveMessage):
                raise ValueError(
                    f"Attempting to delete a message with an ID that doesn't exist ('{m.id}')"
                )

            merged_by_id[m.id] = len(merged)
            merged.append(m)
    if ids_to_remove:
        merged = [m for m in merged if m.id not in ids_to_remove]

    if format == "langchain-openai":
        merged = _format_messages(merged)
    elif cast(str | None, format):
        msg = f"Unrecognized {format=}. Expected one of 'langchain-openai', None."
        raise ValueError(msg)
    else:
        pass

    return merged


# --8<-- [end:add_messages]


def _coerce_to_messages(messages: list) -> list[Any]:
    """Message-likes -> messages, chunks -> whole messages (langgraph/graph/message.py:246)."""
    # Both conversions return a plain message unchanged, and a long history is
    # all plain messages, so check the few distinct types instead of each item.
    if all(
        issubclass(t, BaseMessage) and not issubclass(t, BaseMessageChunk)
        for t in set(map(type, messages))
    ):
        return messages
    return [
        message_chunk_to_message(cast(BaseMessageChunk, m)) for m in convert_to_messages(messages)
    ]


class MessagesState(TypedDict):
    """A state with one ``messages`` channel (langgraph/graph/message.py:320)."""

    messages: Annotated[list[AnyMessage], add_messages]


def _format_messages(messages: Sequence[BaseMessage]) -> list[BaseMessage]:
    """Not covered: upstream (langgraph/graph/message.py:324) re-formats content blocks."""
    raise NotImplementedError(
        "miniagent's add_messages does not implement format='langchain-openai' "
        "(upstream re-formats content blocks with convert_to_openai_messages)."
    )
