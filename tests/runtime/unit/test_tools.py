"""Unit tests for miniagent.tools; expected values come from the spec (§5) and langchain-core's docs."""

import asyncio
import json
from typing import Annotated, Any, Literal, Optional

import pytest
from pydantic import BaseModel, Field, ValidationError

from miniagent.messages import ToolMessage
from miniagent.runnables import Runnable, RunnableConfig, ensure_config
from miniagent.tools import (
    BaseTool,
    InjectedToolArg,
    InjectedToolCallId,
    StructuredTool,
    ToolException,
    convert_to_anthropic_tool,
    convert_to_openai_function,
    convert_to_openai_tool,
    create_schema_from_function,
    tool,
)
from miniagent.tools.base import _DirectlyInjectedToolArg, _is_injected_arg_type
from miniagent.tools.function_calling import dereference_refs
from miniagent.tools.schema import _parse_google_docstring
from miniagent.types import Command


def check_weather(location: str) -> str:
    """Return the weather forecast for the specified location."""
    return f"It's always sunny in {location}"


CHECK_WEATHER_OPENAI = {  # spec §5.2, verbatim
    "type": "function",
    "function": {
        "name": "check_weather",
        "description": "Return the weather forecast for the specified location.",
        "parameters": {
            "properties": {"location": {"type": "string"}},
            "required": ["location"],
            "type": "object",
        },
    },
}


def call(name: str, args: dict[str, Any], id: str = "call_1") -> dict[str, Any]:
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


# ---- @tool and from_function ----------------------------------------------------------


def test_tool_from_function_fields_spec_5_1() -> None:
    t = tool(check_weather)
    assert isinstance(t, StructuredTool) and isinstance(t, Runnable)
    assert t.name == "check_weather"
    assert t.description == "Return the weather forecast for the specified location."
    assert t.return_direct is False and t.response_format == "content"
    assert t.args == {"location": {"title": "Location", "type": "string"}}
    assert t.args_schema.model_json_schema() == {
        "description": "Return the weather forecast for the specified location.",
        "properties": {"location": {"title": "Location", "type": "string"}},
        "required": ["location"],
        "title": "check_weather",
        "type": "object",
    }


def test_from_function_equals_decorator() -> None:
    a, b = StructuredTool.from_function(check_weather), tool(check_weather)
    assert (a.name, a.description) == (b.name, b.description)
    assert a.args_schema.model_json_schema() == b.args_schema.model_json_schema()


def test_convert_plain_function_and_tool_spec_5_2() -> None:
    assert convert_to_openai_tool(check_weather) == CHECK_WEATHER_OPENAI
    assert convert_to_openai_tool(tool(check_weather)) == CHECK_WEATHER_OPENAI


def test_named_tool_with_options_spec_5_1() -> None:
    @tool("custom_name", description="Custom description", return_direct=True)
    def f(x: int, y: str = "a") -> str:
        """Ignored docstring."""
        return y * x

    assert (f.name, f.description, f.return_direct) == ("custom_name", "Custom description", True)
    assert convert_to_openai_tool(f) == {
        "type": "function",
        "function": {
            "name": "custom_name",
            "description": "Custom description",
            "parameters": {
                "properties": {"x": {"type": "integer"}, "y": {"default": "a", "type": "string"}},
                "required": ["x"],
                "type": "object",
            },
        },
    }


def test_parse_docstring_spec_5_1() -> None:
    @tool(parse_docstring=True)
    def g(city: str, days: int = 3) -> str:
        """Get a forecast.

        Args:
            city: The city name.
            days: Number of days.
        """
        return city

    assert convert_to_openai_tool(g) == {
        "type": "function",
        "function": {
            "name": "g",
            "description": "Get a forecast.",
            "parameters": {
                "properties": {
                    "city": {"description": "The city name.", "type": "string"},
                    "days": {"default": 3, "description": "Number of days.", "type": "integer"},
                },
                "required": ["city"],
                "type": "object",
            },
        },
    }


def test_docstring_is_used_as_written() -> None:
    def f(x: int) -> int:
        """First line.

        More detail.
        """
        return x

    # Only the whole string is dedented; the first line has no indent, so nothing changes.
    assert tool(f).description == "First line.\n\n        More detail."


