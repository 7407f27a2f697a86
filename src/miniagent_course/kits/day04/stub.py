"""Day 04: the pipe and the binding, the two ways Runnables are put together.

Lesson:    course/days/day04-runnables.md
Notebook:  notebooks/day04_runnables.ipynb
Check:     miniagent check day04        Stuck?  miniagent hint day04

Two parts, graded separately:

(1) Write the three pieces ``a | b`` and ``.bind(...)`` are made of: ``coerce_to_runnable``,
    ``sequence_init`` (the body of ``RunnableSequence.__init__``) and ``bind`` (the method of
    ``RunnableBinding``). The graders put them where miniagent has its own, so ``|`` and
    ``.bind`` run your code, in your agent too: its model step is ``prompt | model``.
(2) ``predictions``: before you run the notebook's table, predict what sixteen chains of ``|``
    and ``.bind`` build. The graders build them.
"""

from __future__ import annotations

from typing import Any

from miniagent.runnables import (  # noqa: F401  (you will need some of them)
    Runnable,
    RunnableBinding,
    RunnableLambda,
    RunnableParallel,
    RunnableSequence,
)
from miniagent_course.todo import NotStarted


def coerce_to_runnable(thing: Any) -> Runnable:
    """Turn what may stand on either side of ``|`` into a Runnable.

    ``Runnable.__or__`` calls it on the right-hand side (``runnable | thing``) and
    ``Runnable.__ror__`` on the left-hand side (``thing | runnable``).

    Input: ``thing``, anything.

    Output:

    * a ``Runnable``: that very object (whatever else it is);
    * any other callable (a function, a lambda, an object with ``__call__``, a class): a
      ``RunnableLambda`` of it;
    * a ``dict`` (a real ``dict``, not any mapping): a ``RunnableParallel`` of it, which runs
      every value on the same input and returns a dict of their outputs.

    Error: anything else raises ``TypeError`` with exactly this text (upstream glues the two
    sentences, no space after the full stop); for 5 it ends ``<class 'int'>``::

        Expected a Runnable, callable or dict.Instead got an unsupported type: <class 'int'>

    >>> coerce_to_runnable(len)
    RunnableLambda(len)

    Upstream also turns a generator function into a ``RunnableGenerator``; the miniature has
    none, so generator functions are out of scope.

    Lesson: "The pipe" on the Day 04 page.
    Upstream: ``langchain_core/runnables/base.py:6627`` (langchain-core 1.8.3).
    """
    # TODO(day04): replace the line below with your code.
    raise NotStarted("day04")


def sequence_init(
    self: RunnableSequence,
    *steps: Any,
    name: str | None = None,
    first: Runnable | None = None,
    middle: list[Runnable] | None = None,
    last: Runnable | None = None,
) -> None:
    """``RunnableSequence.__init__``: set up a new sequence ``self`` from its steps.

    ``a | b`` calls ``RunnableSequence(a, b)``, and this function runs as its ``__init__``.

    Input:

    * ``self`` -- the new sequence, still empty;
    * ``steps`` -- the steps, in order: Runnables, or anything your ``coerce_to_runnable``
      accepts;
    * ``first``, ``middle``, ``last`` -- the steps as keywords, used only when no positional
      step is given (and then only when both ``first`` and ``last`` are);
    * ``name`` -- the sequence's name, or ``None``.

    Output: ``None``; ``self`` now has ``first`` (the first step), ``middle`` (a list, maybe
    empty), ``last`` and ``name``, so ``self.steps`` is ``[first, *middle, last]``. A step that is
    itself a ``RunnableSequence`` stands for its own steps: sequences never nest, ``a | (b | c)``
    has three steps. Keyword steps are kept as they are.

    Error: fewer than two steps in the end raises ``ValueError`` with exactly this text (the count
    is the number of steps found)::

        RunnableSequence must have at least 2 steps, got 1

    >>> [step.get_name() for step in RunnableSequence(RunnableLambda(len), str, name="calc").steps]
    ['len', 'str']

    Lesson: "The pipe" and "Edge cases and surprises" on the Day 04 page.
    Upstream: ``langchain_core/runnables/base.py:3188`` (langchain-core 1.8.3).
    """
    # TODO(day04): replace the line below with your code.
    raise NotStarted("day04")


