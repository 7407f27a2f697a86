"""Day 14's fidelity pass: what the provider really receives, on miniagent and on upstream.

Every experiment runs ``create_agent`` with each side's ``ChatOpenAI`` against the loopback
server (``miniagent_course.lab.loopback``), so the request bodies compared are the ones on the
wire. The asserts after each comparison spell out what the Day 14 page claims:

* ``_patch_invalid_tool_calls`` answers only *invalid* tool calls: a valid call without a
  ``ToolMessage`` goes to the provider unchanged (``create_agent`` has no history check);
* seed 002: the runtime ``context`` reaches the payload only through what a middleware writes;
  ``model_settings`` become top-level payload keys; a ``thread_id`` restores the history before
  the new input is added; a restored thread is re-assembled by today's agent (the checkpoint
  holds no system prompt); ``count_tokens_approximately`` of the messages leaves out the tools;
* a thinking model's ``reasoning_content``: both ``ChatOpenAI`` drop it, ``ChatDeepSeek``
  (langchain-deepseek 1.1.1) keeps it in ``additional_kwargs`` but does not send it back;
* seed 004's example as written (a fake model for the real one): ``tools=[]`` builds a
  model-only graph, and a parameter's description goes into ``tools``, not the system message.
"""

import json
import warnings
from dataclasses import dataclass
from typing import Annotated, Any

import pytest

pytest.importorskip("langchain_openai")

from miniagent_course.lab.loopback import LoopbackServer, Reply, completion  # noqa: E402
from miniagent_course.sides import mini, upstream  # noqa: E402

REASONING = "The user means WO-7; look it up before answering."


@pytest.fixture(scope="module")
def sides():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return mini(), upstream()


def both(sides, experiment, *args):
    """``experiment`` on each side; the two results must be equal. Returns miniagent's."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        ours, theirs = (experiment(lib, *args) for lib in sides)
    assert ours == theirs
    return ours


def chat_openai(lib, url: str, model: str = "gpt-4o-mini") -> Any:
    if lib.name == "miniagent":
        from miniagent.openai import ChatOpenAI
    else:
        from langchain_openai import ChatOpenAI
    return ChatOpenAI(model=model, base_url=url, api_key="sk-test", max_retries=0)


def rows(body: dict[str, Any]) -> list[tuple[Any, ...]]:
    """The payload's messages as (role, content, tool-call ids or the answered id)."""
    out = []
    for m in body["messages"]:
        ids = [c["id"] for c in m.get("tool_calls", [])] or m.get("tool_call_id")
        out.append((m["role"], m.get("content"), ids))
    return out


# ---- 1. _patch_invalid_tool_calls patches invalid calls only -----------------------------------


def dangling(lib, kind: str) -> list[tuple[Any, ...]]:
    call = {"name": "get_order", "args": {"order_id": 7}, "id": "call_1"}
    bad = {"name": "get_order", "args": '{"order_id": 7', "id": "call_1", "error": None}
    if kind == "valid":
        ai = lib.AIMessage("", tool_calls=[call])
    else:
        ai = lib.AIMessage("", invalid_tool_calls=[bad])
    history = [lib.HumanMessage("Open WO-7"), ai, lib.HumanMessage("Move it to tomorrow")]
    with LoopbackServer([Reply.json(completion("ok"))]) as server:
        agent = lib.create_agent(chat_openai(lib, server.base_url), tools=[])
        agent.invoke({"messages": history})
    return rows(server.bodies[0])


def test_a_valid_call_without_an_answer_reaches_the_provider_unchanged(sides):
    sent = both(sides, dangling, "valid")
    assert [r[0] for r in sent] == ["user", "assistant", "user"]
    assert sent[1] == ("assistant", None, ["call_1"])  # no ToolMessage was added


def test_only_an_invalid_call_gets_an_error_tool_message(sides):
    sent = both(sides, dangling, "invalid")
    assert [r[0] for r in sent] == ["user", "assistant", "tool", "user"]
    assert sent[2][1].endswith("could not be executed - arguments were malformed or truncated.")


