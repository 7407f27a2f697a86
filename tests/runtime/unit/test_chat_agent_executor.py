"""create_react_agent and its helpers: every branch and every error text.

Expected strings and traces are copied from runs of langgraph-prebuilt 1.1.3 (langgraph 1.2.24).
"""

import asyncio
import inspect
from typing import Annotated, Any

import pytest
from pydantic import BaseModel
from typing_extensions import TypedDict

from miniagent.checkpoint import InMemorySaver
from miniagent.errors import GraphRecursionError
from miniagent.graph import add_messages
from miniagent.managed import RemainingSteps
from miniagent.messages import (
    AIMessage,
    HumanMessage,
    RemoveMessage,
    SystemMessage,
    ToolMessage,
)
from miniagent.prebuilt import ToolNode, create_react_agent
from miniagent.prebuilt import chat_agent_executor as cae
from miniagent.prebuilt.chat_agent_executor import (
    AgentState,
    AgentStatePydantic,
    _get_model,
    _get_prompt_runnable,
    _get_state_value,
    _should_bind_tools,
    _validate_chat_history,
)
from miniagent.runnables import RunnableLambda, RunnableSequence
from miniagent.testing import FakeToolCallingModel
from miniagent.tools import tool

REMOVE_ALL = "__remove_all__"
SORRY = "Sorry, need more steps to process this request."


def call(name: str, id: str, **args: Any) -> dict[str, Any]:
    return {"name": name, "args": args, "id": id}


@tool
def tool1(some_val: int) -> str:
    """Tool 1 docstring."""
    return f"Tool 1: {some_val}"


@tool
def tool2(some_val: int) -> str:
    """Tool 2 docstring."""
    return f"Tool 2: {some_val}"


def contents(messages: list) -> list[tuple[str, Any]]:
    return [(m.type, m.content) for m in messages]


# ---- _get_state_value ------------------------------------------------------------------------


def test_get_state_value_reads_dicts_and_objects():
    class State(BaseModel):
        messages: list = []

    assert _get_state_value({"messages": [1]}, "messages") == [1]
    assert _get_state_value({}, "remaining_steps", 7) == 7
    assert _get_state_value(State(messages=[2]), "messages") == [2]
    assert _get_state_value(State(), "remaining_steps") is None


# ---- _get_prompt_runnable --------------------------------------------------------------------

STATE = {"messages": [HumanMessage("hi")]}


def test_prompt_none_passes_the_messages_through():
    runnable = _get_prompt_runnable(None)
    assert runnable.name == "Prompt"
    assert runnable.invoke(STATE) is STATE["messages"]


def test_prompt_str_builds_one_system_message():
    runnable = _get_prompt_runnable("Foo")
    assert runnable.name == "Prompt"
    first, second = runnable.invoke(STATE), runnable.invoke(STATE)
    assert first == [SystemMessage("Foo"), HumanMessage("hi")]
    assert first[0] is second[0]  # created once, at build time


def test_prompt_system_message_is_prepended_as_is():
    system = SystemMessage("Bar")
    out = _get_prompt_runnable(system).invoke(STATE)
    assert out[0] is system and out[1:] == STATE["messages"]


def test_prompt_callable_gets_the_state():
    runnable = _get_prompt_runnable(
        lambda state: [HumanMessage(f"Bar {state['messages'][-1].content}")]
    )
    assert runnable.name == "Prompt"
    assert runnable.invoke(STATE) == [HumanMessage("Bar hi")]


def test_prompt_async_callable_is_async_only():
    async def prompt(state):
        return [SystemMessage("async")] + state["messages"]

    runnable = _get_prompt_runnable(prompt)
    assert runnable.name == "Prompt"
    with pytest.raises(TypeError) as e:
        runnable.invoke(STATE)
    assert str(e.value) == (
        'No synchronous function provided to "Prompt".\nEither initialize with a synchronous '
        "function or invoke via the async API (ainvoke, astream, etc.)"
    )
    assert asyncio.run(runnable.ainvoke(STATE))[0] == SystemMessage("async")


def test_prompt_runnable_is_used_as_is():
    runnable = RunnableLambda(lambda state: state["messages"])
    assert _get_prompt_runnable(runnable) is runnable


def test_prompt_of_another_type_is_rejected():
    with pytest.raises(ValueError) as e:
        _get_prompt_runnable(123)
    assert str(e.value) == "Got unexpected type for `prompt`: <class 'int'>"


