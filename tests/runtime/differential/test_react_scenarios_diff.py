"""Upstream's create_react_agent scenarios, run through miniagent and the pinned upstream.

Each scenario is written once against a side ``ns`` (see ``scenario_helpers.py``) and run
twice: with miniagent's classes and with langgraph-prebuilt 1.1.3's (plus the upstream-side
fakes in ``tests/runtime/sides/upstream_fakes.py``). The normalised traces -- message types,
contents, names, tool calls, tool_call_ids, statuses, ids (uuids normalised), final state, and
the error class and exact text when something raises -- must be equal. Most scenarios also
assert what upstream's own test asserts, so a scenario cannot pass by failing identically on
both sides.

Numbers refer to the catalogue in ``upstream-spec.md`` §8.3 (tests of langgraph-prebuilt 1.1.3,
``tests/test_react_agent.py`` unless noted). Ported here:

| #  | upstream test                                   | here                                   |
|----|-------------------------------------------------|----------------------------------------|
| 1  | test_no_prompt[v1,v2]                           | test_01_no_prompt                      |
| 2  | test_no_prompt_async                            | test_02_no_prompt_async                |
| 3  | test_system_message_prompt                      | test_03_system_message_prompt          |
| 4  | test_string_prompt                              | test_04_string_prompt                  |
| 5  | test_callable_prompt / _async                   | test_05_callable_prompt[_async]        |
| 6  | test_runnable_prompt                            | test_06_runnable_prompt                |
| 7  | test_prompt_with_store[v1,v2] / _async          | test_07_prompt_with_store[_async]      |
| 8  | test_model_with_tools[style x version x builtin]| test_08_model_with_tools               |
| 9  | test__validate_messages                         | test_09_validate_chat_history          |
| 10 | test__infer_handled_types                       | test_10_infer_handled_types            |
| 11 | test_react_agent_with_structured_response       | test_11_structured_response            |
| 15 | test_create_react_agent_inject_vars (+post hook)| test_15_inject_vars[_post_model_hook]  |
| 18 | test_tool_node_messages_key                     | test_18_messages_key                   |
| 19 | test_return_direct[v1,v2]                       | test_19_return_direct                  |
| 20 | test_inspect_react                              | test_20_inspect_react                  |
| 21 | test_react_with_subgraph_tools[v1,v2]           | test_21_subgraph_tools                 |
| 25 | test_should_bind_tools[openai,anthropic]        | test_25_should_bind_tools              |
| 26 | test_get_model                                  | test_26_get_model                      |
| 27 | test_dynamic_model_basic                        | test_27_dynamic_model_basic            |
| 28 | test_dynamic_model_with_tools (+state-dependent)| test_28_dynamic_model_with_tools       |
| 29 | test_dynamic_model_with_context                 | test_29_dynamic_model_with_context     |
| 30 | test_dynamic_model_with_state_schema / _prompt  | test_30_dynamic_model_state_and_prompt |
| 31 | test_dynamic_model_async                        | test_31_dynamic_model_async            |
| 32 | test_dynamic_model_with_structured_response     | test_32_dynamic_structured_response    |
| 33 | test_dynamic_model_with_checkpointer            | test_33_dynamic_model_checkpointer     |
| 34 | test_dynamic_model_error_handling               | test_34_dynamic_model_error            |
| 35 | test_dynamic_model_receives_correct_state(+async)| test_35_dynamic_model_state[_async]   |
| 36 | test_pre_model_hook                             | test_36_pre_model_hook                 |
| 37 | test_post_model_hook                            | test_37_post_model_hook                |
| 38 | test_post_model_hook_with_structured_output     | test_38_post_hook_structured_output    |
| 40 | test_deprecation.py (both tests)                | test_40_config_schema / extra_kwargs   |

Tool-node scenarios (14, 16, 17, 41-52) are in ``test_tool_node_scenarios_diff.py``; the
remaining-steps table of spec §2.15 is in ``test_react_remaining_steps_diff.py``; 39 (graph
snapshots) is ``test_react_graph_diff.py``. Not ported: 12, 13, 24 (interrupts and resume),
22 (custom stream writer), 23 (subgraph streaming) -- the miniature has none of these -- and
53-58 (LangChain ``create_agent`` middleware, not part of this module).

Deviation in 7: upstream's second prompt returns ``SystemMessage("foo") + messages`` -- a
langchain-core ``ChatPromptTemplate`` that langgraph's ``RunnableCallable`` then invokes. The
miniature has no prompt templates, so the port returns the plain list ``[SystemMessage("foo"),
*messages]`` instead (same model input).
"""

import dataclasses
import inspect
from functools import partial
from typing import Annotated

import pytest

pytest.importorskip("langgraph")

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from pydantic import BaseModel, Field  # noqa: E402
from typing_extensions import TypedDict  # noqa: E402

from .scenario_helpers import (  # noqa: E402
    MINI,
    UPSTREAM,
    DictStore,
    assert_same,
    is_error,
    runtime_config,
)

VERSIONS = ["v1", "v2"]


def ids_and_contents(messages):
    return [(m.type, m.content) for m in messages]


# ---- 1-2: no prompt, with a checkpointer --------------------------------------------------


