"""Day 04, solved with a match statement, a comprehension that flattens, and star-unpacking; part 2
with a callable RunnableParallel, a ChainMap, one long nested sequence and a scripted model."""

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


class Doubler(RunnableParallel):
    """A RunnableParallel that is also a function."""

    def __call__(self, x: Any) -> Any:
        return self.invoke(x)


def inputs() -> dict[str, Any]:
    from collections import ChainMap

    from miniagent.testing import ScriptedChatModel

    first, second, third, fourth = (RunnableLambda(f) for f in (abs, str, len, repr))
    model = ScriptedChatModel([])
    return {
        "variant_a": Doubler({"twice": lambda x: 2 * x}),
        "variant_b": ChainMap({"length": len}),
        "variant_c": ((RunnableSequence(first, second, third, fourth),), {}),
        "variant_d": ((abs, str), {"first": third, "middle": [], "last": fourth}),
        "variant_e": (model.bind(temperature=1, n=1), {"temperature": 0}),
        "variant_f": (RunnableBinding(bound=first, kwargs={}), {}),
        "variant_g": (RunnableBinding(bound=model, kwargs={}, config={"metadata": {"k": 1}}), {}),
    }