@pytest.mark.parametrize(
    ("prompt", "expected"),
    [
        (None, "hi?"),
        ("Foo", "Foo-hi?"),
        (SystemMessage("Foo"), "Foo-hi?"),
        (lambda state: [HumanMessage(f"Bar {state['messages'][-1].content}")], "Bar hi?"),
        (
            RunnableLambda(lambda state: [HumanMessage(f"Baz {state['messages'][-1].content}")]),
            "Baz hi?",
        ),
    ],
)
def test_prompts_reach_the_model_but_not_the_state(prompt, expected):
    agent = create_react_agent(FakeToolCallingModel(), [], prompt=prompt)
    result = agent.invoke({"messages": [HumanMessage("hi?")]})
    assert contents(result["messages"]) == [("human", "hi?"), ("ai", expected)]
    assert result["messages"][-1].id == "0"


def test_async_prompt_needs_ainvoke():
    async def prompt(state):
        return [SystemMessage("Async")] + state["messages"]

    agent = create_react_agent(FakeToolCallingModel(), [], prompt=prompt)
    with pytest.raises(TypeError, match='No synchronous function provided to "Prompt"'):
        agent.invoke({"messages": [HumanMessage("hi?")]})
    result = asyncio.run(agent.ainvoke({"messages": [HumanMessage("hi?")]}))
    assert result["messages"][-1].content == "Async-hi?"


def test_prompt_may_declare_config():
    def prompt(state, config):
        return [SystemMessage(config["configurable"]["user"])] + state["messages"]

    agent = create_react_agent(FakeToolCallingModel(), [], prompt=prompt)
    result = agent.invoke({"messages": [HumanMessage("hi")]}, {"configurable": {"user": "Alice"}})
    assert result["messages"][-1].content == "Alice-hi"


# ---- _should_bind_tools / _get_model ---------------------------------------------------------


@pytest.mark.parametrize("tool_style", ["openai", "anthropic"])
def test_should_bind_tools(tool_style):
    model = FakeToolCallingModel(tool_style=tool_style)
    assert _should_bind_tools(model, [])
    assert _should_bind_tools(model, [tool1])
    seq = model | RunnableLambda(lambda message: message)
    assert isinstance(seq, RunnableSequence)
    assert _should_bind_tools(seq, [tool1])
    assert _should_bind_tools(RunnableLambda(lambda m: m) | RunnableLambda(lambda m: m), [tool1])
    assert _should_bind_tools(model.bind(stop=["x"]), [tool1])  # bound, but without tools
    assert not _should_bind_tools(model.bind_tools([tool1]), [tool1])
    assert not _should_bind_tools(model.bind_tools([tool1]) | RunnableLambda(lambda m: m), [tool1])


def test_should_bind_tools_errors():
    model = FakeToolCallingModel()
    with pytest.raises(ValueError) as e:
        _should_bind_tools(model.bind_tools([tool1]), [])
    assert str(e.value) == (
        "Number of tools in the model.bind_tools() and tools passed to create_react_agent must "
        "match Got 0 tools, expected 1"
    )
    with pytest.raises(ValueError) as e:
        _should_bind_tools(model.bind_tools([tool1]), [tool1, tool2])
    assert str(e.value).endswith("must match Got 2 tools, expected 1")
    with pytest.raises(ValueError) as e:
        _should_bind_tools(model.bind_tools([tool1]), [tool2])
    assert str(e.value) == "Missing tools '{'tool2'}' in the model.bind_tools()"


def test_should_bind_tools_counts_builtins_and_skips_unknown_dicts():
    mcp = {"type": "mcp", "server_label": "s"}
    web = {"type": "web_search_20250305", "name": "web_search"}  # has a name: counted as a tool
    model = FakeToolCallingModel()
    assert not _should_bind_tools(model.bind_tools([tool1, mcp]), [tool1], num_builtin=1)
    with pytest.raises(ValueError, match="Got 1 tools, expected 2"):
        _should_bind_tools(model.bind_tools([tool1, mcp]), [tool1])
    assert not _should_bind_tools(model.bind_tools([tool1, web]), [tool1], num_builtin=1)


