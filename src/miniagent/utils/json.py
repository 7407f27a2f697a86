"""Read JSON that is still arriving. Mirrors ``langchain_core/utils/json.py``."""

from __future__ import annotations

import json
from bisect import bisect_right
from itertools import accumulate
from typing import Any


def parse_partial_json(s: str, *, strict: bool = False) -> Any:
    """Parse JSON that may be cut off: ``'{"a": 1'`` -> ``{'a': 1}`` (langchain_core/utils/json.py:60).

    Close any open string and brackets; if that still fails, drop characters from the end until
    it parses (``'{"city":'`` -> ``{}``). A mismatched bracket gives ``None``; when nothing
    parses, the original ``json.JSONDecodeError`` is raised.
    """
    try:
        return json.loads(s, strict=strict)
    except json.JSONDecodeError:
        pass
    new_chars: list[str] = []
    stack: list[str] = []
    is_inside_string = escaped = False
    for char in s:
        new_char = char
        if is_inside_string:
            if char == '"' and not escaped:
                is_inside_string = False
            elif char == "\n" and not escaped:
                new_char = "\\n"  # a raw newline is not allowed inside a JSON string
            elif char == "\\":
                escaped = not escaped
            else:
                escaped = False
        elif char == '"':
            is_inside_string, escaped = True, False
        elif char == "{":
            stack.append("}")
        elif char == "[":
            stack.append("]")
        elif char in "}]":
            if not stack or stack[-1] != char:
                return None
            stack.pop()
        new_chars.append(new_char)
    if is_inside_string:
        if escaped:
            new_chars.pop()
        new_chars.append('"')
    stack.reverse()
    ends = list(accumulate(map(len, new_chars)))  # string offset where each element ends
    while new_chars:
        try:
            return json.loads("".join(new_chars + stack), strict=strict)
        except json.JSONDecodeError as e:
            # Every longer candidate still holds the rejected element: cut right past it.
            idx = bisect_right(ends, e.pos)
            cut = idx if idx < len(new_chars) else len(new_chars) - 1
            del new_chars[cut:], ends[cut:]
    return json.loads(s, strict=strict)
