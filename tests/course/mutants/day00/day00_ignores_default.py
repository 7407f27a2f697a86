"""Mutant: forgets to pass ``default`` on, so a missing key always gives ``None``."""

from typing import Any


def _get_state_value(state: Any, key: str, default: Any = None) -> Any:
    return state.get(key) if isinstance(state, dict) else getattr(state, key, None)
