"""The same scripts through miniagent's fake models and their upstream twins give the same result.

Upstream side: ``tests/runtime/sides/upstream_fakes.py`` (FakeToolCallingModel with the
semantics of langgraph-prebuilt's test helper, ScriptedChatModel) and langchain-core's own
``GenericFakeChatModel``, all on ``langchain_core.language_models.BaseChatModel``. Messages are compared by ``repr`` after
``normalize_ids`` (chat models give id-less replies a random ``lc_run--<uuid>`` id).
"""

from __future__ import annotations

from typing import Any

import pytest

pytest.importorskip("langchain_core")
pytest.importorskip("langgraph")

import sides.upstream_fakes as U  # noqa: E402
from langchain_core.callbacks import BaseCallbackHandler  # noqa: E402
from langchain_core.language_models.fake_chat_models import (  # noqa: E402
    GenericFakeChatModel as UpGenericFakeChatModel,
)
from langchain_core.messages import AIMessage as UpAIMessage  # noqa: E402
from langchain_core.messages import HumanMessage as UpHumanMessage  # noqa: E402
from langchain_core.tools import tool as up_tool  # noqa: E402
from pydantic import BaseModel  # noqa: E402

import miniagent.testing as M  # noqa: E402
from miniagent.messages import AIMessage as MiniAIMessage  # noqa: E402
from miniagent.messages import HumanMessage as MiniHumanMessage  # noqa: E402
from miniagent.testing import message_trace, normalize_ids  # noqa: E402
from miniagent.tools import tool as mini_tool  # noqa: E402


def same(mini: Any, up: Any) -> None:
    """Equal reprs after normalising random ids (works for messages, lists, dicts)."""
    assert repr(normalize_ids(mini)) == repr(normalize_ids(up))


def outcome(fn: Any) -> tuple[str, Any]:
    """("ok", result) or ("error", (exception class name, text))."""
    try:
        return "ok", fn()
    except Exception as e:
        return "error", (type(e).__name__, str(e))


def _search(query: str) -> str:
    """Search the web."""
    return query


def _lookup(key: int, exact: bool = False) -> str:
    """Look a key up."""
    return str(key)


TOOLS = {
    "mini": [mini_tool(_search), mini_tool(_lookup)],
    "up": [up_tool(_search), up_tool(_lookup)],
}
CALL_A = {"name": "search", "args": {"query": "a"}, "id": "call_a"}
CALL_B = {"name": "lookup", "args": {"key": 1}, "id": "call_b"}

INPUTS = [
    "hi",
    [("system", "Foo"), ("user", "hi?")],
    [{"role": "user", "content": "a"}, {"role": "assistant", "content": "b"}, "c"],
    [],
    ("user", "tuple"),
]


# ---- FakeToolCallingModel ---------------------------------------------------------------


@pytest.mark.parametrize(
    "tool_calls", [None, [], [[CALL_A], []], [[CALL_A, CALL_B], [CALL_B], []], [[]]]
)
def test_fake_replies_match(tool_calls: Any) -> None:
    mini = M.FakeToolCallingModel(tool_calls=tool_calls)
    up = U.FakeToolCallingModel(tool_calls=tool_calls)
    for inp in INPUTS + INPUTS:
        same(mini.invoke(inp), up.invoke(inp))
    assert mini.index == up.index == 2 * len(INPUTS)


def test_fake_stream_yields_the_whole_reply() -> None:
    mini = list(M.FakeToolCallingModel(tool_calls=[[CALL_A]]).stream("hi"))
    up = list(U.FakeToolCallingModel(tool_calls=[[CALL_A]]).stream("hi"))
    same(mini, up)


def test_fake_content_errors_match() -> None:
    blocks = [{"type": "text", "text": "x"}]
    mini = outcome(lambda: M.FakeToolCallingModel().invoke([MiniHumanMessage(blocks)]))
    up = outcome(lambda: U.FakeToolCallingModel().invoke([UpHumanMessage(blocks)]))
    assert mini == up and mini[0] == "error"


