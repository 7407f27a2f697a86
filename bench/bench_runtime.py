"""Runtime benchmark: miniagent against the pinned upstream packages. Prints a table, asserts nothing.

    python bench/bench_runtime.py            # imports + super-steps
    python bench/bench_runtime.py --quick    # fewer repetitions

(a) Import time: each statement in a fresh interpreter, 1 warm-up + median of 9, the
    statements taking turns (like ../shared/upstream-bench/bench_imports.py, which runs 5). Target: the heaviest miniagent import costs at
    most 60 ms more than ``from pydantic import BaseModel``.
(b) Super-step cost: a two-node loop graph, ``a -> b -> (a | END)``; each node appends one
    message to ``messages`` (an ``add_messages`` key), so the history grows by one message per
    super-step. Run for N = 10, 100, 1000 super-steps on miniagent and on langgraph (same
    topology). The message objects are built before the clock starts (message construction is
    node work, not graph work); ids are set, so ``add_messages`` does not mint uuids. Each
    graph is compiled once per N and invoked many times, as an application does. The two
    libraries take turns run by run, and each timed run comes right after an untimed run of the
    same graph (see ``bench_agent.py``). Targets: a miniagent super-step is >= 20x cheaper than
    langgraph's; miniagent's per-step cost at N=1000 is <= 2x its cost at N=10.
"""

import os
import statistics
import subprocess
import sys
import time
import warnings
from typing import Annotated, Any

from typing_extensions import TypedDict

warnings.filterwarnings("ignore")

IMPORT_RUNS = 9
IMPORT_TARGET_MS = 60.0
SPEEDUP_TARGET = 20.0
GROWTH_TARGET = 2.0
REPS = {10: 51, 100: 15, 1000: 3}


# ---- (a) import time ----------------------------------------------------------------------------


# A learner's Python caches compiled bytecode (.pyc); the warm-up run of each case writes it.
# Some sandboxes and CI set PYTHONDONTWRITEBYTECODE, which would time the compiler instead of the
# import, for pydantic and langgraph as much as for miniagent -- so the children run without it.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}


