"""The benchmark scripts in ``bench/`` still do what their tables assume. Nothing here times
anything: speed is for the scripts to print, not for tests to assert.

* every variant of ``bench_agent.py`` completes a run that passes the script's own check
  (``2N + 2`` messages ending in "done"), in process and through the ``--block`` child mode;
* the blocks take turns as ``bench/README.md`` says: every round runs every N and, within
  it, every variant;
* "mini, no check" switches the history check off only while it runs;
* the two-node loop of ``bench_runtime.py`` and the workloads of ``count_instructions.py`` run.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import warnings
from pathlib import Path
from types import ModuleType, SimpleNamespace

import pytest

BENCH = Path(__file__).parents[3] / "bench"


def _load(name: str) -> ModuleType:
    """Import ``bench/<name>.py`` (a script, not a package) under its own name."""
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    with warnings.catch_warnings():  # bench_agent silences warnings for its own process
        spec.loader.exec_module(module)
    return module


bench_agent = _load("bench_agent")
MINI_VARIANTS = ["bare loop", "miniagent", "mini, no check"]
UPSTREAM_VARIANTS = ["react v2", "create_agent"]


def test_the_variant_lists_cover_the_script():
    assert sorted(MINI_VARIANTS + UPSTREAM_VARIANTS) == sorted(bench_agent.VARIANTS)


@pytest.mark.parametrize("name", MINI_VARIANTS)
def test_mini_variants_complete_checked_runs(name):
    times = bench_agent.time_block(name, 3, 2, fresh=False)
    assert len(times) == 2 and all(t > 0 for t in times)
    assert len(bench_agent.time_block(name, 2, 1, fresh=True)) == 1


@pytest.mark.parametrize("name", UPSTREAM_VARIANTS)
def test_upstream_variants_complete_checked_runs(name):
    pytest.importorskip("langgraph")
    pytest.importorskip("langchain")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        times = bench_agent.time_block(name, 3, 2, fresh=False)
    assert len(times) == 2 and all(t > 0 for t in times)


def test_the_unchecked_variant_switches_the_check_off_only_while_it_runs():
    import miniagent.prebuilt.chat_agent_executor as executor

    def is_the_real_check(function):
        return (
            function.__name__ == "_validate_chat_history"
            and function.__module__ == executor.__name__
        )

    assert is_the_real_check(executor._validate_chat_history)  # no earlier run left it off
    seen = []
    run, model = bench_agent.build_mini_unchecked(1)
    model.n_calls = 0  # answer at once: one model call, made with the check switched off
    original_generate = type(model)._generate

    def spy(self, messages, **kwargs):
        seen.append(executor._validate_chat_history)
        return original_generate(self, messages, **kwargs)

    type(model)._generate = spy
    try:
        run({"messages": [{"role": "user", "content": "go"}]}, {})
    finally:
        type(model)._generate = original_generate
    assert seen == [bench_agent._no_check]
    assert is_the_real_check(executor._validate_chat_history)


def test_a_block_child_prints_its_run_times_as_json():
    command = [sys.executable, str(BENCH / "bench_agent.py"), "--block", "miniagent", "3", "2"]
    done = subprocess.run(command, capture_output=True, text=True, check=True, timeout=50)
    times = json.loads(done.stdout.splitlines()[-1])
    assert len(times) == 2 and all(isinstance(t, float) and t > 0 for t in times)


def test_blocks_take_turns_across_n_and_variants(monkeypatch):
    calls = []

    def fake_run(command, **kwargs):
        name, n, runs = command[3], int(command[4]), int(command[5])
        calls.append((name, n, runs))
        return SimpleNamespace(stdout=json.dumps([n * 1e-6] * runs))  # 1 us per round trip

    monkeypatch.setattr(bench_agent.subprocess, "run", fake_run)
    reps = {10: 7, 1000: 3}
    table = bench_agent.per_round_trip(["a", "b"], reps, fresh=False)

    rounds = bench_agent.ROUNDS
    assert len(calls) == rounds * len(reps) * 2
    per_round = [calls[i * 4 : (i + 1) * 4] for i in range(rounds)]
    for block in per_round:
        assert [(name, n) for name, n, _ in block] == [
            ("a", 10),
            ("b", 10),
            ("a", 1000),
            ("b", 1000),
        ]
    for n, total in reps.items():
        assert sum(runs for name, m, runs in calls if name == "a" and m == n) == total
    assert table == {10: {"a": 1e-6, "b": 1e-6}, 1000: {"a": 1e-6, "b": 1e-6}}


@pytest.mark.parametrize("kind", ["mini", "upstream"])
def test_the_runtime_loop_runs_n_super_steps(kind):
    if kind == "upstream":
        pytest.importorskip("langgraph")
    bench_runtime = _load("bench_runtime")
    built = bench_runtime.build_graph(kind, 4)
    assert bench_runtime.time_run(built, 4) > 0  # it checks the history: 4 + 1 messages
    assert built[3] == {"a": 2, "b": 2}  # a, b, a, b: four super-steps


def test_the_instruction_count_workloads_run(monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))  # the workloads put bench/ on it
    count_instructions = _load("count_instructions")
    for name in ("agent", "unchecked", "runtime"):
        count_instructions.WORKLOADS[name][1](0)
