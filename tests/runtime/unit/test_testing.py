"""The fake models of miniagent.testing and the id-normalising helpers."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from miniagent.messages import AIMessage, AIMessageChunk, HumanMessage, ToolMessage
from miniagent.runnables import RunnableBinding
from miniagent.testing import (
    FakeToolCallingModel,
    GenericFakeChatModel,
    ScriptedChatModel,
    message_trace,
    normalize_ids,
)
from miniagent.tools import convert_to_openai_tool, tool


class Recorder:
    """A handler that asks for the streaming path, like ``stream_mode="messages"``."""

    wants_stream = True

    def __init__(self) -> None:
        self.chunks: list[AIMessageChunk] = []
        self.ends: list[AIMessage] = []

    def on_chat_model_stream(self, chunk: AIMessageChunk, config: Any) -> None:
        self.chunks.append(chunk)

    def on_chat_model_end(self, message: AIMessage, config: Any) -> None:
        self.ends.append(message)


@tool
def search(query: str) -> str:
    """Search the web."""
    return query


@tool
def lookup(key: int) -> str:
    """Look a key up."""
    return str(key)


CALL_A = {"name": "search", "args": {"query": "a"}, "id": "call_a"}
CALL_B = {"name": "lookup", "args": {"key": 1}, "id": "call_b"}
TCC = {"type": "tool_call_chunk"}


# ---- FakeToolCallingModel ---------------------------------------------------------------


def test_fake_echoes_the_prompt_and_numbers_replies() -> None:
    model = FakeToolCallingModel()
    first = model.invoke([("system", "Foo"), ("user", "hi?")])
    second = model.invoke("again")
    assert (first.content, first.id, first.tool_calls) == ("Foo-hi?", "0", [])
    assert (second.content, second.id) == ("again", "1")
    assert model.index == 2
    assert model.invoke([]).content == ""


def test_fake_cycles_through_tool_calls() -> None:
    model = FakeToolCallingModel(tool_calls=[[CALL_A, CALL_B], [], [CALL_B]])
    replies = [model.invoke("q") for _ in range(4)]
    assert [[tc["id"] for tc in r.tool_calls] for r in replies] == [
        ["call_a", "call_b"],
        [],
        ["call_b"],
        ["call_a", "call_b"],
    ]
    assert replies[0].tool_calls[0] == {**CALL_A, "type": "tool_call"}


def test_fake_replies_do_not_share_the_script_lists() -> None:
    model = FakeToolCallingModel(tool_calls=[[CALL_A]])
    model.invoke("q").tool_calls.append(CALL_B)
    assert model.invoke("q").tool_calls == [{**CALL_A, "type": "tool_call"}]


def test_fake_validates_its_fields() -> None:
    with pytest.raises(ValidationError, match="tool_style"):
        FakeToolCallingModel(tool_style="gemini")
    with pytest.raises(ValidationError, match="id"):
        FakeToolCallingModel(tool_calls=[[{"name": "x", "args": {}}]])  # ToolCall needs "id"


def test_fake_needs_string_contents() -> None:
    with pytest.raises(TypeError, match="sequence item 0: expected str instance, list found"):
        FakeToolCallingModel().invoke([HumanMessage([{"type": "text", "text": "x"}])])


def test_fake_llm_type() -> None:
    assert FakeToolCallingModel()._llm_type == "fake-tool-call-model"


def test_fake_structured_output() -> None:
    with pytest.raises(ValueError, match=r"^Structured response is not set$"):
        FakeToolCallingModel().with_structured_output(dict)

    class Weather(BaseModel):
        temperature: float

    model = FakeToolCallingModel(structured_response=Weather(temperature=70))
    runnable = model.with_structured_output(Weather)
    assert runnable.invoke("anything") == Weather(temperature=70)
    model.structured_response = {"changed": True}  # read at call time
    assert runnable.invoke("x") == {"changed": True}


def test_fake_bind_tools_openai_and_anthropic_styles() -> None:
    raw = {"type": "web_search_20250305", "name": "web_search"}
    bound = FakeToolCallingModel().bind_tools([search, raw, lookup])
    assert isinstance(bound, RunnableBinding)
    assert bound.kwargs == {
        "tools": [
            {"type": "function", "function": {"name": "search"}},
            raw,
            {"type": "function", "function": {"name": "lookup"}},
        ]
    }
    anthropic = FakeToolCallingModel(tool_style="anthropic").bind_tools([search])
    assert anthropic.kwargs == {"tools": [{"name": "search"}]}


def test_fake_bind_tools_ignores_other_kwargs() -> None:
    bound = FakeToolCallingModel().bind_tools([search], tool_choice="any")
    assert bound.kwargs == {"tools": [{"type": "function", "function": {"name": "search"}}]}


@pytest.mark.parametrize("tools", [[], ()])
def test_fake_bind_tools_needs_a_tool(tools: Any) -> None:
    with pytest.raises(ValueError, match=r"^Must provide at least one tool$"):
        FakeToolCallingModel().bind_tools(tools)


@pytest.mark.parametrize("bad", [lambda x: x, BaseModel, "search"])
def test_fake_bind_tools_rejects_non_tools(bad: Any) -> None:
    expected = r"^Only BaseTool and dict is supported by FakeToolCallingModel\.bind_tools$"
    with pytest.raises(TypeError, match=expected):
        FakeToolCallingModel().bind_tools([search, bad])


# ---- ScriptedChatModel ------------------------------------------------------------------


def script() -> list[AIMessage]:
    return [
        AIMessage("", id="ai-1", tool_calls=[CALL_A, CALL_B]),
        AIMessage("It's sunny in SF.", id="ai-2"),
    ]


def test_scripted_replies_in_order_with_copies() -> None:
    responses = script()
    model = ScriptedChatModel(responses)
    first, second = model.invoke("q"), model.invoke("q2")
    assert first == responses[0] and second == responses[1]
    assert first is not responses[0]
    first.tool_calls[0]["args"]["query"] = "changed"
    assert responses[0].tool_calls[0]["args"] == {"query": "a"}
    assert ScriptedChatModel(responses=script()).invoke("q").id == "ai-1"  # keyword form


def test_scripted_records_calls() -> None:
    model = ScriptedChatModel(script())
    bound = model.bind_tools([search], tool_choice="any")
    bound.invoke([("user", "hi")])
    model.invoke("plain")
    assert len(model.calls) == 2
    assert [m.content for m in model.calls[0]["messages"]] == ["hi"]
    assert model.calls[0]["kwargs"] == {
        "tools": [convert_to_openai_tool(search)],
        "tool_choice": "any",
    }
    assert model.calls[1]["kwargs"] == {}


def test_scripted_runs_out_with_a_clear_error() -> None:
    model = ScriptedChatModel([AIMessage("only")])
    model.invoke("1")
    with pytest.raises(ValueError) as exc:
        model.invoke("2")
    assert str(exc.value) == (
        "ScriptedChatModel ran out of responses: call #2, but only 1 response(s) were scripted."
    )
    assert len(model.calls) == 2  # the failing call is recorded too


def test_scripted_reply_without_id_gets_a_run_id() -> None:
    reply = ScriptedChatModel([AIMessage("x")]).invoke("q")
    assert reply.id.startswith("lc_run--") and reply.id.endswith("-0")


def test_scripted_stream_carries_tool_calls() -> None:
    model = ScriptedChatModel([AIMessage("Let me check", id="ai-1", tool_calls=[CALL_A, CALL_B])])
    chunks = list(model.stream("q"))
    assert [c.content for c in chunks] == ["Let", " ", "me", " ", "check", "", ""]
    assert [c.chunk_position for c in chunks][-2:] == [None, "last"]
    assert {c.id for c in chunks} == {"ai-1"}
    assert [c.tool_call_chunks for c in chunks[5:]] == [
        [{"name": "search", "args": '{"query": "a"}', "id": "call_a", "index": 0, **TCC}],
        [{"name": "lookup", "args": '{"key": 1}', "id": "call_b", "index": 1, **TCC}],
    ]
    merged = chunks[0] + chunks[1:]
    assert merged.tool_calls == [{**CALL_A, "type": "tool_call"}, {**CALL_B, "type": "tool_call"}]


def test_scripted_streaming_path_keeps_tool_calls() -> None:
    """With a streaming handler (``stream_mode="messages"``) the reply still has its calls."""
    handler = Recorder()
    scripted = script()
    reply = ScriptedChatModel(scripted).invoke("q", {"callbacks": [handler]})
    assert reply == scripted[0] and type(reply) is AIMessage
    assert [c.chunk_position for c in handler.chunks] == [None, "last"]
    assert [tc["id"] for c in handler.chunks for tc in c.tool_calls] == ["call_a", "call_b"]


def test_scripted_streaming_round_trips_every_kind_of_reply() -> None:
    # an invalid call streams as a chunk of its raw args; it stays invalid if they are not JSON
    invalid = {"name": "bad", "args": "not json", "id": "call_x", "error": None}
    for message in [
        AIMessage("plain words here", id="m1"),
        AIMessage("", id="m2"),
        AIMessage([{"type": "text", "text": "blocks"}], id="m3"),
        AIMessage("both", id="m4", tool_calls=[CALL_A], invalid_tool_calls=[invalid]),
    ]:
        streamed = ScriptedChatModel([message]).invoke("q", {"callbacks": [Recorder()]})
        assert streamed == message


def test_scripted_llm_type() -> None:
    assert ScriptedChatModel([])._llm_type == "scripted-chat-model"


# ---- GenericFakeChatModel ---------------------------------------------------------------


def test_generic_fake_replies_from_the_iterator() -> None:
    model = GenericFakeChatModel(messages=iter(["hello", AIMessage("bye", id="b")]))
    first, second = model.invoke("q"), model.invoke("q")
    assert first.content == "hello" and first.id.startswith("lc_run--")
    assert (second.content, second.id) == ("bye", "b")
    with pytest.raises(StopIteration):
        model.invoke("q")


def test_generic_fake_streams_content_split_on_whitespace() -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage("hello there  friend", id="g")]))
    chunks = list(model.stream("q"))
    assert [c.content for c in chunks] == ["hello", " ", "there", " ", "", " ", "friend"]
    assert [c.chunk_position for c in chunks].count("last") == 1
    assert chunks[-1].chunk_position == "last"


def test_generic_fake_streams_additional_kwargs() -> None:
    message = AIMessage("hi", id="g", additional_kwargs={"foo": 1, "bar": {"x": 2}})
    chunks = list(GenericFakeChatModel(messages=iter([message])).stream("q"))
    assert [c.additional_kwargs for c in chunks] == [{}, {"foo": 1}, {"bar": {"x": 2}}, {}]
    assert chunks[-1].chunk_position == "last" and chunks[0].chunk_position is None


def test_generic_fake_drops_tool_calls_when_streaming() -> None:
    """The §7.3 gotcha: the streaming path loses the tool calls."""
    message = AIMessage("calling tool", id="g", tool_calls=[CALL_A])
    assert GenericFakeChatModel(messages=iter([message])).invoke("q").tool_calls
    handler = Recorder()
    reply = GenericFakeChatModel(messages=iter([message])).invoke("q", {"callbacks": [handler]})
    assert reply.content == "calling tool" and reply.tool_calls == []
    assert [c.content for c in handler.chunks] == ["calling", " ", "tool"]


def test_generic_fake_tool_calls_only_reply_streams_nothing() -> None:
    message = AIMessage("", tool_calls=[CALL_A])
    model = GenericFakeChatModel(messages=iter([message]))
    with pytest.raises(ValueError, match=r"^No generations found in stream\.$"):
        model.invoke("q", {"callbacks": [Recorder()]})


def test_generic_fake_needs_string_content_to_stream() -> None:
    model = GenericFakeChatModel(messages=iter([AIMessage([{"type": "text", "text": "x"}])]))
    with pytest.raises(ValueError, match=r"^Expected content to be a string\.$"):
        list(model.stream("q"))


def test_generic_fake_has_no_tools_support() -> None:
    model = GenericFakeChatModel(messages=iter([]))
    with pytest.raises(NotImplementedError):
        model.bind_tools([search])
    with pytest.raises(
        NotImplementedError, match=r"^with_structured_output is not implemented for this model\.$"
    ):
        model.with_structured_output(dict)
    assert model._llm_type == "generic-fake-chat-model"


# ---- normalize_ids / message_trace -------------------------------------------------------


def test_normalize_ids_numbers_uuids_in_order_of_first_appearance() -> None:
    a, b = str(uuid.uuid4()), str(uuid.uuid4())
    obj = {"x": [a, (b, f"agent:{a}")], "y": f"lc_run--{b}-0", "n": 3, "s": "call_1"}
    assert normalize_ids(obj) == {
        "x": ["<id-1>", ("<id-2>", "agent:<id-1>")],
        "y": "lc_run--<id-2>-0",
        "n": 3,
        "s": "call_1",
    }
    assert isinstance(normalize_ids(obj)["x"][1], tuple)


def test_normalize_ids_copies_messages() -> None:
    tool_id = str(uuid.uuid4())
    messages = [
        AIMessage("", id="ai-1", tool_calls=[CALL_A]),
        ToolMessage("result", id=tool_id, tool_call_id="call_a", name="search"),
    ]
    normalized = normalize_ids(messages)
    assert normalized[1].id == "<id-1>" and messages[1].id == tool_id
    assert normalized[0] == messages[0] and type(normalized[1]) is ToolMessage
    assert normalize_ids(messages) == normalize_ids(
        [messages[0], messages[1].model_copy(update={"id": str(uuid.uuid4())})]
    )


def test_message_trace() -> None:
    messages = [
        HumanMessage("what is the weather in sf", id=str(uuid.uuid4())),
        AIMessage("", id="ai-1", name="agent", tool_calls=[CALL_A]),
        ToolMessage("sunny", id=str(uuid.uuid4()), tool_call_id="call_a", status="error"),
        AIMessage("x", invalid_tool_calls=[{"name": "t", "args": "{", "id": "c", "error": None}]),
    ]
    assert message_trace(messages) == [
        {"type": "human", "content": "what is the weather in sf", "id": "<id-1>"},
        {
            "type": "ai",
            "content": "",
            "name": "agent",
            "id": "ai-1",
            "tool_calls": [{"name": "search", "args": {"query": "a"}, "id": "call_a"}],
        },
        {
            "type": "tool",
            "content": "sunny",
            "id": "<id-2>",
            "tool_call_id": "call_a",
            "status": "error",
        },
        {
            "type": "ai",
            "content": "x",
            "id": None,
            "invalid_tool_calls": [{"name": "t", "args": "{", "id": "c"}],
        },
    ]


# ---- in an agent: stream_mode="messages" (spec §7.3) --------------------------------------


def test_messages_mode_agent_keeps_tool_calls_with_scripted_model_only() -> None:
    from miniagent.prebuilt import create_react_agent

    @tool
    def check_weather(location: str) -> str:
        """Return the weather forecast for the specified location."""
        return f"It's always sunny in {location}"

    call = {"name": "check_weather", "args": {"location": "sf"}, "id": "call_1"}

    def replies() -> list[AIMessage]:
        return [AIMessage("calling tool", id="ai-1", tool_calls=[call]), AIMessage("Sunny.")]

    class GenericWithTools(GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> RunnableBinding:
            return self.bind(tools=tools)

    def nodes(model: Any) -> list[tuple[str, str]]:
        agent = create_react_agent(model, [check_weather])
        stream = agent.stream({"messages": [("user", "sf?")]}, stream_mode="messages")
        return [(meta["langgraph_node"], chunk.content) for chunk, meta in stream]

    scripted = nodes(ScriptedChatModel(replies()))
    assert ("tools", "It's always sunny in sf") in scripted and scripted[-1] == ("agent", "Sunny.")
    # GenericFakeChatModel streams the first turn without its tool call: the run ends there
    generic = nodes(GenericWithTools(messages=iter(replies())))
    assert generic == [("agent", "calling"), ("agent", " "), ("agent", "tool")]
    # invoke() takes the non-streaming path, so the same fake runs the tool loop
    agent = create_react_agent(GenericWithTools(messages=iter(replies())), [check_weather])
    assert len(agent.invoke({"messages": [("user", "sf?")]})["messages"]) == 4
