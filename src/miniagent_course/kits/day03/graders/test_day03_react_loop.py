"""Graders for day03: the ReAct loop by hand (``run_loop``) and the predictions.

``impl.run_loop(model, tools, messages, max_steps)`` is the learner's loop. Three groups:

* the loop against ``create_react_agent(model, ToolNode(tools, handle_tool_errors=True))`` on
  every script of ``src/miniagent_course/kits/day03/cases.py`` (miniagent's agent, run here, at
  ``recursion_limit = 2 * max_steps``): the same messages, compared with ``message_trace``;
* one rule at a time, each with its own message: what the model sees, the pairing, errors fed
  back, an unknown tool, the cap; and the loop taking over a conversation a real agent started;
* ``impl.predictions()`` against the default agent, run here on every script.
"""

from __future__ import annotations

import pytest

from miniagent.messages import AIMessage, HumanMessage, ToolMessage
from miniagent.prebuilt.chat_agent_executor import _validate_chat_history
from miniagent.testing import ScriptedChatModel, message_trace
from miniagent_course.grading.judgments import judgment_graders
from miniagent_course.kits.day03.cases import (
    LOOP_SCRIPTS,
    PREDICTED,
    SORRY,
    Script,
    agent_run,
    loop_run,
    what_the_agent_does,
)
from miniagent_course.sides import mini

LIB = mini()


def call(name: str, n: int = 1, **args) -> dict:
    return {"name": name, "args": args, "id": f"call_{n}"}


def counted_tools(runs: list[str]) -> list:
    """``add`` and ``fail``, each noting in ``runs`` that it ran."""

    @LIB.tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        runs.append("add")
        return a + b

    @LIB.tool
    def fail(x: int) -> int:
        """Always fails."""
        runs.append("fail")
        raise ValueError(f"cannot use {x}")

    return [add, fail]


def scripted(*replies: AIMessage) -> ScriptedChatModel:
    return ScriptedChatModel(list(replies))


def asks(*calls: dict, n: int = 0) -> AIMessage:
    return AIMessage("", id=f"r{n}", tool_calls=list(calls))


# --- the loop against create_react_agent --------------------------------------------------------


@pytest.mark.parametrize("name", LOOP_SCRIPTS)
def test_ends_as_create_react_agent_does(impl, name):
    expected = agent_run(LIB, name, handle_tool_errors=True)
    assert loop_run(LIB, name, impl.run_loop) == expected, (
        f"script {name!r}: your loop's messages should be create_react_agent's (left: yours)"
    )


@pytest.mark.parametrize("max_steps", [1, 2, 4])
def test_the_cap_ends_as_the_agents_soft_landing(impl, max_steps):
    endless = Script(((call("add", a=1, b=1),),), max_steps=max_steps)
    expected = agent_run(LIB, endless, handle_tool_errors=True)
    assert loop_run(LIB, endless, impl.run_loop) == expected


# --- one rule at a time -------------------------------------------------------------------------


def test_an_answer_ends_the_loop_at_once(impl):
    model = scripted(AIMessage("5", id="r0"))
    result = impl.run_loop(model, counted_tools([]), [("user", "2 + 3?")], 5)
    assert [(m.type, m.content) for m in result] == [("human", "2 + 3?"), ("ai", "5")]
    assert len(model.calls) == 1, "a reply without tool calls is the answer: call the model once"


def test_the_input_is_left_alone_and_new_messages_get_ids(impl):
    question = HumanMessage("2 + 3?", id="h1")
    messages = [question]
    model = scripted(asks(call("add", a=2, b=3)), AIMessage("5", id="r1"))
    result = impl.run_loop(model, counted_tools([]), messages, 5)
    assert messages == [question], "run_loop must not change the caller's list"
    assert result[0] is question or result[0] == question
    assert all(m.id for m in result), "every message in the history has an id (add_messages)"


def test_the_model_is_bound_to_the_tools_on_every_call(impl):
    model = scripted(asks(call("add", a=2, b=3)), AIMessage("5", id="r1"))
    impl.run_loop(model, counted_tools([]), [("user", "2 + 3?")], 5)
    for n, seen in enumerate(model.calls, 1):
        bound = seen["kwargs"].get("tools") or []
        names = [t.get("function", {}).get("name") for t in bound]
        assert names == ["add", "fail"], f"model call {n} was sent the tools {names}"


def test_the_model_sees_the_whole_history_with_every_result(impl):
    first = asks(call("add", 1, a=1, b=2), call("add", 2, a=3, b=4))
    model = scripted(first, AIMessage("3 and 7", id="r1"))
    impl.run_loop(model, counted_tools([]), [("user", "1 + 2 and 3 + 4?")], 5)
    assert len(model.calls) == 2
    seen = model.calls[1]["messages"]
    assert [m.type for m in seen] == ["human", "ai", "tool", "tool"], (
        "the second call must see the question, the reply and one ToolMessage per call"
    )
    assert [m.tool_call_id for m in seen[2:]] == ["call_1", "call_2"]
    assert [m.content for m in seen[2:]] == ["3", "7"]


