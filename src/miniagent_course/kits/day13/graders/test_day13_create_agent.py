"""Graders for day13: ``_chain_model_call_handlers`` (langchain/agents/factory.py:284) and the
``ConfirmBeforeBooking`` guardrail (part 2, ``guard_request`` and ``guard_tool_call``).

Four groups:

* the composer alone, on stacks of one to four ``wrap_model_call`` layers that log, answer
  themselves, retry, rewrite the request, return a bare ``AIMessage`` or an
  ``ExtendedModelResponse`` with a command; everything observable (the log, what the model saw,
  the response, the commands) is compared with miniagent's reference composer;
* the composer inside real ``create_agent`` runs (``impl.swap_in``: the factory looks the
  composer up each time an agent is built), compared with the same runs before the swap;
* the guardrail's two functions alone, on states and tool-call requests;
* the guardrail inside real ``create_agent`` runs with scripted models, compared with the
  reference guardrail (``src/miniagent_course/kits/day13/cases.py``) on the same scripts.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from miniagent.agents import create_agent
from miniagent.agents.factory import _chain_model_call_handlers as reference_chain
from miniagent.agents.factory import _ComposedExtendedModelResponse
from miniagent.agents.middleware import (
    AgentMiddleware,
    ExtendedModelResponse,
    ModelRequest,
    ModelResponse,
)
from miniagent.checkpoint import InMemorySaver
from miniagent.messages import AIMessage, HumanMessage, ToolMessage
from miniagent.testing import ScriptedChatModel, message_trace
from miniagent.tools import tool
from miniagent.types import Command
from miniagent_course.grading.course import load_implementation
from miniagent_course.kits.day13 import cases as ref

# --- part 1: the composer alone ----------------------------------------------------------------


def layer(kind: str, name: str, log: list) -> Any:
    """One ``wrap_model_call`` handler of the given kind; it writes what it does into ``log``."""

    def handler(request: ModelRequest, call: Any) -> Any:
        log.append(f"{name}>")
        if kind == "short":  # answers itself, the inner layers never run
            log.append(f"{name}<")
            return AIMessage(f"{name} answered", id=f"{name}-short")
        if kind == "rewrite":
            extra = HumanMessage(f"seen by {name}", id=f"{name}-note")
            response = call(request.override(messages=[*request.messages, extra]))
        elif kind == "retry":  # calls the inner layers twice, keeps the second answer
            call(request)
            response = call(request)
        else:
            response = call(request)
        log.append(f"{name}< {type(response).__name__}")
        if kind == "bare":
            return response.result[0]
        if kind == "extend":
            return ExtendedModelResponse(response, Command(update={"trail": [name]}))
        if kind == "extend_none":
            return ExtendedModelResponse(response, None)
        return response

    return handler


def run_stack(chain: Any, kinds: tuple[str, ...]) -> dict[str, Any]:
    """Compose the layers with ``chain``, call once, return everything one can observe."""
    log: list[str] = []
    handlers = [layer(kind, f"L{i}", log) for i, kind in enumerate(kinds)]
    composed = chain(handlers)
    assert callable(composed), f"{len(kinds)} handler(s): return a composed function"

    def model(request: ModelRequest) -> ModelResponse:
        seen = [m.content for m in request.messages]
        log.append(f"model {seen}")
        return ModelResponse(result=[AIMessage(f"answer {len(log)}", id=f"m{len(log)}")])

    request = ModelRequest(model=None, messages=[HumanMessage("hi", id="h")], tools=[])
    result = composed(request, model)
    assert isinstance(result, _ComposedExtendedModelResponse), (
        f"the composed handler must return a _ComposedExtendedModelResponse, got {result!r}"
    )
    assert isinstance(result.model_response, ModelResponse), (
        f"model_response must be a ModelResponse, got {result.model_response!r}"
    )
    return {
        "log": log,
        "response": message_trace(result.model_response.result),
        "commands": [c.update for c in result.commands],
    }


STACKS = [
    ("plain",),
    ("short",),
    ("bare",),
    ("extend",),
    ("extend_none",),
    ("plain", "plain"),
    ("rewrite", "rewrite"),
    ("short", "plain"),
    ("plain", "short"),
    ("bare", "plain"),
    ("plain", "bare"),
    ("extend", "extend"),
    ("retry", "extend"),
    ("extend", "retry"),
    ("plain", "plain", "plain"),
    ("rewrite", "plain", "rewrite"),
    ("extend", "bare", "extend"),
    ("retry", "extend", "extend"),
    ("plain", "plain", "plain", "plain"),
    ("rewrite", "rewrite", "rewrite", "rewrite"),
    ("extend", "extend", "extend", "extend"),
    ("plain", "short", "plain", "plain"),
    ("retry", "rewrite", "extend", "bare"),
    ("extend", "retry", "extend_none", "extend"),
]


def test_no_handlers_gives_none(impl):
    assert impl._chain_model_call_handlers([]) is None


@pytest.mark.parametrize("kinds", STACKS, ids="-".join)
def test_stack_behaves_like_upstreams(impl, kinds):
    assert run_stack(impl._chain_model_call_handlers, kinds) == run_stack(reference_chain, kinds)


def test_first_handler_is_outermost(impl):
    got = run_stack(impl._chain_model_call_handlers, ("plain",) * 4)["log"]
    assert got[:4] == ["L0>", "L1>", "L2>", "L3>"], f"entered in this order: {got[:4]}"
    assert got[-1] == "L0< ModelResponse", f"the first handler must finish last: {got}"


def test_commands_innermost_first_and_a_retry_keeps_only_the_last_try(impl):
    got = run_stack(impl._chain_model_call_handlers, ("extend", "extend", "extend"))
    assert got["commands"] == [{"trail": ["L2"]}, {"trail": ["L1"]}, {"trail": ["L0"]}]
    got = run_stack(impl._chain_model_call_handlers, ("retry", "extend"))
    assert got["commands"] == [{"trail": ["L1"]}], "a retried inner layer's command counts once"


# --- part 1: inside a real create_agent ----------------------------------------------------


@tool
def lookup(city: str) -> str:
    """Look a city up."""
    return f"{city}: sunny"


class Layer(AgentMiddleware):
    """A middleware whose ``wrap_model_call`` logs and, for some kinds, changes the call."""

    def __init__(self, name: str, kind: str, log: list) -> None:
        self._name, self.kind, self.log = name, kind, log

    @property
    def name(self) -> str:
        return self._name

    def wrap_model_call(self, request: ModelRequest, handler: Any) -> Any:
        self.log.append(f"{self._name}>")
        if self.kind == "rewrite":
            request = request.override(
                messages=[*request.messages, HumanMessage(f"note from {self._name}")]
            )
        response = handler(request)
        if self.kind == "retry":
            response = handler(request)
        self.log.append(f"{self._name}<")
        if self.kind == "extend":
            note = AIMessage(f"{self._name} was here", id=f"{self._name}-{len(self.log)}")
            return ExtendedModelResponse(response, Command(update={"messages": [note]}))
        if self.kind == "bare":
            return response.result[0]
        return response


AGENT_STACKS = [
    ("plain",),
    ("extend",),
    ("plain", "rewrite"),
    ("extend", "bare", "extend"),
    ("retry", "rewrite", "extend", "plain"),
]


def agent_run(kinds: tuple[str, ...]) -> dict[str, Any]:
    log: list[str] = []
    call = AIMessage(
        "", id="a1", tool_calls=[{"name": "lookup", "args": {"city": "Oslo"}, "id": "c1"}]
    )
    model = ScriptedChatModel([call, AIMessage("done", id="a2"), AIMessage("again", id="a3")])
    middleware = [Layer(f"L{i}", kind, log) for i, kind in enumerate(kinds)]
    agent = create_agent(model, [lookup], system_prompt="Be brief.", middleware=middleware)
    out = agent.invoke({"messages": [HumanMessage("weather in Oslo?", id="h1")]})
    return {
        "log": log,
        "state": message_trace(out["messages"]),
        "seen": [message_trace(c["messages"]) for c in model.calls],
    }


@pytest.mark.parametrize("kinds", AGENT_STACKS, ids="-".join)
def test_in_a_real_create_agent(impl, monkeypatch, kinds):
    expected = agent_run(kinds)
    impl.swap_in(monkeypatch)  # create_agent now composes with your function
    assert agent_run(kinds) == expected


# --- part 2: the guardrail's functions alone ----------------------------------------------


def human(text: str, i: int = 0) -> HumanMessage:
    return HumanMessage(text, id=f"h{i}")


STATES = {
    "empty": [],
    "plain": [human("Find flights to Lisbon.")],
    "blocked": [human("Book me the cheapest hotel tonight, directly.")],
    "blocked_upper": [human("Just do it DIRECTLY please")],
    "without_asking": [human("book it without asking me")],
    "blocked_earlier": [
        human("Book it directly."),
        AIMessage(ref.REFUSAL, id="r"),
        human("Fine, find flights to Rome then.", 1),
    ],
    "tool_last": [
        human("Book the hotel directly."),
        AIMessage("", id="a", tool_calls=[{"name": "lookup", "args": {"city": "x"}, "id": "c"}]),
        ToolMessage("x: sunny", tool_call_id="c", id="t"),
    ],
    "ai_last": [AIMessage("directly", id="a")],
    "blocks": [HumanMessage([{"type": "text", "text": "book directly"}], id="hb")],
}


def describe_update(update: Any) -> Any:
    if update is None:
        return None
    assert isinstance(update, dict), f"return a dict or None, got {update!r}"
    messages = update.get("messages")
    assert isinstance(messages, list), f"the update's messages must be a list: {update!r}"
    return {
        "messages": [(type(m).__name__, m.content) for m in messages],
        **{k: v for k, v in update.items() if k != "messages"},
    }


def _contract(impl):
    """The course's own part 2, which the contract describes (run, never shown)."""
    return load_implementation(impl.course, impl.exercise, "reference")


