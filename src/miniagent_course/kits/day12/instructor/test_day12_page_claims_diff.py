"""Day 12's claims about ``GenericFakeChatModel`` and the two ``version`` parameters, on both
libraries.

* The page used to say a fake that cannot stream tool calls makes "the agent stop after the first
  reply". With upstream's ``GenericFakeChatModel`` that holds only for a reply with text; the
  usual tool-call reply, with empty content, streams no chunk and the run fails with
  ``ValueError: No generations found in stream.``. The same script runs in full with ``invoke``
  and in ``updates`` mode.
* ``create_react_agent(..., version=...)`` (how tool calls are dispatched) and
  ``stream(..., version=...)`` (the format of the items) are independent.
"""

from __future__ import annotations

import warnings
from typing import Any

import pytest

pytest.importorskip("langgraph")

from miniagent_course.sides import mini, upstream  # noqa: E402

CALL = {"name": "add", "args": {"a": 2, "b": 3}, "id": "c1"}


def generic_fake(lib: Any) -> Any:
    if lib.name == "miniagent":
        from miniagent.testing import GenericFakeChatModel
    else:
        from langchain_core.language_models.fake_chat_models import GenericFakeChatModel
    return GenericFakeChatModel


def add_tool(lib: Any) -> Any:
    @lib.tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    return add


def hand_built(lib: Any, content: str) -> Any:
    """model -> tools_condition -> ToolNode -> model, around a GenericFakeChatModel whose first
    reply calls ``add`` with ``content`` as its text."""
    model = generic_fake(lib)(
        messages=iter([lib.AIMessage(content, id="r1", tool_calls=[CALL]), lib.AIMessage("5")])
    )

    def call_model(state):
        return {"messages": [model.invoke(state["messages"])]}

    graph = lib.StateGraph(lib.MessagesState)
    graph.add_node("model", call_model)
    graph.add_node("tools", lib.ToolNode([add_tool(lib)]))
    graph.add_edge(lib.START, "model")
    graph.add_conditional_edges("model", lib.tools_condition)
    graph.add_edge("tools", "model")
    return graph.compile()


QUESTION = "2 + 3?"


def run(lib: Any, content: str, how: str) -> Any:
    """The final state's messages as (type, has tool calls), or the error. ``how``: invoke;
    messages (the final state read from a ``values`` stream beside it); updates (then the nodes
    that ran)."""
    app = hand_built(lib, content)
    inputs = {"messages": [lib.HumanMessage(QUESTION, id="h1")]}
    try:
        if how == "invoke":
            final = app.invoke(inputs)
        elif how == "updates":  # the nodes that ran, in order
            return [node for item in app.stream(inputs, stream_mode="updates") for node in item]
        else:
            items = list(app.stream(inputs, stream_mode=["messages", "values"]))
            final = [data for mode, data in items if mode == "values"][-1]
    except Exception as error:
        return type(error).__name__, str(error)
    return [(m.type, bool(getattr(m, "tool_calls", None))) for m in final["messages"]]


def on_both(call: Any, *args: Any) -> Any:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        mine, theirs = call(mini(), *args), call(upstream(), *args)
    assert mine == theirs
    return mine


FULL_RUN = [("human", False), ("ai", True), ("tool", False), ("ai", False)]


def test_an_empty_tool_call_reply_fails_the_messages_stream():
    assert on_both(run, "", "messages") == ("ValueError", "No generations found in stream.")


def test_a_tool_call_reply_with_text_loses_its_calls_and_the_loop_ends():
    assert on_both(run, "Let me add.", "messages") == [("human", False), ("ai", False)]


@pytest.mark.parametrize("content", ["", "Let me add."])
def test_the_same_script_runs_in_full_without_token_streaming(content):
    assert on_both(run, content, "invoke") == FULL_RUN
    assert on_both(run, content, "updates") == ["model", "tools", "model"]


def test_generic_fake_cannot_bind_tools_so_create_react_agent_refuses_it():
    def build(lib):
        model = generic_fake(lib)(messages=iter(["hi"]))
        try:
            lib.create_react_agent(model, [add_tool(lib)])
        except NotImplementedError:
            return "NotImplementedError"
        return "built"

    assert on_both(build) == "NotImplementedError"


@pytest.mark.parametrize("stream_version", ["v1", "v2"])
@pytest.mark.parametrize("agent_version", ["v1", "v2"])
def test_the_agents_version_and_the_streams_version_are_independent(agent_version, stream_version):
    """The agent's version decides how many ``tools`` items there are; the stream's, how each
    item is wrapped. (v2 dispatch: the two ``tools`` items come in completion order upstream, so
    they are compared as counts.)"""

    def items(lib):
        calls = [CALL, {**CALL, "args": {"a": 1, "b": 1}, "id": "c2"}]
        model = lib.FakeToolCallingModel(tool_calls=[calls, []])
        agent = lib.create_react_agent(model, [add_tool(lib)], version=agent_version)
        inputs = {"messages": [lib.HumanMessage(QUESTION, id="h1")]}
        out = []
        for item in agent.stream(inputs, stream_mode="updates", version=stream_version):
            wrapped = isinstance(item, dict) and list(item) == ["type", "ns", "data"]
            update = item["data"] if wrapped else item
            for node, value in update.items():
                out.append((wrapped, node, len(value["messages"])))
        return out

    got = on_both(items)
    wrapped = stream_version == "v2"
    tools = [(wrapped, "tools", 2)] if agent_version == "v1" else [(wrapped, "tools", 1)] * 2
    assert got == [(wrapped, "agent", 1), *tools, (wrapped, "agent", 1)]
