"""create_react_agent behaviours from upstream-spec.md §2 and §7 that upstream's tests leave out.

Same method as ``test_react_scenarios_diff.py`` (one scenario, two namespaces, equal normalised
outcomes). Covered: argument errors (§2.2, §2.6), what the model is sent (prompt, bound tools,
``llm_input_messages``; §2.9-2.11), ``name`` stamping (§2.10), a dangling tool call in the input
(§2.5), ``version="v1"`` with a ``post_model_hook`` (§2.13), v1 vs v2 update chunks (§2.14), and
the three stream modes of a two-step run with the scripted model (§7).
"""

import pytest

pytest.importorskip("langgraph")

from pydantic import BaseModel  # noqa: E402

from .scenario_helpers import assert_same, attempt, is_error  # noqa: E402


def check_weather(location: str) -> str:
    """Return the weather forecast for the specified location."""
    return f"It's always sunny in {location}"


def weather_script(ns, name=None):
    return ns.ScriptedChatModel(
        [
            ns.AIMessage(
                "",
                id="ai-1",
                name=name,
                tool_calls=[{"name": "check_weather", "args": {"location": "sf"}, "id": "call_1"}],
            ),
            ns.AIMessage("It's sunny in SF.", id="ai-2", name=name),
        ]
    )


QUESTION = {"messages": [{"role": "user", "content": "what is the weather in sf", "id": "h-1"}]}


# ---- argument errors ------------------------------------------------------------------------


class Answer(BaseModel):
    text: str


def argument_errors(ns):
    model = ns.FakeToolCallingModel()

    class NoSteps(ns.MessagesState):
        pass

    return [
        attempt(ns.create_react_agent, model, [], prompt=123),
        attempt(ns.create_react_agent, model, [], version="v3"),
        attempt(ns.create_react_agent, model, [], state_schema=NoSteps),
        attempt(ns.create_react_agent, model, [], state_schema=NoSteps, response_format=Answer),
        attempt(ns.create_react_agent, model, [], foo=1, bar=2),
    ]


def test_argument_errors():
    results = assert_same(argument_errors)
    assert results[0] == ("raised", "ValueError", "Got unexpected type for `prompt`: <class 'int'>")
    assert results[1][2] == "Invalid version v3. Supported versions are 'v1' and 'v2'."
    assert results[2][2] == "Missing required key(s) {'remaining_steps'} in state_schema"
    assert results[4][1] == "TypeError"


# ---- what the model is sent ------------------------------------------------------------------


def model_input(ns, prompt, pre_hook):
    model = weather_script(ns)
    hook = {}
    if pre_hook:
        hook["pre_model_hook"] = lambda state: {"llm_input_messages": [ns.HumanMessage("trimmed")]}
    agent = ns.create_react_agent(model, [check_weather], prompt=prompt, **hook)
    result = agent.invoke(QUESTION)
    return {
        "result": result,
        "model_saw": [call["messages"] for call in model.calls],
        "bound_tools": [call["kwargs"].get("tools") for call in model.calls],
    }


@pytest.mark.parametrize("prompt", [None, "SYS"], ids=["no_prompt", "str_prompt"])
@pytest.mark.parametrize("pre_hook", [False, True], ids=["no_hook", "llm_input_messages"])
def test_model_input(prompt, pre_hook):
    run = assert_same(model_input, prompt=prompt, pre_hook=pre_hook)
    first = [m["content"] for m in run["model_saw"][0]]
    assert first[0] == ("SYS" if prompt else first[0])
    if pre_hook:
        assert first[-1] == "trimmed"
    assert run["bound_tools"][0][0]["function"]["name"] == "check_weather"
    assert all(m["type"] != "system" for m in run["result"]["messages"])


# ---- name stamping ---------------------------------------------------------------------------


def name_stamping(ns, agent_name, model_name):
    agent = ns.create_react_agent(weather_script(ns, model_name), [check_weather], name=agent_name)
    return {"graph_name": agent.name, "result": agent.invoke(QUESTION)}