def test_get_model_unwraps_bindings_and_sequences():
    model = FakeToolCallingModel(tool_calls=[])
    assert _get_model(model) is model
    assert _get_model(model.bind_tools([tool1])) is model
    assert _get_model(model | RunnableLambda(lambda m: m)) is model
    assert _get_model(model.bind_tools([tool1]) | RunnableLambda(lambda m: m)) is model
    not_a_model = RunnableLambda(lambda m: m)
    with pytest.raises(TypeError) as e:
        _get_model(not_a_model)
    assert str(e.value) == (
        "Expected `model` to be a ChatModel or RunnableBinding (e.g. model.bind_tools(...)), "
        f"got {type(not_a_model)}"
    )


# ---- _validate_chat_history ------------------------------------------------------------------


def test_validate_chat_history_accepts_answered_calls():
    _validate_chat_history([])
    _validate_chat_history([HumanMessage("hi")])
    answered = [
        HumanMessage("hi"),
        AIMessage("", tool_calls=[call("a", "1"), call("b", "2")]),
        ToolMessage("r", tool_call_id="2"),
        ToolMessage("r", tool_call_id="1"),  # order does not matter
    ]
    _validate_chat_history(answered)


def test_validate_chat_history_lists_the_first_three_orphans():
    messages = [
        HumanMessage("hi"),
        AIMessage("", tool_calls=[call("a", f"c{i}", x=i) for i in range(5)]),
        ToolMessage("r", tool_call_id="c1"),
    ]
    with pytest.raises(ValueError) as e:
        _validate_chat_history(messages)
    assert str(e.value) == (
        "Found AIMessages with tool_calls that do not have a corresponding ToolMessage. Here are "
        "the first few of those tool calls: [{'name': 'a', 'args': {'x': 0}, 'id': 'c0', 'type': "
        "'tool_call'}, {'name': 'a', 'args': {'x': 2}, 'id': 'c2', 'type': 'tool_call'}, "
        "{'name': 'a', 'args': {'x': 3}, 'id': 'c3', 'type': 'tool_call'}].\n\nEvery tool call "
        "(LLM requesting to call a tool) in the message history MUST have a corresponding "
        "ToolMessage (result of a tool invocation to return to the LLM) - this is required by "
        "most LLM providers.\nFor troubleshooting, visit: "
        "https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CHAT_HISTORY"
    )


def test_dangling_tool_call_in_the_input_fails_the_agent():
    agent = create_react_agent(FakeToolCallingModel(), [tool1])
    dangling = AIMessage("", tool_calls=[call("tool1", "x", some_val=1)])
    with pytest.raises(ValueError, match="INVALID_CHAT_HISTORY"):
        agent.invoke({"messages": [HumanMessage("hi"), dangling, HumanMessage("again")]})


# ---- create_react_agent: argument checks -----------------------------------------------------


def test_config_schema_is_deprecated_and_used_as_context_schema():
    class Context(TypedDict):
        user: str

    with pytest.warns(DeprecationWarning) as w:
        create_react_agent(FakeToolCallingModel(), [], config_schema=Context)
    messages = [str(x.message) for x in w]
    assert (
        "`config_schema` is deprecated and will be removed. Please use `context_schema` instead. "
        "Deprecated in LangGraph V1.0 to be removed in V2.0." in messages
    )


def test_unknown_keyword_arguments():
    with pytest.raises(TypeError) as e:
        create_react_agent(FakeToolCallingModel(), [], foo=1)
    assert str(e.value) == "create_react_agent() got unexpected keyword arguments: {'foo': 1}"


def test_invalid_version():
    with pytest.raises(ValueError) as e:
        create_react_agent(FakeToolCallingModel(), [], version="v3")
    assert str(e.value) == "Invalid version v3. Supported versions are 'v1' and 'v2'."


def test_state_schema_must_have_the_agent_keys():
    class NoSteps(TypedDict):
        messages: Annotated[list, add_messages]

    class WithSteps(NoSteps):
        remaining_steps: RemainingSteps

    with pytest.raises(ValueError) as e:
        create_react_agent(FakeToolCallingModel(), [], state_schema=NoSteps)
    assert str(e.value) == "Missing required key(s) {'remaining_steps'} in state_schema"
    create_react_agent(FakeToolCallingModel(), [], state_schema=WithSteps)

    class Answer(BaseModel):
        answer: str

    with pytest.raises(ValueError) as e:
        create_react_agent(
            FakeToolCallingModel(), [], state_schema=WithSteps, response_format=Answer
        )
    assert str(e.value) == "Missing required key(s) {'structured_response'} in state_schema"


# ---- tools, binding, built-ins ---------------------------------------------------------------


