"""Day 00, solved by asking forgiveness: look the key up, fall back on AttributeError/KeyError."""

from typing import Any


def _get_state_value(state: Any, key: str, default: Any = None) -> Any:
    try:
        return state[key] if isinstance(state, dict) else getattr(state, key)
    except (KeyError, AttributeError):
        return default


def test_the_contract(get):
    from collections import OrderedDict
    from types import SimpleNamespace

    from pydantic import BaseModel

    class S(BaseModel):
        remaining_steps: int = 3

    class Slotted:
        __slots__ = ("remaining_steps",)

        def __init__(self):
            self.remaining_steps = 0

    cases = [
        (({"a": 0}, "a", 5), 0),
        (({}, "a", 5), 5),
        (({}, "items", None), None),
        ((OrderedDict(a=1), "a", None), 1),
        ((S(), "remaining_steps", 9), 3),
        ((S(), "missing", 9), 9),
        ((SimpleNamespace(), "x", 7), 7),
        ((Slotted(), "remaining_steps", 7), 0),
    ]
    for args, expected in cases:
        assert get(*args) == expected, args
