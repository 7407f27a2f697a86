"""Graders for day05: ``_get_prompt_runnable`` (langgraph/prebuilt/chat_agent_executor.py:137).

Each test runs against every implementation ``--impl`` names (``impl`` fixture, see
``course/grading.md``). Three groups:

* the function alone, kind of prompt by kind of prompt;
* the function swapped into the real ``create_react_agent``, which calls it once, when the agent
  is built, and pipes the result into the model: ``_get_prompt_runnable(prompt) | model``;
* ``impl.predictions()`` against the real agent (miniagent's own), run here for every prompt.
"""

from __future__ import annotations

import asyncio
import inspect
from types import SimpleNamespace

import pytest

from miniagent.checkpoint import InMemorySaver
from miniagent.messages import AIMessage, HumanMessage, SystemMessage
from miniagent.prebuilt.chat_agent_executor import AgentState, AgentStatePydantic
from miniagent.runnables import Runnable, RunnableCallable, RunnableLambda, RunnableSequence
from miniagent.testing import FakeToolCallingModel, ScriptedChatModel
from miniagent_course.grading.judgments import as_message_pairs, judgment_graders, message_pairs
from miniagent_course.kits.day05 import cases as reference

NO_SYNC = (
    'No synchronous function provided to "Prompt".\n'
    "Either initialize with a synchronous function or invoke via the async API "
    "(ainvoke, astream, etc.)"
)


def _state(*texts: str, **extra) -> dict:
    return {"messages": [HumanMessage(t, id=f"h{i}") for i, t in enumerate(texts)], **extra}


async def _async_prompt(state):
    return [SystemMessage("from async")] + state["messages"]


def _sync_prompt(state):
    return [SystemMessage("from sync")] + state["messages"]


def _kinds(messages) -> list[tuple[str, str]]:
    return [(m.type, m.content) for m in messages]


# --- the function alone ---------------------------------------------------------------------


def test_keeps_the_upstream_signature(impl):
    assert list(inspect.signature(impl._get_prompt_runnable).parameters) == ["prompt"]
    assert isinstance(impl._get_prompt_runnable(prompt=None), Runnable)


def test_none_gives_the_messages_unchanged(impl):
    state = _state("hi", "there")
    runnable = impl._get_prompt_runnable(None)
    assert isinstance(runnable, RunnableCallable) and runnable.get_name() == "Prompt"
    assert runnable.invoke(state) == state["messages"]


def test_str_becomes_a_system_message_in_front(impl):
    state = _state("hi", "there")
    out = impl._get_prompt_runnable("Be brief.").invoke(state)
    assert isinstance(out[0], SystemMessage)
    assert _kinds(out) == [("system", "Be brief."), ("human", "hi"), ("human", "there")]


def test_str_system_message_is_built_once_not_per_call(impl):
    runnable = impl._get_prompt_runnable("Be brief.")
    assert isinstance(runnable, RunnableCallable) and runnable.get_name() == "Prompt"
    first, second = runnable.invoke(_state("a")), runnable.invoke(_state("b"))
    assert first[0] is second[0]  # the SystemMessage was made when the runnable was built


def test_empty_str_is_still_a_str_prompt(impl):
    # `prompt is None` is the test for "no prompt", not falsiness: "" gives SystemMessage("").
    out = impl._get_prompt_runnable("").invoke(_state("hi"))
    assert _kinds(out) == [("system", ""), ("human", "hi")]


def test_system_message_is_put_in_front_as_is(impl):
    message = SystemMessage("You are terse.", id="sys-1")
    runnable = impl._get_prompt_runnable(message)
    assert isinstance(runnable, RunnableCallable) and runnable.get_name() == "Prompt"
    out = runnable.invoke(_state("hi"))
    assert out[0] is message
    assert _kinds(out) == [("system", "You are terse."), ("human", "hi")]


@pytest.mark.parametrize(
    "prompt", [None, "Be brief.", SystemMessage("x")], ids=["none", "str", "system_message"]
)
def test_the_state_is_never_changed(impl, prompt):
    state = _state("hi")
    before = list(state["messages"])
    impl._get_prompt_runnable(prompt).invoke(state)
    impl._get_prompt_runnable(prompt).invoke(state)
    assert state["messages"] == before and list(state) == ["messages"]


def test_messages_are_read_from_a_pydantic_state_too(impl):
    state = AgentStatePydantic(messages=[HumanMessage("hi", id="h0")])
    assert _kinds(impl._get_prompt_runnable(None).invoke(state)) == [("human", "hi")]
    out = impl._get_prompt_runnable("Be brief.").invoke(state)
    assert _kinds(out) == [("system", "Be brief."), ("human", "hi")]