def test_a_bare_model_is_bound_with_the_tools_and_builtins():
    mcp = {"type": "mcp", "server_label": "s"}
    model = FakeToolCallingModel()
    agent = create_react_agent(model, [tool1, mcp])
    assert list(agent.nodes) == ["__start__", "agent", "tools"]
    assert list(agent.nodes["tools"].bound.tools_by_name) == ["tool1"]  # dicts are not executed
    static_model = inspect.getclosurevars(agent.nodes["agent"].bound.func).nonlocals["static_model"]
    assert static_model.first.name == "Prompt"
    assert static_model.last.bound is model
    assert static_model.last.kwargs["tools"] == [
        {"type": "function", "function": {"name": "tool1"}},
        mcp,
    ]


def test_builtin_dicts_alone_make_no_tools_node():
    agent = create_react_agent(FakeToolCallingModel(), [{"type": "mcp", "server_label": "s"}])
    assert list(agent.nodes) == ["__start__", "agent"]


@pytest.mark.parametrize("tool_style", ["openai", "anthropic"])
@pytest.mark.parametrize("version", ["v1", "v2"])
def test_prebound_model_with_builtin(tool_style, version):
    mcp = {"type": "mcp", "server_label": "s", "allowed_tools": ["x"]}
    tools = [tool1, tool2, mcp]
    model = FakeToolCallingModel(tool_style=tool_style)
    agent = create_react_agent(model.bind_tools(tools), tools, version=version)
    calls = [call("tool1", "some 1", some_val=2), call("tool2", "some 2", some_val=2)]
    result = agent.invoke({"messages": [HumanMessage("hi")]})  # no calls scripted: one turn
    assert len(result["messages"]) == 2
    out = agent.nodes["tools"].bound.invoke(
        {"messages": [AIMessage("hi?", tool_calls=calls)]},
        {"configurable": {"__pregel_runtime": _runtime()}},
    )
    assert [m.content for m in out["messages"]] == ["Tool 1: 2", "Tool 2: 2"]
    with pytest.raises(ValueError):
        create_react_agent(model.bind_tools([tool1]), [tool1, tool2])
    with pytest.raises(ValueError):
        create_react_agent(model.bind_tools([tool1]), [tool2])


def _runtime():
    from miniagent.runtime import Runtime

    return Runtime()


def test_a_tool_node_is_used_as_is():
    node = ToolNode([tool1], handle_tool_errors=False)
    agent = create_react_agent(FakeToolCallingModel(), node)
    assert agent.nodes["tools"].bound is node


def test_plain_functions_become_tools():
    def shout(text: str) -> str:
        """Shout."""
        return text.upper()

    model = FakeToolCallingModel(tool_calls=[[call("shout", "1", text="hey")], []])
    result = create_react_agent(model, [shout]).invoke({"messages": [HumanMessage("go")]})
    assert [m.content for m in result["messages"] if m.type == "tool"] == ["HEY"]


def test_string_model_resolves_through_init_chat_model():
    # miniagent.chat_models.init_chat_model, upstream's error for an unknown provider
    with pytest.raises(ValueError, match="Unable to infer model provider for model='foo:bar'"):
        create_react_agent("foo:bar", [])


# ---- the loop --------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_tool_loop_trace(version):
    model = FakeToolCallingModel(
        tool_calls=[[call("tool1", "1", some_val=1), call("tool2", "2", some_val=2)], []]
    )
    agent = create_react_agent(model, [tool1, tool2], prompt="Sys", version=version)
    result = agent.invoke({"messages": [HumanMessage("hi")]})
    assert contents(result["messages"]) == [
        ("human", "hi"),
        ("ai", "Sys-hi"),
        ("tool", "Tool 1: 1"),
        ("tool", "Tool 2: 2"),
        ("ai", "Sys-hi-Sys-hi-Tool 1: 1-Tool 2: 2"),
    ]
    assert [m.id for m in result["messages"] if m.type == "ai"] == ["0", "1"]
    assert set(result) == {"messages"}  # remaining_steps is managed: never in the output


