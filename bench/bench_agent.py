"""Runtime benchmark: miniagent against the pinned upstream packages. Prints tables, asserts nothing.

    python bench/bench_agent.py             # about two minutes on an idle machine
    python bench/bench_agent.py --quick     # fewer repetitions
    python bench/bench_agent.py --fresh     # a newly built agent for every timed run

(a) Import time. Each statement runs in a fresh interpreter, once to warm the file cache and
    the bytecode, then IMPORT_RUNS times, the statements taking turns; the median is printed
    (interpreter start-up included: ``python -c pass`` is the floor). Target: ``import
    miniagent.prebuilt`` costs at most 50 ms more than ``from pydantic import BaseModel``.

(b) One model+tool round trip of ``create_react_agent``. A counting model asks for a ``noop``
    tool on its first N calls (ids ``ai-i`` / ``call-i``), then answers "done"; its own cost
    does not grow with the history, so the figures measure the executor. One round trip = one
    model call + one tool call (two super-steps). A run invokes the agent once with
    ``recursion_limit = 2N + 10`` and checks the result (``2N + 2`` messages ending in
    "done"); the median over the runs is divided by N, as in
    ``../shared/upstream-bench/bench_react_steps.py``. Variants:

    * ``miniagent``   -- ``miniagent.prebuilt.create_react_agent`` (v2);
    * ``react v2``    -- ``langgraph.prebuilt.create_react_agent`` (v2), the pinned upstream;
    * ``mini create_agent`` -- ``miniagent.agents.create_agent``, no middleware (information);
    * ``create_agent``-- ``langchain.agents.create_agent``, no middleware (information);
    * ``bare loop``   -- hand-written ``model.invoke(history)``, ``tool.invoke(call)`` and two
      ``list.append``s per round trip, on miniagent's model and tool (information: the floor).

    Targets: miniagent is at least 10x faster than react v2 at N = 100 and at least 4x at
    N = 1000 (where (c) shows where the time goes).

    How runs are arranged. Runs come in blocks; each block runs in a fresh interpreter that
    imports only its own library, builds the agent once (as an application builds its agent
    once and invokes it many times), makes one untimed run, then the timed runs (the model's
    call counter is reset before each). So no library runs in a heap, a garbage collector or
    CPU caches filled by the other one. The blocks take turns in ROUNDS rounds; each round runs
    one block of every variant at every N, so a slow spell of a shared machine falls on all
    variants alike. ``--fresh`` builds a new agent for every timed run instead (not timed);
    then each run also pays the agent's first-call costs.

(c) Where miniagent's time goes at N = 1000: a cProfile of one run (after an untimed one), in a
    fresh interpreter. Shares of the run, per phase (cumulative time inside the node or
    function; the graph loop is what the phases leave), per module (own time) and the top
    functions (own time). The profiler slows small functions more than large ones: read the
    shares as a map, not as exact figures. cProfile sees only the thread that runs the graph:
    ``ToolNode`` runs tool calls in a thread pool, as upstream does, so the tool's own work
    shows as the tools node waiting on a lock (the pool's threads are parked and reused, see
    ARCHITECTURE.md, "Speed shortcuts").

The last lines are a Markdown summary table, to paste into bench/README.md.
"""

from __future__ import annotations

import cProfile
import inspect
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
import warnings
from collections import defaultdict
from typing import Any, Callable

warnings.filterwarnings("ignore")

REPS = {10: 15, 100: 15, 1000: 6}
QUICK_REPS = {10: 3, 100: 3, 1000: 3}
ROUNDS = 3  # each (N, variant) runs this many blocks, in fresh interpreters, taking turns
IMPORT_RUNS, QUICK_IMPORT_RUNS = 9, 5
TARGETS = {"vs_react_100": 10.0, "vs_react_1000": 4.0, "import_ms": 50.0}
PROFILE_N = 1000
REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__))).replace("\\", "/")


def noop(x: int) -> int:
    """Return x unchanged."""
    return x


# ---- (a) import time ----------------------------------------------------------------------------

