"""What a class is graded on: a small TOML file, ``classroom.toml``.

Every key is optional; :data:`SAMPLE` is the file with every key at its default::

    title = "miniagent"          # the assignment's name in the results
    days = ["day00", "day01"]    # the days graded (omitted: every day of the course)
    points = 10                  # a day's points
    split = [0.5, 0.5]           # the shares of part 1 and part 2 of a day's points
    partial_credit = true        # a part scores its share of passing checks (false: all or none)
    timeout = 10                 # seconds one grader test may run, as pytest's --grader-timeout
    visibility = "visible"       # Gradescope: visible, hidden, after_due_date, after_published
    run_timeout = 900            # seconds one submission's whole grading may take

    [day.day05]                  # one day's own points, split, timeout or visibility
    points = 20
    visibility = ["visible", "after_due_date"]   # one per part, or one for both

A day without a judgment part gives all its points to part 1. A typo is an error that names the
key, never a silent default.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from miniagent_course.grading.course import Course
from miniagent_course.text import say

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - Python 3.10
    import tomli as tomllib

CONFIG_FILE = "classroom.toml"
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")  # Gradescope's
TOP_KEYS = {
    "title",
    "days",
    "points",
    "split",
    "partial_credit",
    "timeout",
    "visibility",
    "run_timeout",
    "day",
}
DAY_KEYS = {"points", "split", "timeout", "visibility"}

SAMPLE = """\
# What a class is graded on (miniagent classroom). Every key is optional.
title = "miniagent"
# days = ["day00", "day01", "day02"]   # the days graded; omitted: every day of the course
points = 10                 # a day's points
split = [0.5, 0.5]          # the shares of part 1 (the functions) and part 2 (the judgment part)
partial_credit = true       # a part scores its share of passing checks; false: all or none
timeout = 10                # seconds one grader test may run (pytest's --grader-timeout)
visibility = "visible"      # Gradescope: visible, hidden, after_due_date or after_published
run_timeout = 900           # seconds one submission's whole grading may take

# One day's own settings:
# [day.day05]
# points = 20
# visibility = ["visible", "after_due_date"]   # one per part, or one for both
"""


class ConfigError(ValueError):
    """A classroom.toml that cannot be used; the message names the key and the fix."""


@dataclass(frozen=True)
class DayPlan:
    """How one day is graded."""

    day: str
    parts: int  # 2 with a judgment part, else 1
    points: float
    split: tuple[float, float]
    timeout: float
    visibility: tuple[str, str]

    def part_points(self) -> tuple[float, ...]:
        """The points of each part: the day's points by ``split`` (all to part 1 without a
        part 2)."""
        if self.parts == 1:
            return (self.points,)
        first = round(self.points * self.split[0], 4)
        return (first, round(self.points - first, 4))


@dataclass(frozen=True)
class Classroom:
    """The whole grading plan, and the TOML text it was read from."""

    title: str
    days: tuple[DayPlan, ...]
    partial_credit: bool
    visibility: str
    run_timeout: float
    text: str = SAMPLE

    def plan(self, day: str) -> DayPlan:
        return next(p for p in self.days if p.day == day)

    @property
    def total(self) -> float:
        return round(sum(p.points for p in self.days), 4)


def load_config(path: str | Path | None, course: Course) -> Classroom:
    """``path`` (or the sample's defaults when None), checked against ``course``."""
    if path is None:
        return parse_config(SAMPLE, course)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as error:
        raise ConfigError(say("classroom.config_unreadable", file=path, error=error)) from None
    return parse_config(text, course)


def parse_config(text: str, course: Course) -> Classroom:
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        raise ConfigError(say("classroom.config_toml", error=error)) from None
    _no_unknown(data, TOP_KEYS, "")
    default = {
        "points": _number(data.get("points", 10), "points"),
        "split": _split(data.get("split", [0.5, 0.5]), "split"),
        "timeout": _positive(data.get("timeout", 10), "timeout"),
        "visibility": _visibility(data.get("visibility", "visible"), "visibility"),
    }
    try:
        wanted = data.get("days") or [e.id for e in course.exercises]
        if not isinstance(wanted, list):
            raise ConfigError(say("classroom.config_days"))
        days = [course.exercise(str(d)).id for d in wanted]
    except KeyError as error:
        raise ConfigError(error.args[0]) from None
    order = {e.id: n for n, e in enumerate(course.exercises)}
    days = sorted(dict.fromkeys(days), key=order.__getitem__)
    own: dict[str, Any] = data.get("day", {})
    if not isinstance(own, dict):
        raise ConfigError(say("classroom.config_day_table", key="day"))
    plans = []
    for name, table in own.items():
        try:
            known = course.exercise(name).id
        except KeyError as error:
            raise ConfigError(error.args[0]) from None
        if known not in days:
            raise ConfigError(say("classroom.config_day_not_graded", day=name))
        if not isinstance(table, dict):
            raise ConfigError(say("classroom.config_day_table", key=f"day.{name}"))
        _no_unknown(table, DAY_KEYS, f"day.{name}.")
    tables = {course.exercise(name).id: table for name, table in own.items()}
    checks = {"points": _number, "split": _split, "timeout": _positive, "visibility": _visibility}
    for day in days:
        table = tables.get(day, {})
        where = f"day.{day}."
        exercise = course.exercise(day)
        values = {
            key: check(table[key], where + key) if key in table else default[key]
            for key, check in checks.items()
        }
        plans.append(DayPlan(day=day, parts=2 if exercise.judgment is not None else 1, **values))
    partial = data.get("partial_credit", True)
    if not isinstance(partial, bool):
        raise ConfigError(say("classroom.config_bool", key="partial_credit", value=partial))
    top = data.get("visibility", "visible")
    return Classroom(
        title=str(data.get("title", "miniagent")),
        days=tuple(plans),
        partial_credit=partial,
        visibility=top if isinstance(top, str) else "visible",
        run_timeout=_positive(data.get("run_timeout", 900), "run_timeout"),
        text=text,
    )


def _no_unknown(table: dict[str, Any], known: set[str], prefix: str) -> None:
    unknown = sorted(set(table) - known)
    if unknown:
        raise ConfigError(
            say(
                "classroom.config_unknown_key",
                key=prefix + unknown[0],
                known=", ".join(sorted(known)),
            )
        )


def _number(value: Any, key: str, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < 0:
        raise ConfigError(say("classroom.config_number", key=key, value=value))
    if positive and value == 0:
        raise ConfigError(say("classroom.config_number", key=key, value=value))
    return float(value)


def _positive(value: Any, key: str) -> float:
    return _number(value, key, positive=True)


def _split(value: Any, key: str) -> tuple[float, float]:
    ok = isinstance(value, list) and len(value) == 2
    numbers = [_number(v, key) for v in value] if ok else []
    if not ok or abs(sum(numbers) - 1.0) > 1e-6:
        raise ConfigError(say("classroom.config_split", key=key, value=value))
    return (numbers[0], numbers[1])


def _visibility(value: Any, key: str) -> tuple[str, str]:
    values = [value, value] if isinstance(value, str) else value
    if (
        not isinstance(values, list)
        or len(values) != 2
        or any(v not in VISIBILITIES for v in values)
    ):
        raise ConfigError(
            say("classroom.config_visibility", key=key, value=value, known=", ".join(VISIBILITIES))
        )
    return (values[0], values[1])
