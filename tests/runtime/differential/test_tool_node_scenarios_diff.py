"""Upstream's ToolNode scenarios, run through miniagent and the pinned upstream.

Same method as ``test_react_scenarios_diff.py``: each scenario is written once against a
namespace ``ns`` and run with miniagent's and with langgraph-prebuilt 1.1.3's classes; the
normalised outputs (messages, ``Command``s, error class + exact text) must be equal.

Numbers refer to ``upstream-spec.md`` §8.3 (langgraph-prebuilt 1.1.3, ``tests/test_tool_node.py``
unless noted):

| #  | upstream test                                             | here                        |
|----|-----------------------------------------------------------|-----------------------------|
| 14 | test_tool_node_inject_state[schema] (both test files)     | test_14_inject_state        |
| 16 | test_tool_node_inject_store (test_react_agent.py)         | test_16_inject_store        |
| 17 | test_tool_node_ensure_utf8                                | test_17_ensure_utf8         |
| 41 | test_tool_node                                            | test_41_tool_node           |
| 42 | test_tool_node_tool_call_input                            | test_42_tool_call_input     |
| 43 | test_tool_node_error_handling_default_invocation/_exception | test_43_default_handler   |
| 44 | test_tool_node_error_handling                             | test_44_error_handling      |
| 45 | test_tool_node_error_handling_callable                    | test_45_error_handling_callable |
| 46 | test_tool_node_handle_tool_errors_false                   | test_46_handle_tool_errors_false |
| 47 | test_tool_node_individual_tool_error_handling             | test_47_individual_tool_error |
| 48 | test_tool_node_incorrect_tool_name                        | test_48_incorrect_tool_name |
| 49 | test_tool_node_node_interrupt                             | test_49_bubble_up           |
| 50 | test_tool_node_command[dict,tool_calls], _command_list_input, _parent_command_with_send, _command_remove_all_messages | test_50_* |
| 51 | test_tool_node_strips_*_injected_tool_arg, _injected_state_overwrites_llm_value | test_51_* |
| 52 | test_tool_node_list_return_* (7 tests)                    | test_52_list_return         |

Plus ``tools_condition`` called directly (spec §3.9; upstream has no dedicated test).

Deviation in 49: upstream annotates one handler with ``GraphInterrupt``; the miniature has no
interrupts, so the port annotates it with ``GraphBubbleUp`` (its base class).
"""

import dataclasses
from typing import Annotated, Any, NoReturn

import pytest

pytest.importorskip("langgraph")

from pydantic import BaseModel  # noqa: E402
from typing_extensions import TypedDict  # noqa: E402

from .scenario_helpers import DictStore, assert_same, attempt, runtime_config  # noqa: E402


def make_tools(ns):
    """The module-level tools of upstream's test file, built from ``ns``."""

    def tool1(some_val: int, some_other_val: str) -> str:
        """Tool 1 docstring."""
        if some_val == 0:
            raise ValueError("Test error")
        return f"{some_val} - {some_other_val}"

    async def tool2(some_val: int, some_other_val: str) -> str:
        """Tool 2 docstring."""
        if some_val == 0:
            raise ns.ToolException("Test error")
        return f"tool2: {some_val} - {some_other_val}"

    async def tool3(some_val: int, some_other_val: str) -> str:
        """Tool 3 docstring."""
        return [{"key_1": some_val, "key_2": "foo"}, {"key_1": some_other_val, "key_2": "baz"}]

    async def tool4(some_val: int, some_other_val: str) -> str:
        """Tool 4 docstring."""
        return [{"type": "image_url", "image_url": {"url": "abdc"}}]

    @ns.tool
    def tool5(some_val: int) -> NoReturn:
        """Tool 5 docstring."""
        raise ns.ToolException("Test error")

    tool5.handle_tool_error = "foo"
    return tool1, tool2, tool3, tool4, tool5


def ai(ns, *calls):
    """``{"messages": [AIMessage("hi?", tool_calls=calls)]}`` -- the usual ToolNode input."""
    return {"messages": [ns.AIMessage("hi?", tool_calls=list(calls))]}


def call(name, args, id="some 0"):
    return {"name": name, "args": args, "id": id}


# ---- 41-42: plain runs ---------------------------------------------------------------------


