"""The Gradescope autograder, end to end, as Gradescope runs it (the slowest tests here: one
offline install, then one grading run per submission).

The zip is built, unpacked into a temporary folder laid out as Gradescope's ``/autograder``
(``AUTOGRADER_ROOT``), ``setup.sh`` installs the zip's wheel offline into a virtual environment
that borrows this checkout's installed dependencies, and ``run_autograder`` grades submissions
made from the kits' alternative solutions, from the stubs, from a wrong answer, an endless loop
and a syntax error, and one that forges its own results file. Each ``results.json`` is checked
against Gradescope's documented format (the specification's fields and values, as a JSON
Schema) and against the scores the plan gives.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig
import zipfile
from pathlib import Path

import jsonschema
import pytest

from .conftest import DAYS, REPO, file_name, solution, stub, write_upload, wrong_day00
from .submissions import ENDLESS_LOOP, FORGED_RESULTS, SYNTAX_ERROR

# Graded in child processes: slower than pytest's default limit on a busy machine.
pytestmark = pytest.mark.timeout(600)

# Gradescope's autograder specification ("Output format", "Controlling Test Case Visibility",
# "Test case status", "Output String Formatting"), as a JSON Schema.
VISIBILITY = {"enum": ["hidden", "after_due_date", "after_published", "visible"]}
FORMAT = {"enum": ["text", "simple_format", "html", "md", "ansi"]}
TEST = {
    "type": "object",
    "properties": {
        "score": {"type": "number"},
        "max_score": {"type": "number"},
        "status": {"enum": ["passed", "failed"]},
        "name": {"type": "string"},
        "name_format": FORMAT,
        "number": {"type": "string"},
        "output": {"type": "string"},
        "output_format": FORMAT,
        "tags": {"type": "array", "items": {"type": "string"}},
        "visibility": VISIBILITY,
        "extra_data": {"type": "object"},
    },
    "additionalProperties": False,
}
RESULTS = {
    "type": "object",
    "properties": {
        "score": {"type": "number"},
        "execution_time": {"type": "number"},
        "output": {"type": "string"},
        "output_format": FORMAT,
        "test_output_format": FORMAT,
        "test_name_format": FORMAT,
        "visibility": VISIBILITY,
        "stdout_visibility": VISIBILITY,
        "extra_data": {"type": "object"},
        "tests": {"type": "array", "items": TEST},
        "leaderboard": {"type": "array"},
    },
    "additionalProperties": False,
    # "score: optional, but required if not on each test case"
    "anyOf": [
        {"required": ["score"]},
        {"required": ["tests"], "properties": {"tests": {"items": {"required": ["score"]}}}},
    ],
}
PARTS = [("day00", 1, 5.0), ("day00", 2, 5.0), ("day05", 1, 14.0), ("day05", 2, 6.0)]
PARTS += [("day13", 1, 5.0), ("day13", 2, 5.0)]


@pytest.fixture(scope="module")
def autograder(tmp_path_factory, plan) -> Path:
    """``/autograder`` in a temporary folder, after ``setup.sh`` ran offline."""
    root = tmp_path_factory.mktemp("autograder")
    archive = root.parent / f"{root.name}.zip"
    plan_file = root.parent / f"{root.name}.toml"
    plan_file.write_text(plan.text, encoding="utf-8")
    built = subprocess.run(
        [str(Path(sys.executable).parent / "miniagent"), "classroom", "gradescope"]
        + ["--config", str(plan_file), "--out", str(archive)],
        cwd=REPO,
        capture_output=True,
        text=True,
    )
    assert built.returncode == 0 and "40 points" in built.stdout, built.stdout + built.stderr
    (root / "source").mkdir()
    with zipfile.ZipFile(archive) as zipped:
        zipped.extractall(root / "source")
    for script in ("setup.sh", "run_autograder"):  # zipfile keeps no permissions
        mode = zipfile.ZipFile(archive).getinfo(script).external_attr >> 16
        os.chmod(root / "source" / script, mode)
    (root / "source" / "run_autograder").replace(root / "run_autograder")  # as Gradescope does
    # A venv whose own site-packages comes first, then this checkout's (its dependencies):
    # the course itself must come from the zip's wheel.
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(root / "venv")], check=True)
    venv_site = subprocess.run(
        [
            str(root / "venv" / "bin" / "python"),
            "-c",
            "import sysconfig; print(sysconfig.get_paths()['purelib'])",
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout.strip()
    Path(venv_site, "checkout-dependencies.pth").write_text(
        sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8"
    )
    env = {
        **os.environ,
        "AUTOGRADER_ROOT": str(root),
        "MINIAGENT_SKIP_APT": "1",
        "MINIAGENT_PIP_ARGS": "--no-index --no-deps",
    }
    setup = subprocess.run(
        ["bash", str(root / "source" / "setup.sh")], env=env, capture_output=True, text=True
    )
    assert setup.returncode == 0, setup.stdout + setup.stderr
    (root / "results").mkdir()
    return root


def run_autograder(root: Path, files: dict[str, bytes], layout: str = "exercises") -> dict:
    """One submission through ``run_autograder``: its ``results.json``."""
    submission = root / "submission"
    if submission.exists():
        subprocess.run(["rm", "-rf", str(submission)], check=True)
    write_upload(submission, files, layout)
    results = root / "results" / "results.json"
    results.unlink(missing_ok=True)
    done = subprocess.run(
        [str(root / "run_autograder")],
        cwd=root,
        env={**os.environ, "AUTOGRADER_ROOT": str(root)},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    data = json.loads(results.read_text(encoding="utf-8"))
    jsonschema.validate(data, RESULTS)
    return data


def parts(data: dict) -> dict[tuple[str, int], dict]:
    return {(t["tags"][0], int(t["tags"][1].removeprefix("part"))): t for t in data["tests"]}


def test_the_course_is_installed_from_the_zips_wheel(autograder):
    python = autograder / "venv" / "bin" / "python"
    where = subprocess.run(
        [str(python), "-c", "import miniagent_course, miniagent; print(miniagent_course.__file__)"],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    assert str(autograder / "venv") in where
    manifest = json.loads((autograder / "source" / "manifest.json").read_text())
    assert manifest["days"] == DAYS and manifest["wheel"].startswith("miniagent-")
    # what grading never reads is not on the autograder: no alternative solution anywhere
    installed = Path(where.strip()).parent
    assert not list(installed.glob("kits/*/instructor/solutions"))
    assert not list((autograder / "source").rglob("solutions"))


def test_alternative_solutions_get_every_point(autograder, course):
    for index, layout in [(0, "exercises"), (1, "loose")]:
        files = {file_name(course, d): solution(course, d, index) for d in DAYS}
        data = run_autograder(autograder, files, layout)
        assert data["score"] == 40.0, data["output"]
        found = parts(data)
        assert [(d, p, found[(d, p)]["max_score"]) for d, p, _ in PARTS] == PARTS
        assert all(t["status"] == "passed" and t["score"] == t["max_score"] for t in data["tests"])
        assert "checks pass" in found[("day05", 1)]["output"]
        assert found[("day05", 2)]["visibility"] == "after_due_date"


def test_stubs_score_nothing_whatever_else_the_upload_brings(autograder, course):
    files = {file_name(course, d): stub(course, d) for d in DAYS}
    # A repository zip that also brings graders and a conftest.py that would pass everything:
    # only exercise files are taken from a submission.
    files["/conftest.py"] = (
        b"import pytest\n\n\n@pytest.fixture(autouse=True)\ndef _ok():\n    pass\n"
    )
    grader = "/src/miniagent_course/kits/day00/graders/test_day00_warmup.py"
    files[grader] = b"def test_ok(impl):\n    pass\n"
    files["/course.toml"] = b'kits = "src/miniagent_course/kits"\n'

    data = run_autograder(autograder, files, "repo_zip")
    assert data["score"] == 0.0
    for test in data["tests"]:
        assert test["status"] == "failed" and test["score"] == 0.0
        assert "not started" in test["output"]


def test_a_wrong_answer_an_endless_loop_and_a_syntax_error(autograder, course):
    files = {
        file_name(course, "day00"): wrong_day00(course),
        file_name(course, "day05"): SYNTAX_ERROR.encode(),
        file_name(course, "day13"): ENDLESS_LOOP.encode(),
    }
    data = run_autograder(autograder, files)
    found = parts(data)
    wrong = found[("day00", 1)]
    passed, total = wrong["extra_data"]["passed"], wrong["extra_data"]["total"]
    assert 0 < passed < total
    assert wrong["score"] == round(5.0 * passed / total, 2) and wrong["status"] == "failed"
    assert "✗" in wrong["output"]
    assert found[("day00", 2)]["score"] == 5.0  # its own tests still catch the known mistakes
    assert "syntax error" in found[("day05", 1)]["output"]
    assert found[("day05", 1)]["score"] == found[("day05", 2)]["score"] == 0.0
    assert "Stopped after 3 s" in found[("day13", 1)]["output"]  # the day's own time limit
    assert found[("day13", 1)]["score"] == found[("day13", 2)]["score"] == 0.0
    assert data["score"] == round(wrong["score"] + 5.0, 2)
    assert not data["extra_data"]["flagged"]


def test_a_forged_results_file_is_flagged_and_replaced(autograder, course):
    files = {file_name(course, d): solution(course, d) for d in DAYS}
    files[file_name(course, "day00")] = FORGED_RESULTS.encode()
    data = run_autograder(autograder, files)
    assert data["score"] == 30.0  # day05 and day13 as earned; nothing for day00, not 1000
    assert [f["day"] for f in data["extra_data"]["flagged"]] == ["day00"]
    assert "FLAGGED" in data["output"]
    for part in (1, 2):
        test = parts(data)[("day00", part)]
        assert test["score"] == 0.0 and "flagged" in test["tags"]
        assert "results file" in test["output"]
