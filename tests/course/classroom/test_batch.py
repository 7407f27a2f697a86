"""Grading a folder of submissions on this machine into a CSV (``miniagent classroom grade``),
and the pieces of ``bench/bench_classroom.py`` (the 30-submission benchmark), on a few."""

from __future__ import annotations

import csv
import importlib.util
import os
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import REPO, copy_workspace

# Graded in child processes: slower than pytest's default limit on a busy machine.
pytestmark = pytest.mark.timeout(300)


def _bench():
    spec = importlib.util.spec_from_file_location(
        "bench_classroom", REPO / "bench" / "bench_classroom.py"
    )
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


bench_classroom = _bench()


def test_a_folder_of_submissions_becomes_a_csv(course, tmp_path):
    folder = tmp_path / "class"
    folder.mkdir()
    kinds = bench_classroom.make_class(course, ["day00"], folder, 6)
    assert kinds == bench_classroom.KINDS
    plan = tmp_path / "plan.toml"
    plan.write_text('days = ["day00"]\npoints = 4\n')
    scores = tmp_path / "scores.csv"
    env = {**os.environ, "PATH": f"{Path(sys.executable).parent}{os.pathsep}{os.environ['PATH']}"}
    done = subprocess.run(
        [
            "miniagent",
            "classroom",
            "grade",
            str(folder),
            "--config",
            str(plan),
            "--csv",
            str(scores),
            "--workers",
            "2",
            "--json-dir",
            str(tmp_path / "json"),
        ],
        cwd=copy_workspace(course, tmp_path / "course"),
        env=env,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    rows = list(csv.DictReader(scores.open(encoding="utf-8")))
    assert [r["submission"] for r in rows] == [
        "learner000",
        "learner001",
        "learner002.zip",
        "learner003",
        "learner004",
        "learner005",
    ]
    by_kind = dict(zip(kinds, rows, strict=True))
    for kind in ("solutions", "other_solutions", "repo_zip"):
        assert by_kind[kind]["score"] == "4" and by_kind[kind]["max_score"] == "4", kind
    assert 0 < float(by_kind["wrong"]["day00 part 1"]) < 2
    assert by_kind["stubs"]["score"] == by_kind["day_left_out"]["score"] == "0"
    assert not any(r["flagged"] for r in rows)
    assert len(list((tmp_path / "json").glob("*.json"))) == 6
    assert "scores written to" in done.stdout


def test_the_benchmark_grades_and_measures(capsys):
    figures = bench_classroom.bench(2, 2, ["day00"])
    assert figures["submissions"] == figures["csv_rows"] == 2
    assert figures["wall"] > 0 and figures["cpu"] > 0
