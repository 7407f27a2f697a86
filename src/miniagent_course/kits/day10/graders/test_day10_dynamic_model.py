"""Graders for day10: ``_resolve_model`` (langgraph/prebuilt/chat_agent_executor.py:599) and a
routing policy for a dynamic model.

``impl.make_resolve_model(**pieces)`` returns the learner's ``_resolve_model``. The first group
calls it with recording model callables. The second builds real miniagent agents, swaps the
learner's function into the ``_resolve_model`` cell of the agent's ``call_model`` (built from that
agent's own closure values), and compares every run with an untouched agent built the same way.
The last two groups grade ``impl.choose_model`` alone, then as the model of a real agent whose
cheap and strong models answer from one shared script, so the conversation is the same whoever
answers and only the sequence of answering models differs.
"""

from __future__ import annotations

import copy
import inspect
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import BaseModel

from miniagent.messages import AIMessage, HumanMessage, SystemMessage, ToolMessage
from miniagent.models import BaseChatModel
from miniagent.prebuilt import ToolNode, create_react_agent
from miniagent.prebuilt.chat_agent_executor import AgentStatePydantic, _get_prompt_runnable
from miniagent.runnables import RunnableLambda, RunnableSequence
from miniagent.runtime import Runtime
from miniagent.testing import (
    FakeToolCallingModel,
    ScriptedChatModel,
    message_trace,
    normalize_ids,
)
from miniagent.tools import tool
from miniagent_course.grading.closures import agent_node_function, swap_closure
from miniagent_course.kits.day10.cases import resolve_model_pieces


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def mul(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


TOOLS = [add, mul]
RUNTIME = Runtime(context={"user": "ada"})


class Selector:
    """A dynamic model callable: records ``(state, runtime)``, returns ``models`` in turn."""

    def __init__(self, *models: Any) -> None:
        self.models, self.calls = list(models), []

    def __call__(self, state: Any, runtime: Any) -> Any:
        self.calls.append((state, runtime))
        return self.models[(len(self.calls) - 1) % len(self.models)]


def dynamic_pieces(model: Any, prompt: Any = None) -> dict[str, Any]:
    return dict(model=model, prompt=prompt, is_dynamic_model=True, static_model=None, tools=TOOLS)


def state_of(*contents: str) -> dict[str, Any]:
    return {"messages": [HumanMessage(c, id=f"h{i}") for i, c in enumerate(contents)]}


# --- make_resolve_model alone ----------------------------------------------------------------


def test_static_model_is_returned_as_it_is(impl):
    never = Selector()  # would record a call
    static = _get_prompt_runnable("Be brief.") | FakeToolCallingModel().bind_tools([add])
    resolve_model = impl.make_resolve_model(
        model=never, prompt="Be brief.", is_dynamic_model=False, static_model=static, tools=TOOLS
    )
    for _ in range(2):
        assert resolve_model(state_of("hi"), RUNTIME) is static, "return static_model itself"
    assert never.calls == [], "a static model is never called with (state, runtime)"


def test_dynamic_model_callable_gets_the_state_and_the_runtime(impl):
    selector = Selector(FakeToolCallingModel())
    resolve_model = impl.make_resolve_model(**dynamic_pieces(selector))
    state = state_of("hi")
    resolve_model(state, RUNTIME)
    assert len(selector.calls) == 1, "call the model callable once per resolve"
    got_state, got_runtime = selector.calls[0]
    assert got_state is state, "pass the state you were given, as it is"
    assert got_runtime is RUNTIME, "pass the runtime you were given, as it is"


def test_dynamic_model_callable_runs_on_every_call(impl):
    cheap, strong = FakeToolCallingModel(), FakeToolCallingModel()
    selector = Selector(cheap, strong)
    resolve_model = impl.make_resolve_model(**dynamic_pieces(selector))
    lasts = [resolve_model(state_of("hi"), RUNTIME).steps[-1] for _ in range(4)]
    assert len(selector.calls) == 4, "every step asks the callable again: nothing is cached"
    assert [m is cheap for m in lasts] == [True, False, True, False]
    assert [m is strong for m in lasts] == [False, True, False, True]


def renamed_callables(chosen: Any, seen: list[tuple[Any, Any]]) -> dict[str, Any]:
    """Model callables whose parameters are not ``(state, runtime)``; each logs what it got."""

    def short_names(s, rt):
        seen.append((s, rt))
        return chosen

    def positional_only(state, runtime, /):
        seen.append((state, runtime))
        return chosen

    class Router:
        def __call__(self, current, context):
            seen.append((current, context))
            return chosen

    return {
        "(s, rt)": short_names,
        "(state, runtime, /)": positional_only,
        "lambda st, ctx": lambda st, ctx: seen.append((st, ctx)) or chosen,
        "__call__(self, current, context)": Router(),
    }


def test_dynamic_model_callable_may_name_its_parameters_as_it_likes(impl):
    # Upstream calls model(state, runtime) positionally (l.604), whatever the names, and
    # always with both: it never inspects the signature (a prompt function, Day 05, is
    # different: RunnableCallable fills `runtime` in by name).
    chosen = FakeToolCallingModel()
    seen: list[tuple[Any, Any]] = []
    for label, callable_model in renamed_callables(chosen, seen).items():
        state = state_of("hi")
        pipeline = impl.make_resolve_model(**dynamic_pieces(callable_model))(state, RUNTIME)
        assert pipeline.steps[-1] is chosen, f"{label}: call model(state, runtime), positionally"
        assert seen[-1][0] is state and seen[-1][1] is RUNTIME, f"{label}: state, then runtime"


def test_dynamic_model_is_piped_after_the_prompt(impl):
    chosen = FakeToolCallingModel().bind_tools([add])
    resolve_model = impl.make_resolve_model(**dynamic_pieces(Selector(chosen), "Be brief."))
    pipeline = resolve_model(state_of("hi"), RUNTIME)
    assert isinstance(pipeline, RunnableSequence), "return prompt | model, a RunnableSequence"
    assert len(pipeline.steps) == 2
    assert pipeline.steps[0].get_name() == "Prompt", "the first step is the prompt runnable"
    assert pipeline.steps[-1] is chosen, "the last step is the model the callable returned"


def test_returned_model_is_used_as_it_is_tools_are_not_bound(impl):
    subset = FakeToolCallingModel().bind_tools([add])  # the agent has add and mul
    resolve_model = impl.make_resolve_model(**dynamic_pieces(Selector(subset)))
    assert resolve_model(state_of("hi"), RUNTIME).steps[-1] is subset

    bare = ScriptedChatModel([AIMessage("no tools here", id="r0")])
    pipeline = impl.make_resolve_model(**dynamic_pieces(Selector(bare)))(state_of("hi"), RUNTIME)
    assert pipeline.steps[-1] is bare, "a model returned without tools stays without tools"
    pipeline.invoke(state_of("hi"))
    assert bare.calls[0]["kwargs"] == {}, "the model must be called without bound tools"


def test_a_returned_pipeline_is_kept_whole(impl):
    parser = RunnableLambda(lambda message: message)
    chosen = FakeToolCallingModel().bind_tools([add]) | parser
    resolve_model = impl.make_resolve_model(**dynamic_pieces(Selector(chosen)))
    steps = resolve_model(state_of("hi"), RUNTIME).steps
    assert len(steps) == 3 and steps[1:] == chosen.steps
    assert steps[1] is chosen.steps[0] and steps[2] is chosen.steps[1]


def counting_prompt(state):
    return [SystemMessage(f"{len(state['messages'])} messages"), *state["messages"]]


PROMPTS = {
    "none": None,
    "str": "Be brief.",
    "system": SystemMessage("Be kind."),
    "callable": counting_prompt,
    "runnable": RunnableLambda(lambda state: [HumanMessage("only this")]),
}


@pytest.mark.parametrize("kind", list(PROMPTS))
def test_the_model_sees_what_the_prompt_makes_of_the_state(impl, kind):
    prompt = PROMPTS[kind]
    resolve_model = impl.make_resolve_model(
        **dynamic_pieces(Selector(FakeToolCallingModel()), prompt)
    )
    state = state_of("hi", "there")
    reply = resolve_model(state, RUNTIME).invoke(state)
    expected = [m.content for m in _get_prompt_runnable(prompt).invoke(state_of("hi", "there"))]
    assert reply.content == "-".join(expected), "the model input is the prompt applied to state"


# --- make_resolve_model inside the real agent -----------------------------------------------


CALL = {"name": "add", "args": {"a": 2, "b": 3}, "id": "call_1"}
HI = {"messages": [HumanMessage("2 + 3?", id="h1")]}


@dataclass
class Ctx:
    user: str


class Answer(BaseModel):
    value: int


def tool_round() -> list[AIMessage]:
    return [AIMessage("", id="r0", tool_calls=[CALL]), AIMessage("2 + 3 = 5", id="r1")]


def build(impl, make_model, **options):
    """An agent, with the learner's _resolve_model swapped into its closure when impl is given.

    ``make_model()`` returns ``(model_argument, log)``: a fresh model (or selector) per agent.
    """
    model, log = make_model()
    agent = create_react_agent(model, TOOLS, **options)
    if impl is not None:
        mine = impl.make_resolve_model(**resolve_model_pieces(agent), tools=TOOLS)
        swap_closure(agent_node_function(agent), "_resolve_model", mine)
    return agent, log


def run(agent, inputs, **kwargs):
    try:
        result = agent.invoke(inputs, **kwargs)
    except Exception as error:
        return ("error", type(error).__name__, str(error))
    return ("ok", message_trace(result["messages"]), repr(result.get("structured_response")))


def compare(impl, make_model, inputs=HI, invoke=None, **options):
    """Run the learner's agent and an untouched one; their results and logs must agree."""
    mine, my_log = build(impl, make_model, **options)
    ref, ref_log = build(None, make_model, **options)
    got, expected = run(mine, inputs, **(invoke or {})), run(ref, inputs, **(invoke or {}))
    assert got == expected
    assert normalize_ids(my_log) == normalize_ids(ref_log), (
        "the models saw other messages, or the callable other arguments"
    )
    return expected, ref_log


def recording_selector(make_chat_model, *, bind=True):
    """``make_model`` for ``build``: a selector over one fresh chat model, and a log.

    The log holds what the selector was given (history length, context) and, for a
    ``ScriptedChatModel``, what each model call received.
    """

    def make():
        chat_model = make_chat_model()
        log: dict[str, list] = {"selector": [], "model": getattr(chat_model, "calls", [])}

        def select(state, runtime):
            messages = state.messages if isinstance(state, BaseModel) else state["messages"]
            context = getattr(runtime.context, "user", runtime.context)
            log["selector"].append((len(messages), context))
            return chat_model.bind_tools([add]) if bind else chat_model

        return select, log

    return make


def scripted(*replies: AIMessage):
    return lambda: ScriptedChatModel(copy.deepcopy(list(replies)))


def model_inputs(log):
    return [
        (message_trace(c["messages"]), sorted(c["kwargs"]))
        for c in log["model"]  # what each call saw, and which kwargs (tools) it received
    ]


def test_agent_dynamic_model_with_a_prompt_and_a_context(impl):
    expected, log = compare(
        impl,
        recording_selector(scripted(*tool_round())),
        invoke={"context": Ctx("ada")},
        prompt="Be brief.",
        context_schema=Ctx,
    )
    assert expected[0] == "ok" and len(expected[1]) == 4
    assert log["selector"] == [(1, "ada"), (3, "ada")], "called on each of the two model steps"
    inputs = model_inputs(log)
    assert [m[0]["content"] for m, _ in inputs] == ["Be brief.", "Be brief."]
    assert [kwargs for _, kwargs in inputs] == [["tools"], ["tools"]]


def test_agent_dynamic_model_with_a_callable_prompt_and_a_pydantic_state(impl):
    def prompt(state):
        return [SystemMessage(f"{len(state.messages)} messages so far"), *state.messages]

    expected, log = compare(
        impl,
        recording_selector(scripted(*tool_round())),
        prompt=prompt,
        state_schema=AgentStatePydantic,
    )
    assert expected[0] == "ok"
    assert [c["messages"][0].content for c in log["model"]] == [
        "1 messages so far",
        "3 messages so far",
    ]


def test_agent_dynamic_model_that_forgets_the_tools(impl):
    make = recording_selector(scripted(AIMessage("I have no tools", id="r0")), bind=False)
    expected, log = compare(impl, make, prompt="Be brief.")
    assert expected[0] == "ok"
    assert log["model"][0]["kwargs"] == {}, "nobody binds the tools for a dynamic model"


def test_agent_structured_response_resolves_the_model_once_more(impl):
    make = recording_selector(lambda: FakeToolCallingModel(structured_response=Answer(value=5)))
    expected, log = compare(impl, make, response_format=Answer)
    assert expected[0] == "ok" and expected[2] == repr(Answer(value=5))
    assert len(log["selector"]) == 2, "one model step, then the structured-response node"


def test_agent_static_model_with_a_structured_response(impl):
    def make():
        return FakeToolCallingModel(structured_response=Answer(value=7)), {}

    expected, _ = compare(impl, make, prompt="Be brief.", response_format=Answer)
    assert expected[0] == "ok" and expected[2] == repr(Answer(value=7))


def test_agent_switches_models_between_steps(impl):
    def make():
        log: dict[str, list] = {"answered": []}
        script = iter(tool_round())

        class Labelled(BaseChatModel):
            label: str

            def _generate(self, messages, **kwargs):
                log["answered"].append(self.label)
                return next(script)

            @property
            def _llm_type(self) -> str:
                return "labelled"

            bind_tools = ScriptedChatModel.bind_tools  # the base class's only raises

        cheap, strong = Labelled(label="cheap"), Labelled(label="strong")

        def select(state, runtime):
            return (strong if len(state["messages"]) > 1 else cheap).bind_tools([add])

        return select, log

    expected, log = compare(impl, make)
    assert expected[0] == "ok"
    assert log["answered"] == ["cheap", "strong"], "the model is chosen anew at every step"


def test_agent_dynamic_model_with_other_parameter_names(impl):
    def make():
        chat_model = ScriptedChatModel(copy.deepcopy(tool_round()))
        log: dict[str, list] = {"selector": [], "model": chat_model.calls}

        def select(current, rt, /):  # upstream passes two positional arguments, always
            log["selector"].append((len(current["messages"]), rt.context))
            return chat_model.bind_tools([add])

        return select, log

    expected, log = compare(impl, make, invoke={"context": Ctx("ada")}, context_schema=Ctx)
    assert expected[0] == "ok" and len(expected[1]) == 4
    assert log["selector"] == [(1, Ctx("ada")), (3, Ctx("ada"))]


# --- choose_model alone ------------------------------------------------------------------------


CHEAP = FakeToolCallingModel().bind_tools(TOOLS)
STRONG = FakeToolCallingModel().bind_tools(TOOLS)


def call(name="add", call_id="c1", args=None):
    return {"name": name, "args": args or {"a": 2, "b": 3}, "id": call_id}


def history(n: int, *, last: Any = None) -> list[Any]:
    """``n`` messages: human and AI messages in turn, optionally ending with ``last``."""
    messages: list[Any] = [
        HumanMessage(f"q{i}", id=f"h{i}") if i % 2 == 0 else AIMessage(f"a{i}", id=f"a{i}")
        for i in range(n - (last is not None))
    ]
    return messages + ([last] if last is not None else [])


def choose(impl, messages, *, pydantic=False):
    state = AgentStatePydantic(messages=messages) if pydantic else {"messages": messages}
    chosen = impl.choose_model(state, RUNTIME, cheap=CHEAP, strong=STRONG)
    assert chosen is CHEAP or chosen is STRONG, "return cheap or strong itself, unchanged"
    return "cheap" if chosen is CHEAP else "strong"


def test_choose_keeps_the_upstream_shape(impl):
    parameters = inspect.signature(impl.choose_model).parameters
    assert list(parameters)[:2] == ["state", "runtime"]
    assert {"cheap", "strong"} <= set(parameters)
    state = {"messages": history(1)}
    assert impl.choose_model(state=state, runtime=RUNTIME, cheap=CHEAP, strong=STRONG) is CHEAP


@pytest.mark.parametrize("n, expected", [(1, "cheap"), (3, "cheap"), (4, "cheap"), (5, "strong")])
def test_choose_by_history_length(impl, n, expected):
    assert choose(impl, history(n)) == expected, f"{n} messages: {expected}"


def test_choose_strong_after_a_failed_tool(impl):
    failed = ToolMessage("Error: boom", tool_call_id="c1", status="error", id="t1")
    messages = [HumanMessage("q", id="h0"), AIMessage("", id="a1", tool_calls=[call()]), failed]
    assert choose(impl, messages) == "strong"


def test_choose_cheap_after_a_tool_that_worked(impl):
    done = ToolMessage("5", tool_call_id="c1", id="t1")
    messages = [HumanMessage("q", id="h0"), AIMessage("", id="a1", tool_calls=[call()]), done]
    assert choose(impl, messages) == "cheap"


def test_choose_only_the_last_message_counts_for_a_failed_tool(impl):
    two_calls = AIMessage("", id="a1", tool_calls=[call(call_id="c1"), call(call_id="c2")])
    failed = ToolMessage("Error: boom", tool_call_id="c1", status="error", id="t1")
    done = ToolMessage("5", tool_call_id="c2", id="t2")
    assert choose(impl, [HumanMessage("q", id="h0"), two_calls, failed, done]) == "cheap"
    assert choose(impl, [HumanMessage("q", id="h0"), two_calls, done, failed]) == "strong"


def test_choose_a_failed_tool_wins_in_a_short_history(impl):
    failed = ToolMessage("Error: boom", tool_call_id="c1", status="error", id="t1")
    assert choose(impl, history(2, last=failed)) == "strong"


QUIET_FAILURE = "The backend is busy; try again later."  # a handle_tool_errors text
LOUD_SUCCESS = "Error 404: that is the status code the page returned."  # a tool's own result


def tool_turn(result: ToolMessage) -> list[Any]:
    return [HumanMessage("q", id="h0"), AIMessage("", id="a1", tool_calls=[call()]), result]


@pytest.mark.parametrize(
    "content, status, expected",
    [
        (QUIET_FAILURE, "error", "strong"),
        ("", "error", "strong"),
        (LOUD_SUCCESS, "success", "cheap"),
        ("Error: no user named 'bob'", "success", "cheap"),
        ("ERROR", "success", "cheap"),
    ],
)
def test_choose_reads_the_status_not_the_text(impl, content, status, expected):
    result = ToolMessage(content, tool_call_id="c1", status=status, id="t1")
    assert choose(impl, tool_turn(result)) == expected, (
        f"a {status} ToolMessage saying {content!r}: the status says whether the tool failed"
    )


@pytest.mark.parametrize("pydantic", [False, True])
def test_choose_an_empty_history_is_cheap(impl, pydantic):
    assert choose(impl, [], pydantic=pydantic) == "cheap", "no messages: no failure, not long"


def test_choose_reads_a_pydantic_state(impl):
    assert choose(impl, history(3), pydantic=True) == "cheap"
    assert choose(impl, history(5), pydantic=True) == "strong"
    failed = ToolMessage("Error: boom", tool_call_id="c1", status="error", id="t1")
    assert choose(impl, history(3, last=failed), pydantic=True) == "strong"


# --- choose_model inside a real agent --------------------------------------------------------


class Script:
    """Replies shared by the cheap and the strong model: step i gets reply i, whoever answers."""

    def __init__(self, replies: list[AIMessage]) -> None:
        self.replies, self.answered, self.kwargs = replies, [], []

    def next(self, label: str, kwargs: dict[str, Any]) -> AIMessage:
        self.answered.append(label)
        self.kwargs.append(sorted(kwargs))
        return copy.deepcopy(self.replies[len(self.answered) - 1])


class Relay(BaseChatModel):
    """A chat model that answers from a shared ``Script`` and says who it is."""

    label: str
    script: Any

    def _generate(self, messages, **kwargs):
        return self.script.next(self.label, kwargs)

    @property
    def _llm_type(self) -> str:
        return "relay"

    bind_tools = ScriptedChatModel.bind_tools  # the base class's only raises


def routed_run(impl, replies, *, tools=TOOLS, messages=None, **options):
    """Run a dynamic agent whose model is ``choose_model``; which model answered each step.

    ``tools`` is a list or a ``ToolNode``; the conversation starts with ``messages`` (default:
    one question).
    """
    script = Script(replies)
    bound = list(tools.tools_by_name.values()) if isinstance(tools, ToolNode) else tools
    cheap = Relay(label="cheap", script=script).bind_tools(bound)
    strong = Relay(label="strong", script=script).bind_tools(bound)

    def model(state, runtime):
        return impl.choose_model(state, runtime, cheap=cheap, strong=strong)

    agent = create_react_agent(model, tools, **options)
    start = [HumanMessage("go", id="h0")] if messages is None else messages
    result = agent.invoke({"messages": start})
    assert script.kwargs == [["tools"]] * len(script.answered), "both models come tool-bound"
    return script.answered, result["messages"]


def test_agent_routes_a_plain_tool_round_to_the_cheap_model(impl):
    # 1 message, then 3 (question, call, result): short, no error -> cheap, cheap.
    replies = [AIMessage("", id="r0", tool_calls=[call()]), AIMessage("5", id="r1")]
    answered, messages = routed_run(impl, replies)
    assert answered == ["cheap", "cheap"]
    assert len(messages) == 4


def test_agent_recovers_from_a_failed_tool_with_the_strong_model(impl):
    # Bad arguments give an error ToolMessage: 3 messages, last one failed -> strong.
    # Then the good call's result makes 5 messages -> strong again (the history is long).
    bad = call(args={"a": "two", "b": 3})
    replies = [
        AIMessage("", id="r0", tool_calls=[bad]),
        AIMessage("", id="r1", tool_calls=[call(call_id="c2")]),
        AIMessage("5", id="r2"),
    ]
    answered, messages = routed_run(impl, replies)
    assert messages[2].status == "error"
    assert answered == ["cheap", "strong", "strong"]


def test_agent_escalates_once_the_history_is_long(impl):
    # Two calls in parallel: 1 + 1 + 2 = 4 messages -> still cheap; one more call -> 6 -> strong.
    replies = [
        AIMessage("", id="r0", tool_calls=[call(call_id="c1"), call("mul", "c2")]),
        AIMessage("", id="r1", tool_calls=[call(call_id="c3")]),
        AIMessage("done", id="r2"),
    ]
    answered, messages = routed_run(impl, replies)
    assert len(messages) == 7
    assert answered == ["cheap", "cheap", "strong"]


def test_agent_forgets_a_failure_once_a_later_tool_succeeds(impl):
    # One bad and one good call in parallel; v2 runs them as separate tasks and the results
    # arrive in call order: [..., error, ok] -> 4 messages, last one fine -> cheap.
    bad = call(args={"a": "two", "b": 3}, call_id="c1")
    replies = [
        AIMessage("", id="r0", tool_calls=[bad, call(call_id="c2")]),
        AIMessage("fixed", id="r1"),
    ]
    answered, messages = routed_run(impl, replies)
    assert [m.type for m in messages] == ["human", "ai", "tool", "tool", "ai"]
    assert [messages[2].status, messages[3].status] == ["error", "success"]
    assert answered == ["cheap", "cheap"]


def test_agent_routes_with_a_pydantic_state_and_a_prompt(impl):
    bad = call(args={"a": "two", "b": 3})
    replies = [AIMessage("", id="r0", tool_calls=[bad]), AIMessage("sorry", id="r1")]
    answered, _ = routed_run(impl, replies, state_schema=AgentStatePydantic, prompt="Be brief.")
    assert answered == ["cheap", "strong"]


@tool
def lookup(page: str) -> str:
    """Fetch a page's status line."""
    return LOUD_SUCCESS


@tool
def backend(query: str) -> str:
    """Ask a backend that is down."""
    raise ConnectionError("backend unreachable")


def test_agent_routes_by_the_status_whatever_the_tool_says(impl):
    # A ToolNode with its own error text: the failed result reads like advice, not an error;
    # then a tool that worked and returned a text that starts with "Error".
    node = ToolNode([lookup, backend], handle_tool_errors=QUIET_FAILURE)
    failing = {"name": "backend", "args": {"query": "x"}, "id": "c1"}
    replies = [AIMessage("", id="r0", tool_calls=[failing]), AIMessage("sorry", id="r1")]
    answered, messages = routed_run(impl, replies, tools=node)
    assert (messages[2].content, messages[2].status) == (QUIET_FAILURE, "error")
    assert answered == ["cheap", "strong"], "a failed tool, whatever its text: strong"

    working = {"name": "lookup", "args": {"page": "/x"}, "id": "c1"}
    replies = [AIMessage("", id="r0", tool_calls=[working]), AIMessage("it is a 404", id="r1")]
    answered, messages = routed_run(impl, replies, tools=node)
    assert (messages[2].content, messages[2].status) == (LOUD_SUCCESS, "success")
    assert answered == ["cheap", "cheap"], "a tool that worked, whatever its text: cheap"


def test_agent_with_an_empty_history(impl):
    # Nothing checks that the history holds a message: the model step runs on [] (both
    # libraries), so the policy must too.
    answered, messages = routed_run(impl, [AIMessage("hello?", id="r0")], messages=[])
    assert answered == ["cheap"]
    assert [m.content for m in messages] == ["hello?"]