def tool_node(ns):
    tool1, tool2, tool3, tool4, _ = make_tools(ns)
    config = runtime_config(ns)
    return [
        ns.ToolNode([tool1]).invoke(ai(ns, call("tool1", {"some_val": 1, "some_other_val": "foo"})), config),
        attempt(lambda: ns.ToolNode([tool2]).ainvoke(
            ai(ns, call("tool2", {"some_val": 2, "some_other_val": "bar"}, "some 1")), config
        )),
        attempt(lambda: ns.ToolNode([tool3]).ainvoke(
            ai(ns, call("tool3", {"some_val": 2, "some_other_val": "bar"}, "some 2")), config
        )),
        attempt(lambda: ns.ToolNode([tool4]).ainvoke(
            ai(ns, call("tool4", {"some_val": 2, "some_other_val": "bar"}, "some 3")), config
        )),
    ]  # fmt: skip


def test_41_tool_node():
    results = assert_same(tool_node)
    assert [r["messages"][-1]["content"] for r in results] == [
        "1 - foo",
        "tool2: 2 - bar",
        '[{"key_1": 2, "key_2": "foo"}, {"key_1": "bar", "key_2": "baz"}]',
        [{"type": "image_url", "image_url": {"url": "abdc"}}],
    ]


def tool_call_input(ns):
    tool1 = make_tools(ns)[0]
    config = runtime_config(ns)
    call_1 = {**call("tool1", {"some_val": 1, "some_other_val": "foo"}), "type": "tool_call"}
    call_2 = {
        **call("tool1", {"some_val": 2, "some_other_val": "bar"}, "some 1"),
        "type": "tool_call",
    }
    call_3 = {**call_1, "name": "tool2"}
    node = ns.ToolNode([tool1])
    return [node.invoke(calls, config) for calls in ([call_1], [call_1, call_2], [call_1, call_3])]


def test_42_tool_call_input():
    single, double, unknown = assert_same(tool_call_input)
    assert [m["content"] for m in double["messages"]] == ["1 - foo", "2 - bar"]
    assert unknown["messages"][1]["content"] == (
        "Error: tool2 is not a valid tool, try one of [tool1]."
    )
    assert unknown["messages"][1]["status"] == "error"


# ---- 43-49: handle_tool_errors ---------------------------------------------------------------


def default_handler(ns):
    tool1 = make_tools(ns)[0]
    config = runtime_config(ns)
    node = ns.ToolNode([tool1])
    return [
        attempt(node.invoke, ai(ns, call("tool1", {"invalid": 0, "args": "foo"}, "some id")), config),
        attempt(node.invoke, ai(ns, call("tool1", {"some_val": 0, "some_other_val": "foo"})), config),
    ]  # fmt: skip


def test_43_default_handler():
    invocation, exception = assert_same(default_handler)
    message = invocation["messages"][0]
    assert message["status"] == "error"
    assert message["content"].startswith(
        "Error invoking tool 'tool1' with kwargs {'invalid': 0, 'args': 'foo'} with error:\n"
    )
    assert exception == ("raised", "ValueError", "Test error")


def error_handling(ns):
    tool1, tool2, tool3, _, _ = make_tools(ns)

    def handle_all(e: ValueError | ns.ToolException | ns.ToolInvocationError):
        return ns.TOOL_CALL_ERROR_TEMPLATE.format(error=repr(e))

    calls = [
        call("tool1", {"some_val": 0, "some_other_val": "foo"}, "some id"),
        call("tool2", {"some_val": 0, "some_other_val": "bar"}, "some other id"),
        call("tool3", {"some_val": 0}, "another id"),
    ]
    results = []
    for handler in (True, (ValueError, ns.ToolException, ns.ToolInvocationError), handle_all):
        node = ns.ToolNode([tool1, tool2, tool3], handle_tool_errors=handler)
        results.append(attempt(lambda n=node: n.ainvoke(ai(ns, *calls), runtime_config(ns))))
    return results


def test_44_error_handling():
    results = assert_same(error_handling)
    for result in results:
        contents = [m["content"] for m in result["messages"]]
        assert contents[0] == "Error: ValueError('Test error')\n Please fix your mistakes."
        assert contents[1] == "Error: ToolException('Test error')\n Please fix your mistakes."
        assert "some_other_val" in contents[2]
        assert {m["status"] for m in result["messages"]} == {"error"}