def test_v1_runs_all_calls_in_one_task_v2_one_task_per_call():
    calls = [call("tool1", "1", some_val=1), call("tool2", "2", some_val=2)]
    chunks = {}
    for version in ("v1", "v2"):
        model = FakeToolCallingModel(tool_calls=[calls, []])
        agent = create_react_agent(model, [tool1, tool2], version=version)
        chunks[version] = [
            (node, [m.type for m in update["messages"]])
            for chunk in agent.stream({"messages": [HumanMessage("hi")]}, stream_mode="updates")
            for node, update in chunk.items()
        ]
    assert chunks["v1"] == [("agent", ["ai"]), ("tools", ["tool", "tool"]), ("agent", ["ai"])]
    assert chunks["v2"] == [
        ("agent", ["ai"]),
        ("tools", ["tool"]),
        ("tools", ["tool"]),
        ("agent", ["ai"]),
    ]


def test_should_continue_sends_one_tool_call_with_context_per_call():
    calls = [call("tool1", "1", some_val=1), call("tool2", "2", some_val=2)]
    seen: list[Any] = []

    def spy(request, execute):
        seen.append(request.state)
        return execute(request)

    node = ToolNode([tool1, tool2], wrap_tool_call=spy)
    agent = create_react_agent(FakeToolCallingModel(tool_calls=[calls, []]), node)
    agent.invoke({"messages": [HumanMessage("hi")]})
    assert len(seen) == 2
    for state in seen:  # each task got the whole state at routing time, managed value included
        assert [m.type for m in state["messages"]] == ["human", "ai"]
        assert "remaining_steps" in state


def test_name_is_stamped_on_every_ai_message_and_names_the_graph():
    model = FakeToolCallingModel(tool_calls=[[call("tool1", "1", some_val=1)], []])
    agent = create_react_agent(model, [tool1], name="helper")
    assert agent.name == "helper"
    result = agent.invoke({"messages": [HumanMessage("hi")]})
    assert [m.name for m in result["messages"] if m.type == "ai"] == ["helper", "helper"]


def test_name_none_overwrites_a_name_set_by_the_model():
    model = RunnableLambda(lambda messages: AIMessage("reply", name="model-set"))
    agent = create_react_agent(model, [])
    assert agent.name == "LangGraph"
    assert agent.invoke({"messages": [HumanMessage("hi")]})["messages"][-1].name is None


def test_return_direct():
    @tool(return_direct=True)
    def direct(x: str) -> str:
        """Ends the run."""
        return f"Direct: {x}"

    @tool
    def normal(x: str) -> str:
        """Does not."""
        return f"Normal: {x}"

    for version in ("v1", "v2"):
        model = FakeToolCallingModel(tool_calls=[[call("direct", "1", x="a")], []])
        result = create_react_agent(model, [direct, normal], version=version).invoke(
            {"messages": [HumanMessage("hi")]}
        )
        assert contents(result["messages"])[-1] == ("tool", "Direct: a")
        assert len(result["messages"]) == 3

        model = FakeToolCallingModel(tool_calls=[[call("normal", "1", x="b")], []])
        result = create_react_agent(model, [direct, normal], version=version).invoke(
            {"messages": [HumanMessage("hi")]}
        )
        assert len(result["messages"]) == 4

        both = [call("normal", "1", x="b"), call("direct", "2", x="a")]
        model = FakeToolCallingModel(tool_calls=[both, []])
        result = create_react_agent(model, [direct, normal], version=version).invoke(
            {"messages": [HumanMessage("hi")]}
        )
        assert [m.type for m in result["messages"]] == ["human", "ai", "tool", "tool"]


# ---- remaining_steps -------------------------------------------------------------------------


def always_calling_agent(seen: list[int], tools: list | None = None, name: str = "tool1"):
    def prompt(state):
        seen.append(state["remaining_steps"])
        return state["messages"]

    model = FakeToolCallingModel(tool_calls=[[call(name, "c", some_val=1)]])
    return create_react_agent(model, tools or [tool1], prompt=prompt)


@pytest.mark.parametrize(
    ("limit", "seen_expected", "outcome"),
    [
        (2, [1], 2),
        (3, [2, 0], GraphRecursionError),
        (4, [3, 1], 4),
        (5, [4, 2, 0], GraphRecursionError),
        (6, [5, 3, 1], 6),
        (7, [6, 4, 2, 0], GraphRecursionError),
    ],
)
def test_remaining_steps_soft_landing_and_recursion_error(limit, seen_expected, outcome):
    seen: list[int] = []
    agent = always_calling_agent(seen)
    if outcome is GraphRecursionError:
        with pytest.raises(GraphRecursionError):
            agent.invoke({"messages": [HumanMessage("loop")]}, {"recursion_limit": limit})
    else:
        result = agent.invoke({"messages": [HumanMessage("loop")]}, {"recursion_limit": limit})
        assert len(result["messages"]) == outcome
        last = result["messages"][-1]
        assert (last.content, last.tool_calls) == (SORRY, [])
        assert last.id == str(len(seen) - 1)  # the id of the reply it replaces
    assert seen == seen_expected


