"""Graders for day02: ``_parse_google_docstring`` (langchain_core/utils/function_calling.py:735),
``_infer_arg_descriptions`` (langchain_core/tools/base.py:171) and the predictions.

Each test runs against every implementation ``--impl`` names (``impl`` fixture, see
``course/grading.md``). Upstream's results are data here: ``kits/day02/instructor/recorded.json``, recorded
from langchain-core (the contributors' suite checks the recording), so grading imports nothing of
upstream. Three groups: the parser alone on a corpus of docstrings; both functions inside
miniagent's ``convert_to_openai_tool`` and ``@tool`` on a corpus of functions, and inside a real
agent; the predictions, against miniagent's real conversion.
"""

from __future__ import annotations

import inspect
from typing import Annotated

import pytest
from pydantic import Field

from miniagent.messages import AIMessage
from miniagent.prebuilt import create_react_agent
from miniagent.testing import ScriptedChatModel
from miniagent.tools import convert_to_openai_tool, tool
from miniagent_course.grading.judgments import judgment_graders
from miniagent_course.kits.day02 import cases as corpus

RECORDED = corpus.recorded()
INVALID = "Found invalid Google-Style docstring."


# --- the parser alone -----------------------------------------------------------------------


def test_parser_keeps_the_upstream_signature(impl):
    parameters = inspect.signature(impl._parse_google_docstring).parameters
    assert list(parameters) == ["docstring", "args", "error_on_invalid_docstring"]
    assert parameters["error_on_invalid_docstring"].kind is inspect.Parameter.KEYWORD_ONLY
    assert parameters["error_on_invalid_docstring"].default is False
    assert impl._parse_google_docstring(docstring=None, args=[]) == ("", {})


@pytest.mark.parametrize("case", list(corpus.docstrings()))
def test_parser_on_the_docstring_corpus(impl, case):
    docstring, args, strict = corpus.docstrings()[case]
    expected = RECORDED["docstrings"][case]
    got = corpus.parsed(impl._parse_google_docstring, case)
    assert got == expected, (
        f"_parse_google_docstring({docstring!r}, {args!r}, error_on_invalid_docstring={strict})"
        f"\n  upstream: {expected!r}\n  yours:    {got!r}"
    )


def test_parser_returns_a_tuple_of_str_and_dict(impl):
    result = impl._parse_google_docstring(corpus.FORECAST_DOC, ["city", "days"])
    assert isinstance(result, tuple) and len(result) == 2
    assert isinstance(result[0], str) and isinstance(result[1], dict)


def test_parser_does_not_change_the_args_list(impl):
    args = ["city", "days", "return"]
    impl._parse_google_docstring(corpus.FORECAST_DOC, args, error_on_invalid_docstring=True)
    assert args == ["city", "days", "return"]


# --- _infer_arg_descriptions alone ------------------------------------------------------------


def test_infer_keeps_the_upstream_signature(impl):
    parameters = inspect.signature(impl._infer_arg_descriptions).parameters
    assert list(parameters) == ["fn", "parse_docstring", "error_on_invalid_docstring"]
    assert all(parameters[n].default is False for n in list(parameters)[1:])
    assert impl._infer_arg_descriptions(fn=corpus.check_weather) == (
        "Return the weather forecast for the specified location.",
        {},
    )


def test_infer_without_parsing_gives_the_whole_cleaned_docstring(impl):
    assert impl._infer_arg_descriptions(corpus.get_forecast) == (
        inspect.getdoc(corpus.get_forecast),
        {},
    )
    assert impl._infer_arg_descriptions(corpus.no_docstring) == ("", {})


def test_infer_with_parsing_reads_the_google_docstring(impl):
    assert impl._infer_arg_descriptions(corpus.get_forecast, parse_docstring=True) == (
        "Get a forecast.",
        {"city": "The city name.", "days": "Number of days."},
    )


def test_infer_takes_annotated_descriptions_and_the_docstring_wins(impl):
    expected_plain = {"where": "The wall to paint.", "coats": "How many coats."}
    assert impl._infer_arg_descriptions(corpus.paint)[1] == expected_plain
    parsed = impl._infer_arg_descriptions(corpus.paint, parse_docstring=True)[1]
    assert parsed == {
        "color": "The colour.",
        "coats": "Coats of paint, from the docstring.",
        "where": "The wall to paint.",
    }