def error_handling_callable(ns):
    tool1, tool2, *_ = make_tools(ns)

    def handle_value_error(e: ValueError) -> str:
        return "Value error"

    def handle_tool_exception(e: ns.ToolException) -> str:
        return "Tool exception"

    bad_1 = call("tool1", {"some_val": 0, "some_other_val": "foo"}, "some id")
    bad_2 = call("tool2", {"some_val": 0, "some_other_val": "bar"}, "some other id")
    runs = [(h, [tool1], [bad_1]) for h in ("Value error", handle_value_error)]
    runs += [
        (h, [tool1, tool2], [bad_1, bad_2])
        for h in ((ValueError,), handle_value_error, (ns.ToolException,), handle_tool_exception)
    ]
    return [
        attempt(lambda h=h, t=t, c=c: ns.ToolNode(t, handle_tool_errors=h).ainvoke(
            ai(ns, *c), runtime_config(ns)
        ))
        for h, t, c in runs
    ]  # fmt: skip


def test_45_error_handling_callable():
    results = assert_same(error_handling_callable)
    assert [r["messages"][-1]["content"] for r in results[:2]] == ["Value error", "Value error"]
    assert [r[1] for r in results[2:]] == ["ToolException"] * 2 + ["ValueError"] * 2
    assert {r[2] for r in results[2:]} == {"Test error"}


def handle_tool_errors_false(ns):
    tool1, tool2, *_ = make_tools(ns)
    config = runtime_config(ns)
    return [
        attempt(ns.ToolNode([tool1], handle_tool_errors=False).invoke,
                ai(ns, call("tool1", {"some_val": 0, "some_other_val": "foo"})), config),
        attempt(lambda: ns.ToolNode([tool2], handle_tool_errors=False).ainvoke(
            ai(ns, call("tool2", {"some_val": 0, "some_other_val": "bar"})), config)),
        attempt(ns.ToolNode([tool1], handle_tool_errors=False).invoke,
                ai(ns, call("tool1", {"some_val": 0})), config),
    ]  # fmt: skip


def test_46_handle_tool_errors_false():
    value, tool, invocation = assert_same(handle_tool_errors_false)
    assert value == ("raised", "ValueError", "Test error")
    assert tool == ("raised", "ToolException", "Test error")
    assert invocation[1] == "ToolInvocationError"


def individual_tool_error(ns):
    tool5 = make_tools(ns)[4]
    node = ns.ToolNode([tool5], handle_tool_errors="bar")
    return node.invoke(ai(ns, call("tool5", {"some_val": 0})), runtime_config(ns))


def test_47_individual_tool_error():
    message = assert_same(individual_tool_error)["messages"][-1]
    assert (message["content"], message["status"]) == ("foo", "error")


def incorrect_tool_name(ns):
    tool1, tool2, *_ = make_tools(ns)
    node = ns.ToolNode([tool1, tool2])
    return node.invoke(
        ai(ns, call("tool3", {"some_val": 1, "some_other_val": "foo"})), runtime_config(ns)
    )


def test_48_incorrect_tool_name():
    message = assert_same(incorrect_tool_name)["messages"][-1]
    assert message["content"] == "Error: tool3 is not a valid tool, try one of [tool1, tool2]."
    assert message["status"] == "error"


def bubble_up(ns):
    def tool_interrupt(some_val: int) -> None:
        """Tool docstring."""
        raise ns.GraphBubbleUp("foo")

    def handle(e: ns.GraphBubbleUp) -> str:
        return "handled"

    return [
        attempt(
            ns.ToolNode([tool_interrupt], handle_tool_errors=handler).invoke,
            ai(ns, call("tool_interrupt", {"some_val": 0})),
            runtime_config(ns),
        )
        for handler in (True, (ns.GraphBubbleUp,), "handled", handle, False)
    ]


def test_49_bubble_up():
    assert assert_same(bubble_up) == [("raised", "GraphBubbleUp", "foo")] * 5


# ---- 50: tools that return Commands ------------------------------------------------------------