def test_sorry_reply_drops_the_name():
    agent = create_react_agent(
        FakeToolCallingModel(tool_calls=[[call("tool1", "c", some_val=1)]]), [tool1], name="bot"
    )
    result = agent.invoke({"messages": [HumanMessage("x")]}, {"recursion_limit": 2})
    assert result["messages"][-1].content == SORRY
    assert result["messages"][-1].name is None


def test_return_direct_remaining_steps():
    @tool(return_direct=True)
    def finish(some_val: int) -> str:
        """Finish."""
        return "finished"

    for limit, expected in [(1, GraphRecursionError), (2, SORRY), (3, "finished")]:
        seen: list[int] = []
        agent = always_calling_agent(seen, [finish], "finish")
        if expected is GraphRecursionError:
            with pytest.raises(GraphRecursionError):
                agent.invoke({"messages": [HumanMessage("go")]}, {"recursion_limit": limit})
        else:
            result = agent.invoke({"messages": [HumanMessage("go")]}, {"recursion_limit": limit})
            assert result["messages"][-1].content == expected
        assert seen == [limit - 1]


def test_no_managed_value_means_no_soft_landing():
    class State(TypedDict):
        messages: Annotated[list, add_messages]
        remaining_steps: int  # a plain key: nobody fills it in

    model = FakeToolCallingModel(tool_calls=[[call("tool1", "c", some_val=1)]])
    agent = create_react_agent(model, [tool1], state_schema=State)
    with pytest.raises(GraphRecursionError):  # with RemainingSteps: "Sorry, ..." (limit 4 above)
        agent.invoke({"messages": [HumanMessage("go")]}, {"recursion_limit": 4})


# ---- dynamic models --------------------------------------------------------------------------


