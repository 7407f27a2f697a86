"""Day 14: the messages a provider receives, langchain-openai's conversion recorded as data, and
part 2's truth (the payload of small ``create_agent`` runs, read with the tracer).

Part 1's reference is ``miniagent.openai.chat_models.base:_convert_message_to_dict``; the
payload builder looks it up in its module at every call, so a learner's converter joins their
agent, and the tracer, by module attribute (``miniagent mine`` swaps it in).

* :data:`CASES`: messages of every kind the converter handles.
* ``instructor/recorded.json`` (:data:`RECORDING`): langchain-openai's
  ``_convert_message_to_dict`` of every case, recorded from the pinned packages. The graders
  compare the learner's converter with it and never import upstream;
  ``instructor/test_day14_context_diff.py`` records it again and checks that it is still
  upstream's. Re-record after changing a case::

      python -m miniagent_course.grading.recording day14

* :data:`SETUPS` and :func:`seen`: one model call of a small ``create_agent``, and the payload's
  ``messages`` as ``(role, content)`` rows. :func:`predictions` is part 2's reference.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from miniagent_course.grading.recording import Recording

RECORDED = Path(__file__).parent / "instructor" / "recorded.json"

# key -> the message (the stub's docstring and the graders' messages say the same).
CASES: dict[str, str] = {
    "system": 'SystemMessage("Be brief.")',
    "developer": 'SystemMessage("Be brief.", additional_kwargs={"__openai_role__": "developer"})',
    "human": 'HumanMessage("hi", id="h1")',
    "human_named": 'HumanMessage("hi", name="alice")',
    "human_name_in_kwargs": 'HumanMessage("hi", additional_kwargs={"name": "bob", "x": 1})',
    "human_blocks": 'HumanMessage([{"type": "text", "text": "look", "id": "b1"}])',
    "ai_text": 'AIMessage("hello", id="r1", additional_kwargs={"foo": 1})',
    "ai_tool_call": 'AIMessage("", tool_calls=[get_weather(city="Zürich", n=1), id "call_1"])',
    "ai_text_and_call": 'AIMessage("Let me look.", tool_calls=[get_order(id=7), id "call_2"])',
    "ai_invalid_call": 'AIMessage("", invalid_tool_calls=[f, args "{bad json", id "c4"])',
    "ai_valid_then_invalid": "AIMessage with an invalid call listed before a valid one",
    "ai_kwargs_tool_calls": 'AIMessage("", additional_kwargs={"tool_calls": [raw call + "index"]})',
    "ai_named": 'AIMessage("ok", name="planner")',
    "tool": 'ToolMessage("72F", tool_call_id="call_1", name="get_weather", status="error")',
    "tool_blocks": 'ToolMessage([{"type": "text", "text": "72F", "id": "x"}], tool_call_id="c1")',
}


def message(lib: SimpleNamespace, key: str) -> Any:
    """The case's message, built with ``lib``'s message classes."""
    weather = {"name": "get_weather", "args": {"city": "Zürich", "n": 1}, "id": "call_1"}
    order = {"name": "get_order", "args": {"id": 7}, "id": "call_2"}
    bad = {"name": "f", "args": "{bad json", "id": "c4", "error": "oops"}
    raw = {"id": "c9", "type": "function", "index": 0}
    raw["function"] = {"name": "f", "arguments": "{}"}
    made = {
        "system": lambda: lib.SystemMessage("Be brief."),
        "developer": lambda: lib.SystemMessage(
            "Be brief.", additional_kwargs={"__openai_role__": "developer"}
        ),
        "human": lambda: lib.HumanMessage("hi", id="h1"),
        "human_named": lambda: lib.HumanMessage("hi", name="alice"),
        "human_name_in_kwargs": lambda: lib.HumanMessage(
            "hi", additional_kwargs={"name": "bob", "x": 1}
        ),
        "human_blocks": lambda: lib.HumanMessage([{"type": "text", "text": "look", "id": "b1"}]),
        "ai_text": lambda: lib.AIMessage("hello", id="r1", additional_kwargs={"foo": 1}),
        "ai_tool_call": lambda: lib.AIMessage("", tool_calls=[weather]),
        "ai_text_and_call": lambda: lib.AIMessage("Let me look.", tool_calls=[order]),
        "ai_invalid_call": lambda: lib.AIMessage("", invalid_tool_calls=[bad]),
        "ai_valid_then_invalid": lambda: lib.AIMessage(
            "", invalid_tool_calls=[bad], tool_calls=[order]
        ),
        "ai_kwargs_tool_calls": lambda: lib.AIMessage("", additional_kwargs={"tool_calls": [raw]}),
        "ai_named": lambda: lib.AIMessage("ok", name="planner"),
        "tool": lambda: lib.ToolMessage(
            "72F", tool_call_id="call_1", name="get_weather", status="error"
        ),
        "tool_blocks": lambda: lib.ToolMessage(
            [{"type": "text", "text": "72F", "id": "x"}], tool_call_id="c1"
        ),
    }
    return made[key]()


def as_data(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples become lists), as the recording holds it."""
    return json.loads(json.dumps(value, ensure_ascii=False))


