"""Deterministic cost: CPU instructions per agent round trip (valgrind).

    python bench/count_instructions.py      # needs valgrind (Debian/Ubuntu: apt install valgrind)

Timings on a shared machine swing by 20-50% from one minute to the next, which hides a change
worth 2%. The number of instructions a run executes does not swing: this script counts them
with valgrind's cachegrind, for the workload of ``bench_agent.py``: one ``create_react_agent``
model+tool round trip at N = 100. The workload runs K1 and then K2 times after two warm-up
runs, in a fresh interpreter with ``PYTHONHASHSEED=0``; the difference divided by
(K2 - K1) * N is the cost of one round trip, without interpreter start-up and imports. Use it
to compare two versions of the code: run it before and after a change. Counts are not time (a
cache miss costs more than an add), but on this code they follow it closely. It takes about
a minute.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

K1, K2 = 1, 4
HERE = Path(__file__).resolve().parent


def agent_workload(n: int, k: int) -> None:
    sys.path.insert(0, str(HERE))
    import bench_agent

    agent = bench_agent.build_mini(n)
    for _ in range(2 + k):
        bench_agent.run_once(agent, n)


WORKLOADS = {  # name: (label, N)
    "agent": ("create_react_agent round trip, N = 100", 100),
}


def instructions(workload: str, k: int) -> int:
    """Instructions of a fresh ``python this.py --run workload k`` under cachegrind."""
    command = [
        "valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
        sys.executable, __file__, "--run", workload, str(k),
    ]  # fmt: skip
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
    match = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    if match is None:
        raise RuntimeError(f"no instruction count in valgrind's output:\n{done.stderr}")
    return int(match.group(1).replace(",", ""))


def main(argv: list[str]) -> None:
    if argv[:1] == ["--run"]:
        agent_workload(WORKLOADS[argv[1]][1], int(argv[2]))
        return
    if shutil.which("valgrind") is None:
        sys.exit("valgrind is not installed (Debian/Ubuntu: apt install valgrind)")
    print(f"python {sys.version.split()[0]}; instructions per round trip (valgrind cachegrind)")
    for name, (label, n) in WORKLOADS.items():
        per_unit = (instructions(name, K2) - instructions(name, K1)) / (K2 - K1) / n
        print(f"    {label:44s} {per_unit:12,.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
