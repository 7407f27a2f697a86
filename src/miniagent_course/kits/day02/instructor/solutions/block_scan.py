"""Day 02, solved by scanning the blocks once with an index, and a small argument-line helper.

Written unlike the reference: the summary is the blocks before a stop index (computed with
``next``), the ``Args:`` lines go through a helper that returns what each line is, and the
Annotated descriptions are merged with a dict comprehension. The predictions are a literal
table of triples.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from typing import Any, get_type_hints

from miniagent.tools.schema import _get_annotation_description

NOT_DOCUMENTED = frozenset({"run_manager", "callbacks", "runtime", "return"})
INVALID = "Found invalid Google-Style docstring."


def _argument_name(head: str) -> str:
    """``"city (str)"`` -> ``"city"``; anything else stays as it is (stripped)."""
    head = head.strip()
    name, space, rest = head.partition(" ")
    if space and rest.startswith("(") and rest.endswith(")"):
        return name
    return head


def _parse_google_docstring(
    docstring: str | None, args: list[str], *, error_on_invalid_docstring: bool = False
) -> tuple[str, dict[str, str]]:
    if not docstring:
        if error_on_invalid_docstring:
            raise ValueError(INVALID)
        return "", {}
    blocks = docstring.split("\n\n")
    if error_on_invalid_docstring and any(a not in NOT_DOCUMENTED for a in args):
        if len(blocks) < 2 or not any(b.startswith("Args:") for b in blocks[1:]):
            raise ValueError(INVALID)

    args_at = next((i for i, b in enumerate(blocks) if b.startswith("Args:")), len(blocks))
    stop = next(
        (i for i, b in enumerate(blocks[:args_at]) if b.startswith(("Returns:", "Example:"))),
        args_at,
    )
    summary = " ".join(blocks[:stop]).strip()
    if args_at == len(blocks):
        return summary, {}

    described: dict[str, str] = {}
    current = None
    base_indent = None
    for line in blocks[args_at].split("\n")[1:]:
        text = line.strip()
        if not text:
            continue
        indent = len(line) - len(line.lstrip())
        if base_indent is None and ":" in line:
            base_indent = indent
        deeper = base_indent is not None and indent > base_indent
        if current is not None and (deeper or ":" not in line):
            described[current] = f"{described[current]} {text}"
        elif ":" in line:
            head, _, tail = line.partition(":")
            current = _argument_name(head)
            described[current] = tail.strip()
    return summary, described


def _infer_arg_descriptions(
    fn: Callable[..., Any],
    *,
    parse_docstring: bool = False,
    error_on_invalid_docstring: bool = False,
) -> tuple[str, dict[str, str]]:
    hints = get_type_hints(fn, include_extras=True)
    docstring = inspect.getdoc(fn)
    if not parse_docstring:
        description, from_docstring = docstring or "", {}
    else:
        description, from_docstring = _parse_google_docstring(
            docstring, [*hints], error_on_invalid_docstring=error_on_invalid_docstring
        )
        unknown = [name for name in from_docstring if name not in hints]
        if unknown:
            raise ValueError(f"Arg {unknown[0]} in docstring not found in function signature.")
    from_annotations = {
        name: text
        for name, hint in hints.items()
        if name not in from_docstring and (text := _get_annotation_description(hint))
    }
    return description, {**from_docstring, **from_annotations}


def predictions() -> dict[str, tuple[str, dict[str, str | None], list[str]] | str]:
    return {
        "check_weather / convert": (
            "Return the weather forecast for the specified location.",
            {"location": None},
            ["location"],
        ),
        "get_forecast / convert": (
            "Get a forecast.",
            {"city": "The city name.", "days": "Number of days."},
            ["city"],
        ),
        "weather / tool": (
            "Get the weather.\n\nArgs:\n    city: The city name.\n    days: Number of days.\n"
            "    unit: Celsius or Fahrenheit.",
            {"city": "The city, as the user wrote it.", "days": None},
            ["city"],
        ),
        "find / convert": (
            "Find records. Searches the index first,\nthen the archive.",
            {
                "name": "The name to look for, exactly as stored.",
                "limit": "How many records at most.",
                "tags": None,
                "unit": None,
            },
            ["name", "limit"],
        ),
        "search / parsed": (
            "Search the web.",
            {"query": "What to look for.", "page": None},
            ["query"],
        ),
        "undocumented_extra / convert": "ValueError",
        "weather / parsed": "ValueError",
        "no_docstring / convert": ("", {"a": None}, ["a"]),
        "no_docstring / tool": "ValueError",
        "fetch / convert": (
            "Fetch a page.",
            {"url": "The page, as https://host/path.", "timeout": "In seconds: at most 30."},
            ["url"],
        ),
        "paint / parsed": (
            "Paint a wall.",
            {
                "color": "The colour.",
                "where": "The wall to paint.",
                "coats": "Coats of paint, from the docstring.",
            },
            ["color", "where"],
        ),
        "add / parsed": "ValueError",
    }