def test_missing_docstring_error() -> None:
    def f(x: int) -> int:
        return x

    with pytest.raises(
        ValueError, match=r"^Function must have a docstring if description not provided\.$"
    ):
        tool(f)
    assert tool(description="Given.")(f).description == "Given."


def test_description_falls_back_to_args_schema_docstring() -> None:
    class Args(BaseModel):
        """From the schema."""

        x: int

    def f(x: int) -> int:
        return x

    assert StructuredTool.from_function(f, args_schema=Args).description == "From the schema."


def test_from_function_needs_a_function() -> None:
    with pytest.raises(ValueError, match=r"^Function and/or coroutine must be provided$"):
        StructuredTool.from_function()


def test_invalid_google_docstring_errors() -> None:
    def summary_only(x: int) -> int:
        """Only a summary."""
        return x

    def wrong_arg(x: int) -> int:
        """Summary.

        Args:
            y: not a parameter.
        """
        return x

    with pytest.raises(ValueError, match=r"^Found invalid Google-Style docstring\.$"):
        tool(parse_docstring=True)(summary_only)
    with pytest.raises(ValueError, match=r"^Arg y in docstring not found in function signature\.$"):
        tool(parse_docstring=True)(wrong_arg)
    # from_function is lenient by default: the summary alone is fine.
    assert (
        StructuredTool.from_function(summary_only, parse_docstring=True).description
        == "Only a summary."
    )


def test_tool_decorator_argument_errors() -> None:
    with pytest.raises(ValueError, match="The first argument must be a string or a callable"):
        tool(3)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="^Too many arguments for tool decorator"):
        tool("a", "b")  # type: ignore[call-overload]


def test_args_schema_type_is_checked() -> None:
    with pytest.raises(TypeError, match="args_schema must be a subclass of pydantic BaseModel"):
        StructuredTool(name="t", description="d", args_schema=int)


# ---- schemas ---------------------------------------------------------------------------------


class Address(BaseModel):
    """A postal address."""

    street: str = Field(description="Street and number.")


def test_schema_types_defaults_optional_literal_nested() -> None:
    def f(
        a: int,
        b: Optional[str] = None,
        xs: list[int] = [],  # noqa: B006
        mode: Literal["fast", "slow"] = "fast",
        address: Optional[Address] = None,
    ) -> None:
        """Doc."""

    params = convert_to_openai_tool(f)["function"]["parameters"]
    assert params["required"] == ["a"]
    props = params["properties"]
    assert props["a"] == {"type": "integer"}
    assert props["b"] == {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}
    assert props["xs"] == {"default": [], "items": {"type": "integer"}, "type": "array"}
    assert props["mode"] == {"default": "fast", "enum": ["fast", "slow"], "type": "string"}
    # The nested model is inlined (no $defs / $ref) and keeps its docstring and descriptions.
    # Upstream's title stripping does not enter lists, so inside anyOf the titles stay.
    nested = {
        "description": "A postal address.",
        "properties": {
            "street": {"description": "Street and number.", "title": "Street", "type": "string"}
        },
        "required": ["street"],
        "title": "Address",
        "type": "object",
    }
    assert props["address"] == {"anyOf": [nested, {"type": "null"}], "default": None}
    assert "$defs" not in json.dumps(params) and "$ref" not in json.dumps(params)


def test_annotated_description_and_docstring_precedence() -> None:
    def f(city: Annotated[str, "From Annotated."], n: Annotated[int, "Annotated n."] = 1) -> None:
        """Summary.

        Args:
            n: From the docstring.
        """

    props = create_schema_from_function("f", f, parse_docstring=True).model_json_schema()[
        "properties"
    ]
    assert props["city"]["description"] == "From Annotated."
    assert props["n"]["description"] == "From the docstring."


def test_self_and_callbacks_are_filtered() -> None:
    class K:
        def method(self, a: int, run_manager: Any = None, callbacks: Any = None) -> int:
            """Doc."""
            return a

    schema = create_schema_from_function("m", K.method)
    assert list(schema.model_fields) == ["a"]


def test_property_called_title_survives() -> None:
    def f(title: str) -> str:
        """Doc."""
        return title

    assert convert_to_openai_tool(f)["function"]["parameters"]["properties"] == {
        "title": {"type": "string"}
    }