@pytest.mark.parametrize("agent_name", [None, "helper"])
@pytest.mark.parametrize("model_name", [None, "bot"])
def test_name_stamping(agent_name, model_name):
    run = assert_same(name_stamping, agent_name=agent_name, model_name=model_name)
    ai_names = {m["name"] for m in run["result"]["messages"] if m["type"] == "ai"}
    assert ai_names == {agent_name}  # also overwrites the model's own name with None


# ---- a dangling tool call in the input --------------------------------------------------------


def dangling_tool_call(ns):
    calls = [
        {"name": "check_weather", "args": {"location": f"c{i}"}, "id": f"call_{i}"}
        for i in range(4)
    ]
    history = [ns.HumanMessage("hi", id="h"), ns.AIMessage("", id="a", tool_calls=calls)]
    agent = ns.create_react_agent(ns.FakeToolCallingModel(), [check_weather])
    return agent.invoke({"messages": history})


def test_dangling_tool_call():
    result = assert_same(dangling_tool_call)
    assert result[1] == "ValueError"
    assert "INVALID_CHAT_HISTORY" in result[2] and "call_3" not in result[2]


# ---- v1 with a post_model_hook; v1 vs v2 updates -----------------------------------------------


def v1_post_model_hook(ns):
    model = ns.FakeToolCallingModel(
        tool_calls=[[{"name": "check_weather", "args": {"location": "sf"}, "id": "1"}], []]
    )
    agent = ns.create_react_agent(
        model, [check_weather], post_model_hook=lambda s: {}, version="v1"
    )
    return agent.invoke({"messages": [ns.HumanMessage("hi", id="h")]})


def test_v1_post_model_hook_fails_like_upstream():
    result = assert_same(v1_post_model_hook)
    assert is_error(result) and result[1] == "KeyError"


def parallel_updates(ns, version):
    calls = [
        {"name": "check_weather", "args": {"location": "sf"}, "id": "call_1"},
        {"name": "check_weather", "args": {"location": "nyc"}, "id": "call_2"},
    ]
    model = ns.FakeToolCallingModel(tool_calls=[calls, []])
    agent = ns.create_react_agent(model, [check_weather], version=version)
    chunks = list(
        agent.stream({"messages": [ns.HumanMessage("hi", id="h")]}, stream_mode="updates")
    )
    # v2 runs one "tools" task per call. Upstream runs them on a thread pool and streams each
    # update as it finishes, so their order changes from run to run; ours is the Send order.
    # Put the "tools" chunks in tool-call order on both sides before comparing.
    tools = sorted(
        (c for c in chunks if "tools" in c),
        key=lambda c: [m.tool_call_id for m in c["tools"]["messages"]],
    )
    return [tools.pop(0) if "tools" in c else c for c in chunks]


@pytest.mark.parametrize("version", ["v1", "v2"])
def test_parallel_tool_call_updates(version):
    chunks = assert_same(parallel_updates, version=version)
    assert [next(iter(c)) for c in chunks] == (
        ["agent", "tools", "agent"] if version == "v1" else ["agent", "tools", "tools", "agent"]
    )


# ---- the three stream modes of spec §7 -------------------------------------------------------------


def stream_modes(ns, mode, version):
    agent = ns.create_react_agent(
        weather_script(ns), [check_weather], prompt="You are a helpful assistant", version=version
    )
    out = []
    for item in agent.stream(QUESTION, stream_mode=mode):
        if mode == "messages":
            message, meta = item
            item = (message, {k: meta[k] for k in ("langgraph_step", "langgraph_node")})
        out.append(item)
    return out


@pytest.mark.parametrize("mode", ["updates", "values", "messages"])
@pytest.mark.parametrize("version", ["v1", "v2"])
def test_stream_modes(mode, version):
    chunks = assert_same(stream_modes, mode=mode, version=version)
    if mode == "updates":
        assert [next(iter(c)) for c in chunks] == ["agent", "tools", "agent"]
    elif mode == "values":
        assert [len(c["messages"]) for c in chunks] == [1, 2, 3, 4]
        assert chunks[-1]["messages"][-1]["content"] == "It's sunny in SF."
    else:
        assert [meta["langgraph_node"] for _, meta in chunks][-1] == "agent"
        assert any(meta["langgraph_node"] == "tools" for _, meta in chunks)
