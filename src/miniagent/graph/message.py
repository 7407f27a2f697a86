"""The ``add_messages`` reducer: how a graph's ``messages`` channel grows.

Mirrors ``langgraph/graph/message.py`` (langgraph 1.2.24). A node returns new messages; the
graph merges them into the history with ``add_messages(history, new)``: append by default,
replace a message that has the same id, delete on ``RemoveMessage``.
"""

from functools import partial
from random import getrandbits
from typing import Annotated, Any, Callable, Literal, Optional, Union

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

Messages = Union[list[MessageLikeRepresentation], MessageLikeRepresentation]


class _MessageList(list):
    """A history returned by ``add_messages`` that remembers ``{id: position}``.

    Not in upstream. The graph calls ``add_messages`` once per update with the whole history
    as ``left``; upstream rescans it in Python and rebuilds the id map every time, so each
    step gets slower as the conversation grows. This list carries the map to the next call
    instead; what is left per step is one C-level list copy. The map is only trusted while
    the list is untouched: every mutating ``list`` method drops it, and a merge takes it away
    from ``left`` (so an old history, reused, is simply rescanned). Not detected: changing
    the ``id`` of a message that is already in the history.
    """

    _index: Optional[dict[str, int]] = None

    def append(self, item: Any) -> None:  # spelled out: add_messages calls it every step (speed)
        self._index = None
        list.append(self, item)


def _forgets_index(name: str) -> Callable[..., Any]:
    list_method = getattr(list, name)

    def method(self: _MessageList, *args: Any, **kwargs: Any) -> Any:
        self._index = None
        return list_method(self, *args, **kwargs)

    method.__name__ = name
    return method


for _name in (
    "__setitem__", "__delitem__", "__iadd__", "__imul__", "extend",
    "insert", "pop", "remove", "clear", "sort", "reverse",
):  # fmt: skip
    setattr(_MessageList, _name, _forgets_index(_name))


def _add_messages_wrapper(func: Callable) -> Callable[..., Any]:
    """Allow ``add_messages(format=...)`` to return a reducer (langgraph/graph/message.py:45)."""

    def _add_messages(
        left: Optional[Messages] = None, right: Optional[Messages] = None, **kwargs: Any
    ) -> Any:
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
    return _add_messages


# --8<-- [start:add_messages]
@_add_messages_wrapper
def add_messages(
    left: Messages,
    right: Messages,
    *,
    format: Optional[Literal["langchain-openai"]] = None,
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
    # A history returned by an earlier call is already coerced, has ids, and knows its ids.
    merged_by_id = None
    if type(left) is _MessageList:
        merged_by_id, left._index = left._index, None  # taken: a reused history is rescanned
    # coerce to message
    if merged_by_id is None:
        left = _coerce_to_messages(left)
    right = _coerce_to_messages(right)
    # assign missing ids
    if merged_by_id is None:
        for m in left:
            if m.id is None:
                m.id = _new_message_id()
    for idx, m in enumerate(right):
        if m.id is None:
            m.id = _new_message_id()
        if m.id == REMOVE_ALL_MESSAGES and isinstance(m, RemoveMessage):  # the cheap test first
            remove_all_idx = idx

    if remove_all_idx is not None:
        return _MessageList(right[remove_all_idx + 1 :])

    # merge
    merged = _MessageList(left)  # a copy
    if merged_by_id is None:
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
            list.append(merged, m)  # not merged.append, which would drop the index (speed)
    if ids_to_remove:
        merged = _MessageList([m for m in merged if m.id not in ids_to_remove])
    else:
        merged._index = merged_by_id  # set last: the appends above cleared it

    if format == "langchain-openai":
        raise NotImplementedError(
            "miniagent's add_messages does not implement format='langchain-openai' "
            "(upstream re-formats content blocks with convert_to_openai_messages)."
        )
    elif format:
        raise ValueError(f"Unrecognized {format=}. Expected one of 'langchain-openai', None.")
    return merged


# --8<-- [end:add_messages]


def _new_message_id() -> str:
    """A random version-4 uuid string: upstream writes ``str(uuid.uuid4())``.

    Not in upstream: the 128 bits come from ``random.getrandbits`` instead of ``os.urandom``
    (speed: the system call and the ``UUID`` class cost about 3 us, for every tool result).
    The ids look the same and are as unique; they are not meant to be unguessable.
    """
    bits = getrandbits(128) & ~(0xF000 << 64 | 0xC000 << 48) | (0x4000 << 64 | 0x8000 << 48)
    h = f"{bits:032x}"
    return f"{h[:8]}-{h[8:12]}-{h[12:16]}-{h[16:20]}-{h[20:]}"


def _coerce_to_messages(messages: list) -> list[Any]:
    """Message-likes -> messages, chunks -> whole messages (langgraph/graph/message.py:246)."""
    # A list of plain messages comes back unchanged; checking the distinct types is enough.
    if len(messages) == 1 and type(messages[0]) in _PLAIN_MESSAGE_TYPES:  # the usual update
        return messages
    types = set(map(type, messages))
    if types <= _PLAIN_MESSAGE_TYPES:  # not upstream: each class is checked once (speed)
        return messages
    if all(issubclass(t, BaseMessage) and not issubclass(t, BaseMessageChunk) for t in types):
        _PLAIN_MESSAGE_TYPES.update(types)
        return messages
    return [message_chunk_to_message(m) for m in convert_to_messages(messages)]


_PLAIN_MESSAGE_TYPES: set[type] = set()  # classes known to be messages but not chunks


class MessagesState(TypedDict):
    """A state with one ``messages`` channel (langgraph/graph/message.py:320)."""

    messages: Annotated[list[AnyMessage], add_messages]