def test_dereference_breaks_cycles_and_merges_siblings() -> None:
    schema = {
        "properties": {
            "node": {"$ref": "#/$defs/Node", "description": "Root."},
        },
        "$defs": {"Node": {"type": "object", "properties": {"next": {"$ref": "#/$defs/Node"}}}},
    }
    out = dereference_refs(schema)
    assert out["properties"]["node"] == {
        "type": "object",
        "properties": {"next": {}},  # the recursive reference stops here
        "description": "Root.",
    }
    assert out["$defs"] == schema["$defs"] and out is not schema


def test_google_docstring_parser() -> None:
    doc = "Summary\nline two.\n\nArgs:\n    a (int): First,\n        continued.\n    b: Second.\n\nReturns:\n    x"
    assert _parse_google_docstring(doc, ["a", "b"]) == (
        "Summary\nline two.",
        {"a": "First, continued.", "b": "Second."},
    )


# ---- injected arguments -----------------------------------------------------------------


class CustomInjected(InjectedToolArg):
    """Like the prebuilt's InjectedState: a subclass, used as an instance."""

    def __init__(self, field: str | None = None) -> None:
        self.field = field


class FakeRuntime(_DirectlyInjectedToolArg):
    """Like the prebuilt's ToolRuntime: injected by its type alone."""


def test_injected_args_hidden_from_model_but_validated() -> None:
    @tool
    def lookup(
        query: str,
        secret: Annotated[str, InjectedToolArg],
        user: Annotated[str, CustomInjected("user")],
        state: Annotated[dict, CustomInjected],
        runtime: FakeRuntime,
        tool_call_id: Annotated[str, InjectedToolCallId],
    ) -> str:
        """Look up."""
        return query

    expected = {
        "properties": {"query": {"type": "string"}},
        "required": ["query"],
        "type": "object",
    }
    assert convert_to_openai_tool(lookup)["function"]["parameters"] == expected
    assert convert_to_openai_tool(lookup.func)["function"]["parameters"] == expected
    assert list(lookup.args_schema.model_fields) == [
        "query",
        "secret",
        "user",
        "state",
        "runtime",
        "tool_call_id",
    ]
    assert list(lookup.tool_call_schema.model_fields) == ["query"]


def test_is_injected_arg_type() -> None:
    assert _is_injected_arg_type(Annotated[str, InjectedToolArg])
    assert _is_injected_arg_type(Annotated[str, CustomInjected("x")])
    assert _is_injected_arg_type(FakeRuntime)
    assert not _is_injected_arg_type(str)
    assert not _is_injected_arg_type(Annotated[str, "just a description"])
    assert _is_injected_arg_type(
        Annotated[str, InjectedToolCallId], injected_type=InjectedToolCallId
    )
    assert not _is_injected_arg_type(
        Annotated[str, InjectedToolArg], injected_type=InjectedToolCallId
    )


def test_injected_tool_call_id_is_filled_from_the_call() -> None:
    @tool
    def echo(x: int, tool_call_id: Annotated[str, InjectedToolCallId]) -> str:
        """Echo."""
        return f"{x} from {tool_call_id}"

    msg = echo.invoke(call("echo", {"x": 1}, id="abc"))
    assert msg.content == "1 from abc" and msg.tool_call_id == "abc"
    with pytest.raises(ValueError, match="^When tool includes an InjectedToolCallId argument"):
        echo.invoke({"x": 1})


def test_injected_value_is_passed_through_unvalidated() -> None:
    marker = object()

    @tool
    def f(x: int, thing: Annotated[Any, InjectedToolArg]) -> bool:
        """Doc."""
        return thing is marker

    assert f.invoke({"x": 1, "thing": marker}) is True


# ---- invoke ----------------------------------------------------------------------------------


def test_invoke_with_args_returns_raw_result() -> None:
    assert tool(check_weather).invoke({"location": "sf"}) == "It's always sunny in sf"


def test_invoke_with_tool_call_returns_tool_message_spec_5_1() -> None:
    msg = tool(check_weather).invoke(call("check_weather", {"location": "sf"}))
    assert msg == ToolMessage(
        content="It's always sunny in sf", name="check_weather", tool_call_id="call_1"
    )
    assert msg.status == "success" and msg.id is None


