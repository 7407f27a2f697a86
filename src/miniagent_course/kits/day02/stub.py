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

    ``docstring`` is already cleaned by ``inspect.getdoc`` (common indentation removed);
    ``args`` are the names of the function's annotations (``"return"`` included when the
    function has a return annotation).

    The docstring is read as *blocks* separated by an empty line (``"\\n\\n"``):

    * The summary is the blocks before the first block that starts with ``Args:``, joined
      with one space and stripped. A block that starts with ``Returns:`` or ``Example:`` is
      not summary, and neither is any block after it; the search for ``Args:`` goes on.
      Newlines *inside* a block stay as they are.
    * Only the ``Args:`` block (the first one) gives descriptions, and only the lines after
      its heading. Empty lines are skipped. The first line that contains a ``:`` sets the
      indentation of argument lines. From then on a line indented deeper than that continues
      the current argument's description (even if it holds a ``:``); another line with a
      ``:`` starts an argument: the name is what comes before the first ``:``, stripped, and
      the description what comes after it, stripped. A name written ``city (str)`` (a space,
      then something in parentheses) is just ``city``. A line without ``:`` continues the
      current argument, if there is one. A continuation is added with one space, stripped.
    * No docstring (``None`` or ``""``): ``("", {})``.

    With ``error_on_invalid_docstring=True``, raise ``ValueError("Found invalid Google-Style
    docstring.")`` when there is no docstring at all, or when ``args`` names an argument
    worth documenting (anything but ``run_manager``, ``callbacks``, ``runtime``, ``return``)
    and the docstring has fewer than two blocks, or no block after the first starts with
    ``Args:``.

    Examples (``inspect.getdoc`` text)::

        "Get a forecast.\\n\\nArgs:\\n    city: The city name.\\n    days: Number of days."
        -> ("Get a forecast.", {"city": "The city name.", "days": "Number of days."})
        "Add.\\n\\nArgs:\\n    a: First.\\n\\n    b: Second."   -> ("Add.", {"a": "First."})

    Lesson: "Read the source" and "Edge cases and surprises" on the Day 02 page.
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

    The annotations are ``get_type_hints(fn, include_extras=True)`` (``Annotated`` kept, and
    ``"return"`` among them when ``fn`` has a return annotation). The docstring is
    ``inspect.getdoc(fn)``.

    * ``parse_docstring=False`` (what ``@tool`` does by default): the description is the whole
      docstring (``""`` when there is none); no argument description comes from it.
    * ``parse_docstring=True`` (what ``convert_to_openai_tool`` does with a plain function):
      the description and the argument descriptions are what your ``_parse_google_docstring``
      returns for the docstring and the annotations' names, passing ``error_on_invalid_docstring``
      on. Then every argument the docstring describes must be an annotation of ``fn``; the
      first that is not raises ``ValueError(f"Arg {name} in docstring not found in function
      signature.")``.
    * Either way, an annotated parameter the docstring did not describe takes its description
      from ``Annotated[...]``: ``_get_annotation_description(annotation)`` (imported above)
      gives the first str, or the description of a ``Field(description=...)``, or ``None``.
      The docstring wins when both describe a parameter.

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

        "check_weather / convert"         "undocumented_extra / tool"
        "get_forecast / convert"          "no_docstring / convert"
        "get_forecast / tool"             "no_docstring / tool"
        "find / convert"                  "paint / tool"
        "search / parsed"                 "paint / parsed"
        "undocumented_extra / convert"    "add / parsed"

    Return a literal table with one entry per case. Its shape (the values are placeholders, not
    answers): ``{"check_weather / convert": ("...", {"location": "?"}, []), "add / parsed":
    "KeyError", ...}``. Work it out from the lesson before you run the notebook: the graders
    run the conversion.
    """
    # TODO(day02): replace the line below with `return {"check_weather / convert": ..., ...}`.
    raise NotStarted("day02")
