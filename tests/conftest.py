"""The contributors' run (``pytest tests src/miniagent_course/kits``): what it prints at the end.

This file sits at the top of ``tests/`` so that pytest-xdist's controller, which collects no test,
still loads it and prints what the workers' reports carry.
"""

from __future__ import annotations

import os

# The contributors' suites assert the English texts; a Chinese locale (LANG=zh_CN.UTF-8) would
# switch every message to Chinese (miniagent_course.text.language). Tests of the Chinese texts
# set MINIAGENT_LANG=zh themselves.
os.environ.setdefault("MINIAGENT_LANG", "en")

KILLS = "mutant kill rate"  # the user property each day's mutant proof records (meta/conftest.py)


def pytest_terminal_summary(terminalreporter, config):
    """Print the mutant kill rate the mutant proofs measured, day by day (CI logs show it).

    Each day's proof records its lines as a user property, which pytest-xdist carries back
    from the worker that ran it."""
    days = sorted(
        value
        for report in terminalreporter.stats.get("passed", [])
        if report.when == "call"
        for name, value in getattr(report, "user_properties", ())
        if name == KILLS
    )
    if days:
        terminalreporter.write_sep("=", "miniagent grader mutants")
        for line in [day[0] for day in days] + [line for day in days for line in day[1:]]:
            terminalreporter.write_line(line)
