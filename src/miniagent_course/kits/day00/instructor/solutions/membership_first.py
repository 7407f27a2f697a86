"""Day 00, solved with an explicit membership test and a helper for objects."""

from typing import Any

_MISSING = object()


def _attribute(state: Any, key: str, default: Any) -> Any:
    value = getattr(state, key, _MISSING)
    return default if value is _MISSING else value


def _get_state_value(state: Any, key: str, default: Any = None) -> Any:
    if isinstance(state, dict):
        if key in state:
            return state[key]
        return default
    return _attribute(state, key, default)


def test_falsy_values_stay(get):
    assert get({"n": 0}, "n", 9) == 0
    assert get({"n": []}, "n", 9) == []


def test_missing_gives_default(get):
    assert get({}, "n", 9) == 9
    assert get(object(), "n", 9) == 9


def test_keys_not_attributes(get):
    assert get({}, "keys", "no") == "no"
    assert get({"keys": 1}, "keys") == 1


def test_pydantic_and_subclasses(get):
    from collections import OrderedDict

    from pydantic import BaseModel

    class S(BaseModel):
        messages: list = []

    s = S(messages=[1])
    assert get(s, "messages") is s.messages
    assert get(OrderedDict(a=1), "a") == 1


def test_only_dicts_are_read_by_key(get):
    from types import MappingProxyType

    from pydantic import BaseModel, ConfigDict

    class Loose(BaseModel):
        model_config = ConfigDict(extra="allow")

    assert get(MappingProxyType({"n": 1}), "n", 9) == 9
    assert get(Loose(n=0), "n", 9) == 0