@pytest.mark.parametrize("case", STATES)
def test_guard_request(impl, case):
    state = {"messages": STATES[case]}
    got = describe_update(impl.guard_request(state))
    assert got == describe_update(_contract(impl).guard_request(state)), case


def test_a_blocked_request_jumps_to_the_end(impl):
    update = impl.guard_request({"messages": STATES["blocked"]})
    assert update is not None and update.get("jump_to") == "end", (
        "without jump_to the model still runs after your refusal (seed 003)"
    )


def tool_request(name: str, state: dict[str, Any]) -> Any:
    return SimpleNamespace(
        tool_call={
            "name": name,
            "args": {"city": "Paris"},
            "id": f"call-{name}",
            "type": "tool_call",
        },
        tool=None,
        state=state,
    )


TOOL_CASES = [
    ("book_hotel", {}),
    ("book_hotel", {"user_confirmed": False}),
    ("book_hotel", {"user_confirmed": True}),
    ("search_flights", {}),
    ("search_flights", {"user_confirmed": False}),
]


def describe_tool_result(fn: Any, name: str, state: dict[str, Any]) -> Any:
    ran: list[str] = []

    def handler(request: Any) -> ToolMessage:
        ran.append(request.tool_call["name"])
        return ToolMessage("ran", tool_call_id=request.tool_call["id"], name=name)

    result = fn(tool_request(name, {"messages": [], **state}), handler)
    assert isinstance(result, ToolMessage), f"return a ToolMessage, got {result!r}"
    return ran, result.content, result.tool_call_id, result.name, result.status


