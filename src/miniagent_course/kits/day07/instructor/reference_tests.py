"""Day 07, part 2: tests that tell a correct ``_validate_chat_history`` from plausible wrong ones.

Each test takes the function under test. One idea per test, each named for the behaviour it pins:
what must pass, what must raise, and what the error says.
"""

import pytest

from miniagent.messages import AIMessage, AIMessageChunk, HumanMessage, ToolMessage


def _call(n: int) -> dict:
    return {"name": "check_weather", "args": {"city": "sf"}, "id": f"call_{n}"}


def _asks(*numbers: int) -> AIMessage:
    return AIMessage("", tool_calls=[_call(n) for n in numbers])


def _answers(n: int) -> ToolMessage:
    return ToolMessage("sunny", tool_call_id=f"call_{n}")


def _error(validate, messages) -> str:
    with pytest.raises(ValueError) as caught:
        validate(messages)
    return str(caught.value)


def test_an_answered_round_passes(validate):
    assert validate([HumanMessage("weather?"), _asks(1, 2), _answers(1), _answers(2)]) is None


def test_an_unanswered_call_raises_and_is_named(validate):
    assert "'id': 'call_1'" in _error(validate, [HumanMessage("weather?"), _asks(1)])


def test_a_wrong_id_answers_nothing(validate):
    assert "'call_1'" in _error(validate, [_asks(1), _answers(9)])


def test_an_early_unanswered_call_counts_although_the_last_round_is_complete(validate):
    assert "'call_1'" in _error(
        validate, [_asks(1), HumanMessage("and la?"), _asks(2), _answers(2)]
    )


def test_an_answer_anywhere_counts_even_before_its_call(validate):
    assert validate([_answers(1), HumanMessage("weather?"), _asks(1)]) is None


def test_invalid_tool_calls_are_not_checked(validate):
    broken = {"name": "check_weather", "args": '{"city": sf', "id": "call_bad", "error": None}
    assert validate([AIMessage("", invalid_tool_calls=[broken])]) is None


def test_a_tool_message_that_answers_no_call_is_fine(validate):
    assert validate([HumanMessage("hi"), _answers(42), AIMessage("hello")]) is None


def test_an_ai_message_chunk_is_checked_too(validate):
    _error(validate, [AIMessageChunk("", tool_calls=[_call(1)])])


def test_the_error_lists_only_the_first_three_calls(validate):
    text = _error(validate, [_asks(1, 2), _asks(3, 4)])
    assert "'call_3'" in text and "'call_4'" not in text


def test_the_error_ends_with_the_troubleshooting_link(validate):
    text = _error(validate, [_asks(1)])
    assert text.endswith(
        "For troubleshooting, visit: "
        "https://docs.langchain.com/oss/python/langgraph/errors/INVALID_CHAT_HISTORY"
    )
