"""Graders for day11: ``ToolNode``'s error policy (langgraph/prebuilt/tool_node.py:416 and :466)
and predictions of what a ``ToolNode`` writes when a call fails.

Four groups:

* ``impl._handle_tool_error`` alone, for every kind of ``handle_tool_errors`` flag;
* ``impl._infer_handled_types`` alone, on handlers annotated every way upstream meets them;
* both inside real miniagent ``ToolNode``s and agents: the learner's functions replace
  miniagent's module functions (``impl.swap_in``), which ``ToolNode`` looks up each time a call
  fails, and every run is compared with the same run on miniagent's own functions;
* ``impl.predictions()`` against the real ``ToolNode``, run here for every case.

No ``from __future__ import annotations`` here: the handlers below need real annotations; the
string ones are written as strings on purpose.
"""

import asyncio
import functools
import typing
from typing import Any, Union

import pytest

from miniagent.messages import AIMessage, HumanMessage
from miniagent.prebuilt import ToolNode, create_react_agent
from miniagent.prebuilt import tool_node as reference
from miniagent.prebuilt.tool_node import (
    TOOL_CALL_ERROR_TEMPLATE,
    ToolInvocationError,
    _default_handle_tool_errors,
)
from miniagent.runtime import Runtime
from miniagent.testing import FakeToolCallingModel, message_trace
from miniagent.tools import tool
from miniagent_course.grading.course import not_started_in
from miniagent_course.grading.judgments import judgment_graders
from miniagent_course.kits.day11.cases import CASES, OUTCOMES, observe, run_case
from miniagent_course.sides import mini

UNEXPECTED = (
    "Got unexpected type of `handle_tool_error`. Expected bool, str or callable. Received: {}"
)


def raised(error: BaseException) -> tuple[str, str, str]:
    """``("raises", type name, message)``; a function not started yet stays NotStarted."""
    not_started = not_started_in(error)
    if not_started is not None:
        raise not_started
    return ("raises", type(error).__name__, str(error))


def outcome(call) -> tuple[str, Any]:
    """``("returns", value)`` or ``("raises", type name, message)``: comparable plain data."""
    try:
        return ("returns", call())
    except Exception as error:
        return raised(error)


def invocation_error() -> ToolInvocationError:
    """A real ToolInvocationError: ``check_weather`` called with ``{"loc": 1}``."""

    @tool
    def check_weather(location: str) -> str:
        """Weather at a location."""
        return "sunny"

    node = ToolNode([check_weather], handle_tool_errors=False)
    ai = AIMessage("", tool_calls=[{"name": "check_weather", "args": {"loc": 1}, "id": "c1"}])
    with pytest.raises(ToolInvocationError) as caught:
        node.invoke({"messages": [ai]}, {"configurable": {"__pregel_runtime": Runtime()}})
    return caught.value


# --- _handle_tool_error alone -----------------------------------------------------------------


class Recording(Exception):
    """An exception class that counts its instances: a flag that must never be called."""

    made = 0

    def __init__(self, *args: Any) -> None:
        type(self).made += 1
        super().__init__(*args)


@pytest.mark.parametrize(
    "flag",
    [True, False, (ValueError,), (), ValueError, KeyError, Exception, ToolInvocationError],
    ids=repr,
)
def test_bools_tuples_and_exception_classes_get_the_template(impl, flag):
    for e in (ValueError("kaboom"), KeyError("city"), invocation_error()):
        expected = TOOL_CALL_ERROR_TEMPLATE.format(error=repr(e))
        assert impl._handle_tool_error(e, flag=flag) == expected, (
            f"flag={flag!r}, error {e!r}: use TOOL_CALL_ERROR_TEMPLATE with repr(e)"
        )


def test_an_exception_class_flag_is_not_called(impl):
    Recording.made = 0
    e = ValueError("kaboom")
    assert impl._handle_tool_error(e, flag=Recording) == TOOL_CALL_ERROR_TEMPLATE.format(
        error=repr(e)
    )
    assert Recording.made == 0, "an exception class is callable, but it is a filter, not a handler"


