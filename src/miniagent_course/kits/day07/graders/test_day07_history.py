"""Graders for day07: ``_validate_chat_history`` (langgraph/prebuilt/chat_agent_executor.py:243).

Each test runs against every implementation ``--impl`` names (``impl`` fixture, see
``course/grading.md``). The first group checks the function alone; the second swaps it into the
real ``create_react_agent``, whose ``agent`` node validates the messages it is about to send to
the model (``_get_model_input_state``, chat_agent_executor.py:636) at every step. The last two
grade part 2, the learner's own tests of the function (``miniagent_course.grading.judge``).

The expected error text is upstream's, copied from a run of langgraph-prebuilt 1.1.3.
"""

from __future__ import annotations

import inspect
from types import SimpleNamespace

import pytest

from miniagent.messages import AIMessage, AIMessageChunk, HumanMessage, ToolMessage
from miniagent_course.grading.judgments import judgment_graders

HEAD = (
    "Found AIMessages with tool_calls that do not have a corresponding ToolMessage. "
    "Here are the first few of those tool calls: "
)
TAIL = (
    ".\n\nEvery tool call (LLM requesting to call a tool) in the message history MUST have a "
    "corresponding ToolMessage (result of a tool invocation to return to the LLM) - this is "
    "required by most LLM providers.\n"
    "For troubleshooting, visit: https://docs.langchain.com/oss/python/langgraph/errors/"
    "INVALID_CHAT_HISTORY"
)


def call(n: int, name: str = "check_weather", city: str = "sf") -> dict:
    return {"name": name, "args": {"city": city}, "id": f"call_{n}"}


def listed(*calls: dict) -> str:
    """How the error prints tool calls: the dicts with ``type`` added, as a Python list."""
    return repr([{**c, "type": "tool_call"} for c in calls])


def ai(*calls: dict, content: str = "") -> AIMessage:
    return AIMessage(content, tool_calls=list(calls))


def answer(n: int, content: str = "sunny") -> ToolMessage:
    return ToolMessage(content, tool_call_id=f"call_{n}")


def error_text(impl, messages) -> str:
    with pytest.raises(ValueError) as caught:
        impl._validate_chat_history(messages)
    return str(caught.value)


# --- the function alone ---------------------------------------------------------------------


def test_keeps_the_upstream_signature(impl):
    parameters = inspect.signature(impl._validate_chat_history).parameters
    assert list(parameters) == ["messages"]
    assert impl._validate_chat_history(messages=[]) is None


def test_a_history_without_tool_calls_is_valid(impl):
    history = [HumanMessage("hi"), AIMessage("hello"), HumanMessage("bye"), AIMessage("bye")]
    assert impl._validate_chat_history(history) is None


def test_answered_rounds_are_valid(impl):
    history = [
        HumanMessage("weather in sf and la?"),
        ai(call(1), call(2, city="la")),  # two parallel calls...
        answer(1),
        answer(2, "rainy"),  # ...each with its answer
        ai(call(3, city="nyc")),
        answer(3),
        AIMessage("sunny, rainy, sunny"),
    ]
    assert impl._validate_chat_history(history) is None


def test_a_missing_result_raises_the_exact_error(impl):
    history = [HumanMessage("weather in sf?"), ai(call(7))]
    assert error_text(impl, history) == HEAD + listed(call(7)) + TAIL


def test_a_wrong_id_leaves_the_call_unanswered(impl):
    # The ToolMessage is there, but it answers "call_9": call_1 has no answer.
    history = [HumanMessage("weather in sf?"), ai(call(1)), answer(9)]
    assert error_text(impl, history) == HEAD + listed(call(1)) + TAIL


def test_one_answer_for_two_calls_is_not_enough(impl):
    # Counting ToolMessages is not matching ids: 2 results for 2 calls, but one answers call_9.
    history = [ai(call(1), call(2, city="la")), answer(1), answer(9)]
    assert error_text(impl, history) == HEAD + listed(call(2, city="la")) + TAIL


def test_only_the_first_three_unanswered_calls_are_listed(impl):
    history = [
        ai(call(1), call(2, city="la")),
        answer(2),
        ai(call(3, city="nyc"), call(4, city="sea"), call(5, city="bos")),
    ]
    expected = listed(call(1), call(3, city="nyc"), call(4, city="sea"))
    assert error_text(impl, history) == HEAD + expected + TAIL


def test_an_early_unanswered_call_is_found_although_the_last_round_is_complete(impl):
    history = [
        HumanMessage("weather in sf?"),
        ai(call(1)),  # its ToolMessage was deleted
        HumanMessage("and in la?"),
        ai(call(2, city="la")),
        answer(2),
        AIMessage("rainy"),
    ]
    assert error_text(impl, history) == HEAD + listed(call(1)) + TAIL


