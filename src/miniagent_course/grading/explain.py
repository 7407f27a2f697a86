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

import ast
import functools
import inspect
import linecache
import reprlib
import traceback
from collections.abc import Callable
from contextvars import ContextVar
from pathlib import Path
from typing import Any

from miniagent_course.text import say
from miniagent_course.todo import NotStarted


class _OneLine(reprlib.Repr):
    """A short repr on one line: an object whose repr spans lines (a sequence prints one step a
    line) is joined with spaces, so a report's "returned" line stays one line."""

    def repr1(self, x: Any, level: int) -> str:
        return " ".join(super().repr1(x, level).split("\n"))


_SHORT = _OneLine()
_SHORT.maxstring = _SHORT.maxother = 120
_SHORT.maxlist = _SHORT.maxtuple = _SHORT.maxdict = _SHORT.maxset = 6
_SHORT.maxlevel = 4
_SHORT_WIDE = _OneLine()  # the two values of a failed comparison
_SHORT_WIDE.maxstring = _SHORT_WIDE.maxother = 200
_SHORT_WIDE.maxlist = _SHORT_WIDE.maxtuple = _SHORT_WIDE.maxdict = _SHORT_WIDE.maxset = 8
_SHORT_WIDE.maxlevel = 5
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
        self.error: BaseException | None = None  # what the learner's function raised, if it did

    def clear(self) -> None:
        self.text = self.outcome = self.error = None


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
        last.error = None

    if inspect.iscoroutinefunction(function):

        @functools.wraps(function)
        async def arecorder(*args: Any, **kwargs: Any) -> Any:
            note(args, kwargs)
            try:
                result = await function(*args, **kwargs)
            except BaseException as error:
                last.outcome = say("explain.raised", error=_one_line(error))
                last.error = error
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
            last.error = error
            outcome = _outcome_of(error)
            if outcome is error:
                raise
            raise outcome from error
        last.outcome = say("explain.returned", value=_SHORT.repr(result))
        return result

    return recorder


def _one_line(error: BaseException) -> str:
    """``Type: message``, its first line (hypothesis's notes and a traceback's extras left out)."""
    shown = traceback.TracebackException(type(error), error, None)
    shown.__notes__ = None  # hypothesis's "Falsifying example: ..." notes are not the error
    text = list(shown.format_exception_only())[-1].strip()
    first, *more = text.splitlines() or [type(error).__name__]
    if more:
        first += say("explain.more_lines", n=len(more))
    return first if len(first) <= 240 else first[:239] + "…"


def learner_error(error: BaseException, last: LastCall | None) -> BaseException:
    """The learner's own exception when a grader stumbled over it, else ``error``.

    A grader that goes on after the learner's function raised can fail on something of its own
    (a ``TypeError`` indexing a result that never came); the learner needs their exception.
    """
    if last is None or last.error is None or isinstance(error, AssertionError):
        return error
    return last.error


def _assertion_lines(error: BaseException) -> list[str]:
    """The assertion's first line and its diff, without pytest's ``where ...`` lines."""
    lines = []
    for line in str(error).splitlines() or [type(error).__name__]:
        if line.lstrip().startswith(("+  where", "+    where", "where ")):
            continue
        lines.append(line)
    return lines[:MAX_DETAIL_LINES]


BARE = {"assert False", "assert (False)", "assert None", "assert (None)", "assert 0", "assert []"}


def summary(error: BaseException, last: LastCall | None = None, grader: Path | None = None) -> str:
    """One line: what was expected, or the learner's exception (never the grader's own)."""
    error = learner_error(error, last)
    if not isinstance(error, AssertionError):
        return _one_line(error)
    detail = _assertion_lines(error)
    compared = _compared(detail, _grader_line(error, grader))
    if compared:
        return say("explain.compared_short", **compared)
    if detail[0].strip() in BARE or detail[0].strip() == "assert":
        line = _grader_line(error, grader)
        if line:
            return say("explain.check_failed", line=line)
    return detail[0]


def _grader_line(error: BaseException, grader: Path | None) -> str:
    frames = _frames_in(error, grader) if grader is not None else []
    return _statement(frames[-1]) if frames else ""


@functools.lru_cache(maxsize=64)
def _statement_ends(filename: str) -> dict[int, int]:
    """First line -> last line of every statement in ``filename`` (pytest's rewritten asserts
    report their first line only)."""
    try:
        tree = ast.parse(Path(filename).read_text(encoding="utf-8"))
    except (OSError, SyntaxError, ValueError):
        return {}
    ends: dict[int, int] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.stmt) and node.end_lineno is not None:
            ends.setdefault(node.lineno, node.end_lineno)
    return ends


def _statement(frame: traceback.FrameSummary) -> str:
    """The whole statement at ``frame``, joined onto one line when it spans several."""
    if frame.lineno is None:
        return (frame.line or "").strip()
    end = _statement_ends(frame.filename).get(frame.lineno, frame.lineno)
    if end <= frame.lineno:
        return (frame.line or "").strip()
    lines = [linecache.getline(frame.filename, n).strip() for n in range(frame.lineno, end + 1)]
    text = " ".join(line for line in lines if line)
    text = text.replace("( ", "(").replace(" )", ")").replace("[ ", "[").replace(" ]", "]")
    return text if len(text) <= 200 else text[:199] + "…"


