"""Graders for day00: ``_get_state_value`` (langgraph/prebuilt/chat_agent_executor.py:129).

Each test runs against every implementation ``--impl`` names (``impl`` fixture, see
``course/grading.md``). The first group checks the function alone; the second swaps it into the
real ``create_react_agent``, which reads every state value through it.
"""

from __future__ import annotations

import inspect
from collections import OrderedDict
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType, SimpleNamespace
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict

from miniagent_course.grading.judgments import judgment_graders


class PydanticState(BaseModel):
    """A pydantic agent state, shaped like upstream's ``AgentStatePydantic``."""

    messages: list = []
    remaining_steps: int = 25


@dataclass
class DataclassState:
    messages: list = field(default_factory=list)


class MappingState(Mapping):
    """A read-only mapping that is not a ``dict``: upstream reads it with ``getattr``."""

    def __init__(self, data: dict[str, Any]) -> None:
        self._data = data

    def __getitem__(self, key: str) -> Any:
        return self._data[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)


class SlotsState:
    """An object without ``__dict__``: its attributes live in slots."""

    __slots__ = ("messages", "remaining_steps", "structured_response")

    def __init__(self, messages: list, remaining_steps: int) -> None:
        self.messages = messages
        self.remaining_steps = remaining_steps  # structured_response stays unset


class ExtraState(BaseModel):
    """A pydantic state that keeps undeclared keys as attributes (``__pydantic_extra__``)."""

    model_config = ConfigDict(extra="allow")
    messages: list = []


# --- the function alone ---------------------------------------------------------------------


def test_keeps_the_upstream_signature(impl):
    parameters = inspect.signature(impl._get_state_value).parameters
    assert list(parameters) == ["state", "key", "default"]
    assert impl._get_state_value(state={"k": 1}, key="k", default=None) == 1


def test_dict_state_returns_the_stored_value(impl):
    assert impl._get_state_value({"messages": ["hi"], "x": 1}, "messages") == ["hi"]


def test_dict_state_missing_key_gives_none_by_default(impl):
    assert impl._get_state_value({"messages": []}, "llm_input_messages") is None


def test_dict_state_missing_key_gives_the_default(impl):
    assert impl._get_state_value({"messages": []}, "remaining_steps", 25) == 25


def test_dict_keys_are_not_attributes(impl):
    # A dict has attributes such as .items and .keys; only its keys count.
    assert impl._get_state_value({"items": [1, 2]}, "items") == [1, 2]
    assert impl._get_state_value({}, "keys", "missing") == "missing"


def test_dict_subclass_counts_as_a_dict(impl):
    state = OrderedDict(messages=["hi"])
    assert impl._get_state_value(state, "messages") == ["hi"]


def test_stored_falsy_values_are_returned_not_the_default(impl):
    state = {"remaining_steps": 0, "messages": [], "structured_response": None}
    assert impl._get_state_value(state, "remaining_steps", 25) == 0
    assert impl._get_state_value(state, "messages", ["default"]) == []
    assert impl._get_state_value(state, "structured_response", "default") is None


def test_pydantic_state_returns_the_attribute(impl):
    state = PydanticState(messages=["hi"], remaining_steps=3)
    assert impl._get_state_value(state, "messages") == ["hi"]
    assert impl._get_state_value(state, "remaining_steps", 99) == 3


def test_pydantic_state_missing_attribute_gives_the_default(impl):
    state = PydanticState()
    assert impl._get_state_value(state, "llm_input_messages") is None
    assert impl._get_state_value(state, "structured_response", "default") == "default"


def test_any_object_state_is_read_by_attribute(impl):
    assert impl._get_state_value(DataclassState(["hi"]), "messages") == ["hi"]
    assert impl._get_state_value(SimpleNamespace(), "messages", "default") == "default"


def test_returns_the_stored_object_itself(impl):
    messages = [{"role": "user", "content": "hi"}]
    assert impl._get_state_value({"messages": messages}, "messages") is messages
    state = PydanticState(messages=[])
    assert impl._get_state_value(state, "messages") is state.messages


def test_a_mapping_that_is_not_a_dict_is_read_by_attribute(impl):
    # Only a dict (or a dict subclass) is read by key; any other mapping takes the getattr
    # branch, where its keys are not attributes (as upstream, chat_agent_executor.py:131).
    state = MappingState({"messages": ["hi"], "remaining_steps": 3})
    assert impl._get_state_value(state, "messages") is None
    assert impl._get_state_value(state, "remaining_steps", 25) == 25
    proxy = MappingProxyType({"messages": ["hi"]})
    assert impl._get_state_value(proxy, "messages", "default") == "default"


