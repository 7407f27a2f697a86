"""The benchmark scripts in ``bench/`` still run and measure what their tables say. Nothing here
times anything: speed is for the scripts to print, not for tests to assert.

``bench_agent.py``: every variant completes a run that passes the script's own check (``2N + 2``
messages ending in "done"), in process and through the ``--block`` child mode; the blocks take
turns as ``bench/README.md`` says; the import timer runs; the N = 1000 breakdown finds every phase
it names. ``bench_loop.py``, on one day and one notebook: the course copy, ``miniagent check`` on
a solved day (and its refusal to time a day that does not pass), the README's ``pytest``, the
notebook runner, the site command. ``count_instructions.py``: its workload runs.
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
MINI_VARIANTS = ["miniagent", "mini create_agent", "bare loop"]
UPSTREAM_VARIANTS = ["react v2", "create_agent"]


# ---- bench_agent.py ----------------------------------------------------------------------------


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


def test_a_run_that_ends_early_fails_the_check():
    invoke, model = bench_agent.build_mini(3)
    with pytest.raises(AssertionError):
        bench_agent.run_once((invoke, model), 4)  # the model stops after 3 tool calls, not 4


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
    reps = {100: 7, 1000: 3}
    table = bench_agent.per_round_trip(["a", "b"], reps, fresh=False)

    rounds = bench_agent.ROUNDS
    assert len(calls) == rounds * len(reps) * 2
    for i in range(rounds):
        assert [(name, n) for name, n, _ in calls[i * 4 : (i + 1) * 4]] == [
            ("a", 100),
            ("b", 100),
            ("a", 1000),
            ("b", 1000),
        ]
    for n, total in reps.items():
        assert sum(runs for name, m, runs in calls if name == "a" and m == n) == total
    assert table == {100: {"a": 1e-6, "b": 1e-6}, 1000: {"a": 1e-6, "b": 1e-6}}


def test_the_import_timer_runs_each_case_in_a_fresh_interpreter():
    times = bench_agent.bench_imports(1, {"pass": "pass", "json": "import json"})
    assert set(times) == {"pass", "json"} and all(ms > 0 for ms in times.values())
    with pytest.raises(subprocess.CalledProcessError):
        bench_agent.bench_imports(1, {"broken": "import no_such_module_here"})


def test_the_breakdown_finds_every_phase_it_names():
    report = bench_agent.breakdown(5)
    shares = {label: share for label, share, _ in report["phases"]}
    named = [label for label, _, _ in bench_agent.phases()]
    assert list(shares)[: len(named)] == named
    assert all(shares[label] > 0 for label in named)  # each ran (a renamed one raises instead)
    top_level = sum(share for _, share, depth in report["phases"] if depth == 0)
    assert top_level == pytest.approx(1.0)  # the graph loop is the rest, never negative
    assert shares["the graph loop (everything else)"] > 0
    assert report["modules"] and report["functions"]


def test_the_instruction_count_workload_runs(monkeypatch):
    monkeypatch.setattr(sys, "path", list(sys.path))  # the workload puts bench/ on it
    count_instructions = _load("count_instructions")
    assert set(count_instructions.WORKLOADS) == {"agent"}
    count_instructions.agent_workload(3, 0)


# ---- bench_loop.py (one day, one notebook: the whole loop is the script's job) ---------------

bench_loop = _load("bench_loop")


@pytest.fixture(scope="module")
def copies(tmp_path_factory):
    root = tmp_path_factory.mktemp("bench-loop")
    made = SimpleNamespace(
        new=bench_loop.copy_course(root / "new", solved=False),
        solved=bench_loop.copy_course(root / "solved", solved=True),
    )
    yield made
    for copy in (made.new, made.solved):
        bench_loop.warm.stop(copy.root)  # the warm graders its timed commands started


def test_the_course_copies_hold_stubs_or_solutions_and_never_the_repository_exercises(copies):
    day = copies.new.exercises[0]
    stub = (copies.new.root / day.file).read_text(encoding="utf-8")
    solved = (copies.solved.root / day.file).read_text(encoding="utf-8")
    assert f'NotStarted("{day.id}")' in stub and "NotStarted(" not in solved.split("def ", 1)[1]
    for copy in (copies.new, copies.solved):
        assert (copy.root / "mkdocs.yml").is_file() and (copy.root / "pyproject.toml").is_file()
        assert not (copy.root / ".git").exists() and not (copy.root / "site").exists()
        assert copy.root != bench_loop.REPO


def test_check_times_a_solved_day_warm(copies):
    day = copies.solved.exercises[0]
    times = bench_loop.bench_check(copies.solved, [day], reps=1)
    assert list(times) == [day.id] and times[day.id] > 0


def test_check_refuses_to_time_a_day_that_does_not_pass(copies):
    day = copies.new.exercises[0]
    with pytest.raises(RuntimeError, match=day.id):  # a failed command, or one without "passes"
        bench_loop.bench_check(copies.new, [day], reps=1)


def test_the_readme_pytest_runs_and_its_table_is_read(copies):
    assert bench_loop.pytest_command() == [str(bench_loop.BIN / "pytest")]  # no arguments
    day = copies.new.exercises[:1]  # the whole run is the script's job
    assert bench_loop.bench_pytest(copies.solved, 1, "done", warmups=0, days=day) > 0
    with pytest.raises(RuntimeError, match="expected every day 'done'"):
        bench_loop.bench_pytest(copies.new, 1, "done", warmups=0, days=day)


def test_the_notebook_runner_executes_notebooks_in_a_child(copies, tmp_path):
    nbformat = pytest.importorskip("nbformat")
    assert bench_loop.notebooks_of(copies.new)  # the course's own, which the script runs
    path = tmp_path / "tiny.ipynb"  # a one-cell notebook: the runner, without a lesson's cost
    cell = "import os; assert os.environ['MINIAGENT_NOTEBOOK_IMPL'] == 'reference'"
    nbformat.write(nbformat.v4.new_notebook(cells=[nbformat.v4.new_code_cell(cell)]), path)
    times = bench_loop.bench_notebooks(copies.new, [path], reps=1)
    assert set(times) == {"tiny", "total"} and times["total"] >= times["tiny"] > 0


def test_the_site_build_is_strict_and_writes_outside_the_repository(copies, tmp_path):
    command = bench_loop.site_command(copies.new, tmp_path / "site")
    assert command[1:4] == ["build", "--strict", "--site-dir"]
    assert Path(command[4]) == tmp_path / "site"
    assert Path(command[0]).name == "mkdocs" and Path(command[0]).exists()