def saved_after_patch(lib) -> list[str]:
    bad = {"name": "get_order", "args": '{"order_id": 7', "id": "call_1", "error": None}
    history = [
        lib.HumanMessage("Open WO-7"),
        lib.AIMessage("", invalid_tool_calls=[bad]),
        lib.HumanMessage("Move it to tomorrow"),
    ]
    agent = lib.create_agent(lib.ScriptedChatModel([lib.AIMessage("ok")]), tools=[])
    return [m.type for m in agent.invoke({"messages": history})["messages"]]


def test_the_patch_is_saved_right_after_the_invalid_call(sides):
    assert both(sides, saved_after_patch) == ["human", "ai", "tool", "human", "ai"]


# ---- 2. seed 002 ------------------------------------------------------------------------------


@dataclass
class Staff:
    name: str
    staff_id: str


def with_context(lib) -> tuple[list[tuple[Any, ...]], bool]:
    @lib.mw.dynamic_prompt
    def prompt(request):
        return f"You handle work orders for {request.runtime.context.name}."

    with LoopbackServer([Reply.json(completion("ok"))]) as server:
        model = chat_openai(lib, server.base_url)
        agent = lib.create_agent(model, tools=[], middleware=[prompt], context_schema=Staff)
        agent.invoke({"messages": [("user", "hi")]}, context=Staff("Ana", "E-42"))
    body = server.bodies[0]
    return rows(body), "E-42" in json.dumps(body)


def test_runtime_context_reaches_the_payload_only_where_a_middleware_writes_it(sides):
    sent, staff_id_sent = both(sides, with_context)
    assert sent[0] == ("system", "You handle work orders for Ana.", None)
    assert staff_id_sent is False


def tool_reads_context(lib) -> tuple[list[tuple[str, Any]], dict[str, Any]]:
    # no `from __future__ import annotations` in this file: the tool's annotation must be the
    # class itself, resolved here, for the runtime to be injected
    if lib.name == "miniagent":
        from miniagent.prebuilt import ToolRuntime
    else:
        from langchain.tools import ToolRuntime

    @lib.tool
    def who_asks(runtime: ToolRuntime[Staff]) -> str:
        """The staff id of the person asking."""
        return runtime.context.staff_id

    call = {"name": "who_asks", "args": {}, "id": "call_1"}
    model = lib.ScriptedChatModel([lib.AIMessage("", tool_calls=[call]), lib.AIMessage("done")])
    agent = lib.create_agent(model, tools=[who_asks], context_schema=Staff)
    state = agent.invoke({"messages": [("user", "hi")]}, context=Staff("Ana", "E-42"))
    schema = lib.convert_to_openai_tool(who_asks)["function"]["parameters"]
    return [(m.type, m.content) for m in state["messages"]], schema


def test_a_tool_reads_the_context_through_its_runtime(sides):
    messages, schema = both(sides, tool_reads_context)
    assert ("tool", "E-42") in messages
    assert schema == {"properties": {}, "type": "object"}  # the runtime is not a parameter


def with_settings(lib) -> dict[str, Any]:
    @lib.mw.wrap_model_call
    def settings(request, handler):
        return handler(request.override(model_settings={"temperature": 0, "max_tokens": 50}))

    with LoopbackServer([Reply.json(completion("ok"))]) as server:
        model = chat_openai(lib, server.base_url)
        lib.create_agent(model, tools=[], middleware=[settings]).invoke(
            {"messages": [("user", "hi")]}
        )
    return {k: v for k, v in server.bodies[0].items() if k != "messages"}


def test_model_settings_become_top_level_payload_keys(sides):
    assert both(sides, with_settings) == {
        "model": "gpt-4o-mini",
        "stream": False,
        "max_completion_tokens": 50,  # ChatOpenAI renames max_tokens
        "temperature": 0,
    }


def restored(lib) -> tuple[list[tuple[Any, ...]], list[str]]:
    saver = lib.InMemorySaver()
    config = {"configurable": {"thread_id": "ana:1"}}
    replies = [Reply.json(completion("Opened WO-7.")), Reply.json(completion("Moved."))]
    with LoopbackServer(replies) as server:
        model = chat_openai(lib, server.base_url)
        yesterday = lib.create_agent(model, system_prompt="Rules v1.", checkpointer=saver)
        yesterday.invoke({"messages": [("user", "Open WO-7")]}, config)
        today = lib.create_agent(model, system_prompt="Rules v2.", checkpointer=saver)
        today.invoke({"messages": [("user", "Move it to tomorrow")]}, config)
    saved = [m.type for m in today.get_state(config).values["messages"]]
    return [r[:2] for r in rows(server.bodies[1])], saved