def command_tools(ns, as_list):
    """``transfer_to_bob`` (decorated, sync and async) and a BaseTool subclass, all returning
    ``Command(update=..., goto="bob", graph=PARENT)``; ``as_list`` picks the update shape."""

    def update(tool_call_id):
        messages = [ns.ToolMessage(content="Transferred to Bob", tool_call_id=tool_call_id)]
        return messages if as_list else {"messages": messages}

    @ns.tool
    def transfer_to_bob(tool_call_id: Annotated[str, ns.InjectedToolCallId]):
        """Transfer to Bob"""
        return ns.Command(update=update(tool_call_id), goto="bob", graph=ns.Command.PARENT)

    @ns.tool
    async def async_transfer_to_bob(tool_call_id: Annotated[str, ns.InjectedToolCallId]):
        """Transfer to Bob"""
        return ns.Command(update=update(tool_call_id), goto="bob", graph=ns.Command.PARENT)

    class CustomToolSchema(BaseModel):
        tool_call_id: Annotated[str, ns.InjectedToolCallId]

    class MyCustomTool(ns.BaseTool):
        def _run(*args: Any, **kwargs: Any):
            return ns.Command(
                update=update(kwargs["tool_call_id"]), goto="bob", graph=ns.Command.PARENT
            )

        async def _arun(*args: Any, **kwargs: Any):
            return ns.Command(
                update=update(kwargs["tool_call_id"]), goto="bob", graph=ns.Command.PARENT
            )

    custom = MyCustomTool(
        name="custom_transfer_to_bob", description="Transfer to bob", args_schema=CustomToolSchema
    )
    async_custom = MyCustomTool(
        name="async_custom_transfer_to_bob",
        description="Transfer to bob",
        args_schema=CustomToolSchema,
    )
    return transfer_to_bob, async_transfer_to_bob, custom, async_custom


def command_returns(ns, input_type):
    as_list = input_type == "list"
    transfer, async_transfer, custom, async_custom = command_tools(ns, as_list)
    config = runtime_config(ns)

    def add(a: int, b: int) -> int:
        """Add two numbers"""
        return a + b

    def node_input(*calls):
        calls = [{**c, "type": "tool_call"} for c in calls]
        if input_type == "tool_calls":
            return calls
        message = ns.AIMessage("", tool_calls=calls)
        return [message] if as_list else {"messages": [message]}

    results = [
        ns.ToolNode([add, transfer]).invoke(
            node_input(call("add", {"a": 1, "b": 2}, "1"), call("transfer_to_bob", {}, "2")), config
        )
    ]
    for t in (transfer, custom):
        results.append(ns.ToolNode([t]).invoke(node_input(call(t.name, {}, "1")), config))
    for t in (async_transfer, async_custom):
        results.append(
            attempt(lambda t=t: ns.ToolNode([t]).ainvoke(node_input(call(t.name, {}, "1")), config))
        )
    results.append(
        ns.ToolNode([transfer, custom]).invoke(
            node_input(call("transfer_to_bob", {}, "1"), call("custom_transfer_to_bob", {}, "2")),
            config,
        )
    )

    # validation: wrong update shape, no ToolMessage, mismatching id; parent graph is exempt
    @ns.tool
    def wrong_shape_tool(tool_call_id: Annotated[str, ns.InjectedToolCallId]):
        """My tool"""
        message = ns.ToolMessage(content="foo", tool_call_id=tool_call_id)
        return ns.Command(update={"messages": [message]} if as_list else [message])

    @ns.tool
    def no_update_tool():
        """My tool"""
        return ns.Command(update=[] if as_list else {"messages": []})

    @ns.tool
    def mismatching_tool_call_id_tool():
        """My tool"""
        message = ns.ToolMessage(content="foo", tool_call_id="2")
        return ns.Command(update=[message] if as_list else {"messages": [message]})

    @ns.tool
    def node_update_parent_tool():
        """No update"""
        return ns.Command(update=[] if as_list else {"messages": []}, graph=ns.Command.PARENT)

    for t in (
        wrong_shape_tool,
        no_update_tool,
        mismatching_tool_call_id_tool,
        node_update_parent_tool,
    ):
        results.append(attempt(ns.ToolNode([t]).invoke, node_input(call(t.name, {}, "1")), config))
    return results


