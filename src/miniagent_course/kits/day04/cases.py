"""Day 04's situations: what chains of ``|`` and ``.bind`` build, and the variants run.

* :func:`chains` and :func:`what_it_builds`: sixteen chains of ``|`` and ``.bind`` and what each
  builds (the notebook prints them on both libraries; ``instructor/test_day04_chains_diff.py``
  proves that miniagent builds what langchain-core builds). Both take ``lib``, a namespace of
  the names they use (``RunnableLambda``, ``RunnableSequence``, ``RunnableBinding``,
  ``FakeToolCallingModel``, ``tool``; ``miniagent_course.sides``), so one chain is built on both.
* Part 2, spot the bug: :func:`copies` (the function each variant of ``variants.py`` is a
  changed copy of) and :func:`what_it_does` (one input run through one function, as the graders
  compare it); :func:`side_by_side` runs a variant and its upstream on one input, for the
  notebook.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any

Built = tuple[Any, ...] | str  # ("sequence", steps, name), ("binding", bound, kwargs), or an error


def chains(lib: Any) -> dict[str, Callable[[], Any]]:
    """Sixteen chains of ``|`` and ``.bind``, by name: each is built when its function is called
    (the notebook's section 7 prints what each builds, on both libraries)."""
    RunnableLambda = lib.RunnableLambda

    def add_one(x):
        return x + 1

    def double(x):
        return x * 2

    def square(x):
        return x * x

    @lib.tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    one, two = RunnableLambda(add_one), RunnableLambda(double)
    model = lib.FakeToolCallingModel()
    return {
        "pipe": lambda: one | two,
        "nested_right": lambda: one | (two | square),
        "nested_left": lambda: (one | two) | square,
        "function_first": lambda: square | one,
        "lambda_step": lambda: one | (lambda x: x * 10),
        "dict_step": lambda: one | {"d": two, "s": square},
        "two_functions": lambda: square | double,
        "number_step": lambda: one | 5,
        "named_left": lambda: one.pipe(two, name="calc") | square,
        "named_right": lambda: one | two.pipe(square, name="calc"),
        "binding_step": lambda: one | model.bind(stop=["\n"]),
        "bind_twice": lambda: model.bind(stop=["a"]).bind(stop=["b"], temperature=0),
        "bind_keeps_inner": lambda: model.bind(stop=["a"]).bind(temperature=0),
        "bind_tools_then_bind": lambda: model.bind_tools([add]).bind(tool_choice="any"),
        "bind_then_bind_tools": lambda: model.bind(tool_choice="any").bind_tools([add]),
        "bind_a_pipe": lambda: (one | two).bind(x=1),
    }


def _tool_name(spec: dict[str, Any]) -> Any:
    """A bound tool dict's name: ``{"type": "function", "function": {"name": ...}}`` or
    ``{"name": ...}`` (the fakes bind one of the two)."""
    return spec["function"]["name"] if spec.get("type") == "function" else spec.get("name")


def what_it_builds(lib: Any, build: Callable[[], Any]) -> Built:
    """Build one chain; describe it, or name the error building it raised.

    * a ``RunnableSequence``: ``("sequence", [each step's get_name()], its name)``;
    * a ``RunnableBinding``: ``("binding", bound.get_name(), its kwargs)``, a bound ``tools``
      list shown as the tools' names;
    * anything else: ``(its class name, its get_name())``.
    """
    try:
        built = build()
    except Exception as error:  # told by its class
        return type(error).__name__
    if isinstance(built, lib.RunnableSequence):
        return ("sequence", [step.get_name() for step in built.steps], built.name)
    if isinstance(built, lib.RunnableBinding):
        kwargs = {
            key: [_tool_name(t) for t in value] if key == "tools" else value
            for key, value in built.kwargs.items()
        }
        return ("binding", built.bound.get_name(), kwargs)
    return (type(built).__name__, built.get_name())


# --- part 2: the variants, run as the graders run them -------------------------------------------


def copies() -> dict[str, Callable[..., Any]]:
    """Each variant of ``variants.py``: the miniagent function it is a changed copy of."""
    from miniagent.runnables.base import RunnableBinding, RunnableSequence, coerce_to_runnable

    return {
        "variant_a": coerce_to_runnable,
        "variant_b": coerce_to_runnable,
        "variant_c": RunnableSequence.__init__,
        "variant_d": RunnableSequence.__init__,
        "variant_e": RunnableBinding.bind,
        "variant_f": RunnableBinding.bind,
        "variant_g": RunnableBinding.bind,
    }


def what_it_does(function: Callable[..., Any], given: Any) -> dict[str, Any]:
    """What ``function``, ``coerce_to_runnable``, ``RunnableSequence.__init__``, ``bind`` or a
    copy of one, does with ``given``, an input of its form, told so that two runs compare:

    * ``coerce_to_runnable(thing)``, given ``thing``: the class and ``get_name()`` of the
      Runnable it returns, and whether it is ``thing`` itself (``"same object"``);
    * ``RunnableSequence.__init__``, given ``(steps, keywords)`` (``RunnableSequence(*steps,
      **keywords)``): the ``get_name()`` of each step of the new sequence, and its ``name``;
    * ``RunnableBinding.bind``, given ``(binding, kwargs)`` (``binding.bind(**kwargs)``): whether
      the new binding's ``bound`` is ``binding``'s (``"same bound"``), its ``kwargs`` and its
      ``config``.

    An error it raises goes through; the graders tell it as ``("raised", class, text)``.
    """
    from miniagent.runnables import RunnableSequence

    parameters = inspect.signature(function).parameters
    if "steps" in parameters:
        steps, keywords = given
        sequence = RunnableSequence.__new__(RunnableSequence)
        function(sequence, *steps, **keywords)
        return {"steps": [step.get_name() for step in sequence.steps], "name": sequence.name}
    if "self" in parameters:
        binding, kwargs = given
        new = function(binding, **kwargs)
        return {
            "same bound": new.bound is binding.bound,
            "kwargs": dict(new.kwargs),
            "config": dict(new.config),
        }
    runnable = function(given)
    return {
        "class": type(runnable).__name__,
        "name": runnable.get_name(),
        "same object": runnable is given,
    }


def side_by_side(variant: str, given: Any) -> tuple[Any, Any]:
    """(what ``variant`` does with ``given``, what the function it copies does), each run as the
    graders run it: on its own copy of ``given``, an error told as ``("raised", class, text)``."""
    from miniagent_course.grading.judgments import Spots
    from miniagent_course.kits.day04.variants import VARIANTS

    spots = Spots(variants=VARIANTS, upstream=copies(), run=what_it_does)
    return spots.outcome(VARIANTS[variant], given), spots.outcome(spots.twin(variant), given)
