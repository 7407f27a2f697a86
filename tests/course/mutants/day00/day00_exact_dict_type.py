"""Mutant: ``type(state) is dict`` misses dict subclasses such as ``OrderedDict``."""

from typing import Any


def _get_state_value(state: Any, key: str, default: Any = None) -> Any:
    return state.get(key, default) if type(state) is dict else getattr(state, key, default)