def no_prompt(ns, version="v2", use_async=False):
    saver = ns.InMemorySaver()
    agent = ns.create_react_agent(
        ns.FakeToolCallingModel(), [], checkpointer=saver, version=version
    )
    inputs = [ns.HumanMessage("hi?")]
    thread = {"configurable": {"thread_id": "123"}}
    if use_async:
        import asyncio

        response = asyncio.run(agent.ainvoke({"messages": inputs}, thread))
    else:
        response = agent.invoke({"messages": inputs}, thread)
    assert response == {"messages": inputs + [ns.AIMessage(content="hi?", id="0")]}
    saved = saver.get_tuple(thread)
    return {
        "response": response,
        "channel_values": saved.checkpoint["channel_values"],
        "metadata": {k: saved.metadata[k] for k in ("source", "step")},
    }


@pytest.mark.parametrize("version", VERSIONS)
def test_01_no_prompt(version):
    result = assert_same(no_prompt, version=version)
    assert list(result["channel_values"]) == ["messages"]
    assert result["metadata"] == {"source": "loop", "step": 1}


def test_02_no_prompt_async():
    result = assert_same(no_prompt, use_async=True)
    assert [m["content"] for m in result["channel_values"]["messages"]] == ["hi?", "hi?"]


# ---- 3-6: the four prompt forms ------------------------------------------------------------


def prompt_agent(ns, prompt_kind):
    if prompt_kind == "system_message":
        prompt = ns.SystemMessage(content="Foo")
    elif prompt_kind == "string":
        prompt = "Foo"
    elif prompt_kind == "callable":

        def prompt(state):
            return [ns.HumanMessage(content=f"Bar {state['messages'][-1].content}")]

    else:
        prompt = ns.RunnableLambda(
            lambda state: [ns.HumanMessage(content=f"Baz {state['messages'][-1].content}")]
        )
    agent = ns.create_react_agent(ns.FakeToolCallingModel(), [], prompt=prompt)
    return agent.invoke({"messages": [ns.HumanMessage("hi?", id="h")]})


def test_03_system_message_prompt():
    result = assert_same(prompt_agent, prompt_kind="system_message")
    assert [m["content"] for m in result["messages"]] == ["hi?", "Foo-hi?"]


def test_04_string_prompt():
    result = assert_same(prompt_agent, prompt_kind="string")
    assert [m["content"] for m in result["messages"]] == ["hi?", "Foo-hi?"]


def test_05_callable_prompt():
    result = assert_same(prompt_agent, prompt_kind="callable")
    assert result["messages"][-1]["content"] == "Bar hi?"


async def _async_prompt_run(ns, use_async):
    async def prompt(state):
        return [ns.HumanMessage(content=f"Bar {state['messages'][-1].content}")]

    agent = ns.create_react_agent(ns.FakeToolCallingModel(), [], prompt=prompt)
    inputs = {"messages": [ns.HumanMessage("hi?", id="h")]}
    if use_async:
        return await agent.ainvoke(inputs)
    return agent.invoke(inputs)  # an async-only prompt on the sync path fails


@pytest.mark.parametrize("use_async", [True, False], ids=["ainvoke", "invoke"])
def test_05_callable_prompt_async(use_async):
    result = assert_same(_async_prompt_run, use_async=use_async)
    if use_async:
        assert result["messages"][-1]["content"] == "Bar hi?"
    else:
        assert is_error(result) and result[1] == "TypeError"


def test_06_runnable_prompt():
    result = assert_same(prompt_agent, prompt_kind="runnable")
    assert result["messages"][-1]["content"] == "Baz hi?"


# ---- 7: a prompt that reads the store ------------------------------------------------------


def _memories() -> DictStore:
    store = DictStore()
    store.put(("memories", "1"), "user_name", {"data": "User name is Alice"})
    store.put(("memories", "2"), "user_name", {"data": "User name is Bob"})
    return store


def prompt_with_store(ns, version):
    def add(a: int, b: int):
        """Adds a and b"""
        return a + b

    store = _memories()

    def prompt(state, config, *, store):
        system = store.get(("memories", config["configurable"]["user_id"]), "user_name")
        return [ns.SystemMessage(system.value["data"])] + state["messages"]

    def prompt_no_store(state, config):
        return [ns.SystemMessage("foo")] + state["messages"]

    model = ns.FakeToolCallingModel()
    results = []
    for p, user in ((prompt, "1"), (prompt_no_store, "2")):
        agent = ns.create_react_agent(model, [add], prompt=p, store=store, version=version)
        results.append(
            agent.invoke({"messages": [("user", "hi")]}, {"configurable": {"user_id": user}})
        )
    return results


@pytest.mark.parametrize("version", VERSIONS)
def test_07_prompt_with_store(version):
    first, second = assert_same(prompt_with_store, version=version)
    assert first["messages"][-1]["content"] == "User name is Alice-hi"
    assert second["messages"][-1]["content"] == "foo-hi"


async def prompt_with_store_async(ns):
    async def add(a: int, b: int):
        """Adds a and b"""
        return a + b

    store = _memories()

    async def prompt(state, config, *, store):
        system = store.get(("memories", config["configurable"]["user_id"]), "user_name")
        return [ns.SystemMessage(system.value["data"])] + state["messages"]

    agent = ns.create_react_agent(ns.FakeToolCallingModel(), [add], prompt=prompt, store=store)
    return await agent.ainvoke({"messages": [("user", "hi")]}, {"configurable": {"user_id": "1"}})


