"""`miniagent open` (miniagent_course.site.serve): find the project, build, report, serve on 127.0.0.1."""

from __future__ import annotations

import socket
import sys
import threading
import urllib.request
from pathlib import Path

import pytest

from miniagent_course.site import notebooks as site_notebooks
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
    monkeypatch.setattr(
        site, "build", lambda project, site_dir, env=None: built.append(env) or True
    )
    monkeypatch.setattr(site, "make_server", lambda *a, **k: pytest.fail("must not serve in CI"))
    assert site.open_course([]) == 0
    out = capsys.readouterr().out
    assert built == [None]  # one whole build, notebooks executed (no `later` environment)
    assert (ROOT / "site" / "index.html").as_uri() in out
    assert site_say("open.ci_no_serve") in out


def test_a_failed_build_exits_non_zero(monkeypatch):
    monkeypatch.chdir(ROOT)
    monkeypatch.setattr(site, "ensure_assets", lambda project: None)
    monkeypatch.setattr(site, "build", lambda project, site_dir, env=None: False)
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
        port=8000, new_port=8001, first=8000, last=8019, total=16, line="notebook 1 of 16",
    )  # fmt: skip
    for key in catalog("site")["open"]:
        assert site_say(f"open.{key}", **fields)


def test_a_build_relays_notebook_lines_and_says_it_is_alive_when_silent(monkeypatch, capsys):
    monkeypatch.setattr(site, "HEARTBEAT", 0.3)
    script = (
        "import sys, time\n"
        "print('INFO    -  Cache hit: x', flush=True)\n"
        f"print('INFO    -  {site_notebooks.PROGRESS} 1 of 2 executed: day00.ipynb (3 s)', flush=True)\n"
        "time.sleep(1.6)\n"
        "sys.exit(3)\n"
    )
    code, log = site._run_build([sys.executable, "-c", script], ROOT, {})
    out = capsys.readouterr().out.splitlines()
    assert code == 3 and "Cache hit: x" in log
    assert out[0] == site_say("open.progress", line="notebook 1 of 2 executed: day00.ipynb (3 s)")
    assert len(out) >= 3 and all("still building" in line for line in out[1:])  # every 0.3 s


def test_a_first_open_serves_the_pages_then_swaps_in_the_executed_site(
    tmp_path, monkeypatch, capsys
):
    project = tmp_path / "course"
    (project / "notebooks").mkdir(parents=True)
    (project / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    (project / "notebooks/day00.ipynb").write_text("{}", encoding="utf-8")
    monkeypatch.chdir(project)
    monkeypatch.delenv("CI", raising=False)
    monkeypatch.setattr(site, "ensure_assets", lambda project: None)
    monkeypatch.setattr(site, "find_project", lambda: project)
    builds = []

    def fake_build(project, site_dir, env=None):  # the quick build: pages only
        builds.append((env or {}).get(site_notebooks.LATER_ENV))
        site_dir.mkdir(parents=True, exist_ok=True)
        (site_dir / "index.html").write_text("pages only", encoding="utf-8")
        return True

    def fake_run(command, project, env):  # the whole build, into the folder it is given
        fresh = Path(command[-1])
        fresh.mkdir(parents=True)
        (fresh / "index.html").write_text("with outputs", encoding="utf-8")
        return 0, ""

    served = {}

    def fake_serve(project, folder, args, then=None):
        served["first"] = (folder.path / "index.html").read_text(encoding="utf-8")
        then.run()  # what the thread does while the server runs
        served["after"] = (folder.path / "index.html").read_text(encoding="utf-8")
        served["path"] = folder.path
        return 0

    monkeypatch.setattr(site, "build", fake_build)
    monkeypatch.setattr(site, "_run_build", fake_run)
    monkeypatch.setattr(site, "_serve", fake_serve)
    assert site.open_course(["--no-browser"]) == 0
    assert builds == ["later"]
    assert served == {"first": "pages only", "after": "with outputs", "path": project / "site"}
    out = capsys.readouterr().out
    assert site_say("open.notebooks_missing", total=1) in out
    assert site_say("open.building_pages") in out
    assert "Notebook outputs are in" in out


def test_the_cache_marker_says_every_notebook_ran_until_a_notebook_changes(tmp_path, monkeypatch):
    project = tmp_path
    (project / "notebooks").mkdir()
    (project / "mkdocs.yml").write_text("site_name: x\n", encoding="utf-8")
    book = project / "notebooks/day00.ipynb"
    book.write_text("{}", encoding="utf-8")
    cache = project / site_notebooks.CACHE_DIR
    config = {"execute": True, "cache": True}
    config["cache_dir"] = str(cache / site_notebooks.source_hash(project))
    assert not site_notebooks.all_executed(project, cache)
    monkeypatch.setenv(site_notebooks.LATER_ENV, "later")
    site_notebooks.mark_executed(project, config)  # a pages-only build marks nothing
    assert not site_notebooks.all_executed(project, cache)
    monkeypatch.delenv(site_notebooks.LATER_ENV)
    site_notebooks.mark_executed(project, config)
    assert site_notebooks.all_executed(project, cache)
    book.write_text('{"cells": []}', encoding="utf-8")
    assert not site_notebooks.all_executed(project, cache)


def test_a_pages_only_build_tells_the_reader_that_outputs_follow(monkeypatch):
    from miniagent_course.site import hooks

    class Page:
        class file:
            src_uri = "notebooks/day00_welcome.ipynb"

        toc = title = None

    class Config:
        plugins: dict = {}

    monkeypatch.setenv(site_notebooks.LATER_ENV, "later")
    assert site_say("open.outputs_later") in hooks.on_page_content("<p>x</p>", Page, Config, None)
    monkeypatch.delenv(site_notebooks.LATER_ENV)
    assert "Outputs on their way" not in hooks.on_page_content("<p>x</p>", Page, Config, None)
