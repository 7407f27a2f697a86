"""Graders for day08: ``call_model`` (langgraph/prebuilt/chat_agent_executor.py:661).

``impl.make_call_model(**pieces)`` returns the learner's ``call_model``. The first group calls it
with recording stand-ins for the pieces, to check each gate and its order. The second builds real
miniagent agents, puts the learner's function in the ``agent`` node (the node's ``func``, built
from that agent's own closure values), and compares every run with an untouched agent built the
same way: same messages, same model inputs, same errors. The third grades ``impl.predictions()``
against each situation run on the real agent (``what_call_model_does``).
"""

from __future__ import annotations

import inspect
import operator
import warnings
from types import SimpleNamespace
from typing import Annotated, Any

import pytest
from typing_extensions import NotRequired, TypedDict

from miniagent.managed import RemainingSteps
from miniagent.messages import AIMessage, HumanMessage
from miniagent.prebuilt import create_react_agent
from miniagent.prebuilt.chat_agent_executor import AgentStatePydantic
from miniagent.testing import ScriptedChatModel, message_trace
from miniagent.tools import tool
from miniagent_course.grading.judgments import judgment_graders
from miniagent_course.kits.day08.cases import (
    SITUATIONS,
    call_model_pieces,
    what_call_model_does,
)

SORRY = "Sorry, need more steps to process this request."
ASYNC_ERROR = (
    "Async model callable provided but agent invoked synchronously. "
    "Use agent.ainvoke() or agent.astream(), or provide a sync model callable."
)


# --- the function alone, with recording pieces -----------------------------------------------


class RecordingModel:
    """Stands in for ``prompt | model``: records ``invoke(input, config)``, returns ``reply``."""

    def __init__(self, reply: AIMessage, log: list) -> None:
        self.reply, self.log, self.calls = reply, log, []

    def invoke(self, input: Any, config: Any = None, **kwargs: Any) -> AIMessage:
        self.log.append("model.invoke")
        self.calls.append((input, config))
        return self.reply


def make_pieces(reply: AIMessage | None = None, *, more_steps: bool = False, **overrides: Any):
    """Keyword arguments for ``make_call_model`` that record what is called, in ``log``."""
    log: list[str] = []
    seen = SimpleNamespace(input_state=[], resolve=[], steps=[])
    reply = reply or AIMessage("hello", id="r1")
    static = RecordingModel(reply, log)
    dynamic = RecordingModel(reply, log)

    def get_model_input_state(state):
        log.append("get_model_input_state")
        seen.input_state.append(state)
        return state

    def resolve_model(state, runtime):
        log.append("resolve_model")
        seen.resolve.append((state, runtime))
        return dynamic

    def are_more_steps_needed(state, response):
        log.append("are_more_steps_needed")
        seen.steps.append((state, response, response.name))
        return more_steps

    pieces = dict(
        is_async_dynamic_model=False,
        is_dynamic_model=False,
        static_model=static,
        name=None,
        get_model_input_state=get_model_input_state,
        resolve_model=resolve_model,
        are_more_steps_needed=are_more_steps_needed,
    )
    pieces.update(overrides)
    return pieces, SimpleNamespace(log=log, seen=seen, reply=reply, static=static, dynamic=dynamic)


def state_of(*messages):
    return {"messages": list(messages), "remaining_steps": 5}


RUNTIME = object()
CONFIG = {"tags": ["day08"], "configurable": {}}


def test_the_node_has_the_upstream_signature(impl):
    pieces, _ = make_pieces()
    call_model = impl.make_call_model(**pieces)
    assert list(inspect.signature(call_model).parameters) == ["state", "runtime", "config"]


def test_static_model_gets_the_prepared_input_and_the_config(impl):
    prepared = {"messages": [HumanMessage("prepared", id="p1")], "remaining_steps": 5}
    pieces, rec = make_pieces(get_model_input_state=lambda state: prepared)
    state = state_of(HumanMessage("hi", id="h1"))
    call_model = impl.make_call_model(**pieces)
    call_model(state, RUNTIME, CONFIG)
    assert len(rec.static.calls) == 1
    model_input, config = rec.static.calls[0]
    assert model_input is prepared, "invoke the model with what get_model_input_state returned"
    assert config is CONFIG, "pass the node's config on to invoke"