@pytest.mark.parametrize("tool_style", ["openai", "anthropic"])
def test_fake_bind_tools_match(tool_style: str) -> None:
    raw = {"type": "web_search_20250305", "name": "web_search", "max_uses": 2}
    mini = M.FakeToolCallingModel(tool_style=tool_style)
    up = U.FakeToolCallingModel(tool_style=tool_style)
    mini_bound = mini.bind_tools([*TOOLS["mini"], raw], tool_choice="any")
    up_bound = up.bind_tools([*TOOLS["up"], raw], tool_choice="any")
    assert mini_bound.kwargs == up_bound.kwargs
    assert mini_bound.bound is mini and up_bound.bound is up
    same(mini_bound.invoke("hi"), up_bound.invoke("hi"))


@pytest.mark.parametrize("bad", [[], (), [_search], [BaseModel], ["search"]])
def test_fake_bind_tools_errors_match(bad: list[Any]) -> None:
    mini = outcome(lambda: M.FakeToolCallingModel().bind_tools(bad))
    up = outcome(lambda: U.FakeToolCallingModel().bind_tools(bad))
    assert mini == up and mini[0] == "error"


def test_fake_structured_output_matches() -> None:
    mini = outcome(lambda: M.FakeToolCallingModel().with_structured_output(dict))
    up = outcome(lambda: U.FakeToolCallingModel().with_structured_output(dict))
    assert mini == up and mini[0] == "error"

    class Weather(BaseModel):
        temperature: float

    for response in [Weather(temperature=70), {"temperature": 70}]:
        mini_out = M.FakeToolCallingModel(structured_response=response).with_structured_output(
            Weather
        )
        up_out = U.FakeToolCallingModel(structured_response=response).with_structured_output(
            Weather
        )
        assert mini_out.invoke("x") == up_out.invoke("x") == response


# ---- ScriptedChatModel ------------------------------------------------------------------


def script(AI: type) -> list[Any]:
    return [
        AI("", id="ai-1", tool_calls=[CALL_A, CALL_B]),
        AI("It's sunny in SF.", id="ai-2"),
        AI("no id here"),
        AI("mixed  whitespace\nand words", tool_calls=[CALL_B]),
        AI(""),
        AI([{"type": "text", "text": "blocks"}], id="ai-6"),
        AI("x", invalid_tool_calls=[{"name": "t", "args": "not json", "id": "c", "error": None}]),
    ]


def both_scripted() -> tuple[M.ScriptedChatModel, U.ScriptedChatModel]:
    return M.ScriptedChatModel(script(MiniAIMessage)), U.ScriptedChatModel(script(UpAIMessage))


def test_scripted_replies_and_calls_match() -> None:
    mini, up = both_scripted()
    mini_bound = mini.bind_tools(TOOLS["mini"], tool_choice="any", parallel_tool_calls=False)
    up_bound = up.bind_tools(TOOLS["up"], tool_choice="any", parallel_tool_calls=False)
    assert mini_bound.kwargs == up_bound.kwargs
    for i, inp in enumerate(INPUTS + ["one", "two"]):
        runnable = (mini_bound, up_bound) if i % 2 else (mini, up)
        same(runnable[0].invoke(inp), runnable[1].invoke(inp))
    for mini_call, up_call in zip(mini.calls, up.calls, strict=True):
        assert mini_call["kwargs"] == up_call["kwargs"]
        assert message_trace(mini_call["messages"]) == message_trace(up_call["messages"])
    assert outcome(lambda: mini.invoke("more")) == outcome(lambda: up.invoke("more"))


def test_scripted_stream_chunks_match() -> None:
    mini, up = both_scripted()
    for _ in range(len(script(MiniAIMessage))):
        same(list(mini.stream("q")), list(up.stream("q")))


class UpRecorder(BaseCallbackHandler):
    """An upstream handler that makes invoke take the streaming path (like langgraph's)."""

    def __init__(self) -> None:
        self.chunks: list[Any] = []
        self.ends: list[Any] = []

    def tap_output_iter(self, run_id: Any, output: Any) -> Any:
        return output

    def tap_output_aiter(self, run_id: Any, output: Any) -> Any:
        return output

    def on_llm_new_token(self, token: str, *, chunk: Any = None, **kwargs: Any) -> None:
        self.chunks.append(chunk.message)

    def on_llm_end(self, response: Any, **kwargs: Any) -> None:
        self.ends.append(response.generations[0][0].message)


class MiniRecorder:
    wants_stream = True

    def __init__(self) -> None:
        self.chunks: list[Any] = []
        self.ends: list[Any] = []

    def on_chat_model_stream(self, chunk: Any, config: Any) -> None:
        self.chunks.append(chunk)

    def on_chat_model_end(self, message: Any, config: Any) -> None:
        self.ends.append(message)


