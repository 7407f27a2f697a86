"""Graders for day09: ``_are_more_steps_needed`` (chat_agent_executor.py:620) and the repair.

``impl.make_are_more_steps_needed(should_return_direct)`` returns the learner's check. Three
groups of graders:

* the check alone, on dict and pydantic states;
* the check inside real miniagent agents: each run puts the learner's function in the cell
  ``call_model`` reads (``swap_closure``), built from that agent's own ``should_return_direct``,
  and is compared with an untouched agent built the same way -- same ending, same number of
  tool runs, same ``remaining_steps`` seen by the prompt, same messages;
* the repair: ``impl.answer`` (the travel desk, repaired) in each of the desk's scenarios
  (``cases.SCENARIOS``), with the agent and its loop left as they are (``cases.UNTOUCHED``).
"""

from __future__ import annotations

import asyncio
import inspect
from collections.abc import Sequence
from typing import Annotated, Any

import pytest
from pydantic import BaseModel
from typing_extensions import NotRequired, TypedDict

from miniagent.errors import GraphRecursionError
from miniagent.graph.message import add_messages
from miniagent.messages import AIMessage, BaseMessage, HumanMessage, ToolMessage
from miniagent.prebuilt import create_react_agent
from miniagent.prebuilt.chat_agent_executor import AgentStatePydantic
from miniagent.testing import ScriptedChatModel
from miniagent.tools import tool
from miniagent_course.grading.closures import agent_node_function, closure_vars, swap_closure
from miniagent_course.grading.judgments import judgment_graders
from miniagent_course.kits.day09.cases import SCENARIOS, UNTOUCHED

SORRY = "Sorry, need more steps to process this request."
MISSING = object()


# --- the check alone --------------------------------------------------------------------------


class NoStepsState(BaseModel):
    """A pydantic state without ``remaining_steps`` (a custom schema may lack it)."""

    messages: list = []


def state(kind: str, remaining: Any = MISSING) -> Any:
    """A dict or pydantic agent state holding ``remaining_steps`` (or not)."""
    if kind == "dict":
        return (
            {"messages": []}
            if remaining is MISSING
            else {"messages": [], "remaining_steps": remaining}
        )
    if remaining is MISSING:
        return NoStepsState()
    return AgentStatePydantic(messages=[], remaining_steps=remaining)


def answer() -> AIMessage:
    return AIMessage("The answer is 42.", id="ai-1")


def calls(*names: str) -> AIMessage:
    tool_calls = [{"name": n, "args": {}, "id": f"call-{i}"} for i, n in enumerate(names)]
    return AIMessage("", id="ai-1", tool_calls=tool_calls)


def check(impl, should_return_direct=frozenset(), kind="dict", remaining=MISSING, response=None):
    fn = impl.make_are_more_steps_needed(set(should_return_direct))
    result = fn(state(kind, remaining), response if response is not None else answer())
    assert isinstance(result, bool), f"expected True or False, got {result!r}"
    return result


KINDS = pytest.mark.parametrize("kind", ["dict", "pydantic"])


def test_returns_a_function_of_state_and_response(impl):
    fn = impl.make_are_more_steps_needed({"finish"})
    assert callable(fn), "make_are_more_steps_needed must return a function"
    assert len(inspect.signature(fn).parameters) == 2, "the check takes (state, response)"
    assert fn({"messages": [], "remaining_steps": 9}, answer()) is False


@KINDS
def test_a_state_without_remaining_steps_never_gives_up(impl, kind):
    for response in (answer(), calls("search"), calls("finish")):
        assert check(impl, {"finish"}, kind, MISSING, response) is False, (
            f"no remaining_steps in the state, response {response.tool_calls or response.content!r}"
        )


@KINDS
@pytest.mark.parametrize("remaining", [1, 2, 25])
def test_a_final_answer_is_kept_while_a_step_is_left(impl, kind, remaining):
    assert check(impl, set(), kind, remaining, answer()) is False


@KINDS
@pytest.mark.parametrize("remaining", [0, -1])
def test_a_final_answer_with_no_step_left_gives_up(impl, kind, remaining):
    # all([]) is True: an AIMessage without tool calls counts as "all calls return directly".
    assert check(impl, set(), kind, remaining, answer()) is True


@KINDS
@pytest.mark.parametrize(("remaining", "expected"), [(3, False), (2, False), (1, True), (0, True)])
def test_a_tool_call_needs_two_steps(impl, kind, remaining, expected):
    assert check(impl, set(), kind, remaining, calls("search")) is expected


@KINDS
@pytest.mark.parametrize(("remaining", "expected"), [(2, False), (1, True), (0, True), (-3, True)])
def test_return_direct_calls_and_mixed_calls(impl, kind, remaining, expected):
    assert check(impl, {"finish"}, kind, remaining, calls("finish")) is expected
    assert check(impl, {"finish"}, kind, remaining, calls("finish", "search")) is expected


@KINDS
def test_a_response_that_is_not_an_ai_message_never_gives_up(impl, kind):
    tool_message = ToolMessage("done", tool_call_id="call-0", id="t-1")
    for remaining in (0, -1):
        assert check(impl, set(), kind, remaining, tool_message) is False
        assert check(impl, set(), kind, remaining, HumanMessage("hi", id="h-1")) is False


# --- inside real agents -----------------------------------------------------------------------


class PlainStepsState(TypedDict):
    """``remaining_steps`` declared as a plain int: it passes the schema check, and is never set."""

    messages: Annotated[Sequence[BaseMessage], add_messages]
    remaining_steps: NotRequired[int]


