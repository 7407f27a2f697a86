"""ToolNode and tools_condition: every input form, error policy and injection path.

Expected strings are copied from runs of langgraph-prebuilt 1.1.3.
"""

import asyncio
import contextvars
import threading
import time
from typing import Annotated, Any, Optional, Union

import pytest
from pydantic import BaseModel

from miniagent.errors import GraphBubbleUp
from miniagent.messages import AIMessage, HumanMessage, RemoveMessage, ToolMessage
from miniagent.prebuilt import InjectedState, InjectedStore, ToolNode, ToolRuntime, tools_condition
from miniagent.prebuilt.tool_node import (
    ToolCallRequest,
    ToolInvocationError,
    _handle_tool_error,
    _infer_handled_types,
    msg_content_output,
)
from miniagent.runtime import Runtime
from miniagent.tools import InjectedToolArg, InjectedToolCallId, ToolException, tool
from miniagent.types import Command, Send

CFG = {"configurable": {"__pregel_runtime": Runtime()}}


def tc(name: str, args: dict[str, Any], id: str = "c1") -> dict[str, Any]:
    return {"name": name, "args": args, "id": id, "type": "tool_call"}


def ai(*calls: dict[str, Any]) -> AIMessage:
    return AIMessage("", tool_calls=list(calls))


@tool
def add(a: int, b: int) -> int:
    """Add two numbers."""
    return a + b


@tool
def boom(x: int) -> str:
    """Always fails."""
    raise ValueError("kaboom")


@tool
def boom_tool_exception(x: int) -> str:
    """Fails with a ToolException."""
    raise ToolException("tool says no")


def run(node: ToolNode, input: Any, config: dict | None = None) -> Any:
    return node.invoke(input, config or CFG)


# ---- construction --------------------------------------------------------------------------


def test_construction_converts_functions_and_keeps_last_duplicate():
    def shout(text: str) -> str:
        """Shout it."""
        return text.upper()

    node = ToolNode([add, shout])
    assert node.name == "tools"
    assert list(node.tools_by_name) == ["add", "shout"]
    assert node.tools_by_name["shout"].invoke({"text": "hi"}) == "HI"

    @tool("add")
    def add_again(a: int, b: int) -> int:
        """Another add."""
        return a * b

    assert ToolNode([add, add_again]).tools_by_name["add"] is add_again
    assert ToolNode([add], name="my_tools").name == "my_tools"


def test_outside_a_graph_the_runtime_is_required():
    with pytest.raises(ValueError) as e:
        ToolNode([add]).invoke({"messages": [ai(tc("add", {"a": 1, "b": 2}))]})
    assert str(e.value) == "Missing required config key 'N/A' for 'tools'."


# ---- input forms -----------------------------------------------------------------------------


def test_dict_input_returns_messages_dict():
    out = run(ToolNode([add]), {"messages": [HumanMessage("hi"), ai(tc("add", {"a": 1, "b": 2}))]})
    assert out == {"messages": [ToolMessage("3", name="add", tool_call_id="c1")]}
    assert out["messages"][0].status == "success"


def test_list_input_returns_list():
    out = run(ToolNode([add]), [ai(tc("add", {"a": 1, "b": 2}))])
    assert out == [ToolMessage("3", name="add", tool_call_id="c1")]


def test_tool_call_list_input():
    out = run(ToolNode([add]), [tc("add", {"a": 2, "b": 2}, id="some 0")])
    assert out == {"messages": [ToolMessage("4", name="add", tool_call_id="some 0")]}


def test_tool_call_with_context_payload_uses_its_state():
    @tool
    def whoami(state: Annotated[dict, InjectedState]) -> str:
        """Read the state."""
        return state["user"]

    payload = {
        "__type": "tool_call_with_context",
        "tool_call": tc("whoami", {}),
        "state": {"messages": [], "user": "ada"},
    }
    assert run(ToolNode([whoami]), payload) == {
        "messages": [ToolMessage("ada", name="whoami", tool_call_id="c1")]
    }