def invoke_streaming(model: Any, recorder: Any, inp: Any = "q") -> tuple[str, Any]:
    result = outcome(lambda: model.invoke(inp, {"callbacks": [recorder]}))
    return result[0], (result[1], recorder.chunks, recorder.ends)


def test_scripted_streaming_path_matches_and_keeps_tool_calls() -> None:
    mini, up = both_scripted()
    for _ in range(len(script(MiniAIMessage))):
        mini_result = invoke_streaming(mini, MiniRecorder())
        up_result = invoke_streaming(up, UpRecorder())
        same(mini_result, up_result)
    mini, _ = both_scripted()
    reply = mini.invoke("q", {"callbacks": [MiniRecorder()]})
    assert [tc["id"] for tc in reply.tool_calls] == ["call_a", "call_b"]


# ---- GenericFakeChatModel (the streaming gotcha) ----------------------------------------


def generic_script(AI: type) -> list[Any]:
    return [
        "plain string",
        AI("calling tool", id="g1", tool_calls=[CALL_A]),
        AI("with kwargs", id="g2", additional_kwargs={"foo": 1, "bar": {"x": 2}}),
        AI("", id="g3", tool_calls=[CALL_A]),
        AI([{"type": "text", "text": "x"}], id="g4"),
    ]


def both_generic() -> tuple[M.GenericFakeChatModel, UpGenericFakeChatModel]:
    return (
        M.GenericFakeChatModel(messages=iter(generic_script(MiniAIMessage))),
        UpGenericFakeChatModel(messages=iter(generic_script(UpAIMessage))),
    )


def test_generic_fake_invoke_matches() -> None:
    mini, up = both_generic()
    for _ in generic_script(MiniAIMessage):
        same(mini.invoke("q"), up.invoke("q"))


def test_generic_fake_streaming_path_matches_and_drops_tool_calls() -> None:
    mini, up = both_generic()
    results = []
    for _ in generic_script(MiniAIMessage):
        mini_result = invoke_streaming(mini, MiniRecorder())
        up_result = invoke_streaming(up, UpRecorder())
        same(mini_result, up_result)
        results.append(mini_result)
    status, (reply, chunks, _) = results[1]
    assert status == "ok" and reply.tool_calls == []  # the gotcha, on both sides
    assert results[3][0] == "error"  # tool calls only: nothing streamed at all


def test_generic_fake_stream_matches() -> None:
    mini, up = both_generic()
    for _ in generic_script(MiniAIMessage):
        mini_result = outcome(lambda: list(mini.stream("q")))
        up_result = outcome(lambda: list(up.stream("q")))
        same(mini_result, up_result)


def test_generic_fake_structured_output_error_matches() -> None:
    mini, up = both_generic()
    assert outcome(lambda: mini.with_structured_output(dict)) == outcome(
        lambda: up.with_structured_output(dict)
    )
    assert outcome(lambda: mini.bind_tools([])) == outcome(lambda: up.bind_tools([]))


# ---- BaseChatModel: input coercion and with_structured_output ---------------------------


@pytest.mark.parametrize("bad", [42, None, 1.5, {"role": "user", "content": "hi"}])
def test_invalid_input_errors_match(bad: Any) -> None:
    mini = outcome(lambda: M.FakeToolCallingModel().invoke(bad))
    up = outcome(lambda: U.FakeToolCallingModel().invoke(bad))
    assert mini == up and mini[0] == "error"


def test_single_message_input_is_rejected_by_both() -> None:
    mini = outcome(lambda: M.FakeToolCallingModel().invoke(MiniHumanMessage("hi")))
    up = outcome(lambda: U.FakeToolCallingModel().invoke(UpHumanMessage("hi")))
    assert mini[0] == up[0] == "error"
    mini_text = mini[1][1].replace("miniagent.messages.human", "<module>")
    up_text = up[1][1].replace("langchain_core.messages.human", "<module>")
    assert mini_text == up_text


class Weather(BaseModel):
    """Weather report."""

    temperature: float


