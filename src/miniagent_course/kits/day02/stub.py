"""Day 02: read a function's docstring and annotations into what the model is told about it.

Lesson:    course/days/day02-tools.md
Notebook:  notebooks/day02_tools.ipynb
Check:     miniagent check day02        Stuck?  miniagent hint day02

Two parts, graded separately:

(1) Write the two functions that give a tool's JSON schema its words: ``_parse_google_docstring``
    (the docstring's summary and its ``Args:`` descriptions) and ``_infer_arg_descriptions`` (the
    function's description and each parameter's, from the docstring or from ``Annotated``).
    The graders put them inside miniagent's ``convert_to_openai_tool`` and ``@tool`` and compare
    the result with upstream's, recorded from langchain-core on a corpus of functions.
(2) ``predictions``: before you run the notebook, predict what the model reads for twelve
    functions, each converted one of three ways. The graders run the real conversion.
"""

from __future__ import annotations

import inspect  # noqa: F401  (you will need it)
from collections.abc import Callable
from typing import Any, get_type_hints  # noqa: F401

from miniagent.tools.schema import _get_annotation_description  # noqa: F401
from miniagent_course.todo import NotStarted


def _parse_google_docstring(
    docstring: str | None, args: list[str], *, error_on_invalid_docstring: bool = False
) -> tuple[str, dict[str, str]]:
    """Split a Google-style docstring into ``(summary, {argument name: description})``.

    Input:

    * ``docstring`` -- a docstring as ``inspect.getdoc`` cleans it (common indentation removed),
      or ``None``;
    * ``args`` -- the names of the function's annotations (``"return"`` among them when the
      function has a return annotation);
    * ``error_on_invalid_docstring`` -- whether a docstring that is not Google style is an error.

    Output: ``(summary, descriptions)``.

    * ``summary`` -- the paragraphs before the ``Args:`` section, joined with one space and
      stripped; a ``Returns:`` or ``Example:`` paragraph, and what follows it, is not summary.
      ``""`` when there is no docstring.
    * ``descriptions`` -- one entry per argument of the (first) ``Args:`` section: its name (a
      type in parentheses dropped: ``city (str)`` is ``city``) and its description, continuation
      lines added with one space. ``{}`` when there is no ``Args:`` section.

    Error, only with ``error_on_invalid_docstring=True``: ``ValueError("Found invalid Google-Style
    docstring.")`` when there is no docstring, or when ``args`` names an argument worth documenting
    (any but ``run_manager``, ``callbacks``, ``runtime``, ``return``) and no paragraph after the
    first starts with ``Args:``.

    >>> _parse_google_docstring("Get a forecast.\\n\\nArgs:\\n    city (str): The city.", ["city"])
    ('Get a forecast.', {'city': 'The city.'})

    Every edge (blank lines inside ``Args:``, a ``:`` in a description, the indentation of
    continuation lines): the lesson, "Read the source" and "Edge cases and surprises".
    Upstream: ``langchain_core/utils/function_calling.py:735`` (langchain-core 1.8.3).
    """
    # TODO(day02): replace the line below with your code (about 40 lines).
    raise NotStarted("day02")


def _infer_arg_descriptions(
    fn: Callable[..., Any],
    *,
    parse_docstring: bool = False,
    error_on_invalid_docstring: bool = False,
) -> tuple[str, dict[str, str]]:
    """``(description of fn, {parameter: description})``: the words of ``fn``'s tool schema.

    Input:

    * ``fn`` -- a function;
    * ``parse_docstring`` -- read its docstring as Google style (``convert_to_openai_tool`` does
      so for a plain function; ``@tool`` by default does not);
    * ``error_on_invalid_docstring`` -- passed on to your ``_parse_google_docstring``.

    Output:

    * ``parse_docstring=False``: the description is the whole cleaned docstring (``""`` when
      there is none); the docstring describes no argument.
    * ``parse_docstring=True``: the summary and the argument descriptions that your
      ``_parse_google_docstring`` gives for the docstring and the names of ``fn``'s annotations
      (``Annotated`` kept, ``"return"`` among them).
    * Either way, an annotated parameter the docstring does not describe is described by its
      ``Annotated[...]`` metadata when that has a description (``_get_annotation_description``,
      imported above, finds it: the first str, or a ``Field(description=...)``). The docstring
      wins when both describe a parameter.

    Errors:

    * ``parse_docstring=True`` and the docstring describes an argument that is not an annotation
      of ``fn``: ``ValueError(f"Arg {name} in docstring not found in function signature.")``, for
      the first such argument;
    * what your ``_parse_google_docstring`` raises, unchanged.

    >>> from typing import Annotated
    >>> def add(a: Annotated[int, "the first"], b: int) -> int:
    ...     "Add two integers."
    >>> _infer_arg_descriptions(add)
    ('Add two integers.', {'a': 'the first'})

    Lesson: "Line by line" on the Day 02 page.
    Upstream: ``langchain_core/tools/base.py:171`` (langchain-core 1.8.3).
    """
    # TODO(day02): replace the line below with your code (about 15 lines).
    raise NotStarted("day02")


# --- part 2: predict -----------------------------------------------------------------------


def predictions() -> dict[str, tuple[str, dict[str, str | None], list[str]] | str]:
    """Your prediction of what the model reads, for each case below.

    The functions are in ``miniagent_course.kits.day02.cases`` (read their source there, or
    in the notebook: ``inspect.getsource``). A case is ``"<function> / <how>"``, where *how* is

    * ``convert``: ``convert_to_openai_tool(function)``, the plain function;
    * ``tool``: ``convert_to_openai_tool(tool(function))``;
    * ``parsed``: ``convert_to_openai_tool(tool(parse_docstring=True)(function))``.

    For each case give either ``(description, {parameter: its description, or None}, required)``
    from the result's ``function`` (``required`` is the schema's list, in its order, ``[]``
    when it has none), or, if the conversion raises, the name of the exception's class
    (``"TypeError"``). Descriptions are compared exactly, spaces and newlines included.

    The cases::

        "check_weather / convert"         "weather / parsed"
        "get_forecast / convert"          "no_docstring / convert"
        "weather / tool"                  "no_docstring / tool"
        "find / convert"                  "fetch / convert"
        "search / parsed"                 "paint / parsed"
        "undocumented_extra / convert"    "add / parsed"

    Return a literal table with one entry per case. Its shape (the values are placeholders, not
    answers): ``{"check_weather / convert": ("...", {"location": "?"}, []), "add / parsed":
    "KeyError", ...}``. Work it out from the lesson: the graders run the conversion.

    Sealed: a table with an entry missing (or not of this form) is not graded; it says only how
    many entries are filled. Your first complete table is recorded as your first try before any
    real outcome is shown: that run (``pytest``, ``miniagent check`` or the notebook's table
    cell) says only which rows are wrong, and later runs show what the real run gives.
    """
    # TODO(day02): replace the line below with `return {"check_weather / convert": ..., ...}`.
    raise NotStarted("day02")