def test_a_restored_thread_is_reassembled_by_todays_agent(sides):
    second_request, saved = both(sides, restored)
    assert second_request == [
        ("system", "Rules v2."),  # today's prompt: the checkpoint holds none
        ("user", "Open WO-7"),  # restored
        ("assistant", "Opened WO-7."),  # restored
        ("user", "Move it to tomorrow"),  # the new input, added by the reducer
    ]
    assert saved == ["human", "ai", "human", "ai"]


def budget(lib) -> tuple[int, int]:
    from miniagent_course.kits.day14.cases import history

    if lib.name == "miniagent":
        from miniagent.messages.utils import count_tokens_approximately
    else:
        from langchain_core.messages.utils import count_tokens_approximately

    @lib.tool
    def get_order(order_id: int) -> str:
        """Look up a work order by its number and return every field of it."""
        return "WO-7"

    tools = [lib.convert_to_openai_tool(get_order)]
    messages = history(lib)
    return count_tokens_approximately(messages), count_tokens_approximately(messages, tools=tools)


def test_counting_the_messages_leaves_out_the_tool_schemas(sides):
    messages_only, with_tools = both(sides, budget)
    assert with_tools > messages_only


# ---- 3. reasoning_content across two turns ---------------------------------------------------


def reasoning_replies() -> list[Reply]:
    first = completion(None, [("call_1", "get_order", '{"order_id": 7}')])
    first["choices"][0]["message"]["reasoning_content"] = REASONING
    return [Reply.json(first), Reply.json(completion("WO-7 moved to tomorrow."))]


def two_turns(lib, make_model) -> tuple[dict[str, Any], dict[str, Any]]:
    """The first reply's ``additional_kwargs`` and the assistant turn of the second request."""

    @lib.tool
    def get_order(order_id: int) -> str:
        """Look up a work order."""
        return "WO-7: fix the pump"

    with LoopbackServer(reasoning_replies()) as server:
        agent = lib.create_agent(make_model(lib, server.base_url), tools=[get_order])
        state = agent.invoke({"messages": [("user", "Move WO-7 to tomorrow")]})
    return state["messages"][1].additional_kwargs, server.bodies[1]["messages"][1]


def test_chat_openai_drops_reasoning_content_on_both_sides(sides):
    kept, sent = both(sides, two_turns, chat_openai)
    assert "reasoning_content" not in kept
    assert "reasoning_content" not in sent


def deepseek(lib, url: str) -> Any:
    from langchain_deepseek import ChatDeepSeek

    return ChatDeepSeek(model="deepseek-reasoner", api_base=url, api_key="sk-test", max_retries=0)


def test_chat_deepseek_keeps_reasoning_content_but_does_not_send_it_back(sides):
    pytest.importorskip("langchain_deepseek")
    kept, sent = two_turns(sides[1], deepseek)
    assert kept["reasoning_content"] == REASONING
    assert sent == {
        "content": None,
        "role": "assistant",
        "tool_calls": [
            {
                "type": "function",
                "id": "call_1",
                "function": {"name": "get_order", "arguments": '{"order_id": 7}'},
            }
        ],
    }


# ---- 4. seed 004, as written ------------------------------------------------------------------


def seed_004(lib) -> list[tuple[str, list[tuple[str, Any]]]]:
    # Added around the article's example: `create_agent` from the side, a scripted model in
    # place of the Anthropic model string, and a `print` that keeps each chunk.
    create_agent = lib.create_agent
    weather_call = {"name": "check_weather", "args": {"location": "sf"}, "id": "call_1"}
    model = lib.ScriptedChatModel(
        [lib.AIMessage("", tool_calls=[weather_call]), lib.AIMessage("It's always sunny in sf!")]
    )
    chunks = []
    print = chunks.append  # noqa: A001

    def check_weather(location: str) -> str:
        """Return the weather forecast for the specified location."""
        return f"It's always sunny in {location}"

    graph = create_agent(
        model=model,
        tools=[check_weather],
        system_prompt="You are a helpful assistant",
    )
    inputs = {"messages": [{"role": "user", "content": "what is the weather in sf"}]}
    for chunk in graph.stream(inputs, stream_mode="updates"):
        print(chunk)

    return [
        (node, [(m.type, m.content) for m in update["messages"]])
        for chunk in chunks
        for node, update in chunk.items()
    ]


