"""Submissions a class could hand in, written as exercise files (day00, day05, day13).

``WRONG_FUNCTION``: the classic `or default` mistake (``conftest.wrong_day00`` puts it in an
alternative solution, whose be-the-grader tests stay: part 1 loses some checks, part 2 none).
``SYNTAX_ERROR``: a file that does not parse. ``ENDLESS_LOOP``: functions that never return.
``ADVERSARIAL``: the three attacks the trust model names (a forged results file, a patched
reporter, an early successful exit), a forged line of the grading report, ``pytest.exit`` and a
pytest plugin of its own; each is a day00 file whose function is wrong, so every mark it would
get is one it did not earn.
"""

from __future__ import annotations

WRONG_FUNCTION = """

def _get_state_value(state, key, default=None):
    if isinstance(state, dict):
        return state.get(key) or default
    return getattr(state, key, None) or default
"""

SYNTAX_ERROR = '''"""Day 05, with a typo."""


def _get_prompt_runnable(prompt)
    return prompt
'''

ENDLESS_LOOP = '''"""Day 13, with a loop that never ends."""


def _chain_model_call_handlers(handlers):
    while True:
        pass


def guard_request(state):
    while True:
        pass


def guard_tool_call(request, handler):
    while True:
        pass
'''

FORGED_RESULTS = '''"""Day 00: writes a perfect Gradescope results.json, then lets grading go on."""

import json
import os
from pathlib import Path

_results = Path(os.environ.get("AUTOGRADER_ROOT", "/autograder")) / "results" / "results.json"
_results.parent.mkdir(parents=True, exist_ok=True)
_results.write_text(json.dumps({"score": 1000.0, "output": "all good", "tests": []}))


def _get_state_value(state, key, default=None):
    return default
'''

PATCHED_REPORTER = '''"""Day 00: rewrites the grading plugin's record keeper so every check reads "passed", and
replaces the Gradescope export."""

from miniagent_course.grading import plugin, report


def _always_passed(self, rep):
    from miniagent_course.grading.report import Record

    for key, entry in rep.user_properties:
        if key == "miniagent":
            self.records[rep.nodeid] = Record(
                rep.nodeid, entry["exercise"], entry["impl"], entry["kind"], "passed"
            )


plugin.GradingSession.pytest_runtest_logreport.__code__ = _always_passed.__code__
report.gradescope = lambda *args, **kwargs: {"score": 1000.0, "tests": []}


def _get_state_value(state, key, default=None):
    return default
'''

EARLY_EXIT = '''"""Day 00: ends the grading process, with success, at its first call."""

import os


def _get_state_value(state, key, default=None):
    os._exit(0)
'''

FORGED_REPORT = '''"""Day 00: finds the classroom's report file in memory and appends a line of its own."""

import gc

gc.unfreeze()  # the grading freezes what it built before the tests: thaw it to find it

for _reporter in [o for o in gc.get_objects() if type(o).__name__ == "Reporter"]:
    with open(_reporter.stream, "a") as _out:
        _out.write("0" * 64 + ' {"seq": 2, "kind": "end", "exitstatus": 0}\\n')


def _get_state_value(state, key, default=None):
    return default
'''

PYTEST_EXIT = '''"""Day 00: ends the pytest session, with success, at its first call."""

import pytest


def _get_state_value(state, key, default=None):
    pytest.exit("done", returncode=0)
'''

OWN_HOOK = '''"""Day 00: registers a pytest plugin of its own that turns every report into a pass."""

import gc

gc.unfreeze()  # the grading freezes what it built before the tests: thaw it to find it

import pytest


class _Pass:
    @pytest.hookimpl(tryfirst=True)
    def pytest_runtest_logreport(self, report):
        report.outcome = "passed"


for _config in [o for o in gc.get_objects() if type(o).__name__ == "Config"]:
    if hasattr(_config, "pluginmanager"):
        _config.pluginmanager.register(_Pass(), "always-pass")


def _get_state_value(state, key, default=None):
    return default
'''

ADVERSARIAL = {
    "forged_results": FORGED_RESULTS,
    "patched_reporter": PATCHED_REPORTER,
    "early_exit": EARLY_EXIT,
    "forged_report": FORGED_REPORT,
    "pytest_exit": PYTEST_EXIT,
    "own_hook": OWN_HOOK,
}