def test_pydantic_state_input():
    class State(BaseModel):
        messages: list

    out = run(ToolNode([add]), State(messages=[ai(tc("add", {"a": 1, "b": 1}))]))
    assert out == {"messages": [ToolMessage("2", name="add", tool_call_id="c1")]}


def test_custom_messages_key():
    node = ToolNode([add], messages_key="inner")
    out = run(node, {"inner": [ai(tc("add", {"a": 1, "b": 1}))]})
    assert out == {"inner": [ToolMessage("2", name="add", tool_call_id="c1")]}


def test_calls_come_from_the_last_ai_message():
    old = AIMessage("", tool_calls=[tc("add", {"a": 9, "b": 9}, id="old")])
    new = ai(tc("add", {"a": 1, "b": 1}, id="new"))
    out = run(ToolNode([add]), {"messages": [old, new, HumanMessage("after")]})
    assert [m.tool_call_id for m in out["messages"]] == ["new"]


@pytest.mark.parametrize(
    ("input", "error", "text"),
    [
        ({"foo": 1}, ValueError, "No message found in input"),
        ({"messages": []}, ValueError, "No message found in input"),
        ({"messages": [HumanMessage("x")]}, ValueError, "No AIMessage found in input"),
        ([HumanMessage("x")], ValueError, "No AIMessage found in input"),
        ([], IndexError, "list index out of range"),
    ],
)
def test_parse_input_errors(input, error, text):
    with pytest.raises(error) as e:
        run(ToolNode([add]), input)
    assert str(e.value) == text


# ---- parallelism -----------------------------------------------------------------------------


def test_parallel_calls_run_in_threads_and_keep_input_order():
    started = threading.Barrier(3, timeout=5)  # all three calls must be running at once

    @tool
    def slow(n: int) -> str:
        """Sleep, then echo."""
        started.wait()
        time.sleep(0.01 * (3 - n))  # the first call finishes last
        return f"{n}:{threading.current_thread().name}"

    calls = [tc("slow", {"n": i}, id=f"c{i}") for i in range(3)]
    out = run(ToolNode([slow]), {"messages": [ai(*calls)]})
    assert [m.tool_call_id for m in out["messages"]] == ["c0", "c1", "c2"]
    assert [m.content.split(":")[0] for m in out["messages"]] == ["0", "1", "2"]
    assert len({m.content.split(":")[1] for m in out["messages"]}) == 3


def test_threads_see_the_callers_context_variables():
    var: contextvars.ContextVar[str] = contextvars.ContextVar("var", default="unset")

    @tool
    def read_var(n: int) -> str:
        """Read a context variable."""
        return var.get()

    var.set("from caller")
    calls = [tc("read_var", {"n": i}, id=f"c{i}") for i in range(2)]
    out = run(ToolNode([read_var]), {"messages": [ai(*calls)]})
    assert [m.content for m in out["messages"]] == ["from caller", "from caller"]


def test_a_tool_cannot_change_the_callers_context():
    var: contextvars.ContextVar[str] = contextvars.ContextVar("var2", default="caller")

    @tool
    def setter(n: int) -> str:
        """Set a context variable."""
        var.set(f"tool {n}")
        return var.get()

    for calls in ([tc("setter", {"n": 0})], [tc("setter", {"n": i}, id=f"c{i}") for i in range(2)]):
        out = run(ToolNode([setter]), {"messages": [ai(*calls)]})
        assert [m.content for m in out["messages"]] == [f"tool {i}" for i in range(len(calls))]
        assert var.get() == "caller"


