"""Graders for day06: ``_should_bind_tools`` (langgraph/prebuilt/chat_agent_executor.py:173).

Each test runs against every implementation ``--impl`` names (``impl`` fixture, see
``course/grading.md``). The first group checks the function alone, branch by branch; the second
swaps it into the real ``create_react_agent``, which calls it once while building the static
model (chat_agent_executor.py:582-588). The last two grade part 2, the learner's own tests
(``miniagent_course.grading.judge``).
"""

from __future__ import annotations

import ast
import inspect
import re

import pytest

from miniagent.messages import AIMessage
from miniagent.models import BaseChatModel
from miniagent.runnables import RunnableLambda, RunnableSequence
from miniagent.testing import FakeToolCallingModel, ScriptedChatModel
from miniagent.tools import convert_to_anthropic_tool, convert_to_openai_tool, tool
from miniagent_course.grading.judgments import judgment_graders

COUNT_ERROR = (
    "Number of tools in the model.bind_tools() and tools passed to create_react_agent must match"
    " Got {got} tools, expected {expected}"
)
MCP = {"type": "mcp", "server_label": "docs", "server_url": "https://example.invalid/mcp"}
WEB_SEARCH = {"type": "web_search_20250305", "name": "web_search", "max_uses": 2}


@tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@tool
def mul(a: int, b: int) -> int:
    """Multiply two integers."""
    return a * b


def openai_model(**kwargs):
    return FakeToolCallingModel(tool_style="openai", **kwargs)


def anthropic_model(**kwargs):
    return FakeToolCallingModel(tool_style="anthropic", **kwargs)


def missing_names(error: pytest.ExceptionInfo) -> set[str]:
    """The set inside "Missing tools '{...}' in the model.bind_tools()" (its order varies)."""
    text = str(error.value)
    match = re.fullmatch(r"Missing tools '(\{.*\})' in the model\.bind_tools\(\)", text)
    assert match, f"not upstream's missing-tools message: {text!r}"
    return ast.literal_eval(match.group(1))


# --- the function alone ---------------------------------------------------------------------


def test_keeps_the_upstream_signature(impl):
    parameters = inspect.signature(impl._should_bind_tools).parameters
    assert list(parameters) == ["model", "tools", "num_builtin"]
    assert parameters["num_builtin"].default == 0
    assert impl._should_bind_tools(model=openai_model(), tools=[add], num_builtin=0) is True


def test_an_unbound_chat_model_needs_binding(impl):
    assert impl._should_bind_tools(openai_model(), [add]) is True
    assert impl._should_bind_tools(openai_model(), []) is True


def test_any_runnable_that_is_not_a_binding_needs_binding(impl):
    assert impl._should_bind_tools(RunnableLambda(lambda x: x), [add, mul]) is True


def test_a_binding_without_tools_needs_binding(impl):
    assert impl._should_bind_tools(openai_model().bind(stop=["\n"]), [add]) is True
    assert impl._should_bind_tools(openai_model().with_config(tags=["x"]), [add]) is True


@pytest.mark.parametrize("make_model", [openai_model, anthropic_model], ids=["openai", "anthropic"])
def test_a_matching_binding_is_kept(impl, make_model):
    bound = make_model().bind_tools([add, mul])
    assert impl._should_bind_tools(bound, [add, mul]) is False
    assert impl._should_bind_tools(bound, [mul, add]) is False  # order does not matter


def test_full_provider_formats_are_understood(impl):
    model = ScriptedChatModel([])
    openai = model.bind(tools=[convert_to_openai_tool(add), convert_to_openai_tool(mul)])
    anthropic = model.bind(tools=[convert_to_anthropic_tool(add), convert_to_anthropic_tool(mul)])
    assert impl._should_bind_tools(openai, [add, mul]) is False
    assert impl._should_bind_tools(anthropic, [add, mul]) is False


