"""Day 12: write the handler behind ``stream_mode="messages"``: what a client is sent, and what not.

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
from miniagent_course.todo import NotStarted


def _emit(
    self: StreamMessagesHandler, meta: dict[str, Any], message: BaseMessage, *, dedupe: bool = False
) -> None:
    """Send ``message`` to the client with ``meta``, unless it must be skipped.

    Input: ``self``, the handler (``self.emit`` sends to the client; ``self.seen`` holds the ids
    already sent); ``meta``, the metadata to send with the message; ``message``; ``dedupe``,
    whether a message already sent must be skipped (token chunks are sent with ``False``).

    Output: ``None``. With ``dedupe=True`` and the message's id in ``self.seen``, nothing happens.
    Otherwise ``self.emit`` receives ``("messages", (message, meta))``, the message itself and not
    a copy, and the message's id is in ``self.seen``; a message whose id was ``None`` now has a
    fresh uuid4 string as its id, set on that very object (the state holds the same object, so the
    client and the state agree).

    Errors: none of its own.

    >>> from miniagent.messages import AIMessage
    >>> sent = []
    >>> handler = StreamMessagesHandler(sent.append)
    >>> _emit(handler, {"node": "agent"}, AIMessage("hi", id="a1"), dedupe=True)
    >>> _emit(handler, {"node": "agent"}, AIMessage("hi again", id="a1"), dedupe=True)
    >>> [(message.content, meta) for _, (message, meta) in sent]
    [('hi', {'node': 'agent'})]

    Upstream: ``StreamMessagesHandler._emit`` (langgraph/pregel/_messages.py:123).
    """
    # TODO(day12): replace the line below with your code.
    raise NotStarted("day12")


def _find_and_emit_messages(
    self: StreamMessagesHandler, meta: dict[str, Any], response: Any
) -> None:
    """Send every message found in a node's ``response``, skipping those already sent, in order.

    Input: ``self``, the handler; ``meta``, the node's metadata; ``response``, what the node
    returned.

    Output: ``None``. Each message found is sent as your ``_emit`` sends it with ``dedupe=True``.
    Messages are found, and nowhere deeper:

    * in ``response`` itself, when it is a message;
    * in a sequence (a list, a tuple): each item that is a message;
    * in a state-like ``response`` (a dict or a pydantic model; ``_state_values`` gives its
      top-level values): each value that is a message, and each message inside a value that is
      a sequence (``{"messages": [...]}``).

    Anything else (a string, a number, a dict inside a list, ``None``) sends nothing.

    Errors: none of its own.

    >>> from miniagent.messages import AIMessage
    >>> sent = []
    >>> handler = StreamMessagesHandler(sent.append)
    >>> _find_and_emit_messages(handler, {}, {"messages": [AIMessage("a", id="1")], "n": 3})
    >>> [message.content for _, (message, meta) in sent]
    ['a']

    Upstream: ``StreamMessagesHandler._find_and_emit_messages`` (_messages.py:132).
    """
    # TODO(day12): replace the line below with your code.
    raise NotStarted("day12")


def on_node_start(self: StreamMessagesHandler, task: PregelExecutableTask) -> None:
    """Before a node runs: the messages already in its input are not news.

    Input: ``self``, the handler; ``task``, the node's run (``task.input`` is its input).

    Output: ``None``; nothing is sent. Afterwards ``self.seen`` also holds the id of every message
    among ``task.input``'s top-level values (``_state_values``): a value that is a message, and
    each message inside a value that is a sequence (not a string). A message whose id is ``None``
    adds nothing.

    Errors: none of its own.

    >>> from miniagent.messages import HumanMessage
    >>> handler = StreamMessagesHandler(print)
    >>> task = PregelExecutableTask("agent", {"messages": [HumanMessage("hi", id="h1")]}, None, {}, (), ())
    >>> on_node_start(handler, task)
    >>> handler.seen
    {'h1'}

    Upstream: ``StreamMessagesHandler.on_chain_start`` (_messages.py:215).
    """
    # TODO(day12): replace the line below with your code.
    raise NotStarted("day12")


def on_node_end(self: StreamMessagesHandler, task: PregelExecutableTask, response: Any) -> None:
    """After a node ran: send the messages it returned that were not sent yet.

    Input: ``self``, the handler; ``task``, the node's run (its metadata is
    ``task.config["metadata"]``); ``response``, what the node returned: an update, a ``Command``,
    or a sequence of them (a tools node returns one item per tool call, a ``Command`` for a tool
    that returned one).

    Output: ``None``. Sent, with the node's metadata, as your ``_find_and_emit_messages`` sends
    them: the messages of a ``Command``'s ``update``; for a sequence holding at least one
    ``Command``, those of each ``Command``'s ``update`` and of each other item as it is; for
    anything else, those of ``response`` itself.

    Errors: none of its own.

    >>> from miniagent.messages import AIMessage
    >>> sent = []
    >>> handler = StreamMessagesHandler(sent.append)
    >>> task = PregelExecutableTask("agent", {}, None, {"metadata": {"step": 1}}, (), ())
    >>> on_node_end(handler, task, Command(update={"messages": [AIMessage("hi", id="a1")]}))
    >>> [(message.content, meta) for _, (message, meta) in sent]
    [('hi', {'step': 1})]

    Upstream: ``StreamMessagesHandler.on_chain_end`` (_messages.py:245).
    """
    # TODO(day12): replace the line below with your code.
    raise NotStarted("day12")


# --- part 2: predict what a client of the stream sees ---------------------------------------


def predictions() -> dict[str, list[tuple[str, str, str | None, str]]]:
    """Your prediction of what a client of ``agent.stream(...)`` sees in fourteen runs.

    Every run is ``create_react_agent(model, tools)`` with the tool ``add`` (returns ``5`` here)
    and the history ``[HumanMessage("2 + 3?", id="h1")]``, unless its line says otherwise. A
    "streaming model" is ``ScriptedChatModel``: it streams its reply's content split on
    whitespace (``"It is 5"`` gives ``"It"``, ``" "``, ``"is"``, ``" "``, ``"5"``), then one
    chunk per tool call with content ``""``; a reply without text and without calls is one chunk
    ``""``. ``FakeToolCallingModel`` has no ``_stream``: it replies at once, echoing the
    contents of the messages it was given joined with ``"-"``, with id ``"0"`` (then ``"1"``...).

    * ``answer`` -- a streaming model answers ``"It is 5"`` (id ``r1``);
    * ``tool_round`` -- a streaming model calls ``add`` (id ``r1``, no text), then answers
      ``"Five."`` (id ``r2``);
    * ``whole_reply`` -- ``FakeToolCallingModel`` answers without tool calls;
    * ``nostream_no_tools`` -- the model of ``answer``, ``.with_config(tags=["nostream"])``,
      in an agent with no tools;
    * ``nostream_with_tools`` -- the same tagged model, in an agent with the tool ``add``;
    * ``sorry`` -- a streaming model calls ``add`` (id ``r1``, no text); ``recursion_limit=2``;
    * ``reused_id_streamed`` -- the history is ``HumanMessage("hi", id="h0")``,
      ``AIMessage("hello", id="a0")``, then the question; a streaming model answers ``"Five."``
      with id ``a0``;
    * ``reused_id_whole`` -- the same history with the AIMessage's id ``"0"``;
      ``FakeToolCallingModel`` answers;
    * ``reused_id_whole_pydantic`` -- the same, with ``state_schema=AgentStatePydantic``;
    * ``command_tool`` -- a streaming model calls ``note`` (id ``r1``, no text), a tool that
      returns ``Command(update={"messages": [ToolMessage("noted", id="t1", ...)]})``, then
      answers ``"Five."`` (id ``r2``);
    * ``hook_rewrites`` -- a ``pre_model_hook`` returns ``{"messages": [RemoveMessage(id=
      REMOVE_ALL_MESSAGES), HumanMessage("(summary)", id="s1"), <the last message>]}``; a
      streaming model answers ``"Five."`` (id ``r1``);
    * ``tool_round_updates``, ``sorry_updates``, ``hook_rewrites_updates`` -- the runs of
      ``tool_round``, ``sorry`` and ``hook_rewrites``, streamed with ``stream_mode="updates"``.

    The others stream with ``stream_mode="messages"``. For each key give the list of what the
    client sees, in order, one tuple per message: ``(node, type, id, content)``. ``node`` is
    the node that produced it (``metadata["langgraph_node"]`` in ``messages`` mode, the chunk's
    key in ``updates`` mode, one tuple per message of the update), ``type`` the class name
    (``"AIMessageChunk"``, ``"AIMessage"``, ``"ToolMessage"``...), ``id`` the message's id,
    written ``"uuid"`` when it is a random uuid4, and ``content`` its content. A run in which the
    client sees nothing is ``[]``.

    Return a literal dict with all fourteen keys. Its shape (placeholders, not answers):
    ``{"answer": [("agent", "AIMessage", "r1", "hi")], ...}``. Predict from the lesson: the
    graders compare with upstream's stream.

    Sealed: a table with an entry missing (or not of this form) is not graded; it says only how
    many entries are filled. Your first complete table is recorded as your first try before any
    real outcome is shown: that run (``pytest``, ``miniagent check`` or the notebook's table
    cell) says only which rows are wrong, and later runs show what the real run gives.
    """
    # TODO(day12): replace the line below with `return {"answer": [...], ...}`.
    raise NotStarted("day12")