def structured_script(AI: type) -> list[Any]:
    return [
        AI("", tool_calls=[{"name": "Weather", "args": {"temperature": 75}, "id": "1"}]),
        AI("no tool call"),
        AI("", tool_calls=[{"name": "Other", "args": {"temperature": 1}, "id": "2"}]),
        AI("", tool_calls=[{"name": "Weather", "args": {"temperature": "hot"}, "id": "3"}]),
        AI(
            "",
            tool_calls=[
                {"name": "Other", "args": {}, "id": "4"},
                {"name": "Weather", "args": {"temperature": 2}, "id": "5"},
            ],
        ),
    ]


@pytest.mark.parametrize(
    "schema",
    [
        Weather,
        {"title": "Weather", "type": "object", "properties": {"temperature": {"type": "number"}}},
    ],
)
@pytest.mark.parametrize("include_raw", [False, True])
def test_structured_output_matches(schema: Any, include_raw: bool) -> None:
    mini = M.ScriptedChatModel(structured_script(MiniAIMessage))
    up = U.ScriptedChatModel(structured_script(UpAIMessage))
    mini_runnable = mini.with_structured_output(schema, include_raw=include_raw)
    up_runnable = up.with_structured_output(schema, include_raw=include_raw)
    for _ in structured_script(MiniAIMessage):
        mini_result = outcome(lambda: mini_runnable.invoke("q"))
        up_result = outcome(lambda: up_runnable.invoke("q"))
        if include_raw:
            mini_result, up_result = (
                (r[0], {**r[1], "parsing_error": outcome_of(r[1]["parsing_error"])})
                for r in (mini_result, up_result)
            )
        same(mini_result, up_result)
    for mini_call, up_call in zip(mini.calls, up.calls, strict=True):
        assert mini_call["kwargs"] == up_call["kwargs"]


def outcome_of(error: BaseException | None) -> Any:
    """An exception as (class name, first line of its text); pydantic texts name the version."""
    return None if error is None else (type(error).__name__, str(error).splitlines()[0])


def test_structured_output_unsupported_arguments_match() -> None:
    mini = outcome(lambda: M.ScriptedChatModel([]).with_structured_output(Weather, foo=1))
    up = outcome(lambda: U.ScriptedChatModel(responses=[]).with_structured_output(Weather, foo=1))
    assert mini == up and mini[0] == "error"


# ---- in an agent: stream_mode="messages" (spec §7.3) --------------------------------------


@pytest.mark.filterwarnings("ignore:create_react_agent has been moved:DeprecationWarning")
def test_messages_mode_agent_run_matches() -> None:
    """A tool-calling agent streamed in "messages" mode: same chunks with each fake."""
    from langgraph.prebuilt import create_react_agent as up_create_react_agent

    from miniagent.prebuilt import create_react_agent as mini_create_react_agent

    def check_weather(location: str) -> str:
        """Return the weather forecast for the specified location."""
        return f"It's always sunny in {location}"

    call = {"name": "check_weather", "args": {"location": "sf"}, "id": "call_1"}

    def replies(AI: type) -> list[Any]:
        return [AI("calling tool", id="ai-1", tool_calls=[call]), AI("Sunny in SF.")]

    class MiniGeneric(M.GenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self.bind(tools=tools)

    class UpGeneric(UpGenericFakeChatModel):
        def bind_tools(self, tools: Any, **kwargs: Any) -> Any:
            return self.bind(tools=tools)

    def run(create: Any, tool: Any, model: Any) -> list[Any]:
        agent = create(model, [tool(check_weather)])
        stream = list(agent.stream({"messages": [("user", "sf?")]}, stream_mode="messages"))
        trace = message_trace([chunk for chunk, _ in stream])  # one numbering for all ids
        return [
            (meta["langgraph_node"], meta["langgraph_step"], entry)
            for (_, meta), entry in zip(stream, trace, strict=True)
        ]

    for mini_model, up_model in [
        (M.ScriptedChatModel(replies(MiniAIMessage)), U.ScriptedChatModel(replies(UpAIMessage))),
        (
            MiniGeneric(messages=iter(replies(MiniAIMessage))),
            UpGeneric(messages=iter(replies(UpAIMessage))),
        ),
        (
            M.FakeToolCallingModel(tool_calls=[[call], []]),
            U.FakeToolCallingModel(tool_calls=[[call], []]),
        ),
    ]:
        mini = run(mini_create_react_agent, mini_tool, mini_model)
        up = run(up_create_react_agent, up_tool, up_model)
        assert mini == up
        assert len(mini) > 1