def test_presence_counts_not_order(impl):
    # Upstream only asks "is there a ToolMessage with this id somewhere?".
    before_the_call = [answer(1), HumanMessage("weather?"), ai(call(1))]
    far_after_it = [ai(call(1)), HumanMessage("hurry up"), AIMessage("thinking"), answer(1)]
    reversed_answers = [ai(call(1), call(2)), answer(2), answer(1)]
    for history in (before_the_call, far_after_it, reversed_answers):
        assert impl._validate_chat_history(history) is None


def test_invalid_tool_calls_are_not_checked(impl):
    broken = {"name": "check_weather", "args": '{"city": sf', "id": "call_bad", "error": None}
    only_invalid = AIMessage("", invalid_tool_calls=[broken])
    assert impl._validate_chat_history([HumanMessage("weather?"), only_invalid]) is None
    mixed = AIMessage("", tool_calls=[call(1)], invalid_tool_calls=[broken])
    assert impl._validate_chat_history([mixed, answer(1)]) is None


def test_a_tool_message_that_answers_no_call_is_not_an_error(impl):
    history = [HumanMessage("hi"), answer(42), AIMessage("ok")]
    assert impl._validate_chat_history(history) is None


def test_a_call_without_an_id_is_unanswered(impl):
    no_id = {"name": "check_weather", "args": {"city": "sf"}, "id": None}
    assert error_text(impl, [ai(no_id)]) == HEAD + listed(no_id) + TAIL


def test_an_ai_message_chunk_is_an_ai_message_too(impl):
    # AIMessageChunk subclasses AIMessage, so isinstance finds its calls; its `type` field
    # is "AIMessageChunk", not "ai".
    chunk = AIMessageChunk("", tool_calls=[call(1)])
    assert error_text(impl, [HumanMessage("q"), chunk]) == HEAD + listed(call(1)) + TAIL
    assert impl._validate_chat_history([chunk, answer(1)]) is None


def test_accepts_any_sequence_and_leaves_it_alone(impl):
    history = (ai(call(1)), answer(1))
    assert impl._validate_chat_history(history) is None
    broken = [ai(call(1)), ai(call(2))]
    snapshot = [m.model_copy(deep=True) for m in broken]
    error_text(impl, broken)
    assert broken == snapshot


# --- inside the real agent ------------------------------------------------------------------


@pytest.fixture
def agent_parts(impl, monkeypatch):
    """The learner's function swapped into miniagent's create_react_agent, plus what it needs."""
    impl.swap_in(monkeypatch)
    from miniagent.checkpoint import InMemorySaver
    from miniagent.messages import RemoveMessage
    from miniagent.prebuilt import create_react_agent
    from miniagent.testing import ScriptedChatModel
    from miniagent.tools import tool

    @tool
    def check_weather(city: str) -> str:
        """Get the weather in a city."""
        return f"sunny in {city}"

    return SimpleNamespace(
        create_react_agent=create_react_agent,
        Model=ScriptedChatModel,
        tools=[check_weather],
        saver=InMemorySaver,
        RemoveMessage=RemoveMessage,
    )


def _seen(model) -> list[list[tuple[str, str]]]:
    """What the scripted model received, call by call: (type, content) pairs."""
    return [[(m.type, m.content) for m in c["messages"]] for c in model.calls]


def test_agent_runs_a_complete_tool_round(agent_parts):
    # The agent node validates before each model call: a correct history must pass both times.
    p = agent_parts
    model = p.Model([ai(call(1)), AIMessage("It is sunny.")])
    agent = p.create_react_agent(model, p.tools)
    result = agent.invoke({"messages": [("user", "weather in sf?")]})
    assert [m.type for m in result["messages"]] == ["human", "ai", "tool", "ai"]
    assert len(model.calls) == 2


def test_agent_refuses_a_dangling_call_before_calling_the_model(agent_parts):
    p = agent_parts
    model = p.Model([AIMessage("never sent")])
    agent = p.create_react_agent(model, p.tools)
    history = [HumanMessage("weather in sf?"), ai(call(1)), HumanMessage("hello?")]
    with pytest.raises(ValueError) as caught:
        agent.invoke({"messages": history})
    assert str(caught.value) == HEAD + listed(call(1)) + TAIL
    assert model.calls == []  # refused locally: nothing reached the model


def test_agent_error_lists_the_first_three_of_many_calls(agent_parts):
    p = agent_parts
    model = p.Model([AIMessage("never sent")])
    agent = p.create_react_agent(model, p.tools)
    cities = ["sf", "la", "nyc", "sea"]
    calls = [call(n, city=c) for n, c in enumerate(cities, 1)]
    with pytest.raises(ValueError) as caught:
        agent.invoke({"messages": [HumanMessage("weather in four cities?"), ai(*calls)]})
    assert str(caught.value) == HEAD + listed(*calls[:3]) + TAIL
    assert model.calls == []


