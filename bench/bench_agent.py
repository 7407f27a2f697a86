"""Agent benchmark: the cost of one model+tool round trip. Prints a table, asserts nothing.

    python bench/bench_agent.py             # N = 10, 100, 1000
    python bench/bench_agent.py --quick     # fewer repetitions
    python bench/bench_agent.py --fresh     # a newly built agent for every run (see below)
    python bench/bench_agent.py --profile   # also cProfile miniagent at N = 1000

A counting model asks for a ``noop`` tool on its first N calls (ids ``ai-i`` / ``call-i``),
then answers "done"; its own cost does not grow with the history, so the figures measure the
executor. One round trip = one model call + one tool call (two super-steps). A run invokes
the agent once with ``recursion_limit = 2N + 10`` and checks the result (``2N + 2`` messages
ending in "done"); the median over the runs is divided by N, as in
``../shared/upstream-bench/bench_react_steps.py``. Variants:

* ``bare loop``   -- hand-written: ``model.invoke(history)``, ``tool.invoke(call)``, two
  ``list.append``s per round trip, on miniagent's model and tool. The physical floor.
* ``miniagent``   -- ``miniagent.prebuilt.create_react_agent`` (v2).
* ``react v2``    -- ``langgraph.prebuilt.create_react_agent`` (v2), the pinned upstream.
* ``create_agent``-- ``langchain.agents.create_agent``, no middleware.
* ``mini, no check`` -- miniagent with ``_validate_chat_history`` switched off (not a usable
  agent): the part of a round trip that is not the history check, which is linear in the
  history by definition (upstream's check makes two walks over the history, miniagent's one).

How runs are arranged. Runs come in blocks; each block runs in a fresh interpreter that
imports only its own library, builds the agent once (as an application builds its agent once
and invokes it many times), makes one untimed run, then the timed runs (the model's call
counter is reset before each). So no library runs in a heap, a garbage collector or CPU
caches filled by the other one. The blocks take turns in three rounds; each round runs one
block of every variant at every N. So a slow spell of a shared machine (they last seconds to
minutes) falls on all variants and all N alike, which keeps both the ratios between libraries
and the growth from N = 10 to N = 1000 meaningful. ``--fresh`` builds a new agent for every
timed run instead (not timed), as ``bench_react_steps.py`` does; then each run also pays the
agent's first-call costs, which show up most at small N.

Targets (printed as PASS/MISS): at N = 100 miniagent is >= 20x faster than react v2, at
N = 1000 >= 10x; at N = 10 miniagent is within 5x of the bare loop; miniagent's cost per round
trip at N = 1000 is at most 4x its cost at N = 10. A miss prints where miniagent's time goes.
The machine should be otherwise idle.
"""

import cProfile
import io
import json
import os
import pstats
import statistics
import subprocess
import sys
import time
import warnings
from typing import Any, Callable

warnings.filterwarnings("ignore")

REPS = {10: 21, 100: 15, 1000: 6}
QUICK_REPS = {10: 6, 100: 3, 1000: 3}
ROUNDS = 3  # each (N, variant) runs this many blocks, in fresh interpreters, taking turns
TARGETS = {"vs_react_100": 20.0, "vs_react_1000": 10.0, "vs_bare_10": 5.0, "growth": 4.0}


def noop(x: int) -> int:
    """Return x unchanged."""
    return x


# ---- miniagent side -------------------------------------------------------------------------


def mini_model(n: int) -> Any:
    from miniagent.messages import AIMessage
    from miniagent.models import BaseChatModel

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

    return CountingToolModel(n_calls=n)


Agent = tuple[Callable[[dict, dict], dict], Any]  # (invoke, the counting model)


def build_mini(n: int) -> Agent:
    from miniagent.prebuilt import create_react_agent

    model = mini_model(n)
    return create_react_agent(model, [noop], version="v2").invoke, model


def build_mini_unchecked(n: int) -> Agent:
    """miniagent with ``_validate_chat_history`` switched off while it runs: the part of a
    round trip that is not the (by definition linear) history check. Not a usable agent."""
    import miniagent.prebuilt.chat_agent_executor as executor

    invoke, model = build_mini(n)

    def run(inputs: dict, config: dict) -> dict:
        check, executor._validate_chat_history = executor._validate_chat_history, _no_check
        try:
            return invoke(inputs, config)
        finally:
            executor._validate_chat_history = check

    return run, model


def _no_check(messages: Any) -> None:
    return None


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


# ---- upstream side ---------------------------------------------------------------------------


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