def test_returns_the_response_in_a_one_element_list(impl):
    pieces, rec = make_pieces()
    result = impl.make_call_model(**pieces)(state_of(HumanMessage("hi")), RUNTIME, CONFIG)
    assert isinstance(result, dict) and list(result) == ["messages"]
    assert isinstance(result["messages"], list), "return a list: {'messages': [response]}"
    assert len(result["messages"]) == 1 and result["messages"][0] is rec.reply


def test_update_holds_only_the_new_message_never_the_input_history(impl):
    history = state_of(HumanMessage("old", id="h1"), AIMessage("older", id="a1"))
    trimmed = {"messages": [HumanMessage("summary")], "remaining_steps": 5}
    pieces, rec = make_pieces(get_model_input_state=lambda state: trimmed)
    result = impl.make_call_model(**pieces)(history, RUNTIME, CONFIG)
    assert result == {"messages": [rec.reply]}


def test_input_state_is_prepared_before_the_model_runs(impl):
    pieces, rec = make_pieces()
    state = state_of(HumanMessage("hi"))
    impl.make_call_model(**pieces)(state, RUNTIME, CONFIG)
    assert rec.log == ["get_model_input_state", "model.invoke", "are_more_steps_needed"]
    assert rec.seen.input_state == [state]


def test_an_invalid_history_stops_the_node_before_any_model(impl):
    def reject(state):
        raise ValueError("invalid chat history")

    for dynamic in (False, True):
        pieces, rec = make_pieces(get_model_input_state=reject, is_dynamic_model=dynamic)
        call_model = impl.make_call_model(**pieces)
        with pytest.raises(ValueError, match="invalid chat history"):
            call_model(state_of(HumanMessage("hi")), RUNTIME, CONFIG)
        assert rec.log == [], "no model may be resolved or called after a failed validation"


def test_validation_is_left_to_get_model_input_state(impl):
    # The stored history has a tool call without its result, but get_model_input_state (as with
    # a pre_model_hook's llm_input_messages) decides what the model sees: the node must not
    # validate anything else itself.
    dangling = AIMessage("", id="a1", tool_calls=[{"name": "add", "args": {}, "id": "c1"}])
    state = state_of(HumanMessage("q1", id="h1"), dangling, HumanMessage("q2", id="h2"))

    def substitute(state):
        state["messages"] = [HumanMessage("q2", id="h2")]
        return state

    pieces, rec = make_pieces(get_model_input_state=substitute)
    result = impl.make_call_model(**pieces)(state, RUNTIME, CONFIG)
    assert result == {"messages": [rec.reply]}


def test_dynamic_model_is_resolved_after_the_input_state_with_state_and_runtime(impl):
    pieces, rec = make_pieces(is_dynamic_model=True, static_model=None)
    state = state_of(HumanMessage("hi"))
    result = impl.make_call_model(**pieces)(state, RUNTIME, CONFIG)
    assert rec.log == [
        "get_model_input_state",
        "resolve_model",
        "model.invoke",
        "are_more_steps_needed",
    ]
    resolved_state, runtime = rec.seen.resolve[0]
    assert resolved_state is state and runtime is RUNTIME
    assert rec.dynamic.calls == [(state, CONFIG)]
    assert result == {"messages": [rec.reply]}


def test_static_model_is_used_when_the_model_is_not_dynamic(impl):
    pieces, rec = make_pieces()
    impl.make_call_model(**pieces)(state_of(HumanMessage("hi")), RUNTIME, CONFIG)
    assert rec.seen.resolve == [] and rec.dynamic.calls == []
    assert len(rec.static.calls) == 1


@pytest.mark.parametrize("agent_name", ["helper", None])
def test_name_always_overwrites_the_model_name(impl, agent_name):
    reply = AIMessage("hello", id="r1", name="bot")
    pieces, _ = make_pieces(reply, name=agent_name)
    result = impl.make_call_model(**pieces)(state_of(HumanMessage("hi")), RUNTIME, CONFIG)
    assert result["messages"][0].name == agent_name, (
        f"name={agent_name!r}: the stored message must be named {agent_name!r}, "
        "whatever name the model gave it"
    )


