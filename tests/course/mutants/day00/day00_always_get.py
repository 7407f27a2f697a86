"""Mutant: treats every state as a dict. A pydantic state has no ``.get``."""

from typing import Any


def _get_state_value(state: Any, key: str, default: Any = None) -> Any:
    return state.get(key, default)