def test_07_prompt_with_store_async():
    result = assert_same(prompt_with_store_async)
    assert result["messages"][-1]["content"] == "User name is Alice-hi"


# ---- 8: a model passed already bound --------------------------------------------------------

MCP_TOOL = {
    "type": "mcp",
    "server_label": "atest_sever",
    "server_url": "https://some.mcp.somewhere.com/sse",
    "headers": {"foo": "bar"},
    "allowed_tools": ["mcp_tool_1", "set_active_account"],
    "require_approval": "never",
}


def model_with_tools(ns, tool_style, version, include_builtin):
    model = ns.FakeToolCallingModel(tool_style=tool_style)

    @ns.tool
    def tool1(some_val: int) -> str:
        """Tool 1 docstring."""
        return f"Tool 1: {some_val}"

    @ns.tool
    def tool2(some_val: int) -> str:
        """Tool 2 docstring."""
        return f"Tool 2: {some_val}"

    tools = [tool1, tool2] + ([MCP_TOOL] if include_builtin else [])
    agent = ns.create_react_agent(model.bind_tools(tools), tools, version=version)
    calls = [
        {"name": "tool1", "args": {"some_val": 2}, "id": "some 1"},
        {"name": "tool2", "args": {"some_val": 2}, "id": "some 2"},
    ]
    result = agent.nodes["tools"].invoke(
        {"messages": [ns.AIMessage("hi?", tool_calls=calls)]}, config=runtime_config(ns)
    )
    errors = []
    for bound, passed in (([tool1], [tool1, tool2]), ([tool1], [tool2])):
        try:
            ns.create_react_agent(model.bind_tools(bound), passed)
        except ValueError as e:
            errors.append(str(e))
    return {"tools_node": result, "errors": errors}


@pytest.mark.parametrize("tool_style", ["openai", "anthropic"])
@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("include_builtin", [True, False])
def test_08_model_with_tools(tool_style, version, include_builtin):
    result = assert_same(
        model_with_tools, tool_style=tool_style, version=version, include_builtin=include_builtin
    )
    assert [m["content"] for m in result["tools_node"]["messages"]] == ["Tool 1: 2", "Tool 2: 2"]
    assert len(result["errors"]) == 2


# ---- 9-10: helpers called directly ----------------------------------------------------------


def validate_chat_history(ns):
    H, A, T = ns.HumanMessage, ns.AIMessage, ns.ToolMessage
    weather = {"id": "call1", "name": "get_weather", "args": {}}
    time = {"id": "call2", "name": "get_time", "args": {}}
    histories = [
        [],
        [H("What's the weather?")],
        [H("What's the weather?"), A("The weather is sunny and 75°F.")],
        [
            H("q"),
            A("Let me check.", tool_calls=[weather]),
            T("Sunny", tool_call_id="call1"),
            A("ok"),
        ],
        [A("I'll check that for you.", tool_calls=[weather, time])],
        [H("q"), A("checking", tool_calls=[weather, time]), T("Sunny", tool_call_id="call1")],
        # more than three orphans: only the first three are listed
        [A("x", tool_calls=[{"id": f"c{i}", "name": "t", "args": {"i": i}} for i in range(5)])],
    ]
    outcomes = []
    for history in histories:
        try:
            ns._validate_chat_history(history)
            outcomes.append("ok")
        except ValueError as e:
            outcomes.append(str(e))
    return outcomes


def test_09_validate_chat_history():
    outcomes = assert_same(validate_chat_history)
    assert outcomes[:4] == ["ok"] * 4
    assert all(o.startswith("Found AIMessages with tool_calls") for o in outcomes[4:])
    assert "'c2'" in outcomes[6] and "'c3'" not in outcomes[6]


# A history as data: ("human" | "system", text), ("ai" | "chunk", call ids), ("tool", answered id).
CALL_IDS = st.sampled_from(["a", "b", "c", "d", None])
HISTORY_ENTRY = st.one_of(
    st.tuples(st.sampled_from(["human", "system"]), st.sampled_from(["hi", "x"])),
    st.tuples(st.sampled_from(["ai", "chunk"]), st.lists(CALL_IDS, max_size=4)),
    st.tuples(st.just("tool"), st.sampled_from(["a", "b", "c", "e"])),
)


def validate_generated_history(ns, entries):
    history = []
    for kind, value in entries:
        if kind in ("human", "system"):
            history.append((ns.HumanMessage if kind == "human" else ns.SystemMessage)(value))
        elif kind == "tool":
            history.append(ns.ToolMessage("r", tool_call_id=value))
        else:
            calls = [{"name": "t", "args": {"i": i}, "id": id_} for i, id_ in enumerate(value)]
            cls = ns.AIMessage if kind == "ai" else ns.AIMessageChunk
            history.append(cls("", tool_calls=calls))
    return ns._validate_chat_history(history)


@settings(max_examples=300, deadline=None)
@given(st.lists(HISTORY_ENTRY, max_size=12))
def test_09_validate_chat_history_on_generated_histories(entries):
    """Same outcome as upstream (None, or the same error text) on any history, chunks and
    unanswerable ``None`` ids too."""
    assert_same(validate_generated_history, entries=entries)


