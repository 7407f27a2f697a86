"""The notebooks' bench: run one experiment on miniagent and on upstream, side by side.

A notebook imports what it needs in one line and gets on with the lesson::

    from miniagent_course.lab import LIBS, MINI, UP, on_both, agreement, yours, attempt

* ``MINI`` and ``UP`` are namespaces with the same names on both sides (``create_react_agent``,
  ``StateGraph``, the message classes, ``tool``, the scripted fakes, and ``agent_module``: the
  module that holds ``create_react_agent``'s helpers). ``UP`` is ``None`` when the pinned upstream
  packages are not installed; ``LIBS`` lists the sides that are.
* ``on_both(experiment, *args)`` runs ``experiment(lib, *args)`` on each side and returns
  miniagent's result, or both results when they differ; ``agreement()`` then prints one line:
  did upstream give the same result on every run since the last call?
* ``yours(day)`` is your exercise file, read afresh; it prints one line and returns ``None``
  while the day is not started or the file does not load, so a notebook goes on either way.
* ``attempt(call)`` is ``call()``'s result, or one line naming the error it raised.
* ``your_table(day)`` grades your ``predictions()`` as ``pytest`` does (sealed: your first
  answered table is recorded before any real outcome is shown); ``after_your_table(day)`` is
  True once it has shown them, for the sections that run cases of the table.

Every line these helpers print or return is in the ``[lab]`` table of the ``cli`` catalogue
(``MINIAGENT_LANG=zh``: in Chinese).
"""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

from miniagent_course.grading.course import ExerciseLoadError, Implementation, load_learner
from miniagent_course.grading.judgments import after_your_table as after_your_table
from miniagent_course.grading.judgments import your_table as your_table
from miniagent_course.sides import mini, upstream
from miniagent_course.text import say
from miniagent_course.todo import NotStarted

MINI = mini()
UP = upstream()
LIBS = [MINI] if UP is None else [MINI, UP]
_COMPARED: list[bool] = []  # one entry per on_both call since the last agreement()


def on_both(experiment: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
    """``experiment(lib, ...)`` on each side: miniagent's result, or both when they differ."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        results = [experiment(lib, *args, **kwargs) for lib in LIBS]
    if len(results) == 1:
        return results[0]
    _COMPARED.append(results[0] == results[1])
    if results[0] == results[1]:
        return results[0]
    return say("lab.both", mini=results[0], up=results[1])


def agreement() -> None:
    """One line: did upstream give the same results as miniagent in the runs above?"""
    if UP is None:
        print(say("lab.no_upstream"))
    elif _COMPARED:
        same, runs = sum(_COMPARED), len(_COMPARED)
        if same == runs:
            print(say("lab.agreement_same", runs=runs))
        else:
            print(say("lab.agreement_different", n=runs - same, runs=runs))
    _COMPARED.clear()


def attempt(call: Callable[[], Any]) -> Any:
    """``call()``, or ``"ErrorType: first line of the message"`` if it raised."""
    try:
        return call()
    except Exception as error:
        lines = str(error).splitlines()
        return f"{type(error).__name__}: {lines[0] if lines else ''}"


def yours(day: str) -> Implementation | None:
    """Your exercise file for ``day``, read afresh; ``None`` (and one line) if it is not ready."""
    try:
        return load_learner(day)
    except ExerciseLoadError as error:
        print(str(error).splitlines()[0])
    except NotStarted:
        print(say("lab.not_started", day=day))
    return None


def try_yours(call: Callable[[], Any]) -> Any:
    """Like :func:`attempt`, but a function that still raises NotStarted says so in one line."""
    try:
        return call()
    except NotStarted as error:
        return say("lab.try_not_started", day=error.exercise)
    except Exception as error:
        lines = str(error).splitlines()
        return f"{type(error).__name__}: {lines[0] if lines else ''}"