def test_async_function_is_async_only(impl):
    runnable = impl._get_prompt_runnable(_async_prompt)
    assert isinstance(runnable, RunnableCallable) and runnable.get_name() == "Prompt"
    with pytest.raises(TypeError) as caught:
        runnable.invoke(_state("hi"))
    assert str(caught.value) == NO_SYNC
    out = asyncio.run(runnable.ainvoke(_state("hi")))
    assert _kinds(out) == [("system", "from async"), ("human", "hi")]


def test_callable_gets_the_whole_state_and_its_result_is_kept_as_is(impl):
    seen = []

    def prompt(state):
        seen.append(state)
        return [("system", f"User: {state['user']}"), {"role": "user", "content": "x"}]

    runnable = impl._get_prompt_runnable(prompt)
    assert isinstance(runnable, RunnableCallable) and runnable.get_name() == "Prompt"
    state = _state("hi", user="Ada")
    out = runnable.invoke(state)
    assert seen == [state]  # every key, not only the messages
    assert out == [("system", "User: Ada"), {"role": "user", "content": "x"}]  # not coerced here


def test_callable_may_declare_config(impl):
    # RunnableCallable fills in a parameter named `config`; a wrapper lambda would hide it.
    def prompt(state, config):
        return [SystemMessage(config["configurable"]["lang"])] + state["messages"]

    out = impl._get_prompt_runnable(prompt).invoke(_state("hi"), {"configurable": {"lang": "fr"}})
    assert _kinds(out) == [("system", "fr"), ("human", "hi")]


def test_runnable_is_used_as_is(impl):
    mine = RunnableLambda(lambda state: state["messages"][-1:], name="LastOnly")
    runnable = impl._get_prompt_runnable(mine)
    assert runnable is mine
    assert runnable.get_name() == "LastOnly"


@pytest.mark.parametrize(
    "prompt, shown",
    [
        (123, "<class 'int'>"),
        ({"role": "system", "content": "hi"}, "<class 'dict'>"),
        ([SystemMessage("hi")], "<class 'list'>"),
        (b"bytes", "<class 'bytes'>"),
    ],
    ids=["int", "dict", "list", "bytes"],
)
def test_anything_else_is_a_value_error(impl, prompt, shown):
    with pytest.raises(ValueError) as caught:
        impl._get_prompt_runnable(prompt)
    assert type(caught.value) is ValueError
    assert str(caught.value) == f"Got unexpected type for `prompt`: {shown}"


@pytest.mark.parametrize(
    "prompt",
    [None, "Be brief.", SystemMessage("x"), _sync_prompt, _async_prompt],
    ids=["none", "str", "system_message", "sync_function", "async_function"],
)
def test_pipes_into_a_model_with_prompt_first(impl, prompt):
    pipeline = impl._get_prompt_runnable(prompt) | FakeToolCallingModel()
    assert isinstance(pipeline, RunnableSequence)
    assert [step.get_name() for step in pipeline.steps] == ["Prompt", "FakeToolCallingModel"]


# --- inside the real agent ------------------------------------------------------------------


@pytest.fixture
def agent(impl, monkeypatch):
    """miniagent's create_react_agent with the learner's function swapped in."""
    impl.swap_in(monkeypatch)
    from miniagent.prebuilt import create_react_agent

    def build(prompt, *replies: str, **kwargs):
        model = ScriptedChatModel([AIMessage(r, id=f"ai{i}") for i, r in enumerate(replies)])
        return SimpleNamespace(
            graph=create_react_agent(model, [], prompt=prompt, **kwargs), model=model
        )

    return build


def _seen(model) -> list[list[tuple[str, str]]]:
    """What the model saw, call by call."""
    return [_kinds(call["messages"]) for call in model.calls]


@pytest.mark.parametrize("prompt", ["Be brief.", SystemMessage("Be brief.")], ids=["str", "msg"])
def test_agent_model_sees_the_prompt_but_the_state_does_not(agent, prompt):
    a = agent(prompt, "ok")
    result = a.graph.invoke({"messages": [("user", "hi")]})
    assert _seen(a.model) == [[("system", "Be brief."), ("human", "hi")]]
    assert _kinds(result["messages"]) == [("human", "hi"), ("ai", "ok")]


def test_agent_without_prompt_sends_the_history_only(agent):
    a = agent(None, "ok")
    a.graph.invoke({"messages": [("user", "hi")]})
    assert _seen(a.model) == [[("human", "hi")]]


