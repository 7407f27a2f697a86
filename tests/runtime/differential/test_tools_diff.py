"""miniagent.tools against langchain-core: same functions in, same schemas, messages and errors out."""

import asyncio
import json
from types import SimpleNamespace
from typing import Annotated, Any, Literal, Optional

import pytest

pytest.importorskip("langchain_core")

import langchain_core.messages as up_messages  # noqa: E402
import langchain_core.tools as up_tools  # noqa: E402
from langchain_core.utils.function_calling import (  # noqa: E402
    convert_to_openai_tool as up_convert,
)
from pydantic import BaseModel, Field  # noqa: E402

import miniagent.messages as mini_messages  # noqa: E402
import miniagent.tools as mini_tools  # noqa: E402

UP = SimpleNamespace(
    tools=up_tools,
    messages=up_messages,
    convert=up_convert,
    StructuredTool=up_tools.StructuredTool,
)
MINI = SimpleNamespace(
    tools=mini_tools,
    messages=mini_messages,
    convert=mini_tools.convert_to_openai_tool,
    StructuredTool=mini_tools.StructuredTool,
)


class Address(BaseModel):
    """A postal address."""

    street: str = Field(description="Street and number.")
    zip: Optional[int] = None


class TreeNode(BaseModel):
    """A recursive model."""

    value: int
    children: list["TreeNode"] = []


class SearchArgs(BaseModel):
    """Search the web."""

    query: str = Field(description="What to look for.")
    k: int = 3


def _signatures(ns: SimpleNamespace) -> dict[str, Any]:
    """The same functions, built once per side so injected markers come from that side."""
    injected_arg, injected_id = ns.tools.InjectedToolArg, ns.tools.InjectedToolCallId

    class CustomInjected(injected_arg):  # what the prebuilt's InjectedState looks like
        pass

    def no_args() -> str:
        """Say hi."""
        return "hi"

    def one_str(location: str) -> str:
        """Return the weather forecast for the specified location."""
        return f"It's always sunny in {location}"

    def int_default(n: int = 5) -> int:
        """Count to n."""
        return n

    def optional_str(name: Optional[str] = None) -> str:
        """Greet someone, maybe."""
        return f"hello {name}"

    def list_int(xs: list[int]) -> int:
        """Add numbers."""
        return sum(xs)

    def dict_str_int(counts: dict[str, int]) -> dict[str, int]:
        """Echo counts."""
        return counts

    def literal(mode: Literal["fast", "slow"]) -> str:
        """Pick a mode."""
        return mode

    def nested_model(address: Address, others: list[Address] = []) -> str:  # noqa: B006
        """Ship to an address."""
        return address.street

    def optional_nested_model(address: Optional[Address] = None) -> str:
        """Titles inside anyOf are not stripped upstream."""
        return str(address)

    def recursive_model(tree: TreeNode) -> int:
        """Sum a tree."""
        return tree.value

    def annotated(
        city: Annotated[str, "The city to look up."],
        n: Annotated[int, Field(description="How many.", ge=1)] = 1,
    ) -> str:
        """Look up a city."""
        return city * n

    def google_docstring(city: str, days: int = 3) -> str:
        """Get a forecast.

        Longer explanation that is not part of the summary.

        Args:
            city: The city name.
            days (int): Number of days,
                at most ten.

        Returns:
            The forecast.
        """
        return f"{city} {days}"

    def injected(
        query: str,
        secret: Annotated[str, injected_arg],
        state: Annotated[dict, CustomInjected()],
        tool_call_id: Annotated[str, injected_id],
    ) -> str:
        """Look something up with hidden context."""
        return f"{query}|{secret}|{tool_call_id}"

    def property_named_title(title: str, price: float = 1.5, flag: bool = False) -> str:
        """A property called title must survive title stripping."""
        return title

    def untyped(a, b=None, *rest, **extra):
        """Untyped
        multi-line description."""
        return a

    def unions(x: int | str, pair: tuple[int, str] = (1, "a"), tags: set[str] | None = None) -> str:
        """Unions and tuples."""
        return str(x)

    return {f.__name__: f for f in locals().values() if callable(f) and hasattr(f, "__code__")}


UP_FNS, MINI_FNS = _signatures(UP), _signatures(MINI)
NAMES = sorted(UP_FNS)


def _dump(make: Any) -> str:
    """JSON of the result (key order included), or the error type and text."""
    try:
        return json.dumps(make(), default=repr)
    except Exception as e:  # noqa: BLE001 -- the error itself is what we compare
        return f"{type(e).__name__}: {e}"