def wall(code: str) -> float:
    """Seconds for a fresh ``python -c code``, spawn to exit."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=CHILD_ENV)
    return time.perf_counter() - t0


def importable(module: str) -> bool:
    return (
        subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True).returncode
        == 0
    )


def bench_imports(runs: int) -> dict[str, float]:
    cases = {
        "python -c pass": "pass",
        "from pydantic import BaseModel": "from pydantic import BaseModel",
        "import miniagent": "import miniagent",
        "from miniagent.graph import StateGraph": "from miniagent.graph import StateGraph",
    }
    if importable("miniagent.prebuilt"):
        cases["import miniagent.prebuilt"] = "import miniagent.prebuilt"
    cases["import langgraph.prebuilt"] = "import langgraph.prebuilt"
    for code in cases.values():
        wall(code)  # warm the file cache and .pyc files, not counted
    times: dict[str, list[float]] = {label: [] for label in cases}
    for _ in range(runs):  # the cases take turns, so a slow spell of the machine hits all alike
        for label, code in cases.items():
            times[label].append(wall(code))
    return {label: statistics.median(t) * 1000 for label, t in times.items()}


# ---- (b) super-steps ----------------------------------------------------------------------------


def build_graph(kind: str, n_steps: int) -> tuple[Any, dict, dict, dict[str, int]]:
    """The same two-node loop on either library: (graph, input, config, position). Each node
    returns the next of its prepared messages; set ``position`` to 0 before a run."""
    if kind == "mini":
        from miniagent.graph import END, START, StateGraph, add_messages
        from miniagent.messages import AIMessage, HumanMessage
    else:
        from langchain_core.messages import AIMessage, HumanMessage
        from langgraph.graph import END, START, StateGraph, add_messages

    class State(TypedDict):
        messages: Annotated[list, add_messages]

    replies = [AIMessage(f"a{i}", id=f"a{i}") for i in range(n_steps)]
    answers = [HumanMessage(f"b{i}", id=f"b{i}") for i in range(n_steps)]
    position = {"a": 0, "b": 0}

    def a(state: State) -> dict:
        position["a"] += 1
        return {"messages": [replies[position["a"] - 1]]}

    def b(state: State) -> dict:
        position["b"] += 1
        return {"messages": [answers[position["b"] - 1]]}

    def again(state: State) -> str:
        return "a" if len(state["messages"]) <= n_steps else END

    builder = StateGraph(State)
    builder.add_node("a", a)
    builder.add_node("b", b)
    builder.add_edge(START, "a")
    builder.add_edge("a", "b")
    builder.add_conditional_edges("b", again, ["a", END])
    graph = builder.compile()
    inputs = {"messages": [HumanMessage("go", id="h0")]}
    return graph, inputs, {"recursion_limit": n_steps + 10}, position


def time_run(built: tuple[Any, dict, dict, dict[str, int]], n_steps: int) -> float:
    graph, inputs, config, position = built
    position["a"] = position["b"] = 0
    t0 = time.perf_counter()
    out = graph.invoke(inputs, config)
    dt = time.perf_counter() - t0
    assert len(out["messages"]) == n_steps + 1, len(out["messages"])  # a sanity check, not a test
    return dt


def bench_steps(reps: dict[int, int]) -> dict[str, dict[int, float]]:
    """Median microseconds per super-step, per library and N (see the module docstring)."""
    kinds = ("mini", "upstream")
    result: dict[str, dict[int, float]] = {k: {} for k in kinds}
    for n, r in reps.items():
        graphs = {kind: build_graph(kind, n) for kind in kinds}  # not timed
        times: dict[str, list[float]] = {kind: [] for kind in kinds}
        for _ in range(r):
            for kind in kinds:
                time_run(graphs[kind], n)  # untimed: back into the caches after the other ran
                times[kind].append(time_run(graphs[kind], n) / n * 1e6)
        for kind in kinds:
            result[kind][n] = statistics.median(times[kind])
    return result


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def main() -> None:
    quick = "--quick" in sys.argv
    reps = {10: 11, 100: 3, 1000: 1} if quick else REPS
    print(f"python {sys.version.split()[0]}  ({sys.executable})\n")

    print("(a) import time, fresh interpreter, median of", IMPORT_RUNS, "runs after 1 warm-up")
    imports = bench_imports(IMPORT_RUNS)
    for label, ms in imports.items():
        print(f"    {label:40s} {ms:8.1f} ms")
    heaviest = max((k for k in imports if "miniagent" in k), key=imports.__getitem__)
    extra = imports[heaviest] - imports["from pydantic import BaseModel"]
    print(
        f"    target: {heaviest} <= pydantic + {IMPORT_TARGET_MS:.0f} ms: "
        f"+{extra:.1f} ms  {verdict(extra <= IMPORT_TARGET_MS)}\n"
    )

    print("(b) two-node add_messages loop: microseconds per super-step (median)")
    per_step = bench_steps(reps)
    mini, upstream = per_step["mini"], per_step["upstream"]
    print(f"    {'N':>6s} {'miniagent':>12s} {'langgraph':>12s} {'upstream/mini':>14s}")
    for n in reps:
        ratio = upstream[n] / mini[n]
        print(f"    {n:6d} {mini[n]:10.1f}us {upstream[n]:10.1f}us {ratio:13.1f}x  "
              f"{verdict(ratio >= SPEEDUP_TARGET)} (target >= {SPEEDUP_TARGET:.0f}x)")  # fmt: skip
    growth = mini[1000] / mini[10]
    print(f"    miniagent per-step cost, N=1000 vs N=10: {growth:.2f}x  "
          f"{verdict(growth <= GROWTH_TARGET)} (target <= {GROWTH_TARGET:.0f}x)")  # fmt: skip


if __name__ == "__main__":
    main()