def test_agent_prompt_is_not_repeated_on_the_next_turn(agent):
    a = agent("Be brief.", "one", "two", checkpointer=InMemorySaver())
    config = {"configurable": {"thread_id": "t"}}
    a.graph.invoke({"messages": [("user", "hi")]}, config)
    result = a.graph.invoke({"messages": [("user", "again")]}, config)
    assert _seen(a.model)[1] == [
        ("system", "Be brief."),
        ("human", "hi"),
        ("ai", "one"),
        ("human", "again"),
    ]
    assert [m.type for m in result["messages"]] == ["human", "ai", "human", "ai"]


@pytest.mark.parametrize("schema", ["dict", "pydantic"])
def test_agent_callable_prompt_reads_any_state_key(agent, schema):
    if schema == "dict":

        class State(AgentState):
            user_name: str

        def prompt(state):
            return [("system", f"Call me {state['user_name']}.")] + state["messages"]

    else:

        class State(AgentStatePydantic):
            user_name: str = "Ada"

        def prompt(state):
            return [{"role": "system", "content": f"Call me {state.user_name}."}] + state.messages

    a = agent(prompt, "ok", state_schema=State)
    result = a.graph.invoke({"messages": [("user", "hi")], "user_name": "Ada"})
    # The tuple or dict the prompt returned reached the model as a real SystemMessage.
    assert isinstance(a.model.calls[0]["messages"][0], SystemMessage)
    assert _seen(a.model) == [[("system", "Call me Ada."), ("human", "hi")]]
    assert _kinds(result["messages"]) == [("human", "hi"), ("ai", "ok")]


def test_agent_async_prompt_fails_with_invoke_and_works_with_ainvoke(agent):
    a = agent(_async_prompt, "ok")
    with pytest.raises(TypeError) as caught:
        a.graph.invoke({"messages": [("user", "hi")]})
    assert str(caught.value) == NO_SYNC
    result = asyncio.run(a.graph.ainvoke({"messages": [("user", "hi")]}))
    assert _seen(a.model) == [[("system", "from async"), ("human", "hi")]]
    assert _kinds(result["messages"]) == [("human", "hi"), ("ai", "ok")]


def test_agent_callable_may_declare_runtime(agent):
    # Inside a graph the Runtime is in the config; RunnableCallable hands it over by name.
    def prompt(state, runtime):
        return [SystemMessage(f"Hello {runtime.context['user']}")] + state["messages"]

    a = agent(prompt, "ok")
    a.graph.invoke({"messages": [("user", "hi")]}, context={"user": "Ada"})
    assert _seen(a.model) == [[("system", "Hello Ada"), ("human", "hi")]]


def test_agent_runnable_prompt(agent):
    last_only = RunnableLambda(lambda state: state["messages"][-1:])
    a = agent(last_only, "ok")
    a.graph.invoke({"messages": [("user", "first"), ("user", "second")]})
    assert _seen(a.model) == [[("human", "second")]]


def test_agent_rejects_an_unsupported_prompt_when_built(agent):
    with pytest.raises(ValueError) as caught:
        agent(123)
    assert str(caught.value) == "Got unexpected type for `prompt`: <class 'int'>"


def test_agent_tool_loop_sees_one_system_message_per_call(impl, monkeypatch):
    impl.swap_in(monkeypatch)
    from miniagent.prebuilt import create_react_agent
    from miniagent.tools import tool

    @tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    call = {"name": "add", "args": {"a": 2, "b": 3}, "id": "call_1"}
    model = ScriptedChatModel(
        [AIMessage("", id="ai0", tool_calls=[call]), AIMessage("5", id="ai1")]
    )
    graph = create_react_agent(model, [add], prompt="Use tools.")
    result = graph.invoke({"messages": [("user", "2 + 3?")]})
    assert [[t for t, _ in seen] for seen in _seen(model)] == [
        ["system", "human"],
        ["system", "human", "ai", "tool"],
    ]
    assert [m.type for m in result["messages"]] == ["human", "ai", "tool", "ai"]


# --- predictions against the real agent (the predict kind, grading/judgments.py) ---------------

CASES = list(reference.prompts(reference.miniagent_names()))


def _what_the_model_sees(case):
    lib = reference.miniagent_names()
    return reference.what_the_model_sees(lib, reference.prompts(lib)[case])


test_predictions_are_a_table_of_every_case, test_prediction = judgment_graders(
    __file__,
    cases=CASES,
    outcome=_what_the_model_sees,
    row="prompt {case!r}",
    raised="the run raised {actual}",
    gave="the model saw {actual!r}",
    shape=message_pairs,
    normalise=as_message_pairs,
)
