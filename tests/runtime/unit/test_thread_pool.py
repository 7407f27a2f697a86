"""The thread pool behind ``ToolNode`` (``get_executor_for_config``): upstream's rules, reused threads.

Upstream builds a new ``ThreadPoolExecutor`` per ``with`` block; the miniature's pool keeps the
same rules (``max_concurrency``, first in first started, ``map`` in input order, a context copy
per call, errors and cancelling as ``concurrent.futures``, ``shutdown`` waits) but borrows parked
worker threads. The one risk of sharing threads is a deadlock when a tool runs another agent
whose ``ToolNode`` maps its own calls while the outer call waits: the nested-agent tests below
show it cannot happen, with parallel calls at both levels and with ``max_concurrency=1``.
"""

from __future__ import annotations

import contextvars
import threading
import time
from concurrent.futures import CancelledError, Future
from typing import Any

import pytest

from miniagent.messages import AIMessage, HumanMessage, ToolMessage
from miniagent.prebuilt import ToolNode, create_react_agent
from miniagent.runnables.config import (
    _DEFAULT_MAX_WORKERS,
    ContextThreadPoolExecutor,
    get_executor_for_config,
    var_child_runnable_config,
)
from miniagent.runtime import Runtime
from miniagent.testing import ScriptedChatModel
from miniagent.tools import tool

TIMEOUT = 30  # seconds: a deadlock fails the test instead of hanging the run


def finishes(fn: Any, *args: Any) -> Any:
    """``fn(*args)`` in a daemon thread; fail (instead of hang) if it does not finish in time."""
    outcome: dict[str, Any] = {}

    def work() -> None:
        try:
            outcome["value"] = fn(*args)
        except BaseException as e:  # noqa: BLE001 -- re-raised below
            outcome["error"] = e

    thread = threading.Thread(target=work, daemon=True)
    thread.start()
    thread.join(TIMEOUT)
    assert not thread.is_alive(), "deadlock: the run did not finish"
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def calls(name: str, n: int, prefix: str) -> list[dict[str, Any]]:
    return [{"name": name, "args": {"i": i}, "id": f"{prefix}{i}"} for i in range(n)]


# ---- nested agents: a tool that runs another agent, parallel calls at both levels ---------------


def nested_agents(outer_calls: int, inner_calls: int, version: str) -> list[Any]:
    """An outer agent whose ``outer_calls`` parallel calls each run an inner agent with
    ``inner_calls`` parallel calls of its own.

    With ``version="v1"`` one ``ToolNode`` maps all calls of a level through its pool, and the
    calls wait for each other (a barrier as wide as the pool): every outer call sits in a pool
    thread, waiting for its inner agent, while the inner agents' pools run. (With ``"v2"`` each
    call is its own ``Send`` task, which the miniature's loop runs one after another.)
    """
    width = _DEFAULT_MAX_WORKERS  # how many calls a default pool runs at once

    def barrier(calls: int) -> Any:
        if version == "v1":
            return threading.Barrier(min(calls, width), timeout=TIMEOUT)
        return None

    def inner_agent(tag: str) -> Any:
        inner_barrier = barrier(inner_calls)

        @tool
        def leaf(i: int) -> str:
            """Wait for the sibling calls, then answer."""
            if inner_barrier:
                inner_barrier.wait()
            return f"{tag}.{i}"

        model = ScriptedChatModel(
            [AIMessage("", tool_calls=calls("leaf", inner_calls, f"{tag}-")), AIMessage("inner")]
        )
        return create_react_agent(model, [leaf], version=version)

    outer_barrier = barrier(outer_calls)

    @tool
    def ask_inner(i: int) -> str:
        """Run an inner agent while the sibling calls run theirs."""
        if outer_barrier:
            outer_barrier.wait()
        result = inner_agent(f"o{i}").invoke({"messages": [HumanMessage("go")]})
        return ",".join(m.content for m in result["messages"] if isinstance(m, ToolMessage))

    model = ScriptedChatModel(
        [AIMessage("", tool_calls=calls("ask_inner", outer_calls, "o-")), AIMessage("outer")]
    )
    agent = create_react_agent(model, [ask_inner], version=version)
    return finishes(agent.invoke, {"messages": [HumanMessage("go")]})["messages"]


W = _DEFAULT_MAX_WORKERS  # as many calls as a default pool runs at once


@pytest.mark.parametrize("version", ["v1", "v2"])
@pytest.mark.parametrize("outer_calls, inner_calls", [(2, 2), (W, W), (2 * W, W)])
def test_a_tool_that_runs_an_agent_cannot_deadlock(version, outer_calls, inner_calls):
    messages = nested_agents(outer_calls, inner_calls, version)
    answers = [m.content for m in messages if isinstance(m, ToolMessage)]
    assert answers == [
        ",".join(f"o{i}.{j}" for j in range(inner_calls)) for i in range(outer_calls)
    ]
    assert messages[-1].content == "outer"


def test_nested_pools_with_max_concurrency_one():
    """Every pool runs one call at a time, and each call waits on a pool opened inside it."""

    def depth(level: int) -> str:
        if level == 0:
            return threading.current_thread().name
        with get_executor_for_config({"max_concurrency": 1}) as executor:
            return "/".join(executor.map(depth, [level - 1, level - 1]))

    names = finishes(depth, 4).split("/")
    assert len(names) == 16


