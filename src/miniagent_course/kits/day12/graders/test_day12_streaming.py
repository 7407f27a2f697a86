"""Graders for day12: the ``stream_mode="messages"`` handler (langgraph/pregel/_messages.py:75)
and predictions of what a client of a stream sees.

Three groups:

* the four methods alone, on a real ``StreamMessagesHandler`` whose ``emit`` collects what a
  client would receive (the learner's functions are put into the class with ``impl.swap_in``,
  so ``self._emit`` inside them is the learner's own);
* the same methods inside real miniagent agents streamed in ``messages`` mode, compared with
  upstream's stream of the same runs, recorded in ``kits/day12/instructor/recorded.json``;
* ``impl.predictions()`` against that recording.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from miniagent.graph.pregel import StreamMessagesHandler
from miniagent.messages import AIMessage, AIMessageChunk, HumanMessage, ToolMessage
from miniagent.prebuilt.chat_agent_executor import AgentStatePydantic
from miniagent.types import Command
from miniagent_course.grading.judgments import judgment_graders
from miniagent_course.kits.day12.cases import (
    SITUATIONS,
    UUID,
    build,
    client_view,
    recorded,
)
from miniagent_course.sides import mini

META = {"langgraph_node": "agent", "langgraph_step": 1}
NODE_META = {"langgraph_node": "tools", "langgraph_step": 2}
RECORDED = recorded()
MESSAGES_MODE = [key for key in SITUATIONS if not key.endswith("_updates")]


@pytest.fixture
def handler(impl, monkeypatch):
    """A handler built with the learner's methods; ``handler.sent`` is what the client got."""
    impl.swap_in(monkeypatch)
    sent: list[Any] = []
    made = StreamMessagesHandler(sent.append)
    made.sent = sent
    return made


def sent_messages(handler) -> list[Any]:
    """The messages sent, in order (each chunk must be ``("messages", (message, meta))``)."""
    messages = []
    for chunk in handler.sent:
        assert isinstance(chunk, tuple) and len(chunk) == 2 and chunk[0] == "messages", (
            f"send ('messages', (message, metadata)) with self.emit, got {chunk!r}"
        )
        message, _ = chunk[1]
        messages.append(message)
    return messages


def task(input: Any, meta: dict[str, Any] = NODE_META) -> SimpleNamespace:
    return SimpleNamespace(name="tools", input=input, config={"metadata": meta})


# --- _emit ----------------------------------------------------------------------------------


def test_emit_sends_the_message_itself_with_its_metadata(handler):
    message = AIMessage("hi", id="a1")
    handler._emit(META, message)
    assert len(handler.sent) == 1
    mode, (got, meta) = handler.sent[0]
    assert mode == "messages"
    assert got is message, "send the message object itself, not a copy"
    assert meta is META, "send the metadata you were given"


def test_emit_gives_an_id_less_message_a_uuid_on_the_object(handler):
    message = ToolMessage("5", tool_call_id="call_1")
    handler._emit(NODE_META, message)
    assert message.id is not None, "set the new id on the message itself"
    assert UUID.fullmatch(message.id), f"the new id is str(uuid4()), got {message.id!r}"
    assert sent_messages(handler) == [message]
    assert message.id in handler.seen
    other = ToolMessage("6", tool_call_id="call_2")
    handler._emit(NODE_META, other)
    assert other.id != message.id, "every id-less message gets a fresh uuid"


def test_emit_without_dedupe_sends_every_chunk_of_one_reply(handler):
    chunks = [AIMessageChunk(content=t, id="r1") for t in ("It", " ", "is")]
    for chunk in chunks:
        handler._emit(META, chunk)
    assert sent_messages(handler) == chunks, "token chunks share an id: never skip them"
    assert handler.seen == {"r1"}


