"""Day 01's pairing contract: what ``create_react_agent`` refuses before a model call.

``_validate_chat_history`` (chat_agent_executor.py:243) refuses only a tool call whose id no
``ToolMessage`` of the history carries. A result that answers no call, a result placed before
its call and two results for one call all reach the model, on miniagent as on upstream; a wrong
``tool_call_id`` and a ``FunctionMessage`` answer leave the call unanswered. (What a provider
does with the histories that pass is not run anywhere: the course is offline.)
"""

from __future__ import annotations

from typing import Any, Callable

import pytest

pytest.importorskip("langgraph")

from miniagent_course.sides import mini, upstream  # noqa: E402

CALL = {"name": "add", "args": {"a": 2, "b": 3}, "id": "call_1"}
REFUSED = "Found AIMessages with tool_calls that do not have a corresponding ToolMessage."


def _answer(L: Any, call_id: str = "call_1", content: str = "5") -> Any:
    return L.ToolMessage(content, tool_call_id=call_id)


HISTORIES: dict[str, Callable[[Any], list]] = {
    "answered": lambda L: [L.AIMessage("", tool_calls=[CALL]), _answer(L)],
    "call, no answer": lambda L: [L.AIMessage("", tool_calls=[CALL])],
    "wrong tool_call_id": lambda L: [L.AIMessage("", tool_calls=[CALL]), _answer(L, "call_9")],
    "stray result": lambda L: [_answer(L, "call_9")],
    "result before its call": lambda L: [_answer(L), L.AIMessage("", tool_calls=[CALL])],
    "two results, one call": lambda L: [
        L.AIMessage("", tool_calls=[CALL]),
        _answer(L),
        _answer(L, content="6"),
    ],
    "a FunctionMessage answer": lambda L: [
        L.AIMessage("", tool_calls=[CALL]),
        L.convert_to_messages([{"role": "function", "name": "add", "content": "5"}])[0],
    ],
}
EXPECTED = {
    "answered": "reached the model",
    "call, no answer": "refused",
    "wrong tool_call_id": "refused",
    "stray result": "reached the model",
    "result before its call": "reached the model",
    "two results, one call": "reached the model",
    "a FunctionMessage answer": "refused",
}


def _run(L: Any, history: Callable[[Any], list]) -> tuple[str, ...]:
    """What became of the history: the validator's verdict, and a whole agent run's."""

    @L.tool
    def add(a: int, b: int) -> int:
        """Add two integers."""
        return a + b

    messages = [L.HumanMessage("2 + 3?"), *history(L)]
    try:
        L.agent_module._validate_chat_history(messages)
        verdict = "accepted"
    except ValueError as error:
        assert "INVALID_CHAT_HISTORY" in str(error)
        verdict = str(error).split(" Here are")[0]
    model = L.ScriptedChatModel([L.AIMessage("the model was called")])
    agent = L.create_react_agent(model, [add])
    try:
        agent.invoke({"messages": messages})
        run = "reached the model" if len(model.calls) == 1 else "no model call"
    except ValueError as error:
        run = "refused" if str(error).startswith(REFUSED) and not model.calls else repr(error)
    return verdict, run


@pytest.mark.filterwarnings("ignore::DeprecationWarning")
@pytest.mark.parametrize("case", list(HISTORIES))
def test_only_an_unanswered_call_is_refused(case: str):
    up, mine = _run(upstream(), HISTORIES[case]), _run(mini(), HISTORIES[case])
    assert mine == up
    verdict, run = mine
    assert run == EXPECTED[case]
    assert (verdict == "accepted") == (run == "reached the model")
    if run == "refused":
        assert verdict == REFUSED
