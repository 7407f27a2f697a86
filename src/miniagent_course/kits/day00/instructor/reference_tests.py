"""Day 00, part 2: tests that tell a correct ``_get_state_value`` from plausible wrong ones.

Each test takes the function under test. One idea per test, each named for the behaviour it pins.
"""

from collections import OrderedDict
from types import MappingProxyType, SimpleNamespace

from pydantic import BaseModel, ConfigDict


class _State(BaseModel):
    messages: list = []
    remaining_steps: int = 25


class _Extra(BaseModel):
    model_config = ConfigDict(extra="allow")


class _Slots:
    __slots__ = ("remaining_steps",)

    def __init__(self, remaining_steps):
        self.remaining_steps = remaining_steps


def test_a_dict_gives_its_value(get):
    assert get({"messages": ["hi"]}, "messages") == ["hi"]


def test_a_missing_key_gives_the_default(get):
    assert get({}, "remaining_steps", 25) == 25
    assert get({}, "llm_input_messages") is None


def test_a_stored_falsy_value_is_not_replaced(get):
    assert get({"remaining_steps": 0}, "remaining_steps", 25) == 0


def test_dict_keys_are_not_attributes(get):
    assert get({}, "items", "missing") == "missing"


def test_a_dict_subclass_is_a_dict(get):
    assert get(OrderedDict(messages=["hi"]), "messages") == ["hi"]


def test_a_pydantic_state_gives_its_attribute_itself(get):
    state = _State(messages=["hi"])
    assert get(state, "messages") is state.messages


def test_a_missing_attribute_gives_the_default(get):
    assert get(SimpleNamespace(), "remaining_steps", 25) == 25


def test_a_mapping_that_is_not_a_dict_is_read_by_attribute(get):
    assert get(MappingProxyType({"messages": ["hi"]}), "messages", "default") == "default"


def test_an_object_without_dict_gives_its_attribute(get):
    assert get(_Slots(0), "remaining_steps", 25) == 0


def test_a_pydantic_extra_field_is_an_attribute(get):
    assert get(_Extra(llm_input_messages=["only this"]), "llm_input_messages") == ["only this"]