def test_max_concurrency_one_runs_calls_one_at_a_time():
    active, peak = [0], [0]
    lock = threading.Lock()

    @tool
    def count(n: int) -> str:
        """Track concurrency."""
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(0.005)
        with lock:
            active[0] -= 1
        return str(n)

    calls = [tc("count", {"n": i}, id=f"c{i}") for i in range(3)]
    out = run(ToolNode([count]), {"messages": [ai(*calls)]}, {**CFG, "max_concurrency": 1})
    assert [m.content for m in out["messages"]] == ["0", "1", "2"]
    assert peak[0] == 1


def test_async_path_gathers_calls_concurrently_in_order():
    started: list[int] = []

    @tool
    async def nap(n: int) -> str:
        """Wait until all three calls run, then finish in reverse order."""
        started.append(n)
        for _ in range(100):  # sequential execution would never see all three started
            if len(started) == 3:
                break
            await asyncio.sleep(0.01)
        await asyncio.sleep(0.01 * (3 - n))
        return f"{n}:{len(started)}"

    calls = [tc("nap", {"n": i}, id=f"c{i}") for i in range(3)]
    out = asyncio.run(ToolNode([nap]).ainvoke({"messages": [ai(*calls)]}, CFG))
    assert [m.content for m in out["messages"]] == ["0:3", "1:3", "2:3"]


def test_async_tool_on_the_sync_path_raises():
    @tool
    async def only_async(x: int) -> str:
        """Async only."""
        return "x"

    with pytest.raises(NotImplementedError):
        run(ToolNode([only_async]), {"messages": [ai(tc("only_async", {"x": 1}))]})


# ---- content normalisation -------------------------------------------------------------------


def test_msg_content_output():
    assert msg_content_output("plain") == "plain"
    blocks = [{"type": "text", "text": "a"}, {"type": "image_url", "image_url": {"url": "u"}}]
    assert msg_content_output(blocks) is blocks
    assert msg_content_output([{"key_1": 2, "key_2": "foo"}]) == '[{"key_1": 2, "key_2": "foo"}]'
    assert msg_content_output({"ville": "Zürich"}) == '{"ville": "Zürich"}'
    assert msg_content_output(3) == "3"
    assert msg_content_output({1, 2}) == "{1, 2}"  # not JSON-serialisable: str()


def test_tool_results_are_normalised():
    @tool
    def data() -> list:
        """Return dicts."""
        return [{"key_1": 2, "key_2": "foo"}, {"key_1": "bar", "key_2": "bäz"}]

    out = run(ToolNode([data]), {"messages": [ai(tc("data", {}))]})
    assert out["messages"][0].content == (
        '[{"key_1": 2, "key_2": "foo"}, {"key_1": "bar", "key_2": "bäz"}]'
    )


def test_unexpected_return_type_is_a_type_error():
    with pytest.raises(TypeError) as e:
        ToolNode([add])._normalize_tool_response(42, tc("add", {}), "dict")
    assert str(e.value) == "Tool add returned unexpected type: <class 'int'>"


# ---- handle_tool_errors ----------------------------------------------------------------------

INVOCATION_ERROR = (
    "Error invoking tool 'add' with kwargs {'a': 'x'} with error:\n"
    " a: Input should be a valid integer, unable to parse string as an integer\n"
    "b: Field required\n Please fix the error and try again."
)


def error_message(node: ToolNode, call: dict[str, Any]) -> ToolMessage:
    (message,) = run(node, {"messages": [ai(call)]})["messages"]
    assert message.status == "error"
    assert message.name == call["name"]
    assert message.tool_call_id == call["id"]
    return message


def test_default_reports_bad_arguments():
    message = error_message(ToolNode([add]), tc("add", {"a": "x"}))
    assert message.content == INVOCATION_ERROR


def test_default_reraises_tool_errors():
    with pytest.raises(ValueError, match="kaboom"):
        run(ToolNode([boom]), {"messages": [ai(tc("boom", {"x": 1}))]})
    with pytest.raises(ToolException, match="tool says no"):
        run(
            ToolNode([boom_tool_exception]), {"messages": [ai(tc("boom_tool_exception", {"x": 1}))]}
        )