def infer_handled_types(ns):
    def handle(e):
        return ""

    def handle2(e: Exception) -> str:
        return ""

    def handle3(e: ValueError | ns.ToolException) -> str:
        return ""

    class Handler:
        def handle(self, e: ValueError) -> str:
            return ""

    def handle5(e: TypeError | ValueError | ns.ToolException):
        return ""

    def bad1(e: str):
        return ""

    def bad2(e: list[Exception]):
        return ""

    def bad3(e: str | int):
        return ""

    results = []
    for handler in (handle, handle2, handle3, Handler().handle, handle5, bad1, bad2, bad3):
        try:
            results.append([t.__name__ for t in ns._infer_handled_types(handler)])
        except ValueError as e:
            results.append(str(e))
    return results


def test_10_infer_handled_types():
    results = assert_same(infer_handled_types)
    assert results[:5] == [
        ["Exception"],
        ["Exception"],
        ["ValueError", "ToolException"],
        ["ValueError"],
        ["TypeError", "ValueError", "ToolException"],
    ]
    assert all(isinstance(r, str) for r in results[5:])


# ---- 11: structured response ----------------------------------------------------------------


class WeatherResponse(BaseModel):
    temperature: float = Field(description="The temperature in fahrenheit")


def structured_response(ns, version):
    def get_weather():
        """Get the weather"""
        return "The weather is sunny and 75°F."

    model = ns.FakeToolCallingModel(
        tool_calls=[[{"args": {}, "id": "1", "name": "get_weather"}], []],
        structured_response=WeatherResponse(temperature=75),
    )
    results = []
    for response_format in (WeatherResponse, ("Meow", WeatherResponse)):
        agent = ns.create_react_agent(
            model, [get_weather], response_format=response_format, version=version
        )
        results.append(agent.invoke({"messages": [ns.HumanMessage("What's the weather?")]}))
    return results


@pytest.mark.parametrize("version", VERSIONS)
def test_11_structured_response(version):
    for result in assert_same(structured_response, version=version):
        assert result["structured_response"] == {"WeatherResponse": {"temperature": 75.0}}
        assert len(result["messages"]) == 4
        assert result["messages"][-2]["content"] == "The weather is sunny and 75°F."


# ---- 15: InjectedState and InjectedStore inside the agent ----------------------------------


def inject_vars(ns, version, pydantic_state, with_post_hook=False):
    store = DictStore()
    store.put(("test",), "test_key", {"bar": 3})
    if pydantic_state:

        class State(ns.AgentStatePydantic):
            foo: int

        def tool1(
            some_val: int,
            state: Annotated[State, ns.InjectedState],
            store: Annotated[DictStore, ns.InjectedStore()],
        ) -> str:
            """Tool 1 docstring."""
            return some_val + state.foo + store.get(("test",), "test_key").value["bar"]

    else:

        class State(ns.AgentState):
            foo: int

        def tool1(
            some_val: int,
            state: Annotated[dict, ns.InjectedState],
            store: Annotated[DictStore, ns.InjectedStore()],
        ) -> str:
            """Tool 1 docstring."""
            return some_val + state["foo"] + store.get(("test",), "test_key").value["bar"]

    call = {"name": "tool1", "args": {"some_val": 1}, "id": "some 0", "type": "tool_call"}
    hook = {"post_model_hook": lambda state: {"foo": 2}} if with_post_hook else {}
    agent = ns.create_react_agent(
        ns.FakeToolCallingModel(tool_calls=[[call], []]),
        ns.ToolNode([tool1], handle_tool_errors=False),
        state_schema=State,
        store=store,
        version=version,
        **hook,
    )
    return agent.invoke({"messages": [{"role": "user", "content": "hi"}], "foo": 2})


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("pydantic_state", [False, True], ids=["typeddict", "pydantic"])
def test_15_inject_vars(version, pydantic_state):
    result = assert_same(inject_vars, version=version, pydantic_state=pydantic_state)
    assert [m["content"] for m in result["messages"]] == ["hi", "hi", "6", "hi-hi-6"]
    assert result["foo"] == 2


@pytest.mark.parametrize("pydantic_state", [False, True], ids=["typeddict", "pydantic"])
def test_15_inject_vars_post_model_hook(pydantic_state):
    result = assert_same(
        inject_vars, version="v2", pydantic_state=pydantic_state, with_post_hook=True
    )
    assert [m["content"] for m in result["messages"]] == ["hi", "hi", "6", "hi-hi-6"]


# ---- 18: ToolNode and tools_condition over a custom messages key -----------------------------


def messages_key(ns):
    @ns.tool
    def add(a: int, b: int):
        """Adds a and b."""
        return a + b

    model = ns.FakeToolCallingModel(
        tool_calls=[[ns.ToolCall(name="add", args={"a": 1, "b": 2}, id="test_id")]]
    )

    class State(TypedDict):
        subgraph_messages: Annotated[list[ns.AnyMessage], ns.add_messages]

    def call_model(state):
        response = model.invoke(state["subgraph_messages"])
        model.tool_calls = []
        return {"subgraph_messages": response}

    builder = ns.StateGraph(State)
    builder.add_node("agent", call_model)
    builder.add_node("tools", ns.ToolNode([add], messages_key="subgraph_messages"))
    builder.add_conditional_edges(
        "agent", partial(ns.tools_condition, messages_key="subgraph_messages")
    )
    builder.add_edge(ns.START, "agent")
    builder.add_edge("tools", "agent")
    return builder.compile().invoke({"subgraph_messages": [ns.HumanMessage(content="hi")]})