def test_many_pools_waiting_at_once_each_get_their_own_threads():
    """More waiting calls than any default pool has workers: no pool waits for another's thread."""
    width = 40
    barrier = threading.Barrier(width, timeout=TIMEOUT)

    def wait_for_all(_: int) -> int:
        barrier.wait()
        return 1

    def one_pool(_: int) -> int:
        with get_executor_for_config(None) as executor:  # each pool runs one waiting call
            return sum(executor.map(wait_for_all, [0]))

    with get_executor_for_config({"max_concurrency": width}) as executor:
        assert finishes(lambda: sum(executor.map(one_pool, range(width)))) == width


# ---- the rules of ThreadPoolExecutor --------------------------------------------------------------


def test_max_workers_limits_running_calls():
    active, peak = [0], [0]
    lock = threading.Lock()

    def work(i: int) -> int:
        with lock:
            active[0] += 1
            peak[0] = max(peak[0], active[0])
        time.sleep(0.002)
        with lock:
            active[0] -= 1
        return i * i

    with get_executor_for_config({"max_concurrency": 2}) as executor:
        assert list(executor.map(work, range(8))) == [i * i for i in range(8)]
    assert peak[0] == 2


def test_waiting_calls_start_first_in_first_out():
    started: list[int] = []
    with get_executor_for_config({"max_concurrency": 1}) as executor:
        list(executor.map(started.append, range(8)))
    assert started == list(range(8))


def test_the_default_size_is_pythons():
    import os

    cpus = (getattr(os, "process_cpu_count", None) or os.cpu_count)() or 1
    with get_executor_for_config({}) as executor:
        assert executor._max_workers == min(32, cpus + 4)


def test_max_concurrency_zero_is_refused_as_by_thread_pool_executor():
    from concurrent.futures import ThreadPoolExecutor

    with pytest.raises(ValueError) as upstream:
        ThreadPoolExecutor(max_workers=0)
    with pytest.raises(ValueError) as ours:
        with get_executor_for_config({"max_concurrency": 0}):
            pass
    assert str(ours.value) == str(upstream.value)


def test_an_error_is_raised_in_its_turn():
    def work(i: int) -> int:
        if i == 1:
            raise KeyError("one")
        return i

    with get_executor_for_config(None) as executor:
        results = executor.map(work, range(3))
        assert next(results) == 0
        with pytest.raises(KeyError):
            next(results)
        with pytest.raises(StopIteration):  # the iterator is finished after the error
            next(results)


def test_leaving_the_block_waits_for_every_call():
    done: list[int] = []

    def slow(i: int) -> None:
        time.sleep(0.01)
        done.append(i)

    with get_executor_for_config(None) as executor:
        executor.map(slow, range(3))  # results never read
    assert sorted(done) == [0, 1, 2]
    with pytest.raises(RuntimeError, match="after shutdown"):
        executor.map(slow, [0])


def test_a_timeout_cancels_the_calls_not_started():
    gate = threading.Event()
    ran: list[int] = []

    def work(i: int) -> None:
        ran.append(i)
        gate.wait(TIMEOUT)

    with get_executor_for_config({"max_concurrency": 1}) as executor:
        results = executor.map(work, range(4), timeout=0.01)
        with pytest.raises(TimeoutError):
            next(results)
        gate.set()
    assert ran == [0]  # 1, 2 and 3 were waiting for the one worker: cancelled, never run


def test_submit_returns_a_future_that_runs_in_the_callers_context():
    var: contextvars.ContextVar[str] = contextvars.ContextVar("pool_var", default="unset")
    var.set("caller")
    with ContextThreadPoolExecutor(max_workers=1) as executor:
        future = executor.submit(lambda: var.get())
        failing = executor.submit(lambda: 1 / 0)
    assert isinstance(future, Future) and future.result() == "caller"
    with pytest.raises(ZeroDivisionError):
        failing.result()


def test_a_pending_submitted_call_can_be_cancelled():
    gate = threading.Event()
    with ContextThreadPoolExecutor(max_workers=1) as executor:
        first = executor.submit(gate.wait, TIMEOUT)
        second = executor.submit(lambda: "never")
        assert second.cancel()
        gate.set()
    assert first.result() is True
    with pytest.raises(CancelledError):
        second.result()


def test_each_call_sees_a_copy_of_the_callers_current_config():
    seen: list[Any] = []
    token = var_child_runnable_config.set({"tags": ["outer"]})
    try:

        def read(_: int) -> None:
            seen.append(var_child_runnable_config.get())
            var_child_runnable_config.set({"tags": ["changed"]})  # only in the call's copy

        with get_executor_for_config(None) as executor:
            list(executor.map(read, range(3)))
        assert seen == [{"tags": ["outer"]}] * 3
        assert var_child_runnable_config.get() == {"tags": ["outer"]}
    finally:
        var_child_runnable_config.reset(token)


def test_threads_are_reused_across_pools():
    """The speed shortcut: a pool borrows a parked worker thread instead of starting one."""

    def name(_: int) -> str:
        return threading.current_thread().name

    names = set()
    for _ in range(20):
        with get_executor_for_config(None) as executor:
            names.update(executor.map(name, [0]))
    assert threading.current_thread().name not in names  # always a pool thread...
    assert len(names) < 20  # ...but not a new one each time


def test_a_single_tool_call_runs_in_a_pool_thread():
    """Day 11: always the pool, even for a single call."""

    @tool
    def where(i: int) -> str:
        """Name the thread."""
        return threading.current_thread().name

    node = ToolNode([where])
    config = {"configurable": {"__pregel_runtime": Runtime()}}
    out = node.invoke({"messages": [AIMessage("", tool_calls=calls("where", 1, "w"))]}, config)
    assert out["messages"][0].content != threading.current_thread().name