def test_unknown_tool_is_always_reported():
    for flag in (True, False, "oops", (TypeError,)):
        node = ToolNode([add, boom], handle_tool_errors=flag)
        message = error_message(node, tc("nope", {}))
        assert message.content == "Error: nope is not a valid tool, try one of [add, boom]."


def test_true_uses_the_template_with_repr():
    node = ToolNode([boom, add], handle_tool_errors=True)
    assert error_message(node, tc("boom", {"x": 1})).content == (
        "Error: ValueError('kaboom')\n Please fix your mistakes."
    )
    assert error_message(node, tc("add", {"a": "x"})).content == (
        f"Error: {ToolInvocationError.__name__}({INVOCATION_ERROR!r})\n Please fix your mistakes."
    )


def test_string_flag():
    node = ToolNode([boom], handle_tool_errors="Oops")
    assert error_message(node, tc("boom", {"x": 1})).content == "Oops"


def test_callable_flag_filters_by_annotation():
    def handle_value_error(e: ValueError) -> str:
        return f"handled {type(e).__name__}"

    node = ToolNode([boom, boom_tool_exception], handle_tool_errors=handle_value_error)
    assert error_message(node, tc("boom", {"x": 1})).content == "handled ValueError"
    with pytest.raises(ToolException):
        run(node, {"messages": [ai(tc("boom_tool_exception", {"x": 1}))]})

    def handle_any(e) -> str:
        return f"handled {type(e).__name__}"

    node = ToolNode([add, boom_tool_exception], handle_tool_errors=handle_any)
    assert error_message(node, tc("add", {"a": "x"})).content == "handled ToolInvocationError"
    assert error_message(node, tc("boom_tool_exception", {"x": 1})).content == (
        "handled ToolException"
    )


def test_exception_type_and_tuple_flags():
    for flag in (ValueError, (TypeError, ValueError)):
        node = ToolNode([boom], handle_tool_errors=flag)
        assert error_message(node, tc("boom", {"x": 1})).content == (
            "Error: ValueError('kaboom')\n Please fix your mistakes."
        )
    node = ToolNode([boom, add], handle_tool_errors=(TypeError,))
    with pytest.raises(ValueError, match="kaboom"):
        run(node, {"messages": [ai(tc("boom", {"x": 1}))]})
    with pytest.raises(ToolInvocationError) as e:
        run(node, {"messages": [ai(tc("add", {"a": "x"}))]})
    assert e.value.message == INVOCATION_ERROR
    assert e.value.tool_name == "add"
    assert e.value.tool_kwargs == {"a": "x"}


def test_false_raises_everything_but_unknown_tools():
    node = ToolNode([boom, add], handle_tool_errors=False)
    with pytest.raises(ValueError):
        run(node, {"messages": [ai(tc("boom", {"x": 1}))]})
    with pytest.raises(ToolInvocationError):
        run(node, {"messages": [ai(tc("add", {"a": "x"}))]})


def test_tool_level_handler_wins():
    @tool
    def handled(x: int) -> str:
        """Fails, but handles it."""
        raise ToolException("inner")

    handled.handle_tool_error = "foo"
    node = ToolNode([handled], handle_tool_errors="bar")
    assert error_message(node, tc("handled", {"x": 1})).content == "foo"


@pytest.mark.parametrize("flag", [True, False, "handled", (GraphBubbleUp,), lambda e: "x"])
def test_graph_bubble_up_always_propagates(flag):
    @tool
    def interrupting(x: int) -> str:
        """Bubble up."""
        raise GraphBubbleUp()

    with pytest.raises(GraphBubbleUp):
        run(
            ToolNode([interrupting], handle_tool_errors=flag),
            {"messages": [ai(tc("interrupting", {"x": 1}))]},
        )