def test_agent_thread_edited_between_invokes(agent_parts):
    """Delete a ToolMessage from a saved thread: the next turn fails, and the thread stays
    broken until a ToolMessage for the call is added back (anywhere: the end will do)."""
    p = agent_parts
    model = p.Model([ai(call(1)), AIMessage("It is sunny."), AIMessage("Still sunny.")])
    agent = p.create_react_agent(model, p.tools, checkpointer=p.saver())
    config = {"configurable": {"thread_id": "edited"}}
    first = agent.invoke({"messages": [("user", "weather in sf?")]}, config)
    tool_message = next(m for m in first["messages"] if m.type == "tool")

    edit = [p.RemoveMessage(id=tool_message.id), HumanMessage("and tomorrow?")]
    with pytest.raises(ValueError) as caught:
        agent.invoke({"messages": edit}, config)
    assert str(caught.value) == HEAD + listed(call(1)) + TAIL
    assert len(model.calls) == 2  # the second turn never reached the model
    saved = agent.get_state(config).values["messages"]
    assert [m.type for m in saved] == ["human", "ai", "ai", "human"]  # the edit was saved

    with pytest.raises(ValueError):  # every later turn fails the same way
        agent.invoke({"messages": [HumanMessage("hello?")]}, config)

    repair = ToolMessage("Result lost; ask again.", tool_call_id="call_1")  # appended at the end
    last = agent.invoke({"messages": [repair]}, config)
    assert last["messages"][-1].content == "Still sunny."
    assert len(model.calls) == 3


def test_agent_thread_resumed_with_a_new_question_after_an_interrupt(agent_parts):
    p = agent_parts
    model = p.Model([ai(call(1)), AIMessage("never sent")])
    agent = p.create_react_agent(model, p.tools, checkpointer=p.saver(), interrupt_before=["tools"])
    config = {"configurable": {"thread_id": "paused"}}
    paused = agent.invoke({"messages": [("user", "weather in sf?")]}, config)
    assert [m.type for m in paused["messages"]] == ["human", "ai"]  # stopped before the tool
    with pytest.raises(ValueError) as caught:  # a new question instead of resuming
        agent.invoke({"messages": [HumanMessage("never mind: 2 + 2?")]}, config)
    assert str(caught.value) == HEAD + listed(call(1)) + TAIL
    assert len(model.calls) == 1


def test_agent_validates_llm_input_messages_not_the_saved_history(agent_parts):
    p = agent_parts
    dangling = [HumanMessage("weather in sf?"), ai(call(1)), HumanMessage("hello?")]

    def summarize(state):
        return {"llm_input_messages": [HumanMessage("summary: the user says hello")]}

    model = p.Model([AIMessage("Hello!")])
    agent = p.create_react_agent(model, p.tools, pre_model_hook=summarize)
    result = agent.invoke({"messages": dangling})
    assert _seen(model) == [[("human", "summary: the user says hello")]]
    assert [m.type for m in result["messages"]] == ["human", "ai", "human", "ai"]
    assert "llm_input_messages" not in result


def test_agent_refuses_a_hook_that_cuts_a_tool_round_in_half(agent_parts):
    p = agent_parts
    complete = [HumanMessage("weather in sf?"), ai(call(1)), answer(1), HumanMessage("thanks")]

    def keep_first_two(state):
        return {"llm_input_messages": state["messages"][:2]}  # drops the ToolMessage

    model = p.Model([AIMessage("never sent")])
    agent = p.create_react_agent(model, p.tools, pre_model_hook=keep_first_two)
    with pytest.raises(ValueError) as caught:
        agent.invoke({"messages": complete})
    assert str(caught.value) == HEAD + listed(call(1)) + TAIL
    assert model.calls == []


def test_agent_passes_invalid_tool_calls_to_the_model(agent_parts):
    p = agent_parts
    broken = {"name": "check_weather", "args": '{"city": sf', "id": "call_bad", "error": None}
    history = [HumanMessage("weather?"), AIMessage("", invalid_tool_calls=[broken])]
    model = p.Model([AIMessage("Sorry, which city?")])
    agent = p.create_react_agent(model, p.tools)
    result = agent.invoke({"messages": history})
    assert _seen(model) == [[("human", "weather?"), ("ai", "")]]
    assert result["messages"][-1].content == "Sorry, which city?"


# --- part 2: be the grader (the grader kind, grading/judge.py) --------------------------------

test_your_tests_pass_on_a_correct_function, test_your_tests_catch_the_known_mistakes = (
    judgment_graders(__file__)
)
