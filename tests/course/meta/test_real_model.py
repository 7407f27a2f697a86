"""A real model that fails politely (issue #21): the course's entry points on a real endpoint.

``python -m miniagent.demo`` and ``miniagent trace`` run on the model ``MINIAGENT_MODEL`` names;
here the endpoint is the loopback Chat Completions server (127.0.0.1 only). A real model is
announced in one line (model, URL, "key hidden"); it runs with the course's timeout and retries
(``MINIAGENT_TIMEOUT``, ``MINIAGENT_MAX_RETRIES``), never ChatOpenAI's own defaults; and each
way it can fail (401, 403, 404, nothing listening, a server that hangs, no key) is told in two
lines that name the URL, the model and the fix. The key shows in no output, not even in the
traceback ``--traceback`` / ``MINIAGENT_TRACEBACK=1`` adds.
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from miniagent import demo
from miniagent_course import cli
from miniagent_course.lab.loopback import LoopbackServer, Reply, closed_port_url, completion
from miniagent_course.models import ModelSetupError, course_model, describe_failure
from miniagent_course.text import catalog, say

pytest.importorskip("openai")

KEY = "sk-test-SECRET-123"
MODEL = "loop-model"
VARIABLES = ("MINIAGENT_MODEL", "OPENAI_BASE_URL", "OPENAI_API_KEY", "MINIAGENT_TIMEOUT")
VARIABLES += ("MINIAGENT_MAX_RETRIES", "MINIAGENT_TRACEBACK")
COURSE_VARS = tuple(var for var in VARIABLES if var.startswith("MINIAGENT_"))
OPENAI_VARS = ("OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_API_BASE")


@pytest.fixture(autouse=True)
def _clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for var in COURSE_VARS + OPENAI_VARS:
        monkeypatch.delenv(var, raising=False)


def run(command: str, url: str, *args: str, key: str | None = KEY, root: Path | None = None, **env):
    """``python -m miniagent.demo`` or ``miniagent trace`` on ``openai:loop-model`` at ``url``."""
    environ = {k: v for k, v in os.environ.items() if k not in COURSE_VARS + OPENAI_VARS}
    environ.update(MINIAGENT_MODEL=f"openai:{MODEL}", OPENAI_BASE_URL=url, **env)
    if key is not None:
        environ["OPENAI_API_KEY"] = key
    if command == "demo":
        argv = [sys.executable, "-m", "miniagent.demo", *args]
    else:
        argv = [sys.executable, "-m", "miniagent_course.cli", "--root", str(root), "trace", *args]
    started = time.monotonic()
    done = subprocess.run(argv, env=environ, capture_output=True, text=True, timeout=120)
    return done, time.monotonic() - started


def two_lines(done: subprocess.CompletedProcess, url: str) -> list[str]:
    """The failure as printed: exit status 1, exactly two lines on stderr, the first naming the
    URL and the model; the key nowhere."""
    assert KEY not in done.stdout + done.stderr
    assert done.returncode == 1, done.stderr
    lines = done.stderr.splitlines()
    assert len(lines) == 2, done.stderr
    assert url in lines[0] and MODEL in lines[0]
    return lines


# ---- each failure in two lines ------------------------------------------------------------------


def rejecting(status: int, message: str) -> LoopbackServer:
    return LoopbackServer([Reply.error(status, message)] * 3)


FAILURES = {
    # the server's own message echoes the key, as a careless server may: it must be blanked out
    "401": (401, f"Incorrect API key provided: {KEY}", "OPENAI_API_KEY"),
    "403": (403, "Project does not have access to model", "access to this model"),
    "404": (404, "model 'loop-model' not found, try pulling it first", "ends in /v1"),
}


@pytest.mark.parametrize("kind", list(FAILURES))
def test_demo_tells_a_rejected_request_in_two_lines(kind):
    status, message, fix = FAILURES[kind]
    with rejecting(status, message) as server:
        done, _ = run("demo", server.base_url)
    first, second = two_lines(done, server.base_url)
    assert f"({status}: " in first
    assert fix in second and second.endswith(say("model.more"))
    assert "Traceback" not in done.stderr
    # the banner: which model, where, key hidden (and nothing else of the run: it failed)
    assert done.stdout.splitlines() == [
        say("model.banner", model=MODEL, url=server.base_url, timeout=60, retries=1)
    ]
    assert "key hidden" in done.stdout


def test_the_key_is_blanked_out_of_the_traceback_too(toy_course):
    status, message, _ = FAILURES["401"]
    with rejecting(status, message) as server:
        outputs = [
            run("demo", server.base_url, "--traceback")[0],
            run("trace", server.base_url, root=toy_course.root, MINIAGENT_TRACEBACK="1")[0],
        ]
    for done in outputs:
        assert done.returncode == 1
        assert KEY not in done.stdout + done.stderr
        assert "Traceback (most recent call last)" in done.stderr
        assert "OpenAIAuthenticationError: Error code: 401 - Incorrect API key provided: ***" in (
            done.stderr
        )
        last_two = done.stderr.splitlines()[-2:]
        assert server.base_url in last_two[0] and "OPENAI_API_KEY" in last_two[1]


@pytest.mark.parametrize("command", ["demo", "trace"])
def test_a_wrong_url_names_the_url(command, toy_course):
    url = closed_port_url()
    done, _ = run(command, url, root=toy_course.root)
    first, second = two_lines(done, url)
    assert first == say("model.connection", url=url, model=MODEL)
    assert "OPENAI_BASE_URL" in second


@pytest.mark.parametrize("command", ["demo", "trace"])
def test_a_hanging_server_fails_within_the_timeout(command, toy_course):
    """The SDK alone would wait 600 s, three times; the course's timeout applies (set small)."""
    with LoopbackServer([Reply(delay=120)] * 3) as server:
        done, seconds = run(command, server.base_url, root=toy_course.root, MINIAGENT_TIMEOUT="1")
    first, second = two_lines(done, server.base_url)
    assert first == say("model.timeout", model=MODEL, url=server.base_url, timeout=1, attempts=2)
    assert "MINIAGENT_TIMEOUT" in second
    assert len(server.bodies) == 2  # the request and the course's one retry
    assert seconds < demo.DEFAULT_TIMEOUT  # generous: two 1 s attempts and a backoff