@pytest.mark.parametrize("flag", ["Try again.", "", "Error: {error}"])
def test_a_str_flag_is_the_text_itself(impl, flag):
    assert impl._handle_tool_error(ValueError("kaboom"), flag=flag) == flag


def test_a_callable_flag_is_called_once_with_the_error(impl):
    seen: list[Exception] = []
    blocks = [{"type": "text", "text": "handled"}]

    def handler(e):
        seen.append(e)
        return blocks  # whatever it returns is the content, as it is

    class Handler:
        def __call__(self, e):
            seen.append(e)
            return f"object saw {type(e).__name__}"

    e = ValueError("kaboom")
    assert impl._handle_tool_error(e, flag=handler) is blocks
    assert impl._handle_tool_error(e, flag=Handler()) == "object saw ValueError"
    assert impl._handle_tool_error(e, flag=lambda err: str(err)) == "kaboom"
    assert seen == [e, e] and all(s is e for s in seen), "call the handler with the error itself"


def test_what_a_callable_flag_raises_propagates_unchanged(impl):
    e = ValueError("kaboom")
    with pytest.raises(ValueError) as caught:
        impl._handle_tool_error(e, flag=_default_handle_tool_errors)
    assert caught.value is e, "the default policy re-raises the error itself: let it through"
    invocation = invocation_error()
    assert impl._handle_tool_error(invocation, flag=_default_handle_tool_errors) == (
        invocation.message
    )


@pytest.mark.parametrize("flag", [None, 42, 3.5, ["x"], {"a": 1}], ids=repr)
def test_any_other_flag_raises_value_error(impl, flag):
    with pytest.raises(ValueError) as caught:
        impl._handle_tool_error(ValueError("kaboom"), flag=flag)
    assert str(caught.value) == UNEXPECTED.format(flag)


def test_a_class_that_is_no_exception_is_just_a_callable(impl):
    # `str` is a class but no Exception subclass: upstream calls it, str(e) is the content.
    e = KeyError("city")
    assert impl._handle_tool_error(e, flag=str) == "'city'"
    assert outcome(lambda: impl._handle_tool_error(e, flag=int)) == outcome(
        lambda: reference._handle_tool_error(e, flag=int)
    )


# --- _infer_handled_types alone ---------------------------------------------------------------


class CityError(LookupError):
    """A custom exception type."""


def no_parameters() -> str:
    return "x"


def unannotated(e) -> str:
    return "x"


def one_type(e: ValueError) -> str:
    return "x"


def custom_type(e: CityError) -> str:
    return "x"


def old_union(e: Union[ValueError, TypeError]) -> str:  # noqa: UP007 (the typing.Union form)
    return "x"


def new_union(e: ValueError | KeyError | TypeError) -> str:
    return "x"


def optional_error(e: typing.Optional[ValueError]) -> str:  # noqa: UP045 (Union[.., None])
    return "x"


def with_more_parameters(e: KeyError, retries: int = 1) -> str:
    return "x"


def function_with_self(self, e: KeyError) -> str:
    return "x"


def function_with_cls(cls, e: CityError) -> str:
    return "x"


def self_and_more(self, e: KeyError, retries: int = 1) -> str:
    return "x"


def string_single(e: "ValueError") -> str:
    return "x"


def string_union(e: "ValueError | TypeError") -> str:
    return "x"


def not_an_exception(e: str) -> str:
    return "x"


def base_exception(e: BaseException) -> str:
    return "x"


def mixed_union(e: Union[ValueError, str]) -> str:  # noqa: UP007
    return "x"


def mixed_new_union(e: ValueError | int) -> str:
    return "x"


def unresolvable(e: "NoSuchError") -> str:  # noqa: F821 (unresolvable on purpose)
    return "x"


class Handlers:
    def method(self, e: CityError) -> str:
        return "x"

    @classmethod
    def class_method(cls, e: KeyError) -> str:
        return "x"

    @staticmethod
    def static(e: TypeError) -> str:
        return "x"

    def __call__(self, e: ValueError) -> str:
        return "x"