# ---- measuring ---------------------------------------------------------------------------------

VARIANTS = {
    "bare loop": build_bare,
    "miniagent": build_mini,
    "mini, no check": build_mini_unchecked,
    "react v2": build_react,
    "create_agent": build_create_agent,
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

    Each block of runs happens in a fresh interpreter that imports only its own library, as
    in an application. The blocks take turns ROUNDS times: in every round each N, and within
    it each variant, runs one block, so a slow spell of the machine falls on every N and every
    variant alike (the growth ratio compares N = 1000 with N = 10).
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
    try:
        VARIANTS[name](1)
    except ImportError:
        return False
    return True


def profile_mini(n: int, top: int = 15) -> str:
    """cProfile of one miniagent run (after an untimed one, like the timed runs): the
    functions with the most own time, as file:function."""
    agent = build_mini(n)
    run_once(agent, n)
    profiler = cProfile.Profile()
    profiler.enable()
    run_once(agent, n)
    profiler.disable()
    buffer = io.StringIO()
    stats = pstats.Stats(profiler, stream=buffer)
    stats.sort_stats("tottime").print_stats(top)
    return buffer.getvalue()


def verdict(ok: bool) -> str:
    return "PASS" if ok else "MISS"


def main(argv: list[str]) -> None:
    if argv[:1] == ["--block"]:  # a child: time one block, print the seconds as JSON
        name, n, runs = argv[1], int(argv[2]), int(argv[3])
        print(json.dumps(time_block(name, n, runs, fresh="--fresh" in argv)))
        return
    reps = QUICK_REPS if "--quick" in argv else REPS
    fresh = "--fresh" in argv
    names = [name for name in VARIANTS if available(name)]
    load = os.getloadavg()[0]
    print(
        f"python {sys.version.split()[0]}; load average {load:.1f} (timings assume an idle machine)"
    )
    print("a new agent for every run (--fresh)" if fresh else "each agent built once per N")
    print("us per model+tool round trip (median)")
    header = f"{'N':>6} " + "".join(f"{name:>16}" for name in names)
    header += f"{'react/mini':>12}{'agent/mini':>12}{'mini/bare':>11}"
    print(header)
    table = per_round_trip(names, reps, fresh=fresh)
    for n, row in table.items():
        cells = "".join(f"{row[name] * 1e6:16.1f}" for name in names)
        mini = row["miniagent"]
        ratios = [
            row.get("react v2", float("nan")) / mini,
            row.get("create_agent", float("nan")) / mini,
        ]
        print(f"{n:>6} {cells}{ratios[0]:11.1f}x{ratios[1]:11.1f}x{mini / row['bare loop']:10.1f}x")

    mini = {n: table[n]["miniagent"] for n in table}
    checks = [
        (f"N=10: miniagent within {TARGETS['vs_bare_10']:g}x of the bare loop",
         mini[10] / table[10]["bare loop"], lambda v: v <= TARGETS["vs_bare_10"]),
        (f"N=1000 vs N=10: miniagent per-round-trip growth <= {TARGETS['growth']:g}x",
         mini[1000] / mini[10], lambda v: v <= TARGETS["growth"]),
    ]  # fmt: skip
    if "react v2" in names:
        checks[:0] = [
            (f"N=100: miniagent >= {TARGETS['vs_react_100']:g}x faster than react v2",
             table[100]["react v2"] / mini[100], lambda v: v >= TARGETS["vs_react_100"]),
            (f"N=1000: miniagent >= {TARGETS['vs_react_1000']:g}x faster than react v2",
             table[1000]["react v2"] / mini[1000], lambda v: v >= TARGETS["vs_react_1000"]),
        ]  # fmt: skip
    print(f"(load average at the end: {os.getloadavg()[0]:.1f})")
    print()
    missed = False
    for label, value, ok in checks:
        missed |= not ok(value)
        print(f"{verdict(ok(value))}  {label}: {value:.1f}x")
    unchecked = {n: table[n]["mini, no check"] for n in table}
    print(
        f"info  N=1000 vs N=10 without _validate_chat_history: "
        f"{unchecked[1000] / unchecked[10]:.1f}x; the check itself costs "
        + ", ".join(f"{(mini[n] - unchecked[n]) * 1e6:.0f} us at N={n}" for n in table)
        + " (differences of medians: a few us either way is noise)"
    )
    if missed or "--profile" in argv:
        print("\nWhere miniagent's time goes (N=1000, one run, by own time):")
        print(profile_mini(1000))


if __name__ == "__main__":
    main(sys.argv[1:])