def bind(self: RunnableBinding, **kwargs: Any) -> RunnableBinding:
    """``RunnableBinding.bind``: bind more keyword arguments to a binding.

    ``model.bind(stop=["x"])`` makes a ``RunnableBinding``: ``.bound`` is the model, ``.kwargs``
    is ``{"stop": ["x"]}``, and every call of the binding passes those kwargs to the model. This
    function is what ``.bind(...)`` does when called again, on ``self``, the binding.

    Input: ``self``, a ``RunnableBinding`` (or a subclass); ``kwargs``, the keyword arguments to
    add.

    Output: a **new** binding, of the same class as ``self``, over the **same** ``bound`` (bindings
    never nest), with ``self``'s ``config`` and the kwargs of both calls in one dict; when both
    name the same key, the new value wins. ``self`` is left exactly as it was. (The class takes
    the keywords ``bound=``, ``kwargs=`` and ``config=``.)

    Errors: none of its own.

    >>> from miniagent.testing import ScriptedChatModel
    >>> again = ScriptedChatModel([]).bind(n=1, seed=7).bind(n=2)
    >>> type(again).__name__, again.bound.get_name(), again.kwargs
    ('RunnableBinding', 'ScriptedChatModel', {'n': 2, 'seed': 7})

    Lesson: "The binding" on the Day 04 page.
    Upstream: ``langchain_core/runnables/base.py:6418`` (langchain-core 1.8.3).
    """
    # TODO(day04): replace the line below with your code.
    raise NotStarted("day04")


def predictions() -> dict[str, Any]:
    """Your prediction of what each chain below builds.

    The building blocks (``RunnableLambda`` and ``FakeToolCallingModel`` as in miniagent)::

        def add_one(x): return x + 1
        def double(x): return x * 2
        def square(x): return x * x

        @tool
        def add(a: int, b: int) -> int:
            "Add two integers."

        one, two = RunnableLambda(add_one), RunnableLambda(double)
        model = FakeToolCallingModel()

    The chains, by case name::

        "pipe":                 one | two
        "nested_right":         one | (two | square)
        "nested_left":          (one | two) | square
        "function_first":       square | one
        "lambda_step":          one | (lambda x: x * 10)
        "dict_step":            one | {"d": two, "s": square}
        "two_functions":        square | double
        "number_step":          one | 5
        "named_left":           one.pipe(two, name="calc") | square
        "named_right":          one | two.pipe(square, name="calc")
        "binding_step":         one | model.bind(stop=["\\n"])
        "bind_twice":           model.bind(stop=["a"]).bind(stop=["b"], temperature=0)
        "bind_keeps_inner":     model.bind(stop=["a"]).bind(temperature=0)
        "bind_tools_then_bind": model.bind_tools([add]).bind(tool_choice="any")
        "bind_then_bind_tools": model.bind(tool_choice="any").bind_tools([add])
        "bind_a_pipe":          (one | two).bind(x=1)

    For each case give one of:

    * a sequence: ``("sequence", [the get_name() of each step, in order], its .name)``;
    * a binding: ``("binding", its .bound's get_name(), its .kwargs)``, where a bound ``tools``
      list is written as the list of the tools' names (``{"tools": ["add"]}``);
    * if building the chain raises: the exception's class name, such as ``"ValueError"``.

    Return a literal table with one entry per case. Its shape (the values are placeholders,
    not answers): ``{"pipe": ("sequence", ["?", "?"], None), ..., "bind_twice": ("binding",
    "?", {"stop": ["?"]}), ..., "bind_a_pipe": "KeyError"}``. Work it out from the lesson: the
    graders build every chain.

    Sealed: a table with an entry missing (or not of this form) is not graded; it says only how
    many entries are filled. Your first complete table is recorded as your first try before any
    real outcome is shown: that run (``pytest``, ``miniagent check`` or the notebook's table
    cell) says only which rows are wrong, and later runs show what the real run gives.
    """
    # TODO(day04): replace the line below with `return {"pipe": ..., ..., "bind_a_pipe": ...}`.
    raise NotStarted("day04")
