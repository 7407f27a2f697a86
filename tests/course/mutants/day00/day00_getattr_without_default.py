"""Mutant: ``getattr(state, key)`` without a default raises for a missing attribute."""

from typing import Any


def _get_state_value(state: Any, key: str, default: Any = None) -> Any:
    return state.get(key, default) if isinstance(state, dict) else getattr(state, key)
