"""Day 04: the pipe and the binding, the two ways Runnables are put together.

Lesson:    course/days/day04-runnables.md
Notebook:  notebooks/day04_runnables.ipynb
Check:     miniagent check day04        Stuck?  miniagent hint day04

Two parts, graded separately:

(1) Write the three pieces ``a | b`` and ``.bind(...)`` are made of: ``coerce_to_runnable``,
    ``sequence_init`` (the body of ``RunnableSequence.__init__``) and ``bind`` (the method of
    ``RunnableBinding``). The graders put them where miniagent has its own, so ``|`` and
    ``.bind`` run your code, in your agent too: its model step is ``prompt | model``.
(2) ``inputs``: spot the bug. ``variants.py`` of the day's kit holds changed copies of the three
    functions; for each, give an input on which it does not do what upstream does. The graders
    run both.
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
from miniagent.testing import FakeToolCallingModel  # noqa: F401  (a model to bind, in part 2)
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


def inputs() -> dict[str, Any]:
    """For each variant of ``variants.py``, an input on which it does not do what upstream does.

    ``src/miniagent_course/kits/day04/variants.py`` (the Day 04 page and notebook print it) holds
    seven changed copies of the functions of part 1, each in upstream's shape with one change:
    ``variant_a`` and ``variant_b`` copy ``coerce_to_runnable``, ``variant_c`` and ``variant_d``
    copy ``RunnableSequence.__init__``, ``variant_e``, ``variant_f`` and ``variant_g`` copy
    ``RunnableBinding.bind``. On some inputs a variant behaves as upstream does; on others not.

    Output: a dict with one entry per variant, ``"variant_a"`` to ``"variant_g"``. Each value is
    an input of the form of the function the variant copies:

    * ``coerce_to_runnable``: the ``thing`` itself;
    * ``RunnableSequence.__init__``: a pair ``(steps, keywords)``, a tuple of the positional
      steps and a dict of the keyword arguments (``name``, ``first``, ``middle``, ``last``), as
      in ``RunnableSequence(*steps, **keywords)``;
    * ``RunnableBinding.bind``: a pair ``(binding, kwargs)``, a ``RunnableBinding`` and a dict of
      the keyword arguments, as in ``binding.bind(**kwargs)``.

    Build them from plain values and miniagent's objects (and a class of your own where you need
    one). The graders run the variant and the function it copies, each on its own copy of your
    input, and compare what comes out: the class and ``get_name()`` of what
    ``coerce_to_runnable`` returns and whether it is the input itself; a new sequence's steps
    (by ``get_name()``) and name; whether a new binding has the old one's ``bound``, its
    ``kwargs`` and its ``config``; or the error's class and text. A
    variant is spotted when the two differ.

    The form (these values tell no variant apart)::

        {"variant_a": len, ...,
         "variant_c": ((RunnableLambda(abs), len), {"name": "calc"}), ...,
         "variant_e": (FakeToolCallingModel().bind(stop=["a"]), {"temperature": 0}), ...}
    """
    # TODO(day04): replace the line below with `return {"variant_a": ..., ..., "variant_g": ...}`.
    raise NotStarted("day04")