def test_at_least_twelve_signatures() -> None:
    assert len(NAMES) >= 12
    assert set(NAMES) == set(MINI_FNS)


@pytest.mark.parametrize("name", NAMES)
def test_convert_plain_function(name: str) -> None:
    assert _dump(lambda: MINI.convert(MINI_FNS[name])) == _dump(lambda: UP.convert(UP_FNS[name]))


TOOL_VARIANTS = {
    "bare": lambda ns, f: ns.tools.tool(f),
    "named": lambda ns, f: ns.tools.tool("custom_name")(f),
    "custom": lambda ns, f: ns.tools.tool(
        "custom", description="Custom description", return_direct=True
    )(f),
    "parse_docstring": lambda ns, f: ns.tools.tool(parse_docstring=True)(f),
    "parse_docstring_lenient": lambda ns, f: ns.tools.tool(
        parse_docstring=True, error_on_invalid_docstring=False
    )(f),
    "from_function": lambda ns, f: ns.StructuredTool.from_function(f),
    "args_schema": lambda ns, f: ns.tools.tool(args_schema=SearchArgs)(f),
}


@pytest.mark.parametrize("variant", sorted(TOOL_VARIANTS))
@pytest.mark.parametrize("name", NAMES)
def test_tool_schemas(name: str, variant: str) -> None:
    make = TOOL_VARIANTS[variant]

    def fields(ns: SimpleNamespace, fns: dict[str, Any]) -> dict[str, Any]:
        t = make(ns, fns[name])
        return {
            "openai": ns.convert(t),
            "name": t.name,
            "description": t.description,
            "args_schema": t.args_schema.model_json_schema(),
            "tool_call_schema": t.tool_call_schema.model_json_schema(),
            "args": t.args,
            "return_direct": t.return_direct,
            "response_format": t.response_format,
        }

    assert _dump(lambda: fields(MINI, MINI_FNS)) == _dump(lambda: fields(UP, UP_FNS))


@pytest.mark.parametrize(
    "schema",
    [
        SearchArgs,
        Address,
        TreeNode,
        {"name": "n", "description": "d", "parameters": {"type": "object", "properties": {}}},
        {"type": "function", "function": {"name": "already_openai"}},
        {
            "title": "T",
            "description": "D",
            "type": "object",
            "properties": {"a": {"type": "integer", "title": "A"}},
        },
        {"title": "OnlyTitle"},
        {
            "name": "anthropic_style",
            "input_schema": {"type": "object", "properties": {}},
            "description": "d",
        },
        {"type": "web_search_preview_2025_03_11"},
        {"type": "object", "properties": {}},
        {"description": "no name"},
        42,
    ],
    ids=lambda s: getattr(s, "__name__", None) or str(s)[:30],
)
def test_convert_models_and_dicts(schema: Any) -> None:
    assert _dump(lambda: MINI.convert(schema)) == _dump(lambda: UP.convert(schema))


def test_convert_json_schema_args_schema_tool() -> None:
    schema = {
        "type": "object",
        "properties": {"x": {"type": "integer", "title": "X"}},
        "required": ["x"],
        "description": "From the dict.",
    }

    def make(ns: SimpleNamespace) -> Any:
        def f(x: int) -> int:
            return x * 2

        t = ns.StructuredTool.from_function(f, args_schema=schema)
        return [ns.convert(t), t.description, t.tool_call_schema, t.invoke({"x": "4"})]

    assert _dump(lambda: make(MINI)) == _dump(lambda: make(UP))


# ---- construction errors ------------------------------------------------------------------


def _no_doc(x: int) -> int:
    return x


def _bad_args_doc(x: int) -> int:
    """Summary.

    Args:
        y: not a parameter.
    """
    return x


def _summary_only(x: int) -> int:
    """Only a summary."""
    return x


class _NoDocSchema(BaseModel):
    x: int