def test_18_messages_key():
    result = assert_same(messages_key)
    assert [m["content"] for m in result["subgraph_messages"]] == ["hi", "hi", "3", "hi-hi-3"]


# ---- 19: return_direct -------------------------------------------------------------------------


def return_direct(ns, version):
    @ns.tool(return_direct=True)
    def tool_return_direct(input: str) -> str:
        """A tool that returns directly."""
        return f"Direct result: {input}"

    @ns.tool
    def tool_normal(input: str) -> str:
        """A normal tool."""
        return f"Normal result: {input}"

    direct = {"name": "tool_return_direct", "args": {"input": "Test direct"}, "id": "1"}
    normal = {"name": "tool_normal", "args": {"input": "Test normal"}, "id": "2"}
    both = [
        {"name": "tool_return_direct", "args": {"input": "Test both direct"}, "id": "3"},
        {"name": "tool_normal", "args": {"input": "Test both normal"}, "id": "4"},
    ]
    results = []
    for calls, text in (([direct], "Test direct"), ([normal], "Test normal"), (both, "Test both")):
        model = ns.FakeToolCallingModel(tool_calls=[calls, []])
        agent = ns.create_react_agent(model, [tool_return_direct, tool_normal], version=version)
        results.append(agent.invoke({"messages": [ns.HumanMessage(content=text, id="hum")]}))
    return results


@pytest.mark.parametrize("version", VERSIONS)
def test_19_return_direct(version):
    direct, normal, both = assert_same(return_direct, version=version)
    assert [m["type"] for m in direct["messages"]] == ["human", "ai", "tool"]
    assert normal["messages"][-1]["content"] == "Test normal-Test normal-Normal result: Test normal"
    assert [m["type"] for m in both["messages"]] == ["human", "ai", "tool", "tool"]


# ---- 20: the agent node's function can be inspected -------------------------------------------


def inspect_react(ns):
    agent = ns.create_react_agent(ns.FakeToolCallingModel(tool_calls=[]), [])
    func = agent.nodes["agent"].bound.func
    closure = inspect.getclosurevars(func)
    return {"name": func.__name__, "has_nonlocals": bool(closure.nonlocals)}


def test_20_inspect_react():
    assert assert_same(inspect_react) == {"name": "call_model", "has_nonlocals": True}


# ---- 21: tools that run compiled graphs ---------------------------------------------------------


def subgraph_tools(ns, version):
    class State(TypedDict):
        a: int
        b: int

    def add(state):
        return {"result": state["a"] + state["b"]}

    def multiply(state):
        return {"result": state["a"] * state["b"]}

    class Both(TypedDict):
        a: int
        b: int
        result: int

    adder = ns.StateGraph(Both).add_node("add", add).add_edge(ns.START, "add").compile()
    multiplier = (
        ns.StateGraph(Both).add_node("multiply", multiply).add_edge(ns.START, "multiply").compile()
    )

    def addition(a: int, b: int):
        """Add two numbers"""
        return adder.invoke({"a": a, "b": b})["result"]

    def multiplication(a: int, b: int):
        """Multiply two numbers"""
        return multiplier.invoke({"a": a, "b": b})["result"]

    model = ns.FakeToolCallingModel(
        tool_calls=[
            [
                {"args": {"a": 2, "b": 3}, "id": "1", "name": "addition"},
                {"args": {"a": 2, "b": 3}, "id": "2", "name": "multiplication"},
            ],
            [],
        ]
    )
    agent = ns.create_react_agent(
        model,
        ns.ToolNode([addition, multiplication], handle_tool_errors=False),
        checkpointer=ns.InMemorySaver(),
        version=version,
    )
    return agent.invoke(
        {"messages": [ns.HumanMessage(content="What's 2 + 3 and 2 * 3?")]},
        config={"configurable": {"thread_id": "1"}},
    )


@pytest.mark.parametrize("version", VERSIONS)
def test_21_subgraph_tools(version):
    result = assert_same(subgraph_tools, version=version)
    assert [m["content"] for m in result["messages"][2:4]] == ["5", "6"]
    assert result["messages"][-1]["content"].endswith("-5-6")


# ---- 25-26: _should_bind_tools and _get_model ---------------------------------------------------


def should_bind_tools(ns, tool_style):
    @ns.tool
    def some_tool(some_val: int) -> str:
        """Tool docstring."""
        return "meow"

    @ns.tool
    def some_other_tool(some_val: int) -> str:
        """Tool docstring."""
        return "meow"

    model = ns.FakeToolCallingModel(tool_style=tool_style)
    seq = model | ns.RunnableLambda(lambda message: message)
    bound = model.bind_tools([some_tool])
    bound_seq = bound | ns.RunnableLambda(lambda message: message)
    cases = [
        (model, []),
        (model, [some_tool]),
        (seq, []),
        (seq, [some_tool]),
        (bound, [some_tool]),
        (bound_seq, [some_tool]),
        (bound, []),
        (bound, [some_other_tool]),
        (bound, [some_tool, some_other_tool]),
        (model.bind(stop=["x"]), [some_tool]),
        (model.bind_tools([some_tool, MCP_TOOL]), [some_tool]),
    ]
    results = []
    for m, tools in cases:
        try:
            results.append(ns._should_bind_tools(m, tools))
        except ValueError as e:
            results.append(str(e))
    try:
        results.append(
            ns._should_bind_tools(model.bind_tools([some_tool, MCP_TOOL]), [some_tool], 1)
        )
    except ValueError as e:
        results.append(str(e))
    return results


