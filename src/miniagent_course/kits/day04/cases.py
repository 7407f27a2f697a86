"""Day 04's second part: what a chain of ``|`` and ``.bind`` calls builds.

``predictions()`` is the reference answer, and it is not written down anywhere: it builds every
chain of :func:`chains` with miniagent's Runnables and describes what came out
(:func:`what_it_builds`). The learner predicts the same table before running it.

Both helpers take ``lib``, a namespace of the names they use (``RunnableLambda``,
``RunnableSequence``, ``RunnableBinding``, ``FakeToolCallingModel``, ``tool``;
``miniagent_course.sides``): miniagent's here, upstream's in the differential test and in the
notebook, so one chain is built on both.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

Built = tuple[Any, ...] | str  # ("sequence", steps, name), ("binding", bound, kwargs), or an error


def chains(lib: Any) -> dict[str, Callable[[], Any]]:
    """The chains of the table, by case name: each is built when its function is called.

    The stub's docstring shows the same expressions; keep the two in step.
    """
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
    except Exception as error:  # the prediction names the class
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


def predictions() -> dict[str, Built]:
    """What each chain of :func:`chains` builds, on miniagent's real Runnables."""
    from miniagent_course.sides import mini

    lib = mini()
    table = {case: what_it_builds(lib, build) for case, build in chains(lib).items()}
    return table