# A learner's Python caches compiled bytecode (.pyc); the warm-up run of each case writes it.
# Some sandboxes and CI set PYTHONDONTWRITEBYTECODE, which would time the compiler instead of the
# import, for pydantic and langgraph as much as for miniagent -- so the children run without it.
CHILD_ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
IMPORTS = {
    "python -c pass": "pass",
    "from pydantic import BaseModel": "from pydantic import BaseModel",
    # pydantic's own price of a first model class (its schema machinery, pydantic.types,
    # annotated_types): paid by any package that defines a model at import, miniagent's messages
    "pydantic and one model class": "from pydantic import BaseModel\nclass A(BaseModel):\n    x: int",
    "import miniagent.prebuilt": "import miniagent.prebuilt",
    "import langgraph.prebuilt": "import langgraph.prebuilt",
}


def wall(code: str) -> float:
    """Seconds for a fresh ``python -c code``, spawn to exit."""
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-c", code], check=True, env=CHILD_ENV)
    return time.perf_counter() - t0


def bench_imports(runs: int, cases: dict[str, str] = IMPORTS) -> dict[str, float]:
    """Median milliseconds of each case (see (a) in the docstring)."""
    for code in cases.values():
        wall(code)  # warm the file cache and .pyc files, not counted
    times: dict[str, list[float]] = {label: [] for label in cases}
    for _ in range(runs):  # the cases take turns, so a slow spell of the machine hits all alike
        for label, code in cases.items():
            times[label].append(wall(code))
    return {label: statistics.median(t) * 1000 for label, t in times.items()}


# ---- (b) the agents: miniagent side ----------------------------------------------------------


def mini_model(n: int) -> Any:
    from miniagent.messages import AIMessage
    from miniagent.models import BaseChatModel
    from miniagent.tools import convert_to_openai_tool

    class CountingToolModel(BaseChatModel):
        """Calls ``noop`` on its first ``n_calls`` calls, then answers "done"."""

        n_calls: int
        i: int = 0

        def _generate(self, messages: list, **kwargs: Any) -> AIMessage:
            i, self.i = self.i, self.i + 1
            if i < self.n_calls:
                call = {"name": "noop", "args": {"x": i}, "id": f"call-{i}"}
                return AIMessage("", id=f"ai-{i}", tool_calls=[call])
            return AIMessage("done", id=f"ai-{i}")

        @property
        def _llm_type(self) -> str:
            return "counting-tool-model"

        def bind_tools(self, tools: Any, *, tool_choice: Any = None, **kwargs: Any) -> Any:
            specs = [t if isinstance(t, dict) else convert_to_openai_tool(t) for t in tools]
            return self.bind(tools=specs, **kwargs)

    return CountingToolModel(n_calls=n)


Agent = tuple[Callable[[dict, dict], dict], Any]  # (invoke, the counting model)


def build_mini(n: int) -> Agent:
    from miniagent.prebuilt import create_react_agent

    model = mini_model(n)
    return create_react_agent(model, [noop], version="v2").invoke, model


def build_mini_create_agent(n: int) -> Agent:
    from miniagent.agents import create_agent

    model = mini_model(n)
    return create_agent(model, [noop]).invoke, model


def build_bare(n: int) -> Agent:
    """The floor: the same model and tool calls, a list for the history, nothing else."""
    from miniagent.messages import HumanMessage
    from miniagent.tools import tool

    counting = mini_model(n)
    model = counting.bind_tools([noop])
    noop_tool = tool(noop)

    def run(inputs: dict, config: dict) -> dict:
        messages = [HumanMessage(inputs["messages"][0]["content"])]
        while True:
            reply = model.invoke(messages)
            messages.append(reply)
            if not reply.tool_calls:
                return {"messages": messages}
            for call in reply.tool_calls:
                messages.append(noop_tool.invoke({**call, "type": "tool_call"}))

    return run, counting


# ---- (b) the agents: upstream side -------------------------------------------------------------


def upstream_model(n: int) -> Any:
    from langchain_core.language_models import BaseChatModel
    from langchain_core.messages import AIMessage
    from langchain_core.outputs import ChatGeneration, ChatResult
    from langchain_core.utils.function_calling import convert_to_openai_tool

    class CountingToolModel(BaseChatModel):
        n_calls: int
        i: int = 0

        def _generate(self, messages, stop=None, run_manager=None, **kwargs):
            i, self.i = self.i, self.i + 1
            if i < self.n_calls:
                call = {"name": "noop", "args": {"x": i}, "id": f"call-{i}"}
                message = AIMessage("", id=f"ai-{i}", tool_calls=[call])
            else:
                message = AIMessage("done", id=f"ai-{i}")
            return ChatResult(generations=[ChatGeneration(message=message)])

        @property
        def _llm_type(self) -> str:
            return "counting-tool-model"

        def bind_tools(self, tools, *, tool_choice=None, **kwargs):
            specs = [t if isinstance(t, dict) else convert_to_openai_tool(t) for t in tools]
            return self.bind(tools=specs, **kwargs)

    return CountingToolModel(n_calls=n)


