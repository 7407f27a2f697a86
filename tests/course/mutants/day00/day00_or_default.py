"""Mutant: ``... or default`` replaces stored falsy values (``0``, ``[]``) by the default."""

from typing import Any


def _get_state_value(state: Any, key: str, default: Any = None) -> Any:
    value = state.get(key) if isinstance(state, dict) else getattr(state, key, None)
    return value or default
