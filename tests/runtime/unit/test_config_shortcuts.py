"""The config shortcuts taken for speed change nothing a Runnable can observe.

Three places skip a config copy that upstream makes (each marked "Not in upstream" in the
source): ``RunnableSequence`` makes one child config instead of one per step,
``RunnableCallable`` does not re-enter a current config that names no run, and
``RunnableBinding`` hands a chat model the current config instead of a merged copy of it.
Each test runs the same call with the shortcut and with it switched off, and compares what
the code inside sees.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from miniagent.messages import AIMessage
from miniagent.models import BaseChatModel
from miniagent.runnables import (
    RunnableConfig,
    RunnableLambda,
    ensure_config,
    merge_configs,
    set_config_context,
    var_child_runnable_config,
)
from miniagent.runnables import base as base_module
from miniagent.runnables import callable as callable_module
from miniagent.runnables import config as config_module
from miniagent.runnables.callable import RunnableCallable
from miniagent.runnables.config import _child_config


class ConfigRecorder:
    """A callback handler that keeps the config each chat model call ran with."""

    def __init__(self) -> None:
        self.configs: list[dict[str, Any]] = []

    def on_chat_model_end(self, message: Any, config: dict[str, Any]) -> None:
        self.configs.append(config)


class EchoModel(BaseChatModel):
    def _generate(self, messages: list, **kwargs: Any) -> AIMessage:
        return AIMessage(f"tools={len(kwargs.get('tools', []))}", id="a")

    @property
    def _llm_type(self) -> str:
        return "echo"


CURRENT_CONFIGS = [
    {},
    {"recursion_limit": 7, "metadata": {"k": "v"}, "configurable": {"thread_id": "t"}},
    {"tags": ["b", "a", "b"], "metadata": {"langgraph_node": "agent"}},  # merging sorts tags
    {"run_name": "agent", "max_concurrency": 2, "configurable": {"model": "m"}},
]


def _model_config(current: dict[str, Any], recorder: ConfigRecorder) -> dict[str, Any]:
    binding = EchoModel().bind(tools=[{"name": "t"}])
    base = ensure_config({**current, "callbacks": [recorder]})
    with set_config_context(base):
        reply = binding.invoke("hi", base)
    assert reply.content == "tools=1"
    return recorder.configs.pop()


@pytest.mark.parametrize("current", CURRENT_CONFIGS)
def test_binding_hands_the_model_the_config_a_merge_would(
    current: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    recorder = ConfigRecorder()
    fast = _model_config(current, recorder)
    monkeypatch.setattr(base_module, "_merges_to_itself", lambda *args: False)
    assert fast == _model_config(current, recorder)


def test_binding_shortcut_only_for_models_that_copy_their_config() -> None:
    seen: list[dict[str, Any]] = []

    def keep(x: Any, config: RunnableConfig) -> Any:
        seen.append(config)
        return x

    binding = RunnableCallable(keep).bind()
    current = ensure_config({"metadata": {"k": "v"}})
    with set_config_context(current):
        binding.invoke(1, current)
        expected = merge_configs({}, current)  # the general path
    assert seen[0] == expected
    assert seen[0] is not current  # a function that may change its config gets its own copy


def test_every_step_of_a_sequence_sees_the_child_config() -> None:
    views: list[Any] = []

    def step(x: int, config: RunnableConfig) -> int:
        views.append((config, ensure_config()))
        return x + 1

    outer = {"run_name": "outer", "tags": ["t"], "metadata": {"m": 1}, "recursion_limit": 5}
    seq = RunnableLambda(step) | RunnableLambda(step) | RunnableCallable(step)
    assert seq.invoke(1, outer) == 4
    child = _child_config(ensure_config(outer))  # what upstream's patch_config gives each step
    assert "run_name" not in child
    for passed, current in views:
        assert passed == child
        assert current == child


def test_callable_skips_entering_a_current_config_that_names_no_run(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def inner(x: int) -> dict[str, Any]:
        return ensure_config()

    current = ensure_config({"metadata": {"k": "v"}, "recursion_limit": 9})
    r = RunnableCallable(inner)
    named = {**current, "run_name": "node"}  # names a run: the child config drops the name
    with set_config_context(named):
        assert "run_name" not in r.invoke(1, named)
    with set_config_context(current):
        fast = r.invoke(1, current)
        monkeypatch.setattr(callable_module, "_is_current_child", lambda config: False)
        slow = r.invoke(1, current)
    assert fast == slow


# ---- ensure_config: the copy of an already-ensured config ---------------------------------------

_VALUES = {
    "tags": st.one_of(st.none(), st.lists(st.sampled_from(["a", "b"]), max_size=2)),
    "metadata": st.one_of(st.none(), st.dictionaries(st.sampled_from(["m", "n"]), st.integers())),
    "callbacks": st.one_of(st.none(), st.lists(st.sampled_from(["h1", "h2"]), max_size=2)),
    "recursion_limit": st.one_of(st.none(), st.integers(1, 50)),
    "configurable": st.one_of(
        st.none(),
        st.dictionaries(
            st.sampled_from(["checkpoint_ns", "model", "thread_id"]), st.sampled_from(["x", "y"])
        ),
    ),
    "run_name": st.one_of(st.none(), st.sampled_from(["agent", "tools"])),
    "run_id": st.one_of(st.none(), st.just("r")),
    "thread_id": st.sampled_from(["t1", "t2"]),  # not a config key: goes into configurable
}
RAW_CONFIG = st.fixed_dictionaries({}, optional=_VALUES)


@st.composite
def config_pairs(draw: Any) -> tuple[Any, Any]:
    """(current config, config passed): each raw, ensured, or the current one itself."""
    kind = draw(st.sampled_from(["none", "raw", "ensured", "ensured"]))
    current = None if kind == "none" else draw(RAW_CONFIG)
    if kind == "ensured":  # what a graph or an outer Runnable sets
        current = ensure_config(current)
        if draw(st.booleans()):
            current["run_name"] = draw(st.sampled_from(["agent", "tools"]))
    kind = draw(st.sampled_from(["none", "raw", "current", "ensured", "ensured"]))
    given = {"none": None, "current": current}.get(kind, draw(RAW_CONFIG))
    if kind == "ensured":
        given = ensure_config(given)
    return current, given


def _ensure(current: Any, given: Any) -> Any:
    token = var_child_runnable_config.set(current)
    try:
        return ensure_config(given)
    finally:
        var_child_runnable_config.reset(token)


@settings(max_examples=1000, deadline=None)
@given(config_pairs())
@example((ensure_config({"callbacks": ["h1"]}), ensure_config({})))  # None leaves it to current
@example(({**ensure_config({}), "run_name": "agent"}, ensure_config({})))  # a key only current has
def test_ensure_config_copy_of_an_ensured_config_equals_the_general_path(pair: Any) -> None:
    current, given = pair
    fast = _ensure(current, given)
    with mock.patch.object(config_module, "_copy_ensured", lambda config: None):
        slow = _ensure(current, given)
    assert fast == slow
    assert list(fast) == list(slow)  # the same keys in the same order
    for key in ("tags", "metadata", "configurable"):  # copies, never the caller's objects
        assert given is None or fast[key] is not given.get(key)
        assert current is None or fast[key] is not current.get(key)
