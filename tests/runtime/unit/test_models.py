"""BaseChatModel: input coercion, callbacks, streaming path, bind_tools, with_structured_output."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import pytest
from pydantic import BaseModel, Field, ValidationError

from miniagent.messages import AIMessage, AIMessageChunk, BaseMessage, HumanMessage, SystemMessage
from miniagent.models import BaseChatModel, OutputParserException
from miniagent.runnables import (
    RunnableBinding,
    RunnableLambda,
    RunnableSequence,
    set_config_context,
)
from miniagent.testing import ScriptedChatModel
from miniagent.tools import convert_to_openai_tool, tool

RUN_ID = r"lc_run--[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}"


class EchoModel(BaseChatModel):
    """Replies with the joined contents; records (messages, kwargs) of every call."""

    reply_id: str | None = None
    tool_calls: list[dict[str, Any]] = Field(default_factory=list)
    calls: list[tuple[list[BaseMessage], dict[str, Any]]] = Field(default_factory=list)

    def _generate(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
        self.calls.append((messages, kwargs))
        content = "|".join(str(m.content) for m in messages)
        return AIMessage(content=content, id=self.reply_id, tool_calls=self.tool_calls)

    @property
    def _llm_type(self) -> str:
        return "echo"

    bind_tools = ScriptedChatModel.bind_tools  # the base class's only raises (below)


class ChunkModel(EchoModel):
    """Streams the given chunks (copies) when asked to; ``_generate`` still echoes."""

    chunks: list[AIMessageChunk] = Field(default_factory=list)

    def _stream(self, messages: list[BaseMessage], **kwargs: Any) -> Iterator[AIMessageChunk]:
        self.calls.append((messages, kwargs))
        for chunk in self.chunks:
            yield chunk.model_copy()


class Recorder:
    """A callback handler like the graph's "messages" handler."""

    def __init__(self, wants_stream: bool = True) -> None:
        self.wants_stream = wants_stream
        self.chunks: list[AIMessageChunk] = []
        self.ends: list[AIMessage] = []
        self.configs: list[dict[str, Any]] = []

    def on_chat_model_stream(self, chunk: AIMessageChunk, config: dict[str, Any]) -> None:
        self.chunks.append(chunk)
        self.configs.append(config)

    def on_chat_model_end(self, message: AIMessage, config: dict[str, Any]) -> None:
        self.ends.append(message)
        self.configs.append(config)


def chunks_ab() -> list[AIMessageChunk]:
    return [
        AIMessageChunk(content="a"),
        AIMessageChunk(content=" b"),
        AIMessageChunk(
            content="",
            tool_call_chunks=[{"name": "t", "args": '{"x": 1}', "id": "c1", "index": 0}],
        ),
    ]


# ---- the abstract base ------------------------------------------------------------------