def test_openai_type_wins_over_a_top_level_name(impl):
    bound = openai_model().bind(
        tools=[{"type": "function", "function": {"name": "add"}, "name": "mul"}]
    )
    assert impl._should_bind_tools(bound, [add]) is False
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(bound, [mul])
    assert missing_names(error) == {"mul"}


def test_count_mismatch_raises_upstreams_exact_text(impl):
    bound = openai_model().bind_tools([add])
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(bound, [add, mul])
    assert str(error.value) == COUNT_ERROR.format(got=2, expected=1)
    assert "must match Got 2 tools" in str(error.value)  # no full stop: upstream's own text


def test_fewer_tools_than_bound_also_raises(impl):
    bound = anthropic_model().bind_tools([add, mul])
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(bound, [add])
    assert str(error.value) == COUNT_ERROR.format(got=1, expected=2)


def test_a_bound_model_with_no_tools_is_a_count_error(impl):
    bound = openai_model().bind_tools([add])
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(bound, [])
    assert str(error.value) == COUNT_ERROR.format(got=0, expected=1)


def test_an_empty_binding_with_no_tools_is_kept(impl):
    # `bind(tools=[])` bound tools: none. Zero against zero fits, so the binding is kept.
    bound = openai_model().bind(tools=[])
    assert impl._should_bind_tools(bound, []) is False
    assert (
        impl._should_bind_tools(anthropic_model().bind(tools=[]) | RunnableLambda(str), []) is False
    )


def test_an_empty_binding_with_tools_is_a_count_error(impl):
    # An empty list is still a "tools" key: the user bound tools, so they are counted.
    bound = openai_model().bind(tools=[])
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(bound, [add])
    assert str(error.value) == COUNT_ERROR.format(got=1, expected=0)
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(bound, [add, mul])
    assert str(error.value) == COUNT_ERROR.format(got=2, expected=0)


def test_num_builtin_is_subtracted_from_the_bound_count(impl):
    bound = openai_model().bind_tools([add, MCP])
    assert impl._should_bind_tools(bound, [add], num_builtin=1) is False
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(bound, [add])
    assert str(error.value) == COUNT_ERROR.format(got=1, expected=2)
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(openai_model().bind_tools([add, mul, MCP, MCP]), [add], 2)
    assert str(error.value) == COUNT_ERROR.format(got=1, expected=2)


def test_a_missing_tool_raises_upstreams_exact_text(impl):
    bound = openai_model().bind_tools([add])
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(bound, [mul])
    assert str(error.value) == "Missing tools '{'mul'}' in the model.bind_tools()"


def test_all_missing_tools_are_reported_as_a_set(impl):
    bound = anthropic_model().bind_tools([MCP, MCP])  # two nameless dicts: nothing to match
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(bound, [add, mul])
    assert missing_names(error) == {"add", "mul"}


def test_anthropic_names_are_read(impl):
    bound = anthropic_model().bind_tools([add])
    assert bound.kwargs["tools"] == [{"name": "add"}]
    assert impl._should_bind_tools(bound, [add]) is False
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(bound, [mul])
    assert str(error.value) == "Missing tools '{'mul'}' in the model.bind_tools()"


def test_unknown_dicts_are_skipped(impl):
    bound = openai_model().bind_tools([add, MCP, {"type": "code_interpreter", "name": ""}])
    assert impl._should_bind_tools(bound, [add], num_builtin=2) is False


def test_a_named_builtin_counts_as_a_name(impl):
    bound = anthropic_model().bind_tools([add, WEB_SEARCH])
    assert impl._should_bind_tools(bound, [add], num_builtin=1) is False
    # Counted as one of two tools, it hides nothing: `mul` is still missing.
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(bound, [add, mul])
    assert missing_names(error) == {"mul"}


def test_a_sequence_is_judged_by_its_bound_model(impl):
    parser = RunnableLambda(lambda message: message)
    assert impl._should_bind_tools(openai_model().bind_tools([add]) | parser, [add]) is False
    assert impl._should_bind_tools(anthropic_model().bind_tools([add]) | parser, [add]) is False


