"""Day 04, solved with a match statement, a comprehension that flattens, and star-unpacking."""

from __future__ import annotations

from typing import Any

from miniagent.runnables import (
    Runnable,
    RunnableBinding,
    RunnableLambda,
    RunnableParallel,
    RunnableSequence,
)


def coerce_to_runnable(thing: Any) -> Runnable:
    match thing:
        case Runnable():
            return thing
        case _ if callable(thing):
            return RunnableLambda(thing)
        case dict():
            return RunnableParallel(thing)
    raise TypeError(
        f"Expected a Runnable, callable or dict.Instead got an unsupported type: {type(thing)}"
    )


def sequence_init(
    self: RunnableSequence,
    *steps: Any,
    name: str | None = None,
    first: Runnable | None = None,
    middle: list[Runnable] | None = None,
    last: Runnable | None = None,
) -> None:
    if steps:
        flat = [
            runnable
            for step in steps
            for runnable in (
                step.steps if isinstance(step, RunnableSequence) else [coerce_to_runnable(step)]
            )
        ]
    elif first is not None and last is not None:
        flat = [first, *(middle or []), last]
    else:
        flat = []
    if len(flat) < 2:
        raise ValueError(f"RunnableSequence must have at least 2 steps, got {len(flat)}")
    self.first, *self.middle, self.last = flat
    self.name = name


def bind(self: RunnableBinding, **kwargs: Any) -> RunnableBinding:
    return type(self)(bound=self.bound, kwargs=self.kwargs | kwargs, config=self.config)


def predictions() -> dict[str, Any]:
    model = "FakeToolCallingModel"
    return {
        "pipe": ("sequence", ["add_one", "double"], None),
        "nested_right": ("sequence", ["add_one", "double", "square"], None),
        "nested_left": ("sequence", ["add_one", "double", "square"], None),
        "function_first": ("sequence", ["square", "add_one"], None),
        "lambda_step": ("sequence", ["add_one", "RunnableLambda"], None),
        "dict_step": ("sequence", ["add_one", "RunnableParallel<d,s>"], None),
        "two_functions": "TypeError",
        "number_step": "TypeError",
        "named_left": ("sequence", ["add_one", "double", "square"], "calc"),
        "named_right": ("sequence", ["add_one", "double", "square"], None),
        "binding_step": ("sequence", ["add_one", model], None),
        "bind_twice": ("binding", model, {"stop": ["b"], "temperature": 0}),
        "bind_keeps_inner": ("binding", model, {"stop": ["a"], "temperature": 0}),
        "bind_tools_then_bind": ("binding", model, {"tools": ["add"], "tool_choice": "any"}),
        "bind_then_bind_tools": ("binding", model, {"tools": ["add"]}),
        "bind_a_pipe": ("binding", "RunnableSequence", {"x": 1}),
    }