YOURS = ("impl", "your", "got", "result", "actual", "answer", "mine", "out")
EXPECTED = ("expected", "want", "reference", "upstream", "ref", "truth", "real")


def _sides(line: str) -> tuple[str, str] | None:
    """Which side of the grader's ``assert a == b`` is the learner's: ("yours", "expected")..."""
    try:
        node = ast.parse(line.removesuffix(",")).body[0]
    except (SyntaxError, IndexError):
        return None
    test = getattr(node, "test", None)
    if not isinstance(test, ast.Compare) or len(test.comparators) != 1:
        return None
    left, right = ast.unparse(test.left).lower(), ast.unparse(test.comparators[0]).lower()

    def mentions(text: str, words: tuple[str, ...]) -> bool:
        return any(word in text for word in words)

    if mentions(left, YOURS) and not mentions(left, EXPECTED) or mentions(right, EXPECTED):
        return "yours", "expected"
    if mentions(right, YOURS) and not mentions(right, EXPECTED) or mentions(left, EXPECTED):
        return "expected", "yours"
    return None


def _compared(detail: list[str], line: str) -> dict[str, str] | None:
    """The two values of a failed ``==`` (from the plugin's ``COMPARED`` lines), named by side."""
    values = {}
    for text in detail:
        for side in ("left", "right"):
            marker = f"{COMPARED}{side}: "
            if marker in text:
                values[side] = text.split(marker, 1)[1]
    if set(values) != {"left", "right"}:
        return None
    names = _sides(line) or ("left", "right")
    named = dict(zip(names, (values["left"], values["right"]), strict=True))
    if "yours" in named:
        return {"yours": named["yours"], "expected": named["expected"]}
    return {"yours": values["left"], "expected": values["right"], "unsure": "1"}


COMPARED = "miniagent-compared "  # how the plugin's comparison lines start (see plugin.py)


def compared_lines(left: Any, right: Any) -> list[str]:
    """Two values that should be equal, each shown near where they first differ.

    pytest cuts both sides of a long comparison at the same length, so they can read the same
    ("'RunnableSequ... steps, got 0' == 'RunnableSequ... steps, got 0'"). Each side here is
    shown whole when short, else from a little before the first difference.
    """
    texts = [_SHORT_WIDE.repr(left), _SHORT_WIDE.repr(right)]
    if texts[0] == texts[1]:  # the shortened forms agree: show the full forms near the change
        texts = [repr(left)[:20000], repr(right)[:20000]]
        at = next(
            (i for i, pair in enumerate(zip(*texts, strict=False)) if pair[0] != pair[1]),
            min(map(len, texts)),
        )
        start = max(at - 40, 0)
        texts = [
            ("…" if start else "") + t[start : start + 160] + ("…" if len(t) > start + 160 else "")
            for t in texts
        ]
    return [f"{COMPARED}left: {texts[0]}", f"{COMPARED}right: {texts[1]}"]


def _frames_in(error: BaseException, path: Path) -> list[traceback.FrameSummary]:
    """The frames of ``error``'s traceback in the file ``path``, outermost first (only those are
    summarised: a failure inside an agent has hundreds of others)."""
    target = _resolved(str(path))
    frames = [
        (frame, line)
        for frame, line in traceback.walk_tb(error.__traceback__)
        if frame.f_code.co_filename and _resolved(frame.f_code.co_filename) == target
    ]
    return list(traceback.StackSummary.extract(frames))


@functools.lru_cache(maxsize=1024)
def _resolved(filename: str) -> str:
    """``filename`` made absolute, links followed (asked for every frame of every failure)."""
    return str(Path(filename).resolve())


def explain(
    *,
    day: str,
    test: str,
    grader: Path,
    root: Path,
    learner_file: Path,
    error: BaseException,
    last: LastCall | None,
    check: str = "",
) -> str:
    """The learner's report of one failed grader (a few lines, no internal objects); ``check``,
    what the grader checks in the learner's language when the kit translates it."""
    lines = [say("explain.header", day=day, test=test)]
    if check:
        lines.append(say("explain.check", text=check))
    grader_frames = _frames_in(error, grader)
    if grader_frames:
        frame = grader_frames[-1]
        where = f"{Path(frame.filename).resolve().relative_to(root.resolve()).as_posix()}:{frame.lineno}"
        lines.append(say("explain.grader", where=where, line=_statement(frame)))
    if last is not None and last.text:
        lines.append(say("explain.your_call", call=last.text))
        if last.outcome:
            lines.append(say("explain.outcome", outcome=last.outcome))
    error = learner_error(error, last)
    yours = _frames_in(error, learner_file)
    if isinstance(error, AssertionError):
        detail = [line for line in _assertion_lines(error) if line.strip() != "None"]
        grader_line = _statement(grader_frames[-1]) if grader_frames else ""
        compared = _compared(detail, grader_line)
        if compared:
            key = "explain.compared_unsure" if compared.get("unsure") else "explain.compared"
            lines.append(say(key, **compared))
        elif not detail or detail[0].strip() in BARE or detail[0].strip() == "assert":
            lines.append(say("explain.check_failed_long"))
        else:
            plain = detail[0].startswith("assert ")  # pytest's own text, not a grader's sentence
            lines.append(say("explain.expected" if plain else "explain.problem", detail=detail[0]))
            lines += [f"              {line}" for line in detail[1:] if COMPARED not in line]
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
