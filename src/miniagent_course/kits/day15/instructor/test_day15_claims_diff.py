"""The Day 15 page's claims about ``ToolStrategy``, run on both libraries.

* Every request of the capstone carries ``tool_choice: "required"``: ``create_agent`` binds the
  tools with ``tool_choice="any"`` when a ``ToolStrategy`` has structured-output tools
  (``factory.py:1478``) and ChatOpenAI spells ``"any"`` as ``"required"`` (``base.py:2589``). A
  server that honours it must call a tool: it cannot answer in prose.
* A run that ends without the structured tool (a plain reply from a model that ignores
  ``tool_choice``, or the model budget) has ``structured_response`` in its final state, ``None``:
  every model call of a ``response_format`` agent writes it (``_build_commands``). It is absent
  only when no model call ran.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

pytest.importorskip("langchain_openai")

from langchain_openai import ChatOpenAI as UpChatOpenAI  # noqa: E402

from miniagent.openai import ChatOpenAI as MiniChatOpenAI  # noqa: E402
from miniagent_course.kits.day15 import cases as day15  # noqa: E402
from miniagent_course.lab.loopback import LoopbackServer, Reply, completion  # noqa: E402
from miniagent_course.sides import mini, upstream  # noqa: E402

SIDES = {"mini": (mini(), MiniChatOpenAI), "up": (upstream(), UpChatOpenAI)}
ORDER = {"order_id": "WO-1", "customer_id": "C-1", "priority": "high", "escalated": False}
CREATE = {"customer_id": "C-1", "title": "Pump leaks", "priority": "high"}
USER = {"messages": [{"role": "user", "content": "C-1 reports a leaking pump, high priority."}]}


def over_the_wire(side: str, replies: list[Reply]) -> tuple[dict[str, Any], list[dict]]:
    """The capstone on the side's ChatOpenAI, served by the loopback server."""
    lib, chat_openai = SIDES[side]
    with LoopbackServer(replies) as server:
        model = chat_openai(
            model="loop-model", base_url=server.base_url, api_key="sk-test", max_retries=0
        )
        out = day15.build(lib, model).invoke(USER)
        return out, server.bodies


def test_every_request_of_the_capstone_requires_a_tool_call():
    def script() -> list[Reply]:
        return [
            Reply.json(completion(None, [("c1", "lookup_customer", '{"customer_id": "C-1"}')])),
            Reply.json(completion(None, [("c2", "create_work_order", json.dumps(CREATE))])),
            Reply.json(completion(None, [("c3", "WorkOrder", json.dumps(ORDER))])),
        ]

    (mini_out, mini_bodies), (up_out, up_bodies) = (
        over_the_wire("mini", script()),
        over_the_wire("up", script()),
    )
    assert mini_bodies == up_bodies
    assert [body["tool_choice"] for body in up_bodies] == ["required"] * 3
    assert mini_out["structured_response"].model_dump() == ORDER
    assert up_out["structured_response"].model_dump() == ORDER


def test_a_server_that_ignores_tool_choice_can_end_the_run_in_prose():
    """Only a server that does not honour ``"required"`` can do this; the key is then ``None``."""
    results = {}
    for side in SIDES:
        out, bodies = over_the_wire(side, [Reply.json(completion("Which customer?"))])
        results[side] = (sorted(out), out["structured_response"], bodies[0]["tool_choice"])
    assert (
        results["mini"] == results["up"] == (["messages", "structured_response"], None, "required")
    )


def final_state(side: str, key: str) -> dict[str, Any]:
    lib = SIDES[side][0]
    model = day15.scripted_model(lib, key)
    text, extra, _ = day15.CONVERSATIONS[key]
    out = day15.build(lib, model).invoke({"messages": [("user", text)], **extra})
    return {
        "keys": sorted(k for k in out if k != "current_order"),
        "structured_response": out["structured_response"],
        "tool_choice": [call["kwargs"].get("tool_choice") for call in model.calls],
        "last": out["messages"][-1].content,
    }


@pytest.mark.parametrize("key", ["refused", "budget"])
def test_a_run_without_the_structured_tool_ends_with_structured_response_none(key: str):
    mini_state, up_state = final_state("mini", key), final_state("up", key)
    assert mini_state == up_state
    assert "structured_response" in up_state["keys"]  # present, not absent
    assert up_state["structured_response"] is None
    # the scripted fake is asked for a tool call ("any") at every call and ignores it
    assert set(up_state["tool_choice"]) == {"any"}


def test_structured_response_is_absent_only_when_no_model_call_ran():
    def keys(side: str) -> list[str]:
        lib = SIDES[side][0]
        ns = day15._lib(lib)
        agent = ns.create_agent(
            day15.scripted_model(lib, "happy"),
            tools=day15.work_order_tools(lib),
            middleware=[ns.mw.ModelCallLimitMiddleware(run_limit=0, exit_behavior="end")],
            response_format=ns.ToolStrategy(day15.WorkOrder),
        )
        return sorted(agent.invoke(USER))

    assert keys("mini") == keys("up") == ["messages"]


def test_a_later_turn_without_the_structured_tool_clears_the_earlier_result():
    """No stale ``WorkOrder`` from the last turn: the model call of this one wrote ``None``."""

    def turns(side: str) -> tuple[str, Any]:
        lib = SIDES[side][0]
        ns = day15._lib(lib)
        replies = [*day15.script(lib, "happy"), ns.AIMessage("Anything else?", id="ai_9")]
        agent = ns.create_agent(
            ns.ScriptedChatModel(replies),
            tools=day15.work_order_tools(lib),
            state_schema=day15.state_schema(lib),
            response_format=ns.ToolStrategy(day15.WorkOrder),
            checkpointer=lib.InMemorySaver(),
        )
        config = {"configurable": {"thread_id": "t1"}}
        first = agent.invoke(USER, config)["structured_response"]
        second = agent.invoke({"messages": [("user", "Thanks.")]}, config)
        return first.order_id, second["structured_response"]

    assert turns("mini") == turns("up") == ("WO-1", None)