@pytest.mark.parametrize("tool_style", ["openai", "anthropic"])
def test_25_should_bind_tools(tool_style):
    results = assert_same(should_bind_tools, tool_style=tool_style)
    assert results[:6] == [True, True, True, True, False, False]
    assert all(isinstance(r, str) for r in results[6:9])
    assert results[9] is True and results[11] is False


def get_model(ns):
    @ns.tool
    def some_tool(some_val: int) -> str:
        """Tool docstring."""
        return "meow"

    model = ns.FakeToolCallingModel(tool_calls=[])
    identity = ns.RunnableLambda(lambda message: message)
    found = [
        ns._get_model(m) is model for m in (model, model.bind_tools([some_tool]), model | identity)
    ]
    found.append(ns._get_model(model.bind_tools([some_tool]) | identity) is model)
    try:
        ns._get_model(ns.RunnableLambda(lambda message: message))
    except TypeError as e:
        found.append(type(e).__name__)
    return found


def test_26_get_model():
    assert assert_same(get_model) == [True, True, True, True, "TypeError"]


# ---- 27-35: dynamic models ------------------------------------------------------------------------


def dynamic_model_basic(ns, version):
    def dynamic_model(state, runtime):
        return ns.FakeToolCallingModel(tool_calls=[])

    agent = ns.create_react_agent(dynamic_model, [], version=version)
    return [
        agent.invoke({"messages": [ns.HumanMessage("hello", id="h")]}),
        agent.invoke({"messages": [ns.HumanMessage("urgent help", id="h")]}),
    ]


@pytest.mark.parametrize("version", VERSIONS)
def test_27_dynamic_model_basic(version):
    first, second = assert_same(dynamic_model_basic, version=version)
    assert [m["content"] for m in first["messages"]] == ["hello", "hello"]
    assert [m["content"] for m in second["messages"]] == ["urgent help", "urgent help"]


def dynamic_model_with_tools(ns, version):
    @ns.tool
    def basic_tool(x: int) -> str:
        """Basic tool."""
        return f"basic: {x}"

    @ns.tool
    def advanced_tool(x: int) -> str:
        """Advanced tool."""
        return f"advanced: {x}"

    def dynamic_model(state, runtime):
        name = "advanced_tool" if "advanced" in state["messages"][-1].content else "basic_tool"
        return ns.FakeToolCallingModel(
            tool_calls=[[{"args": {"x": 1}, "id": "1", "name": name}], []]
        )

    def state_dependent(state, runtime):
        use_b = any("use_b" in m.content for m in state["messages"])
        call = {
            "args": {"x": 2 if use_b else 1},
            "id": "1",
            "name": "tool_b" if use_b else "tool_a",
        }
        return ns.FakeToolCallingModel(tool_calls=[[call], []])

    @ns.tool
    def tool_a(x: int) -> str:
        """Tool A."""
        return f"A: {x}"

    @ns.tool
    def tool_b(x: int) -> str:
        """Tool B."""
        return f"B: {x}"

    agent = ns.create_react_agent(dynamic_model, [basic_tool, advanced_tool], version=version)
    other = ns.create_react_agent(state_dependent, [tool_a, tool_b], version=version)
    return [
        agent.invoke({"messages": [ns.HumanMessage("basic request", id="h")]}),
        agent.invoke({"messages": [ns.HumanMessage("advanced request", id="h")]}),
        other.invoke({"messages": [ns.HumanMessage("use_b please", id="h")]}),
        other.invoke({"messages": [ns.HumanMessage("hello", id="h")]}),
    ]


@pytest.mark.parametrize("version", VERSIONS)
def test_28_dynamic_model_with_tools(version):
    results = assert_same(dynamic_model_with_tools, version=version)
    # the second model reply has the same id "0" as the first and replaces it (add_messages)
    assert [len(r["messages"]) for r in results] == [3, 3, 3, 3]
    assert [r["messages"][-1]["content"] for r in results] == [
        "basic: 1",
        "advanced: 1",
        "B: 2",
        "A: 1",
    ]


@dataclasses.dataclass
class Context:
    user_id: str


def dynamic_model_with_context(ns, version):
    seen = []

    def dynamic_model(state, runtime):
        seen.append(runtime.context.user_id)
        return ns.FakeToolCallingModel(tool_calls=[])

    agent = ns.create_react_agent(dynamic_model, [], context_schema=Context, version=version)
    results = [
        agent.invoke({"messages": [ns.HumanMessage("hello", id="h")]}, context=Context(user))
        for user in ("user_basic", "user_premium")
    ]
    return {"results": results, "seen": seen}