@pytest.mark.parametrize("command", ["demo", "trace"])
def test_a_missing_key_says_how_to_set_one(command, toy_course):
    url = closed_port_url()
    done, _ = run(command, url, key=None, root=toy_course.root)
    first, second = two_lines(done, url)
    assert first == say("model.no_key", model=MODEL, url=url)
    assert "OPENAI_API_KEY=" in second and "dummy" in second
    assert done.stdout == ""  # nothing ran, nothing announced


def test_trace_tells_a_401_in_two_lines(toy_course):
    status, message, _ = FAILURES["401"]
    with rejecting(status, message) as server:
        done, _ = run("trace", server.base_url, root=toy_course.root)
    first, second = two_lines(done, server.base_url)
    assert first.startswith(
        say("model.auth", url=server.base_url, model=MODEL, status=401, detail="").split(" (")[0]
    )
    assert "Incorrect API key provided: ***" in first
    assert "OPENAI_API_KEY" in second


def test_a_working_model_is_announced_once_and_the_demo_runs():
    replies = [
        completion("", [("call_1", "find_city", '{"landmark": "Eiffel Tower"}')]),
        completion("", [("call_2", "check_weather", '{"city": "Paris"}')]),
        completion("Paris: sunny."),
    ]
    with LoopbackServer([Reply.json(body) for body in replies]) as server:
        done, _ = run("demo", server.base_url, MINIAGENT_TIMEOUT="30", MINIAGENT_MAX_RETRIES="0")
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[0] == f"Real model {MODEL} at {server.base_url} (key hidden; timeout 30 s, " + (
        "max retries 0)"
    )
    assert lines[1] == demo.TEXT["en"]["title"]
    assert KEY not in done.stdout + done.stderr
    assert done.stderr == ""


# ---- the settings: the course's defaults, where the course resolves its model ------------------