@pytest.mark.parametrize(("name", "state"), TOOL_CASES)
def test_guard_tool_call(impl, name, state):
    got = describe_tool_result(impl.guard_tool_call, name, state)
    assert got == describe_tool_result(_contract(impl).guard_tool_call, name, state)


# --- part 2: the guardrail inside a real agent --------------------------------------------


def book(city: str) -> AIMessage:
    args = {"city": city}
    return AIMessage("", tool_calls=[{"name": "book_hotel", "args": args, "id": f"b-{city}"}])


def search(city: str) -> AIMessage:
    args = {"destination": city}
    return AIMessage("", tool_calls=[{"name": "search_flights", "args": args, "id": f"s-{city}"}])


SCRIPTS = {
    "blocked": (["Book me the cheapest hotel tonight, directly."], ["never said"], {}),
    "book_unconfirmed": (["Book a hotel in Paris."], [book("Paris"), "Please confirm."], {}),
    "book_confirmed": (
        ["Book a hotel in Paris."],
        [book("Paris"), "Booked."],
        {"user_confirmed": True},
    ),
    "search": (["Find flights to Lisbon."], [search("Lisbon"), "Three flights."], {}),
    "two_turns": (
        ["Book it directly.", "Then find flights to Rome."],
        [search("Rome"), "Flights found."],
        {},
    ),
}


def guarded_run(guard: AgentMiddleware, script: str) -> dict[str, Any]:
    turns, replies, extra = SCRIPTS[script]
    ran: list[Any] = []

    @tool
    def search_flights(destination: str) -> str:
        """Search flights to a destination."""
        ran.append(("search_flights", destination))
        return f"3 flights to {destination}"

    @tool
    def book_hotel(city: str) -> str:
        """Book the cheapest hotel in a city tonight."""
        ran.append(("book_hotel", city))
        return f"Booked Hotel Central in {city}"

    script_messages = [r if isinstance(r, AIMessage) else AIMessage(r) for r in replies]
    model = ScriptedChatModel(script_messages)
    agent = create_agent(
        model, [search_flights, book_hotel], middleware=[guard], checkpointer=InMemorySaver()
    )
    config = {"configurable": {"thread_id": script}}
    for i, text in enumerate(turns):
        agent.invoke({"messages": [HumanMessage(text, id=f"turn{i}")], **extra}, config)
    messages = agent.get_state(config).values["messages"]
    return {
        "tools_ran": ran,
        "model_calls": len(model.calls),
        "state": [
            (m.type, m.content, getattr(m, "status", None) if m.type == "tool" else None)
            for m in messages
        ],
    }


@pytest.mark.parametrize("script", SCRIPTS)
def test_guardrail_in_a_real_agent(impl, script):
    yours = ref.confirm_before_booking(impl.guard_request, impl.guard_tool_call)
    right = _contract(impl)
    contract = ref.confirm_before_booking(right.guard_request, right.guard_tool_call)
    assert guarded_run(yours, script) == guarded_run(contract, script)


def test_blocked_request_never_reaches_the_model(impl):
    guard = ref.confirm_before_booking(impl.guard_request, impl.guard_tool_call)
    got = guarded_run(guard, "blocked")
    assert got["model_calls"] == 0, "the refusal must end the run before the model is called"
    assert got["state"] == [
        ("human", "Book me the cheapest hotel tonight, directly.", None),
        ("ai", ref.REFUSAL, None),
    ]
