"""Mutant: treats every state as an object. A dict's keys are not its attributes."""

from typing import Any


def _get_state_value(state: Any, key: str, default: Any = None) -> Any:
    return getattr(state, key, default)