def test_infer_handled_types():
    def no_annotation(e):
        return ""

    def plain(e: Exception):
        return ""

    def union(e: Union[ValueError, ToolException]):
        return ""

    def pipe_union(e: ValueError | TypeError):
        return ""

    class Handler:
        def handle(self, e: ValueError) -> str:
            return ""

    assert _infer_handled_types(no_annotation) == (Exception,)
    assert _infer_handled_types(plain) == (Exception,)
    assert _infer_handled_types(union) == (ValueError, ToolException)
    assert _infer_handled_types(pipe_union) == (ValueError, TypeError)
    assert _infer_handled_types(Handler().handle) == (ValueError,)


def test_infer_handled_types_errors():
    def h_str(e: str):
        return ""

    def h_union(e: Union[str, int]):
        return ""

    def h_list(e: list[Exception]):
        return ""

    arbitrary = (
        "Arbitrary types are not supported in the error handler signature. Please annotate the "
        "error with either a specific Exception type or a union of Exception types. For example, "
        "`def custom_handler(e: ValueError)` or `def custom_handler(e: Union[ValueError, "
        "TypeError])`. Got '{}' instead."
    )
    with pytest.raises(ValueError) as e:
        _infer_handled_types(h_str)
    assert str(e.value) == arbitrary.format("<class 'str'>")
    with pytest.raises(ValueError) as e:
        _infer_handled_types(h_list)
    assert str(e.value) == arbitrary.format("list[Exception]")
    with pytest.raises(ValueError) as e:
        _infer_handled_types(h_union)
    assert str(e.value) == (
        "All types in the error handler error annotation must be Exception types. For example, "
        "`def custom_handler(e: Union[ValueError, TypeError])`. Got 'typing.Union[str, int]' "
        "instead."
    )


def test_handle_tool_error_rejects_unknown_flags():
    with pytest.raises(ValueError) as e:
        _handle_tool_error(ValueError("x"), flag=1.5)
    assert str(e.value) == (
        "Got unexpected type of `handle_tool_error`. Expected bool, str or callable. Received: 1.5"
    )


def test_invalid_handler_annotation_fails_when_an_error_happens():
    def bad(e: str) -> str:
        return e

    node = ToolNode([boom], handle_tool_errors=bad)  # building is fine
    with pytest.raises(ValueError, match="Arbitrary types are not supported"):
        run(node, {"messages": [ai(tc("boom", {"x": 1}))]})


# ---- injection -------------------------------------------------------------------------------


@tool
def need_foo(x: int, foo: Annotated[str, InjectedState("foo")]) -> str:
    """Needs the state's foo."""
    return foo + str(x)


@tool
def need_state(x: int, state: Annotated[dict, InjectedState]) -> str:
    """Needs the whole state."""
    return ",".join(sorted(state))


@tool
def need_messages(x: int, messages: Annotated[list, InjectedState("messages")]) -> str:
    """Needs the messages."""
    return str(len(messages))


@tool
def optional_foo(x: int, foo: Annotated[Optional[str], InjectedState("foo")] = None) -> str:
    """Foo may be missing."""
    return f"foo={foo}"


def test_injected_state_whole_and_field():
    state = {
        "messages": [ai(tc("need_foo", {"x": 1}, id="1"), tc("need_state", {"x": 1}, id="2"))],
        "foo": "bar",
    }
    out = run(ToolNode([need_foo, need_state]), state)
    assert [m.content for m in out["messages"]] == ["bar1", "foo,messages"]


def test_injected_state_from_an_object_state():
    class State(BaseModel):
        messages: list
        foo: str

    out = run(ToolNode([need_foo]), State(messages=[ai(tc("need_foo", {"x": 2}))], foo="baz"))
    assert out["messages"][0].content == "baz2"


def test_missing_state_field_raises_even_when_errors_are_handled():
    with pytest.raises(KeyError) as e:
        run(
            ToolNode([need_foo], handle_tool_errors=True),
            {"messages": [ai(tc("need_foo", {"x": 1}))]},
        )
    assert e.value.args == ("foo",)

    class State(BaseModel):
        messages: list

    with pytest.raises(AttributeError) as e:
        run(ToolNode([need_foo]), State(messages=[ai(tc("need_foo", {"x": 1}))]))
    assert str(e.value) == "foo"


