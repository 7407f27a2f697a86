# why: tests dicts, pydantic models and plain objects only: no other mapping, no __slots__, no extra field
# function: _get_state_value
# part: judgment
# whole_file_because: a test suite, not a function: the mistake is the tests it leaves out
"""A weak suite for Day 00's part 2: sound, and it catches every mistake on dicts, dict subclasses,
pydantic models and plain objects, but it never tries a mapping that is not a dict, an object
without ``__dict__`` or a pydantic extra field. It catches too few: the states an agent really
gets are not only the usual ones."""

from collections import OrderedDict
from types import SimpleNamespace

from pydantic import BaseModel


class _State(BaseModel):
    messages: list = []


def test_a_dict_gives_its_value_even_a_falsy_one(get):
    assert get({"messages": ["hi"]}, "messages") == ["hi"]
    assert get({"remaining_steps": 0}, "remaining_steps", 25) == 0


def test_a_missing_key_gives_the_default(get):
    assert get({}, "remaining_steps", 25) == 25
    assert get({}, "items", "missing") == "missing"


def test_a_dict_subclass_is_a_dict(get):
    assert get(OrderedDict(messages=["hi"]), "messages") == ["hi"]


def test_objects_give_their_attributes(get):
    state = _State(messages=["hi"])
    assert get(state, "messages") is state.messages
    assert get(SimpleNamespace(), "remaining_steps", 25) == 25
