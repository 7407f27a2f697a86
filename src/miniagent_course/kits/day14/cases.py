"""Day 14: the messages a provider receives, langchain-openai's conversion recorded as data, the
payload of small ``create_agent`` runs (read with the tracer), and part 2's cases: histories cut
by ``SummarizationMiddleware._find_safe_cutoff_point``, which the learner reads alone.

Part 1's reference is ``miniagent.openai.chat_models.base:_convert_message_to_dict``; the
payload builder looks it up in its module at every call, so a learner's converter joins their
agent, and the tracer, by module attribute (``miniagent mine`` swaps it in).

* :data:`CASES`: messages of every kind the converter handles.
* :data:`SETUPS` and :func:`seen`: one model call of a small ``create_agent``, and the payload's
  ``messages`` as ``(role, content)`` rows (the notebook's sections 2 and 3).
* :data:`CUTS`: part 2's table, a history in the stub's notation and a cut index each;
  :func:`cut_history` builds the history.
* ``instructor/recorded.json`` (:data:`RECORDING`): upstream's results, recorded from the pinned
  packages: ``"converted"``, langchain-openai's ``_convert_message_to_dict`` of every case, and
  ``"cutoff"``, what ``_find_safe_cutoff_point`` returns for every cut. The graders compare the
  learner's work with it and never import upstream (importing langchain's summarization module
  alone takes longer than grading the day); ``instructor/test_day14_context_diff.py`` records it
  again and checks that it is still upstream's. Re-record after changing a case::

      python -m miniagent_course.grading.recording day14
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from miniagent_course.grading.course import import_target
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


# --- part 2, read alone: where SummarizationMiddleware may cut a history -----------------------

READ = "langchain.agents.middleware.summarization:SummarizationMiddleware._find_safe_cutoff_point"

# key -> (the history, in the stub's notation, and the cut index); the stub's docstring lists the
# same. H: a HumanMessage; A: an AIMessage without tool calls; A[a,b]: an AIMessage whose tool
# calls have the ids "a" and "b"; T(a): a ToolMessage answering the call "a". Indexes from 0.
CUTS: dict[str, tuple[str, int]] = {
    "at_a_question": ("H A[a] T(a) A H A", 4),
    "at_the_end": ("H A[a] T(a) H A", 5),
    "at_the_call": ("H A H A[a] T(a) A", 3),
    "at_a_result": ("H A[a] T(a) H", 2),
    "at_the_second_result": ("H A H A[a,b] T(a) T(b) A", 5),
    "past_a_plain_reply": ("H A[a] A T(a) H", 3),
    "past_another_call": ("H A H A[a] A[b] T(b) T(a) A", 6),
    "orphans": ("H T(x) T(y) H A", 1),
    "orphan_first": ("T(x) H A", 0),
    "orphan_after_a_pair": ("H A[a] T(a) T(z) H", 3),
    "mixed_run": ("H A[a] T(a) A[b] T(z) T(b) H", 4),
}


def cut_history(lib: SimpleNamespace, key: str) -> list[Any]:
    """The messages of ``CUTS[key]``'s history, built with ``lib``'s message classes."""
    messages: list[Any] = []
    for token in CUTS[key][0].split():
        if token == "H":
            messages.append(lib.HumanMessage("Move WO-7 to tomorrow"))
        elif token == "A":
            messages.append(lib.AIMessage("Done."))
        elif token.startswith("A["):
            ids = token.removeprefix("A[").removesuffix("]").split(",")
            calls = [{"name": "get_order", "args": {"id": 7}, "id": i} for i in ids]
            messages.append(lib.AIMessage("", tool_calls=calls))
        elif token.startswith("T("):
            call_id = token.removeprefix("T(").removesuffix(")")
            messages.append(lib.ToolMessage("WO-7: open", tool_call_id=call_id))
        else:
            raise ValueError(f"{key}: unknown token {token!r}")
    return messages


def cutoffs(side: SimpleNamespace) -> dict[str, int]:
    """What upstream's ``_find_safe_cutoff_point`` returns for every cut (``side``: upstream)."""
    find_safe_cutoff_point = import_target(READ)
    return {
        key: find_safe_cutoff_point(cut_history(side, key), cut) for key, (_, cut) in CUTS.items()
    }


# --- the recording ----------------------------------------------------------------------------


def upstream_results(side: SimpleNamespace) -> dict[str, Any]:
    """Upstream's results, computed on ``side`` (the recording): langchain-openai's conversion
    of every case, and where ``_find_safe_cutoff_point`` puts every cut."""
    converted = {key: as_data(converter(side)(message(side, key))) for key in CASES}
    return {"converted": converted, "cutoff": cutoffs(side)}


RECORDING = Recording(RECORDED, upstream_results)
record = RECORDING.record  # upstream's results afresh (contributors: needs the pinned packages)
recorded = RECORDING.recorded  # upstream's results as the file holds them