def test_invoke_validates_and_coerces_arguments() -> None:
    @tool
    def add(a: int, b: int = 10) -> int:
        """Add."""
        return a + b

    assert add.invoke({"a": "5"}) == 15
    with pytest.raises(ValidationError) as info:
        add.invoke({"b": 1})
    assert info.value.errors()[0]["loc"] == ("a",)
    assert info.value.errors()[0]["type"] == "missing"


@pytest.mark.parametrize(
    "value,content",
    [
        (3, "3"),
        (None, "null"),
        ([1, {"a": "é"}], '[1, {"a": "é"}]'),
        ({"k": "ü"}, '{"k": "ü"}'),
        ([{"type": "text", "text": "hi"}], [{"type": "text", "text": "hi"}]),
        ({1}, "{1}"),
    ],
)
def test_tool_message_content_formatting(value: Any, content: Any) -> None:
    @tool
    def f() -> Any:
        """Doc."""
        return value

    assert f.invoke(call("f", {})).content == content


def test_tool_built_messages_and_commands_pass_through() -> None:
    own = ToolMessage(content="mine", tool_call_id="x")
    command = Command(update={"messages": []})

    @tool
    def f(kind: str) -> Any:
        """Doc."""
        return {"message": own, "command": command, "list": [own, command]}[kind]

    assert f.invoke(call("f", {"kind": "message"})) is own
    assert f.invoke(call("f", {"kind": "command"})) is command
    assert f.invoke(call("f", {"kind": "list"})) == [own, command]


def test_content_and_artifact() -> None:
    @tool(response_format="content_and_artifact")
    def f(x: int) -> tuple[str, dict[str, int]]:
        """Doc."""
        return f"got {x}", {"raw": x}

    msg = f.invoke(call("f", {"x": 2}))
    assert (msg.content, msg.artifact) == ("got 2", {"raw": 2})
    assert f.invoke({"x": 2}) == "got 2"  # plain args: the content only

    @tool(response_format="content_and_artifact")
    def g(x: int) -> str:
        """Doc."""
        return "no tuple"

    with pytest.raises(
        ValueError, match=r"a two-tuple of the message content and raw tool output is expected"
    ):
        g.invoke({"x": 1})


# ---- error handling ------------------------------------------------------------------------


def _boom_tool(**fields: Any) -> StructuredTool:
    def boom(x: int) -> str:
        """Boom."""
        raise ToolException(f"kaboom {x}")

    return StructuredTool.from_function(boom, **fields)


def test_tool_exception_raises_by_default() -> None:
    with pytest.raises(ToolException, match="kaboom 1"):
        _boom_tool().invoke(call("boom", {"x": 1}))


@pytest.mark.parametrize(
    "flag,content",
    [
        (True, "kaboom 1"),
        ("Oops", "Oops"),
        (lambda e: f"handled {type(e).__name__}", "handled ToolException"),
    ],
)
def test_handle_tool_error(flag: Any, content: str) -> None:
    msg = _boom_tool(handle_tool_error=flag).invoke(call("boom", {"x": 1}))
    assert (msg.content, msg.status, msg.name, msg.tool_call_id) == (
        content,
        "error",
        "boom",
        "call_1",
    )
    assert _boom_tool(handle_tool_error=flag).invoke({"x": 1}) == content


def test_handle_tool_error_does_not_catch_other_exceptions() -> None:
    def f(x: int) -> str:
        """Doc."""
        raise ValueError("plain")

    with pytest.raises(ValueError, match="plain"):
        StructuredTool.from_function(f, handle_tool_error=True).invoke({"x": 1})


@pytest.mark.parametrize(
    "flag,content",
    [
        (True, "Tool input validation error"),
        ("bad args", "bad args"),
        (lambda e: f"{e.error_count()} error(s)", "1 error(s)"),
    ],
)
def test_handle_validation_error(flag: Any, content: str) -> None:
    t = StructuredTool.from_function(check_weather, handle_validation_error=flag)
    msg = t.invoke(call("check_weather", {"loc": "sf"}))
    assert (msg.content, msg.status) == (content, "error")


def test_unexpected_handler_type() -> None:
    with pytest.raises(ValueError, match="^Got unexpected type of `handle_tool_error`"):
        _boom_tool(handle_tool_error=3.5).invoke({"x": 1})


# ---- async ---------------------------------------------------------------------------------