def test_optional_state_field_may_be_missing():
    out = run(ToolNode([optional_foo]), {"messages": [ai(tc("optional_foo", {"x": 1}))]})
    assert out["messages"][0].content == "foo=None"


def test_list_input_and_injected_state():
    msgs = [ai(tc("need_messages", {"x": 1}))]
    assert run(ToolNode([need_messages]), msgs)[0].content == "1"
    assert run(ToolNode([need_state]), [ai(tc("need_state", {"x": 1}))])[0].content == "messages"
    with pytest.raises(ValueError) as e:
        run(ToolNode([need_foo], handle_tool_errors=True), [ai(tc("need_foo", {"x": 1}))])
    assert str(e.value) == (
        "Invalid input to ToolNode. Tool need_foo requires graph state dict as input. "
        "State should contain fields foo."
    )


def test_model_supplied_injected_values_are_stripped():
    @tool
    def secret(x: int, token: Annotated[str, InjectedToolArg] = "trusted") -> str:
        """Uses a hidden token."""
        return token

    forged = tc("need_state", {"x": 1, "state": {"evil": 1}})
    assert run(ToolNode([need_state]), [ai(forged)])[0].content == "messages"
    forged = tc("secret", {"x": 1, "token": "forged"})
    assert run(ToolNode([secret]), [ai(forged)])[0].content == "trusted"


def test_injected_args_are_not_reported_as_invocation_errors():
    state = {"messages": [ai(tc("need_foo", {"x": "y"}))], "foo": "bar"}
    (message,) = run(ToolNode([need_foo]), state)["messages"]
    assert message.status == "error"
    assert message.content == (
        "Error invoking tool 'need_foo' with kwargs {'x': 'y'} with error:\n"
        " x: Input should be a valid integer, unable to parse string as an integer\n"
        " Please fix the error and try again."
    )


def test_injected_store():
    @tool
    def remember(key: str, store: Annotated[Any, InjectedStore()]) -> str:
        """Read the store."""
        return store[key]

    state = {"messages": [ai(tc("remember", {"key": "k"}))]}
    config = {"configurable": {"__pregel_runtime": Runtime(store={"k": "v"})}}
    assert run(ToolNode([remember]), state, config)["messages"][0].content == "v"
    with pytest.raises(ValueError) as e:
        run(ToolNode([remember], handle_tool_errors=True), state)
    assert str(e.value) == (
        "Cannot inject store into tools with InjectedStore annotations - "
        "please compile your graph with a store."
    )


def test_tool_runtime_by_annotation_and_by_name():
    seen: list[ToolRuntime] = []

    @tool
    def annotated(x: int, rt: ToolRuntime) -> str:
        """Gets a ToolRuntime."""
        seen.append(rt)
        return "ok"

    @tool
    def named(x: int, runtime=None) -> str:
        """Gets a ToolRuntime through its name."""
        seen.append(runtime)
        return "ok"

    config = {"configurable": {"__pregel_runtime": Runtime(context={"user": "ada"}, store="S")}}
    state = {"messages": [ai(tc("annotated", {"x": 1}, id="a"), tc("named", {"x": 1}, id="b"))]}
    run(ToolNode([annotated, named]), state, config)
    assert sorted(rt.tool_call_id for rt in seen) == ["a", "b"]
    for rt in seen:
        assert isinstance(rt, ToolRuntime)
        assert rt.state is state
        assert rt.context == {"user": "ada"}
        assert rt.store == "S"
        assert [t.name for t in rt.tools] == ["annotated", "named"]
    assert "rt" not in annotated.tool_call_schema.model_json_schema()["properties"]


# ---- Command returns -------------------------------------------------------------------------