def test_a_sequence_with_an_unbound_model_needs_binding(impl):
    parser = RunnableLambda(lambda message: message)
    assert impl._should_bind_tools(openai_model() | parser, [add]) is True
    assert impl._should_bind_tools(openai_model().bind(stop=["x"]) | parser, [add]) is True


def test_a_sequence_is_checked_like_its_binding(impl):
    parser = RunnableLambda(lambda message: message)
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(openai_model().bind_tools([add]) | parser, [add, mul])
    assert str(error.value) == COUNT_ERROR.format(got=2, expected=1)
    with pytest.raises(ValueError) as error:
        impl._should_bind_tools(parser | anthropic_model().bind_tools([add]), [mul])
    assert str(error.value) == "Missing tools '{'mul'}' in the model.bind_tools()"


def test_the_first_model_step_of_a_sequence_is_the_one_judged(impl):
    before = RunnableLambda(lambda messages: messages)
    bound = openai_model().bind_tools([add])
    assert impl._should_bind_tools(before | bound, [add]) is False
    # Only the first binding or chat model counts, even when a later one has tools.
    assert impl._should_bind_tools(openai_model() | bound, [add]) is True


def test_a_sequence_without_any_model_step_needs_binding(impl):
    sequence = RunnableLambda(lambda x: x) | RunnableLambda(lambda x: x)
    assert isinstance(sequence, RunnableSequence)
    assert impl._should_bind_tools(sequence, [add]) is True


# --- inside the real agent ------------------------------------------------------------------


@pytest.fixture
def create_react_agent(impl, monkeypatch):
    """miniagent's create_react_agent, calling the implementation under test."""
    impl.swap_in(monkeypatch)
    from miniagent.prebuilt import create_react_agent

    return create_react_agent


def static_model_of(agent):
    from miniagent_course.grading.closures import agent_node_function, closure_vars

    return closure_vars(agent_node_function(agent))["static_model"]


def scripted(*replies: AIMessage) -> ScriptedChatModel:
    return ScriptedChatModel(list(replies))


CALL_ADD = {"name": "add", "args": {"a": 2, "b": 3}, "id": "call_1"}


def test_agent_binds_the_tools_of_an_unbound_model(create_react_agent):
    model = scripted(AIMessage("", tool_calls=[CALL_ADD]), AIMessage("5"))
    agent = create_react_agent(model, [add])
    result = agent.invoke({"messages": [("user", "2 + 3?")]})
    assert [m.content for m in result["messages"]] == ["2 + 3?", "", "5", "5"]
    assert model.calls[0]["kwargs"] == {"tools": [convert_to_openai_tool(add)]}


def test_agent_keeps_the_users_tool_choice(create_react_agent):
    model = scripted(AIMessage("", tool_calls=[CALL_ADD]), AIMessage("5"))
    bound = model.bind_tools([add], tool_choice="any")
    agent = create_react_agent(bound, [add])
    assert static_model_of(agent).steps[-1] is bound  # used as it is, not bound again
    agent.invoke({"messages": [("user", "2 + 3?")]})
    assert [call["kwargs"].get("tool_choice") for call in model.calls] == ["any", "any"]


def test_agent_runs_an_anthropic_style_binding(create_react_agent):
    model = anthropic_model(tool_calls=[[CALL_ADD], []])
    agent = create_react_agent(model.bind_tools([add]), [add])
    result = agent.invoke({"messages": [("user", "2 + 3?")]})
    assert [(m.type, m.content) for m in result["messages"]] == [
        ("human", "2 + 3?"),
        ("ai", "2 + 3?"),
        ("tool", "5"),
        ("ai", "2 + 3?-2 + 3?-5"),
    ]