def test_seed_004_runs_as_written(sides):
    assert both(sides, seed_004) == [
        ("model", [("ai", "")]),
        ("tools", [("tool", "It's always sunny in sf")]),
        ("model", [("ai", "It's always sunny in sf!")]),
    ]


def model_only(lib, tools) -> tuple[list[str], str]:
    graph = lib.create_agent(lib.ScriptedChatModel([lib.AIMessage("ok")]), tools=tools)
    drawn = graph.get_graph()
    return list(drawn.nodes), drawn.draw_mermaid()


@pytest.mark.parametrize("tools", [[], None])
def test_no_tools_build_a_model_only_graph(sides, tools):
    nodes, mermaid = both(sides, model_only, tools)
    assert nodes == ["__start__", "model", "__end__"]
    assert "__start__ --> model;" in mermaid and "model --> __end__;" in mermaid


def no_tools_but_a_call(lib) -> list[tuple[str, list[str]]]:
    call = {"name": "check_weather", "args": {"location": "sf"}, "id": "call_1"}
    model = lib.ScriptedChatModel([lib.AIMessage("", tool_calls=[call]), lib.AIMessage("done")])
    state = lib.create_agent(model, tools=[]).invoke({"messages": [("user", "weather in sf?")]})
    return [(m.type, [c["name"] for c in getattr(m, "tool_calls", [])]) for m in state["messages"]]


def test_without_tools_a_returned_call_ends_the_run_unanswered(sides):
    assert both(sides, no_tools_but_a_call) == [("human", []), ("ai", ["check_weather"])]


def described(lib) -> tuple[dict[str, Any], list[dict[str, Any]]]:
    def check_weather(location: Annotated[str, "A city name, such as 'sf'"]) -> str:
        """Return the weather forecast for the specified location."""
        return f"It's always sunny in {location}"

    with LoopbackServer([Reply.json(completion("ok"))]) as server:
        model = chat_openai(lib, server.base_url)
        agent = lib.create_agent(
            model, tools=[check_weather], system_prompt="You are a helpful assistant"
        )
        agent.invoke({"messages": [("user", "what is the weather in sf")]})
    return server.bodies[0]["messages"][0], server.bodies[0]["tools"]


def test_a_parameter_description_goes_into_tools_not_the_system_message(sides):
    system, tools = both(sides, described)
    assert system == {"content": "You are a helpful assistant", "role": "system"}
    location = tools[0]["function"]["parameters"]["properties"]["location"]
    assert location == {"description": "A city name, such as 'sf'", "type": "string"}


def echoing_deepseek(lib, url: str) -> Any:
    from langchain_deepseek import ChatDeepSeek

    class EchoingDeepSeek(ChatDeepSeek):
        """Sends each assistant turn's reasoning_content back (the page's workaround)."""

        def _get_request_payload(self, input_, *, stop=None, **kwargs):
            payload = super()._get_request_payload(input_, stop=stop, **kwargs)
            messages = self._convert_input(input_).to_messages()
            for msg, sent in zip(messages, payload["messages"], strict=True):
                if "reasoning_content" in msg.additional_kwargs:
                    sent["reasoning_content"] = msg.additional_kwargs["reasoning_content"]
            return payload

    return EchoingDeepSeek(
        model="deepseek-reasoner", api_base=url, api_key="sk-test", max_retries=0
    )


def test_a_payload_override_sends_reasoning_content_back(sides):
    pytest.importorskip("langchain_deepseek")
    _, sent = two_turns(sides[1], echoing_deepseek)
    assert sent["reasoning_content"] == REASONING
    assert list(sent) == ["content", "role", "tool_calls", "reasoning_content"]