def test_base_chat_model_is_abstract() -> None:
    with pytest.raises(TypeError, match="abstract"):
        BaseChatModel()  # type: ignore[abstract]

    class NoLlmType(BaseChatModel):
        def _generate(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
            return AIMessage("x")

    with pytest.raises(TypeError, match="_llm_type"):
        NoLlmType()  # type: ignore[abstract]


def test_fields_are_pydantic_and_repr_hides_defaults() -> None:
    model = EchoModel(reply_id="r")
    assert model.reply_id == "r"
    assert repr(model) == "EchoModel(reply_id='r', tool_calls=[], calls=[])"
    with pytest.raises(ValidationError):
        EchoModel(reply_id=object())


# ---- input coercion ---------------------------------------------------------------------


def test_str_input_is_one_human_message() -> None:
    model = EchoModel()
    model.invoke("hi")
    ((messages, _),) = model.calls
    assert [type(m) for m in messages] == [HumanMessage]
    assert messages[0].content == "hi"


def test_list_of_message_likes_is_converted() -> None:
    model = EchoModel()
    reply = model.invoke(
        [("system", "be brief"), {"role": "user", "content": "hi"}, AIMessage("yo"), "plain"]
    )
    messages = model.calls[0][0]
    assert [m.type for m in messages] == ["system", "human", "ai", "human"]
    assert reply.content == "be brief|hi|yo|plain"


def test_tuple_input_is_a_sequence_of_message_likes() -> None:
    model = EchoModel()
    model.invoke(("user", "hi"))  # two strings -> two human messages, as upstream
    assert [(m.type, m.content) for m in model.calls[0][0]] == [("human", "user"), ("human", "hi")]


@pytest.mark.parametrize(
    "bad", [42, None, {"role": "user", "content": "hi"}, HumanMessage("hi"), SystemMessage("s")]
)
def test_other_inputs_raise_upstreams_error(bad: Any) -> None:
    expected = (
        f"Invalid input type {type(bad)}. Must be a PromptValue, str, or list of BaseMessages."
    )
    with pytest.raises(ValueError) as exc:
        EchoModel().invoke(bad)
    assert str(exc.value) == expected


# ---- invoke -----------------------------------------------------------------------------


def test_invoke_passes_kwargs_and_returns_the_generated_message() -> None:
    model = EchoModel(reply_id="r1")
    reply = model.invoke("hi", None, tools=[{"x": 1}], tool_choice="any")
    assert isinstance(reply, AIMessage) and not isinstance(reply, AIMessageChunk)
    assert reply.id == "r1"
    assert model.calls[0][1] == {"tools": [{"x": 1}], "tool_choice": "any"}


def test_reply_without_id_gets_a_run_id() -> None:
    first, second = EchoModel().invoke("a"), EchoModel().invoke("a")
    assert re.fullmatch(RUN_ID + "-0", first.id)
    assert first.id != second.id


def test_config_run_id_names_the_reply() -> None:
    reply = EchoModel().invoke("a", {"run_id": "abc"})
    assert reply.id == "lc_run--abc-0"


def test_on_chat_model_end_gets_the_reply_and_config() -> None:
    handler = Recorder(wants_stream=False)
    reply = ChunkModel(chunks=chunks_ab()).invoke(
        "hi", {"callbacks": [handler], "metadata": {"k": 1}}
    )
    assert handler.ends == [reply]
    assert handler.chunks == []  # no handler asked for the streaming path
    assert handler.configs[0]["metadata"] == {"k": 1}


def test_handlers_without_methods_are_ignored() -> None:
    reply = EchoModel().invoke("hi", {"callbacks": [object()]})
    assert reply.content == "hi"


def test_wants_stream_without_stream_implementation_uses_generate() -> None:
    handler = Recorder()
    model = EchoModel(tool_calls=[{"name": "t", "args": {}, "id": "1"}])
    reply = model.invoke("hi", {"callbacks": [handler]})
    assert handler.chunks == [] and handler.ends == [reply]
    assert reply.tool_calls[0]["name"] == "t"


def test_streaming_path_reports_chunks_and_merges_them() -> None:
    handler = Recorder()
    model = ChunkModel(chunks=chunks_ab())
    reply = model.invoke("hi", {"callbacks": [handler]}, tools=["T"])
    assert model.calls[0][1] == {"tools": ["T"]}  # kwargs reach _stream
    assert type(reply) is AIMessage
    assert reply.content == "a b"
    assert reply.tool_calls == [{"name": "t", "args": {"x": 1}, "id": "c1", "type": "tool_call"}]
    # chunks without id get the run id (no "-0"), and a closing chunk is added
    assert [c.content for c in handler.chunks] == ["a", " b", "", ""]
    assert handler.chunks[-1].chunk_position == "last"
    assert len({c.id for c in handler.chunks}) == 1
    assert re.fullmatch(RUN_ID, handler.chunks[0].id)
    assert reply.id == handler.chunks[0].id
    assert handler.ends == [reply]


def test_streaming_path_keeps_chunk_ids_and_marked_last_chunk() -> None:
    chunks = [AIMessageChunk(content="x", id="m1"), AIMessageChunk(content="y", id="m1")]
    chunks[-1].chunk_position = "last"
    handler = Recorder()
    reply = ChunkModel(chunks=chunks).invoke("hi", {"callbacks": [handler]})
    assert [c.content for c in handler.chunks] == ["x", "y"]  # no extra closing chunk
    assert reply.id == "m1" and reply.content == "xy"


def test_streaming_path_with_no_chunks_raises() -> None:
    with pytest.raises(ValueError, match=r"^No generations found in stream\.$"):
        ChunkModel(chunks=[]).invoke("hi", {"callbacks": [Recorder()]})


def test_streaming_path_drops_what_stream_leaves_out() -> None:
    """The gotcha: ``_generate`` would return a tool call, ``_stream`` does not."""
    model = ChunkModel(
        chunks=[AIMessageChunk(content="calling")],
        tool_calls=[{"name": "t", "args": {}, "id": "1"}],
    )
    assert model.invoke("hi").tool_calls  # non-streaming path
    assert model.invoke("hi", {"callbacks": [Recorder()]}).tool_calls == []


def test_callbacks_of_the_current_config_are_used() -> None:
    """A node calling ``model.invoke(x)`` without config still reports to the graph."""
    handler = Recorder()
    with set_config_context({"callbacks": [handler]}):
        reply = ChunkModel(chunks=chunks_ab()).invoke("hi")
    assert handler.ends == [reply] and len(handler.chunks) == 4


# ---- async ------------------------------------------------------------------------------


def test_ainvoke_uses_generate_by_default_and_agenerate_when_overridden() -> None:
    assert asyncio.run(EchoModel(reply_id="r").ainvoke("hi")).content == "hi"

    class AsyncModel(EchoModel):
        async def _agenerate(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
            return AIMessage("async", id=None)

    reply = asyncio.run(AsyncModel().ainvoke("hi"))
    assert reply.content == "async" and re.fullmatch(RUN_ID + "-0", reply.id)


def test_ainvoke_streaming_path() -> None:
    handler = Recorder()
    reply = asyncio.run(ChunkModel(chunks=chunks_ab()).ainvoke("hi", {"callbacks": [handler]}))
    assert reply.content == "a b" and reply.tool_calls[0]["args"] == {"x": 1}
    assert len(handler.chunks) == 4 and handler.ends == [reply]


def test_ainvoke_streams_through_an_async_only_stream() -> None:
    class AsyncOnly(EchoModel):
        async def _astream(self, messages: list[BaseMessage], **kwargs: Any) -> Any:
            yield AIMessageChunk(content="as")
            yield AIMessageChunk(content="ync")

    handler = Recorder()
    reply = asyncio.run(AsyncOnly().ainvoke("hi", {"callbacks": [handler]}))
    assert reply.content == "async" and [c.content for c in handler.chunks] == ["as", "ync", ""]
    # the sync path does not see an async-only stream
    assert AsyncOnly().invoke("hi", {"callbacks": [Recorder()]}).content == "hi"


# ---- stream / astream -------------------------------------------------------------------


def test_stream_without_stream_implementation_yields_the_whole_reply() -> None:
    handler = Recorder()
    out = list(EchoModel(reply_id="r").stream("hi", {"callbacks": [handler]}))
    assert len(out) == 1 and type(out[0]) is AIMessage and out[0].content == "hi"
    assert handler.ends == out


def test_stream_yields_chunks_then_a_closing_chunk() -> None:
    handler = Recorder(wants_stream=False)  # stream() reports chunks to every handler
    out = list(ChunkModel(chunks=chunks_ab()).stream("hi", {"callbacks": [handler]}))
    assert [c.content for c in out] == ["a", " b", "", ""]
    assert all(isinstance(c, AIMessageChunk) for c in out)
    assert out[-1].chunk_position == "last" and out[0].chunk_position is None
    assert handler.chunks == out
    assert handler.ends[0].content == "a b" and handler.ends[0].id == out[0].id
    merged = out[0] + out[1:]
    assert merged.tool_calls == handler.ends[0].tool_calls


def test_stream_with_no_chunks_raises() -> None:
    with pytest.raises(ValueError, match=r"^No generation chunks were returned$"):
        list(ChunkModel(chunks=[]).stream("hi"))


def test_astream() -> None:
    async def collect(model: BaseChatModel) -> list[Any]:
        return [c async for c in model.astream("hi")]

    assert [c.content for c in asyncio.run(collect(ChunkModel(chunks=chunks_ab())))] == [
        "a",
        " b",
        "",
        "",
    ]
    (whole,) = asyncio.run(collect(EchoModel(reply_id="r")))
    assert type(whole) is AIMessage and whole.content == "hi"


# ---- composition, bind, bind_tools ------------------------------------------------------


def test_model_composes_with_pipe_and_bind() -> None:
    model = EchoModel(reply_id="r")
    chain = model | RunnableLambda(lambda m: m.content.upper())
    assert isinstance(chain, RunnableSequence) and chain.invoke("hi") == "HI"
    bound = model.bind(stop=["x"])
    assert isinstance(bound, RunnableBinding) and bound.bound is model
    bound.invoke("hi")
    assert model.calls[-1][1] == {"stop": ["x"]}


@tool
def check_weather(location: str) -> str:
    """Return the weather forecast for the specified location."""
    return f"It's always sunny in {location}"


def test_bind_tools_stores_openai_format_dicts() -> None:
    model = EchoModel()
    web_search = {"type": "web_search_20250305", "name": "web_search", "max_uses": 2}
    bound = model.bind_tools([check_weather, web_search])
    assert isinstance(bound, RunnableBinding) and bound.bound is model
    assert bound.kwargs == {"tools": [convert_to_openai_tool(check_weather), web_search]}
    assert bound.kwargs["tools"][0]["function"]["name"] == "check_weather"
    assert bound.kwargs["tools"][1] is web_search  # dicts pass through untouched


def test_bind_tools_tool_choice_and_extra_kwargs_reach_generate() -> None:
    model = EchoModel()
    assert "tool_choice" not in model.bind_tools([check_weather]).kwargs
    bound = model.bind_tools([check_weather], tool_choice="any", parallel_tool_calls=False)
    assert list(bound.kwargs) == ["tools", "parallel_tool_calls", "tool_choice"]
    bound.invoke("hi")
    assert model.calls[0][1] == bound.kwargs


def test_bind_tools_converts_functions_and_pydantic_classes() -> None:
    class Weather(BaseModel):
        """Weather report."""

        temperature: float

    def add(a: int, b: int) -> int:
        """Add two numbers."""
        return a + b

    tools = EchoModel().bind_tools([Weather, add]).kwargs["tools"]
    assert tools == [convert_to_openai_tool(Weather), convert_to_openai_tool(add)]


class NoTools(BaseChatModel):
    """A chat model that does not write its own ``bind_tools``."""

    def _generate(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
        return AIMessage("plain")

    @property
    def _llm_type(self) -> str:
        return "no-tools"


def test_the_base_bind_tools_is_not_abstract_it_raises_when_called() -> None:
    """Upstream's ``BaseChatModel.bind_tools`` (chat_models.py:2409) only raises: a model
    without its own is built and answers; binding tools to it, or structured output, fails."""
    assert not getattr(BaseChatModel.bind_tools, "__isabstractmethod__", False)
    assert "bind_tools" not in BaseChatModel.__abstractmethods__
    model = NoTools()
    assert model.invoke("hi").content == "plain"
    with pytest.raises(NotImplementedError) as e:
        model.bind_tools([check_weather])
    assert str(e.value) == ""
    with pytest.raises(NotImplementedError, match="^with_structured_output is not implemented"):
        model.with_structured_output(Weather)


# ---- with_structured_output ---------------------------------------------------------------


class Weather(BaseModel):
    """Weather report."""

    temperature: float


def structured(tool_calls: list[dict[str, Any]], schema: Any = Weather, **kw: Any) -> Any:
    model = EchoModel(tool_calls=tool_calls)
    return model, model.with_structured_output(schema, **kw)


def test_structured_output_binds_the_schema_as_a_forced_tool() -> None:
    model, runnable = structured([{"name": "Weather", "args": {"temperature": 75}, "id": "1"}])
    assert runnable.invoke("hi") == Weather(temperature=75.0)
    assert model.calls[0][1] == {"tools": [convert_to_openai_tool(Weather)], "tool_choice": "any"}


def test_structured_output_takes_the_first_tool_call_and_none_without_calls() -> None:
    _, runnable = structured(
        [
            {"name": "Weather", "args": {"temperature": 1}, "id": "1"},
            {"name": "Weather", "args": {"temperature": 2}, "id": "2"},
        ]
    )
    assert runnable.invoke("hi") == Weather(temperature=1)
    assert structured([])[1].invoke("hi") is None


def test_structured_output_errors() -> None:
    _, runnable = structured([{"name": "Other", "args": {}, "id": "1"}])
    with pytest.raises(OutputParserException) as exc:
        runnable.invoke("hi")
    assert str(exc.value) == (
        "Unknown tool type: 'Other'. Available tools: Weather\n"
        "For troubleshooting, visit: https://docs.langchain.com/oss/python/langchain/"
        "errors/OUTPUT_PARSING_FAILURE "
    )
    assert isinstance(exc.value, ValueError)
    _, runnable = structured([{"name": "Weather", "args": {"temperature": "hot"}, "id": "1"}])
    with pytest.raises(ValidationError):
        runnable.invoke("hi")


def test_structured_output_rejects_non_dict_args() -> None:
    class StrArgs(EchoModel):
        def _generate(self, messages: list[BaseMessage], **kwargs: Any) -> AIMessage:
            message = AIMessage("", tool_calls=[{"name": "Weather", "args": {}, "id": "1"}])
            message.tool_calls[0]["args"] = "75"  # e.g. a partial parse
            return message

    with pytest.raises(
        ValueError, match=r"^Tool arguments must be specified as a dict, received: 75$"
    ):
        StrArgs().with_structured_output(Weather).invoke("hi")


def test_structured_output_with_a_dict_schema_returns_the_args() -> None:
    schema = {"title": "Weather", "type": "object", "properties": {"t": {"type": "number"}}}
    model, runnable = structured(
        [
            {"name": "Other", "args": {"x": 1}, "id": "0"},
            {"name": "Weather", "args": {"t": "not validated"}, "id": "1"},
        ],
        schema,
    )
    assert runnable.invoke("hi") == {"t": "not validated"}
    assert model.calls[0][1]["tools"] == [schema]  # the dict passes through bind_tools
    assert structured([{"name": "Other", "args": {}, "id": "0"}], schema)[1].invoke("x") is None


def test_structured_output_include_raw() -> None:
    _, runnable = structured(
        [{"name": "Weather", "args": {"temperature": 3}, "id": "1"}], include_raw=True
    )
    out = runnable.invoke("hi")
    assert list(out) == ["raw", "parsed", "parsing_error"]
    assert out["parsed"] == Weather(temperature=3) and out["parsing_error"] is None
    assert isinstance(out["raw"], AIMessage) and out["raw"].tool_calls[0]["id"] == "1"

    _, runnable = structured([{"name": "Nope", "args": {}, "id": "1"}], include_raw=True)
    out = runnable.invoke("hi")
    assert list(out) == ["raw", "parsing_error", "parsed"]
    assert out["parsed"] is None and isinstance(out["parsing_error"], OutputParserException)


def test_structured_output_unsupported_arguments() -> None:
    model = EchoModel(tool_calls=[{"name": "Weather", "args": {"temperature": 1}, "id": "1"}])
    # method= and strict= are accepted and ignored, as upstream's base class does
    assert model.with_structured_output(Weather, method="json_schema", strict=True).invoke("x")
    with pytest.raises(ValueError, match=r"^Received unsupported arguments \{'foo': 1\}$"):
        model.with_structured_output(Weather, foo=1)