def test_emit_with_dedupe_skips_an_id_already_seen(handler):
    handler.seen.add("r1")
    handler._emit(META, AIMessage("It is 5", id="r1"), dedupe=True)
    assert handler.sent == [], "with dedupe=True, an id in self.seen is not sent"
    handler._emit(META, AIMessage("new", id="r2"), dedupe=True)
    assert [m.id for m in sent_messages(handler)] == ["r2"]
    assert handler.seen == {"r1", "r2"}, "remember the id of every message you send"
    handler._emit(META, AIMessage("again", id="r2"), dedupe=True)
    assert len(handler.sent) == 1, "a message sent with dedupe=True is not sent twice"


def test_emit_with_dedupe_sends_an_id_less_message(handler):
    message = ToolMessage("5", tool_call_id="call_1")
    handler._emit(NODE_META, message, dedupe=True)
    assert sent_messages(handler) == [message] and message.id in handler.seen


# --- _find_and_emit_messages ----------------------------------------------------------------


def test_find_sends_a_message_a_sequence_and_a_state(handler):
    one = AIMessage("one", id="m1")
    handler._find_and_emit_messages(META, one)
    two, three = AIMessage("two", id="m2"), HumanMessage("three", id="m3")
    handler._find_and_emit_messages(META, [two, "not a message", {"id": "x"}, three])
    four, five = AIMessage("four", id="m4"), AIMessage("five", id="m5")
    six = AIMessage("six", id="m6")
    handler._find_and_emit_messages(META, {"messages": [four, five], "last": six, "n": 3})
    seven = AIMessage("seven", id="m7")
    handler._find_and_emit_messages(META, (seven,))
    assert [m.id for m in sent_messages(handler)] == ["m1", "m2", "m3", "m4", "m5", "m6", "m7"]
    assert all(meta is META for _, (_, meta) in handler.sent)


def test_find_reads_a_pydantic_state(handler):
    state = AgentStatePydantic(messages=[HumanMessage("q", id="h1"), AIMessage("a", id="a1")])
    handler._find_and_emit_messages(META, state)
    assert [m.id for m in sent_messages(handler)] == ["h1", "a1"]


def test_find_looks_no_deeper_than_one_level(handler):
    nested = AIMessage("deep", id="deep")
    handler._find_and_emit_messages(META, {"messages": [[nested]], "inner": {"m": nested}})
    handler._find_and_emit_messages(META, [[nested], {"messages": [nested]}])
    handler._find_and_emit_messages(META, "a string")
    handler._find_and_emit_messages(META, None)
    handler._find_and_emit_messages(META, {"messages": "abc"})
    assert handler.sent == []


def test_find_skips_what_was_seen_in_every_shape(handler):
    handler.seen.update({"m1", "m2", "m3"})
    handler._find_and_emit_messages(META, AIMessage("x", id="m1"))
    handler._find_and_emit_messages(META, [AIMessage("x", id="m2"), AIMessage("y", id="n1")])
    state = {"messages": [AIMessage("x", id="m3")], "last": AIMessage("x", id="m1")}
    handler._find_and_emit_messages(META, state)
    handler._find_and_emit_messages(META, {"last": AIMessage("z", id="n2")})
    assert [m.id for m in sent_messages(handler)] == ["n1", "n2"]


def test_find_sends_one_message_once_even_if_returned_twice(handler):
    message = ToolMessage("5", tool_call_id="call_1")
    handler._find_and_emit_messages(META, {"messages": [message, message]})
    assert len(handler.sent) == 1 and UUID.fullmatch(message.id)


# --- on_node_start --------------------------------------------------------------------------


def test_node_start_marks_the_input_messages_and_sends_nothing(handler):
    history = [HumanMessage("q", id="h1"), AIMessage("a", id="a1")]
    handler.on_node_start(
        task({"messages": history, "last": ToolMessage("t", tool_call_id="c", id="t1"), "n": 2})
    )
    assert handler.sent == []
    assert handler.seen == {"h1", "a1", "t1"}


def test_node_start_reads_a_pydantic_state(handler):
    state = AgentStatePydantic(messages=[HumanMessage("q", id="h1"), AIMessage("a", id="a1")])
    handler.on_node_start(task(state))
    assert handler.seen == {"h1", "a1"}