# --- part 2: what the model sees in small create_agent runs ---------------------------------

BASE_PROMPT = "You handle work orders."
ORDER = "WO-7: fix the pump, due Friday"

# key -> the setup (the stub's docstring says the same to the learner).
SETUPS: dict[str, str] = {
    "plain": "no system_prompt, no middleware; the input is 'Move it to tomorrow'",
    "system_prompt": "system_prompt=BASE_PROMPT",
    "dynamic_prompt": "system_prompt=BASE_PROMPT and a @dynamic_prompt returning the order line",
    "tool_round": "system_prompt=BASE_PROMPT; the input is HISTORY (two tool rounds, a question)",
    "trimmed": "HISTORY, ContextEditingMiddleware(ClearToolUsesEdit(trigger=10, keep=1))",
    "prompt_outside_trim": "HISTORY, middleware=[prompt quoting the first tool result, trimming]",
    "prompt_inside_trim": "HISTORY, middleware=[trimming, prompt quoting the first tool result]",
}


def history(lib: SimpleNamespace) -> list[Any]:
    """Two tool rounds about the order, then the user's question."""
    first = {"name": "get_order", "args": {"id": 7}, "id": "call_1"}
    second = {"name": "get_status", "args": {"id": 7}, "id": "call_2"}
    return [
        lib.HumanMessage("Open WO-7"),
        lib.AIMessage("", tool_calls=[first]),
        lib.ToolMessage(ORDER, tool_call_id="call_1", name="get_order"),
        lib.AIMessage("Checking.", tool_calls=[second]),
        lib.ToolMessage("open", tool_call_id="call_2", name="get_status"),
        lib.HumanMessage("Move it to tomorrow"),
    ]


def _agents(lib: SimpleNamespace) -> SimpleNamespace:
    """``create_agent`` and the middleware of the side ``lib`` names."""
    if lib.name == "miniagent":
        from miniagent.agents import create_agent
        from miniagent.agents.middleware import (
            ClearToolUsesEdit,
            ContextEditingMiddleware,
            dynamic_prompt,
        )
    else:
        from langchain.agents import create_agent
        from langchain.agents.middleware import (
            ClearToolUsesEdit,
            ContextEditingMiddleware,
            dynamic_prompt,
        )
    return SimpleNamespace(
        create_agent=create_agent,
        dynamic_prompt=dynamic_prompt,
        trimming=lambda: ContextEditingMiddleware(edits=[ClearToolUsesEdit(trigger=10, keep=1)]),
    )


