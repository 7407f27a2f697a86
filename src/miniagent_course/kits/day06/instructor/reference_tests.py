"""Day 06, part 2: tests that tell a correct ``_should_bind_tools`` from plausible wrong ones.

Each test takes the function under test. One idea per test, each named for the behaviour it pins.
"""

import pytest

from miniagent.runnables import RunnableLambda
from miniagent.testing import FakeToolCallingModel
from miniagent.tools import tool

COUNT = (
    "Number of tools in the model.bind_tools() and tools passed to create_react_agent must match"
    " Got {} tools, expected {}"
)
MCP = {"type": "mcp", "server_label": "docs", "server_url": "https://example.invalid/mcp"}


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def mul(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def openai():
    return FakeToolCallingModel(tool_style="openai")


def anthropic():
    return FakeToolCallingModel(tool_style="anthropic")


def parser():
    return RunnableLambda(lambda message: message)


def test_a_bare_model_needs_binding(should_bind):
    assert should_bind(openai(), [add]) is True


def test_a_binding_with_matching_tools_is_kept(should_bind):
    assert should_bind(openai().bind_tools([add, mul]), [mul, add]) is False


def test_anthropic_style_names_count(should_bind):
    assert should_bind(anthropic().bind_tools([add]), [add]) is False


def test_the_count_error_is_upstreams_text(should_bind):
    with pytest.raises(ValueError) as error:
        should_bind(openai().bind_tools([add]), [add, mul])
    assert str(error.value) == COUNT.format(2, 1)


def test_the_missing_tools_error_prints_a_set(should_bind):
    with pytest.raises(ValueError) as error:
        should_bind(openai().bind_tools([add]), [mul])
    assert str(error.value) == "Missing tools '{'mul'}' in the model.bind_tools()"


def test_builtins_are_subtracted_from_the_count(should_bind):
    assert should_bind(openai().bind_tools([add, MCP]), [add], num_builtin=1) is False


def test_a_bound_model_piped_into_a_parser_is_kept(should_bind):
    assert should_bind(openai().bind_tools([add]) | parser(), [add]) is False


def test_the_first_model_step_is_judged_not_the_first_step(should_bind):
    assert should_bind(parser() | openai().bind_tools([add]), [add]) is False


def test_an_empty_binding_is_still_a_binding(should_bind):
    assert should_bind(openai().bind(tools=[]), []) is False
    with pytest.raises(ValueError) as error:
        should_bind(openai().bind(tools=[]), [add])
    assert str(error.value) == COUNT.format(1, 0)
