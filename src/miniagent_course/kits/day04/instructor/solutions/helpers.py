"""Day 04, solved with small helpers: a wrapper lookup, a per-step flattener, dict.update; part 2
with a callable RunnableLambda, a UserDict, a nested sequence first and bindings of a helper."""

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


class Both(RunnableLambda):
    """Runnable and callable at once."""

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return self.func(*args, **kwargs)


def _model_bound(**kwargs: Any) -> RunnableBinding:
    from miniagent.testing import FakeToolCallingModel

    return FakeToolCallingModel().bind(**kwargs)


def inputs() -> dict[str, Any]:
    from collections import UserDict

    steps = [RunnableLambda(f) for f in (abs, str, len)]
    nested = RunnableSequence(*steps)
    return {
        "variant_a": Both(len),
        "variant_b": UserDict(double=lambda x: 2 * x),
        "variant_c": ((nested, steps[0]), {"name": "nested"}),
        "variant_d": ((*steps,), {"first": steps[2], "middle": [steps[1]], "last": steps[0]}),
        "variant_e": (_model_bound(stop=["x"], temperature=1), {"stop": ["y"]}),
        "variant_f": (_model_bound(), {"stop": ["x"]}),
        "variant_g": (_model_bound(temperature=1).with_config(tags=["t"]), {"stop": ["x"]}),
    }
