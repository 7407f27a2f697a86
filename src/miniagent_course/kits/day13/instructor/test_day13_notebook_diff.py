"""Day 13's notebook experiments, run strictly on both sides, and the claims the page makes of them.

The notebook's ``on_both`` only prints whether the sides agreed; here every experiment cell before
"Your turn" runs with an ``on_both`` that fails when miniagent and langchain 1.5.2 differ. Then
the outcomes the Day 13 page states (undeclared jumps; seed 003's code as written, failure by
failure) are asserted on the functions those cells define.
"""

from __future__ import annotations

import json
import warnings
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("langchain.agents")

NOTEBOOK = Path(__file__).resolve().parents[5] / "notebooks" / "day13_create_agent.ipynb"


def experiment_cells() -> list[str]:
    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    code = []
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and source.lstrip().startswith("## Your turn"):
            break
        if cell["cell_type"] == "code":
            code.append(source)
    return code


@pytest.fixture(scope="module")
def nb() -> dict[str, Any]:
    """The notebook's namespace after its experiment cells ran with a strict ``on_both``."""
    from miniagent_course import lab

    def strict_on_both(experiment, *args, **kwargs):
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            mini, upstream = (experiment(lib, *args, **kwargs) for lib in (lab.MINI, lab.UP))
        assert mini == upstream, f"{getattr(experiment, '__name__', experiment)}{args}"
        return mini

    namespace: dict[str, Any] = {}
    for index, source in enumerate(experiment_cells()):
        # dont_inherit: not this file's `from __future__ import annotations`, as in a kernel
        code = compile(source, f"day13 notebook, code cell {index}", "exec", dont_inherit=True)
        exec(code, namespace)
        namespace["on_both"] = strict_on_both  # the first cell imported the lenient one
        namespace["agreement"] = lambda: None
    return namespace


def test_every_experiment_cell_agrees_on_both_sides(nb):
    assert "fixed_trip" in nb and "jump_once" in nb  # the cells ran, up to the last section


# ---- section 5: undeclared jumps ----------------------------------------------------------


@pytest.mark.parametrize("hook", ["before_agent", "before_model"])
def test_an_undeclared_jump_before_the_model_does_nothing(nb, hook):
    undeclared = nb["on_both"](nb["jump_once"], hook)
    assert undeclared[1:] == (["model", "tools", "model"] if hook == "before_agent" else
                              ["model", "tools", "Jumper.before_model", "model"])  # fmt: skip
    assert nb["on_both"](nb["jump_once"], hook, declare=True) == [f"Jumper.{hook}"]


def test_the_loop_exit_after_model_obeys_an_undeclared_jump(nb):
    undeclared = nb["on_both"](nb["jump_once"], "after_model")
    assert undeclared == nb["on_both"](nb["jump_once"], "after_model", declare=True)
    assert undeclared == ["model", "Jumper.after_model"]


def test_a_declared_after_agent_jump_to_end_runs_the_hook_again(nb):
    assert nb["on_both"](nb["jump_once"], "after_agent")[-2:] == ["model", "Jumper.after_agent"]
    declared = nb["on_both"](nb["jump_once"], "after_agent", declare=True)
    assert declared[-2:] == ["Jumper.after_agent", "Jumper.after_agent"]


# ---- section 6: seed 003 as written -------------------------------------------------------


def test_the_import_fails_and_the_middleware_module_has_it(nb):
    on_both = nb["on_both"]
    assert on_both(nb["seed_import"], "") == "ImportError: cannot import name 'AgentMiddleware'"
    assert on_both(nb["seed_import"], ".middleware") == "imported"


def test_undeclared_input_keys_are_dropped_silently(nb):
    as_written = nb["on_both"](nb["trip"])
    assert as_written["state keys"] == ["messages"]
    assert as_written["calls to (default, strong) model"] == (2, 0)  # no switch
    assert as_written["hotels booked"] == []  # the confirmed user is refused
    assert as_written["messages"][0].startswith("I can't")  # the refusal did not stop the model
    assert as_written["warnings"] == []
    declared = nb["on_both"](nb["trip"], nb["declared_guardrail"])
    assert declared["calls to (default, strong) model"] == (0, 2)
    assert declared["hotels booked"] == ["Paris"]
    assert (
        declared["warnings"]
        == ["Direct attribute assignment to ModelRequest.model is deprecated."] * 2
    )


