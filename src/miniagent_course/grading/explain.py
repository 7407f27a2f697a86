"""What a learner sees when a grader fails: the call, what came back, what was expected.

pytest's own report of a failed grader is written for the people who wrote the grader: a
traceback through the grading machinery and assertion details such as
``where <function …> = Implementation(…)._get_state_value``. A learner needs three things, once:
which call of *their* function went wrong (its arguments), what it returned or raised, and what
the grader expected. So the learner's functions are wrapped in a recorder that keeps their last
call, and :func:`explain` writes the failure from that record, the grader's line and the
assertion's first line.
"""

from __future__ import annotations

import functools
import inspect
import reprlib
import traceback
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from miniagent_course.text import say
from miniagent_course.todo import NotStarted

_SHORT = reprlib.Repr()
_SHORT.maxstring = _SHORT.maxother = 120
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 6
_SHORT.maxlevel = 4
MAX_DETAIL_LINES = 12  # of the assertion's own explanation (a diff of two lists, say)

# Set while a property-based grader runs: a stub's NotStarted then leaves as pytest's skip, which
# hypothesis lets through at once instead of shrinking its examples for seconds (the plugin
# still reads it as "not started": the NotStarted is the skip's cause).
STOP_AT_NOT_STARTED: ContextVar[bool] = ContextVar("stop_at_not_started", default=False)


def _outcome_of(error: BaseException) -> BaseException:
    if STOP_AT_NOT_STARTED.get() and isinstance(error, NotStarted):
        import pytest  # only a grading session sets the flag

        return pytest.skip.Exception(str(error))
    return error


class LastCall:
    """The most recent call of one of the learner's functions, as the grader made it."""

    def __init__(self) -> None:
        self.text: str | None = None  # "name(args)"
        self.outcome: str | None = None  # "returned ..." / "raised ..."

    def clear(self) -> None:
        self.text = self.outcome = None


def recorded(function: Callable[..., Any], last: LastCall) -> Callable[..., Any]:
    """``function``, recording each call's arguments and outcome in ``last``.

    ``functools.wraps`` keeps the name and the signature (``inspect.signature`` follows
    ``__wrapped__``), so graders and the agent see the learner's function as written.
    """

    def note(args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
        shown = [_SHORT.repr(a) for a in args] + [
            f"{k}={_SHORT.repr(v)}" for k, v in kwargs.items()
        ]
        last.text, last.outcome = f"{function.__name__}({', '.join(shown)})", None

    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def arecorder(*args: Any, **kwargs: Any) -> Any:
            note(args, kwargs)
            try:
                result = await function(*args, **kwargs)
            except BaseException as error:
                last.outcome = say("explain.raised", error=_one_line(error))
                outcome = _outcome_of(error)
                if outcome is error:
                    raise
                raise outcome from error
            last.outcome = say("explain.returned", value=_SHORT.repr(result))
            return result

        return arecorder

    @functools.wraps(function)
    def recorder(*args: Any, **kwargs: Any) -> Any:
        note(args, kwargs)
        try:
            result = function(*args, **kwargs)
        except BaseException as error:
            last.outcome = say("explain.raised", error=_one_line(error))
            outcome = _outcome_of(error)
            if outcome is error:
                raise
            raise outcome from error
        last.outcome = say("explain.returned", value=_SHORT.repr(result))
        return result

    return recorder


def _one_line(error: BaseException) -> str:
    text = traceback.format_exception_only(type(error), error)[-1].strip()
    return text if len(text) <= 200 else text[:197] + "..."


def _assertion_lines(error: BaseException) -> list[str]:
    """The assertion's first line and its diff, without pytest's ``where ...`` lines."""
    lines = []
    for line in str(error).splitlines() or [type(error).__name__]:
        if line.lstrip().startswith(("+  where", "+    where", "where ")):
            continue
        lines.append(line)
    return lines[:MAX_DETAIL_LINES]


def summary(error: BaseException) -> str:
    """One line: the assertion's first line, or the error's type and message."""
    if isinstance(error, AssertionError):
        return _assertion_lines(error)[0]
    return _one_line(error)


def _frames_in(error: BaseException, path: Path) -> list[traceback.FrameSummary]:
    target = str(path.resolve())
    return [
        frame
        for frame in traceback.extract_tb(error.__traceback__)
        if frame.filename and str(Path(frame.filename).resolve()) == target
    ]


def explain(
    *,
    day: str,
    test: str,
    grader: Path,
    root: Path,
    learner_file: Path,
    error: BaseException,
    last: LastCall | None,
) -> str:
    """The learner's report of one failed grader (a few lines, no internal objects)."""
    lines = [say("explain.header", day=day, test=test)]
    grader_frames = _frames_in(error, grader)
    if grader_frames:
        frame = grader_frames[-1]
        where = f"{Path(frame.filename).resolve().relative_to(root.resolve()).as_posix()}:{frame.lineno}"
        lines.append(say("explain.grader", where=where, line=(frame.line or "").strip()))
    if last is not None and last.text:
        lines.append(say("explain.your_call", call=last.text))
        if last.outcome:
            lines.append(say("explain.outcome", outcome=last.outcome))
    yours = _frames_in(error, learner_file)
    if isinstance(error, AssertionError):
        detail = _assertion_lines(error)
        plain = detail[0].startswith("assert ")  # pytest's own text, not a grader's sentence
        lines.append(say("explain.expected" if plain else "explain.problem", detail=detail[0]))
        lines += [f"              {line}" for line in detail[1:]]
    else:
        if yours:
            frame = yours[-1]
            lines.append(
                say(
                    "explain.in_your_code",
                    file=learner_file.name,
                    line=frame.lineno,
                    code=(frame.line or "").strip(),
                )
            )
        lines.append(say("explain.error", error=_one_line(error)))
    lines.append(say("explain.hint", day=day))
    return "\n".join(lines)
