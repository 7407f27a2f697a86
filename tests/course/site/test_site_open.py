"""`miniagent open` (miniagent_course.site.serve): find the project, build, report, serve on 127.0.0.1."""

from __future__ import annotations

import socket
import threading
import urllib.request
from pathlib import Path

import pytest

from miniagent_course.site import serve as site
from miniagent_course.text import catalog, site_say

ROOT = Path(__file__).resolve().parents[3]


def test_find_project_from_a_subfolder():
    assert site.find_project(ROOT / "src" / "miniagent") == ROOT


def test_failure_summary_keeps_the_reason_and_drops_colour_codes():
    log = "\n".join(
        [
            "INFO    -  Cleaning site directory",
            "WARNING -  days/day05.md: upstream block: no symbol 'nope'",
            "Traceback (most recent call last):",
            '  File "x.py", line 1, in <module>',
            "\x1b[31mNameError\x1b[39m: name 'helper' is not defined",
        ]
    )
    summary = site.build_failure_summary(log)
    assert "no symbol 'nope'" in summary
    assert "NameError: name 'helper' is not defined" in summary
    assert "\x1b[" not in summary and "Cleaning site directory" not in summary


def test_failure_summary_of_a_notebook_names_it_and_shows_the_cell():
    log = "\n".join(
        [
            "INFO    -  Converting notebook (execute=True): /repo/notebooks/day05_prompt.ipynb",
            "Traceback (most recent call last):",
            '  File "nbclient/client.py", line 918, in _check_raise_for_error',
            "nbclient.exceptions.CellExecutionError: An error occurred while executing the following cell:",
            "helper(x)",
            "NameError: name 'helper' is not defined",
        ]
    )
    summary = site.build_failure_summary(log)
    assert summary.splitlines()[0] == "/repo/notebooks/day05_prompt.ipynb"
    assert "helper(x)" in summary and "NameError" in summary
    assert "nbclient/client.py" not in summary


def test_ci_builds_and_does_not_serve(monkeypatch, capsys):
    built = []
    monkeypatch.setenv("CI", "true")
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(site, "ensure_assets", lambda project: None)
    monkeypatch.setattr(site, "build", lambda project, site_dir: built.append(site_dir) or True)
    monkeypatch.setattr(site, "make_server", lambda *a, **k: pytest.fail("must not serve in CI"))
    assert site.open_course([]) == 0
    out = capsys.readouterr().out
    assert built == [ROOT / "site"]
    assert (ROOT / "site" / "index.html").as_uri() in out
    assert site_say("open.ci_no_serve") in out


def test_a_failed_build_exits_non_zero(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(site, "ensure_assets", lambda project: None)
    monkeypatch.setattr(site, "build", lambda project, site_dir: False)
    assert site.open_course(["--no-serve"]) == 1


def test_server_is_local_and_moves_past_a_busy_port(tmp_path, capsys):
    (tmp_path / "index.html").write_text("<h1>course</h1>", encoding="utf-8")
    busy = socket.socket()
    busy.bind(("127.0.0.1", 0))
    busy.listen()
    port = busy.getsockname()[1]
    server = site.make_server(tmp_path, port)
    try:
        host, new_port = server.server_address[:2]
        assert host == "127.0.0.1" and new_port != port
        assert site_say("open.port_busy", port=port, new_port=new_port) in capsys.readouterr().out
        threading.Thread(target=server.serve_forever, daemon=True).start()
        with urllib.request.urlopen(f"http://127.0.0.1:{new_port}/index.html", timeout=5) as r:
            assert r.status == 200 and b"course" in r.read()
    finally:
        server.shutdown()
        server.server_close()
        busy.close()


def test_every_open_message_formats():
    fields = dict(
        seconds=1.0, site_dir="site", file_url="file:///x", url="http://127.0.0.1:8000",
        port=8000, new_port=8001, first=8000, last=8019,
    )  # fmt: skip
    for key in catalog("site")["open"]:
        assert site_say(f"open.{key}", **fields)