def build_react(n: int) -> Agent:
    from langgraph.prebuilt import create_react_agent

    model = upstream_model(n)
    return create_react_agent(model, [noop], version="v2").invoke, model


def build_create_agent(n: int) -> Agent:
    from langchain.agents import create_agent

    model = upstream_model(n)
    return create_agent(model, [noop]).invoke, model


# ---- (b) measuring ---------------------------------------------------------------------------

VARIANTS = {
    "miniagent": build_mini,
    "react v2": build_react,
    "mini create_agent": build_mini_create_agent,
    "create_agent": build_create_agent,
    "bare loop": build_bare,
}


def run_once(agent: Agent, n: int) -> float:
    """Seconds for one checked invoke of ``agent``."""
    invoke, model = agent
    model.i = 0  # the model counts its calls: start the script again
    inputs = {"messages": [{"role": "user", "content": "go"}]}
    t0 = time.perf_counter()
    out = invoke(inputs, {"recursion_limit": 2 * n + 10})
    elapsed = time.perf_counter() - t0
    assert len(out["messages"]) == 2 * n + 2, len(out["messages"])
    assert out["messages"][-1].content == "done"
    return elapsed


def time_block(name: str, n: int, runs: int, *, fresh: bool) -> list[float]:
    """In this interpreter: build the variant, one untimed run, then ``runs`` timed runs."""
    agent = VARIANTS[name](n)  # construction is not timed
    run_once(agent, n)  # untimed: first-call work, caches
    return [run_once(VARIANTS[name](n) if fresh else agent, n) for _ in range(runs)]


def per_round_trip(
    names: list[str], reps: dict[int, int], *, fresh: bool
) -> dict[int, dict[str, float]]:
    """Median seconds per model+tool round trip, for each N and variant (see the docstring).

    The blocks take turns ROUNDS times: in every round each N, and within it each variant, runs
    one block, so a slow spell of the machine falls on every N and every variant alike.
    """
    times: dict[int, dict[str, list[float]]] = {n: {name: [] for name in names} for n in reps}
    for i in range(ROUNDS):
        for n, r in reps.items():
            runs = r // ROUNDS + (i < r % ROUNDS)
            for name in names:
                command = [sys.executable, __file__, "--block", name, str(n), str(runs)]
                command += ["--fresh"] if fresh else []
                done = subprocess.run(command, capture_output=True, text=True, check=True)
                times[n][name] += json.loads(done.stdout.splitlines()[-1])
    return {
        n: {name: statistics.median(t) / n for name, t in row.items()} for n, row in times.items()
    }


def available(name: str) -> bool:
    """Whether the variant's library is installed (asked in a child: importing langgraph here
    would put it in this process for nothing)."""
    module = {"react v2": "langgraph.prebuilt", "create_agent": "langchain.agents"}.get(name)
    if module is None:
        return True
    done = subprocess.run([sys.executable, "-c", f"import {module}"], capture_output=True)
    return done.returncode == 0


# ---- (c) where the time goes -------------------------------------------------------------------


def _code_key(code: Any) -> tuple[str, int, str]:
    """The key cProfile gives a Python function: (file, first line, name)."""
    return code.co_filename, code.co_firstlineno, code.co_name


def phases() -> list[tuple[str, tuple[str, int, str], int]]:
    """(label, cProfile key, depth) of the phases of a round trip; depth 1 runs inside the
    depth-0 phase above it, depth-0 phases never run inside each other."""
    from miniagent.graph import message
    from miniagent.models import BaseChatModel
    from miniagent.prebuilt import chat_agent_executor as executor
    from miniagent.prebuilt.tool_node import ToolNode

    factory = inspect.unwrap(executor.create_react_agent).__code__
    closures = {c.co_name: c for c in factory.co_consts if inspect.iscode(c)}
    (inner_add_messages,) = [  # add_messages is wrapped: the wrapper's cell holds the function
        cell.cell_contents
        for cell in message.add_messages.__closure__ or ()
        if getattr(cell.cell_contents, "__name__", "") == "add_messages"
    ]
    return [
        ("agent node: call_model", _code_key(closures["call_model"]), 0),
        ("history check: _validate_chat_history",
         _code_key(executor._validate_chat_history.__code__), 1),
        ("the model: BaseChatModel.invoke", _code_key(BaseChatModel.invoke.__code__), 1),
        ("tools node: ToolNode._func", _code_key(ToolNode._func.__code__), 0),
        ("routing: should_continue", _code_key(closures["should_continue"]), 0),
        ("state update: add_messages", _code_key(inner_add_messages.__code__), 0),
    ]  # fmt: skip