def test_more_steps_check_sees_the_state_and_the_named_response(impl):
    reply = AIMessage("hello", id="r1", name="bot")
    pieces, rec = make_pieces(reply, name="helper")
    state = state_of(HumanMessage("hi"))
    impl.make_call_model(**pieces)(state, RUNTIME, CONFIG)
    assert len(rec.seen.steps) == 1
    checked_state, checked_response, name_then = rec.seen.steps[0]
    assert checked_state is state and checked_response is reply
    assert name_then == "helper", "stamp the name before asking are_more_steps_needed"


def test_sorry_reply_keeps_the_id_and_drops_tool_calls_and_name(impl):
    call = {"name": "add", "args": {"a": 1, "b": 2}, "id": "c1"}
    reply = AIMessage("let me add", id="r7", name="bot", tool_calls=[call])
    pieces, _ = make_pieces(reply, more_steps=True, name="helper")
    result = impl.make_call_model(**pieces)(state_of(HumanMessage("hi")), RUNTIME, CONFIG)
    assert isinstance(result["messages"], list) and len(result["messages"]) == 1
    sorry = result["messages"][0]
    assert isinstance(sorry, AIMessage) and sorry is not reply
    assert sorry.content == SORRY
    assert sorry.id == "r7"
    assert sorry.tool_calls == [] and sorry.name is None


def test_async_dynamic_model_raises_before_anything_else(impl):
    def reject(state):
        raise ValueError("invalid chat history")

    pieces, rec = make_pieces(
        is_async_dynamic_model=True,
        is_dynamic_model=True,
        static_model=None,
        get_model_input_state=reject,
    )
    call_model = impl.make_call_model(**pieces)
    with pytest.raises(RuntimeError) as caught:
        call_model(state_of(HumanMessage("hi")), RUNTIME, CONFIG)
    assert str(caught.value) == ASYNC_ERROR
    assert rec.log == []


# --- inside the real agent --------------------------------------------------------------------


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


CALL = {"name": "add", "args": {"a": 2, "b": 3}, "id": "call_1"}


class PlainListState(TypedDict):
    """``messages`` merged by ``operator.add`` instead of ``add_messages``."""

    messages: Annotated[list, operator.add]
    remaining_steps: NotRequired[RemainingSteps]


def loop_replies(n: int = 6) -> list[AIMessage]:
    """A model that asks for the tool every time."""
    return [AIMessage("", id=f"r{i}", name="bot", tool_calls=[CALL]) for i in range(n)]


def tool_round_replies() -> list[AIMessage]:
    return [
        AIMessage("", id="r0", name="bot", tool_calls=[CALL]),
        AIMessage("2 + 3 = 5", id="r1", name="bot"),
    ]


def run(agent, inputs, config=None):
    try:
        result = agent.invoke(inputs, config)
    except Exception as error:
        return ("error", type(error).__name__, str(error))
    return ("ok", message_trace(result["messages"]))


def build(impl, monkeypatch, replies, *, dynamic=False, async_model=False, **options):
    """An agent whose ``agent`` node runs the learner's call_model, and its model."""
    model = ScriptedChatModel(replies)
    agent_model: Any = model
    if dynamic:

        def agent_model(state, runtime):
            return model.bind_tools([add])

    if async_model:

        async def agent_model(state, runtime):
            return model.bind_tools([add])

    agent = create_react_agent(agent_model, [add], **options)
    if impl is not None:
        node = agent.nodes["agent"].bound
        monkeypatch.setattr(node, "func", impl.make_call_model(**call_model_pieces(agent)))
    return agent, model


def compare(impl, monkeypatch, replies, inputs, config=None, **options):
    """Run the learner's agent and an untouched twin: same outcome, same model inputs.

    Returns the untouched agent's outcome: ``("ok", trace)`` or ``("error", type, text)``.
    """
    mine, my_model = build(impl, monkeypatch, replies, **options)
    ref, ref_model = build(None, monkeypatch, replies, **options)
    got, expected = run(mine, inputs, config), run(ref, inputs, config)
    seen = [message_trace(c["messages"]) for c in my_model.calls]
    expected_seen = [message_trace(c["messages"]) for c in ref_model.calls]
    assert got == expected
    assert seen == expected_seen, "the model saw different messages"
    return expected


