"""Day 02: the corpora the graders run, upstream's results recorded as data, and part 2's cases.

* :func:`docstrings`: Google-style docstrings (and the argument names each is read for), the
  input of ``_parse_google_docstring``.
* :data:`FUNCTIONS` and :data:`CASES`: plain functions, each turned into the JSON the model sees
  in one of three ways (``convert_to_openai_tool(fn)``, ``@tool``, ``@tool(parse_docstring=True)``).
* ``instructor/recorded.json`` (:data:`RECORDING`): upstream's result of every case, recorded
  from the pinned langchain-core. The graders compare the learner's code with it and never
  import upstream; the contributors' suite (``instructor/test_day02_tools_diff.py``) records it again and checks
  it is still upstream's. Re-record after changing a corpus::

      python -m miniagent_course.grading.recording day02

* Part 2: the cases of :data:`PREDICTED` and the summary of what the model reads for one of
  them (:func:`seen`), which the graders compute on miniagent's real conversion to grade a
  prediction.

The helpers take ``lib``, a namespace with ``tool`` and ``convert_to_openai_tool``
(``miniagent_course.sides``), so one corpus runs on both libraries.
"""

from __future__ import annotations

import enum
import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any, Literal, Optional

from pydantic import Field

from miniagent_course.grading.recording import Recording
from miniagent_course.todo import NotStarted

RECORDED = Path(__file__).parent / "instructor" / "recorded.json"


# --- the docstrings: input of _parse_google_docstring ------------------------------------------

FORECAST_DOC = """Get a forecast.

Args:
    city: The city name.
    days: Number of days."""


def docstrings() -> dict[str, tuple[str | None, list[str], bool]]:
    """``case -> (docstring, args, error_on_invalid_docstring)``, as ``inspect.getdoc`` gives them."""
    return {
        "none": (None, ["a"], False),
        "none, strict": (None, ["a"], True),
        "empty, strict, no args": ("", [], True),
        "summary only": ("Add two integers.", ["a", "b"], False),
        "summary only, strict": ("Add two integers.", ["a", "b"], True),
        "summary only, strict, no documentable args": (
            "Add two integers.",
            ["callbacks", "runtime", "return"],
            True,
        ),
        "google": (FORECAST_DOC, ["city", "days", "return"], True),
        "args first, strict": ("Args:\n    a: The a.\n\nReturns:\n    The a.", ["a"], True),
        "args first": ("Args:\n    a: The a.\n\nReturns:\n    The a.", ["a"], False),
        "several paragraphs": (
            "Find things.\n\nSearches the index,\nthen the archive.\n\nArgs:\n    q: The query.",
            ["q"],
            False,
        ),
        "returns before args": (
            "Find things.\n\nReturns:\n    A list.\n\nMore text.\n\nArgs:\n    q: The query.",
            ["q"],
            True,
        ),
        "example block": (
            "Add.\n\nExample:\n    add(1, 2)\n\nArgs:\n    a: First.\n    b: Second.",
            ["a", "b"],
            False,
        ),
        "typed args": (
            "Add.\n\nArgs:\n    a (int): First.\n    b (int, optional): Second.\n    c int: Third.",
            ["a", "b"],
            False,
        ),
        "continuation lines": (
            "Fetch.\n\nArgs:\n    url: The page,\n        as https://host/path.\n    timeout: In\n"
            "        seconds: at most 30.",
            ["url", "timeout"],
            False,
        ),
        "unindented continuation": (
            "Fetch.\n\nArgs:\n    url: The page,\n    which must exist\n    timeout: Seconds.",
            ["url", "timeout"],
            False,
        ),
        "blank line inside args": (
            "Add.\n\nArgs:\n    a: First.\n\n    b: Second.",
            ["a", "b"],
            False,
        ),
        "arguments heading": ("Add.\n\nArguments:\n    a: First.", ["a"], False),
        "indented raw docstring": (
            "Add.\n\n    Args:\n        a: First.",
            ["a"],
            False,
        ),
        "args then returns": (
            "Add.\n\nArgs:\n    a: First.\n\nReturns:\n    The sum.",
            ["a"],
            True,
        ),
    }


# --- the functions: input of the whole conversion -------------------------------------------


def _doc_as_313(function: Callable[..., Any]) -> Callable[..., Any]:
    """Store the docstring as Python 3.13+ compiles it, with its indentation removed.

    Python 3.10-3.12 keep the indentation of a docstring's later lines in ``__doc__``, and
    ``@tool`` sends ``__doc__`` to the model; 3.13 strips it at compile time. Cleaning it here
    makes every case (and upstream's recorded result) the same on every Python.
    """
    function.__doc__ = inspect.cleandoc(function.__doc__) if function.__doc__ else None
    return function


@_doc_as_313
def check_weather(location: str) -> str:
    """Return the weather forecast for the specified location."""
    return f"It's always sunny in {location}"


@_doc_as_313
def get_forecast(city: str, days: int = 3) -> str:
    """Get a forecast.

    Args:
        city: The city name.
        days: Number of days.
    """
    return f"{days} days of sun in {city}"


@_doc_as_313
def find(
    name: str,
    limit: Optional[int],  # noqa: UP045 -- the spelling users write
    tags: list[int] = [],  # noqa: B006 -- a default the schema shows
    unit: Literal["c", "f"] = "c",
) -> str:
    """Find records.

    Searches the index first,
    then the archive.

    Returns:
        The records found.

    Slow on large archives.

    Args:
        name (str): The name to look for,
            exactly as stored.
        limit: How many records at most.
    """
    return name


@_doc_as_313
def search(query: str, page: int | None = None) -> str:
    """Search the web.

    Args:
        query: What to look for.
    """
    return query