@pytest.mark.parametrize("input_type", ["dict", "tool_calls", "list"])
def test_50_command(input_type):
    results = assert_same(command_returns, input_type=input_type)
    plain_result, command = results[0]
    messages = plain_result if input_type == "list" else plain_result["messages"]
    assert messages[0]["content"] == "3"
    assert command["Command"]["goto"] == "bob"
    for batch in results[1:6]:
        for command in batch:
            update = command["Command"]["update"]
            messages = update if input_type == "list" else update["messages"]
            assert messages[0]["content"] == "Transferred to Bob"
            assert messages[0]["name"] is not None  # ToolNode fills the tool's name
    assert [(r[0], r[1]) for r in results[6:9]] == [("raised", "ValueError")] * 3
    assert results[9][0]["Command"]["graph"] == "__parent__"


def parent_command_with_send(ns):
    def make(target):
        @ns.tool(f"transfer_to_{target}")
        def transfer(tool_call_id: Annotated[str, ns.InjectedToolCallId]):
            """Transfer"""
            message = ns.ToolMessage(
                content=f"Transferred to {target}",
                name=f"transfer_to_{target}",
                tool_call_id=tool_call_id,
            )
            return ns.Command(
                goto=[ns.Send(target, {"messages": [message]})], graph=ns.Command.PARENT
            )

        return transfer

    calls = [
        {"args": {}, "id": "1", "name": "transfer_to_alice", "type": "tool_call"},
        {"args": {}, "id": "2", "name": "transfer_to_bob", "type": "tool_call"},
    ]
    node = ns.ToolNode([make("alice"), make("bob")])
    return node.invoke([ns.AIMessage("", tool_calls=calls)], runtime_config(ns))


def test_50_parent_command_with_send():
    result = assert_same(parent_command_with_send)
    assert len(result) == 1
    sends = result[0]["Command"]["goto"]
    assert [s["Send"]["node"] for s in sends] == ["alice", "bob"]


def command_remove_all_messages(ns):
    @ns.tool
    def remove_all_messages_tool(tool_call_id: Annotated[str, ns.InjectedToolCallId]):
        """A tool that removes all messages."""
        return ns.Command(update={"messages": [ns.RemoveMessage(id=ns.REMOVE_ALL_MESSAGES)]})

    node = ns.ToolNode([remove_all_messages_tool])
    return attempt(
        lambda: node.ainvoke(
            ai(ns, call("remove_all_messages_tool", {}, "tool_call_123")), runtime_config(ns)
        )
    )


def test_50_command_remove_all_messages():
    (command,) = assert_same(command_remove_all_messages)
    assert command["Command"]["update"]["messages"][0]["type"] == "remove"


# ---- 51: values the model must not supply --------------------------------------------------------


def strips_injected(ns):
    class InjectedAuth(ns.InjectedToolArg):
        pass

    @ns.tool
    def read_plain(query: str, auth: Annotated[dict, ns.InjectedToolArg()]) -> str:
        """Return secret data based on auth role."""
        return "ADMIN_SECRET" if auth.get("role") == "admin" else "PUBLIC_DATA"

    @ns.tool
    def read_custom(query: str, auth: Annotated[dict, InjectedAuth()]) -> str:
        """Return secret data based on auth role."""
        return "ADMIN_SECRET" if auth.get("role") == "admin" else "PUBLIC_DATA"

    @ns.tool
    def read_state(query: str, auth: Annotated[dict, ns.InjectedState("auth")]) -> str:
        """Return secret data based on auth from graph state."""
        return "ADMIN_SECRET" if auth.get("role") == "admin" else "PUBLIC_DATA"

    args = {"query": "hello", "auth": {"role": "admin"}}
    results = []
    for t in (read_plain, read_custom):
        node = ns.ToolNode([t], handle_tool_errors=True)
        results.append(node.invoke(ai(ns, call(t.name, args, "call-1")), runtime_config(ns)))
    state = {**ai(ns, call("read_state", args, "call-1")), "auth": {"role": "viewer"}}
    results.append(ns.ToolNode([read_state]).invoke(state, runtime_config(ns)))
    return results


def test_51_strips_injected_args():
    plain, custom, from_state = assert_same(strips_injected)
    for result in (plain, custom):
        assert "ADMIN_SECRET" not in result["messages"][-1]["content"]
        assert result["messages"][-1]["status"] == "error"
    assert from_state["messages"][-1]["content"] == "PUBLIC_DATA"


# ---- 52: tools that return a list of Commands / ToolMessages ------------------------------------


