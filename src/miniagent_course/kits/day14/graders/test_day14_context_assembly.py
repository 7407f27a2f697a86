"""Graders for day14: a message as Chat Completions receives it
(langchain_openai/chat_models/base.py:476), and a function read alone,
``SummarizationMiddleware._find_safe_cutoff_point``.

Three groups:

* the learner's ``_convert_message_to_dict`` on every case of ``day14.CASES``, compared with
  langchain-openai's conversions recorded in ``kits/day14/instructor/recorded.json`` (upstream is never
  imported here);
* the same converter inside ``ChatOpenAI``'s payload builder (swapped in by module attribute),
  read by the tracer after a real ``create_agent`` run;
* ``impl.predictions()``, a sealed table of the cuts of ``day14.CUTS``, against what upstream's
  ``_find_safe_cutoff_point`` returns, recorded in the same file.
"""

from __future__ import annotations

import pytest

from miniagent.agents import create_agent
from miniagent.messages import HumanMessage, RemoveMessage
from miniagent_course.grading.judgments import judgment_graders
from miniagent_course.kits.day14.cases import CASES, CUTS, as_data, message, recorded
from miniagent_course.sides import mini
from miniagent_course.tracer import PayloadTracer

RECORDED = recorded()["converted"]
CUTOFF = recorded()["cutoff"]
LIB = mini()


@pytest.mark.parametrize("key", list(CASES))
def test_converts_like_langchain_openai(impl, key):
    got = impl._convert_message_to_dict(message(LIB, key))
    assert isinstance(got, dict), f"return a dict, got {type(got).__name__}"
    expected = RECORDED[key]
    assert as_data(got) == expected, (
        f"{key} ({CASES[key]}):\n  you sent     {got}\n  upstream sends {expected}"
    )
    assert list(got) == list(expected), f"{key}: keys in upstream's order {list(expected)}"


def test_an_unknown_message_class_is_refused(impl):
    odd = RemoveMessage(id="x")  # a message class the API has no role for
    with pytest.raises(TypeError) as caught:
        impl._convert_message_to_dict(odd)
    assert str(caught.value) == f"Got unknown type {odd}"


def test_the_converter_does_not_change_the_message(impl):
    sent = message(LIB, "ai_valid_then_invalid")
    before = sent.model_dump()
    impl._convert_message_to_dict(sent)
    assert sent.model_dump() == before, "convert a copy of the content, never the message"


def started(impl) -> None:
    """Call the converter once outside the run: the tracer keeps a failure as text (it never
    breaks a run), so a file not started must say so here."""
    impl._convert_message_to_dict(HumanMessage("hi"))


def test_your_converter_builds_the_payload_of_a_real_agent(impl, monkeypatch):
    started(impl)
    impl.swap_in(monkeypatch)
    # No system message (create_agent puts its own first) and no invalid call (create_agent
    # answers those with a ToolMessage of its own before the model is called).
    keys = [key for key in CASES if key not in ("system", "developer") and "invalid" not in key]
    history = [message(LIB, key) for key in keys]
    agent = create_agent(LIB.ScriptedChatModel([LIB.AIMessage("ok")]), tools=[])
    tracer = PayloadTracer(model="fake")
    agent.invoke({"messages": history}, {"callbacks": [tracer]})
    assert tracer.calls[0].payload_error is None, tracer.calls[0].payload_error
    sent = tracer.calls[0].payload["messages"]
    assert as_data(sent) == [RECORDED[key] for key in keys]


# --- part 2: a sealed table about a function read alone (the read kind, grading/judgments.py) --


def _index(value):
    assert isinstance(value, int) and not isinstance(value, bool), (
        f"give the index the function returns, an int, not {value!r}"
    )


test_predictions_are_a_table_of_the_eleven_cuts, test_prediction = judgment_graders(
    __file__,
    cases=list(CUTS),
    outcome=CUTOFF.__getitem__,
    row=lambda key: f"{key} ({CUTS[key][0]}, cut {CUTS[key][1]})",
    gave="_find_safe_cutoff_point returns {actual}",
    shape=_index,
)


def test_a_human_message_reaches_the_payload_as_user(impl, monkeypatch):
    started(impl)
    impl.swap_in(monkeypatch)
    tracer = PayloadTracer(model="fake")
    agent = create_agent(LIB.ScriptedChatModel([LIB.AIMessage("ok")]), tools=[])
    agent.invoke({"messages": [HumanMessage("hi")]}, {"callbacks": [tracer]})
    assert tracer.calls[0].payload_error is None
    assert tracer.calls[0].payload["messages"] == [{"content": "hi", "role": "user"}]