def _module_of(filename: str) -> str:
    """A short name for where a function lives: ``src/miniagent/graph/pregel.py``,
    ``pydantic``, ``python/typing.py``, ``(built-in / C)``."""
    if filename == "~":
        return "(built-in / C)"
    path = filename.replace("\\", "/")
    parts = path.split("/")
    if "site-packages" in parts:
        return parts[parts.index("site-packages") + 1].removesuffix(".py")
    if path.startswith(REPO + "/"):
        return path[len(REPO) + 1 :]
    return "python/" + parts[-1]


def breakdown(n: int, top: int = 10) -> dict[str, Any]:
    """cProfile one miniagent run at ``n`` (after an untimed one): the shares of the run by
    phase, by module (own time) and the top functions (own time)."""
    agent = build_mini(n)
    run_once(agent, n)
    profiler = cProfile.Profile()
    profiler.enable()
    run_once(agent, n)
    profiler.disable()
    stats = pstats.Stats(profiler).stats  # {key: (calls, primitive calls, own, cumulative, ..)}
    total = sum(own for _, _, own, _, _ in stats.values())
    by_phase = []
    outside = total
    for label, key, depth in phases():
        if key not in stats:  # renamed or moved: say so rather than print 0 %
            raise LookupError(f"phase {label!r} ({key}) did not run")
        cumulative = stats[key][3]
        by_phase.append((label, cumulative / total, depth))
        outside -= cumulative if depth == 0 else 0.0
    by_phase.append(("the graph loop (everything else)", outside / total, 0))
    modules: dict[str, float] = defaultdict(float)
    for (filename, _, _), (_, _, own, _, _) in stats.items():
        modules[_module_of(filename)] += own
    functions = sorted(stats.items(), key=lambda item: -item[1][2])[:top]
    return {
        "n": n,
        "phases": by_phase,
        "modules": sorted(((m, t / total) for m, t in modules.items()), key=lambda x: -x[1])[:top],
        "functions": [
            (f"{_module_of(f)}:{line}({name})", s[2] / total, s[0])
            for (f, line, name), s in functions
        ],
    }


def print_breakdown(report: dict[str, Any]) -> None:
    print(f"(c) where miniagent's time goes, N = {report['n']} (one run under cProfile)")
    print("    by phase (cumulative; indented phases run inside the one above)")
    for label, share, depth in report["phases"]:
        print(f"      {'  ' * depth}{label:{48 - 2 * depth}s} {share:6.1%}")
    print("    by module (own time)")
    for module, share in report["modules"]:
        print(f"      {module:48s} {share:6.1%}")
    print("    top functions (own time)")
    for function, share, calls in report["functions"]:
        print(f"      {function[:72]:72s} {share:6.1%} {calls:8d} calls")


# ---- the report --------------------------------------------------------------------------------


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def row(label: str, target: str, measured: str, ok: bool | None) -> str:
    """One line of the summary table (Markdown, to paste into bench/README.md)."""
    return f"| {label} | {target} | {measured} | {'info' if ok is None else verdict(ok)} |"


