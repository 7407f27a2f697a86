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

import pytest

from miniagent.messages import AIMessage
from miniagent.models import BaseChatModel
from miniagent.runnables import (
    RunnableConfig,
    RunnableLambda,
    ensure_config,
    merge_configs,
    set_config_context,
)
from miniagent.runnables import base as base_module
from miniagent.runnables import callable as callable_module
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
    for given, current in views:
        assert given == child
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