def test_command_update_gets_the_tool_name_and_is_returned_in_a_list():
    @tool
    def transfer(x: int, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
        """Return a Command."""
        return Command(
            update={"messages": [ToolMessage("moved", tool_call_id="c1")], "flag": True},
            goto="other",
        )

    out = run(
        ToolNode([transfer, add]),
        {"messages": [ai(tc("transfer", {"x": 1}), tc("add", {"a": 1, "b": 1}, id="c2"))]},
    )
    assert len(out) == 2
    command, update = out
    assert isinstance(command, Command)
    assert command.goto == "other"
    assert command.update["messages"][0].name == "transfer"
    assert command.update["flag"] is True
    assert update == {"messages": [ToolMessage("2", name="add", tool_call_id="c2")]}


def test_command_errors():
    @tool
    def no_tool_message(x: int) -> Command:
        """Forgets the ToolMessage."""
        return Command(update={"messages": [HumanMessage("hi", id="h")]})

    state = {"messages": [ai(tc("no_tool_message", {"x": 1}))]}
    with pytest.raises(ValueError) as e:
        run(ToolNode([no_tool_message]), state)
    assert str(e.value) == (
        "Expected to have a matching ToolMessage in Command.update for tool 'no_tool_message', "
        "got: [HumanMessage(content='hi', additional_kwargs={}, response_metadata={}, id='h')]. "
        "Every tool call (LLM requesting to call a tool) in the message history MUST have a "
        "corresponding ToolMessage. You can fix it by modifying the tool to return "
        '`Command(update={"messages": [ToolMessage("Success", tool_call_id=tool_call_id), ...]}, ...)`.'
    )
    with pytest.raises(ValueError) as e:
        run(ToolNode([no_tool_message]), state["messages"])
    assert str(e.value) == (
        "Tools can provide a dict in Command.update only when using dict with 'messages' key as "
        "ToolNode input, got: {'messages': [HumanMessage(content='hi', additional_kwargs={}, "
        "response_metadata={}, id='h')]} for tool 'no_tool_message'"
    )


def test_command_remove_all_messages_needs_no_tool_message():
    @tool
    def clear(x: int) -> Command:
        """Clear the history."""
        return Command(update={"messages": [RemoveMessage(id="__remove_all__")]})

    (command,) = run(ToolNode([clear]), {"messages": [ai(tc("clear", {"x": 1}))]})
    assert command.update == {"messages": [RemoveMessage(id="__remove_all__")]}


def test_parent_commands_with_sends_are_merged():
    @tool
    def hand_off(to: str, tool_call_id: Annotated[str, InjectedToolCallId]) -> Command:
        """Send to another agent."""
        return Command(graph=Command.PARENT, goto=[Send(to, {"x": 1})])

    calls = [tc("hand_off", {"to": "a"}, id="1"), tc("hand_off", {"to": "b"}, id="2")]
    out = run(ToolNode([hand_off]), {"messages": [ai(*calls)]})
    assert out == [Command(graph=Command.PARENT, goto=[Send("a", {"x": 1}), Send("b", {"x": 1})])]


def test_list_return_needs_exactly_one_terminating_tool_message():
    @tool
    def wrong_id(x: int) -> list:
        """Answers the wrong call."""
        return [ToolMessage("a", tool_call_id="zzz")]

    @tool
    def right(x: int) -> list:
        """Answers the call."""
        return [ToolMessage([{"n": 1}], tool_call_id="c1")]

    with pytest.raises(ValueError) as e:
        run(ToolNode([wrong_id]), {"messages": [ai(tc("wrong_id", {"x": 1}))]})
    assert str(e.value) == (
        "Tool wrong_id returned a list with 0 messages bound to tool_call_id 'c1'; "
        "expected exactly one terminating ToolMessage."
    )
    out = run(ToolNode([right]), {"messages": [ai(tc("right", {"x": 1}))]})
    assert out == {"messages": [ToolMessage('[{"n": 1}]', tool_call_id="c1")]}


# ---- wrap_tool_call --------------------------------------------------------------------------


def test_wrap_tool_call_can_modify_retry_and_short_circuit():
    seen: list[str] = []

    def wrapper(request: ToolCallRequest, execute):
        seen.append(request.tool_call["name"])
        if request.tool is None:
            return ToolMessage("cached", tool_call_id=request.tool_call["id"], name="cache")
        doubled = {**request.tool_call, "args": {"a": 10, "b": 20}}
        return execute(request.override(tool_call=doubled))

    node = ToolNode([add], wrap_tool_call=wrapper)
    state = {"messages": [ai(tc("add", {"a": 1, "b": 2}, id="1"), tc("ghost", {}, id="2"))]}
    out = run(node, state)
    assert [m.content for m in out["messages"]] == ["30", "cached"]
    assert sorted(seen) == ["add", "ghost"]


def test_a_failing_wrapper_is_reported_without_type_filtering():
    def wrapper(request, execute):
        raise KeyError("wrapper broke")

    node = ToolNode([add], wrap_tool_call=wrapper, handle_tool_errors=(TypeError,))
    message = error_message(node, tc("add", {"a": 1, "b": 1}))
    assert message.content == "Error: KeyError('wrapper broke')\n Please fix your mistakes."
    with pytest.raises(KeyError):
        run(
            ToolNode([add], wrap_tool_call=wrapper, handle_tool_errors=False),
            {"messages": [ai(tc("add", {"a": 1, "b": 1}))]},
        )


def test_async_path_falls_back_to_the_sync_wrapper():
    def wrapper(request, execute):
        return execute(request.override(tool_call={**request.tool_call, "args": {"a": 5, "b": 5}}))

    out = asyncio.run(
        ToolNode([add], wrap_tool_call=wrapper).ainvoke(
            {"messages": [ai(tc("add", {"a": 1, "b": 1}))]}, CFG
        )
    )
    assert out["messages"][0].content == "10"


def test_tool_call_request_override_and_setattr_warning():
    rt = ToolRuntime(
        state={"a": 1}, context=None, config={}, stream_writer=print, tool_call_id="c1", store=None
    )
    request = ToolCallRequest(tool_call=tc("add", {}), tool=add, state={"a": 1}, runtime=rt)
    new = request.override(state={"b": 2})
    assert new.state == {"b": 2} and new.runtime.state == {"b": 2}
    assert request.state == {"a": 1}
    with pytest.warns(DeprecationWarning) as w:
        request.state = {"c": 3}
    assert str(w[0].message) == (
        "Setting attribute 'state' on ToolCallRequest is deprecated. Use the override() method "
        "instead to create a new instance with modified values."
    )


# ---- tools_condition -------------------------------------------------------------------------


def test_tools_condition():
    calling = ai(tc("add", {}))
    assert tools_condition({"messages": [calling]}) == "tools"
    assert tools_condition([calling]) == "tools"
    assert (
        tools_condition({"messages": [calling, ToolMessage("x", tool_call_id="c1")]}) == "__end__"
    )
    assert tools_condition({"messages": [AIMessage("done")]}) == "__end__"
    assert tools_condition({"other": [calling]}, messages_key="other") == "tools"

    class State(BaseModel):
        messages: list

    assert tools_condition(State(messages=[calling])) == "tools"
    with pytest.raises(ValueError) as e:
        tools_condition({"messages": []})
    assert str(e.value) == "No messages found in input state to tool_edge: {'messages': []}"


def test_async_wrapper_is_awaited():
    async def awrapper(request, execute):
        result = await execute(request)
        result.content = f"wrapped {result.content}"
        return result

    node = ToolNode([add], awrap_tool_call=awrapper)
    out = asyncio.run(node.ainvoke({"messages": [ai(tc("add", {"a": 1, "b": 1}))]}, CFG))
    assert out["messages"][0].content == "wrapped 2"