def test_an_undeclared_update_key_is_dropped_silently(nb):
    assert nb["on_both"](nb["deny_run"]) == {}
    kept = nb["on_both"](lambda lib: nb["deny_run"](lib, nb["policy_state"](lib)))
    assert kept == {"policy_decisions": [{"policy": "booking_confirmation", "action": "blocked"}]}


def test_request_messages_warns_and_response_content_raises(nb):
    answer, warned = nb["on_both"](nb["redact_run"], nb["redact_and_route_model"])
    assert answer == "AttributeError: 'ModelResponse' object has no attribute 'content'"
    assert warned == ["Direct attribute assignment to ModelRequest.messages is deprecated."]
    assert nb["on_both"](nb["redact_run"], nb["redact_and_route_model_fixed"]) == (
        "Three hotels.",
        [],
    )


def test_the_fallback_fails_three_times_then_works(nb):
    outcomes = [nb["on_both"](nb["fallback_run"], nb[v]) for v in ("as_written", "fix_1", "fix_2")]
    assert outcomes == [
        "AttributeError: 'Runtime' object has no attribute 'fallback_model'",
        "AttributeError: 'ModelRequest' object has no attribute 'copy'",
        "AttributeError: 'ModelResponse' object has no attribute 'response_metadata'",
    ]
    assert nb["on_both"](nb["fallback_run"], nb["fix_3"]) == ("the fallback answers", "rate_limit")


def test_the_budget_never_trips_until_counted_declared_and_jumping(nb):
    booked = {
        name: nb["on_both"](
            nb["budget_run"], nb[name] if name != "as_written" else nb["budget_middleware"]
        )["hotels booked"]  # fmt: skip
        for name in ("as_written", "declared", "counted", "stopping")
    }
    assert booked == {
        "as_written": ["Paris", "Rome"],
        "declared": ["Paris", "Rome"],
        "counted": ["Paris", "Rome"],
        "stopping": ["Paris"],
    }


def test_a_middleware_class_raises_attribute_error(nb):
    assert nb["on_both"](nb["pass_the_class"]) == (
        "AttributeError: type object 'type' has no attribute 'wrap_tool_call'"
    )


def test_the_fixed_guardrail_works(nb):
    refused = nb["on_both"](nb["fixed_trip"], nb["QUESTION"])
    assert refused == ((0, 0), [], ["I can't make a risky booking for you directly."], [])
    booked = nb["on_both"](nb["fixed_trip"], "Book me the cheapest hotel in Paris tonight.")
    assert booked[:2] == ((0, 2), ["Paris"]) and booked[3] == []


# ---- "Your turn": the contract the notebook compares a learner's guardrail with --------------


@pytest.mark.parametrize("title", ["blocked", "unconfirmed", "confirmed"])
def test_the_notebooks_contract_is_what_the_courses_guardrail_does(title):
    from miniagent_course.kits.day13 import cases
    from miniagent_course.kits.day13.instructor import answers

    cells = json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]
    (cell,) = ["".join(c["source"]) for c in cells if "BOOKING_CONTRACT" in "".join(c["source"])]
    namespace: dict[str, Any] = {}
    exec(
        cell[: cell.index("if mine is not None:")],
        {"MINI": __import__("miniagent_course.lab", fromlist=["MINI"]).MINI},
        namespace,
    )
    text, script, confirmed = next(c[1:] for c in namespace["CASES"] if c[0] == title)
    guard = cases.confirm_before_booking(answers.guard_request, answers.guard_tool_call)
    assert cases.booking_run(guard, text, script, confirmed) == cases.BOOKING_CONTRACT[title]
