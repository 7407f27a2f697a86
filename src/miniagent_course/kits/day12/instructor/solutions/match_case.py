"""Day 12, solved with match statements (a correct solution unlike the reference).

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

import re
from collections.abc import Sequence
from typing import Any
from uuid import uuid4

from miniagent.graph.pregel import PregelExecutableTask, StreamMessagesHandler, _state_values
from miniagent.messages import BaseMessage
from miniagent.types import Command


def _emit(
    self: StreamMessagesHandler, meta: dict[str, Any], message: BaseMessage, *, dedupe: bool = False
) -> None:
    """Skip a seen id under dedupe; name a nameless message; remember and send."""
    match dedupe, message.id:
        case True, seen_id if seen_id in self.seen:
            return
        case _, None:
            message.id = str(uuid4())
    self.seen.add(message.id)
    self.emit(("messages", (message, meta)))


def _find_and_emit_messages(
    self: StreamMessagesHandler, meta: dict[str, Any], response: Any
) -> None:
    """Collect the candidates by the response's shape, then send the messages among them."""
    match response:
        case BaseMessage():
            candidates = [response]
        case str():
            candidates = []
        case Sequence():
            candidates = list(response)
        case _:
            candidates = []
            for value in _state_values(response):
                match value:
                    case BaseMessage():
                        candidates.append(value)
                    case str():
                        pass
                    case Sequence():
                        candidates.extend(value)
    for candidate in candidates:
        if isinstance(candidate, BaseMessage):
            self._emit(meta, candidate, dedupe=True)


def on_node_start(self: StreamMessagesHandler, task: PregelExecutableTask) -> None:
    """Mark the ids already in the node's input."""
    for value in _state_values(task.input):
        match value:
            case BaseMessage() if value.id is not None:
                self.seen.add(value.id)
            case str():
                pass
            case Sequence():
                for item in value:
                    if isinstance(item, BaseMessage) and item.id is not None:
                        self.seen.add(item.id)


def on_node_end(self: StreamMessagesHandler, task: PregelExecutableTask, response: Any) -> None:
    """Look in a Command's update, in each item of a list holding Commands, or in the response."""
    meta = task.config["metadata"]
    match response:
        case Command(update=update):
            self._find_and_emit_messages(meta, update)
        case Sequence() if any(isinstance(value, Command) for value in response):
            for value in response:
                self._find_and_emit_messages(
                    meta, value.update if isinstance(value, Command) else value
                )
        case _:
            self._find_and_emit_messages(meta, response)


# --- part 2 ----------------------------------------------------------------------------------


def _tokens(node: str, message_id: str, text: str) -> list[tuple[str, str, str, str]]:
    """A streamed reply: one chunk per whitespace-separated piece, spaces included; a reply
    without text (a tool call) is one chunk ``""``."""
    pieces = [t for t in re.split(r"(\s)", text) if t] or [""]
    return [(node, "AIMessageChunk", message_id, t) for t in pieces]


def _whole(node: str, kind: str, message_id: str, text: str) -> list[tuple[str, str, str, str]]:
    return [(node, kind, message_id, text)]


SORRY = "Sorry, need more steps to process this request."


def predictions() -> dict[str, list[tuple[str, str, str | None, str]]]:
    """Built from what each model streams and what each node returns."""
    call_chunk = _tokens("agent", "r1", "")
    five = _tokens("agent", "r2", "Five.")
    tool = _whole("tools", "ToolMessage", "uuid", "5")
    removed = _whole("pre_model_hook", "RemoveMessage", "__remove_all__", "")
    summary = _whole("pre_model_hook", "HumanMessage", "s1", "(summary)")
    return {
        "answer": _tokens("agent", "r1", "It is 5"),
        "tool_round": call_chunk + tool + five,
        "whole_reply": _whole("agent", "AIMessage", "0", "2 + 3?"),
        "nostream_no_tools": _whole("agent", "AIMessage", "r1", "It is 5"),
        "nostream_with_tools": _tokens("agent", "r1", "It is 5"),
        "sorry": call_chunk,
        "reused_id_streamed": _tokens("agent", "a0", "Five."),
        "reused_id_whole": [],
        "reused_id_whole_pydantic": [],
        "command_tool": call_chunk + _whole("tools", "ToolMessage", "t1", "noted") + five,
        "hook_rewrites": removed + summary + _tokens("agent", "r1", "Five."),
        "tool_round_updates": _whole("agent", "AIMessage", "r1", "")
        + tool
        + _whole("agent", "AIMessage", "r2", "Five."),
        "sorry_updates": _whole("agent", "AIMessage", "r1", SORRY),
        "hook_rewrites_updates": removed
        + summary
        + _whole("pre_model_hook", "HumanMessage", "h1", "2 + 3?")
        + _whole("agent", "AIMessage", "r1", "Five."),
    }