@_doc_as_313
def undocumented_extra(a: int) -> int:
    """Double a number.

    Args:
        a: The number.
        b: A parameter the function does not have.
    """
    return 2 * a


def no_docstring(a: int) -> int:
    return a


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


@_doc_as_313
def paint(
    color: Color,
    where: Annotated[str, "The wall to paint."],
    coats: Annotated[int, Field(description="How many coats.", ge=1)] = 1,
) -> str:
    """Paint a wall.

    Args:
        color: The colour.
        coats: Coats of paint, from the docstring.
    """
    return f"{coats} coats of {color.value} on {where}"


@_doc_as_313
def fetch(url: str, timeout: float = 10.0) -> str:
    """Fetch a page.

    Example:
        fetch("https://example.invalid")

    Args:
        url: The page,
            as https://host/path.
        timeout: In
            seconds: at most 30.
    """
    return url


@_doc_as_313
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


def weather(city: Annotated[str, "The city, as the user wrote it."], days: int = 3) -> str:
    """
    Get the weather.

    Args:
        city: The city name.
        days: Number of days.
        unit: Celsius or Fahrenheit.
    """
    return f"{days} days of sun in {city}"


FUNCTIONS: dict[str, Callable[..., Any]] = {
    f.__name__: f
    for f in (
        check_weather,
        get_forecast,
        find,
        search,
        undocumented_extra,
        no_docstring,
        paint,
        fetch,
        add,
        weather,
    )
}

HOWS = ("convert", "tool", "parsed")
"""``convert``: ``convert_to_openai_tool(fn)``; ``tool``: ``convert_to_openai_tool(tool(fn))``;
``parsed``: ``convert_to_openai_tool(tool(parse_docstring=True)(fn))``."""

CASES: list[str] = [f"{name} / {how}" for name in FUNCTIONS for how in HOWS]


def make(lib: Any, case: str) -> Any:
    """The case's function as ``lib`` turns it into what ``convert_to_openai_tool`` converts."""
    name, _, how = case.partition(" / ")
    function = FUNCTIONS[name]
    if how == "convert":
        return function
    if how == "tool":
        return lib.tool(function)
    return lib.tool(parse_docstring=True)(function)


def _error(error: Exception) -> dict[str, str]:
    return {"error": type(error).__name__, "message": str(error).splitlines()[0]}


def what_the_model_sees(lib: Any, case: str) -> dict[str, Any]:
    """``convert_to_openai_tool``'s result for the case, or the error raised on the way."""
    try:
        return lib.convert_to_openai_tool(make(lib, case))
    except NotStarted:
        raise  # a learner's function still to write: not an outcome of the case
    except Exception as error:  # noqa: BLE001 -- an error is the case's recorded outcome
        return _error(error)


def parsed(parse: Callable[..., Any], case: str) -> Any:
    """``parse`` (a ``_parse_google_docstring``) on the docstring case, as JSON data."""
    docstring, args, strict = docstrings()[case]
    try:
        summary, arg_descriptions = parse(docstring, args, error_on_invalid_docstring=strict)
    except NotStarted:
        raise
    except Exception as error:  # noqa: BLE001 -- an error is the case's recorded outcome
        return _error(error)
    return [summary, arg_descriptions]


# --- upstream's results, recorded ----------------------------------------------------------


def upstream_results(side: Any) -> dict[str, Any]:
    """Upstream's result of every case, computed on ``side`` (the recording's content)."""
    from langchain_core.utils.function_calling import _parse_google_docstring

    return _record(side, _parse_google_docstring)


RECORDING = Recording(RECORDED, upstream_results)
record = RECORDING.record  # upstream's results afresh (contributors: needs the pinned packages)
recorded = RECORDING.recorded  # upstream's results as the file holds them


def _record(lib: Any, parse: Callable[..., Any]) -> dict[str, Any]:
    return {
        "docstrings": {case: parsed(parse, case) for case in docstrings()},
        "schemas": {case: what_the_model_sees(lib, case) for case in CASES},
    }


# --- part 2: predict what the model reads --------------------------------------------------

PREDICTED = [
    "check_weather / convert",
    "get_forecast / convert",
    "weather / tool",
    "find / convert",
    "search / parsed",
    "undocumented_extra / convert",
    "weather / parsed",
    "no_docstring / convert",
    "no_docstring / tool",
    "fetch / convert",
    "paint / parsed",
    "add / parsed",
]
"""No case's answer depends on the Python version. A ``tool`` case sends the whole docstring,
``textwrap.dedent``-ed: Python 3.10-3.12 keep the indentation of a docstring's later lines, which
``dedent`` cannot remove when the first line has none, and 3.13 removes it when compiling. So the
one ``tool`` case with a docstring of several lines is ``weather``'s, whose text starts on its
second line: every line is indented alike, and ``dedent`` gives the same text on every Python.
(The ``_doc_as_313`` functions make the graders' other cases the same on every Python, but
their ``tool`` text is not what a learner reading the source on 3.12 would see.)"""

Seen = tuple[str, dict[str, str | None], list[str]] | str


def seen(lib: Any, case: str) -> Seen:
    """What the model reads: ``(description, {parameter: its description or None}, required)``,
    or the class name of the error raised while converting."""
    result = what_the_model_sees(lib, case)
    if "error" in result:
        return result["error"]
    function = result["function"]
    properties = function["parameters"]["properties"]
    described = {name: schema.get("description") for name, schema in properties.items()}
    return (function["description"], described, function["parameters"].get("required", []))


def miniagent_names() -> Any:
    """miniagent's side (``tool``, ``convert_to_openai_tool``), without importing upstream."""
    from miniagent_course.sides import mini

    return mini()
