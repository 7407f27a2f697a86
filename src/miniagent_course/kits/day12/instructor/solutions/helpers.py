"""Day 12, solved with small helpers (a correct solution unlike the reference).

Day 12: write the handler behind ``stream_mode="messages"``: what a client is sent, and what not.

Lesson:    course/days/day12-streaming.md
Notebook:  notebooks/day12_streaming.ipynb
Check:     miniagent check day12        Stuck?  miniagent hint day12

Two parts, graded separately:

(1) Four methods of ``StreamMessagesHandler`` (``miniagent/graph/pregel.py``; upstream
    ``langgraph/pregel/_messages.py:75``), written here as functions whose first parameter is
    the handler, ``self``. The graders put them into the class, so every graph that streams
    ``"messages"`` uses yours, and compare what a client receives with upstream's stream,
    recorded for scripted runs.
(2) ``predictions``: for fourteen short runs, predict what a client of the stream sees.

What ``self`` (a ``StreamMessagesHandler``) gives you, ready-made:

* ``self.emit(chunk)`` hands one chunk to the client; a ``messages`` chunk is
  ``("messages", (message, metadata))``;
* ``self.seen``, a ``set`` of the message ids that count as already sent;
* ``self._is_message(value)``, ``isinstance(value, BaseMessage)``;
* the methods below, as you write them (``self._emit(...)`` calls yours).

The graph calls the model hooks (``on_chat_model_stream`` for every token chunk, without
dedupe; ``on_chat_model_end`` for the final reply, with dedupe) and, for every node it runs,
``on_node_start(task)`` before the node and ``on_node_end(task, response)`` after it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any
from uuid import uuid4

from miniagent.graph.pregel import PregelExecutableTask, StreamMessagesHandler, _state_values
from miniagent.messages import BaseMessage
from miniagent.types import Command


def _emit(
    self: StreamMessagesHandler, meta: dict[str, Any], message: BaseMessage, *, dedupe: bool = False
) -> None:
    """Send ``message`` unless dedupe asks to skip an id already seen."""
    if not (dedupe and message.id in self.seen):
        if message.id is None:
            message.id = str(uuid4())
        self.seen.add(message.id)
        self.emit(("messages", (message, meta)))


def _messages_of(value: Any) -> list[BaseMessage]:
    """``value`` if it is a message, else the messages right inside a sequence (not a str)."""
    if isinstance(value, BaseMessage):
        return [value]
    if isinstance(value, Sequence) and not isinstance(value, str):
        return [item for item in value if isinstance(item, BaseMessage)]
    return []


def _is_sequence(value: Any) -> bool:
    return isinstance(value, Sequence) and not isinstance(value, str)


def _find_and_emit_messages(
    self: StreamMessagesHandler, meta: dict[str, Any], response: Any
) -> None:
    """Every message in the response, or in its state values, with dedupe."""
    if isinstance(response, BaseMessage) or _is_sequence(response):
        found = _messages_of(response)
    else:
        found = [m for value in _state_values(response) for m in _messages_of(value)]
    for message in found:
        self._emit(meta, message, dedupe=True)


def on_node_start(self: StreamMessagesHandler, task: PregelExecutableTask) -> None:
    """The ids of the input's messages count as sent."""
    found = (m for value in _state_values(task.input) for m in _messages_of(value))
    self.seen.update(m.id for m in found if m.id is not None)


def on_node_end(self: StreamMessagesHandler, task: PregelExecutableTask, response: Any) -> None:
    """The node's new messages, looking inside Commands."""
    items = [response] if isinstance(response, Command) else response
    if _is_sequence(items) and any(isinstance(item, Command) for item in items):
        parts = [item.update if isinstance(item, Command) else item for item in items]
    else:
        parts = [response]
    for part in parts:
        self._find_and_emit_messages(task.config["metadata"], part)


# --- part 2 ----------------------------------------------------------------------------------


def predictions() -> dict[str, list[tuple[str, str, str | None, str]]]:
    """What a client sees in each run."""
    return {
        "answer": [
            ("agent", "AIMessageChunk", "r1", "It"),
            ("agent", "AIMessageChunk", "r1", " "),
            ("agent", "AIMessageChunk", "r1", "is"),
            ("agent", "AIMessageChunk", "r1", " "),
            ("agent", "AIMessageChunk", "r1", "5"),
        ],
        "tool_round": [
            ("agent", "AIMessageChunk", "r1", ""),
            ("tools", "ToolMessage", "uuid", "5"),
            ("agent", "AIMessageChunk", "r2", "Five."),
        ],
        "whole_reply": [
            ("agent", "AIMessage", "0", "2 + 3?"),
        ],
        "nostream_no_tools": [
            ("agent", "AIMessage", "r1", "It is 5"),
        ],
        "nostream_with_tools": [
            ("agent", "AIMessageChunk", "r1", "It"),
            ("agent", "AIMessageChunk", "r1", " "),
            ("agent", "AIMessageChunk", "r1", "is"),
            ("agent", "AIMessageChunk", "r1", " "),
            ("agent", "AIMessageChunk", "r1", "5"),
        ],
        "sorry": [
            ("agent", "AIMessageChunk", "r1", ""),
        ],
        "reused_id_streamed": [
            ("agent", "AIMessageChunk", "a0", "Five."),
        ],
        "reused_id_whole": [],
        "reused_id_whole_pydantic": [],
        "command_tool": [
            ("agent", "AIMessageChunk", "r1", ""),
            ("tools", "ToolMessage", "t1", "noted"),
            ("agent", "AIMessageChunk", "r2", "Five."),
        ],
        "hook_rewrites": [
            ("pre_model_hook", "RemoveMessage", "__remove_all__", ""),
            ("pre_model_hook", "HumanMessage", "s1", "(summary)"),
            ("agent", "AIMessageChunk", "r1", "Five."),
        ],
        "tool_round_updates": [
            ("agent", "AIMessage", "r1", ""),
            ("tools", "ToolMessage", "uuid", "5"),
            ("agent", "AIMessage", "r2", "Five."),
        ],
        "sorry_updates": [
            ("agent", "AIMessage", "r1", "Sorry, need more steps to process this request."),
        ],
        "hook_rewrites_updates": [
            ("pre_model_hook", "RemoveMessage", "__remove_all__", ""),
            ("pre_model_hook", "HumanMessage", "s1", "(summary)"),
            ("pre_model_hook", "HumanMessage", "h1", "2 + 3?"),
            ("agent", "AIMessage", "r1", "Five."),
        ],
    }