HI = {"messages": [HumanMessage("2 + 3?", id="h1")]}


@pytest.mark.parametrize("schema", [None, AgentStatePydantic], ids=["dict", "pydantic"])
def test_agent_tool_round_with_prompt_and_name(impl, monkeypatch, schema):
    expected = compare(
        impl,
        monkeypatch,
        tool_round_replies(),
        HI,
        prompt="Be brief.",
        name="helper",
        state_schema=schema,
    )
    assert [m.get("name") for m in expected[1] if m["type"] == "ai"] == ["helper", "helper"]


def test_agent_without_name_erases_the_model_name(impl, monkeypatch):
    expected = compare(impl, monkeypatch, tool_round_replies(), HI)
    assert all("name" not in m for m in expected[1] if m["type"] == "ai")


def test_agent_with_a_dynamic_model(impl, monkeypatch):
    compare(impl, monkeypatch, tool_round_replies(), HI, dynamic=True, name="helper")


@pytest.mark.parametrize("limit", [2, 3, 4])
def test_agent_soft_landing_at_a_tiny_recursion_limit(impl, monkeypatch, limit):
    expected = compare(
        impl, monkeypatch, loop_replies(), HI, {"recursion_limit": limit}, name="helper"
    )
    if expected[0] == "ok":  # limits 2 and 4: the Sorry reply, unnamed, with the model's id
        assert expected[1][-1]["content"] == SORRY and "name" not in expected[1][-1]


def test_agent_invalid_history_raises_the_validation_error(impl, monkeypatch):
    dangling = AIMessage("", id="a1", tool_calls=[CALL])
    inputs = {"messages": [HumanMessage("q1", id="h1"), dangling, HumanMessage("q2", id="h2")]}
    expected = compare(impl, monkeypatch, tool_round_replies(), inputs)
    assert expected[0] == "error" and expected[1] == "ValueError"


def test_agent_pre_model_hook_input_is_what_gets_validated_and_seen(impl, monkeypatch):
    dangling = AIMessage("", id="a1", tool_calls=[CALL])
    inputs = {"messages": [HumanMessage("q1", id="h1"), dangling, HumanMessage("q2", id="h2")]}

    def keep_last(state):
        return {"llm_input_messages": [HumanMessage("summary"), state["messages"][-1]]}

    replies = [AIMessage("ok", id="r0")]
    expected = compare(impl, monkeypatch, replies, inputs, pre_model_hook=keep_last)
    assert expected[0] == "ok" and len(expected[1]) == 4


def test_agent_with_a_plain_list_reducer(impl, monkeypatch):
    inputs = {"messages": [HumanMessage("2 + 3?", id="h1")]}
    compare(impl, monkeypatch, tool_round_replies(), inputs, state_schema=PlainListState)


def test_agent_with_an_async_model_invoked_synchronously(impl, monkeypatch):
    agent, model = build(impl, monkeypatch, tool_round_replies(), async_model=True)
    with warnings.catch_warnings():  # without the guard: "coroutine ... was never awaited"
        warnings.simplefilter("ignore", RuntimeWarning)
        outcome = run(agent, HI)
    assert outcome == ("error", "RuntimeError", ASYNC_ERROR)
    assert model.calls == []


# --- part 2: predictions against real runs (the predict kind, grading/judgments.py) ----------


def _gate_text_name(value):
    assert isinstance(value, tuple) and len(value) == 3, "use (gate, text, name)"
    gate, text, name = value
    assert gate in range(1, 7), f"gate must be 1 to 6, got {gate!r}"
    assert isinstance(text, str), "text must be a str (an error type or a content)"
    assert name is None or isinstance(name, str), "name must be a str or None"


def _gave(actual) -> str:
    gate, text, name = actual
    if gate < 5:  # gates 1 to 3 end the node with an error
        what = f"raised {text}"
    else:
        what = f"returned the update's message {text!r} named {name!r}"
    return f"the agent node stopped at gate {gate} and {what}"


test_predictions_are_a_table_of_the_ten_situations, test_prediction = judgment_graders(
    __file__,
    cases=list(SITUATIONS),
    outcome=what_call_model_does,
    gave=_gave,
    shape=_gate_text_name,
)