def test_async_tool() -> None:
    @tool
    async def fetch(url: str) -> str:
        """Fetch a page."""
        return f"page {url}"

    assert fetch.func is None and fetch.coroutine is not None
    assert asyncio.run(fetch.ainvoke({"url": "x"})) == "page x"
    msg = asyncio.run(fetch.ainvoke(call("fetch", {"url": "x"})))
    assert msg.content == "page x"
    with pytest.raises(
        NotImplementedError, match=r"^StructuredTool does not support sync invocation\.$"
    ):
        fetch.invoke({"url": "x"})


def test_ainvoke_runs_a_sync_tool() -> None:
    assert asyncio.run(tool(check_weather).ainvoke({"location": "sf"})) == "It's always sunny in sf"


# ---- config ---------------------------------------------------------------------------------


def test_config_parameter_is_injected_and_hidden() -> None:
    @tool
    def f(x: int, config: RunnableConfig) -> str:
        """Doc."""
        return config["configurable"]["user"]

    assert list(f.args_schema.model_fields) == ["x"]
    assert f.invoke({"x": 1}, {"configurable": {"user": "ann"}}) == "ann"


def test_current_config_is_visible_inside_the_tool() -> None:
    @tool
    def f(x: int) -> str:
        """Doc."""
        return ensure_config()["configurable"]["user"]

    assert f.invoke({"x": 1}, {"configurable": {"user": "bob"}}) == "bob"


# ---- BaseTool subclasses -------------------------------------------------------------------


class AddArgs(BaseModel):
    a: int
    b: int


class AddTool(BaseTool):
    name: str = "add"
    description: str = "Add two numbers."
    args_schema: type[BaseModel] = AddArgs

    def _run(self, a: int, b: int) -> int:
        return a + b


def test_base_tool_subclass() -> None:
    t = AddTool()
    assert t.invoke({"a": 1, "b": "2"}) == 3
    assert t.invoke(call("add", {"a": 1, "b": 2})).content == "3"
    assert asyncio.run(t.ainvoke({"a": 1, "b": 2})) == 3  # default _arun: _run in a thread
    assert convert_to_openai_tool(t)["function"] == {
        "name": "add",
        "description": "Add two numbers.",
        "parameters": {
            "properties": {"a": {"type": "integer"}, "b": {"type": "integer"}},
            "required": ["a", "b"],
            "type": "object",
        },
    }


def test_base_tool_needs_run_and_fields() -> None:
    class NoRun(BaseTool):
        name: str = "x"
        description: str = "y"

    with pytest.raises(TypeError):
        NoRun()
    with pytest.raises(TypeError, match="requires the field 'name'"):
        StructuredTool(description="d", args_schema=AddArgs)
    with pytest.raises(TypeError, match="unexpected field 'nmae'"):
        StructuredTool(nmae="x", description="d", args_schema=AddArgs)


# ---- conversion of other inputs ------------------------------------------------------------


def test_convert_pydantic_model_and_dicts() -> None:
    class GetWeather(BaseModel):
        """Get the weather."""

        city: str = Field(description="The city.")

    assert convert_to_openai_tool(GetWeather) == {
        "type": "function",
        "function": {
            "name": "GetWeather",
            "description": "Get the weather.",
            "parameters": {
                "properties": {"city": {"description": "The city.", "type": "string"}},
                "required": ["city"],
                "type": "object",
            },
        },
    }
    assert convert_to_openai_tool(CHECK_WEATHER_OPENAI) is CHECK_WEATHER_OPENAI
    assert convert_to_openai_function({"name": "n", "description": "d", "extra": 1}) == {
        "name": "n",
        "description": "d",
    }
    with pytest.raises(ValueError, match="it must have a top-level 'title' key"):
        convert_to_openai_tool({"type": "object", "properties": {}})


def test_convert_to_anthropic_tool_spec_5_3() -> None:
    converted = convert_to_anthropic_tool(tool(check_weather))
    assert converted == {
        "name": "check_weather",
        "input_schema": {
            "properties": {"location": {"type": "string"}},
            "required": ["location"],
            "type": "object",
        },
        "description": "Return the weather forecast for the specified location.",
    }
    assert list(converted) == ["name", "input_schema", "description"]
    builtin = {"type": "web_search_20250305", "name": "web_search", "max_uses": 2}
    assert convert_to_anthropic_tool(builtin) == builtin
    assert convert_to_anthropic_tool(converted) == converted