@pytest.mark.parametrize("version", VERSIONS)
def test_29_dynamic_model_with_context(version):
    result = assert_same(dynamic_model_with_context, version=version)
    assert result["seen"] == ["user_basic", "user_premium"]
    assert [len(r["messages"]) for r in result["results"]] == [2, 2]


def dynamic_model_state_and_prompt(ns, version):
    class CustomDynamicState(ns.AgentState):
        model_preference: str

    def dynamic_model(state, runtime):
        return ns.FakeToolCallingModel(tool_calls=[])

    def dynamic_prompt(state):
        return [{"role": "system", "content": "system_msg"}] + list(state["messages"])

    results = []
    agent = ns.create_react_agent(
        dynamic_model, [], state_schema=CustomDynamicState, version=version
    )
    results.append(
        agent.invoke(
            {"messages": [ns.HumanMessage("hello", id="h")], "model_preference": "advanced"}
        )
    )
    for prompt in ("system_msg", dynamic_prompt):
        agent = ns.create_react_agent(dynamic_model, [], prompt=prompt, version=version)
        results.append(agent.invoke({"messages": [ns.HumanMessage("human_msg", id="h")]}))
    return results


@pytest.mark.parametrize("version", VERSIONS)
def test_30_dynamic_model_state_and_prompt(version):
    with_state, with_str, with_callable = assert_same(
        dynamic_model_state_and_prompt, version=version
    )
    assert with_state["model_preference"] == "advanced"
    assert with_str["messages"][-1]["content"] == "system_msg-human_msg"
    assert with_callable["messages"][-1]["content"] == "system_msg-human_msg"


async def dynamic_model_async(ns, async_callable):
    if async_callable:

        async def dynamic_model(state, runtime):
            return ns.FakeToolCallingModel(tool_calls=[])

    else:

        def dynamic_model(state, runtime):
            return ns.FakeToolCallingModel(tool_calls=[])

    agent = ns.create_react_agent(dynamic_model, [])
    result = await agent.ainvoke({"messages": [ns.HumanMessage("hello async", id="h")]})
    try:  # an async model callable cannot run on the sync path
        agent.invoke({"messages": [ns.HumanMessage("sync", id="h")]})
        sync = "ok"
    except RuntimeError as e:
        sync = str(e)
    return {"result": result, "sync": sync}


@pytest.mark.parametrize("async_callable", [False, True], ids=["sync_callable", "async_callable"])
def test_31_dynamic_model_async(async_callable):
    result = assert_same(dynamic_model_async, async_callable=async_callable)
    assert result["result"]["messages"][-1]["content"] == "hello async"
    assert (result["sync"] == "ok") is not async_callable


class TestResponse(BaseModel):
    __test__ = False  # not a pytest class
    message: str
    confidence: float


def dynamic_structured_response(ns, version):
    def dynamic_model(state, runtime):
        expected = TestResponse(message="dynamic response", confidence=0.9)
        return ns.FakeToolCallingModel(tool_calls=[], structured_response=expected)

    agent = ns.create_react_agent(dynamic_model, [], response_format=TestResponse, version=version)
    return agent.invoke({"messages": [ns.HumanMessage("hello", id="h")]})


@pytest.mark.parametrize("version", VERSIONS)
def test_32_dynamic_structured_response(version):
    result = assert_same(dynamic_structured_response, version=version)
    assert result["structured_response"] == {
        "TestResponse": {"message": "dynamic response", "confidence": 0.9}
    }


def dynamic_model_checkpointer(ns):
    calls = []

    def dynamic_model(state, runtime):
        calls.append(len(state["messages"]))
        return ns.FakeToolCallingModel(tool_calls=[], index=len(calls))

    agent = ns.create_react_agent(dynamic_model, [], checkpointer=ns.InMemorySaver())
    config = {"configurable": {"thread_id": "test_dynamic"}}
    first = agent.invoke({"messages": [ns.HumanMessage("hello", id="h1")]}, config)
    second = agent.invoke({"messages": [ns.HumanMessage("world", id="h2")]}, config)
    return {"first": first, "second": second, "calls": calls}


def test_33_dynamic_model_checkpointer():
    result = assert_same(dynamic_model_checkpointer)
    assert len(result["first"]["messages"]) == 2
    assert len(result["second"]["messages"]) == 4
    assert result["calls"] == [1, 3]


def dynamic_model_error(ns, version):
    def failing(state, runtime):
        if "fail" in state["messages"][-1].content:
            raise ValueError("Dynamic model failed")
        return ns.FakeToolCallingModel(tool_calls=[])

    agent = ns.create_react_agent(failing, [], version=version)
    ok = agent.invoke({"messages": [ns.HumanMessage("hello", id="h")]})
    assert len(ok["messages"]) == 2
    return agent.invoke({"messages": [ns.HumanMessage("fail now", id="h")]})


@pytest.mark.parametrize("version", VERSIONS)
def test_34_dynamic_model_error(version):
    assert assert_same(dynamic_model_error, version=version) == (
        "raised",
        "ValueError",
        "Dynamic model failed",
    )