def test_node_start_ignores_id_less_messages_and_other_values(handler):
    handler.on_node_start(task({"messages": [HumanMessage("q")], "text": "abc", "none": None}))
    assert handler.seen == set(), "a message without an id adds nothing to self.seen"
    later = ToolMessage("5", tool_call_id="call_1")
    handler._emit(NODE_META, later, dedupe=True)
    assert sent_messages(handler) == [later]


def test_node_start_then_end_sends_only_new_messages(handler):
    old = HumanMessage("q", id="h1")
    handler.on_node_start(task({"messages": [old]}))
    new = AIMessage("a", id="a1")
    handler.on_node_end(task({"messages": [old]}), {"messages": [old, new]})
    assert sent_messages(handler) == [new]


# --- on_node_end ----------------------------------------------------------------------------


def test_node_end_sends_the_update_with_the_nodes_metadata(handler):
    meta = {"langgraph_node": "tools", "langgraph_step": 4}
    message = ToolMessage("5", tool_call_id="call_1", id="t1")
    handler.on_node_end(task({}, meta), {"messages": [message]})
    assert handler.sent == [("messages", (message, meta))]


def test_node_end_looks_inside_a_command(handler):
    message = ToolMessage("noted", tool_call_id="call_1", id="t1")
    handler.on_node_end(task({}), Command(update={"messages": [message]}))
    assert sent_messages(handler) == [message]


def test_node_end_looks_inside_a_list_of_commands_and_updates(handler):
    first = ToolMessage("a", tool_call_id="c1", id="t1")
    second = ToolMessage("b", tool_call_id="c2", id="t2")
    third = ToolMessage("c", tool_call_id="c3", id="t3")
    response = [
        Command(update={"messages": [first]}),
        {"messages": [second]},
        Command(update={"messages": [third]}),
        third,
    ]
    handler.on_node_end(task({}), response)
    assert sent_messages(handler) == [first, second, third]


def test_node_end_sends_a_list_of_messages(handler):
    messages = [ToolMessage("a", tool_call_id="c1", id="t1"), AIMessage("b", id="a1")]
    handler.on_node_end(task({}), messages)
    assert sent_messages(handler) == messages


# --- inside real agents, against upstream's recorded stream ----------------------------------


@pytest.mark.parametrize("key", MESSAGES_MODE)
def test_a_client_sees_what_upstream_streams(impl, monkeypatch, key):
    impl.swap_in(monkeypatch)  # every StreamMessagesHandler now runs your methods
    got = client_view(mini(), key)
    assert got == RECORDED[key], (
        f"{key} ({SITUATIONS[key]}): a client of stream_mode='messages' saw\n  {got}\n"
        f"upstream streams\n  {RECORDED[key]}\n(rows are [node, type, id, content])"
    )


def test_the_streamed_tool_message_has_the_id_the_state_keeps(impl, monkeypatch):
    impl.swap_in(monkeypatch)
    agent, inputs, config, _ = build(mini(), "tool_round")
    items = list(agent.stream(inputs, config, stream_mode=["messages", "values"]))
    streamed = [m for mode, (m, _) in (i for i in items if i[0] == "messages")]
    tool_message = next(m for m in streamed if isinstance(m, ToolMessage))
    final = [payload for mode, payload in items if mode == "values"][-1]
    kept = next(m for m in final["messages"] if isinstance(m, ToolMessage))
    assert tool_message.id == kept.id, "the client and the state must know the message by one id"


# --- part 2: predictions against upstream's recorded stream (the predict kind, judgments.py) --


def _rows(value):
    assert isinstance(value, list), "give a list of (node, type, id, content) tuples"
    for r in value:
        assert isinstance(r, tuple) and len(r) == 4, f"{r!r} is not (node, type, id, content)"


test_predictions_are_a_table_of_the_fourteen_situations, test_prediction = judgment_graders(
    __file__,
    cases=list(SITUATIONS),
    outcome=RECORDED.__getitem__,
    row=lambda key: f"{key} ({SITUATIONS[key]})",
    gave="a client of upstream's stream sees {actual}",
    shape=_rows,
    normalise=lambda rows: [list(r) for r in rows],
)
