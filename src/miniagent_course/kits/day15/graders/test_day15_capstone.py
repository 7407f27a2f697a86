"""Graders for day15, the capstone: ``order_prompt`` (a ``@dynamic_prompt``), ``guard_escalation``
(a ``wrap_tool_call`` guardrail), ``build_agent`` and part 2's ``predictions``.

Four groups:

* the two pieces alone, compared with the reference (``src/miniagent_course/kits/day15/cases.py``);
* the pieces inside the reference assembly, and the learner's whole ``build_agent``, run on the
  six scripted conversations of ``day15.CONVERSATIONS`` and compared with what upstream's
  ``create_agent`` did with the same pieces, recorded in ``kits/day15/instructor/recorded.json`` (upstream
  is never imported here; ``instructor/test_day15_capstone_diff.py`` re-records);
* what the run must show: a refusal, a budget hit, a failing tool fed back, a ``WorkOrder``;
* ``impl.predictions()`` against the recorded endings.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import pytest

from miniagent.messages import ToolMessage
from miniagent_course.grading.judgments import judgment_graders
from miniagent_course.kits.day15 import cases as ref
from miniagent_course.sides import mini

RECORDED = ref.recorded()
LIB = mini()
ORDER = {"id": "WO-1", "customer_id": "C-1", "title": "Pump leaks", "priority": "high"}

# --- the pieces alone --------------------------------------------------------------------------

STATES = {
    "no_order": {"messages": []},
    "order_none": {"messages": [], "current_order": None},
    "order_empty": {"messages": [], "current_order": {}},
    "order": {"messages": [], "current_order": ORDER},
    "order_and_confirmed": {"messages": [], "current_order": ORDER, "confirmed": True},
}


@pytest.mark.parametrize("case", STATES)
def test_order_prompt(impl, case):
    request = SimpleNamespace(state=STATES[case], messages=[], runtime=None)
    got = impl.order_prompt(request)
    assert got == ref.order_prompt(request), f"{case}: your prompt was\n{got!r}"


def tool_request(name: str, state: dict[str, Any]) -> Any:
    call = {"name": name, "args": {"order_id": "WO-1"}, "id": f"call-{name}", "type": "tool_call"}
    return SimpleNamespace(tool_call=call, tool=None, state={"messages": [], **state})


GUARD_CASES = [
    ("escalate", {}),
    ("escalate", {"confirmed": False}),
    ("escalate", {"confirmed": True}),
    ("create_work_order", {}),
    ("lookup_customer", {"confirmed": False}),
]


def describe_guard(fn: Any, name: str, state: dict[str, Any]) -> Any:
    ran: list[str] = []

    def handler(request: Any) -> ToolMessage:
        ran.append(request.tool_call["name"])
        return ToolMessage("ran", tool_call_id=request.tool_call["id"], name=name)

    result = fn(tool_request(name, state), handler)
    assert isinstance(result, ToolMessage), f"return a ToolMessage, got {result!r}"
    return ran, result.content, result.tool_call_id, result.name, result.status


@pytest.mark.parametrize(("name", "state"), GUARD_CASES)
def test_guard_escalation(impl, name, state):
    got = describe_guard(impl.guard_escalation, name, state)
    assert got == describe_guard(ref.guard_escalation, name, state)


# --- against upstream's recorded runs ----------------------------------------------------------


def describe_difference(got: dict[str, Any], expected: dict[str, Any]) -> str:
    for field in ("prompts", "messages", "structured", "order"):
        if got[field] != expected[field]:
            return f"{field} differ:\n  yours:    {got[field]}\n  upstream: {expected[field]}"
    return "equal"


@pytest.mark.parametrize("key", list(ref.CONVERSATIONS))
def test_your_pieces_in_the_capstone_behave_like_upstream(impl, key):
    got = ref.run(LIB, key, prompt=impl.order_prompt, guard=impl.guard_escalation)
    assert got == RECORDED[key], describe_difference(got, RECORDED[key])


@pytest.mark.parametrize("key", list(ref.CONVERSATIONS))
def test_your_agent_behaves_like_upstream(impl, key):
    model = ref.scripted_model(LIB, key)
    got = ref.outcome(impl.build_agent(model), model, key)
    assert got == RECORDED[key], describe_difference(got, RECORDED[key])


def your_run(impl: Any, key: str) -> tuple[dict[str, Any], Any]:
    model = ref.scripted_model(LIB, key)
    return ref.outcome(impl.build_agent(model), model, key), model


def test_an_unconfirmed_escalation_is_refused_and_the_model_reads_why(impl):
    got, _ = your_run(impl, "refused")
    tools = [m for m in got["messages"] if m[0] == "tool"]
    assert ["tool", ref.NEEDS_CONFIRMATION, "escalate", "error"] in tools
    assert not any(m[1].startswith("Escalated") for m in tools), "escalate must not run"


def test_a_confirmed_escalation_runs(impl):
    got, _ = your_run(impl, "confirmed")
    assert any(m[0] == "tool" and m[1].startswith("Escalated") for m in got["messages"]), (
        "confirmed=True in the input must reach the state (state_schema) and let escalate run"
    )


def test_the_model_budget_ends_the_run(impl):
    got, model = your_run(impl, "budget")
    assert len(model.calls) == ref.MODEL_CALLS, "the fifth model call must never happen"
    assert got["messages"][-1][:2] == ["ai", "Model call limits exceeded: run limit (4/4)"]


def test_a_failing_tool_is_fed_back(impl):
    got, _ = your_run(impl, "unknown_customer")
    error = ["tool", "No customer C-9. Ask the user for the id.", "lookup_customer", "error"]
    assert error in got["messages"], "the ToolException's text must reach the model"


def test_the_result_is_a_work_order(impl):
    got, _ = your_run(impl, "happy")
    assert got["structured"] == RECORDED["happy"]["structured"]


# --- part 2: predictions (the predict kind, grading/judgments.py) -----------------------------


def _ending_and_tools(value):
    assert isinstance(value, tuple) and len(value) == 2, "give (ending, tools)"
    assert value[0] in ref.ENDINGS, f"the ending is one of {ref.ENDINGS}"


test_predictions_are_a_table_of_the_six_conversations, test_prediction = judgment_graders(
    __file__,
    cases=list(ref.CONVERSATIONS),
    outcome=lambda key: ref.ending(RECORDED[key]),
    gave="the run gave {actual}",
    shape=_ending_and_tools,
    normalise=lambda row: (row[0], tuple(row[1])),
)