def main(argv: list[str]) -> None:
    if argv[:1] == ["--block"]:  # a child: time one block, print the seconds as JSON
        name, n, runs = argv[1], int(argv[2]), int(argv[3])
        print(json.dumps(time_block(name, n, runs, fresh="--fresh" in argv)))
        return
    if argv[:1] == ["--breakdown"]:  # a child: profile one miniagent run, print it as JSON
        print(json.dumps(breakdown(int(argv[1]))))
        return
    quick, fresh = "--quick" in argv, "--fresh" in argv
    reps = QUICK_REPS if quick else REPS
    names = [name for name in VARIANTS if available(name)]
    print(f"python {sys.version.split()[0]}; {os.cpu_count()} cores; load average "
          f"{os.getloadavg()[0]:.1f} (timings assume an otherwise idle machine)\n")  # fmt: skip
    summary = []

    runs = QUICK_IMPORT_RUNS if quick else IMPORT_RUNS
    print(f"(a) import time, fresh interpreter, median of {runs} runs after 1 warm-up")
    cases = {k: v for k, v in IMPORTS.items() if "langgraph" not in k or "react v2" in names}
    imports = bench_imports(runs, cases)
    for label, ms in imports.items():
        print(f"    {label:40s} {ms:8.1f} ms")
    mini_ms, pydantic_ms = (
        imports["import miniagent.prebuilt"],
        imports["from pydantic import BaseModel"],
    )
    extra = mini_ms - pydantic_ms
    summary.append(row(
        "`import miniagent.prebuilt` minus `from pydantic import BaseModel`",
        f"<= {TARGETS['import_ms']:g} ms",
        f"{extra:+.0f} ms ({mini_ms:.0f} vs {pydantic_ms:.0f} ms)",
        extra <= TARGETS["import_ms"],
    ))  # fmt: skip
    model_ms = imports["pydantic and one model class"]
    print(f"    miniagent's own share (over pydantic and one model class): {mini_ms - model_ms:+.0f}"
          f" ms; pydantic's first model class alone: {model_ms - pydantic_ms:+.0f} ms")  # fmt: skip

    print(
        "\n(b) us per model+tool round trip (median); "
        + ("a new agent for every run (--fresh)" if fresh else "each agent built once per N")
    )
    head = "".join(f"{name:>18}" for name in names)
    print(f"    {'N':>6} {head}{'react/mini':>12}{'agent/mini':>12}")
    table = per_round_trip(names, reps, fresh=fresh)
    for n, cells in table.items():
        line = "".join(f"{cells[name] * 1e6:18.1f}" for name in names)
        ratios = [
            cells[up] / cells[mine] if up in cells and mine in cells else float("nan")
            for up, mine in (("react v2", "miniagent"), ("create_agent", "mini create_agent"))
        ]
        print(f"    {n:>6} {line}" + "".join(f"{r:11.1f}x" for r in ratios))
    if "react v2" in names:
        ratio = table[100]["react v2"] / table[100]["miniagent"]
        summary.append(row(
            "`create_react_agent` round trip, N = 100: upstream time / miniagent time",
            f">= {TARGETS['vs_react_100']:g}x",
            f"{ratio:.1f}x ({table[100]['miniagent'] * 1e6:.0f} vs "
            f"{table[100]['react v2'] * 1e6:.0f} us)",
            ratio >= TARGETS["vs_react_100"],
        ))  # fmt: skip
    print(f"    (load average now: {os.getloadavg()[0]:.1f})\n")

    command = [sys.executable, __file__, "--breakdown", str(PROFILE_N)]
    done = subprocess.run(command, capture_output=True, text=True, check=True)
    report = json.loads(done.stdout.splitlines()[-1])
    print_breakdown(report)
    at = table.get(PROFILE_N, {})
    if "miniagent" in at:
        phase = {label.split(":")[0]: share for label, share, _ in report["phases"]}
        upstream = f", upstream {at['react v2'] * 1e6:.0f} us" if "react v2" in at else ""
        ratio = at["react v2"] / at["miniagent"] if "react v2" in at else None
        summary.append(row(
            f"`create_react_agent` round trip, N = {PROFILE_N}: upstream time / miniagent time",
            f">= {TARGETS['vs_react_1000']:g}x",
            (f"{ratio:.1f}x; " if ratio else "")
            + f"miniagent {at['miniagent'] * 1e6:.0f} us{upstream}; history check "
            f"{phase['history check']:.0%}, model {phase['the model']:.0%}, tools node "
            f"{phase['tools node']:.0%}, add_messages {phase['state update']:.0%}, graph loop "
            f"{phase['the graph loop (everything else)']:.0%}",
            None if ratio is None else ratio >= TARGETS["vs_react_1000"],
        ))  # fmt: skip

    print("\n| runtime | target | measured | |")
    print("|---|---|---|---|")
    print("\n".join(summary))


if __name__ == "__main__":
    main(sys.argv[1:])