CONSTRUCTION = {
    "no_docstring": lambda ns: ns.tools.tool(_no_doc),
    "no_docstring_description": lambda ns: ns.tools.tool(description="Given.")(_no_doc),
    "no_docstring_schema_without_doc": lambda ns: ns.tools.tool(args_schema=_NoDocSchema)(_no_doc),
    "no_docstring_schema_with_doc": lambda ns: ns.tools.tool(args_schema=SearchArgs)(_no_doc),
    "no_func": lambda ns: ns.StructuredTool.from_function(),
    "doc_arg_not_in_signature": lambda ns: ns.tools.tool(parse_docstring=True)(_bad_args_doc),
    "invalid_google_docstring": lambda ns: ns.tools.tool(parse_docstring=True)(_summary_only),
    "lenient_google_docstring": lambda ns: ns.StructuredTool.from_function(
        _summary_only, parse_docstring=True
    ),
    "parse_docstring_no_doc": lambda ns: ns.StructuredTool.from_function(
        _no_doc, parse_docstring=True
    ),
    "bad_args_schema": lambda ns: ns.StructuredTool.from_function(
        _no_doc, args_schema=int, description="d"
    ),
    "bad_args_schema_no_doc": lambda ns: ns.StructuredTool.from_function(_no_doc, args_schema=int),
    "first_arg_not_callable": lambda ns: ns.tools.tool(3),
    "too_many_args": lambda ns: ns.tools.tool("a", "b", "c"),
}


@pytest.mark.parametrize("case", sorted(CONSTRUCTION))
def test_construction_results_and_errors(case: str) -> None:
    def summary(ns: SimpleNamespace) -> Any:
        t = CONSTRUCTION[case](ns)
        return [t.name, t.description, t.args_schema.model_json_schema()]

    assert _dump(lambda: summary(MINI)) == _dump(lambda: summary(UP))


# ---- invoke ------------------------------------------------------------------------------


def _behaviours(ns: SimpleNamespace) -> dict[str, Any]:
    exc, tool_message = ns.tools.ToolException, ns.messages.ToolMessage

    def weather(location: str, days: int = 1) -> str:
        """Weather."""
        return f"sunny in {location} for {days} day(s)"

    def boom(x: int) -> str:
        """Raises a ToolException."""
        raise exc(f"kaboom {x}")

    def boom_no_args(x: int) -> str:
        """Raises an empty ToolException."""
        raise exc()

    def value_error(x: int) -> str:
        """Raises a plain ValueError."""
        raise ValueError("bad")

    def returns(kind: str) -> Any:
        """Returns many kinds of values."""
        return {
            "int": 3,
            "float": 1.5,
            "none": None,
            "str": "plain",
            "list": [1, {"a": "é"}],
            "blocks": [{"type": "text", "text": "hi"}, "s"],
            "dict": {"k": "ü"},
            "tuple": ("a", "b"),
            "empty": [],
            "set": {1},
            "message": tool_message("own", tool_call_id="other"),
            "messages": [tool_message("a", tool_call_id="1")],
        }[kind]

    def artifact(x: int) -> tuple[str, dict[str, int]]:
        """Content and artifact."""
        return f"content {x}", {"raw": x}

    def not_a_tuple(x: int) -> str:
        """Claims an artifact but returns a string."""
        return "just content"

    def with_call_id(x: int, tool_call_id: Annotated[str, ns.tools.InjectedToolCallId]) -> str:
        """Uses the id."""
        return f"{x}:{tool_call_id}"

    def with_call_id_renamed(x: int, call: Annotated[str, ns.tools.InjectedToolCallId]) -> str:
        """Uses the id under another name."""
        return f"{x}:{call}"

    def with_injected(x: int, secret: Annotated[dict, ns.tools.InjectedToolArg]) -> str:
        """Injected argument."""
        return f"{x}:{secret}"

    def no_args() -> str:
        """No arguments."""
        return "fine"

    async def async_weather(location: str) -> str:
        """Async weather."""
        return f"async sunny in {location}"

    return {f.__name__: f for f in locals().values() if callable(f) and hasattr(f, "__code__")}


UP_BEHAVIOURS, MINI_BEHAVIOURS = _behaviours(UP), _behaviours(MINI)

INVOKE_ARGS = [
    ("weather", {"location": "sf"}),
    ("weather", {"location": "sf", "days": "2"}),
    ("weather", {"loc": 1}),
    ("weather", {"location": "sf", "extra": 1}),
    ("boom", {"x": 1}),
    ("boom_no_args", {"x": 1}),
    ("value_error", {"x": 1}),
    ("artifact", {"x": 2}),
    ("not_a_tuple", {"x": 2}),
    ("with_call_id", {"x": 1}),
    ("with_call_id_renamed", {"x": 1}),
    ("with_injected", {"x": 1, "secret": {"s": 1}}),
    ("with_injected", {"x": 1}),
    ("no_args", {}),
    ("no_args", {"ignored": 1}),
    ("async_weather", {"location": "la"}),
    *[
        ("returns", {"kind": k})
        for k in (
            "int",
            "float",
            "none",
            "str",
            "list",
            "blocks",
            "dict",
            "tuple",
            "empty",
            "set",
            "message",
            "messages",
        )
    ],
]