def test_an_object_without_dict_is_read_by_attribute(impl):
    state = SlotsState(messages=["hi"], remaining_steps=0)
    assert impl._get_state_value(state, "messages") is state.messages
    assert impl._get_state_value(state, "remaining_steps", 25) == 0
    assert impl._get_state_value(state, "structured_response", "default") == "default"  # unset
    assert impl._get_state_value(state, "llm_input_messages") is None  # no such slot


def test_pydantic_extra_fields_are_attributes_too(impl):
    state = ExtraState(messages=["hi"], llm_input_messages=["only this"], remaining_steps=0)
    assert impl._get_state_value(state, "llm_input_messages") == ["only this"]
    assert impl._get_state_value(state, "remaining_steps", 25) == 0
    assert impl._get_state_value(state, "messages") is state.messages
    assert impl._get_state_value(state, "structured_response", "default") == "default"


# --- inside the real agent ------------------------------------------------------------------


@pytest.fixture
def agent_parts(impl, monkeypatch):
    """The learner's function swapped into miniagent's create_react_agent, plus what it needs."""
    impl.swap_in(monkeypatch)
    from miniagent.prebuilt import create_react_agent
    from miniagent.prebuilt.chat_agent_executor import AgentStatePydantic
    from miniagent.testing import FakeToolCallingModel
    from miniagent.tools import tool

    @tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    return SimpleNamespace(
        create_react_agent=create_react_agent,
        Model=FakeToolCallingModel,
        tools=[add],
        call={"name": "add", "args": {"a": 2, "b": 3}, "id": "call_1"},
        schemas={"dict": None, "pydantic": AgentStatePydantic},
    )


SCHEMAS = pytest.mark.parametrize("schema", ["dict", "pydantic"])


def _trace(result):
    return [(m.type, m.content) for m in result["messages"]]


@SCHEMAS
def test_agent_runs_a_tool_round(agent_parts, schema):
    p = agent_parts
    model = p.Model(tool_calls=[[p.call], []])
    agent = p.create_react_agent(model, p.tools, state_schema=p.schemas[schema])
    result = agent.invoke({"messages": [("user", "2 + 3?")]})
    # The fake model echoes its input messages joined by "-".
    assert _trace(result) == [
        ("human", "2 + 3?"),
        ("ai", "2 + 3?"),
        ("tool", "5"),
        ("ai", "2 + 3?-2 + 3?-5"),
    ]


@SCHEMAS
def test_agent_prompt_reads_the_messages(agent_parts, schema):
    p = agent_parts
    agent = p.create_react_agent(
        p.Model(), p.tools, prompt="Be brief.", state_schema=p.schemas[schema]
    )
    result = agent.invoke({"messages": [("user", "hi")]})
    assert _trace(result) == [("human", "hi"), ("ai", "Be brief.-hi")]


@SCHEMAS
def test_agent_lands_softly_when_steps_run_out(agent_parts, schema):
    # remaining_steps is read with _get_state_value(state, "remaining_steps", None).
    p = agent_parts
    model = p.Model(tool_calls=[[p.call]])  # would call the tool forever
    agent = p.create_react_agent(model, p.tools, state_schema=p.schemas[schema])
    result = agent.invoke({"messages": [("user", "loop")]}, {"recursion_limit": 4})
    assert _trace(result)[-1] == ("ai", "Sorry, need more steps to process this request.")


@SCHEMAS
def test_agent_pre_model_hook_can_replace_the_model_input(agent_parts, schema):
    # With a pre_model_hook the agent reads "llm_input_messages" first (default None).
    p = agent_parts
    from miniagent.messages import HumanMessage

    def hook(state):
        return {"llm_input_messages": [HumanMessage("only this")]}

    agent = p.create_react_agent(
        p.Model(), p.tools, pre_model_hook=hook, state_schema=p.schemas[schema]
    )
    result = agent.invoke({"messages": [("user", "hi")]})
    assert _trace(result) == [("human", "hi"), ("ai", "only this")]


# --- part 2: be the grader (the grader kind, grading/judge.py) --------------------------------

test_your_tests_pass_on_a_correct_function, test_your_tests_catch_the_known_mistakes = (
    judgment_graders(__file__)
)