def build(lib: SimpleNamespace, key: str) -> tuple[Any, dict[str, Any]]:
    """The setup's agent (its model answers ``"ok"`` at once) and its input."""
    agents = _agents(lib)

    @agents.dynamic_prompt
    def order_prompt(request: Any) -> str:
        return f"{BASE_PROMPT}\nCurrent order: {ORDER}"

    @agents.dynamic_prompt
    def quoting_prompt(request: Any) -> str:
        first = next(m for m in request.messages if m.type == "tool")
        return f"First tool result: {first.content}"

    model = lib.ScriptedChatModel([lib.AIMessage("ok")])
    inputs: dict[str, Any] = {"messages": history(lib)}
    prompt: str | None = BASE_PROMPT
    middleware: list[Any] = []
    if key == "plain":
        inputs, prompt = {"messages": [lib.HumanMessage("Move it to tomorrow")]}, None
    elif key == "system_prompt":
        inputs = {"messages": [lib.HumanMessage("Move it to tomorrow")]}
    elif key == "dynamic_prompt":
        inputs = {"messages": [lib.HumanMessage("Move it to tomorrow")]}
        middleware = [order_prompt]
    elif key == "tool_round":
        pass
    elif key == "trimmed":
        middleware = [agents.trimming()]
    elif key == "prompt_outside_trim":
        middleware = [quoting_prompt, agents.trimming()]
    elif key == "prompt_inside_trim":
        middleware = [agents.trimming(), quoting_prompt]
    else:
        raise KeyError(key)
    agent = agents.create_agent(model, tools=[], system_prompt=prompt, middleware=middleware)
    return agent, inputs


def converter(lib: SimpleNamespace) -> Any:
    """The side's ``_convert_message_to_dict``: miniagent's, or langchain-openai's."""
    if lib.name == "miniagent":
        from miniagent.openai.chat_models import base
    else:
        from langchain_openai.chat_models import base
    return base._convert_message_to_dict


def seen(lib: SimpleNamespace, key: str) -> list[list[Any]]:
    """Run the setup once; the first model call's payload ``messages`` as ``[role, content]``.

    On miniagent the payload is the tracer's (``PayloadTracer``: the payload builder of
    miniagent's ``ChatOpenAI``). Upstream, a callback keeps the messages the model was given
    and langchain-openai's converter turns them into the payload's dicts.
    """
    agent, inputs = build(lib, key)
    if lib.name == "miniagent":
        from miniagent_course.tracer import PayloadTracer

        tracer = PayloadTracer(model="fake")
        agent.invoke(inputs, {"callbacks": [tracer]})
        rows = tracer.calls[0].payload["messages"]
    else:
        from langchain_core.callbacks import BaseCallbackHandler

        calls: list[list[Any]] = []

        class Recorder(BaseCallbackHandler):
            def on_chat_model_start(self, serialized, messages, **kwargs):  # noqa: ANN001
                calls.append(list(messages[0]))

        agent.invoke(inputs, {"callbacks": [Recorder()]})
        rows = [converter(lib)(m) for m in calls[0]]
    return [[row["role"], row["content"]] for row in rows]


def payload_messages(key: str) -> list[tuple[str, Any]]:
    """``seen`` on miniagent, as the tuples a prediction holds."""
    from miniagent_course.sides import mini

    return [tuple(r) for r in seen(mini(), key)]


def predictions() -> dict[str, list[tuple[str, Any]]]:
    """The payload's ``messages`` of every setup of ``SETUPS``, found by running it."""
    return {key: payload_messages(key) for key in SETUPS}


# --- the recording ----------------------------------------------------------------------------


def upstream_results(side: SimpleNamespace) -> dict[str, Any]:
    """langchain-openai's conversion of every case, computed on ``side`` (the recording)."""
    return {key: as_data(converter(side)(message(side, key))) for key in CASES}


RECORDING = Recording(RECORDED, upstream_results)
record = RECORDING.record  # the conversions afresh (contributors: needs the pinned packages)
recorded = RECORDING.recorded  # the conversions as the file holds them