def test_infer_refuses_a_docstring_argument_the_function_does_not_have(impl):
    with pytest.raises(ValueError) as error:
        impl._infer_arg_descriptions(corpus.undocumented_extra, parse_docstring=True)
    assert str(error.value) == "Arg b in docstring not found in function signature."
    # Without parsing, the docstring is only the description: nothing to check.
    assert impl._infer_arg_descriptions(corpus.undocumented_extra)[1] == {}


def test_infer_passes_error_on_invalid_docstring_on(impl):
    assert impl._infer_arg_descriptions(corpus.add, parse_docstring=True) == (
        "Add two integers.",
        {},
    )
    with pytest.raises(ValueError) as error:
        impl._infer_arg_descriptions(
            corpus.add, parse_docstring=True, error_on_invalid_docstring=True
        )
    assert str(error.value) == INVALID


def test_infer_reads_annotations_from_type_hints_and_the_cleaned_docstring(impl):
    def where(place: Annotated["str", "Where to go."], speed: "int" = 1) -> "str":  # noqa: UP037
        return place

    # As Python 3.10-3.12 store a docstring (3.13 removes the indentation when compiling).
    where.__doc__ = "Go somewhere.\n\n        Args:\n            speed: How fast.\n        "
    assert impl._infer_arg_descriptions(where, parse_docstring=True) == (
        "Go somewhere.",
        {"speed": "How fast.", "place": "Where to go."},
    )
    assert impl._infer_arg_descriptions(where) == (
        "Go somewhere.\n\nArgs:\n    speed: How fast.",
        {"place": "Where to go."},
    )


# --- inside the conversion and the agent --------------------------------------------------


@pytest.mark.parametrize("case", corpus.CASES)
def test_convert_to_openai_tool_gives_upstreams_schema(impl, monkeypatch, case):
    impl.swap_in(monkeypatch)  # miniagent's conversion now calls your two functions
    expected = RECORDED["schemas"][case]
    got = corpus.what_the_model_sees(corpus.miniagent_names(), case)
    assert got == expected, f"{case}:\n  upstream: {expected!r}\n  yours:    {got!r}"


def test_your_functions_shape_what_a_real_agent_binds(impl, monkeypatch):
    """create_react_agent binds the tools with convert_to_openai_tool, and runs them."""
    impl.swap_in(monkeypatch)
    forecast = tool(parse_docstring=True)(corpus.get_forecast)
    call = {"name": "paint", "args": {"color": "red", "where": "hall"}, "id": "call_1"}
    model = ScriptedChatModel([AIMessage("", tool_calls=[call]), AIMessage("done")])
    agent = create_react_agent(model, [forecast, corpus.paint])
    messages = agent.invoke({"messages": [("user", "paint the hall red")]})["messages"]
    bound = model.calls[0]["kwargs"]["tools"]
    assert bound == [
        RECORDED["schemas"]["get_forecast / parsed"],
        RECORDED["schemas"]["paint / tool"],
    ]
    assert messages[2].content == "1 coats of red on hall"


def test_a_plain_tool_without_parsing_gets_annotated_descriptions(impl, monkeypatch):
    impl.swap_in(monkeypatch)

    def move(steps: Annotated[int, Field(description="How far.")]) -> int:
        """Move forward."""
        return steps

    parameters = convert_to_openai_tool(tool(move))["function"]["parameters"]
    assert parameters["properties"]["steps"] == {"description": "How far.", "type": "integer"}


# --- part 2: predictions against the real conversion (the predict kind, grading/judgments.py) --


def _as_seen(value):
    """A prediction as the grader compares it: a triple with a list, even if written otherwise."""
    if isinstance(value, (list, tuple)) and len(value) == 3:
        description, described, required = value
        return (description, described, list(required) if isinstance(required, tuple) else required)
    return value


def _triple(value):
    assert isinstance(value, (list, tuple)) and len(value) == 3, (
        "(description, {parameter: description or None}, required) or a str"
    )
    assert isinstance(value[1], dict), "the parameters are a dict"


test_predictions_are_a_table_of_every_case, test_prediction = judgment_graders(
    __file__,
    cases=corpus.PREDICTED,
    outcome=lambda case: corpus.seen(corpus.miniagent_names(), case),
    raised="the conversion raised {actual}",
    gave="it is {actual!r}",
    shape=_triple,
    normalise=_as_seen,
)