def list_returns(ns):
    class ReturningTool(ns.BaseTool):
        name: str = "list_tool"
        description: str = "Returns a configured value"
        return_value: Any = None

        def _run(self, **kwargs: Any) -> Any:
            return self.return_value

        async def _arun(self, **kwargs: Any) -> Any:
            return self.return_value

    def run(value, handle_tool_errors=True, use_async=False):
        node = ns.ToolNode(
            [ReturningTool(return_value=value)], handle_tool_errors=handle_tool_errors
        )
        payload = ai(ns, {"name": "list_tool", "args": {}, "id": "call-1", "type": "tool_call"})
        if use_async:
            return attempt(lambda: node.ainvoke(payload, runtime_config(ns)))
        return attempt(node.invoke, payload, runtime_config(ns))

    def done(content="done", tool_call_id="call-1"):
        return ns.ToolMessage(content=content, tool_call_id=tool_call_id)

    results = [
        run([ns.Command(update={"foo": "bar"}), done()]),
        run([ns.Command(update={"foo": "bar"}), ns.Command(update={"messages": [done()]})]),
        run([ns.Command(graph=ns.Command.PARENT, goto=[ns.Send("child", {})]), done("ok")]),
        run([ns.Command(update={"foo": "bar"})], handle_tool_errors=False),
        run([done("a"), done("b")], handle_tool_errors=False),
        run([ns.Command(update={"foo": "bar"})]),
        run([ns.Command(update={"foo": "bar"}), done()], use_async=True),
    ]

    def regular_tool(x: int) -> str:
        """A normal tool."""
        return f"regular: {x}"

    mixed = ns.ToolNode(
        [
            ReturningTool(
                return_value=[ns.Command(update={"foo": "bar"}), done("list done", "call-list")]
            ),
            regular_tool,
        ]
    )
    calls = [
        {"name": "list_tool", "args": {}, "id": "call-list", "type": "tool_call"},
        {"name": "regular_tool", "args": {"x": 7}, "id": "call-regular", "type": "tool_call"},
    ]
    results.append(mixed.invoke(ai(ns, *calls), runtime_config(ns)))
    return results


def test_52_list_return():
    results = assert_same(list_returns)
    assert "0 messages bound to tool_call_id" in results[3][2]
    assert "2 messages bound to tool_call_id" in results[4][2]
    assert results[5]["messages"][0]["status"] == "error"
    assert "0 messages bound to tool_call_id" in results[5]["messages"][0]["content"]
    assert results[6][0]["Command"]["update"] == {"foo": "bar"}
    mixed = results[7]
    assert [m["tool_call_id"] for r in mixed if "messages" in r for m in r["messages"]] == [
        "call-list",
        "call-regular",
    ]


# ---- 14, 16, 17: injection and content normalisation ------------------------------------------------


class _PydanticState(BaseModel):
    messages: list
    foo: str


@dataclasses.dataclass
class _DataclassState:
    messages: list
    foo: str


class _TypedDictState(TypedDict):
    messages: list
    foo: str


def inject_state(ns, schema):
    def tool1(some_val: int, state: Annotated[Any, ns.InjectedState]) -> str:
        """Tool 1 docstring."""
        return state["foo"] if isinstance(state, dict) else state.foo

    def tool2(some_val: int, state: Annotated[Any, ns.InjectedState()]) -> str:
        """Tool 2 docstring."""
        return state["foo"] if isinstance(state, dict) else state.foo

    def tool3(
        some_val: int,
        foo: Annotated[str, ns.InjectedState("foo")],
        msgs: Annotated[list[ns.AnyMessage], ns.InjectedState("messages")],
    ) -> str:
        """Tool 1 docstring."""
        return foo

    def tool4(
        some_val: int, msgs: Annotated[list[ns.AnyMessage], ns.InjectedState("messages")]
    ) -> str:
        """Tool 1 docstring."""
        return msgs[0].content

    node = ns.ToolNode([tool1, tool2, tool3, tool4], handle_tool_errors=True)
    config = runtime_config(ns)
    results = []
    for name in ("tool1", "tool2", "tool3", "tool4"):
        msg = ns.AIMessage("hi?", tool_calls=[{**call(name, {"some_val": 1}), "type": "tool_call"}])
        results.append(attempt(node.invoke, schema(messages=[msg], foo="bar"), config))
        results.append(attempt(node.invoke, [msg], config))
        if schema is _TypedDictState:  # a dict without "foo"
            results.append(attempt(node.invoke, {"messages": [msg], "notfoo": "bar"}, config))
    return results


