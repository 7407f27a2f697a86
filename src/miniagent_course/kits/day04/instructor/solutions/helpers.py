"""Day 04, solved with small helpers: a wrapper lookup, a per-step flattener, dict.update."""

from __future__ import annotations

from typing import Any

from miniagent.runnables import (
    Runnable,
    RunnableBinding,
    RunnableLambda,
    RunnableParallel,
    RunnableSequence,
)

MIN_STEPS = 2


def _wrapper_for(thing: Any) -> type[Runnable] | None:
    """Which Runnable class wraps ``thing``, if any (a Runnable needs none)."""
    if callable(thing):
        return RunnableLambda
    if isinstance(thing, dict):
        return RunnableParallel
    return None


def coerce_to_runnable(thing: Any) -> Runnable:
    if isinstance(thing, Runnable):
        return thing
    wrapper = _wrapper_for(thing)
    if wrapper is None:
        kind = type(thing)
        raise TypeError(
            "Expected a Runnable, callable or dict." + f"Instead got an unsupported type: {kind}"
        )
    return wrapper(thing)


def _as_steps(step: Any) -> list[Runnable]:
    """The steps one argument of RunnableSequence(...) contributes."""
    if isinstance(step, RunnableSequence):
        return list(step.steps)
    return [coerce_to_runnable(step)]


def sequence_init(
    self: RunnableSequence,
    *steps: Any,
    name: str | None = None,
    first: Runnable | None = None,
    middle: list[Runnable] | None = None,
    last: Runnable | None = None,
) -> None:
    found: list[Runnable] = []
    for step in steps:
        found += _as_steps(step)
    if not steps and None not in (first, last):
        found = [first, *(middle or ()), last]
    count = len(found)
    if count < MIN_STEPS:
        raise ValueError(f"RunnableSequence must have at least {MIN_STEPS} steps, got {count}")
    self.first = found[0]
    self.middle = found[1 : count - 1]
    self.last = found[count - 1]
    self.name = name


def bind(self: RunnableBinding, **kwargs: Any) -> RunnableBinding:
    merged = dict(self.kwargs)
    merged.update(kwargs)
    settings = {"bound": self.bound, "kwargs": merged, "config": self.config}
    return self.__class__(**settings)


def _sequence(*names: str, name: str | None = None) -> tuple[str, list[str], str | None]:
    return ("sequence", list(names), name)


def _binding(bound: str, **kwargs: Any) -> tuple[str, str, dict[str, Any]]:
    return ("binding", bound, kwargs)


def predictions() -> dict[str, Any]:
    three = ("add_one", "double", "square")
    table: dict[str, Any] = {
        "pipe": _sequence("add_one", "double"),
        "function_first": _sequence("square", "add_one"),
        "lambda_step": _sequence("add_one", "RunnableLambda"),
        "dict_step": _sequence("add_one", "RunnableParallel<d,s>"),
        "binding_step": _sequence("add_one", "FakeToolCallingModel"),
        "named_left": _sequence(*three, name="calc"),
    }
    for case in ("nested_right", "nested_left", "named_right"):
        table[case] = _sequence(*three)
    for case in ("two_functions", "number_step"):
        table[case] = "TypeError"
    table["bind_twice"] = _binding("FakeToolCallingModel", stop=["b"], temperature=0)
    table["bind_keeps_inner"] = _binding("FakeToolCallingModel", stop=["a"], temperature=0)
    table["bind_tools_then_bind"] = _binding(
        "FakeToolCallingModel", tools=["add"], tool_choice="any"
    )
    table["bind_then_bind_tools"] = _binding("FakeToolCallingModel", tools=["add"])
    table["bind_a_pipe"] = _binding("RunnableSequence", x=1)
    return table
