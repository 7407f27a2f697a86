"""Arithmetic on token counts. Mirrors ``langchain_core/utils/usage.py``."""

from __future__ import annotations

from typing import Any, Callable


def _dict_int_op(left: dict, right: dict, op: Callable[[int, int], int]) -> dict:
    """Apply ``op`` to the ints of two nested dicts (langchain_core/utils/usage.py:7)."""
    combined: dict[str, Any] = {}
    for k in set(left).union(right):
        if isinstance(left.get(k, 0), int) and isinstance(right.get(k, 0), int):
            combined[k] = op(left.get(k, 0), right.get(k, 0))
        elif isinstance(left.get(k, {}), dict) and isinstance(right.get(k, {}), dict):
            combined[k] = _dict_int_op(left.get(k, {}), right.get(k, {}), op)
        else:
            types = [type(d[k]) for d in (left, right) if k in d]
            raise ValueError(
                f"Unknown value types: {types}. Only dict and int values are supported."
            )
    return combined