EXPECTED_TYPES = {
    "no parameters": (no_parameters, (Exception,)),
    "no annotation": (unannotated, (Exception,)),
    "a lambda": (lambda e: "x", (Exception,)),
    "e: ValueError": (one_type, (ValueError,)),
    "e: CityError (a subclass)": (custom_type, (CityError,)),
    "e: Union[ValueError, TypeError]": (old_union, (ValueError, TypeError)),
    "e: ValueError | KeyError | TypeError": (new_union, (ValueError, KeyError, TypeError)),
    "e: KeyError, retries=1": (with_more_parameters, (KeyError,)),
    "(self, e: KeyError)": (function_with_self, (KeyError,)),
    "(cls, e: CityError)": (function_with_cls, (CityError,)),
    "(self, e: KeyError, retries=1)": (self_and_more, (Exception,)),
    "a bound method": (Handlers().method, (CityError,)),
    "a class method": (Handlers.class_method, (KeyError,)),
    "a static method": (Handlers.static, (TypeError,)),
    'e: "ValueError" (a string)': (string_single, (ValueError,)),
}


@pytest.mark.parametrize("label", list(EXPECTED_TYPES))
def test_handled_types_from_the_annotation(impl, label):
    handler, expected = EXPECTED_TYPES[label]
    got = impl._infer_handled_types(handler)
    assert isinstance(got, tuple), f"{label}: return a tuple, got {type(got).__name__}"
    assert got == expected, f"{label}: expected {expected}, got {got}"


ERRORS = {
    "e: str": not_an_exception,
    "e: BaseException": base_exception,
    "e: Union[ValueError, str]": mixed_union,
    "e: ValueError | int": mixed_new_union,
    "e: Optional[ValueError]": optional_error,
}


@pytest.mark.parametrize("label", list(ERRORS))
def test_annotations_that_are_not_exceptions_raise_value_error(impl, label):
    handler = ERRORS[label]
    got = outcome(lambda: impl._infer_handled_types(handler))
    expected = outcome(lambda: reference._infer_handled_types(handler))
    assert expected[0] == "raises" and expected[1] == "ValueError"  # the reference's answer
    assert got == expected, f"{label}: expected {expected[1]}: {expected[2]}\n got {got}"


@pytest.mark.parametrize(
    ("label", "handler", "error"),
    [
        ('e: "ValueError | TypeError" (a string)', string_union, "AttributeError"),
        ("an object with __call__", Handlers(), "TypeError"),
        ('e: "NoSuchError" (unresolvable)', unresolvable, "NameError"),
    ],
)
def test_what_upstream_cannot_read_raises_as_upstream_does(impl, label, handler, error):
    got = outcome(lambda: impl._infer_handled_types(handler))
    expected = outcome(lambda: reference._infer_handled_types(handler))
    assert expected[:2] == ("raises", error)
    assert got[:2] == expected[:2], (
        f"{label}: upstream raises {error} here ({expected[2]}); you gave {got}"
    )


# --- inside real ToolNodes and agents ---------------------------------------------------------


def written(result: Any) -> Any:
    """A ToolMessage or an exception, as comparable data."""
    if isinstance(result, Exception):
        return raised(result)
    return ("message", result.content, result.status, result.name, result.tool_call_id)


# The cases in which the node asks the policy functions (not an unknown name, not a tool that
# handles its own error, not a policy that has already said no: False, a tuple that misses).
ASKED = [key for key in CASES if CASES[key][0] not in (False, "(TypeError,)")]
ASKED = [key for key in ASKED if CASES[key][1] not in ("unknown", "self_handled")]


# What miniagent's own functions give is the same in every test: each is run once per grading run.


@functools.cache
def miniagents_case(key: str) -> Any:
    return written(run_case(mini(), key))


@functools.cache
def miniagents_parallel(label: str, asynchronous: bool) -> Any:
    return node_with(FLAGS[label], asynchronous=asynchronous)