def tool_call(n: int, name: str = "noop") -> AIMessage:
    return AIMessage("", id=f"ai-{n}", tool_calls=[{"name": name, "args": {}, "id": f"call-{n}"}])


def run_agent(impl, script, limit, *, swap, return_direct=False, schema=None, asynchronous=False):
    """Build an agent, maybe with the learner's check, run it; what happened, as plain data.

    ``script`` is the model's replies, in order: a tool name (the model calls that tool) or any
    other text (the model answers with it).
    """
    runs: list[str] = []
    seen: list[Any] = []

    @tool(return_direct=return_direct)
    def noop() -> str:
        """Do nothing."""
        runs.append("noop")
        return "noop ran"

    def prompt(state):  # a callable prompt sees the whole state, managed values included
        if isinstance(state, dict):
            seen.append(state.get("remaining_steps", "missing"))
            return state["messages"]
        seen.append(state.remaining_steps)
        return state.messages

    replies = [
        tool_call(n) if s == "noop" else AIMessage(s, id=f"ai-{n}") for n, s in enumerate(script)
    ]
    model = ScriptedChatModel(replies)
    agent = create_react_agent(model, [noop], prompt=prompt, state_schema=schema)
    if swap:
        call_model = agent_node_function(agent)
        real = closure_vars(call_model)["_are_more_steps_needed"]
        mine = impl.make_are_more_steps_needed(closure_vars(real)["should_return_direct"])
        swap_closure(call_model, "_are_more_steps_needed", mine)
    updates: list[tuple[str, list[str]]] = []
    config = {"recursion_limit": limit}
    inputs = {"messages": [HumanMessage("go", id="h-1")]}
    try:
        if asynchronous:

            async def collect():
                async for chunk in agent.astream(inputs, config, stream_mode="updates"):
                    updates.extend(chunk.items())

            asyncio.run(collect())
        else:
            for chunk in agent.stream(inputs, config, stream_mode="updates"):
                updates.extend(chunk.items())
        ending = "returned"
    except GraphRecursionError as error:
        ending = str(error)
    written = [
        (node, [(m.type, m.content, bool(getattr(m, "tool_calls", None))) for m in u["messages"]])
        for node, u in updates
    ]
    return {"ending": ending, "tool_runs": len(runs), "seen": seen, "written": written}


def same_as_the_real_agent(impl, script, limit, **options):
    """Run the learner's agent and an untouched one; they must agree on everything."""
    mine = run_agent(impl, script, limit, swap=True, **options)
    real = run_agent(impl, script, limit, swap=False, **options)
    assert mine["ending"] == real["ending"], (
        f"recursion_limit={limit}: the run should end with {real['ending']!r}, "
        f"but with your check it ended with {mine['ending']!r}"
    )
    assert mine["tool_runs"] == real["tool_runs"], (
        f"recursion_limit={limit}: the tool should run {real['tool_runs']} time(s), "
        f"not {mine['tool_runs']}"
    )
    assert mine["written"] == real["written"], (
        f"recursion_limit={limit}: the nodes should write {real['written']}, not {mine['written']}"
    )
    assert mine["seen"] == real["seen"]
    return real


@pytest.mark.parametrize("limit", [2, 3, 4, 5, 6, 7, 25])
def test_agent_whose_model_always_calls_a_tool(impl, limit):
    real = same_as_the_real_agent(impl, ["noop"] * 20, limit)
    last_agent_write = [w for node, w in real["written"] if node == "agent"][-1]
    assert last_agent_write == [("ai", SORRY, False)]  # both endings start with the Sorry reply


@pytest.mark.parametrize("limit", [3, 4])
def test_agent_with_a_pydantic_state(impl, limit):
    same_as_the_real_agent(impl, ["noop"] * 20, limit, schema=AgentStatePydantic)


def test_agent_answer_with_one_step_left_is_kept(impl):
    real = same_as_the_real_agent(impl, ["noop", "The answer is 42."], 4)
    assert real["seen"] == [3, 1] and real["ending"] == "returned"
    assert real["written"][-1] == ("agent", [("ai", "The answer is 42.", False)])


def test_agent_answer_with_no_step_left_is_replaced_then_the_run_fails(impl):
    real = same_as_the_real_agent(impl, ["noop", "The answer is 42."], 3)
    assert real["seen"] == [2, 0] and real["ending"].startswith("Recursion limit of 3 reached")
    assert real["written"][-1] == ("agent", [("ai", SORRY, False)])


def test_agent_without_the_managed_value_never_lands_softly(impl):
    real = same_as_the_real_agent(impl, ["noop"] * 20, 4, schema=PlainStepsState)
    assert real["seen"] == ["missing", "missing"] and real["tool_runs"] == 2


@pytest.mark.parametrize("limit", [1, 2, 3])
def test_agent_with_a_return_direct_tool(impl, limit):
    same_as_the_real_agent(impl, ["noop"] * 20, limit, return_direct=True)


@pytest.mark.parametrize("limit", [4, 5])
def test_async_agent_uses_the_same_check(impl, limit):
    # call_model and acall_model read the same cell: the swap reaches both.
    same_as_the_real_agent(impl, ["noop"] * 20, limit, asynchronous=True)


# --- the repair: the travel desk's scenarios (the repair kind, grading/judgments.py) -----------

(test_repaired,) = judgment_graders(
    __file__,
    scenarios={
        name: (lambda impl, check=check: check(impl.answer)) for name, check in SCENARIOS.items()
    },
    untouched=UNTOUCHED,
)
