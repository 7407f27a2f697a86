"""Day 04, part 2: changed copies of the three functions the page reads.

Each ``variant_*`` below is a copy of one of miniagent's functions, written in upstream's shape
(``src/miniagent/runnables/base.py``), with one change: on some inputs it behaves as upstream
does, on others it does not. ``variant_a`` and ``variant_b`` are copies of
``coerce_to_runnable``; ``variant_c`` and ``variant_d`` of ``RunnableSequence.__init__``;
``variant_e``, ``variant_f`` and ``variant_g`` of ``RunnableBinding.bind``. Read each one
against the page, find what is different, and give in ``inputs()`` an input on which it does
not do what upstream does. The graders run both on it.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from miniagent.runnables.base import (
    _RUNNABLE_SEQUENCE_MIN_STEPS,
    Runnable,
    RunnableBinding,
    RunnableLambda,
    RunnableParallel,
    RunnableSequence,
    coerce_to_runnable,
)

# --8<-- [start:coerce]


def variant_a(thing: Any) -> Runnable:
    if callable(thing):
        return RunnableLambda(thing)
    if isinstance(thing, Runnable):
        return thing
    if isinstance(thing, dict):
        return RunnableParallel(thing)
    msg = f"Expected a Runnable, callable or dict.Instead got an unsupported type: {type(thing)}"
    raise TypeError(msg)


def variant_b(thing: Any) -> Runnable:
    if isinstance(thing, Runnable):
        return thing
    if callable(thing):
        return RunnableLambda(thing)
    if isinstance(thing, Mapping):
        return RunnableParallel(thing)
    msg = f"Expected a Runnable, callable or dict.Instead got an unsupported type: {type(thing)}"
    raise TypeError(msg)


# --8<-- [end:coerce]

# --8<-- [start:sequence]


def variant_c(
    self: RunnableSequence,
    *steps: Any,
    name: str | None = None,
    first: Runnable | None = None,
    middle: list[Runnable] | None = None,
    last: Runnable | None = None,
) -> None:
    steps_flat: list[Runnable] = []
    if not steps and first is not None and last is not None:
        steps_flat = [first] + (middle or []) + [last]
    for step in steps:
        if isinstance(step, RunnableSequence):
            steps_flat.extend([step.first, step.last])
        else:
            steps_flat.append(coerce_to_runnable(step))
    if len(steps_flat) < _RUNNABLE_SEQUENCE_MIN_STEPS:
        msg = (
            f"RunnableSequence must have at least {_RUNNABLE_SEQUENCE_MIN_STEPS} "
            f"steps, got {len(steps_flat)}"
        )
        raise ValueError(msg)
    self.first = steps_flat[0]
    self.middle = list(steps_flat[1:-1])
    self.last = steps_flat[-1]
    self.name = name


def variant_d(
    self: RunnableSequence,
    *steps: Any,
    name: str | None = None,
    first: Runnable | None = None,
    middle: list[Runnable] | None = None,
    last: Runnable | None = None,
) -> None:
    steps_flat: list[Runnable] = []
    if first is not None and last is not None:
        steps_flat = [first] + (middle or []) + [last]
    for step in steps:
        if isinstance(step, RunnableSequence):
            steps_flat.extend(step.steps)
        else:
            steps_flat.append(coerce_to_runnable(step))
    if len(steps_flat) < _RUNNABLE_SEQUENCE_MIN_STEPS:
        msg = (
            f"RunnableSequence must have at least {_RUNNABLE_SEQUENCE_MIN_STEPS} "
            f"steps, got {len(steps_flat)}"
        )
        raise ValueError(msg)
    self.first = steps_flat[0]
    self.middle = list(steps_flat[1:-1])
    self.last = steps_flat[-1]
    self.name = name


# --8<-- [end:sequence]

# --8<-- [start:bind]


def variant_e(self: RunnableBinding, **kwargs: Any) -> RunnableBinding:
    return self.__class__(
        bound=self.bound,
        config=self.config,
        kwargs={**kwargs, **self.kwargs},
    )


def variant_f(self: RunnableBinding, **kwargs: Any) -> RunnableBinding:
    return self.__class__(
        bound=self,
        config=self.config,
        kwargs=kwargs,
    )


def variant_g(self: RunnableBinding, **kwargs: Any) -> RunnableBinding:
    return self.__class__(
        bound=self.bound,
        config={},
        kwargs={**self.kwargs, **kwargs},
    )


# --8<-- [end:bind]

VARIANTS = {
    "variant_a": variant_a,
    "variant_b": variant_b,
    "variant_c": variant_c,
    "variant_d": variant_d,
    "variant_e": variant_e,
    "variant_f": variant_f,
    "variant_g": variant_g,
}