@functools.cache
def miniagents_agent(label: str) -> Any:
    return agent_run(FLAGS[label])


@pytest.mark.parametrize("key", ASKED)
def test_tool_node_writes_what_it_writes_with_miniagents_functions(impl, key, monkeypatch):
    expected = miniagents_case(key)
    impl.swap_in(monkeypatch)
    got = written(run_case(mini(), key))
    assert got == expected, f"{key}: the ToolNode should give {expected}, with yours {got}"


@tool
def boom(x: int) -> int:
    """Fail with ValueError."""
    raise ValueError(f"kaboom {x}")


@tool
def lookup(city: str) -> str:
    """Fail with KeyError."""
    raise KeyError(city)


def node_with(flag: Any, *, asynchronous: bool = False) -> Any:
    """``boom`` (ValueError) and ``lookup`` (KeyError) called in parallel by one ToolNode."""
    calls = [
        {"name": "boom", "args": {"x": 1}, "id": "c1"},
        {"name": "lookup", "args": {"city": "Oslo"}, "id": "c2"},
    ]
    node = ToolNode([boom, lookup], handle_tool_errors=flag)
    config = {"configurable": {"__pregel_runtime": Runtime()}}
    inputs = {"messages": [AIMessage("", id="a1", tool_calls=calls)]}
    try:
        if asynchronous:
            result = asyncio.run(node.ainvoke(inputs, config))
        else:
            result = node.invoke(inputs, config)
    except Exception as error:
        return written(error)
    return [written(m) for m in result["messages"]]


FLAGS = {
    "True": True,
    "a str": "Try again.",
    "(ValueError, KeyError)": (ValueError, KeyError),
    "ValueError": ValueError,
    "handler(e: ValueError | KeyError)": new_union,
    "handler(e: Union[ValueError, TypeError])": old_union,
    "handler(self, e: KeyError)": function_with_self,
    "a bound method": Handlers().method,
    "handler(e: str)": not_an_exception,
    'handler(e: "ValueError | TypeError")': string_union,
    "handler(e)": lambda e: f"handled {e!r}",
}


@pytest.mark.parametrize("asynchronous", [False, True], ids=["invoke", "ainvoke"])
@pytest.mark.parametrize("label", list(FLAGS))
def test_parallel_failures_in_one_tool_node(impl, label, asynchronous, monkeypatch):
    expected = miniagents_parallel(label, asynchronous)
    impl.swap_in(monkeypatch)
    got = node_with(FLAGS[label], asynchronous=asynchronous)
    assert got == expected, f"handle_tool_errors={label}: expected {expected}\n got {got}"


def agent_run(flag: Any) -> Any:
    """A whole agent: the model calls ``boom``, reads what came back, answers."""
    model = FakeToolCallingModel(tool_calls=[[{"name": "boom", "args": {"x": 2}, "id": "c1"}], []])
    agent = create_react_agent(model, ToolNode([boom], handle_tool_errors=flag))
    try:
        result = agent.invoke({"messages": [HumanMessage("go", id="h1")]})
    except Exception as error:
        return written(error)
    return message_trace(result["messages"])


@pytest.mark.parametrize(
    "label", ["True", "a str", "handler(e: ValueError | KeyError)", "ValueError"]
)
def test_your_functions_inside_an_agent(impl, label, monkeypatch):
    expected = miniagents_agent(label)
    impl.swap_in(monkeypatch)
    got = agent_run(FLAGS[label])
    assert got == expected, f"handle_tool_errors={label}: the agent should end with {expected}"


# --- predictions against the real ToolNode (the predict kind, grading/judgments.py) -----------


def _an_outcome(value):
    assert value in OUTCOMES, f"{value!r} is not one of {sorted(OUTCOMES)}"


test_predictions_are_a_table_of_outcomes, test_prediction = judgment_graders(
    __file__,
    cases=list(CASES),
    outcome=functools.cache(lambda key: observe(mini(), key)),
    gave=lambda actual: f"the ToolNode gave {actual!r} ({OUTCOMES[actual]})",
    shape=_an_outcome,
)