async def dynamic_model_state(ns, use_async):
    received = []

    class CustomAgentState(ns.AgentState):
        custom_field: str

    def dynamic_model(state, runtime):
        received.append(dict(state))
        return ns.FakeToolCallingModel(tool_calls=[])

    agent = ns.create_react_agent(dynamic_model, [], state_schema=CustomAgentState)
    inputs = {"messages": [ns.HumanMessage("hello", id="h")], "custom_field": "test_value"}
    if use_async:
        await agent.ainvoke(inputs)
    else:
        agent.invoke(inputs)
    return received


@pytest.mark.parametrize("use_async", [False, True], ids=["invoke", "ainvoke"])
def test_35_dynamic_model_state(use_async):
    received = assert_same(dynamic_model_state, use_async=use_async)
    assert len(received) == 1
    assert received[0]["custom_field"] == "test_value"
    assert [m["content"] for m in received[0]["messages"]] == ["hello"]


# ---- 36-38: pre- and post-model hooks ----------------------------------------------------------


def pre_model_hook(ns):
    model = ns.FakeToolCallingModel(tool_calls=[])

    def llm_input_hook(state):
        return {"llm_input_messages": [ns.HumanMessage("Hello!")]}

    def rewrite_hook(state):
        return {
            "messages": [ns.RemoveMessage(id=ns.REMOVE_ALL_MESSAGES), ns.HumanMessage("Hello!")]
        }

    results = []
    for hook in (llm_input_hook, rewrite_hook):
        agent = ns.create_react_agent(model, [], pre_model_hook=hook)
        assert "pre_model_hook" in agent.nodes
        results.append(agent.invoke({"messages": [ns.HumanMessage("hi?")]}))
    return results


def test_36_pre_model_hook():
    llm_input, rewrite = assert_same(pre_model_hook)
    assert [(m["content"], m["id"]) for m in llm_input["messages"]] == [
        ("hi?", "<id-1>"),
        ("Hello!", "0"),
    ]
    assert [(m["content"], m["id"]) for m in rewrite["messages"]] == [
        ("Hello!", "<id-2>"),  # a fresh uuid (ids are numbered across both runs)
        ("Hello!", "1"),
    ]
    assert list(llm_input) == ["messages"]


def post_model_hook(ns):
    class FlagState(ns.AgentState):
        flag: bool

    agent = ns.create_react_agent(
        ns.FakeToolCallingModel(tool_calls=[]),
        [],
        post_model_hook=lambda state: {"flag": True},
        state_schema=FlagState,
    )
    result = agent.invoke({"messages": [ns.HumanMessage("hi?", id="h")], "flag": False})
    events = list(agent.stream({"messages": [ns.HumanMessage("hi?", id="h")], "flag": False}))
    return {"result": result, "events": events}


def test_37_post_model_hook():
    result = assert_same(post_model_hook)
    assert result["result"]["flag"] is True
    assert [list(e) for e in result["events"]] == [["agent"], ["post_model_hook"]]
    assert result["events"][1] == {"post_model_hook": {"flag": True}}


def post_hook_structured_output(ns):
    def get_weather():
        """Get the weather"""
        return "The weather is sunny and 75°F."

    model = ns.FakeToolCallingModel(
        tool_calls=[[{"args": {}, "id": "1", "name": "get_weather"}]],
        structured_response=WeatherResponse(temperature=75),
    )

    class State(ns.AgentState):
        flag: bool
        structured_response: WeatherResponse

    agent = ns.create_react_agent(
        model,
        [get_weather],
        response_format=WeatherResponse,
        post_model_hook=lambda state: {"flag": True},
        state_schema=State,
    )
    response = agent.invoke({"messages": [ns.HumanMessage("What's the weather?", id="h")]})
    events = list(agent.stream({"messages": [ns.HumanMessage("What's the weather?", id="h")]}))
    return {"response": response, "events": events, "nodes": list(agent.nodes)}


def test_38_post_hook_structured_output():
    result = assert_same(post_hook_structured_output)
    assert result["response"]["flag"] is True
    assert [next(iter(e)) for e in result["events"]] == [
        "agent",
        "post_model_hook",
        "tools",
        "agent",
        "post_model_hook",
        "generate_structured_response",
    ]


# ---- 40: deprecated and unknown keyword arguments -------------------------------------------


class Config(TypedDict):
    model: str


def config_schema(ns):
    import warnings

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        agent = ns.create_react_agent(ns.FakeToolCallingModel(), [], config_schema=Config)
    messages = [str(w.message) for w in caught if "config_schema" in str(w.message)]
    return {"warnings": messages, "context_schema_is_config": agent.context_schema is Config}


def test_40_config_schema_deprecation():
    result = assert_same(config_schema)
    assert result["context_schema_is_config"] is True
    assert result["warnings"][0].startswith(
        "`config_schema` is deprecated and will be removed. Please use `context_schema` instead."
    )


def extra_kwargs(ns):
    return ns.create_react_agent(ns.FakeToolCallingModel(), [], extra="extra")


def test_40_extra_kwargs():
    assert assert_same(extra_kwargs) == (
        "raised",
        "TypeError",
        "create_react_agent() got unexpected keyword arguments: {'extra': 'extra'}",
    )


def test_namespaces_differ():
    """Guard: the two runs really use two implementations."""
    assert MINI.create_react_agent is not UPSTREAM.create_react_agent
    assert MINI.create_react_agent.__module__.startswith("miniagent.")
    assert UPSTREAM.create_react_agent.__module__.startswith("langgraph.")