def test_dynamic_model_is_resolved_every_step_and_not_bound():
    models = [
        FakeToolCallingModel(tool_calls=[[call("tool1", "1", some_val=1)]]),
        FakeToolCallingModel(tool_calls=[[]], index=5),
    ]
    seen_runtimes = []

    def pick(state, runtime):
        seen_runtimes.append(runtime)
        return models[min(len(state["messages"]) // 2, 1)].bind_tools([tool1])

    agent = create_react_agent(pick, [tool1], prompt="S")
    result = agent.invoke({"messages": [HumanMessage("hi")]}, context={"user": "u"})
    assert contents(result["messages"]) == [
        ("human", "hi"),
        ("ai", "S-hi"),
        ("tool", "Tool 1: 1"),
        ("ai", "S-hi-S-hi-Tool 1: 1"),
    ]
    assert [r.context for r in seen_runtimes] == [{"user": "u"}, {"user": "u"}]


def test_async_dynamic_model():
    async def pick(state, runtime):
        return FakeToolCallingModel()

    agent = create_react_agent(pick, [])
    with pytest.raises(RuntimeError) as e:
        agent.invoke({"messages": [HumanMessage("hi")]})
    assert str(e.value) == (
        "Async model callable provided but agent invoked synchronously. Use agent.ainvoke() or "
        "agent.astream(), or provide a sync model callable."
    )
    result = asyncio.run(agent.ainvoke({"messages": [HumanMessage("hi")]}))
    assert contents(result["messages"]) == [("human", "hi"), ("ai", "hi")]


def test_sync_dynamic_model_on_the_async_path():
    agent = create_react_agent(lambda state, runtime: FakeToolCallingModel(), [])
    result = asyncio.run(agent.ainvoke({"messages": [HumanMessage("hi")]}))
    assert result["messages"][-1].content == "hi"


# ---- structured response ---------------------------------------------------------------------


class Weather(BaseModel):
    temperature: float


@pytest.mark.parametrize("response_format", [Weather, ("Meow", Weather)])
def test_structured_response(response_format):
    calls = [[call("tool1", "1", some_val=1)], []]
    model = FakeToolCallingModel(tool_calls=calls, structured_response=Weather(temperature=75))
    agent = create_react_agent(model, [tool1], response_format=response_format)
    result = agent.invoke({"messages": [HumanMessage("hi")]})
    assert result["structured_response"] == Weather(temperature=75)
    assert len(result["messages"]) == 4


def test_structured_response_uses_the_raw_model_and_the_tuple_prompt():
    seen: list[list] = []

    class Recording(FakeToolCallingModel):
        def with_structured_output(self, schema):
            return RunnableLambda(lambda messages: seen.append(messages) or {"ok": True})

    agent = create_react_agent(
        Recording(), [tool1], prompt="P", response_format=("Meow", {"type": "object"})
    )
    result = agent.invoke({"messages": [HumanMessage("hi")]})
    assert result["structured_response"] == {"ok": True}
    assert contents(seen[0]) == [("system", "Meow"), ("human", "hi"), ("ai", "P-hi")]


def test_structured_response_with_async_dynamic_model_on_the_sync_path():
    async def pick(state, runtime):
        return FakeToolCallingModel()

    agent = create_react_agent(pick, [], response_format=Weather)
    with pytest.raises(RuntimeError, match="Async model callable provided"):
        agent.invoke({"messages": [HumanMessage("hi")]})


# ---- hooks -----------------------------------------------------------------------------------


def test_pre_model_hook_llm_input_messages_and_history_rewrite():
    agent = create_react_agent(
        FakeToolCallingModel(),
        [],
        pre_model_hook=lambda state: {"llm_input_messages": [HumanMessage("Hello!")]},
    )
    assert "pre_model_hook" in agent.nodes
    result = agent.invoke({"messages": [HumanMessage("hi?")]})
    assert contents(result["messages"]) == [("human", "hi?"), ("ai", "Hello!")]
    assert set(result) == {"messages"}

    agent = create_react_agent(
        FakeToolCallingModel(),
        [],
        pre_model_hook=lambda state: {
            "messages": [RemoveMessage(id=REMOVE_ALL), HumanMessage("Hello!")]
        },
    )
    result = agent.invoke({"messages": [HumanMessage("hi?")]})
    assert contents(result["messages"]) == [("human", "Hello!"), ("ai", "Hello!")]


def test_prompt_applies_on_top_of_llm_input_messages():
    agent = create_react_agent(
        FakeToolCallingModel(),
        [],
        prompt="SYS",
        pre_model_hook=lambda state: {"llm_input_messages": [HumanMessage("trimmed")]},
    )
    result = agent.invoke({"messages": [HumanMessage("long history")]})
    assert contents(result["messages"]) == [("human", "long history"), ("ai", "SYS-trimmed")]


def test_post_model_hook_updates_and_routes():
    class State(AgentState):
        flag: bool

    agent = create_react_agent(
        FakeToolCallingModel(), [], post_model_hook=lambda state: {"flag": True}, state_schema=State
    )
    assert agent.invoke({"messages": [HumanMessage("hi?")], "flag": False})["flag"] is True
    chunks = list(
        agent.stream({"messages": [HumanMessage("hi?")], "flag": False}, stream_mode="updates")
    )
    assert [list(c) for c in chunks] == [["agent"], ["post_model_hook"]]
    assert chunks[1] == {"post_model_hook": {"flag": True}}


def test_post_model_hook_with_tools_and_structured_output_order():
    model = FakeToolCallingModel(
        tool_calls=[[call("tool1", "1", some_val=1)], []],
        structured_response=Weather(temperature=1),
    )
    agent = create_react_agent(
        model, [tool1], post_model_hook=lambda s: {}, response_format=Weather
    )
    order = [
        node
        for c in agent.stream({"messages": [HumanMessage("hi")]}, stream_mode="updates")
        for node in c
    ]
    assert order == [
        "agent",
        "post_model_hook",
        "tools",
        "agent",
        "post_model_hook",
        "generate_structured_response",
    ]


def test_post_model_hook_answering_the_calls_loops_back():
    def answer(state):
        last = state["messages"][-1]
        if last.tool_calls:
            return {
                "messages": [
                    ToolMessage("hook answer", tool_call_id=c["id"]) for c in last.tool_calls
                ]
            }
        return {}

    model = FakeToolCallingModel(tool_calls=[[call("tool1", "1", some_val=1)], []])
    result = create_react_agent(model, [tool1], post_model_hook=answer).invoke(
        {"messages": [HumanMessage("hi")]}
    )
    assert contents(result["messages"])[1:3] == [("ai", "hi"), ("tool", "hook answer")]
    assert result["messages"][-1].type == "ai"


def test_post_model_hook_with_v1_and_a_tool_call_is_a_key_error():
    model = FakeToolCallingModel(tool_calls=[[call("tool1", "1", some_val=1)], []])
    agent = create_react_agent(model, [tool1], post_model_hook=lambda s: {}, version="v1")
    with pytest.raises(KeyError) as e:
        agent.invoke({"messages": [HumanMessage("hi")]})
    assert e.value.args == ("tools",)


def test_pydantic_state_schema():
    class State(AgentStatePydantic):
        extra: str = "x"

    model = FakeToolCallingModel(tool_calls=[[call("tool1", "1", some_val=1)], []])
    hook = lambda state: {"llm_input_messages": state.messages[-1:]}  # noqa: E731
    agent = create_react_agent(model, [tool1], state_schema=State, pre_model_hook=hook)
    result = agent.invoke({"messages": [HumanMessage("hi")]})
    assert contents(result["messages"])[1:] == [
        ("ai", "hi"),
        ("tool", "Tool 1: 1"),
        ("ai", "Tool 1: 1"),
    ]


def test_checkpointer_keeps_the_thread():
    agent = create_react_agent(FakeToolCallingModel(), [], checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "1"}}
    agent.invoke({"messages": [HumanMessage("a")]}, config)
    result = agent.invoke({"messages": [HumanMessage("b")]}, config)
    assert contents(result["messages"]) == [
        ("human", "a"),
        ("ai", "a"),
        ("human", "b"),
        ("ai", "a-a-b"),
    ]


# ---- seams for graders -----------------------------------------------------------------------


def test_module_helpers_are_looked_up_at_call_time(monkeypatch):
    calls: list[str] = []
    original = cae._validate_chat_history

    def spy(messages):
        calls.append("validated")
        return original(messages)

    monkeypatch.setattr(cae, "_validate_chat_history", spy)
    agent = create_react_agent(FakeToolCallingModel(), [])
    agent.invoke({"messages": [HumanMessage("hi")]})
    assert calls == ["validated"]

    monkeypatch.setattr(
        cae,
        "_get_prompt_runnable",
        lambda prompt: RunnableLambda(lambda s: [HumanMessage("swapped")]),
    )
    agent = create_react_agent(FakeToolCallingModel(), [])
    assert agent.invoke({"messages": [HumanMessage("hi")]})["messages"][-1].content == "swapped"


def test_inner_functions_are_reachable_through_the_closure():
    agent = create_react_agent(FakeToolCallingModel(), [tool1])
    call_model = agent.nodes["agent"].bound.func
    assert call_model.__name__ == "call_model"
    inner = inspect.getclosurevars(call_model).nonlocals
    assert {"_are_more_steps_needed", "_get_model_input_state", "_resolve_model"} <= set(inner)
    steps_needed = inner["_are_more_steps_needed"]
    calling = AIMessage("", tool_calls=[call("tool1", "1", some_val=1)])
    assert steps_needed({"remaining_steps": 1}, calling)
    assert not steps_needed({"remaining_steps": 2}, calling)
    assert not steps_needed({}, calling)
    assert steps_needed({"remaining_steps": 0}, AIMessage("final"))  # all([]) is True

    # A grader can swap an inner function in by rebinding the closure cell.
    cell = call_model.__closure__[call_model.__code__.co_freevars.index("_are_more_steps_needed")]
    cell.cell_contents = lambda state, response: True
    result = agent.invoke({"messages": [HumanMessage("hi")]})
    assert result["messages"][-1].content == SORRY


@pytest.mark.parametrize(
    ("hook", "expected_keys"),
    [(None, "'messages' key"), (lambda state: {}, "'llm_input_messages' or 'messages' key")],
)
def test_get_model_input_state_needs_messages(hook, expected_keys):
    agent = create_react_agent(FakeToolCallingModel(), [], pre_model_hook=hook)
    inner = inspect.getclosurevars(agent.nodes["agent"].bound.func).nonlocals
    with pytest.raises(ValueError) as e:
        inner["_get_model_input_state"]({"foo": 1})
    assert (
        str(e.value)
        == f"Expected input to call_model to have {expected_keys}, but got {{'foo': 1}}"
    )
    state = {"messages": [HumanMessage("a")], "llm_input_messages": [HumanMessage("b")]}
    assert inner["_get_model_input_state"](state) is state  # mutated in place, and returned
    assert state["messages"][0].content == ("b" if hook else "a")