@pytest.mark.parametrize("schema", [_TypedDictState, _PydanticState, _DataclassState])
def test_14_inject_state(schema):
    results = assert_same(inject_state, schema=schema)
    step = 3 if schema is _TypedDictState else 2
    assert [results[i]["messages"][-1]["content"] for i in range(0, 4 * step, step)] == [
        "bar",
        "bar",
        "bar",
        "hi?",
    ]
    assert "KeyError" in results[1][-1]["content"]  # whole state is [msg]: state["foo"] fails
    assert results[2 * step + 1][:2] == ("raised", "ValueError")  # tool3 needs a state dict
    assert results[3 * step + 1][-1]["content"] == "hi?"
    if schema is _TypedDictState:
        assert "KeyError" in results[2]["messages"][-1]["content"]  # raised inside the tool
        assert results[8][:2] == ("raised", "KeyError")  # injection is outside the guard


def inject_store(ns):
    store = DictStore()
    store.put(("test",), "test_key", {"foo": "bar"})

    def tool1(some_val: int, store: Annotated[Any, ns.InjectedStore()]) -> str:
        """Tool 1 docstring."""
        return f"Some val: {some_val}, store val: {store.get(('test',), 'test_key').value['foo']}"

    def tool3(
        some_val: int,
        bar: Annotated[str, ns.InjectedState("bar")],
        store: Annotated[Any, ns.InjectedStore()],
    ) -> str:
        """Tool 3 docstring."""
        value = store.get(("test",), "test_key").value["foo"]
        return f"Some val: {some_val}, store val: {value}, state val: {bar}"

    node = ns.ToolNode([tool1, tool3], handle_tool_errors=True)

    class State(ns.MessagesState):
        bar: str

    builder = ns.StateGraph(State)
    builder.add_node("tools", node)
    builder.add_edge(ns.START, "tools")
    graph = builder.compile(store=store)
    results = []
    for name, extra in (("tool1", {}), ("tool3", {"bar": "baz"})):
        msg = ns.AIMessage("hi?", tool_calls=[{**call(name, {"some_val": 1}), "type": "tool_call"}])
        results.append(node.invoke({"messages": [msg], **extra}, runtime_config(ns, store)))
        results.append(graph.invoke({"messages": [msg], **extra}))
    results.append(attempt(builder.compile().invoke, {"messages": [msg], "bar": "baz"}))
    return results


def test_16_inject_store():
    results = assert_same(inject_store)
    assert results[0]["messages"][-1]["content"] == "Some val: 1, store val: bar"
    assert results[3]["messages"][-1]["content"] == "Some val: 1, store val: bar, state val: baz"
    assert results[4][:2] == ("raised", "ValueError")


def ensure_utf8(ns):
    @ns.tool
    def get_day_list(days: list[str]) -> list[str]:
        """choose days"""
        return days

    data = ["星期一", "水曜日", "목요일", "Friday"]
    calls = [ns.ToolCall(name="get_day_list", args={"days": data}, id="test_id")]
    return ns.ToolNode([get_day_list]).invoke(
        [ns.AIMessage(content="", tool_calls=calls)], runtime_config(ns)
    )


def test_17_ensure_utf8():
    (message,) = assert_same(ensure_utf8)
    assert message["content"] == '["星期一", "水曜日", "목요일", "Friday"]'


# ---- tools_condition -------------------------------------------------------------------------------


def tools_condition_cases(ns):
    with_call = ns.AIMessage("", tool_calls=[call("t", {}, "1")])
    plain = ns.AIMessage("done")
    answer = ns.ToolMessage("x", tool_call_id="1")
    states = [
        [with_call],
        [plain],
        {"messages": [with_call]},
        {"messages": [with_call, answer]},
        {"messages": []},
        {"other": [with_call]},
    ]
    results = [attempt(ns.tools_condition, s) for s in states]
    results.append(attempt(ns.tools_condition, {"other": [with_call]}, messages_key="other"))
    return results


def test_tools_condition():
    results = assert_same(tools_condition_cases)
    assert results[:4] == ["tools", "__end__", "tools", "__end__"]
    assert results[4][:2] == results[5][:2] == ("raised", "ValueError")
    assert results[6] == "tools"