def test_course_model_runs_with_the_course_defaults_not_chatopenais(monkeypatch, capsys):
    from miniagent.openai import ChatOpenAI

    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("OPENAI_BASE_URL", "http://127.0.0.1:9/v1")
    assert course_model("fake") == "fake"  # a key alone switches nothing on
    monkeypatch.setenv("MINIAGENT_MODEL", f"openai:{MODEL}")
    model = course_model("fake")
    assert (model.request_timeout, model.max_retries) == (60.0, 1)
    assert capsys.readouterr().out == (
        f"Real model {MODEL} at http://127.0.0.1:9/v1 (key hidden; timeout 60 s, max retries 1)\n"
    )
    monkeypatch.setenv("MINIAGENT_TIMEOUT", "2.5")
    monkeypatch.setenv("MINIAGENT_MAX_RETRIES", "0")
    model = course_model("fake", announce=False)
    assert (model.request_timeout, model.max_retries) == (2.5, 0)
    model = course_model("fake", timeout=9, max_retries=3, announce=False)  # the caller's win
    assert (model.request_timeout, model.max_retries) == (9, 3)
    assert capsys.readouterr().out == ""
    plain = ChatOpenAI(model=MODEL)  # the miniature's field defaults stay upstream's
    assert (plain.request_timeout, plain.max_retries) == (None, None)


@pytest.mark.parametrize(
    ("var", "value"),
    [
        ("MINIAGENT_TIMEOUT", "abc"),
        ("MINIAGENT_TIMEOUT", "0"),
        ("MINIAGENT_TIMEOUT", "-3"),
        ("MINIAGENT_MAX_RETRIES", "1.5"),
        ("MINIAGENT_MAX_RETRIES", "-1"),
    ],
)
def test_a_bad_setting_is_one_sentence(monkeypatch, var, value):
    monkeypatch.setenv("OPENAI_API_KEY", KEY)
    monkeypatch.setenv("MINIAGENT_MODEL", f"openai:{MODEL}")
    monkeypatch.setenv(var, value)
    with pytest.raises(ModelSetupError) as error:
        course_model(None)
    message = str(error.value)
    assert "\n" not in message
    assert message.startswith(f"{var} must be ") and repr(value) in message


def test_a_bad_model_name_is_upstreams_sentence(monkeypatch, capsys):
    monkeypatch.setenv("MINIAGENT_MODEL", "foo")
    code = demo.main([])
    assert code == 1
    err = capsys.readouterr().err
    assert err == (
        "MINIAGENT_MODEL=foo: Unable to infer model provider for model='foo'. "
        "Please specify 'model_provider' directly.\n"
    )


def test_an_error_that_is_not_the_models_is_not_explained():
    assert describe_failure(ValueError("a bug"), None) is None
    assert demo.describe_failure(KeyError("x"), None) is None


def test_the_url_shown_never_carries_a_password(monkeypatch):
    assert demo.endpoint_url(base_url="http://me:pw@127.0.0.1:1/v1/") == "http://127.0.0.1:1/v1"
    monkeypatch.setenv("OPENAI_BASE_URL", "https://me:pw@example.test/v1")
    assert demo.endpoint_url() == "https://example.test/v1"
    monkeypatch.delenv("OPENAI_BASE_URL")
    assert demo.endpoint_url() == "https://api.openai.com/v1"


# ---- --help, and the two catalogues -------------------------------------------------------------


def test_every_help_names_the_variables(capsys):
    demo_help = subprocess.run(
        [sys.executable, "-m", "miniagent.demo", "--help"],
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    ).stdout
    with pytest.raises(SystemExit):
        cli.main(["trace", "-h"])
    trace_help = capsys.readouterr().out
    for text in (demo_help, trace_help):
        assert all(var in text for var in VARIABLES), text
        assert "--traceback" in text
        assert "(default 60)" in text and "default 1)" in text
    assert "MINIAGENT_MODEL" in cli._parser().format_help()


def test_the_demo_and_the_course_say_the_same():
    """The demo may not import the course tooling, so its strings are its own: kept equal."""
    english = demo.TEXT["en"]
    ours = {key.removeprefix("real_"): v for key, v in english.items() if key.startswith("real_")}
    assert ours == catalog("cli", "en")["model"]
    assert english["help_variables"] == catalog("cli", "en")["trace"]["variables"]