TOOL_OPTIONS = {
    "default": {},
    "tool_error_true": {"handle_tool_error": True},
    "tool_error_str": {"handle_tool_error": "Oops"},
    "tool_error_callable": {"handle_tool_error": lambda e: f"handled {e!r}"},
    "tool_error_blocks": {"handle_tool_error": lambda e: [{"type": "text", "text": str(e)}]},
    "validation_true": {"handle_validation_error": True},
    "validation_str": {"handle_validation_error": "bad args"},
    "validation_callable": {"handle_validation_error": lambda e: f"{e.error_count()} error(s)"},
    "content_and_artifact": {"response_format": "content_and_artifact"},
}


def _outcome(run: Any) -> Any:
    """Comparable summary of a tool result or of the error it raised."""
    try:
        result = run()
    except Exception as e:  # noqa: BLE001 -- the error itself is what we compare
        text = (
            str(e)
            .replace("langchain_core.messages.tool.", "")
            .replace("miniagent.messages.tool.", "")
        )
        return ("raised", type(e).__name__, text)  # (class paths differ, nothing else may)
    if hasattr(result, "tool_call_id"):
        return (
            "ToolMessage",
            result.content,
            result.name,
            result.tool_call_id,
            result.status,
            repr(result.artifact),
        )
    if isinstance(result, list) and result and hasattr(result[0], "tool_call_id"):
        return ("messages", [(m.content, m.tool_call_id) for m in result])
    return ("value", repr(result))


def _make_tool(ns: SimpleNamespace, fns: dict[str, Any], key: str, options: dict[str, Any]) -> Any:
    t = ns.tools.tool(fns[key])
    for attr, value in options.items():
        setattr(t, attr, value)
    return t


@pytest.mark.parametrize("options", sorted(TOOL_OPTIONS))
@pytest.mark.parametrize("as_call", [False, True], ids=["args", "tool_call"])
@pytest.mark.parametrize(
    "key,args", INVOKE_ARGS, ids=[f"{k}-{i}" for i, (k, _) in enumerate(INVOKE_ARGS)]
)
def test_invoke_and_ainvoke(key: str, args: dict[str, Any], as_call: bool, options: str) -> None:
    def payload() -> dict[str, Any]:
        if as_call:
            return {"name": key, "args": dict(args), "id": "call_1", "type": "tool_call"}
        return dict(args)

    up_tool = _make_tool(UP, UP_BEHAVIOURS, key, TOOL_OPTIONS[options])
    mini_tool = _make_tool(MINI, MINI_BEHAVIOURS, key, TOOL_OPTIONS[options])
    assert _outcome(lambda: mini_tool.invoke(payload())) == _outcome(
        lambda: up_tool.invoke(payload())
    )
    assert _outcome(lambda: asyncio.run(mini_tool.ainvoke(payload()))) == _outcome(
        lambda: asyncio.run(up_tool.ainvoke(payload()))
    )


@pytest.mark.parametrize(
    "key,text", [("weather", "sf"), ("no_args", "anything"), ("returns", "int")]
)
def test_string_input(key: str, text: str) -> None:
    up_tool = up_tools.tool(UP_BEHAVIOURS[key])
    mini_tool = mini_tools.tool(MINI_BEHAVIOURS[key])
    assert _outcome(lambda: mini_tool.invoke(text)) == _outcome(lambda: up_tool.invoke(text))


def test_bad_handler_flag_error_text() -> None:
    def run(ns: SimpleNamespace, fns: dict[str, Any]) -> Any:
        t = _make_tool(ns, fns, "boom", {"handle_tool_error": 3.5})
        return t.invoke({"x": 1})

    assert _outcome(lambda: run(MINI, MINI_BEHAVIOURS)) == _outcome(lambda: run(UP, UP_BEHAVIOURS))


def test_anthropic_shape_matches_spec_example() -> None:
    """Spec §5.3: ``ChatAnthropic.bind_tools`` output; the parameters part must equal upstream's."""
    tool = mini_tools.tool(MINI_FNS["one_str"])
    expected_parameters = up_convert(up_tools.tool(UP_FNS["one_str"]))["function"]["parameters"]
    assert mini_tools.convert_to_anthropic_tool(tool) == {
        "name": "one_str",
        "input_schema": expected_parameters,
        "description": "Return the weather forecast for the specified location.",
    }
