"""Mutant: reads pydantic states through ``model_dump()``, which returns copies (messages
become plain dicts) and fails for objects that are not pydantic models."""

from typing import Any


def _get_state_value(state: Any, key: str, default: Any = None) -> Any:
    data = state if isinstance(state, dict) else state.model_dump()
    return data.get(key, default)
