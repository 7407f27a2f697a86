"""``miniagent.agents`` behaviour the differential tests do not reach, and the graph pieces
``create_agent`` needs (``EphemeralValue``, the state a ``Send`` task reads)."""

from __future__ import annotations

import asyncio
import operator
import warnings
from typing import Annotated

import pytest
from pydantic import BaseModel
from typing_extensions import NotRequired, TypedDict

from miniagent.agents import AgentState, create_agent
from miniagent.agents.factory import _supports_provider_strategy
from miniagent.agents.middleware import ModelRequest, before_model, hook_config, wrap_model_call
from miniagent.agents.structured_output import AutoStrategy, ProviderStrategy, ToolStrategy
from miniagent.errors import InvalidUpdateError
from miniagent.graph import END, START, StateGraph
from miniagent.graph.state import EphemeralValue, LastValue
from miniagent.messages import AIMessage, HumanMessage
from miniagent.prebuilt import InjectedState
from miniagent.testing import ScriptedChatModel
from miniagent.tools import tool


class Weather(BaseModel):
    """Weather report."""

    temperature: float


# ---- graph pieces ------------------------------------------------------------------------------


class _EphemeralState(TypedDict):
    log: Annotated[list, operator.add]
    flag: NotRequired[Annotated[str, EphemeralValue]]


def test_ephemeral_value_is_seen_by_the_next_step_only():
    def first(state):
        return {"flag": "set", "log": ["first"]}

    def second(state):
        return {"log": [f"second saw {state.get('flag')}"]}

    def third(state):
        return {"log": [f"third saw {state.get('flag')}"]}

    graph = StateGraph(_EphemeralState)
    graph.add_node("first", first).add_node("second", second).add_node("third", third)
    graph.add_edge(START, "first").add_edge("first", "second").add_edge("second", "third")
    graph.add_edge("third", END)
    result = graph.compile().invoke({"log": []})
    assert result["log"] == ["first", "second saw set", "third saw None"]
    assert "flag" not in result


def test_ephemeral_value_guards_two_writes_in_one_step():
    channel = EphemeralValue(str)
    channel.key = "flag"
    with pytest.raises(InvalidUpdateError, match="can receive only one value per step"):
        channel.update(None, ["a", "b"])
    assert EphemeralValue(str, guard=False).update(None, ["a", "b"]) == "b"


def test_last_value_keeps_its_value_in_a_step_that_does_not_write_it():
    assert LastValue(int, "x").update(3, []) == 3


def test_a_tools_task_sent_a_bare_call_list_reads_the_graph_state():
    seen = []

    @tool
    def count_messages(state: Annotated[dict, InjectedState]) -> str:
        """Count the messages."""
        seen.append([m.type for m in state["messages"]])
        return str(len(state["messages"]))

    call = {"name": "count_messages", "args": {}, "id": "c1"}
    model = ScriptedChatModel([AIMessage("", id="a1", tool_calls=[call]), AIMessage("done")])
    create_agent(model, [count_messages]).invoke({"messages": [HumanMessage("hi")]})
    assert seen == [["human", "ai"]]


# ---- create_agent --------------------------------------------------------------------------------


def test_a_model_string_goes_through_init_chat_model(monkeypatch):
    import miniagent.chat_models

    model = ScriptedChatModel([AIMessage("ok", id="a1")])
    asked = []
    monkeypatch.setattr(
        miniagent.chat_models, "init_chat_model", lambda name: asked.append(name) or model
    )
    result = create_agent("openai:gpt-4o").invoke({"messages": [("user", "hi")]})
    assert asked == ["openai:gpt-4o"]
    assert result["messages"][-1].content == "ok"


def test_the_system_prompt_reaches_the_model_but_not_the_state():
    model = ScriptedChatModel([AIMessage("ok", id="a1")])
    result = create_agent(model, system_prompt="Be brief").invoke({"messages": [("user", "hi")]})
    assert [m.type for m in model.calls[0]["messages"]] == ["system", "human"]
    assert [m.type for m in result["messages"]] == ["human", "ai"]


def test_name_is_set_on_the_reply_and_in_the_config():
    model = ScriptedChatModel([AIMessage("ok", id="a1")])
    agent = create_agent(model, name="helper")
    assert agent.invoke({"messages": [("user", "hi")]})["messages"][-1].name == "helper"
    assert agent.config["metadata"]["lc_agent_name"] == "helper"


def test_hook_config_marks_a_method():
    @hook_config(can_jump_to=["end"])
    def hook(self, state, runtime):
        return None

    assert hook.__can_jump_to__ == ["end"]

    @before_model(can_jump_to=["model"])
    def stop(state, runtime):
        return None

    assert type(stop).before_model.__can_jump_to__ == ["model"]
    assert stop.name == "stop"


def test_model_request_warns_on_direct_assignment():
    model = ScriptedChatModel([])
    request = ModelRequest(model=model, messages=[])
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        request.system_prompt = "new"
    assert request.system_message.content == "new"
    assert "request.override(system_message=SystemMessage(...))" in str(caught[0].message)
    with pytest.raises(ValueError, match="Cannot specify both system_prompt and system_message"):
        request.override(system_prompt="a", system_message=None)


def test_a_wrap_model_call_may_short_circuit_with_an_ai_message():
    @wrap_model_call
    async def cached(request, handler):
        return AIMessage("from cache", id="c")

    model = ScriptedChatModel([])
    agent = create_agent(model, middleware=[cached])
    result = asyncio.run(agent.ainvoke({"messages": [("user", "hi")]}))
    assert [m.content for m in result["messages"]] == ["hi", "from cache"]
    assert model.calls == []


# ---- structured output: provider and auto strategy ----------------------------------------


class NamedModel(ScriptedChatModel):
    model_name: str = "gpt-4o"


def test_auto_strategy_picks_the_provider_strategy_for_a_known_model_name():
    assert _supports_provider_strategy("openai:gpt-4o")
    assert not _supports_provider_strategy(ScriptedChatModel([]))
    model = NamedModel([AIMessage('{"temperature": 70}', id="a1")])
    result = create_agent(model, response_format=Weather).invoke({"messages": [("user", "hi")]})
    assert result["structured_response"] == Weather(temperature=70)
    kwargs = model.calls[0]["kwargs"]
    assert kwargs["response_format"]["json_schema"]["name"] == "Weather"


def test_auto_strategy_falls_back_to_the_tool_strategy():
    call = {"name": "Weather", "args": {"temperature": 1}, "id": "s1"}
    model = ScriptedChatModel([AIMessage("", id="a1", tool_calls=[call])])
    agent = create_agent(model, response_format=AutoStrategy(Weather))
    result = agent.invoke({"messages": [("user", "hi")]})
    assert result["structured_response"] == Weather(temperature=1)
    assert model.calls[0]["kwargs"]["tool_choice"] == "any"


def test_provider_strategy_reply_that_is_not_json_raises():
    model = NamedModel([AIMessage("not json", id="a1")])
    agent = create_agent(model, response_format=ProviderStrategy(Weather))
    with pytest.raises(Exception, match="Failed to parse structured output for tool 'Weather'"):
        agent.invoke({"messages": [("user", "hi")]})


def test_tool_strategy_names_one_tool_per_union_variant():
    class Place(BaseModel):
        """A place."""

        name: str

    assert [s.name for s in ToolStrategy(Weather | Place).schema_specs] == ["Weather", "Place"]


def test_agent_state_fields():
    assert set(AgentState.__annotations__) == {"messages", "jump_to", "structured_response"}