def test_agent_rejects_a_binding_with_too_few_tools(create_react_agent):
    with pytest.raises(ValueError) as error:
        create_react_agent(openai_model().bind_tools([add]), [add, mul])
    assert str(error.value) == COUNT_ERROR.format(got=2, expected=1)


def test_agent_rejects_a_binding_with_other_tools(create_react_agent):
    with pytest.raises(ValueError) as error:
        create_react_agent(anthropic_model().bind_tools([add]), [mul])
    assert str(error.value) == "Missing tools '{'mul'}' in the model.bind_tools()"


def test_agent_rejects_a_bound_model_with_an_empty_tool_list(create_react_agent):
    # The check runs before "are there any tools at all?" (l.582-584).
    with pytest.raises(ValueError) as error:
        create_react_agent(openai_model().bind_tools([add]), [])
    assert str(error.value) == COUNT_ERROR.format(got=0, expected=1)


def test_agent_keeps_an_empty_binding_without_tools(create_react_agent):
    model = scripted(AIMessage("no tools here"))
    bound = model.bind(tools=[])
    agent = create_react_agent(bound, [])
    assert static_model_of(agent).steps[-1] is bound
    result = agent.invoke({"messages": [("user", "hi")]})
    assert [m.content for m in result["messages"]] == ["hi", "no tools here"]
    assert model.calls[0]["kwargs"] == {"tools": []}


def test_agent_rejects_an_empty_binding_when_given_tools(create_react_agent):
    # Re-binding would "work" here, and silently replace the user's binding.
    with pytest.raises(ValueError) as error:
        create_react_agent(scripted(AIMessage("hi")).bind(tools=[]), [add])
    assert str(error.value) == COUNT_ERROR.format(got=1, expected=0)


def test_agent_accepts_builtins_bound_by_the_user(create_react_agent):
    bound = openai_model().bind_tools([add, MCP])
    agent = create_react_agent(bound, [add, MCP])
    assert static_model_of(agent).steps[-1] is bound
    assert list(agent.nodes["tools"].bound.tools_by_name) == ["add"]  # built-ins never run here


def test_agent_binds_builtins_with_the_tools(create_react_agent):
    model = scripted(AIMessage("done"))
    agent = create_react_agent(model, [add, MCP])
    agent.invoke({"messages": [("user", "hi")]})
    assert model.calls[0]["kwargs"]["tools"] == [convert_to_openai_tool(add), MCP]


def test_agent_accepts_a_bound_model_piped_into_a_parser(create_react_agent):
    model = openai_model(tool_calls=[[CALL_ADD], []])
    parser = RunnableLambda(lambda message: message)
    bound = model.bind_tools([add])
    agent = create_react_agent(bound | parser, [add])
    prompt_step, model_step, parser_step = static_model_of(agent).steps  # `|` flattens
    assert (prompt_step.name, model_step, parser_step) == ("Prompt", bound, parser)
    result = agent.invoke({"messages": [("user", "2 + 3?")]})
    assert [m.type for m in result["messages"]] == ["human", "ai", "tool", "ai"]


def test_agent_static_model_is_the_prompt_piped_into_the_model(create_react_agent):
    model = openai_model()
    agent = create_react_agent(model, [add], prompt="Be brief.")
    static_model = static_model_of(agent)
    assert isinstance(static_model, RunnableSequence)
    prompt_step, model_step = static_model.steps
    assert prompt_step.name == "Prompt"
    assert model_step.bound is model and model_step.kwargs["tools"] == [
        {"type": "function", "function": {"name": "add"}}
    ]
    assert isinstance(model_step.bound, BaseChatModel)
    reply = static_model.invoke({"messages": [("user", "hi")]})
    assert reply.content == "Be brief.-hi"


# --- part 2: be the grader (the grader kind, grading/judge.py) --------------------------------

test_your_tests_pass_on_a_correct_function, test_your_tests_catch_the_known_mistakes = (
    judgment_graders(__file__)
)