def test_every_call_runs_its_tool_once(impl):
    runs: list[str] = []
    replies = [asks(call("add", 1, a=1, b=2), call("add", 2, a=3, b=4)), AIMessage("ok", id="r1")]
    impl.run_loop(scripted(*replies), counted_tools(runs), [("user", "go")], 5)
    assert runs == ["add", "add"]


def test_a_raising_tool_is_fed_back_as_an_error(impl):
    runs: list[str] = []
    model = scripted(asks(call("fail", x=7)), AIMessage("sorry, it failed", id="r1"))
    result = impl.run_loop(model, counted_tools(runs), [("user", "go")], 5)
    assert runs == ["fail"]
    tool_message = result[2]
    assert isinstance(tool_message, ToolMessage), "the error goes into the history as a ToolMessage"
    assert tool_message.content == "Error: ValueError('cannot use 7')\n Please fix your mistakes."
    assert (tool_message.status, tool_message.name, tool_message.tool_call_id) == (
        "error",
        "fail",
        "call_1",
    )
    assert result[-1].content == "sorry, it failed", "after an error the model is called again"


def test_an_unknown_tool_is_named_and_nothing_runs(impl):
    runs: list[str] = []
    model = scripted(asks(call("multiply", a=2, b=3)), AIMessage("ok", id="r1"))
    result = impl.run_loop(model, counted_tools(runs), [("user", "2 * 3?")], 5)
    assert runs == []
    tool_message = result[2]
    assert tool_message.content == "Error: multiply is not a valid tool, try one of [add, fail]."
    assert (tool_message.status, tool_message.name, tool_message.tool_call_id) == (
        "error",
        "multiply",
        "call_1",
    )


@pytest.mark.parametrize("max_steps", [1, 3])
def test_the_cap_runs_no_tool_for_the_last_reply(impl, max_steps):
    runs: list[str] = []
    replies = [asks(call("add", n, a=1, b=1), n=n) for n in range(max_steps + 2)]
    model = scripted(*replies)
    result = impl.run_loop(model, counted_tools(runs), [("user", "go")], max_steps)
    assert len(model.calls) == max_steps, f"max_steps={max_steps}: call the model that many times"
    assert len(runs) == max_steps - 1, "the last reply's tool calls never run"
    last = result[-1]
    assert (last.type, last.content, last.tool_calls) == ("ai", SORRY, [])
    assert last.id == f"r{max_steps - 1}", "the Sorry reply keeps the id of the reply it replaces"
    _validate_chat_history(result)  # no call is left unanswered: the next turn can go on


def test_an_answer_on_the_last_call_is_kept(impl):
    model = scripted(asks(call("add", a=2, b=3)), AIMessage("5", id="r1"))
    result = impl.run_loop(model, counted_tools([]), [("user", "2 + 3?")], 2)
    assert (result[-1].content, result[-1].id) == ("5", "r1")


def test_the_loop_takes_over_a_conversation_a_real_agent_started(impl):
    """Turn 1 by create_react_agent, turn 2 by your loop: as if the agent had run both."""

    def model():
        return LIB.FakeToolCallingModel(
            tool_calls=[[call("add", 1, a=2, b=3)], [], [call("fail", 2, x=4)], []]
        )

    first = LIB.create_react_agent(
        model(), LIB.ToolNode(counted_tools([]), handle_tool_errors=True)
    )
    history = first.invoke({"messages": [("user", "2 + 3?")]})["messages"]
    follow_up = [*history, ("user", "and 4?")]
    agent_model, loop_model = model(), model()
    agent_model.index = loop_model.index = 2  # the model's script goes on where turn 1 stopped
    agent = LIB.create_react_agent(
        agent_model, LIB.ToolNode(counted_tools([]), handle_tool_errors=True)
    )
    expected = agent.invoke({"messages": follow_up}, {"recursion_limit": 10})["messages"]
    mine = impl.run_loop(loop_model, counted_tools([]), follow_up, 5)
    assert message_trace(mine) == message_trace(expected)
    assert mine[: len(history)] == history, "the agent's messages stay as they are"


# --- part 2: predictions against the default agent (the predict kind, grading/judgments.py) ---

WORDS = {"human", "ai", "tool", "tool-error"}


def _one_string(value):
    assert isinstance(value, str), "write the prediction as a string"
    if not value.startswith("raises "):
        wrong = set(value.split()) - WORDS
        assert not wrong, f"{sorted(wrong)} -- use human, ai, tool, tool-error"


test_predictions_are_a_table_of_the_scripts, test_prediction = judgment_graders(
    __file__,
    cases=PREDICTED,
    outcome=what_the_agent_does,
    row="script {case!r}",
    gave="the default agent gave {actual!r}",
    shape=_one_string,
)
